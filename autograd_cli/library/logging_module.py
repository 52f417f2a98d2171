"""`logging`: the loggers scripts write their progress to, with Python's levels and formats.

Each run has loggers of its own (a private hierarchy under a root logger at WARNING, as a fresh
Python process has), so nothing a program configures reaches agraph or another run. Records
are formatted by Python's `logging.Formatter` and go where Python would send them: to standard
error (agraph's), or to the program's output for `stream=sys.stdout`. As in Python, the
module-level functions (`logging.info`, ...) configure the root logger on first use and a
named logger with no handler anywhere prints WARNING and above as the bare message. Writing to
files (`filename=`, `FileHandler`) is refused.

A record's text is made by agraph, not by Python's `%` and `str.format`: the message's `%`
arguments and the format's fields (`%`, `{` or `$` style) are filled in by the interpreter's
sized formatting (widths checked before the text is built, `{msg.__class__}` refused as
`x.__class__` is), the host's process and thread ids are not given (None, as Python gives them
with `logging.logProcesses` off), and what goes to stderr counts against the output cap.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping
from typing import Any

from autograd_cli.language.objects import Namespace, display_str
from autograd_cli.library.host import Stdout
from engine import memory
from engine.addresses import address_of
from engine.refused import Refused

LEVELS = {"CRITICAL": logging.CRITICAL, "FATAL": logging.FATAL, "ERROR": logging.ERROR,
          "WARNING": logging.WARNING, "WARN": logging.WARN, "INFO": logging.INFO,
          "DEBUG": logging.DEBUG, "NOTSET": logging.NOTSET}


def _level(level: Any) -> int:
    if isinstance(level, str):
        if level not in LEVELS:
            raise ValueError(f"Unknown level: {level!r}")
        return LEVELS[level]
    if type(level) is not int:
        raise TypeError(f"Level not an integer or a valid string: {level!r}")
    return level


MAX_FORMAT = 10_000  # characters of a format or a datefmt (strftime's text is 256 times that)
# what a record does not tell about the host (Python's values with logProcesses off)
HIDDEN_FIELDS = {"process": None, "thread": None, "processName": "MainProcess",
                 "threadName": "MainThread"}


def _options(fmt: Any, datefmt: Any, style: Any) -> tuple[Any, Any, Any]:
    """A format's options, checked as logging.Formatter checks them, and sized."""
    for name, text in (("format", fmt), ("datefmt", datefmt)):
        if text is not None and (not isinstance(text, str) or len(text) > MAX_FORMAT):
            raise ValueError(f"a logging {name} is a str of at most {MAX_FORMAT} characters")
    logging.Formatter(fmt, datefmt, style)  # Python's errors for a bad format or style
    return fmt, datefmt, style


class _RunFormatter(logging.Formatter):
    """Python's Formatter, its fields filled in by the interpreter's sized formatting."""

    def __init__(self, runtime: Any, fmt: Any, datefmt: Any, style: Any) -> None:
        super().__init__(fmt, datefmt, style)
        self.runtime = runtime
        self.style_name = style

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        fields = {**record.__dict__, **HIDDEN_FIELDS}
        template = self._style._fmt or ""
        formatter = self.runtime.formatter
        try:
            if self.style_name == "{":
                return formatter.format_string(template, (), fields)  # type: ignore
            if self.style_name == "$":
                pattern = string.Template(template)
                formatter.check_length(len(template) + sum(
                    len(display_str(fields.get(match["named"] or match["braced"], "")))
                    for match in pattern.pattern.finditer(template)))
                return pattern.substitute(fields)
            return formatter.percent(template, fields)  # type: ignore[no-any-return]
        except KeyError as missing:
            raise ValueError(f"Formatting field not found in record: {missing}") from None


class _Sink(logging.Handler):
    """A handler writing formatted records to the program's output or agraph's stderr."""

    def __init__(self, runtime: Any, write: Any, level: int = logging.NOTSET) -> None:
        super().__init__(level)
        self.runtime = runtime
        self.write = write

    def emit(self, record: logging.LogRecord) -> None:
        self.write(self.format(record) + "\n")


class Handler:
    """`logging.StreamHandler(...)` as the program holds it."""

    PUBLIC_ATTRS = frozenset({"setLevel", "setFormatter", "level"})
    __slots__ = ("handler",)

    def __init__(self, handler: _Sink) -> None:
        self.handler = handler

    @property
    def level(self) -> int:
        return self.handler.level

    def setLevel(self, level: Any) -> None:  # noqa: N802 - logging's name
        self.handler.setLevel(_level(level))

    def setFormatter(self, formatter: Any) -> None:  # noqa: N802 - logging's name
        if not isinstance(formatter, Formatter):
            raise TypeError("setFormatter() takes a logging.Formatter")
        self.handler.setFormatter(_RunFormatter(self.handler.runtime, *formatter.options))

    def __repr__(self) -> str:
        return f"<StreamHandler ({logging.getLevelName(self.handler.level)})>"


class Formatter:
    """`logging.Formatter(fmt, datefmt, style)`."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("options",)

    def __init__(self, fmt: Any = None, datefmt: Any = None, style: Any = "%") -> None:
        self.options = _options(fmt, datefmt, style)

    def __repr__(self) -> str:
        return f"<logging.Formatter object at {address_of(self)}>"


class Logger:
    """A logger of the run's own hierarchy."""

    PUBLIC_ATTRS = frozenset({
        "debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log",
        "setLevel", "getEffectiveLevel", "isEnabledFor", "addHandler", "removeHandler",
        "hasHandlers", "getChild", "name", "level", "propagate", "disabled"})
    SETTABLE_ATTRS = frozenset({"propagate", "disabled"})
    __slots__ = ("logger", "logging")

    def __init__(self, logger: logging.Logger, owner: Any) -> None:
        self.logger = logger
        self.logging = owner

    name = property(lambda self: self.logger.name)
    level = property(lambda self: self.logger.level)

    @property
    def propagate(self) -> bool:
        return self.logger.propagate

    @propagate.setter
    def propagate(self, value: Any) -> None:
        self.logger.propagate = bool(value)

    @property
    def disabled(self) -> bool:
        return self.logger.disabled

    @disabled.setter
    def disabled(self, value: Any) -> None:
        self.logger.disabled = bool(value)

    def log(self, level: Any, msg: Any, *args: Any, **kwargs: Any) -> None:
        level = _level(level)
        if self.logger.isEnabledFor(level):
            text = msg if type(msg) is str else display_str(msg)
            if args:  # Python's `msg % args`, a lone non-empty mapping as the mapping
                values = args[0] if len(args) == 1 and isinstance(args[0], Mapping) and args[0] \
                    else args
                text = self.logging.runtime.formatter.percent(text, values)
            self.logger.log(level, text)

    def debug(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(logging.DEBUG, msg, *args)

    def info(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(logging.INFO, msg, *args)

    def warning(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(logging.WARNING, msg, *args)

    warn = warning

    def error(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(logging.ERROR, msg, *args)

    exception = error

    def critical(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(logging.CRITICAL, msg, *args)

    fatal = critical

    def setLevel(self, level: Any) -> None:  # noqa: N802 - logging's name
        self.logger.setLevel(_level(level))

    def getEffectiveLevel(self) -> int:  # noqa: N802 - logging's name
        return self.logger.getEffectiveLevel()

    def isEnabledFor(self, level: Any) -> bool:  # noqa: N802 - logging's name
        return self.logger.isEnabledFor(_level(level))

    def addHandler(self, handler: Any) -> None:  # noqa: N802 - logging's name
        if not isinstance(handler, Handler):
            raise TypeError("addHandler() takes a logging handler")
        self.logger.addHandler(handler.handler)

    def removeHandler(self, handler: Any) -> None:  # noqa: N802 - logging's name
        if isinstance(handler, Handler):
            self.logger.removeHandler(handler.handler)

    def hasHandlers(self) -> bool:  # noqa: N802 - logging's name
        return self.logger.hasHandlers()

    def getChild(self, suffix: Any) -> Logger:  # noqa: N802 - logging's name
        return self.logging.get_logger(f"{self.logger.name}.{suffix}"
                                       if self.logger.name != "root" else str(suffix))

    def __repr__(self) -> str:
        kind = "RootLogger" if self.logger.name == "root" else "Logger"
        return (f"<{kind} {self.logger.name} "
                f"({logging.getLevelName(self.logger.getEffectiveLevel())})>")


class _RunLogging:
    """Loggers of a run: a record no handler took goes to the run's last resort (Python's
    goes to the host's), and a record's place is the program's line, not agraph's."""

    manager: Any

    def callHandlers(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        current: Any = self
        found = 0
        while current:
            for handler in current.handlers:
                found += 1
                if record.levelno >= handler.level:
                    handler.handle(record)
            current = current.parent if current.propagate else None
        last_resort = self.manager.last_resort
        if not found and record.levelno >= last_resort.level:
            last_resort.handle(record)

    def findCaller(self, stack_info: bool = False, stacklevel: int = 1  # noqa: N802
                   ) -> tuple[str, int, str, None]:
        return "<program>", self.manager.line(), "<module>", None


class _RunManager(logging.Manager):
    """The run's hierarchy, with its last resort and the program's line for records."""

    def __init__(self, root: logging.RootLogger, last_resort: logging.Handler,
                 line: Any) -> None:
        super().__init__(root)
        self.last_resort = last_resort
        self.line = line
        self.setLoggerClass(_RunLogger)


class _RunLogger(_RunLogging, logging.Logger):
    pass


class _RunRoot(_RunLogging, logging.RootLogger):
    pass


class _Logging:
    """One run's logging: its root, its named loggers and where records are written."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.root = _RunRoot(logging.WARNING)
        # a named logger with no handler anywhere: WARNING and above, the bare message
        self.manager = _RunManager(self.root, _Sink(runtime, self.stderr, logging.WARNING),
                                   self.line)
        self.root.manager = self.manager
        self.views: dict[str, Logger] = {}

    def line(self) -> int:
        node = getattr(self.runtime, "node", None)
        return getattr(node, "lineno", 0)

    def stdout(self, text: str) -> None:
        self.runtime.check_output(len(text))
        self.runtime.write(text)

    def stderr(self, text: str) -> None:
        self.runtime.write_error(text)

    def writer(self, stream: Any) -> Any:
        if stream is None or (isinstance(stream, Refused)
                              and stream.qualified_name == "sys.stderr"):
            return self.stderr
        if isinstance(stream, Stdout):
            return self.stdout
        raise ValueError("logging can write to sys.stdout or sys.stderr in agraph")

    def get_logger(self, name: Any = None) -> Logger:
        logger: logging.Logger
        if name is None or name == "root":
            logger = self.root
        elif not isinstance(name, str):
            raise TypeError("A logger name must be a string")
        else:
            # Python makes a placeholder for every dotted prefix of the name: its text first
            memory.check(name.count(".") * (len(name) + 300), f"a logger named with "
                         f"{name.count('.')} dots")
            logger = self.manager.getLogger(name)
        key = logger.name
        if key not in self.views:
            self.views[key] = Logger(logger, self)
        return self.views[key]

    def basic_config(self, **options: Any) -> None:
        if options.get("filename") is not None or options.get("handlers") is not None:
            raise PermissionError("logging to files is not available in agraph: a program "
                                  "cannot write files")
        if options.pop("force", False):
            for handler in list(self.root.handlers):
                self.root.removeHandler(handler)
        if self.root.handlers:
            return
        handler = _Sink(self.runtime, self.writer(options.get("stream")))
        handler.setFormatter(_RunFormatter(self.runtime, *_options(
            options.get("format", logging.BASIC_FORMAT), options.get("datefmt"),
            options.get("style", "%"))))
        self.root.addHandler(handler)
        if options.get("level") is not None:
            self.root.setLevel(_level(options["level"]))

    def module_call(self, level: int, msg: Any, args: tuple[Any, ...]) -> None:
        if not self.root.handlers:
            self.basic_config()
        self.get_logger().log(level, msg, *args)


def namespace(runtime: Any, name: str) -> Namespace:
    state = _Logging(runtime)

    def level_function(level: int) -> Any:
        def log(msg: Any, *args: Any, **kwargs: Any) -> None:
            state.module_call(level, msg, args)
        log.__name__ = logging.getLevelName(level).lower()
        return log

    def stream_handler(stream: Any = None) -> Handler:
        return Handler(_Sink(runtime, state.writer(stream)))

    def basic_config(**options: Any) -> None:
        state.basic_config(**options)

    def log(level: Any, msg: Any, *args: Any, **kwargs: Any) -> None:
        state.module_call(_level(level), msg, args)

    def get_level_name(level: Any) -> Any:
        if type(level) in (int, str):
            return logging.getLevelName(level)
        return f"Level {display_str(level)}"  # Python's "Level %s" % level, shown as the program's

    def disable(level: Any = logging.CRITICAL) -> None:
        state.manager.disable = _level(level)

    def get_logger(name: Any = None) -> Logger:
        return state.get_logger(name)

    get_logger.__name__ = "getLogger"
    members: dict[str, Any] = {
        **LEVELS, "getLogger": get_logger, "basicConfig": basic_config,
        "StreamHandler": stream_handler, "Formatter": Formatter, "log": log,
        "getLevelName": get_level_name, "disable": disable,
        "FileHandler": Refused("logging.FileHandler", "files"),
        **{logging.getLevelName(level).lower(): level_function(level) for level in (
            logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL)},
    }
    members["warn"] = members["warning"]
    members["exception"] = members["error"]
    return Namespace(name, members)

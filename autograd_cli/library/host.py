"""`os`, `os.path`, `sys` and `pdb`: importable, with what tutorials use that stays inside the
program.

`os.path.join`, `basename`, `dirname`, `splitext`, ... only work on strings and are given;
`sys.stdout.write` writes into the program's output as `print` does; everything that looks at
or changes the host (`os.system`, `os.listdir`, `os.environ`, `os.path.exists`, `sys.exit`,
`sys.path`, `pdb.set_trace`, ...) is Refused when used.
"""

from __future__ import annotations

import posixpath
from typing import Any

from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.memory import check_text
from autograd_cli.language.objects import Namespace
from engine.refused import Refused, refused

_PATH_STRINGS = ("join", "basename", "dirname", "split", "splitext", "normpath", "isabs")
_PATH_REFUSED = {name: "environment" for name in (
    "exists", "isfile", "isdir", "islink", "getsize", "getmtime", "getctime", "getatime",
    "abspath", "realpath", "expanduser", "expandvars", "samefile", "lexists", "ismount",
    "relpath")}
_OS_REFUSED = {
    **{name: "process" for name in (
        "system", "popen", "fork", "kill", "execv", "execve", "execl", "execlp", "execvp",
        "spawnl", "spawnv", "posix_spawn", "startfile", "_exit", "abort", "killpg", "wait",
        "waitpid", "nice", "getpid", "getppid", "putenv", "unsetenv", "chdir")},
    **{name: "files" for name in (
        "open", "remove", "unlink", "rmdir", "removedirs", "mkdir", "makedirs", "rename",
        "renames", "replace", "listdir", "scandir", "walk", "stat", "lstat", "chmod", "chown",
        "link", "symlink", "readlink", "truncate", "fdopen", "read", "write", "close",
        "getcwd", "access", "utime", "mkfifo", "pipe", "dup", "dup2")},
    **{name: "environment" for name in ("getenv", "cpu_count", "getlogin", "uname",
                                         "get_terminal_size", "urandom")},
}
_PDB_REFUSED = {name: "interpreter" for name in (
    "set_trace", "run", "runeval", "runcall", "post_mortem", "pm", "Pdb")}
_SYS_REFUSED = {
    **{name: "interpreter" for name in (
        "exit", "setrecursionlimit", "getrecursionlimit", "settrace", "setprofile", "getsizeof",
        "getrefcount", "_getframe", "exc_info", "intern", "addaudithook")},
}


class Stdout:
    """`sys.stdout`: `write` and `flush`, into the program's output (what `print` writes)."""

    PUBLIC_ATTRS = frozenset({"write", "flush"})

    def __init__(self, runtime: Any) -> None:
        self._runtime = runtime

    def write(self, text: Any) -> int:
        if type(text) is not str:
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._runtime.check_output(len(text))
        self._runtime.write(text)
        return len(text)

    def flush(self) -> None:
        return None

    def __repr__(self) -> str:
        return "<_io.TextIOWrapper name='<stdout>' mode='w' encoding='utf-8'>"


def _sized_join(max_len: int) -> Any:
    """`os.path.join`: the only path function whose result outgrows its arguments
    (`join(s, *[s] * 200)`): its length is checked before Python joins them."""
    def join(a: Any, *p: Any) -> Any:
        parts = (a, *p)
        if all(type(part) in (str, bytes) for part in parts):  # else Python's own TypeError
            length = sum(map(len, parts)) + len(parts)
            if length > max_len:
                raise LimitExceeded("max_str_len", f"os.path.join would make a string of "
                                    f"{length} characters, more than {max_len}")
            check_text(length, *parts)
        return posixpath.join(a, *p)

    return join


def namespace(runtime: Any, name: str) -> Namespace:
    path = Namespace("os.path", {
        **{function: getattr(posixpath, function) for function in _PATH_STRINGS},
        "join": _sized_join(runtime.limits.max_str_len),
        **refused("os.path", _PATH_REFUSED), "sep": "/",
    })
    if name == "sys":
        return Namespace("sys", {
            **refused("sys", _SYS_REFUSED),
            **{attribute: Refused(f"sys.{attribute}", "interpreter") for attribute in (
                "path", "modules", "argv", "stdin", "stderr", "executable",
                "platform", "version", "version_info", "flags", "prefix", "meta_path")},
            "stdout": Stdout(runtime), "maxsize": 2**63 - 1,
        })
    if name == "pdb":
        return Namespace("pdb", refused("pdb", _PDB_REFUSED))
    return Namespace("os", {
        **refused("os", _OS_REFUSED), "path": path, "sep": "/", "linesep": "\n",
        "environ": Refused("os.environ", "environment"),
        "name": Refused("os.name", "environment"),
    })

"""A Sphinx extension: `.. agraph:: path/to/prog.expr` draws the program's graph at build time.

In conf.py: `extensions = ["autograd_cli.sphinx"]`, then in a page:

    .. agraph:: examples/leaf.expr
       :view: backward          (forward, the default, or backward)
       :format: svg             (svg, the default, png, or mermaid)
       :output:                 (also show what the program printed)
       :table:                  (also show the table of its tensors)
       :rankdir: LR             (TB, the default, or LR)
       :alt: the leaves and the ops between them

The path is relative to the page (or to the source directory when it starts with `/`), and a
change to the program rebuilds the page. Each program is run by the `agraph` command line in
a process of its own (its limits, its sandbox, its exact error messages), once per content:
the results are cached under the doctree directory, keyed by the program's bytes, the options
and agraph's version. A program that fails stops the build with agraph's own
`FILE:LINE:COL: ErrorType: message`. Pictures are embedded in the page as data URIs (svg,
png) or as a `<pre class="mermaid">` block, so the output is the same bytes on every build.

Imported only by Sphinx (it imports sphinx and docutils), never by agraph's commands.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

FORMATS = ("svg", "png", "mermaid")
MIME = {"svg": "image/svg+xml", "png": "image/png"}
TABLE_COLUMNS = 100  # the width of the table in the page: fixed, so builds agree


class AgraphDirective(SphinxDirective):
    required_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {
        "view": lambda value: one_of(value, ("forward", "backward")),
        "format": lambda value: one_of(value, FORMATS),
        "rankdir": lambda value: one_of(value, ("TB", "LR")),
        "output": directives.flag,
        "table": directives.flag,
        "alt": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        relative, absolute = self.env.relfn2path(self.arguments[0], self.env.docname)
        self.env.note_dependency(relative)
        program = Path(absolute)
        if not program.is_file():
            raise self.error(f"agraph: {self.arguments[0]}: no such program "
                             f"(looked for {relative})")
        fmt = self.options.get("format", "svg")
        view = self.options.get("view", "forward")
        rankdir = self.options.get("rankdir", "TB")
        cache = Path(self.env.app.doctreedir) / "agraph"
        try:
            picture = cached_run(cache, program, relative, ["render", "--format", fmt, "--view",
                                                            view, "--rankdir", rankdir])
            shown: list[nodes.Node] = []
            if "output" in self.options or "table" in self.options:
                shown.extend(self._printed(cache, program, relative))
        except AgraphFailed as failure:
            return self._failed(str(failure))
        shown.append(self._picture(picture, fmt, relative))
        container = nodes.container(classes=["agraph"])
        container.extend(shown)
        return [container]

    def _failed(self, message: str) -> list[nodes.Node]:
        """Report agraph's error at the directive, fail the build (exit 1), and read the page
        again next time (until the program is fixed)."""
        logger.error(message, location=self.get_location())
        failures: set[str] = getattr(self.env, "agraph_failures", set())
        failures.add(self.env.docname)
        self.env.agraph_failures = failures  # type: ignore[attr-defined]
        self.env.note_reread()
        return [literal(message, "agraph-error")]

    def _printed(self, cache: Path, program: Path, relative: str) -> list[nodes.Node]:
        document = json.loads(cached_run(cache, program, relative, ["run", "--json"]))
        printed: str = document["stdout"]
        blocks: list[nodes.Node] = []
        if "output" in self.options and printed:
            blocks.append(literal(printed, "agraph-output"))
        if "table" in self.options:
            both = cached_run(cache, program, relative, ["run", "--table"]).decode("utf-8")
            table = both[len(printed):] if both.startswith(printed) else both
            blocks.append(literal(table, "agraph-table"))
        return blocks

    def _picture(self, data: bytes, fmt: str, relative: str) -> nodes.Node:
        alt = self.options.get("alt", f"the graph of {relative}")
        if fmt == "mermaid":
            text = data.decode("utf-8")
            html = f'<pre class="mermaid">\n{escape_html(text)}</pre>\n'
            return nodes.raw("", html, format="html")
        uri = f"data:{MIME[fmt]};base64,{base64.b64encode(data).decode('ascii')}"
        image = nodes.image(uri=uri, alt=alt, candidates={"?": uri})
        return image


def literal(text: str, css_class: str) -> nodes.literal_block:
    """Text shown as it is (no syntax highlighting)."""
    block = nodes.literal_block(text, text, classes=[css_class])
    block["language"] = "text"
    return block


def one_of(value: str | None, allowed: tuple[str, ...]) -> str:
    """An option's value, exactly one of `allowed` (docutils' `choice` would lowercase it)."""
    text = (value or "").strip()
    if text not in allowed:
        raise ValueError(f"{text!r} is not one of: {', '.join(allowed)}")
    return text


def escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def cached_run(cache: Path, program: Path, relative: str, command: list[str]) -> bytes:
    """stdout of `agraph COMMAND[0] PROGRAM COMMAND[1:] -q`, from the cache when the same
    program, options and agraph were run before; raises ExtensionError with agraph's message
    when the program fails (AgraphFailed with agraph's message)."""
    source = program.read_bytes()
    key = hashlib.sha256(json.dumps([agraph_version(), command]).encode("utf-8") + b"\0"
                         + source).hexdigest()
    cached = cache / f"{key}.out"
    if cached.is_file():
        return cached.read_bytes()
    environment = {**os.environ, "NO_COLOR": "1", "COLUMNS": str(TABLE_COLUMNS)}
    environment.pop("FORCE_COLOR", None)
    done = subprocess.run(
        [sys.executable, "-m", "autograd_cli", command[0], "-", *command[1:], "-q"],
        input=source, capture_output=True, env=environment, cwd=program.parent,
        timeout=600, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").replace("<stdin>", relative)
        raise AgraphFailed(f"agraph {command[0]} failed:\n{message.rstrip()}")
    cache.mkdir(parents=True, exist_ok=True)
    temporary = cached.with_suffix(".tmp")
    temporary.write_bytes(done.stdout)
    temporary.replace(cached)
    return done.stdout


class AgraphFailed(Exception):
    """The program (or the request) failed; the message is agraph's."""


def agraph_version() -> str:
    try:
        return version("agraph")
    except PackageNotFoundError:
        return "unknown"


def _purge(app: Any, env: Any, docname: str) -> None:
    getattr(env, "agraph_failures", set()).discard(docname)


def _merge(app: Any, env: Any, docnames: Any, other: Any) -> None:
    failures: set[str] = getattr(env, "agraph_failures", set())
    failures |= getattr(other, "agraph_failures", set())
    env.agraph_failures = failures


def _finish(app: Any, exception: BaseException | None) -> None:
    if exception is None and getattr(app.env, "agraph_failures", None):
        app.statuscode = 1  # "build finished with problems"


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("agraph", AgraphDirective)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _finish)
    return {"version": agraph_version(), "parallel_read_safe": True,
            "parallel_write_safe": True}

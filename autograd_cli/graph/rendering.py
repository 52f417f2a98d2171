"""The library call behind `agraph render`, `run --svg` and the `graph` field of `run --json`.

    recorder = GraphRecorder(keep_pass=pass_number)   # installed while the program runs
    data = render(recorder, fmt="svg", view="forward", pass_number=pass_number, ...)
    write_atomically(output_path, data, input_path)    # or sys.stdout.buffer.write(data)

Renderers are imported only for the format asked, so `dot`, `json` and `mermaid` never load
Graphviz and never need its binary.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

from autograd_cli.graph.paths import given_text
from autograd_cli.graph.recorder import DEFAULT_MAX_NODES, GraphRecorder, ViewOptions, build_graph
from autograd_cli.language.bounds import Bound
from autograd_cli.language.interpreter import run_observed
from renderers.formats import FORMATS, IMAGE_FORMATS, RANKDIRS, VIEWS
from renderers.model import Graph
from renderers.svg import GraphvizFailed, GraphvizMissing

__all__ = ["FORMATS", "GraphvizFailed", "GraphvizMissing", "OutputError", "RenderError",
           "check_output_path", "graph_dict", "graph_model", "render", "render_model",
           "write_atomically"]


class RenderError(Exception):
    """A render request that cannot be met (e.g. `--pass 3` after two passes): exit 1."""


class NothingToDraw(RenderError):
    """The view asked for has no node (a backward view of a program without grad_fn)."""


class OutputError(RenderError):
    """The output path cannot be written (missing directory, a directory, the input itself)."""


def record_program(text: str, limits: Any = None, *, keep_pass: int | None = None,
                   echo: Any = None, observers: Sequence[Any] = (),
                   recorder: GraphRecorder | None = None) -> tuple[Any, GraphRecorder]:
    """Run a program with a recorder installed: (the interpreter's RunResult, the recorder).

    `observers` (a tracer, a debugger, ...) see every event too, after the recorder; a
    debugger that draws the graph while the program runs passes the `recorder` to use."""
    if recorder is None:
        recorder = GraphRecorder(keep_pass=keep_pass)
    recorder.source_lines = text.splitlines()
    result = run_observed(text, limits, observers=[recorder, *observers], echo=echo)
    recorder.set_variables(result.variables)
    return result, recorder


def graph_model(recorder: GraphRecorder, *, view: str = "forward",
                pass_number: int | None = None, show_saved: bool = False, values: bool = True,
                grads: bool = True, legend: bool = True, rankdir: str = "TB",
                max_nodes: int = DEFAULT_MAX_NODES, title: str = "", details: bool = False,
                unroll: int | None = None, bound: Bound | None = None) -> Graph:
    """The neutral model of the requested view; its making ticks `bound`
    (autograd_cli/language/bounds.py: it raises LimitExceeded when the time or memory limit is
    hit)."""
    if view not in VIEWS:
        raise RenderError(f"unknown view {view!r}; expected one of: {', '.join(VIEWS)}")
    if rankdir not in RANKDIRS:
        raise RenderError(f"unknown rankdir {rankdir!r}; expected one of: {', '.join(RANKDIRS)}")
    if max_nodes < 1:
        raise RenderError("--max-nodes must be at least 1")
    if pass_number is not None:
        if not 1 <= pass_number <= recorder.passes:
            raise RenderError(f"--pass {pass_number}: the program ran {recorder.passes} "
                              f"backward pass{'es' if recorder.passes != 1 else ''} "
                              "(backward() or autograd.grad)")
        if recorder.keep_pass != pass_number:
            raise RenderError(f"--pass {pass_number}: the recorder kept pass "
                              f"{recorder.keep_pass}; make it with keep_pass={pass_number}")
    if unroll is not None and unroll < 0:
        raise RenderError("--unroll must be 0 (every iteration) or more")
    options = ViewOptions(view, values, grads, show_saved, legend, rankdir, max_nodes, title,
                          details, unroll)
    return build_graph(recorder, options, pass_number, bound)


def check_something_to_draw(graph: Graph) -> None:
    """Raise NothingToDraw for a backward view without a node (the command line says so
    instead of writing a blank picture)."""
    if graph.view == "backward" and not graph.nodes:
        raise NothingToDraw(
            "--view backward: nothing to draw: no tensor of the program has a grad_fn (none "
            "requires grad, or every op ran under no_grad), so autograd built no backward "
            "graph. Draw the ops with --view forward (the default), or create a leaf with "
            "requires_grad=True.")


def graph_dict(recorder: GraphRecorder, **options: Any) -> dict[str, Any]:
    """The `graph` field of `agraph run --json` (same options as `graph_model`)."""
    return graph_model(recorder, **options).to_dict()


def render(recorder: GraphRecorder, *, fmt: str = "svg", **options: Any) -> bytes:
    """The picture as bytes in `fmt` (svg, png, pdf, dot, json, mermaid).

    Raises RenderError for an impossible request, GraphvizMissing when svg/png/pdf need `dot`
    and it is not installed, GraphvizFailed when `dot` fails.
    """
    if fmt not in FORMATS:
        raise RenderError(f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}")
    if fmt == "html":
        return render_page(recorder, **options)
    return render_model(graph_model(recorder, **options), fmt)


def render_page(recorder: GraphRecorder, *, view: str = "forward", file_name: str = "",
                transform: Any = None, **options: Any) -> bytes:
    """The interactive HTML page: both views (the one asked for first), each with its
    timeline and details (renderers/html.py); `transform` marks up each model first."""
    views = []
    for name in (view, *(v for v in VIEWS if v != view)):
        graph = graph_model(recorder, view=name, details=True, **options)
        views.append(transform(graph) if transform else graph)
    from renderers.html import render_html  # lazy: startup time (loaded only when used)

    return render_html(views, file_name)


def render_model(graph: Graph, fmt: str = "svg") -> bytes:
    """A model (e.g. one that `explain` or `--detect-anomaly` marked up) as bytes in `fmt`."""
    if fmt not in FORMATS:
        raise RenderError(f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}")
    if fmt == "html":
        from renderers.html import render_html  # lazy: startup time (loaded only when used)

        return render_html([graph])
    if fmt == "json":
        from renderers.json_graph import render_json  # lazy: startup time (loaded only when used)

        return render_json(graph).encode("utf-8")
    if fmt == "mermaid":
        from renderers.mermaid import render_mermaid  # lazy: startup time (loaded only when used)

        return render_mermaid(graph).encode("utf-8")
    from renderers.dot import render_dot  # lazy: startup time (loaded only when used)

    source = render_dot(graph)
    if fmt == "dot":
        return source.encode("utf-8")
    assert fmt in IMAGE_FORMATS
    from renderers.svg import layout  # lazy: startup time (loaded only when used)

    return layout(source, fmt)


def write_atomically(path: str | os.PathLike[str], data: bytes,
                     input_path: str | os.PathLike[str] | None = None) -> None:
    """Write `data` to `path` (`-o`, `--svg FILE`, the debugger's `graph FILE`).

    - a regular file, or a new one, is written whole or not at all: a temporary file beside it
      (a short name: any valid file name works), then os.replace. An existing file keeps its
      permission bits (and its owner, where agraph may set it). A symlink at `path` stays: the
      file it points to is the one written;
    - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` are written to that open
      file descriptor, so `-o /dev/stdout` is stdout whatever it is (a pipe, a file opened with
      `>>`, a terminal);
    - a character device (`/dev/null`, a terminal) or a FIFO is written into in place (a FIFO
      waits for its reader): it is never replaced by a regular file;
    - refused, with OutputError: the input program (`input_path`, symlinks and hard links
      included), a directory, a path ending in `/`, a directory that does not exist (none is
      ever created), a block device or a socket.
    """
    target, descriptor, status = _checked_target(path, input_path)
    if descriptor is not None:
        _write_descriptor(descriptor, target, data)
    elif status is not None and (stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode)):
        _write_in_place(target, data)
    else:  # what a symlink at `path` points to is replaced: the link stays
        _replace(target, os.path.realpath(target), data, status)


def check_output_path(path: str | os.PathLike[str],
                      input_path: str | os.PathLike[str] | None = None) -> None:
    """Raise OutputError if `write_atomically` would refuse `path`: the commands ask before the
    program runs, so a mistake in `-o` costs nothing (it is checked again when writing)."""
    _checked_target(path, input_path)


def _checked_target(path: str | os.PathLike[str], input_path: str | os.PathLike[str] | None
                    ) -> tuple[str, int | None, os.stat_result | None]:
    """(the path as typed, the file descriptor it names or None, its stat or None if new), or
    OutputError for a path that cannot be written (see `write_atomically`)."""
    target = given_text(path)  # as typed: `Path` drops the "/" of `newdir/`
    if input_path is not None and os.fspath(input_path) != "-" and same_file(target, input_path):
        raise OutputError(f"{target}: is the input program; refusing to overwrite it")
    descriptor = _descriptor_of(target)
    if descriptor is not None:
        return target, descriptor, None
    try:
        status: os.stat_result | None = os.stat(target)  # follows symlinks
    except FileNotFoundError:
        status = None
    except OSError as error:  # a file where a directory should be, a symlink loop, ...
        raise OutputError(f"{target}: {error.strerror or error}") from None
    if status is None:
        if target.endswith(_SEPARATORS):
            raise OutputError(f"{target}: No such file or directory (a path that ends in / "
                              "names a directory; give a file name)")
    elif stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{target}: is a directory; give a file name (or DIR/, with the "
                          "slash, to draw into it)")
    elif stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        return target, None, status
    elif not stat.S_ISREG(status.st_mode):
        kind = "block device" if stat.S_ISBLK(status.st_mode) else (
            "socket" if stat.S_ISSOCK(status.st_mode) else "special file")
        raise OutputError(f"{target}: is a {kind}, not a regular file; refusing to write to it")
    directory = os.path.dirname(os.path.realpath(target))
    if not os.path.isdir(directory):
        raise OutputError(f"{target}: directory {directory} does not exist")
    return target, None, status


_SEPARATORS = tuple(sep for sep in (os.sep, os.altsep, "/") if sep)
_DESCRIPTOR_PATH = re.compile(r"/(?:dev/fd|proc/self/fd)/(\d+)")
_STANDARD_STREAMS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _descriptor_of(target: str) -> int | None:
    """The file descriptor a path like /dev/stdout or /dev/fd/3 names, else None."""
    absolute = os.path.abspath(target)
    if absolute in _STANDARD_STREAMS:
        return _STANDARD_STREAMS[absolute]
    match = _DESCRIPTOR_PATH.fullmatch(absolute)
    return int(match.group(1)) if match and len(match.group(1)) < 10 else None


def _write_descriptor(descriptor: int, target: str, data: bytes) -> None:
    stream = {1: sys.stdout, 2: sys.stderr}.get(descriptor)
    buffer = getattr(stream, "buffer", None)
    if stream is not None and buffer is not None:  # after what was written to it before
        stream.flush()
        buffer.write(data)
        buffer.flush()
        return
    try:
        _write_all(descriptor, data)
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror or error}") from None


def _write_in_place(target: str, data: bytes) -> None:
    """Write into a character device or a FIFO that exists (opening a FIFO waits for a
    reader); never create, truncate or replace anything."""
    try:
        fd = os.open(target, os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | os.O_CLOEXEC)
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror or error}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):  # changed since it was looked at
            raise OutputError(f"{target}: changed while agraph was opening it; not written")
        _write_all(fd, data)
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror or error}") from None
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _replace(target: str, real: str, data: bytes, old: os.stat_result | None) -> None:
    """Write a temporary file beside `real` and rename it over `real`; the new file gets the
    old one's permission bits and owner, or the usual 0o666 less the umask."""
    directory, name = os.path.split(real)
    try:
        fd, temp = tempfile.mkstemp(prefix=".agraph-", suffix=".tmp", dir=directory)
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror or error}") from None
    try:
        if old is not None:
            _keep_owner(fd, old)
            os.fchmod(fd, stat.S_IMODE(old.st_mode) & 0o777)
        else:
            os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, real)
    except OSError as error:
        _remove_quietly(temp)
        raise OutputError(f"{target}: cannot write: {error.strerror or error}") from None
    except BaseException:
        _remove_quietly(temp)
        raise


def _keep_owner(fd: int, old: os.stat_result) -> None:
    if (old.st_uid, old.st_gid) == (os.geteuid(), os.getegid()):
        return
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except OSError:  # not allowed to (not root): the file becomes the writer's, as with cp
        pass


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    try:
        if os.path.samefile(first, second):
            return True
    except OSError:
        pass
    return os.path.realpath(first) == os.path.realpath(second)


def _remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass

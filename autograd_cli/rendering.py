"""The library call behind `agraph render`, `run --svg` and the `graph` field of `run --json`.

    recorder = GraphRecorder(keep_pass=pass_number)   # installed while the program runs
    data = render(recorder, fmt="svg", view="forward", pass_number=pass_number, ...)
    write_atomically(output_path, data, input_path)    # or sys.stdout.buffer.write(data)

Renderers are imported only for the format asked, so `dot`, `json` and `mermaid` never load
Graphviz and never need its binary.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from autograd_cli.graph_recorder import DEFAULT_MAX_NODES, GraphRecorder, ViewOptions, build_graph
from renderers.model import Graph
from renderers.svg import IMAGE_FORMATS, GraphvizFailed, GraphvizMissing

FORMATS = ("svg", "png", "pdf", "dot", "json", "mermaid")
VIEWS = ("forward", "backward")
RANKDIRS = ("TB", "LR", "BT", "RL")

__all__ = ["FORMATS", "GraphvizFailed", "GraphvizMissing", "OutputError", "RenderError",
           "graph_dict", "graph_model", "render", "render_model", "write_atomically"]


class RenderError(Exception):
    """A render request that cannot be met (e.g. `--pass 3` after two passes): exit 1."""


class OutputError(RenderError):
    """The output path cannot be written (missing directory, a directory, the input itself)."""


def record_program(text: str, limits: Any = None, *, keep_pass: int | None = None,
                   echo: Any = None, observers: Sequence[Any] = (),
                   recorder: GraphRecorder | None = None) -> tuple[Any, GraphRecorder]:
    """Run a program with a recorder installed: (the interpreter's RunResult, the recorder).

    `observers` (a tracer, a debugger, ...) see every event too, after the recorder; a
    debugger that draws the graph while the program runs passes the `recorder` to use."""
    from autograd_cli.interpreter import run_observed

    if recorder is None:
        recorder = GraphRecorder(keep_pass=keep_pass)
    result = run_observed(text, limits, observers=[recorder, *observers], echo=echo)
    recorder.set_variables(result.variables)
    return result, recorder


def graph_model(recorder: GraphRecorder, *, view: str = "forward",
                pass_number: int | None = None, show_saved: bool = False, values: bool = True,
                grads: bool = True, legend: bool = True, rankdir: str = "TB",
                max_nodes: int = DEFAULT_MAX_NODES, title: str = "") -> Graph:
    """The neutral model of the requested view."""
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
    options = ViewOptions(view, values, grads, show_saved, legend, rankdir, max_nodes, title)
    return build_graph(recorder, options, pass_number)


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
    return render_model(graph_model(recorder, **options), fmt)


def render_model(graph: Graph, fmt: str = "svg") -> bytes:
    """A model (e.g. one that `explain` or `--detect-anomaly` marked up) as bytes in `fmt`."""
    if fmt not in FORMATS:
        raise RenderError(f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}")
    if fmt == "json":
        from renderers.json_graph import render_json

        return render_json(graph).encode("utf-8")
    if fmt == "mermaid":
        from renderers.mermaid import render_mermaid

        return render_mermaid(graph).encode("utf-8")
    from renderers.dot import render_dot

    source = render_dot(graph)
    if fmt == "dot":
        return source.encode("utf-8")
    assert fmt in IMAGE_FORMATS
    from renderers.svg import layout

    return layout(source, fmt)


def write_atomically(path: str | os.PathLike[str], data: bytes,
                     input_path: str | os.PathLike[str] | None = None) -> None:
    """Write `data` to `path` whole or not at all (a temp file beside it, then os.replace).

    Refuses to write over `input_path` (the program; symlinks and hard links included), to a
    directory, or into a directory that does not exist (it never creates directories).
    """
    target = os.fspath(path)
    if os.path.isdir(target):
        raise OutputError(f"{target}: is a directory; give a file name")
    directory = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(directory):
        raise OutputError(f"{target}: directory {directory} does not exist")
    if input_path is not None and os.fspath(input_path) != "-" and same_file(target, input_path):
        raise OutputError(f"{target}: is the input program; refusing to overwrite it")
    temp, fd = _create_temp(directory, os.path.basename(target))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except OSError as error:
        _remove_quietly(temp)
        raise OutputError(f"{target}: cannot write: {error.strerror or error}") from None
    except BaseException:
        _remove_quietly(temp)
        raise


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    try:
        if os.path.samefile(first, second):
            return True
    except OSError:
        pass
    return os.path.realpath(first) == os.path.realpath(second)


def _create_temp(directory: str, name: str) -> tuple[str, int]:
    for attempt in range(100):
        temp = os.path.join(directory, f".{name}.{os.getpid()}.{attempt}.tmp")
        try:
            return temp, os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        except OSError as error:
            raise OutputError(f"{os.path.join(directory, name)}: cannot write: "
                              f"{error.strerror or error}") from None
    raise OutputError(f"{os.path.join(directory, name)}: cannot create a temporary file")


def _remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass

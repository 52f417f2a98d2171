"""Figures a program drew with pyplot, drawn by real matplotlib (Agg) from their recorded data.

A figure arrives as plain data (autograd_cli/library/pyplot_module.py: its options, its axes
and the calls made on them, numbers, strings and numpy arrays only); this module replays the
calls on a fresh `matplotlib.figure.Figure` (no pyplot, no global figure state) and returns the
file's bytes. SVG is byte-stable: a fixed hash salt for the ids and no date in the metadata;
PNG and PDF carry no date either. matplotlib is imported here, on first use (`pip install
agraph[plots]`); `available()` says whether it can be.
"""

from __future__ import annotations

import io
from typing import Any

FORMATS = ("svg", "png", "pdf")


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


class FigureTooLarge(ValueError):
    """The image of a figure would need more memory than the run may use."""


def _built(value: Any, modules: dict[str, Any]) -> Any:
    """An argument with the matplotlib objects recorded as data (a locator, the Patches of a
    legend's `handles=[...]`) built from matplotlib's modules."""
    if hasattr(value, "build"):
        return value.build(modules)
    if isinstance(value, list):
        return [_built(item, modules) for item in value]
    return value


def render_figure(figure: Any, fmt: str, options: dict[str, Any] | None = None,
                  max_bytes: int | None = None) -> bytes:
    """The bytes of `figure` (a pyplot_module.FigureSpec) as `fmt` (svg, png or pdf). With
    `max_bytes`, a figure whose pixels (size times dpi, RGBA) would need more is refused
    (FigureTooLarge) before anything is drawn: `figsize=(300, 300), dpi=300` is 32 GB."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib import patches, ticker  # what a program's calls name (locators, Patch)
    from matplotlib.figure import Figure

    modules = {"ticker": ticker, "patches": patches}
    options = dict(options or {})
    style: Any = {"svg.hashsalt": "agraph", "svg.fonttype": "path", "text.usetex": False}

    with matplotlib.rc_context(style):
        drawn = Figure(**{key: value for key, value in figure.options.items()
                          if key in ("figsize", "dpi")})
        images: list[Any] = []
        for axes_spec in figure.axes:
            axes = drawn.add_subplot(*axes_spec.position)
            for name, args, kwargs in axes_spec.calls:
                target = axes
                for part in name.split(".")[:-1]:  # "xaxis.set_major_locator"
                    target = getattr(target, part)
                args = tuple(_built(a, modules) for a in args)
                kwargs = {key: _built(value, modules) for key, value in kwargs.items()}
                result = getattr(target, name.rpartition(".")[2])(*args, **kwargs)
                if name in ("imshow", "matshow", "contourf", "contour", "scatter"):
                    images.append((result, axes))
        for name, args, kwargs in figure.calls:
            if name == "colorbar":
                if images:
                    drawn.colorbar(images[-1][0], ax=images[-1][1], **kwargs)
            else:
                getattr(drawn, name)(*args, **kwargs)
        dpi = options.get("dpi", drawn.dpi)
        width, height = drawn.get_size_inches() * (dpi if isinstance(dpi, int | float)
                                                   else drawn.dpi)
        if max_bytes is not None and not (0 < width * height * 4 <= max_bytes):
            raise FigureTooLarge(f"a figure of {width:.0f} x {height:.0f} pixels needs more "
                                 f"than the limit of {max_bytes} bytes (limit: raise it with "
                                 "--max-memory)")
        buffer = io.BytesIO()
        metadata = {"svg": {"Date": None}, "png": {"Software": None},
                    "pdf": {"CreationDate": None, "ModDate": None}}[fmt]
        saved = {key: options[key] for key in ("dpi", "transparent", "bbox_inches")
                 if key in options}
        drawn.savefig(buffer, format=fmt, metadata=metadata, **saved)
    return buffer.getvalue()

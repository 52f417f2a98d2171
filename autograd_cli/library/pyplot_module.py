"""`matplotlib.pyplot` (and `matplotlib`, `matplotlib.ticker`, `matplotlib.patches`): what a
program draws is recorded.

The calls tutorials make (`plt.plot`, `scatter`, `hist`, `bar`, `imshow`, `xlabel`, `title`,
`legend`, `subplots` and Axes methods, `show`, `savefig`, ...) are kept as plain data, a
`FigureSpec` per figure (numbers, strings and numpy copies of the arrays and tensors given, and
the keyword arguments of an allow-list); nothing of matplotlib runs during the program. After
the run, `agraph run --figures DIR` has real matplotlib (Agg, renderers/figures.py) draw each
figure that `show()` or `savefig()` asked for, or that was left open at the end. The figures of
a run are recorded in autograd_cli/library/drawings.py (cli/figures.py writes them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autograd_cli.language.memory import size_argument
from autograd_cli.language.objects import Namespace
from autograd_cli.library import drawings
from engine import budget, memory
from engine.addresses import address_of
from engine.ndarray import NumpyArray, NumpyFloat, NumpyInt, wrap
from engine.numpy_bridge import to_numpy
from engine.tensor import Tensor

# Keyword arguments drawing calls may take; anything else is refused (`usetex=True` would run
# LaTeX, `url=`/`gid=` would put a program's text in the SVG's attributes).
KEYWORDS = frozenset("""
    color c label linestyle ls linewidth lw marker markersize ms alpha s bins cmap width height
    align edgecolor facecolor fontsize loc which axis density range histtype aspect
    interpolation vmin vmax origin extent bottom left right top zorder rotation ha va ncol
    frameon title shadow fill hatch where step x y xmin xmax ymin ymax label_type orientation
    cumulative log stacked rwidth weights fmt capsize yerr xerr ecolor elinewidth markevery
    drawstyle fontweight fontstyle labelpad pad size weight visible minor base nonpositive
    markerfacecolor markeredgecolor mfc mec linewidths linestyles edgecolors norm levels colors
    horizontalalignment verticalalignment labelsize direction length labelrotation
    bbox_to_anchor borderaxespad fancybox numpoints markerscale scatterpoints framealpha
    autopct startangle explode labels shrink fraction sharex sharey nrows ncols figsize dpi
    num clear squeeze tight bbox_inches transparent format prop xy xytext xycoords textcoords
    handles
""".split())
# Keys of a legend's `prop` dict (matplotlib's FontProperties)
FONT_PROPERTIES = frozenset({"size", "weight", "style", "family", "variant", "stretch"})
DRAWING = """
    plot scatter hist bar barh imshow errorbar fill_between axhline axvline text step stem
    semilogy semilogx loglog pie boxplot contour contourf annotate matshow hlines vlines
""".split()
SETTINGS = """
    set_xlabel set_ylabel set_title legend grid set_xlim set_ylim set_xticks set_yticks
    set_xscale set_yscale set_aspect axis set_xticklabels set_yticklabels tick_params
    invert_yaxis invert_xaxis set_facecolor
""".split()
# what `ax.xaxis` / `ax.yaxis` offer
AXIS_METHODS = frozenset({"set_major_locator", "set_minor_locator", "set_major_formatter",
                          "set_minor_formatter", "set_ticks_position"})
# what `ax.spines['left']` (and right, top, bottom) offers
SPINES = ("left", "right", "top", "bottom")
SPINE_METHODS = frozenset({"set_color", "set_position", "set_visible", "set_linewidth",
                           "set_linestyle", "set_alpha"})
# plt.NAME -> the Axes method it calls
PYPLOT_TO_AXES = {"xlabel": "set_xlabel", "ylabel": "set_ylabel", "title": "set_title",
                  "xlim": "set_xlim", "ylim": "set_ylim", "xticks": "set_xticks",
                  "yticks": "set_yticks", "xscale": "set_xscale", "yscale": "set_yscale",
                  "legend": "legend", "grid": "grid", "axis": "axis",
                  "tick_params": "tick_params"}
MAX_FIGURES = 100
MAX_POINTS = 10_000_000  # numbers recorded in one run, all figures together
# characters of text (titles, labels, annotations) in one run: matplotlib lays text out glyph
# by glyph when the figures are drawn, after the run and outside its time limit
MAX_TEXT = 100_000


@dataclass
class AxesSpec:
    position: tuple[int, int, int]
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)


@dataclass
class FigureSpec:
    """One figure as plain data: its size, its axes and their calls, its own calls."""

    number: int
    options: dict[str, Any] = field(default_factory=dict)
    axes: list[AxesSpec] = field(default_factory=list)
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)

    def snapshot(self) -> FigureSpec:
        return FigureSpec(self.number, dict(self.options),
                          [AxesSpec(a.position, list(a.calls)) for a in self.axes],
                          list(self.calls))


# Artist.set_NAME(value): the keyword NAME of the drawing call the artist came from
ARTIST_SETTERS = {"set_color": "color", "set_label": "label", "set_linestyle": "linestyle",
                  "set_linewidth": "linewidth", "set_marker": "marker", "set_alpha": "alpha"}


class Artist:
    """What drawing calls return (a line, an image, bars): something to hand back to
    `legend`/`colorbar`; its setters (`line.set_color("red")`) change the keywords of the
    drawing call it came from."""

    PUBLIC_ATTRS = frozenset(ARTIST_SETTERS)
    __slots__ = ("_recorder", "_keywords")

    def __init__(self, recorder: Recorder | None = None,
                 keywords: dict[str, Any] | None = None) -> None:
        self._recorder = recorder
        self._keywords = keywords

    def __getattr__(self, name: str) -> Any:
        if name not in ARTIST_SETTERS or self._keywords is None or self._recorder is None:
            raise AttributeError(name)
        keywords, plain = self._keywords, self._recorder.plain

        def setter(value: Any) -> None:
            keywords[ARTIST_SETTERS[name]] = plain(value)
        setter.__name__ = setter.__qualname__ = name
        return setter

    def __repr__(self) -> str:
        return "<matplotlib artist>"


class Recorder:
    """pyplot's state for one run: figures, the current one, what was asked to be written."""

    def __init__(self) -> None:
        self.figures: list[FigureSpec] = []
        self.current: FigureSpec | None = None
        self.current_axes: AxesSpec | None = None
        self.numbers = 0
        self.characters = 0
        self.next_number = 1
        drawings.finishers.append(self.finish)

    def plain(self, value: Any) -> Any:
        """An argument as plain data: numbers, strings, lists of them, numpy copies."""
        if isinstance(value, str):
            self.characters += len(value)
            if self.characters > MAX_TEXT:
                raise budget.LimitError(f"the figures of this run hold more than {MAX_TEXT} "
                                        "characters of text", "--max-memory")
            return value
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, (NumpyFloat, NumpyInt)):
            return value._scalar.item()
        if isinstance(value, (int, float)):
            return value
        if isinstance(value, (Tensor, NumpyArray)):
            array = to_numpy(value)._array if isinstance(value, Tensor) else value._array
            self.count(array.size)
            return np.array(array, copy=True)
        if isinstance(value, range):
            self.count(len(value))
            return list(value)
        if isinstance(value, (list, tuple)):
            self.count(len(value))
            return type(value)(self.plain(item) for item in value)
        if isinstance(value, (Artist, TickerSpec, PatchSpec)):
            return value
        if isinstance(value, Colormap):
            return value.name
        raise TypeError(f"agraph's pyplot takes numbers, strings, lists, arrays and tensors, "
                        f"not {type(value).__name__}")

    def count(self, numbers: int) -> None:
        self.numbers += numbers
        if self.numbers > MAX_POINTS:
            raise budget.LimitError(f"the figures of this run hold more than {MAX_POINTS} "
                                    "numbers", "--max-memory")
        budget.check_bytes(numbers * 8, f"a plot of {numbers} numbers")

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
             ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        fontdict = kwargs.get("fontdict")
        if "fontdict" in kwargs:
            # text properties as a dict (`fontdict={'size': 20}`): the keywords they stand for,
            # checked like the others; a keyword given beside it wins, as in matplotlib
            if fontdict is not None and not isinstance(fontdict, dict):
                raise TypeError(f"{name}() fontdict must be a dict, not "
                                f"{type(fontdict).__name__}")
            kwargs = {**(fontdict or {}), **{k: v for k, v in kwargs.items() if k != "fontdict"}}
        for key in kwargs:
            if key not in KEYWORDS:
                raise TypeError(f"{name}() got an unexpected keyword argument '{key}' (or "
                                "agraph's pyplot does not support it)")
        plain = {key: self.plain(v) for key, v in kwargs.items() if key != "prop"}
        if "prop" in kwargs:
            plain["prop"] = self.font_properties(name, kwargs["prop"])
        return self.plain(tuple(args)), plain

    def font_properties(self, name: str, prop: Any) -> dict[str, Any] | None:
        """A legend's `prop={'size': 14}`: font properties as a dict of allowed keys (never
        `fname`, a font file matplotlib would read)."""
        if prop is None:
            return None
        if not isinstance(prop, dict):
            raise TypeError(f"{name}() prop must be a dict of font properties, not "
                            f"{type(prop).__name__}")
        for key in prop:
            if key not in FONT_PROPERTIES:
                raise TypeError(f"{name}() prop: unexpected font property {key!r} (or agraph's "
                                "pyplot does not support it)")
        return {key: self.plain(v) for key, v in prop.items()}

    def figure(self, num: Any = None, **kwargs: Any) -> Figure:
        if isinstance(num, int) and not isinstance(num, bool):
            for existing in self.figures:
                if existing.number == num:
                    self.current = existing
                    self.current_axes = existing.axes[-1] if existing.axes else None
                    return Figure(self, existing)
        if len(self.figures) >= MAX_FIGURES:
            raise budget.LimitError(f"more than {MAX_FIGURES} figures are open; close some "
                                    "with plt.close()", "--max-memory")
        _, options = self.call("figure", (), kwargs)
        spec = FigureSpec(num if isinstance(num, int) else self.next_number, options)
        self.next_number = max(self.next_number, spec.number) + 1
        self.figures.append(spec)
        self.current, self.current_axes = spec, None
        return Figure(self, spec)

    def current_figure(self) -> FigureSpec:
        if self.current is None:
            self.figure()
        assert self.current is not None
        return self.current

    def axes(self, figure: FigureSpec, position: tuple[int, int, int]) -> Axes:
        for existing in figure.axes:
            if existing.position == position:
                self.current_axes = existing
                return Axes(self, existing)
        spec = AxesSpec(position)
        figure.axes.append(spec)
        self.current, self.current_axes = figure, spec
        return Axes(self, spec)

    def gca(self) -> Axes:
        figure = self.current_figure()
        if self.current_axes is None or self.current_axes not in figure.axes:
            return self.axes(figure, (1, 1, 1))
        return Axes(self, self.current_axes)

    def write(self, figure: FigureSpec, name: str | None, options: dict[str, Any],
              at_end: bool = False) -> None:
        spec = figure.snapshot()

        def render(fmt: str) -> bytes:
            from renderers.figures import render_figure  # matplotlib: only when drawn

            return render_figure(spec, fmt, options, memory.limits["max_bytes"])

        drawing = drawings.Drawing(render, name, "figure")
        (drawings.record_at_end if at_end else drawings.record)(drawing)

    def show(self) -> None:
        for figure in self.figures:
            self.write(figure, None, {})
        self.figures.clear()
        self.current = self.current_axes = None

    def close(self, which: Any = None) -> None:
        if which == "all":
            self.figures.clear()
        else:
            target = which.spec if isinstance(which, Figure) else self.current
            self.figures = [f for f in self.figures if f is not target]
        self.current = self.figures[-1] if self.figures else None
        self.current_axes = None

    def finish(self) -> None:
        """At the end of the run: figures left open are drawn too (a notebook shows them)."""
        for figure in self.figures:
            if figure.axes or figure.calls:
                self.write(figure, None, {}, at_end=True)
        self.figures.clear()


class Axes:
    """An Axes as a program holds it: its drawing and setting methods, recorded; its `xaxis`
    and `yaxis` (their tick locators and formatters, recorded as `xaxis.set_major_locator`)
    and its `spines` (recorded as `spines.left.set_position`)."""

    PUBLIC_ATTRS = (frozenset(DRAWING + SETTINGS + ["xaxis", "yaxis", "spines"]) | AXIS_METHODS
                    | SPINE_METHODS)
    __slots__ = ("_recorder", "_spec", "_prefix")

    def __init__(self, recorder: Recorder, spec: AxesSpec, prefix: str = "") -> None:
        self._recorder = recorder
        self._spec = spec
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        if self._prefix:
            if name not in (SPINE_METHODS if self._prefix.startswith("spines.")
                            else AXIS_METHODS):
                raise AttributeError(name)
        elif name not in Axes.PUBLIC_ATTRS or name in SPINE_METHODS:
            raise AttributeError(name)
        elif name in ("xaxis", "yaxis"):
            return Axes(self._recorder, self._spec, name + ".")
        elif name == "spines":
            return Spines(self._recorder, self._spec)
        method = self._prefix + name
        return lambda *args, **kwargs: record_on(self._recorder, self._spec, method, args,
                                                 kwargs)

    def __repr__(self) -> str:
        return "<Axes>"


class Spines:
    """`ax.spines`: the four lines around an Axes, by name (`ax.spines['top']`)."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("_recorder", "_spec")

    def __init__(self, recorder: Recorder, spec: AxesSpec) -> None:
        self._recorder = recorder
        self._spec = spec

    def __getitem__(self, key: Any) -> Axes:
        if key not in SPINES:
            raise KeyError(key)
        return Axes(self._recorder, self._spec, f"spines.{key}.")

    def __repr__(self) -> str:
        return "<matplotlib.spines.Spines>"


def record_on(recorder: Recorder, spec: AxesSpec, name: str, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> Any:
    plain_args, plain_kwargs = recorder.call(name, args, kwargs)
    spec.calls.append((name, plain_args, plain_kwargs))
    if name == "hist" and plain_args:
        bins = size_argument(plain_kwargs.get("bins", 10))
        if isinstance(bins, int):  # bins=10**9: counts and edges sized before numpy makes them
            budget.check_shape((max(bins, 0) + 1,), 8 * 4)
            plain_kwargs["bins"] = bins
        counts, edges = np.histogram(np.asarray(plain_args[0], dtype=float), bins=bins,
                                     range=plain_kwargs.get("range"))

        return wrap(counts.astype(float)), wrap(edges), Artist(recorder, plain_kwargs)
    if name == "plot":
        return [Artist(recorder, plain_kwargs)]
    return Artist(recorder, plain_kwargs) if name in DRAWING else None


class Figure:
    """A figure as a program holds it (`fig, ax = plt.subplots()`)."""

    PUBLIC_ATTRS = frozenset({"add_subplot", "suptitle", "savefig", "tight_layout", "colorbar",
                              "show", "gca", "subplots_adjust", "set_size_inches", "legend"})
    __slots__ = ("_recorder", "spec")

    def __init__(self, recorder: Recorder, spec: FigureSpec) -> None:
        self._recorder = recorder
        self.spec = spec

    def add_subplot(self, *position: Any, **kwargs: Any) -> Axes:
        return self._recorder.axes(self.spec, _position(position))

    def gca(self) -> Axes:
        return self._recorder.axes(self.spec, self.spec.axes[-1].position if self.spec.axes
                                   else (1, 1, 1))

    def savefig(self, fname: Any, **kwargs: Any) -> None:
        _, options = self._recorder.call("savefig", (), kwargs)
        self._recorder.write(self.spec, _file_name(fname), options)

    def show(self) -> None:
        self._recorder.write(self.spec, None, {})

    def _record(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        plain_args, plain_kwargs = self._recorder.call(name, args, kwargs)
        self.spec.calls.append((name, plain_args, plain_kwargs))

    def suptitle(self, *args: Any, **kwargs: Any) -> None:
        self._record("suptitle", args, kwargs)

    def tight_layout(self, *args: Any, **kwargs: Any) -> None:
        self._record("tight_layout", args, kwargs)

    def subplots_adjust(self, *args: Any, **kwargs: Any) -> None:
        self._record("subplots_adjust", args, kwargs)

    def set_size_inches(self, *args: Any, **kwargs: Any) -> None:
        self._record("set_size_inches", args, kwargs)

    def legend(self, *args: Any, **kwargs: Any) -> None:
        self._record("legend", args, kwargs)

    def colorbar(self, *args: Any, **kwargs: Any) -> None:
        self._record("colorbar", (), kwargs)

    def __repr__(self) -> str:
        return f"<Figure {self.spec.number}>"


COLORMAPS = """
    viridis plasma inferno magma cividis jet rainbow coolwarm bwr seismic RdBu RdYlBu RdYlGn
    Spectral PiYG PRGn BrBG RdGy gray Greys Blues Reds Greens Oranges Purples YlGn YlOrRd PuBu
    BuGn hot cool spring summer autumn winter binary hsv twilight gist_rainbow tab10 tab20
    Paired Set1 Set2 Set3 Accent Pastel1 Dark2 terrain ocean cubehelix bone copper pink
""".split()


class Colormap:
    """`plt.cm.viridis` / `plt.get_cmap("jet")`: a colormap named for `cmap=` (drawn by real
    matplotlib after the run)."""

    PUBLIC_ATTRS = frozenset({"name", "N"})
    __slots__ = ("name",)
    N = 256

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<matplotlib colormap {self.name!r}>"


def get_cmap(name: Any = None, lut: Any = None) -> Colormap:
    if isinstance(name, Colormap):
        return name
    name = "viridis" if name is None else name
    if not isinstance(name, str) or name.removesuffix("_r") not in COLORMAPS:
        raise ValueError(f"{name!r} is not a valid value for cmap (or agraph's pyplot does "
                         "not know it)")
    return Colormap(name)


class AxesGrid:
    """What `plt.subplots(rows, columns)` returns for several Axes: numpy's object array of
    them as far as programs use it (`axes[0, 1]`, `axes[1]`, `axes.flat`, `axes.flatten()`,
    iteration, `len`, `shape`)."""

    PUBLIC_ATTRS = frozenset({"flat", "flatten", "ravel", "shape", "ndim", "size"})
    __slots__ = ("_items", "shape")

    def __init__(self, items: list[Any], shape: tuple[int, ...]) -> None:
        self._items = items  # row-major
        self.shape = shape

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return len(self._items)

    @property
    def flat(self) -> Any:
        return iter(self._items)

    def flatten(self) -> AxesGrid:
        return AxesGrid(list(self._items), (len(self._items),))

    ravel = flatten

    def _rows(self) -> list[Any]:
        if self.ndim == 1:
            return list(self._items)
        columns = self.shape[1]
        return [AxesGrid(self._items[row * columns:(row + 1) * columns], (columns,))
                for row in range(self.shape[0])]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple):
            if len(key) != self.ndim or not all(isinstance(k, int) for k in key):
                raise IndexError("agraph's subplots grid takes one integer index per dimension")
            row, column = key if self.ndim == 2 else (0, key[0])
            columns = self.shape[-1]
            rows = self.shape[0] if self.ndim == 2 else 1
            if not (-rows <= row < rows and -columns <= column < columns):
                raise IndexError(f"index {key} is out of bounds for axes of shape {self.shape}")
            return self._items[(row % rows) * columns + column % columns]
        picked = self._rows()[key]
        return AxesGrid([a for g in picked for a in (g._items if isinstance(g, AxesGrid)
                                                      else [g])],
                        (len(picked), *self.shape[1:])) if isinstance(key, slice) else picked

    def __iter__(self) -> Any:
        return iter(self._rows())

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        return f"array({self._rows()!r}, dtype=object)".replace("'", "")


def _position(position: tuple[Any, ...]) -> tuple[int, int, int]:
    if len(position) == 1 and isinstance(position[0], int) and 111 <= position[0] <= 999:
        digits = str(position[0])
        return int(digits[0]), int(digits[1]), int(digits[2])
    if not position:
        return 1, 1, 1
    if len(position) != 3 or not all(isinstance(p, int) for p in position):
        raise TypeError("subplot positions are (nrows, ncols, index) or a three-digit int")
    rows, columns, index = position
    if not (1 <= index <= rows * columns) or rows * columns > 100:
        raise ValueError(f"num must be an integer with 1 <= num <= {rows * columns}, not "
                         f"{index}")
    return rows, columns, index


def _file_name(fname: Any) -> str:
    if not isinstance(fname, str):
        raise TypeError("agraph's savefig takes a file name (it is written into --figures DIR)")
    return fname


class TickerSpec:
    """`matplotlib.ticker.MultipleLocator(0.5)` and friends, kept as data."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("name", "args")

    def __init__(self, name: str, args: tuple[Any, ...]) -> None:
        self.name = name
        self.args = args

    def __repr__(self) -> str:
        return f"<matplotlib.ticker.{self.name}>"

    def build(self, modules: dict[str, Any]) -> Any:
        """The real locator or formatter, from the `matplotlib.ticker` module given."""
        return getattr(modules["ticker"], self.name)(*self.args)


# What `matplotlib.patches.Patch(...)` may be given: a legend entry's look and label
PATCH_KEYWORDS = frozenset("color facecolor edgecolor label alpha hatch linewidth linestyle "
                           "fill".split())


class PatchSpec:
    """`matplotlib.patches.Patch(color='red', label='class 0')`, kept as data: a legend entry
    a program builds by hand (`plt.legend(handles=[...])`)."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("keywords",)

    def __init__(self, keywords: dict[str, Any]) -> None:
        self.keywords = keywords

    def __repr__(self) -> str:
        return f"<matplotlib.patches.Patch object at {address_of(self)}>"

    def build(self, modules: dict[str, Any]) -> Any:
        return modules["patches"].Patch(**self.keywords)


def _patches(recorder: Recorder) -> Namespace:
    def patch(**keywords: Any) -> PatchSpec:
        for key in keywords:
            if key not in PATCH_KEYWORDS:
                raise TypeError(f"Patch() got an unexpected keyword argument '{key}' (or "
                                "agraph's pyplot does not support it)")
        return PatchSpec({key: recorder.plain(value) for key, value in keywords.items()})
    patch.__name__ = patch.__qualname__ = "Patch"
    return Namespace("matplotlib.patches", {"Patch": patch})


def _ticker() -> Namespace:
    def maker(name: str) -> Any:
        def make(*args: Any) -> TickerSpec:
            if not all(isinstance(a, (int, float, str)) for a in args):
                raise TypeError(f"{name} takes numbers or a format string")
            return TickerSpec(name, args)
        make.__name__ = make.__qualname__ = name
        return make

    return Namespace("matplotlib.ticker", {name: maker(name) for name in (
        "MultipleLocator", "MaxNLocator", "FormatStrFormatter", "StrMethodFormatter",
        "PercentFormatter", "AutoMinorLocator", "NullLocator", "LinearLocator")})


def namespace(runtime: Any, name: str) -> Namespace:
    recorder = Recorder()

    def pyplot_call(axes_method: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            axes = recorder.gca()
            return record_on(recorder, axes._spec, axes_method, args, kwargs)
        call.__name__ = call.__qualname__ = axes_method
        return call

    def subplots(nrows: int = 1, ncols: int = 1, **kwargs: Any) -> tuple[Figure, Any]:
        options = {key: kwargs.pop(key) for key in ("figsize", "dpi") if key in kwargs}
        figure = recorder.figure(**options)
        squeeze = kwargs.pop("squeeze", True)
        items = [figure.add_subplot(nrows, ncols, index + 1) for index in range(nrows * ncols)]
        if not squeeze:
            return figure, AxesGrid(items, (nrows, ncols))
        if nrows == 1 and ncols == 1:
            return figure, items[0]
        if nrows == 1 or ncols == 1:
            return figure, AxesGrid(items, (len(items),))
        return figure, AxesGrid(items, (nrows, ncols))

    def subplot(*position: Any, **kwargs: Any) -> Axes:
        return recorder.axes(recorder.current_figure(), _position(position))

    def savefig(fname: Any, **kwargs: Any) -> None:
        Figure(recorder, recorder.current_figure()).savefig(fname, **kwargs)

    def figure_call(method: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(Figure(recorder, recorder.current_figure()), method)(*args, **kwargs)
        call.__name__ = call.__qualname__ = method
        return call

    def cla() -> None:
        recorder.gca()._spec.calls.clear()

    def clf() -> None:
        figure = recorder.current_figure()
        figure.axes.clear()
        figure.calls.clear()
        recorder.current_axes = None

    members: dict[str, Any] = {method: pyplot_call(method) for method in DRAWING}
    members.update({short: pyplot_call(method) for short, method in PYPLOT_TO_AXES.items()})
    members.update({"figure": recorder.figure, "subplots": subplots, "subplot": subplot,
                    "gca": recorder.gca, "gcf": lambda: Figure(recorder,
                                                               recorder.current_figure()),
                    "show": lambda *args, **kwargs: recorder.show(), "savefig": savefig,
                    "close": recorder.close, "cla": cla, "clf": clf,
                    "ion": lambda: None, "ioff": lambda: None, "pause": lambda *a: None,
                    "draw": lambda: None, "get_cmap": get_cmap,
                    "cm": Namespace("matplotlib.cm", {
                        **{name + suffix: Colormap(name + suffix) for name in COLORMAPS
                           for suffix in ("", "_r")}, "get_cmap": get_cmap}),
                    "style": Namespace("matplotlib.style", {
                        "use": lambda *args, **kwargs: None})})
    for method in ("suptitle", "tight_layout", "colorbar", "subplots_adjust"):
        members[method] = figure_call(method)
    ticker = _ticker()
    # the ticker classes pyplot imports from matplotlib.ticker (`from matplotlib.pyplot import
    # MultipleLocator`)
    members.update({name: ticker.members[name] for name in (
        "MultipleLocator", "MaxNLocator", "FormatStrFormatter", "NullLocator", "LinearLocator")})
    pyplot = Namespace("matplotlib.pyplot", members)
    return Namespace("matplotlib", {"pyplot": pyplot, "ticker": ticker,
                                    "patches": _patches(recorder), "cm": members["cm"],
                                    "use": lambda *args, **kwargs: None})


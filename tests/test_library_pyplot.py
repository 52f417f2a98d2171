"""`import matplotlib.pyplot as plt`: what a program draws is recorded, then drawn by real
matplotlib into `--figures DIR` (byte-stable), or noted on stderr without it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from autograd_cli.cli import figures as cli_figures
from tests.conftest import program_error, run_agraph

pytest.importorskip("matplotlib")

PROGRAM = """\
import torch
import math
import matplotlib.pyplot as plt
import matplotlib.ticker as ticker
a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
b = torch.sin(a)
plt.plot(a.detach(), b.detach(), label="sin")
plt.xlabel("a")
plt.legend()
plt.savefig("../../outside/loss.png")
fig, axes = plt.subplots(1, 2, figsize=(6, 3))
counts, edges, patches = axes[0].hist([1, 2, 2, 3, 3, 3], bins=3)
axes[1].imshow([[0, 1], [1, 0]])
fig.suptitle("two")
plt.show()
print(counts, len(edges))
"""


def write_program(tmp_path: Path, text: str = PROGRAM) -> Path:
    program = tmp_path / "plots.expr"
    program.write_text(text)
    return program


def test_figures_are_written_and_byte_identical_across_runs(tmp_path: Path) -> None:
    program = write_program(tmp_path)
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    for directory in (first, second):
        result = run_agraph("run", str(program), "--figures", str(directory), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout.decode() == "[1. 2. 3.] 4\n"
    names = sorted(p.name for p in first.iterdir())
    assert names == ["figure-1.svg", "figure-2.svg", "loss.png"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    svg = (first / "figure-2.svg").read_text()
    assert svg.startswith("<?xml") and "<dc:date>" not in svg
    assert (first / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "outside").exists()


def test_without_figures_nothing_is_written_and_one_note_says_how(tmp_path: Path) -> None:
    program = write_program(tmp_path)
    result = run_agraph("run", str(program), cwd=tmp_path)
    assert result.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plots.expr"]
    assert result.stderr.decode() == (
        f"{program}: note: the program drew 3 figures (loss.png, figure-1.svg, "
        "figure-2.svg); write them with --figures DIR\n")


def test_without_matplotlib_a_note_and_never_a_crash(cli: Any, tmp_path: Path,
                                                     monkeypatch: Any) -> None:
    from renderers import figures

    monkeypatch.setattr(figures, "available", lambda: False)
    program = write_program(tmp_path)
    quiet = cli("run", str(program))
    assert quiet.exit_code == 0 and cli_figures.INSTALL_HINT in quiet.stderr
    asked = cli("run", str(program), "--figures", str(tmp_path))
    assert asked.exit_code == 3 and cli_figures.INSTALL_HINT in asked.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plots.expr"]


@pytest.mark.parametrize("requested, written", [
    ("loss.png", "loss.png"), ("../../etc/passwd", "passwd.png"), ("/tmp/x.svg", "x.svg"),
    (".hidden.pdf", "hidden.pdf"), ("a b?.png", "a_b_.png"), ("..", "figure-1.png"),
    ("plot.jpg", "plot.jpg.png"), ("C:\\temp\\fig.svg", "fig.svg"),
])
def test_savefig_names_stay_inside_the_directory(requested: str, written: str) -> None:
    assert cli_figures.file_name(requested, 1) == written


@pytest.mark.parametrize("source, kind", [
    ("plt.text(0, 0, 'x', usetex=True)", "TypeError"),
    ("plt.plot([1], url='javascript:x')", "TypeError"),
    ("plt.plot(torch.ones(2, requires_grad=True))", "RuntimeError"),
    ("plt.plot(print)", "TypeError"),
    ("plt.savefig(3)", "TypeError"),
    ("plt.subplot(2, 2, 5)", "ValueError"),
    ("plt.legend(prop={'fname': '/etc/passwd'})", "TypeError"),
    ("plt.legend(prop='big')", "TypeError"),
    # text is laid out glyph by glyph after the run: a run holds at most MAX_TEXT characters
    ("plt.title('t' * 200000)", "LimitError"),
    ("plt.plot([1, 2], 'x' * 200000)", "LimitError"),
    ("plt.legend(prop={'family': 'x' * 200000})", "LimitError"),
])
def test_what_pyplot_refuses(source: str, kind: str) -> None:
    assert program_error(f"import torch\nimport matplotlib.pyplot as plt\n{source}\n") == (kind, 3)


def test_legend_font_properties_are_a_dict_of_allowed_keys() -> None:
    source = "import matplotlib.pyplot as plt\nplt.plot([1, 2], label='a')\n"
    assert program_error(source + "plt.legend(prop={'size': 14, 'weight': 'bold'})\n") is None


def test_a_missing_figures_directory_is_an_error(tmp_path: Path) -> None:
    program = write_program(tmp_path)
    result = run_agraph("run", str(program), "--figures", str(tmp_path / "missing"))
    assert result.returncode == 1 and b"not a directory" in result.stderr


def test_a_figure_never_replaces_the_input_program_nor_a_directory(tmp_path: Path) -> None:
    # the program chooses the names: one is the program's own file, one a directory in DIR
    program = tmp_path / "p.svg"
    source = "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig('p.svg')\n"
    program.write_text(source)
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 1 and program.read_text() == source
    assert b"is the input program" in result.stderr and b"Traceback" not in result.stderr
    (tmp_path / "loss.png").mkdir()
    other = write_program(tmp_path, "import matplotlib.pyplot as plt\nplt.plot([1])\n"
                          "plt.savefig('loss.png')\n")
    result = run_agraph("run", str(other), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 1 and b"internal error" not in result.stderr
    assert b"--figures: " in result.stderr and b"is a directory" in result.stderr


GRID_PROGRAM = """\
import numpy as np
import matplotlib.pyplot as plt
xx, yy = np.meshgrid(np.linspace(-1, 1, 5), np.linspace(-1, 1, 5))
plt.contourf(xx, yy, xx * yy, cmap=plt.cm.Spectral, alpha=0.8)
plt.imshow(xx, cmap=plt.get_cmap("gray_r"))
fig, axes = plt.subplots(2, 3)
print(len(axes), axes.shape, len(list(axes.flat)), axes.flatten().shape, axes[1].shape)
for i, ax in enumerate(axes.flat):
    ax.plot(np.arange(3) * i)
for row in axes:
    for ax in row:
        ax.grid(True)
axes[1, 2].axis("off")
fig, (left, right) = plt.subplots(1, 2)
right.bar([0, 1], [3, 4])
fig, column = plt.subplots(3, 1, squeeze=False)
print(column.shape, column[2, 0] is column[-1, -1])
plt.show()
"""


def test_subplots_grids_index_like_numpy_and_colormaps_are_named(tmp_path: Path) -> None:
    program = write_program(tmp_path, GRID_PROGRAM)
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == "2 (2, 3) 6 (6,) (3,)\n(3, 1) True\n"
    assert sorted(p.name for p in tmp_path.glob("*.svg")) == [
        "figure-1.svg", "figure-2.svg", "figure-3.svg", "figure-4.svg"]
    assert program_error("import matplotlib.pyplot as plt\nplt.get_cmap('nope')\n") == (
        "ValueError", 2)


def test_an_artists_setters_change_the_call_it_came_from(tmp_path: Path) -> None:
    program = write_program(tmp_path, """\
import matplotlib.pyplot as plt
line, = plt.plot([0, 1], [1, 0], label="before")
line.set_color("red")
line.set_label("after")
plt.legend()
plt.show()
""")
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    svg = (tmp_path / "figure-1.svg").read_text()
    assert "stroke: #ff0000" in svg and "after" in svg and "before" not in svg
    assert program_error("import matplotlib.pyplot as plt\nline, = plt.plot([0, 1])\n"
                         "line.set_url('javascript:x')\n") == ("AttributeError", 3)


def test_an_axis_takes_tick_locators_from_ticker_or_pyplot(tmp_path: Path) -> None:
    program = write_program(tmp_path, """\
import matplotlib.pyplot as plt
from matplotlib.pyplot import MultipleLocator
from matplotlib import ticker
plt.plot([0, 10], [0, 5])
ax = plt.gca()
ax.xaxis.set_major_locator(MultipleLocator(5))
ax.yaxis.set_major_locator(ticker.MultipleLocator(2.5))
plt.show()
""")
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    svg = (tmp_path / "figure-1.svg").read_text()
    ticks = set(re.findall(r'id="([xy])tick_(\d+)"', svg))
    assert sorted(ticks) == [(axis, str(n)) for axis in "xy" for n in (1, 2, 3)]
    assert program_error("import matplotlib.pyplot as plt\nplt.gca().xaxis.set_label('x')\n"
                         ) == ("AttributeError", 2)


def test_an_annotation_is_placed_by_its_point_and_offset(tmp_path: Path) -> None:
    program = write_program(tmp_path, """\
import matplotlib.pyplot as plt
plt.scatter(0.5, 0.25)
plt.annotate("apple", xy=(0.5, 0.25), xytext=(5, 2), textcoords='offset points', ha='right',
             va='bottom')
plt.show()
""")
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "apple" in (tmp_path / "figure-1.svg").read_text()


def test_contour_lines_take_their_styles(tmp_path: Path) -> None:
    """`linestyles` (plural, one per level, as matplotlib's contour takes it): the NLP with
    PyTorch book draws a perceptron's decision boundary solid between two dashed levels."""
    program = write_program(tmp_path, """\
import numpy as np
import matplotlib.pyplot as plt
xx, yy = np.meshgrid(np.linspace(-1, 1, 9), np.linspace(-1, 1, 9))
plt.contour(xx, yy, xx + yy, colors='k', levels=[-0.5, 0, 0.5], linestyles=['--', '-', '--'])
plt.show()
""")
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "stroke-dasharray" in (tmp_path / "figure-1.svg").read_text()


def test_a_legend_takes_patches_built_by_hand(tmp_path: Path) -> None:
    """`matplotlib.patches.Patch` as a legend entry (`plt.legend(handles=[...])`): kept as data
    during the run, built by matplotlib when the figure is drawn."""
    program = write_program(tmp_path, """\
import matplotlib.pyplot as plt
import matplotlib.patches as mpatches
from matplotlib.patches import Patch
red = mpatches.Patch(color='red', label='class 0')
plt.scatter([0, 1], [1, 0], c=['red', 'blue'])
plt.legend(handles=[red, Patch(facecolor='blue', label='class 1')])
print(red)
plt.show()
""")
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(rb"<matplotlib.patches.Patch object at 0x[0-9a-f]+>\n", result.stdout)
    svg = (tmp_path / "figure-1.svg").read_text()
    assert "class 0" in svg and "class 1" in svg and "legend" in svg
    assert program_error("import matplotlib.patches as p\np.Patch(url='x')\n") == (
        "TypeError", 2)


def test_colormaps_come_from_matplotlib_cm_as_from_pyplot(tmp_path: Path) -> None:
    program = write_program(tmp_path, """\
import matplotlib.pyplot as plt
import matplotlib.cm
from matplotlib import cm
plt.scatter([0, 1, 2], [2, 1, 0], c=[0, 1, 2], cmap=cm.coolwarm)
plt.imshow([[0, 1], [1, 0]], cmap=matplotlib.cm.gray_r)
print(cm.coolwarm is plt.cm.coolwarm)
plt.show()
""")
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"True\n" and (tmp_path / "figure-1.svg").exists()


def test_spines_hide_and_move_as_a_program_asks(tmp_path: Path) -> None:
    program = write_program(tmp_path, """\
import matplotlib.pyplot as plt
for moved in (True, False):
    plt.figure()
    plt.plot([-1, 1], [-1, 1])
    ax = plt.gca()
    if moved:
        ax.spines['right'].set_color('none')
        ax.spines['top'].set_color('none')
        ax.xaxis.set_ticks_position('bottom')
        ax.spines['bottom'].set_position(('data', 0))
    plt.show()
""")
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    tick = re.compile(r'<use xlink:href="#[0-9a-z]+" x="[0-9.]+" y="([0-9.]+)"')
    moved, plain = ((tmp_path / f"figure-{n}.svg").read_text() for n in (1, 2))
    # the x axis crosses y=0, in the middle of the plot, not at its bottom
    assert float(tick.search(moved)[1]) < float(tick.search(plain)[1])  # type: ignore[index]
    assert program_error("import matplotlib.pyplot as plt\nplt.gca().spines['middle']\n") == (
        "KeyError", 2)


@pytest.mark.parametrize("source, message", [
    ("fig = plt.figure()\nfig.set_size_inches(float('inf'), 1.0)\nplt.plot([1, 2])\n"
     "plt.savefig('e.png')", b"ValueError: e.png: matplotlib could not draw this figure"),
    ("plt.title('$' + '\\\\frac{1}{' * 500 + 'x' + '}' * 500 + '$')\nplt.savefig('g.png')",
     b"RecursionError: g.png: matplotlib could not draw this figure"),
    ("plt.title('$' + '\\\\alpha+' * 14000 + 'x$')\nplt.savefig('m.png')",
     b"LimitError: m.png: drawing the figures took more than 3 seconds"),
])
def test_a_figure_matplotlib_cannot_draw_is_an_error_of_the_program(tmp_path: Path, source: str,
                                                                     message: bytes) -> None:
    """Drawn after the run: matplotlib's error is the program's (exit 1, never an internal
    error), and drawing has --max-seconds of its own."""
    program = write_program(tmp_path, f"import matplotlib.pyplot as plt\n{source}\n")
    (tmp_path / "out").mkdir()
    result = run_agraph("run", str(program), "--figures", str(tmp_path / "out"),
                        "--max-seconds", "3")
    assert result.returncode == 1, result.stderr
    assert message in result.stderr and b"internal error" not in result.stderr, result.stderr

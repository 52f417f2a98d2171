"""Guards of the layout (docs/architecture.md): no source file over the line budget, and no
import circle among engine modules at module level (an import inside a function is lazy and
does not count)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("autograd_cli", "engine", "renderers")
MAX_LINES = 800
# files over the budget, each with the size it may not grow past (none today; remove once split)
OVER_BUDGET: dict[str, int] = {}


def sources(*packages: str) -> list[Path]:
    return sorted(path for package in packages for path in (ROOT / package).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that `path` imports at module level (`from a import b` counts
    a.b when it is a module)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parents = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parents + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return (found & known) - {name}


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def test_no_source_file_is_over_the_line_budget() -> None:
    over = {}
    for path in sources(*PACKAGES):
        with path.open(encoding="utf-8") as file:
            lines = sum(1 for _ in file)
        relative = path.relative_to(ROOT).as_posix()
        if lines > OVER_BUDGET.get(relative, MAX_LINES):
            over[relative] = lines
    assert not over, f"files over {MAX_LINES} lines (split them by what they hold): {over}"


def test_engine_modules_import_each_other_in_no_circle() -> None:
    paths = sources("engine")
    known = {module_name(path) for path in paths}
    graph = {module_name(path): module_imports(path, known) for path in paths}
    assert graph["engine.functional"], "the import graph was not read"
    assert import_circles(graph) == []


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_circles(graph) == [["a", "b", "c"]]


def unexplained_lazy_imports(path: Path) -> list[int]:
    """The lines of `path` where an import inside a function has no comment saying why: on its
    own line, or on the line above it (or above the run of imports it belongs to)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = set()
    for function in ast.walk(ast.parse("\n".join(lines))):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if any("#" in lines[index] for index in range(node.lineno - 1, node.end_lineno or 0)):
                continue
            above = node.lineno - 2
            while above >= 0 and lines[above].strip().startswith(("from ", "import ")):
                above -= 1
            if above < 0 or not lines[above].strip().startswith("#"):
                found.add(node.lineno)
    return sorted(found)


def test_every_lazy_import_says_why() -> None:
    """An import inside a function is there for a reason (an import circle, startup time) that
    a comment gives; one with no reason belongs at the top of its module."""
    unexplained = {path.relative_to(ROOT).as_posix(): lines for path in sources(
        "engine", "autograd_cli") if (lines := unexplained_lazy_imports(path))}
    assert not unexplained, f"imports inside functions with no comment saying why: {unexplained}"


def test_the_lazy_import_check_finds_one(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text("def f():\n    import json  # lazy: startup time\n    import io\n\n"
                      "def g():\n    # lazy: a circle\n    import os\n    import re\n")
    assert unexplained_lazy_imports(module) == [3]

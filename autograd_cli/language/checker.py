"""Parsing and checking a program before it runs: default-deny, every refusal with its position.

`check_program(text, limits)` parses with `ast.parse` (always on a decoded `str`, so coding
cookies never apply) and walks the tree once, iteratively:

- a node type that is not in `ALLOWED_NODES` is refused (`REFUSED_MESSAGES` says why for the
  common ones: async, match, ...);
- no identifier or attribute name starts with `_` (ast has already NFKC-normalized them, as
  Python does, so `＿＿class＿＿` is caught too); `_` alone is an ordinary variable;
- the builtins that open the host (`eval`, `getattr`, `type`, `open`, ...) are refused where
  they are used, unless the program defines a name of its own with that spelling;
- only the torch modules can be imported;
- the nesting depth is bounded (a left-leaning operator chain such as `x + x + ... + x` counts
  as one level: the interpreter evaluates it in a loop).

Columns in the returned tree are rewritten to 1-based-minus-one *character* offsets (ast gives
UTF-8 byte offsets), so `col_offset + 1` is the column users see everywhere.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable

from autograd_cli.language.classes import DEFINABLE_DUNDERS
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import Limits, limit_error
from autograd_cli.language.source import check_fstrings
from autograd_cli.library import IMPORTABLE_MODULES, missing_module

# The only names starting with '_' a program may read: what a grad_fn saved, as PyTorch
# documents them (engine/autograd.py, Function.saved_attribute).
SAVED_TENSOR_ATTRIBUTES = frozenset({"_saved_self", "_saved_other", "_saved_result"})

# Attributes by which Python code reaches the interpreter's frames, code and globals. Nothing a
# program can hold has them in agraph (its generators and functions are agraph's own objects),
# so a program that names one is refused before it runs, at that name.
INTERPRETER_ATTRIBUTES = frozenset("""
    gi_frame gi_code gi_yieldfrom cr_frame cr_code cr_await ag_frame ag_code f_globals f_locals
    f_builtins f_back f_code f_trace tb_frame tb_next co_code co_consts co_names func_globals
    func_code func_closure
""".split())

# `from __future__ import ...` of these is accepted and does nothing (they are all on in 3.x).
FUTURE_FEATURES = frozenset({"print_function", "division", "absolute_import",
                             "unicode_literals", "generators", "nested_scopes",
                             "with_statement", "annotations", "generator_stop"})

# Host builtins a program must never reach; using one is refused before the program runs.
FORBIDDEN_BUILTINS = frozenset("""
    exec compile open input breakpoint help exit quit globals locals dir delattr
    memoryview bytearray issubclass
""".split())

ALLOWED_NODES: frozenset[type[ast.AST]] = frozenset({
    ast.Module,
    # statements
    ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.While, ast.If, ast.With,
    ast.FunctionDef, ast.Return, ast.Pass, ast.Break, ast.Continue, ast.Assert, ast.Delete,
    ast.Import, ast.ImportFrom, ast.ClassDef, ast.Try, ast.ExceptHandler, ast.Raise, ast.Global,
    ast.Nonlocal,
    # expressions
    ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Lambda, ast.IfExp, ast.Dict, ast.Set, ast.ListComp,
    ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Compare, ast.Call, ast.FormattedValue,
    ast.JoinedStr, ast.Constant, ast.Attribute, ast.Subscript, ast.Starred, ast.Name, ast.List,
    ast.Tuple, ast.Slice, ast.NamedExpr, ast.Yield, ast.YieldFrom,
    # parts
    ast.Load, ast.Store, ast.Del, ast.withitem, ast.arguments, ast.arg, ast.keyword, ast.alias,
    ast.comprehension,
    ast.And, ast.Or, ast.Add, ast.Sub, ast.Mult, ast.MatMult, ast.Div, ast.Mod, ast.Pow,
    ast.LShift, ast.RShift, ast.BitOr, ast.BitXor, ast.BitAnd, ast.FloorDiv, ast.Invert, ast.Not,
    ast.UAdd, ast.USub, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot,
    ast.In, ast.NotIn,
})

REFUSED_MESSAGES: dict[str, str] = {
    "AsyncFunctionDef": "async functions are not supported",
    "AsyncFor": "async for is not supported",
    "AsyncWith": "async with is not supported",
    "Await": "await is not supported",
    "TryStar": "try/except* is not supported",
    "Match": "match statements are not supported",
    "TypeAlias": "type aliases are not supported",
}


def check_program(text: str, limits: Limits | None = None) -> ast.Module:
    """Parse and check `text`; the tree, or the first problem (in source order) as ScriptError."""
    tree = parse_program(text)
    problems = find_problems(tree, text, limits or Limits())
    if problems:
        raise min(problems, key=lambda error: (error.line or 0, error.col or 0, error.end_col or 0))
    return tree


def parse_program(text: str) -> ast.Module:
    """`ast.parse` with every way it can fail turned into a located SyntaxError."""
    check_fstrings(text)
    try:
        with warnings.catch_warnings():
            # e.g. "invalid escape sequence": Python only hints; the program still runs.
            warnings.simplefilter("ignore")
            return ast.parse(text, filename="<program>")
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = exc.offset if exc.lineno else 1
        end = exc.end_offset if exc.end_lineno == exc.lineno else None
        raise ScriptError(type(exc).__name__, exc.msg, line, col, end) from None
    except (MemoryError, RecursionError):
        raise ScriptError("SyntaxError", "the program is nested too deeply for Python's parser",
                          _too_deep_line(text), 1) from None
    except ValueError as exc:  # NUL bytes on older Pythons; decode_source refuses them first
        raise ScriptError("SyntaxError", str(exc), 1, 1) from None


def _too_deep_line(text: str) -> int:
    """The line where the parser runs out of stack: the first line such that the program up to
    it already does (a bisection; a program cut short elsewhere is a plain SyntaxError)."""
    lines = text.split("\n")
    low, high = 1, len(lines)  # the answer is in [low, high]
    while low < high:
        middle = (low + high) // 2
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse("\n".join(lines[:middle]), filename="<program>")
        except (MemoryError, RecursionError):
            high = middle
            continue
        except (SyntaxError, ValueError):
            pass
        low = middle + 1
    return low


def find_problems(tree: ast.Module, text: str, limits: Limits) -> list[ScriptError]:
    """Every refused construct in the tree (and fix columns to characters on the way)."""
    walk = _Walk(text, limits)
    walk.run(tree)
    return walk.problems + _misplaced(tree)


OUTSIDE = {ast.Return: "'return' outside function", ast.Break: "'break' outside loop",
           ast.Continue: "'continue' not properly in loop"}


def _misplaced(tree: ast.Module) -> list[ScriptError]:
    """What Python's compiler refuses in a tree that parsed: `return` outside a function,
    `break`/`continue` outside a loop (a function's body is outside its caller's loop), an
    argument named twice, `nonlocal` at module level. Run, they would end the program or the
    function without a word."""
    problems: list[ScriptError] = []
    stack: list[tuple[ast.AST, str, bool]] = [(tree, "module", False)]  # scope, in a loop
    while stack:
        node, scope, loop = stack.pop()
        kind = type(node)
        if kind in OUTSIDE and not (scope == "function" if kind is ast.Return else loop):
            problems.append(ScriptError("SyntaxError", OUTSIDE[kind], *_position(node)))
        elif kind is ast.Nonlocal and scope == "module":
            problems.append(ScriptError("SyntaxError", "nonlocal declaration not allowed at "
                                        "module level", *_position(node)))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args
            names: set[str] = set()
            for arg in (*arguments.posonlyargs, *arguments.args, arguments.vararg,
                        *arguments.kwonlyargs, arguments.kwarg):
                if arg is not None and arg.arg in names:
                    problems.append(ScriptError("SyntaxError", f"duplicate argument '{arg.arg}' "
                                                "in function definition", *_position(arg)))
                names.add(arg.arg if arg is not None else "")
            scope, loop = "function", False
        elif kind is ast.ClassDef:
            scope, loop = "class", False
        body = {id(statement) for statement in node.body} if isinstance(
            node, (ast.For, ast.While)) else set()
        stack.extend((child, scope, loop or id(child) in body)
                     for child in ast.iter_child_nodes(node))
    return problems


class _Walk:
    """One iterative pass over the tree: node whitelist, names, imports, depth."""

    def __init__(self, text: str, limits: Limits) -> None:
        self.lines = text.split("\n")
        self.non_ascii_lines = {number for number, line in enumerate(self.lines, 1)
                                if not line.isascii()}
        self.limits = limits
        self.problems: list[ScriptError] = []
        self.forbidden_uses: list[ast.Name] = []
        self.bound_names: set[str] = set()
        self.methods: set[int] = set()
        self.checks: dict[type[ast.AST], Callable[[ast.AST], None]] = {
            ast.Name: self._name, ast.Attribute: self._attribute, ast.arg: self._arg,
            ast.keyword: self._keyword, ast.FunctionDef: self._function_def,
            ast.Import: self._import, ast.ImportFrom: self._import_from,
            ast.comprehension: self._comprehension, ast.Constant: self._constant,
            ast.ClassDef: self._class_def, ast.ExceptHandler: self._except_handler,
            ast.Global: self._declaration, ast.Nonlocal: self._declaration,
            ast.Yield: self._yield, ast.YieldFrom: self._yield,
        }
        self.allowed_dunders: set[int] = set()  # ids of `x.__class__` in `x.__class__.__name__`
        self.yield_places: set[int] = set()  # ids of yields where a generator may have them
        self.leading_futures: set[int] = set()  # ids of the `from __future__` lines at the top

    def run(self, tree: ast.Module) -> None:
        too_deep_reported = False
        body = tree.body[1:] if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(
            tree.body[0].value, ast.Constant) and isinstance(tree.body[0].value.value, str) \
            else tree.body  # after the docstring
        for statement in body:
            if not (isinstance(statement, ast.ImportFrom) and statement.module == "__future__"):
                break
            self.leading_futures.add(id(statement))
        stack: list[tuple[ast.AST, int]] = [(tree, 0)]
        while stack:
            node, depth = stack.pop()
            if getattr(node, "lineno", None) in self.non_ascii_lines:
                self._columns_to_characters(node)
            node_type = type(node)
            if node_type not in ALLOWED_NODES:
                self._refuse(node, REFUSED_MESSAGES.get(
                    node_type.__name__, f"{node_type.__name__} is not supported"))
                continue
            check = self.checks.get(node_type)
            if check is not None:
                check(node)
            if (depth > self.limits.max_nesting_depth and not too_deep_reported
                    and hasattr(node, "lineno")):
                too_deep_reported = True
                self.problems.append(limit_error(
                    "max_nesting_depth", f"the program is nested more than "
                    f"{self.limits.max_nesting_depth} levels deep", *_position(node)))
            children = list(ast.iter_child_nodes(node))
            for child in reversed(children):
                # `a + b + c` is BinOp(BinOp(a, b), c): the left spine is evaluated in a loop.
                flat = type(child) is ast.BinOp and child is getattr(node, "left", None)
                stack.append((child, depth if flat else depth + 1))
        for use in self.forbidden_uses:
            if use.id not in self.bound_names:
                self._refuse(use, f"{use.id}() is not available in agraph programs", "NameError")

    def _columns_to_characters(self, node: ast.AST) -> None:
        for line_field, col_field in (("lineno", "col_offset"),
                                      ("end_lineno", "end_col_offset")):
            line, col = getattr(node, line_field, None), getattr(node, col_field, None)
            if line in self.non_ascii_lines and col is not None:
                encoded = self.lines[line - 1].encode("utf-8")
                setattr(node, col_field, len(encoded[:col].decode("utf-8", errors="replace")))

    def _refuse(self, node: ast.AST, message: str, type_name: str = "SyntaxError") -> None:
        self.problems.append(ScriptError(type_name, message, *_position(node)))

    def _identifier(self, node: ast.AST, name: str | None, what: str,
                    strict: bool = False) -> None:
        """A program's own variable may start with one `_` (`_grad_out`): a name reaches only
        the program's scopes and builtins. A dunder-like `__x`, and any `_x` that names a
        host thing (a keyword argument, an imported name), is refused, and so is `_agraph...`:
        agraph's own keys on a program class (`_agraph_members = {...}` in a class body would
        replace its members and open the engine's `_parameters`)."""
        private = "_" if strict else "__"
        if name is not None and name.startswith((private, "_agraph")) and name != "_":
            self._refuse(node, f"{what} '{name}' is not allowed: names starting with '_' are "
                         "private to agraph", "NameError")

    def _name(self, node: ast.AST) -> None:
        assert isinstance(node, ast.Name)
        if not ((node.id == "__name__" and isinstance(node.ctx, ast.Load))
                or node.id in DEFINABLE_DUNDERS):  # `__rmul__ = __mul__` in a class body
            self._identifier(node, node.id, "name")
        if isinstance(node.ctx, ast.Load):
            if node.id in FORBIDDEN_BUILTINS:
                self.forbidden_uses.append(node)
        else:
            self.bound_names.add(node.id)

    def _attribute(self, node: ast.AST) -> None:
        assert isinstance(node, ast.Attribute)
        if node.attr in ("__name__", "__doc__", "__version__") and isinstance(node.ctx, ast.Load):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "__class__":
                self.allowed_dunders.add(id(node.value))
            return
        if node.attr == "__init__" and isinstance(node.ctx, ast.Load):
            return  # super().__init__(...), nn.Module.__init__(self): checked when run
        if id(node) in self.allowed_dunders:
            return
        if node.attr in INTERPRETER_ATTRIBUTES:
            self._refuse(node, f"attribute '{node.attr}' is not allowed: it reaches the "
                         "interpreter's frames and code", "AttributeError")
        if node.attr.startswith("_") and not node.attr.startswith("__"):
            return  # `self._n` of a program's own object; anything else refuses it when run
        if node.attr.startswith("_"):
            self._refuse(node, f"attribute '{node.attr}' is not allowed: names starting with "
                         "'_' are private to agraph", "AttributeError")

    def _arg(self, node: ast.AST) -> None:
        assert isinstance(node, ast.arg)
        self._identifier(node, node.arg, "argument")
        self.bound_names.add(node.arg)

    def _keyword(self, node: ast.AST) -> None:
        assert isinstance(node, ast.keyword)
        self._identifier(node, node.arg, "keyword argument", strict=True)

    def _function_def(self, node: ast.AST) -> None:
        assert isinstance(node, ast.FunctionDef)
        if id(node) in self.methods and node.name.startswith("__"):
            pass  # the class statement checks its special methods
        else:
            self._identifier(node, node.name, "function name")
        self.bound_names.add(node.name)
        self._mark_yield_places(node.body)

    def _class_def(self, node: ast.AST) -> None:
        assert isinstance(node, ast.ClassDef)
        self._identifier(node, node.name, "class name")
        self.bound_names.add(node.name)
        for keyword in node.keywords:
            self._refuse(keyword, "class keywords (metaclass=...) are not supported")
        for statement in node.body:
            if isinstance(statement, ast.FunctionDef):
                self.methods.add(id(statement))
                if statement.name.startswith("__") and statement.name not in DEFINABLE_DUNDERS:
                    # refused at the class: a __del__ would run outside any statement's checks
                    self._refuse(node, f"class {node.name}: a program class cannot define "
                                 f"{statement.name} (SECURITY.md lists the special methods it "
                                 "may define)", "TypeError")
                elif statement.name.startswith("_") and not statement.name.startswith("__"):
                    self._identifier(statement, statement.name, "method name")

    def _except_handler(self, node: ast.AST) -> None:
        assert isinstance(node, ast.ExceptHandler)
        self._identifier(node, node.name, "name")
        if node.name is not None:
            self.bound_names.add(node.name)

    def _declaration(self, node: ast.AST) -> None:
        assert isinstance(node, (ast.Global, ast.Nonlocal))
        for name in node.names:
            self._identifier(node, name, "name")

    def _mark_yield_places(self, body: list[ast.stmt]) -> None:
        """A yield is run as a statement, as the value of an assignment, inside for, while,
        if, with and try (language/generators.py); anywhere else it is refused."""
        for statement in body:
            if isinstance(statement, (ast.Expr, ast.Assign)) and isinstance(
                    statement.value, (ast.Yield, ast.YieldFrom)):
                self.yield_places.add(id(statement.value))
            elif isinstance(statement, (ast.For, ast.While, ast.If, ast.With)):
                self._mark_yield_places(statement.body)
                self._mark_yield_places(statement.orelse if not isinstance(
                    statement, ast.With) else [])
            elif isinstance(statement, ast.Try):
                for part in (statement.body, statement.orelse, statement.finalbody,
                             *(handler.body for handler in statement.handlers)):
                    self._mark_yield_places(part)

    def _yield(self, node: ast.AST) -> None:
        if id(node) not in self.yield_places:
            self._refuse(node, "yield is supported as a statement or the value of an "
                         "assignment (x = yield y), inside for, while, if, with and try; not here")

    def _import(self, node: ast.AST) -> None:
        assert isinstance(node, ast.Import)
        for alias in node.names:
            if alias.name not in IMPORTABLE_MODULES and not missing_module(alias.name):
                self._refuse_import(node, alias.name)
            self._identifier(node, alias.asname, "import alias", strict=True)
            self.bound_names.add(alias.asname or alias.name.partition(".")[0])

    def _import_from(self, node: ast.AST) -> None:
        assert isinstance(node, ast.ImportFrom)
        module = "." * node.level + (node.module or "")
        if module == "__future__":  # Python 2 compatibility lines: nothing to do in Python 3
            if id(node) not in self.leading_futures:
                self._refuse(node, "from __future__ imports must occur at the beginning of the "
                             "file", "SyntaxError")
            for alias in node.names:
                if alias.name not in FUTURE_FEATURES or alias.asname is not None:
                    self._refuse(node, f"future feature {alias.name} is not defined",
                                 "SyntaxError")
            return
        if node.level or (module not in IMPORTABLE_MODULES and not missing_module(module)):
            self._refuse_import(node, module)
        for alias in node.names:
            if alias.name == "*":
                self._refuse(node, f"'from {module} import *' is not supported: import the "
                             "names you use", "ImportError")
            self._identifier(node, alias.name, "imported name", strict=True)
            self._identifier(node, alias.asname, "import alias", strict=True)
            self.bound_names.add(alias.asname or alias.name)

    def _refuse_import(self, node: ast.AST, module: str) -> None:
        allowed = ", ".join(sorted(IMPORTABLE_MODULES))
        self._refuse(node, f"import of '{module}' is not supported: a program can import only "
                     f"{allowed}", "ImportError")

    def _constant(self, node: ast.AST) -> None:
        assert isinstance(node, ast.Constant)
        if type(node.value) is bytes:
            self._refuse(node, "bytes literals are not supported")
        elif type(node.value) is int and node.value.bit_length() > self.limits.max_int_bits:
            # 0x... and 0b... literals have no digit limit in Python
            self.problems.append(limit_error(
                "max_int_bits", f"the integer literal has {node.value.bit_length()} bits, more "
                f"than {self.limits.max_int_bits}", *_position(node)))

    def _comprehension(self, node: ast.AST) -> None:
        assert isinstance(node, ast.comprehension)
        if node.is_async:
            self._refuse(node.iter, "async comprehensions are not supported")


def _position(node: ast.AST) -> tuple[int | None, int | None, int | None]:
    """(line, col, end_col) of a node, 1-based; end_col only when it ends on the same line."""
    line = getattr(node, "lineno", None)
    col = getattr(node, "col_offset", None)
    if line is None or col is None:
        return (1, 1, None)
    end_col = getattr(node, "end_col_offset", None)
    if getattr(node, "end_lineno", None) != line or end_col is None:
        return (line, col + 1, None)
    return (line, col + 1, end_col + 1)

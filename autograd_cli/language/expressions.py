"""The expressions of the interpreter off its hot path: subscripts, operators, comparisons,
containers, comprehensions, f-strings, `:=`.

Comprehensions run lazily in a scope of their own (a generator expression stays lazy, as in
Python); sets and dict keys hash tuples only after counting what the hash walks.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from autograd_cli.language.formatting import convert
from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.memory import charge_result, check_container, check_copy
from autograd_cli.language.objects import (
    NESTED_TYPES,
    check_compare,
    check_contains,
    check_hash,
    check_hashes,
    is_engine_object,
)
from autograd_cli.language.operators import COMPARISONS, UNARY_OPERATORS
from autograd_cli.language.scopes import HASHED_BY_KEY, IDENTITY, MATERIALIZED, Scope

if TYPE_CHECKING:
    from autograd_cli.language.formatting import TextFormatter
    from autograd_cli.language.limits import Limits
    from autograd_cli.language.operators import CheckedOperators


class ExpressionHandlers:
    """Expression handlers (a part of `Interpreter`)."""

    if TYPE_CHECKING:
        limits: Limits
        node: ast.AST | None
        scope: Scope
        globals: dict[str, Any]
        expressions: dict[type[ast.AST], Callable[[Any], Any]]
        formatter: TextFormatter
        operators: CheckedOperators

        def eval(self, node: ast.AST) -> Any: ...

        def count_step(self) -> None: ...

        def bounded(self, iterable: Any) -> Iterator[Any]: ...

        def _arguments(self, nodes: list[ast.expr]) -> list[Any]: ...

        def _store(self, target: ast.expr, value: Any) -> None: ...

        def _bind(self, name: str, value: Any, node: ast.AST) -> None: ...

        def inner_enclosing(self) -> tuple[dict[str, Any], ...]: ...

    def container_and_key(self, node: ast.Subscript) -> tuple[Any, Any]:
        """`a[k]` read, stored, augmented or deleted: `a` and `k` evaluated, and a tuple key of a
        dict checked before it is hashed (hashing a deep tuple is unbounded work)."""
        container = self.eval(node.value)
        key = self.eval(node.slice)
        self.node = node
        if key.__class__ is tuple and isinstance(container, HASHED_BY_KEY):
            check_hash(key, self.limits.max_nested_items)
        return container, key

    def _subscript(self, node: ast.Subscript) -> Any:
        value, key = self.container_and_key(node)
        if key.__class__ is slice:
            check_copy(value)
        result = value[key]
        charge_result(result)
        return result

    def _slice(self, node: ast.Slice) -> slice:
        return slice(None if node.lower is None else self.eval(node.lower),
                     None if node.upper is None else self.eval(node.upper),
                     None if node.step is None else self.eval(node.step))

    def _unary_op(self, node: ast.UnaryOp) -> Any:
        operand = self.eval(node.operand)
        self.node = node
        return UNARY_OPERATORS[type(node.op)](operand)

    def _bool_op(self, node: ast.BoolOp) -> Any:
        is_and = type(node.op) is ast.And
        value = None
        for operand in node.values:
            value = self.eval(operand)
            self.node = operand
            if (not value) if is_and else value:
                return value
        return value

    def _compare(self, node: ast.Compare) -> Any:
        expressions = self.expressions
        left = expressions[node.left.__class__](node.left)
        result: Any = True
        for operation, comparator in zip(node.ops, node.comparators, strict=True):
            right = expressions[comparator.__class__](comparator)
            self.node = node
            compare = COMPARISONS.get(operation.__class__)
            if compare is not None:
                if (left.__class__ in NESTED_TYPES and right.__class__ in NESTED_TYPES
                        and operation.__class__ not in IDENTITY):
                    # one C call walks both: shared lists can make that 10**12 items
                    check_compare(left, right, self.limits.max_nested_items)
                result = compare(left, right)
            else:
                result = self._membership(operation.__class__, left, right)
            if len(node.ops) > 1 and not result:
                return result
            left = right
        return result

    def _membership(self, operation: type[ast.cmpop], item: Any, container: Any) -> bool:
        found = self._contains(container, item)
        return found if operation is ast.In else not found

    def _contains(self, container: Any, item: Any) -> bool:
        if item.__class__ in NESTED_TYPES:
            check_contains(container, item, self.limits.max_nested_items)
        kind = type(container)
        if kind in MATERIALIZED or is_engine_object(container) or (
                kind is range and type(item) in (int, bool)):
            return item in container
        # `x in range(...)` for a float, or `x in zip(...)`, is a C loop: count it.
        return any(element is item or element == item for element in self.bounded(container))

    def _if_expression(self, node: ast.IfExp) -> Any:
        test = self.eval(node.test)
        self.node = node.test
        return self.eval(node.body if test else node.orelse)

    def _list(self, node: ast.List) -> list[Any]:
        return self._elements(node.elts)

    def _tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self._elements(node.elts))

    def _set(self, node: ast.Set) -> set[Any]:
        values = self._elements(node.elts)
        self.node = node
        check_hashes(values, self.limits.max_nested_items)
        if len(values) > 2 and all(type(element) is ast.Constant for element in node.elts):
            # CPython compiles such a display to a frozenset constant (rebuilt once from its
            # own order when the code's constants are merged) copied into a new set: the
            # items end in another order than added one by one
            return set(frozenset(tuple(frozenset(values))))
        return set(values)

    def _elements(self, nodes: list[ast.expr]) -> list[Any]:
        values = self._arguments(nodes)
        if len(values) > len(nodes):  # a *starred item grew it
            self.operators.check_list_length(len(values))
        return values

    def _dict(self, node: ast.Dict) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        for key_node, value_node in zip(node.keys, node.values, strict=True):
            if key_node is None:
                mapping = self.eval(value_node)
                self.node = value_node
                if type(mapping) is not dict:
                    raise TypeError(f"'{type(mapping).__name__}' object is not a mapping")
                check_container(dict, len(result) + len(mapping))
                result.update(mapping)
            else:
                key = self.eval(key_node)
                value = self.eval(value_node)
                self.node = key_node
                if key.__class__ is tuple:
                    check_hash(key, self.limits.max_nested_items)
                result[key] = value
        return result

    def _list_comprehension(self, node: ast.ListComp) -> list[Any]:
        return list(self._comprehension(node, lambda: self.eval(node.elt)))

    def _set_comprehension(self, node: ast.SetComp) -> set[Any]:
        return set(self._comprehension(node, lambda: self._hashable(node.elt)))

    def _dict_comprehension(self, node: ast.DictComp) -> dict[Any, Any]:
        return dict(self._comprehension(
            node, lambda: (self._hashable(node.key), self.eval(node.value))))

    def _hashable(self, node: ast.expr) -> Any:
        """An element of a set or a key of a dict being built: hashed at once, in C."""
        value = self.eval(node)
        if value.__class__ is tuple:
            self.node = node
            check_hash(value, self.limits.max_nested_items)
        return value

    def _generator(self, node: ast.GeneratorExp) -> Iterator[Any]:
        """Lazy, like Python's; only ever an argument of a call (the checker sees to it)."""
        return self._comprehension(node, lambda: self.eval(node.elt))

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp,
                       element: Callable[[], Any]) -> Iterator[Any]:
        # The first iterable is evaluated where the comprehension is, as Python does.
        first = self.eval(node.generators[0].iter)
        self.node = node.generators[0].iter
        scope = Scope({}, None, self.inner_enclosing())
        return self._comprehension_level(node, 0, iter(first), scope, element)

    def _comprehension_level(self, node: ast.ListComp | ast.SetComp | ast.DictComp |
                             ast.GeneratorExp, level: int, iterator: Iterator[Any],
                             scope: Scope, element: Callable[[], Any]) -> Iterator[Any]:
        generator = node.generators[level]
        innermost = level + 1 == len(node.generators)
        limit = self.limits.max_loop_iterations
        for count, item in enumerate(iterator, 1):
            if count > limit:
                raise LimitExceeded("max_loop_iterations", f"the comprehension ran more than "
                                    f"{limit} iterations")
            self.count_step()
            outer, self.scope = self.scope, scope
            try:
                self._store(generator.target, item)
                if not all(self._test(condition) for condition in generator.ifs):
                    continue
                if innermost:
                    value = element()
                else:
                    inner = iter(self.eval(node.generators[level + 1].iter))
            finally:
                self.scope = outer
            if innermost:
                yield value
            else:
                yield from self._comprehension_level(node, level + 1, inner, scope, element)

    def _test(self, node: ast.expr) -> bool:
        value = self.eval(node)
        self.node = node
        return bool(value)

    def _joined_str(self, node: ast.JoinedStr) -> str:
        pieces: list[str] = []
        length = 0
        for part in node.values:
            # f-string literal parts are str constants; the fields are FormattedValue nodes
            piece = str(part.value) if isinstance(part, ast.Constant) else self.eval(part)
            length += len(piece)
            self.formatter.check_length(length)
            pieces.append(piece)
        return "".join(pieces)

    def _formatted_value(self, node: ast.FormattedValue) -> str:
        value = self.eval(node.value)
        spec = "" if node.format_spec is None else self.eval(node.format_spec)
        self.node = node
        if node.conversion != -1:
            value = convert(value, chr(node.conversion), self.limits.max_str_len)
        return self.formatter.format_value(value, spec)

    def _starred(self, node: ast.Starred) -> Any:
        self.node = node
        raise SyntaxError("can't use starred expression here")


    def _named_expression(self, node: ast.NamedExpr) -> Any:
        """`(name := value)`: in a comprehension it binds in the scope around it."""
        value = self.eval(node.value)
        scope = self.scope
        if scope.local_names is None and scope.names is not self.globals and (
                scope.class_name is None):
            (scope.enclosing[0] if scope.enclosing else self.globals)[node.target.id] = value
        else:
            self._bind(node.target.id, value, node.target)
        return value

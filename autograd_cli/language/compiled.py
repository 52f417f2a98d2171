"""The hot statements and expressions as closures, made once per node (the interpreter's fast path).

A training loop runs the same few statements thousands of times. Walking each one's tree anew
costs a dict lookup per node, attribute reads of the node's fields and the generic branches of
its handler; here each node of the common shapes (an assignment to a name, an expression
statement, `x op= y`, `if`, `with`; names, constants, operators, attributes and
calls) becomes a closure over the closures of its children, made on its first run. Each
closure does what the handler of its node type in evaluator.py does, in the same order: it sets
`interpreter.node` before host code runs (so errors have the same positions) and goes through
the same checks (`CheckedOperators`, `get_attribute`, `call_value`). Anything else runs through
its handler.
With an observer that watches statements or bindings, or an engine observer, the closures
take the same branches the handlers do.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from types import MethodType
from typing import TYPE_CHECKING, Any

from autograd_cli.language.errors import ScriptError
from autograd_cli.language.objects import Namespace, TensorMethod
from autograd_cli.language.scopes import MISSING

if TYPE_CHECKING:
    from autograd_cli.language.evaluator import Interpreter

Run = Callable[[], Any]


def statement(interpreter: Interpreter, node: ast.stmt) -> Run:
    """The closure that runs `node` (and returns its control-flow signal, or None)."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
            node.targets[0], ast.Name):
        return _assign(interpreter, node, node.targets[0])
    if isinstance(node, ast.Expr):
        value = expression(interpreter, node.value)

        def expression_statement() -> None:
            value()

        return expression_statement
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        return _augmented_assign(interpreter, node, node.target)
    if isinstance(node, ast.If):
        return _if(interpreter, node)
    if isinstance(node, ast.With):
        return _with(interpreter, node)
    return functools.partial(interpreter.statements[node.__class__], node)


def expression(interpreter: Interpreter, node: ast.expr) -> Run:
    """The closure that evaluates `node`."""
    if isinstance(node, ast.Constant):
        constant = node.value
        return lambda: constant
    if isinstance(node, ast.Name):
        return _name(interpreter, node)
    if isinstance(node, ast.BinOp):
        return _binary_op(interpreter, node)
    if isinstance(node, ast.Attribute):
        return _attribute(interpreter, node)
    if isinstance(node, ast.Call):
        return _call(interpreter, node)
    return functools.partial(interpreter.expressions[node.__class__], node)


# --- statements ----------------------------------------------------------------------------------

def _assign(interpreter: Interpreter, node: ast.Assign, target: ast.Name) -> Run:
    value = expression(interpreter, node.value)
    name = target.id
    store = interpreter.store

    def assign() -> None:
        result = value()
        scope = interpreter.scope
        if interpreter.on_bind is None and scope.declared is None:
            scope.names[name] = result
        else:
            store(target, result)

    return assign


def _augmented_assign(interpreter: Interpreter, node: ast.AugAssign, target: ast.Name) -> Run:
    name = target.id
    operation = node.op.__class__
    value = expression(interpreter, node.value)
    load, bind, inplace = interpreter.load, interpreter.bind_name, interpreter.operators.inplace

    def augmented_assign() -> None:
        current = load(name, target)
        right = value()
        interpreter.node = node
        bind(name, inplace(operation, current, right), target)

    return augmented_assign


def _if(interpreter: Interpreter, node: ast.If) -> Run:
    test = expression(interpreter, node.test)
    where, body, orelse = node.test, node.body, node.orelse
    execute = interpreter.execute_block

    def if_statement() -> Any:
        result = test()
        interpreter.node = where
        if result:
            return execute(body)
        if orelse:
            return execute(orelse)
        return None

    return if_statement


def _with(interpreter: Interpreter, node: ast.With) -> Run:
    """`with a [as x], b [as y]:`: each manager entered in order, the body run, each exited
    (the innermost first), with the error that ends the body if one does."""
    items = [(expression(interpreter, item.context_expr), item.context_expr, item.optional_vars)
             for item in node.items]
    last, body = len(items) - 1, node.body
    enter, exit_context = interpreter.enter_context, interpreter.exit_context
    execute, store = interpreter.execute_block, interpreter.store

    def enter_from(index: int) -> Any:
        context, where, target = items[index]
        manager = context()
        interpreter.node = where
        entered = enter(manager)
        if target is not None:
            store(target, entered)
        try:
            signal = execute(body) if index == last else enter_from(index + 1)
        except ScriptError as error:
            if exit_context(manager, error):
                return None
            raise
        exit_context(manager, None)
        return signal

    return lambda: enter_from(0)


# --- expressions ---------------------------------------------------------------------------------

def _name(interpreter: Interpreter, node: ast.Name) -> Run:
    name = node.id
    load = interpreter.load

    def read() -> Any:
        value = interpreter.scope.names.get(name, MISSING)
        return load(name, node) if value is MISSING else value

    return read


def _binary_op(interpreter: Interpreter, node: ast.BinOp) -> Run:
    binary = interpreter.operators.binary
    chain = []  # a + b + c + ...: the left spine as a loop, not as nested closures
    spine: ast.expr = node
    while spine.__class__ is ast.BinOp:
        chain.append(spine)
        spine = spine.left  # type: ignore[attr-defined]
    first = expression(interpreter, spine)
    links = [(link, link.op.__class__, expression(interpreter, link.right))  # type: ignore[attr-defined]
             for link in reversed(chain)]
    if len(links) == 1:
        operation, right = links[0][1], links[0][2]

        def binary_op() -> Any:
            left = first()
            right_value = right()
            interpreter.node = node
            return binary(operation, left, right_value)

        return binary_op

    def binary_chain() -> Any:
        value = first()
        for link, operation, right in links:
            right_value = right()
            interpreter.node = link
            value = binary(operation, value, right_value)
        return value

    return binary_chain


def _is_class_name(node: ast.Attribute) -> bool:
    """`x.__class__.__name__`, which the handler reads without reading `x.__class__`."""
    inner = node.value
    return node.attr == "__name__" and inner.__class__ is ast.Attribute and (
        inner.attr == "__class__")  # type: ignore[attr-defined]


def _attribute_of(interpreter: Interpreter, node: ast.Attribute) -> Run:
    """`value.name` as `Interpreter._attribute_of` reads it (a method comes back bound)."""
    value = expression(interpreter, node.value)
    name = node.attr
    public = name[0] != "_"
    plain_attributes = interpreter.plain_attributes
    get_attribute = interpreter.get_attribute

    def attribute_of() -> Any:
        owner = value()
        interpreter.node = node
        plain = plain_attributes.get(type(owner))
        if plain is not None and name in plain:
            return getattr(owner, name)
        if owner.__class__ is Namespace and public:
            member = owner.members.get(name, MISSING)
            if member is not MISSING:
                return member
        return get_attribute(owner, name)

    return attribute_of


def _class_name(interpreter: Interpreter, node: ast.Attribute) -> Run:
    """`x.__class__.__name__`, the one use of `__class__` a program has (the checker's)."""
    value = expression(interpreter, node.value.value)  # type: ignore[attr-defined]
    return lambda: type(value()).__name__


def _attribute(interpreter: Interpreter, node: ast.Attribute) -> Run:
    """`value.name` as a value: a tensor's method shows as PyTorch's built-in method."""
    if _is_class_name(node):
        return _class_name(interpreter, node)
    read = _attribute_of(interpreter, node)
    name = node.attr

    def attribute() -> Any:
        found = read()
        if type(found) is MethodType and type(found.__self__).__module__ == "engine.tensor":
            return TensorMethod(name, found.__self__, found)
        return found

    return attribute


def _plain_arguments(node: ast.Call) -> bool:
    """No `*args` and no `**kwargs`: the arguments are a fixed list of expressions."""
    return all(argument.__class__ is not ast.Starred for argument in node.args) and all(
        keyword.arg is not None for keyword in node.keywords)


def _call(interpreter: Interpreter, node: ast.Call) -> Run:
    callee = node.func
    function = (_attribute_of(interpreter, callee) if callee.__class__ is ast.Attribute
                and not _is_class_name(callee) else expression(interpreter, callee))  # type: ignore[arg-type]
    call_value = interpreter.call_value
    recording = interpreter.recording
    location = (node.lineno, node.col_offset + 1)
    if not _plain_arguments(node):  # f(*args, **kwargs): the interpreter unpacks them
        arguments_of, keywords_of = interpreter.arguments, interpreter.keywords

        def call_unpacking() -> Any:
            called = function()
            args = arguments_of(node.args)
            kwargs = keywords_of(node.keywords) if node.keywords else {}
            interpreter.node = node
            if recording.observer is not None:
                recording.location = location
            return call_value(called, args, kwargs)

        return call_unpacking
    arguments = [expression(interpreter, argument) for argument in node.args]
    keywords = [(str(keyword.arg), expression(interpreter, keyword.value))
                for keyword in node.keywords]
    if not keywords and len(arguments) <= 1:
        argument = arguments[0] if arguments else None

        def call_simple() -> Any:
            called = function()
            args = [] if argument is None else [argument()]
            interpreter.node = node
            if recording.observer is not None:  # where the op is, for what observes it
                recording.location = location
            return call_value(called, args, {})

        return call_simple

    def call() -> Any:
        called = function()
        args = [argument() for argument in arguments]
        kwargs = {name: value() for name, value in keywords}
        interpreter.node = node
        if recording.observer is not None:
            recording.location = location
        return call_value(called, args, kwargs)

    return call

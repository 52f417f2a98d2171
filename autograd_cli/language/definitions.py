"""`def`, `lambda`, `class`, decorators, `global` / `nonlocal`, `super()`.

A `def` makes a `UserFunction` (its defaults evaluated now, its enclosing scopes kept for
closures); a decorator is any callable applied bottom-up, with the engine's grad-mode
managers (`@torch.no_grad()`) and `staticmethod` / `classmethod` / `property` among them. A
`class` body runs in a scope of its own; what it leaves becomes the class (language/classes.py).
"""

from __future__ import annotations

import ast
import copy
from typing import TYPE_CHECKING, Any

from autograd_cli.language import classes
from autograd_cli.language.generators import is_generator_function
from autograd_cli.language.objects import Signature, UserFunction
from autograd_cli.language.scopes import Scope
from engine import grad_mode

if TYPE_CHECKING:
    from autograd_cli.language.evaluator import Interpreter


def function_def(interpreter: Interpreter, node: ast.FunctionDef) -> None:
    decorators = [interpreter.eval(decorator) for decorator in node.decorator_list]
    value: Any = make_function(interpreter, node, node.name)
    for decorator, decorator_node in zip(reversed(decorators), reversed(node.decorator_list),
                                         strict=True):
        interpreter.node = decorator_node
        value = apply_decorator(interpreter, decorator, value)
    interpreter.bind_name(node.name, value, node)


def apply_decorator(interpreter: Interpreter, decorator: Any, function: Any) -> Any:
    if isinstance(decorator, type) and issubclass(decorator, grad_mode.GradMode):
        decorator = decorator()  # `@torch.no_grad` without parentheses, as PyTorch allows
    if isinstance(decorator, grad_mode.GradMode):
        return ContextDecorated(decorator, function)
    return interpreter.call_value(decorator, [function], {})


def make_function(interpreter: Interpreter, node: ast.FunctionDef | ast.Lambda,
                  name: str) -> UserFunction:
    arguments = node.args
    positional = [arg.arg for arg in arguments.posonlyargs + arguments.args]
    defaults = {}
    for arg, default in zip(positional[len(positional) - len(arguments.defaults):],
                            arguments.defaults, strict=True):
        defaults[arg] = interpreter.eval(default)
    for arg_node, keyword_default in zip(arguments.kwonlyargs, arguments.kw_defaults,
                                         strict=True):
        if keyword_default is not None:
            defaults[arg_node.arg] = interpreter.eval(keyword_default)
    signature = Signature(
        tuple(positional), len(arguments.posonlyargs), defaults,
        arguments.vararg.arg if arguments.vararg else None,
        tuple(arg.arg for arg in arguments.kwonlyargs),
        arguments.kwarg.arg if arguments.kwarg else None)
    scope = interpreter.scope
    qualname = f"{scope.class_name}.{name}" if scope.class_name else name
    if scope.function is not None and not scope.class_name:  # defined inside a call
        qualname = f"{scope.function.name}.<locals>.{name}"
    function = UserFunction(qualname, node, signature, interpreter.inner_enclosing(),
                            interpreter, interpreter.local_names(node))
    function.is_generator = is_generator_function(node)
    return function


def class_def(interpreter: Interpreter, node: ast.ClassDef) -> None:
    bases = [interpreter.eval(base) for base in node.bases]
    interpreter.node = node
    if node.keywords:
        raise TypeError("class keywords (metaclass=...) are not supported")
    decorators = [interpreter.eval(decorator) for decorator in node.decorator_list]
    outer = interpreter.scope
    qualname = f"{outer.class_name}.{node.name}" if outer.class_name else node.name
    if outer.function is not None and not outer.class_name:  # defined inside a call
        qualname = f"{outer.function.name}.<locals>.{node.name}"
    namespace: dict[str, Any] = {}
    body_scope = Scope(namespace, None, interpreter.inner_enclosing())
    body_scope.class_name = qualname
    interpreter.scope = body_scope
    try:
        interpreter.execute_block(node.body)
    finally:
        interpreter.scope = outer
    interpreter.node = node
    value: Any = classes.make_class(node.name, qualname, bases, namespace, node)
    for decorator, decorator_node in zip(reversed(decorators), reversed(node.decorator_list),
                                         strict=True):
        interpreter.node = decorator_node  # an error of the decorator is at its line
        value = interpreter.call_value(decorator, [value], {})
    interpreter.bind_name(node.name, value, node)


def declare(interpreter: Interpreter, node: ast.Global | ast.Nonlocal) -> None:
    """`global x` / `nonlocal x`: assignments to x in this call go to that scope."""
    scope = interpreter.scope
    if scope.names is interpreter.globals:
        return  # `global x` at module level changes nothing
    declared = dict(scope.declared or {})
    for name in node.names:
        if isinstance(node, ast.Global):
            declared[name] = interpreter.globals
            continue
        for names in scope.enclosing:
            if name in names:
                declared[name] = names
                break
        else:
            raise SyntaxError(f"no binding for nonlocal '{name}' found")
    scope.declared = declared


def make_super(interpreter: Interpreter, args: list[Any]) -> classes.SuperProxy:
    """`super()` in a method (its class and first argument), or `super(Cls, obj)`."""
    if len(args) == 2:
        start, instance = args
        if not isinstance(start, type):
            raise TypeError("super() argument 1 must be a type")
        return classes.SuperProxy(start, instance)
    if args:
        raise TypeError("super() takes a class and an object, or nothing")
    function = interpreter.scope.function
    owner = None if function is None else function.owner_class
    if function is None or owner is None or not function.signature.positional:
        raise RuntimeError("super(): no arguments")
    first = interpreter.scope.names.get(function.signature.positional[0])
    return classes.SuperProxy(owner, first)


class ContextDecorated:
    """`@torch.no_grad()` and friends on a function: each call runs inside a fresh copy of
    the manager (so recursion and re-entry restore the right mode)."""

    __slots__ = ("manager", "function")
    BINDS_AS_METHOD = True

    def __init__(self, manager: Any, function: Any) -> None:
        self.manager = manager
        self.function = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        context = copy.copy(self.manager)
        type(context).__enter__(context)
        try:
            return self.function(*args, **kwargs)
        finally:
            type(context).__exit__(context, None, None, None)

    @property
    def name(self) -> str:
        return str(getattr(self.function, "name", "function"))

    def __repr__(self) -> str:
        return repr(self.function)


ContextDecorated.__name__ = ContextDecorated.__qualname__ = "function"

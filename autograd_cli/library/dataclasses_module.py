"""`dataclasses`: `@dataclass` (init, repr, eq, order, frozen), `field`, `fields`, `asdict`,
`astuple`, `replace`, `is_dataclass`, `FrozenInstanceError`.

A program class keeps its source (classes.SOURCE_KEY): its fields are the annotated names of
its body, in order, after those of the dataclasses it derives from. The methods `@dataclass`
writes are host callables installed as members of the class, as a program's own `def` would
be, so `print`, `==`, `<` and `Cls(...)` find them the usual way.
"""

from __future__ import annotations

import ast
from typing import Any

from autograd_cli.language import classes
from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.objects import (
    HostCallable,
    Namespace,
    check_compare,
    check_hash,
    display_repr,
    nested_size,
)

FIELDS_KEY = "__dataclass_fields__"
_MISSING: Any = object()
_MUTABLE = (list, dict, set)
# the run's max_nested_items, for the methods @dataclass writes (set when the module is made)
_NESTED_CAP = [10_000_000]


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a frozen dataclass."""


class Field:
    """What `field(...)` gives and `fields(obj)` lists."""

    PUBLIC_ATTRS = frozenset({"name", "default", "default_factory", "init", "repr", "compare"})
    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool,
                 compare: bool) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return f"Field(name={self.name!r},init={self.init},repr={self.repr})"


class GeneratedMethod(HostCallable):
    """A method `@dataclass` wrote: called with the object first, as a `def` in the class."""

    BINDS_AS_METHOD = True
    __slots__ = ()


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True,
          repr: bool = True, compare: bool = True) -> Field:
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare)


def _annotated_names(cls: type) -> list[str]:
    node = cls.__dict__.get(classes.SOURCE_KEY)
    names = []
    for statement in getattr(node, "body", []):
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            annotation = ast.unparse(statement.annotation)
            if not annotation.startswith(("ClassVar", "typing.ClassVar")):
                names.append(statement.target.id)
    return names


def _collect_fields(cls: type) -> dict[str, Field]:
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        found.update(base.__dict__.get(FIELDS_KEY, {}))
    members = cls.__dict__[classes.MEMBERS_KEY]
    for name in _annotated_names(cls):
        value = members.get(name, _MISSING)
        made = value if isinstance(value, Field) else Field(value, _MISSING, True, True, True)
        made.name = name
        if isinstance(made.default, _MUTABLE):
            raise ValueError(f"mutable default {type(made.default)!r} for field {name} is not "
                             "allowed: use default_factory")
        found[name] = made
        if isinstance(value, Field):  # the class attribute is the default, or nothing
            if made.default is _MISSING:
                members.pop(name)
            else:
                classes.write_attribute(cls, name, made.default)
    seen_default = False
    for made in found.values():
        has_default = made.default is not _MISSING or made.default_factory is not _MISSING
        if made.init and seen_default and not has_default:
            raise TypeError(f"non-default argument '{made.name}' follows default argument")
        seen_default = seen_default or (made.init and has_default)
    return found


def _install(cls: type, name: str, body: Any) -> None:
    body.__name__ = body.__qualname__ = name
    classes.write_attribute(cls, name, GeneratedMethod(f"{cls.__qualname__}.{name}", body))


def _make_init(cls: type, found: dict[str, Field]) -> Any:
    params = [f for f in found.values() if f.init]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(params):
            raise TypeError(f"{cls.__qualname__}.__init__() takes {len(params) + 1} positional "
                            f"arguments but {len(args) + 1} were given")
        values = dict(zip((f.name for f in params), args, strict=False))
        for key, value in kwargs.items():
            if key not in {f.name for f in params}:
                raise TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword "
                                f"argument '{key}'")
            if key in values:
                raise TypeError(f"{cls.__qualname__}.__init__() got multiple values for "
                                f"argument '{key}'")
            values[key] = value
        missing = [f.name for f in params if f.name not in values
                   and f.default is _MISSING and f.default_factory is _MISSING]
        if missing:
            listed = " and ".join(repr(name) for name in missing)
            raise TypeError(f"{cls.__qualname__}.__init__() missing {len(missing)} required "
                            f"positional argument{'s' if len(missing) > 1 else ''}: {listed}")
        for made in found.values():
            if made.name in values:
                value = values[made.name]
            elif made.default_factory is not _MISSING:
                value = made.default_factory()
            elif made.default is not _MISSING:
                value = made.default
            else:
                continue
            self.__dict__[made.name] = value  # past a frozen class's guard, as Python's does
        post_init, _ = classes.find_member(type(self), "__post_init__")
        if post_init is not classes.MISSING:
            post_init(self)
    return __init__


def dataclass(cls: Any = None, *, init: bool = True, repr: bool = True, eq: bool = True,
              order: bool = False, frozen: bool = False, **_ignored: Any) -> Any:
    def wrap(target: Any) -> Any:
        if not classes.is_program_class(target):
            raise TypeError("dataclass() should be called on a class")
        found = _collect_fields(target)
        setattr(target, FIELDS_KEY, found)
        if frozen:
            setattr(target, classes.FROZEN_KEY, FrozenInstanceError)
        members = target.__dict__[classes.MEMBERS_KEY]
        shown = [f for f in found.values() if f.repr]
        compared = [f.name for f in found.values() if f.compare]

        def key(value: Any) -> tuple[Any, ...]:
            return tuple(value.__dict__.get(name) for name in compared)

        if init and "__init__" not in members:
            _install(target, "__init__", _make_init(target, found))
        if repr and "__repr__" not in members:
            def __repr__(self: Any) -> str:
                inside = ", ".join(f"{f.name}={display_repr(self.__dict__.get(f.name))}"
                                   for f in shown)
                return f"{type(self).__qualname__}({inside})"
            _install(target, "__repr__", __repr__)
        if eq and "__eq__" not in members:
            def __eq__(self: Any, other: Any) -> Any:
                if type(other) is not type(self):
                    return NotImplemented
                check_compare(key(self), key(other), _NESTED_CAP[0])
                return key(self) == key(other)
            _install(target, "__eq__", __eq__)
        if eq and "__hash__" not in members:  # as Python: unhashable unless frozen
            if frozen:
                def __hash__(self: Any) -> int:
                    fields_ = key(self)
                    check_hash(fields_, _NESTED_CAP[0])  # a tuple's hash walks all of it, in C
                    return hash(fields_)
                _install(target, "__hash__", __hash__)
            else:
                target.__hash__ = None  # type: ignore[assignment]
        if order:
            for name, test in (("__lt__", tuple.__lt__), ("__le__", tuple.__le__),
                               ("__gt__", tuple.__gt__), ("__ge__", tuple.__ge__)):
                def compare(self: Any, other: Any, test: Any = test) -> Any:
                    if type(other) is not type(self):
                        return NotImplemented
                    check_compare(key(self), key(other), _NESTED_CAP[0])
                    return test(key(self), key(other))
                _install(target, name, compare)
        return target
    return wrap if cls is None else wrap(cls)


def _fields_of(value: Any) -> dict[str, Field]:
    found = getattr(value if isinstance(value, type) else type(value), FIELDS_KEY, None)
    if found is None:
        raise TypeError("must be called with a dataclass type or instance")
    return found  # type: ignore[no-any-return]


def fields(value: Any) -> tuple[Field, ...]:
    return tuple(_fields_of(value).values())


def is_dataclass(value: Any) -> bool:
    return hasattr(value if isinstance(value, type) else type(value), FIELDS_KEY)


def _plain(value: Any, factory: Any, left: list[int]) -> Any:
    """`value` with each dataclass object in it made by `factory` from its (name, value)s;
    `left` holds how many more items it may copy (a shared list is copied each time it
    appears, as Python copies it: `a = [a, a]` thirty times is 2**30 lists)."""
    if is_dataclass(value) and not isinstance(value, type):
        names = list(_fields_of(value))
        for name in names:  # counted in C first: the copy below walks them in Python
            if nested_size(value.__dict__.get(name), left[0]) > left[0]:
                left[0] = -1
        return factory([(name, _plain(value.__dict__.get(name), factory, left))
                        for name in names])
    if isinstance(value, (list, tuple, dict)):
        left[0] -= len(value) + 1
    if left[0] < 0:
        raise LimitExceeded("max_nested_items", "asdict/astuple would copy more than "
                            f"{left[1]} nested items (a list counts each time it appears, "
                            "shared or not)")
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item, factory, left) for item in value)
    if isinstance(value, dict):
        return {key: _plain(item, factory, left) for key, item in value.items()}
    return value


def _converters(cap: int) -> tuple[Any, Any]:
    """`asdict` and `astuple`, copying at most `cap` nested items (max_nested_items)."""
    def asdict(value: Any) -> dict[str, Any]:
        _fields_of(value)
        return _plain(value, dict, [cap, cap])  # type: ignore[no-any-return]

    def astuple(value: Any) -> tuple[Any, ...]:
        _fields_of(value)
        return _plain(value, lambda pairs: tuple(item for _, item in pairs),  # type: ignore
                      [cap, cap])

    return asdict, astuple


def replace(value: Any, **changes: Any) -> Any:
    found = _fields_of(value)
    keywords = {name: value.__dict__.get(name) for name, f in found.items() if f.init}
    keywords.update(changes)
    init, _ = classes.find_member(type(value), "__init__")
    kind: Any = type(value)
    made = kind.__new__(kind)
    init(made, **keywords)
    return made


def namespace(runtime: Any, name: str) -> Namespace:
    _NESTED_CAP[0] = runtime.limits.max_nested_items
    asdict, astuple = _converters(runtime.limits.max_nested_items)
    members: dict[str, Any] = {
        "dataclass": dataclass, "field": field, "fields": fields, "asdict": asdict,
        "astuple": astuple, "replace": replace, "is_dataclass": is_dataclass,
        "FrozenInstanceError": FrozenInstanceError, "Field": Field,
    }
    return Namespace(name, members)

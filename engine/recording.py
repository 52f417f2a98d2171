"""One optional observer of what the engine does, for the graph views, the tracer and the debugger.

The engine calls `observer.on_op(op_name, grad_fn_name, inputs, output)` after each op and
`observer.on_backward_node(node, grads_in, grads_out)` for each node the backward pass runs.
The gradients are Tensors, or numpy arrays for an observer whose `backward_arrays` is true
(the walk then runs on arrays, as without an observer: `takes_arrays`).
The interpreter keeps `location` (line, col) current so what is recorded can be placed.

While a backward pass runs, `backward_depth` is above 0: the ops an observer sees then compute
a derivative, they are not the program's own. `backward_passes` counts the passes begun, so an
observer can tell that a node starts a new one. `Fanout` hands every event to several observers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

observer: Any = None
location: tuple[int, int] = (0, 0)
backward_depth = 0
backward_passes = 0


def set_observer(new_observer: Any) -> Any:
    """Install an observer (or None); returns the previous one."""
    global observer
    previous, observer = observer, new_observer
    return previous


def takes_arrays(an_observer: Any) -> bool:
    """Whether `an_observer` takes a backward node's gradients as numpy arrays."""
    return bool(getattr(an_observer, "backward_arrays", False))


def begin_backward() -> None:
    """The engine starts a backward pass (paired with `end_backward`, also on error)."""
    global backward_depth, backward_passes
    backward_depth += 1
    backward_passes += 1


def end_backward() -> None:
    global backward_depth
    backward_depth -= 1


class Fanout:
    """Several observers as one: each event (`on_...` method) goes to every observer that
    has a handler for it, in the order given. An event nobody handles is not an attribute, so
    `getattr(fanout, "on_x", None)` is None as it would be for a single observer."""

    def __init__(self, *observers: Any) -> None:
        self.observers = tuple(o for o in observers if o is not None)
        self.backward_arrays = all(takes_arrays(o) for o in self.observers)

    def __getattr__(self, event: str) -> Callable[..., None]:
        if not event.startswith("on_"):
            raise AttributeError(event)
        handlers = tuple(getattr(o, event) for o in self.observers if hasattr(o, event))
        if not handlers:
            raise AttributeError(event)
        if len(handlers) == 1:  # called on every op: no wrapper around a single handler
            setattr(self, event, handlers[0])
            return handlers[0]

        def fan_out(*args: Any) -> None:
            for handler in handlers:
                handler(*args)

        setattr(self, event, fan_out)  # found once; later lookups are plain attributes
        return fan_out

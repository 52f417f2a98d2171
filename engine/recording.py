"""One optional observer of what the engine does, for the graph views, the tracer and the debugger.

The engine calls `observer.on_op(op_name, grad_fn_name, inputs, output)` after each op and
`observer.on_backward_node(node, grads_in, grads_out)` for each node the backward pass runs.
The interpreter keeps `location` (line, col) current so what is recorded can be placed.
"""

from __future__ import annotations

from typing import Any

observer: Any = None
location: tuple[int, int] = (0, 0)


def set_observer(new_observer: Any) -> Any:
    """Install an observer (or None); returns the previous one."""
    global observer
    previous, observer = observer, new_observer
    return previous

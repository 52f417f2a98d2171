"""`torch.autograd.graph`: the graph's `Node` type, `saved_tensors_hooks` and `save_on_cpu`.

`with torch.autograd.graph.saved_tensors_hooks(pack, unpack):` makes every op recorded inside
it hand each tensor it saves for backward to `pack`, and keep what `pack` returns; backward (and
`grad_fn._saved_self`) get the tensor back from `unpack(packed)`, as in PyTorch.
(`Node.register_hook` / `register_prehook` are methods of every grad_fn, engine/autograd.py.)
"""

from __future__ import annotations

from typing import Any

from engine import autograd


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """The context manager: `pack_hook(tensor) -> packed`, `unpack_hook(packed) -> tensor`."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("pack_hook", "unpack_hook")

    def __init__(self, pack_hook: Any, unpack_hook: Any) -> None:
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError("saved_tensors_hooks takes two functions: pack_hook, unpack_hook")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        autograd.SAVED_TENSORS_HOOKS.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc: Any) -> None:
        autograd.SAVED_TENSORS_HOOKS.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Saved tensors moved to the CPU while the graph waits for backward. Everything is on the
    CPU here: as in PyTorch on a CPU tensor, `pin_memory=True` keeps a copy (into pinned
    memory, there) and `pin_memory=False` the tensor itself."""

    __slots__ = ()

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack(tensor: Any) -> Any:
            return tensor.detach().clone() if pin_memory else tensor

        super().__init__(pack, _unpack)


def _unpack(packed: Any) -> Any:
    return packed


GRAPH: dict[str, Any] = {"Node": autograd.Node, "saved_tensors_hooks": saved_tensors_hooks,
                         "save_on_cpu": save_on_cpu}

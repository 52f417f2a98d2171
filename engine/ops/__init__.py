"""The ops: each a `Function` with its forward (numpy), its backward (Tensors) and its
PyTorch grad_fn name, side by side. `engine.functional` is the torch-level front over them."""

# every op takes its operands through engine/operands.py, which binds itself into autograd
import engine.operands  # noqa: F401

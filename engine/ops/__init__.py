"""The ops: each a `Function` with its forward (numpy), its backward (Tensors) and its
PyTorch grad_fn name, side by side. `engine.functional` is the torch-level front over them."""

# The ops import engine.tensor, whose module ends by importing engine.functional, which
# imports every op module: importing engine.tensor first makes any import order work.
import engine.tensor  # noqa: E402, F401

"""The command line: the `agraph` entry point (main.py), the table of every command's options
(options.py), the typer app built from it (app.py), and one module per command family (run.py,
render.py, explain.py, debug.py, lint.py) over what they share (common.py)."""

import os

# One thread for numpy's BLAS, set before numpy is first imported: tutorial-sized products are far
# faster on one thread, and a BLAS pool spinning on a busy machine made a 64x1000 @ 1000x100
# product 30x slower (11 ms instead of 0.3 ms), enough for "Learning PyTorch with Examples" to
# hit the time limit. MKL (engine/ops/mkl.py) takes as many threads as torch would, since how it
# splits a product depends on that count. The user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

"""The command line: the `agraph` entry point (main.py), the table of every command's options
(options.py), the typer app built from it (app.py), and one module per command family (run.py,
render.py, explain.py, debug.py, lint.py) over what they share (common.py)."""

import os

# One BLAS thread, set before numpy is first imported: tutorial-sized products are far faster on
# one thread, and a BLAS pool spinning on a busy machine made a 64x1000 @ 1000x100 product 30x
# slower (11 ms instead of 0.3 ms), enough for "Learning PyTorch with Examples" to hit the time
# limit. The user's own setting wins.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

"""Regenerate blas_cases.json: the SHA-256 of the bytes of every tensor each case of
blas_snippets.py gives under real PyTorch, with MKL on blas_snippets.THREADS threads.

Needs torch 2.13 (CPU), which agraph itself never imports; run it from a scratch venv:

    $TORCH_PYTHON tests/golden/make_blas_cases.py

tests/test_engine_blas.py runs the same cases on agraph's engine and compares.
"""

import hashlib
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from blas_snippets import CASES, THREADS  # noqa: E402

OUTPUT = Path(__file__).with_name("blas_cases.json")


def main() -> None:
    torch.set_num_threads(THREADS)
    cases = {name: [hashlib.sha256(t.detach().contiguous().numpy().tobytes()).hexdigest()
                    for t in function(torch)] for name, function in CASES.items()}
    OUTPUT.write_text(json.dumps({"torch": torch.__version__, "threads": THREADS,
                                  "cases": cases}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUTPUT}")


if __name__ == "__main__":
    main()

"""Regenerate engine_cases.json: what real PyTorch shows for each case of engine_snippets.py.

Needs torch 2.13 (CPU), which agraph itself never imports; run it from a scratch venv:

    $TORCH_PYTHON tests/golden/make_engine_cases.py

tests/test_engine.py runs the same cases on agraph's engine and compares. Deterministic output.
"""

import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from engine_snippets import CASES, Side, run_case  # noqa: E402

OUTPUT = Path(__file__).with_name("engine_cases.json")
SIDE = Side(torch.Tensor, version=lambda t: t._version, node_name=lambda n: type(n).__name__)


def main() -> None:
    torch.set_warn_always(True)  # torch warns some things once per process; cases are separate
    cases = {name: run_case(function, torch, SIDE) for name, function in CASES.items()}
    OUTPUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=1,
                                 sort_keys=True) + "\n")
    errors = sum(1 for c in cases.values() if c["error"])
    print(f"wrote {len(cases)} cases ({errors} end in an error) to {OUTPUT}")


if __name__ == "__main__":
    main()

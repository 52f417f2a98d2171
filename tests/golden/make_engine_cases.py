"""Regenerate engine_cases.json: what real PyTorch shows for each case of engine_snippets.py.

Needs torch 2.13 (CPU), which agraph itself never imports; run it from a scratch venv:

    /work/torchenv/bin/python tests/golden/make_engine_cases.py

tests/test_engine.py runs the same cases on agraph's engine and compares. Deterministic output.
"""

import json
import re
import sys
import warnings
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).parent))
from engine_snippets import CASES, Recorder, Side  # noqa: E402

OUTPUT = Path(__file__).with_name("engine_cases.json")
SIDE = Side(torch.Tensor, version=lambda t: t._version, node_name=lambda n: type(n).__name__)


def first_line(message: str) -> str:
    line = str(message).split("\n")[0]
    return re.sub(r" \(Triggered internally at .*\)$", "", line)


def run_case(function: Any) -> dict[str, Any]:
    out = Recorder(SIDE)
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            function(torch, out)
        except Exception as exc:  # the case's own error is what we record
            error = {"type": type(exc).__name__, "message": first_line(str(exc))}
        finally:
            torch.set_grad_enabled(True)
    return {
        "values": dict(out),
        "error": error,
        "warnings": [[w.category.__name__, first_line(str(w.message))] for w in caught],
    }


def main() -> None:
    torch.set_warn_always(True)  # torch warns some things once per process; cases are separate
    cases = {name: run_case(function) for name, function in CASES.items()}
    OUTPUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=1,
                                 sort_keys=True) + "\n")
    errors = sum(1 for c in cases.values() if c["error"])
    print(f"wrote {len(cases)} cases ({errors} end in an error) to {OUTPUT}")


if __name__ == "__main__":
    main()

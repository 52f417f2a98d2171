"""`--detect-anomaly`: the first NaN or infinity stops the program at the op that made it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SQRT_OF_NEGATIVE = """\
import torch
x = torch.tensor([4.0, -1.0], requires_grad=True)
y = x * 2
z = torch.sqrt(y)
loss = z.sum()
loss.backward()
"""

# sqrt(0) is 0 going forward, its derivative 1 / (2 sqrt(0)) is infinite going back
SQRT_AT_ZERO = """\
import torch
x = torch.tensor([4.0, 0.0], requires_grad=True)
y = x * 1
z = torch.sqrt(y)
loss = z.sum()
loss.backward()
print(x.grad)
"""

# 0 times the infinite derivative of x ** 0.5 at 0 is nan: PyTorch's own anomaly check
NAN_IN_BACKWARD = """\
import torch
x = torch.tensor([1.0, 0.0], requires_grad=True)
y = x.pow(0.5)
z = y * 0
z.sum().backward()
"""


def program(tmp_path: Path, text: str, name: str = "p.expr") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_forward_nan_stops_at_the_op_and_its_line(cli: Any, tmp_path: Path) -> None:
    result = cli("run", program(tmp_path, SQRT_OF_NEGATIVE), "--detect-anomaly")
    assert result.exit_code == 1
    first, source, caret = result.stderr.splitlines()[:3]
    assert first == (f"{tmp_path}/p.expr:4:5: RuntimeError: Function 'sqrt' returned nan values "
                     "in its 0th output (forward; its inputs were finite).")
    assert source == "  z = torch.sqrt(y)"
    assert caret == "      " + "^" * len("torch.sqrt(y)")


def test_backward_inf_names_the_node_and_points_at_its_forward_op(cli: Any, tmp_path: Path
                                                                   ) -> None:
    result = cli("run", program(tmp_path, SQRT_AT_ZERO), "--detect-anomaly")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == (f"{tmp_path}/p.expr:4:5: RuntimeError: Function 'SqrtBackward0' "
                        "returned inf values in its 0th output.")
    assert lines[1] == "  z = torch.sqrt(y)"
    assert lines[3].startswith(f"{tmp_path}/p.expr:6: note: found by the backward pass run here")
    assert lines[4] == "  loss.backward()"
    assert result.stdout == ""  # stopped before print(x.grad)


def test_backward_nan_uses_pytorchs_message(cli: Any, tmp_path: Path) -> None:
    result = cli("run", program(tmp_path, NAN_IN_BACKWARD), "--detect-anomaly")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{tmp_path}/p.expr:3:5: RuntimeError: Function "
                                    "'PowBackward0' returned nan values in its 0th output.")


def test_without_the_option_nan_flows_quietly(cli: Any, tmp_path: Path) -> None:
    result = cli("run", program(tmp_path, SQRT_AT_ZERO))
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == "tensor([0.2500,    inf])\n"


def test_json_error_is_at_the_forward_op(cli: Any, tmp_path: Path) -> None:
    result = cli("run", program(tmp_path, SQRT_AT_ZERO), "--detect-anomaly", "--json")
    document = json.loads(result.stdout)
    assert document["error"]["type"] == "RuntimeError"
    assert document["error"]["line"] == 4
    assert "SqrtBackward0" in document["error"]["message"]


def test_render_marks_the_node_red(cli: Any, tmp_path: Path) -> None:
    forward = cli("render", program(tmp_path, SQRT_AT_ZERO), "--detect-anomaly", "-f", "json")
    assert forward.exit_code == 1  # the picture is written, the anomaly is still an error
    nodes = {n["id"]: n for n in json.loads(forward.stdout)["nodes"]}
    assert nodes["op4_5"]["role"] == "anomaly"  # sqrt, line 4, column 5
    assert all(n["role"] != "anomaly" for i, n in nodes.items() if i != "op4_5")
    backward = cli("render", program(tmp_path, SQRT_AT_ZERO), "--detect-anomaly", "-f", "json",
                   "--view", "backward")
    nodes = {n["id"]: n for n in json.loads(backward.stdout)["nodes"]}
    assert nodes["bw4_5"]["role"] == "anomaly" and nodes["bw4_5"]["label"][0] == "SqrtBackward0"


def test_render_draws_the_unbound_nan_result_of_a_forward_anomaly(cli: Any, tmp_path: Path
                                                                  ) -> None:
    result = cli("render", program(tmp_path, SQRT_OF_NEGATIVE), "--detect-anomaly", "-f",
                 "json")
    assert result.exit_code == 1
    anomalies = [n for n in json.loads(result.stdout)["nodes"] if n["role"] == "anomaly"]
    assert {n["kind"] for n in anomalies} == {"op", "tensor"}  # sqrt and its nan result

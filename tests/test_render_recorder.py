"""The graph recorder and its views: names, passes, broadcasting, saved tensors, create_graph,
anomalies, memory in long loops, and the node cap on big graphs."""

from __future__ import annotations

import gc
import json
import shutil
import textwrap
from typing import Any

import pytest

from autograd_cli.graph.recorder import GraphRecorder, Record
from autograd_cli.graph.rendering import RenderError, graph_dict, record_program, render


def run(source: str, keep_pass: int | None = None) -> GraphRecorder:
    result, recorder = record_program("import torch\n" + textwrap.dedent(source),
                                      keep_pass=keep_pass)
    assert result.error is None, result.error
    return recorder


def graph(recorder: GraphRecorder, **options: Any) -> dict[str, Any]:
    return graph_dict(recorder, **options)


def tensors(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["label"][0]: n for n in data["nodes"] if n["kind"] in ("tensor", "accumulate")}


def test_rebound_names_are_numbered_in_binding_order() -> None:
    data = graph(run("""
        x = torch.ones(2, requires_grad=True)
        h = x * 2
        h = h.tanh()
        h = h + 1
        loss = h.sum()
    """))
    names = [n["label"][0] for n in data["nodes"] if n["kind"] == "tensor"]
    assert names == ["x", "h", "h (2)", "h (3)", "loss"]


def test_positions_make_the_ids() -> None:
    data = graph(run("""
        w = torch.tensor([1.0], requires_grad=True)
        y = torch.mul(w, 3)
    """))
    ids = [n["id"] for n in data["nodes"]]
    assert ids == ["t3_5", "op4_5", "t4_5"]
    assert data["nodes"][2]["attrs"]["line"] == 4


def test_no_grad_cuts_the_graph_and_hides_its_ops() -> None:
    data = graph(run("""
        w = torch.ones(2, requires_grad=True)
        with torch.no_grad():
            z = w * 2
        y = (z * w).sum()
    """))
    nodes = tensors(data)
    assert nodes["z"]["role"] == "no_grad"
    assert [n["label"][0] for n in data["nodes"] if n["kind"] == "op"] == ["mul", "sum"]


def test_unnamed_no_grad_input_is_explained_by_its_op() -> None:
    data = graph(run("""
        W = torch.ones(2, 3, requires_grad=True)
        x = torch.ones(2, 3)
        y = torch.mm(W, x.t())
    """))
    ops = [n["label"] for n in data["nodes"] if n["kind"] == "op"]
    assert ops[0] == ["permute(·, 1, 0)"] or ops[0][0].startswith(("t", "permute", "transpose"))
    assert ops[-1] == ["mm", "MmBackward0"]


def test_passes_are_counted_and_one_is_kept() -> None:
    source = """
        w = torch.tensor([1.0], requires_grad=True)
        for step in range(3):
            loss = (w * (step + 1)).sum()
            loss.backward()
    """
    recorder = run(source, keep_pass=2)
    assert recorder.passes == 3
    data = graph(recorder, pass_number=2)
    assert data["notes"] == ["the graph that backward pass 2 of 3 walked"]
    assert [n["label"][0] for n in data["nodes"] if n["kind"] == "op"] == ["mul(·, 2)", "sum"]
    assert tensors(data)["w"]["attrs"]["grad"] == "[3.]"  # 1 + 2 after the second pass
    final = graph(recorder)
    assert tensors(final)["w"]["attrs"]["grad"] == "[6.]"
    with pytest.raises(RenderError, match="ran 3 backward passes"):
        graph(recorder, pass_number=4)


def test_retain_graph_second_walk_is_a_second_pass() -> None:
    recorder = run("""
        x = torch.tensor([2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        y.backward()
    """)
    assert recorder.passes == 2


def test_broadcast_is_drawn_as_a_sum_to_step() -> None:
    recorder = run("""
        W = torch.ones(2, 3, requires_grad=True)
        b = torch.zeros(3, requires_grad=True)
        y = (W + b).sum()
        y.backward()
    """)
    forward = graph(recorder)
    assert [e["label"] for e in forward["edges"] if e["label"]] == ["broadcast"]
    backward = graph(recorder, view="backward")
    steps = [n for n in backward["nodes"] if n["kind"] == "sum_to"]
    assert len(steps) == 1 and steps[0]["label"] == ["sum_to", "[3] float32"]
    assert steps[0]["role"] == "broadcast"
    into = {e["dst"]: e["src"] for e in backward["edges"]}
    assert into[steps[0]["id"]].startswith("bw")  # AddBackward0 -> sum_to -> AccumulateGrad(b)
    assert any(e["src"] == steps[0]["id"] and e["dst"].startswith("acc")
               for e in backward["edges"])


def test_saved_tensors_with_bytes_and_freed_after_backward() -> None:
    source = """
        x = torch.ones(4, requires_grad=True)
        y = (x * x).sum()
        y.backward({})
    """
    freed = graph(run(source.format("")), view="backward", show_saved=True)
    saved = [n for n in freed["nodes"] if n["kind"] == "saved"]
    assert [n["label"] for n in saved] == [["saved self", "[4] float32", "16 bytes", "(freed)"],
                                           ["saved other", "[4] float32", "16 bytes", "(freed)"]]
    kept = graph(run(source.format("retain_graph=True")), view="backward", show_saved=True)
    assert {n["role"] for n in kept["nodes"] if n["kind"] == "saved"} == {"saved"}
    assert not [n for n in graph(run(source.format("")), view="backward")["nodes"]
                if n["kind"] == "saved"]


def test_backward_view_names_leaves_and_follows_next_functions() -> None:
    data = graph(run("""
        w = torch.tensor(1.0, requires_grad=True)
        x = torch.tensor(2.0, requires_grad=True)
        y = (w + x) * (w + 1)
        y.backward()
    """), view="backward")
    labels = {n["id"]: n["label"] for n in data["nodes"]}
    accumulators = sorted(lab[1] for lab in labels.values() if lab[0] == "AccumulateGrad")
    assert accumulators == ["w", "x"]
    root = [n for n in data["nodes"] if n["role"] == "root"]
    assert root[0]["label"][:2] == ["MulBackward0", "→ y"]
    assert len(data["edges"]) == 5  # mul->add, mul->add, add->w, add->x, add->w


def test_create_graph_draws_the_derivative_graph() -> None:
    recorder = run("""
        x = torch.tensor([3.0], requires_grad=True)
        y = x ** 3
        y.backward(create_graph=True)
    """)
    data = graph(recorder)
    assert data["clusters"] == [{"id": "derivative",
                                 "label": "derivative graph (create_graph=True)"}]
    grad_edges = [e for e in data["edges"] if e["kind"] == "grad"]
    assert len(grad_edges) == 1
    assert {n["role"] for n in data["nodes"] if n["cluster"]} >= {"grad_seed", "derivative"}


def test_nan_is_marked_as_an_anomaly() -> None:
    data = graph(run("""
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        y = torch.log(x) * 0
        y.sum().backward()
    """))
    nodes = tensors(data)
    assert nodes["y"]["role"] == "anomaly"
    assert nodes["x"]["role"] == "anomaly"  # its grad is nan


def test_values_grads_and_rankdir_options() -> None:
    recorder = run("""
        w = torch.tensor([1.0], requires_grad=True)
        y = (w * 2).sum()
        y.backward()
    """)
    plain = tensors(graph(recorder, values=False, grads=False))
    assert plain["w"]["label"] == ["w", "[1] float32"]
    full = tensors(graph(recorder))
    assert full["w"]["label"] == ["w", "[1] float32", "= [1.]", "grad = [2.]"]
    assert b"rankdir=LR" in render(recorder, fmt="dot", rankdir="LR")
    with pytest.raises(RenderError):
        render(recorder, fmt="gif")


def test_records_of_past_iterations_are_freed() -> None:
    def live_records(iterations: int) -> int:
        recorder = run(f"""
            w = torch.ones(50, requires_grad=True)
            for step in range({iterations}):
                loss = ((w * 2 + 1) ** 2).mean()
                loss.backward()
                with torch.no_grad():
                    w -= 0.01 * w.grad
                w.grad.zero_()
        """)
        gc.collect()
        count = sum(isinstance(o, Record) for o in gc.get_objects())
        del recorder
        return count

    assert live_records(1000) == live_records(10) < 20


def unrolled_rnn(steps: int) -> Any:
    return run(f"""
        W_h = (torch.sin(torch.arange(16.0)) * 0.1).reshape(4, 4).requires_grad_()
        W_x = (torch.cos(torch.arange(8.0)) * 0.1).reshape(4, 2).requires_grad_()
        h = torch.zeros(4, 1)
        x = torch.ones(2, 1)
        for step in range({steps}):
            h = torch.tanh(torch.mm(W_h, h) + torch.mm(W_x, x))
        loss = h.sum()
        loss.backward()
    """)


@pytest.mark.parametrize("steps", [200, 2000])  # about 1,000 and 10,000 recorded nodes
def test_big_unrolled_rnn_is_cut_with_a_note_quickly(steps: int) -> None:
    recorder = unrolled_rnn(steps)
    data = json.loads(render(recorder, fmt="json", max_nodes=300, unroll=0))
    assert len(data["nodes"]) == 301
    note = data["nodes"][-1]
    assert note["kind"] == "note" and note["attrs"]["hidden_nodes"] > steps
    assert "raise --max-nodes" in note["label"][1]
    if shutil.which("dot"):
        render(recorder, fmt="svg", max_nodes=300, unroll=0)
        render(recorder, fmt="svg", view="backward", max_nodes=300, unroll=0)


@pytest.mark.parametrize("view", ["forward", "backward"])
def test_a_loop_is_folded_into_blocks_with_its_recurrent_edge(view: str) -> None:
    data = json.loads(render(unrolled_rnn(300), fmt="json", view=view))
    blocks = [n for n in data["nodes"] if n["attrs"].get("repeat")]
    assert blocks and all(n["attrs"]["repeat"] == 300 for n in blocks)
    assert len(data["nodes"]) < 30
    assert all(n["label"][0].endswith(" ×300") or "×300" in " ".join(n["label"]) for n in blocks)
    loops = [e for e in data["edges"] if e["kind"] == "loop"]
    assert len(loops) == 1 and loops[0]["label"] == "next iteration"
    names = {n["attrs"].get("name") for n in blocks}
    if view == "forward":
        assert "h" in names and not any("(" in (name or "") for name in names)
        tanh = next(n for n in blocks if n["kind"] == "op" and n["attrs"]["op"] == "tanh")
        h = next(n for n in blocks if n["attrs"].get("name") == "h")
        assert {"src": tanh["id"], "dst": h["id"], "kind": "data", "label": ""} in data["edges"]
        assert loops[0]["src"] == h["id"]  # h of one step feeds the next step's op
    assert any("loops folded" in note for note in data["notes"])


def test_unroll_draws_every_iteration_or_the_first_n() -> None:
    recorder = unrolled_rnn(8)
    folded = json.loads(render(recorder, fmt="json"))
    every = json.loads(render(recorder, fmt="json", unroll=0))
    first = json.loads(render(recorder, fmt="json", unroll=2))
    assert len(folded["nodes"]) < len(first["nodes"]) < len(every["nodes"])
    tanh = [n for n in every["nodes"] if n["kind"] == "op" and n["attrs"]["op"] == "tanh"]
    assert len(tanh) == 8 and not any(e["kind"] == "loop" for e in every["edges"])
    assert len([n for n in first["nodes"] if n["kind"] == "op" and n["attrs"]["op"] == "tanh"
                ]) == 2
    assert any("--unroll 2" in note for note in first["notes"])


def test_a_short_loop_is_not_folded() -> None:
    data = json.loads(render(unrolled_rnn(3), fmt="json"))
    assert not any(n["attrs"].get("repeat") for n in data["nodes"])


def test_module_parameters_are_named_by_the_module() -> None:
    data = graph(run("""
        import torch.nn as nn
        model = nn.Linear(2, 1)
        loss = model(torch.ones(1, 2)).sum()
    """))
    names = {n["attrs"]["name"] for n in data["nodes"] if n["kind"] == "tensor"}
    assert {"model.weight", "model.bias", "loss"} <= names


def test_a_loop_outside_autograd_keeps_no_chain() -> None:
    def live_records(iterations: int) -> int:
        recorder = run(f"""
            h = torch.ones(3)
            for step in range({iterations}):
                h = h * 0.9 + 1
        """)
        gc.collect()
        count = sum(isinstance(o, Record) for o in gc.get_objects())
        del recorder
        return count

    assert live_records(1000) == live_records(10) < 5


def test_a_leaf_updated_after_use_says_its_value_is_the_programs_last() -> None:
    program = """
        w = torch.tensor([1.0], requires_grad=True)
        opt = torch.optim.SGD([w], lr=0.5)
        for step in range(2):
            opt.zero_grad()
            loss = (w * 3).sum()
            loss.backward()
            opt.step()
    """
    ended = graph(run(program))
    label = next(n["label"] for n in ended["nodes"] if n["attrs"].get("name") == "w")
    assert "= [-2.] (end of program)" in label  # 1 - 0.5*3 - 0.5*3; the ops drawn used -0.5
    recorder = run(program, keep_pass=2)
    second = json.loads(render(recorder, fmt="json", pass_number=2))
    label = next(n["label"] for n in second["nodes"] if n["attrs"].get("name") == "w")
    assert "= [-0.5000]" in label and not any("end of program" in line for line in label)


def test_the_recorded_walk_on_arrays_draws_what_the_walk_on_tensors_draws(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorder takes a backward node's gradients as arrays (so the walk under --json and
    render is the fast one); every view, with gradient flows, values and saved tensors, is
    the one drawn when it was given tensors."""
    source = """
        x = torch.linspace(-1, 1, 6).reshape(2, 3)
        w = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
        b = torch.zeros(1, requires_grad=True)
        for step in range(2):
            h = torch.tanh(x * w + b)
            loss = ((h - 0.25) ** 2).mean() + h.sum() * 0.0
            loss.backward()
    """
    views = []
    for on_arrays in (True, False):
        monkeypatch.setattr(GraphRecorder, "backward_arrays", on_arrays)
        recorder = run(source, keep_pass=2)
        views.append([graph(recorder, view=view, show_saved=True, pass_number=number)
                      for view in ("forward", "backward") for number in (None, 2)])
    assert views[0] == views[1]
    flows = [line for node in views[0][2]["nodes"] if node["kind"] == "backward_fn"
             for line in node["label"] if line.startswith("grad_output = ")]
    assert sum("[[" in line for line in flows) >= 3, flows  # the values, not only shapes

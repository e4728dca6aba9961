"""The mend sweep's bookkeeping (tests/sweep/mend_sweep.py), without running dynamo: which runs
it measures, how a break left in a mended file maps back to the original line, and how outputs
compare (a difference only in the compiled run's gradients is told apart)."""

from __future__ import annotations

import pytest

from mend_sweep import COMPILED_GRADIENTS, _original_line, _same, arm_cells, breaking_runs

torch = pytest.importorskip("torch")


def test_breaking_runs_are_the_runs_with_breaks():
    data = {"families": {
        "bart": {"runs": [
            {"mode": "eval", "dtype": "float32", "graphs": 1, "breaks": []},
            {"mode": "eval", "dtype": "float16", "graphs": 2, "traced": {"pkg/a.py": [1, [3, 4]]},
             "breaks": [{"file": "pkg/b.py", "line": 7}]}]},
        "ctrl": {"runs": [{"mode": "train", "dtype": "float32", "error": "does not run"}]},
    }}
    plan = breaking_runs(data, None)
    assert list(plan) == ["bart"]
    assert plan["bart"] == {"eval": [{"spec": "eval:float16", "path": {"pkg/a.py", "pkg/b.py"}}]}
    assert breaking_runs(data, ["ctrl"]) == {}


def test_a_mended_line_maps_to_the_nearest_original_line_with_its_text(tmp_path):
    original, mended = tmp_path / "o", tmp_path / "m"
    for root, lines in ((original, ["import torch", "x = 1", "y = f(x)", "y = f(x)"]),
                        (mended, ["import torch", "import extra", "x = 1", "y = f(x)", "y = f(x)"])):
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "m.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _original_line(original, mended, "pkg/m.py", 3) == 2
    assert _original_line(original, mended, "pkg/m.py", 5) == 4  # the nearer of two equal lines
    assert _original_line(original, mended, "pkg/missing.py", 9) == 9


def _outputs(out, eager_grad, compiled_grad):
    key = "train:float32/"
    return {key + "eager": {"outputs": (out,), "grads": {"w": eager_grad}},
            key + "compiled": {"outputs": (out,), "grads": {"w": compiled_grad}}}


def test_outputs_compare_eager_with_eager_and_compiled_with_compiled():
    out, g = torch.ones(3), torch.full((2,), 2.0)
    ref = _outputs(out, g, g)
    assert _same(ref, _outputs(out.clone(), g.clone(), g.clone()), "train:float32", "float32") is True
    assert _same(ref, _outputs(out, g, g + 1), "train:float32", "float32") == COMPILED_GRADIENTS
    assert _same(ref, _outputs(out, g + 1, g), "train:float32", "float32") is False
    assert _same(ref, _outputs(out + 1, g, g), "train:float32", "float32") is False
    assert _same(ref, None, "train:float32", "float32") is None
    # float16 outputs within its tolerance are equal
    half = _outputs(torch.ones(3, dtype=torch.float16), g, g)
    close = _outputs(torch.full((3,), 1.001, dtype=torch.float16), g, g)
    assert _same(half, close, "train:float32", "float16") is True


def test_an_arm_that_did_not_run_everywhere_gets_no_figure():
    arm = {"before": 10, "after": 4, "equal": 2, "compared": 2, "unchanged": 0}
    row = {"families": 3, "before": 10, "safe": dict(arm), "unsafe": dict(arm, before=6, after=0)}
    assert arm_cells(row, "safe") == ["4", "6 (60%)", "2/2"]
    # the unsafe arm ran on the families with 6 of the 10 sites: "0 after" is not "all removed"
    assert arm_cells(row, "unsafe") == ["not run", "-", "-"]


def test_first_contact_libraries_dispatch_to_the_untuned_adapter():
    import mend_sweep
    from libraries import adapter
    from libraries.untuned_adapter import LIBRARIES, Untuned

    assert set(LIBRARIES) == {"torchsde", "snntorch", "nnAudio", "torchode", "litgpt"}
    assert set(LIBRARIES) <= set(mend_sweep.LIBRARIES)
    for library in LIBRARIES:  # nothing imported: the adapter only names the library
        lib = adapter(library)
        assert isinstance(lib, Untuned) and lib.NAME == library
        assert lib.SHRINK_LEVELS == ("tiny",) and not lib.HELD_OUT
        assert not lib.in_held_out_code(f"{library}/x.py")
    assert adapter("timm").NAME == "timm"
    with pytest.raises(ValueError):
        adapter("no_such_library")


def test_a_mended_run_that_raises_names_its_frame_in_the_copy(tmp_path):
    from mend_sweep import _raised

    original, copy = tmp_path / "env", tmp_path / "copy"
    for root, lines in ((original, ["def f(x):", "    return x.item()"]),
                        (copy, ["import torch", "def f(x):", "    return x.item()"])):
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "m.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    error = (f'Traceback (most recent call last):\n  File "/elsewhere/model.py", line 4, in forward\n'
             f'  File "{copy}/pkg/m.py", line 3, in f\n  File "/torch/x.py", line 9, in g\n'
             "NameError: name 'torch2' is not defined")
    run = {"mode": "eval", "dtype": "float32", "error": error,
           "error_summary": "NameError: name 'torch2' is not defined"}
    raised = _raised({"root": str(copy / "pkg"), "runs": [run]}, run, original / "pkg", copy)
    assert raised == {"error": "NameError: name 'torch2' is not defined", "file": "pkg/m.py",
                      "line": 3, "original_line": 2}
    # a worker killed after its timeout: the failure, no frame
    assert _raised({"failed": "timed out after 300s"}, None, original / "pkg", copy) == {
        "error": "timed out after 300s"}
    assert _raised(None, None, original / "pkg", copy) is None

"""Display-only mends that switch on a dynamo setting (mend_settings.c): where graphmend has no
rewrite for a break but capture_scalar_outputs or capture_dynamic_output_shape_ops would trace
it, the finding offers `torch._dynamo.config.<name> = True` after the imports as a display-only
fix. `graphmend fix` never applies it (so these cases are not .in.py/.out.py fixtures); here
the edit is applied by hand and real dynamo must then see fewer breaks with equal outputs."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mend_lib import HERE, check_json, graphmend_binary

CASES = {
    # the scalar is handed back to the caller: keeping it a tensor would change what it gets
    "item_returned": ("capture_scalar_outputs", "GM201", """\
        import torch


        @torch.compile
        def loss_value(pred, target):
            loss = ((pred - target) ** 2).mean()
            return pred * 2, loss.item()


        def example():
            return loss_value, (torch.randn(4), torch.randn(4))
        """),
    # MoE bookkeeping: the distinct experts used, fed on into tensor arithmetic
    "unique_arith": ("capture_dynamic_output_shape_ops", "GM301", """\
        import torch


        @torch.compile
        def used_experts(expert_ids: torch.Tensor, weights: torch.Tensor):
            used = torch.unique(expert_ids)
            return weights[used].sum() * 2


        def example():
            return used_experts, (torch.tensor([3, 1, 3, 0]), torch.randn(5))
        """),
    # tokens per expert, as MoE load balancing counts them
    "bincount_arith": ("capture_dynamic_output_shape_ops", "GM301", """\
        import torch


        @torch.compile
        def load(expert_ids: torch.Tensor):
            counts = torch.bincount(expert_ids)
            return counts.float() / expert_ids.numel()


        def example():
            return load, (torch.tensor([0, 2, 2, 1, 2]),)
        """),
}


def _apply(text: str, edit: dict) -> str:
    lines = text.splitlines(keepends=True)

    def offset(loc):
        return sum(len(line) for line in lines[: loc["row"] - 1]) + loc["column"] - 1

    start, end = offset(edit["location"]), offset(edit["end_location"])
    return text[:start] + edit["content"] + text[end:]


def _breaks(tmp_path, path) -> dict:
    """Dynamo's breaks in path, alone in a fresh process (the setting, once imported, stays)."""
    out = tmp_path / (path.stem + ".json")
    proc = subprocess.run([sys.executable, str(HERE / "mend_runner.py"), str(out), str(path),
                           str(path)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    pair = json.loads(out.read_text())["pairs"][0]
    assert not pair["error"], pair["error"]
    return pair


def _suggested(name: str, tmp_path) -> tuple[Path, Path]:
    """The case's file and the file with the suggested edit applied by hand, after checking
    the finding, its display-only fix and that `graphmend fix` never applies it."""
    setting, rule, source = CASES[name]
    source = textwrap.dedent(source)
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    findings = [f for f in check_json(path) if f["code"] == rule]
    assert findings, f"{name}: no {rule} finding"
    fix = findings[0]["fix"]
    assert fix and fix["applicability"] == "display-only", fix
    assert fix["message"].startswith("Mend graph break: set torch._dynamo.config." + setting)
    assert "display only" in fix["message"]
    assert len(fix["edits"]) == 1
    edit = fix["edits"][0]
    # right after the imports, once per file, with the blank lines before the code kept
    assert edit["content"] == f"torch._dynamo.config.{setting} = True\n"
    assert edit["location"] == {"row": 2, "column": 1}

    # never applied by fix, with or without unsafe fixes
    for args in ([], ["--unsafe-fixes"]):
        subprocess.run([str(graphmend_binary()), "fix", *args, str(path)], capture_output=True,
                       timeout=60)
        assert path.read_text(encoding="utf-8") == source

    mended_text = _apply(source, edit)
    assert mended_text.startswith("import torch\n" + edit["content"] + "\n\n@torch.compile")
    mended = tmp_path / f"{name}_mended.py"
    mended.write_text(mended_text, encoding="utf-8")
    return path, mended


@pytest.mark.parametrize("name", sorted(CASES))
def test_setting_suggestion(name, tmp_path):
    _suggested(name, tmp_path)


# The suggestion under real dynamo. What graphmend gives for it (the edit's text and place, the
# mended file) is pinned exactly above; here torch runs on that file: torch_only
# (tests/conftest.py), skipped on the sanitized build, where test_setting_suggestion still runs.
@pytest.mark.torch_only
@pytest.mark.parametrize("name", sorted(CASES))
def test_setting_suggestion_removes_breaks(name, tmp_path):
    path, mended = _suggested(name, tmp_path)
    pytest.importorskip("torch")
    before, after = _breaks(tmp_path, path), _breaks(tmp_path, mended)
    assert before["before"]["count"] > 0, f"{name}: the original has no dynamo break"
    assert after["before"]["count"] < before["before"]["count"], (before["before"], after["before"])
    assert after["outputs_equal"] and after["compiled_outputs_equal"]

"""graphmend confirm, end to end on the CPU: the real binary runs the embedded helper with the
test's own Python (torch from .venv) under torch._dynamo.explain, and judges graphmend's
predictions for the file against the breaks dynamo really found."""

import importlib.util
import json
import shutil
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO, run_cli

PYTHON = sys.executable
EXAMPLE = REPO / "examples" / "confirm_example.py"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                reason=f"torch is not importable from {PYTHON}")


def line_of(path, text):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


def confirm(binary, path, *args, timeout=180):
    return run_cli(binary, "confirm", str(path), "--python", PYTHON, "--quiet", *args,
                   timeout=timeout)


def test_example_verdicts_and_precision_recall(binary):
    proc = confirm(binary, EXAMPLE, "--output-format", "json")
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)
    verdicts = {(f["line"], f["code"]): f["verdict"] for f in report["findings"]}
    printed = line_of(EXAMPLE, 'print("hidden"')
    item = line_of(EXAMPLE, "h.mean().item()")
    debug_only = line_of(EXAMPLE, "h.max().item()")
    assert verdicts == {(printed, "GM401"): "confirmed", (item, "GM201"): "confirmed",
                        (debug_only, "GM201"): "not_reached"}, report["findings"]
    by_line = {f["line"]: f for f in report["findings"]}
    assert by_line[printed]["registry_id"] == "GB0059"  # from the graph_breaks log's gb URL
    assert by_line[item]["dynamo_reason"].startswith("Unsupported Tensor.item()")
    assert report["unpredicted"] == []
    assert report["counts"] == {"confirmed": 2, "not_reached": 1, "contradicted": 0,
                                "dynamo_breaks": 2, "predicted_breaks": 2}
    assert report["precision"] == 1.0 and report["recall"] == 1.0
    assert report["summary"] == ("precision 1.00 (2 of 2 reached predictions confirmed), "
                                 "recall 1.00 (2 of 2 dynamo break sites predicted)")
    assert report["torch"].startswith("2.") and report["python"] == sys.version.split()[0]
    assert report["graph_breaks"] == 2


# A break in a loop makes dynamo skip the whole frame: explain's break_reasons do not name it,
# only the graph_breaks log does.
IN_A_LOOP = textwrap.dedent("""\
    import torch
    from torch import nn


    class Net(nn.Module):
        def forward(self, x):
            for step in range(2):
                x = x + 1
                print("step", step)
            return x


    def graphmend_profile_entry():
        return Net(), (torch.randn(2, 4),)
    """)


def test_frame_skipping_break_only_in_the_log(binary, tmp_path):
    path = tmp_path / "loop.py"
    path.write_text(IN_A_LOOP)
    proc = confirm(binary, path, "--output-format", "json")
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)
    printed = line_of(path, 'print("step", step)')
    assert [(f["line"], f["verdict"]) for f in report["findings"]] == [(printed, "confirmed")]
    assert report["findings"][0]["dynamo_sources"] == ["log"]
    assert report["findings"][0]["skips_frame"] is True
    assert report["precision"] == 1.0 and report["recall"] == 1.0


def test_text_output(binary):
    proc = confirm(binary, EXAMPLE)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    assert "GM401 confirmed by torch 2." in out
    assert "GM201 not reached by this input" in out
    assert out.rstrip().endswith("recall 1.00 (2 of 2 dynamo break sites predicted)")


def test_no_entry_is_an_error(binary, tmp_path):
    path = tmp_path / "no_entry.py"
    path.write_text("import torch\n\nprint('imported')\n")
    proc = confirm(binary, path, "--entry", "missing")
    assert proc.returncode == 2
    assert b"has no function `missing`" in proc.stderr, proc.stderr


def test_no_torch_is_an_error(binary):
    python = shutil.which("python3", path="/usr/bin") or "/usr/bin/python3"
    if subprocess.run([python, "-c", "import torch"], capture_output=True).returncode == 0:
        pytest.skip(f"{python} has torch: no interpreter without it here")
    proc = run_cli(binary, "confirm", str(EXAMPLE), "--python", python, "--quiet", timeout=60)
    assert proc.returncode == 2
    assert b"torch cannot be imported" in proc.stderr, proc.stderr


# graphmend reads the file, not what the entry does at run time: the entry turns on
# capture_scalar_outputs, so the predicted .item() break does not happen (contradicted), and the
# project's pyproject.toml ignores GM401, so the print's break is one graphmend did not predict.
CONTRADICTED_AND_UNPREDICTED = textwrap.dedent("""\
    import torch
    from torch import nn


    class Net(nn.Module):
        def forward(self, x):
            h = x + 1
            print("h", h.shape)
            s = h.sum().item()
            return h * s


    def graphmend_profile_entry():
        torch._dynamo.config.capture_scalar_outputs = True
        return Net(), (torch.randn(2, 4),)
    """)


def test_contradicted_and_unpredicted(binary, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.graphmend]\nignore = ["GM401"]\n')
    path = tmp_path / "model.py"
    path.write_text(CONTRADICTED_AND_UNPREDICTED)
    proc = confirm(binary, path, "--output-format", "json")
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)
    item = line_of(path, "h.sum().item()")
    printed = line_of(path, 'print("h"')
    assert [(f["line"], f["code"], f["verdict"]) for f in report["findings"]] == [
        (item, "GM201", "contradicted")]
    [missed] = report["unpredicted"]
    assert missed["line"] == printed and missed["registry_id"] == "GB0059"
    assert missed["reason"] == "Failed to trace builtin operator"
    assert missed["url"].endswith("/gb/gb0059.html")
    assert report["precision"] == 0.0 and report["recall"] == 0.0
    assert report["summary"] == ("precision 0.00 (0 of 1 reached predictions confirmed), "
                                 "recall 0.00 (0 of 1 dynamo break sites predicted)")

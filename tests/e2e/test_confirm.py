"""graphmend confirm, end to end on the CPU: the real binary runs the embedded helper with the
test's own Python (torch from .venv) under torch._dynamo.explain, and judges graphmend's
predictions for the file against the breaks dynamo really found."""

import importlib.util
import json
import pathlib
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


# ---------------------------------------------------------------- the editor: graphmend.confirm

def confirm_args(uri, **extra):
    return {"command": "graphmend.confirm",
            "arguments": [uri, {"python": PYTHON, "device": "cpu", **extra}]}


def by_code_and_line(diagnostics):
    return {(d["code"], d["range"]["start"]["line"]): d for d in diagnostics}


@pytest.mark.parametrize("client_kind", ["vscode", "neovim"])
def test_lsp_confirm_verdicts_in_diagnostics(servers, client_kind):
    session = servers.session(client_kind)
    assert "graphmend.confirm" in \
        session.init_result["capabilities"]["executeCommandProvider"]["commands"]
    (pathlib.Path(session.workspace) / "pyproject.toml").write_text(
        '[tool.graphmend]\nignore = ["GM401"]\n')
    text = CONTRADICTED_AND_UNPREDICTED + textwrap.dedent("""\


        def debug_only(x):
            if x.sum() > 0:
                return x
            return -x
        """)
    uri = session.open("model.py", text)
    before = session.diagnostics(uri)
    item = line_of_text(text, "h.sum().item()") - 1
    printed = line_of_text(text, 'print("h"') - 1
    assert [d["code"] for d in before] == ["GM201"], before
    mark = session.client.mark()
    response = session.client.request("workspace/executeCommand", confirm_args(uri), timeout=180)
    assert "error" not in response, response
    report = response["result"]
    assert report["shown_in_diagnostics"] is True
    assert report["counts"]["contradicted"] == 1 and len(report["unpredicted"]) == 1
    assert "contradicted" in report["markdown"] and report["markdown"].startswith("```")
    after = session.diagnostics_until(uri, lambda items: len(items) == 2, since=mark)
    found = by_code_and_line(after)
    contradicted = found[("GM201", item)]
    assert contradicted["message"].startswith(before[0]["message"])
    assert "[contradicted: torch 2." in contradicted["message"]
    [dynamo] = [d for d in after if d["source"] == "graphmend confirm"]
    assert dynamo["range"]["start"]["line"] == printed
    assert dynamo["code"] == "GB0059" and "not predicted by graphmend" in dynamo["message"]
    assert dynamo["codeDescription"]["href"].endswith("/gb0059.html")

    # Two lines inserted above: both move with the text; an edit elsewhere keeps them.
    mark = session.client.mark()
    session.change(uri, [{"range": {"start": {"line": 0, "character": 0},
                                    "end": {"line": 0, "character": 0}},
                          "text": "# one\n# two\n"}])
    moved = session.diagnostics(uri)
    found = by_code_and_line(moved)
    assert "[contradicted" in found[("GM201", item + 2)]["message"]
    assert [d["range"]["start"]["line"] for d in moved
            if d["source"] == "graphmend confirm"] == [printed + 2]
    # Deleting the print's line (a multi-line replacement) drops dynamo's break with it.
    session.change(uri, [{"range": {"start": {"line": printed + 2, "character": 0},
                                    "end": {"line": printed + 3, "character": 0}},
                          "text": ""}])
    after_delete = session.diagnostics(uri)
    assert [d for d in after_delete if d["source"] == "graphmend confirm"] == []
    assert "[contradicted" in by_code_and_line(after_delete)[("GM201", item + 1)]["message"]


def test_lsp_confirm_example_and_code_lens(servers):
    session = servers.session("vscode")
    text = EXAMPLE.read_text()
    uri = session.open("confirm_example.py", text)
    lenses = session.client.result("textDocument/codeLens", {"textDocument": {"uri": uri}})
    confirm_lenses = [lens for lens in lenses if lens["command"]["command"] == "graphmend.confirm"]
    assert [lens["command"]["title"] for lens in confirm_lenses] == [
        "Confirm breaks with torch.compile"]
    entry_line = line_of_text(text, "def graphmend_profile_entry") - 1
    assert confirm_lenses[0]["range"]["start"]["line"] == entry_line
    session.diagnostics(uri)
    mark = session.client.mark()
    report = session.client.result("workspace/executeCommand", confirm_args(uri), timeout=180)
    assert report["precision"] == 1.0 and report["recall"] == 1.0
    after = session.diagnostics_until(
        uri, lambda items: all("[" in d["message"] for d in items), since=mark)
    notes = {d["range"]["start"]["line"] + 1: d["message"].rsplit("[", 1)[1] for d in after}
    assert notes[line_of(EXAMPLE, 'print("hidden"')].startswith("confirmed by torch 2.")
    assert notes[line_of(EXAMPLE, "h.max().item()")].startswith("not reached by the confirm")
    # Progress was reported with the confirm's own title.
    begins = [n["params"]["value"] for n in session.client.notifications("$/progress")
              if n["params"]["value"].get("kind") == "begin"]
    assert any("confirming confirm_example.py" in b["title"] for b in begins), begins


def test_lsp_confirm_failure_and_edits_while_running(servers, tmp_path):
    session = servers.session("vscode")
    no_entry = session.open("no_entry.py", "import torch\n\nx = torch.ones(2)\n")
    response = session.client.request("workspace/executeCommand", confirm_args(no_entry),
                                      timeout=120)
    assert response["error"]["code"] == -32803
    assert "graphmend confirm failed" in response["error"]["message"]
    # Edited while the run is in flight: the answer judges the text that ran and the editor's
    # diagnostics are left as they are.
    uri = session.open("model.py", EXAMPLE.read_text())
    session.diagnostics(uri)
    request_id = session.client.send_request("workspace/executeCommand", confirm_args(uri))
    session.change(uri, [{"range": {"start": {"line": 0, "character": 0},
                                    "end": {"line": 0, "character": 0}}, "text": "\n"}])
    edited = session.diagnostics(uri)
    response = session.client.wait_response(request_id, timeout=180)
    assert response["result"]["shown_in_diagnostics"] is False
    assert response["result"]["counts"]["confirmed"] == 2
    assert all("[" not in d["message"] for d in edited)


def line_of_text(text, needle):
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the text")

"""graphmend profile (CLI) and the graphmend.profile command (LSP), end to end on the CPU: the
real binary runs the embedded helper with the test's own Python (torch from .venv) over real
pipes. Models are tiny and iterations few; most runs use the aot_eager backend so that no C++ is
compiled, one uses inductor."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import REPO, run_cli

PYTHON = sys.executable
FAST = ["--iterations", "3", "--warmup", "1", "--backend", "aot_eager"]
FAST_ARGS = {"iterations": 3, "warmup": 1, "backend": "aot_eager"}
ARM_FIELDS = {"graphs": int, "breaks": int, "break_reasons": list, "compile_s": float,
              "cold_ms": float, "steady_ms": float, "steady_p90_ms": float}

PRINT_MODEL = textwrap.dedent("""\
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(8, 8)
            self.b = nn.Linear(8, 8)

        def forward(self, x):
            h = torch.relu(self.a(x))
            print("h", h.sum())
            return self.b(h)


    def graphmend_profile_entry():
        return Net().eval(), (torch.randn(2, 8),)
    """)

# A break a safe mend removes: appended to the models of the failure tests, since a file where
# no mend applies is not run at all.
SAFELY_MENDABLE = textwrap.dedent("""\


    @torch.compile
    def double_when_positive(x: torch.Tensor) -> torch.Tensor:
        if x.sum() > 0:
            x = x * 2
        return x
    """)

NO_ENTRY = textwrap.dedent("""\
    import torch


    def forward(x):
        return x + 1
    """) + SAFELY_MENDABLE

RAISES = textwrap.dedent("""\
    import torch


    def graphmend_profile_entry():
        raise ValueError("boom from the entry")
    """) + SAFELY_MENDABLE

SLOW = textwrap.dedent("""\
    import time

    import torch


    def graphmend_profile_entry():
        time.sleep(300)
        return (lambda x: x + 1), (torch.ones(2),)
    """) + SAFELY_MENDABLE


@pytest.fixture
def model(tmp_path):
    def write(text, name="model.py"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return write


def profile(binary, path, *args, timeout=240):
    return run_cli(binary, "profile", str(path), "--python", PYTHON, *args, timeout=timeout)


def check_report(report, auto_device=True):
    assert report["ok"] is True
    assert report["device"] == "cpu"
    assert report["torch"].startswith("2.")
    if auto_device:  # no GPU in CI: auto says plainly that it fell back
        assert "CPU" in report["fallback"]
    else:
        assert "fallback" not in report
    assert isinstance(report["outputs_match"], bool)
    for arm in ("original", "mended"):
        for field, kind in ARM_FIELDS.items():
            value = report[arm][field]
            assert isinstance(value, kind) or (kind is float and isinstance(value, int)), \
                (arm, field, value)
        assert report[arm]["graphs"] >= 1
        assert report[arm]["cold_ms"] > 0 and report[arm]["steady_ms"] > 0
        assert report[arm]["steady_p90_ms"] >= report[arm]["steady_ms"]
    assert report["mended"]["graphs"] <= report["original"]["graphs"]


# ------------------------------------------------------------------------------- CLI


def test_cli_json_inductor_print_model(binary, model):
    path = model(PRINT_MODEL)
    proc = profile(binary, path, "--output-format", "json", "--unsafe-fixes",
                   "--iterations", "3", "--warmup", "1")
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)
    check_report(report)
    assert report["backend"] == "inductor"
    assert report["original"]["graphs"] == 2 and report["original"]["breaks"] == 1
    # The print mend (unsafe) runs the print only in eager mode: one graph fewer at least.
    assert report["mends_applied"] >= 1
    assert report["mended"]["graphs"] < report["original"]["graphs"]
    assert report["outputs_match"] is True
    assert any("model.py:13" in r["location"] for r in report["original"]["break_reasons"])
    # Progress went to stderr; the user's file was not touched and nothing was left behind.
    assert b"mended arm: done" in proc.stderr
    assert path.read_text() == PRINT_MODEL
    assert not (path.parent / "__pycache__").exists()


def test_cli_nothing_to_compare_without_a_mend(binary, model):
    """Without --unsafe-fixes no mend applies to the print: both arms would run the same code, so
    nothing runs and the answer says so."""
    path = model(PRINT_MODEL)
    start = time.monotonic()
    proc = profile(binary, path, *FAST, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    assert (f"nothing to compare: no mend applies to {path} at this fix level (1 finding, none "
            "mendable by a safe mend; 1 by an unsafe one, with --unsafe-fixes)") in out, out
    assert b"original arm" not in proc.stderr and "steady" not in out, proc.stderr
    assert time.monotonic() - start < 20
    proc = profile(binary, path, "--output-format", "json", *FAST, timeout=60)
    assert proc.returncode == 0
    answer = json.loads(proc.stdout)
    assert answer["ok"] is True and answer["nothing_to_compare"] is True
    assert answer["findings"] == 1 and answer["mends_applied"] == 0, answer
    clean = model(NO_ENTRY.replace(SAFELY_MENDABLE, ""), name="clean.py")
    proc = profile(binary, clean, *FAST, timeout=60)
    assert proc.returncode == 0
    assert "(0 findings, none mendable)" in proc.stdout.decode(), proc.stdout


def test_cli_steady_state_spread_and_verdict(binary, model):
    """At least 5 timed calls an arm (here 3 asked), their median and interquartile range; a
    ratio only when the ranges are apart, else "within noise"."""
    path = model(PRINT_MODEL)
    proc = profile(binary, path, "--output-format", "json", "--unsafe-fixes", *FAST)
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)
    for arm in ("original", "mended"):
        a = report[arm]
        assert a["steady_calls"] >= 5, a
        assert a["steady_min_ms"] <= a["steady_q1_ms"] <= a["steady_ms"] <= a["steady_q3_ms"] \
            <= a["steady_max_ms"], a
    o, m = report["original"], report["mended"]
    apart = o["steady_q3_ms"] < m["steady_q1_ms"] or m["steady_q3_ms"] < o["steady_q1_ms"]
    comparison = report["steady_comparison"]
    if apart:
        assert comparison["verdict"] in ("faster", "slower")
        assert comparison["ratio"] == pytest.approx(o["steady_ms"] / m["steady_ms"])
    else:
        assert comparison == {"verdict": "within noise"}
    text = profile(binary, path, "--unsafe-fixes", *FAST).stdout.decode()
    assert "steady state, q1 (ms)" in text and "steady state, q3 (ms)" in text
    assert "cold start (ms)\n" in text  # one cold call an arm: no verdict
    steady_line = [line for line in text.splitlines()
                   if line.startswith("steady state, median (ms):")]
    assert len(steady_line) == 1, text
    assert ("within noise" in steady_line[0]) != ("x faster" in steady_line[0]
                                                  or "x slower" in steady_line[0]), text


def test_cli_text_output(binary, model):
    path = model(PRINT_MODEL)
    proc = profile(binary, path, "--unsafe-fixes", *FAST)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    assert "graphmend profile:" in out
    assert "original" in out and "mended" in out
    for label in ("graphs", "graph breaks", "compile time (s)", "cold start, first call (ms)",
                  "steady state, median (ms)", "steady state, p90 (ms)"):
        assert label in out, label
    assert "outputs match: yes" in out
    assert "|#" in out  # the bar charts
    assert "note: no CUDA device available" in out


def test_cli_example_file(binary, tmp_path):
    example = REPO / "examples" / "profile_example.py"
    proc = profile(binary, example, "--output-format", "json", "--unsafe-fixes", *FAST)
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)
    check_report(report)
    assert report["mended"]["graphs"] < report["original"]["graphs"]
    assert report["outputs_match"] is True


def test_cli_no_torch(binary, model):
    python = shutil.which("python3", path="/usr/bin") or "/usr/bin/python3"
    probe = subprocess.run([python, "-c", "import torch"], capture_output=True)
    if probe.returncode == 0:
        pytest.skip(f"{python} has torch: no interpreter without it here")
    path = model(PRINT_MODEL)
    proc = run_cli(binary, "profile", str(path), "--python", python, "--unsafe-fixes", timeout=60)
    assert proc.returncode == 2
    assert b"torch cannot be imported" in proc.stderr, proc.stderr


def test_cli_no_interpreter(binary, model):
    path = model(PRINT_MODEL)
    proc = run_cli(binary, "profile", str(path), "--python", "/nonexistent/python",
                   "--unsafe-fixes", timeout=30)
    assert proc.returncode == 2
    assert b"cannot start the Python interpreter" in proc.stderr, proc.stderr


def test_cli_no_entry(binary, model):
    path = model(NO_ENTRY)
    proc = profile(binary, path, *FAST, timeout=60)
    assert proc.returncode == 2
    assert b"has no function `graphmend_profile_entry`" in proc.stderr, proc.stderr
    proc = profile(binary, path, "--entry", "make_model", "--output-format", "json", *FAST,
                   timeout=60)
    assert proc.returncode == 2
    result = json.loads(proc.stdout)
    assert result["ok"] is False and result["error"]["kind"] == "no_entry"
    assert "make_model" in result["error"]["message"]


def test_cli_user_code_raises(binary, model):
    path = model(RAISES)
    proc = profile(binary, path, *FAST, timeout=60)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "raised ValueError: boom from the entry" in err
    # The traceback tail names the user's file, not the private copy.
    assert f'File "{path}", line 5' in err, err
    assert "graphmend-profile-" not in err


def test_cli_timeout_kills_the_helper(binary, model):
    path = model(SLOW)
    start = time.monotonic()
    proc = profile(binary, path, "--timeout", "8", *FAST, timeout=120)
    elapsed = time.monotonic() - start
    assert proc.returncode == 2
    assert b"did not finish within 8 s" in proc.stderr, proc.stderr
    assert elapsed < 60


def test_cli_bad_options(binary, model):
    path = model(PRINT_MODEL)
    for args in (["--device", "tpu"], ["--output-format", "sarif"], ["--timeout", "0"],
                 ["--iterations", "x"], ["--mode", "fast"]):
        proc = run_cli(binary, "profile", str(path), *args)
        assert proc.returncode == 2, args
    proc = run_cli(binary, "profile")
    assert proc.returncode == 2
    proc = run_cli(binary, "profile", str(path.parent / "missing.py"))
    assert proc.returncode == 2 and b"cannot read" in proc.stderr


# ------------------------------------------------------------------------------- LSP


def profile_args(uri, **extra):
    options = {"python": PYTHON, "device": "cpu", **FAST_ARGS, **extra}
    return {"command": "graphmend.profile", "arguments": [uri, options]}


def is_version_query(child):
    """The python3 version query the server asks in the background after its first diagnostics
    (server/lsp/interpreter_probe.c): not a profile arm."""
    try:
        with open(f"/proc/{child}/cmdline", "rb") as f:
            return b"sys.version_info" in f.read()
    except OSError:
        return False


def no_children_left(pid, seconds=3.0):
    """Whether the server has no child but the version query within seconds: a child caught
    between fork and exec still has the server's command line, so it is looked at again."""
    deadline = time.monotonic() + seconds
    while children_of(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def children_of(pid):
    """The server's child processes, but the version query."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid and not is_version_query(entry):
            found.append(int(entry))
    return found


def test_lsp_capabilities_and_code_lens(servers):
    session = servers.session("vscode")
    caps = session.init_result["capabilities"]
    assert caps["executeCommandProvider"]["commands"] == ["graphmend.profile",
                                                          "graphmend.confirm"]
    assert "codeLensProvider" in caps
    uri = session.open("model.py", PRINT_MODEL)
    lenses = session.client.result("textDocument/codeLens", {"textDocument": {"uri": uri}})
    # The entry function also has the confirm lens (tests/e2e/test_confirm.py).
    confirm = [lens for lens in lenses if lens["command"]["command"] == "graphmend.confirm"]
    assert [lens["range"]["start"]["line"] for lens in confirm] == [16], confirm
    lenses = [lens for lens in lenses if lens not in confirm]
    lines = sorted(lens["range"]["start"]["line"] for lens in lenses)
    # The entry function (line 16) and forward (line 10), where the print breaks.
    assert lines == [10, 16], lenses
    for lens in lenses:
        assert lens["command"]["command"] == "graphmend.profile"
        assert lens["command"]["title"] == "Profile mended vs original"
        assert lens["command"]["arguments"][0] == uri
        # no fix level of its own: the command follows unsafeFixes, as the palette does
        assert "unsafeFixes" not in lens["command"]["arguments"][1]
    # No entry function: no lens, and nothing runs.
    other = session.open("plain.py", NO_ENTRY)
    assert session.client.result("textDocument/codeLens", {"textDocument": {"uri": other}}) == []


def test_lsp_profile_with_progress(servers):
    session = servers.session("vscode")
    uri = session.open("model.py", PRINT_MODEL)
    client = session.client
    response = client.request("workspace/executeCommand", profile_args(uri, unsafeFixes=True),
                              timeout=240)
    assert "error" not in response, response
    report = response["result"]
    check_report(report, auto_device=False)
    assert report["mended"]["graphs"] < report["original"]["graphs"]
    assert report["outputs_match"] is True
    assert "| graphs |" in report["markdown"] and "```text" in report["markdown"]
    # Server-initiated progress: create, then begin, reports, end with the same token.
    create = client.server_requests("window/workDoneProgress/create")
    assert len(create) == 1
    token = create[0]["params"]["token"]
    values = [n["params"]["value"] for n in client.notifications("$/progress")
              if n["params"]["token"] == token]
    kinds = [v["kind"] for v in values]
    assert kinds[0] == "begin" and kinds[-1] == "end" and kinds.count("report") >= 4
    assert values[0]["cancellable"] is True
    assert any("mended arm" in v.get("message", "") for v in values)
    # The server stays responsive: the document is still analysed afterwards.
    assert client.barrier()["error"]["code"] == -32601


def test_lsp_nothing_to_compare_follows_the_unsafe_fixes_setting(servers):
    """The command (from the lens or the palette) mends at the level of unsafeFixes: off, no mend
    applies to the print and nothing runs; on, both arms run."""
    session = servers.session("vscode")
    uri = session.open("model.py", PRINT_MODEL)
    client = session.client
    response = client.request("workspace/executeCommand", profile_args(uri), timeout=60)
    answer = response["result"]
    assert answer["nothing_to_compare"] is True and answer["mends_applied"] == 0, answer
    assert "nothing to compare: no mend applies to" in answer["markdown"]
    assert "the unsafeFixes setting" in answer["message"]
    assert no_children_left(client.proc.pid), children_of(client.proc.pid)
    assert client.notifications("$/progress") == []
    unsafe = servers.session("vscode", config={"graphmend": {"unsafeFixes": True}})
    uri = unsafe.open("model.py", PRINT_MODEL)
    unsafe.diagnostics(uri)  # the settings, pulled with workspace/configuration, are in
    response = unsafe.client.request("workspace/executeCommand", profile_args(uri), timeout=240)
    assert "error" not in response, response
    assert response["result"]["mends_applied"] >= 1 and response["result"]["unsafe_fixes"]


def test_lsp_profile_failure_is_a_clear_error(servers, tmp_path):
    session = servers.session("neovim")
    uri = session.open("model.py", RAISES)
    response = session.client.request("workspace/executeCommand", profile_args(uri), timeout=120)
    error = response["error"]
    assert error["code"] == -32803
    assert "raised ValueError: boom from the entry" in error["message"]
    assert error["data"]["kind"] == "user_error"
    assert "model.py" in error["data"]["traceback"]
    shown = session.client.wait_notification("window/showMessage",
                                              lambda p: "boom" in p["message"])
    assert shown["params"]["type"] == 1
    # Unknown command and bad arguments are refused without running anything.
    bad = session.client.request("workspace/executeCommand", {"command": "graphmend.nope"})
    assert bad["error"]["code"] == -32602
    bad = session.client.request("workspace/executeCommand",
                                 {"command": "graphmend.profile", "arguments": [uri, {"device": 3}]})
    assert bad["error"]["code"] == -32602


def test_lsp_cancel_kills_the_child(servers):
    session = servers.session("vscode")
    uri = session.open("slow.py", SLOW)
    client = session.client
    request_id = client.send_request("workspace/executeCommand", profile_args(uri))
    # Wait until the helper is inside the user's entry function.
    client.wait_notification("$/progress",
                             lambda p: "importing" in p["value"].get("message", ""), timeout=60)
    children = children_of(client.proc.pid)
    assert len(children) == 1, children
    child = children[0]
    # The server answers other requests while the profile runs.
    assert client.barrier()["error"]["code"] == -32601
    lenses = client.result("textDocument/codeLens", {"textDocument": {"uri": uri}})
    assert [lens["range"]["start"]["line"] for lens in lenses][0] == 5
    start = time.monotonic()
    client.notify("$/cancelRequest", {"id": request_id})
    response = client.wait_response(request_id, timeout=30)
    assert response["error"]["code"] == -32800
    assert time.monotonic() - start < 20
    assert not os.path.exists(f"/proc/{child}"), "the helper survived the cancellation"
    assert no_children_left(client.proc.pid), children_of(client.proc.pid)
    client.wait_notification("$/progress", lambda p: p["value"]["kind"] == "end")


def test_lsp_exit_while_profiling_kills_the_child(servers):
    session = servers.session("eglot")
    uri = session.open("slow.py", SLOW)
    client = session.client
    client.send_request("workspace/executeCommand", profile_args(uri))
    client.wait_notification("$/progress",
                             lambda p: "importing" in p["value"].get("message", ""), timeout=60)
    children = children_of(client.proc.pid)
    assert len(children) == 1
    # shutdown cancels the profile (answered as cancelled), then exit ends the server.
    assert client.request("shutdown", None, timeout=30).get("result", 1) is None
    client.notify("exit")
    assert client.wait_exit(30) == 0
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{children[0]}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{children[0]}")


def test_lsp_cancel_through_progress_profiles_the_buffer(servers):
    """The editor's buffer is profiled (here it exists only there), and cancelling the progress
    (window/workDoneProgress/cancel) stops the run like $/cancelRequest."""
    session = servers.session("neovim")
    uri = session.open("unsaved.py", SLOW, write_file=False)
    client = session.client
    request_id = client.send_request("workspace/executeCommand", profile_args(uri))
    begin = client.wait_notification(
        "$/progress", lambda p: p["value"]["kind"] == "begin", timeout=60)
    client.wait_notification("$/progress",
                             lambda p: "importing unsaved.py" in p["value"].get("message", ""),
                             timeout=60, since=0)
    client.notify("window/workDoneProgress/cancel", {"token": begin["params"]["token"]})
    response = client.wait_response(request_id, timeout=30)
    assert response["error"]["code"] == -32800
    assert no_children_left(client.proc.pid), children_of(client.proc.pid)


def test_lsp_client_progress_token(servers):
    """A workDoneToken in the request is used as it is, without window/workDoneProgress/create."""
    session = servers.session("eglot")
    uri = session.open("model.py", PRINT_MODEL)
    client = session.client
    params = profile_args(uri, unsafeFixes=True)
    params["workDoneToken"] = "client-token-7"
    response = client.request("workspace/executeCommand", params, timeout=240)
    assert "error" not in response, response
    assert response["result"]["mended"]["graphs"] < response["result"]["original"]["graphs"]
    kinds = [n["params"]["value"]["kind"] for n in client.notifications("$/progress")
             if n["params"]["token"] == "client-token-7"]
    assert kinds[0] == "begin" and kinds[-1] == "end"
    assert client.server_requests("window/workDoneProgress/create") == []

"""Settings: pulled with workspace/configuration, pushed with didChangeConfiguration."""

import json
import os
import subprocess

from lsp_client import Session
from samples import MODEL, MODEL_FINDINGS, MODEL_FORWARD_FINDINGS, TRAINING

NON_FORWARD = [f for f in MODEL_FINDINGS if f not in MODEL_FORWARD_FINDINGS]


def codes_by_text(session, uri, diagnostics):
    from lsp_client import text_in_range
    return sorted((d["code"], text_in_range(session.text(uri), d["range"], session.encoding))
                  for d in diagnostics)


def settled(session, uri, mark, wanted):
    items = session.diagnostics_until(
        uri, lambda ds: codes_by_text(session, uri, ds) == wanted, mark)
    return codes_by_text(session, uri, items)


def expect(findings):
    return sorted((code, needle) for code, needle, _ in findings)


def test_server_asks_for_configuration_after_initialized(servers, client_name):
    session = servers.session(client_name, initialize=False)
    client = session.client
    session.client.result("initialize", session.init_params)
    client.barrier()
    assert client.server_requests("workspace/configuration") == []  # not before initialized
    client.notify("initialized", {})
    request = client.wait_server_request("workspace/configuration")
    sections = [item.get("section") for item in request["params"]["items"]]
    assert "graphmend" in sections


def test_no_configuration_request_without_the_capability(servers):
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("m.py", MODEL)
    session.diagnostics(uri)
    session.client.barrier()
    assert session.client.server_requests("workspace/configuration") == []


def test_defaults_when_client_answers_null(servers, client_name):
    session = servers.session(client_name, config={})  # section "graphmend" -> null
    uri = session.open("m.py", MODEL)
    assert codes_by_text(session, uri, session.diagnostics(uri)) == expect(MODEL_FINDINGS)


def test_compile_forward_false_from_configuration_request(servers, client_name):
    session = servers.session(client_name, initialize=False,
                              config={"graphmend": {"compileForward": False}})
    session.initialize(initialized=False)
    session.client.notify("initialized", {})
    session.client.wait_server_request("workspace/configuration")
    uri = session.open("m.py", MODEL)
    assert codes_by_text(session, uri, session.diagnostics(uri)) == expect(NON_FORWARD)


def test_did_change_configuration_republishes(servers, client_name):
    session = servers.session(client_name)
    session.client.wait_server_request("workspace/configuration")
    uri = session.open("m.py", MODEL)
    assert codes_by_text(session, uri, session.diagnostics(uri)) == expect(MODEL_FINDINGS)
    mark = session.client.mark()
    # A server may read the pushed settings or pull them again: both say the same.
    session.client.config = {"graphmend": {"compileForward": False}}
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"compileForward": False}}})
    assert settled(session, uri, mark, expect(NON_FORWARD)) == expect(NON_FORWARD)
    mark = session.client.mark()
    session.client.config = {"graphmend": {"compileForward": True}}
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"compileForward": True}}})
    assert settled(session, uri, mark, expect(MODEL_FINDINGS)) == expect(MODEL_FINDINGS)


def test_did_change_configuration_without_configuration_capability(servers):
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("m.py", MODEL)
    assert len(session.diagnostics(uri)) == len(MODEL_FINDINGS)
    mark = session.client.mark()
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"compileForward": False}}})
    assert settled(session, uri, mark, expect(NON_FORWARD)) == expect(NON_FORWARD)


def test_training_setting(servers):
    session = servers.session("eglot")
    session.client.wait_server_request("workspace/configuration")
    uri = session.open("t.py", TRAINING)
    assert session.diagnostics(uri) == []  # eval by default: the training branch is not traced
    mark = session.client.mark()
    session.client.config = {"graphmend": {"training": True}}
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"training": True}}})
    items = session.diagnostics_until(uri, lambda ds: len(ds) > 0, mark)
    assert [d["code"] for d in items] == ["GM401"]


def test_invalid_settings_do_not_crash(servers):
    session = servers.session("vscode")
    uri = session.open("m.py", MODEL)
    session.diagnostics(uri)
    for settings in ({"graphmend": {"compileForward": "yes"}}, {"graphmend": 3}, None, [],
                     {"graphmend": {"unknownKey": 1}}):
        session.client.config = {"graphmend": {"compileForward": "yes"}}
        session.client.notify("workspace/didChangeConfiguration", {"settings": settings})
    session.client.barrier()
    assert session.client.proc.poll() is None
    assert isinstance(session, Session)


ITEM_AND_PRINT = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    n = x.sum().item()
    print(x)
    return x * n
'''


def codes(diagnostics):
    return sorted(d["code"] for d in diagnostics)


def test_capture_scalar_outputs_setting_removes_gm201(servers):
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("i.py", ITEM_AND_PRINT)
    assert codes(session.diagnostics(uri)) == ["GM201", "GM401"]
    mark = session.client.mark()
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"captureScalarOutputs": True}}})
    items = session.diagnostics_until(uri, lambda ds: codes(ds) == ["GM401"], mark)
    assert codes(items) == ["GM401"]
    mark = session.client.mark()
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"captureScalarOutputs": False,
                                                      "ignore": ["GM4"]}}})
    items = session.diagnostics_until(uri, lambda ds: codes(ds) == ["GM201"], mark)
    assert codes(items) == ["GM201"]


def test_pyproject_applies_and_client_settings_win(servers):
    (servers.tmp_path / "pyproject.toml").write_text(
        '[tool.graphmend]\ncapture-scalar-outputs = true\nignore = ["GM401"]\n')
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("i.py", ITEM_AND_PRINT)
    assert codes(session.diagnostics(uri)) == []
    mark = session.client.mark()
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"captureScalarOutputs": False}}})
    items = session.diagnostics_until(uri, lambda ds: codes(ds) == ["GM201"], mark)
    assert codes(items) == ["GM201"]


def test_invalid_select_setting_is_shown(servers):
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("i.py", ITEM_AND_PRINT)
    session.diagnostics(uri)
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": {"select": ["XY1"], "torchVersion": 2}}})
    session.client.barrier()
    shown = [m["params"]["message"] for m in session.client.notifications("window/showMessage")]
    assert any("graphmend.select" in m and "XY1" in m and "graphmend.torchVersion" in m
               for m in shown), shown


def test_malformed_pyproject_warns_and_keeps_previous_values(servers):
    pyproject = servers.tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.graphmend]\ncapture-scalar-outputs = true\n')
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("i.py", ITEM_AND_PRINT)
    assert codes(session.diagnostics(uri)) == ["GM401"]
    pyproject.write_text('[tool.graphmend]\ncapture-scalar-outputs = true\nselect = "GM1"\n')
    session.change(uri, [{"text": ITEM_AND_PRINT + "\n"}])
    assert codes(session.diagnostics(uri)) == ["GM401"]  # the last valid values stay
    session.client.barrier()
    shown = [m["params"]["message"] for m in session.client.notifications("window/showMessage")]
    assert any("pyproject.toml" in m and "line 3" in m and "select" in m for m in shown), shown


def test_pyproject_created_after_open_applies_after_a_save(servers):
    """The nearest pyproject.toml is looked up once per document (not on every keystroke) and
    again when a file is saved."""
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("i.py", ITEM_AND_PRINT)
    assert codes(session.diagnostics(uri)) == ["GM201", "GM401"]
    (servers.tmp_path / "pyproject.toml").write_text(
        '[tool.graphmend]\ncapture-scalar-outputs = true\n')
    mark = session.client.mark()
    session.client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    items = session.diagnostics_until(uri, lambda ds: codes(ds) == ["GM401"], mark)
    assert codes(items) == ["GM401"]


LOGGING_AND_RNN = '''\
import logging
import sys

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 4)

    def forward(self, x):
        print("x", x)
        print("x", x, file=sys.stderr)
        logger.info("done")
        y, _ = self.rnn(x)
        return y
'''


def by_line(diagnostics):
    return sorted((d["range"]["start"]["line"], d["code"], d["severity"]) for d in diagnostics)


def push(session, uri, settings, wanted):
    """Sends settings with didChangeConfiguration and returns the diagnostics once wanted."""
    mark = session.client.mark()
    session.client.notify("workspace/didChangeConfiguration",
                          {"settings": {"graphmend": settings}})
    return session.diagnostics_until(uri, lambda ds: by_line(ds) == wanted, mark)


def test_dynamo_settings_change_published_diagnostics(servers):
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("r.py", LOGGING_AND_RNN)
    defer, stderr, info, rnn = (15, "GM401", 2), (16, "GM401", 2), (17, "GM402", 2), \
        (18, "GM604", 2)
    assert by_line(session.diagnostics(uri)) == [defer, stderr, info, rnn]
    wanted = [defer, stderr, info]
    assert by_line(push(session, uri, {"allowRnn": True}, wanted)) == wanted
    # print with a file object cannot be deferred: that call still breaks (GB0296)
    wanted = [stderr, info]
    items = push(session, uri, {"reorderableLoggingFunctions": ["print"]}, wanted)
    assert by_line(items) == wanted
    assert "GB0296" in items[0]["message"]
    wanted = [stderr]
    items = push(session, uri, {"ignoreLoggingFunctions": ["logging.Logger.info"]}, wanted)
    assert by_line(items) == wanted
    # fullgraph turns the remaining break into an error
    wanted = [(16, "GM401", 1)]
    items = push(session, uri, {"fullgraph": True}, wanted)
    assert by_line(items) == wanted
    assert "fullgraph=True" in items[0]["message"] and "Unsupported" in items[0]["message"]
    wanted = [defer, stderr, info, rnn]
    items = push(session, uri, {"allowRnn": False, "fullgraph": False,
                                "reorderableLoggingFunctions": [],
                                "ignoreLoggingFunctions": []}, wanted)
    assert by_line(items) == wanted


def test_dynamo_settings_from_pyproject(servers):
    (servers.tmp_path / "pyproject.toml").write_text(
        '[tool.graphmend]\nallow-rnn = true\nfullgraph = true\n'
        'ignore-logging-functions = ["print", "logging.Logger.info"]\n')
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("r.py", LOGGING_AND_RNN)
    assert by_line(session.diagnostics(uri)) == []
    # the client's keys beat the file's
    wanted = [(15, "GM401", 1), (16, "GM401", 1)]
    items = push(session, uri, {"ignoreLoggingFunctions": ["logging.Logger.info"]}, wanted)
    assert by_line(items) == wanted


def test_invalid_dynamo_settings_are_shown(servers):
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    uri = session.open("r.py", LOGGING_AND_RNN)
    session.diagnostics(uri)
    session.client.notify("workspace/didChangeConfiguration", {"settings": {"graphmend": {
        "torchVersion": "2.99", "allowRnn": "yes", "ignoreLoggingFunctions": ["not a name"],
        "nestedGraphBreaks": 1, "pythonVersion": "3.8"}}})
    session.client.barrier()
    shown = [m["params"]["message"] for m in session.client.notifications("window/showMessage")]
    assert any("graphmend.torchVersion" in m and "2.20" in m and "graphmend.allowRnn" in m
               and "not a name" in m and "graphmend.nestedGraphBreaks" in m
               and "graphmend.pythonVersion" in m and "3.15" in m
               for m in shown), shown
    assert len(by_line(session.diagnostics(uri))) == 4  # nothing changed


PROJECT_FILES = ('[tool.graphmend]\nexclude = ["modular_*.py"]\nextend-exclude = ["vendored"]\n'
                 '[tool.graphmend.per-file-ignores]\n"tests/*" = ["GM4"]\n')


def cli_codes(binary, workspace, name):
    """The rules `graphmend check` reports for one file of workspace (walked from its root)."""
    out = subprocess.run([binary, "check", "--output-format", "json", "--exit-zero", "."],
                         cwd=workspace, capture_output=True, text=True, check=True).stdout
    return sorted(d["code"] for d in json.loads(out)
                  if os.path.normpath(os.path.join(workspace, d["filename"]))
                  == os.path.join(workspace, name))


def test_pyproject_exclude_and_per_file_ignores_reach_the_editor(servers, binary):
    """The editor honours exclude, extend-exclude and per-file-ignores as `graphmend check` does:
    an excluded file gets no diagnostic (not even a syntax error), a per-file-ignore drops its
    rules in the files it matches and nowhere else."""
    workspace = servers.tmp_path
    (workspace / "pyproject.toml").write_text(PROJECT_FILES)
    (workspace / "tests").mkdir()
    (workspace / "vendored").mkdir()
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": {}})
    opened = {name: session.open(name, ITEM_AND_PRINT)
              for name in ("model.py", "modular_model.py", "tests/test_model.py",
                           "vendored/model.py")}
    wanted = {"model.py": ["GM201", "GM401"], "modular_model.py": [],
              "tests/test_model.py": ["GM201"], "vendored/model.py": []}
    seen = {name: codes(session.diagnostics(uri)) for name, uri in opened.items()}
    assert seen == wanted
    assert {name: cli_codes(binary, str(workspace), name) for name in wanted} == wanted
    broken = session.open("modular_broken.py", "def f(x:\n")
    assert session.diagnostics(broken) == []
    # no quick fix either where nothing is reported
    uri = opened["modular_model.py"]
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 8, "character": 0}}
    assert [a for a in session.code_actions(uri, whole)
            if "GM" in a.get("title", "")] == []

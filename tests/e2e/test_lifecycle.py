"""initialize / shutdown / exit, capabilities, and the kinds of stdin the server accepts."""

import os
import pty
import subprocess
import tty

import pytest

from conftest import EXPECTED_ENCODING, init_params_for
from lsp_client import INVALID_REQUEST, frame, parse_frames


def test_initialize_result_for_recorded_clients(servers, client_name):
    session = servers.session(client_name)
    result = session.init_result
    caps = result["capabilities"]
    assert caps["positionEncoding"] == EXPECTED_ENCODING[client_name]
    assert result["serverInfo"]["name"] == "graphmend"
    assert isinstance(result["serverInfo"]["version"], str) and result["serverInfo"]["version"]
    assert caps["textDocumentSync"]["openClose"] is True
    assert caps["textDocumentSync"]["change"] == 2
    assert caps["textDocumentSync"]["save"] == {"includeText": False}
    assert caps["diagnosticProvider"] == {"identifier": "graphmend",
                                          "interFileDependencies": True,
                                          "workspaceDiagnostics": False}
    assert caps["codeActionProvider"]["codeActionKinds"] == ["quickfix",
                                                             "source.fixAll.graphmend"]
    assert caps["hoverProvider"] is True


@pytest.mark.parametrize("offered, expected", [
    (None, "utf-16"),
    ([], "utf-16"),
    (["utf-16"], "utf-16"),
    (["utf-8"], "utf-8"),
    (["utf-32", "utf-16"], "utf-32"),
    (["utf-16", "utf-8"], "utf-16"),
    (["latin-1", "utf-32", "utf-8"], "utf-32"),
    (["ucs-2"], "utf-16"),
])
def test_position_encoding_negotiation(servers, offered, expected):
    caps = {} if offered is None else {"general": {"positionEncodings": offered}}
    session = servers.session(params={"processId": None, "rootUri": None, "capabilities": caps})
    assert session.init_result["capabilities"]["positionEncoding"] == expected


def test_second_initialize_is_invalid_request(servers):
    session = servers.session("vscode")
    response = session.client.request("initialize", session.init_params)
    assert response["error"]["code"] == INVALID_REQUEST


def test_shutdown_then_exit_exits_zero(servers, client_name):
    session = servers.session(client_name)
    assert session.shutdown_and_exit() == 0


def test_requests_after_shutdown_are_invalid(servers):
    session = servers.session("vscode")
    assert session.client.result("shutdown") is None
    for method in ("textDocument/hover", "graphmend/unknown", "shutdown"):
        response = session.client.request(method, {
            "textDocument": {"uri": session.uri("a.py")}, "position": {"line": 0,
                                                                       "character": 0}})
        assert response["error"]["code"] == INVALID_REQUEST, (method, response)
    session.client.notify("exit")
    assert session.client.wait_exit() == 0


def test_exit_without_shutdown_exits_one(servers):
    session = servers.session("eglot")
    session.client.notify("exit")
    assert session.client.wait_exit() == 1


def test_eof_after_shutdown_exits_zero(servers):
    session = servers.session("neovim")
    assert session.client.result("shutdown") is None
    session.client.close_stdin()
    assert session.client.wait_exit() == 0


def test_eof_without_shutdown_exits_one(servers):
    session = servers.session("neovim")
    session.open("a.py", "print(1)\n")
    session.client.close_stdin()
    assert session.client.wait_exit() == 1


def test_eof_before_anything_exits_one(servers):
    client = servers.spawn()
    client.close_stdin()
    assert client.wait_exit() == 1


def test_stdio_flag_is_accepted(servers):
    client = servers.spawn("serve", "--stdio")
    result = client.result("initialize", init_params_for("eglot", servers.tmp_path))
    assert result["serverInfo"]["name"] == "graphmend"


def session_bytes(tmp_path, text):
    uri = (tmp_path / "f.py").as_uri()
    msgs = [
        # No workspace.configuration: nobody answers the server's requests in this session.
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 5, "character": 6}}},
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    return uri, b"".join(frame(m) for m in msgs)


PRINTER = "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    print(x)\n"


def check_session_output(uri, out: bytes):
    messages, rest = parse_frames(out)
    assert rest == b""
    by_id = {m["id"]: m for m in messages if "id" in m and "method" not in m}
    assert by_id[1]["result"]["serverInfo"]["name"] == "graphmend"
    assert "GM401" in by_id[2]["result"]["contents"]["value"]
    assert by_id[3]["result"] is None


def test_stdin_regular_file(binary, tmp_path):
    uri, data = session_bytes(tmp_path, PRINTER)
    path = tmp_path / "session.bin"
    path.write_bytes(data)
    with open(path, "rb") as stdin:
        proc = subprocess.run([binary, "serve"], stdin=stdin, capture_output=True, timeout=10,
                              cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    check_session_output(uri, proc.stdout)


def test_stdin_regular_file_without_shutdown_exits_one(binary, tmp_path):
    path = tmp_path / "session.bin"
    path.write_bytes(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                            "params": init_params_for("eglot", tmp_path)}))
    with open(path, "rb") as stdin:
        proc = subprocess.run([binary, "serve"], stdin=stdin, capture_output=True, timeout=10)
    assert proc.returncode == 1
    messages, rest = parse_frames(proc.stdout)
    assert messages[0]["result"]["serverInfo"]["name"] == "graphmend" and rest == b""


def test_stdin_tty(binary, tmp_path):
    uri, data = session_bytes(tmp_path, PRINTER)
    master, slave = pty.openpty()
    tty.setraw(slave)  # a terminal in raw mode: no line editing, no CR/LF translation
    try:
        proc = subprocess.Popen([binary, "serve"], stdin=slave, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=tmp_path)
        os.close(slave)
        slave = -1
        for i in range(0, len(data), 512):
            os.write(master, data[i:i + 512])
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"server on a tty did not exit; stderr: {err[-2000:]!r}")
        assert proc.returncode == 0, err.decode(errors="replace")[-2000:]
        check_session_output(uri, out)
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)


def test_diagnostics_published_when_shutdown_follows_in_the_same_write(servers):
    # A client that opens a file and quits at once (or a session replayed from a file, where
    # everything arrives in one read) still gets the diagnostics of the open, before the
    # shutdown response.
    client = servers.spawn()
    uri, data = session_bytes(servers.tmp_path, PRINTER)
    client.track(1)
    client.track(2)
    client.track(3)
    client.write_raw(data)
    assert client.wait_exit() == 0
    published = [m for m in client.notifications("textDocument/publishDiagnostics")
                 if m["params"]["uri"] == uri]
    assert published, [m.get("method") or m.get("id") for m in client.received]
    assert [d["code"] for d in published[0]["params"]["diagnostics"]] == ["GM401"]
    order = [m.get("method") or m.get("id") for m in client.received]
    assert order.index("textDocument/publishDiagnostics") < order.index(3)


def test_logs_do_not_go_to_stdout(servers):
    session = servers.session("vscode")
    uri = session.open("a.py", PRINTER)
    session.diagnostics(uri)
    session.client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    session.client.barrier()
    assert session.shutdown_and_exit() == 0
    assert not session.client.protocol_errors
    for message in session.client.notifications("window/logMessage"):
        assert message["params"]["type"] in (1, 2, 3, 4, 5)
        assert isinstance(message["params"]["message"], str)

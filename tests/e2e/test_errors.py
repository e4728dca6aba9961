"""JSON-RPC and LSP error responses."""

import json

import pytest

from lsp_client import (INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR,
                        REQUEST_CANCELLED, SERVER_NOT_INITIALIZED, frame)
from samples import CLEAN, MODEL, PRINT_ONLY


def errors_with_null_id(client):
    return [m for m in client.received if "error" in m and m.get("id") is None]


def test_invalid_json_gets_parse_error_with_null_id(servers):
    session = servers.session("neovim")
    client = session.client
    client.write_raw(frame(b'{"jsonrpc": "2.0", "id": 7, "method": "initialize", '))
    client._wait_for(lambda: errors_with_null_id(client) or None, "parse error", 10)
    [error] = errors_with_null_id(client)
    assert error["error"]["code"] == PARSE_ERROR
    assert "id" in error and error["id"] is None
    assert client.barrier()["error"]["code"] == METHOD_NOT_FOUND


def test_invalid_utf8_body_is_an_error_not_a_crash(servers):
    session = servers.session("neovim")
    client = session.client
    client.write_raw(frame(b'{"jsonrpc": "2.0", "method": "x\xff\xfe"}'))
    client.write_raw(frame(b"\x00\x01garbage"))
    assert client.barrier()["error"]["code"] == METHOD_NOT_FOUND
    assert client.proc.poll() is None


@pytest.mark.parametrize("message, expected_id", [
    ({"id": 11, "method": "textDocument/hover", "params": {}}, 11),
    ({"jsonrpc": "1.0", "id": 12, "method": "textDocument/hover", "params": {}}, 12),
    ({"jsonrpc": "2.0", "id": 13, "method": 42}, 13),
    ({"jsonrpc": "2.0", "id": 14, "method": "textDocument/hover", "params": 5}, 14),
    ({"jsonrpc": "2.0", "id": "s-15", "method": ["a"]}, "s-15"),
    ([1, 2, 3], None),
    ("just a string", None),
])
def test_bad_envelope_gets_invalid_request(servers, message, expected_id):
    session = servers.session("neovim")
    client = session.client
    mark = client.mark()
    client.write_raw(frame(message))
    barrier = client.barrier()
    answers = [m for m in client.received[mark:] if "method" not in m and m is not barrier]
    assert len(answers) == 1, answers
    assert answers[0]["error"]["code"] == INVALID_REQUEST
    assert answers[0]["id"] == expected_id


def test_unknown_request_gets_method_not_found(servers):
    session = servers.session("vscode")
    response = session.client.request("graphmend/noSuchThing", {"a": 1})
    assert response["error"]["code"] == METHOD_NOT_FOUND
    response = session.client.request("$/noSuchThing", {})
    assert response["error"]["code"] == METHOD_NOT_FOUND


def test_unknown_notification_gets_no_response(servers):
    session = servers.session("vscode")
    client = session.client
    mark = client.mark()
    client.notify("graphmend/noSuchNotification", {"a": 1})
    client.notify("$/noSuchNotification", {})
    client.notify("$/setTrace", {"value": "off"})
    barrier = client.barrier()
    later = [m for m in client.received[mark:] if "method" not in m]
    assert later == [barrier]


@pytest.mark.parametrize("params", [
    {"position": {"line": 0, "character": 0}},
    {"textDocument": {"uri": "file:///x.py"}, "position": {"line": "0", "character": 0}},
    {"textDocument": {"uri": 5}, "position": {"line": 0, "character": 0}},
    {"textDocument": {"uri": "file:///x.py"}},
    {"textDocument": {"uri": "file:///x.py"}, "position": {"line": -1, "character": 0}},
])
def test_bad_hover_params_get_invalid_params(servers, params):
    session = servers.session("vscode")
    response = session.client.request("textDocument/hover", params)
    assert response.get("error", {}).get("code") == INVALID_PARAMS, response


def test_bad_code_action_params_get_invalid_params(servers):
    session = servers.session("vscode")
    uri = session.open("m.py", MODEL)
    response = session.client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": {"start": {"line": 0}}, "context": {}})
    assert response.get("error", {}).get("code") == INVALID_PARAMS, response


def test_requests_before_initialize_get_server_not_initialized(servers):
    client = servers.spawn()
    for method, params in [("textDocument/hover", {"textDocument": {"uri": "file:///a.py"},
                                                   "position": {"line": 0, "character": 0}}),
                           ("shutdown", None), ("graphmend/unknown", {})]:
        response = client.request(method, params)
        assert response["error"]["code"] == SERVER_NOT_INITIALIZED, (method, response)
    # Still initializable afterwards.
    session_params = {"processId": None, "rootUri": None, "capabilities": {}}
    assert client.result("initialize", session_params)["serverInfo"]["name"] == "graphmend"


def test_notifications_before_initialize_are_ignored(servers):
    from lsp_client import Session
    client = servers.spawn()
    uri = (servers.tmp_path / "early.py").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": MODEL}})
    session = Session(client, {"processId": None, "rootUri": None, "capabilities": {}},
                      str(servers.tmp_path))
    session.initialize()
    client.barrier()
    # No diagnostics for a document the server must not have opened, and no reply to it.
    assert not [n for n in client.notifications("textDocument/publishDiagnostics")
                if n["params"]["uri"] == uri]
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": 17, "character": 12}})
    assert hover.get("result") is None, hover


def test_exit_before_initialize_exits(servers):
    client = servers.spawn()
    client.notify("exit")
    assert client.wait_exit() == 1


def test_request_cancelled_in_same_write(servers):
    session = servers.session("vscode")
    client = session.client
    uri = session.open("m.py", MODEL)
    session.diagnostics(uri)
    request = client.request_message("textDocument/hover", {
        "textDocument": {"uri": uri}, "position": {"line": 17, "character": 12}})
    client.track(request["id"])
    cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": request["id"]}}
    client.write_raw(frame(request) + frame(cancel))
    response = client.wait_response(request["id"])
    assert response.get("error", {}).get("code") == REQUEST_CANCELLED, response
    client.barrier()
    assert len(client.responses_for(request["id"])) == 1


def test_cancel_of_answered_or_unknown_request_is_harmless(servers):
    session = servers.session("vscode")
    client = session.client
    request_id = client.send_request("graphmend/unknown", {})
    client.wait_response(request_id)
    client.notify("$/cancelRequest", {"id": request_id})
    client.notify("$/cancelRequest", {"id": 123456})
    client.notify("$/cancelRequest", {"id": "no-such"})
    client.barrier()
    assert len(client.responses_for(request_id)) == 1
    assert not client.responses_for(123456)


def test_string_ids_are_echoed(servers):
    session = servers.session("vscode")
    client = session.client
    client.track("abc-1")
    client.write_raw(frame({"jsonrpc": "2.0", "id": "abc-1", "method": "graphmend/unknown"}))
    assert client.wait_response("abc-1")["error"]["code"] == METHOD_NOT_FOUND


def test_error_responses_are_well_formed(servers):
    session = servers.session("vscode")
    response = session.client.request("graphmend/unknown", {})
    assert set(response) == {"jsonrpc", "id", "error"}
    assert response["jsonrpc"] == "2.0"
    assert isinstance(response["error"]["code"], int)
    assert isinstance(response["error"]["message"], str) and response["error"]["message"]
    json.dumps(response)


def test_deeply_nested_json_is_a_parse_error_not_a_crash(servers):
    session = servers.session("neovim")
    client = session.client
    mark = client.mark()
    client.write_raw(frame(b"[" * 100000 + b"]" * 100000))
    client.write_raw(frame(b'{"jsonrpc":"2.0","id":5,"method":"x","params":' + b"[" * 50000 +
                           b"]" * 50000 + b"}"))
    client.barrier()
    errors = [m for m in client.received[mark:] if "error" in m and m.get("id") is None]
    assert [e["error"]["code"] for e in errors] == [PARSE_ERROR, PARSE_ERROR]


@pytest.mark.parametrize("bad_id", [None, 1.5, {"a": 1}, [1], True])
def test_request_with_invalid_id_type(servers, bad_id):
    session = servers.session("neovim")
    client = session.client
    mark = client.mark()
    client.write_raw(frame({"jsonrpc": "2.0", "id": bad_id, "method": "graphmend/unknown"}))
    barrier = client.barrier()
    answers = [m for m in client.received[mark:] if "method" not in m and m is not barrier]
    assert len(answers) == 1, answers
    assert answers[0]["error"]["code"] == INVALID_REQUEST and answers[0]["id"] is None


def test_unsolicited_response_is_ignored(servers):
    session = servers.session("neovim")
    client = session.client
    mark = client.mark()
    client.send({"jsonrpc": "2.0", "id": 424242, "result": None})
    client.send({"jsonrpc": "2.0", "id": 424243, "error": {"code": -1, "message": "x"}})
    barrier = client.barrier()
    assert [m for m in client.received[mark:] if "method" not in m] == [barrier]


def test_notifications_for_unopened_documents_do_not_crash(servers):
    session = servers.session("vscode")
    client = session.client
    uri = session.uri("never.py")
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": "print(1)\n"}]})
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    client.notify("textDocument/didOpen", {"textDocument": {"uri": 3}})
    client.notify("textDocument/didChange", {"contentChanges": "x"})
    client.barrier()
    assert client.proc.poll() is None


@pytest.mark.parametrize("raw, expected_id", [
    (b'{"jsonrpc": "2.0", "id": 18446744073709551616, "method": "graphmend/unknown"}', None),
    (b'{"jsonrpc": "2.0", "id": -9223372036854775809, "method": "graphmend/unknown"}', None),
    (b'{"jsonrpc": "2.0", "id": "big", "method": "graphmend/unknown", '
     b'"params": {"n": 18446744073709551616}}', "big"),
], ids=["id-2^64", "id-below-int64", "number-in-params"])
def test_integer_outside_int64_is_an_invalid_request(servers, raw, expected_id):
    session = servers.session("neovim")
    client = session.client
    mark = client.mark()
    client.write_raw(frame(raw))
    barrier = client.barrier()
    answers = [m for m in client.received[mark:] if "method" not in m and m is not barrier]
    assert len(answers) == 1, answers
    assert answers[0]["error"]["code"] == INVALID_REQUEST
    assert answers[0]["id"] == expected_id


@pytest.mark.parametrize("message", [
    {"jsonrpc": "2.0", "id": 424244},
    {"jsonrpc": "2.0", "id": "no-method", "params": {}},
], ids=["bare", "with-params"])
def test_request_without_method_gets_invalid_request(servers, message):
    """An id that names no request of the server's, with neither "result" nor "error": a
    request that lacks its method, which JSON-RPC answers with -32600 (it got no answer)."""
    session = servers.session("neovim")
    client = session.client
    mark = client.mark()
    client.send(message)
    barrier = client.barrier()
    answers = [m for m in client.received[mark:] if "method" not in m and m is not barrier]
    assert len(answers) == 1, answers
    assert answers[0]["error"]["code"] == INVALID_REQUEST
    assert answers[0]["id"] == message["id"]


@pytest.mark.parametrize("message", [
    {"jsonrpc": "2.0", "id": 424245, "result": None, "error": {"code": -1, "message": "x"}},
    {"jsonrpc": "2.0", "id": 424246, "error": "not an object"},
    {"jsonrpc": "2.0", "id": [1], "result": 1},
    {"jsonrpc": "2.0", "result": 1},
    {"id": 424247, "result": 1},
], ids=["both", "bad-error", "bad-id", "no-id", "no-version"])
def test_malformed_response_is_logged_not_answered(servers, message):
    session = servers.session("neovim")
    client = session.client
    mark = client.mark()
    client.send(message)
    barrier = client.barrier()
    assert [m for m in client.received[mark:] if "method" not in m] == [barrier]
    client._wait_for(lambda: "malformed response" in client.stderr_text or None,
                     "the malformed response logged on stderr", 10)


@pytest.mark.parametrize("suffix", ["\u0000.txt", "%00.txt"], ids=["json-nul", "percent-nul"])
def test_uri_with_nul_is_refused_not_taken_for_another(servers, suffix):
    session = servers.session("neovim")
    client = session.client
    uri = session.open("a.py", PRINT_ONLY)
    assert [d["code"] for d in session.diagnostics(uri)] == ["GM401"]
    bad = uri + suffix
    response = client.request("textDocument/diagnostic", {"textDocument": {"uri": bad}})
    assert response["error"]["code"] == INVALID_PARAMS
    assert "NUL" in response["error"]["message"]
    # Notifications naming it are ignored (and logged): a.py keeps its text and findings, and
    # no document opens under that name.
    client.notify("textDocument/didChange", {"textDocument": {"uri": bad, "version": 2},
                                             "contentChanges": [{"text": CLEAN}]})
    client.notify("textDocument/didClose", {"textDocument": {"uri": bad}})
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": bad, "languageId": "python", "version": 1, "text": PRINT_ONLY}})
    assert [d["code"] for d in session.diagnostics(uri)] == ["GM401"]
    response = client.request("textDocument/diagnostic", {"textDocument": {"uri": bad}})
    assert response["error"]["code"] == INVALID_PARAMS
    client._wait_for(lambda: client.stderr_text.count("NUL") >= 3 or None,
                     "the three ignored notifications logged", 10)


@pytest.mark.parametrize("suffix", ["\u0000.txt", "%00.txt"], ids=["json-nul", "percent-nul"])
def test_profile_command_refuses_a_uri_with_nul(servers, suffix):
    session = servers.session("vscode")
    uri = session.open("a.py", PRINT_ONLY)
    response = session.client.request("workspace/executeCommand", {
        "command": "graphmend.profile", "arguments": [uri + suffix, {"entry": "f"}]})
    assert response["error"]["code"] == INVALID_PARAMS
    assert "NUL" in response["error"]["message"]

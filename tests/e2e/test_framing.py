"""Content-Length framing on stdin and stdout."""

import json
import time

import pytest

from conftest import init_params_for
from lsp_client import frame


def init_message(servers, request_id=1):
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize",
            "params": init_params_for("neovim", servers.tmp_path)}


def body(message) -> bytes:
    return json.dumps(message).encode("utf-8")


def test_header_names_in_any_case_and_order(servers):
    client = servers.spawn()
    msg = init_message(servers)
    data = body(msg)
    client.track(1)
    client.write_raw(b"content-type: application/vscode-jsonrpc; charset=utf-8\r\n"
                     b"content-length: %d\r\n\r\n" % len(data) + data)
    result = client.wait_response(1)["result"]
    assert result["serverInfo"]["name"] == "graphmend"

    for request_id, header in [(2, b"CONTENT-LENGTH: %d\r\n\r\n"),
                               (3, b"Content-Length:%d\r\nContent-Type: x\r\n\r\n"),
                               (4, b"cOnTeNt-LeNgTh:   %d\r\n\r\n")]:
        data = body({"jsonrpc": "2.0", "id": request_id, "method": "graphmend/unknown"})
        client.track(request_id)
        client.write_raw(header % len(data) + data)
        assert client.wait_response(request_id)["error"]["code"] == -32601


def test_message_written_byte_by_byte(servers):
    client = servers.spawn()
    client.track(1)
    client.track(2)
    data = frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"processId": None, "rootUri": None,
                             "capabilities": {"general": {"positionEncodings": ["utf-8"]}}}})
    data += frame({"jsonrpc": "2.0", "id": 2, "method": "graphmend/unknown"})
    for byte in data:
        client.write_raw(bytes([byte]))
        time.sleep(0.001)  # pacing only: makes the server see many short reads
    result = client.wait_response(1)["result"]
    assert result["serverInfo"]["name"] == "graphmend"
    assert result["capabilities"]["positionEncoding"] == "utf-8"
    assert client.wait_response(2)["error"]["code"] == -32601


def test_split_inside_header_and_body(servers):
    client = servers.spawn()
    data = frame(init_message(servers))
    client.track(1)
    cut1 = data.index(b":") - 3  # inside "Content-Length"
    cut2 = data.index(b"\r\n\r\n") + 2  # between the two CRLFs
    cut3 = len(data) - 5  # inside the body
    for part in (data[:cut1], data[cut1:cut2], data[cut2:cut3], data[cut3:]):
        client.write_raw(part)
        time.sleep(0.02)  # pacing only
    assert client.wait_response(1)["result"]["serverInfo"]["name"] == "graphmend"


def test_coalesced_messages_in_one_write(servers):
    client = servers.spawn()
    uri = (servers.tmp_path / "a.py").as_uri()
    text = "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    print(x)\n    return x\n"
    batch = [
        init_message(servers, 1),
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/diagnostic",
         "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "id": 3, "method": "graphmend/unknown"},
    ]
    for request_id in (1, 2, 3):
        client.track(request_id)
    client.write_raw(b"".join(frame(m) for m in batch))
    assert client.wait_response(1)["result"]["serverInfo"]["name"] == "graphmend"
    items = client.wait_response(2)["result"]["items"]
    assert [d["code"] for d in items] == ["GM401"]
    assert client.wait_response(3)["error"]["code"] == -32601
    # Responses come in request order.
    order = [m["id"] for m in client.received if "id" in m and "method" not in m]
    assert order == [1, 2, 3]


def test_content_length_counts_bytes_not_characters(servers):
    session = servers.session("neovim")
    client = session.client
    text = "# é😀 ü\nimport torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    print('😀')\n"
    uri = session.uri("u.py")
    open_msg = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}}}
    request = {"jsonrpc": "2.0", "id": 900, "method": "textDocument/diagnostic",
               "params": {"textDocument": {"uri": uri}}}
    client.track(900)
    client.write_raw(frame(open_msg) + frame(request))
    items = client.wait_response(900)["result"]["items"]
    assert [d["code"] for d in items] == ["GM401"]
    assert items[0]["range"]["start"] == {"line": 6, "character": 4}
    # The server's own frames with non-ASCII content parse (the reader checks lengths).
    assert not client.protocol_errors


def test_oversized_message_is_rejected_and_server_goes_on(servers):
    client = servers.spawn()
    size = 64 * 1024 * 1024 + 1
    prefix = b'{"jsonrpc":"2.0","id":77,"method":"initialize","params":{"pad":"'
    suffix = b'"}}'
    big = prefix + b"a" * (size - len(prefix) - len(suffix)) + suffix
    assert len(big) == size
    client.write_raw(b"Content-Length: %d\r\n\r\n" % size + big)
    client.track(1)
    client.write_raw(frame(init_message(servers)))
    assert client.wait_response(1)["result"]["serverInfo"]["name"] == "graphmend"
    assert client.proc.poll() is None
    # The oversized request was not handled (at most refused with an error).
    for response in client.responses_for(77):
        assert "error" in response
    assert client.barrier()["error"]["code"] == -32601


def test_huge_content_length_does_not_crash(servers):
    client = servers.spawn()
    client.write_raw(b"Content-Length: 99999999999999999999999\r\n\r\n")
    client.track(1)
    client.write_raw(frame(init_message(servers)))
    assert client.wait_response(1)["result"]["serverInfo"]["name"] == "graphmend"
    assert client.proc.poll() is None


def test_stdout_carries_only_frames(servers):
    session = servers.session("vscode")
    session.open("a.py", "import torch\n\n@torch.compile\ndef f(x: torch.Tensor):\n"
                 "    print(x)\n")
    session.diagnostics(session.uri("a.py"))
    assert session.shutdown_and_exit() == 0
    # The reader thread saw EOF; every byte on stdout was part of a valid frame.
    assert not session.client.protocol_errors
    assert all(m.get("jsonrpc") == "2.0" for m in session.client.received)


@pytest.mark.parametrize("bad", [
    b"Content-Length: -5\r\n\r\n",
    b"Content-Length: abc\r\n\r\n",
    b"Content-Length: 0\r\n\r\n",
    b"Content-Type: application/vscode-jsonrpc\r\n\r\n",
    b"garbage line without colon\r\n\r\n",
], ids=["negative", "not-a-number", "zero", "no-length", "no-colon"])
def test_malformed_header_is_dropped_and_server_goes_on(servers, bad):
    session = servers.session("neovim")
    client = session.client
    client.write_raw(bad)
    assert client.barrier()["error"]["code"] == -32601
    assert client.proc.poll() is None


def test_header_without_its_blank_line_does_not_swallow_the_next_requests(servers):
    session = servers.session("neovim")
    client = session.client
    lost = body({"jsonrpc": "2.0", "id": 50, "method": "graphmend/unknown"})
    client.write_raw(b"Content-Length: %d\r\n" % len(lost) + lost)
    time.sleep(0.1)  # pacing only: the server sees the broken message on its own first
    for request_id in (51, 52):
        client.track(request_id)
        client.write_raw(frame({"jsonrpc": "2.0", "id": request_id, "method": "graphmend/unknown"}))
    assert client.wait_response(51)["error"]["code"] == -32601
    assert client.wait_response(52)["error"]["code"] == -32601
    assert client.responses_for(50) == []

"""didChange notifications that arrive together (a client typing faster than the server answers)
are applied in order and parsed and analysed once: one publishDiagnostics, for the newest
version, equal to what a fresh open of the final text gives."""

import os

from conftest import binary_path
from lsp_client import LspClient, Session, frame

TEXT = ("import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    y = x + 1\n"
        "    return y\n")


def start(tmp_path):
    env = dict(os.environ, GRAPHMEND_TRACE_TIMING="1", GRAPHMEND_CACHE_DIR=str(tmp_path / "c"))
    client = LspClient([binary_path(), "serve"], env=env, cwd=str(tmp_path))
    session = Session(client, {"processId": None, "rootUri": None, "capabilities": {}},
                      str(tmp_path))
    session.initialize()
    return session


def test_changes_read_together_are_parsed_once(tmp_path):
    session = start(tmp_path)
    client = session.client
    uri = session.open("m.py", TEXT)
    assert session.diagnostics(uri) == []
    # Type "print(y)" into a new line before the return, one character per notification.
    typed = "    print(y)\n"
    at_line = TEXT.splitlines().index("    return y")
    changes, version = [], 1
    for i, ch in enumerate(typed):
        version += 1
        pos = {"line": at_line, "character": i}  # each character after the one before
        changes.append({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": pos, "end": pos}, "text": ch}]}})
    lines = TEXT.splitlines(keepends=True)
    lines.insert(at_line, typed)
    final = "".join(lines)
    mark = client.mark()
    client.write_raw(b"".join(frame(m) for m in changes))
    message = client.wait_notification(
        "textDocument/publishDiagnostics",
        lambda p: p["uri"] == uri and p.get("version") == version, 10, since=mark)
    got = sorted((d["code"], d["range"]["start"]["line"]) for d in message["params"]["diagnostics"])
    assert got == [("GM401", at_line)]
    client.barrier()
    versions = [m["params"].get("version") for m in client.notifications(
        "textDocument/publishDiagnostics")[1:]]
    assert versions == [version]  # the older versions were never published
    session.shutdown_and_exit()
    reparses = [line for line in client.stderr_text.splitlines() if "reparsed in" in line]
    assert len(reparses) == 1, reparses  # one parse for the whole batch

    # The same final text opened fresh: the same diagnostics.
    fresh = start(tmp_path)
    uri2 = fresh.open("n.py", final)
    assert sorted((d["code"], d["range"]["start"]["line"]) for d in fresh.diagnostics(uri2)) == got
    fresh.shutdown_and_exit()

"""publishDiagnostics of an edited document is byte for byte what a fresh server publishes for the
same text at the same version: the server keeps each diagnostic's serialised text between
publications and reuses what an edit did not change (server/lsp/diagnostic_fragments.h), and
nothing of that may show in the bytes. The edits are those of the latency benchmark (a character
typed after an identifier or a space at a line's end, then deleted), plus a line with a new break
typed into a forward and removed, blank lines above everything, and a non-ASCII comment before a
break on its line, so that line numbers and UTF-16 columns move under kept diagnostics."""

from __future__ import annotations

import json
import os
import pathlib
import random
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
from conftest import binary_path  # noqa: E402

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = {"if", "else", "for", "while", "return", "def", "class", "with", "as", "in", "not",
            "and", "or", "is", "lambda", "None", "True", "False", "import", "from", "pass"}


class RawServer:
    """The binary over pipes, keeping the bytes of every publishDiagnostics body."""

    def __init__(self, tmp_path: pathlib.Path):
        env = dict(os.environ, GRAPHMEND_CACHE_DIR=str(tmp_path / "cache"))
        self.proc = subprocess.Popen([binary_path(), "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=str(tmp_path), env=env)
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": None, "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "textDocument": {"publishDiagnostics": {"versionSupport": True}}}}})
        while "result" not in self.read():
            pass
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read_body(self) -> bytes:
        length = None
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server closed its output"
            if line == b"\r\n":
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        assert length is not None
        return self.proc.stdout.read(length)

    def read(self) -> dict:
        body = self.read_body()
        message = json.loads(body)
        if "id" in message and "method" in message:  # the server asks: answer nothing
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        return message

    def publication(self, version: int) -> bytes:
        """The bytes of the publishDiagnostics body for version."""
        while True:
            body = self.read_body()
            message = json.loads(body)
            if "id" in message and "method" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif (message.get("method") == "textDocument/publishDiagnostics"
                  and message["params"].get("version") == version):
                return body

    def close(self) -> None:
        self.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        self.send({"jsonrpc": "2.0", "method": "exit"})
        self.proc.stdin.close()
        assert self.proc.wait(timeout=30) == 0


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


Change = tuple[tuple[int, int], tuple[int, int], str]  # start, end (line, UTF-16 unit), text


def edit_plan(lines: list[str], rng: random.Random) -> list[Change]:
    """Changes, each typed and then taken back."""
    body = [i for i, line in enumerate(lines) if line.startswith("        ") and line.strip()]
    forward = [i for i, line in enumerate(lines) if line.startswith("    def forward")]
    plan: list[Change] = []
    for k in range(24):
        if k % 6 in (2, 5):
            # a new break typed as a line of its own, or a non-ASCII comment line; then removed
            line = rng.choice(forward) + 1 if k % 6 == 2 else rng.choice(body)
            typed = "        print(x)\n" if k % 6 == 2 else "        # é😀 …\n"
            plan += [((line, 0), (line, 0), typed), ((line, 0), (line + 1, 0), "")]
        elif k % 6 == 4:
            # blank lines above everything: every kept diagnostic moves down, then back up
            plan += [((0, 0), (0, 0), "\n\n"), ((0, 0), (2, 0), "")]
        else:
            line = rng.choice(body)
            words = [m for m in IDENT.finditer(lines[line]) if m.group() not in KEYWORDS]
            at = words[0].end() if words and rng.random() < 0.5 else len(lines[line])
            char = "x" if at != len(lines[line]) else " "
            plan += [((line, at), (line, at), char), ((line, at), (line, at + 1), "")]
    return plan


def offset(text: str, position: tuple[int, int]) -> int:
    """The str index of a (line, UTF-16 unit) position of text."""
    lines = text.split("\n")
    line, unit = position
    at = sum(len(lines[i]) + 1 for i in range(line))
    encoded = lines[line].encode("utf-16-le")[:2 * unit]
    return at + len(encoded.decode("utf-16-le"))


def test_edited_document_publishes_what_a_fresh_server_publishes(tmp_path):
    out = tmp_path / "model.py"
    subprocess.run([sys.executable, str(REPO / "tests" / "bench" / "make_model_file.py"), "1500",
                    str(out)], check=True, capture_output=True)
    text = out.read_text(encoding="utf-8")
    uri = out.as_uri()
    edited = RawServer(tmp_path)
    edited.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}}})
    first = edited.publication(1)
    assert len(json.loads(first)["params"]["diagnostics"]) >= 8  # something to keep
    plan = edit_plan(text.split("\n"), random.Random(17))
    compared = 0
    for version, (start, end, new) in enumerate(plan, start=2):
        text = text[:offset(text, start)] + new + text[offset(text, end):]
        edited.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": start[0], "character": start[1]},
                                          "end": {"line": end[0], "character": end[1]}},
                                "text": new}]}})
        published = edited.publication(version)
        if version % 3 and version != len(plan) + 1:
            continue  # a fresh server for one version in three, and the last
        fresh = RawServer(tmp_path)
        fresh.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "python", "version": version,
                             "text": text}}})
        assert published == fresh.publication(version), f"version {version} differs"
        fresh.close()
        compared += 1
    edited.close()
    assert compared >= 15
    # the edits were taken back: the last text is the first (so the plan's ranges were right)
    assert text == out.read_text(encoding="utf-8")

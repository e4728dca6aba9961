#!/usr/bin/env python3
"""The diagnostics `graphmend serve` publishes with a file's statements analysed on one core and
on several, compared (issue 17: analysis on every core must not change a single finding).

usage: parallel_publications.py --graphmend PATH [--jobs N] FILE...

For each file it runs the server twice, GRAPHMEND_JOBS=1 (statements one after the other) and
GRAPHMEND_JOBS=N (default 2: the statements of an open or an import edit on N threads), and
sends both the same messages: didOpen, then for every top-level import line an `x` appended and
removed (each rebinds a name every statement may use, so most statements are analysed again),
then a keystroke in the middle of the file and its undo. Every publishDiagnostics of the two
runs must be equal, byte for byte once serialised. Prints one line per file and exits 1 when a
publication differs or a server broke the protocol. Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile


def send(proc: subprocess.Popen, message: dict) -> None:
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc: subprocess.Popen) -> dict:
    headers = {}
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        key, value = line.decode().split(":", 1)
        headers[key.strip().lower()] = value.strip()
    return json.loads(proc.stdout.read(int(headers["content-length"])))


def edits_of(text: str) -> list[tuple[int, int, str, bool]]:
    """(line, column, text, insert) pairs: an `x` after each import line, and a keystroke."""
    lines = text.split("\n")
    edits = []
    for number, line in enumerate(lines):
        if line.startswith(("import ", "from ")):
            edits += [(number, len(line), "x", True), (number, len(line), "x", False)]
    middle = len(lines) // 2
    while middle < len(lines) and not lines[middle].strip():
        middle += 1
    if middle < len(lines):
        edits += [(middle, len(lines[middle]), " ", True), (middle, len(lines[middle]), " ", False)]
    return edits


def publications(graphmend: str, jobs: int, path: pathlib.Path) -> tuple[list[str], int]:
    """The publications (serialised params), and how many analyser runs the server's timing
    trace says went through the threads ("on every core")."""
    text = path.read_text()
    env = dict(os.environ, GRAPHMEND_JOBS=str(jobs), GRAPHMEND_TRACE_TIMING="1")
    trace = tempfile.TemporaryFile()
    proc = subprocess.Popen([graphmend, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=trace, env=env)
    published = []
    try:
        send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        while "id" not in receive(proc):
            pass
        send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        uri = path.resolve().as_uri()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                "text": text}}})
        version = 1

        def await_version(v: int) -> None:
            while True:
                message = receive(proc)
                if (message.get("method") == "textDocument/publishDiagnostics"
                        and message["params"].get("version") == v):
                    published.append(json.dumps(message["params"], sort_keys=True))
                    return

        await_version(version)
        for line, column, inserted, insert in edits_of(text):
            version += 1
            end = column if insert else column + len(inserted)
            change = {"range": {"start": {"line": line, "character": column},
                                "end": {"line": line, "character": end}},
                      "text": inserted if insert else ""}
            send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange",
                        "params": {"textDocument": {"uri": uri, "version": version},
                                   "contentChanges": [change]}})
            await_version(version)
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        while receive(proc).get("id") != 2:
            pass
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    trace.seek(0)
    threaded = trace.read().decode(errors="replace").count("on every core")
    trace.close()
    return published, threaded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graphmend", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("files", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    failed = False
    for path in args.files:
        try:
            one, _ = publications(args.graphmend, 1, path)
            many, threaded = publications(args.graphmend, args.jobs, path)
        except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError) as error:
            print(f"{path}: the server broke: {error}")
            failed = True
            continue
        differing = [i for i, (a, b) in enumerate(zip(one, many)) if a != b]
        diagnostics = sum(len(json.loads(p)["diagnostics"]) for p in one)
        if differing or len(one) != len(many):
            failed = True
            print(f"{path}: {len(differing)} of {len(one)} publications differ "
                  f"(first: number {differing[0] if differing else min(len(one), len(many))})")
        else:
            print(f"{path}: {len(one)} publications ({diagnostics} diagnostics) equal with "
                  f"GRAPHMEND_JOBS=1 and {args.jobs} ({threaded} analyser runs on threads)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

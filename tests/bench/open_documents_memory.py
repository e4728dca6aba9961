"""Memory of many open documents: opens N Python files (1,700-5,000 lines each, from the
unpacked library sources of build-sweep/src/, the held-out model families left out) in `graphmend serve` and in `ruff server` in the
same run, asks each for every document's diagnostics (pull), and prints both servers' resident
and peak memory and their ratio.

    .venv/bin/python tests/bench/open_documents_memory.py [--files 200] [--ruff PATH] [--graphmend PATH]
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
from lsp_client import LspClient  # noqa: E402


def held_out_families() -> frozenset[str]:
    """The transformers families issue 13 keeps for an independent check (and timm's modules of
    the same architectures): never opened here."""
    sys.path.insert(0, str(REPO / "tests"))
    from sweep.libraries import hf_transformers, timm_models  # noqa: E402
    return hf_transformers.HELD_OUT | getattr(timm_models, "HELD_OUT", frozenset())


def pick_files(count: int) -> list[pathlib.Path]:
    held_out = held_out_families()
    chosen = []
    for path in sorted((REPO / "build-sweep" / "src").glob("*/**/*.py")):
        if any(part in held_out or path.stem in held_out for part in path.parent.parts):
            continue
        try:
            lines = path.read_bytes().count(b"\n")
        except OSError:
            continue
        if 1700 <= lines <= 5000:
            chosen.append(path)
        if len(chosen) == count:
            break
    return chosen


def memory_kb(pid: int) -> tuple[int, int]:
    fields = {}
    for line in open(f"/proc/{pid}/status", encoding="ascii"):
        key, _, value = line.partition(":")
        fields[key] = value.split()[0] if value.split() else "0"
    return int(fields.get("VmRSS", 0)), int(fields.get("VmHWM", 0))


def measure(argv: list[str], files: list[pathlib.Path]) -> tuple[int, int, float]:
    client = LspClient(argv)
    caps = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": caps},
                   timeout=60)
    client.notify("initialized", {})
    started = time.monotonic()
    for path in files:
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.as_uri(), "languageId": "python", "version": 1,
            "text": path.read_text(encoding="utf-8", errors="replace")}})
    for path in files:
        client.request("textDocument/diagnostic", {"textDocument": {"uri": path.as_uri()}},
                       timeout=600)
    elapsed = time.monotonic() - started
    rss, peak = memory_kb(client.proc.pid)
    client.request("shutdown", None, timeout=60)
    client.notify("exit")
    client.wait_exit(timeout=60)
    return rss, peak, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--graphmend", default=str(REPO / "build" / "graphmend"))
    parser.add_argument("--ruff", default=shutil.which("ruff"))
    args = parser.parse_args()
    files = pick_files(args.files)
    if not files:
        print("no source files under build-sweep/src/ (run tools/setup)", file=sys.stderr)
        return 2
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"{len(files)} open documents, {lines:,} lines")
    rows = [("graphmend", measure([args.graphmend, "serve"], files))]
    if args.ruff:
        rows.append(("ruff server", measure([args.ruff, "server"], files)))
    print("| server | resident MB | peak MB | seconds to every document's diagnostics |")
    print("|---|---|---|---|")
    for name, (rss, peak, elapsed) in rows:
        print(f"| {name} | {rss / 1024:.0f} | {peak / 1024:.0f} | {elapsed:.1f} |")
    if len(rows) == 2:
        print(f"graphmend / ruff peak memory: {rows[0][1][1] / max(rows[1][1][1], 1):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

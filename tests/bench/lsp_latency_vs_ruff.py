#!/usr/bin/env python3
"""Keystroke and cold-open latency of `graphmend serve` beside `ruff server`, in the same run.

usage: lsp_latency_vs_ruff.py --graphmend PATH --ruff PATH [--edits N] [--opens K]
                              [--log-dir DIR] MODEL_FILE...

For each model file (from make_model_file.py) it starts both servers over pipes (push
diagnostics, the same `initialize` for both, no workspace folder) and measures, interleaved so
that both see the same machine load:

- cold open: `didOpen` to the first `publishDiagnostics` of version 1, on a fresh server, K
  times per server (the order alternates), median reported;
- edits: N single-character `didChange`s, each sent to one server, its `publishDiagnostics` for
  that version awaited, then the same edit sent to the other (which one goes first alternates
  edit by edit). Edits come in pairs (insert a character, then delete it), so the text stays
  sane. Most pairs are keystrokes inside method bodies (an `x` typed at the end of an identifier
  or a space at the end of a line); one pair in ten is whole-file work: every other one puts a
  `#` before the last closing bracket of a body line (the file no longer parses until the `#`
  is deleted), the rest append `x` to an import line. The edit sequence is the same for both
  servers and fixed by the seed.

It prints one markdown table: per file and measure, graphmend, ruff and graphmend/ruff (below 1
is graphmend faster). Peak RSS (VmHWM) of the servers that ran the edits closes each file's rows;
with --parse-floor, two more rows set tree-sitter's parse alone (bench_parse_floor: the file
whole, and cut into one part per CPU on threads) beside ruff's cold open in the same run.
Server stderr goes to --log-dir. Stdlib only. Not a test: timings are informational, and the
exit status is non-zero only when a server crashed, timed out or broke the protocol.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import re
import select
import shutil
import statistics
import subprocess
import sys
import time

RESPONSE_TIMEOUT_S = 120.0
WHOLE_FILE_EVERY = 10  # one edit pair in ten is a parse-breaking or import-line edit


class ServerError(RuntimeError):
    pass


class Server:
    """One language server over pipes. Reads are done by the caller (no threads): every wait
    polls stdout and stamps a frame with the monotonic time at which its last byte was read."""

    def __init__(self, name: str, argv: list[str], log_path: pathlib.Path):
        self.name = name
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, bufsize=0)
        self.out_fd = self.proc.stdout.fileno()
        self.in_fd = self.proc.stdin.fileno()
        os.set_blocking(self.out_fd, False)
        os.set_blocking(self.in_fd, False)
        self.buf = bytearray()
        self.pending: list[tuple[float, dict]] = []  # parsed, not yet consumed
        self.next_id = 1

    # ------------------------------------------------------------------ framing

    def _take_frames(self, stamp: float) -> None:
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            length = None
            for line in bytes(self.buf[:end]).split(b"\r\n"):
                key, _, value = line.partition(b":")
                if key.strip().lower() == b"content-length":
                    length = int(value.strip())
            if length is None:
                raise ServerError(f"{self.name}: frame without Content-Length")
            start = end + 4
            if len(self.buf) < start + length:
                return
            message = json.loads(bytes(self.buf[start:start + length]))
            del self.buf[:start + length]
            self._handle(stamp, message)

    def _handle(self, stamp: float, message: dict) -> None:
        if "method" in message and "id" in message:  # a request from the server: answer it
            method = message["method"]
            if method == "workspace/configuration":
                result = [None for _ in message.get("params", {}).get("items", [])]
            else:
                result = None
            self._queue({"jsonrpc": "2.0", "id": message["id"], "result": result})
            return
        self.pending.append((stamp, message))

    def _read_available(self) -> bool:
        try:
            chunk = os.read(self.out_fd, 1 << 20)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        stamp = time.monotonic()
        self.buf += chunk
        self._take_frames(stamp)
        return True

    # ------------------------------------------------------------------ writing

    _outbox = b""

    def _queue(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self._outbox += b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, message: dict) -> float:
        """Writes message (and anything queued before it), reading stdout meanwhile so that
        neither side blocks. Returns the time the first byte was written."""
        self._queue(message)
        first = None
        deadline = time.monotonic() + RESPONSE_TIMEOUT_S
        while self._outbox:
            readable, writable, _ = select.select([self.out_fd], [self.in_fd], [], 1.0)
            if readable and not self._read_available():
                raise ServerError(f"{self.name}: exited while we wrote to it")
            if writable:
                written = os.write(self.in_fd, self._outbox)
                if first is None:
                    first = time.monotonic()
                self._outbox = self._outbox[written:]
            if time.monotonic() > deadline:
                raise ServerError(f"{self.name}: stdin blocked for {RESPONSE_TIMEOUT_S:.0f} s")
        return first if first is not None else time.monotonic()

    def request(self, method: str, params) -> dict:
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m)[1]

    def notify(self, method: str, params) -> float:
        return self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, predicate) -> tuple[float, dict]:
        """The first pending or arriving message that satisfies predicate, with its arrival time.
        Messages before it are dropped."""
        deadline = time.monotonic() + RESPONSE_TIMEOUT_S
        while True:
            while self.pending:
                stamp, message = self.pending.pop(0)
                if predicate(message):
                    return stamp, message
            if self._outbox:
                self.send_pending()
            left = deadline - time.monotonic()
            if left <= 0:
                raise ServerError(f"{self.name}: no answer in {RESPONSE_TIMEOUT_S:.0f} s")
            readable, _, _ = select.select([self.out_fd], [], [], min(left, 1.0))
            if readable and not self._read_available():
                raise ServerError(f"{self.name}: exited (status {self.proc.wait()})")

    def send_pending(self) -> None:
        while self._outbox:
            _, writable, _ = select.select([], [self.in_fd], [], 1.0)
            if writable:
                self._outbox = self._outbox[os.write(self.in_fd, self._outbox):]

    def diagnostics_of(self, uri: str, version: int, sent: float) -> float:
        """Seconds from sent to the publishDiagnostics of uri at version."""
        def matches(message: dict) -> bool:
            params = message.get("params") or {}
            return (message.get("method") == "textDocument/publishDiagnostics"
                    and params.get("uri") == uri and params.get("version") == version)
        stamp, _ = self.wait(matches)
        return stamp - sent

    # ------------------------------------------------------------------ lifecycle

    def initialize(self, root: pathlib.Path | None = None) -> None:
        """initialize (with root as rootUri and the one workspace folder, when given), then
        initialized."""
        caps = {"general": {"positionEncodings": ["utf-16"]},
                "textDocument": {"publishDiagnostics": {"versionSupport": True},
                                 "synchronization": {"didSave": False}},
                "workspace": {"workspaceFolders": True, "configuration": True}}
        uri = root.resolve().as_uri() if root else None
        folders = [{"uri": uri, "name": root.name}] if root else None
        self.request("initialize", {"processId": os.getpid(), "rootUri": uri,
                                    "rootPath": str(root.resolve()) if root else None,
                                    "workspaceFolders": folders, "capabilities": caps,
                                    "clientInfo": {"name": "lsp_latency_vs_ruff"}})
        self.notify("initialized", {})

    def drain(self, seconds: float) -> list[tuple[float, dict]]:
        """Every message pending or arriving within seconds, with its arrival time."""
        until = time.monotonic() + seconds
        while True:
            if self._outbox:
                self.send_pending()
            left = until - time.monotonic()
            if left <= 0:
                break
            readable, _, _ = select.select([self.out_fd], [], [], min(left, 0.25))
            if readable and not self._read_available():
                raise ServerError(f"{self.name}: exited (status {self.proc.wait()})")
        got, self.pending = self.pending, []
        return got

    def peak_rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            status = self.proc.wait(timeout=30)
        except (ServerError, OSError, subprocess.TimeoutExpired) as exc:
            self.proc.kill()
            self.proc.wait()
            raise ServerError(f"{self.name}: did not shut down cleanly ({exc})") from exc
        finally:
            self.log.close()
        if status != 0:
            raise ServerError(f"{self.name}: exit status {status}")


# ---------------------------------------------------------------------------------- the edits

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = {"if", "else", "elif", "for", "while", "return", "def", "class", "with", "as", "in",
            "not", "and", "or", "is", "lambda", "yield", "assert", "raise", "try", "except",
            "finally", "pass", "break", "continue", "del", "global", "nonlocal", "import",
            "from", "None", "True", "False", "await", "async"}


def plan_edits(lines: list[str], count: int, seed: int) -> list[tuple[str, int, int, str, bool]]:
    """(kind, line, column, character, insert) for count edits; each insertion is followed by
    the deletion that takes it back."""
    rng = random.Random(seed)
    body = [i for i, line in enumerate(lines)
            if line.startswith("        ") and line.strip() and not line.lstrip().startswith("#")]
    brackets = [i for i in body if ")" in lines[i] or "]" in lines[i]]
    imports = [i for i, line in enumerate(lines) if line.startswith(("import ", "from "))]
    if not body or not brackets or not imports:
        raise SystemExit("the model file has no method bodies, brackets or imports to edit")
    edits = []
    pair = 0
    while len(edits) < count:
        if pair % WHOLE_FILE_EVERY == WHOLE_FILE_EVERY // 2 and pair // WHOLE_FILE_EVERY % 2 == 0:
            line = rng.choice(brackets)
            text = lines[line]
            edit = ("parse-breaking", line, max(text.rfind(")"), text.rfind("]")), "#")
        elif pair % WHOLE_FILE_EVERY == WHOLE_FILE_EVERY // 2:
            line = rng.choice(imports)
            edit = ("import line", line, len(lines[line]), "x")
        else:
            line = rng.choice(body)
            text = lines[line]
            words = [m for m in IDENT.finditer(text) if m.group() not in KEYWORDS]
            if words and rng.random() < 0.5:
                edit = ("keystroke", line, words[0].end(), "x")
            else:
                edit = ("keystroke", line, len(text), " ")
        edits.append((*edit, True))
        edits.append((*edit, False))
        pair += 1
    return edits[:count]


def change_params(uri: str, version: int, edit) -> dict:
    _, line, column, char, insert = edit
    end = column if insert else column + 1
    return {"textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": column},
                                          "end": {"line": line, "character": end}},
                                "text": char if insert else ""}]}


# ---------------------------------------------------------------------------------- measuring

def open_file(server: Server, uri: str, text: str) -> float:
    sent = server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    return server.diagnostics_of(uri, 1, sent)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def bench_file(path: pathlib.Path, argvs: dict[str, list[str]], edits: int, opens: int,
               seed: int, log_dir: pathlib.Path) -> dict[str, dict[str, float]]:
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    names = list(argvs)
    cold: dict[str, list[float]] = {name: [] for name in names}
    servers: dict[str, Server] = {}
    for k in range(opens):
        order = names if k % 2 == 0 else names[::-1]
        for name in order:
            server = Server(name, argvs[name], log_dir / f"server-{name}-{path.stem}.log")
            server.initialize()
            cold[name].append(open_file(server, uri, text))
            if k == opens - 1:
                servers[name] = server  # the last pair runs the edits
            else:
                server.close()
    plan = plan_edits(text.split("\n"), edits, seed)
    times: dict[str, dict[str, list[float]]] = {name: {} for name in names}
    for k, edit in enumerate(plan):
        version = k + 2
        order = names if k % 2 == 0 else names[::-1]
        for name in order:
            server = servers[name]
            sent = server.notify("textDocument/didChange", change_params(uri, version, edit))
            times[name].setdefault(edit[0], []).append(server.diagnostics_of(uri, version, sent))
    result: dict[str, dict[str, float]] = {}
    for name in names:
        every = [t for kind in times[name].values() for t in kind]
        row = {f"cold open (median of {opens})": statistics.median(cold[name]) * 1e3,
               "edit p50": percentile(every, 0.50) * 1e3,
               "edit p99": percentile(every, 0.99) * 1e3,
               "edit max": max(every) * 1e3}
        for kind in ("keystroke", "parse-breaking", "import line"):
            if kind in times[name]:
                row[f"{kind} edits p50 (n={len(times[name][kind])})"] = \
                    statistics.median(times[name][kind]) * 1e3
        row["peak RSS MB"] = servers[name].peak_rss_mb()
        servers[name].close()
        result[name] = row
    return result


# ------------------------------------------------------------------ the repository case

CACHE_DIR = ".graphmend_cache"  # the project cache (issue 38); absent with servers before it
# A window/logMessage that says the workspace index is complete (graphmend's workspace.c:
# "workspace: N Python files indexed in X ms").
INDEX_DONE = re.compile(r"\bindexed\b")


def repo_session(name: str, argv: list[str], repo: pathlib.Path, path: pathlib.Path,
                 log_path: pathlib.Path, settle_s: float, index_timeout_s: float) -> dict:
    """One editor start in the repository: initialize (the repository as workspace folder),
    initialized, didOpen of path at once (an editor restoring its open tab), then every
    publication for it until the server has been quiet for settle_s after its workspace index
    said it was complete (or, when no such message comes, for index_timeout_s from initialize).
    Times in ms from the initialize request, and from didOpen."""
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    server = Server(name, argv, log_path)
    try:
        started = time.monotonic()
        server.initialize(repo)
        initialized = time.monotonic()
        opened = server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}})
        pubs: list[tuple[float, int]] = []
        index_done = None
        last_event = opened
        first_deadline = started + RESPONSE_TIMEOUT_S
        while True:
            now = time.monotonic()
            if not pubs and now > first_deadline:
                raise ServerError(f"{name}: no diagnostics in {RESPONSE_TIMEOUT_S:.0f} s")
            for stamp, message in server.drain(0.25):
                method = message.get("method")
                params = message.get("params") or {}
                if method == "textDocument/publishDiagnostics" and params.get("uri") == uri:
                    pubs.append((stamp, len(params.get("diagnostics") or [])))
                    last_event = stamp
                elif (method == "window/logMessage" and index_done is None
                      and INDEX_DONE.search(params.get("message", ""))):
                    index_done = stamp
                    last_event = stamp
            now = time.monotonic()
            if pubs and now - last_event >= settle_s and (
                    index_done is not None or now - started >= index_timeout_s
                    or name != "graphmend"):
                break
        rss = server.peak_rss_mb()
    except BaseException:
        server.proc.kill()
        server.proc.wait()
        server.log.close()
        raise
    server.close()
    def ms(stamp: float) -> float:
        return (stamp - started) * 1e3

    return {"initialize response": ms(initialized),
            "first diagnostics": ms(pubs[0][0]),
            "didOpen to first": (pubs[0][0] - opened) * 1e3,
            "index done": ms(index_done) if index_done is not None else None,
            "last diagnostics": ms(pubs[-1][0]),
            "publications": len(pubs),
            "first count": pubs[0][1], "last count": pubs[-1][1],
            "peak RSS MB": rss}


def repo_case(args, argvs: dict[str, list[str]], log_dir: pathlib.Path) -> int:
    """The editor's start in a large workspace, graphmend with its project cache cold (deleted
    before the start) and warm (right after a cold start that ran until its index completed),
    ruff's server beside it (no cache of its own: one row), alternated rep by rep; per file."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    import bench_repo  # noqa: E402

    repo = bench_repo.make(pathlib.Path(args.repo), pathlib.Path(args.repo_source))
    relatives = args.repo_file or list(bench_repo.DEFAULT_FILES)
    for relative in relatives:
        if not (repo / relative).is_file():
            raise SystemExit(f"no {relative} in {repo}")
    files = sum(1 for _ in (repo / "src").rglob("*.py"))
    print(f"{repo} as the workspace folder ({files:,} .py files; held-out families left out), "
          f"one file opened right after `initialized`; median of {args.reps} starts; ms from "
          f"the `initialize` request unless said; cold: {CACHE_DIR}/ deleted before the start, "
          f"warm: right after a cold start; a start ends {args.settle:g} s after the last "
          f"publication once the index said it was complete")
    print()
    print("| file | server | initialize answered | first diagnostics | didOpen -> first "
          "diagnostics | index complete | last diagnostics | publications | diagnostics "
          "first -> last | peak RSS MB | first diagnostics / ruff's |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for relative in relatives:
        path = repo / relative
        lines = path.read_bytes().count(b"\n")
        med = repo_file_case(args, argvs, log_dir, repo, path)
        ruff_first = med["ruff server"]["first diagnostics"]
        for k, (label, m) in enumerate(med.items()):
            done = f"{m['index done']:,.0f}" if m["index done"] is not None else "-"
            last = f"{m['last diagnostics']:,.0f}" if m["publications"] > 1 else "-"
            shown = f"{pathlib.Path(relative).name} ({lines:,} lines)" if k == 0 else ""
            print(f"| {shown} | {label} | {m['initialize response']:,.0f} | "
                  f"{m['first diagnostics']:,.0f} | {m['didOpen to first']:,.0f} | {done} | "
                  f"{last} | {m['publications']:g} | {m['first count']:g} -> "
                  f"{m['last count']:g} | {m['peak RSS MB']:,.0f} | "
                  f"{m['first diagnostics'] / ruff_first:.2f}x |", flush=True)
    cache = repo / CACHE_DIR
    print()
    print(f"{CACHE_DIR}/ after the last start: " +
          (f"{sum(1 for p in cache.rglob('*') if p.is_file()):,} files" if cache.is_dir()
           else "none (this server keeps no project cache)"))
    return 0


def repo_file_case(args, argvs, log_dir, repo, path) -> dict[str, dict]:
    """Medians per row (graphmend cold, graphmend warm, ruff) of the starts with path opened."""
    # (label, server, cold): the warm start comes right after the cold one, which left the cache
    groups = [[("graphmend, cold cache", "graphmend", True),
               ("graphmend, warm cache", "graphmend", False)],
              [("ruff server", "ruff", None)]]
    results: dict[str, list[dict]] = {label: [] for group in groups for label, _, _ in group}

    def session(name: str) -> dict:
        return repo_session(name, argvs[name], repo, path, log_dir / f"server-{name}-repo.log",
                            args.settle, args.index_timeout)

    # Unmeasured: the files into the page cache (one graphmend start to its index's end).
    session("graphmend")
    for rep in range(args.reps):
        for group in groups if rep % 2 == 0 else groups[::-1]:
            for label, name, cold in group:
                if cold:
                    shutil.rmtree(repo / CACHE_DIR, ignore_errors=True)
                results[label].append(session(name))

    def median_or_none(values: list) -> float | None:
        return None if any(v is None for v in values) else statistics.median(values)

    return {label: {key: median_or_none([r[key] for r in rs]) for key in rs[0]}
            for label, rs in results.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphmend", required=True)
    parser.add_argument("--ruff", required=True)
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--opens", type=int, default=3)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--log-dir", default=".")
    parser.add_argument("--parse-floor", metavar="BIN",
                        help="bench_parse_floor: adds tree-sitter's parse alone (whole, and cut "
                             "into one part per CPU on threads) beside ruff's cold open")
    parser.add_argument("--repo", metavar="DIR",
                        help="the repository case: DIR laid out as transformers' repository "
                             "(tests/bench/bench_repo.py, made once and reused) as the workspace")
    parser.add_argument("--repo-source",
                        default=str(pathlib.Path(__file__).resolve().parents[2] /
                                    "build-sweep/src/transformers-5.23.0/transformers"))
    parser.add_argument("--repo-file", action="append",
                        help="the file opened, relative to the repository (repeatable; "
                             "default: tests/bench/bench_repo.py's DEFAULT_FILES)")
    parser.add_argument("--reps", type=int, default=3, help="starts per row, repository case")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds of quiet after the index completes before a start ends")
    parser.add_argument("--index-timeout", type=float, default=90.0,
                        help="seconds from initialize to wait for the index when no message "
                             "says it completed")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if not args.files and not args.repo:
        parser.error("give MODEL_FILEs, --repo DIR, or both")
    argvs = {"graphmend": [args.graphmend, "serve"], "ruff": [args.ruff, "server"]}
    log_dir = pathlib.Path(args.log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    ruff_version = subprocess.run([args.ruff, "--version"], capture_output=True, text=True,
                                  check=False).stdout.strip()
    edits = (f"; {args.edits} edits per file (1 pair in {WHOLE_FILE_EVERY} parse-breaking or "
             f"import-line), cold open x{args.opens}") if args.files else ""
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}; {ruff_version}{edits}")
    status = 0
    if args.repo:
        print()
        try:
            status |= repo_case(args, argvs, log_dir)
        except ServerError as exc:
            print(f"lsp_latency_vs_ruff: repository case: {exc}", file=sys.stderr)
            status = 1
    if args.files:
        print()
        print("| file | measure | graphmend ms | ruff ms | graphmend/ruff |")
        print("|---|---|---:|---:|---:|")
    for name in args.files:
        path = pathlib.Path(name)
        lines = path.read_bytes().count(b"\n")
        try:
            result = bench_file(path, argvs, args.edits, args.opens, args.seed, log_dir)
        except ServerError as exc:
            print(f"lsp_latency_vs_ruff: {path.name}: {exc}", file=sys.stderr)
            status = 1
            continue
        for measure, gm in result["graphmend"].items():
            rf = result["ruff"][measure]
            label = f"{lines // 1000}k lines" if measure.startswith("cold") else ""
            unit_gm = f"{gm:,.0f}" if measure == "peak RSS MB" else f"{gm:,.1f}"
            unit_rf = f"{rf:,.0f}" if measure == "peak RSS MB" else f"{rf:,.1f}"
            shown = measure.replace("peak RSS MB", "peak RSS (MB, not ms)")
            print(f"| {label} | {shown} | {unit_gm} | {unit_rf} | {gm / rf:.2f}x |", flush=True)
        if args.parse_floor:
            cold = next(m for m in result["ruff"] if m.startswith("cold open"))
            status |= print_parse_floor(args.parse_floor, path, result["ruff"][cold])
    return status


def print_parse_floor(binary: str, path: pathlib.Path, ruff_cold_ms: float) -> int:
    """Rows for tree-sitter's parse alone (no analysis, no protocol) against ruff's whole cold
    open: the floor any design that parses with tree-sitter stands on."""
    done = subprocess.run([binary, str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"lsp_latency_vs_ruff: {binary} {path.name}: {done.stderr.strip()}", file=sys.stderr)
        return 1
    floor = json.loads(done.stdout)
    rows = [("tree-sitter parse alone, whole file on 1 thread", floor["whole_ms"]),
            (f"tree-sitter parse alone, cut in {floor['parts']} parts on {floor['parts']} threads",
             floor["split_ms"])]
    for label, ms in rows:
        print(f"|  | {label} (vs ruff's cold open) | {ms:,.1f} | {ruff_cold_ms:,.1f} | "
              f"{ms / ruff_cold_ms:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

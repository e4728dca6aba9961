"""A small, strict LSP client for end-to-end tests of the graphmend binary.

It spawns the server with pipes, frames JSON with Content-Length headers, parses every frame the
server writes on a reader thread, records every message in both directions, answers the server's
own requests (workspace/configuration and friends) with configurable replies, and flags anything
on stdout that is not a well-formed frame. Tests wait on responses and notifications with timeouts;
nothing here sleeps to decide an outcome.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

DEFAULT_TIMEOUT = 10.0

# JSON-RPC and LSP error codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800


def frame(message: Any) -> bytes:
    """Content-Length framed bytes for a JSON value (or an already encoded body)."""
    if isinstance(message, (bytes, bytearray)):
        body = bytes(message)
    else:
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class ProtocolViolation(AssertionError):
    pass


def parse_frames(data: bytes) -> tuple[list[Any], bytes]:
    """Parses complete frames from data. Returns (messages, rest). Raises ProtocolViolation on
    anything that is not a header block with a valid Content-Length followed by a JSON body."""
    messages = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            # Only the start of a header block may be pending; anything else is junk on stdout.
            if len(data) > 1024 or not all(32 <= b < 127 or b in (13, 10) for b in data):
                raise ProtocolViolation(f"non-protocol bytes on stdout: {data[:200]!r}")
            return messages, data
        header = data[:end].decode("ascii", errors="replace")
        length = None
        for line in header.split("\r\n"):
            name, sep, value = line.partition(":")
            if not sep:
                raise ProtocolViolation(f"bad header line {line!r} in {header!r}")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if length is None:
            raise ProtocolViolation(f"no Content-Length in {header!r}")
        start = end + 4
        if len(data) < start + length:
            return messages, data
        body = data[start:start + length]
        try:
            messages.append(json.loads(body.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProtocolViolation(f"frame body is not JSON ({exc}): {body[:300]!r}") from exc
        data = data[start + length:]


@dataclass
class Recorded:
    direction: str  # "send" or "recv"
    message: Any
    at: float = field(default_factory=time.monotonic)


class LspClient:
    """One server process and the conversation with it."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None,
                 cwd: str | None = None):
        self.argv = argv
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=cwd, bufsize=0)
        self.log: list[Recorded] = []
        self.received: list[Any] = []  # every message from the server, in order
        self.protocol_errors: list[str] = []
        self.stderr_chunks: list[bytes] = []
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._next_id = 1
        self._sent_request_ids: list[Any] = []
        self._eof = False
        self._notif_cursor: dict[str, int] = {}
        # Replies to server->client requests: method -> callable(params) -> result.
        self.config: dict[str, Any] = {}
        self.handlers: dict[str, Callable[[Any], Any]] = {
            "workspace/configuration": self._answer_configuration,
            "window/workDoneProgress/create": lambda p: None,
            "client/registerCapability": lambda p: None,
            "client/unregisterCapability": lambda p: None,
            "workspace/diagnostic/refresh": lambda p: None,
            "workspace/applyEdit": lambda p: {"applied": True},
            "window/showMessageRequest": lambda p: None,
        }
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    # ---------------------------------------------------------------- reading

    def _read_stdout(self) -> None:
        buf = b""
        fd = self.proc.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buf += chunk
            try:
                messages, buf = parse_frames(buf)
            except ProtocolViolation as exc:
                with self._cond:
                    self.protocol_errors.append(str(exc))
                    self._cond.notify_all()
                buf = b""
                continue
            for message in messages:
                self._dispatch(message)
        with self._cond:
            if buf.strip():
                self.protocol_errors.append(f"trailing bytes at EOF: {buf[:200]!r}")
            self._eof = True
            self._cond.notify_all()

    def _read_stderr(self) -> None:
        fd = self.proc.stderr.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.stderr_chunks.append(chunk)

    def _dispatch(self, message: Any) -> None:
        is_request = isinstance(message, dict) and "method" in message and "id" in message
        if is_request:
            # Answer first, then make the request visible to waiters: a test that saw the
            # request knows that its answer is already on its way to the server.
            with self._cond:
                self.log.append(Recorded("recv", message))
            handler = self.handlers.get(message["method"])
            if handler is None:
                reply = {"jsonrpc": "2.0", "id": message["id"],
                         "error": {"code": METHOD_NOT_FOUND, "message": "not handled by test"}}
            else:
                reply = {"jsonrpc": "2.0", "id": message["id"],
                         "result": handler(message.get("params"))}
            try:
                self.send(reply)
            except (BrokenPipeError, OSError, ValueError):
                pass
        with self._cond:
            if not is_request:
                self.log.append(Recorded("recv", message))
            self.received.append(message)
            self._cond.notify_all()

    def _answer_configuration(self, params: Any) -> list[Any]:
        items = (params or {}).get("items", [])
        out = []
        for item in items:
            section = item.get("section")
            if section is None:
                out.append(self.config)
                continue
            value: Any = self.config
            for part in section.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            out.append(value)
        return out

    @property
    def stderr_text(self) -> str:
        return b"".join(self.stderr_chunks).decode("utf-8", errors="replace")

    # ---------------------------------------------------------------- writing

    def write_raw(self, data: bytes) -> None:
        with self._write_lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def send(self, message: Any) -> None:
        with self._cond:
            self.log.append(Recorded("send", message))
        self.write_raw(frame(message))

    def new_id(self) -> int:
        with self._cond:
            request_id = self._next_id
            self._next_id += 1
            return request_id

    def request_message(self, method: str, params: Any = None, request_id: Any = None) -> dict:
        if request_id is None:
            request_id = self.new_id()
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        return message

    def track(self, request_id: Any) -> None:
        """Remembers a request id sent by raw means, for the one-response-per-request check."""
        with self._cond:
            self._sent_request_ids.append(request_id)
            if isinstance(request_id, int) and request_id >= self._next_id:
                self._next_id = request_id + 1

    def send_request(self, method: str, params: Any = None) -> int:
        message = self.request_message(method, params)
        self.track(message["id"])
        self.send(message)
        return message["id"]

    def notify(self, method: str, params: Any = None) -> None:
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def close_stdin(self) -> None:
        with self._write_lock:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    # ---------------------------------------------------------------- waiting

    def _wait_for(self, find: Callable[[], Any], what: str, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = find()
                if found is not None:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._eof:
                    found = find()
                    if found is not None:
                        return found
                    state = "server closed stdout" if self._eof else f"timed out after {timeout}s"
                    raise AssertionError(
                        f"{what}: {state}\nlast messages: {self._tail()}\n"
                        f"stderr tail: {self.stderr_text[-1500:]}")
                self._cond.wait(min(remaining, 0.25))

    def _tail(self, n: int = 6) -> str:
        return "\n".join(json.dumps(r.message)[:400] for r in self.log[-n:])

    def responses_for(self, request_id: Any) -> list[dict]:
        with self._cond:
            return [m for m in self.received if isinstance(m, dict) and "method" not in m
                    and m.get("id") == request_id and ("result" in m or "error" in m)]

    def wait_response(self, request_id: Any, timeout: float = DEFAULT_TIMEOUT) -> dict:
        def find():
            found = [m for m in self.received if isinstance(m, dict) and "method" not in m
                     and m.get("id") == request_id and ("result" in m or "error" in m)]
            return found[0] if found else None
        return self._wait_for(find, f"response to id {request_id!r}", timeout)

    def request(self, method: str, params: Any = None, timeout: float = DEFAULT_TIMEOUT) -> dict:
        """Sends a request and returns the whole response message."""
        return self.wait_response(self.send_request(method, params), timeout)

    def result(self, method: str, params: Any = None, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Sends a request and returns its result, failing on an error response."""
        response = self.request(method, params, timeout)
        assert "error" not in response, f"{method} failed: {response}"
        return response["result"]

    def notifications(self, method: str | None = None) -> list[dict]:
        with self._cond:
            return [m for m in self.received if isinstance(m, dict) and "method" in m
                    and "id" not in m and (method is None or m["method"] == method)]

    def server_requests(self, method: str | None = None) -> list[dict]:
        with self._cond:
            return [m for m in self.received if isinstance(m, dict) and "method" in m
                    and "id" in m and (method is None or m["method"] == method)]

    def wait_notification(self, method: str, predicate: Callable[[Any], bool] | None = None,
                          timeout: float = DEFAULT_TIMEOUT, since: int | None = None) -> dict:
        """Waits for a notification of that method whose params satisfy predicate. Each call
        consumes what it returns: the next call for the same method looks only at later ones,
        unless since (an index into received) is given."""
        def find():
            start = since if since is not None else self._notif_cursor.get(method, 0)
            for index in range(start, len(self.received)):
                m = self.received[index]
                if isinstance(m, dict) and m.get("method") == method and "id" not in m:
                    if predicate is None or predicate(m.get("params")):
                        self._notif_cursor[method] = index + 1
                        return m
            return None
        return self._wait_for(find, f"notification {method}", timeout)

    def wait_server_request(self, method: str, timeout: float = DEFAULT_TIMEOUT) -> dict:
        def find():
            found = [m for m in self.received if isinstance(m, dict) and m.get("method") == method
                     and "id" in m]
            return found[0] if found else None
        return self._wait_for(find, f"server request {method}", timeout)

    def mark(self) -> int:
        """Index of the next message to arrive; pass as since= to look only at later ones."""
        with self._cond:
            return len(self.received)

    def barrier(self, timeout: float = DEFAULT_TIMEOUT) -> dict:
        """Round trip of a request every server must answer (an unknown method). The server
        handles input in order, so once this is answered, everything that earlier input
        provoked has been written."""
        return self.request("graphmend/testBarrier", {}, timeout)

    def wait_exit(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(f"server did not exit within {timeout}s\n"
                                 f"stderr tail: {self.stderr_text[-1500:]}") from exc
        self._reader.join(timeout)  # everything it wrote has been read and recorded
        return code

    def unanswered_or_duplicated(self) -> list[str]:
        """Requests (sent through send_request or track) without exactly one response."""
        problems = []
        with self._cond:
            ids = list(self._sent_request_ids)
        for request_id in ids:
            count = len(self.responses_for(request_id))
            if count != 1:
                problems.append(f"id {request_id!r}: {count} responses")
        return problems

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        self._reader.join(2)
        self._stderr_reader.join(2)


# -------------------------------------------------------------------- text and positions

def units(text: str, encoding: str) -> int:
    """Length of text in code units of an LSP position encoding."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    if encoding == "utf-32":
        return len(text)
    raise ValueError(encoding)


def char_index(line: str, column: int, encoding: str) -> int:
    """Inverse of units(): the character index that a column in code units points at."""
    count = 0
    for index, ch in enumerate(line):
        if count >= column:
            if count != column:
                raise ValueError(f"column {column} splits a character in {line!r}")
            return index
        count += units(ch, encoding)
    if count != column:
        raise ValueError(f"column {column} beyond line {line!r}")
    return len(line)


def position_of(text: str, needle: str, encoding: str, occurrence: int = 0,
                offset: int = 0) -> dict:
    """LSP position of the occurrence-th match of needle (plus offset characters)."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    line_start = text.rfind("\n", 0, index) + 1
    return {"line": line, "character": units(text[line_start:index], encoding)}


def range_of(text: str, needle: str, encoding: str, occurrence: int = 0) -> dict:
    start = position_of(text, needle, encoding, occurrence)
    end = position_of(text, needle, encoding, occurrence, offset=len(needle))
    return {"start": start, "end": end}


def offset_at(text: str, position: dict, encoding: str) -> int:
    lines = text.split("\n")
    line = position["line"]
    if line >= len(lines):
        raise ValueError(f"line {line} beyond the document")
    start = sum(len(lines[i]) + 1 for i in range(line))
    return start + char_index(lines[line], position["character"], encoding)


def apply_change(text: str, change: dict, encoding: str) -> str:
    if "range" not in change:
        return change["text"]
    start = offset_at(text, change["range"]["start"], encoding)
    end = offset_at(text, change["range"]["end"], encoding)
    return text[:start] + change["text"] + text[end:]


def text_in_range(text: str, rng: dict, encoding: str) -> str:
    return text[offset_at(text, rng["start"], encoding):offset_at(text, rng["end"], encoding)]


def edits_to_changes(edits: list[dict]) -> list[dict]:
    """TextEdits (all relative to one text) as sequential contentChanges: last first."""
    def key(edit):
        s = edit["range"]["start"]
        return (s["line"], s["character"])
    return [{"range": e["range"], "text": e["newText"]}
            for e in sorted(edits, key=key, reverse=True)]


# -------------------------------------------------------------------- a client session

class Session:
    """An initialized conversation as one recorded editor client would hold it: documents with
    versions, the negotiated encoding, push or pull diagnostics."""

    def __init__(self, client: LspClient, init_params: dict, workspace: str):
        self.client = client
        self.init_params = init_params
        self.workspace = workspace
        self.init_result: dict | None = None
        self.encoding = "utf-16"
        self.docs: dict[str, dict] = {}

    @property
    def capabilities(self) -> dict:
        return self.init_params.get("capabilities", {})

    @property
    def pulls(self) -> bool:
        return "diagnostic" in self.capabilities.get("textDocument", {})

    @property
    def uses_document_changes(self) -> bool:
        return bool(self.capabilities.get("workspace", {}).get("workspaceEdit", {})
                    .get("documentChanges"))

    def initialize(self, initialized: bool = True) -> dict:
        self.init_result = self.client.result("initialize", self.init_params)
        self.encoding = self.init_result["capabilities"].get("positionEncoding", "utf-16")
        if initialized:
            self.client.notify("initialized", {})
        return self.init_result

    def uri(self, name: str) -> str:
        return "file://" + os.path.join(self.workspace, name)

    def open(self, name: str, text: str, version: int = 1, write_file: bool = True) -> str:
        uri = self.uri(name)
        if write_file:
            path = os.path.join(self.workspace, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        mark = self.client.mark()
        self.docs[uri] = {"text": text, "version": version, "mark": mark}
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": version, "text": text}})
        return uri

    def text(self, uri: str) -> str:
        return self.docs[uri]["text"]

    def change(self, uri: str, changes: list[dict], apply_locally: bool = True) -> int:
        doc = self.docs[uri]
        if apply_locally:
            for change in changes:
                doc["text"] = apply_change(doc["text"], change, self.encoding)
        doc["version"] += 1
        doc["mark"] = self.client.mark()
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": doc["version"]},
            "contentChanges": changes})
        return doc["version"]

    def close(self, uri: str) -> None:
        self.docs[uri]["mark"] = self.client.mark()
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def diagnostics(self, uri: str, since: int | None = None,
                    timeout: float = DEFAULT_TIMEOUT) -> list[dict]:
        """The current diagnostics of a document: the publishDiagnostics for its current
        version that arrived after its last change (push), or a textDocument/diagnostic
        request (pull)."""
        doc = self.docs[uri]
        if self.pulls:
            result = self.client.result("textDocument/diagnostic",
                                        {"textDocument": {"uri": uri}}, timeout)
            assert result["kind"] == "full", result
            return result["items"]
        version = doc["version"]
        message = self.client.wait_notification(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == uri and p.get("version") == version,
            timeout, since=doc["mark"] if since is None else since)
        return message["params"]["diagnostics"]

    def diagnostics_until(self, uri: str, predicate: Callable[[list[dict]], bool],
                          since: int, timeout: float = DEFAULT_TIMEOUT) -> list[dict]:
        """Diagnostics once they satisfy predicate, after a change that the server may take a
        round trip (e.g. a workspace/configuration pull) to apply. Push: the first matching
        publish after since. Pull: requests again until the result matches."""
        doc = self.docs[uri]
        if not self.pulls:
            message = self.client.wait_notification(
                "textDocument/publishDiagnostics",
                lambda p: p["uri"] == uri and p.get("version") == doc["version"]
                and predicate(p["diagnostics"]), timeout, since=since)
            return message["params"]["diagnostics"]
        deadline = time.monotonic() + timeout
        while True:
            items = self.diagnostics(uri, timeout=timeout)
            if predicate(items) or time.monotonic() > deadline:
                return items
            time.sleep(0.05)  # pacing between polls; the outcome is decided by predicate

    def code_actions(self, uri: str, rng: dict, diagnostics: list[dict] | None = None,
                     only: list[str] | None = None) -> list[dict]:
        context: dict[str, Any] = {"diagnostics": diagnostics or []}
        if only is not None:
            context["only"] = only
        result = self.client.result("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": rng, "context": context})
        return result or []

    def edits_of(self, action: dict, uri: str) -> list[dict]:
        """The TextEdits an action's inline WorkspaceEdit makes to uri."""
        edit = action.get("edit")
        assert edit, f"action without inline edit: {action}"
        edits: list[dict] = []
        if "documentChanges" in edit:
            for dc in edit["documentChanges"]:
                assert "textDocument" in dc, f"unexpected resource operation {dc}"
                if dc["textDocument"]["uri"] == uri:
                    edits.extend(dc["edits"])
        if "changes" in edit:
            edits.extend(edit["changes"].get(uri, []))
        return edits

    def apply_action(self, uri: str, action: dict) -> int:
        return self.change(uri, edits_to_changes(self.edits_of(action, uri)))

    def shutdown_and_exit(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        response = self.client.request("shutdown", None, timeout)
        assert response.get("result", "missing") is None, response
        self.client.notify("exit")
        return self.client.wait_exit(timeout)

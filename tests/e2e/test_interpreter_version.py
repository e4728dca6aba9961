"""The python3 on PATH sets the default Python version without holding up the first diagnostics:
the server analyses with the version remembered for that interpreter (or the default, 3.11),
asks the interpreter in the background once the first diagnostics are out, remembers its answer
on disk, and publishes again only when the answer changes what it found.

GM606 tells the versions apart: before Python 3.12 a comprehension that reads self runs as a
frame of its own, which breaks when dynamo runs forward eagerly (a print in a loop)."""

import os
import pathlib
import stat

from conftest import binary_path
from lsp_client import LspClient, Session

SOURCE = (
    "import torch\n"
    "import torch.nn as nn\n"
    "NAMES = ['a', 'b']\n"
    "\n"
    "class M(nn.Module):\n"
    "    def forward(self, x: torch.Tensor):\n"
    "        a = [self.n for _ in NAMES]\n"
    "        for _ in range(2):\n"
    "            print(x)\n"
    "        return x\n"
)
BEFORE_312 = ["GM401", "GM606"]  # print in a loop; the comprehension's own frame
FROM_312 = ["GM401"]


def fake_python(folder: pathlib.Path, version: str, log: pathlib.Path) -> pathlib.Path:
    """A python3 (a script, as a pyenv shim is) that notes each question and answers version."""
    folder.mkdir(parents=True, exist_ok=True)
    python = folder / "python3"
    python.write_text(f"#!/bin/sh\necho asked >> '{log}'\necho {version}\n")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    return python


def start(tmp_path: pathlib.Path, path_dir: pathlib.Path) -> Session:
    env = dict(os.environ, PATH=str(path_dir), GRAPHMEND_CACHE_DIR=str(tmp_path / "cache"))
    client = LspClient([binary_path(), "serve"], env=env, cwd=str(tmp_path))
    session = Session(client, {"processId": None, "rootUri": None, "capabilities": {},
                               "initializationOptions": {"logLevel": "debug"}}, str(tmp_path))
    session.initialize()
    return session


def answered(session, count=1):
    """Waits until the server has handled count answers of the interpreter."""
    def find():
        logs = [m for m in session.client.notifications("window/logMessage")
                if "answered the version query" in m["params"]["message"]]
        return logs if len(logs) >= count else None
    return session.client._wait_for(find, "the interpreter's answer", 10)


def codes(diagnostics):
    return sorted(d["code"] for d in diagnostics)


def publishes(session, uri):
    return [m["params"]["diagnostics"] for m in session.client.notifications(
        "textDocument/publishDiagnostics") if m["params"]["uri"] == uri]


def stop(session):
    session.shutdown_and_exit()
    assert not session.client.protocol_errors, session.client.protocol_errors


def test_first_diagnostics_do_not_wait_and_a_new_answer_republishes(tmp_path):
    log = tmp_path / "asked.log"
    bin_dir = tmp_path / "bin"
    fake_python(bin_dir, "3.12", log)
    session = start(tmp_path, bin_dir)
    uri = session.open("m.py", SOURCE)
    # Nothing remembered: the default (3.11) first, then the interpreter's 3.12.
    assert codes(session.diagnostics(uri)) == BEFORE_312
    # the interpreter's answer may come before the first publication has been read: look from
    # the open on, and check the order of what was published
    later = session.diagnostics_until(uri, lambda d: codes(d) == FROM_312,
                                      since=session.docs[uri]["mark"])
    assert codes(later) == FROM_312
    assert [codes(d) for d in publishes(session, uri)] == [BEFORE_312, FROM_312]
    assert log.read_text().count("asked") == 1
    stop(session)
    cache = (tmp_path / "cache" / "interpreters").read_text()
    assert cache.endswith(f"312 {int((bin_dir / 'python3').stat().st_mtime_ns)} "
                          f"{(bin_dir / 'python3').stat().st_size} {bin_dir / 'python3'}\n")

    # Remembered: 3.12 from the first diagnostics on; the script is asked again (a shim's
    # answer may change), answers the same, and nothing is published again.
    session = start(tmp_path, bin_dir)
    uri = session.open("m.py", SOURCE)
    assert codes(session.diagnostics(uri)) == FROM_312
    answered(session)
    session.client.barrier()
    assert log.read_text().count("asked") == 2
    assert [codes(d) for d in publishes(session, uri)] == [FROM_312]
    stop(session)


def test_an_unchanged_answer_publishes_nothing_more(tmp_path):
    log = tmp_path / "asked.log"
    bin_dir = tmp_path / "bin"
    fake_python(bin_dir, "3.11", log)
    session = start(tmp_path, bin_dir)
    uri = session.open("m.py", SOURCE)
    assert codes(session.diagnostics(uri)) == BEFORE_312
    assert "with 3.11" in answered(session)[0]["params"]["message"]
    session.client.barrier()
    assert [codes(d) for d in publishes(session, uri)] == [BEFORE_312]
    stop(session)
    assert (tmp_path / "cache" / "interpreters").read_text().startswith("311 ")


def test_no_python3_and_a_broken_one_keep_the_default(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    session = start(tmp_path, empty)
    uri = session.open("m.py", SOURCE)
    assert codes(session.diagnostics(uri)) == BEFORE_312
    stop(session)
    broken = tmp_path / "broken"
    broken.mkdir()
    python = broken / "python3"
    python.write_text("#!/bin/sh\necho 'Python 3.12'\nexit 3\n")
    python.chmod(0o755)
    session = start(tmp_path, broken)
    uri = session.open("m.py", SOURCE)
    assert codes(session.diagnostics(uri)) == BEFORE_312
    assert "no answer" in answered(session)[0]["params"]["message"]
    session.client.barrier()
    assert [codes(d) for d in publishes(session, uri)] == [BEFORE_312]
    stop(session)
    assert not (tmp_path / "cache" / "interpreters").exists()

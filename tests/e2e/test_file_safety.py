"""Never hang, never lose a file: FIFOs, devices, huge files, symlink loops, the root folder as a
workspace, and what `graphmend fix` keeps of the files it rewrites (mode, links, temp names)."""

import os
import pathlib
import stat
import subprocess
import time

import pytest

from conftest import init_params_for, run_cli
from lsp_client import LspClient
from samples import MODEL, MODEL_FINDINGS, PRINT_ONLY

# --------------------------------------------------------------------------- the CLI's reader


def test_check_refuses_a_fifo(binary, tmp_path):
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    proc = run_cli(binary, "check", "fifo.py", "model.py", cwd=tmp_path, timeout=10)
    assert proc.returncode == 2, proc
    err = proc.stderr.decode()
    assert "fifo.py" in err and "not a regular file" in err, err
    assert b"model.py:" in proc.stdout  # the other file is still checked


def test_check_refuses_a_device(binary, tmp_path):
    proc = run_cli(binary, "check", "/dev/zero", cwd=tmp_path, timeout=10)
    assert proc.returncode == 2, proc
    err = proc.stderr.decode()
    assert "/dev/zero" in err and "not a regular file" in err, err


def test_check_refuses_a_file_over_the_size_cap(binary, tmp_path):
    big = tmp_path / "big.py"
    with open(big, "wb") as f:
        f.truncate(17 * 1024 * 1024)  # sparse: costs no disk
    proc = run_cli(binary, "check", "big.py", cwd=tmp_path, timeout=10)
    assert proc.returncode == 2, proc
    err = proc.stderr.decode()
    assert "big.py" in err and "larger than" in err, err


def test_check_skips_fifos_in_a_directory(binary, tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    os.mkfifo(d / "fifo.py")
    (d / "model.py").write_text(MODEL, encoding="utf-8")
    proc = run_cli(binary, "check", "d", cwd=tmp_path, timeout=10)
    assert proc.returncode == 1, proc


# --------------------------------------------------------------------------- walks


def loop_tree(root):
    root.mkdir()
    (root / "model.py").write_text(MODEL, encoding="utf-8")
    os.symlink(".", root / "l1")
    os.symlink(".", root / "l2")
    return root


def reported(stdout: bytes):
    """The file of each finding of `check --output-format concise`."""
    return [line.split(":", 1)[0] for line in stdout.decode().splitlines()
            if line.count(":") >= 3]


def test_check_survives_symlink_loops(binary, tmp_path):
    loop_tree(tmp_path / "d")
    # the walk used to run past 60 s; run_cli fails the test when the timeout passes
    proc = run_cli(binary, "check", "--output-format", "concise", "d", cwd=tmp_path, timeout=20)
    assert proc.returncode == 1, proc
    assert reported(proc.stdout) == ["d/model.py"] * len(MODEL_FINDINGS), proc.stdout


def test_check_reports_a_file_reached_twice_once(binary, tmp_path):
    d = tmp_path / "d"
    (d / "sub").mkdir(parents=True)
    (d / "sub" / "model.py").write_text(MODEL, encoding="utf-8")
    os.symlink("sub", d / "again")
    os.symlink("sub/model.py", d / "alias.py")
    proc = run_cli(binary, "check", "--output-format", "concise", "d", cwd=tmp_path, timeout=10)
    assert proc.returncode == 1, proc
    files = reported(proc.stdout)
    assert len(set(files)) == 1 and len(files) == len(MODEL_FINDINGS), proc.stdout


# --------------------------------------------------------------------------- the server


def workspace_session(binary, tmp_path, folder):
    client = LspClient([binary, "serve"], cwd=str(tmp_path))
    params = init_params_for("vscode", folder)
    client.result("initialize", params, timeout=20)
    client.notify("initialized", {})
    return client


def did_open(client, uri, text=MODEL):
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})


def hover(client, uri, timeout):
    return client.request("textDocument/hover", {
        "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}, timeout=timeout)


def peak_memory_kib(pid):
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def finish(client):
    try:
        client.request("shutdown", None, timeout=10)
        client.notify("exit")
        client.proc.wait(10)
    finally:
        client.kill()


@pytest.fixture
def server_in(binary, tmp_path):
    clients = []

    def start(folder):
        client = workspace_session(binary, tmp_path, folder)
        clients.append(client)
        return client
    yield start
    for client in clients:
        client.kill()


def test_server_answers_after_opening_a_fifo_outside_the_folders(server_in, tmp_path):
    (tmp_path / "ws").mkdir()
    (tmp_path / "out").mkdir()
    os.mkfifo(tmp_path / "out" / "fifo.py")
    client = server_in(tmp_path / "ws")
    uri = (tmp_path / "out" / "fifo.py").as_uri()
    did_open(client, uri)
    hover(client, uri, timeout=10)
    finish(client)


def test_server_answers_after_closing_a_fifo_in_the_folder(server_in, tmp_path):
    (tmp_path / "ws").mkdir()
    os.mkfifo(tmp_path / "ws" / "fifo.py")
    client = server_in(tmp_path / "ws")
    uri = (tmp_path / "ws" / "fifo.py").as_uri()
    did_open(client, uri)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    finish(client)


def test_server_answers_after_opening_dev_zero(server_in, tmp_path):
    (tmp_path / "ws").mkdir()
    client = server_in(tmp_path / "ws")
    did_open(client, "file:///dev/zero")
    hover(client, "file:///dev/zero", timeout=10)
    assert peak_memory_kib(client.proc.pid) < 200 * 1024
    finish(client)


def test_server_answers_with_symlink_loops_in_the_folder(server_in, tmp_path):
    # No Python file in the loops: the walk's file cap never stops it, only remembering visited
    # directories does.
    ws = tmp_path / "ws"
    ws.mkdir()
    os.symlink(".", ws / "l1")
    os.symlink(".", ws / "l2")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "model.py").write_text(MODEL, encoding="utf-8")
    client = server_in(ws)
    uri = (tmp_path / "out" / "model.py").as_uri()
    did_open(client, uri)
    hover(client, uri, timeout=10)
    finish(client)


def test_server_answers_with_the_root_as_folder(server_in, tmp_path):
    client = server_in(pathlib.Path("/"))
    uri = (tmp_path / "model.py").as_uri()
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    did_open(client, uri)
    hover(client, uri, timeout=30)
    finish(client)


def indexed_before(client, response_id) -> bool:
    """Whether the server said its folder index was complete before it answered response_id."""
    for message in list(client.received):
        if message.get("id") == response_id and "method" not in message:
            return False
        if (message.get("method") == "window/logMessage" and
                "Python files indexed" in message["params"]["message"]):
            return True
    return False


def test_server_answers_while_it_indexes_a_large_folder(server_in, tmp_path):
    # thousands of modules: indexing them takes seconds, in slices between which requests are
    # answered (a walk in one go held every request until it was done)
    module = "import torch\n\n" + "".join(
        f"def f{i}(x):\n    y = x * {i}\n    return torch.relu(y) + y.sum()\n\n"
        for i in range(40))
    workspace = tmp_path / "ws"
    for d in range(60):
        package = workspace / f"pkg{d}"
        package.mkdir(parents=True)
        for f in range(50):
            (package / f"m{f}.py").write_text(module, encoding="utf-8")
    client = server_in(workspace)
    uri = (tmp_path / "model.py").as_uri()
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    did_open(client, uri)
    request_id = client.send_request("textDocument/hover", {
        "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    client.wait_response(request_id, timeout=60)
    assert not indexed_before(client, request_id), "the hover waited for the whole folder index"
    finish(client)


# --------------------------------------------------------------------------- fix keeps the file


def fix(binary, cwd, *paths):
    return run_cli(binary, "fix", "--unsafe-fixes", *paths, cwd=cwd, timeout=10)


@pytest.mark.parametrize("mode", [0o750, 0o600, 0o664])
def test_fix_keeps_the_mode(binary, tmp_path, mode):
    path = tmp_path / "p.py"
    path.write_text(PRINT_ONLY, encoding="utf-8")
    os.chmod(path, mode)
    proc = fix(binary, tmp_path, "p.py")
    assert proc.returncode in (0, 1), proc
    assert path.read_text(encoding="utf-8") != PRINT_ONLY
    assert stat.S_IMODE(os.stat(path).st_mode) == mode


def test_fix_keeps_the_owner(binary, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can give a file away")
    path = tmp_path / "p.py"
    path.write_text(PRINT_ONLY, encoding="utf-8")
    os.chown(path, 65534, 65534)
    proc = fix(binary, tmp_path, "p.py")
    assert proc.returncode in (0, 1), proc
    assert path.read_text(encoding="utf-8") != PRINT_ONLY
    info = os.stat(path)
    assert (info.st_uid, info.st_gid) == (65534, 65534)


def test_fix_refuses_a_read_only_file(binary, tmp_path):
    path = tmp_path / "p.py"
    path.write_text(PRINT_ONLY, encoding="utf-8")
    os.chmod(path, 0o444)
    proc = fix(binary, tmp_path, "p.py")
    assert proc.returncode == 2, proc
    err = proc.stderr.decode()
    assert "p.py" in err and "read-only" in err, err
    assert path.read_text(encoding="utf-8") == PRINT_ONLY
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o444


def test_fix_writes_through_a_symlink(binary, tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "p.py"
    target.write_text(PRINT_ONLY, encoding="utf-8")
    link = tmp_path / "link.py"
    os.symlink("real/p.py", link)
    proc = fix(binary, tmp_path, "link.py")
    assert proc.returncode in (0, 1), proc
    assert os.path.islink(link) and os.readlink(link) == "real/p.py"
    assert target.read_text(encoding="utf-8") != PRINT_ONLY
    assert sorted(os.listdir(tmp_path / "real")) == ["p.py"]


def test_fix_keeps_hard_links(binary, tmp_path):
    path = tmp_path / "p.py"
    path.write_text(PRINT_ONLY, encoding="utf-8")
    other = tmp_path / "other.txt"
    os.link(path, other)
    inode = os.stat(path).st_ino
    proc = fix(binary, tmp_path, "p.py")
    assert proc.returncode in (0, 1), proc
    mended = path.read_text(encoding="utf-8")
    assert mended != PRINT_ONLY
    assert os.stat(path).st_ino == inode and os.stat(path).st_nlink == 2
    assert other.read_text(encoding="utf-8") == mended
    assert sorted(os.listdir(tmp_path)) == ["other.txt", "p.py"]


def test_fix_ignores_a_symlink_planted_at_the_temp_name(binary, tmp_path):
    try:
        with open("/proc/sys/kernel/ns_last_pid") as f:
            last = int(f.read())
    except OSError:
        pytest.skip("cannot guess the next pid")
    path = tmp_path / "m.py"
    path.write_text(PRINT_ONLY, encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    for pid in range(last + 1, last + 400):
        os.symlink("victim.txt", tmp_path / f"m.py.graphmend-{pid}")
    proc = fix(binary, tmp_path, "m.py")
    assert proc.returncode in (0, 1), proc
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not os.path.islink(path)
    assert path.read_text(encoding="utf-8") != PRINT_ONLY


def test_fix_leaves_no_temp_file(binary, tmp_path):
    path = tmp_path / "p.py"
    path.write_text(PRINT_ONLY, encoding="utf-8")
    proc = fix(binary, tmp_path, "p.py")
    assert proc.returncode in (0, 1), proc
    assert os.listdir(tmp_path) == ["p.py"]


def test_fix_in_a_read_only_directory_keeps_the_file(binary, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only directories")
    d = tmp_path / "d"
    d.mkdir()
    path = d / "p.py"
    path.write_text(PRINT_ONLY, encoding="utf-8")
    os.chmod(d, 0o555)
    try:
        proc = fix(binary, d, "p.py")
    finally:
        os.chmod(d, 0o755)
    assert proc.returncode == 2, proc
    assert path.read_text(encoding="utf-8") == PRINT_ONLY


def bytes_read(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/io", encoding="ascii") as f:
            for line in f:
                if line.startswith("rchar:"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return -1


def test_fix_leaves_a_file_edited_while_it_ran(binary, tmp_path):
    """The user saves p.py while fix analyses a large file listed after it: fix has read p.py,
    so writing its mend would drop the edit. It leaves p.py as the user saved it, says so and
    exits 2; the other file is still handled."""
    blocks = "".join(
        f"\nclass Block{i}(nn.Module):\n    def forward(self, x):\n        y = x * 2\n"
        f"        if y.sum() > 0:\n            y = y + 1\n        return y.relu()\n"
        for i in range(15000))
    big = tmp_path / "big.py"
    big.write_text("import torch\nimport torch.nn as nn\n" + blocks, encoding="utf-8")
    path = tmp_path / "p.py"
    path.write_text(PRINT_ONLY, encoding="utf-8")
    proc = subprocess.Popen([binary, "fix", "--unsafe-fixes", "p.py", "big.py"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Sources are read in order before any is analysed: once the process has read as many bytes
    # as big.py holds, it has read p.py (the loader's reads of libraries are a few KiB).
    deadline = time.monotonic() + 30
    while (bytes_read(proc.pid) < big.stat().st_size and proc.poll() is None
           and time.monotonic() < deadline):
        time.sleep(0.002)
    with open(path, "a", encoding="utf-8") as f:
        f.write("X = 1  # the user's edit\n")
    out, err = proc.communicate(timeout=120)
    assert path.read_text(encoding="utf-8") == PRINT_ONLY + "X = 1  # the user's edit\n"
    assert proc.returncode == 2, (out, err)
    assert b"p.py" in err and b"changed on disk" in err, err
    assert b"big.py:" in out  # the other file is still fixed and reported

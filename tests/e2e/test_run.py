"""graphmend run and profile --packages, end to end: the real binary mends a small installed
package (a directory on PYTHONPATH, as site-packages is) into a private cache and runs real
Python programs (torch from .venv) with it, over real pipes. The package's files must come out
exactly as they went in."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import binary_path

PYTHON = sys.executable

PACKAGE = {
    "__init__.py": "from .layers import Net, explode\n",
    # a safe mend that keeps line numbers: the tensor-valued conditional becomes torch.where
    "layers.py": textwrap.dedent("""\
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.first = torch.nn.Linear(8, 8)
                self.second = torch.nn.Linear(8, 8)

            def forward(self, x):
                y = self.first(x)
                y = y * 2 if y.sum() > 0 else y * 0.5
                return self.second(torch.relu(y))


        def explode(x):
            raise ValueError("exploded on purpose")
        """),
    # mends that change line counts: the if-statement becomes one line (safe), the logger call
    # gains a guard line (unsafe)
    "noisy.py": textwrap.dedent("""\
        import logging

        import torch

        logger = logging.getLogger(__name__)


        class Noisy(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = torch.nn.Linear(2, 2)

            def forward(self, x):
                y = self.inner(x)
                logger.info("noisy forward")
                if y.sum() > 0:
                    y = y * 2
                return check(y)


        def check(x):
            if x.shape[0] == 3:
                raise ValueError("three rows are not allowed")
            return x
        """),
}
# Latin-1 with its coding declaration: valid Python that graphmend does not mend (UTF-8 only).
LEGACY = ("# -*- coding: latin-1 -*-\n"
          "import torch\n"
          "\n"
          "NAME = 'caf\xe9'\n"
          "\n"
          "\n"
          "class Legacy(torch.nn.Module):\n"
          "    def forward(self, x):\n"
          "        return x * 2 if x.sum() > 0 else x\n").encode("latin-1")

# Trains fakepkg.Net for a few steps under torch.compile and prints one JSON line: the graphs
# dynamo makes of the model and the losses.
TRAIN = textwrap.dedent("""\
    import json
    import sys

    import torch
    import torch._dynamo

    import fakepkg

    torch.manual_seed(0)
    model = fakepkg.Net()
    x = torch.randn(16, 8)
    target = torch.randn(16, 8)
    graphs = torch._dynamo.explain(model)(x).graph_count
    torch._dynamo.reset()
    compiled = torch.compile(model, backend="aot_eager")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for step in range(4):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(compiled(x), target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(json.dumps({"graphs": graphs, "losses": losses, "args": sys.argv[1:]}))
    """)


@pytest.fixture
def world(tmp_path):
    """A package directory on PYTHONPATH (the 'installed' package), a cache and an
    environment for the runs."""
    site = tmp_path / "site"
    package = site / "fakepkg"
    package.mkdir(parents=True)
    for name, text in PACKAGE.items():
        (package / name).write_text(text, encoding="utf-8")
    (package / "legacy.py").write_bytes(LEGACY)
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")
    env = dict(os.environ)
    env.update({"XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(site),
                "GRAPHMEND_PYTHON": PYTHON, "PYTHONDONTWRITEBYTECODE": "1",
                # "python" on the command line is the test's own interpreter
                "PATH": os.path.dirname(PYTHON) + os.pathsep + os.environ.get("PATH", "")})
    return {"root": tmp_path, "site": site, "package": package, "env": env,
            "cache": tmp_path / "cache" / "graphmend"}


def run(world, *args, timeout=240):
    return subprocess.run([binary_path(), *args], cwd=world["root"], env=world["env"],
                          capture_output=True, text=True, timeout=timeout)


def python(world, *args, timeout=240):
    return subprocess.run([PYTHON, *args], cwd=world["root"], env=world["env"],
                          capture_output=True, text=True, timeout=timeout)


def last_json(stdout):
    return json.loads(stdout.strip().splitlines()[-1])


def snapshot(directory):
    """Every file under directory: content, modification time (ns) and mode."""
    state = {}
    for folder, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(folder, name)
            st = os.stat(path)
            with open(path, "rb") as f:
                state[path] = (f.read(), st.st_mtime_ns, st.st_mode)
    return state


def mended_files(world):
    return sorted(p.name for p in (world["cache"] / "mended").glob("*.py"))


def test_training_script_makes_fewer_graphs_with_equal_losses_and_package_untouched(world):
    before = snapshot(world["site"])
    plain = python(world, "train.py")
    assert plain.returncode == 0, plain.stderr
    mended = run(world, "run", "--packages", "fakepkg", "--", "python", "train.py", "a", "-b")
    assert mended.returncode == 0, mended.stderr
    original, result = last_json(plain.stdout), last_json(mended.stdout)
    assert original["graphs"] == 2  # the conditional on a tensor splits the forward
    assert result["graphs"] == 1
    assert result["losses"] == pytest.approx(original["losses"], rel=1e-5, abs=1e-6)
    assert result["args"] == ["a", "-b"]
    assert snapshot(world["site"]) == before  # content, mtime and mode of every file


def test_exit_status_is_the_programs_and_module_mode_works(world):
    (world["root"] / "leave.py").write_text("import sys, fakepkg\nsys.exit(7)\n")
    done = run(world, "run", "--packages", "fakepkg", "leave.py")
    assert done.returncode == 7, done.stderr
    (world["root"] / "tool.py").write_text(
        "import sys, fakepkg, inspect\nprint(sys.argv[1:], 'torch.where' in "
        "inspect.getsource(fakepkg.layers))\n")
    module = run(world, "run", "--packages", "fakepkg", "--", "python", "-m", "tool", "x")
    assert module.returncode == 0, module.stderr
    assert module.stdout.strip() == "['x'] True"  # inspect sees the code that runs
    # the interpreter's own options stay the interpreter's; -c runs code as python -c does
    code = run(world, "run", "--packages", "fakepkg", "--", "python", "-u", "-X", "dev", "-c",
               "import sys, fakepkg.layers as l; print(sys.argv, sys.flags.dev_mode, "
               "l.__file__.endswith('layers.py'))", "arg")
    assert code.returncode == 0, code.stderr
    assert code.stdout.strip() == "['-c', 'arg'] True True"


def test_missing_script_and_bad_arguments_are_clear_errors(world):
    missing = run(world, "run", "--packages", "fakepkg", "no_such_script.py")
    assert missing.returncode == 2
    assert "no_such_script.py" in missing.stderr
    for args, words in [
        (["run", "train.py"], "--packages"),
        (["run", "--packages", "scikit-learn", "train.py"], "not a top-level import name"),
        (["run", "--packages", "fakepkg"], "no program"),
        (["run", "--packages", "no_such_package_here", "train.py"], "not installed"),
        (["run", "--packages", "fakepkg", "--python", "/no/such/python", "train.py"],
         "cannot start"),
    ]:
        done = run(world, *args)
        assert done.returncode == 2, (args, done.stderr)
        assert words in done.stderr, (args, done.stderr)
        assert "Traceback (most recent" not in done.stderr


def test_cache_is_reused_and_follows_source_and_settings(world):
    first = run(world, "run", "--verbose", "--packages", "fakepkg", "train.py")
    assert first.returncode == 0, first.stderr
    assert "mended into the cache now" in first.stderr
    copies = mended_files(world)
    assert len(copies) == 2  # layers.py and noisy.py
    stamps = {name: os.stat(world["cache"] / "mended" / name).st_mtime_ns for name in copies}
    again = run(world, "run", "--verbose", "--packages", "fakepkg", "train.py")
    assert again.returncode == 0, again.stderr
    assert "all from the cache" in again.stderr
    assert {name: os.stat(world["cache"] / "mended" / name).st_mtime_ns
            for name in copies} == stamps
    assert last_json(again.stdout)["graphs"] == 1
    # a changed file is mended again (its new content), the others come from the cache
    time.sleep(0.01)
    layers = world["package"] / "layers.py"
    layers.write_text(layers.read_text() + "\n\nVERSION = 2\n")
    changed = run(world, "run", "--verbose", "--packages", "fakepkg", "train.py")
    assert changed.returncode == 0, changed.stderr
    assert "mended into the cache now" in changed.stderr
    after_change = mended_files(world)
    assert len(after_change) == 3 and set(copies) < set(after_change)
    new_copy = (set(after_change) - set(copies)).pop()
    assert "VERSION = 2" in (world["cache"] / "mended" / new_copy).read_text()
    # unsafe mends are another setting: copies of their own, the safe ones stay
    unsafe = run(world, "run", "--verbose", "--unsafe-fixes", "--packages", "fakepkg", "train.py")
    assert unsafe.returncode == 0, unsafe.stderr
    assert "unsafe ones too" in unsafe.stderr
    assert set(after_change) < set(mended_files(world))
    safe_again = run(world, "run", "--verbose", "--packages", "fakepkg", "train.py")
    assert "all from the cache" in safe_again.stderr


def test_module_that_cannot_be_mended_runs_unchanged(world):
    script = world["root"] / "legacy_user.py"
    script.write_text(textwrap.dedent("""\
        import torch, torch._dynamo
        from fakepkg import legacy
        print(legacy.NAME, torch._dynamo.explain(legacy.Legacy())(torch.ones(2)).graph_count)
        """), encoding="utf-8")
    plain = python(world, "legacy_user.py")
    verbose = run(world, "run", "--verbose", "--packages", "fakepkg", "legacy_user.py")
    assert verbose.returncode == 0, verbose.stderr
    assert verbose.stdout == plain.stdout == "caf\xe9 2\n"  # unchanged: still breaks
    note = [line for line in verbose.stderr.splitlines() if "legacy.py" in line]
    assert len(note) == 1 and "runs unchanged" in note[0] and "not UTF-8" in note[0]
    quiet = run(world, "run", "--packages", "fakepkg", "legacy_user.py")
    assert quiet.returncode == 0 and "legacy.py" not in quiet.stderr


def test_traceback_points_at_the_installed_file_and_line(world):
    (world["root"] / "boom.py").write_text("import fakepkg\nfakepkg.explode(1)\n")
    done = run(world, "run", "--packages", "fakepkg", "boom.py")
    assert done.returncode == 1
    layers = str(world["package"] / "layers.py")
    line = PACKAGE["layers.py"].splitlines().index(
        '    raise ValueError("exploded on purpose")') + 1
    assert f'File "{layers}", line {line}, in explode' in done.stderr
    assert 'raise ValueError("exploded on purpose")' in done.stderr
    assert "mended_imports" not in done.stderr and "runpy" not in done.stderr
    assert "graphmend: line numbers" not in done.stderr  # this mend kept every line
    plain = python(world, "boom.py")
    assert f'File "{layers}", line {line}, in explode' in plain.stderr


def test_traceback_says_when_the_mend_changed_line_numbers(world):
    (world["root"] / "rows.py").write_text(
        "import torch\nfrom fakepkg.noisy import Noisy\nNoisy()(torch.ones(3, 2))\n")
    done = run(world, "run", "--packages", "fakepkg", "rows.py")
    assert done.returncode == 1
    noisy = str(world["package"] / "noisy.py")
    assert f'File "{noisy}", line' in done.stderr
    assert 'raise ValueError("three rows are not allowed")' in done.stderr  # the line that ran
    notes = [line for line in done.stderr.splitlines() if line.startswith("graphmend: line")]
    assert len(notes) == 1
    assert noisy in notes[0] and str(world["cache"] / "mended") in notes[0]


def test_ctrl_c_reaches_the_program(world):
    (world["root"] / "wait.py").write_text(textwrap.dedent("""\
        import time, fakepkg
        try:
            print("ready", flush=True)
            time.sleep(60)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            raise SystemExit(42)
        """))
    # as a terminal's foreground job: a shell without job control starts background commands
    # with SIGINT ignored, which Python (and so `graphmend run`, which execs it) keeps
    child = subprocess.Popen([binary_path(), "run", "--packages", "fakepkg", "wait.py"],
                             cwd=world["root"], env=world["env"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stdout.readline().strip() == "ready"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 42, err
    assert out.strip() == "interrupted"


PROFILE = textwrap.dedent("""\
    import torch

    from fakepkg.noisy import Noisy


    def graphmend_profile_entry():
        torch.manual_seed(0)
        return Noisy(), (torch.randn(4, 2),)
    """)


def test_profile_mends_the_packages_in_the_mended_arm_only(world):
    (world["root"] / "prof.py").write_text(PROFILE)
    before = snapshot(world["site"])
    done = run(world, "profile", "prof.py", "--packages", "fakepkg", "--unsafe-fixes",
               "--output-format", "json", "--iterations", "3", "--warmup", "1", "--backend",
               "aot_eager", timeout=400)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    original, mended = report["original"], report["mended"]
    assert original["breaks"] >= 1 and original["graphs"] > 1
    assert mended["graphs"] == 1 and mended["breaks"] == 0
    assert report["outputs_match"] is True
    assert snapshot(world["site"]) == before
    # without --packages the file itself has nothing to mend: nothing runs
    plain = run(world, "profile", "prof.py", "--output-format", "json")
    assert plain.returncode == 0
    assert "original" not in json.loads(plain.stdout)


def test_editor_profile_mends_the_packages_off_the_loop(world):
    """graphmend.profile with a packages argument: the packages are mended on the server's
    threadpool (the server keeps answering meanwhile), then only the mended arm imports them."""
    from lsp_client import LspClient

    (world["root"] / "prof.py").write_text(PROFILE)
    before = snapshot(world["site"])
    client = LspClient([binary_path(), "serve"], cwd=str(world["root"]), env=world["env"])
    try:
        client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}},
                       timeout=60)
        client.notify("initialized", {})
        uri = (world["root"] / "prof.py").as_uri()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": PROFILE}})
        options = {"python": PYTHON, "device": "cpu", "unsafeFixes": True, "iterations": 3,
                   "warmup": 1, "backend": "aot_eager", "packages": ["fakepkg"]}
        request_id = client.send_request("workspace/executeCommand",
                                         {"command": "graphmend.profile",
                                          "arguments": [uri, options]})
        # answered while the packages are being mended or profiled
        assert "result" in client.request("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}, timeout=30)
        response = client.wait_response(request_id, timeout=400)
        assert "error" not in response, response
        report = response["result"]
        assert report["original"]["graphs"] > 1
        assert report["mended"]["graphs"] == 1 and report["mended"]["breaks"] == 0
        assert report["outputs_match"] is True
        assert snapshot(world["site"]) == before
        # a package the interpreter does not have: a clear error, nothing runs
        options["packages"] = ["no_such_package_here"]
        failed = client.request("workspace/executeCommand", {
            "command": "graphmend.profile", "arguments": [uri, options]}, timeout=120)
        assert failed["error"]["code"] == -32803
        assert "no_such_package_here" in failed["error"]["message"]
        client.request("shutdown", None, timeout=10)
        client.notify("exit")
    finally:
        client.kill()

"""The cache of module summaries (.graphmend_cache): `check` gives the same findings with it
cold, warm and without it, on the corpus laid out as a project and on a project whose files
reach each other's code; an edit, a corrupted cache and a cache that is not graphmend's are
never trusted; the cache keeps itself out of git; --no-cache, --cache-dir and cache-dir in
pyproject.toml say where it goes or that there is none."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent.parent


def check(binary, cwd, *args):
    proc = subprocess.run([binary, "check", "--output-format", "json", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr
    assert "warning: could not write the cache" not in proc.stderr
    return sorted((f["filename"], f["location"]["row"], f["location"]["column"], f["code"],
                   f["message"]) for f in json.loads(proc.stdout))


def store_files(cache: pathlib.Path):
    return sorted(cache.glob("summaries-*.bin"))


@pytest.fixture
def corpus_project(tmp_path):
    project = tmp_path / "corpus-project"
    shutil.copytree(REPO / "tests" / "corpus", project / "corpus")
    (project / "pyproject.toml").write_text("[project]\nname = 'corpus'\n")
    return project


def test_the_corpus_gives_the_same_findings_without_the_cache_cold_and_warm(binary,
                                                                               corpus_project):
    first_file = sorted((corpus_project / "corpus").rglob("*.py"))[0]
    one = str(first_file.relative_to(corpus_project))
    # one file, as a pre-commit hook checks it: the rest of the project from the cache
    alone = check(binary, corpus_project, "--no-cache", one)
    assert not (corpus_project / ".graphmend_cache").exists()
    assert check(binary, corpus_project, one) == alone  # cold
    cache = corpus_project / ".graphmend_cache"
    assert len(store_files(cache)) == 1
    assert check(binary, corpus_project, one) == alone  # warm
    # the whole of it: every file's own analysis, the cache read for none or all of them
    without = check(binary, corpus_project, "--no-cache", "corpus")
    assert without, "the corpus has findings"
    assert check(binary, corpus_project, "corpus") == without
    assert check(binary, corpus_project, "corpus") == without


def write(path: pathlib.Path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


HELPER = "import torch\n\ndef norm(x):\n    {body}\n    return x / x.sum()\n"
MODEL = (
    "import torch\nfrom pkg.helpers import norm\n\n"
    "class Net(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        return norm(x)\n\n"
    "model = torch.compile(Net())\n"
)


@pytest.fixture
def linked_project(tmp_path):
    """pkg/helpers.py breaks the graph only because pkg/model.py's compiled forward calls it."""
    project = tmp_path / "linked"
    write(project / "pyproject.toml", "[project]\nname = 'linked'\n")
    write(project / "pkg" / "__init__.py", "")
    write(project / "pkg" / "helpers.py", HELPER.format(body="print('norm')"))
    write(project / "pkg" / "model.py", MODEL)
    return project


def test_a_file_reached_from_another_is_checked_alike_and_an_edit_is_seen(binary,
                                                                           linked_project):
    helpers = "pkg/helpers.py"
    without = check(binary, linked_project, "--no-cache", helpers)
    assert any(f[3] == "GM401" for f in without), without  # print, reached from model.py
    assert check(binary, linked_project, helpers) == without  # cold
    assert check(binary, linked_project, helpers) == without  # warm
    # the caller changes: its forward no longer calls norm, whose print then breaks no graph
    write(linked_project / "pkg" / "model.py", MODEL.replace("return norm(x)", "return x"))
    after = check(binary, linked_project, "--no-cache", helpers)
    assert after != without
    assert check(binary, linked_project, helpers) == after


def test_a_corrupted_or_foreign_cache_is_not_trusted_and_is_written_anew(binary,
                                                                         linked_project):
    helpers = "pkg/helpers.py"
    without = check(binary, linked_project, "--no-cache", helpers)
    check(binary, linked_project, helpers)
    cache = linked_project / ".graphmend_cache"
    [store] = store_files(cache)
    data = bytearray(store.read_bytes())
    for at in range(40, len(data), 7):  # every entry's bytes, header left whole
        data[at] ^= 0x5A
    store.write_bytes(bytes(data))
    assert check(binary, linked_project, helpers) == without
    assert store.read_bytes() != bytes(data), "the corrupted entries were replaced"
    assert check(binary, linked_project, helpers) == without
    store.write_bytes(b"\0" * 4096)
    assert check(binary, linked_project, helpers) == without
    store.write_bytes(b"")
    assert check(binary, linked_project, helpers) == without
    assert store.stat().st_size > 24


def test_the_cache_keeps_itself_out_of_git(binary, linked_project):
    if not shutil.which("git"):
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q"], cwd=linked_project, check=True)
    check(binary, linked_project, "pkg/helpers.py")
    cache = linked_project / ".graphmend_cache"
    assert (cache / ".gitignore").read_text().strip().endswith("*")
    assert (cache / "CACHEDIR.TAG").read_text().startswith(
        "Signature: 8a477f597d28d172789f06886806bc55")
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=linked_project, capture_output=True, text=True, check=True)
    assert ".graphmend_cache" not in status.stdout
    assert "pkg/helpers.py" in status.stdout


def test_cache_dir_on_the_command_line_and_in_pyproject(binary, linked_project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    check(binary, linked_project, "--cache-dir", str(elsewhere), "pkg/helpers.py")
    assert store_files(elsewhere) and not (linked_project / ".graphmend_cache").exists()
    write(linked_project / "pyproject.toml",
          "[project]\nname = 'linked'\n\n[tool.graphmend]\ncache-dir = 'build/gm-cache'\n")
    check(binary, linked_project, "pkg/helpers.py")
    assert store_files(linked_project / "build" / "gm-cache")
    assert not (linked_project / ".graphmend_cache").exists()
    check(binary, linked_project, "--no-cache", "pkg/helpers.py")


def test_a_cache_dir_that_cannot_be_made_leaves_the_run_without_one(binary, linked_project,
                                                                    tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    without = check(binary, linked_project, "--no-cache", "pkg/helpers.py")
    proc = subprocess.run([binary, "check", "--output-format", "json", "--cache-dir",
                           str(blocker / "cache"), "pkg/helpers.py"], cwd=linked_project,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert sorted((f["filename"], f["location"]["row"], f["location"]["column"], f["code"],
                   f["message"]) for f in json.loads(proc.stdout)) == without
    assert blocker.read_text() == "not a directory\n"


def test_a_bad_cache_dir_setting_is_an_error_that_says_so(binary, linked_project):
    write(linked_project / "pyproject.toml", "[tool.graphmend]\ncache-dir = true\n")
    proc = subprocess.run([binary, "check", "pkg/helpers.py"], cwd=linked_project,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "cache-dir must be a directory" in proc.stderr
    proc = subprocess.run([binary, "check", "--cache-dir"], cwd=linked_project,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--cache-dir needs a value" in proc.stderr


def test_a_file_rewritten_with_its_old_size_and_times_is_read_again(binary, linked_project):
    """A settled file is not read when its stat is the one recorded; one whose content changed
    behind the same size and modification time (restored by a tool) still is: its change time
    moved."""
    model = linked_project / "pkg" / "model.py"
    old = os.stat(model)
    past = old.st_mtime - 3600
    for path in linked_project.rglob("*.py"):
        os.utime(path, (past, past))
    helpers = "pkg/helpers.py"
    without = check(binary, linked_project, "--no-cache", helpers)
    assert check(binary, linked_project, helpers) == without  # records the stamps
    assert check(binary, linked_project, helpers) == without  # trusts them
    edited = MODEL.replace("return norm(x)", "return x + 00 ")
    assert len(edited) == len(MODEL)
    model.write_text(edited)
    os.utime(model, (past, past))
    after = check(binary, linked_project, "--no-cache", helpers)
    assert after != without
    assert check(binary, linked_project, helpers) == after

"""`graphmend profile --packages transformers` on examples/profile_packages_example.py, end to
end: the whole installed transformers 5.23.0 (about 2,900 modules) is mended into a private cache
and the tiny FSMT model compiles into fewer graphs in the mended arm, with the same outputs, while
no file of the installed package changes. transformers comes from the directory tools/setup
installs it into (or $GRAPHMEND_TRANSFORMERS_PATH); without it the test is skipped."""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO, binary_path

PYTHON = sys.executable
VERSION = "5.23.0"
SITE = os.environ.get("GRAPHMEND_TRANSFORMERS_PATH",
                      str(REPO / "build-sweep" / "env" / f"transformers-{VERSION}-plain"))
EXAMPLE = REPO / "examples" / "profile_packages_example.py"


def transformers_version():
    probe = subprocess.run([PYTHON, "-c", "import transformers; print(transformers.__version__)"],
                           env={**os.environ, "PYTHONPATH": SITE}, capture_output=True,
                           text=True, timeout=120)
    return probe.stdout.strip() if probe.returncode == 0 else None


def snapshot(directory):
    state = {}
    for folder, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(folder, name)
            st = os.stat(path)
            with open(path, "rb") as f:
                state[path] = (hash(f.read()), st.st_mtime_ns, st.st_mode)
    return state


def test_profile_with_transformers_mended_makes_fewer_graphs(tmp_path):
    found = transformers_version()
    if found != VERSION:
        pytest.skip(f"transformers {VERSION} is not importable from {SITE} (found: {found}); "
                    "tools/setup installs it there")
    package = os.path.join(SITE, "transformers")
    before = snapshot(package)
    env = {**os.environ, "PYTHONPATH": SITE, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "GRAPHMEND_PYTHON": PYTHON}
    done = subprocess.run(
        [binary_path(), "profile", str(EXAMPLE), "--packages", "transformers", "--unsafe-fixes",
         "--backend", "aot_eager", "--iterations", "3", "--warmup", "1", "--output-format",
         "json"], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    original, mended = report["original"], report["mended"]
    assert original["graphs"] == 3 and original["breaks"] == 2
    assert mended["graphs"] == 1 and mended["breaks"] == 0
    assert any("modeling_fsmt.py" in str(reason) for reason in original["break_reasons"])
    assert report["outputs_match"] is True
    assert "mended into the cache now" in done.stderr
    # content, mtime and mode of every installed file, and no file added (bytecode included)
    assert snapshot(package) == before

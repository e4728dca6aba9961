"""The summary cache on a real library laid out as its repository (diffusers 0.42.1 of the
sweep, `pyproject.toml` at the root, `src/diffusers/`): one model file checked with the cache
cold and warm gives exactly what it gives without the cache, and so does the whole of a smaller
library (torchode 1.0.1). The cache must never change a finding: it only saves parsing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
BINARY = os.environ.get("GRAPHMEND_BIN", str(REPO / "build" / "graphmend"))
SOURCES = REPO / "build-sweep" / "src"


def as_repository(tmp_path: Path, unpacked: str, package: str) -> Path:
    source = SOURCES / unpacked / package
    if not source.is_dir():
        pytest.fail(f"{source} is missing: tools/setup unpacks it")
    repo = tmp_path / unpacked
    shutil.copytree(source, repo / "src" / package,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (repo / "pyproject.toml").write_text(f"[project]\nname = '{package}'\n")
    return repo


def findings(repo: Path, *args: str) -> list:
    proc = subprocess.run([BINARY, "check", "--output-format", "json", *args], cwd=repo,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return sorted(json.dumps(f, sort_keys=True) for f in json.loads(proc.stdout))


def test_one_diffusers_file_alike_without_the_cache_cold_and_warm(tmp_path):
    repo = as_repository(tmp_path, "diffusers-0.42.1", "diffusers")
    one = "src/diffusers/models/unets/unet_2d_blocks.py"
    without = findings(repo, "--no-cache", one)
    assert without, "the file has findings"
    assert findings(repo, one) == without  # cold: the project summarised and stored
    assert list((repo / ".graphmend_cache").glob("summaries-*.bin"))
    assert findings(repo, one) == without  # warm: the project read from the cache


def test_the_whole_of_torchode_alike_without_the_cache_cold_and_warm(tmp_path):
    repo = as_repository(tmp_path, "torchode-1.0.1", "torchode")
    first = findings(repo, "src/torchode/interface.py")  # fills the cache for the tree's run
    assert first == findings(repo, "--no-cache", "src/torchode/interface.py")
    without = findings(repo, "--no-cache", "src/torchode")
    assert without
    assert findings(repo, "src/torchode") == without
    assert findings(repo, "src/torchode") == without

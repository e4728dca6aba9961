"""The benchmarks' repository maker (tests/bench/bench_repo.py, issue 38): the repository it lays
out holds no held-out model family, has a pyproject.toml and a git repository, and is reused."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from sweep.libraries.hf_transformers import HELD_OUT  # noqa: E402

_spec = importlib.util.spec_from_file_location("bench_repo", REPO / "tests/bench/bench_repo.py")
bench_repo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_repo)


def fake_source(root: pathlib.Path) -> pathlib.Path:
    """A package shaped like transformers: a kept family, every held-out family, a dist-info."""
    package = root / "transformers"
    (package / "models").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "models" / "__init__.py").write_text("")
    for family in ("qwen3", *sorted(HELD_OUT)):
        (package / "models" / family).mkdir()
        (package / "models" / family / f"modeling_{family}.py").write_text("import torch\n")
    (package / "models" / "qwen3" / "__pycache__").mkdir()
    (root / "transformers-9.9.9.dist-info").mkdir()
    return package


def test_leaves_out_every_held_out_family(tmp_path):
    source = fake_source(tmp_path / "site")
    dest = bench_repo.make(tmp_path / "repo", source)
    models = dest / "src" / "transformers" / "models"
    assert sorted(p.name for p in models.iterdir()) == ["__init__.py", "qwen3"]
    assert not any(part in HELD_OUT for p in dest.rglob("*") for part in p.parts)
    assert not list(dest.rglob("__pycache__"))
    pyproject = (dest / "pyproject.toml").read_text()
    assert 'name = "transformers"' in pyproject and 'version = "9.9.9"' in pyproject
    assert (dest / ".git").is_dir()
    bench_repo.check(dest)


def test_reused_and_refuses_a_foreign_folder(tmp_path):
    source = fake_source(tmp_path / "site")
    dest = bench_repo.make(tmp_path / "repo", source)
    (dest / ".graphmend_cache").mkdir()  # what a run leaves stays when the repository is reused
    assert bench_repo.make(dest, source) == dest
    assert (dest / ".graphmend_cache").is_dir()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        bench_repo.make(foreign, source)
    assert (foreign / "keep.txt").read_text() == "mine"


def test_check_finds_a_held_out_family(tmp_path):
    source = fake_source(tmp_path / "site")
    dest = bench_repo.make(tmp_path / "repo", source)
    family = min(HELD_OUT)
    (dest / "src/transformers/models" / family).mkdir()
    with pytest.raises(RuntimeError, match=family):
        bench_repo.check(dest)


def test_default_file_is_not_held_out():
    parts = pathlib.PurePosixPath(bench_repo.DEFAULT_FILE).parts
    assert parts[:3] == ("src", "transformers", "models") and parts[3] not in HELD_OUT

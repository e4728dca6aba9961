"""A real package laid out as its repository, for the benchmarks' repository case (issue 38):
transformers 5.23.0's source (from build-sweep/src, unpacked by tools/setup) copied to
DEST/src/transformers, a pyproject.toml at DEST and `git init`, as a user's clone of transformers
looks to `graphmend check` and to an editor opening DEST as its workspace folder.

The model families held out for the independent check (HELD_OUT of tests/sweep/libraries, issue
13) are never copied: the copy skips models/<family>/ for each of them by name, without opening
those folders, and make() checks afterwards that none is there.

    .venv/bin/python tests/bench/bench_repo.py DEST [--source DIR] [--force]   (tools/make-bench-repo)

A DEST made before from the same source and the same held-out list is reused as it is (the stamp
is in DEST/.git); anything else at DEST is replaced only with --force, or when it is a repository
this script made. What the tools leave in DEST (`.graphmend_cache/`, `.ruff_cache/`) stays.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import shutil
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

DEFAULT_SOURCE = REPO / "build-sweep/src/transformers-5.23.0/transformers"
# The files the single-file rows check. llama (the file of issue 38's report) is held out, so a
# family whose modeling file is generated from the same template, of the same size (515 lines,
# no findings); and one whose findings need the rest of the project (mvp, 1,629 lines: 3 findings
# checked outside any project, 11 inside it), where the editor's first diagnostics are refined
# once the workspace index completes.
DEFAULT_FILES = ("src/transformers/models/qwen3/modeling_qwen3.py",
                 "src/transformers/models/mvp/modeling_mvp.py")
DEFAULT_FILE = DEFAULT_FILES[0]
STAMP = ".git/graphmend-bench-repo.json"

PYPROJECT = """\
# Written by graphmend's tests/bench/bench_repo.py: transformers {version} laid out as its
# repository for the benchmarks' repository case (the held-out model families left out).
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "transformers"
version = "{version}"
requires-python = ">=3.10"

[tool.setuptools.packages.find]
where = ["src"]

# The same rules for ruff's server as for `ruff check --select ALL` in the CLI case.
[tool.ruff.lint]
select = ["ALL"]
"""


def held_out_families() -> frozenset[str]:
    from sweep.libraries import hf_transformers  # noqa: E402
    return frozenset(hf_transformers.HELD_OUT)


def _version(source: pathlib.Path) -> str:
    """The release from the dist-info beside the package (transformers-5.23.0.dist-info)."""
    for info in sorted(source.parent.glob(f"{source.name}-*.dist-info")):
        return info.name[len(source.name) + 1:-len(".dist-info")]
    return "0"


def _stamp(source: pathlib.Path, held_out: frozenset[str]) -> dict:
    return {"source": str(source.resolve()), "version": _version(source),
            "held_out": hashlib.sha256(" ".join(sorted(held_out)).encode()).hexdigest()}


def _ignore_held_out(source: pathlib.Path, held_out: frozenset[str]):
    models = (source / "models").resolve()

    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = {name for name in names if name in ("__pycache__", ".git")}
        if pathlib.Path(directory).resolve() == models:
            skipped |= {name for name in names if name in held_out}
        return skipped
    return ignore


def check(dest: pathlib.Path, held_out: frozenset[str] | None = None) -> None:
    """Raises when DEST is not a bench repository: no pyproject.toml, no .git, or a held-out
    family's folder present (the names under models/ are listed, never their contents)."""
    held_out = held_out_families() if held_out is None else held_out
    models = dest / "src/transformers/models"
    if not (dest / "pyproject.toml").is_file() or not (dest / ".git").is_dir():
        raise RuntimeError(f"{dest}: no pyproject.toml or .git")
    if not models.is_dir():
        raise RuntimeError(f"{dest}: no src/transformers/models")
    present = sorted({p.name for p in models.iterdir()} & held_out)
    if present:
        raise RuntimeError(f"{dest}: held-out families present: {', '.join(present)}")


def make(dest: pathlib.Path, source: pathlib.Path = DEFAULT_SOURCE, force: bool = False,
         held_out: frozenset[str] | None = None) -> pathlib.Path:
    """DEST laid out as transformers' repository (reused when made before from the same source
    and held-out list). Returns DEST."""
    held_out = held_out_families() if held_out is None else held_out
    if not (source / "__init__.py").is_file():
        raise FileNotFoundError(f"no package at {source} (run tools/setup, or pass --source)")
    dest = dest.resolve()
    stamp = _stamp(source, held_out)
    stamp_path = dest / STAMP
    if stamp_path.is_file():
        try:
            if json.loads(stamp_path.read_text()) == stamp:
                check(dest, held_out)
                return dest
        except (ValueError, RuntimeError):
            pass
        force = True  # one of ours, out of date
    if dest.exists():
        if not force and any(dest.iterdir()):
            raise FileExistsError(f"{dest} exists and is not a bench repository (--force)")
        shutil.rmtree(dest)
    package = dest / "src" / source.name
    shutil.copytree(source, package, ignore=_ignore_held_out(source, held_out))
    (dest / "pyproject.toml").write_text(PYPROJECT.format(version=stamp["version"]))
    (dest / ".gitignore").write_text("__pycache__/\n*.pyc\n")
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    check(dest, held_out)
    stamp_path.write_text(json.dumps(stamp))
    return dest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=pathlib.Path)
    parser.add_argument("--source", type=pathlib.Path, default=DEFAULT_SOURCE)
    parser.add_argument("--force", action="store_true",
                        help="replace whatever is at DEST")
    args = parser.parse_args()
    dest = make(args.dest, args.source, args.force)
    files = sum(1 for _ in (dest / "src").rglob("*.py"))
    print(f"{dest}: {files:,} .py files under src/ (held-out families left out)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What every test directory shares: running under pytest-xdist (tools/test runs each directory
with `-n 2`), the markers that say which tests must run alone, and which add nothing on a
sanitized build.

* Each xdist worker gets a temporary directory of its own for TMPDIR (the profile and confirm
  jobs' working directories, `graphmend-profile-*`, that tests look for there) and for
  XDG_CACHE_HOME (what the servers and commands remember between runs), removed when the worker
  ends; tests/e2e's conftest then gives each worker a cache of its own again, as for any run.
* Give `--dist loadgroup` with -n (tools/test does): an xdist_group then stays on one worker
  (the oracles' session fixtures run all their cases at once; under plain `-n` each worker
  would run them all again).
* @pytest.mark.serial: the test measures time or CPU time, or waits on a deadline, and must not
  share the machine's two cores with another test: tools/test runs these in a pytest call of
  their own without -n, after the parallel one (`-m "not serial"`, then `-m serial`).
* @pytest.mark.torch_only: the test checks torch (or committed files against torch), not the
  graphmend binary: it runs the binary not at all, or only for output that another test
  already pins exactly. It is skipped when GRAPHMEND_BIN is sanitized (tools/test's asan run):
  AddressSanitizer and UBSan watch graphmend's C code, and none of it runs there.
"""

from __future__ import annotations

import mmap
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
_WORKER_DIR: str | None = None


def binary_is_sanitized() -> bool:
    """Whether GRAPHMEND_BIN (default build/graphmend) was built with AddressSanitizer."""
    path = Path(os.environ.get("GRAPHMEND_BIN") or REPO / "build" / "graphmend")
    try:
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(b"__asan_init") >= 0
    except (OSError, ValueError):
        return False


def pytest_configure(config):
    # Test modules import the conftest of tests/e2e as `conftest` (tests/editors does, through
    # tests/e2e on sys.path): where this file is the one loaded under that name, let it go.
    if getattr(sys.modules.get("conftest"), "__file__", None) == __file__:
        del sys.modules["conftest"]
    config.addinivalue_line(
        "markers", "serial: measures time or waits on a deadline: run it alone, not under -n")
    config.addinivalue_line(
        "markers", "torch_only: checks torch, not the binary: skipped on a sanitized build")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        global _WORKER_DIR
        _WORKER_DIR = tempfile.mkdtemp(prefix=f"graphmend-test-{worker}-")
        for name, sub in (("TMPDIR", "tmp"), ("XDG_CACHE_HOME", "cache")):
            os.makedirs(os.path.join(_WORKER_DIR, sub))
            os.environ[name] = os.path.join(_WORKER_DIR, sub)
        os.environ.pop("GRAPHMEND_CACHE_DIR", None)  # it would win over XDG_CACHE_HOME
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again


def pytest_unconfigure(config):
    if _WORKER_DIR:
        shutil.rmtree(_WORKER_DIR, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    if not any(item.get_closest_marker("torch_only") for item in items):
        return
    if not binary_is_sanitized():
        return
    skip = pytest.mark.skip(reason="checks torch, not graphmend's C code: run on the plain "
                                   "build (GRAPHMEND_BIN is sanitized)")
    for item in items:
        if item.get_closest_marker("torch_only"):
            item.add_marker(skip)

"""The mend oracle: every fixture's original and mended versions under real torch 2.13 (CPU).
The mended one has fewer dynamo breaks (exactly the number the fixture states, 0 by default),
gives equal outputs eagerly and compiled on seeded inputs in eval mode, and, where its mends
are safe, equal gradients in training.

Only torch runs here: the original (case.in.py) and the mended version are the committed files,
and test_mend_fixtures.py checks that `graphmend fix` gives exactly that mended text, on every
build. So these tests are torch_only (tests/conftest.py): skipped on the sanitized build, where
they would run the same torch on the same files again. Under xdist they stay on one worker
(xdist_group): the session fixture below runs every pair at once, in processes of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from mend_lib import HERE, Fixture, discover

MENDED = [f for f in discover() if f.expected is not None]
pytestmark = [pytest.mark.torch_only, pytest.mark.xdist_group("mend-oracle")]


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> dict[str, dict]:
    pytest.importorskip("torch")
    jobs = max(1, min(int(os.environ.get("GM_ORACLE_JOBS", os.cpu_count() or 1)), len(MENDED)))
    chunks = [MENDED[i::jobs] for i in range(jobs)]
    out_dir = tmp_path_factory.mktemp("mend-oracle")

    def run(index: int, chunk: list[Fixture]) -> list[dict]:
        out = out_dir / f"chunk{index}.json"
        files = [str(p) for f in chunk for p in (f.source, f.expected)]
        proc = subprocess.run([sys.executable, str(HERE / "mend_runner.py"), str(out), *files],
                              capture_output=True, text=True, timeout=1800)
        if proc.returncode != 0:
            raise RuntimeError(f"mend_runner failed: {proc.stderr[-3000:]}")
        return json.loads(out.read_text())["pairs"]

    with ThreadPoolExecutor(jobs) as pool:
        results = [r for rs in pool.map(run, range(jobs), chunks) for r in rs]
    by_source = {r["original"]: r for r in results}
    before = sum(r["before"]["count"] for r in results if not r["error"])
    after = sum(r["after"]["count"] for r in results if not r["error"])
    removed = before - after
    print(f"\nmend oracle: fixtures={len(results)} breaks_before={before} breaks_after={after} "
          f"removed={removed} ({100.0 * removed / max(before, 1):.0f}%)")
    return by_source


@pytest.mark.parametrize("fixture", MENDED, ids=[f.name for f in MENDED])
def test_mend_removes_breaks_and_keeps_outputs(fixture: Fixture, runs):
    result = runs[os.path.realpath(fixture.source)]
    assert not result["error"], result["error"]
    before, after = result["before"], result["after"]
    assert before["count"] > 0, f"{fixture.name}: the original has no dynamo break"
    assert after["count"] < before["count"], f"{fixture.name}: {before} -> {after}"
    assert after["count"] == fixture.breaks_after, f"{fixture.name}: left {after}"
    assert result["outputs_equal"], f"{fixture.name}: eager outputs differ"
    assert result["compiled_outputs_equal"], f"{fixture.name}: compiled outputs differ"
    if fixture.applicability == "safe" and result["gradients_equal"] is not None:
        assert result["gradients_equal"], f"{fixture.name}: gradients differ in training"

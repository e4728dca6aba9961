"""Session fixtures of the corpus oracle and its summary line."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle_lib  # noqa: E402

_STATE: dict = {}


def _torch_available() -> bool:
    return importlib.util.find_spec("torch") is not None


@pytest.fixture(scope="session")
def dynamo_run() -> oracle_lib.DynamoRun:
    if "dynamo_error" in _STATE:
        pytest.fail(_STATE["dynamo_error"], pytrace=False)
    if "dynamo" not in _STATE:
        if not _torch_available():
            pytest.skip(
                "torch is not installed: .venv/bin/pip install -r tests/oracle/requirements.txt"
            )
        started = time.monotonic()
        try:
            run = oracle_lib.run_dynamo(oracle_lib.discover_cases())
        except RuntimeError as exc:
            _STATE["dynamo_error"] = str(exc)
            raise
        _STATE["dynamo_seconds"] = time.monotonic() - started
        if not run.torch_version.startswith(oracle_lib.TORCH_VERSION):
            _STATE["dynamo_error"] = (
                f"the corpus is verified against torch {oracle_lib.TORCH_VERSION}, "
                f"this environment has {run.torch_version}"
            )
            pytest.fail(_STATE["dynamo_error"], pytrace=False)
        _STATE["dynamo"] = run
    return _STATE["dynamo"]


@pytest.fixture(scope="session")
def graphmend_predictions() -> dict:
    if "graphmend_error" in _STATE:
        pytest.fail(_STATE["graphmend_error"], pytrace=False)
    if "graphmend" not in _STATE:
        try:
            _STATE["graphmend"] = oracle_lib.run_graphmend(oracle_lib.discover_files())
        except RuntimeError as exc:
            _STATE["graphmend_error"] = str(exc)
            pytest.fail(str(exc), pytrace=False)
    return _STATE["graphmend"]


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if "dynamo" not in _STATE and "graphmend" not in _STATE:
        return
    cases = oracle_lib.discover_files()
    expectations = {}
    for case in cases:
        try:
            expectations[oracle_lib.case_id(case)] = oracle_lib.parse_expectations(case)
        except ValueError:
            expectations[oracle_lib.case_id(case)] = set()
    predicted = _STATE.get("graphmend")
    if predicted is not None:
        predicted = {oracle_lib.case_id(case): oracle_lib.compared_predictions(
            oracle_lib.case_id(case), case, predicted.get(oracle_lib.case_id(case), set()))
            for case in cases}
    result = oracle_lib.score(expectations, predicted, _STATE.get("dynamo"))
    tr = terminalreporter
    tr.section("graphmend corpus oracle")
    run = _STATE.get("dynamo")
    if run is not None:
        tr.write_line(
            f"torch {run.torch_version}: dynamo run over {len(run.cases)} cases in "
            f"{_STATE.get('dynamo_seconds', 0.0):.1f}s"
        )
    tr.write_line(f"oracle: {result.line()}")
    try:
        gaps = oracle_lib.load_known_gaps()
    except ValueError:
        gaps = {}
    if gaps:
        tr.write_line(f"known gaps ({len(gaps)}, reported as xfail):")
        for path, reason in gaps.items():
            tr.write_line(f"  {path}: {reason}")

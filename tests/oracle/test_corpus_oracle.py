"""The corpus oracle: every case in tests/corpus is run under real
`torch._dynamo.explain` (torch 2.13, CPU, fp32, eval mode, seeded) and under
`graphmend check`.

* test_expectations_match_dynamo: the `# expect:` lines of a case are exactly the
  lines where dynamo breaks (innermost user frame in the case file); those of a support
  module (a corpus file without example() that cases import) are exactly the lines where
  the runs of the cases broke inside it.
* test_graphmend_matches_expectations: graphmend predicts exactly those
  (line, code) pairs. Cases listed in tests/corpus/known_gaps.txt are strict xfails.

Run:  .venv/bin/python -m pytest tests/oracle -q

test_expectations_match_dynamo checks the corpus against torch alone (graphmend does not run in
it): it is torch_only (tests/conftest.py), skipped on the sanitized build, where
test_graphmend_matches_expectations still checks the binary's predictions. Under xdist it stays
on one worker (xdist_group): its session fixture runs dynamo over the whole corpus at once, in
processes of its own.
"""

from __future__ import annotations

import pytest

import oracle_lib

CASES = oracle_lib.discover_files()  # cases and the support modules they import
IDS = [oracle_lib.case_id(c) for c in CASES]


def _describe(result: dict) -> str:
    rows = [
        f"  line {b['line']}: [{b['source']}] {b['reason']}"
        + (" (frame skipped)" if b.get("frame_skipped") else "")
        for b in result["breaks"]
    ]
    return "\n".join(rows) or "  (no breaks)"


def test_corpus_is_not_empty():
    assert CASES, f"no cases under {oracle_lib.CORPUS}"


def test_known_gaps_list_is_valid():
    gaps = oracle_lib.load_known_gaps()
    unknown = sorted(set(gaps) - set(IDS))
    assert not unknown, f"known_gaps.txt names cases that do not exist: {unknown}"


@pytest.mark.torch_only
@pytest.mark.xdist_group("dynamo")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_expectations_match_dynamo(case, dynamo_run):
    cid = oracle_lib.case_id(case)
    expected_lines = {line for line, _ in oracle_lib.parse_expectations(case)}
    result = dynamo_run.cases[cid]
    if result["error"]:
        pytest.fail(f"{cid}: running the case failed:\n{result['error']}", pytrace=False)
    unattributed = [b for b in result["breaks"] if b["line"] is None]
    assert not unattributed, (
        f"{cid}: dynamo reported breaks with no frame in the corpus:\n{_describe(result)}"
    )
    dynamo_lines = set(result["lines"])
    assert expected_lines == dynamo_lines, (
        f"{cid}: expectations disagree with torch {dynamo_run.torch_version}\n"
        f"  expected lines: {sorted(expected_lines)}\n"
        f"  dynamo lines:   {sorted(dynamo_lines)}\n{_describe(result)}"
    )


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_graphmend_matches_expectations(case, graphmend_predictions, request):
    cid = oracle_lib.case_id(case)
    gaps = oracle_lib.load_known_gaps()
    if cid in gaps:
        request.applymarker(pytest.mark.xfail(strict=True, reason=f"known gap: {gaps[cid]}"))
    expected = oracle_lib.parse_expectations(case)
    conditional = oracle_lib.parse_conditional_expectations(case)
    missing_conditions = conditional - oracle_lib.CONDITIONAL_PREDICTIONS.get(cid, set())
    assert not missing_conditions, (
        f"{cid}: graphmend makes no conditional finding at {sorted(missing_conditions)}")
    predicted = oracle_lib.compared_predictions(cid, case, graphmend_predictions.get(cid, set()))
    assert predicted == expected, (
        f"{cid}: graphmend disagrees with the expectations\n"
        f"  missed (false negatives): {sorted(expected - predicted)}\n"
        f"  extra (false positives):  {sorted(predicted - expected)}"
    )

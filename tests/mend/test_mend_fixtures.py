"""Every mend fixture: `graphmend fix` turns case.in.py into exactly case.out.py, mending twice
changes nothing, the result parses, the mends carry the stated applicability, fix without
--unsafe-fixes applies only safe ones, and declined mends state their reason."""

from __future__ import annotations

import ast
import shutil

import pytest

from mend_lib import Fixture, about, check_json, discover, fix_copy

FIXTURES = discover()


def _ids(fixtures):
    return [f.name for f in fixtures]


MENDED = [f for f in FIXTURES if f.expected is not None]
DECLINED = [f for f in FIXTURES if f.expected is None]


def test_every_fixture_is_complete():
    assert FIXTURES, "no fixtures under tests/mend"
    for f in FIXTURES:
        if f.expected is None:
            assert f.declined, f"{f.name}: no .out.py and no mend-declined directive"
        else:
            assert f.applicability, f"{f.name}: mend-applicability missing"


@pytest.mark.parametrize("fixture", MENDED, ids=_ids(MENDED))
def test_fix_gives_expected_text(fixture: Fixture, tmp_path):
    mended, _ = fix_copy(fixture, tmp_path)
    expected = fixture.expected.read_text(encoding="utf-8")
    assert mended == expected, f"{fixture.name}: fix output differs from {fixture.expected.name}"
    ast.parse(mended)
    second = tmp_path / "second"
    second.mkdir()
    shutil.copyfile(tmp_path / "case.py", second / "in.py")
    twice, _ = fix_copy(fixture, second, source=second / "in.py")
    assert twice == mended, f"{fixture.name}: mending twice changed the text again"


@pytest.mark.parametrize("fixture", MENDED, ids=_ids(MENDED))
def test_mends_have_stated_applicability(fixture: Fixture, tmp_path):
    shutil.copyfile(fixture.source, tmp_path / "case.py")
    findings = [f for f in check_json(tmp_path / "case.py") if about(fixture, f)]
    mends = [f["fix"] for f in findings if f["fix"]]
    assert mends, f"{fixture.name}: no finding offers a mend"
    assert {m["applicability"] for m in mends} == {fixture.applicability}
    for m in mends:
        assert m["message"].startswith("Mend graph break: "), m["message"]


@pytest.mark.parametrize("fixture", MENDED, ids=_ids(MENDED))
def test_plain_fix_applies_safe_mends_only(fixture: Fixture, tmp_path):
    mended, _ = fix_copy(fixture, tmp_path, extra=[])
    original = fixture.source.read_text(encoding="utf-8")
    if fixture.applicability == "safe":
        assert mended == fixture.expected.read_text(encoding="utf-8")
    else:
        assert mended == original, f"{fixture.name}: plain fix applied a non-safe mend"


@pytest.mark.parametrize("fixture", DECLINED, ids=_ids(DECLINED))
def test_declined_mend_states_reason(fixture: Fixture, tmp_path):
    mended, _ = fix_copy(fixture, tmp_path, extra=["--unsafe-fixes"])
    assert mended == fixture.source.read_text(encoding="utf-8"), f"{fixture.name}: changed"
    findings = [f for f in check_json(tmp_path / "case.py") if about(fixture, f)]
    assert findings, f"{fixture.name}: no finding"
    reasons = [f.get("mend_declined") or "" for f in findings
               if not f["fix"] or f["fix"]["applicability"] == "display-only"]
    assert any(fixture.declined in r for r in reasons), (
        f"{fixture.name}: no declined reason contains {fixture.declined!r}: {reasons}")


def _offsets(text: str, edit: dict) -> tuple[int, int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def at(loc):
        return starts[loc["row"] - 1] + loc["column"] - 1

    return at(edit["location"]), at(edit["end_location"])


@pytest.mark.parametrize("fixture", MENDED, ids=_ids(MENDED))
def test_all_mends_of_a_file_fit_together(fixture: Fixture, tmp_path):
    """The mends a file offers (one per finding) can be applied at once: no two edits of
    different findings overlap, unless they are the same edit (a shared insertion) or both
    insert whole lines at the start of the same line (the functions the safe [Defer] mend adds
    after the imports, which stand in either order)."""
    shutil.copyfile(fixture.source, tmp_path / "case.py")
    text = fixture.source.read_text(encoding="utf-8")
    spans = []
    for finding in check_json(tmp_path / "case.py"):
        fix = finding["fix"]
        if not fix or fix["applicability"] == "display-only":
            continue
        for edit in fix["edits"]:
            spans.append((*_offsets(text, edit), edit["content"], finding["location"]["row"]))
    spans.sort()
    for (s1, e1, c1, r1), (s2, e2, c2, r2) in zip(spans, spans[1:]):
        if (s1, e1, c1) == (s2, e2, c2):
            continue
        if (s1 == e1 == s2 == e2 and (s1 == 0 or text[s1 - 1] == "\n") and
                c1.endswith("\n") and c2.endswith("\n")):
            continue
        assert e1 <= s2 and not (s1 == e1 == s2 and r1 != r2 and c1 != c2), (
            f"{fixture.name}: edits of the findings on lines {r1} and {r2} overlap")

"""Quick fixes and fix-all: inline edits that, applied by the client, make findings go away."""

import ast
import pathlib
import re

import pytest

from lsp_client import range_of
from samples import CLEAN, MODEL, MODEL_FINDINGS, NON_ASCII, NON_ASCII_STMT, PRINT_ONLY


def find(diagnostics, code):
    found = [d for d in diagnostics if d["code"] == code]
    assert found, f"no {code} in {diagnostics}"
    return found[0]


def titled(actions, prefix):
    found = [a for a in actions if a["title"].startswith(prefix)]
    assert len(found) == 1, f"expected one action titled {prefix!r} in {[a['title'] for a in actions]}"
    return found[0]


def check_edit_shape(session, action, uri):
    edit = action["edit"]
    if session.uses_document_changes:
        assert "documentChanges" in edit, edit
        for dc in edit["documentChanges"]:
            assert dc["textDocument"]["uri"] == uri
            assert dc["textDocument"]["version"] == session.docs[uri]["version"]
    else:
        assert "changes" in edit and "documentChanges" not in edit, edit
        assert list(edit["changes"]) == [uri]


def test_print_quickfixes(session):
    uri = session.open("model.py", MODEL)
    diagnostics = session.diagnostics(uri)
    d = find(diagnostics, "GM401")
    actions = session.code_actions(uri, d["range"], [d])
    assert actions and all(a["kind"] == "quickfix" for a in actions), actions
    suppress = titled(actions, "Suppress GM401 on this line")
    mend = titled(actions, "Mend GM401 (unsafe): run the call only in eager mode")
    assert not mend.get("isPreferred", False)  # unsafe: never preferred
    for action in (suppress, mend):
        assert "command" not in action or "edit" in action
        check_edit_shape(session, action, uri)
        if "diagnostics" in action:
            assert action["diagnostics"][0]["code"] == "GM401"


@pytest.mark.parametrize("title", ["Suppress GM401 on this line",
                                   "Mend GM401 (unsafe): run the call only in eager mode"])
def test_applying_a_print_quickfix_removes_that_diagnostic(session, title):
    uri = session.open("model.py", MODEL)
    diagnostics = session.diagnostics(uri)
    d = [x for x in diagnostics if x["code"] == "GM401"][0]
    action = titled(session.code_actions(uri, d["range"], [d]), title)
    session.apply_action(uri, action)
    text = session.text(uri)
    ast.parse(text)  # still valid Python
    after = session.diagnostics(uri)
    assert [x["code"] for x in after].count("GM401") == 1  # only the other print remains
    assert all(x["code"] != "GM001" for x in after)
    assert len(after) == len(MODEL_FINDINGS) - 1
    if title.startswith("Suppress"):
        assert "graphmend: ignore[GM401]" in text


def test_suppress_data_dependent_branch(session):
    uri = session.open("model.py", MODEL)
    d = find(session.diagnostics(uri), "GM101")
    actions = session.code_actions(uri, d["range"], [d])
    suppress = titled(actions, "Suppress GM101 on this line")
    check_edit_shape(session, suppress, uri)
    session.apply_action(uri, suppress)
    ast.parse(session.text(uri))
    after = session.diagnostics(uri)
    assert len(after) == len(MODEL_FINDINGS) - 1
    assert not [x for x in after if x["range"]["start"]["line"] == d["range"]["start"]["line"]]


def test_actions_without_context_diagnostics(session):
    uri = session.open("print.py", PRINT_ONLY)
    [d] = session.diagnostics(uri)
    actions = session.code_actions(uri, d["range"], [])
    titled(actions, "Suppress GM401 on this line")
    titled(actions, "Mend GM401 (unsafe): run the call only in eager mode")


def test_actions_for_a_cursor_inside_the_range(session):
    uri = session.open("print.py", PRINT_ONLY)
    [d] = session.diagnostics(uri)
    pos = {"line": d["range"]["start"]["line"], "character": d["range"]["start"]["character"] + 2}
    actions = session.code_actions(uri, {"start": pos, "end": pos}, [])
    titled(actions, "Suppress GM401 on this line")


def test_no_quickfixes_away_from_findings(session):
    uri = session.open("print.py", PRINT_ONLY)
    session.diagnostics(uri)
    actions = session.code_actions(uri, {"start": {"line": 0, "character": 0},
                                         "end": {"line": 0, "character": 5}}, [])
    assert [a for a in actions if a.get("kind") == "quickfix"] == []


def test_suppress_after_non_ascii_text(session):
    # The print follows "é😀" on its line (after a ";"): the comment goes at the line's end.
    uri = session.open("nonascii.py", NON_ASCII)
    [d] = session.diagnostics(uri)
    action = titled(session.code_actions(uri, d["range"], [d]), "Suppress GM401 on this line")
    session.apply_action(uri, action)
    ast.parse(session.text(uri))
    assert session.diagnostics(uri) == []
    assert session.text(uri).split("\n")[5].startswith(NON_ASCII.split("\n")[5])


@pytest.mark.parametrize("title", ["Suppress GM401 on this line",
                                   "Mend GM401 (unsafe): run the call only in eager mode"])
def test_quickfix_with_non_ascii_text(session, title):
    uri = session.open("nonascii.py", NON_ASCII_STMT)
    [d] = session.diagnostics(uri)
    action = titled(session.code_actions(uri, d["range"], [d]), title)
    session.apply_action(uri, action)
    text = session.text(uri)
    ast.parse(text)
    assert session.diagnostics(uri) == []
    assert 'print("é😀", x)' in text and "# ü😀" in text


def test_fix_all_returns_no_quickfixes(session):
    uri = session.open("model.py", MODEL)
    session.diagnostics(uri)
    whole = {"start": {"line": 0, "character": 0},
             "end": {"line": MODEL.count("\n"), "character": 0}}
    actions = session.code_actions(uri, whole, [], only=["source.fixAll"])
    assert all(a["kind"] == "source.fixAll.graphmend" for a in actions), actions
    for action in actions:
        check_edit_shape(session, action, uri)
        session.apply_action(uri, action)
        ast.parse(session.text(uri))
        # Fix-all applies safe mends only: the unsafe print mend is not part of it.
        assert session.text(uri).count("print(") == MODEL.count("print(")


def test_fix_all_without_safe_mends_is_empty(session):
    uri = session.open("print.py", PRINT_ONLY)
    [d] = session.diagnostics(uri)
    assert session.code_actions(uri, d["range"], [d], only=["source.fixAll"]) == []
    assert session.code_actions(uri, d["range"], [], only=["source.fixAll.graphmend"]) == []


def test_only_quickfix_returns_no_source_actions(session):
    uri = session.open("model.py", MODEL)
    d = find(session.diagnostics(uri), "GM401")
    actions = session.code_actions(uri, d["range"], [d], only=["quickfix"])
    assert actions and all(a["kind"] == "quickfix" for a in actions)


def test_clean_file_has_no_actions(session):
    uri = session.open("clean.py", CLEAN)
    assert session.diagnostics(uri) == []
    rng = range_of(CLEAN, "return x * 2", session.encoding)
    assert [a for a in session.code_actions(uri, rng, []) if a.get("kind") == "quickfix"] == []



def test_fix_all_takes_unsafe_mends_with_the_unsafe_fixes_setting(servers, client_name):
    session = servers.session(client_name, config={"graphmend": {"unsafeFixes": True}})
    uri = session.open("print.py", PRINT_ONLY)
    d = session.diagnostics(uri)[0]
    [action] = session.code_actions(uri, d["range"], [], only=["source.fixAll.graphmend"])
    assert action["title"] == "Mend all graph breaks (unsafe too)"
    session.apply_action(uri, action)
    text = session.text(uri)
    assert text != PRINT_ONLY
    ast.parse(text)


MEND_FIXTURES = sorted((pathlib.Path(__file__).parents[1] / "mend").glob("*/*.in.py"))
SETTING_SUGGESTED = '''\
import torch


@torch.compile
def used_experts(expert_ids, weights):
    used = torch.unique(expert_ids)
    return weights[used].sum() * 2
'''
MEND_TITLE = re.compile(r"Mend (GM\d{3})( \((unsafe|setting)\))?: \S.*")


def test_quickfix_titles_are_short_and_say_rule_and_risk(servers):
    """Menus cut long titles: each names the rule and marks an unsafe mend, under 60 characters;
    the full sentence is the hover's."""
    session = servers.session("vscode")
    seen = set()
    texts = [(f.name, f.read_text()) for f in MEND_FIXTURES] + [("setting", SETTING_SUGGESTED)]
    for number, (name, text) in enumerate(texts):
        uri = session.open(f"fixture_{number}.py", text)
        for d in session.diagnostics(uri):
            for action in session.code_actions(uri, d["range"], [d], only=["quickfix"]):
                title = action["title"]
                assert len(title) <= 60, (name, title)
                if not title.startswith("Mend "):
                    continue
                match = MEND_TITLE.fullmatch(title)
                assert match, (name, title)
                assert match[1] == action["diagnostics"][0]["code"], (name, action)
                # the server prefers exactly the safe mends: those without a marker
                assert action.get("isPreferred", False) == (match[2] is None), (name, action)
                seen.add(match[3])
    assert {None, "unsafe", "setting"} <= seen, seen

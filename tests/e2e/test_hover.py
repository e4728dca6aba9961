"""Hover on a finding explains it; elsewhere there is nothing."""

import re

from conftest import run_cli
from lsp_client import position_of, range_of
from samples import MODEL, NON_ASCII, NON_ASCII_PRINT, PRINT_ONLY


def hover(session, uri, pos):
    return session.client.result("textDocument/hover", {"textDocument": {"uri": uri},
                                                        "position": pos})


def check_contents(result, code, diagnostic):
    assert result is not None
    contents = result["contents"]
    assert contents["kind"] == "markdown"
    value = contents["value"]
    assert code in value
    links = re.findall(r"https://[^\s)\]>]+", value)
    assert links, value
    if "codeDescription" in diagnostic:
        assert diagnostic["codeDescription"]["href"] in value
    # An explanation, not just the id and a link.
    prose = re.sub(r"https://\S+", "", value).replace(code, "")
    assert len(re.findall(r"[A-Za-z]{3,}", prose)) >= 5, value
    if "range" in result:
        assert result["range"] == diagnostic["range"]


def test_hover_on_each_finding(session):
    uri = session.open("model.py", MODEL)
    diagnostics = session.diagnostics(uri)
    assert diagnostics
    for d in diagnostics:
        start = d["range"]["start"]
        inside = {"line": start["line"], "character": start["character"] + 1}
        check_contents(hover(session, uri, inside), d["code"], d)
        check_contents(hover(session, uri, start), d["code"], d)


def test_hover_texts_differ_by_rule(session):
    uri = session.open("model.py", MODEL)
    diagnostics = session.diagnostics(uri)
    by_code = {}
    for d in diagnostics:
        by_code[d["code"]] = hover(session, uri, d["range"]["start"])["contents"]["value"]
    assert set(by_code) == {"GM101", "GM401"}
    assert by_code["GM101"] != by_code["GM401"]
    assert "GM401" not in by_code["GM101"]


def test_hover_elsewhere_is_null(session):
    uri = session.open("model.py", MODEL)
    session.diagnostics(uri)
    for needle in ("import torch", "super().__init__()", 'print("building")', "x.shape[0]",
                   "return self.lin(x)"):
        assert hover(session, uri, position_of(MODEL, needle, session.encoding, offset=1)) \
            is None, needle


def test_hover_after_non_ascii_in_encoding_units(session):
    uri = session.open("nonascii.py", NON_ASCII)
    [d] = session.diagnostics(uri)
    enc = session.encoding
    # The first character of the call and the emoji inside it are in the range ...
    check_contents(hover(session, uri, position_of(NON_ASCII, NON_ASCII_PRINT, enc)), "GM401", d)
    check_contents(hover(session, uri, position_of(NON_ASCII, "😀", enc, occurrence=1)),
                   "GM401", d)
    # ... and the ";" just before the call is not. A server that reads the column in another
    # unit than the negotiated one gets at least one of these three wrong.
    assert hover(session, uri, position_of(NON_ASCII, ";", enc)) is None


def test_hover_on_unopened_document_is_null_or_error(session):
    response = session.client.request("textDocument/hover", {
        "textDocument": {"uri": session.uri("never_opened.py")},
        "position": {"line": 0, "character": 0}})
    assert response.get("result") is None
    if "error" in response:
        assert response["error"]["code"] in (-32602, -32603, -32803)


def test_hover_names_each_mend_or_why_there_is_none(session):
    uri = session.open("model.py", MODEL)
    diagnostics = session.diagnostics(uri)
    for d in diagnostics:
        start = d["range"]["start"]
        value = hover(session, uri, start)["contents"]["value"]
        actions = session.code_actions(uri, d["range"], [d])
        mends = [a["title"] for a in actions
                 if a["title"].startswith("Mend " + d["code"]) and a["diagnostics"][0] == d]
        for title in mends:
            assert title in value, (title, value)
        if not mends:
            assert "No mend:" in value, value


def paragraphs(value):
    return [p for p in value.split("\n\n") if p.strip()]


def test_hover_leads_with_the_mend_then_why(session):
    """The first thing read is what to do: the quick fix (its rule and risk, and in full what it
    changes), not the diagnostic's message, which the editor shows already; then why it breaks,
    then the reference."""
    uri = session.open("print.py", PRINT_ONLY)
    [d] = session.diagnostics(uri)
    value = hover(session, uri, d["range"]["start"])["contents"]["value"]
    mends = [a for a in session.code_actions(uri, d["range"], [d], only=["quickfix"])
             if a["title"].startswith("Mend ")]
    assert len(mends) >= 2, mends  # defer after the graph, or run only in eager mode
    mend = mends[0]
    lead = paragraphs(value)[0]
    for other, paragraph in zip(mends, paragraphs(value)):
        assert paragraph.startswith(f"**{other['title']}.** "), value
    assert mend["title"].startswith("Mend GM401 (unsafe): "), mend
    assert "reorderable_logging_functions" in lead, lead  # in full, what it changes
    assert d["message"] not in lead, value
    assert value.index("**Why it breaks**") > value.index(mend["title"]), value
    assert d["message"] in value, value  # below, with the explanation
    assert value.index("graph-break reference") > value.index("**Why it breaks**"), value


def test_hover_without_a_mend_leads_with_the_reason_and_what_to_do(session):
    uri = session.open("model.py", MODEL)
    loop = [d for d in session.diagnostics(uri)
            if d["range"] == range_of(MODEL, "y.max() > 1", session.encoding)]
    assert loop, "the while loop's GM101"
    actions = session.code_actions(uri, loop[0]["range"], loop, only=["quickfix"])
    assert not [a for a in actions if a["title"].startswith("Mend ")], actions
    value = hover(session, uri, loop[0]["range"]["start"])["contents"]["value"]
    lead = paragraphs(value)
    assert lead[0].startswith("**No mend:** "), value
    assert lead[1].startswith("**What you can do:** "), value
    assert lead[2].startswith("**Why it breaks** (GM101"), value


OPERAND_FROM_A_SUBMODULE = '''\
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        h = self.lin(x)
        if h.mean() > 0:
            h = h * 2
        return h
'''


def test_message_and_hover_say_why_the_operand_is_a_tensor(session):
    """The Problems panel names the construct as written and the operand taken for a tensor with
    the reason; the hover carries the same sentence under "Why it breaks"."""
    uri = session.open("gate.py", OPERAND_FROM_A_SUBMODULE)
    [d] = [d for d in session.diagnostics(uri) if d["code"] == "GM101"]
    assert d["message"].startswith(
        "`if h.mean() > 0` on a tensor value (`h` is a tensor because it is assigned "
        "`self.lin(x)`): "), d["message"]
    value = hover(session, uri, d["range"]["start"])["contents"]["value"]
    why = value[value.index("**Why it breaks**"):]
    assert "`h` is a tensor because it is assigned `self.lin(x)`" in why, value


def rule_sections(binary, code):
    """The "Why it breaks the graph" and "How to fix" sections of `graphmend rule CODE`."""
    out = run_cli(binary, "rule", code).stdout.decode()
    why = out.split("## Why it breaks the graph\n\n", 1)[1].split("\n\n## ", 1)[0].strip()
    fix = out.split("## How to fix\n\n", 1)[1].split("\n\n## ", 1)[0].strip()
    return why, fix


def test_hover_and_rule_command_explain_alike(session, binary):
    """What the hover says of a rule, why it breaks and what to do by hand, is what `graphmend
    rule` prints for it: one catalogue, two views."""
    uri = session.open("model.py", MODEL)
    seen = set()
    for d in session.diagnostics(uri):
        if d["code"] in seen:
            continue
        seen.add(d["code"])
        value = hover(session, uri, d["range"]["start"])["contents"]["value"]
        why, fix = rule_sections(binary, d["code"])
        assert why in value, (d["code"], value)
        assert fix in value, (d["code"], value)
    assert seen >= {"GM101", "GM401"}, seen

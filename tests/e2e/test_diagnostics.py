"""Diagnostics through each recorded client: push or pull, positions in the negotiated encoding,
and documents edited incrementally."""

import pytest

from lsp_client import position_of, range_of, text_in_range, units
from samples import (ALIASED, ALIASED_FINDINGS, CLEAN, MODEL, MODEL_FINDINGS, NON_ASCII,
                     NON_ASCII_PRINT, SUPPRESSED, SYNTAX_ERROR, VARIANTS, VARIANTS_FINDINGS)


def expected(text, findings, encoding):
    return sorted((code, _key(range_of(text, needle, encoding, occ)))
                  for code, needle, occ in findings)


def _key(rng):
    return (rng["start"]["line"], rng["start"]["character"],
            rng["end"]["line"], rng["end"]["character"])


def got(diagnostics):
    return sorted((d["code"], _key(d["range"])) for d in diagnostics)


def check_shape(session, diagnostic):
    assert diagnostic["source"] == "graphmend"
    assert isinstance(diagnostic["message"], str) and diagnostic["message"].strip()
    if diagnostic["code"] == "GM001":
        assert diagnostic["severity"] == 1
    else:
        assert diagnostic["severity"] == 2
    publish = session.capabilities["textDocument"].get("publishDiagnostics", {})
    # Every rule that has a PyTorch graph-break reference page links to it; GM001 (syntax error)
    # has none and must not invent one.
    if publish.get("codeDescriptionSupport") and diagnostic["code"] != "GM001":
        assert "codeDescription" in diagnostic, diagnostic
    if diagnostic["code"] == "GM001":
        assert "codeDescription" not in diagnostic, diagnostic
    if "codeDescription" in diagnostic:
        assert diagnostic["codeDescription"]["href"].startswith("https://")


def test_findings_and_ranges(session):
    uri = session.open("model.py", MODEL)
    diagnostics = session.diagnostics(uri)
    assert got(diagnostics) == expected(MODEL, MODEL_FINDINGS, session.encoding)
    for d in diagnostics:
        check_shape(session, d)
    # Each range covers exactly the offending source text.
    texts = sorted(text_in_range(MODEL, d["range"], session.encoding) for d in diagnostics)
    assert texts == sorted(needle for _, needle, _ in MODEL_FINDINGS)


def test_aliased_compile_with_arguments(session):
    uri = session.open("aliased.py", ALIASED)
    assert got(session.diagnostics(uri)) == expected(ALIASED, ALIASED_FINDINGS,
                                                     session.encoding)


def test_region_and_suppression_spellings(session):
    uri = session.open("variants.py", VARIANTS)
    assert got(session.diagnostics(uri)) == expected(VARIANTS, VARIANTS_FINDINGS,
                                                     session.encoding)


def test_clean_file_has_no_diagnostics(session):
    uri = session.open("clean.py", CLEAN)
    assert session.diagnostics(uri) == []


def test_suppression_comment(session):
    uri = session.open("suppressed.py", SUPPRESSED)
    assert got(session.diagnostics(uri)) == expected(SUPPRESSED, [("GM401", 'print("b")', 0)],
                                                     session.encoding)


def test_syntax_error_is_reported(session):
    uri = session.open("broken.py", SYNTAX_ERROR)
    diagnostics = session.diagnostics(uri)
    errors = [d for d in diagnostics if d["code"] == "GM001"]
    assert errors, diagnostics
    for d in errors:
        check_shape(session, d)
        assert d["range"]["start"]["line"] in (5, 6)  # at the if without its colon


def test_non_ascii_columns_in_negotiated_encoding(session):
    uri = session.open("nonascii.py", NON_ASCII)
    [d] = session.diagnostics(uri)
    assert d["code"] == "GM401"
    line = NON_ASCII.split("\n")[5]
    start_chars = line.index("print")
    assert d["range"] == {
        "start": {"line": 5, "character": units(line[:start_chars], session.encoding)},
        "end": {"line": 5, "character": units(line[:start_chars + len(NON_ASCII_PRINT)],
                                              session.encoding)}}
    assert text_in_range(NON_ASCII, d["range"], session.encoding) == NON_ASCII_PRINT


def test_push_or_pull_as_the_client_declares(session):
    uri = session.open("model.py", MODEL)
    client = session.client
    if session.pulls:
        result = client.result("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        assert result["kind"] == "full" and len(result["items"]) == len(MODEL_FINDINGS)
        client.barrier()
        assert client.notifications("textDocument/publishDiagnostics") == []
    else:
        message = client.wait_notification("textDocument/publishDiagnostics",
                                           lambda p: p["uri"] == uri)
        assert message["params"]["version"] == 1
        assert len(message["params"]["diagnostics"]) == len(MODEL_FINDINGS)


def test_inserted_lines_shift_ranges(session):
    uri = session.open("model.py", MODEL)
    before = got(session.diagnostics(uri))
    session.change(uri, [{"range": {"start": {"line": 0, "character": 0},
                                    "end": {"line": 0, "character": 0}},
                          "text": "# one\n# two\n"}])
    after = got(session.diagnostics(uri))
    shifted = [(code, (a + 2, b, c + 2, d)) for code, (a, b, c, d) in before]
    assert after == shifted
    assert after == expected(session.text(uri), MODEL_FINDINGS, session.encoding)


def test_several_changes_in_one_notification_apply_in_order(session):
    uri = session.open("model.py", MODEL)
    session.diagnostics(uri)
    enc = session.encoding
    text = session.text(uri)
    # Change 1 inserts a line at the top; change 2's range is only right in the text that
    # change 1 left (the forward print moved down by one line); change 3 edits what change 2
    # inserted.
    first = {"range": {"start": {"line": 0, "character": 0},
                       "end": {"line": 0, "character": 0}}, "text": "# header\n"}
    after_first = "# header\n" + text
    second = {"range": range_of(after_first, "print(x)", enc), "text": "y = 1"}
    after_second = after_first.replace("print(x)", "y = 1", 1)
    third = {"range": range_of(after_second, "y = 1", enc), "text": "y = 2"}
    session.change(uri, [first, second, third])
    assert "y = 2" in session.text(uri)
    assert session.text(uri).count("print(x)") == MODEL.count("print(x)") - 1
    remaining = [f for f in MODEL_FINDINGS if f[1] != "print(x)"]
    assert got(session.diagnostics(uri)) == expected(session.text(uri), remaining, enc)


def test_deleting_the_cause_removes_the_diagnostic_and_restoring_brings_it_back(session):
    uri = session.open("model.py", MODEL)
    session.diagnostics(uri)
    enc = session.encoding
    line = session.text(uri).split("\n").index('    print("hi")')
    whole_line = {"start": {"line": line, "character": 0},
                  "end": {"line": line + 1, "character": 0}}
    session.change(uri, [{"range": whole_line, "text": ""}])
    remaining = [f for f in MODEL_FINDINGS if f[1] != 'print("hi")']
    assert got(session.diagnostics(uri)) == expected(session.text(uri), remaining, enc)
    session.change(uri, [{"range": {"start": {"line": line, "character": 0},
                                    "end": {"line": line, "character": 0}},
                          "text": '    print("hi")\n'}])
    assert session.text(uri) == MODEL
    assert got(session.diagnostics(uri)) == expected(MODEL, MODEL_FINDINGS, enc)


def test_typing_character_by_character(session):
    uri = session.open("clean.py", CLEAN)
    assert session.diagnostics(uri) == []
    enc = session.encoding
    anchor = position_of(CLEAN, "    return x\n", enc)
    typed = "    print(x)\n"
    for i, ch in enumerate(typed):
        pos = {"line": anchor["line"], "character": anchor["character"] + units(typed[:i], enc)}
        session.change(uri, [{"range": {"start": pos, "end": pos}, "text": ch}])
    text = session.text(uri)
    assert "    print(x)\n    return x\n" in text
    assert got(session.diagnostics(uri)) == expected(text, [("GM401", "print(x)", 0)], enc)


def test_edit_after_non_ascii_uses_encoding_units(session):
    uri = session.open("nonascii.py", NON_ASCII)
    assert len(session.diagnostics(uri)) == 1
    enc = session.encoding
    # Replace the print call (after "é😀" on its line) with `pass`; a server that counts the
    # columns in the wrong unit cuts the wrong bytes and leaves broken or different code.
    session.change(uri, [{"range": range_of(NON_ASCII, NON_ASCII_PRINT, enc), "text": "pass"}])
    assert session.diagnostics(uri) == []
    # Insert a print right after the emoji, inside the string: no finding, and the text stays
    # valid; then add a real print after it and expect it exactly there.
    text = session.text(uri)
    pos = position_of(text, "😀", enc, offset=1)
    session.change(uri, [{"range": {"start": pos, "end": pos}, "text": "ö"}])
    assert session.diagnostics(uri) == []
    text = session.text(uri)
    pos = position_of(text, "pass", enc)
    session.change(uri, [{"range": {"start": pos, "end": position_of(text, "pass", enc, offset=4)},
                          "text": 'print("ß")'}])
    text = session.text(uri)
    assert got(session.diagnostics(uri)) == expected(text, [("GM401", 'print("ß")', 0)], enc)


def test_change_outside_document_is_reported_and_ignored(session):
    uri = session.open("model.py", MODEL)
    before = got(session.diagnostics(uri))
    client = session.client
    mark = client.mark()
    bad = {"range": {"start": {"line": 999, "character": 0}, "end": {"line": 999, "character": 3}},
           "text": "((( broken"}
    session.change(uri, [bad], apply_locally=False)
    message = client.wait_notification("window/showMessage", since=mark)
    assert message["params"]["type"] == 1
    assert isinstance(message["params"]["message"], str) and message["params"]["message"]
    assert client.proc.poll() is None
    # The text is unchanged: a valid edit at the end applies to the original text and the
    # findings stay where they were, with no syntax error from the rejected change.
    end_line = MODEL.count("\n")
    session.change(uri, [{"range": {"start": {"line": end_line, "character": 0},
                                    "end": {"line": end_line, "character": 0}},
                          "text": "# trailing comment\n"}])
    assert session.text(uri) == MODEL + "# trailing comment\n"
    assert got(session.diagnostics(uri)) == before


def test_change_with_end_before_start_or_past_line_end_does_not_crash(session):
    uri = session.open("model.py", MODEL)
    session.diagnostics(uri)
    reversed_range = {"start": {"line": 5, "character": 4}, "end": {"line": 2, "character": 0}}
    session.change(uri, [{"range": reversed_range, "text": "x"}], apply_locally=False)
    session.client.barrier()
    assert session.client.proc.poll() is None
    # A fresh full-text change resynchronises whatever the server did with that edit.
    session.change(uri, [{"text": CLEAN}])
    assert session.diagnostics(uri) == []


def test_crlf_line_endings(session):
    text = NON_ASCII.replace("\n", "\r\n")
    uri = session.open("crlf.py", text)
    [d] = session.diagnostics(uri)
    lf_range = range_of(NON_ASCII, NON_ASCII_PRINT, session.encoding)
    assert d["range"] == lf_range
    # An edit addressed in CRLF lines lands where it should.
    line = text.split("\r\n")[5]
    pos = {"line": 5, "character": units(line, session.encoding)}
    session.change(uri, [{"range": {"start": pos, "end": pos}, "text": "  # tail"}])
    assert session.text(uri).split("\r\n")[5].endswith("  # tail")
    [d] = session.diagnostics(uri)
    assert d["range"] == lf_range


def test_lone_cr_line_endings(session):
    """"\r" alone ends a line for Python and for LSP: the findings are those of the "\n" text,
    on the same lines, before and after edits that add lines or turn a "\r" into "\r\n"."""
    text = MODEL.replace("\n", "\r")
    uri = session.open("cr.py", text)
    want = expected(MODEL, MODEL_FINDINGS, session.encoding)
    assert got(session.diagnostics(uri)) == want
    top = {"line": 0, "character": 0}
    session.change(uri, [{"range": {"start": top, "end": top}, "text": "# head\r\r"}])
    assert got(session.diagnostics(uri)) == expected("# head\n\n" + MODEL, MODEL_FINDINGS,
                                                     session.encoding)
    # "\n" after the "\r" that ends line 0: the two make one line break.
    end_of_head = {"line": 0, "character": len("# head")}
    after_cr = {"line": 1, "character": 0}
    session.change(uri, [{"range": {"start": after_cr, "end": after_cr}, "text": "\n"}],
                   apply_locally=False)
    diagnostics = session.diagnostics(uri)
    assert got(diagnostics) == expected("# head\n\n" + MODEL, MODEL_FINDINGS, session.encoding)
    session.change(uri, [{"range": {"start": end_of_head, "end": after_cr}, "text": ""}],
                   apply_locally=False)
    assert got(session.diagnostics(uri)) == expected("# head\n" + MODEL, MODEL_FINDINGS,
                                                     session.encoding)


def test_character_past_line_end_means_line_end(session):
    # LSP: a character greater than the line length defaults back to the line length.
    uri = session.open("model.py", MODEL)
    before = got(session.diagnostics(uri))
    mark = session.client.mark()
    pos = {"line": 0, "character": 999}
    session.change(uri, [{"range": {"start": pos, "end": pos}, "text": "  # trailing"}],
                   apply_locally=False)
    session.docs[uri]["text"] = MODEL.replace("import torch\n", "import torch  # trailing\n", 1)
    assert got(session.diagnostics(uri)) == before
    assert not [m for m in session.client.notifications("window/showMessage")
                if session.client.received.index(m) >= mark]
    # And the text really is what the client thinks: an edit relative to it works.
    text = session.text(uri)
    session.change(uri, [{"range": range_of(text, "  # trailing", session.encoding),
                          "text": ""}])
    assert session.text(uri) == MODEL
    assert got(session.diagnostics(uri)) == before


def test_full_text_change(session):
    uri = session.open("model.py", MODEL)
    session.diagnostics(uri)
    session.change(uri, [{"text": ALIASED}])
    assert got(session.diagnostics(uri)) == expected(ALIASED, ALIASED_FINDINGS, session.encoding)


def test_two_documents_are_independent(session):
    a = session.open("a.py", MODEL)
    b = session.open("b.py", CLEAN)
    assert len(session.diagnostics(a)) == len(MODEL_FINDINGS)
    assert session.diagnostics(b) == []
    session.change(b, [{"text": ALIASED}])
    assert len(session.diagnostics(b)) == len(ALIASED_FINDINGS)
    if session.pulls:
        assert len(session.diagnostics(a)) == len(MODEL_FINDINGS)


def test_did_close_clears_diagnostics(servers, push_client_name):
    session = servers.session(push_client_name)
    uri = session.open("model.py", MODEL)
    assert session.diagnostics(uri)
    mark = session.client.mark()
    session.close(uri)
    message = session.client.wait_notification(
        "textDocument/publishDiagnostics", lambda p: p["uri"] == uri, since=mark)
    assert message["params"]["diagnostics"] == []


def test_reopen_after_close(servers, client_name):
    session = servers.session(client_name)
    uri = session.open("model.py", MODEL)
    session.diagnostics(uri)
    session.close(uri)
    session.open("model.py", CLEAN, version=7)
    assert session.diagnostics(uri) == []


@pytest.mark.parametrize("where", ["__init__", "module", "helper"])
def test_prints_outside_regions_are_not_flagged(session, where):
    body = {
        "__init__": "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                    "        print('init')\n",
        "module": "print('top level')\n",
        "helper": "def helper(x: torch.Tensor):\n    print(x)\n    return x\n",
    }[where]
    text = "import torch\nimport torch.nn as nn\n\n\n" + body
    uri = session.open("outside.py", text)
    assert session.diagnostics(uri) == []


def test_large_document(servers):
    session = servers.session("neovim")
    functions = "".join(
        f"@torch.compile\ndef f{i}(x: torch.Tensor) -> torch.Tensor:\n"
        f"    if x.sum() > {i}:\n        x = x + 1\n    print(x)\n    return x\n\n\n"
        for i in range(1500))
    text = "import torch\n\n\n" + functions
    uri = session.open("large.py", text)
    diagnostics = session.diagnostics(uri)
    assert len(diagnostics) == 3000
    # An edit at the top of a 12000-line file is handled and shifts everything.
    session.change(uri, [{"range": {"start": {"line": 0, "character": 0},
                                    "end": {"line": 0, "character": 0}}, "text": "\n"}])
    after = session.diagnostics(uri)
    assert sorted(d["range"]["start"]["line"] for d in after) == \
        sorted(d["range"]["start"]["line"] + 1 for d in diagnostics)

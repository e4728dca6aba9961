"""Documents the parser library cannot hold, or that are larger than a source file may be: the
server keeps running, says once why it does not analyse them, and analyses them again as soon
as an edit makes them ordinary. tree-sitter 0.20 keeps a node's child count in 16 bits: a run
of 65,535 comment lines makes a tree whose deletion corrupts the heap (the server died with
`munmap_chunk(): invalid pointer` after a full replacement of such a document)."""

import subprocess

from samples import PRINT_ONLY

COMMENT_RUN = "# " + "z" * 17 + "\n"


def _shown(client):
    return [m["params"]["message"] for m in client.notifications("window/showMessage")]


def _wait_shown(client, needle):
    return client._wait_for(lambda: [m for m in _shown(client) if needle in m] or None,
                            f"a window/showMessage about {needle!r}", 60)


def _replace_and_check(session, uri):
    since = session.client.mark()  # before the change: its publication may come at once
    session.change(uri, [{"text": PRINT_ONLY}])
    items = session.diagnostics_until(uri, lambda d: any(x["code"] == "GM401" for x in d),
                                      since=since, timeout=60)
    assert any(x["code"] == "GM401" for x in items), items


def test_a_long_run_of_comments_is_refused_said_once_and_survives_a_full_replacement(servers):
    session = servers.session("vscode")
    text = COMMENT_RUN * 66000 + PRINT_ONLY
    uri = session.open("comments.py", text, write_file=False)
    assert session.diagnostics(uri, timeout=120) == []
    [message] = _wait_shown(session.client, "60,000 or more comment lines")
    assert "comments.py" in message
    session.change(uri, [{"text": text + "\n"}])  # still refused: not said again
    assert session.diagnostics(uri, timeout=120) == []
    assert len([m for m in _shown(session.client) if "comment lines" in m]) == 1
    _replace_and_check(session, uri)
    assert session.client.proc.poll() is None


def test_a_document_over_16_mib_is_refused_and_the_server_lives_on(servers):
    session = servers.session("neovim")
    text = ("# " + "z" * 97 + "\n") * 170000 + PRINT_ONLY  # 17 MB, 170,000 comments
    uri = session.open("huge.py", text, write_file=False)
    assert session.diagnostics(uri, timeout=120) == []
    _wait_shown(session.client, "16 MiB")
    _replace_and_check(session, uri)
    assert session.client.proc.poll() is None


def test_check_names_why_it_cannot_analyse_a_long_run_of_comments(binary, tmp_path):
    path = tmp_path / "comments.py"
    path.write_text(COMMENT_RUN * 66000 + PRINT_ONLY, encoding="utf-8")
    proc = subprocess.run([binary, "check", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "60,000 or more comment lines" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and "invalid pointer" not in proc.stderr

"""The editor set-up snippets in README.md and docs/editors.md are the files the headless editor
tests load: each page quotes them verbatim."""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
# Which snippets each page shows: the README the two short ones, docs/editors.md every one.
PAGES = {
    "README.md": ["neovim/graphmend.lua", "emacs/graphmend-eglot.el"],
    "docs/editors.md": ["neovim/graphmend.lua", "emacs/graphmend-eglot.el",
                        "emacs/graphmend-lsp-mode.el"],
}


@pytest.mark.parametrize("page,snippet", [(page, snippet) for page, snippets in PAGES.items()
                                          for snippet in snippets])
def test_page_quotes_snippet_verbatim(page, snippet):
    text = (HERE / snippet).read_text(encoding="utf-8")
    shown = (REPO / page).read_text(encoding="utf-8")
    assert text in shown, f"{page} does not quote tests/editors/{snippet} verbatim"

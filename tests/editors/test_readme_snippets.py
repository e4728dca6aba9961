"""The editor set-up snippets in README.md are the files the headless editor tests load."""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
README = (HERE.parent.parent / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("snippet", ["neovim/graphmend.lua", "emacs/graphmend-eglot.el",
                                     "emacs/graphmend-lsp-mode.el"])
def test_readme_quotes_snippet_verbatim(snippet):
    text = (HERE / snippet).read_text(encoding="utf-8")
    assert text in README, f"README.md does not quote tests/editors/{snippet} verbatim"

"""Real editors as clients, headless: Neovim (its built-in LSP client) and Emacs (eglot, through
flymake and eglot-code-actions) load the set-up snippets of docs/editors.md, show graphmend's diagnostics
at the lines `graphmend check` predicts, offer "Mend GM...", and apply it; the buffer text
afterwards must equal the original with that mend's edits applied."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

SAMPLE = '''\
import torch


@torch.compile
def scale(x):
    y = x * 2
    print("scaled", y.shape)
    return y + 1
'''
MEND_LINE = 7


def graphmend_binary() -> Path:
    path = Path(os.environ.get("GRAPHMEND_BIN", REPO / "build" / "graphmend"))
    assert path.exists(), f"graphmend binary not found at {path}"
    return path


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'sample'\n")
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE)
    return path


def predicted(path: Path) -> list[dict]:
    proc = subprocess.run([str(graphmend_binary()), "check", "--output-format", "json", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    return json.loads(proc.stdout)


def mended_text(text: str, fix: dict) -> str:
    """text with fix's edits applied (1-based rows, character columns, as ruff writes them)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(loc):
        return starts[loc["row"] - 1] + loc["column"] - 1

    for edit in sorted(fix["edits"], key=lambda e: offset(e["location"]), reverse=True):
        text = text[: offset(edit["location"])] + edit["content"] + text[offset(edit["end_location"]):]
    return text


def run_editor(argv: list[str], project: Path, setup: Path, tmp_path: Path) -> dict:
    out = tmp_path / "editor.json"
    env = dict(os.environ, GRAPHMEND_BIN=str(graphmend_binary()), GM_FILE=str(project),
               GM_LINE=str(MEND_LINE), GM_OUT=str(out), GM_SETUP=str(setup), HOME=str(tmp_path))
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=project.parent)
    assert out.exists(), f"the editor wrote no result (rc {proc.returncode}): {proc.stderr[-2000:]}"
    result = json.loads(out.read_text())
    assert not result.get("error"), result["error"]
    return result


def check_result(result: dict, project: Path) -> None:
    findings = predicted(project)
    assert sorted({d["line"] for d in result["diagnostics"]}) == sorted(
        {f["location"]["row"] for f in findings})
    target = next(f for f in findings if f["location"]["row"] == MEND_LINE)
    assert any(t.startswith("Mend GM") for t in result["actions"])
    expected = mended_text(SAMPLE, target["fix"])
    assert expected != SAMPLE
    assert result["text"].rstrip("\n") == expected.rstrip("\n")


@pytest.mark.skipif(not shutil.which("nvim"), reason="neovim is not installed (tools/setup installs it)")
def test_neovim_shows_diagnostics_and_applies_mend(project, tmp_path):
    argv = ["nvim", "--headless", "--clean", "-n", "-c", f"luafile {HERE / 'neovim' / 'drive.lua'}"]
    result = run_editor(argv, project, HERE / "neovim" / "graphmend.lua", tmp_path)
    check_result(result, project)


@pytest.mark.skipif(not shutil.which("emacs"), reason="emacs is not installed (tools/setup installs it)")
def test_emacs_eglot_shows_diagnostics_and_applies_mend(project, tmp_path):
    argv = ["emacs", "--batch", "-l", str(HERE / "emacs" / "drive.el")]
    result = run_editor(argv, project, HERE / "emacs" / "graphmend-eglot.el", tmp_path)
    check_result(result, project)


def _has_lsp_mode() -> bool:
    if not shutil.which("emacs"):
        return False
    proc = subprocess.run(["emacs", "--batch", "--eval",
                           "(progn (package-initialize) (kill-emacs (if (require 'lsp-mode nil t) 0 1)))"],
                          capture_output=True, timeout=60)
    return proc.returncode == 0


@pytest.mark.skipif(not _has_lsp_mode(), reason="lsp-mode is not installed (tools/setup installs elpa-lsp-mode)")
def test_emacs_lsp_mode_shows_diagnostics_and_applies_mend(project, tmp_path):
    argv = ["emacs", "--batch", "-l", str(HERE / "emacs" / "drive-lsp-mode.el")]
    result = run_editor(argv, project, HERE / "emacs" / "graphmend-lsp-mode.el", tmp_path)
    check_result(result, project)

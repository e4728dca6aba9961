"""GM902 in a real editor: headless Neovim, set up with docs/editors.md's snippet, shows at
`torch.compile(model)` of a model of an installed package the breaks graphmend predicts in the
package, with related locations into the package's file that open it at the break. The package
is a fake one outside the project, found through $GRAPHMEND_PYTHON (the server's default
interpreter when the `python` setting is empty): a wrapper that puts it on PYTHONPATH."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "e2e"))

from test_editors import graphmend_binary  # noqa: E402
from test_library_breaks import TRAIN, install_fake_package  # noqa: E402


@pytest.mark.skipif(not shutil.which("nvim"), reason="neovim is not installed (tools/setup installs it)")
def test_neovim_shows_library_breaks_and_opens_them(tmp_path, tmp_path_factory):
    wrapper, helpers, marker = install_fake_package(tmp_path_factory.mktemp("env"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'sample'\n")
    train = project / "train.py"
    train.write_text(TRAIN)
    out = tmp_path / "editor.json"
    env = dict(os.environ, GRAPHMEND_BIN=str(graphmend_binary()), GM_FILE=str(train),
               GM_OUT=str(out), GM_SETUP=str(HERE / "neovim" / "graphmend.lua"),
               GRAPHMEND_PYTHON=str(wrapper), HOME=str(tmp_path))
    argv = ["nvim", "--headless", "--clean", "-n", "-c",
            f"luafile {HERE / 'neovim' / 'library.lua'}"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env,
                          cwd=project)
    assert out.exists(), f"the editor wrote no result (rc {proc.returncode}): {proc.stderr[-2000:]}"
    result = json.loads(out.read_text())
    assert not result.get("error"), result["error"]

    library = [d for d in result["diagnostics"] if d["code"] == "GM902"]
    assert len(library) == 1, result["diagnostics"]
    # at `torch.compile(model)`, line 5 (1-based), as information
    assert (library[0]["line"], library[0]["col"]) == (5, 11)
    assert library[0]["severity"] == 3  # vim.diagnostic.severity.INFO
    assert "1 graph break in fakemodels on the path of `TinyModel`" in library[0]["message"]
    assert [(r["uri"], r["line"], r["character"]) for r in result["related"]] == [
        (helpers.resolve().as_uri(), 4, 7)]
    assert result["related"][0]["message"].startswith("GM101 data-dependent-branch")
    profile = [a for a in result["actions"] if a["title"] == "Profile with fakemodels mended"]
    assert len(profile) == 1, result["actions"]
    assert profile[0]["command"]["command"] == "graphmend.profile"
    assert profile[0]["command"]["arguments"][1] == {"packages": ["fakemodels"]}
    # the click: the package's file, at the break
    jumped = result["jumped"]
    assert Path(jumped["file"]).resolve() == helpers.resolve()
    assert (jumped["line"], jumped["col"]) == (5, 7)
    assert jumped["text"].strip() == "if h.abs().max() > 10:"
    assert not marker.exists(), "the package was imported"

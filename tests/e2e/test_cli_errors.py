"""Wrong input says what is wrong and stops with exit 2, as ruff does: a pyproject.toml that
does not parse, a key, option, command or rule id that does not exist (with the nearest one
that does); a selection with no Python file and a file that is not UTF-8 are said, never a
silent check. Every command answers --help."""

import subprocess

import pytest

from samples import PRINT_ONLY


def run(binary, *args, cwd=None):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=60, cwd=cwd)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "model.py").write_text(PRINT_ONLY, encoding="utf-8")
    return tmp_path


def test_an_unclosed_table_header_stops_the_run(binary, project):
    (project / "pyproject.toml").write_text('[tool.graphmend\nignore = ["GM401"]\n')
    done = run(binary, "check", "model.py", cwd=project)
    assert done.returncode == 2, done
    assert "line 1" in done.stderr and "not closed" in done.stderr, done.stderr


def test_an_unknown_key_names_the_nearest_one(binary, project):
    (project / "pyproject.toml").write_text('[tool.graphmend]\nignor = ["GM401"]\n')
    done = run(binary, "check", "model.py", cwd=project)
    assert done.returncode == 2, done
    assert "line 2" in done.stderr and "did you mean 'ignore'" in done.stderr, done.stderr


@pytest.mark.parametrize("args, hint", [
    (["chek", "model.py"], "did you mean 'check'"),
    (["check", "--selct", "GM4", "model.py"], "did you mean '--select'"),
    (["check", "--select", "GM410", "model.py"], 'did you mean "GM401"'),
    (["check", "--ignore", "GM40", "model.py"], None),  # a prefix: accepted
    (["rule", "GM410"], "did you mean 'GM401'"),
], ids=["command", "option", "selector", "prefix", "rule"])
def test_a_typo_names_the_nearest_name(binary, project, args, hint):
    done = run(binary, *args, cwd=project)
    if hint is None:
        assert done.returncode in (0, 1), done
        return
    assert done.returncode == 2, done
    assert hint in done.stderr, done.stderr


@pytest.mark.parametrize("command", ["serve", "server", "check", "fix", "rule", "profile",
                                     "confirm", "run", "settings"])
def test_every_command_answers_help(binary, command):
    done = run(binary, command, "--help")
    assert done.returncode == 0, done
    assert done.stdout.startswith("usage: graphmend"), done.stdout
    assert done.stderr == ""


def test_a_selection_without_python_files_says_so(binary, tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to check\n")
    done = run(binary, "check", str(tmp_path))
    assert done.returncode == 0, done
    assert "No Python files found" in done.stderr, done.stderr


def test_a_file_that_is_not_utf8_is_said(binary, tmp_path):
    path = tmp_path / "latin.py"
    path.write_bytes(b'import torch\nname = "caf\xe9"\n')
    done = run(binary, "check", str(path))
    assert done.returncode == 0, done
    assert "latin.py is not valid UTF-8 (byte 25)" in done.stderr, done.stderr

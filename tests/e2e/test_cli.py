"""graphmend check / fix on files and directories."""

import ast
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import run_cli
from samples import (CLEAN, MODEL, MODEL_FINDINGS, NON_ASCII, NON_ASCII_PRINT, PRINT_ONLY,
                     SUPPRESSED, SYNTAX_ERROR)

LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>GM\d{3}) (\[\*\] )?"
                  r"(?P<msg>.+)$")
# The full format (the default, as ruff's): "CODE [*] message", then " --> path:line:col".
HEADER = re.compile(r"^(?P<code>GM\d{3}) (\[\*\] )?(?P<msg>.+)$")
ARROW = re.compile(r"^ *--> (?P<path>.+?):(?P<line>\d+):(?P<col>\d+)$")


def findings(stdout: bytes):
    out = []
    header = None
    for line in stdout.decode("utf-8").splitlines():
        m = LINE.match(line)
        if m:
            out.append((m["path"], int(m["line"]), int(m["col"]), m["code"], m["msg"]))
            continue
        arrow = ARROW.match(line)
        if arrow and header:
            out.append((arrow["path"], int(arrow["line"]), int(arrow["col"]), header["code"],
                        header["msg"]))
        header = HEADER.match(line)
    return out


def one_based(text, needle, occurrence=0):
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def end_one_based(text, needle, occurrence=0):
    line, col = one_based(text, needle, occurrence)
    return line, col + len(needle)


def same_file(printed, path):
    return os.path.realpath(printed) == os.path.realpath(path)


def test_check_text_output(binary, files, tmp_path):
    path = files("model.py", MODEL)
    proc = run_cli(binary, "check", "model.py", cwd=tmp_path)
    assert proc.returncode == 1, proc
    got = findings(proc.stdout)
    assert sorted((line, col, code) for _, line, col, code, _ in got) == sorted(
        one_based(MODEL, needle, occ) + (code,) for code, needle, occ in MODEL_FINDINGS)
    for printed, *_ in got:
        assert same_file(os.path.join(tmp_path, printed), path)
    assert all(msg.strip() for *_, msg in got)


def test_check_clean_exits_zero(binary, files, tmp_path):
    files("clean.py", CLEAN)
    proc = run_cli(binary, "check", "clean.py", cwd=tmp_path)
    assert proc.returncode == 0, proc
    assert findings(proc.stdout) == []


def test_check_columns_are_characters(binary, files, tmp_path):
    files("nonascii.py", NON_ASCII)
    proc = run_cli(binary, "check", "nonascii.py", cwd=tmp_path)
    assert proc.returncode == 1
    [(_, line, col, code, _)] = findings(proc.stdout)
    assert (line, col, code) == one_based(NON_ASCII, NON_ASCII_PRINT) + ("GM401",)
    assert col == 15


def test_check_respects_suppression(binary, files, tmp_path):
    files("s.py", SUPPRESSED)
    proc = run_cli(binary, "check", "s.py", cwd=tmp_path)
    assert [(l, c) for _, l, c, _, _ in findings(proc.stdout)] == \
        [one_based(SUPPRESSED, 'print("b")')]


def test_check_walks_directories(binary, files, tmp_path):
    files("pkg/a.py", PRINT_ONLY)
    files("pkg/sub/b.py", MODEL)
    files("pkg/sub/clean.py", CLEAN)
    files("pkg/broken.py", SYNTAX_ERROR)
    files("pkg/notes.txt", PRINT_ONLY)
    files("pkg/script.pyw.txt", PRINT_ONLY)
    proc = run_cli(binary, "check", "pkg", cwd=tmp_path)
    assert proc.returncode == 1, proc
    got = findings(proc.stdout)
    by_file = {}
    for printed, _, _, code, _ in got:
        by_file.setdefault(os.path.relpath(os.path.realpath(os.path.join(tmp_path, printed)),
                                           os.path.realpath(tmp_path)), []).append(code)
    assert sorted(by_file) == ["pkg/a.py", "pkg/broken.py", "pkg/sub/b.py"]
    assert by_file["pkg/a.py"] == ["GM401"]
    assert "GM001" in by_file["pkg/broken.py"]
    assert sorted(by_file["pkg/sub/b.py"]) == sorted(c for c, _, _ in MODEL_FINDINGS)


def test_check_several_paths(binary, files, tmp_path):
    files("a.py", PRINT_ONLY)
    files("b.py", CLEAN)
    proc = run_cli(binary, "check", "a.py", "b.py", cwd=tmp_path)
    assert proc.returncode == 1
    assert [os.path.basename(p) for p, *_ in findings(proc.stdout)] == ["a.py"]


def test_syntax_error_is_reported_not_fatal(binary, files, tmp_path):
    files("broken.py", SYNTAX_ERROR)
    files("ok.py", PRINT_ONLY)
    proc = run_cli(binary, "check", "broken.py", "ok.py", cwd=tmp_path)
    assert proc.returncode == 1, proc
    codes = {(os.path.basename(p), code) for p, _, _, code, _ in findings(proc.stdout)}
    assert ("broken.py", "GM001") in codes and ("ok.py", "GM401") in codes


@pytest.mark.parametrize("args", [["check", "missing.py"], ["check", "--no-such-option", "a.py"],
                                  ["check", "--output-format", "xml", "a.py"],
                                  ["check", "--output-format"], ["no-such-command"],
                                  ["fix", "missing.py"]])
def test_errors_exit_two(binary, files, tmp_path, args):
    files("a.py", PRINT_ONLY)
    proc = run_cli(binary, *args, cwd=tmp_path)
    assert proc.returncode == 2, (args, proc)
    assert proc.stderr.strip()


def test_missing_file_among_good_ones_exits_two(binary, files, tmp_path):
    files("a.py", PRINT_ONLY)
    proc = run_cli(binary, "check", "a.py", "missing.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert b"missing.py" in proc.stderr


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version(binary, flag):
    proc = run_cli(binary, flag)
    assert proc.returncode == 0
    assert proc.stdout.strip()
    if flag == "--version":
        assert b"graphmend" in proc.stdout.lower() or re.search(rb"\d+\.\d+", proc.stdout)
    else:
        for word in (b"check", b"fix", b"serve"):
            assert word in proc.stdout


def test_json_output(binary, files, tmp_path):
    files("model.py", MODEL)
    proc = run_cli(binary, "check", "--output-format", "json", "model.py", cwd=tmp_path)
    assert proc.returncode == 1
    items = json.loads(proc.stdout)
    assert isinstance(items, list) and len(items) == len(MODEL_FINDINGS)
    want = sorted((code,) + one_based(MODEL, n, o) + end_one_based(MODEL, n, o)
                  for code, n, o in MODEL_FINDINGS)
    got = sorted((i["code"], i["location"]["row"], i["location"]["column"],
                  i["end_location"]["row"], i["end_location"]["column"]) for i in items)
    assert got == want
    for item in items:
        assert os.path.basename(item["filename"]) == "model.py"
        assert item["message"] and item["url"].startswith("https://")
        fix = item["fix"]
        assert fix is None or isinstance(fix, dict)
        if fix:
            assert fix["applicability"] in ("safe", "unsafe", "display-only")
            assert isinstance(fix["message"], (str, type(None)))
            for edit in fix["edits"]:
                assert isinstance(edit["content"], str)
                assert edit["location"]["row"] >= 1 and edit["location"]["column"] >= 1
                assert edit["end_location"]["row"] >= edit["location"]["row"]
    prints = [i for i in items if i["code"] == "GM401"]
    assert any(i["fix"] and i["fix"]["applicability"] == "unsafe" for i in prints)


DTYPE_GUARDED = """\
import torch
from torch import nn


class Block(nn.Module):
    def forward(self, h):
        if h.dtype in (torch.float16, torch.bfloat16) and torch.isinf(h).any():
            h = h.clamp(-1, 1)
        if (h > 0).any():
            h = h + 1
        return h
"""


def test_json_output_says_which_dtypes_a_break_needs(binary, files, tmp_path):
    files("block.py", DTYPE_GUARDED)
    proc = run_cli(binary, "check", "--output-format", "json", "block.py", cwd=tmp_path)
    items = sorted(json.loads(proc.stdout), key=lambda i: i["location"]["row"])
    assert [(i["code"], i["location"]["row"]) for i in items] == [("GM101", 7), ("GM101", 9)]
    assert items[0]["only_when"] == {"dtypes": ["float16", "bfloat16"]}
    assert "float16 or bfloat16" in items[0]["message"]
    assert "only_when" not in items[1]


PYTHON_GUARDED = """\
import torch
from torch import nn


class Embed(nn.Module):
    def forward(self, ids, pixels=None):
        if pixels is not None and (ids == 3).any():
            ids = ids + 1
        return ids
"""


def test_json_output_says_which_python_condition_a_break_needs(binary, files, tmp_path):
    files("embed.py", PYTHON_GUARDED)
    proc = run_cli(binary, "check", "--output-format", "json", "embed.py", cwd=tmp_path)
    items = json.loads(proc.stdout)
    assert [(i["code"], i["location"]["row"]) for i in items] == [("GM101", 7)]
    assert items[0]["only_when"] == {"condition": "pixels is not None"}
    assert "when `pixels is not None` holds" in items[0]["message"]


LAYER_BASE = """\
from torch import nn


class CheckpointedLayer(nn.Module):
    def __call__(self, *args, **kwargs):
        return super().__call__(*args, **kwargs)
"""

LAYER = """\
import torch
from torch import nn

from .layers import CheckpointedLayer


class Encoder(CheckpointedLayer):
    def __init__(self, d):
        super().__init__()
        self.final_layer_norm = nn.LayerNorm(d)

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        hidden_states = self.final_layer_norm(hidden_states)
        if not torch.isfinite(hidden_states).all():
            clamp_value = torch.finfo(hidden_states.dtype).max - 1000
            hidden_states = torch.clamp(hidden_states, min=-clamp_value, max=clamp_value)
        return hidden_states
"""


def test_a_module_base_class_of_another_file_makes_a_module(binary, files, tmp_path):
    """A class is a Module through a base another file of the package defines: its submodule
    calls give tensors, so the overflow guard after the layer norm gets its torch.where mend."""
    files("pkg/__init__.py", "")
    files("pkg/layers.py", LAYER_BASE)
    files("pkg/model.py", LAYER)
    proc = run_cli(binary, "check", "--output-format", "json", "pkg", cwd=tmp_path)
    items = json.loads(proc.stdout)
    assert [(i["code"], i["location"]["row"]) for i in items] == [("GM101", 14)]
    assert items[0]["fix"] and "torch.where" in items[0]["fix"]["message"], items[0].get("mend_declined")


def test_json_output_clean_is_empty_array(binary, files, tmp_path):
    files("clean.py", CLEAN)
    proc = run_cli(binary, "check", "--output-format", "json", "clean.py", cwd=tmp_path)
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == []


def test_json_columns_are_characters(binary, files, tmp_path):
    files("nonascii.py", NON_ASCII)
    proc = run_cli(binary, "check", "--output-format=json", "nonascii.py", cwd=tmp_path)
    [item] = json.loads(proc.stdout)
    assert (item["location"]["row"], item["location"]["column"]) == (6, 15)
    assert (item["end_location"]["row"], item["end_location"]["column"]) == \
        end_one_based(NON_ASCII, NON_ASCII_PRINT)


def test_sarif_output(binary, files, tmp_path):
    files("model.py", MODEL)
    files("broken.py", SYNTAX_ERROR)
    proc = run_cli(binary, "check", "--output-format", "sarif", "model.py", "broken.py",
                   cwd=tmp_path)
    assert proc.returncode == 1
    sarif = json.loads(proc.stdout)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    assert run["tool"]["driver"]["name"] == "graphmend"
    results = run["results"]
    model_results = [r for r in results if r["locations"][0]["physicalLocation"]
                     ["artifactLocation"]["uri"].endswith("model.py")]
    got = sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
                 for r in model_results)
    assert got == sorted((code, one_based(MODEL, n, o)[0]) for code, n, o in MODEL_FINDINGS)
    for r in results:
        assert r["level"] in ("error", "warning", "note")
        assert r["message"]["text"]
    assert {r["level"] for r in model_results} == {"warning"}
    assert any(r["ruleId"] == "GM001" and r["level"] == "error" for r in results)


def test_fix_safe_only_leaves_unsafe_mends(binary, files, tmp_path):
    path = files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "fix", "p.py", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc
    assert path.read_text(encoding="utf-8") == PRINT_ONLY


def test_fix_unsafe_applies_print_mend(binary, files, tmp_path):
    path = files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "fix", "--unsafe-fixes", "p.py", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc
    text = path.read_text(encoding="utf-8")
    assert text != PRINT_ONLY
    ast.parse(text)
    assert "print(y)" in text  # still prints in eager mode
    check = run_cli(binary, "check", "p.py", cwd=tmp_path)
    assert check.returncode == 0, check.stdout


def test_fix_diff_writes_nothing(binary, files, tmp_path):
    path = files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "fix", "--unsafe-fixes", "--diff", "p.py", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc
    out = proc.stdout.decode("utf-8")
    assert re.search(r"^--- .*p\.py", out, re.M) and re.search(r"^\+\+\+ .*p\.py", out, re.M)
    assert re.search(r"^@@ -\d+(,\d+)? \+\d+(,\d+)? @@", out, re.M)
    # the print's mend defers it: the setting line goes in after the imports
    assert re.search(r"^\+torch._dynamo.config.reorderable_logging_functions.add\(print\)$", out,
                     re.M)
    assert path.read_text(encoding="utf-8") == PRINT_ONLY


def test_fix_directory_with_unparsable_file(binary, files, tmp_path):
    broken = files("d/broken.py", SYNTAX_ERROR)
    good = files("d/p.py", PRINT_ONLY)
    proc = run_cli(binary, "fix", "--unsafe-fixes", "d", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc
    assert broken.read_text(encoding="utf-8") == SYNTAX_ERROR
    assert good.read_text(encoding="utf-8") != PRINT_ONLY
    ast.parse(good.read_text(encoding="utf-8"))


# The prints print shapes, which dynamo cannot defer: each is mended where it stands.
MANY_PRINTS = "import torch\n\n@torch.compile\ndef f(x):\n    print(x.shape)\n" + "".join(
    f"    y{i} = x + {i}\n" for i in range(12)) + "    print(x.shape, 'é😀')\n" + "".join(
    f"    z{i} = x * {i}\n" for i in range(3)) + "    print('no newline', x.shape)\n    return x"


def test_fix_diff_applies_with_patch_to_the_in_place_result(binary, files, tmp_path):
    """The unified diff, applied by patch(1), gives exactly what fix writes in place: several
    hunks, non-ASCII text and a last line without a newline."""
    diff_dir, fix_dir = tmp_path / "diffed", tmp_path / "fixed"
    diff_dir.mkdir()
    fix_dir.mkdir()
    (diff_dir / "m.py").write_text(MANY_PRINTS, encoding="utf-8")
    (fix_dir / "m.py").write_text(MANY_PRINTS, encoding="utf-8")
    proc = run_cli(binary, "fix", "--unsafe-fixes", "--diff", "m.py", cwd=diff_dir)
    assert proc.returncode == 1, proc  # something would change
    assert proc.stdout.count(b"\n@@ ") + proc.stdout.startswith(b"@@ ") >= 2
    patched = subprocess.run(["patch", "-p1", "--no-backup-if-mismatch"], input=proc.stdout,
                             cwd=diff_dir, capture_output=True)
    assert patched.returncode == 0, patched
    run_cli(binary, "fix", "--unsafe-fixes", "m.py", cwd=fix_dir)
    expected = (fix_dir / "m.py").read_text(encoding="utf-8")
    assert expected.count("is_compiling()") == 3
    assert (diff_dir / "m.py").read_text(encoding="utf-8") == expected


ITEM_AND_PRINT = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    n = x.sum().item()
    print(x)
    return x * n
'''


def codes(stdout: bytes):
    return sorted(code for *_, code, _ in findings(stdout))


def test_pyproject_capture_scalar_outputs_removes_gm201(binary, files, tmp_path):
    files("pkg/m.py", ITEM_AND_PRINT)
    proc = run_cli(binary, "check", "pkg/m.py", cwd=tmp_path)
    assert proc.returncode == 1 and codes(proc.stdout) == ["GM201", "GM401"], proc
    files("pyproject.toml", '[project]\nname = "x"\n\n[tool.graphmend]\n'
          'capture-scalar-outputs = true  # dynamo config\n')
    proc = run_cli(binary, "check", "pkg/m.py", cwd=tmp_path)
    assert proc.returncode == 1 and codes(proc.stdout) == ["GM401"], proc


def test_pyproject_select_and_cli_overrides(binary, files, tmp_path):
    files("m.py", ITEM_AND_PRINT)
    files("pyproject.toml", '[tool.graphmend]\nselect = ["GM2"]\n')
    proc = run_cli(binary, "check", "m.py", cwd=tmp_path)
    assert codes(proc.stdout) == ["GM201"], proc
    proc = run_cli(binary, "check", "--select", "GM4,GM201", "--ignore=GM201", "m.py",
                   cwd=tmp_path)
    assert codes(proc.stdout) == ["GM401"], proc


def test_ignore_flag_removes_prints(binary, files, tmp_path):
    files("m.py", ITEM_AND_PRINT)
    proc = run_cli(binary, "check", "--ignore", "GM401", "m.py", cwd=tmp_path)
    assert proc.returncode == 1 and codes(proc.stdout) == ["GM201"], proc
    files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "check", "--ignore", "GM4", "p.py", cwd=tmp_path)
    assert proc.returncode == 0 and codes(proc.stdout) == [], proc
    proc = run_cli(binary, "fix", "--unsafe-fixes", "--diff", "--ignore", "GM401", "p.py",
                   cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == b"", proc


def test_unknown_rule_selector_exits_two(binary, files, tmp_path):
    files("m.py", ITEM_AND_PRINT)
    proc = run_cli(binary, "check", "--ignore", "GM8", "m.py", cwd=tmp_path)
    assert proc.returncode == 2 and b"GM8" in proc.stderr, proc


def test_malformed_pyproject_is_a_clear_error(binary, files, tmp_path):
    files("m.py", ITEM_AND_PRINT)
    files("pyproject.toml", '[tool.graphmend]\ncapture-scalar-outputs = "yes"\n')
    for command in ("check", "fix"):
        proc = run_cli(binary, command, "m.py", cwd=tmp_path)
        assert proc.returncode == 2, proc
        err = proc.stderr.decode()
        assert "pyproject.toml" in err and "line 2" in err, err
        assert "capture-scalar-outputs must be true or false" in err, err



def _fixed(binary, tmp_path, name, text, *args, pyproject=None):
    """The text `graphmend fix ARGS` leaves in a fresh directory holding text (and pyproject)."""
    d = tmp_path / name
    d.mkdir()
    if pyproject is not None:
        (d / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (d / "p.py").write_text(text, encoding="utf-8")
    proc = run_cli(binary, "fix", *args, "p.py", cwd=d)
    assert proc.returncode in (0, 1), proc
    return (d / "p.py").read_text(encoding="utf-8"), proc


UNSAFE_ON = "[tool.graphmend]\nunsafe-fixes = true\n"


def test_pyproject_unsafe_fixes_is_the_flag(binary, tmp_path):
    flag, _ = _fixed(binary, tmp_path, "flag", PRINT_ONLY, "--unsafe-fixes")
    safe, _ = _fixed(binary, tmp_path, "safe", PRINT_ONLY)
    config, _ = _fixed(binary, tmp_path, "config", PRINT_ONLY, pyproject=UNSAFE_ON)
    assert config == flag and flag != PRINT_ONLY


def test_no_unsafe_fixes_flag_beats_pyproject(binary, tmp_path):
    safe, _ = _fixed(binary, tmp_path, "safe", PRINT_ONLY)
    overridden, _ = _fixed(binary, tmp_path, "no", PRINT_ONLY, "--no-unsafe-fixes", pyproject=UNSAFE_ON)
    assert overridden == safe


def test_pyproject_unsafe_fixes_must_be_a_boolean(binary, files, tmp_path):
    files("pyproject.toml", "[tool.graphmend]\nunsafe-fixes = \"yes\"\n")
    files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "fix", "p.py", cwd=tmp_path)
    assert proc.returncode == 2, proc
    assert b"unsafe-fixes must be true or false" in proc.stderr


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_check_treats_cr_and_crlf_as_line_breaks(binary, tmp_path, newline):
    (tmp_path / "lf.py").write_bytes(MODEL.encode("utf-8"))
    (tmp_path / "other.py").write_bytes(MODEL.replace("\n", newline).encode("utf-8"))
    lf = run_cli(binary, "check", "lf.py", cwd=tmp_path)
    other = run_cli(binary, "check", "other.py", cwd=tmp_path)
    assert lf.returncode == other.returncode == 1, other
    assert [f[1:] for f in findings(other.stdout)] == [f[1:] for f in findings(lf.stdout)]
    assert "GM001" not in other.stdout.decode("utf-8")


@pytest.mark.parametrize("text", [PRINT_ONLY, MODEL], ids=["print-only", "model"])
@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_fix_keeps_the_files_line_endings(binary, tmp_path, text, newline):
    fixed = {}
    for name, ending in (("lf", "\n"), ("other", newline)):
        d = tmp_path / name
        d.mkdir()
        (d / "p.py").write_bytes(text.replace("\n", ending).encode("utf-8"))
        proc = run_cli(binary, "fix", "--unsafe-fixes", "p.py", cwd=d)
        assert proc.returncode in (0, 1), proc
        fixed[name] = (d / "p.py").read_bytes().decode("utf-8")
    assert fixed["lf"] != text
    assert fixed["other"] == fixed["lf"].replace("\n", newline)


CORPUS_WORKSPACE = pathlib.Path(__file__).resolve().parents[1] / "corpus" / "workspace"


def test_fix_mends_what_check_finds_through_other_modules(binary, tmp_path):
    """A finding that only the workspace's analysis facts give (the helper's parameter is a
    tensor because another module's compiled code passes one) is mended by `fix` as `check`
    reports it: fix analyses the files as check does before it mends them."""
    for name in ("anchors_lib.py", "case.py"):
        shutil.copy(CORPUS_WORKSPACE / "passed_tensor_arguments" / name, tmp_path / name)
    check = run_cli(binary, "check", "--select", "GM202", "--output-format", "concise", ".",
                    cwd=tmp_path)
    assert b"anchors_lib.py:17:" in check.stdout and b"[*]" in check.stdout, check.stdout
    proc = run_cli(binary, "fix", "--select", "GM202", ".", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc
    mended = (tmp_path / "anchors_lib.py").read_text(encoding="utf-8")
    assert "feats[0].new_empty((h * w, 1)).fill_(stride.detach().reshape(()))" in mended
    again = run_cli(binary, "check", "--select", "GM202", ".", cwd=tmp_path)
    assert again.returncode == 0, again.stdout

"""`graphmend check` / `fix` behave as people know from ruff: the default path, exit codes,
summaries, `[*]` markers, statistics, output formats, stdin, colour."""

import json
import os
import pty
import re
import subprocess


from conftest import run_cli
from samples import CLEAN, MODEL, MODEL_FINDINGS, PRINT_ONLY

# In MODEL: the `if x.sum() > 0:` break has a safe mend, the prints only unsafe ones and the
# `while` none.
MODEL_FIXABLE, MODEL_UNSAFE = 1, 2


def lines(stream: bytes):
    return stream.decode("utf-8").splitlines()


# ------------------------------------------------------------------ 1: paths and exit codes


def test_check_without_paths_checks_the_current_directory(binary, files, tmp_path):
    files("pkg/p.py", PRINT_ONLY)
    files("clean.py", CLEAN)
    proc = run_cli(binary, "check", "--output-format", "concise", cwd=tmp_path)
    assert proc.returncode == 1, proc
    assert [l.split(":")[0] for l in lines(proc.stdout) if ": GM" in l] == ["pkg/p.py"]


def test_exit_zero(binary, files, tmp_path):
    files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "check", "--exit-zero", "p.py", cwd=tmp_path)
    assert proc.returncode == 0, proc
    assert b"GM401" in proc.stdout
    proc = run_cli(binary, "fix", "--exit-zero", "p.py", cwd=tmp_path)
    assert proc.returncode == 0, proc


def test_missing_file_is_an_error_and_nothing_else(binary, tmp_path):
    proc = run_cli(binary, "check", "missing.py", cwd=tmp_path)
    assert proc.returncode == 2, proc
    assert b"missing.py" in proc.stderr
    assert proc.stdout == b"", proc.stdout
    assert b"No predicted" not in proc.stderr and b"passed" not in proc.stderr


# ------------------------------------------------------------------ 2: statistics


def test_statistics(binary, files, tmp_path):
    files("model.py", MODEL)
    files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "check", "--statistics", cwd=tmp_path)
    assert proc.returncode == 1, proc
    out = lines(proc.stdout)
    assert out[:2] == ["3\tGM401\t[ ] print-call", "2\tGM101\t[*] data-dependent-branch"], out
    assert out[2] == "Found 5 predicted graph breaks."
    proc = run_cli(binary, "check", "--statistics", "--output-format", "json", cwd=tmp_path)
    assert json.loads(proc.stdout) == [
        {"code": "GM401", "name": "print-call", "count": 3, "fixable": False,
         "fixable_count": 0},
        {"code": "GM101", "name": "data-dependent-branch", "count": 2, "fixable": True,
         "fixable_count": 1}]


# ------------------------------------------------------------------ 3: fixable markers, summary


def test_fixable_marker_and_summary_on_stdout(binary, files, tmp_path):
    files("model.py", MODEL)
    proc = run_cli(binary, "check", "--output-format", "concise", "model.py", cwd=tmp_path)
    out = lines(proc.stdout)
    marked = [l for l in out if " GM101 [*] " in l]
    assert len(marked) == MODEL_FIXABLE, out
    assert not [l for l in out if " GM401 [*]" in l], out
    assert out[-2:] == [
        f"Found {len(MODEL_FINDINGS)} predicted graph breaks.",
        f"[*] {MODEL_FIXABLE} fixable with `graphmend fix` ({MODEL_UNSAFE} unsafe fixes "
        "available with `graphmend fix --unsafe-fixes`)."], out
    assert proc.stderr == b""
    unsafe = run_cli(binary, "check", "--unsafe-fixes", "--output-format", "concise", "model.py",
                     cwd=tmp_path)
    assert lines(unsafe.stdout)[-1] == \
        f"[*] {MODEL_FIXABLE + MODEL_UNSAFE} fixable with `graphmend fix`."


def test_clean_check_says_all_checks_passed(binary, files, tmp_path):
    files("clean.py", CLEAN)
    proc = run_cli(binary, "check", "clean.py", cwd=tmp_path)
    assert proc.returncode == 0 and lines(proc.stdout) == ["All checks passed!"], proc


def test_fix_lists_what_remains_and_show_fixes(binary, files, tmp_path):
    files("model.py", MODEL)
    proc = run_cli(binary, "fix", "--show-fixes", "--output-format", "concise", "model.py",
                   cwd=tmp_path)
    assert proc.returncode == 1, proc
    out = proc.stdout.decode()
    remaining = [l for l in out.splitlines() if l.startswith("model.py:")]
    assert len(remaining) == len(MODEL_FINDINGS) - MODEL_FIXABLE, out
    assert "Mended 1 graph break:\n- model.py:\n    1 × GM101 (data-dependent-branch)\n" in out
    assert f"Found {len(MODEL_FINDINGS)} predicted graph breaks (1 mended, " \
        f"{len(remaining)} remaining).\n" in out
    assert f"{MODEL_UNSAFE} unsafe fixes available with `graphmend fix --unsafe-fixes`." in out


def test_check_show_fixes_lists_the_mends(binary, files, tmp_path):
    files("model.py", MODEL)
    proc = run_cli(binary, "check", "--show-fixes", "model.py", cwd=tmp_path)
    assert "- model.py:\n    1 × GM101 (data-dependent-branch)\n" in proc.stdout.decode()


# ------------------------------------------------------------------ 5: output formats, stdin


def test_full_is_the_default_format(binary, files, tmp_path):
    files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "check", "p.py", cwd=tmp_path)
    out = proc.stdout.decode()
    assert out.startswith(
        "GM401 `print(y)`: torch.compile cannot trace the builtin print and breaks the graph "
        "here\n"
        " --> p.py:7:5\n"
        "  |\n"
        "5 | def f(x: torch.Tensor) -> torch.Tensor:\n"
        "6 |     y = x * 2\n"
        "7 |     print(y)\n"
        "  |     ^^^^^^^^\n"
        "8 |     return y\n"
        "  |\n"
        "help: Mend graph break: "), out
    text = run_cli(binary, "check", "--output-format", "text", "p.py", cwd=tmp_path)
    concise = run_cli(binary, "check", "--output-format", "concise", "p.py", cwd=tmp_path)
    assert text.stdout == concise.stdout
    assert lines(concise.stdout)[0].startswith("p.py:7:5: GM401 `print(y)`: ")


def test_github_format(binary, files, tmp_path):
    files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "check", "--output-format", "github", "p.py", cwd=tmp_path)
    assert proc.returncode == 1
    [line] = lines(proc.stdout)
    assert re.fullmatch(r"::error title=graphmend \(GM401\),file=p\.py,line=7,col=5,endLine=7,"
                        r"endColumn=13::p\.py:7:5: GM401 `print\(y\)`: .+", line), line


def test_gitlab_format(binary, files, tmp_path):
    files("model.py", MODEL)
    proc = run_cli(binary, "check", "--output-format", "gitlab", "model.py", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert len(report) == len(MODEL_FINDINGS)
    first = report[0]
    assert set(first) == {"check_name", "description", "severity", "fingerprint", "location"}
    assert first["check_name"] == "GM101" and first["description"].startswith("GM101: ")
    assert first["location"]["path"] == "model.py"
    assert first["location"]["positions"]["begin"] == {"line": 18, "column": 12}
    assert len({r["fingerprint"] for r in report}) == len(report)
    again = json.loads(run_cli(binary, "check", "--output-format", "gitlab", "model.py",
                               cwd=tmp_path).stdout)
    assert [r["fingerprint"] for r in again] == [r["fingerprint"] for r in report]


def test_stdin_filename_check_and_fix(binary, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.graphmend]\nunsafe-fixes = true\n")
    proc = run_cli(binary, "check", "--output-format", "concise", "--stdin-filename", "src/p.py",
                   cwd=tmp_path, stdin_data=PRINT_ONLY.encode())
    assert proc.returncode == 1, proc
    assert lines(proc.stdout)[0].startswith("src/p.py:7:5: GM401 [*] ")
    proc = run_cli(binary, "fix", "--stdin-filename", "p.py", cwd=tmp_path,
                   stdin_data=PRINT_ONLY.encode())
    assert proc.returncode == 0, proc
    fixed = proc.stdout.decode()
    assert fixed != PRINT_ONLY and "reorderable_logging_functions.add(print)" in fixed
    assert b"1 mended" in proc.stderr
    assert not (tmp_path / "p.py").exists()


# ------------------------------------------------------------------ 6: colour, progress


def run_on_tty(binary, args, cwd, env):
    """Runs with stdout on a pseudo-terminal; returns what it printed there."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([binary, *args], cwd=cwd, stdout=follower, stderr=subprocess.PIPE,
                            env=env)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=10)
    os.close(leader)
    return out


def test_color(binary, files, tmp_path):
    files("p.py", PRINT_ONLY)
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    piped = run_cli(binary, "check", "p.py", cwd=tmp_path)
    assert b"\x1b[" not in piped.stdout
    always = run_cli(binary, "check", "--color", "always", "p.py", cwd=tmp_path)
    assert b"\x1b[" in always.stdout
    assert b"\x1b[" in run_on_tty(binary, ["check", "p.py"], tmp_path, env)
    assert b"\x1b[" not in run_on_tty(binary, ["check", "--color", "never", "p.py"], tmp_path,
                                      env)
    assert b"\x1b[" not in run_on_tty(binary, ["check", "p.py"], tmp_path,
                                      {**env, "NO_COLOR": "1"})
    bad = run_cli(binary, "check", "--color", "sometimes", "p.py", cwd=tmp_path)
    assert bad.returncode == 2


def test_no_progress_on_a_pipe(binary, files, tmp_path):
    for i in range(30):
        files(f"pkg/m{i}.py", MODEL)
    proc = run_cli(binary, "check", "pkg", cwd=tmp_path, timeout=60)
    assert proc.returncode == 1 and proc.stderr == b"", proc.stderr


# ------------------------------------------------------------------ 4: rule explanations


def test_rule_explains_one_rule_as_markdown(binary):
    proc = run_cli(binary, "rule", "GM101")
    assert proc.returncode == 0, proc
    out = proc.stdout.decode()
    assert out.startswith("# data-dependent-branch (GM101)\n\n")
    assert "## Why it breaks the graph\n\nWhich way an `if`/`while` goes" in out
    assert "## How to fix\n\n" in out and "torch.where" in out
    assert "[GB0170](https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0170.html)" in out


def test_rule_all_and_unknown(binary):
    proc = run_cli(binary, "rule", "--all")
    assert proc.returncode == 0
    headings = re.findall(r"^# \S+ \((GM\d{3})\)$", proc.stdout.decode(), re.M)
    assert "GM001" in headings and "GM401" in headings and headings == sorted(headings)
    proc = run_cli(binary, "rule", "GM999")
    assert proc.returncode == 2 and b"GM999" in proc.stderr and proc.stdout == b""
    assert run_cli(binary, "rule").returncode == 2


# ------------------------------------------------------------------ 7: configuration as ruff's

PROJECT = '''\
[tool.graphmend]
extend-exclude = ["gen"]
ignore = ["GM401"]
extend-select = ["GM101"]

[tool.graphmend.per-file-ignores]
"pkg/model.py" = ["GM101"]
"test_*.py" = ["GM4"]
'''


def reported(proc):
    return sorted((l.split(":")[0], l.split(": ")[1].split()[0])
                  for l in lines(proc.stdout) if ": GM" in l)


def project(files):
    files("pyproject.toml", PROJECT)
    files("pkg/a.py", PRINT_ONLY)
    files("pkg/gen/b.py", PRINT_ONLY)
    files("tests/test_a.py", PRINT_ONLY)
    files("pkg/model.py", MODEL)


def test_exclude_applies_to_walks_not_to_named_files(binary, files, tmp_path):
    project(files)
    walked = run_cli(binary, "check", "--output-format", "concise", "--select", "GM4",
                     cwd=tmp_path)
    assert "pkg/gen/b.py" not in {path for path, _ in reported(walked)}, walked.stdout
    named = run_cli(binary, "check", "--output-format", "concise", "--select", "GM4",
                    "pkg/gen/b.py", cwd=tmp_path)
    assert reported(named) == [("pkg/gen/b.py", "GM401")], named
    forced = run_cli(binary, "check", "--output-format", "concise", "--select", "GM4",
                     "--force-exclude", "pkg/gen/b.py", cwd=tmp_path)
    assert forced.returncode == 0 and reported(forced) == [], forced


def test_per_file_ignores_and_extend_select(binary, files, tmp_path):
    project(files)
    proc = run_cli(binary, "check", "--output-format", "concise", cwd=tmp_path)
    # GM401 ignored everywhere; GM101 (extend-select) ignored in pkg/model.py by its glob
    assert proc.returncode == 0 and reported(proc) == [], proc.stdout
    (tmp_path / "pkg" / "other.py").write_text(MODEL, encoding="utf-8")
    proc = run_cli(binary, "check", "--output-format", "concise", cwd=tmp_path)
    assert reported(proc) == [("pkg/other.py", "GM101")] * 2, proc.stdout


def test_command_line_select_beats_config_ignore(binary, files, tmp_path):
    project(files)
    proc = run_cli(binary, "check", "--output-format", "concise", "--select", "GM401",
                   cwd=tmp_path)
    got = reported(proc)
    # reported despite ignore = ["GM401"]; the per-file-ignores still hold for tests/
    assert ("pkg/a.py", "GM401") in got and ("pkg/model.py", "GM401") in got, got
    assert not [p for p, _ in got if p.startswith("tests/")], got


def test_bad_exclude_is_a_config_error(binary, files, tmp_path):
    files("pyproject.toml", "[tool.graphmend]\nexclude = \"build\"\n")
    files("p.py", PRINT_ONLY)
    proc = run_cli(binary, "check", "p.py", cwd=tmp_path)
    assert proc.returncode == 2 and b"exclude must be an array" in proc.stderr, proc


# ------------------------------------------------------------------ 8: noqa, prefixes, GM901

SUPPRESSIONS = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    print("a")  # noqa: GM401
    print("b")  # noqa
    print("c")  # graphmend: ignore[GM4]
    print("d")  # noqa: E501
    y = x + 1  # noqa: GM401
    z = y + 1  # graphmend: ignore[GM401, GM999]
    return z
'''


def test_noqa_and_prefixes_suppress(binary, files, tmp_path):
    files("s.py", SUPPRESSIONS)
    proc = run_cli(binary, "check", "--output-format", "concise", "s.py", cwd=tmp_path)
    # only print("d") is left: its noqa names another tool's code; GM901 is not selected
    assert reported(proc) == [("s.py", "GM401")], proc.stdout
    assert lines(proc.stdout)[0].startswith("s.py:9:5: GM401")


def test_unused_suppressions_are_reported_and_fixed(binary, files, tmp_path):
    path = files("s.py", SUPPRESSIONS)
    proc = run_cli(binary, "check", "--output-format", "concise", "--select", "GM4,GM901",
                   "s.py", cwd=tmp_path)
    out = lines(proc.stdout)
    assert [l for l in out if "GM901" in l] == [
        "s.py:10:16: GM901 [*] Unused `noqa` directive (unused: `GM401`)",
        "s.py:11:18: GM901 [*] Unused `graphmend: ignore` directive (unused: `GM401`; "
        "unknown: `GM999`)"], out
    proc = run_cli(binary, "fix", "--select", "GM4,GM901", "s.py", cwd=tmp_path)
    text = path.read_text(encoding="utf-8")
    assert "    y = x + 1\n    z = y + 1\n" in text, text
    assert '# noqa: GM401\n    print("b")' in text  # the used ones stay
    again = run_cli(binary, "check", "--output-format", "concise", "--select", "GM901", "s.py",
                    cwd=tmp_path)
    assert again.returncode == 0, again.stdout


# ------------------------------------------------------------------ messages that name the construct

NAMED_CONSTRUCTS = '''\
import os

import torch
import torch.nn.functional as F


@torch.compile
def step(x, labels: torch.Tensor):
    y = torch.tanh(x)
    keep = y > 0
    z = y[keep]
    n = labels.max().item()
    hot = F.one_hot(labels)
    pid = os.getpid()
    if x.sum() > 0:
        z = z * 2
    return z, n, hot, pid
'''


def test_check_messages_name_the_construct_as_written(binary, files, tmp_path):
    """Each row names what the code wrote, and why an operand counts as a tensor where the
    analysis had to decide it: rows for the same rule differ at a glance."""
    files("named.py", NAMED_CONSTRUCTS)
    proc = run_cli(binary, "check", "--output-format", "concise", "named.py", cwd=tmp_path)
    rows = {line.split(": ", 1)[1].split(" ", 1)[0]: line for line in
            proc.stdout.decode().splitlines() if line.startswith("named.py:")}
    assert "boolean-mask indexing `y[keep]` (`keep` is a tensor because it is assigned " \
        "`y > 0`)" in rows["GM301"], rows
    assert "`labels.max().item()` on a tensor (`labels` is a tensor because it is annotated " \
        "`torch.Tensor`)" in rows["GM201"], rows
    assert "`F.one_hot(labels)` without `num_classes`" in rows["GM302"], rows
    assert "`os.getpid()` call: " in rows["GM501"], rows
    assert "`if x.sum() > 0` on a tensor value (`x` is a tensor because it is passed to " \
        "`torch.tanh`)" in rows["GM101"], rows

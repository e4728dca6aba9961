"""`graphmend check` on a package directory checks a library: every public function and method
(forward's path aside) is an entry point a user may compile (`torch.compile(solve)`,
`torch.compile(model.generate)`), and the breaks only an entry point reaches are reported on the
condition that it is compiled, naming it; a private helper's break names the public entry that
reaches it, across the package's modules. Entries are named as users import them: a function
the package's __init__ re-exports by the package ("odelib.solve"); functions of private modules
("odelib._steps") and of the package's tests are not entries of their own."""

import json
import pathlib

from conftest import run_cli

SOLVER = """\
import torch

from ._steps import advance


def solve(func, y0, steps):
    y = y0
    for _ in range(steps):
        y = advance(func, y)
    print("solved")
    return y


def _private_entry(x):
    print("private: not an entry point")
    return x


class Decoder(torch.nn.Module):
    def forward(self, x):
        print("forward is compiled whatever the user compiles")
        return x

    def generate(self, x):
        for _ in range(3):
            x = self.forward(x)
            if x.sum() > 0:
                x = -x
        return x
"""

STEPS = """\
import torch


def advance(func, y):
    out = func(y)
    return out * out.max().item()
"""

TESTS = """\
def test_solve():
    print("a test module of the package: not its API")
"""


def write_package(root: pathlib.Path) -> pathlib.Path:
    pkg = root / "odelib"
    (pkg / "tests").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .solver import Decoder, solve\n")
    (pkg / "solver.py").write_text(SOLVER)
    (pkg / "_steps.py").write_text(STEPS)
    (pkg / "tests" / "__init__.py").write_text("")
    (pkg / "tests" / "test_solver.py").write_text(TESTS)
    return pkg


def findings(proc) -> list:
    return sorted((pathlib.Path(f["filename"]).name, f["location"]["row"], f["code"],
                   (f.get("only_when") or {}).get("condition")) for f in json.loads(proc.stdout))


def test_package_check_reports_entry_points_on_their_condition(binary, tmp_path):
    pkg = write_package(tmp_path)
    proc = run_cli(binary, "check", "--output-format", "json", str(pkg))
    assert proc.returncode == 1, proc.stderr
    assert findings(proc) == [
        ("_steps.py", 6, "GM201", "odelib.solve is compiled"),
        ("solver.py", 10, "GM401", "odelib.solve is compiled"),
        ("solver.py", 21, "GM401", None),
        ("solver.py", 27, "GM101", "odelib.Decoder.generate is compiled"),
    ]


def test_the_condition_is_said_in_the_text_report(binary, tmp_path):
    pkg = write_package(tmp_path)
    out = run_cli(binary, "check", str(pkg)).stdout.decode()
    assert "(when `odelib.solve` is compiled)" in out, out
    assert "private: not an entry point" not in out


def test_files_checked_alone_have_no_entry_points(binary, tmp_path):
    pkg = write_package(tmp_path)
    proc = run_cli(binary, "check", "--output-format", "json", str(pkg / "solver.py"),
                   str(pkg / "_steps.py"))
    assert findings(proc) == [("solver.py", 21, "GM401", None)]


def test_a_user_compile_of_the_entry_makes_its_breaks_plain(binary, tmp_path):
    pkg = write_package(tmp_path)
    (pkg / "run.py").write_text("import torch\n\nfrom .solver import solve\n\n"
                                "fast = torch.compile(solve)\n")
    proc = run_cli(binary, "check", "--output-format", "json", str(pkg))
    got = findings(proc)
    assert ("solver.py", 10, "GM401", None) in got, got
    assert ("_steps.py", 6, "GM201", None) in got, got

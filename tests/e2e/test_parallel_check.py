"""`graphmend check` analyses files on every core (GRAPHMEND_JOBS threads, default the online
CPUs) and reports exactly what one thread reports, in the same order: findings, cross-file
findings (a helper called from another file's compiled code), and the errors of files it could
not read."""

from __future__ import annotations

import os
import subprocess

HELPER = """\
import torch


def scale(x):
    if x.sum() > 0:
        x = x * 2
    return x
"""

MODEL = """\
import torch
from torch import nn

from helpers_{i} import scale


class Block{i}(nn.Module):
    def forward(self, x):
        print("block {i}")
        return scale(x) + x.nonzero().sum()


model = torch.compile(Block{i}())
"""


def run_check(binary: str, root, jobs: int) -> subprocess.CompletedProcess:
    env = dict(os.environ, GRAPHMEND_JOBS=str(jobs))
    # the FIFO named on the command line is an error (a walk skips it)
    return subprocess.run([binary, "check", "--output-format", "concise", str(root),
                           str(root / "pipe.py")],
                          capture_output=True, text=True, env=env, timeout=300, cwd=root)


def test_many_threads_report_what_one_thread_reports(binary, tmp_path):
    for i in range(24):
        (tmp_path / f"helpers_{i}.py").write_text(HELPER, encoding="utf-8")
        (tmp_path / f"model_{i}.py").write_text(MODEL.format(i=i), encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.py")  # refused, whatever the thread count
    one = run_check(binary, tmp_path, 1)
    many = run_check(binary, tmp_path, 8)
    assert one.returncode == many.returncode == 2, (one.stderr, many.stderr)
    assert many.stdout == one.stdout
    assert many.stderr == one.stderr
    lines = one.stdout.splitlines()
    # every model's print, and each helper's branch, which only the model's compiled call reaches
    assert sum("GM401" in line for line in lines) == 24
    assert sum("helpers_" in line and "GM101" in line for line in lines) == 24
    assert "pipe.py" in one.stderr

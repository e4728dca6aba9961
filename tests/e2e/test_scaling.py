"""Analysis cost grows linearly with the size of a file: a file four times longer may cost
about four times as much, never sixteen (a per-file pass that walks every class or statement
for each region made 4,000 classes cost 50x what 1,000 did). Measured as a ratio of CPU times
in the same run, so a loaded machine does not decide the outcome.

Marked serial (tests/conftest.py): CPU time still grows when another test shares the cores
(caches, memory bandwidth), unevenly between the small and the large file's runs, so tools/test
runs these alone after the parallel run of tests/e2e."""

from __future__ import annotations

import json
import resource
import subprocess

import pytest

pytestmark = pytest.mark.serial

HEADER = """\
import logging
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)
SCALE = np.sqrt(2.0)
gen = torch.Generator()
"""

# One unit of the file: the constructs each per-file pass looks up across the module (classes
# by name and by base, same-file callers of functions and forwards, disabled functions,
# generators, imports before a statement, autograd Functions, recurrent submodules).
UNIT = """\
import math as math_{i}


@torch.compiler.disable
def opaque_{i}(x):
    return x


def helper_{i}(x, k):
    if x.sum() > k:
        print("big", k)
    return x.relu() * math_{i}.pi


class Fn{i}(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Block{i}({base}):
    def __init__(self, d=4):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.rnn = nn.GRU(d, d)
        self.inner = Leaf{i}()

    def forward(self, x, mask=None):
        y = helper_{i}(self.lin(x), {i}) * SCALE
        y = self.inner(y) + Fn{i}.apply(y) + opaque_{i}(y)
        if mask is not None:
            y = y[mask]
        logger.info("shape %s", y.shape)
        return F.gelu(y + torch.rand(1, generator=gen))


class Leaf{i}(nn.Module):
    def forward(self, h):
        if torch.isinf(h).any():
            h = torch.clamp(h, -1e4, 1e4)
        return h.item() if h.numel() == 1 else h
"""


def source(units: int) -> str:
    parts = [HEADER]
    for i in range(units):
        parts.append(UNIT.format(i=i, base=f"Block{i - 1}" if i % 3 else "nn.Module"))
    parts.append(f"\nmodel = torch.compile(Block{units - 1}())\n")
    return "\n".join(parts)


def cpu_seconds(binary: str, path) -> tuple[float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([binary, "check", "--output-format", "json", str(path)],
                          capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode in (0, 1), done.stderr
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent, len(json.loads(done.stdout))


def test_check_cost_grows_linearly_with_the_number_of_classes(binary, tmp_path):
    small, large = tmp_path / "small.py", tmp_path / "large.py"
    small.write_text(source(250), encoding="utf-8")
    large.write_text(source(1000), encoding="utf-8")
    # the best of three runs of each: noise only ever adds time
    small_runs = [cpu_seconds(binary, small) for _ in range(3)]
    large_runs = [cpu_seconds(binary, large) for _ in range(3)]
    small_findings, large_findings = small_runs[0][1], large_runs[0][1]
    # the same constructs four times over: about four times the findings
    assert small_findings > 250 and 3.5 * small_findings < large_findings < 4.5 * small_findings, (
        small_findings, large_findings)
    ratio = min(t for t, _ in large_runs) / max(min(t for t, _ in small_runs), 1e-3)
    # linear: about 4; quadratic: about 16
    assert ratio < 7.0, f"4x the file cost {ratio:.1f}x the CPU time"


# A module copied many times into one file: the same imports, the same class name and method
# keys again and again (30,000 copies of such a unit took 56 s, where 8,000 distinct classes
# took 1.3 s: lookups walked every earlier copy).
REPEATED = """\
import torch
import torch.nn as nn
from torch import Tensor


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x: Tensor) -> Tensor:
        if x.sum() > 0:
            x = x * 2
        return self.lin(x)


"""


def test_check_cost_grows_linearly_with_repeated_definitions(binary, tmp_path):
    small, large = tmp_path / "small.py", tmp_path / "large.py"
    small.write_text(REPEATED * 1500, encoding="utf-8")
    large.write_text(REPEATED * 6000, encoding="utf-8")
    small_runs = [cpu_seconds(binary, small) for _ in range(3)]
    large_runs = [cpu_seconds(binary, large) for _ in range(3)]
    assert small_runs[0][1] == 1500 and large_runs[0][1] == 6000, (small_runs, large_runs)
    ratio = min(t for t, _ in large_runs) / max(min(t for t, _ in small_runs), 1e-3)
    assert ratio < 7.0, f"4x the copies cost {ratio:.1f}x the CPU time"

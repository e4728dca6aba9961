"""Python sources the end-to-end tests open, with what the server must find in them.

Every tensor value carries evidence (a torch.Tensor annotation or a torch call), because the
analysis must not guess that a bare parameter is a tensor."""

MODEL = '''\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        print("building")
        self.lin = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[0] > 1:
            x = x * 2
        if x is None:
            return x
        if self.training:
            x = x + 1
        if x.sum() > 0:
            x = x - 1
        print(x)
        return self.lin(x)


@torch.compile
def step(x: torch.Tensor) -> torch.Tensor:
    y = torch.relu(x)
    while y.max() > 1:
        y = y / 2
    print("hi")
    return y


def eager(x: torch.Tensor) -> torch.Tensor:
    print(x)
    if x.sum() > 0:
        return x
    return -x
'''

# (code, exact source text the range must cover, occurrence of that text in MODEL)
MODEL_FINDINGS = [
    ("GM101", "x.sum() > 0", 0),
    ("GM401", "print(x)", 0),
    ("GM101", "y.max() > 1", 0),
    ("GM401", 'print("hi")', 0),
]
# Findings that come only from forward (nn.Module) regions.
MODEL_FORWARD_FINDINGS = MODEL_FINDINGS[:2]

# Aliased torch and torch.compile with arguments.
ALIASED = '''\
import torch as th


@th.compile(fullgraph=False, dynamic=True)
def f(x: th.Tensor) -> th.Tensor:
    if x.mean() < 0.5:
        x = x + 1
    print("value", x)
    return x


@th.compile()
def g(x: th.Tensor) -> th.Tensor:
    print(x.shape)
    return x
'''
ALIASED_FINDINGS = [
    ("GM101", "x.mean() < 0.5", 0),
    ("GM401", 'print("value", x)', 0),
    ("GM401", "print(x.shape)", 0),
]

# A print that only non-ASCII text precedes on its line, and non-ASCII inside the call.
NON_ASCII = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    s = "é😀"; print(s, "ü😀")
    return x
'''
NON_ASCII_PRINT = 'print(s, "ü😀")'

# Non-ASCII inside the call and in a trailing comment; the print is a statement of its own.
NON_ASCII_STMT = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    print("é😀", x)  # ü😀
    return x
'''

SUPPRESSED = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    print("a")  # graphmend: ignore[GM401]
    print("b")
    return x
'''

SYNTAX_ERROR = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    if x.sum() > 0
        return x
    return x
'''

PRINT_ONLY = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    print(y)
    return y
'''

CLEAN = '''\
import torch


@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    if x.shape[0] > 1:
        return x * 2
    return x
'''

TRAINING = '''\
import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            print("training step")
        return x
'''

# Spellings of compiled regions and of suppressions; each flagged print names its region.
VARIANTS = '''\
import torch as t
from torch import compile as tc
from torch import nn
from torch.nn import Module
import torch


@tc
def f1(x: t.Tensor):
    print("f1")


@t.compile(mode="max-autotune")
def f2(x: t.Tensor):
    if x.shape[0] > 1 and x is not None:
        pass
    print("f2 wrong rule")  # graphmend: ignore[GM101]
    print("f2 suppressed")  # graphmend: ignore[GM401]


class A(Module):
    def forward(self, x: torch.Tensor):
        print("A")


class B(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        print("B")

    def helper(self, x: torch.Tensor):
        print("B.helper is not traced")


class D:
    def forward(self, x: torch.Tensor):
        print("D is not a module")
'''
VARIANTS_FINDINGS = [
    ("GM401", 'print("f1")', 0),
    ("GM401", 'print("f2 wrong rule")', 0),
    ("GM401", 'print("A")', 0),
    ("GM401", 'print("B")', 0),
]

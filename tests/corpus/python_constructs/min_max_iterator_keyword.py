"""`max(...)`/`min(...)` with `default=` or `key=` over a generator expression or a call of map,
filter, zip or enumerate breaks (GB0193, kornia's SIFT descriptor); over a list, a list
comprehension, a tuple or a range, and without a keyword, it is traced. Each form is in a
function of its own. Over a generator expression dynamo cannot resume (the generator is on the
stack): it runs the rest of the function eagerly, and the print after it is never traced."""
import torch
from torch import nn


def top_level(x, used):
    top = max((i for i, u in enumerate(used) if u), default=-1)  # expect: GM611
    print("top level", top)
    return x * top


def smallest():
    return min(map(abs, [2, -1]), key=abs)  # expect: GM611


def first_pair(x):
    pair = max(zip([1, 2], [3, 4]), default=(0, 0))  # expect: GM611
    print("first pair")  # expect: GM401
    return x * pair[0]


def kept(used):
    listed = max([i for i, u in enumerate(used) if u], default=-1)
    plain = max(i for i in range(3))
    ranged = min(range(1, 4), default=0)
    tupled = max((1, 2), key=abs)
    return listed + plain + ranged + tupled


class LevelPicker(nn.Module):
    def forward(self, x, used):
        x = top_level(x, used)
        x = x + smallest()
        x = x - first_pair(x)
        return x * kept(used)


def example():
    return LevelPicker().eval(), (torch.randn(4), [True, False, True])

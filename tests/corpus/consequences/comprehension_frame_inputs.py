"""What makes dynamo compile a Python 3.11 comprehension frame of a function it runs eagerly
(has_tensor_in_frame): a tensor among the names it reads from the function, or a torch or numpy
module among the globals it names. A function imported from torch (`cat`) is no module, a module
imported inside the function is a local (a module among the locals is no tensor), and a name the
comprehension binds itself is not the function's tensor: those frames are skipped and run
without a break."""
import numpy as np
import torch
from torch import cat, nn

NAMES = ["a", "b"]


class M(nn.Module):
    def forward(self, x: torch.Tensor):
        for _ in range(2):
            if x.sum() > 0:  # expect: GM101
                x = x * 2
        import torch as t
        a = [np.ones(1) for _ in NAMES]  # expect: GM606
        b = [cat([x[:1], x[:1]]) for _ in NAMES]  # expect: GM606
        c = [cat for _ in NAMES]
        d = [t.zeros(1) for _ in NAMES]
        e = [x for x in NAMES]
        f = [nn.Identity() for _ in NAMES]  # expect: GM606
        return x, a, b, c, d, e, f


def example():
    return M().eval(), (torch.rand(2, 4),)

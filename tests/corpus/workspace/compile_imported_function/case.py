"""torch.compile of a function imported from another module: the target and what it calls
there are compiled regions of that module, though nothing in it is decorated."""
import torch

from scoring_lib import score

fast_score = torch.compile(score)


def example():
    return fast_score, (torch.randn(3, 5) - 1.0,)

"""A library's solver function compiled as its users compile it, by the name the package
re-exports (tests/oracle/test_library_entry_points.py also checks the package alone, where each
break holds "when `entrylib.solve` is compiled")."""
import torch

import entrylib

fast_solve = torch.compile(entrylib.solve)


def example():
    return fast_solve, (torch.randn(4, 8), 3)

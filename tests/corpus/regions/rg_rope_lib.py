"""Support module: decorators for forward methods. refresh_cache returns a nested wrapper that
calls a nested helper branching on a tensor (transformers' dynamic_rope_update); passthrough
returns the function unchanged; keep_unreturned defines a nested def it never returns."""
import functools

import torch


def refresh_cache(forward):
    def grow(self, positions):
        seq_len = torch.max(positions) + 1
        if seq_len > self.cached_len:  # expect: GM101
            self.scale = self.scale * 0.5

    @functools.wraps(forward)
    def wrapper(self, x, positions):
        if self.mode == "grow":
            grow(self, positions)
        return forward(self, x, positions)

    return wrapper


def passthrough(forward):
    def report(x):
        print("report", x)
        return x

    forward.report = report
    return forward


def keep_unreturned(forward):
    def unused(self, x):
        print("never runs", x)
        return x

    forward.unused = unused
    return forward

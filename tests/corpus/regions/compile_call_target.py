"""`torch.compile(f)` at module level makes f (and what it calls) a compiled region, though f
carries no decorator; a function nothing compiles is not one."""
import torch


def normalise(x):
    scale = x.abs().amax()
    if scale > 1:  # expect: GM101
        x = x / scale
    return x


def step(x):
    y = normalise(x) * 2
    print("step", y.shape)  # expect: GM401
    return y


def report(x):
    print("never compiled", x.sum())
    return x


compiled_step = torch.compile(step)


def example():
    return compiled_step, (torch.randn(4, 8) * 3,)

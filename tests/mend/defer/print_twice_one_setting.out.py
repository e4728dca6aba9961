# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# Both prints are deferred by the same setting line, inserted once.
import torch
torch._dynamo.config.reorderable_logging_functions.add(print)


@torch.compile
def step(x, scale):
    print("step input", x)
    y = x * scale
    print("step output %s" % "ready", y.sum())
    return y + 1


def example():
    return step, (torch.randn(3), 2.0)

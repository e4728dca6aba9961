# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch as th


@th.compile
def log_scale(x):
    # log needs positive values
    # a zero would give -inf
    th._assert_async(x.min() > 0, "RuntimeError: log_scale expects positive inputs")
    return th.log(x) * 2


def example():
    return log_scale, (th.rand(5) + 0.5,)

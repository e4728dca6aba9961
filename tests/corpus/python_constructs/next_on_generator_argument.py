"""next() on a generator or a zip object passed in breaks like on a list iterator (GB4347
"Missing tp_iternext"); next(iter(xs)) on a list passed in is traced."""
import torch


def numbers():
    yield 1.0
    yield 2.0


@torch.compile
def f(t, gen, pairs, xs):
    t = t + 1
    a = next(gen)  # expect: GM603
    t = t * 2
    b, c = next(pairs)  # expect: GM603
    d = next(iter(xs))
    return t * (a + b + c + d)


def example():
    return f, (torch.randn(4), numbers(), zip([1.0], [2.0]), [3.0, 4.0])

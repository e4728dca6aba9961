"""send() and throw() on a generator passed in break (GB0253 "call_method on generator"); on a
generator the function creates they are traced, and so is next()."""
import torch


def counter():
    total = 0
    while True:
        step = yield total
        if step is None:
            step = 1
        total += step


def guarded():
    try:
        yield 1
    except ValueError:
        yield 2


@torch.compile
def f(t, acc, g):
    t = t + 1
    a = acc.send(2)  # expect: GM605
    t = t * 2
    b = g.throw(ValueError)  # expect: GM605
    own = counter()
    next(own)
    c = own.send(3)
    mine = guarded()
    next(mine)
    d = mine.throw(ValueError)
    mine.close()
    return t * (a + b + c + d)


def make_args():
    acc = counter()
    next(acc)
    g = guarded()
    next(g)
    return acc, g


def example():
    acc, g = make_args()
    return f, (torch.randn(4), acc, g)

"""Tensor branches in functions nothing compiled calls: no break."""
import torch


def summarize(t):
    if t.sum() > 0:
        return "positive"
    if t.mean().item() < 0:
        return "negative"
    return "zero"


@torch.compile
def step(x):
    return torch.relu(x) * 2


def example():
    return step, (torch.randn(4, 8),)


if __name__ == "__main__":
    print(summarize(step(torch.randn(4, 8))))

import torch
@torch.compile
def f(x:
    if x.sum( > 0
        print(x

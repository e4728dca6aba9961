"""tqdm is on dynamo's third-party skip list: creating a progress bar and tqdm.write are
skipped calls (GB0007; write reports GB0008) and the function resumes after each."""
import tqdm

import torch


@torch.compile
def step(x):
    y = x.relu()
    bar = tqdm.tqdm(total=2, disable=True)  # expect: GM510
    y = y * 2
    tqdm.tqdm.write("step")  # expect: GM510
    y = y + 1
    return y, bar


def example():
    return step, (torch.randn(4, 8),)

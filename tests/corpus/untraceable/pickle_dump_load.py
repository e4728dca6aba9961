"""pickle.loads, pickle.dump and pickle.load are skipped functions (GB0007), like dumps. The
buffers are made outside the compiled code (io.BytesIO() inside breaks on its own)."""
import io
import pickle

import torch

DATA = pickle.dumps({"scale": 2})
OUT = io.BytesIO()
IN = io.BytesIO(pickle.dumps(3))


@torch.compile
def step(x):
    y = x.relu()
    cfg = pickle.loads(DATA)  # expect: GM501
    y = y * cfg["scale"]
    pickle.dump(1, OUT)  # expect: GM501
    y = y + 1
    k = pickle.load(IN)  # expect: GM501
    return y * k


def example():
    return step, (torch.randn(4, 8),)

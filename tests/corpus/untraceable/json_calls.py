"""json.dumps, json.loads and json.dump are inlined, but dynamo cannot trace the encoder and
decoder objects they build (GB0156 "Unsupported method call")."""
import io
import json

import torch

SINK = io.StringIO()


@torch.compile
def step(x, cfg_text):
    y = x.relu()
    cfg = json.loads(cfg_text)  # expect: GM505
    y = y * cfg["scale"]
    text = json.dumps({"n": 1})  # expect: GM505
    y = y + len(text)
    json.dump(cfg, SINK)  # expect: GM505
    return y - 1


def example():
    return step, (torch.randn(4, 8), '{"scale": 2}')

"""Support module: helpers the case's compiled forward calls through a package re-export and
through a module attribute. Dynamo reports their breaks here, in this file."""
import torch


def clamp_norm(x, limit):
    norm = x.norm(dim=-1, keepdim=True)
    if norm.max() > limit:  # expect: GM101
        x = x * (limit / norm.clamp(min=limit))
    return x


def report(x):
    print("report", x.shape)  # expect: GM401
    return x


def unused(x):
    print("nothing compiled calls this", x.sum())
    return x

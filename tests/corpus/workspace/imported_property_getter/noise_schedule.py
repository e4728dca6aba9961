"""A scheduler kept by a module of another file (case.py): its `init_sigma` getter reads a 0-d
tensor's value (GM202), reported here, where dynamo reports it, whichever file reads it.
`set_steps` stores tensors into attributes (`self.sigmas.to(device)` of a tensor it holds is what
makes dynamo report the read too: a store of `torch.tensor([...])` of literals alone does not,
checked on torch 2.13), `set_scale` stores a float."""
import torch


class Schedule:
    def __init__(self):
        self.sigmas = torch.linspace(0.1, 1.0, 10)
        self.steps = torch.tensor([9, 4])
        self.scale = 1.0

    def set_steps(self, first, device=None):
        self.steps = torch.tensor([first, 0], device=device)
        self.sigmas = self.sigmas.to(device)

    def set_scale(self, scale):
        self.scale = scale

    @property
    def init_sigma(self):
        return self.sigmas[self.steps[0]]  # expect: GM202

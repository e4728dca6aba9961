"""A @property of a class imported from another module (noise_schedule.py) whose getter breaks:
dynamo cannot resume inside the attribute read, so the function that reads it runs eagerly from
there on. `Sampler` first calls `set_steps`, which stores tensors into attributes (as diffusers'
consistency decoder calls its scheduler's `set_timesteps`): dynamo then also reports the read
itself (explain's step_unsupported), as with a class of the same file
(tensor_to_python/property_getter_break_after_tensor_store.py), and the print after it is never
traced. `QuietSampler` (not run here) calls `set_scale`, which stores a float: graphmend reports
only the getter for it."""
import torch
from torch import nn

from noise_schedule import Schedule


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.schedule = Schedule()

    def forward(self, x):
        self.schedule.set_steps(7, device=x.device)
        noise = self.schedule.init_sigma * x  # expect: GM202
        print("noise", noise.shape)
        return noise + 1


class QuietSampler(Sampler):
    def forward(self, x):
        self.schedule.set_scale(2.0)
        noise = self.schedule.init_sigma * x
        return noise + 1


def example():
    return Sampler().eval(), (torch.randn(2, 3),)

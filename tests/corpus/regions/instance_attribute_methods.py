"""Methods called on objects the module keeps in attributes: `self.scheduler.step(...)` where
__init__ made self.scheduler a plain helper object (diffusers' ConsistencyDecoderVAE and its
scheduler), its properties (`self.scheduler.first_step`), and `self.rotary.rotate(...)`, a
method other than forward of a submodule. Dynamo inlines them into the compiled forward, so
their breaks are the forward's; a method nothing calls is no region."""
import torch
from torch import nn


class Scheduler:
    def __init__(self):
        self.timesteps = torch.arange(4)

    def step(self, sample, timestep):
        index = torch.where(self.timesteps == timestep)[0]  # expect: GM301
        if index == 3:  # expect: GM101
            return sample
        return sample * 2

    @property
    def init_sigma(self):
        return self.timesteps.float().std()

    @property
    def first_step(self):
        print("first step")  # expect: GM401
        return 0

    def unused(self, sample):
        print("never called")
        return sample


class Rotary(nn.Module):
    def forward(self, x):
        return x

    def rotate(self, x):
        print("rotating")  # expect: GM401
        return x.flip(-1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scheduler = Scheduler()
        self.rotary = Rotary()

    def forward(self, x):
        x = self.rotary.rotate(x)
        x = x * self.scheduler.init_sigma + self.scheduler.first_step
        return self.scheduler.step(x, 2)


def example():
    return Net().eval(), (torch.randn(2, 4),)

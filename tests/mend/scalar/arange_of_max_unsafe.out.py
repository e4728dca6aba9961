# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
torch._dynamo.config.capture_scalar_outputs = True


@torch.compile
def length_mask(durations: torch.Tensor):
    # speech models: frames per input token, and a padding mask as long as the longest output
    lengths = torch.clamp_min(durations.sum(dim=1), 1).long()
    frames = torch.arange(lengths.max(), dtype=lengths.dtype)
    return frames.unsqueeze(0) < lengths.unsqueeze(1)


def example():
    return length_mask, (torch.tensor([[1.0, 2.0, 0.0], [3.0, 1.0, 1.0]]),)

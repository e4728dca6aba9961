# mend-declined: the mask does not compare the masked tensor itself
import torch


@torch.compile
def masked_tokens(hidden: torch.Tensor, attention: torch.Tensor):
    # CLAP-style pooling: the mask comes from another tensor and may cover fewer dims
    return hidden[attention > 0].sum()


def example():
    return masked_tokens, (torch.randn(2, 4, 3), torch.randint(0, 2, (2, 4)))

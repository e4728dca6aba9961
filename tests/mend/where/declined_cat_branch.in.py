# mend-declined: joins tensors
# mend-rules: GM101
# One branch concatenates prompt tokens onto the output tokens (SAM-HQ's mask decoder), the other
# keeps them: the values differ in shape, so no torch.where select fits (a select would broadcast
# or fail).
import torch


@torch.compile
def tokens_for(output_tokens, sparse_prompt_embeddings):
    if torch.any(sparse_prompt_embeddings != 0):
        tokens = torch.cat([output_tokens, sparse_prompt_embeddings], dim=2)
    else:
        tokens = output_tokens
    return tokens * 2


def example():
    return tokens_for, (torch.randn(1, 2, 5, 4), torch.randn(1, 2, 3, 4))

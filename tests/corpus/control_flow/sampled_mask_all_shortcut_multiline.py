"""A parenthesised multi-line `if` whose middle operand is `mask.all()` (a tensor), reached when
the mask is not None and the cache object is not compileable: a data-dependent branch (GM101)
reported by dynamo on the first line of the condition.
Reproduces transformers diffusion_gemma/modular_diffusion_gemma.py:1185-1189."""
import torch

_global_mapping = {"sdpa": None, "eager": None}


class DynamicCache:
    is_compileable = False


class Config:
    _attn_implementation = "sdpa"


@torch.compile
def create_mask(config, inputs_embeds, decoder_attention_mask, past_key_values):
    if past_key_values is None:
        raise ValueError(
            "The diffusion mask requires `past_key_values` to construct the next attention mask correctly"
        )

    if (
        decoder_attention_mask is None  # expect: GM101
        or (not past_key_values.is_compileable and decoder_attention_mask.all())
        or config._attn_implementation not in _global_mapping
    ):
        return None
    return inputs_embeds * decoder_attention_mask[..., None]


def example():
    return create_mask, (Config(), torch.randn(1, 4, 2), torch.ones(1, 4), DynamicCache())

"""The same multi-line `if` as sampled_mask_all_shortcut_multiline.py, but with a compileable cache
(StaticCache: `is_compileable` is True): `not past_key_values.is_compileable` is False, so `and`
short-circuits before `mask.all()` is tested and the condition folds on Python values: no break.
graphmend reports the `if` as breaking only when `decoder_attention_mask is not None and not
past_key_values.is_compileable` holds (`# expect-conditional`).
Reproduces transformers diffusion_gemma/modular_diffusion_gemma.py:1185-1189."""
import torch

_global_mapping = {"sdpa": None, "eager": None}


class StaticCache:
    is_compileable = True


class Config:
    _attn_implementation = "sdpa"


@torch.compile
def create_mask(config, inputs_embeds, decoder_attention_mask, past_key_values):
    if past_key_values is None:
        raise ValueError(
            "The diffusion mask requires `past_key_values` to construct the next attention mask correctly"
        )

    if (
        decoder_attention_mask is None  # expect-conditional: GM101
        or (not past_key_values.is_compileable and decoder_attention_mask.all())
        or config._attn_implementation not in _global_mapping
    ):
        return None
    return inputs_embeds * decoder_attention_mask[..., None]


def example():
    return create_mask, (Config(), torch.randn(1, 4, 2), torch.ones(1, 4), StaticCache())

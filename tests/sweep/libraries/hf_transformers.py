"""The sweep's transformers adapter: every model type with a base model class, built from its
default config shrunk to a tiny size, with inputs made by the model's main input."""

from __future__ import annotations

import inspect

from . import Built
from .torchvision_without_ops import import_torchvision

NAME = "transformers"

# Model families kept for an independent check (issue 13): never swept, stored or tested here.
HELD_OUT = frozenset(
    """bamba bert big_bird bigbird_pegasus canine clip convnext data2vec dbrx deformable_detr distilbert
    electra encodec falcon_h1 fastspeech2_conformer flaubert funnel gemma2 gpt_neox gpt2
    granitemoe_hybrid hubert informer jamba led llama llava longt5 mamba2 mistral mixtral nemotron_h
    nllb_moe paligemma prophetnet qwen2 qwen2_moe recurrent_gemma reformer resnet roberta rwkv
    superpoint switch_transformers tapas time_series_transformer vilt vit wav2vec2 xlm xlnet
    zamba2""".split()
)


# Config attributes shrunk to a tiny model, wherever they appear (sub-configs included). Widths
# stay multiples of the head count; head_dim follows hidden_size / heads.
_SHRINK = {
    "num_hidden_layers": 2, "num_layers": 2, "n_layer": 2, "n_layers": 2, "encoder_layers": 2,
    "decoder_layers": 2, "num_decoder_layers": 2, "num_encoder_layers": 2,
    "hidden_size": 32, "d_model": 32, "n_embd": 32, "embed_dim": 32, "dim": 32,
    "intermediate_size": 64, "d_ff": 64, "encoder_ffn_dim": 64, "decoder_ffn_dim": 64,
    "ffn_dim": 64, "n_inner": 64, "hidden_dim": 64,
    "num_attention_heads": 2, "n_head": 2, "n_heads": 2, "encoder_attention_heads": 2,
    "decoder_attention_heads": 2, "num_heads": 2, "num_key_value_heads": 1,
    "head_dim": 16, "d_kv": 16, "kv_channels": 16,
    "num_experts": 4, "num_local_experts": 4, "n_routed_experts": 4, "moe_num_experts": 4,
    "num_experts_per_tok": 2, "moe_intermediate_size": 32, "shared_expert_intermediate_size": 32,
}
_SUBCONFIG_SUFFIX = "_config"


def transformers_families() -> list[str]:
    """Model types with a base model class, minus the held-out families (by module folder)."""
    import_library()
    from transformers.models.auto.configuration_auto import model_type_to_module_name
    from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES

    return sorted(t for t in MODEL_MAPPING_NAMES if model_type_to_module_name(t) not in HELD_OUT)


# The shrink levels tried in turn until the model runs eagerly: "tiny" shrinks every width in
# _SHRINK; "layers" keeps the default widths (which some architectures tie together in ways a
# generic shrink breaks) and only cuts the layer and expert counts.
SHRINK_LEVELS = ("tiny", "layers")
MAX_PARAMETERS = 150_000_000  # a "layers" model past this takes minutes and gigabytes: skipped
_COUNTS = {key for key in _SHRINK if "layers" in key or key.startswith("n_layer") or "experts" in key}


def _shrink(config, level: str = "tiny", depth: int = 0) -> None:
    if depth > 3:
        return
    for key, value in list(vars(config).items()):
        if (key in _SHRINK and (level == "tiny" or key in _COUNTS) and isinstance(value, int)
                and not isinstance(value, bool) and value > _SHRINK[key]):
            setattr(config, key, _SHRINK[key])
        elif key.endswith(_SUBCONFIG_SUFFIX) and hasattr(value, "to_dict"):
            _shrink(value, level, depth + 1)
    if "num_experts_per_tok" in vars(config) and config.num_experts_per_tok is None:
        config.num_experts_per_tok = 2  # a mixture of experts left without its routing width
    for key in ("layer_types", "block_types"):  # per-layer lists follow the layer count
        value = getattr(config, key, None)
        layers = getattr(config, "num_hidden_layers", None)
        if isinstance(value, list) and isinstance(layers, int) and len(value) > layers:
            setattr(config, key, value[:layers])
    if hasattr(config, "use_cache"):
        config.use_cache = False  # one forward, no cache objects to explain


def _first(config, names, default):
    for owner in (config, getattr(config, "vision_config", None), getattr(config, "audio_config", None)):
        for name in names:
            value = getattr(owner, name, None) if owner is not None else None
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
            if isinstance(value, (list, tuple)) and value and isinstance(value[0], int):
                return value[0]
    return default


def transformers_inputs(model, config, torch) -> dict:
    name = getattr(model, "main_input_name", "input_ids")
    text = getattr(config, "text_config", None) or config
    vocab = getattr(text, "vocab_size", None) or 99
    if name == "input_ids":
        ids = torch.randint(3, max(4, min(vocab, 1000)), (2, 8), dtype=torch.long)
        mask = torch.ones_like(ids)
        mask[1, 6:] = 0  # one padded row, so the masks are not all ones
        inputs = {"input_ids": ids, "attention_mask": mask}
    elif name == "pixel_values":
        channels = _first(config, ("num_channels", "in_channels", "num_channels_in"), 3)
        size = _first(config, ("image_size", "img_size", "input_size"), 64)
        inputs = {"pixel_values": torch.randn(2, channels, size, size)}
    elif name == "input_values":
        inputs = {"input_values": torch.randn(2, 3200)}
    elif name == "input_features":
        bins = _first(config, ("num_mel_bins", "feature_size", "input_feat_per_channel"), 80)
        frames = 2 * _first(config, ("max_source_positions",), 50)
        inputs = {"input_features": torch.randn(2, bins, frames)}
    else:
        raise RuntimeError(f"no inputs made for main input {name!r}")
    if name != "pixel_values" and getattr(config, "vision_config", None) is not None:
        vision = config.vision_config  # a multimodal model: an image too
        size = getattr(vision, "image_size", None) or 32
        size = size[0] if isinstance(size, (list, tuple)) else size
        inputs["pixel_values"] = torch.randn(2, getattr(vision, "num_channels", 3), size, size)
    if "bbox" in inspect.signature(model.forward).parameters and "input_ids" in inputs:
        inputs["bbox"] = torch.zeros(2, 8, 4, dtype=torch.long)  # layout models: word boxes
    if getattr(config, "is_encoder_decoder", False):
        inputs["decoder_input_ids"] = torch.randint(3, max(4, min(vocab, 1000)), (2, 3), dtype=torch.long)
    return inputs


def transformers_build(family: str, torch, level: str = "tiny"):
    transformers = import_library()
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES

    config = CONFIG_MAPPING[family]()
    _shrink(config, level)
    class_name = MODEL_MAPPING_NAMES[family]
    if isinstance(class_name, (list, tuple)):
        class_name = class_name[0]
    model_class = getattr(transformers, class_name)
    model = model_class(config)
    return model, config, class_name


def build(family: str, torch, level: str = "tiny") -> Built:
    model, config, class_name = transformers_build(family, torch, level)
    supports = bool(getattr(model, "supports_gradient_checkpointing", False))
    return Built(model=model, make_inputs=lambda: transformers_inputs(model, config, torch),
                 class_name=class_name, supports_checkpointing=supports,
                 enable_checkpointing=model.gradient_checkpointing_enable)


def count_parameters(family: str, torch, level: str) -> int:
    with torch.device("meta"):
        return sum(p.numel() for p in transformers_build(family, torch, level)[0].parameters())


def import_library():
    """transformers, imported after torchvision (its image processing and timm backbones import
    torchvision when it is installed: see torchvision_without_ops.py)."""
    import torch

    import_torchvision(torch)
    import transformers

    return transformers


def families() -> list[str]:
    return transformers_families()


def in_held_out_code(relative: str) -> bool:
    """Whether a file (relative to the package's parent) belongs to a held-out family: a model
    that is not held out may import code from one, and that code stays out of the truth too."""
    parts = relative.split("/")
    return len(parts) > 2 and parts[1] == "models" and parts[2] in HELD_OUT

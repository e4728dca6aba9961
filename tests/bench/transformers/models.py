"""Tiny random-weight configurations of the Hugging Face models GraphMend evaluated that need
no download, built in code (no Hub access, no processors: the inputs have the shapes the
processors would produce).

Each entry of MODELS is a ModelSpec: a name, the dtypes to run (fp16 only where a break depends
on the dtype: the BART family's ``if hidden_states.dtype == torch.float16 and
(torch.isinf(hidden_states).any() or ...)`` clamp, which dynamo folds away in fp32), and
``build(dtype) -> (module, kwargs)``. Modules are in eval mode; callers seed with
``torch.manual_seed(0)`` before build().
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch


@dataclass(frozen=True)
class ModelSpec:
    name: str
    dtypes: tuple[str, ...]
    build: Callable[[torch.dtype], tuple[torch.nn.Module, dict]]
    note: str = ""


def _ids(batch: int, seq: int, vocab: int, low: int = 3) -> torch.Tensor:
    return torch.randint(low, vocab, (batch, seq), dtype=torch.long)


def _finish(model: torch.nn.Module, dtype: torch.dtype, kwargs: dict):
    model = model.to(dtype).eval()
    out = {}
    for key, value in kwargs.items():
        if isinstance(value, torch.Tensor) and value.is_floating_point():
            value = value.to(dtype)
        out[key] = value
    return model, out


def _seq2seq_inputs(vocab: int, decoder_len: int = 1) -> dict:
    input_ids = _ids(2, 7, vocab)
    input_ids[:, -1] = 2  # eos
    mask = torch.ones_like(input_ids)
    mask[1, 5:] = 0  # one padded row, so masks are not all ones
    return {
        "input_ids": input_ids,
        "attention_mask": mask,
        "decoder_input_ids": _ids(2, decoder_len, vocab),
    }


_BART_LIKE = dict(
    vocab_size=99,
    d_model=16,
    encoder_layers=1,
    decoder_layers=1,
    encoder_attention_heads=2,
    decoder_attention_heads=2,
    encoder_ffn_dim=32,
    decoder_ffn_dim=32,
    max_position_embeddings=64,
    pad_token_id=1,
    bos_token_id=0,
    eos_token_id=2,
    decoder_start_token_id=2,
    dropout=0.0,
    attention_dropout=0.0,
    activation_dropout=0.0,
)


def build_t5(dtype):
    from transformers import T5Config, T5ForConditionalGeneration

    config = T5Config(
        vocab_size=99,
        d_model=16,
        d_kv=8,
        d_ff=32,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        relative_attention_num_buckets=8,
        dropout_rate=0.0,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        feed_forward_proj="gated-gelu",  # flan-t5's
    )
    return _finish(T5ForConditionalGeneration(config), dtype, _seq2seq_inputs(99, 3))


def build_bart(dtype):
    from transformers import BartConfig, BartForConditionalGeneration

    return _finish(BartForConditionalGeneration(BartConfig(**_BART_LIKE)), dtype, _seq2seq_inputs(99))


def build_marian(dtype):
    from transformers import MarianConfig, MarianMTModel

    cfg = dict(_BART_LIKE, pad_token_id=0, decoder_start_token_id=0, eos_token_id=2)
    cfg.pop("bos_token_id")
    return _finish(MarianMTModel(MarianConfig(**cfg)), dtype, _seq2seq_inputs(99))


def build_pegasus(dtype):
    # the paper's row is tiny-random-PegasusForCausalLM
    from transformers import PegasusConfig, PegasusForCausalLM

    cfg = dict(_BART_LIKE, pad_token_id=0, decoder_start_token_id=0, eos_token_id=1)
    cfg.pop("bos_token_id")
    input_ids = _ids(2, 7, 99)
    mask = torch.ones_like(input_ids)
    mask[1, 5:] = 0
    return _finish(PegasusForCausalLM(PegasusConfig(**cfg)), dtype, {"input_ids": input_ids, "attention_mask": mask})


def build_blenderbot(dtype):
    from transformers import BlenderbotConfig, BlenderbotForConditionalGeneration

    cfg = dict(_BART_LIKE, pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=1)
    return _finish(BlenderbotForConditionalGeneration(BlenderbotConfig(**cfg)), dtype, _seq2seq_inputs(99))


def build_biogpt(dtype):
    from transformers import BioGptConfig, BioGptForCausalLM

    config = BioGptConfig(
        vocab_size=99,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        pad_token_id=1,
    )
    input_ids = _ids(2, 7, 99)
    mask = torch.ones_like(input_ids)
    mask[1, 5:] = 0
    return _finish(BioGptForCausalLM(config), dtype, {"input_ids": input_ids, "attention_mask": mask})


def build_whisper(dtype):
    from transformers import WhisperConfig, WhisperForConditionalGeneration

    config = WhisperConfig(
        vocab_size=99,
        num_mel_bins=8,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=32,
        decoder_ffn_dim=32,
        d_model=16,
        max_source_positions=16,
        max_target_positions=32,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        decoder_start_token_id=1,
        suppress_tokens=None,
        begin_suppress_tokens=None,
        dropout=0.0,
    )
    # the feature extractor's shape: (batch, num_mel_bins, 2 * max_source_positions)
    kwargs = {
        "input_features": torch.randn(2, 8, 32),
        "decoder_input_ids": _ids(2, 3, 99),
    }
    return _finish(WhisperForConditionalGeneration(config), dtype, kwargs)


def build_layoutlmv3(dtype):
    from transformers import LayoutLMv3Config, LayoutLMv3Model

    config = LayoutLMv3Config(
        vocab_size=99,
        hidden_size=36,  # 4 * coordinate_size + 2 * shape_size
        coordinate_size=6,
        shape_size=6,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=64,
        input_size=32,
        patch_size=16,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    batch, seq = 2, 7
    x0 = torch.randint(0, 500, (batch, seq))
    y0 = torch.randint(0, 500, (batch, seq))
    bbox = torch.stack([x0, y0, x0 + torch.randint(1, 400, (batch, seq)), y0 + torch.randint(1, 400, (batch, seq))], -1)
    kwargs = {
        "input_ids": _ids(batch, seq, 99),
        "bbox": bbox,
        "attention_mask": torch.ones(batch, seq, dtype=torch.long),
        "pixel_values": torch.randn(batch, 3, 32, 32),
    }
    return _finish(LayoutLMv3Model(config), dtype, kwargs)


def build_phi3_longrope(dtype):
    from transformers import Phi3Config, Phi3ForCausalLM

    head_dim = 8
    config = Phi3Config(
        vocab_size=99,
        hidden_size=32,
        intermediate_size=37,
        num_hidden_layers=1,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
        original_max_position_embeddings=16,
        rope_scaling={
            "type": "longrope",
            "short_factor": [1.0 + 0.1 * i for i in range(head_dim // 2)],
            "long_factor": [2.0 + 0.1 * i for i in range(head_dim // 2)],
        },
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        attn_implementation="eager",
    )
    input_ids = _ids(2, 9, 99)
    return _finish(Phi3ForCausalLM(config), dtype, {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids)})


def build_longformer(dtype):
    from transformers import LongformerConfig, LongformerModel

    config = LongformerConfig(
        vocab_size=99,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        attention_window=4,
        max_position_embeddings=64,
        pad_token_id=1,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    # a sequence length that is not a multiple of the window, and one global token
    input_ids = _ids(2, 7, 99)
    global_mask = torch.zeros_like(input_ids)
    global_mask[:, 0] = 1
    kwargs = {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids), "global_attention_mask": global_mask}
    return _finish(LongformerModel(config), dtype, kwargs)


def build_grounding_dino(dtype):
    from transformers import GroundingDinoConfig, GroundingDinoModel, SwinConfig

    image = 98  # transformers' own tester sizes
    swin = SwinConfig(
        window_size=7, embed_dim=8, depths=[1, 1, 1, 1], num_heads=[1, 1, 1, 1], image_size=image, out_indices=[2, 3, 4]
    )
    text = {
        "hidden_size": 8,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "intermediate_size": 8,
        "max_position_embeddings": 8,
        "model_type": "bert",
    }
    config = GroundingDinoConfig(
        d_model=32,  # GroupNorm(32, d_model) in the input projections
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=8,
        decoder_ffn_dim=8,
        dropout=0.0,
        attention_dropout=0.0,
        num_queries=2,
        num_feature_levels=4,
        encoder_n_points=2,
        decoder_n_points=2,
        use_timm_backbone=False,
        backbone_config=swin,
        max_text_len=7,
        text_config=text,
    )
    kwargs = {
        "pixel_values": torch.randn(1, 3, image, image),
        "pixel_mask": torch.ones(1, image, image, dtype=torch.long),
        "input_ids": torch.tensor([[101, 5, 6, 1012, 7, 1012, 102]]) % 30,
        "attention_mask": torch.ones(1, 7, dtype=torch.long),
    }
    return _finish(GroundingDinoModel(config), dtype, kwargs)


def build_clap(dtype):
    from transformers import ClapAudioConfig, ClapConfig, ClapModel, ClapTextConfig

    text = ClapTextConfig(
        vocab_size=99,
        hidden_size=16,
        projection_dim=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    audio = ClapAudioConfig(
        num_mel_bins=16,
        spec_size=64,
        window_size=4,
        patch_size=2,
        patch_stride=2,
        hidden_size=32,
        patch_embeds_hidden_size=16,
        projection_dim=16,
        depths=[1, 1],
        num_attention_heads=[2, 2],
        intermediate_size=37,
        enable_fusion=True,  # the fused checkpoint's path (clap-htsat-fused)
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    config = ClapConfig.from_text_audio_configs(text, audio, projection_dim=16)
    batch = 2
    input_ids = _ids(batch, 7, 99)
    kwargs = {
        "input_ids": input_ids,
        "attention_mask": torch.ones_like(input_ids),
        # the feature extractor's fused shape: 4 mel crops of (time, mel)
        "input_features": torch.randn(batch, 4, 64, 16),
        "is_longer": torch.tensor([[True], [False]]),
    }
    return _finish(ClapModel(config), dtype, kwargs)


_BART_FAMILY_NOTE = "fp16 too: its `if hidden_states.dtype == torch.float16` clamp is only traced there"

MODELS: list[ModelSpec] = [
    ModelSpec("t5", ("fp32", "fp16"), build_t5, "flan-t5 layout (gated-gelu)"),
    ModelSpec("bart", ("fp32", "fp16"), build_bart, _BART_FAMILY_NOTE),
    ModelSpec("marian", ("fp32", "fp16"), build_marian, _BART_FAMILY_NOTE),
    ModelSpec("pegasus", ("fp32",), build_pegasus, "PegasusForCausalLM (the paper's row); its fp16 clamp is encoder-only"),
    ModelSpec("blenderbot", ("fp32", "fp16"), build_blenderbot, _BART_FAMILY_NOTE),
    ModelSpec("biogpt", ("fp32",), build_biogpt, "no dtype-gated code"),
    ModelSpec("whisper", ("fp32", "fp16"), build_whisper, _BART_FAMILY_NOTE),
    ModelSpec("layoutlmv3", ("fp32",), build_layoutlmv3),
    ModelSpec("phi3-longrope", ("fp32",), build_phi3_longrope, "rope_scaling longrope, seq 9 < original_max 16"),
    ModelSpec("longformer", ("fp32",), build_longformer, "seq 7, window 4, one global token"),
    ModelSpec("grounding-dino", ("fp32",), build_grounding_dino, "Swin backbone, BERT text"),
    ModelSpec("clap", ("fp32",), build_clap, "enable_fusion=True, one longer clip"),
]

DTYPES = {"fp32": torch.float32, "fp16": torch.float16}


def by_name(name: str) -> ModelSpec:
    for spec in MODELS:
        if spec.name == name:
            return spec
    raise KeyError(name)

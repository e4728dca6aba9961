"""The sweep's diffusers adapter: a family is a model class diffusers exports (a ModelMixin
subclass), built from its default constructor arguments shrunk to a tiny size by name, and fed
inputs made from the forward's parameter names and the model's config."""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import re
import signal
import threading
import time
from dataclasses import dataclass

from . import Built
from .torchvision_without_ops import import_torchvision

NAME = "diffusers"

# No diffusers class is named after a family issue 13 holds out (those are transformers ones).
HELD_OUT = frozenset()

# "tiny": the default constructor arguments shrunk by name (shrunk_arguments); "default": the
# defaults as they are, for classes whose arguments are tied together in ways the generic shrink
# breaks (the worker skips those past its parameter limit).
SHRINK_LEVELS = ("tiny", "default")

BATCH = 2
WIDTH = 64        # every model and conditioning width: HEADS * HEAD_DIM
HEADS = 2
HEAD_DIM = 32
FFN = 128
CHANNELS = 32     # convolution channels (each block, and the base of channel multipliers)
NORM_GROUPS = 8   # divides every channel count the shrink leaves
LAYERS = 2        # transformer layers (a few classes index their layers: 2 keeps both ends)
TEXT_LEN = 8      # tokens of every text-like conditioning sequence
# Spatial sizes of the latents tried in turn (the total downsampling, the patch size and the
# positional tables differ): the first that runs is kept.
SIZES = (16, 32, 64)


def import_library():
    import torch

    import_torchvision(torch)  # (diffusers imports it where installed: see timm_models.py)
    import diffusers

    return diffusers


def families() -> list[str]:
    """The model classes exported at the top level (diffusers.models' names; the pipelines'
    names are not imported, as looking them up would import every pipeline)."""
    diffusers = import_library()
    names = []
    for name in sorted(set(dir(diffusers.models)) & set(dir(diffusers))):
        try:
            cls = getattr(diffusers, name)
        except Exception:  # noqa: BLE001 - a name whose module does not import offers no family
            continue
        if inspect.isclass(cls) and issubclass(cls, diffusers.ModelMixin) and cls is not diffusers.ModelMixin:
            names.append(name)
    return names


def in_held_out_code(relative: str) -> bool:
    return False


def _model_class(family: str):
    diffusers = import_library()
    cls = getattr(diffusers, family, None)
    if not (inspect.isclass(cls) and issubclass(cls, diffusers.ModelMixin)):
        raise RuntimeError(f"diffusers exports no model class {family}")
    return cls


# --------------------------------------------------------------------------------------------
# shrinking the constructor arguments, by name
# --------------------------------------------------------------------------------------------

_RATIO = re.compile(r"(mult|ratio|factor|scale|stride|rate|kernel|eps|theta|dropout)")
_HEAD_DIM = re.compile(r"(head_dim|dim_heads?|^d_kv)$")
_HEADS = re.compile(r"heads?$")
_PER_BLOCK = re.compile(r"(per_block|res_blocks|per_down_block|per_up_block|_repeat_mappers)$"
                        r"|_(encoder|decoder)_blocks$")
_LAYERS = re.compile(r"(layers|depths?|blocks)$|^nlayers$")
_LAYER_INDICES = re.compile(r"(layers|layer_ids|layers_places)$")
_FFN = re.compile(r"(intermediate|ffn|^ff_|_ff_|approximator_hidden)")
_INPUT_CHANNELS = re.compile(r"(^|_)(in|out|input|output|latent|conditioning|audio|io|z|vace|dec_out)_"
                             r"(channels?|dim)$|^(in|out)_dim$|_in_channels$|_out_channels$|^num_channels$"
                             r"|_states_channels$")
_CHANNELS = re.compile(r"(^|_)(ch|channels?|base_dim|filters)$")
_WIDTH = re.compile(r"(^|_)(hidden_size|dim|d_model)$|_dim$")
_ROPE_AXES = re.compile(r"^(axes_dims?(_rope)?|axes_dim_rope|rope_axes_dim|rope_dim(_list)?|mrope_section)$")
_SPATIAL = ("sample_size", "sample_height", "sample_width")
_TEXT_LENGTHS = ("text_len", "text_len_t5", "max_text_seq_length", "max_sequence_length", "num_embeddings")
_GROUPS = re.compile(r"(^|_)(norm_num_groups|groups)$")
_EXPERTS = re.compile(r"(num|n)_(routed_)?experts$")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_tuple(value) -> bool:
    return isinstance(value, (tuple, list)) and bool(value) and all(_is_int(v) for v in value)


def _defaults(cls) -> dict:
    return {name: p.default for name, p in list(inspect.signature(cls.__init__).parameters.items())[1:]
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is not p.empty}


def _old_head_dim(defaults: dict):
    """The default attention head width, which rotary axes split between them."""
    for name in ("attention_head_dim", "head_dim"):
        if _is_int(defaults.get(name)) and defaults[name] > 16:
            return defaults[name]
    heads = next((defaults[n] for n in ("num_attention_heads", "n_heads", "num_heads", "nheads")
                  if _is_int(defaults.get(n)) and defaults[n] > 0), None)
    width = next((defaults[n] for n in ("hidden_size", "dim", "model_dim", "inner_dim")
                  if _is_int(defaults.get(n))), None)
    return width // heads if heads and width and width % heads == 0 else None


def _rescaled_axes(axes, old_head: int | None):
    """Rotary axes summing to the head width (or half of it, as sections) rescaled to HEAD_DIM,
    each even."""
    total = sum(axes)
    if old_head is None:  # no head count to tell: the axes are the head width
        old_head = total
    if total <= HEAD_DIM or total not in (old_head, old_head // 2):
        return axes
    target = HEAD_DIM * total // old_head
    scaled = [max(2, 2 * round(a * target / total / 2)) for a in axes]
    scaled[-1] += target - sum(scaled)
    return type(axes)(scaled) if scaled[-1] > 0 else axes


def _shrunk_int(name: str, value: int):
    if value <= 1 or _RATIO.search(name):
        return value
    if _HEAD_DIM.search(name):
        return min(value, HEAD_DIM)
    if _HEADS.search(name) and "dim" not in name:
        return min(value, HEADS)
    if _PER_BLOCK.search(name):
        return 1
    if _LAYERS.search(name):
        return min(value, LAYERS)
    if _EXPERTS.search(name):
        return min(value, 4)
    if _GROUPS.search(name):
        return min(value, NORM_GROUPS)
    if name in _TEXT_LENGTHS:
        return min(value, TEXT_LEN)
    if _INPUT_CHANNELS.search(name):
        return value  # what the inputs are made of: kept
    if _FFN.search(name):
        return min(value, FFN)
    if _CHANNELS.search(name):
        return min(value, CHANNELS)
    if name == "caption_channels" or _WIDTH.search(name) or name.endswith("_hidden_size"):
        return min(value, WIDTH)
    return value


def _channel_tuple(value, proportional: bool):
    """Per-block channels: each CHANNELS at most, or (proportional) divided by one power of two so
    that the widest is 8 * CHANNELS at most, for classes that tie a block's width to the next."""
    if not proportional:
        return type(value)(min(v, CHANNELS) for v in value)
    divisor = 1
    while max(value) // divisor > 8 * CHANNELS:
        divisor *= 2
    return type(value)(max(1, v // divisor) for v in value)


def _fill(name: str):
    """A tiny value for an argument whose default is None, where the class cannot be built
    with None: what the rules give a large default, or None if they know no value."""
    if name in ("in_channels", "out_channels"):
        return CHANNELS
    if name == "patch_size":
        return 2
    value = _shrunk_int(name, 1 << 20)
    return None if value == 1 << 20 else value


def shrunk_arguments(cls, size: int, proportional: bool = False, fill=()) -> dict:
    """Constructor keyword arguments that make the class tiny: only those whose defaults the
    rules change, so that every other argument keeps its default. size: the latents' side; fill:
    arguments whose None default is given a tiny value (_fill)."""
    defaults = _defaults(cls)
    old_head = _old_head_dim(defaults)
    out = {}
    for name, value in defaults.items():
        new = value
        if name in _SPATIAL and (value is None or _is_int(value)):
            new = size
        elif _is_int(value):
            new = _shrunk_int(name, value)
        elif _int_tuple(value):
            if _ROPE_AXES.match(name):
                new = _rescaled_axes(value, old_head)
            elif _LAYER_INDICES.search(name):  # indices of layers: those the shrunk model has
                new = type(value)([v for v in value if v < LAYERS] or [0])
            elif name.endswith("channels"):
                new = _channel_tuple(value, proportional)
            elif _HEADS.search(name) and "dim" not in name:
                new = type(value)(min(v, HEADS) for v in value)
            elif _PER_BLOCK.search(name) or _LAYERS.search(name):
                new = type(value)(min(v, 1) for v in value)
        elif value is None and name in fill:
            new = _fill(name)
        if new != value:
            out[name] = new
    return out


def _fill_sets(cls) -> list:
    """Sets of None arguments to fill, fewest first (a None often selects a mode, and filling one
    needlessly changes the model): each alone, each pair, then all."""
    names = [name for name, value in _defaults(cls).items() if value is None and _fill(name) is not None]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    return [(name,) for name in names] + pairs + ([tuple(names)] if len(names) > 2 else [])


# Ways to shrink, tried in turn: channels flat, then proportional (each also with None arguments
# filled in where the class does not build without).
VARIANTS = ("flat", "proportional")


def _construct(cls, level: str, size: int, variant: str = "flat"):
    """The model at a shrink level: cls() at "default"; at "tiny", shrunk (VARIANTS), with the
    fewest None arguments filled that let it build."""
    if level != "tiny":
        return cls()
    proportional = variant == "proportional"
    try:
        return cls(**shrunk_arguments(cls, size, proportional))
    except Exception as exc:  # noqa: BLE001 - maybe a None default the class cannot build with
        for fill in _fill_sets(cls):
            try:
                return cls(**shrunk_arguments(cls, size, proportional, fill))
            except Exception:  # noqa: BLE001 - the next set may build
                continue
        raise exc


def count_parameters(family: str, torch, level: str) -> int:
    with torch.device("meta"):
        return sum(p.numel() for p in _construct(_model_class(family), level, SIZES[0]).parameters())


# --------------------------------------------------------------------------------------------
# inputs, by the forward's parameter names
# --------------------------------------------------------------------------------------------

_MAIN = ("sample", "hidden_states", "x", "latents", "z", "mel", "inputs_embeds")
_LATENT_INPUTS = ("latents", "z")
_INPUT_CHANNELS_KEYS = ("in_channels", "in_visual_dim", "io_channels", "input_channels", "in_dim",
                        "num_channels", "audio_channels", "num_mels", "mel_bins", "input_dims")
_LATENT_CHANNELS_KEYS = ("latent_channels", "z_channels", "latent_dim", "z_dim")
_TEXT_WIDTHS = ("caption_channels", "joint_attention_dim", "encoder_hid_dim", "text_embed_dim", "text_dim",
                "cap_feat_dim", "context_in_dim", "text_in_dim", "in_text_dim", "cond_token_dim",
                "dit_text_dim", "text_hidden_dim", "llm_features_dim", "cross_attention_input_dim",
                "condition_dim", "encoder_hidden_states_channels", "conditioning_dim", "cross_attention_dim",
                "text_emb_dim")
_POOLED_WIDTHS = ("pooled_projection_dim", "global_states_input_dim", "global_cond_dim", "in_text_dim2",
                  "clip_text_pooled_in_channels", "cond_embed_dim", "embedding_dim")
_TIMESTEPS = ("timestep", "timesteps", "t", "timestep_r", "r_timestep", "timestep_ratio", "audio_timestep",
              "decoder_noise_time")
_TEXT_MASKS = ("encoder_attention_mask", "encoder_mask", "text_embedding_mask", "encoder_hidden_states_mask",
               "source_attention_mask", "mask")
_POOLED = ("pooled_projections", "pooled_embeds", "pooled_text_emb", "clip_text_pooled",
           "global_hidden_states", "proj_embedding")
_IMAGE_EMBEDS = ("image_embeddings", "image_embeds")  # pooled image embeddings
_VIDEO = re.compile(r"3D|Video|Motion|SpatioTemporal|I2V|Temporal")
_SEQUENCE = re.compile(r"1D|Audio|Oobleck|Music|Vocoder|Mel")


@dataclass(frozen=True)
class Layout:
    """How the inputs are shaped. kind: the main input's rank ("video" B C F H W, "frames"
    B F C H W, "image" B C H W, "signal" B C T, "tokens" B N C); size: the latents' side; frames
    (of a signal: T over size squared);
    channels; control_scale: the control image's side over the latents'; pooled_rank: 2 (B D) or
    3 (B 1 D); extras: whether the optional text masks, pooled and image embeddings are given
    (some classes read them unchecked, others break on them); text_per_frame: whether the text
    comes once per frame (B * F rows), as video UNets built of image blocks take it; variant: the
    way the constructor arguments were shrunk (VARIANTS)."""
    kind: str
    size: int
    channels: int
    frames: int = 1
    control_scale: int = 1
    pooled_rank: int = 2
    extras: bool = False
    text_per_frame: bool = False
    variant: str = "flat"


def _config_int(config, names, default=None):
    for name in names:
        value = config.get(name)
        if _is_int(value) and value > 0:
            return value
    return default


def _distinct(values, limit: int) -> list:
    out = []
    for value in values:
        if value is not None and value not in out:
            out.append(value)
    return out[:limit]


def _main_channels(config, main: str) -> list:
    """Candidate channel counts of the main input: the config's input (or, for latents, latent)
    channels first, an autoencoder's output channels last."""
    inputs = [_config_int(config, (k,)) for k in _INPUT_CHANNELS_KEYS]
    latents = [_config_int(config, (k,)) for k in _LATENT_CHANNELS_KEYS]
    suffixed = [_config_int(config, (k,)) for k in sorted(config) if k.endswith("in_channels")]
    outputs = [_config_int(config, (k,)) for k in sorted(config) if k.endswith("out_channels")]
    ordered = latents + inputs if main in _LATENT_INPUTS else inputs + latents
    return _distinct(ordered + suffixed + outputs, 3) or [4]


def _suffixed(config, suffix: str):
    return next((config[k] for k in sorted(config) if k.endswith(suffix) and config[k] is not None), None)


def _layouts(cls, config, forward, main: str, size: int, variant: str) -> list:
    """Candidate layouts at one latent size, the likeliest (by the class name and config) first."""
    patch = config.get("patch_size")
    if any(p in forward for p in ("img_ids", "txt_ids", "img_shapes")):
        kinds = ["tokens"]  # packed latents with their positions given apart
    elif _VIDEO.search(cls.__name__) or isinstance(patch, (tuple, list)) and len(patch) == 3:  # (t, h, w)
        kinds = ["video", "frames", "image", "tokens", "signal"]
    elif _SEQUENCE.search(cls.__name__):
        kinds = ["signal", "tokens", "image", "video", "frames"]
    else:
        kinds = ["image", "video", "frames", "tokens", "signal"]
    compression = _config_int(
        config, ("temporal_compression_ratio", "scale_factor_temporal", "temporal_compress_times"), 4)
    length = _config_int(config, ("video_length", "num_frames", "sample_frames"))
    frames = _distinct((compression + 1, 2, 9) + ((length,) if length and length <= 16 else ()), 4)
    control = _suffixed(config, "conditioning_embedding_out_channels")
    if isinstance(control, (tuple, list)) and control and "controlnet_cond" in forward:
        scales = _distinct((2 ** (len(control) - 1), 1), 2)  # the control embedding's downsampling
    else:
        scales = [1]
    pooled = (2, 3) if any(p in forward for p in _POOLED + _IMAGE_EMBEDS) else (2,)
    extras = (False, True) if any(p in forward and forward[p].default is not forward[p].empty
                                  for p in _TEXT_MASKS + _POOLED + _IMAGE_EMBEDS) else (False,)
    per_frames = (False, True) if "encoder_hidden_states" in forward else (False,)
    out = []
    for kind in kinds:
        video = kind in ("video", "frames")
        lengths = frames if video else (1, 16) if kind == "signal" else (1,)
        for choice in itertools.product(_main_channels(config, main), lengths, scales, pooled, extras,
                                        per_frames if video else (False,)):
            out.append(Layout(kind, size, *choice, variant=variant))
    return out


def _shape(layout: Layout, channels: int, scale: int = 1) -> tuple:
    s = layout.size * scale
    if layout.kind == "video":
        return (BATCH, channels, layout.frames, s, s)
    if layout.kind == "frames":
        return (BATCH, layout.frames, channels, s, s)
    if layout.kind == "image":
        return (BATCH, channels, s, s)
    if layout.kind == "signal":  # frames: a length factor, long enough for a waveform autoencoder
        return (BATCH, channels, layout.frames * s * s)
    return (BATCH, (s // 2) ** 2, channels)


def _positions(torch, layout: Layout, axes: int):
    """Flux-style token positions: (0, row, column, 0...) per latent token."""
    side = layout.size // 2
    ids = torch.zeros(side, side, axes)
    ids[..., 1] = torch.arange(side)[:, None]
    ids[..., 2] = torch.arange(side)[None, :]
    return ids.reshape(side * side, axes)


def _forward_parameters(model_or_class) -> dict:
    return {name: p for name, p in inspect.signature(model_or_class.forward).parameters.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and name != "self"}


def _main_input(forward) -> str:
    main = next((name for name in _MAIN if name in forward), None)
    if main is None:
        raise RuntimeError(f"no main input among the forward's parameters: {', '.join(forward) or '(none)'}")
    return main


def make_inputs(model, torch, layout: Layout) -> dict:
    """The forward's keyword arguments: every required parameter (a RuntimeError names one with no
    recipe), and optional ones the config shows the model uses."""
    config = dict(model.config)
    forward = _forward_parameters(model)
    required = {name for name, p in forward.items() if p.default is p.empty}
    main = _main_input(forward)
    text_width = _config_int(config, _TEXT_WIDTHS)
    pooled_width = _config_int(config, _POOLED_WIDTHS) or WIDTH
    axes = next((len(config[n]) for n in ("axes_dims_rope", "axes_dims", "axes_dim", "rope_axes_dim")
                 if isinstance(config.get(n), (tuple, list))), 3)
    side = layout.size // 2
    texts = BATCH * layout.frames if layout.text_per_frame else BATCH
    classes = _config_int(config, ("num_class_embeds", "num_embeds_ada_norm"))
    control_channels = _suffixed(config, "conditioning_channels") or layout.channels + _config_int(
        config, ("extra_conditioning_channels", "extra_condition_channels"), 0)
    recipes = {
        main: lambda: torch.randn(_shape(layout, layout.channels)),
        "encoder_hidden_states": lambda: torch.randn(texts, TEXT_LEN, text_width or WIDTH),
        "img_ids": lambda: _positions(torch, layout, axes),
        "txt_ids": lambda: torch.zeros(TEXT_LEN, axes),
        "img_shapes": lambda: [[(1, side, side)]] * BATCH,
        "guidance": lambda: torch.full((BATCH,), 3.5),
        "class_labels": lambda: torch.randint(0, classes, (BATCH,)),
        "controlnet_cond": lambda: torch.randn(_shape(layout, control_channels, layout.control_scale)),
        "image_latents": lambda: torch.randn(_shape(layout, layout.channels)),
        "encoder_hidden_states_t5": lambda: torch.randn(BATCH, TEXT_LEN, _config_int(
            config, ("cross_attention_dim_t5", "text_embed_dim_t5"), WIDTH)),
        "added_time_ids": lambda: torch.randn(BATCH, config["projection_class_embeddings_input_dim"]
                                              // config["addition_time_embed_dim"]),
        "fps": lambda: torch.full((BATCH,), 8.0),
        "original_size": lambda: torch.full((BATCH, 2), 8.0 * layout.size),
        "target_size": lambda: torch.full((BATCH, 2), 8.0 * layout.size),
        "crop_coords": lambda: torch.zeros(BATCH, 2),
    }
    for name in _TIMESTEPS:  # diffusion steps (0-1000), or fractions where the name says so
        recipes[name] = (lambda: torch.rand(BATCH)) if "ratio" in name or "noise_time" in name else (
            lambda: torch.randint(1, 1000, (BATCH,)).float())
    for name in _TEXT_MASKS:
        recipes[name] = lambda: torch.ones(texts, TEXT_LEN, dtype=torch.bool)
    for name in _POOLED + _IMAGE_EMBEDS:
        recipes[name] = lambda: torch.randn((BATCH,) + (1,) * (layout.pooled_rank - 2) + (pooled_width,))
    if layout.kind == "tokens":  # the token grid, where the forward is told it apart
        recipes.update({"num_frames": lambda: 1, "height": lambda: side, "width": lambda: side,
                        "audio_num_frames": lambda: TEXT_LEN})
    # optional parameters passed all the same: the inputs the config shows the model reads
    wanted = {main, "timestep", "timesteps", "t", "img_ids", "txt_ids", "img_shapes", "controlnet_cond"}
    if text_width is not None:
        wanted.add("encoder_hidden_states")
    if layout.extras:
        wanted.update(_TEXT_MASKS + _POOLED + _IMAGE_EMBEDS)
    if _config_int(config, _POOLED_WIDTHS):
        wanted.update(_POOLED)
    if config.get("guidance_embeds"):
        wanted.add("guidance")
    if classes:
        wanted.add("class_labels")
    if _config_int(config, ("cross_attention_dim_t5", "text_embed_dim_t5")):
        wanted.add("encoder_hidden_states_t5")
    if layout.kind == "tokens":
        wanted.update(("num_frames", "height", "width", "audio_num_frames"))
    inputs = {}
    for name in forward:
        if name not in required and name not in wanted:
            continue
        recipe = recipes.get(name)
        if recipe is None and name.endswith("encoder_hidden_states"):  # another text stream (audio_...)
            recipe = recipes["encoder_hidden_states"]
        elif recipe is None and name == "audio_hidden_states":  # audio latents beside the video's
            recipe = lambda: torch.randn(BATCH, TEXT_LEN, _config_int(config, ("audio_in_channels",), WIDTH))
        if recipe is None:
            if name in required:
                raise RuntimeError(f"no input made for the forward's parameter {name!r}")
            continue
        inputs[name] = recipe()
    return inputs


# --------------------------------------------------------------------------------------------
# building: the first layout that runs, found once per family and level
# --------------------------------------------------------------------------------------------


class _TooSlow(BaseException):  # not an Exception: model code that catches those lets it through
    pass


PROBE_SECONDS = 20  # one eager forward past this is too slow to sweep (a tiny model takes < 1 s)


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Raises _TooSlow in the forward once seconds have passed (at the next Python line, so a
    single long operator runs to its end first); a no-op outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise _TooSlow()

    previous = signal.signal(signal.SIGALRM, expire)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)  # a caller's timer, resumed after
    started = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 0.001))


@functools.lru_cache(None)
def _plan(family: str, level: str, torch) -> Layout:
    """The first candidate layout (variants, then sizes, in turn) whose inputs run one eager
    forward in eval mode, the random state left as it was."""
    cls = _model_class(family)
    forward = _forward_parameters(cls)
    unbuilt, errors = [], []
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        for variant in VARIANTS if level == "tiny" else ("flat",):
            flat = shrunk_arguments(cls, SIZES[0])
            if variant != VARIANTS[0] and shrunk_arguments(cls, SIZES[0], proportional=True) == flat:
                continue  # no channels to shrink otherwise
            for size in SIZES:
                try:
                    model = _construct(cls, level, size, variant).eval()
                except Exception as exc:  # noqa: BLE001 - told if no variant builds
                    unbuilt.append(f"{type(exc).__name__}: {exc}")
                    break
                main = _main_input(forward)
                for layout in _layouts(cls, dict(model.config), forward, main, size, variant):
                    inputs = make_inputs(model, torch, layout)  # a parameter with no recipe: raised
                    try:
                        with _time_limit(PROBE_SECONDS):
                            model(**inputs)
                        return layout
                    except _TooSlow:  # larger layouts would be slower still
                        raise RuntimeError(f"one eager forward takes over {PROBE_SECONDS} s "
                                           f"({layout.kind} {layout.size}): too slow to sweep") from None
                    except Exception as exc:  # noqa: BLE001 - the next layout may run
                        errors.append(f"{layout.kind} {layout.size}: {type(exc).__name__}: {exc}")
    if not errors:
        raise RuntimeError(f"does not build: {unbuilt[0].splitlines()[0][:300]}")
    first = errors[0].splitlines()[0][:300]
    raise RuntimeError(f"no input layout runs ({len(errors)} tried); first: {first}")


def build(family: str, torch, level: str = "tiny") -> Built:
    layout = _plan(family, level, torch)
    model = _construct(_model_class(family), level, layout.size, layout.variant)
    supports = bool(getattr(model, "_supports_gradient_checkpointing", False))
    return Built(model=model, make_inputs=lambda: make_inputs(model, torch, layout),
                 class_name=type(model).__name__, supports_checkpointing=supports,
                 enable_checkpointing=model.enable_gradient_checkpointing)

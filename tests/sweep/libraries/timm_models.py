"""The sweep's timm adapter: a family is a model module of timm (timm.models.<module>), run with
its smallest registered architecture at its default input size, randomly initialised."""

from __future__ import annotations

import functools
import inspect
import re

from . import Built
from .torchvision_without_ops import import_torchvision

NAME = "timm"

# timm modules named after the transformers families issue 13 holds out (convnext, resnet, vit):
# the independent check may use the architecture through either library, so neither is swept.
HELD_OUT = frozenset({"convnext", "resnet", "vision_transformer"})

SHRINK_LEVELS = ("smallest",)
_CANDIDATES = 12  # architectures counted per module (on the meta device) to find the smallest
# Name parts that mark a small variant, smallest first; the rank orders the candidates counted.
_SMALL = ("atto", "femto", "pico", "nano", "micro", "tiny", "xxs", "xs", "small", "s", "lite",
          "mobile", "050", "075", "100", "b0", "18", "t", "m")


def _timm(torch):
    import_torchvision(torch)
    import timm

    return timm


def import_library():
    import torch

    return _timm(torch)


def families() -> list[str]:
    import torch

    return sorted(m for m in _timm(torch).list_modules() if m not in HELD_OUT)


def _rank(name: str) -> tuple:
    parts = re.split(r"[_.\-]", name)
    best = min((_SMALL.index(p) for p in parts if p in _SMALL), default=len(_SMALL))
    return best, len(name), name


@functools.lru_cache(None)
def smallest_architecture(family: str) -> str:
    import torch

    timm = _timm(torch)
    names = sorted(timm.list_models(module=family), key=_rank)[:_CANDIDATES]
    if not names:
        raise RuntimeError(f"timm module {family} registers no architecture")
    sizes = {}
    for name in names:
        try:
            with torch.device("meta"):
                sizes[name] = sum(p.numel() for p in timm.create_model(name, pretrained=False).parameters())
        except Exception:  # noqa: BLE001 - an architecture that cannot be built is not a candidate
            continue
    if not sizes:
        raise RuntimeError(f"no architecture of timm module {family} builds: {', '.join(names)}")
    return min(sizes, key=lambda n: (sizes[n], _rank(n)))


def count_parameters(family: str, torch, level: str) -> int:
    with torch.device("meta"):
        return sum(p.numel() for p in _timm(torch).create_model(smallest_architecture(family)).parameters())


def build(family: str, torch, level: str = "smallest") -> Built:
    timm = _timm(torch)
    name = smallest_architecture(family)
    model = timm.create_model(name, pretrained=False)
    channels, height, width = model.pretrained_cfg.get("input_size", (3, 224, 224))
    first = next(iter(inspect.signature(model.forward).parameters))

    def make_inputs() -> dict:
        return {first: torch.randn(2, channels, height, width)}  # 2: batch norm trains on it

    supports = hasattr(model, "set_grad_checkpointing")
    if supports:
        try:
            model.set_grad_checkpointing(True)
            model.set_grad_checkpointing(False)
        except Exception:  # noqa: BLE001 - some architectures assert they have none
            supports = False
    return Built(model=model, make_inputs=make_inputs, class_name=f"{type(model).__name__} ({name})",
                 supports_checkpointing=supports,
                 enable_checkpointing=lambda: model.set_grad_checkpointing(True))


def in_held_out_code(relative: str) -> bool:
    """timm/models/<module>.py of a held-out module."""
    parts = relative.split("/")
    return len(parts) == 3 and parts[1] == "models" and parts[2].removesuffix(".py") in HELD_OUT

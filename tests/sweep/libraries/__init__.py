"""One adapter per library the sweep runs dynamo over. Each module gives:

    NAME                         the distribution name (pip's, importable)
    HELD_OUT                     families never built, run or stored (issue 13's independent check)
    SHRINK_LEVELS                the levels tried in turn until a model runs eagerly
    import_library() -> module     the library, imported (what it needs first, done)
    families() -> [str]          every family the library offers, minus HELD_OUT
    build(family, torch, level) -> Built
    in_held_out_code(relative) -> bool
                                 whether a file (relative to the package's parent) belongs to a
                                 held-out family, so that its lines stay out of the stored truth
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

ADAPTERS = {"transformers": "hf_transformers", "timm": "timm_models", "diffusers": "diffusers_models"}


@dataclass
class Built:
    model: Any                               # a torch.nn.Module, float32, on the CPU
    make_inputs: Callable[[], dict]          # keyword arguments of one forward (fresh tensors)
    class_name: str
    supports_checkpointing: bool = False     # whether enable_checkpointing() turns it on
    enable_checkpointing: Callable[[], None] = field(default=lambda: None)


def adapter(library: str):
    """The library's adapter module; for a library added for first contact (untuned_adapter's
    LIBRARIES: configurations of tests/sweep/libraries/untuned/), an object with the same names."""
    from .untuned_adapter import LIBRARIES, for_library

    if library in LIBRARIES:
        return for_library(library)
    if library not in ADAPTERS:
        raise ValueError(f"no sweep adapter for {library!r} (have: "
                         f"{', '.join(sorted(ADAPTERS) + sorted(LIBRARIES))})")
    return importlib.import_module(f"{__name__}.{ADAPTERS[library]}")

"""The sweep adapter of the libraries added for first contact (tests/sweep/libraries/untuned/, run by
tests/sweep/untuned_libraries.py): a family is one of the library's configurations there, built
as untuned_libraries.py's `run` builds it (the configuration's build(), then its inputs()), with
nothing held out and one size. The library is imported from wherever the path has it: its
environment, build-sweep/env/<library>-<version>/, on PYTHONPATH (env_path finds it)."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

from . import Built
from .torchvision_without_ops import import_torchvision

# the import names (each with a file libraries/untuned/<name, lowercase>.py)
LIBRARIES = ("torchsde", "snntorch", "nnAudio", "torchode", "litgpt")

REPO = Path(__file__).resolve().parents[3]


class Untuned:
    HELD_OUT = frozenset()
    SHRINK_LEVELS = ("tiny",)  # the configurations' own sizes: one level, never counted

    def __init__(self, library: str):
        self.NAME = library

    def import_library(self):
        import torch

        import_torchvision(torch)  # as untuned_libraries.py's run does before the library
        return importlib.import_module(self.NAME)

    @functools.lru_cache(None)  # noqa: B019 - one per library, alive as long as the process
    def _configurations(self):
        """{name: (build, inputs)}, made once per process (as the ground-truth run makes them)."""
        import torch

        import untuned_libraries  # tests/sweep/, on the path of sweep.py and mend_sweep.py

        self.import_library()
        return untuned_libraries.configurations(self.NAME, torch)

    def families(self) -> list[str]:
        return sorted(self._configurations())

    def build(self, family: str, torch, level: str) -> Built:
        make, inputs = self._configurations()[family]
        return Built(model=make(), make_inputs=inputs, class_name=family)

    def count_parameters(self, family: str, torch, level: str) -> int:  # one level: never asked
        return sum(p.numel() for p in self.build(family, torch, level).model.parameters())

    def in_held_out_code(self, relative: str) -> bool:
        return False


@functools.lru_cache(None)
def for_library(library: str) -> Untuned:
    if library not in LIBRARIES:
        raise ValueError(f"{library!r} is not one of the first-contact libraries ({', '.join(LIBRARIES)})")
    return Untuned(library)


def env_path(library: str, version: str | None = None) -> Path | None:
    """The library's environment, build-sweep/env/<library>-<version>/ (the one holding the
    package; with version None, the only such folder), or None."""
    base = REPO / "build-sweep" / "env"
    names = [f"{library}-{version}"] if version else sorted(
        p.name for p in base.glob(f"{library}-*") if (p / library / "__init__.py").is_file())
    if len(names) != 1 or not (base / names[0] / library / "__init__.py").is_file():
        return None
    return base / names[0]

"""torchvision from PyPI is built against PyPI's CUDA torch: with the project's CPU torch its C++
operators (nms, roi_align) do not load, and torchvision 0.28 then fails on import, registering
fake kernels for operators that were never defined. timm imports it for a few layers
(FrozenBatchNorm2d) whatever the model. Defining the two operators' schemas first lets it import;
calling them would fail, and no model the sweep builds does."""

from __future__ import annotations

_SCHEMAS = (
    "nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
    "qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
)
_library = None  # kept alive: the definitions go away with the Library object


def import_torchvision(torch):
    global _library
    try:
        import torchvision  # noqa: F401
        return
    except ImportError:
        return  # not installed: the library decides whether it needs it
    except RuntimeError as exc:
        if "torchvision::" not in str(exc):
            raise
    import sys

    for name in [m for m in sys.modules if m == "torchvision" or m.startswith("torchvision.")]:
        del sys.modules[name]
    _library = torch.library.Library("torchvision", "FRAGMENT")
    for schema in _SCHEMAS:
        try:
            _library.define(schema)
        except RuntimeError:
            pass  # defined after all (the operators did load)
    import torchvision  # noqa: F401,F811

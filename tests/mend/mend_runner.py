"""Run mend fixtures' original and mended versions under real TorchDynamo and compare them.

    python tests/mend/mend_runner.py OUT.json ORIGINAL.py MENDED.py [ORIGINAL.py MENDED.py ...]

For each file: import it, seed, call ``example()`` for ``(callable, args)`` (seeded, so both
versions build the same weights), count dynamo's breaks in the file with
``torch._dynamo.explain`` and the ``graph_breaks`` log (as the corpus oracle does), then run it
eagerly and compiled (``aot_eager``, which traces what inductor would get) in eval mode, and,
for a module or a function of tensors, once more in training mode with gradients. For each pair
the JSON holds both break counts and whether outputs and gradients are equal.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "oracle"))
import dynamo_runner  # noqa: E402  (the corpus oracle's dynamo plumbing)


def _load(path: str, index: int):
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec = importlib.util.spec_from_file_location(f"_gm_mend_{index}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        dynamo_runner._seed()
        fn, args = module.example()
    finally:
        sys.path.pop(0)
    if not isinstance(args, tuple):
        raise TypeError("example() must return (callable, args_tuple)")
    return dynamo_runner._unwrap(fn), args


def _clone(value, requires_grad=False):
    if isinstance(value, torch.Tensor):
        copy = value.detach().clone()
        if requires_grad and copy.is_floating_point():
            copy.requires_grad_(True)
        return copy
    if isinstance(value, (list, tuple)):
        return type(value)(_clone(v, requires_grad) for v in value)
    if isinstance(value, dict):
        return {k: _clone(v, requires_grad) for k, v in value.items()}
    return value


def _tensors(value):
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors(v)


def _equal(a, b) -> bool:
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            return False
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        return bool(torch.allclose(a.detach(), b.detach(), rtol=1e-5, atol=1e-6, equal_nan=True))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return a == b


def _breaks(fn, args, path: str, capture) -> dict:
    if isinstance(fn, torch.nn.Module):
        fn.eval()
    result = {"path": path, "breaks": [], "graph_count": None, "graph_break_count": None}
    dynamo_runner._seed()
    torch._dynamo.reset()
    capture.messages.clear()
    explained = torch._dynamo.explain(fn)(*_clone(args))
    dynamo_runner._record_explained(result, explained, capture, path)
    lines = {b["line"] for b in result["breaks"] if b["line"] is not None}
    return {"count": len(lines), "lines": sorted(lines),
            "reasons": sorted({b["reason"] for b in result["breaks"]})[:10]}


def _run(fn, args, compiled: bool, training: bool):
    if isinstance(fn, torch.nn.Module):
        fn.train(training)
    dynamo_runner._seed()
    torch._dynamo.reset()
    inputs = _clone(args, requires_grad=training)
    target = torch.compile(fn, backend="aot_eager") if compiled else fn
    with torch.set_grad_enabled(training):
        out = target(*inputs)
    grads = None
    if training:
        floats = [t for t in _tensors(out) if t.is_floating_point() and t.requires_grad]
        if floats:
            sum(t.float().sum() for t in floats).backward()
            grads = [t.grad for t in _tensors(inputs) if t.is_floating_point()]
            if isinstance(fn, torch.nn.Module):
                grads += [p.grad for _, p in sorted(fn.named_parameters())]
                fn.zero_grad(set_to_none=True)
    return out, grads


# The dynamo settings a module may change when imported (a [Defer] mend adds its logging
# function to reorderable_logging_functions, the capture mend switches capture_scalar_outputs
# on): each version runs under the ones its own import left, and every pair starts from and ends
# with the process's own.
_MODULE_SETTINGS = ("reorderable_logging_functions", "ignore_logging_functions",
                    "capture_scalar_outputs")


def _copy(value):
    return set(value) if isinstance(value, (set, frozenset)) else value


def _settings() -> dict:
    return {name: _copy(getattr(torch._dynamo.config, name)) for name in _MODULE_SETTINGS}


def _use_settings(settings: dict) -> None:
    for name, value in settings.items():
        setattr(torch._dynamo.config, name, _copy(value))


def compare(index: int, original: str, mended: str, capture) -> dict:
    result = {"original": original, "mended": mended, "error": None}
    pristine = _settings()
    try:
        fn_a, args_a = _load(original, 2 * index)
        settings_a = _settings()
        _use_settings(pristine)
        fn_b, args_b = _load(mended, 2 * index + 1)
        settings_b = _settings()
        _use_settings(settings_a)
        result["before"] = _breaks(fn_a, args_a, original, capture)
        _use_settings(settings_b)
        result["after"] = _breaks(fn_b, args_b, mended, capture)
        _use_settings(settings_a)
        ref, _ = _run(fn_a, args_a, compiled=False, training=False)
        _use_settings(settings_b)
        eager, _ = _run(fn_b, args_b, compiled=False, training=False)
        comp, _ = _run(fn_b, args_b, compiled=True, training=False)
        result["outputs_equal"] = _equal(ref, eager)
        result["compiled_outputs_equal"] = _equal(ref, comp)
        _use_settings(settings_a)
        ref_out, ref_grads = _run(fn_a, args_a, compiled=False, training=True)
        if ref_grads is None:
            result["gradients_equal"] = None  # nothing differentiable comes out
        else:
            _use_settings(settings_b)
            _, grads = _run(fn_b, args_b, compiled=True, training=True)
            result["gradients_equal"] = grads is not None and _equal(ref_grads, grads)
    except BaseException as exc:  # report, keep going with the other pairs
        if isinstance(exc, KeyboardInterrupt):
            raise
        result["error"] = "".join(traceback.format_exception(exc))[-4000:]
    finally:
        _use_settings(pristine)
        torch._dynamo.reset()
    return result


def main(argv: list[str]) -> int:
    if len(argv) < 3 or len(argv) % 2 == 0:
        print(__doc__, file=sys.stderr)
        return 2
    out_path, files = argv[0], argv[1:]
    torch.set_num_threads(1)
    capture = dynamo_runner._install_capture()
    pairs = list(zip(files[0::2], files[1::2]))
    results = {
        "torch_version": torch.__version__,
        "pairs": [compare(i, os.path.realpath(a), os.path.realpath(b), capture)
                  for i, (a, b) in enumerate(pairs)],
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

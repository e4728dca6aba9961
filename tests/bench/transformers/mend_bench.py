"""The GraphMend paper's measurement with graphmend's own mends, on transformers 4.52.4.

    python tests/bench/transformers/mend_bench.py [--graphmend BIN] [--models a,b] [--jobs N]
                                                  [--timeout S] [--arms safe,unsafe] [--json OUT]

1. Arms. ``original`` is the installed transformers package. Each mended arm is a private copy
   of the package on which ``graphmend fix`` (``safe``: safe mends only, as fix-all does;
   ``unsafe``: with ``--unsafe-fixes``) has been run over the modeling files of the models below
   and the shared modules they call (``transformers/*.py``, ``transformers/integrations/``); it is
   imported through ``PYTHONPATH``.
2. Per model and arm, one subprocess (``--worker``): build the tiny random-weight model of
   models.py (seeded, so every arm has the same weights and inputs), and for each dtype the model
   lists run ``torch._dynamo.explain`` (graphs, and breaks: the distinct innermost transformers
   lines of explain's break reasons and of the ``graph_breaks`` log, as bench.py counts them),
   then the model eagerly and compiled (``backend="eager"``: dynamo's graphs, run as captured),
   under ``no_grad``, saving the outputs.
3. Table: breaks before and after per arm, the share removed, whether the mended arm's outputs
   equal the original's (its eager run the original's eager run, its compiled run the original's
   compiled run), beside the paper's Table 2 row
   for the same model (graphmend-paper.md §2.2: the paper measured the full-size checkpoints on
   GPU, so absolute counts differ where a break depends on the config or the input).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(HERE))

# The paper's Table 2 rows for the checkpoints these tiny configs stand for:
# (checkpoint, breaks, share fixed).
PAPER = {
    "t5": ("t5-small", 3, 1.0),
    "bart": ("bart-base", 7, 1.0),
    "marian": ("opus-mt-fr-en", 6, 1.0),
    "pegasus": ("tiny-random-PegasusForCausalLM", 2, 1.0),
    "blenderbot": ("blenderbot-400M-distill", 3, 1.0),
    "biogpt": ("biogpt", 2, 1.0),
    "whisper": ("whisper-base", 3, 1.0),
    "layoutlmv3": ("layoutlmv3-base", 2, 1.0),
    "phi3-longrope": ("Phi-4-mini-instruct", 5, 1.0),
    "longformer": ("longformer-base-4096", 5, 0.4),
    "grounding-dino": ("grounding-dino-tiny", 17, 0.58),
    "clap": ("clap-htsat-fused", 4, 0.0),
}

# Where each model's modeling code lives under transformers/models/.
MODEL_DIRS = {
    "t5": "t5",
    "bart": "bart",
    "marian": "marian",
    "pegasus": "pegasus",
    "blenderbot": "blenderbot",
    "biogpt": "biogpt",
    "whisper": "whisper",
    "layoutlmv3": "layoutlmv3",
    "phi3-longrope": "phi3",
    "longformer": "longformer",
    "grounding-dino": "grounding_dino",
    "clap": "clap",
}


# --------------------------------------------------------------------------------------------
# worker: one model, one arm, in its own process
# --------------------------------------------------------------------------------------------


def _plain(value):
    """Model outputs as nested tuples/dicts of tensors (ModelOutput -> tuple)."""
    import torch

    if hasattr(value, "to_tuple"):
        value = value.to_tuple()
    if hasattr(value, "to_legacy_cache"):  # a transformers Cache object: its tensors
        value = value.to_legacy_cache()
    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def worker(name: str, out_path: str, outputs_path: str) -> int:
    import random

    import numpy as np
    import torch
    import torch._dynamo
    import transformers

    import bench
    from models import DTYPES, by_name

    torch.set_num_threads(1)
    tf_root = os.path.realpath(os.path.dirname(transformers.__file__))
    prefix = tf_root + os.sep
    capture = bench._install_capture(torch)
    spec = by_name(name)
    result = {"model": name, "transformers_root": tf_root, "torch": torch.__version__, "runs": []}
    outputs = {}

    def seed():
        torch.manual_seed(0)
        random.seed(0)
        np.random.seed(0)

    for dtype_name in spec.dtypes:
        run = {"dtype": dtype_name, "breaks": [], "error": None}
        started = time.monotonic()
        try:
            seed()
            model, kwargs = spec.build(DTYPES[dtype_name])
            torch._dynamo.reset()
            capture.messages.clear()
            with torch.no_grad():
                explained = torch._dynamo.explain(model)(**kwargs)
            run["graph_count"] = explained.graph_count
            run["graph_break_count"] = explained.graph_break_count
            lines = set()
            reasons = []
            for reason in explained.break_reasons:
                where = bench._innermost([(fs.filename, fs.lineno) for fs in reason.user_stack], prefix)
                text = bench._short_reason(str(reason.reason).splitlines()[0])
                lines.add(where)
                reasons.append((where, text))
            for message in capture.messages:
                where = bench._line_from_log(message, prefix)
                lines.add(where)
                reasons.append((where, bench._short_reason(bench._log_reason(message))))
            run["breaks"] = sorted(
                {(os.path.relpath(f, tf_root) if f else "?", l or 0, r) for (f, l), r in
                 ((w if w else (None, None), r) for w, r in reasons)}
            )
            run["break_lines"] = len(lines)
            torch._dynamo.reset()
            seed()
            with torch.no_grad():
                eager = _plain(model(**kwargs))
            torch._dynamo.reset()
            seed()
            with torch.no_grad():
                compiled = _plain(torch.compile(model, backend="eager")(**kwargs))
            outputs[dtype_name] = {"eager": eager, "compiled": compiled}
        except BaseException as exc:  # report and go on with the next dtype
            if isinstance(exc, KeyboardInterrupt):
                raise
            run["error"] = "".join(traceback.format_exception(exc))[-3000:]
        finally:
            torch._dynamo.reset()
        run["seconds"] = round(time.monotonic() - started, 2)
        result["runs"].append(run)
    torch.save(outputs, outputs_path)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


# --------------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------------


def _equal(a, b, rtol: float = 1e-4, atol: float = 1e-5) -> bool:
    import torch

    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.shape == b.shape
                and a.dtype == b.dtype and bool(torch.equal(a, b) or torch.allclose(
                    a.float(), b.float(), rtol=rtol, atol=atol, equal_nan=True)))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k], rtol, atol) for k in a)
    return a == b


def mended_copy(tf_root: str, dest: Path, binary: Path, unsafe: bool, models: list[str]) -> dict:
    """Copies the transformers package under dest and runs graphmend fix on the modeling files
    of models and the shared modules; returns fix's summary."""
    package = dest / "transformers"
    shutil.copytree(tf_root, package, ignore=shutil.ignore_patterns("__pycache__"))
    targets = sorted(str(p) for p in package.glob("*.py"))
    targets += sorted(str(p) for p in (package / "integrations").glob("*.py"))
    for name in models:
        targets += sorted(str(p) for p in (package / "models" / MODEL_DIRS[name]).glob("modeling_*.py"))
    args = [str(binary), "fix", *(["--unsafe-fixes"] if unsafe else []), *targets]
    started = time.monotonic()
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"graphmend fix failed ({proc.returncode}): {proc.stderr[-2000:]}")
    diff = subprocess.run(["diff", "-r", "-q", tf_root, str(package), "-x", "__pycache__"],
                          capture_output=True, text=True)
    changed = [line.split(" and ")[0].replace("Files ", "") for line in diff.stdout.splitlines()]
    return {"summary": (proc.stderr.strip().splitlines() or [""])[-1],
            "seconds": round(time.monotonic() - started, 1),
            "changed_files": [os.path.relpath(c, tf_root) for c in changed]}


def run_arm(arm: str, names: list[str], pythonpath: str | None, jobs: int, timeout: int, tmp: Path) -> dict:
    """One arm's workers (bench.run_workers), importing transformers from pythonpath."""
    import bench

    return bench.run_workers(names, jobs, timeout, sys.executable, tmp, script=__file__, label=arm,
                             extra_env={"PYTHONPATH": pythonpath} if pythonpath else None)


def _breaks(res: dict) -> int | None:
    runs = [r for r in res.get("runs", []) if not r.get("error")]
    if not runs or len(runs) != len(res.get("runs", [])):
        return None
    return max(r["break_lines"] for r in runs)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", nargs=3, metavar=("MODEL", "OUT", "OUTPUTS"), help=argparse.SUPPRESS)
    parser.add_argument("--graphmend", default=os.environ.get("GRAPHMEND_BIN", str(REPO / "build" / "graphmend")))
    parser.add_argument("--models", default="", help="comma-separated subset of models.py names")
    parser.add_argument("--arms", default="safe,unsafe", help="mended arms: safe, unsafe or both")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--timeout", type=int, default=400, help="seconds per model subprocess")
    parser.add_argument("--json", default="", help="write raw results here")
    args = parser.parse_args(argv)
    if args.worker:
        return worker(*args.worker)

    import torch
    import transformers

    import bench
    from models import MODELS

    tf_root = os.path.realpath(os.path.dirname(transformers.__file__))
    names = bench.select_models(parser, args.models, [m.name for m in MODELS])
    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    if not arms or any(a not in ("safe", "unsafe") for a in arms):
        parser.error("--arms takes safe, unsafe or safe,unsafe")
    binary = Path(args.graphmend)
    if not binary.exists():
        parser.error(f"graphmend binary not found: {binary}")

    with tempfile.TemporaryDirectory(prefix="gm-mend-bench-") as tmpdir:
        tmp = Path(tmpdir)
        copies = {}
        for arm in arms:
            print(f"graphmend fix ({arm}) on a copy of {tf_root} ...", file=sys.stderr, flush=True)
            copies[arm] = mended_copy(tf_root, tmp / arm, binary, arm == "unsafe", names)
        results = {"original": run_arm("original", names, None, args.jobs, args.timeout, tmp)}
        for arm in arms:
            results[arm] = run_arm(arm, names, str(tmp / arm), args.jobs, args.timeout, tmp)

        print()
        print(f"## Breaks before and after `graphmend fix` on transformers {transformers.__version__}")
        print(f"torch {torch.__version__} (CPU), tiny random-weight configs (tests/bench/transformers/models.py); "
              "breaks = distinct transformers lines dynamo breaks on (max over the model's dtypes)")
        for arm in arms:
            print(f"- {arm} arm: {copies[arm]['summary']} ({len(copies[arm]['changed_files'])} files changed)")
        print()
        cols = "".join(f" {a} after | {a} removed | {a} outputs equal |" for a in arms)
        header = f"| model | breaks before |{cols} paper: checkpoint | paper breaks | paper fixed |"
        print(header)
        print("|" + "---|" * (header.count("|") - 1))
        totals = {a: [0, 0] for a in arms}
        problems = []
        for name in names:
            before = _breaks(results["original"].get(name, {}))
            row = f"| {name} | {before if before is not None else 'error'} |"
            ref = None
            ref_path = results["original"].get(name, {}).get("outputs")
            if ref_path and os.path.exists(ref_path):
                ref = torch.load(ref_path, weights_only=False)
            for arm in arms:
                res = results[arm].get(name, {})
                after = _breaks(res)
                same = None
                if ref is not None and res.get("outputs") and os.path.exists(res["outputs"]):
                    mine = torch.load(res["outputs"], weights_only=False)
                    # call for call: a model may change its own state between calls (Phi-3's
                    # longrope swaps its inv_freq buffer), so eager is compared with eager and
                    # compiled with compiled
                    same = bool(mine) and mine.keys() == ref.keys() and all(
                        _equal(ref[d]["eager"], mine[d]["eager"]) and _equal(ref[d]["compiled"], mine[d]["compiled"])
                        for d in ref)
                if before is None or after is None:
                    row += f" {after if after is not None else 'error'} | - | {same} |"
                    problems += [f"{name} [{arm}]: {r['error'].strip().splitlines()[-1][:300]}"
                                 for r in res.get("runs", []) if r.get("error")]
                    if res.get("failed"):
                        problems.append(f"{name} [{arm}]: {res['failed']}: {res.get('tail', '')[-300:]}")
                    continue
                totals[arm][0] += before
                totals[arm][1] += before - after
                share = f"{100.0 * (before - after) / before:.0f}%" if before else "-"
                row += f" {after} | {share} | {'yes' if same else 'NO'} |"
            paper = PAPER[name]
            row += f" {paper[0]} | {paper[1]} | {100 * paper[2]:.0f}% |"
            print(row)
            for r in results["original"].get(name, {}).get("runs", []):
                if r.get("error"):
                    problems.append(f"{name} [original]: {r['error'].strip().splitlines()[-1][:300]}")
        print()
        for arm in arms:
            before, removed = totals[arm]
            print(f"{arm}: {removed} of {before} breaks removed "
                  f"({100.0 * removed / before if before else 0:.0f}%); the paper: 107 of 147 (73%) over 27 models")
        print()
        print("## Breaks left, per model and arm")
        for arm in arms:
            for name in names:
                for r in results[arm].get(name, {}).get("runs", []):
                    for f, line, reason in r.get("breaks", []):
                        print(f"- {arm} {name} [{r['dtype']}] {f}:{line}: {reason}")
        bench.print_problems(problems)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump({"copies": copies, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

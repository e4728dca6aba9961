"""Ground truth at scale: real TorchDynamo over every model family of a library that can be built
from its default config shrunk to a tiny size, stored as data the tests re-score graphmend with.

    python tests/sweep/sweep.py run --library transformers [--families a,b] [--jobs N]
                                    [--timeout S] [--runs eval:float32,train:float32]
    python tests/sweep/sweep.py collect --library transformers      # -> tests/sweep/data/*.json

(tools/sweep sets up the library's environment and calls this; see its header.)

run: one subprocess per family (``sweep.py --worker FAMILY OUT``, killed after --timeout seconds),
resumable: a family whose result file exists under build-sweep/runs/<library>-<version>/ is not
run again (--force runs it again). The worker builds the family's base model class from its
default config, shrunk (few layers, small widths, few experts), makes inputs by the model's main
input (token ids, pixel values, audio features), and for each run (mode and dtype) calls
``torch._dynamo.explain(model)(**inputs)`` once: eval mode under ``torch.no_grad()``, train mode
with gradient checkpointing on where the model supports it. Break sites come from explain's
``break_reasons`` and from the ``graph_breaks`` log (explain alone misses breaks that make dynamo
skip a frame), each the innermost frame inside the library, with the reason and its registry id;
the lines dynamo's interpreter traced inside the library are recorded too (bench.py's hooks).

collect: the result files into one compact JSON per library version (paths relative to the
package's parent, traced lines as ranges), with the torch, Python and library versions, mode and
dtype of every run. Families an adapter (libraries/) names held out are never built, run or stored.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import random
import re
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tests" / "bench" / "transformers"))

import bench  # noqa: E402  (the capture hooks and the subprocess pool of the 4.52.4 benchmark)
from libraries import adapter  # noqa: E402

DEFAULT_RUNS = "eval:float32,train:float32"
_GB_RE = re.compile(r"\b(?:gb|GB)(\d{4})\b")
MAX_PARAMETERS = 150_000_000  # a model past this at a larger shrink level takes minutes and gigabytes


def library_root(library: str) -> str:
    module = adapter(library).import_library()
    return os.path.realpath(os.path.dirname(module.__file__))


# --------------------------------------------------------------------------------------------
# worker: one family, every run, in its own process
# --------------------------------------------------------------------------------------------


def _existing_runs(out_path: str) -> list:
    """The runs an earlier sweep stored for this family (out_path is the pool's sweep-F.json,
    the stored result F.json beside it): a sweep that asks for more runs adds only those."""
    stored = Path(out_path).with_name(Path(out_path).name[len("sweep-"):])
    if os.environ.get("GM_SWEEP_FORCE") == "1":
        return []  # --force: every run again
    try:
        return [r for r in json.loads(stored.read_text(encoding="utf-8")).get("runs", []) if not r.get("error")]
    except (OSError, ValueError):
        return []


def worker(library: str, family: str, runs: str, out_path: str) -> int:
    import numpy as np
    import torch
    import torch._dynamo

    torch.set_num_threads(1)
    root = library_root(library)
    prefix = root + os.sep
    capture = bench._install_capture(torch)
    reached: set = set()
    bench._install_reach_hook(torch, root, reached)
    lib = adapter(library)
    module = lib.import_library()
    kept = _existing_runs(out_path)
    done = {(r["mode"], r["dtype"]) for r in kept}
    result = {
        "family": family, "library": library, "version": module.__version__,
        "torch": torch.__version__, "python": platform.python_version(), "runs": [],
    }
    level = _runnable_level(lib, family, torch, result)
    result["runs"].extend(kept)
    for spec in runs.split(","):
        mode, dtype_name = spec.split(":")
        if (mode, dtype_name) in done:
            continue
        run = {"mode": mode, "dtype": dtype_name, "breaks": [], "unattributed": [], "error": None}
        started = time.monotonic()
        if level is None:  # no tiny model runs even eagerly: nothing for dynamo to tell
            errors = result.get("eager_errors", {})
            run["error"] = run["error_summary"] = "does not run eagerly: " + "; ".join(
                f"{k}: {v}" for k, v in errors.items())[:400]
            run["reached"], run["seconds"] = [], 0.0
            result["runs"].append(run)
            continue
        try:
            torch.manual_seed(0)
            random.seed(0)
            np.random.seed(0)
            built = lib.build(family, torch, level)
            result["class"] = built.class_name
            dtype = getattr(torch, dtype_name)
            model = built.model.to(dtype)
            inputs = built.make_inputs()
            inputs = {k: v.to(dtype) if torch.is_tensor(v) and v.is_floating_point() else v
                      for k, v in inputs.items()}
            if mode == "train":
                model.train()
                if built.supports_checkpointing:
                    built.enable_checkpointing()
                    run["gradient_checkpointing"] = True
            else:
                model.eval()
            torch._dynamo.reset()
            capture.messages.clear()
            reached.clear()
            explain_breaks(torch, model, inputs, mode, capture, prefix, run)
        except BaseException as exc:  # recorded; the next run goes on
            if isinstance(exc, KeyboardInterrupt):
                raise
            record_error(run, exc)
        finally:
            torch._dynamo.reset()
        run["reached"] = sorted([f, line] for f, line in reached)
        run["seconds"] = round(time.monotonic() - started, 2)
        result["runs"].append(run)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


def record_error(run: dict, exc: BaseException) -> None:
    """A run's failure, as the stored data keeps it: the traceback's end and a one-line summary."""
    run["error"] = "".join(traceback.format_exception(exc))[-2000:]
    run["error_summary"] = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0][:240]}"


def explain_breaks(torch, model, inputs: dict, mode: str, capture, prefix: str, run: dict) -> None:
    """Runs torch._dynamo.explain once (gradients on in train mode) and records in run its graph
    count and the break sites: explain's break_reasons and the graph_breaks log (capture), each
    at its innermost frame under prefix (the library), or as unattributed."""
    with torch.set_grad_enabled(mode == "train"):
        explained = torch._dynamo.explain(model)(**inputs)
    run["graph_count"] = explained.graph_count
    run["graph_break_count"] = explained.graph_break_count
    for reason in explained.break_reasons:
        where = bench._innermost([(fs.filename, fs.lineno) for fs in reason.user_stack], prefix)
        text = str(reason.reason)
        entry = {"source": "explain", "reason": bench._short_reason(text.splitlines()[0]), "gb": _gb(text)}
        (run["breaks"].append({**entry, "file": where[0], "line": where[1]}) if where
         else run["unattributed"].append(entry))
    for message in capture.messages:
        where = bench._line_from_log(message, prefix)
        entry = {"source": "log", "reason": bench._short_reason(bench._log_reason(message)),
                 "gb": _gb(message), "frame_skipped": bool(bench._SKIP_RE.search(message))}
        (run["breaks"].append({**entry, "file": where[0], "line": where[1]}) if where
         else run["unattributed"].append(entry))


def _runnable_level(lib, family: str, torch, result: dict) -> str:
    """The first shrink level whose model runs one eager forward (eval, float32), or None."""
    for level in lib.SHRINK_LEVELS:
        try:
            if level != lib.SHRINK_LEVELS[0]:  # larger widths: count the parameters first, on meta
                size = lib.count_parameters(family, torch, level)
                if size > MAX_PARAMETERS:
                    raise RuntimeError(f"{size / 1e6:.0f}M parameters at level {level}: too large to sweep")
            torch.manual_seed(0)
            built = lib.build(family, torch, level)
            built.model.eval()
            with torch.no_grad():
                built.model(**built.make_inputs())
            result["shrink"] = level
            return level
        except Exception as exc:  # noqa: BLE001 - any failure means: try the next level
            result.setdefault("eager_errors", {})[level] = f"{type(exc).__name__}: {str(exc)[:200]}"
    return None


def _gb(text: str):
    m = _GB_RE.search(text)
    return f"GB{m.group(1)}" if m else None


# --------------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------------


def runs_dir(library: str, version: str) -> Path:
    return REPO / "build-sweep" / "runs" / f"{library}-{version}"


def data_path(library: str, version: str) -> Path:
    return HERE / "data" / f"{library}-{version}.json"


def command_run(args) -> int:
    import importlib.metadata

    version = importlib.metadata.version(args.library)
    lib = adapter(args.library)
    families = lib.families()
    if args.families:
        wanted = args.families.split(",")
        held = [f for f in wanted if f in lib.HELD_OUT]
        if held:
            print(f"sweep: held-out families are never run: {', '.join(held)}", file=sys.stderr)
            return 2
        families = [f for f in families if f in wanted]
    if args.shard:
        index, count = args.shard
        families = families[index - 1 :: count]
    out_dir = runs_dir(args.library, version)
    out_dir.mkdir(parents=True, exist_ok=True)
    for finished in out_dir.glob("sweep-*.json"):  # a worker's output from an interrupted sweep
        finished.rename(out_dir / finished.name[len("sweep-"):])
    wanted_runs = {tuple(spec.split(":")) for spec in args.runs.split(",")}

    def ran(family: str) -> bool:
        """Whether the stored result has every run asked for (a failed one counts, unless
        --retry-failed): a sweep with a run added (eval:float16) runs only that one."""
        path = out_dir / f"{family}.json"
        if not path.exists():
            return False
        result = json.loads(path.read_text(encoding="utf-8"))
        if result.get("failed"):
            return not args.retry_failed
        have = {(r["mode"], r["dtype"]) for r in result.get("runs", [])
                if not (args.retry_failed and r.get("error"))}
        return wanted_runs <= have

    todo = [f for f in families if args.force or not ran(f)]
    print(f"sweep: {args.library} {version}: {len(families)} families, {len(todo)} to run, "
          f"{args.jobs} at a time, runs {args.runs}", file=sys.stderr)
    started = time.monotonic()
    env = {"GM_SWEEP_LIBRARY": args.library, "GM_SWEEP_RUNS": args.runs,
           "GM_SWEEP_FORCE": "1" if args.force else "0"}
    with_script = Path(__file__).resolve()
    results = bench.run_workers(todo, args.jobs, args.timeout, sys.executable, str(out_dir),
                                script=with_script, label="sweep", extra_env=env)
    for family, result in results.items():
        target = out_dir / f"{family}.json"
        if result.get("failed"):  # a timeout or a crash is a result too; earlier runs stay
            earlier = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
            if earlier.get("runs") and not earlier.get("failed"):
                earlier.setdefault("later_failures", []).append(
                    {"runs": args.runs, "failed": result["failed"], "tail": result.get("tail", "")[-1500:]})
                target.write_text(json.dumps(earlier))
            else:
                target.write_text(json.dumps({"family": family, "failed": result["failed"],
                                              "tail": result.get("tail", "")[-1500:], "runs": []}))
        else:
            result.pop("outputs", None)
            target.write_text(json.dumps(result))
        for leftover in out_dir.glob(f"sweep-{family}.*"):
            leftover.unlink()
    print(f"sweep: {len(todo)} families in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


def _ranges(lines: list[int]) -> list:
    out = []
    for line in sorted(set(lines)):
        if out and out[-1][1] == line - 1:
            out[-1][1] = line
        else:
            out.append([line, line])
    return [r[0] if r[0] == r[1] else r for r in out]


def _keep_stored_runs(target: Path, families: dict) -> None:
    """Adds to families the runs the stored data file holds and this machine's raw results lack
    (a sweep that adds a run on a machine without build-sweep/runs/ keeps the stored ones); a
    family the raw results do not have at all is kept as stored."""
    try:
        stored = json.loads(target.read_text(encoding="utf-8")).get("families", {})
    except (OSError, ValueError):
        return
    for family, entry in stored.items():
        fresh = families.setdefault(family, entry)
        if fresh is entry:
            continue
        have = {(r["mode"], r["dtype"]) for r in fresh["runs"]}
        fresh["runs"] = [r for r in entry.get("runs", []) if (r["mode"], r["dtype"]) not in have] + fresh["runs"]
        for key in ("class", "shrink"):
            if fresh.get(key) is None and entry.get(key) is not None:
                fresh[key] = entry[key]


def command_collect(args) -> int:
    import importlib.metadata

    version = importlib.metadata.version(args.library)
    lib = adapter(args.library)
    root = library_root(args.library)
    base = os.path.dirname(root) + os.sep
    out_dir = runs_dir(args.library, version)
    families = {}
    meta = {}
    # F.json, and sweep-F.json: what a worker of a sweep still running (or interrupted) finished
    # a worker's sweep-F.json first: it holds F.json's runs and the ones just added
    for path in sorted(out_dir.glob("*.json"), key=lambda p: (not p.name.startswith("sweep-"), p.name)):
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue  # a worker still writing it
        family = result["family"]
        if family in lib.HELD_OUT or family in families:
            continue
        entry = {"class": result.get("class"), "shrink": result.get("shrink")}
        if result.get("failed"):
            entry["failed"] = result["failed"]
        runs = []
        for run in result.get("runs", []):
            meta.update({k: result[k] for k in ("torch", "python", "version") if k in result})
            compact = {"mode": run["mode"], "dtype": run["dtype"]}
            if run.get("error"):
                compact["error"] = run.get("error_summary") or run["error"].strip().splitlines()[-1][:300]
                runs.append(compact)
                continue
            compact["graphs"] = run.get("graph_count")
            compact["gradient_checkpointing"] = bool(run.get("gradient_checkpointing"))
            sites = {}
            for b in run["breaks"]:
                if not b["file"].startswith(base):
                    continue
                key = (os.path.relpath(b["file"], os.path.dirname(root)), b["line"])
                if lib.in_held_out_code(key[0]):
                    continue
                site = sites.setdefault(key, {"file": key[0], "line": key[1], "reason": b["reason"],
                                              "gb": b.get("gb"), "frame_skipped": False})
                site["frame_skipped"] = site["frame_skipped"] or bool(b.get("frame_skipped"))
                site["gb"] = site["gb"] or b.get("gb")
            compact["breaks"] = sorted(sites.values(), key=lambda s: (s["file"], s["line"]))
            compact["unattributed"] = len(run.get("unattributed", []))
            traced = {}
            for file, line in run.get("reached", []):
                relative = os.path.relpath(file, os.path.dirname(root))
                if file.startswith(base) and not lib.in_held_out_code(relative):
                    traced.setdefault(relative, []).append(line)
            compact["traced"] = {f: _ranges(lines) for f, lines in sorted(traced.items())}
            runs.append(compact)
        entry["runs"] = runs
        families[family] = entry
    target = data_path(args.library, version)
    _keep_stored_runs(target, families)
    data = {
        "library": args.library, "version": meta.get("version", version), "torch": meta.get("torch"),
        "python": meta.get("python"), "held_out": sorted(lib.HELD_OUT), "families": families,
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    ok = sum(1 for f in families.values() if any("graphs" in r for r in f["runs"]))
    print(f"sweep: {len(families)} families ({ok} ran) -> {target.relative_to(REPO)} "
          f"({target.stat().st_size // 1024} KiB)", file=sys.stderr)
    return 0


def shard(text: str) -> tuple:
    """"K/N" with 1 <= K <= N, for --shard."""
    try:
        index, count = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N (two whole numbers)") from None
    if not 1 <= index <= count:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be between 1 and N")
    return index, count


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:  # bench.run_workers' calling convention: --worker NAME OUT [...]
        return worker(os.environ["GM_SWEEP_LIBRARY"], argv[1], os.environ["GM_SWEEP_RUNS"], argv[2])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run dynamo over the families (resumable)")
    run.add_argument("--library", default="transformers", choices=["transformers", "timm", "diffusers"])
    run.add_argument("--families", default="", help="comma-separated model types (default: all)")
    run.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    run.add_argument("--timeout", type=int, default=300, help="seconds per family")
    run.add_argument("--runs", default=DEFAULT_RUNS, help="mode:dtype pairs, comma-separated")
    run.add_argument("--force", action="store_true", help="run families that have results again")
    run.add_argument("--shard", default=None, type=shard, metavar="K/N", help="only the K-th of every N families")
    run.add_argument("--retry-failed", action="store_true", help="run families none of whose runs worked again")
    collect = sub.add_parser("collect", help="store the results as the library version's ground truth")
    collect.add_argument("--library", default="transformers", choices=["transformers", "timm", "diffusers"])
    args = parser.parse_args(argv)
    return command_run(args) if args.command == "run" else command_collect(args)


if __name__ == "__main__":
    sys.exit(main())

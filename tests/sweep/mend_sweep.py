"""The GraphMend paper's measurement on the sweep's breaking models: real TorchDynamo over every
family and run that broke in the stored ground truth (tests/sweep/data/), with the library as
installed (the original arm) and as `graphmend fix` leaves it (safe; unsafe: --unsafe-fixes).

    python tests/sweep/mend_sweep.py run --library transformers [--families a,b] [--arms safe,unsafe]
                                         [--jobs N] [--timeout S] [--force] [--graphmend BIN]
    python tests/sweep/mend_sweep.py report --library transformers [--list] [--store]
                                            [--first-contact SHA] [--graphmend BIN]

(tools/sweep --mend sets up the library's environment and calls both.) --library is
transformers, timm, diffusers, or one of the libraries added for first contact (torchsde,
snntorch, nnAudio, torchode, litgpt: the configurations of tests/sweep/libraries/untuned/, built
as tests/sweep/untuned_libraries.py builds them, through libraries/untuned_adapter.py); such a
library is imported from build-sweep/env/<library>-<version>/ (put on PYTHONPATH here, and for
the workers, when the path does not already have the library). --first-contact SHA marks the
stored file as measured with a build of SHA made before any mend was written for the library
(top-level "first_contact"); a later --store without it keeps that block, with the runs it had.

1. Mended copies. For each arm and mode, the installed package is copied under
   build-sweep/mend/<library>-<version>/copies/<arm>-<mode>/ beside a pyproject.toml with the
   mode's `training` setting (train runs are mended as `training = true` predicts them), and
   `graphmend fix` runs over the whole copy, as a user mending the package would. A copy is made
   again when the graphmend binary changes.
2. Workers. One subprocess per family and arm (the package imported from the copy through
   PYTHONPATH), killed after --timeout seconds. For each run (mode and dtype) the family broke in:
   the tiny model of the ground-truth sweep (seeded: every arm has the same weights and inputs),
   `torch._dynamo.explain` once (break sites from break_reasons and the graph_breaks log, as the
   sweep counts them), then a fresh model eagerly and compiled (backend="eager": dynamo's graphs
   run as captured), seeded before each call, saving the outputs and, in train mode, the
   parameters' gradients of the sum of the outputs. A run of a mended arm none of whose files on
   the family's path (the files it traced or broke in, in the ground truth) the mends changed is
   the original's run and is not run again.
3. Report. Per run key (mode/dtype): break sites before and after per arm, the share removed,
   and in how many families the mended outputs equal the original's (eager with eager, compiled
   with compiled, gradients with gradients); --list names every break left, mapped back to the
   original line, with the finding graphmend makes there and why it has no mend; --store writes
   the summary as tests/sweep/data/mend/<library>-<version>.json.

Results are kept under build-sweep/mend/ (resumable: a family whose result exists for the same
graphmend binary is not run again; --force runs it again).
"""

from __future__ import annotations

import argparse
import collections
import filecmp
import hashlib
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sweep  # noqa: E402  (the ground-truth sweep: model building, break collection)
from libraries import adapter  # noqa: E402
from libraries.untuned_adapter import LIBRARIES as UNTUNED, env_path  # noqa: E402
from sweep import REPO, bench  # noqa: E402

import mend_bench  # noqa: E402  (sys.path has tests/bench/transformers through sweep)

ARMS = ("safe", "unsafe")
TOLERANCE = {"float32": (1e-4, 1e-5), "float16": (1e-2, 1e-3), "bfloat16": (2e-2, 1e-2)}


def mend_dir(library: str, version: str) -> Path:
    return REPO / "build-sweep" / "mend" / f"{library}-{version}"


def binary_stamp(binary: Path) -> str:
    return hashlib.sha256(binary.read_bytes()).hexdigest()[:16]


# --------------------------------------------------------------------------------------------
# worker: one family, one arm, the runs it broke in
# --------------------------------------------------------------------------------------------


def _tensors(value):
    import torch

    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors(v)


def worker(family: str, out_path: str, outputs_path: str) -> int:
    import numpy as np
    import torch
    import torch._dynamo

    torch.set_num_threads(1)
    library = os.environ["GM_SWEEP_LIBRARY"]
    runs = json.loads(os.environ["GM_MEND_RUNS"])[family]
    root = sweep.library_root(library)
    prefix = root + os.sep
    capture = bench._install_capture(torch)
    lib = adapter(library)
    module = lib.import_library()
    version = getattr(module, "__version__", None)
    if version is None:  # litgpt has none
        import importlib.metadata

        version = importlib.metadata.version(library)
    result = {"family": family, "library": library, "root": root, "version": version,
              "torch": torch.__version__, "python": platform.python_version(),
              "stamp": os.environ.get("GM_MEND_STAMP", ""), "runs": []}
    level = sweep._runnable_level(lib, family, torch, result)
    outputs = {}

    def seed():
        torch.manual_seed(0)
        random.seed(0)
        np.random.seed(0)

    def fresh(mode: str, dtype):
        """The sweep's model and inputs, built after the same seeding."""
        seed()
        built = lib.build(family, torch, level)
        model = built.model.to(dtype)
        inputs = {k: v.to(dtype) if torch.is_tensor(v) and v.is_floating_point() else v
                  for k, v in built.make_inputs().items()}
        if mode == "train":
            model.train()
            if built.supports_checkpointing:
                built.enable_checkpointing()
        else:
            model.eval()
        return model, inputs

    for spec in runs:
        mode, dtype_name = spec.split(":")
        run = {"mode": mode, "dtype": dtype_name, "breaks": [], "unattributed": [], "error": None}
        started = time.monotonic()
        try:
            if level is None:
                raise RuntimeError("does not run eagerly: " + "; ".join(
                    f"{k}: {v}" for k, v in result.get("eager_errors", {}).items())[:400])
            dtype = getattr(torch, dtype_name)
            model, inputs = fresh(mode, dtype)
            torch._dynamo.reset()
            capture.messages.clear()
            sweep.explain_breaks(torch, model, inputs, mode, capture, prefix, run)
            for how in ("eager", "compiled"):
                torch._dynamo.reset()
                model, inputs = fresh(mode, dtype)
                call = model if how == "eager" else torch.compile(model, backend="eager")
                seed()
                with torch.set_grad_enabled(mode == "train"):
                    out = call(**inputs)
                entry = {"outputs": mend_bench._plain(out)}
                if mode == "train":
                    floating = [t for t in _tensors(out if not hasattr(out, "to_tuple") else out.to_tuple())
                                if t.requires_grad and t.is_floating_point()]
                    if floating:
                        sum(t.float().sum() for t in floating).backward()
                    entry["grads"] = {n: p.grad.detach().clone() for n, p in model.named_parameters()
                                      if p.grad is not None}
                outputs[f"{spec}/{how}"] = entry
        except BaseException as exc:  # recorded; the next run goes on
            if isinstance(exc, KeyboardInterrupt):
                raise
            sweep.record_error(run, exc)
        finally:
            torch._dynamo.reset()
        run["seconds"] = round(time.monotonic() - started, 2)
        result["runs"].append(run)
    torch.save(outputs, outputs_path)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


# --------------------------------------------------------------------------------------------
# mended copies
# --------------------------------------------------------------------------------------------


def mended_copy(root: Path, dest: Path, binary: Path, arm: str, mode: str, stamp: str) -> dict:
    """dest/<package>: root mended by `graphmend fix` as arm and mode say; {"summary",
    "changed": [files relative to the package's parent]}. Kept while the binary is the same."""
    record = dest / "mend.json"
    try:
        kept = json.loads(record.read_text(encoding="utf-8"))
        if kept.get("stamp") == stamp:
            return kept
    except (OSError, ValueError):
        pass
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    package = dest / root.name
    shutil.copytree(root, package, ignore=shutil.ignore_patterns("__pycache__"), symlinks=True)
    (dest / "pyproject.toml").write_text(
        f"[tool.graphmend]\ntraining = {'true' if mode == 'train' else 'false'}\n", encoding="utf-8")
    started = time.monotonic()
    proc = subprocess.run([str(binary), "fix", *(["--unsafe-fixes"] if arm == "unsafe" else []), root.name],
                          capture_output=True, text=True, cwd=dest)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"graphmend fix failed ({proc.returncode}): {proc.stderr[-2000:]}")
    said = (proc.stdout + "\n" + proc.stderr).strip().splitlines()
    changed = []
    for path in sorted(package.rglob("*.py")):
        original = root / path.relative_to(package)
        if not original.exists() or not filecmp.cmp(original, path, shallow=False):
            changed.append(str(path.relative_to(dest)))
    kept = {"stamp": stamp, "arm": arm, "mode": mode,
            # fix's count ("Found N predicted graph breaks (M mended, K remaining).", on stdout,
            # a line on the unsafe fixes left after it), else its last line
            "summary": next((line for line in reversed(said) if line.startswith("Found ")), said[-1] if said else ""),
            "seconds": round(time.monotonic() - started, 1), "changed": changed}
    record.write_text(json.dumps(kept, indent=1), encoding="utf-8")
    return kept


# --------------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------------


def breaking_runs(data: dict, families: list[str] | None) -> dict:
    """{family: {mode: [{"spec": "mode:dtype", "path": {files}}]}} of the runs that broke."""
    out = {}
    for family, entry in sorted(data["families"].items()):
        if families and family not in families:
            continue
        for run in entry.get("runs", []):
            if "graphs" not in run or not run["breaks"]:
                continue
            path = set(run.get("traced", {})) | {b["file"] for b in run["breaks"]}
            out.setdefault(family, {}).setdefault(run["mode"], []).append(
                {"spec": f"{run['mode']}:{run['dtype']}", "path": path})
    return out


def _installed(library: str) -> tuple[Path, str, dict]:
    import importlib.metadata

    version = importlib.metadata.version(library)
    data = json.loads(sweep.data_path(library, version).read_text(encoding="utf-8"))
    return Path(sweep.library_root(library)), version, data


def command_run(args) -> int:
    root, version, data = _installed(args.library)
    binary = Path(args.graphmend).resolve()
    stamp = binary_stamp(binary)
    wanted = [f for f in args.families.split(",") if f] or None
    plan = breaking_runs(data, wanted)
    arms = [a for a in args.arms.split(",") if a]
    if any(a not in ARMS for a in arms):
        print("mend_sweep: --arms takes safe, unsafe or both", file=sys.stderr)
        return 2
    base = mend_dir(args.library, version)
    modes = sorted({mode for runs in plan.values() for mode in runs})
    copies = {}
    for arm in arms:
        for mode in modes:
            print(f"mend_sweep: graphmend fix ({arm}, {mode}) on a copy of {root}", file=sys.stderr, flush=True)
            copies[(arm, mode)] = mended_copy(root, base / "copies" / f"{arm}-{mode}", binary, arm, mode, stamp)
    started = time.monotonic()
    for arm in ("original", *arms):
        for mode in modes:
            group = f"{arm}-{mode}"
            out_dir = base / "results" / group
            out_dir.mkdir(parents=True, exist_ok=True)
            changed = set(copies[(arm, mode)]["changed"]) if arm != "original" else None
            todo = {}
            for family, by_mode in plan.items():
                specs = [r["spec"] for r in by_mode.get(mode, [])
                         if changed is None or r["path"] & changed]
                if not specs:
                    continue
                stored = out_dir / f"{group}-{family}.json"
                if stored.exists() and not args.force:
                    try:
                        kept = json.loads(stored.read_text(encoding="utf-8"))
                        # the original arm does not depend on the binary
                        if ((arm == "original" or kept.get("stamp") == stamp) and not kept.get("failed")
                                and {r["spec"] for r in _specs(kept)} >= set(specs)):
                            continue
                    except ValueError:
                        pass
                todo[family] = specs
            print(f"mend_sweep: {group}: {len(todo)} families to run", file=sys.stderr, flush=True)
            if not todo:
                continue
            pythonpath = os.environ.get("PYTHONPATH", "")
            if arm != "original":
                pythonpath = str(base / "copies" / group) + (os.pathsep + pythonpath if pythonpath else "")
            env = {"GM_SWEEP_LIBRARY": args.library, "GM_MEND_RUNS": json.dumps(todo),
                   "GM_MEND_STAMP": stamp, "PYTHONPATH": pythonpath}
            results = bench.run_workers(list(todo), args.jobs, args.timeout, sys.executable, str(out_dir),
                                        script=Path(__file__).resolve(), label=group, extra_env=env)
            for family, result in results.items():
                if result.get("failed"):
                    result.update({"family": family, "stamp": stamp,
                                   "runs": [{"mode": s.split(":")[0], "dtype": s.split(":")[1],
                                             "error": result["failed"], "breaks": []} for s in todo[family]]})
                    (out_dir / f"{group}-{family}.json").write_text(json.dumps(result), encoding="utf-8")
    print(f"mend_sweep: done in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


def _specs(result: dict):
    for run in result.get("runs", []):
        yield {"spec": f"{run['mode']}:{run['dtype']}", **run}


def _sites(run: dict, lib, package_parent: str) -> set:
    """A run's distinct break sites inside the library, relative to the package's parent."""
    out = set()
    for b in run.get("breaks", []):
        if not b.get("file") or not b["file"].startswith(package_parent):
            continue
        rel = os.path.relpath(b["file"], package_parent)
        if not lib.in_held_out_code(rel):
            out.add((rel, b["line"], b.get("reason", ""), b.get("gb")))
    return out


def _original_line(root_parent: Path, copy_parent: Path, rel: str, line: int) -> int:
    """The line of the original file whose text the mended file's line has, nearest to it."""
    try:
        mended = (copy_parent / rel).read_text(encoding="utf-8").splitlines()
        original = (root_parent / rel).read_text(encoding="utf-8").splitlines()
    except OSError:
        return line
    if not 1 <= line <= len(mended):
        return line
    text = mended[line - 1].strip()
    candidates = [i + 1 for i, t in enumerate(original) if t.strip() == text]
    return min(candidates, key=lambda c: abs(c - line)) if candidates else line


def _load(base: Path, group: str, family: str):
    import torch

    path = base / "results" / group / f"{group}-{family}.json"
    if not path.exists():
        return None, None
    result = json.loads(path.read_text(encoding="utf-8"))
    outputs = path.with_suffix(".pt")
    return result, (torch.load(outputs, weights_only=False) if outputs.exists() else None)


COMPILED_GRADIENTS = ("compiled gradients differ; eager outputs and gradients and compiled outputs "
                      "are equal (torch's compiled checkpoint does not replay dropout: "
                      "tests/sweep/repro_compiled_checkpoint_dropout.py)")


def _same(ref, mine, spec: str, dtype: str):
    """True when mine's outputs (and gradients) equal ref's for spec, None when either is
    missing, COMPILED_GRADIENTS when only the compiled run's gradients differ, else False."""
    if ref is None or mine is None:
        return None
    rtol, atol = TOLERANCE.get(dtype, TOLERANCE["float32"])
    differ = []
    for how in ("eager", "compiled"):
        key = f"{spec}/{how}"
        if key not in ref or key not in mine:
            return None
        for part in ("outputs", "grads"):
            if (part in ref[key]) != (part in mine[key]) or (
                    part in ref[key] and not mend_bench._equal(ref[key][part], mine[key][part], rtol, atol)):
                differ.append((how, part))
    if not differ:
        return True
    return COMPILED_GRADIENTS if differ == [("compiled", "grads")] else False


def command_report(args) -> int:
    root, version, data = _installed(args.library)
    lib = adapter(args.library)
    base = mend_dir(args.library, version)
    plan = breaking_runs(data, [f for f in args.families.split(",") if f] or None)
    table = collections.OrderedDict()
    left = []
    problems = []
    raises = []  # mended runs that raised (or died) where the original ran
    findings = {}
    for family, by_mode in plan.items():
        for mode, runs in sorted(by_mode.items()):
            original, original_out = _load(base, f"original-{mode}", family)
            if original is None:
                problems.append(f"{family} [{mode}]: the original arm has not run")
                continue
            by_spec = {r["spec"]: r for r in _specs(original)}
            for planned in runs:
                spec = planned["spec"]
                dtype = spec.split(":")[1]
                key = spec.replace(":", "/")
                row = table.setdefault(key, {"families": 0, "before": 0, **{
                    a: {"before": 0, "after": 0, "equal": 0, "compared": 0, "unchanged": 0}
                    for a in ARMS}})
                run = by_spec.get(spec)
                if run is None or run.get("error"):
                    problems.append(f"{family} [{spec}] original: "
                                    f"{(run or {}).get('error_summary') or (run or {}).get('error', 'not run')}"[:300])
                    continue
                before = _sites(run, lib, str(root.parent) + os.sep)
                row["families"] += 1
                row["before"] += len({s[:2] for s in before})
                for arm in ARMS:
                    copy = base / "copies" / f"{arm}-{mode}"
                    record = json.loads((copy / "mend.json").read_text(encoding="utf-8")) \
                        if (copy / "mend.json").exists() else None
                    if record is None:
                        continue  # the arm has not run: it counts neither before nor after
                    row[arm]["before"] += len({s[:2] for s in before})
                    if not planned["path"] & set(record["changed"]):
                        after, same = before, True
                        row[arm]["unchanged"] += 1
                        mended_root = root
                    else:
                        mine, mine_out = _load(base, f"{arm}-{mode}", family)
                        mine_run = {r["spec"]: r for r in _specs(mine or {})}.get(spec)
                        if mine_run is None or mine_run.get("error"):
                            raised = _raised(mine, mine_run, root, base / "copies" / f"{arm}-{mode}")
                            if raised:
                                raises.append({"arm": arm, "run": key, "family": family, **raised})
                                problems.append(f"{family} [{spec}] {arm}: raises where the original "
                                                f"does not: {raised['error'][:240]}"
                                                + (f" (at {raised['file']}:{raised['line']} of the mended "
                                                   f"copy, original line {raised['original_line']})"
                                                   if raised.get("file") else ""))
                            else:
                                problems.append(f"{family} [{spec}] {arm}: "
                                                f"{(mine_run or {}).get('error_summary') or (mine_run or {}).get('error', 'not run')}"[:300])
                            row[arm]["after"] += len({s[:2] for s in before})
                            continue
                        mended_root = Path(mine["root"])
                        after = _sites(mine_run, lib, str(mended_root.parent) + os.sep)
                        same = _same(original_out, mine_out, spec, dtype)
                    row[arm]["after"] += len({s[:2] for s in after})
                    if same is not None:
                        row[arm]["compared"] += 1
                        row[arm]["equal"] += same is True
                    if same is False:
                        problems.append(f"{family} [{spec}] {arm}: outputs differ from the original's")
                    elif same == COMPILED_GRADIENTS:
                        problems.append(f"{family} [{spec}] {arm}: {COMPILED_GRADIENTS}")
                    named = {}  # one entry per site: the reason that carries a registry id first
                    for rel, line, reason, gb in sorted(after, key=lambda s: (s[0], s[1], s[3] is None)):
                        named.setdefault((rel, line), (reason, gb))
                    for (rel, line), (reason, gb) in sorted(named.items()):
                        at = _original_line(root.parent, mended_root.parent, rel, line)
                        left.append((arm, key, family, rel, at, reason, gb, mode))
    if args.list or args.store:
        for mode in {entry[7] for entry in left}:
            findings[mode] = _predictions(args, root, mode)
    print(f"## Breaks before and after `graphmend fix` over the sweep's breaking models: "
          f"{args.library} {version}")
    print(f"torch {data.get('torch')}, Python {data.get('python')}; break sites = distinct library lines "
          "dynamo breaks on (explain's break_reasons and the graph_breaks log), summed over families")
    print()
    print("| run | families | break sites before | safe after | safe removed | safe outputs equal "
          "| unsafe after | unsafe removed | unsafe outputs equal |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary = {"library": args.library, "version": version, "torch": data.get("torch"),
               "python": data.get("python"), "runs": {}, "left": []}
    for key, row in sorted(table.items()):
        cells = [key, str(row["families"]), str(row["before"])]
        for arm in ARMS:
            cells += arm_cells(row, arm)
        print("| " + " | ".join(cells) + " |")
        summary["runs"][key] = row
    before_total = sum(r["before"] for r in table.values())
    print()
    for arm in ARMS:
        measured = sum(r[arm]["before"] for r in table.values())
        if measured != before_total:
            print(f"{arm}: not run on every breaking family ({measured} of {before_total} break "
                  "sites measured): no figure")
            continue
        removed = sum(r[arm]["before"] - r[arm]["after"] for r in table.values())
        print(f"{arm}: {removed} of {before_total} break sites removed "
              f"({removed / before_total if before_total else 0:.0%}); the paper: 107 of 147 (73%)")
    for arm, key, family, rel, line, reason, gb, mode in sorted(left):
        found = findings.get(mode, {}).get((rel, line), [])
        f = found[0] if found else None
        offered = (f.get("fix") or {}).get("applicability") if f else None
        if f is None:
            why = "not predicted"
        elif f.get("mend_declined") or not offered:
            why = f"{f['code']}: " + (f.get("mend_declined") or "no mend")
        elif offered == "display-only" or (arm == "safe" and offered == "unsafe"):
            why = f"{f['code']}: the mend offered is {offered}, which this arm does not apply"
        else:
            why = f"{f['code']}: a {offered} mend is offered and applied, yet the break stays"
        summary["left"].append({"arm": arm, "run": key, "family": family, "file": rel, "line": line,
                                "reason": reason, "gb": gb, "why": why})
    if args.list:
        print("\n## Breaks left (original line), with dynamo's reason and graphmend's finding there")
        for item in summary["left"]:
            print(f"- {item['arm']} {item['run']} {item['family']}: {item['file']}:{item['line']} "
                  f"[{item['gb'] or '-'}] {item['reason'][:100]} -> {item['why'][:160]}")
    if problems:
        print("\n## Problems")
        for p in problems:
            print(f"- {p}")
    if args.store:
        target = HERE / "data" / "mend" / f"{args.library}-{version}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        summary["problems"] = problems
        summary["raises"] = raises
        kept = None
        try:
            kept = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
        if args.first_contact and kept and kept.get("first_contact", {}).get("graphmend") not in (
                None, args.first_contact):
            print(f"mend_sweep: {target.name} already has a first contact (graphmend "
                  f"{kept['first_contact']['graphmend']}): not stored", file=sys.stderr)
            return 2
        if args.first_contact:
            summary["first_contact"] = {"graphmend": args.first_contact, "note": FIRST_CONTACT_NOTE}
        elif kept and "first_contact" in kept:  # a first contact happens once: its figures stay
            summary["first_contact"] = {"runs": kept.get("runs"), **kept["first_contact"]}
        target.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"\nmend_sweep: stored {target.relative_to(REPO)}", file=sys.stderr)
    return 0


FIRST_CONTACT_NOTE = "mend arms measured before any mend was written for this library"


def _raised(result: dict | None, run: dict | None, root: Path, copy: Path) -> dict | None:
    """What a mended run that failed raised ({"error", and the innermost frame of the traceback
    inside the mended copy: "file" relative to the package's parent, "line" there and
    "original_line", the original's line with that text}); a worker that timed out or died, as
    "error". None when the run was never asked for."""
    if run is None:
        if result and result.get("failed"):
            return {"error": result["failed"]}
        return None
    lines = (run.get("error") or "").strip().splitlines()
    out = {"error": run.get("error_summary") or (lines[-1][:300] if lines else "failed")}
    copy_parent = (Path(result["root"]).parent if result and result.get("root") else copy)
    frames = re.findall(r'File "([^"]+)", line (\d+)', run.get("error") or "")
    for path, line in reversed(frames):
        if path.startswith(str(copy_parent) + os.sep):
            rel = os.path.relpath(path, copy_parent)
            out.update({"file": rel, "line": int(line),
                        "original_line": _original_line(root.parent, copy_parent, rel, int(line))})
            break
    return out


def arm_cells(row: dict, arm: str) -> list:
    """A report row's cells for one arm: breaks after, removed (share), outputs equal; no figure
    when the arm has not run on every family of the row (its before would not be the row's)."""
    a = row[arm]
    if a["before"] != row["before"]:
        return ["not run", "-", "-"]
    removed = a["before"] - a["after"]
    share = f"{removed} ({removed / a['before']:.0%})" if a["before"] else "-"
    return [str(a["after"]), share, f"{a['equal']}/{a['compared']}"]


def _predictions(args, root: Path, mode: str) -> dict:
    import score

    return score.predictions(args.graphmend, root.parent, root.name, training=(mode == "train"))


LIBRARIES = ["transformers", "timm", "diffusers", *UNTUNED]


def use_environment(library: str) -> None:
    """A first-contact library not on the path: its build-sweep/env/<library>-<version>/ put on
    sys.path and PYTHONPATH (the workers', the mended copy going before it)."""
    if library not in UNTUNED:
        return
    import importlib.util

    if importlib.util.find_spec(library) is not None:
        return
    env = env_path(library)
    if env is None:
        raise SystemExit(f"mend_sweep: {library} is not importable and build-sweep/env/ has no single "
                         f"{library}-<version>/ holding it (untuned_libraries.py's docstring installs it)")
    sys.path.insert(0, str(env))
    os.environ["PYTHONPATH"] = str(env) + (os.pathsep + os.environ["PYTHONPATH"]
                                          if os.environ.get("PYTHONPATH") else "")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:  # bench.run_workers' calling convention: --worker NAME OUT OUT.pt
        return worker(argv[1], argv[2], argv[3])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "report"):
        p = sub.add_parser(name)
        p.add_argument("--library", default="transformers", choices=LIBRARIES)
        p.add_argument("--families", default="", help="comma-separated subset of the breaking families")
        p.add_argument("--graphmend", default=os.environ.get("GRAPHMEND_BIN", str(REPO / "build" / "graphmend")))
        if name == "run":
            p.add_argument("--arms", default="safe,unsafe")
            p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
            p.add_argument("--timeout", type=int, default=600, help="seconds per family and arm")
            p.add_argument("--force", action="store_true", help="run families that have results again")
        else:
            p.add_argument("--list", action="store_true", help="list every break left")
            p.add_argument("--store", action="store_true", help="write tests/sweep/data/mend/<release>.json")
            p.add_argument("--first-contact", metavar="SHA", default=None,
                           help="with --store: mark the file as measured with a build of SHA, before any "
                                "mend was written for the library")
    args = parser.parse_args(argv)
    use_environment(args.library)
    return command_run(args) if args.command == "run" else command_report(args)


if __name__ == "__main__":
    sys.exit(main())

"""graphmend against real TorchDynamo on the modeling code of transformers 4.52.4.

    python tests/bench/transformers/bench.py [--graphmend BIN] [--models a,b] [--jobs N]
                                             [--timeout S] [--json OUT] [--reuse OLD_JSON]

(--reuse takes the dynamo runs from the --json file of an earlier run: only graphmend runs.)

1. Ground truth, one subprocess per model (``bench.py --worker NAME OUT``, killed after
   --timeout seconds so one failure does not end the run): build the tiny random-weight model of
   models.py, seed, ``torch._dynamo.reset()``, ``torch._dynamo.explain(model)(**inputs)`` once per
   dtype the model lists. A break is the innermost frame of its user stack that lies in the
   transformers package, taken from ``explain().break_reasons`` AND from the ``graph_breaks``
   log artifact (on torch 2.13 explain records nothing for a break that makes dynamo skip the
   frame: a break in a loop, in ``try``, under a generic context manager). While dynamo runs, every
   source line on which its symbolic interpreter executes an instruction
   (``InstructionTranslatorBase.step``; bare jumps and no-ops excluded, because CPython puts the
   jump out of a skipped block on that block's last line) is recorded: the lines *reached*.
2. Predictions: one ``graphmend check --output-format json`` over the whole installed transformers
   package; a prediction is (file, line) of a finding's start.
3. Scoring per model, on (file, line): D = dynamo's breaks; R = lines dynamo traced, plus D;
   P = predictions on lines in R. TP = |P & D|, FP = |P - D|, FN = |D - P|.
   Lines that ran only eagerly (the rest of a frame dynamo skipped after a break, code under
   ``torch.compiler.disable``, ``if not is_torchdynamo_compiling()`` branches) are not in R: dynamo
   never reaches them, so no break there can be observed.
"""

from __future__ import annotations

import argparse
import collections
import json
import linecache
import logging
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent

DEFINITION = """\
Definitions (matching on (file, line), file inside the transformers package):
  dynamo break  innermost transformers frame of a break: explain().break_reasons user_stack, and the
                graph_breaks log's "User code traceback" (breaks that skip a frame appear only there)
  reached       a line on which dynamo's symbolic interpreter executed an instruction (not a bare jump/NOP)
  predicted     a `graphmend check` finding whose start line is reached in the run
  TP            predicted and a dynamo break; FP predicted, no dynamo break; FN dynamo break, not predicted
  precision     TP / (TP + FP)        recall  TP / (TP + FN)
  pred@files    findings anywhere in the files the run reached (context only, not scored)"""

# --------------------------------------------------------------------------------------------
# worker: runs inside the per-model subprocess
# --------------------------------------------------------------------------------------------

_FRAME_RE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
_AT_RE = re.compile(r"in user code at (?P<file>.+?):(?P<line>\d+)\s*$", re.M)
_SKIP_RE = re.compile(r"Skipping the (?:function|frame)|falling back to eager|fall back to eager")
_STACK_MARKERS = ("User code traceback:", "The graph break occurred in the following user code:")


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:
            self.messages.append(str(record.msg))


def _install_capture(torch) -> _Capture:
    torch._logging.set_logs(graph_breaks=True)
    handler = _Capture()
    names = [
        n for n in logging.root.manager.loggerDict if n.startswith("torch") and n.endswith(".__graph_breaks")
    ]
    if not names:
        raise RuntimeError("no torch graph_breaks artifact logger found")
    for name in names:
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
        for h in logger.handlers:
            if h is not handler:
                h.setLevel(logging.CRITICAL)
    for h in logging.getLogger("torch").handlers:
        h.setLevel(logging.CRITICAL)
    return handler


# Instructions that do not make a line "reached": CPython attributes the jump that leaves a
# then-block to the block's last line, so dynamo starts that line even when the block was skipped
# (`if self.training: x.requires_grad = True` in eval mode "reaches" the assignment otherwise).
_NOT_REACHING = {
    "NOP", "RESUME", "CACHE", "EXTENDED_ARG", "JUMP_FORWARD", "JUMP_BACKWARD",
    "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_ABSOLUTE", "JUMP", "JUMP_NO_INTERRUPT",
}


def _install_reach_hook(torch, tf_root: str, reached: set):
    """Record (file, line) of every line in transformers on which dynamo's symbolic interpreter
    steps through an instruction other than a bare jump or no-op."""
    from torch._dynamo import symbolic_convert as sc

    original = sc.InstructionTranslatorBase.step
    prefix = tf_root + os.sep

    def step(self):
        try:
            ip = self.instruction_pointer
            if ip is not None and self.f_code.co_filename.startswith(prefix):
                inst = self.instructions[ip]
                if inst.opname not in _NOT_REACHING:
                    line = inst.starts_line or self.lineno
                    if line:
                        reached.add((self.f_code.co_filename, int(line)))
        except Exception:  # never disturb dynamo itself
            pass
        return original(self)

    sc.InstructionTranslatorBase.step = step


def _innermost(frames, prefix: str):
    found = None
    for filename, lineno in frames:
        real = os.path.realpath(filename)
        if real.startswith(prefix):
            found = (real, int(lineno))
    return found


def _line_from_log(message: str, prefix: str):
    for marker in _STACK_MARKERS:
        idx = message.rfind(marker)
        if idx >= 0:
            frames = [(m["file"], m["line"]) for m in _FRAME_RE.finditer(message[idx + len(marker):])]
            return _innermost(frames, prefix)
    frames = [(m["file"], m["line"]) for m in _AT_RE.finditer(message)]
    found = _innermost(frames, prefix)
    if found is None:
        frames = [(m["file"], m["line"]) for m in _FRAME_RE.finditer(message)]
        found = _innermost(frames, prefix)
    return found


def _log_reason(message: str) -> str:
    reason = _log_reason_head(message)
    m = re.search(r"Developer debug context:\s*(.+)", message)
    if m and m.group(1).strip():
        reason += " [" + m.group(1).strip()[:110] + "]"
    return reason


def _log_reason_head(message: str) -> str:
    lines = message.splitlines()
    for i, text in enumerate(lines):
        if text.startswith("Graph Break Reason:"):
            rest = text[len("Graph Break Reason:"):].strip()
            if rest.endswith(":") or not rest:
                for nxt in lines[i + 1:]:
                    if nxt.strip():
                        return (rest + " " + nxt.strip()).strip()
            return rest
    return lines[0] if lines else ""


def _short_reason(text: str) -> str:
    text = re.sub(r"^Encountered graph break when attempting to trace \S+: [^:]*:\s*", "", text)
    # "Failed to handle graph break gracefully. Skipping the function and falling back to eager.
    # Graph break encountered: X" -> X (the fallback is recorded as frame_skipped)
    text = re.sub(r"^.*Graph break encountered:\s*", "", text)
    return text.strip()[:240]


def worker(name: str, out_path: str) -> int:
    import random

    import numpy as np
    import torch
    import torch._dynamo
    import transformers

    sys.path.insert(0, str(HERE))
    from models import DTYPES, by_name

    torch.set_num_threads(1)
    tf_root = os.path.realpath(os.path.dirname(transformers.__file__))
    prefix = tf_root + os.sep
    capture = _install_capture(torch)
    reached: set = set()
    _install_reach_hook(torch, tf_root, reached)
    spec = by_name(name)
    result = {"model": name, "transformers": transformers.__version__, "torch": torch.__version__, "runs": []}
    for dtype_name in spec.dtypes:
        run = {"dtype": dtype_name, "breaks": [], "unattributed": [], "error": None}
        started = time.monotonic()
        try:
            torch.manual_seed(0)
            random.seed(0)
            np.random.seed(0)
            model, kwargs = spec.build(DTYPES[dtype_name])
            torch._dynamo.reset()
            capture.messages.clear()
            reached.clear()
            with torch.no_grad():
                explained = torch._dynamo.explain(model)(**kwargs)
            run["graph_count"] = explained.graph_count
            run["graph_break_count"] = explained.graph_break_count
            for reason in explained.break_reasons:
                where = _innermost([(fs.filename, fs.lineno) for fs in reason.user_stack], prefix)
                entry = {"source": "explain", "reason": _short_reason(str(reason.reason).splitlines()[0])}
                if where is None:
                    run["unattributed"].append(entry)
                else:
                    run["breaks"].append({**entry, "file": where[0], "line": where[1]})
            for message in capture.messages:
                where = _line_from_log(message, prefix)
                entry = {
                    "source": "log",
                    "reason": _short_reason(_log_reason(message)),
                    "frame_skipped": bool(_SKIP_RE.search(message)),
                }
                if where is None:
                    run["unattributed"].append(entry)
                else:
                    run["breaks"].append({**entry, "file": where[0], "line": where[1]})
        except BaseException as exc:  # report and go on with the next dtype
            if isinstance(exc, KeyboardInterrupt):
                raise
            run["error"] = "".join(traceback.format_exception(exc))[-3000:]
        finally:
            torch._dynamo.reset()
        run["reached"] = sorted([f, l] for f, l in reached)
        run["seconds"] = round(time.monotonic() - started, 2)
        result["runs"].append(run)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


# --------------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------------


def run_workers(names, jobs, timeout, python, tmp, script=None, label="dynamo", extra_env=None):
    """Runs `python SCRIPT --worker NAME OUT [OUT.pt]` for each model name, jobs at a time, each
    killed after timeout seconds; returns {name: the JSON it wrote, or a failure record}. With
    a script other than this file, the worker also gets OUT with a .pt suffix (mend_bench.py's
    outputs) and the result records it as "outputs"."""
    script = Path(script or __file__).resolve()
    own = script == Path(__file__).resolve()
    env = dict(os.environ)
    env.update(extra_env or {})
    env.pop("TORCH_LOGS", None)
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("TRANSFORMERS_VERBOSITY", "error")
    env["HF_HUB_OFFLINE"] = "1"
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    pending = list(names)
    running = {}
    results = {}
    while pending or running:
        while pending and len(running) < jobs:
            name = pending.pop(0)
            out = Path(tmp) / f"{label}-{name}.json"
            log = open(Path(tmp) / f"{label}-{name}.log", "w+", encoding="utf-8")
            extra = [] if own else [str(out.with_suffix(".pt"))]
            proc = subprocess.Popen(
                [python, str(script), "--worker", name, str(out), *extra],
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=REPO,
                env=env,
            )
            running[name] = (proc, out, log, time.monotonic())
            print(f"  {label}: {name} started", file=sys.stderr, flush=True)
        time.sleep(0.2)
        for name in list(running):
            proc, out, log, started = running[name]
            elapsed = time.monotonic() - started
            if proc.poll() is None and elapsed < timeout:
                continue
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            del running[name]
            log.seek(0)
            tail = log.read()[-2000:]
            log.close()
            if proc.returncode == 0 and out.exists():
                results[name] = json.loads(out.read_text(encoding="utf-8"))
                results[name]["wall"] = round(elapsed, 1)
                if not own:
                    results[name]["outputs"] = str(out.with_suffix(".pt"))
                status = "done"
            else:
                why = f"timed out after {timeout}s" if elapsed >= timeout else f"exited {proc.returncode}"
                results[name] = {"model": name, "runs": [], "failed": why, "tail": tail, "wall": round(elapsed, 1)}
                status = why
            print(f"  {label}: {name} {status} ({elapsed:.0f}s)", file=sys.stderr, flush=True)
    return results


def run_graphmend(binary: Path, tf_root: str):
    started = time.monotonic()
    proc = subprocess.run(
        [str(binary), "check", "--output-format", "json", tf_root], capture_output=True, text=True, cwd=REPO
    )
    seconds = time.monotonic() - started
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"graphmend exited {proc.returncode}: {proc.stderr[-2000:]}")
    findings = json.loads(proc.stdout)
    by_line = collections.defaultdict(list)
    for f in findings:
        path = Path(f["filename"])
        if not path.is_absolute():
            path = REPO / path
        key = (os.path.realpath(path), int(f["location"]["row"]))
        by_line[key].append(f)
    return by_line, len(findings), seconds


def _pct(x: float) -> str:
    return f"{x:.3f}"


def select_models(parser, models: str, names: list[str]) -> list[str]:
    """The --models subset (comma-separated) of names, in the order given; all when empty."""
    if not models:
        return names
    wanted = [n.strip() for n in models.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in names]
    if unknown:
        parser.error(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(names)}")
    return wanted



def print_problems(problems: list[str]) -> None:
    """The report's closing section: what went wrong in the runs, if anything."""
    if problems:
        print()
        print("## Problems")
        for line in problems:
            print(f"- {line}")

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", nargs=2, metavar=("MODEL", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--graphmend", default=os.environ.get("GRAPHMEND_BIN", str(REPO / "build-bench" / "graphmend")))
    parser.add_argument("--models", default="", help="comma-separated subset of models.py names")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--timeout", type=int, default=300, help="seconds per model subprocess")
    parser.add_argument("--json", default="", help="write raw results here")
    parser.add_argument(
        "--reuse",
        default="",
        help="take the dynamo runs from this --json file of an earlier run instead of running them "
        "(compares a new graphmend build in seconds)",
    )
    args = parser.parse_args(argv)
    if args.worker:
        return worker(*args.worker)

    import transformers  # only for its location and version

    sys.path.insert(0, str(HERE))
    from models import MODELS

    tf_root = os.path.realpath(os.path.dirname(transformers.__file__))
    names = select_models(parser, args.models, [m.name for m in MODELS])
    specs = {m.name: m for m in MODELS}

    binary = Path(args.graphmend)
    if not binary.exists():
        parser.error(f"graphmend binary not found: {binary}")
    print(f"graphmend check over {tf_root} ...", file=sys.stderr, flush=True)
    predicted, n_findings, gm_seconds = run_graphmend(binary, tf_root)

    if args.reuse:
        with open(args.reuse, encoding="utf-8") as f:
            results = json.load(f)["results"]
    else:
        with tempfile.TemporaryDirectory(prefix="gm-bench-tf-") as tmp:
            results = run_workers(names, max(1, args.jobs), args.timeout, sys.executable, tmp)

    def rel(path: str) -> str:
        return os.path.relpath(path, os.path.dirname(tf_root))

    print()
    print(f"## graphmend vs torch._dynamo.explain on transformers {transformers.__version__}")
    torch_version = next((r.get("torch") for r in results.values() if r.get("torch")), "?")
    print(f"torch {torch_version} (CPU), tiny random-weight configs (tests/bench/transformers/models.py)")
    print(f"graphmend check: {n_findings} findings over the whole package in {gm_seconds:.1f}s")
    print()
    print(DEFINITION)
    print()
    header = "| model | dtypes | graphs | dynamo breaks | predicted | TP | FP | FN | precision | recall | pred@files | dynamo s |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    totals = collections.Counter()
    fps = collections.defaultdict(lambda: {"models": set(), "findings": None})
    fns = collections.defaultdict(lambda: {"models": set(), "reasons": set(), "skipped": False})
    problems = []
    for name in names:
        res = results.get(name, {"runs": [], "failed": "missing"})
        dynamo = {}
        reached = set()
        graphs = []
        for run in res.get("runs", []):
            if run.get("error"):
                problems.append(f"{name} [{run['dtype']}]: {run['error'].strip().splitlines()[-1][:300]}")
                continue
            graphs.append(f"{run['dtype']}:{run.get('graph_count')}")
            reached.update((f, l) for f, l in run["reached"])
            for b in run["breaks"]:
                key = (b["file"], b["line"])
                d = dynamo.setdefault(key, {"reasons": set(), "skipped": False, "dtypes": set()})
                if b["reason"]:
                    d["reasons"].add(b["reason"])
                d["skipped"] |= bool(b.get("frame_skipped"))
                d["dtypes"].add(run["dtype"])
            for u in run.get("unattributed", []):
                problems.append(f"{name} [{run['dtype']}]: break outside transformers: {u['reason'][:160]}")
        if res.get("failed"):
            problems.append(f"{name}: worker {res['failed']}: {res.get('tail', '').strip()[-400:]}")
        reached |= set(dynamo)
        files = {f for f, _ in reached}
        pred = {k for k in predicted if k in reached}
        pred_files = sum(1 for k in predicted if k[0] in files)
        dset = set(dynamo)
        tp, fp, fn = pred & dset, pred - dset, dset - pred
        precision = len(tp) / (len(tp) + len(fp)) if tp or fp else 1.0
        recall = len(tp) / (len(tp) + len(fn)) if tp or fn else 1.0
        ok = bool(graphs)
        print(
            f"| {name} | {','.join(specs[name].dtypes)} | {' '.join(graphs) or '-'} | {len(dset)} | {len(pred)} | "
            f"{len(tp)} | {len(fp)} | {len(fn)} | {_pct(precision) if ok else '-'} | {_pct(recall) if ok else '-'} | "
            f"{pred_files} | {res.get('wall', '-')} |"
        )
        totals.update(dynamo=len(dset), pred=len(pred), tp=len(tp), fp=len(fp), fn=len(fn))
        for key in fp:
            fps[key]["models"].add(name)
            fps[key]["findings"] = predicted[key]
        for key in fn:
            fns[key]["models"].add(name)
            fns[key]["reasons"] |= dynamo[key]["reasons"]
            fns[key]["skipped"] |= dynamo[key]["skipped"]
            fns[key]["dtypes"] = dynamo[key]["dtypes"]
    p = totals["tp"] / (totals["tp"] + totals["fp"]) if totals["tp"] + totals["fp"] else 1.0
    r = totals["tp"] / (totals["tp"] + totals["fn"]) if totals["tp"] + totals["fn"] else 1.0
    print(
        f"| **total (model, line) pairs** | | | {totals['dynamo']} | {totals['pred']} | {totals['tp']} | {totals['fp']} | "
        f"{totals['fn']} | {_pct(p)} | {_pct(r)} | | |"
    )
    print()
    print(f"targets: precision >= 0.95 and recall >= 0.9 -> precision {'PASS' if p >= 0.95 else 'FAIL'}, "
          f"recall {'PASS' if r >= 0.9 else 'FAIL'}")
    print(f"distinct lines: {len(fps)} FP, {len(fns)} FN")

    def src(key):
        return linecache.getline(key[0], key[1]).strip()[:140]

    print()
    print("## False negatives (dynamo breaks graphmend does not predict), by dynamo reason")
    groups = collections.defaultdict(list)
    for key, info in fns.items():
        specific = [x for x in info["reasons"] if not x.startswith("generic_jump")] or list(info["reasons"])
        reason = sorted(specific, key=len)[-1] if specific else "(no reason text)"
        groups[re.sub(r"`[^`]*`|'[^']*'|\d+", "_", reason.split(" [")[0])[:90]].append((key, info, reason))
    for title, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n### {len(items)} x {title}")
        for key, info, reason in sorted(items):
            near = [
                f"{f['code']}@{f['location']['row']}"
                for (fk, _), fl in predicted.items()
                if fk == key[0]
                for f in fl
                if f["location"]["row"] <= key[1] <= f["end_location"]["row"] or abs(f["location"]["row"] - key[1]) <= 2
            ]
            print(f"- {rel(key[0])}:{key[1]}  `{src(key)}`")
            print(f"    models: {', '.join(sorted(info['models']))}; dtypes: {','.join(sorted(info.get('dtypes', [])))}"
                  f"{'; frame skipped (eager fallback)' if info['skipped'] else ''}")
            print(f"    dynamo: {reason}")
            if near:
                print(f"    graphmend nearby: {', '.join(sorted(set(near)))}")
    print()
    print("## False positives (predicted on a reached line, no dynamo break there), by graphmend rule")
    groups = collections.defaultdict(list)
    for key, info in fps.items():
        codes = ",".join(sorted({f["code"] for f in info["findings"]}))
        groups[codes].append((key, info))
    for code, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n### {len(items)} x {code}")
        for key, info in sorted(items):
            msg = info["findings"][0]["message"]
            print(f"- {rel(key[0])}:{key[1]}  `{src(key)}`")
            print(f"    models: {', '.join(sorted(info['models']))}")
            print(f"    graphmend: {msg[:200]}")
    print_problems(problems)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"results": results, "graphmend_findings": n_findings}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())

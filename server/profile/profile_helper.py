"""One arm of `graphmend profile`: imports a copy of the user's file, calls its entry function,
and measures the model it returns under torch.compile. The graphmend binary embeds this script,
writes it to a private temporary directory and runs it once per arm (original, mended), each time
in a fresh interpreter with its own TORCHINDUCTOR_CACHE_DIR, so that no dynamo or inductor state
leaks from one arm into the other.

The result is one JSON object written to --result: measurements on success, or
{"ok": false, "error": {"kind", "message", "traceback"}} for a failure the user must see
(no_torch, no_entry, bad_entry, user_error, no_cuda). Progress lines go to the file descriptor
--progress-fd when given. The script must run on any Python 3.8+ and import nothing but the
standard library before it has checked that torch is there.
"""

import argparse
import json
import logging
import math
import os
import random
import re
import statistics
import sys
import time
import traceback

TRACEBACK_TAIL_LINES = 25


class ProfileFailure(Exception):
    def __init__(self, kind, message, tb=""):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.tb = tb


class Progress:
    def __init__(self, fd, arm):
        self.stream = os.fdopen(fd, "w", buffering=1) if fd is not None and fd >= 0 else None
        self.arm = arm

    def __call__(self, text):
        if self.stream is not None:
            try:
                self.stream.write("%s: %s\n" % (self.arm, text))
            except OSError:
                self.stream = None


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--arm", required=True, choices=("original", "mended"))
    parser.add_argument("--file", required=True, help="the copy of the user's file to import")
    parser.add_argument("--display-path", required=True, help="the user's file, for messages")
    parser.add_argument("--module-dir", required=True, help="directory of the user's file")
    parser.add_argument("--entry", required=True)
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    parser.add_argument("--mode", default="default")
    parser.add_argument("--backend", default="inductor")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--result", required=True)
    parser.add_argument("--outputs", required=True, help="where to torch.save this arm's outputs")
    parser.add_argument("--reference", help="the other arm's saved outputs, to compare with")
    parser.add_argument("--progress-fd", type=int)
    parser.add_argument("--mended-imports", nargs=2, metavar=("LAUNCHER", "MAP"),
                        help="the mended arm of `profile --packages`: import installed packages "
                        "from graphmend's mended copies (server/packages/mended_imports.py)")
    parser.add_argument("--confirm", action="store_true",
                        help="`graphmend confirm`: only collect dynamo's break sites and traced "
                        "lines in --file, under torch._dynamo.explain")
    return parser.parse_args(argv)


def display_text(text, args):
    """Messages name the user's file, not the private copy."""
    shown = args.display_path if args.arm == "original" else args.display_path + " (mended copy)"
    return text.replace(args.file, shown)


def traceback_tail(exc, args):
    lines = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).splitlines()
    helper = os.path.abspath(__file__)
    kept = [line for line in lines if helper not in line][-TRACEBACK_TAIL_LINES:]
    mended_imports = sys.modules.get("graphmend_mended_imports")
    if mended_imports is not None:  # line numbers of mended package copies
        kept.extend(mended_imports.line_notes(exc))
    return display_text("\n".join(kept), args)


def install_mended_imports(args):
    """Before the user's file imports anything: the packages of `--packages` from their mended
    copies."""
    if not args.mended_imports:
        return
    import importlib.util

    launcher, map_path = args.mended_imports
    spec = importlib.util.spec_from_file_location("graphmend_mended_imports", launcher)
    module = importlib.util.module_from_spec(spec)
    sys.modules["graphmend_mended_imports"] = module
    spec.loader.exec_module(module)
    module.install(map_path)


def import_torch():
    try:
        import torch  # noqa: F401
        import torch._dynamo  # noqa: F401
    except ImportError as exc:
        raise ProfileFailure(
            "no_torch",
            "torch cannot be imported by %s (%s): install PyTorch in that environment or choose "
            "another interpreter (--python, $GRAPHMEND_PYTHON)" % (sys.executable, exc))
    return torch


def seed_everything(torch):
    random.seed(0)
    torch.manual_seed(0)
    try:
        import numpy

        numpy.random.seed(0)
    except ImportError:
        pass


def load_entry(args):
    import importlib.util

    sys.path.insert(0, args.module_dir)
    name = "graphmend_profile_target"
    spec = importlib.util.spec_from_file_location(name, args.file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # the user's module may raise anything, SystemExit included
        raise ProfileFailure("user_error", "importing %s raised %s: %s" % (
            args.display_path, type(exc).__name__, display_text(str(exc), args)),
            traceback_tail(exc, args))
    entry = getattr(module, args.entry, None)
    if entry is None:
        raise ProfileFailure(
            "no_entry",
            "%s has no function `%s`: add `def %s(): return model, (inputs,)` (see "
            "examples/profile_example.py) or name another one with --entry" % (
                args.display_path, args.entry, args.entry))
    if not callable(entry):
        raise ProfileFailure("bad_entry", "`%s` in %s is not a function" % (
            args.entry, args.display_path))
    return entry


class Inputs:
    """The example inputs: positional and keyword arguments of each call."""

    def __init__(self, positional, keywords):
        self.positional = tuple(positional)
        self.keywords = dict(keywords)

    def call(self, fn):
        return fn(*self.positional, **self.keywords)


def call_entry(entry, args):
    try:
        made = entry()
    except BaseException as exc:
        raise ProfileFailure("user_error", "%s() raised %s: %s" % (
            args.entry, type(exc).__name__, display_text(str(exc), args)),
            traceback_tail(exc, args))
    if not (isinstance(made, (tuple, list)) and len(made) in (2, 3) and callable(made[0])
            and (len(made) == 2 or isinstance(made[2], dict))):
        raise ProfileFailure(
            "bad_entry",
            "%s() must return (model_or_function, tuple_of_inputs) or (model_or_function, "
            "tuple_of_inputs, dict_of_keyword_inputs), not %s" % (args.entry, type(made).__name__))
    model, positional = made[0], made[1]
    keywords = made[2] if len(made) == 3 else {}
    if isinstance(positional, dict):  # (model, {"input_ids": ...}): keyword inputs only
        positional, keywords = (), positional
    elif not isinstance(positional, (tuple, list)):
        positional = (positional,)
    return model, Inputs(positional, keywords)


def choose_device(torch, requested):
    """The device and, when auto fell back to the CPU, a sentence that says so."""
    has_cuda = torch.cuda.is_available()
    if requested == "cuda" and not has_cuda:
        raise ProfileFailure(
            "no_cuda", "--device cuda was asked for, but torch %s sees no CUDA device "
            "(torch.cuda.is_available() is False)" % torch.__version__)
    if requested == "auto" and not has_cuda:
        return "cpu", ("no CUDA device available (torch.cuda.is_available() is False): "
                       "profiled on the CPU")
    return ("cuda" if requested in ("auto", "cuda") else "cpu"), None


def to_device(value, device):
    import torch

    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, tuple):
        return tuple(to_device(v, device) for v in value)
    if isinstance(value, list):
        return [to_device(v, device) for v in value]
    if isinstance(value, dict):
        return {k: to_device(v, device) for k, v in value.items()}
    return value


def plain_outputs(value):
    """Outputs as tensors on the CPU in lists and dicts, which torch.load(weights_only=True)
    reads back."""
    import dataclasses

    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, (tuple, list)):
        return [plain_outputs(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain_outputs(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain_outputs(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def outputs_close(a, b):
    import torch

    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            return False
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.is_floating_point() or a.is_complex():
            # The arms are compiled into different graphs: fusion may reorder float arithmetic.
            return torch.allclose(a, b, rtol=1e-3, atol=1e-5, equal_nan=True)
        return torch.equal(a, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(outputs_close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(outputs_close(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-5) or (a != a and b != b)
    return a == b


def synchronize(torch, device):
    if device == "cuda":
        torch.cuda.synchronize()


def run_user(fn, args, what):
    try:
        return fn()
    except ProfileFailure:
        raise
    except BaseException as exc:
        raise ProfileFailure("user_error", "%s raised %s: %s" % (
            what, type(exc).__name__, display_text(str(exc), args)), traceback_tail(exc, args))


def explain(torch, model, inputs, args):
    output = run_user(lambda: inputs.call(torch._dynamo.explain(model)), args,
                      "torch._dynamo.explain of the model")
    reasons = []
    for reason in getattr(output, "break_reasons", []) or []:
        stack = getattr(reason, "user_stack", None) or []
        location = ""
        if stack:
            frame = stack[-1]
            if frame.filename == args.file:
                location = "%s:%s" % (args.display_path, frame.lineno)
                if args.arm == "mended":
                    location += " (mended copy)"
            else:
                location = "%s:%s" % (frame.filename, frame.lineno)
        reasons.append({"reason": display_text(str(getattr(reason, "reason", reason)), args)
                        .strip().splitlines()[0][:400], "location": location})
    return output.graph_count, output.graph_break_count, reasons


def compile_seconds():
    """Seconds dynamo and inductor have spent compiling frames in this process so far (dynamo
    keeps the durations of each compilation; torch._dynamo.reset() may clear them): 0.0 before
    any, None where this torch does not keep them."""
    try:
        from torch._dynamo.utils import compilation_time_metrics
    except ImportError:
        return None
    for key in ("_compile.compile_inner", "compile_inner", "entire_frame_compile"):
        if key in compilation_time_metrics:
            return float(sum(compilation_time_metrics[key]))
    return 0.0


def percentile(sorted_values, fraction):
    if not sorted_values:
        return None
    index = min(len(sorted_values) - 1, max(0, int(math.ceil(fraction * len(sorted_values))) - 1))
    return sorted_values[index]


def timed_calls(torch, fn, inputs, device, count):
    times = []
    for _ in range(count):
        synchronize(torch, device)
        start = time.perf_counter()
        inputs.call(fn)
        synchronize(torch, device)
        times.append((time.perf_counter() - start) * 1e3)
    return times


# At least this many timed calls, so that the spread is known; more, in rounds, while the
# interquartile range is wider than SPREAD_WANTED of the median, for at most STEADY_CAP_S.
MIN_STEADY_CALLS = 5
SPREAD_WANTED = 0.10
MAX_ROUNDS = 8
STEADY_CAP_S = 20.0


def quartiles(times):
    q1, _, q3 = statistics.quantiles(times, n=4, method="inclusive")
    return q1, q3


def steady_times(torch, fn, inputs, device, args, progress):
    per_round = max(MIN_STEADY_CALLS, args.iterations)
    progress("timing (%d calls)" % per_round)
    started = time.perf_counter()
    times = timed_calls(torch, fn, inputs, device, per_round)
    for _ in range(MAX_ROUNDS - 1):
        q1, q3 = quartiles(times)
        if q3 - q1 <= SPREAD_WANTED * statistics.median(times):
            break
        if time.perf_counter() - started > STEADY_CAP_S:
            break
        progress("timing: spread large, %d more calls" % per_round)
        times += timed_calls(torch, fn, inputs, device, per_round)
    return sorted(times)


def steady_summary(times):
    q1, q3 = quartiles(times)
    return {"steady_ms": statistics.median(times), "steady_p90_ms": percentile(times, 0.9),
            "steady_q1_ms": q1, "steady_q3_ms": q3, "steady_min_ms": times[0],
            "steady_max_ms": times[-1], "steady_calls": len(times)}


def count_cudagraph_launches(torch, compiled, inputs, calls):
    """cudaGraphLaunch calls per model call, seen by the profiler over a few steady calls."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            inputs.call(compiled)
        torch.cuda.synchronize()
    launches = sum(event.count for event in prof.key_averages()
                   if "cudaGraphLaunch" in event.key)
    return launches / float(calls)


def measure(torch, args, progress):
    device, fallback = choose_device(torch, args.device)
    progress("importing %s" % os.path.basename(args.display_path))
    entry = load_entry(args)
    seed_everything(torch)
    model, inputs = call_entry(entry, args)
    if isinstance(model, torch.nn.Module):
        model = run_user(lambda: model.to(device), args, "moving the model to %s" % device)
    inputs = Inputs(to_device(inputs.positional, device), to_device(inputs.keywords, device))
    result = {"ok": True, "arm": args.arm, "device": device, "torch": torch.__version__,
              "mode": args.mode, "backend": args.backend, "iterations": args.iterations,
              "warmup": args.warmup}
    if fallback:
        result["fallback"] = fallback
    if device == "cuda":
        result["device_name"] = torch.cuda.get_device_name()
    with torch.no_grad():
        progress("eager baseline")
        run_user(lambda: inputs.call(model), args, "the model in eager mode")
        eager_times = run_user(lambda: timed_calls(torch, model, inputs, device,
                                                   max(1, min(args.iterations, 10))),
                               args, "the model in eager mode")
        result["eager_ms"] = statistics.median(eager_times)

        progress("torch._dynamo.explain")
        graphs, breaks, reasons = explain(torch, model, inputs, args)
        result.update(graphs=graphs, breaks=breaks, break_reasons=reasons)
        torch._dynamo.reset()

        progress("compiling (cold first call)")
        kwargs = {"backend": args.backend}
        if args.mode != "default":
            kwargs["mode"] = args.mode
        compiled = torch.compile(model, **kwargs)
        compiled_before = compile_seconds()  # explain compiled too: count only what follows
        synchronize(torch, device)
        start = time.perf_counter()
        outputs = run_user(lambda: inputs.call(compiled), args, "the compiled model")
        synchronize(torch, device)
        cold_s = time.perf_counter() - start
        result["cold_ms"] = cold_s * 1e3
        # Copied now: CUDA graphs (reduce-overhead) reuse their output memory on the next call.
        outputs = plain_outputs(outputs)
        compiled_after = compile_seconds()
        if compiled_before is not None and compiled_after:
            result["compile_s"] = compiled_after - compiled_before
        else:
            result["compile_s"] = cold_s

        progress("warm-up (%d calls)" % args.warmup)
        run_user(lambda: timed_calls(torch, compiled, inputs, device, args.warmup), args,
                 "the compiled model")
        times = run_user(lambda: steady_times(torch, compiled, inputs, device, args, progress),
                         args, "the compiled model")
        result.update(steady_summary(times))

        if device == "cuda":
            result["peak_memory_mb"] = torch.cuda.max_memory_allocated() / 2**20
            if args.mode == "reduce-overhead" and args.backend == "inductor":
                progress("counting CUDA-graph launches")
                result["cudagraph_launches"] = run_user(
                    lambda: count_cudagraph_launches(torch, compiled, inputs, 5), args,
                    "the compiled model under the profiler")
                result["cudagraph_skips"] = int(
                    torch._dynamo.utils.counters["inductor"].get("cudagraph_skips", 0))

    torch.save(outputs, args.outputs)
    if args.reference:
        reference = torch.load(args.reference, weights_only=True)
        result["outputs_match"] = bool(outputs_close(reference, outputs))
    return result


REGISTRY_URL = re.compile(r"/gb/(gb\d+)\.html", re.IGNORECASE)
FRAME_LINE = re.compile(r'File "(.*)", line (\d+)')
TRACED_LINE = re.compile(r"TRACE starts_line (.*):(\d+) in ")
BREAK_AT = re.compile(r"Graph break in user code at (.*):(\d+)")


class DynamoLog(logging.Handler):
    """Keeps, from dynamo's graph_breaks and trace_source logs, the lines of one file that dynamo
    traced and the breaks it logged there (a break that makes dynamo skip a frame is only
    logged: explain's break_reasons do not have it)."""

    def __init__(self, path):
        super().__init__(logging.DEBUG)
        self.path = path
        self.traced = set()
        self.breaks = []  # (line, message)

    def emit(self, record):
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not format: not ours to judge
            return
        if message.startswith("TRACE starts_line"):
            found = TRACED_LINE.match(message)
            if found and found.group(1) == self.path:
                self.traced.add(int(found.group(2)))
        elif message.startswith("Graph break in user code at"):
            line = innermost_line(message, self.path)
            if line is None:
                found = BREAK_AT.match(message)
                if found and found.group(1) == self.path:
                    line = int(found.group(2))
            if line is not None:
                self.breaks.append((line, message))


def innermost_line(text, path):
    """The line of the innermost frame of path in a traceback written out as text."""
    line = None
    for found in FRAME_LINE.finditer(text):
        if found.group(1) == path:
            line = int(found.group(2))
    return line


def describe_break(text):
    """dynamo's reason in a line, its explanation and its registry id ("GB0059") from a
    reason or a graph_breaks log message."""
    if "Graph Break Reason:" in text:
        text = text.split("Graph Break Reason:", 1)[1]
    lines = [line.strip() for line in text.splitlines()]
    reason, explanation = "", ""
    for line in lines:
        if not line or line.startswith(("Encountered graph break when attempting",
                                         "Failed to handle graph break gracefully")):
            continue
        if line.startswith("Explanation:"):
            explanation = line[len("Explanation:"):].strip()
            break
        if not reason:
            reason = line
    found = REGISTRY_URL.search(text)
    registry = found.group(1).upper() if found else None
    return reason[:400], explanation[:400], registry


def confirm(torch, args, progress):
    """dynamo's break sites in the user's file and the lines it traced there, for one run of the
    entry under torch._dynamo.explain."""
    device, fallback = choose_device(torch, args.device)
    progress("importing %s" % os.path.basename(args.display_path))
    entry = load_entry(args)
    seed_everything(torch)
    model, inputs = call_entry(entry, args)
    if isinstance(model, torch.nn.Module):
        model = run_user(lambda: model.to(device), args, "moving the model to %s" % device)
    inputs = Inputs(to_device(inputs.positional, device), to_device(inputs.keywords, device))
    log = DynamoLog(args.file)
    dynamo_logger = logging.getLogger("torch._dynamo")
    try:
        torch._logging.set_logs(graph_breaks=True, trace_source=True)
    except (TypeError, ValueError):  # an old torch without the trace_source artifact
        torch._logging.set_logs(graph_breaks=True)
    for name in list(logging.root.manager.loggerDict):  # ours alone: no flood on stderr
        if name == "torch" or name.startswith("torch."):
            for handler in getattr(logging.getLogger(name), "handlers", []):
                if isinstance(handler, logging.StreamHandler):
                    handler.setLevel(logging.CRITICAL)
    dynamo_logger.addHandler(log)
    progress("torch._dynamo.explain")
    try:
        with torch.no_grad():
            output = run_user(lambda: inputs.call(torch._dynamo.explain(model)), args,
                              "torch._dynamo.explain of the model")
    finally:
        dynamo_logger.removeHandler(log)
    sites = {}

    def add(line, text, source):
        reason, explanation, registry = describe_break(text)
        site = sites.setdefault(line, {"line": line, "reason": reason,
                                       "explanation": explanation, "registry_id": registry,
                                       "sources": []})
        if "Skipping the function and falling back to eager" in text:
            site["skips_frame"] = True
        if source not in site["sources"]:
            site["sources"].append(source)
        for key, value in (("reason", reason), ("explanation", explanation),
                           ("registry_id", registry)):
            if value and not site[key]:
                site[key] = value

    for reason in getattr(output, "break_reasons", []) or []:
        line = None
        for frame in getattr(reason, "user_stack", None) or []:
            if frame.filename == args.file:
                line = frame.lineno
        if line is not None:
            add(line, str(getattr(reason, "reason", reason)), "break_reasons")
    for line, message in log.breaks:
        add(line, message, "log")
    traced = set(log.traced) | set(sites)
    result = {"ok": True, "confirm": True, "device": device, "torch": torch.__version__,
              "python": sys.version.split()[0], "graphs": output.graph_count,
              "graph_breaks": output.graph_break_count,
              "breaks": [sites[line] for line in sorted(sites)], "traced_lines": sorted(traced)}
    if fallback:
        result["fallback"] = fallback
    return result


def write_result(path, result):
    temp = path + ".tmp"
    with open(temp, "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(temp, path)


def main(argv):
    args = parse_args(argv)
    progress = Progress(args.progress_fd, args.arm)
    try:
        progress("starting %s" % sys.executable)
        torch = import_torch()
        install_mended_imports(args)
        result = (confirm if args.confirm else measure)(torch, args, progress)
    except ProfileFailure as failure:
        write_result(args.result, {"ok": False, "arm": args.arm, "error": {
            "kind": failure.kind, "message": failure.message, "traceback": failure.tb}})
        return 3
    write_result(args.result, result)
    progress("done")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Run corpus cases under real TorchDynamo and report where it breaks the graph.

    python tests/oracle/dynamo_runner.py OUT.json CASE.py [CASE.py ...]

For each case file: import it, call its ``example()`` to get ``(callable, args)``,
unwrap what torch.compile wrapped (``_torchdynamo_orig_callable`` of a decorated
function, ``_orig_mod`` of a compiled module), put modules in eval mode, seed, run
``torch._dynamo.reset()`` and then ``torch._dynamo.explain(callable)(*args)``.

A break's line is its innermost user frame that lies in the corpus: usually the case
file, or a support module next to it that the case imports (reported with "file"). Lines come
from two sources, because on torch 2.13 ``explain()`` does not see every break:

* ``explain``: ``ExplainOutput.break_reasons[*].user_stack``. These are attached to
  compiled graphs only, so a break that makes dynamo skip the whole frame (a break
  inside a ``for``/``while`` body, inside ``try``, or inside a non-torch ``with``)
  yields no graph and no reason (``graph_count == 0``, ``graph_break_count == -1``).
* ``log``: the ``graph_breaks`` logging artifact (what ``TORCH_LOGS=graph_breaks``
  prints): dynamo logs every break, including those that skip the frame, with a
  "User code traceback".

The result is the union. Results are written as JSON to OUT; the cases' own
stdout (their ``print`` calls run eagerly) goes to this process's stdout.

Settings: a case gets the dynamo configuration of the nearest ``pyproject.toml``
between its directory and ``tests/corpus/`` (the ``[tool.graphmend]`` keys that
graphmend reads too), patched in for that case only. With ``fullgraph = true`` there,
or when ``example()`` returns something compiled with ``fullgraph=True``, the case is
compiled with ``fullgraph=True`` instead of explained: dynamo then raises at the
first break, and the break's line is the innermost case-file frame of the error's
"from user code" stack.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.util
import inspect
import json
import logging
import os
import random
import re
import sys
import time
import tomllib
import traceback
from pathlib import Path

import torch
import torch._dynamo

try:
    import numpy as np
except ImportError:  # numpy is optional for torch; cases that need it import it
    np = None

_FRAME_RE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
_AT_RE = re.compile(r"in user code at (?P<file>.+?):(?P<line>\d+)\s*$", re.M)
_SKIP_RE = re.compile(
    r"Skipping the (?:function|frame)|falling back to eager|fall back to eager"
)
_STACK_MARKERS = (
    "User code traceback:",
    "The graph break occurred in the following user code:",
)


_CORPUS = Path(__file__).resolve().parent.parent / "corpus"

# [tool.graphmend] keys that are dynamo settings, and the torch._dynamo.config names
# they set on torch 2.13 (ignore_logging_functions was ignore_logger_methods before 2.10).
_BOOL_KEYS = {
    "capture-scalar-outputs": "capture_scalar_outputs",
    "capture-dynamic-output-shape-ops": "capture_dynamic_output_shape_ops",
    "allow-rnn": "allow_rnn",
    "nested-graph-breaks": "nested_graph_breaks",
}
_FUNCTION_KEYS = {
    "reorderable-logging-functions": "reorderable_logging_functions",
    "ignore-logging-functions": (
        "ignore_logging_functions"
        if hasattr(torch._dynamo.config, "ignore_logging_functions")
        else "ignore_logger_methods"
    ),
}
# graphmend-only keys that do not change what dynamo does
_ANALYSIS_KEYS = {"select", "ignore", "fullgraph", "torch-version", "compile-forward", "training"}


def case_settings(path: str) -> dict:
    """[tool.graphmend] of the nearest pyproject.toml from the case's directory up to
    tests/corpus/ (inclusive); {} when there is none."""
    root = _CORPUS.resolve()
    directory = Path(path).resolve().parent
    while directory == root or root in directory.parents:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            with open(candidate, "rb") as f:
                return tomllib.load(f).get("tool", {}).get("graphmend", {})
        directory = directory.parent
    return {}


def _resolve_function(dotted: str):
    """"print" -> builtins.print; "logging.Logger.info" -> that function object."""
    if "." not in dotted:
        return getattr(builtins, dotted)
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ValueError(f"cannot resolve {dotted!r}")


def dynamo_config(settings: dict) -> dict:
    """The torch._dynamo.config values the settings ask for."""
    config: dict = {}
    for key, value in settings.items():
        if key in _BOOL_KEYS:
            config[_BOOL_KEYS[key]] = bool(value)
        elif key in _FUNCTION_KEYS:
            config[_FUNCTION_KEYS[key]] = {_resolve_function(name) for name in value}
        elif key == "torch-version":
            running = ".".join(torch.__version__.split("+")[0].split(".")[:2])
            if value != running:
                raise ValueError(f"torch-version {value} cannot be checked on torch {running}")
        elif key == "python-version":
            running = "%d.%d" % sys.version_info[:2]
            if value != running:
                raise ValueError(f"python-version {value} cannot be checked on Python {running}")
        elif key not in _ANALYSIS_KEYS:
            raise ValueError(f"unknown [tool.graphmend] key {key!r}")
    return config


def _compiled_fullgraph(fn) -> bool:
    """Whether fn is a torch.compile result that asked for fullgraph=True."""
    ctx = getattr(fn, "dynamo_ctx", None)  # a compiled module
    if ctx is None and inspect.isfunction(fn):
        try:
            ctx = inspect.getclosurevars(fn).nonlocals.get("self")
        except (TypeError, ValueError):
            ctx = None
    return bool(getattr(ctx, "fullgraph", False))


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:  # a malformed record must not hide the others
            self.messages.append(str(record.msg))


def _install_capture() -> _Capture:
    """Enable the graph_breaks artifact and hang our handler on its loggers."""
    torch._logging.set_logs(graph_breaks=True)
    handler = _Capture()
    names = [
        name
        for name in logging.root.manager.loggerDict
        if name.startswith("torch") and name.endswith(".__graph_breaks")
    ]
    if not names:
        raise RuntimeError("no torch graph_breaks artifact logger found")
    for name in names:
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
        # torch's own stderr handler stays; quiet it so runs are readable
        for h in logger.handlers:
            if h is not handler:
                h.setLevel(logging.CRITICAL)
    for h in logging.getLogger("torch").handlers:
        h.setLevel(logging.CRITICAL)
    return handler


def _in_corpus(filename: str) -> bool:
    try:
        return Path(os.path.realpath(filename)).is_relative_to(_CORPUS)
    except (OSError, ValueError):
        return False


def _innermost(frames, case_path: str):
    """frames: iterable of (filename, lineno). The last one in the corpus, as (file, line):
    the case file itself or a support module it imports."""
    found = (None, None)
    for filename, lineno in frames:
        if _same_file(filename, case_path):
            found = (case_path, int(lineno))
        elif _in_corpus(filename):
            found = (os.path.realpath(filename), int(lineno))
    return found


def _innermost_line(frames, case_path: str):
    """The innermost corpus frame's line, with its file in _LAST_FILE (see _innermost)."""
    global _LAST_FILE
    _LAST_FILE, line = _innermost(frames, case_path)
    return line


_LAST_FILE = None


def _line_from_log(message: str, case_path: str):
    first = message.splitlines()[0] if message else ""
    stack_text = None
    for marker in _STACK_MARKERS:
        idx = message.rfind(marker)
        if idx >= 0:
            stack_text = message[idx + len(marker):]
            break
    if stack_text is not None:
        frames = [(m["file"], m["line"]) for m in _FRAME_RE.finditer(stack_text)]
        line = _innermost_line(frames, case_path)
        if line is not None:
            return line, first
    # duplicate breaks are logged without a stack, as "... in user code at F:L"
    frames = [(m["file"], m["line"]) for m in _AT_RE.finditer(message)]
    line = _innermost_line(frames, case_path)
    if line is None and stack_text is None:
        frames = [(m["file"], m["line"]) for m in _FRAME_RE.finditer(message)]
        line = _innermost_line(frames, case_path)
    return line, first


def _log_reason(message: str) -> str:
    """The first graph-break type named in a log message (for reports)."""
    lines = message.splitlines()
    for i, text in enumerate(lines):
        if text.startswith("Graph Break Reason:"):
            rest = text[len("Graph Break Reason:"):].strip()
            if rest.endswith("Graph break encountered:"):
                for nxt in lines[i + 1:]:
                    if nxt.strip():
                        return rest.split(".")[0] + ": " + nxt.strip()
            return rest
    return lines[0] if lines else ""


def _unwrap(fn):
    orig = getattr(fn, "_torchdynamo_orig_callable", None)
    if orig is not None:
        fn = orig
    if isinstance(fn, torch._dynamo.eval_frame.OptimizedModule):
        fn = fn._orig_mod
    return fn


def _seed() -> None:
    torch.manual_seed(0)
    random.seed(0)
    if np is not None:
        np.random.seed(0)


def _run_fullgraph(fn, args, path: str) -> list:
    """Compile with fullgraph=True: no break, or the one dynamo raises on."""
    compiled = torch.compile(fn, fullgraph=True, backend="eager")
    try:
        compiled(*args)
    # Unsupported for a break, UserError for a guard on data-dependent values; anything
    # else is the case's own failure and goes to result["error"]
    except (torch._dynamo.exc.Unsupported, torch._dynamo.exc.UserError) as exc:
        text = str(exc)
        frames = [(m["file"], m["line"]) for m in _FRAME_RE.finditer(text)]
        line = _innermost_line(frames, path)
        return [
            {
                "source": "fullgraph",
                "file": _LAST_FILE,
                "line": line,
                "reason": f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"[:200],
            }
        ]
    return []


_DUPLICATE_MARKER = "user stack suppressed due to duplicate graph break"


def _record_explained(result: dict, explained, capture: _Capture, path: str) -> None:
    """Break lines from explain() and from the graph_breaks log."""
    result["graph_count"] = explained.graph_count
    result["graph_break_count"] = explained.graph_break_count
    for reason in explained.break_reasons:
        frames = [(fs.filename, fs.lineno) for fs in reason.user_stack]
        line = _innermost_line(frames, path)
        result["breaks"].append(
            {
                "source": "explain",
                "file": _LAST_FILE,
                "line": line,
                "reason": str(reason.reason).splitlines()[0][:200],
            }
        )
    for message in capture.messages:
        line, _ = _line_from_log(message, path)
        if line is None and _DUPLICATE_MARKER in message:
            continue  # repeats a break logged before with its stack, at a frame outside the corpus
        result["breaks"].append(
            {
                "source": "log",
                "file": _LAST_FILE,
                "line": line,
                "reason": _log_reason(message)[:200],
                # the whole frame fell back to eager (break in a loop, in
                # try, under a generic context manager) instead of resuming
                "frame_skipped": bool(_SKIP_RE.search(message)),
            }
        )


def run_case(index: int, path: str, capture: _Capture) -> dict:
    path = os.path.realpath(path)
    result: dict = {
        "path": path,
        "lines": [],
        "breaks": [],
        "graph_count": None,
        "graph_break_count": None,
        "error": None,
    }
    started = time.monotonic()
    try:
        # support modules next to the case import as top-level names
        sys.path.insert(0, os.path.dirname(path))
        spec = importlib.util.spec_from_file_location(f"_gm_case_{index}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        settings = case_settings(path)
        config = dynamo_config(settings)
        result["config"] = sorted(config)
        _seed()
        fn, args = module.example()
        if not isinstance(args, tuple):
            raise TypeError("example() must return (callable, args_tuple)")
        fullgraph = bool(settings.get("fullgraph", False)) or _compiled_fullgraph(fn)
        fn = _unwrap(fn)
        if isinstance(fn, torch.nn.Module):
            fn.train(bool(settings.get("training", False)))  # eval unless the case says training
        _seed()
        torch._dynamo.reset()
        capture.messages.clear()
        if fullgraph:
            with torch._dynamo.config.patch(**config):
                result["breaks"] = _run_fullgraph(fn, args, path)
        else:
            with torch._dynamo.config.patch(**config):
                explained = torch._dynamo.explain(fn)(*args)
            _record_explained(result, explained, capture, path)
        result["lines"] = sorted(
            {b["line"] for b in result["breaks"] if b["line"] is not None and b["file"] == path}
        )
        result["elsewhere"] = sorted(
            {(b["file"], b["line"]) for b in result["breaks"]
             if b["line"] is not None and b["file"] != path}
        )
    except BaseException as exc:  # report, keep going with the other cases
        if isinstance(exc, KeyboardInterrupt):
            raise
        result["error"] = "".join(traceback.format_exception(exc))[-4000:]
    finally:
        torch._dynamo.reset()
        if sys.path and sys.path[0] == os.path.dirname(path):
            sys.path.pop(0)
    result["seconds"] = round(time.monotonic() - started, 3)
    return result


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_path, cases = argv[0], argv[1:]
    torch.set_num_threads(1)
    torch.set_default_dtype(torch.float32)
    capture = _install_capture()
    results = {
        "torch_version": torch.__version__,
        "cases": [run_case(i, case, capture) for i, case in enumerate(cases)],
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The safe [Defer] mend's promise, beyond the oracle's outputs: the messages are the same. Each
fixture of tests/mend/defer/ whose mends are safe runs original and mended under real torch
2.13 (CPU), eagerly and compiled (backend="eager"), in a fresh process each; every log record
(level, logger, message) and warning (category, message) is collected in order. The mended file
must write exactly what the original writes, in both modes, and in eager mode also point at the
same source line and function; the mended file compiles with no break (the oracle checks the
count too).

The files are the committed fixture and mended text (test_mend_fixtures.py checks that `graphmend
fix` gives that text, on every build): only torch runs, so the test is torch_only
(tests/conftest.py), skipped on the sanitized build."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mend_lib import HERE, discover

SAFE_DEFERRALS = [f for f in discover()
                  if f.name.startswith("defer/") and f.expected is not None and f.applicability == "safe"]

# Run in a child: loads the file as a module, calls example() eagerly then compiled, and prints
# what was written as JSON. The line a record points at is mapped to its source text, so that
# the original's and the mended file's (whose lines moved) compare.
_CHILD = r"""
import importlib.util, json, logging, sys, warnings
import torch

path, compiled, oracle = sys.argv[1], sys.argv[2] == "compiled", sys.argv[3]
sys.path.insert(0, oracle)
import dynamo_runner  # the corpus oracle's dynamo plumbing: breaks from explain and the log
written = []
lines = open(path, encoding="utf-8").read().splitlines()

class Collect(logging.Handler):
    def emit(self, record):
        if record.name.startswith("torch"):
            return  # dynamo's own log (its graph_breaks records among them)
        where = lines[record.lineno - 1].strip() if record.pathname == path else record.pathname
        written.append(["log", record.levelname, record.name, record.getMessage(), where,
                        record.funcName])

logging.getLogger().addHandler(Collect())
logging.getLogger().setLevel(logging.DEBUG)
spec = importlib.util.spec_from_file_location("fixture", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
fn, args = module.example()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    if compiled:
        capture = dynamo_runner._install_capture()
        torch._dynamo.reset()
        result = {"breaks": []}
        dynamo_runner._record_explained(result, torch._dynamo.explain(fn)(*args), capture, path)
        breaks = len({b["line"] for b in result["breaks"]})
        torch._dynamo.reset()
        written.clear()
        caught.clear()
        torch.compile(fn, backend="eager")(*args)
    else:
        breaks = None
        fn(*args)
for w in caught:
    where = lines[w.lineno - 1].strip() if w.filename == path else w.filename
    written.append(["warning", w.category.__name__, str(w.message), where])
print(json.dumps({"written": written, "breaks": breaks}))
"""


def _written(path, mode: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(path), mode,
                           str(HERE.parent / "oracle")], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_there_are_safe_deferrals():
    assert len(SAFE_DEFERRALS) >= 3


def _messages(written: list) -> list:
    """(kind, level or category, [logger,] message) of each record and warning, in order."""
    return [tuple(w[:4]) if w[0] == "log" else tuple(w[:3]) for w in written]


def _places(written: list) -> list:
    """(source line, function) each record and warning points at."""
    return [(w[4], w[5]) if w[0] == "log" else (w[3], None) for w in written]


@pytest.mark.torch_only
@pytest.mark.parametrize("fixture", SAFE_DEFERRALS, ids=[f.name for f in SAFE_DEFERRALS])
def test_mended_file_writes_what_the_original_writes(fixture):
    pytest.importorskip("torch")
    original = _written(fixture.source, "eager")["written"]
    mended = _written(fixture.expected, "eager")["written"]
    assert original, "the fixture writes nothing: the test could not fail"
    # Eager: the same records and warnings, pointing at the same place: the same line of the
    # library (warning_once) or the mended call (`_graphmend_...(`), not the new function's body
    assert _messages(mended) == _messages(original)
    for (mine, mine_fn), (theirs, theirs_fn) in zip(_places(mended), _places(original)):
        assert mine_fn == theirs_fn
        assert mine == theirs or mine.startswith("_graphmend_"), (mine, theirs)
    # Compiled: the same messages in the same order (where a record points under torch.compile
    # is the compiled function's first line), and the mended file compiles without a break
    original = _written(fixture.source, "compiled")
    mended = _written(fixture.expected, "compiled")
    assert _messages(mended["written"]) == _messages(original["written"])
    assert original["breaks"] > 0
    assert mended["breaks"] == 0

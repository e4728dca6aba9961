"""Shared pieces of the corpus oracle: case discovery, expectations, known gaps, and
the two runs (real dynamo via dynamo_runner.py, and `graphmend check`)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tempfile
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = REPO / "tests" / "corpus"
KNOWN_GAPS = CORPUS / "known_gaps.txt"
RUNNER = HERE / "dynamo_runner.py"
TORCH_VERSION = "2.13.0"

_EXPECT_RE = re.compile(r"\bexpect:\s*(?P<codes>.*)$")
# A finding graphmend makes with a condition (`only_when.condition`: "breaks only when `x is
# not None and not cache.ok` holds") on a line where the case's example makes the condition
# false, so dynamo does not break there.
_EXPECT_CONDITIONAL_RE = re.compile(r"\bexpect-conditional:\s*(?P<codes>.*)$")
# (case id) -> {(line, code)} of graphmend's findings that carry a condition
CONDITIONAL_PREDICTIONS: dict[str, set[tuple[int, str]]] = {}
_CODE_RE = re.compile(r"^GM\d{3}$")


_EXAMPLE_RE = re.compile(r"^def example\(", re.M)


def discover_files() -> list[Path]:
    """Every Python file of the corpus: cases and the support modules cases import."""
    return sorted(p for p in CORPUS.rglob("*.py") if "__pycache__" not in p.parts)


def is_case(path: Path) -> bool:
    """A case defines example(); other files are support modules that cases import (their
    breaks are expected where they are, like any case's)."""
    return bool(_EXAMPLE_RE.search(path.read_text(encoding="utf-8")))


def discover_cases() -> list[Path]:
    return [p for p in discover_files() if is_case(p)]


def discover_support() -> list[Path]:
    return [p for p in discover_files() if not is_case(p)]


def case_id(path: Path) -> str:
    return path.resolve().relative_to(CORPUS).as_posix()


def parse_expectations(path: Path, pattern: re.Pattern = _EXPECT_RE) -> set[tuple[int, str]]:
    """(line, code) pairs from `# expect: GM101, GM401` end-of-line comments."""
    found: set[tuple[int, str]] = set()
    source = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        m = pattern.search(tok.string)
        if not m:
            continue
        codes = [c.strip() for c in m["codes"].split(",")]
        bad = [c for c in codes if not _CODE_RE.match(c)]
        if bad or not codes:
            raise ValueError(
                f"{case_id(path)}:{tok.start[0]}: malformed expectation {tok.string!r}"
            )
        for code in codes:
            found.add((tok.start[0], code))
    return found


def parse_conditional_expectations(path: Path) -> set[tuple[int, str]]:
    """(line, code) pairs from `# expect-conditional: GM101` comments: graphmend reports a
    finding there that says under which condition it breaks, and dynamo does not break (the
    example makes the condition false)."""
    return parse_expectations(path, _EXPECT_CONDITIONAL_RE)


def compared_predictions(cid: str, path: Path, predicted: set[tuple[int, str]]) -> set:
    """The predictions to compare with the `# expect:` lines: the conditional findings the case
    expects as such are left out (test_graphmend_matches_expectations checks them apart)."""
    expected_conditional = parse_conditional_expectations(path)
    return predicted - (expected_conditional & CONDITIONAL_PREDICTIONS.get(cid, set()))


def load_known_gaps() -> dict[str, str]:
    """`path reason...` per line (path relative to tests/corpus); `#` starts a comment line."""
    gaps: dict[str, str] = {}
    if not KNOWN_GAPS.exists():
        return gaps
    for number, raw in enumerate(KNOWN_GAPS.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) != 2:
            raise ValueError(f"known_gaps.txt:{number}: needs `path reason`: {raw!r}")
        path, reason = parts
        if path in gaps:
            raise ValueError(f"known_gaps.txt:{number}: duplicate entry {path}")
        gaps[path] = reason.strip()
    return gaps


def graphmend_binary() -> Path:
    value = os.environ.get("GRAPHMEND_BIN", "build/graphmend")
    path = Path(value)
    if not path.is_absolute():
        # relative to the current directory if it exists there, else to the repo root
        path = path.resolve() if path.exists() else (REPO / value)
    return path


def run_graphmend(cases: list[Path]) -> dict[str, set[tuple[int, str]]]:
    """case id -> {(line, code)} predicted by `graphmend check --output-format json`."""
    binary = graphmend_binary()
    if not binary.exists():
        raise RuntimeError(
            f"graphmend binary not found at {binary}; build it (`ninja -C build`) or set GRAPHMEND_BIN"
        )
    proc = subprocess.run(
        [str(binary), "check", "--output-format", "json", *map(str, cases)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    try:
        findings = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise RuntimeError(
            f"graphmend exited {proc.returncode} without JSON: {exc}\n"
            f"stdout: {proc.stdout[-2000:]}\nstderr: {proc.stderr[-2000:]}"
        ) from None
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"graphmend exited {proc.returncode}: {proc.stderr[-2000:]}")
    predicted: dict[str, set[tuple[int, str]]] = {case_id(c): set() for c in cases}
    for finding in findings:
        filename = Path(finding["filename"])
        if not filename.is_absolute():
            filename = REPO / filename
        key = (int(finding["location"]["row"]), finding["code"])
        predicted.setdefault(case_id(filename), set()).add(key)
        if (finding.get("only_when") or {}).get("condition"):
            CONDITIONAL_PREDICTIONS.setdefault(case_id(filename), set()).add(key)
    return predicted


@dataclass
class DynamoRun:
    torch_version: str
    cases: dict[str, dict] = field(default_factory=dict, repr=False)


def run_dynamo(cases: list[Path], jobs: int | None = None) -> DynamoRun:
    """Run dynamo_runner.py over the cases in `jobs` parallel processes (torch imported
    once per process; the runner resets dynamo between cases)."""
    if jobs is None:
        jobs = int(os.environ.get("GRAPHMEND_ORACLE_JOBS", "0")) or min(2, os.cpu_count() or 1)
    jobs = max(1, min(jobs, len(cases)))
    chunks = [cases[i::jobs] for i in range(jobs)]
    python = os.environ.get("GRAPHMEND_ORACLE_PYTHON", sys.executable)
    env = dict(os.environ)
    env.pop("TORCH_LOGS", None)  # the runner configures logging itself
    env.setdefault("OMP_NUM_THREADS", "1")
    run = DynamoRun(torch_version="")
    with tempfile.TemporaryDirectory(prefix="gm-oracle-") as tmp:
        procs = []
        for i, chunk in enumerate(chunks):
            out = Path(tmp) / f"out{i}.json"
            log = open(Path(tmp) / f"log{i}.txt", "w+", encoding="utf-8")
            proc = subprocess.Popen(
                [python, str(RUNNER), str(out), *map(str, chunk)],
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=REPO,
                env=env,
            )
            procs.append((proc, out, log))
        for proc, out, log in procs:
            try:
                proc.wait(timeout=600)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.seek(0)
            tail = log.read()[-3000:]
            log.close()
            if proc.returncode != 0 or not out.exists():
                raise RuntimeError(f"dynamo runner exited {proc.returncode}:\n{tail}")
            data = json.loads(out.read_text(encoding="utf-8"))
            run.torch_version = data["torch_version"]
            for result in data["cases"]:
                run.cases[case_id(Path(result["path"]))] = result
    _attribute_support_breaks(run)
    return run


def _attribute_support_breaks(run: DynamoRun) -> None:
    """A support module's dynamo lines: where the cases that import it broke inside it."""
    for support in discover_support():
        sid = case_id(support)
        entry = {"path": str(support.resolve()), "lines": [], "breaks": [], "error": None,
                 "support": True}
        lines = set()
        for cid, result in list(run.cases.items()):
            if result.get("support"):
                continue
            for b in result.get("breaks", []):
                if b.get("file") and b["line"] is not None and _same_path(b["file"], support):
                    lines.add(b["line"])
                    entry["breaks"].append({**b, "reason": f"{b['reason']} (from {cid})"})
        entry["lines"] = sorted(lines)
        run.cases[sid] = entry


def _same_path(a: str, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


@dataclass
class Score:
    cases: int = 0
    expected: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    dynamo_agree: int = 0
    dynamo_checked: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def line(self) -> str:
        return (
            f"cases={self.cases} expected_breaks={self.expected} "
            f"dynamo_agrees={self.dynamo_agree}/{self.dynamo_checked} "
            f"TP={self.tp} FP={self.fp} FN={self.fn} "
            f"precision={self.precision:.3f} recall={self.recall:.3f}"
        )


def score(
    expectations: dict[str, set[tuple[int, str]]],
    predicted: dict[str, set[tuple[int, str]]] | None,
    dynamo: DynamoRun | None,
) -> Score:
    s = Score(cases=len(expectations))
    for cid, expected in expectations.items():
        s.expected += len(expected)
        if predicted is not None:
            got = predicted.get(cid, set())
            s.tp += len(got & expected)
            s.fp += len(got - expected)
            s.fn += len(expected - got)
        if dynamo is not None and cid in dynamo.cases:
            result = dynamo.cases[cid]
            s.dynamo_checked += 1
            if result["error"] is None and set(result["lines"]) == {l for l, _ in expected}:
                s.dynamo_agree += 1
    return s

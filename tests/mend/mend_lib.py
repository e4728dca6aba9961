"""Shared pieces of the mend tests: fixture discovery, the directives a fixture states in its
header, and running the graphmend binary on a copy of a fixture."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

_DIRECTIVE_RE = re.compile(r"^#\s*mend-(?P<key>[a-z-]+):\s*(?P<value>.*?)\s*$")
_KEYS = {"fix-args", "applicability", "declined", "breaks-after", "rules"}


@dataclass
class Fixture:
    """tests/mend/<family>/<name>.in.py, with <name>.out.py beside it unless the mend is
    declined. Directives are comments at the top of the .in.py file:

    # mend-fix-args: --unsafe-fixes     arguments for `graphmend fix` (default: none)
    # mend-applicability: unsafe        of every mend offered in the file (safe, unsafe, display-only)
    # mend-declined: <text>             no mend: the reason (in the hover and the JSON) contains text
    # mend-breaks-after: 1              dynamo breaks left in the mended file (default 0)
    # mend-rules: GM101,GM103           the rules whose findings the file is about (default: all)
    """

    name: str
    source: Path
    expected: Path | None
    fix_args: list[str] = field(default_factory=list)
    applicability: str | None = None
    declined: str | None = None
    breaks_after: int = 0
    rules: set[str] | None = None


def discover() -> list[Fixture]:
    fixtures = []
    for source in sorted(HERE.rglob("*.in.py")):
        name = source.relative_to(HERE).as_posix()[: -len(".in.py")]
        out = source.with_name(source.name[: -len(".in.py")] + ".out.py")
        fixture = Fixture(name=name, source=source, expected=out if out.exists() else None)
        for line in source.read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                break
            m = _DIRECTIVE_RE.match(line)
            if not m:
                continue
            key, value = m["key"], m["value"]
            if key not in _KEYS:
                raise ValueError(f"{source}: unknown directive mend-{key}")
            if key == "fix-args":
                fixture.fix_args = value.split()
            elif key == "applicability":
                fixture.applicability = value
            elif key == "declined":
                fixture.declined = value
            elif key == "breaks-after":
                fixture.breaks_after = int(value)
            elif key == "rules":
                fixture.rules = {r.strip() for r in value.split(",") if r.strip()}
        fixtures.append(fixture)
    return fixtures


def graphmend_binary() -> Path:
    env = os.environ.get("GRAPHMEND_BIN")
    path = Path(env) if env else REPO / "build" / "graphmend"
    if not path.exists():
        raise FileNotFoundError(f"graphmend binary not found at {path} (set GRAPHMEND_BIN)")
    return path


def fix_copy(fixture: Fixture, workdir: Path, extra: list[str] | None = None,
             source: Path | None = None) -> tuple[str, subprocess.CompletedProcess]:
    """Runs `graphmend fix` on a copy of the fixture (or of source) in workdir; returns the
    resulting text and the process."""
    target = workdir / "case.py"
    shutil.copyfile(source or fixture.source, target)
    args = extra if extra is not None else fixture.fix_args
    proc = subprocess.run([str(graphmend_binary()), "fix", *args, str(target)],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode not in (0, 1):
        raise AssertionError(f"graphmend fix failed ({proc.returncode}): {proc.stderr}")
    return target.read_text(encoding="utf-8"), proc


def check_json(path: Path) -> list[dict]:
    proc = subprocess.run([str(graphmend_binary()), "check", "--output-format", "json", str(path)],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode not in (0, 1):
        raise AssertionError(f"graphmend check failed ({proc.returncode}): {proc.stderr}")
    return json.loads(proc.stdout)


def about(fixture: Fixture, finding: dict) -> bool:
    return fixture.rules is None or finding["code"] in fixture.rules

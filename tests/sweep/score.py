"""Re-scores `graphmend check` against a sweep's stored ground truth (tests/sweep/data/*.json),
without torch: seconds, not hours.

    python tests/sweep/score.py [--graphmend BIN] [--source DIR] [--list] DATA.json

DIR is the directory that holds the library's package (the stored paths are relative to it:
"transformers/models/bart/modeling_bart.py"); tools/setup unpacks the exact release under
build-sweep/src/<library>-<version>/. Scoring, per run (a family in one mode and dtype), on
(file, line) inside the package:
  D = dynamo's break sites; T = the lines dynamo traced, plus D; P = findings on lines in T (a
  finding that says it breaks only in some dtypes, `only_when`, counts in runs of those dtypes).
  TP = |P & D|, FP = |P - D|, FN = |D - P|, summed over the families, per mode and dtype.
  A finding that says it breaks only when a Python condition holds (`only_when.condition`: `if
  pixels is not None and (ids == k).any()`), on a traced line that did not break, is counted
  apart ("cond."), not as an FP: the run does not say whether the condition held (the sweep
  passes only each model's main inputs and default config).
Train runs are scored against `graphmend check` with the `training = true` setting, eval runs
against the default (eval). Model level: a family whose run compiled to one graph with no break, yet has a finding on a line
it traced, is a false alarm. Findings in the files the runs traced, on lines no run traced, are
counted (not scored: nothing says whether they break).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def default_source(data: dict) -> Path:
    return REPO / "build-sweep" / "src" / f"{data['library']}-{data['version']}"


def expand(ranges) -> set:
    lines = set()
    for r in ranges:
        if isinstance(r, list):
            lines.update(range(r[0], r[1] + 1))
        else:
            lines.add(r)
    return lines


def predictions(binary: str, source: Path, library: str, training: bool = False) -> dict:
    """{(relative file, line): [finding, ...]} of `graphmend check` over the package; with
    training, as the `training = true` setting predicts (self.training folds to True), from a
    copy of the package under a pyproject.toml that says so."""
    if training:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(source / library, Path(tmp) / library)
            (Path(tmp) / "pyproject.toml").write_text("[tool.graphmend]\ntraining = true\n")
            return predictions(binary, Path(tmp), library)
    proc = subprocess.run([os.path.abspath(binary), "check", "--output-format", "json", library],
                          capture_output=True, text=True, cwd=source)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"graphmend exited {proc.returncode}: {proc.stderr[-2000:]}")
    found = collections.defaultdict(list)
    for f in json.loads(proc.stdout):
        found[(os.path.normpath(f["filename"]), int(f["location"]["row"]))].append(f)
    return found


def applies(findings, dtype: str) -> bool:
    """Whether a finding on the line predicts a break in a run of dtype: findings that need
    dtypes (a dtype test ahead of the tensor test, "only_when") predict one only in those."""
    return any(dtype in f.get("only_when", {}).get("dtypes", [dtype]) for f in findings)


def conditional(findings) -> bool:
    """Whether every finding on the line needs a Python condition the run may not have met."""
    return all("condition" in f.get("only_when", {}) for f in findings)


def score(data: dict, found_by_mode: dict) -> dict:
    """Per "mode/dtype": tp, fp, fn, the FP/FN sites with their family, false-alarm families.
    found_by_mode: the predictions for "eval" and for "train" (the training setting)."""
    table = {}
    traced_files: set = set()
    traced_anywhere: set = set()
    for family, entry in sorted(data["families"].items()):
        for run in entry.get("runs", []):
            if "graphs" not in run:
                continue  # the model could not be built or run: no truth
            key = f"{run['mode']}/{run['dtype']}"
            found = found_by_mode[run["mode"]]
            row = table.setdefault(key, {"families": 0, "tp": 0, "fp": 0, "fn": 0, "fps": [], "fns": [],
                                         "one_graph": 0, "false_alarms": [], "conditional": []})
            row["families"] += 1
            breaks = {(b["file"], b["line"]): b for b in run["breaks"]}
            traced = set(breaks)
            for file, ranges in run["traced"].items():
                traced_files.add(file)
                for line in expand(ranges):
                    traced.add((file, line))
            traced_anywhere |= traced
            predicted = {site for site in traced if applies(found.get(site, ()), run["dtype"])}
            row["tp"] += len(predicted & set(breaks))
            for site in sorted(predicted - set(breaks)):
                if conditional(found[site]):
                    row["conditional"].append((family, site, found[site][0]["only_when"]["condition"]))
                    continue
                row["fp"] += 1
                row["fps"].append((family, site, found[site][0]["code"]))
            for site in sorted(set(breaks) - predicted):
                row["fn"] += 1
                row["fns"].append((family, site, breaks[site]["reason"]))
            if run["graphs"] == 1 and not breaks:
                row["one_graph"] += 1
                if any(not conditional(found[site]) for site in predicted):
                    row["false_alarms"].append(family)
    untraced = sorted(site for site in found_by_mode["eval"]
                      if site[0] in traced_files and site not in traced_anywhere)
    return {"runs": table, "untraced_findings": untraced, "traced_files": len(traced_files)}


def predict_modes(binary: str, source: Path, library: str) -> dict:
    return {"eval": predictions(binary, source, library),
            "train": predictions(binary, source, library, training=True)}


def ratio(a: int, b: int) -> float:
    return a / b if b else 1.0


def print_report(data: dict, result: dict, source: Path, listing: bool) -> None:
    print(f"{data['library']} {data['version']} (torch {data['torch']}, Python {data['python']}):")
    print(f"  {'run':<16} {'families':>8} {'1 graph':>8} {'TP':>5} {'FP':>5} {'FN':>5} "
          f"{'precision':>9} {'recall':>7} {'false alarms':>12} {'cond.':>5}")
    for key, row in sorted(result["runs"].items()):
        p = ratio(row["tp"], row["tp"] + row["fp"])
        r = ratio(row["tp"], row["tp"] + row["fn"])
        print(f"  {key:<16} {row['families']:>8} {row['one_graph']:>8} {row['tp']:>5} {row['fp']:>5} "
              f"{row['fn']:>5} {p:>9.3f} {r:>7.3f} {len(row['false_alarms']):>12} "
              f"{len(row['conditional']):>5}")
    print(f"  findings on lines no run traced, in the {result['traced_files']} files the runs "
          f"traced: {len(result['untraced_findings'])}")
    if not listing:
        return

    def src(file, line):
        try:
            return (source / file).read_text(encoding="utf-8").splitlines()[line - 1].strip()[:100]
        except (OSError, IndexError):
            return "?"

    for key, row in sorted(result["runs"].items()):
        for family, (file, line), code in row["fps"]:
            print(f"  FP {key} {family}: {file}:{line} {code}: {src(file, line)}")
        for family, (file, line), reason in row["fns"]:
            print(f"  FN {key} {family}: {file}:{line}: {src(file, line)}  <- {reason[:120]}")
        by_site = collections.defaultdict(list)  # a shared wrapper's site holds for many families
        for family, site, condition in row["conditional"]:
            by_site[(site, condition)].append(family)
        for ((file, line), condition), families in sorted(by_site.items()):
            who = families[0] if len(families) == 1 else f"{len(families)} families ({families[0]}, ...)"
            print(f"  cond. {key} {who}: {file}:{line}: breaks when `{condition}`: {src(file, line)}")
        for family in row["false_alarms"]:
            print(f"  false alarm {key}: {family} compiles to one graph")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="tests/sweep/data/<library>-<version>.json")
    parser.add_argument("--graphmend", default=os.environ.get("GRAPHMEND_BIN", str(REPO / "build" / "graphmend")))
    parser.add_argument("--source", default="", help="the directory holding the package")
    parser.add_argument("--list", action="store_true", help="list every FP, FN and false alarm")
    args = parser.parse_args(argv)
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    source = Path(args.source) if args.source else default_source(data)
    if not (source / data["library"]).is_dir():
        print(f"score: {source / data['library']} is missing (tools/setup unpacks it)", file=sys.stderr)
        return 2
    result = score(data, predict_modes(args.graphmend, source, data["library"]))
    print_report(data, result, source, args.list)
    return 0


if __name__ == "__main__":
    sys.exit(main())

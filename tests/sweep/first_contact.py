"""The first-contact score of a library added to the sweep: graphmend's agreement with dynamo on
the library before any analysis was changed for it, kept in the stored data beside the runs, so
that the figure a new user meets is never overwritten by the tuned one.

    python tests/sweep/first_contact.py record DATA.json --graphmend BIN --commit SHA
    python tests/sweep/first_contact.py table [--graphmend BIN] [--misses]

record: scores BIN (a build of commit SHA, made before the library was looked at) against the
stored runs and writes the result into DATA.json as "first_contact" (refuses when it is already
there: a first contact happens once). table: per library with a first contact, that score beside
the current build's, per mode and dtype (the table of docs/first-contact.md); with --misses, then every break
site the current build still misses (and every FP), with dynamo's reason and how many runs hit
it (docs/first-contact.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from score import HERE, REPO, default_source, predict_modes, ratio, score


def counts(result: dict) -> dict:
    return {key: {"tp": row["tp"], "fp": row["fp"], "fn": row["fn"],
                  "conditional": len(row["conditional"])}
            for key, row in sorted(result["runs"].items())}


def scored(data: dict, binary: str) -> dict:
    source = default_source(data)
    if not (source / data["library"]).is_dir():
        raise SystemExit(f"first_contact: {source / data['library']} is missing (tools/setup unpacks it)")
    return score(data, predict_modes(binary, source, data["library"]))


def measure(data: dict, binary: str) -> dict:
    return counts(scored(data, binary))


def command_record(args) -> int:
    path = Path(args.data)
    data = json.loads(path.read_text(encoding="utf-8"))
    if "first_contact" in data:
        print(f"first_contact: {path.name} already has one (graphmend {data['first_contact']['graphmend']})",
              file=sys.stderr)
        return 2
    data["first_contact"] = {"graphmend": args.commit, "runs": measure(data, args.graphmend)}
    path.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    return 0


def pr(row: dict) -> str:
    return (f"{ratio(row['tp'], row['tp'] + row['fp']):.3f} / "
            f"{ratio(row['tp'], row['tp'] + row['fn']):.3f}")


def command_table(args) -> int:
    print("| library | run | breaks | first contact P / R | now P / R |")
    print("|---|---|---|---|---|")
    misses = []
    for path in sorted((HERE / "data").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if "first_contact" not in data:
            continue
        result = scored(data, args.graphmend)
        now = counts(result)
        for key, first in sorted(data["first_contact"]["runs"].items()):
            sites = first["tp"] + first["fn"]
            print(f"| {data['library']} {data['version']} | {key} | {sites} | {pr(first)} | "
                  f"{pr(now.get(key, first))} |")
        for kind, rows in (("FN", "fns"), ("FP", "fps")):
            hits: dict = {}
            for key, row in sorted(result["runs"].items()):
                for family, (file, line), why in row[rows]:
                    entry = hits.setdefault((file, line), [why, set(), set()])
                    entry[1].add(key)
                    entry[2].add(family)
            for (file, line), (why, keys, families) in sorted(hits.items()):
                misses.append(f"| {kind} | `{file}:{line}` | {', '.join(sorted(keys))} | "
                              f"{len(families)} | {why.splitlines()[0][:110]} |")
    if args.misses:
        print()
        print("| | site | runs | configurations | dynamo's reason (FN) or the rule (FP) |")
        print("|---|---|---|---|---|")
        print("\n".join(misses))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    default_binary = os.environ.get("GRAPHMEND_BIN", str(REPO / "build" / "graphmend"))
    record = sub.add_parser("record")
    record.add_argument("data")
    record.add_argument("--graphmend", required=True)
    record.add_argument("--commit", required=True, help="the commit BIN was built from")
    table = sub.add_parser("table")
    table.add_argument("--graphmend", default=default_binary)
    table.add_argument("--misses", action="store_true", help="list what the build still misses")
    args = parser.parse_args(argv)
    return {"record": command_record, "table": command_table}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())

"""Which of a sweep's real break sites graphmend offers a mend for: the static half of the
GraphMend paper's measurement, in seconds, without torch.

    python tests/sweep/mend_coverage.py [--graphmend BIN] [--source DIR] [--list] DATA.json

For every run of the stored ground truth (tests/sweep/data/*.json) that broke, each of dynamo's
break sites (file, line) counts once per family and run, as score.py counts them. A site is
"mendable (safe)" when a finding graphmend makes on that line (for that mode and dtype) carries a
safe mend, "mendable (unsafe)" when it carries a safe or an unsafe one (what `graphmend fix
--unsafe-fixes` applies; display-only setting suggestions are not applied and do not count).
A break that exists only because of another one (GM606: a comprehension run as a frame of its
own because another break makes its function run eagerly, the `capture_outputs` wrapper's; GM610:
a tensor method whose argument broke) counts as mended when every other site of the run is, or
when it carries a mend of its own (GM606's comprehension as a plain loop).
This is what the mends are offered for, not what they remove: whether a mended model breaks less
with the same outputs is for real dynamo to say (tools/bench-mend runs it on transformers 4.52.4
models). --list prints every site left without a mend, with its finding's rule and the reason the
finding gives (mend_declined), or "not predicted", then every site whose only mend is unsafe,
with the unsafe mend's title (what it changes).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from score import REPO, applies, default_source, predict_modes, ratio  # noqa: E402


def coverage(data: dict, found_by_mode: dict) -> dict:
    """Per "mode/dtype": sites, safe, unsafe, and the sites left: (family, site, why)."""
    table = {}
    for family, entry in sorted(data["families"].items()):
        for run in entry.get("runs", []):
            if "graphs" not in run or not run["breaks"]:
                continue
            key = f"{run['mode']}/{run['dtype']}"
            row = table.setdefault(key, {"sites": 0, "safe": 0, "unsafe": 0, "left": [],
                                         "unsafe_only": []})
            found = found_by_mode[run["mode"]]
            sites = sorted({(b["file"], b["line"]) for b in run["breaks"]})
            findings = {site: [f for f in found.get(site, ()) if applies([f], run["dtype"])]
                        for site in sites}
            kinds = {site: {(f.get("fix") or {}).get("applicability") for f in findings[site]}
                     for site in sites}
            # breaks that exist only because of another one go when every other site of the run
            # goes: a comprehension run as a frame because another break makes its function run
            # eagerly (GM606), a tensor method whose breaking argument crossed a resumption (GM610)
            follows = {site for site in sites if findings[site] and
                       all(f["code"] in ("GM606", "GM610") for f in findings[site])}
            roots = [site for site in sites if site not in follows]
            for arm, accepted in (("safe", {"safe"}), ("unsafe", {"safe", "unsafe"})):
                mended = {site for site in roots if kinds[site] & accepted}
                if roots and len(mended) == len(roots):
                    mended |= follows
                # a follower with a mend of its own (GM606's plain loop) goes by itself
                mended |= {site for site in follows if kinds[site] & accepted}
                row[arm] += len(mended)
                if arm == "safe":
                    # what the safe arm leaves though an unsafe mend is offered: the rule and
                    # what the unsafe mend changes
                    for site in roots:
                        if site in mended or "unsafe" not in kinds[site]:
                            continue
                        f = next(f for f in findings[site]
                                 if (f.get("fix") or {}).get("applicability") == "unsafe")
                        row["unsafe_only"].append((family, site, f["code"], f["fix"]["message"]))
                    continue
                for site in sites:
                    if site in mended:
                        continue
                    if not findings[site]:
                        row["left"].append((family, site, "not predicted", ""))
                        continue
                    f = findings[site][0]
                    why = f.get("mend_declined") or ("display-only: " + f["fix"]["message"]
                                                     if f.get("fix") else "")
                    if site in follows:
                        why = "goes when the run's other breaks go; " + why
                    row["left"].append((family, site, f["code"], why))
            row["sites"] += len(sites)
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", nargs="+", help="tests/sweep/data/<library>-<version>.json")
    parser.add_argument("--graphmend", default=os.environ.get("GRAPHMEND_BIN", str(REPO / "build" / "graphmend")))
    parser.add_argument("--source", default="", help="the directory holding the package")
    parser.add_argument("--list", action="store_true", help="list every site left without a mend")
    args = parser.parse_args(argv)
    print("| release | run | break sites | mend offered (safe) | mend offered (safe or unsafe) |")
    print("|---|---|---|---|---|")
    listing = []
    unsafe_only = []
    for path in args.data:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        source = Path(args.source) if args.source else default_source(data)
        if not (source / data["library"]).is_dir():
            print(f"mend_coverage: {source / data['library']} is missing (tools/setup unpacks it)",
                  file=sys.stderr)
            return 2
        table = coverage(data, predict_modes(args.graphmend, source, data["library"]))
        for key, row in sorted(table.items()):
            n = row["sites"]
            print(f"| {data['library']}-{data['version']} | {key} | {n} | {row['safe']} "
                  f"({ratio(row['safe'], n):.0%}) | {row['unsafe']} ({ratio(row['unsafe'], n):.0%}) |")
            for family, (file, line), code, why in row["left"]:
                listing.append(f"  {data['library']}-{data['version']} {key} {family}: {file}:{line} "
                               f"{code}: {why[:150]}")
            for family, (file, line), code, why in row["unsafe_only"]:
                unsafe_only.append(f"  {data['library']}-{data['version']} {key} {family}: {file}:{line} "
                                   f"{code}: {why[:150]}")
    if args.list:
        print("\nsites left without a mend:")
        print("\n".join(listing))
        print("\nsites with an unsafe mend only (the safe arm leaves them; the mend says what changes):")
        print("\n".join(unsafe_only))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""GM902 against the sweep's ground truth: for each transformers 5.23.0 family not held out that
has a stored eval run, a user file `from transformers import Cls; torch.compile(Cls(None))` is
opened in one `graphmend serve` (so the package's summaries are shared, as in an editor); the
breaks GM902 lists (its related locations) are compared with the real break sites dynamo
reported for that family (tests/sweep/data/transformers-5.23.0.json). Prints the totals, the
families predicted to break that compiled to one graph, and the time to publish.

    .venv/bin/python tests/bench/library_breaks_vs_sweep.py [--limit N] [--graphmend PATH]

The package comes from build-sweep/env/transformers-5.23.0-plain (tools/setup), found through a
wrapper interpreter that puts it on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import stat
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
from conftest import init_params_for  # noqa: E402
from lsp_client import LspClient, Session  # noqa: E402


def wrapper_interpreter(directory: pathlib.Path, package_env: pathlib.Path) -> str:
    path = directory / "python"
    path.write_text(f'#!/bin/sh\nPYTHONPATH={package_env} exec {REPO / ".venv/bin/python"} "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphmend", default=str(REPO / "build" / "graphmend"))
    parser.add_argument("--limit", type=int, default=10_000)
    args = parser.parse_args()
    data = json.loads((REPO / "tests/sweep/data/transformers-5.23.0.json").read_text())
    package_env = REPO / "build-sweep/env/transformers-5.23.0-plain"
    if not (package_env / "transformers").is_dir():
        print(f"no transformers at {package_env}: run tools/setup", file=sys.stderr)
        return 2
    root = pathlib.Path(tempfile.mkdtemp(prefix="graphmend-gm902-"))
    python = wrapper_interpreter(root, package_env)
    client = LspClient([args.graphmend, "serve"], cwd=str(root))
    session = Session(client, init_params_for("vscode", root), str(root))
    session.initialize()
    client.notify("workspace/didChangeConfiguration",
                  {"settings": {"graphmend": {"python": python, "logLevel": "debug"}}})
    rows = []
    families = [(name, v) for name, v in data["families"].items() if name not in data["held_out"]]
    for index, (family, value) in enumerate(families[:args.limit]):
        runs = [r for r in value["runs"] if r["mode"] == "eval" and "breaks" in r
                and r.get("dtype") == "float32"]
        if not runs or not value.get("class"):
            continue
        real = {(b["file"].split("transformers/", 1)[1], b["line"]) for b in runs[0]["breaks"]}
        cls = value["class"]
        text = (f"import torch\nfrom transformers import {cls}\n\nmodel = {cls}(None)\n"
                "compiled = torch.compile(model)\n")
        started = time.monotonic()
        uri = session.open(f"model_{index}.py", text)
        session.diagnostics(uri)

        def reported():
            return any(f"GM902: transformers.{cls}" in m["params"]["message"]
                       for m in client.notifications("window/logMessage"))
        while not reported() and time.monotonic() - started < 60:
            time.sleep(0.05)  # polling the server's log for the end of the package analysis
        seconds = time.monotonic() - started
        time.sleep(0.05)
        published = [m["params"]["diagnostics"] for m in client.notifications(
            "textDocument/publishDiagnostics") if m["params"]["uri"] == uri]
        predicted = set()
        for diagnostic in published[-1] if published else []:
            if diagnostic["code"] == "GM902":
                predicted = {(r["location"]["uri"].split("/transformers/", 1)[1],
                              r["location"]["range"]["start"]["line"] + 1)
                             for r in diagnostic["relatedInformation"]}
        rows.append((family, len(predicted), len(real), len(real & predicted), seconds,
                     reported()))
        session.close(uri)
    client.request("shutdown", None)
    client.notify("exit")
    analysed = [r for r in rows if r[5]]
    print(f"families with a stored float32 eval run: {len(rows)}, analysed within 60 s: "
          f"{len(analysed)}")
    print(f"families that broke: {sum(1 for r in rows if r[2])}; real break sites "
          f"{sum(r[2] for r in rows)}, of them among GM902's locations {sum(r[3] for r in rows)}")
    print(f"GM902 diagnostics: {sum(1 for r in rows if r[1])} families; on families that compiled "
          f"to one graph: {sum(1 for r in rows if r[1] and not r[2])}")
    times = sorted(r[4] for r in analysed)
    if times:
        print(f"seconds to publish: median {times[len(times) // 2]:.2f}, max {times[-1]:.2f}")
    for family, predicted, real, hit, seconds, done in rows:
        if real or not done:
            print(f"  {family}: predicted {predicted}, real {real}, real predicted {hit}"
                  f"{'' if done else ' (no report within 60 s)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

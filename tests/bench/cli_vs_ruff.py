"""`graphmend check` beside `ruff check --no-cache --select ALL`, in the same run, alternated rep by
rep (these machines are shared and noisy, so the ratios are what to read):

1. single files of 5,000 to 100,000 lines (tests/bench/make_model_file.py): CPU time (user +
   system of the process and its children) and wall time, CPU per line, and how the per-line
   cost at each size compares with the 5,000-line file's (issue 17: at most 2x at 100,000);
2. a package tree (default: transformers 5.23.0's `models/` from build-sweep/src, the held-out
   families left out, copied to a temporary directory outside any project so that no
   pyproject.toml or .gitignore applies):
   wall and CPU time, graphmend on every core (GRAPHMEND_JOBS unset) and on one.

    .venv/bin/python tests/bench/cli_vs_ruff.py --graphmend build/graphmend --ruff .venv/bin/ruff
        [--reps 3] [--sizes 5000,20000,50000,100000] [--tree DIR] [--work DIR]

Prints markdown tables. Exits non-zero only when a tool crashed (an exit status other than the
"findings" and "clean" ones) or a file could not be made.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))


def held_out_families() -> frozenset[str]:
    from sweep.libraries import hf_transformers, timm_models  # noqa: E402
    return hf_transformers.HELD_OUT | getattr(timm_models, "HELD_OUT", frozenset())


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree) of one run; raises on a crash."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv[0]} exited {proc.returncode}: {proc.stderr.decode()[-800:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def ruff_argv(ruff: str, path: pathlib.Path) -> list[str]:
    return [ruff, "check", "--no-cache", "--select", "ALL", "--quiet", "--exit-zero", str(path)]


def graphmend_argv(graphmend: str, path: pathlib.Path) -> list[str]:
    return [graphmend, "check", "--output-format", "concise", "--exit-zero", str(path)]


def alternate(reps: int, runs: dict[str, tuple[list[str], dict[str, str] | None]]):
    """Each tool once per rep, in an order that alternates, then the medians per tool."""
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    names = list(runs)
    for rep in range(reps):
        for name in names if rep % 2 == 0 else reversed(names):
            argv, env = runs[name]
            samples[name].append(timed(argv, env))
    return {name: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s))
            for name, s in samples.items()}


def single_files(args, work: pathlib.Path) -> list[str]:
    rows = ["| file | graphmend CPU s | ruff CPU s | graphmend/ruff CPU | graphmend wall s | "
            "ruff wall s | graphmend CPU µs/line | per-line cost vs 5k |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    base_per_line = None
    for lines in args.sizes:
        path = work / f"model_{lines // 1000}k.py"
        if not path.exists():
            subprocess.run([sys.executable, str(REPO / "tests/bench/make_model_file.py"),
                            str(lines), str(path)], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        actual = path.read_bytes().count(b"\n")
        result = alternate(args.reps, {"graphmend": (graphmend_argv(args.graphmend, path), None),
                                       "ruff": (ruff_argv(args.ruff, path), None)})
        (g_wall, g_cpu), (r_wall, r_cpu) = result["graphmend"], result["ruff"]
        per_line = g_cpu / actual * 1e6
        base_per_line = base_per_line or per_line
        rows.append(f"| {actual:,} lines | {g_cpu:.2f} | {r_cpu:.2f} | {g_cpu / r_cpu:.2f}x | "
                    f"{g_wall:.2f} | {r_wall:.2f} | {per_line:.1f} | "
                    f"{per_line / base_per_line:.2f}x |")
    return rows


def copy_tree(source: pathlib.Path, work: pathlib.Path) -> tuple[pathlib.Path, int, int]:
    """The tree's .py files, held-out families left out, under work, a temporary directory
    outside this repository (whose .gitignore would hide a copy under build/ from both tools)."""
    held_out = held_out_families()
    target = work / source.name
    files = lines = 0
    for path in sorted(source.rglob("*.py")):
        relative = path.relative_to(source)
        if any(part in held_out for part in relative.parts[:-1]) or path.stem in held_out:
            continue
        dest = target / relative
        dest.parent.mkdir(parents=True, exist_ok=True)
        data = path.read_bytes()
        dest.write_bytes(data)
        files += 1
        lines += data.count(b"\n")
    return target, files, lines


def tree(args) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="graphmend-bench-cli-") as work:
        return tree_in(args, pathlib.Path(work))


def tree_in(args, work: pathlib.Path) -> list[str]:
    target, files, lines = copy_tree(args.tree, work)
    one_thread = dict(os.environ, GRAPHMEND_JOBS="1")
    every_core = {k: v for k, v in os.environ.items() if k != "GRAPHMEND_JOBS"}
    result = alternate(args.reps, {
        f"graphmend ({os.cpu_count()} threads)": (graphmend_argv(args.graphmend, target), every_core),
        "graphmend (1 thread)": (graphmend_argv(args.graphmend, target), one_thread),
        "ruff --select ALL": (ruff_argv(args.ruff, target), None)})
    ruff_wall, ruff_cpu = result["ruff --select ALL"]
    rows = [f"{args.tree} copied to {target}: {files:,} files, {lines:,} lines "
            f"(held-out families left out); median of {args.reps}",
            "",
            "| tool | wall s | CPU s | wall / ruff's | CPU / ruff's |",
            "|---|---:|---:|---:|---:|"]
    for name, (wall, cpu) in result.items():
        rows.append(f"| {name} | {wall:.2f} | {cpu:.2f} | {wall / ruff_wall:.2f}x | "
                    f"{cpu / ruff_cpu:.2f}x |")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphmend", default=str(REPO / "build" / "graphmend"))
    parser.add_argument("--ruff", default=shutil.which("ruff") or str(REPO / ".venv/bin/ruff"))
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--sizes", default="5000,20000,50000,100000",
                        type=lambda text: [int(n) for n in text.split(",")])
    parser.add_argument("--tree", type=pathlib.Path,
                        default=REPO / "build-sweep/src/transformers-5.23.0/transformers/models")
    parser.add_argument("--work", type=pathlib.Path, default=REPO / "build" / "bench-cli")
    args = parser.parse_args()
    if args.reps < 1:
        parser.error("--reps must be at least 1")
    args.work.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    print(f"graphmend check beside ruff check --no-cache --select ALL "
          f"({subprocess.run([args.ruff, '--version'], capture_output=True, text=True).stdout.strip()}), "
          f"{os.cpu_count()} CPUs, load {load:.1f} at the start, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print()
    print("\n".join(single_files(args, args.work)))
    print()
    if args.tree.is_dir():
        print("\n".join(tree(args)))
    else:
        print(f"(no tree at {args.tree}: run tools/setup, or pass --tree DIR)")
    print(f"\nload {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())

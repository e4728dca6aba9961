"""`graphmend check` beside `ruff check --no-cache --select ALL`, in the same run, alternated rep by
rep (these machines are shared and noisy, so the ratios are what to read):

1. single files of 5,000 to 100,000 lines (tests/bench/make_model_file.py): CPU time (user +
   system of the process and its children) and wall time, CPU per line, and how the per-line
   cost at each size compares with the 5,000-line file's (issue 17: at most 2x at 100,000);
2. a package tree (default: transformers 5.23.0's `models/` from build-sweep/src, the held-out
   families left out, copied to a temporary directory outside any project so that no
   pyproject.toml or .gitignore applies):
   wall and CPU time, graphmend on every core (GRAPHMEND_JOBS unset) and on one;
3. a real repository (issue 38; tests/bench/bench_repo.py lays transformers 5.23.0 out as its
   repository: pyproject.toml, src/transformers/, `git init`, the held-out families left out):
   one file checked inside it (models/qwen3/modeling_qwen3.py: llama is held out) with the
   project cache cold (`<repo>/.graphmend_cache` deleted before the run) and warm (right after
   that cold run), the same file copied outside any project, and `check src/transformers` cold
   and warm, beside `ruff check --no-cache --select ALL` on the same paths: wall and CPU
   seconds, and the ratios to ruff and to the outside copy.
   Runs are from the repository's root, as a user runs them, on every core.

    .venv/bin/python tests/bench/cli_vs_ruff.py --graphmend build/graphmend --ruff .venv/bin/ruff
        [--reps 3] [--case all|files,tree,repo] [--sizes 5000,20000,50000,100000] [--tree DIR]
        [--work DIR] [--repo DIR] [--repo-source DIR] [--repo-file PATH]

Prints markdown tables. Exits non-zero only when a tool crashed (an exit status other than the
"findings" and "clean" ones) or a file could not be made.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pathlib
import re
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


def timed(argv: list[str], env: dict[str, str] | None = None,
          cwd: pathlib.Path | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree) of one run; raises on a crash."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                          cwd=cwd)
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


# ------------------------------------------------------------------ the repository case

CACHE_DIR = ".graphmend_cache"  # the project cache (issue 38); absent with binaries before it


def default_repo_dir() -> pathlib.Path:
    return pathlib.Path(tempfile.gettempdir()) / "graphmend-bench-repo-transformers-5.23.0"


def project_markers_above(path: pathlib.Path) -> list[pathlib.Path]:
    """pyproject.toml, setup.cfg or .git in path's folder or any above it."""
    return [folder / name for folder in [path, *path.parents]
            for name in ("pyproject.toml", "setup.cfg", ".git") if (folder / name).exists()]


def timed_output(argv: list[str], cwd: pathlib.Path) -> tuple[float, float, str, int]:
    """timed(), and a digest of what the run printed (so cold and warm findings can be
    compared)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv[0]} exited {proc.returncode}: {proc.stderr.decode()[-800:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # concise output: one "path:line:col: ..." line per finding
    count = sum(1 for line in proc.stdout.splitlines()
                if re.match(rb"[^:\s][^:]*:\d+:\d+: ", line))
    return wall, cpu, hashlib.sha256(proc.stdout).hexdigest()[:12], count


def cache_size(repo: pathlib.Path) -> tuple[int, int]:
    """(files, bytes) under the project cache."""
    files = size = 0
    for path in (repo / CACHE_DIR).rglob("*"):
        if path.is_file():
            files += 1
            size += path.stat().st_size
    return files, size


def repo_case(args) -> list[str]:
    """Files checked one at a time inside a real repository (cold: the project cache deleted
    first; warm: right after the cold run of the same command wrote it), each also copied outside
    any project, and the whole tree cold and warm, beside ruff on the same paths, alternated rep
    by rep."""
    sys.path.insert(0, str(REPO / "tests" / "bench"))
    import bench_repo  # noqa: E402

    repo = bench_repo.make(args.repo, args.repo_source)
    relatives = [pathlib.Path(f) for f in args.repo_file or bench_repo.DEFAULT_FILES]
    tree_relative = pathlib.Path("src") / args.repo_source.name
    for relative in relatives:
        if not (repo / relative).is_file():
            raise SystemExit(f"no {relative} in {repo}")
    files = sum(1 for _ in (repo / tree_relative).rglob("*.py"))
    with tempfile.TemporaryDirectory(prefix="graphmend-bench-outside-") as outside_dir:
        outside = pathlib.Path(outside_dir)
        for k, relative in enumerate(relatives):
            (outside / str(k)).mkdir()
            shutil.copy2(repo / relative, outside / str(k) / relative.name)
        markers = project_markers_above(outside)
        if markers:
            print(f"(warning: the outside copies are under {markers[0]}: not outside every "
                  f"project)")
        return repo_case_in(args, repo, relatives, tree_relative, outside, files)


def repo_case_in(args, repo, relatives, tree_relative, outside, files) -> list[str]:
    gm, ruff = args.graphmend, args.ruff
    # (label, argv, cwd, cold): a cold run deletes <repo>/.graphmend_cache first; each warm row
    # comes right after the cold row of the same command, whose run left the cache it reads.
    groups = []
    for k, relative in enumerate(relatives):
        copy = outside / str(k) / relative.name
        groups += [
            [((k, "inside, cold"), graphmend_argv(gm, relative), repo, True),
             ((k, "inside, warm"), graphmend_argv(gm, relative), repo, False)],
            [((k, "outside"), graphmend_argv(gm, copy), copy.parent, None)],
            [((k, "ruff"), ruff_argv(ruff, relative), repo, None)]]
    groups += [
        [(("tree", "cold"), graphmend_argv(gm, tree_relative), repo, True),
         (("tree", "warm"), graphmend_argv(gm, tree_relative), repo, False)],
        [(("tree", "ruff"), ruff_argv(ruff, tree_relative), repo, None)]]
    # Unmeasured: the files into the page cache, each outside copy run once (a cache of its own,
    # where a binary keeps one, is then warm).
    timed(ruff_argv(ruff, tree_relative), cwd=repo)
    for k, relative in enumerate(relatives):
        timed(graphmend_argv(gm, outside / str(k) / relative.name), cwd=outside / str(k))
    samples: dict[tuple, list[tuple[float, float]]] = {}
    digests: dict[tuple, set[str]] = {}
    findings: dict[tuple, int] = {}
    written = None
    for rep in range(args.reps):
        for group in groups if rep % 2 == 0 else reversed(groups):
            for label, argv, cwd, cold in group:
                if cold:
                    shutil.rmtree(repo / CACHE_DIR, ignore_errors=True)
                wall, cpu, digest, count = timed_output(argv, cwd)
                samples.setdefault(label, []).append((wall, cpu))
                if label[1] != "ruff":
                    digests.setdefault((label[0], label[1] == "outside"), set()).add(digest)
                findings[label] = count
                if cold and label[0] == "tree":
                    written = cache_size(repo)
    med = {label: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s))
           for label, s in samples.items()}
    r_tree = med[("tree", "ruff")][0]
    t = tree_relative.as_posix()
    rows = [f"{repo} (transformers 5.23.0 laid out as its repository: pyproject.toml, "
            f"{t}/ with {files:,} .py files, git init; held-out families left out); "
            f"median of {args.reps}; cold: {CACHE_DIR}/ deleted before the run, warm: right "
            f"after the cold run of the same command; run from the repository's root",
            "",
            "| command | findings | wall s | CPU s | / ruff, same paths | / ruff, whole tree | "
            "/ same file outside |",
            "|---|---:|---:|---:|---:|---:|---:|"]

    def row(label, code, note, ruff_same, outside_wall=None):
        wall, cpu = med[label]
        shown = f"{wall / outside_wall:.1f}x" if outside_wall else ""
        count = "" if label[1] == "ruff" else f"{findings[label]:,}"
        rows.append(f"| `{code}`{note} | {count} | {wall:.2f} | {cpu:.2f} | "
                    f"{wall / ruff_same:.2f}x | {wall / r_tree:.2f}x | {shown} |")

    for k, relative in enumerate(relatives):
        f = relative.as_posix()
        r_file, o_wall = med[(k, "ruff")][0], med[(k, "outside")][0]
        row((k, "inside, cold"), f"graphmend check {f}", ", cold", r_file, o_wall)
        row((k, "inside, warm"), f"graphmend check {f}", ", warm", r_file, o_wall)
        row((k, "outside"), f"graphmend check {relative.name}", " copied outside any project",
            r_file)
        row((k, "ruff"), f"ruff check --no-cache --select ALL {f}", "", r_file)
    row(("tree", "cold"), f"graphmend check {t}", ", cold", r_tree)
    row(("tree", "warm"), f"graphmend check {t}", ", warm", r_tree)
    row(("tree", "ruff"), f"ruff check --no-cache --select ALL {t}", "", r_tree)
    rows.append("")
    if written and written[0]:
        rows.append(f"{CACHE_DIR}/ after a cold run of the whole tree: {written[0]:,} files, "
                    f"{written[1] / 1e6:.1f} MB")
    else:
        rows.append(f"no {CACHE_DIR}/ written (this binary keeps no project cache)")
    for (what, outside_copy), seen in digests.items():
        if len(seen) > 1:
            name = t if what == "tree" else relatives[what].as_posix()
            rows.append(f"WARNING: graphmend check {name}{' (outside)' if outside_copy else ''} "
                        f"printed different findings across runs ({len(seen)} distinct outputs)")
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
    parser.add_argument("--case", default="all",
                        help="comma-separated: files (single generated files), tree (models/ "
                             "outside any project), repo (a real repository), all (default)")
    parser.add_argument("--repo", type=pathlib.Path, default=default_repo_dir(),
                        help="where the repository case lays out its repository (made once, "
                             "reused; tests/bench/bench_repo.py)")
    parser.add_argument("--repo-source", type=pathlib.Path,
                        default=REPO / "build-sweep/src/transformers-5.23.0/transformers")
    parser.add_argument("--repo-file", action="append",
                        help="a file the single-file rows check, relative to the repository "
                             "(repeatable; default: tests/bench/bench_repo.py's DEFAULT_FILES)")
    args = parser.parse_args()
    cases = set(args.case.split(","))
    if "all" in cases:
        cases = {"files", "tree", "repo"}
    if cases - {"files", "tree", "repo"}:
        parser.error(f"--case: unknown {', '.join(sorted(cases - {'files', 'tree', 'repo'}))}")
    if args.reps < 1:
        parser.error("--reps must be at least 1")
    args.work.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    print(f"graphmend check beside ruff check --no-cache --select ALL "
          f"({subprocess.run([args.ruff, '--version'], capture_output=True, text=True).stdout.strip()}), "
          f"{os.cpu_count()} CPUs, load {load:.1f} at the start, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    if "files" in cases:
        print()
        print("\n".join(single_files(args, args.work)), flush=True)
    if "tree" in cases:
        print()
        if args.tree.is_dir():
            print("\n".join(tree(args)), flush=True)
        else:
            print(f"(no tree at {args.tree}: run tools/setup, or pass --tree DIR)")
    if "repo" in cases:
        print()
        if (args.repo_source / "__init__.py").is_file():
            print("\n".join(repo_case(args)), flush=True)
        else:
            print(f"(no package at {args.repo_source}: run tools/setup, or pass --repo-source)")
    print(f"\nload {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())

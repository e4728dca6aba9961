"""The language server analyses a file's statements on every core when an open or an import
edit analyses many of them (issue 17), and publishes exactly what one core publishes: a
generated 5,000-line model file, opened, each import line edited and restored, and a keystroke,
with GRAPHMEND_JOBS=1 and 4 (tests/bench/parallel_publications.py drives both servers)."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import subprocess
import sys

BENCH = pathlib.Path(__file__).resolve().parent.parent / "bench"


def load_driver():
    spec = importlib.util.spec_from_file_location("parallel_publications",
                                                  BENCH / "parallel_publications.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_statements_on_threads_publish_what_one_thread_publishes(binary, tmp_path):
    model = tmp_path / "model_5k.py"
    subprocess.run([sys.executable, str(BENCH / "make_model_file.py"), "5000", str(model)],
                   check=True, timeout=60)
    driver = load_driver()
    one, threaded_one = driver.publications(binary, 1, model)
    many, threaded_many = driver.publications(binary, 4, model)
    assert threaded_one == 0  # one core: never through the threads
    # the open and each import edit (a keystroke analyses one statement, on the loop thread)
    imports = sum(1 for line in model.read_text().splitlines()
                  if line.startswith(("import ", "from ")))
    assert threaded_many >= 1 + imports
    assert len(one) == len(many) == 1 + 2 * imports + 2
    assert sum(len(json.loads(p)["diagnostics"]) for p in one) > 0
    for number, (a, b) in enumerate(zip(one, many)):
        assert a == b, f"publication {number} differs"

"""`graphmend check` of a package alone checks a library: its public API is a set of entry
points a user may compile, and the breaks only they reach hold "when `<entry>` is compiled".
The package is the corpus's workspace/library_entry_points/entrylib, whose `# expect:` lines the
corpus oracle holds equal to where real dynamo breaks when its cases compile `entrylib.solve`
and `decoder.generate`; here the package is checked on its own (copied out of this repository,
so that no case's torch.compile reaches it), and must predict the same lines, each on the
condition that the entry point reaching it is compiled."""

from __future__ import annotations

import json
import shutil
import subprocess

import oracle_lib

PACKAGE = oracle_lib.CORPUS / "workspace" / "library_entry_points" / "entrylib"
ENTRY_OF = {"_solver.py": "entrylib.solve is compiled",
            "decoding.py": "entrylib.Decoder.generate is compiled"}


def test_package_alone_predicts_the_entry_points_breaks(tmp_path):
    copy = tmp_path / "entrylib"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    proc = subprocess.run([str(oracle_lib.graphmend_binary()), "check", "--output-format", "json",
                           str(copy)], capture_output=True, text=True, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr
    predicted = {(f"{f['filename'].rsplit('/', 1)[-1]}", f["location"]["row"], f["code"],
                  (f.get("only_when") or {}).get("condition")) for f in json.loads(proc.stdout)}
    expected = {(path.name, line, code, ENTRY_OF[path.name])
                for path in sorted(PACKAGE.glob("*.py")) if path.name in ENTRY_OF
                for line, code in oracle_lib.parse_expectations(path)}
    assert expected, "the package has no expected break"
    assert predicted == expected

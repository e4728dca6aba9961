"""The table of torch operators that take ints (analysis/value_kinds/int_parameter_table.c) is
what tools/gen-int-parameters makes from the operator schemas of the torch the oracle runs: a
torch upgrade that changes a schema fails here until the table is made again.

The table's source against torch: graphmend does not run here, so the test is torch_only
(tests/conftest.py), skipped on the sanitized build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
TABLE = REPO / "analysis" / "value_kinds" / "int_parameter_table.c"


@pytest.mark.torch_only
def test_table_matches_installed_torch(tmp_path):
    torch = pytest.importorskip("torch")
    fresh = tmp_path / "int_parameter_table.c"
    subprocess.run([sys.executable, str(REPO / "tools" / "gen-int-parameters"), str(fresh)],
                   check=True, capture_output=True, text=True)
    assert fresh.read_text(encoding="utf-8") == TABLE.read_text(encoding="utf-8"), (
        f"analysis/value_kinds/int_parameter_table.c is not what torch {torch.__version__} gives: run "
        "`.venv/bin/python tools/gen-int-parameters`")

"""GM501's table of skipped functions (analysis/rules/untraceable_call.c) holds every public
function the installed torch's dynamo marks SkipFunctionVariable in its trace rules (calling one
breaks the graph: "Attempted to call function marked as skipped", GB0007): a torch upgrade that
adds one fails here until the table has it. Methods (`Class#method`) and private names
(`torch._C...`) are left to the rules that see their receivers.

The table's source against torch: graphmend does not run here, so the test is torch_only
(tests/conftest.py), skipped on the sanitized build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
TABLE = REPO / "analysis" / "rules" / "untraceable_call.c"


@pytest.mark.torch_only
def test_table_holds_dynamos_skipped_functions():
    pytest.importorskip("torch")
    from torch._dynamo import trace_rules
    from torch._dynamo.variables import SkipFunctionVariable

    skipped = {name for name, rule in trace_rules.manual_torch_name_rule_map.items()
               if rule is SkipFunctionVariable and "#" not in name
               and not any(part.startswith("_") for part in name.split(".")[1:])}
    assert "torch.nn.utils.rnn.pack_padded_sequence" in skipped  # the test reads the right map
    table = set(re.findall(r'\{"([\w.]+)", (?:NULL|"GB\d+")\}', TABLE.read_text(encoding="utf-8")))
    missing = sorted(skipped - table)
    assert not missing, f"GM501's table lacks functions dynamo skips: {missing}"

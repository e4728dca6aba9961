"""docs/rules/ holds one page per rule `graphmend rule --all` lists, equal to what
tools/gen-rule-docs writes from the rule catalogue today."""

import re
import subprocess
import sys

from conftest import REPO


def test_every_rule_has_a_page(binary):
    listed = re.findall(r"^# \S+ \((GM\d+)\)$",
                        subprocess.run([binary, "rule", "--all"], capture_output=True,
                                       text=True, check=True).stdout, re.M)
    assert listed
    missing = [rule for rule in listed if not (REPO / "docs" / "rules" / f"{rule}.md").is_file()]
    assert not missing, f"no page in docs/rules/ for {missing}: run tools/gen-rule-docs"


def test_rule_pages_equal_the_catalogue(binary):
    done = subprocess.run([sys.executable, str(REPO / "tools" / "gen-rule-docs"), "--check",
                           "--graphmend", binary], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

"""graphmend run never runs a cached mended copy it did not write: a copy replaced by a link to
another file, a manifest that names another file, a copy cut short (that still parses) are
bad entries, said on stderr and rebuilt from the installed source; the program then runs the
genuine mended module and exits with its own status."""

import os
import textwrap

import pytest

from test_run import run, world  # noqa: F401  (the fixture and helper of the run tests)

# Uses the mended module, then exits with a status of its own.
PROGRAM = textwrap.dedent("""\
    import sys

    import torch

    import fakepkg

    model = fakepkg.Net()
    out = model(torch.randn(4, 8))
    print("rows", out.shape[0])
    sys.exit(7)
    """)

EVIL = "import sys\nprint('EVIL RAN')\nsys.exit(99)\n"


@pytest.fixture
def primed(world):  # noqa: F811
    (world["root"] / "program.py").write_text(PROGRAM, encoding="utf-8")
    (world["root"] / "evil.py").write_text(EVIL, encoding="utf-8")
    first = run(world, "run", "--packages", "fakepkg", "program.py")
    assert first.returncode == 7, first.stderr
    copies = sorted((world["cache"] / "mended").glob("*.py"))
    layers = [c for c in copies if "class Net" in c.read_text()]
    assert len(layers) == 1, copies
    return world, layers[0]


def _runs_genuine(world, copy):
    again = run(world, "run", "--packages", "fakepkg", "program.py")
    assert again.returncode == 7, (again.returncode, again.stdout, again.stderr)
    assert "EVIL RAN" not in again.stdout
    assert "rows 4" in again.stdout
    assert "not the one graphmend wrote" in again.stderr, again.stderr
    assert copy.is_file() and not copy.is_symlink()
    assert "class Net" in copy.read_text()
    return again


def test_a_copy_replaced_by_a_link_is_rebuilt_not_run(primed):
    world, copy = primed
    copy.unlink()
    os.symlink(world["root"] / "evil.py", copy)
    _runs_genuine(world, copy)
    # and the rebuilt entry is trusted again, silently
    quiet = run(world, "run", "--packages", "fakepkg", "program.py")
    assert quiet.returncode == 7 and "not the one graphmend wrote" not in quiet.stderr


def test_a_manifest_naming_another_file_is_not_followed(primed):
    world, copy = primed
    [manifest] = (world["cache"] / "manifests").glob("*.txt")
    text = manifest.read_text()
    assert str(copy) in text
    manifest.write_text(text.replace(str(copy), str(world["root"] / "evil.py")))
    _runs_genuine(world, copy)


def test_a_copy_cut_short_is_rebuilt(primed):
    world, copy = primed
    text = copy.read_text()
    copy.write_text(text[: text.index("class Net")])  # still parses, lacks Net
    _runs_genuine(world, copy)

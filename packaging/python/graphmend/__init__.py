"""graphmend predicts and mends torch.compile graph breaks.

The tool is the `graphmend` binary that this package installs on PATH (as ruff's wheel installs
`ruff`); the package only finds it, for `python -m graphmend` and for programs that want its path.
"""

from __future__ import annotations

import os
import sys
import sysconfig

__all__ = ["find_graphmend_bin"]


def find_graphmend_bin() -> str:
    """The path of the graphmend binary installed with this package."""
    name = "graphmend" + (sysconfig.get_config_var("EXE") or "")
    candidates = [sysconfig.get_path("scripts")]
    # pip install --user puts scripts under the user scheme.
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        candidates.append(sysconfig.get_path("scripts", scheme=user_scheme))
    # pip install --target DIR puts the package in DIR and scripts in DIR/bin.
    candidates.append(os.path.join(os.path.dirname(os.path.dirname(__file__)), "bin"))
    for directory in candidates:
        path = os.path.join(directory, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(
        f"graphmend: the binary was not found beside this package (looked in "
        f"{', '.join(candidates)}); reinstall it with `{sys.executable} -m pip install graphmend`")

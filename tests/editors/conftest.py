"""The headless editors run graphmend with a cache directory of the run's own (tests/e2e)."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "e2e"))

from private_cache import use_private_cache  # noqa: E402


def pytest_configure(config):
    use_private_cache()

"""Keeps pytest runs of tests/e2e out of the user's ~/.cache/graphmend (tools/test does the same
for the whole suite): the servers and commands the tests start inherit a cache directory of the
run's own (remembered interpreter versions, mended packages). Tests of the cache itself set
their own directories on top."""

import os
import tempfile


def use_private_cache() -> str:
    directory = tempfile.mkdtemp(prefix="graphmend-test-cache-")
    os.environ["XDG_CACHE_HOME"] = directory
    os.environ.pop("GRAPHMEND_CACHE_DIR", None)  # it would win over XDG_CACHE_HOME
    return directory

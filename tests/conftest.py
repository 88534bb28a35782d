"""Every test and every process it starts keeps out of the user's cache: endgame tables are looked for
(and built by the tests that build them) in a fresh folder, and nothing builds them in the background.
Compiled kernels stay where the user's settings put them (``NUMBA_CACHE_DIR`` is set to that place
before the cache setting changes), so that a test run doesn't compile them all again."""

from __future__ import annotations

import os
import tempfile

from engine._jit import cache_base

os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_base()))
os.environ["CHECKERS3D_CACHE_DIR"] = tempfile.mkdtemp(prefix="checkers3d-test-cache-")
os.environ["CHECKERS3D_EGDB_AUTOBUILD"] = "0"


def pytest_unconfigure(config):
    import shutil

    shutil.rmtree(os.environ["CHECKERS3D_CACHE_DIR"], ignore_errors=True)

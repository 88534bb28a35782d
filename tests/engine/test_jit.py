"""Whether the compiled kernels are on disk: ``engine.kernels_cached()``, which a program can name
without importing numba first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import engine
from engine import AMERICAN, Position

ROOT = Path(__file__).resolve().parents[2]


def test_kernels_are_cached_once_compiled_or_loaded():
    position = Position.initial(AMERICAN)
    position.play(position.legal_moves()[0])  # compiles the move generator, or loads it from the cache
    assert engine.kernels_cached() is True


def test_an_empty_cache_holds_no_kernels_and_importing_engine_needs_no_numba(tmp_path):
    code = ("import sys, engine\n"
            "assert 'numba' not in sys.modules, 'importing engine imported numba'\n"
            "print(engine.kernels_cached())\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"

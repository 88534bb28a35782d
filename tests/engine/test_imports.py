"""The engine stands alone: importing every module of ``engine/`` loads no window, graphics or game
code (the guide: engine/ imports only the standard library, numpy and numba)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("pygame", "moderngl", "game")


def test_engine_modules_import_no_pygame_moderngl_or_game():
    modules = sorted(f"engine.{p.stem}" for p in (ROOT / "engine").glob("*.py") if p.stem != "__init__")
    assert "engine.search" in modules and "engine.__main__" in modules
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    loaded = json.loads(run.stdout.splitlines()[-1])  # the last line: a module may print a banner
    assert "engine.search" in loaded
    offenders = [m for m in loaded if m.split(".")[0] in FORBIDDEN]
    assert offenders == [], offenders

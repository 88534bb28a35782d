"""game/ uses the engine through its public modules only, never a private ``engine._*`` one (the
kernels, their records and their cache): read from the source, and watched while a game is played."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def private_engine_uses(path: Path) -> list[str]:
    """Where the module at ``path`` names a private engine module: imports (at the top or inside a
    function) and attribute access such as ``engine._movegen``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + ([f"{node.module}.{a.name}" for a in node.names] if node.module == "engine" else [])
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "engine":
            names = [f"engine.{node.attr}"]
        found += [f"{os.path.relpath(path, ROOT)}:{node.lineno}: {n}" for n in names if n.startswith("engine._")]
    return found


def test_the_game_source_names_no_private_engine_module():
    files = sorted((ROOT / "game").rglob("*.py"))
    assert len(files) > 20
    assert [use for f in files for use in private_engine_uses(f)] == []


def test_the_check_finds_a_private_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from engine import _movegen\n    import engine._jit\n    return engine._search\n")
    assert [u.split(": ")[1] for u in private_engine_uses(bad)] == ["engine._movegen", "engine._jit", "engine._search"]


WATCH = """
import builtins, sys
seen = []
real_import = builtins.__import__

def watching(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__", "")
    if level == 0 and importer.split(".")[0] == "game":
        wanted = [name] + [f"{name}.{f}" for f in (fromlist or ()) if name == "engine"]
        seen.extend(f"{importer}: {w}" for w in wanted if w.startswith("engine._"))
    return real_import(name, globals, locals, fromlist, level)

builtins.__import__ = watching

import pygame
pygame.font.init()
import game.window.app, game.window.bench, game.cli, game.window.loader
from game.play import intents as it
from game.play.machine import Controller
from game.modes import Level
from game.render.instances import marker_rows, piece_rows
from game.render.state import RenderState
from game.files.storage import Storage
from game.ui import Interface
from game.computer.worker_opponent import WorkerOpponent

c = Controller(storage=Storage(sys.argv[1]))
c.handle(it.StartGame(None))
c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
c.handle(it.Undo())
Interface((900, 700)).render(c, 0.0)
state = RenderState(c.game.position, selected=c.legal_moves()[0].start)
piece_rows(state, 0.0), marker_rows(state)
class Client:
    is_ready = True
    def poll(self):
        return []
WorkerOpponent(Client()).poll()
c.close()
print("\\n".join(seen) or "none")
"""


def test_playing_imports_no_private_engine_module_from_the_game(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    out = subprocess.run([sys.executable, "-c", WATCH, str(tmp_path)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "none", out.stdout

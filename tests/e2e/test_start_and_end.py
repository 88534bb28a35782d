"""The game's process starts and ends as a player expects, in a real window under Xvfb: a close
(WM_DELETE_WINDOW, as a window manager's close button sends it) in any phase of the start-up ends
the game within a second, the computer's process and its compiling with it; and however the game
ends, a SIGKILL included, the endgame tables' background build ends within seconds too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import command_line, descendants, is_running, send_close, wait_until, window_of

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# the game's own start and end (as game.cli has them), which says when the renderer's warm-up (a
# run of every drawing path, one a frame) is under way and how far it got when the window closed
WARMING_UP = """
import engine
engine.interpret_kernels()
from game.window.app import App
from game.render import textures
app = App((1280, 800))
while app.renderer is None or app.renderer._warm is None or not app.renderer._warm.states:
    app.step()
print("warming up", flush=True)
try:
    app.run()
finally:
    print("steps left", len(app.renderer._warm.states), "images pending", textures.images_pending(), flush=True)
    app.close()
"""


def _env(display: str, tmp_path: Path, **extra: str) -> dict:
    return dict(os.environ, DISPLAY=display, CHECKERS3D_DATA_DIR=str(tmp_path / "data"),
                CHECKERS3D_GAMES_DIR=str(tmp_path / "games"), CHECKERS3D_CACHE_DIR=str(tmp_path / "cache"),
                SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1", **extra)


def _ended_within(proc: subprocess.Popen, seconds: float) -> float | None:
    """Seconds until ``proc`` ended, if within ``seconds``."""
    started = time.monotonic()
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        return None
    return time.monotonic() - started


def _end(proc: subprocess.Popen, others=()) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)
    for pid in others:
        if is_running(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_close_during_the_renderers_warm_up_ends_the_game_at_once(display, tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", WARMING_UP], cwd=ROOT, env=_env(display, tmp_path),
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        window = window_of(display, proc.pid)
        assert proc.stdout.readline().strip() == "warming up"
        send_close(display, window)
        seconds = _ended_within(proc, 1.0)
        left = proc.stdout.read()
        assert seconds is not None, "the game was still running a second after its window was closed"
        assert proc.returncode == 0
        steps = int(left.split()[2])
        assert steps > 0, f"the close came during the warm-up: {left}"
    finally:
        _end(proc)


def test_a_close_during_the_engines_compile_ends_the_game_and_the_compile(display, tmp_path):
    """A first launch (numba's cache empty): the computer's process compiles its kernels in a
    process of its own for half a minute or more; a close then ends the game within a second, and
    the computer's process and the compiling one with it."""
    env = _env(display, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    proc = subprocess.Popen([sys.executable, "main.py"], cwd=ROOT, env=env)
    helpers: list[int] = []
    try:
        window = window_of(display, proc.pid)

        def compiling():
            return [pid for pid in descendants(proc.pid) if "_compile()" in command_line(pid)]

        assert wait_until(compiling, 60), "the engine's compile never started"
        time.sleep(1.0)  # well into it
        helpers = descendants(proc.pid)
        assert compiling(), "still compiling"
        send_close(display, window)
        assert _ended_within(proc, 1.0) is not None, "the game was still running a second after its window was closed"
        assert proc.returncode == 0
        assert wait_until(lambda: not any(is_running(pid) for pid in helpers), 3.0), \
            [command_line(pid) for pid in helpers if is_running(pid)]
    finally:
        _end(proc, helpers)


def test_a_killed_games_endgame_table_build_ends_within_seconds(display, tmp_path):
    env = _env(display, tmp_path, CHECKERS3D_EGDB_AUTOBUILD="1")
    proc = subprocess.Popen([sys.executable, "main.py"], cwd=ROOT, env=env)
    helpers: list[int] = []
    try:
        def build():
            return [pid for pid in descendants(proc.pid) if "egdb build --background" in command_line(pid)]

        # the computer's process starts the build once it is ready (a compile first, on a cold cache)
        assert wait_until(build, 300, step=0.2), "no background build started"
        assert wait_until(lambda: (tmp_path / "cache" / "egdb" / "build.log").stat().st_size > 0
                          if (tmp_path / "cache" / "egdb" / "build.log").exists() else False, 60, step=0.2)
        helpers = descendants(proc.pid)
        proc.kill()
        proc.wait(10)
        assert wait_until(lambda: not any(is_running(pid) for pid in helpers), 3.0), \
            [command_line(pid) for pid in helpers if is_running(pid)]
    finally:
        _end(proc, helpers)

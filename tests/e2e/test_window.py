"""The real game in a real window under Xvfb, played with real input events (xdotool): a short game of
two players on this device with the keyboard, the mouse on the 3D board, drag and drop, the "Button
controls" table, the "Legal moves" list, a draw offer and its acceptance; then the window is closed
and no process is left behind.

Where to press is computed with the game's own layout and camera math (the same a player's eyes
would find); what happened is read back from the saved game, which is written after every move.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import children_of

from engine import AMERICAN, parse_square
from engine.game import Game
from game.modes import Mode
from game.play.machine import Controller
from game.render import Camera, Viewport, project
from game.render.geometry import PIECE_HEIGHT, square_center
from game.ui import Interface, compute_layout

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1280, 800)


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def numeric(*algebraic: str) -> list[str]:
    """The saved game's move texts (numbers) of moves written like c3-d4."""
    g = Game(AMERICAN)
    out = []
    for text in algebraic:
        move = g.position.parse_move(text)
        out.append(g.position.move_text(move))
        g.play(move)
    return out


def wait_for_quietly(predicate, timeout: float):
    try:
        return wait_for(predicate, timeout, "")
    except AssertionError:
        return None


class Player:
    """Drives the window with xdotool and reads the saved game."""

    def __init__(self, display: str, data: Path, proc: subprocess.Popen):
        self.env = dict(os.environ, DISPLAY=display)
        self.data = data
        self.proc = proc
        out = subprocess.run(["xdotool", "search", "--sync", "--pid", str(proc.pid)], env=self.env,
                             capture_output=True, text=True, timeout=60)
        self.window = out.stdout.split()[0]

    def xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=20)
        time.sleep(0.15)

    def click(self, xy) -> None:
        self.xdo("mousemove", "--window", self.window, str(int(xy[0])), str(int(xy[1])))
        self.xdo("click", "1")

    def drag(self, a, b) -> None:
        self.xdo("mousemove", "--window", self.window, str(int(a[0])), str(int(a[1])))
        self.xdo("mousedown", "1")
        for f in (0.3, 0.6, 1.0):
            self.xdo("mousemove", "--window", self.window, str(int(a[0] + (b[0] - a[0]) * f)),
                     str(int(a[1] + (b[1] - a[1]) * f)))
        self.xdo("mouseup", "1")

    def keys(self, *names: str) -> None:
        self.xdo("windowfocus", "--sync", self.window)
        for name in names:
            self.xdo("key", name)

    def saved(self) -> dict | None:
        try:
            return json.loads((self.data / "saved_game.json").read_text())
        except (FileNotFoundError, ValueError):
            return None

    def moves(self) -> list[str]:
        s = self.saved()
        return s["game"]["moves"] if s else []

    def wait_moves(self, n: int) -> list[str]:
        return wait_for(lambda: len(self.moves()) == n and self.moves(), 90, f"{n} moves in the saved game")

    # --- where things are on screen ---

    def hits(self) -> dict:
        """id -> centre of everything pressable, from the interface drawn for the saved game's state."""
        c = Controller()
        s = self.saved()
        if s is not None:
            c.open_game(Game.from_dict(s["game"]), Mode())
        ui = Interface(SIZE)
        ui.render(c, 0.0)
        return {h.id: h.rect.center for h in ui.hits if h.enabled}

    @staticmethod
    def square(name: str, piece: bool = False):
        v = AMERICAN
        view = compute_layout(*SIZE).view
        vp = Viewport(view.x, view.y, view.width, view.height, frame_height=SIZE[1])
        x, z = square_center(v, parse_square(v, name))
        return project(Camera.preset("angled"), v.size, vp, (x, PIECE_HEIGHT if piece else 0.0, z))


@pytest.fixture
def player(display, tmp_path):
    env = dict(os.environ, DISPLAY=display, CHECKERS3D_DATA_DIR=str(tmp_path),
               CHECKERS3D_GAMES_DIR=str(tmp_path / "games"), SDL_AUDIODRIVER="dummy")
    proc = subprocess.Popen([sys.executable, "main.py", "--window", "1280x800"], cwd=ROOT, env=env)
    try:
        yield Player(display, tmp_path, proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_a_short_game_with_real_keyboard_and_mouse(player):
    p = player
    assert p.proc.poll() is None, "the window opened"
    def started():
        if p.saved() is not None:
            return True
        p.click(p.hits()["btn:2 players on this device"])  # pressed again while the window is still busy
        return wait_for_quietly(lambda: p.saved() is not None, 10)

    wait_for(started, 240, "the game to start (engine ready)")

    # Black with the keyboard: the first arrow shows the cursor on e1; up, up reaches e3; up again f4
    p.keys("Up", "Up", "Up", "Return", "Up", "Return")
    assert p.wait_moves(1) == numeric("e3-f4")

    # White with the mouse on the 3D board: f6, then its green dot g5
    p.click(p.square("f6", piece=True))
    p.click(p.square("g5"))
    assert p.wait_moves(2) == numeric("e3-f4", "f6-g5")

    # Black by drag and drop: g3 to h4
    p.drag(p.square("g3", piece=True), p.square("h4"))
    assert p.wait_moves(3) == numeric("e3-f4", "f6-g5", "g3-h4")

    # White must capture; with the "Button controls" table: g5, then e3
    hits = p.hits()
    p.click(hits[f"cell:{parse_square(AMERICAN, 'g5')}"])
    p.click(hits[f"cell:{parse_square(AMERICAN, 'e3')}"])
    assert p.wait_moves(4) == numeric("e3-f4", "f6-g5", "g3-h4", "g5xe3")

    # Black recaptures from the "Legal moves" list
    p.click(p.hits()["move:d2xf4"])
    assert p.wait_moves(5) == numeric("e3-f4", "f6-g5", "g3-h4", "g5xe3", "d2xf4")

    # White offers a draw with its next move; Black accepts below the board
    p.click(p.hits()["btn:offer"])
    p.click(p.hits()["move:b6-a5"])
    p.wait_moves(6)
    assert p.saved()["game"]["draw_offers"][-1] is True
    p.click(p.hits()["btn:accept-board"])
    wait_for(lambda: p.saved()["game"]["draw_agreed"], 60, "the draw to be agreed")

    # closing leaves nothing behind
    workers = children_of(p.proc.pid)
    p.proc.send_signal(signal.SIGTERM)
    assert p.proc.wait(30) == 0
    wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), 10, "the engine process to end")

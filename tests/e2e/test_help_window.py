"""The Rules, the Controls and the keys in a real window under Xvfb, with real key presses and clicks
(xdotool): a refused move on the 3D board explained, its notice pressed to open the rule, Esc back to
the same game, F1 and the page keys, the Controls tab, and "?" over the game."""

from __future__ import annotations

import os
import subprocess
import time

import numpy as np

from engine import AMERICAN, Color, Position, parse_square
from engine.game import Game
from game.help.model import board_fen
from game.modes import Mode
from game.play.phases import HelpPage, ReadingHelp, Screen
from game.render import Camera, Viewport, project
from game.render.geometry import PIECE_HEIGHT, square_center
from game.ui import theme as th

SIZE = (1280, 800)


def _pixel(app, x: int, y: int) -> tuple[int, ...]:
    """A pixel of the window's last frame, (x, y) from the top left."""
    data = app.ctx.screen.read(viewport=(x, app.size[1] - 1 - y, 1, 1), components=3)
    return tuple(np.frombuffer(data, dtype=np.uint8))


class Window:
    """Sends real input to the game's window and runs its frames meanwhile."""

    def __init__(self, app):
        import pygame

        self.app = app
        self.env = dict(os.environ)
        self.window = str(pygame.display.get_wm_info()["window"])
        self.xdo("windowfocus", "--sync", self.window)

    def xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=20)

    def frames(self, until=lambda: True, seconds: float = 20.0) -> None:
        """Run frames until ``until()`` holds, and a few more so the window shows it."""
        end = time.monotonic() + seconds
        while not until():
            assert time.monotonic() < end, "timed out"
            self.app.step()
            time.sleep(0.01)
        for _ in range(5):
            self.app.step()
            time.sleep(0.01)

    def key(self, name: str, until=lambda: True) -> None:
        self.xdo("key", "--clearmodifiers", name)
        self.frames(until)

    def click(self, xy, until=lambda: True) -> None:
        self.xdo("mousemove", "--window", self.window, str(int(xy[0])), str(int(xy[1])))
        self.xdo("click", "1")
        self.frames(until)


def _on_board(app, name: str) -> tuple[float, float]:
    view = app.ui.layout.view
    vp = Viewport(view.x, view.y, view.width, view.height, frame_height=SIZE[1])
    x, z = square_center(AMERICAN, parse_square(AMERICAN, name))
    return project(Camera.preset("angled"), AMERICAN.size, vp, (x, PIECE_HEIGHT, z))


def test_rules_controls_and_keys_in_a_real_window(open_app):
    app = open_app(SIZE, until=lambda app: app.is_ready and app.renderer is not None)
    c = app.controller
    # Black must capture (c3xe5); the man on g1 may not move
    c.open_game(Game(AMERICAN, Position.from_fen(AMERICAN, board_fen(AMERICAN, Color.BLACK, "d4 h6", "c3 g1"))), Mode())
    w = Window(app)
    w.frames()
    playing = c.phase

    w.click(_on_board(app, "g1"), until=lambda: c.notice_rule is not None)
    assert c.notice.startswith("When you can capture, you must capture") and c.notice_rule == "compulsory-capture"
    notice = next(h for h in app.ui.hits if h.id == "notice:rule").rect
    w.click(notice.center, until=lambda: c.screen is Screen.HELP)
    assert c.phase == ReadingHelp(playing, "american", HelpPage.RULES, "compulsory-capture")
    assert app.ui.help.current_section() == "compulsory-capture"
    assert _pixel(app, SIZE[0] // 2, 4) == th.PANEL, "the help screen's header is on the window"
    assert _pixel(app, SIZE[0] - 20, SIZE[1] - 4) == th.PAGE, "the page fills the window: no board"

    w.key("Escape", until=lambda: c.screen is Screen.GAME)
    assert c.phase is playing and len(c.game.moves) == 0

    w.key("F1", until=lambda: c.screen is Screen.HELP)
    assert c.phase.section is None and app.ui.help.offset == 0
    w.key("Next")  # Page Down
    w.key("End")
    assert app.ui.help.offset == app.ui.help.max_offset > 0
    w.key("Home")
    assert app.ui.help.offset == 0
    tab = next(h for h in app.ui.hits if h.id == "help:controls").rect
    w.click(tab.center, until=lambda: c.phase.page is HelpPage.CONTROLS)
    back = next(h for h in app.ui.hits if h.id == "help:back").rect
    w.click(back.center, until=lambda: c.screen is Screen.GAME)
    assert c.phase is playing

    w.key("question", until=lambda: c.keys_shown)
    card_left = (SIZE[0] - 620) // 2  # the card is 620 pixels wide in the middle of the window, over the board
    assert app.ui.keys_shown and _pixel(app, card_left + 6, SIZE[1] // 2) == th.PANEL, "the keys card is shown"
    w.key("a", until=lambda: not c.keys_shown)
    assert c.phase is playing and not c.game.moves, "the key that closed the card did nothing else"

"""The window's own behaviour (a real window under Xvfb, in this process): the view buttons bring the
camera back, closing puts the window away before anything else, and a saved game opens on the game
screen; and (in a fresh process) the mode screen carries nothing of friend play."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def close_to(a, b) -> bool:
    return all(math.isclose(getattr(a, f), getattr(b, f), abs_tol=1e-9) for f in ("yaw", "pitch", "zoom", "base_yaw"))


def test_the_view_already_chosen_brings_back_its_camera_after_a_turn_or_zoom(open_app):
    from game.files.settings import View
    from game.play import intents as it
    from game.render import Camera, camera_at
    from game.window import input as inp

    app = open_app((800, 600), until=lambda app: True)
    app.step()
    later = lambda: time.monotonic() + 5  # noqa: E731 - past any camera move
    for view in (View.ANGLED, View.TOP):
        app.dispatch(it.SetView(view))
        app.step()
        assert close_to(camera_at(app.camera, later()), Camera.preset(view))
        app.dispatch(inp.Orbit(140, 60))
        app.dispatch(inp.Zoom(2))
        assert not close_to(camera_at(app.camera, later()), Camera.preset(view)), "turned and zoomed"
        app.dispatch(it.SetView(view))  # the button that is already highlighted
        app.step()
        assert close_to(camera_at(app.camera, later()), Camera.preset(view)), view


def test_closing_puts_the_window_away_before_saving_and_stopping_the_computer(open_app):
    import pygame

    app = open_app((640, 480))
    seen = []
    controller_close, client_close = app.controller.close, app.loader.client.close

    def close_controller():
        seen.append(("saving", pygame.display.get_init()))
        controller_close()

    def close_client(timeout=2.0):
        seen.append(("stopping the computer", pygame.display.get_init()))
        client_close(timeout)

    app.controller.close, app.loader.client.close = close_controller, close_client
    app.close()
    assert seen == [("saving", False), ("stopping the computer", False)], "the window was already gone"


def test_a_saved_game_opens_on_the_game_screen_from_the_first_frame(open_app, tmp_path):
    from engine import AMERICAN
    from engine.game import Game
    from game.files.storage import Storage
    from game.modes import Level, Mode
    from game.play.machine import Controller
    from game.play.phases import HumanToMove, Screen

    saved = Controller(storage=Storage(tmp_path))
    game = Game(AMERICAN)
    for text in ("11-15", "23-19", "9-14", "22-17"):
        game.play(text)
    saved.open_game(game, Mode(Level.EASY, AMERICAN.first_player))
    saved.storage.save_game({"mode": {"level": "easy", "human": "black"}, "flipped": False, "over": False,
                             "game": game.to_dict()})
    saved.storage.flush()

    screens = []

    def watched(app):
        screens.append(app.controller.screen)
        return app.is_ready and app.renderer is not None

    app = open_app((1000, 700), until=watched)
    assert set(screens) == {Screen.GAME}, "never the mode screen"
    assert isinstance(app.controller.phase, HumanToMove) and app.controller.game.moves == game.moves
    app.step()
    assert app._state is not None and app._state.position == game.position, "the board shows the game"


MODE_SCREEN = """
import sys, time
from game.window.app import App
from game.play.phases import Screen

app = App((1000, 700))
deadline = time.monotonic() + 300
while not (app.is_ready and app.renderer is not None and app.controller.friend_play.rooms is not None):
    assert time.monotonic() < deadline, "the engine never became ready"
    app.step()
for _ in range(30):
    app.step()
assert app.controller.screen is Screen.MODE
print(sorted(m for m in ("websockets", "sqlite3") if m in sys.modules))
app.close()
"""


def test_the_window_on_the_mode_screen_has_loaded_nothing_of_friend_play(display, tmp_path):
    """Friend play (the WebSocket client and server, SQLite) loads once a room is opened: a fresh
    game process on the mode screen, everything else loaded, has none of it."""
    env = dict(os.environ, DISPLAY=display, CHECKERS3D_DATA_DIR=str(tmp_path), SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT))
    env.pop("SDL_VIDEODRIVER", None)
    out = subprocess.run([sys.executable, "-c", MODE_SCREEN], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=400)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


def test_a_press_in_the_frame_that_changes_the_rules_names_no_square_of_the_old_board(open_app):
    """Until a frame shows the new rules' board, a press on the view picks nothing: the board last
    drawn (10x10 here) is not the game's, and one of its squares (47) is none of an American game's
    (found by the random-input test: such a press raised InvalidSquareError)."""
    from game.play import intents as it

    app = open_app((1000, 700), until=lambda app: app.is_ready and app.renderer is not None)
    app.dispatch(it.ChooseRules("international"))
    app.dispatch(it.StartGame(None))
    for _ in range(5):
        app.step()
    view = app.ui.layout.view
    points = [(x, y) for x in range(view.left + 5, view.right, 23) for y in range(view.top + 5, view.bottom, 23)]
    assert max(app._pick(x, y)[0] or 0 for x, y in points) > 32  # the 10x10 board is shown and picked
    app.dispatch(it.ChangeMode())
    app.dispatch(it.ChooseRules("american"))
    app.dispatch(it.StartGame(None))  # no frame drawn yet: the view still shows the 10x10 board
    assert all(app._pick(x, y) == (None, False) for x, y in points)
    for x, y in points[::7]:  # and a press there, through the real event queue, is no square at all
        _press(x, y)
    app.step()
    app.step()
    squares = {app._pick(x, y)[0] for x, y in points} - {None}
    assert squares and max(squares) <= 32  # the American board, once drawn, is picked again


def _press(x: int, y: int) -> None:
    import pygame

    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=(x, y), button=1))

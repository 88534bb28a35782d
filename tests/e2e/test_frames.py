"""The window draws only what changed: a frame where nothing changed draws nothing, and what is
drawn matches a full redraw (real window under Xvfb, in this process)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def _pixels(app) -> np.ndarray:
    data = app.ctx.screen.read(components=3)
    return np.frombuffer(data, dtype=np.uint8).reshape(app.size[1], app.size[0], 3)


def test_still_frames_draw_nothing_and_partial_frames_match_a_full_redraw(open_app):
    import pygame

    from game.play import intents as ctl

    app = open_app((1000, 700), until=lambda app: app.is_ready and app.renderer is not None)
    app.dispatch(ctl.StartGame(None))

    def settle():
        """Frames until one draws nothing (the board's image is made in the background meanwhile)."""
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if not app.step():
                return
            time.sleep(1 / 120)
        raise AssertionError("the window kept drawing with nothing changing")

    settle()
    assert not app.step(), "a frame where nothing changed draws nothing"
    app.dispatch(ctl.SquarePressed(app.controller.legal_moves()[0].start))  # a selection: board and panel change
    assert app.step(), "a change is drawn"
    settle()
    shown = _pixels(app)[::-1]  # top row first, as the interface's surface
    for rect in app.ui.layout.regions(False):  # the panel and the bars show the interface's pixels
        drawn = pygame.surfarray.pixels3d(app.ui.surface.subsurface(rect)).transpose(1, 0, 2)
        assert np.array_equal(shown[rect.top:rect.bottom, rect.left:rect.right], drawn), rect
    if not app.compositor.keeps_back_buffer:  # every drawn frame is a full one there; nothing to compare
        return
    partial = _pixels(app)
    app.compositor.invalidate()
    assert app.step()
    assert np.array_equal(_pixels(app), partial), "drawing only the changed parts gives the full picture"


def test_the_start_ups_objects_leave_the_collectors_way_once_the_board_has_warmed_up(open_app):
    import gc

    gc.unfreeze()  # (another window of this process may have frozen its own)
    try:
        from game.play import intents as ctl

        app = open_app((800, 600), until=lambda app: app.is_ready and app.renderer is not None)
        assert gc.get_freeze_count() == 0
        app.dispatch(ctl.StartGame(None))
        end = time.monotonic() + 60
        while app.step() or not app.renderer.is_settled:  # until a frame draws nothing
            assert time.monotonic() < end, "the window kept drawing"
            time.sleep(1 / 120)
        frozen = gc.get_freeze_count()
        assert frozen > len(gc.get_objects()), "the start-up's objects are frozen: a full collection skips them"
        assert not app.step() and gc.get_freeze_count() <= frozen, "once (frozen objects still die)"
    finally:
        gc.unfreeze()


def test_a_window_opens_after_an_offscreen_picture_in_the_same_process(display, tmp_path):
    """The offscreen tools' EGL context is not left current: a window opened afterwards in the same
    process gets its own GL context (a current EGL context makes that fail and Xlib end the process)."""
    out = tmp_path / "board.png"
    code = (f"from game.render.offscreen import screenshot; screenshot({str(out)!r}, (64, 48)); "
            "from game.window.app import App; app = App((320, 240)); app.close(); print('window opened')")
    env = dict(os.environ, DISPLAY=display, CHECKERS3D_DATA_DIR=str(tmp_path),
               CHECKERS3D_GAMES_DIR=str(tmp_path / "games"), SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "window opened" in done.stdout, done.stderr
    assert out.stat().st_size > 0


def test_a_game_keeps_only_its_rules_boards_and_the_others_come_back_alike(open_app):
    from engine import AMERICAN, INTERNATIONAL
    from game.play import intents as it
    from game.render import textures

    app = open_app((1000, 700), until=lambda app: app.is_ready and app.renderer is not None)
    boards = app.renderer.board_textures

    def settle():
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if not app.step() and not textures.images_pending() and app.renderer.is_settled:
                return
            time.sleep(1 / 120)
        raise AssertionError("the window kept drawing with nothing changing")

    def board_pixels():
        app.compositor.invalidate()
        app.step()
        view = app.ui.layout.view
        return _pixels(app)[app.size[1] - view.bottom:app.size[1] - view.top, view.left:view.right]

    def images_held():
        with textures._futures_lock:
            return {k[0] for k in (*textures._futures, *textures._bases)}

    app.dispatch(it.ChooseRules("international"))
    settle()
    international = board_pixels()
    app.dispatch(it.ChooseRules("american"))
    settle()
    assert boards.has(AMERICAN) and boards.has(INTERNATIONAL)  # both shown on the mode screen
    app.dispatch(it.StartGame(None))
    settle()
    assert boards.has(AMERICAN) and not boards.has(INTERNATIONAL) and images_held() <= {"american"}
    app.dispatch(it.ChangeMode())
    settle()
    assert "international" in images_held()  # made again in advance on the mode screen
    app.dispatch(it.ChooseRules("international"))
    settle()
    assert np.array_equal(board_pixels(), international), "the board made again looks the same"

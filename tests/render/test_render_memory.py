"""What the board's pictures keep in memory: a board image is let go once its texture holds it, the
other rule sets' images and textures once a game has begun. Behaviour only, no byte counts."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from engine import AMERICAN, INTERNATIONAL
from game.render import textures

PIXELS = 160


@pytest.fixture(autouse=True)
def _no_images_held():
    textures.forget_images_except(AMERICAN)
    textures.forget_images_except(INTERNATIONAL)  # (all of them, between the two)
    yield
    textures.forget_images_except(AMERICAN)
    textures.forget_images_except(INTERNATIONAL)


def held() -> set[str]:
    """The rule sets with a board image asked for or kept."""
    with textures._futures_lock:
        return {k[0] for k in (*textures._futures, *textures._bases)}


def test_an_image_used_lets_its_board_go_once_no_other_is_asked_for():
    fresh = textures.board_image(INTERNATIONAL, PIXELS).copy()
    textures.forget_image(INTERNATIONAL, PIXELS)
    assert held() == set()
    plain = textures.board_image_future(INTERNATIONAL, PIXELS).result(timeout=60)
    numbered = textures.board_image_future(INTERNATIONAL, PIXELS, numbers=True).result(timeout=60)
    assert np.array_equal(plain, fresh) and not np.array_equal(numbered, plain)
    textures.forget_image(INTERNATIONAL, PIXELS)
    assert (INTERNATIONAL.name, PIXELS, 7) in textures._bases  # the numbered one is still asked for
    textures.forget_image(INTERNATIONAL, PIXELS, numbers=True)
    assert held() == set()
    assert np.array_equal(textures.board_image(INTERNATIONAL, PIXELS), fresh)  # made again, the same


def test_a_game_lets_the_other_rules_images_go():
    for variant in (AMERICAN, INTERNATIONAL):
        textures.board_image_future(variant, PIXELS).result(timeout=60)
    assert held() == {"american", "international"}
    textures.forget_images_except(AMERICAN)
    assert held() == {"american"}
    assert textures.board_image_future(AMERICAN, PIXELS).done()  # the game's own is still there


def test_an_image_let_go_while_being_made_leaves_nothing_behind(monkeypatch):
    made = textures.board_image
    started, gate = threading.Event(), threading.Event()

    def slow_image(*args, **kwargs):
        started.set()
        assert gate.wait(30)
        return made(*args, **kwargs)

    monkeypatch.setattr(textures, "board_image", slow_image)
    future = textures.board_image_future(INTERNATIONAL, PIXELS)
    assert started.wait(30)
    textures.forget_images_except(AMERICAN)  # a game of the other rules begins meanwhile
    gate.set()
    assert future.result(timeout=60).shape == (PIXELS, PIXELS, 4)
    assert held() == set()


def test_the_textures_of_other_rules_are_freed_and_made_again_alike(gl):
    from game.render.board_textures import BoardTextures

    boards = BoardTextures(gl, software=True, background=False, pixels=PIXELS)
    try:
        first = boards.make(INTERNATIONAL, False, False).read()
        boards.make(INTERNATIONAL, True, False)
        boards.make(AMERICAN, False, False)
        boards.keep_only(AMERICAN)
        assert boards.has(AMERICAN) and not boards.has(INTERNATIONAL)
        assert set(boards.textures) == {("american", False, False)}
        assert boards.make(INTERNATIONAL, False, False).read() == first
        assert gl.error == "GL_NO_ERROR"
    finally:
        boards.release()


def test_baking_a_texture_keeps_no_framebuffer_and_leaves_the_bound_one_bound(gl):
    """The bake's framebuffer goes at once (it would keep the texture's first storage, a copy of the
    image, alive): the framebuffer bound before is bound again, so creating another is no error."""
    from game.render.board_textures import BoardTextures

    target = gl.framebuffer([gl.texture((8, 8), 4)])
    boards = BoardTextures(gl, software=True, background=False, pixels=PIXELS)
    try:
        target.use()
        boards.make(AMERICAN, False, False)
        assert gl.fbo is target
        gl.framebuffer([gl.texture((8, 8), 4)]).use()  # moderngl rebinds the bound one after creating it
        assert boards[(AMERICAN.name, False, False)].size == (PIXELS, PIXELS)
        assert gl.error == "GL_NO_ERROR"
    finally:
        boards.release()

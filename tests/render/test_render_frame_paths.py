"""The renderer's cheap paths draw what a full redraw would: partial updates of the still picture
when pieces or markers change, the reduced picture while the camera moves and the band-by-band
rebuild after it stops; and the bench's scene covers every kind of frame. No timing here."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine import INTERNATIONAL, Position
from game.render.animation import MoveAnimation
from game.render.camera import Camera
from game.render.offscreen import FRAME_KINDS, BenchScene
from game.render.picking import Viewport
from game.render.state import RenderState, must_capture_squares, selection_markers

SIZE = (720, 480)
VIEWPORT = Viewport(200, 30, 480, 420, frame_height=480)  # a board right of a panel


def draw(gl, renderer, state, t, fbo):
    renderer.draw(state, t, VIEWPORT, target=fbo)
    return np.frombuffer(fbo.read(components=3), np.uint8).reshape(SIZE[1], SIZE[0], 3).astype(int)


@pytest.fixture(scope="module")
def fbo(gl):
    # module-wide: moderngl rebinds the last bound framebuffer after creating one, and binding a
    # released one is a GL_INVALID_OPERATION the error checks here would see
    with gl:
        fbo = gl.framebuffer(gl.renderbuffer(SIZE, 4), gl.depth_renderbuffer(SIZE))
    yield fbo
    with gl:
        gl.detect_framebuffer(0).use()  # the tests leave it bound
        fbo.release()


def fresh(gl, state, t, fbo):
    """The picture a new renderer draws at once (everything rebuilt)."""
    from game.render.scene import BoardRenderer

    r = BoardRenderer(gl, samples=4, texture_pixels=512, software=True, motion_scale=1.0)
    try:
        return draw(gl, r, state, t, fbo)
    finally:
        r.release()


def capture_states():
    """A selected piece about to capture four, and the same capture under way (the position after
    it, the last move marked)."""
    before = Position.from_fen(INTERNATIONAL, "B:W21,25,26,31,32,35,36,39,41-45,47,48,50:B1-6,9,11,13-17,20,23")
    move = before.parse_move("16x40")
    targets, finals = selection_markers(before, 16)
    selected = RenderState(before, camera=Camera.preset("angled"), selected=16, targets=targets, final_targets=finals,
                           must_capture=must_capture_squares(before), cursor=16)
    after = before.play(move)
    anim = MoveAnimation.build(before, move, start_time=0.0)
    moving = RenderState(after, camera=Camera.preset("angled"), last_move=move, must_capture=must_capture_squares(after),
                         animation=anim)
    return selected, moving, anim


def test_partial_updates_of_the_still_picture_match_a_full_redraw(gl, fbo):
    from game.render.scene import BoardRenderer

    selected, moving, anim = capture_states()
    r = BoardRenderer(gl, samples=4, texture_pixels=512, software=True, motion_scale=1.0)
    try:
        draw(gl, r, selected, 0.0, fbo)
        # the move starts (the selection goes, the line appears), lands (the captured pieces start
        # to leave) and ends (the piece stands on its square)
        for t in (0.05, anim.landed_time + 0.05, anim.end_time + 0.1):
            image = draw(gl, r, moving, t, fbo)
            assert np.array_equal(image, fresh(gl, moving, t, fbo)), t
        assert gl.error == "GL_NO_ERROR"
    finally:
        r.release()


def test_camera_motion_shows_a_reduced_picture_then_the_full_one_band_by_band(gl, fbo):
    from game.render.scene import BUILD_BANDS, BoardRenderer

    selected, _, _ = capture_states()
    r = BoardRenderer(gl, samples=4, texture_pixels=512, software=True, motion_scale=0.5)
    r.build_budget_s = 0.0  # one band a frame, however fast the machine
    try:
        full = fresh(gl, selected, 0.0, fbo)
        draw(gl, r, replace(selected, camera=Camera.preset("angled").orbited(40, 0)), 0.0, fbo)
        reduced = draw(gl, r, selected, 0.0, fbo)  # the camera moved back: drawn at reduced size
        assert r._view.reduced.size == (240, 210)
        assert not np.array_equal(reduced, full) and np.abs(reduced - full).mean() < 8  # the same, softer
        frames = 0
        image = reduced
        while not np.array_equal(image, full):
            image = draw(gl, r, selected, 0.0, fbo)
            frames += 1
            assert frames <= 2 * BUILD_BANDS + 1, "the cached pictures are never finished"
        assert frames > 2  # spread over frames, not rebuilt at once
        assert r._view.reduced is None  # not needed until the camera moves again
        assert np.array_equal(draw(gl, r, selected, 0.0, fbo), full)  # and kept
        draw(gl, r, replace(selected, camera=Camera.preset("angled").orbited(20, 0)), 0.0, fbo)
        assert r._view.reduced.size == (240, 210)  # made again for the next move
        assert gl.error == "GL_NO_ERROR"
    finally:
        r.release()


def test_the_bench_scene_has_every_kind_of_frame():
    scene = BenchScene()
    frames = [scene.at(i / 60) for i in range(int(scene.period * 60))]
    kinds = [kind for kind, _ in frames]
    assert set(kinds) == set(FRAME_KINDS)
    assert all(s.animation is not None for k, s in frames if k == "animating")
    cameras = [s.camera.at(i / 60) for i, (k, s) in enumerate(frames) if k == "camera"]
    assert len(set(cameras)) > 0.9 * len(cameras)  # the camera moves in every camera frame
    tops = [c for c in cameras if c.pitch > 89.9]
    flipped = [c for c in cameras if c.base_yaw == 180.0]
    assert tops and flipped  # the view transition and the half turn are both in it


def test_dynamic_resolution_steers_the_scale_between_its_limits(gl):
    from game.render.pictures import MOTION_FRAME_S, MOTION_SCALE_MIN
    from game.render.scene import BoardRenderer

    r = BoardRenderer(gl, samples=0, texture_pixels=256, software=True, motion_scale=0.5)
    try:
        view = r._view
        view.scale_now = 0.5
        scales = []
        for _ in range(8):  # slow frames: smaller pictures, down to the floor
            view.adapt_scale(3 * MOTION_FRAME_S, r.motion_scale)
            scales.append(view.scale_now)
        assert scales == sorted(scales, reverse=True) and scales[0] < 0.5 and scales[-1] == MOTION_SCALE_MIN
        view.adapt_scale(0.8 * MOTION_FRAME_S, r.motion_scale)  # about right: kept
        assert view.scale_now == MOTION_SCALE_MIN
        for _ in range(8):  # fast frames: sharper again, up to the renderer's scale
            view.adapt_scale(0.1 * MOTION_FRAME_S, r.motion_scale)
        assert view.scale_now == 0.5
    finally:
        r.release()

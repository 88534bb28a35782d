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
from game.render.overlay import PixelCopy
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
        fbo = gl.framebuffer(gl.renderbuffer(SIZE, 4))  # no depth buffer, as the window has none
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


def spy_still_updates(monkeypatch):
    """The renderer's still-picture updates from now on: ("drawn", boxes) for each drawn into the
    still picture, ("ahead", boxes) for each drawn ahead into the landing's, ("landed", boxes) for
    each copied in from it."""
    from game.render.scene import BoardRenderer

    calls = []
    build_still, land = BoardRenderer._build_still, BoardRenderer._land

    def spy_build(self, frame, layers, boxes, into=None):
        calls.append(("drawn" if into is None else "ahead", list(boxes)))
        return build_still(self, frame, layers, boxes, into)

    def spy_land(self, layers, landing):
        calls.append(("landed", list(landing.boxes)))
        return land(self, layers, landing)

    monkeypatch.setattr(BoardRenderer, "_build_still", spy_build)
    monkeypatch.setattr(BoardRenderer, "_land", spy_land)
    return calls


@pytest.mark.parametrize("bands", ["as the budget allows", "least"])
def test_a_moves_end_is_drawn_ahead_while_it_is_animated_and_copied_in_where_it_lands(gl, fbo, monkeypatch, bands):
    """A software renderer draws what the end of a move changes in the still picture while the move
    is animated (after the captured pieces have left it), into pictures of its own: the frame where
    the piece comes to rest copies them in and draws nothing, and shows what a full redraw shows,
    also when the changes were drawn in the least bands each."""
    from game.render import scene
    from game.render.scene import LANDING_BANDS_MOST, BoardRenderer

    if bands == "least":
        monkeypatch.setattr(scene, "band_end", lambda costs, start, allowance, least: min(start + least, len(costs) - 1))
    calls = spy_still_updates(monkeypatch)
    selected, moving, anim = capture_states()
    r = BoardRenderer(gl, samples=4, texture_pixels=512, software=True, motion_scale=1.0)
    r.landing_budget_s = 1.0  # all of it in one frame, however slow the machine
    try:
        draw(gl, r, selected, 0.0, fbo)
        frames = [t for t in (i / 60 for i in range(int(anim.end_time * 60) + 1)) if t < anim.end_time]
        for t in frames:
            draw(gl, r, moving, t, fbo)
        ahead = [boxes for kind, boxes in calls if kind == "ahead"]
        assert ahead, calls
        if bands == "least":
            assert len(ahead) >= LANDING_BANDS_MOST - 1  # a changed box at least, in its bands (its rows rounded up)
        calls.clear()
        end = anim.end_time
        image = draw(gl, r, moving, end, fbo)
        assert [kind for kind, _ in calls] == ["landed"]
        assert np.array_equal(image, fresh(gl, moving, end, fbo))
        assert gl.error == "GL_NO_ERROR"
    finally:
        r.release()


def test_a_move_that_ends_otherwise_than_drawn_ahead_is_drawn_where_it_lands(gl, fbo, monkeypatch):
    """When the state at the end of the move is not the one drawn ahead (here: the player selects a
    piece as it lands), the still picture is drawn as usual and shows what a full redraw shows."""
    from game.render.scene import BoardRenderer

    calls = spy_still_updates(monkeypatch)
    selected, moving, anim = capture_states()
    r = BoardRenderer(gl, samples=4, texture_pixels=512, software=True, motion_scale=1.0)
    r.landing_budget_s = 1.0
    try:
        draw(gl, r, selected, 0.0, fbo)
        for t in (0.05, anim.landed_time + 0.05):
            draw(gl, r, moving, t, fbo)
        assert any(kind == "ahead" for kind, _ in calls)
        calls.clear()
        end = anim.end_time + 0.05
        chosen = replace(moving, selected=40)
        image = draw(gl, r, chosen, end, fbo)
        assert [kind for kind, _ in calls] == ["drawn"]
        assert np.array_equal(image, fresh(gl, chosen, end, fbo))
    finally:
        r.release()


def test_a_kept_target_gets_only_what_changed_and_shows_the_full_redraws_pixels(gl, fbo, monkeypatch):
    """A window's back buffer keeps the last frame: each frame of a capture copies the still picture
    only where pieces moved or the picture changed (a few percent of the view, where a copy of the
    whole view costs a software renderer a few ms), and every frame shows what a full copy shows."""
    from game.render.scene import BoardRenderer

    copied = []  # the pixels of the still picture put into the target (a whole copy's rectangles, a box's scissor)
    copy = PixelCopy.copy

    def counting_copy(self, target, picture, rects):
        if target is fbo:
            copied.extend(w * h for _, _, w, h in rects)
        return copy(self, target, picture, rects)

    selected, moving, anim = capture_states()
    kept = BoardRenderer(gl, samples=0, texture_pixels=512, software=True, motion_scale=1.0)
    full = BoardRenderer(gl, samples=0, texture_pixels=512, software=True, motion_scale=1.0)
    copy_scaled = PixelCopy.copy_scaled

    def counting_copy_scaled(self, target, picture, viewport, rects):  # the moving pieces' boxes
        if target is fbo:
            copied.extend(w * h for _, _, w, h in rects)
        return copy_scaled(self, target, picture, viewport, rects)

    monkeypatch.setattr(PixelCopy, "copy", counting_copy)
    monkeypatch.setattr(PixelCopy, "copy_scaled", counting_copy_scaled)
    view = VIEWPORT.width * VIEWPORT.height
    try:
        kept.draw(selected, 0.0, VIEWPORT, target=fbo, kept=True)  # nothing kept yet: all of it
        assert view in copied
        frames = [i / 60 for i in range(int(anim.end_time * 60) + 12)]
        for t in frames:
            copied.clear()
            kept.draw(moving, t, VIEWPORT, target=fbo, kept=True)
            image = np.frombuffer(fbo.read(components=3), np.uint8).reshape(SIZE[1], SIZE[0], 3)
            if t > 0.0 and t < anim.landed_time:  # the piece on its way: its boxes only
                assert 0 < sum(copied) < 0.1 * view, (t, copied)
            assert np.array_equal(image, draw(gl, full, moving, t, fbo)), t
        copied.clear()
        kept.draw(moving, frames[-1], VIEWPORT, target=fbo, kept=False)  # the target was drawn over
        assert view in copied
        assert gl.error == "GL_NO_ERROR"
    finally:
        kept.release()
        full.release()


def test_camera_motion_shows_a_reduced_picture_then_the_full_one_band_by_band(gl, fbo, monkeypatch):
    from game.render.pictures import ViewCache
    from game.render.scene import BUILD_BANDS_MOST, BoardRenderer

    monkeypatch.setattr(ViewCache, "adapt_scale", lambda *args: None)  # the scale stays, however slow the machine

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
            assert frames <= 2 * BUILD_BANDS_MOST + 1, "the cached pictures are never finished"
        assert frames > 2  # spread over frames, not rebuilt at once
        assert r._view.reduced is None  # not needed until the camera moves again
        assert np.array_equal(draw(gl, r, selected, 0.0, fbo), full)  # and kept
        draw(gl, r, replace(selected, camera=Camera.preset("angled").orbited(20, 0)), 0.0, fbo)
        assert r._view.reduced.size == (240, 210)  # made again for the next move
        assert gl.error == "GL_NO_ERROR"
    finally:
        r.release()


def test_a_kept_target_is_not_copied_the_same_reduced_picture_while_the_build_goes_on(gl, fbo, monkeypatch):
    """After a camera move the frames that finish the cached pictures band by band show the reduced
    picture of the last moving frame: a kept target has it already, and gets only the finished
    still picture, once, on the frame after the last band."""
    from game.render.pictures import ViewCache
    from game.render.scene import BUILD_BANDS_MOST, BoardRenderer

    monkeypatch.setattr(ViewCache, "adapt_scale", lambda *args: None)  # the scale stays, however slow the machine
    selected, _, _ = capture_states()
    r = BoardRenderer(gl, samples=4, texture_pixels=512, software=True, motion_scale=0.5)
    r.build_budget_s = 0.0  # one band a frame
    copies = []
    copy = PixelCopy._pass  # under copy and copy_scaled
    monkeypatch.setattr(PixelCopy, "_pass", lambda self, target, picture, *args: (
        copies.append(picture) if target is fbo else None, copy(self, target, picture, *args))[1])
    turned = replace(selected, camera=Camera.preset("angled").orbited(20, 0))
    try:
        r.draw(selected, 0.0, VIEWPORT, target=fbo, kept=True)
        r.draw(replace(selected, camera=Camera.preset("angled").orbited(40, 0)), 0.0, VIEWPORT, target=fbo, kept=True)
        copies.clear()
        r.draw(turned, 0.0, VIEWPORT, target=fbo, kept=True)  # the camera's last move: a new reduced picture
        assert copies == [r._view.reduced.colour]
        frames = 0
        while not r.is_settled:
            r.draw(turned, 0.0, VIEWPORT, target=fbo, kept=True)
            frames += 1
            assert frames <= 2 * BUILD_BANDS_MOST + 2
        assert frames > 2 and copies[1:] == [r._view.layers.still_colour], "the finished picture, once"
        assert np.array_equal(draw(gl, r, turned, 0.0, fbo), fresh(gl, turned, 0.0, fbo))
    finally:
        r.release()


def test_pieces_moving_while_the_pictures_are_rebuilt_update_a_kept_target_only_around_them(gl, fbo, monkeypatch):
    """A move shown while the cached pictures are rebuilt after a camera move: each frame draws the
    reduced picture again, and a kept target gets only the boxes where the pieces were and are,
    which shows what a whole copy would."""
    from game.render.pictures import ViewCache
    from game.render.scene import BoardRenderer

    monkeypatch.setattr(ViewCache, "adapt_scale", lambda *args: None)  # the scale stays, however slow the machine
    selected, moving, anim = capture_states()
    angled = Camera.preset("angled")
    renderers = [BoardRenderer(gl, samples=4, texture_pixels=512, software=True, motion_scale=0.5) for _ in range(2)]
    copied = []
    copy = PixelCopy._pass  # under copy and copy_scaled

    def counting_copy(self, target, picture, viewport, scale, rects, sampler):
        if target is fbo:
            copied.extend(w * h for _, _, w, h in rects)
        return copy(self, target, picture, viewport, scale, rects, sampler)

    try:
        for r in renderers:
            r.build_budget_s = 0.0  # one band a frame: the rebuild lasts the whole move
            r._view.scale_now = 0.3  # the smallest picture a busy machine's dynamic resolution may reach
            r.draw(replace(moving, camera=angled.orbited(20, 0), animation=None), 0.0, VIEWPORT, target=fbo)
        monkeypatch.setattr(PixelCopy, "_pass", counting_copy)
        view = VIEWPORT.width * VIEWPORT.height
        for i, t in enumerate(np.arange(0.0, anim.landed_time, 1 / 60)):
            images = []
            for r, kept in zip(renderers, (True, False), strict=True):
                copied.clear()
                r.draw(replace(moving, camera=angled), float(t), VIEWPORT, target=fbo, kept=kept and i > 0)
                images.append(np.frombuffer(fbo.read(components=3), np.uint8).reshape(SIZE[1], SIZE[0], 3).copy())
                if kept and i > 1:
                    assert r._view.build is not None and 0 < sum(copied) < 0.2 * view, (t, copied)
            assert np.array_equal(*images), t
        assert gl.error == "GL_NO_ERROR"
    finally:
        for r in renderers:
            r.release()


def test_pieces_moving_while_the_pictures_are_rebuilt_redraw_the_reduced_picture_only_around_them(gl, fbo, monkeypatch):
    """While a move is shown over the reduced picture (the cached ones still being rebuilt after a
    camera move), a frame draws the reduced scene again only where the pieces were and are, and the
    picture is the one a whole redraw gives, at every frame of the move."""
    from game.render.pictures import ViewCache
    from game.render.scene import BoardRenderer

    monkeypatch.setattr(ViewCache, "adapt_scale", lambda *args: None)  # the scale stays, however slow the machine
    selected, moving, anim = capture_states()
    angled = Camera.preset("angled")
    partial, whole = (BoardRenderer(gl, samples=4, texture_pixels=512, software=True, motion_scale=0.5)
                      for _ in range(2))
    drawn = []  # the part of the reduced picture each of the partial renderer's scenes is drawn in
    draw_scene = BoardRenderer._draw_scene

    def recording(self, frame, target, mesh=None):
        if self is partial:
            drawn.append(self.ctx.scissor)
        return draw_scene(self, frame, target, mesh)

    monkeypatch.setattr(BoardRenderer, "_draw_scene", recording)
    try:
        for r in (partial, whole):
            r.build_budget_s = 0.0  # one band a frame: the rebuild lasts the whole move
            r.draw(replace(moving, camera=angled.orbited(20, 0), animation=None), 0.0, VIEWPORT, target=fbo)
        drawn.clear()
        for i, t in enumerate(np.arange(0.0, anim.landed_time, 1 / 12)):  # a slow machine's frames: far apart
            if whole._view.reduced is not None:
                whole._view.reduced.key = None  # what it shows is forgotten: drawn whole
            images = [draw(gl, r, replace(moving, camera=angled), float(t), fbo) for r in (partial, whole)]
            assert i == 0 or partial._view.build is not None  # (the first frame ends the camera's move)
            assert np.array_equal(*images), t
        size = partial._view.reduced.size
        whole_picture = (0, 0, *size)
        assert drawn[0] == whole_picture  # the camera's last move
        parts = drawn[1:]
        assert parts and all(w * h < 0.25 * size[0] * size[1] for _, _, w, h in parts), parts
        assert gl.error == "GL_NO_ERROR"
    finally:
        for r in (partial, whole):
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

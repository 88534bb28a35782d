"""Picking: the projected centre of every square maps back to that square, in both views, from
either side, after an orbit and a zoom, and after a resize; points off the board give None.
Also the camera's limits and transitions. No GL needed."""

from __future__ import annotations

import itertools

import pytest

from engine import AMERICAN, INTERNATIONAL, Position, coords_square
from game.render.camera import PITCH_LIMITS, YAW_LIMIT, ZOOM_LIMITS, Camera, CameraMove
from game.render.geometry import square_center
from game.render.picking import Viewport, pick_square, piece_heights, project

CAMERAS = {
    "angled": Camera.preset("angled"),
    "top": Camera.preset("top"),
    "angled, second side": Camera.preset("angled", flipped=True),
    "top, second side": Camera.preset("top", flipped=True),
    "orbited and zoomed": Camera.preset("angled").orbited(-120, -60).zoomed(2),
    "orbited far, zoomed out": Camera.preset("top", flipped=True).orbited(400, 300).zoomed(-5),
}
VIEWPORTS = {
    "1280x720": Viewport(0, 0, 1280, 720),
    "resized, offset panel": Viewport(40, 60, 700, 900, frame_height=1000),
    "small": Viewport(0, 0, 320, 200),
}


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
@pytest.mark.parametrize("camera", CAMERAS.values(), ids=CAMERAS.keys())
@pytest.mark.parametrize("viewport", VIEWPORTS.values(), ids=VIEWPORTS.keys())
def test_every_square_centre_picks_its_square(variant, camera, viewport):
    seen = 0
    for sq in range(1, variant.squares + 1):
        x, z = square_center(variant, sq)
        px, py = project(camera, variant.size, viewport, (x, 0.0, z))
        if not viewport.contains(px, py):  # zoomed in, a square may be off the picture
            assert camera.zoom < 1 and pick_square(variant, camera, viewport, px, py) is None
            continue
        seen += 1
        assert pick_square(variant, camera, viewport, px, py) == sq
    assert seen >= variant.squares * 0.8


@pytest.mark.parametrize("camera", CAMERAS.values(), ids=CAMERAS.keys())
def test_square_centres_pick_through_standing_pieces(camera):
    pos = Position.initial(INTERNATIONAL)
    heights = piece_heights(pos.pieces())
    vp = VIEWPORTS["1280x720"]
    for sq in range(1, 51):
        x, z = square_center(INTERNATIONAL, sq)
        px, py = project(camera, 10, vp, (x, 0.0, z))
        if vp.contains(px, py):
            assert pick_square(INTERNATIONAL, camera, vp, px, py, heights) == sq
    # the top of a piece picks the piece's square even where it hides the square behind it
    x, z = square_center(INTERNATIONAL, 33)
    px, py = project(camera, 10, vp, (x, 0.16, z - 0.38))
    assert pick_square(INTERNATIONAL, camera, vp, px, py, heights) == 33


def test_light_squares_frame_and_outside_pick_nothing():
    cam, vp = Camera.preset("angled"), VIEWPORTS["1280x720"]
    for f, r in itertools.product(range(8), range(8)):
        if coords_square(AMERICAN, f, r) is None:
            x, z = f - 3.5, 3.5 - r
            assert pick_square(AMERICAN, cam, vp, *project(cam, 8, vp, (x, 0.0, z))) is None
    assert pick_square(AMERICAN, cam, vp, *project(cam, 8, vp, (0.5, 0.0, 4.3))) is None  # on the frame
    assert pick_square(AMERICAN, cam, vp, 3, 3) is None  # the background
    assert pick_square(AMERICAN, cam, vp, 1300, 300) is None  # outside the viewport


def test_first_player_near_and_flip_turns_the_board():
    vp = VIEWPORTS["1280x720"]
    a1 = square_center(AMERICAN, coords_square(AMERICAN, 0, 0))
    _, y_near = project(Camera.preset("top"), 8, vp, (a1[0], 0, a1[1]))
    _, y_far = project(Camera.preset("top", flipped=True), 8, vp, (a1[0], 0, a1[1]))
    assert y_near > 360 > y_far  # a1 at the bottom for the first player, at the top when turned
    x_near, _ = project(Camera.preset("top"), 8, vp, (a1[0], 0, a1[1]))
    assert x_near < 640  # and on the left


def test_orbit_and_zoom_stay_within_limits():
    cam = Camera.preset("angled")
    far = cam.orbited(10_000, 10_000).zoomed(100)
    assert far.yaw == pytest.approx(-YAW_LIMIT) and far.pitch == PITCH_LIMITS[1] and far.zoom == ZOOM_LIMITS[0]
    other = cam.orbited(-10_000, -10_000).zoomed(-100)
    assert other.yaw == pytest.approx(YAW_LIMIT) and other.pitch == PITCH_LIMITS[0] and other.zoom == ZOOM_LIMITS[1]
    flipped = Camera.preset("angled", flipped=True).orbited(10_000, 0)
    assert flipped.yaw == pytest.approx(180 - YAW_LIMIT)
    with pytest.raises(ValueError):
        Camera.preset("sideways")


def test_camera_move_is_smooth_and_ends_where_asked():
    a, b = Camera.preset("angled"), Camera.preset("top", flipped=True)
    move = CameraMove(a, b, start_time=2.0, duration=0.5)
    assert move.at(1.0) == Camera(a.yaw, a.pitch, a.zoom, b.base_yaw)
    assert move.at(2.5) == b and move.at(9.0) == b
    mid = move.at(2.25)
    assert a.yaw < mid.yaw < b.yaw and a.pitch < mid.pitch < b.pitch
    # smoothstep: slow at both ends
    assert move.at(2.025).yaw - a.yaw < (b.yaw - a.yaw) * 0.05

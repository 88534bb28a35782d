"""The GL side, in a standalone EGL context: every shader compiles, frames render, pieces of the
right colour appear where their squares project in both views, markers and animations draw, and
a pygame surface can be composited."""

from __future__ import annotations

import numpy as np
import pytest

from engine import AMERICAN, INTERNATIONAL, Position
from game.render.animation import MoveAnimation, piece_pose
from game.render.camera import Camera
from game.render.geometry import PIECE_HEIGHT, square_center
from game.render.materials import PROGRAMS, SHADER_DIR, load_program
from game.render.offscreen import render_to_array, screenshot_state
from game.render.picking import Viewport, project
from game.render.state import RenderState

W, H = 640, 400


def pixel(image, px, py):
    return image[int(round(py)), int(round(px))].astype(int)


def is_dark_piece(rgb):
    r, g, b = rgb
    return r < 110 and r > b and max(rgb) - min(rgb) < 80


def is_light_piece(rgb):
    return min(rgb) > 150 and rgb[0] - rgb[2] < 80


def test_every_shader_compiles(gl):
    glsl = {p.name.removesuffix(".glsl") for p in SHADER_DIR.iterdir() if p.name.endswith(".glsl")} - {"lighting"}
    assert glsl == set(PROGRAMS)
    for name in PROGRAMS:
        load_program(gl, name).release()


@pytest.mark.parametrize("view", ["angled", "top"])
@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
def test_pieces_of_the_right_colour_stand_on_their_squares(gl, renderer, view, variant):
    state = RenderState(Position.initial(variant), camera=Camera.preset(view))
    image = render_to_array(gl, renderer, state, 0.0, W, H)
    vp = Viewport(0, 0, W, H)
    for sq, piece in state.position.pieces().items():
        x, z = square_center(variant, sq)
        rgb = pixel(image, *project(state.camera, variant.size, vp, (x + 0.06, PIECE_HEIGHT, z + 0.04)))
        # Black's men are the dark ones in both games
        check = is_dark_piece if piece.color.name == "BLACK" else is_light_piece
        assert check(rgb), (variant.name, view, sq, piece, rgb)
    # the middle rows are empty: wood, neither piece colour
    empty = [sq for sq in range(1, variant.squares + 1) if sq not in state.position.pieces()]
    for sq in empty:
        x, z = square_center(variant, sq)
        rgb = pixel(image, *project(state.camera, variant.size, vp, (x, 0.0, z)))
        assert not is_light_piece(rgb), (sq, rgb)


def test_first_players_men_are_near_and_flip_turns_them_away(gl, renderer):
    for flipped, near_is_dark in ((False, True), (True, False)):
        state = RenderState(Position.initial(AMERICAN), camera=Camera.preset("angled", flipped))
        image = render_to_array(gl, renderer, state, 0.0, W, H)
        x, z = square_center(AMERICAN, 1)  # g1, a Black man
        px, py = project(state.camera, 8, Viewport(0, 0, W, H), (x, PIECE_HEIGHT, z))
        assert (py > H / 2) == near_is_dark
        assert is_dark_piece(pixel(image, px, py))


def test_markers_draw_where_they_belong(gl, renderer):
    state = screenshot_state("american", fen="B:W18,19:B14,22,K30", view="top", select="14", cursor="d4")
    state = RenderState(**{**state.__dict__, "last_move": Position.initial(AMERICAN).parse_move("11-15")})
    image = render_to_array(gl, renderer, state, 0.0, W, H)
    plain = render_to_array(gl, renderer, RenderState(state.position, camera=state.camera), 0.0, W, H)
    vp = Viewport(0, 0, W, H)

    def at(sq, dx=0.0, dz=0.0, y=0.0):
        x, z = square_center(AMERICAN, sq)
        return project(state.camera, 8, vp, (x + dx, y, z + dz))

    assert state.targets  # 14 must capture 18 or ... (a capture is compulsory here)
    for sq in state.targets:
        r, g, b = pixel(image, *at(sq))
        assert g > 150 and g > r + 50 and g > b + 50, ("green dot", sq, (r, g, b))
    for sq in state.must_capture:  # gold ring at the base, just outside the piece
        r, g, b = pixel(image, *at(sq, dx=0.46))
        assert r > 180 and g > 120 and b < 110, ("gold ring", sq, (r, g, b))
    r, g, b = pixel(image, *at(11))  # the last move's line starts on 11
    assert r > 200 and 100 < g < 190 and b < 90
    cursor = square_center(AMERICAN, state.cursor)
    r, g, b = pixel(image, *project(state.camera, 8, vp, (cursor[0] + 0.46, 0.0, cursor[1])))
    assert b > 200 and b > r + 60, ("cursor", (r, g, b))
    assert not np.array_equal(image, plain)


def test_moving_piece_is_drawn_on_its_path_and_the_picture_is_cached(gl, renderer):
    before = Position.initial(AMERICAN)
    move = before.parse_move("11-15")
    anim = MoveAnimation.build(before, move, start_time=0.0, speed=0.5)
    state = RenderState(before.play(move), camera=Camera.preset("top"), animation=anim)
    vp = Viewport(0, 0, W, H)
    for t in (0.0, 0.3, anim.end_time):
        image = render_to_array(gl, renderer, state, t, W, H)
        pose = piece_pose(anim, t)
        assert is_dark_piece(pixel(image, *project(state.camera, 8, vp, (pose.x + 0.1, pose.y + PIECE_HEIGHT, pose.z))))
    # mid-move the start square shows no piece any more (the mover left it)
    image = render_to_array(gl, renderer, state, 0.3, W, H)
    x, z = square_center(AMERICAN, 11)
    assert not is_dark_piece(pixel(image, *project(state.camera, 8, vp, (x - 0.25, 0.0, z + 0.25))))


def test_anti_aliased_renderers_draw_the_same_scene(gl, smooth_renderer, renderer):
    state = RenderState(Position.initial(INTERNATIONAL), camera=Camera.preset("angled"))
    smooth = render_to_array(gl, smooth_renderer, state, 0.0, W, H).astype(int)
    sharp = render_to_array(gl, renderer, state, 0.0, W, H).astype(int)
    assert np.abs(smooth - sharp).mean() < 6  # same picture, only the edges differ


def test_draw_into_a_viewport_of_a_larger_target(gl, renderer):
    state = RenderState(Position.initial(AMERICAN), camera=Camera.preset("top"))
    fbo = gl.simple_framebuffer((800, 500))
    fbo.use()
    gl.clear(1.0, 0.0, 1.0)
    vp = Viewport(300, 50, 480, 400, frame_height=500)  # a board right of a panel, top-left origin
    renderer.draw(state, 0.0, vp, target=fbo)
    image = np.frombuffer(fbo.read(components=3), np.uint8).reshape(500, 800, 3)[::-1]
    fbo.release()
    assert tuple(image[10, 10]) == (255, 0, 255) and tuple(image[480, 790]) == (255, 0, 255)  # untouched
    x, z = square_center(AMERICAN, 1)
    assert is_dark_piece(pixel(image, *project(state.camera, 8, vp, (x + 0.1, PIECE_HEIGHT, z))))


def test_overlay_composites_a_pygame_surface(gl):
    import pygame

    from game.render.overlay import Overlay

    overlay = Overlay(gl)
    surface = pygame.Surface((100, 50), pygame.SRCALPHA)
    surface.fill((0, 0, 255, 255))
    surface.fill((255, 0, 0, 255), pygame.Rect(0, 0, 100, 10))  # a red strip along the top
    fbo = gl.simple_framebuffer((200, 100))
    fbo.use()
    gl.clear(0.0, 0.0, 0.0)
    overlay.draw(surface, (20, 30, 100, 50), (200, 100), target=fbo)
    image = np.frombuffer(fbo.read(components=3), np.uint8).reshape(100, 200, 3)[::-1]
    overlay.release()
    fbo.release()
    assert tuple(image[32, 70]) == (255, 0, 0)  # top strip, at the rectangle's top (top-left origin)
    assert tuple(image[60, 70]) == (0, 0, 255)
    assert tuple(image[10, 10]) == (0, 0, 0)


@pytest.mark.parametrize("size", [(200, 100), (137, 61)], ids=["as-target", "smaller"])
def test_pixel_copy_puts_each_texel_unchanged_inside_its_rectangles(gl, size):
    from game.render.overlay import PixelCopy

    rng = np.random.default_rng(7)
    w, h = size
    texels = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
    picture = gl.texture(size, 4, texels.tobytes())  # linear filtering, as moderngl makes textures
    fbo = gl.simple_framebuffer((200, 100))
    fbo.use()
    gl.clear(0.0, 0.0, 0.0)
    copy = PixelCopy(gl)
    rects = [(0, 0, 60, 40), (70, 20, w - 70, h - 20)]
    copy.copy(fbo, picture, rects)
    image = np.frombuffer(fbo.read(components=3), np.uint8).reshape(100, 200, 3)  # GL rows, as the texels
    for px, py, pw, ph in rects:
        assert (image[py:py + ph, px:px + pw] == texels[py:py + ph, px:px + pw, :3]).all(), (size, px, py)
    assert not image[50:, 60:70].any() and not image[h:].any()  # outside the rectangles: untouched
    copy.release()
    picture.release()
    fbo.release()

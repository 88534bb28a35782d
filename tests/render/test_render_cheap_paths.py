"""What keeps a software renderer's frames cheap: the baked board and its glint variant, FXAA only
along the board's edges, the reduced picture enlarged on the GPU, the board image kept between settings.
Behaviour only, no timing."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine import AMERICAN, INTERNATIONAL, Position
from game.render.camera import Camera
from game.render.materials import load_program
from game.render.state import RenderState


def test_shader_variants_compile(gl):
    for name, defines in (("board", ("GLINT",)), ("piece", ("MOTION",)), ("fxaa", ("EDGES",))):
        load_program(gl, name, defines).release()


def test_the_glint_is_drawn_only_where_the_camera_can_see_it():
    from game.render.scene import _has_glint

    def glint(camera):
        return _has_glint(camera.eye(INTERNATIONAL.size, 16 / 9), INTERNATIONAL.size)

    assert not glint(Camera.preset("angled"))  # the light is behind the first player's shoulder
    assert glint(Camera.preset("angled", flipped=True))  # the second player looks towards it


def test_the_glint_variant_brightens_the_board_from_the_far_side(gl):
    from game.render.picking import Viewport
    from game.render.scene import BoardRenderer

    state = RenderState(Position.initial(AMERICAN), camera=Camera.preset("angled", flipped=True))
    size = (320, 200)
    fbo = gl.framebuffer(gl.renderbuffer(size, 4))  # no depth buffer, as the window has none
    r = BoardRenderer(gl, samples=0, texture_pixels=256, software=True, motion_scale=1.0)
    glint = r.programs["board_glint"]

    def draw():
        r.draw(state, 0.0, Viewport(0, 0, *size), target=fbo)
        return np.frombuffer(fbo.read(components=3), np.uint8).astype(int).reshape(size[1], size[0], 3)

    try:
        with_glint = draw()
        r.programs["board_glint"] = r.programs["board"]  # the same frame without it
        for obj in r._boards.pop((AMERICAN.size, "board_glint")):
            obj.release()
        r._view.layers.board_key = None
        without = draw()
        assert gl.error == "GL_NO_ERROR"
    finally:
        r.programs["board_glint"] = glint
        r.release()
        gl.detect_framebuffer(0).use()  # moderngl rebinds the bound framebuffer: not a released one
        fbo.release()
    brighter = (with_glint - without).sum(axis=2)
    assert brighter.min() >= -3 and (brighter > 30).sum() > 20


def test_fxaa_strips_follow_the_board_blocks_edges():
    from game.render.boxes import board_edge_strips

    camera = Camera.preset("angled")
    view_proj = camera.view_projection(INTERNATIONAL.size, 16 / 9)
    strips = board_edge_strips(view_proj, (0, 0, 1280, 720), INTERNATIONAL.size, pixels=3.0)
    assert strips.shape == (12 * 6, 2)  # a quad (two triangles) per edge
    # each strip is 6 pixels wide: the board's outline, not the board
    for quad in strips.reshape(12, 6, 2):
        a, b, c = (quad[k] * (640, 360) for k in range(3))
        assert abs(np.hypot(*(a - b)) - 6.0) < 1e-3
        assert np.hypot(*(b - c)) > 6.0
    behind = view_proj.copy()
    behind[3] = (0.0, 0.0, 0.0, -1.0)  # every point behind the camera
    assert board_edge_strips(behind, (0, 0, 1280, 720), INTERNATIONAL.size) is None


def test_a_rebuilds_bands_are_as_tall_as_their_cost_allows_narrower_where_the_pieces_are():
    from game.render.boxes import band_end, row_costs

    viewport = (10, 20, 100, 40)  # 40 rows of 100 pixels, from GL row 20
    empty = row_costs(viewport, np.empty((0, 4)), 3.0)
    assert len(empty) == 41 and np.allclose(np.diff(empty), 100.0)
    # a piece's box over rows 30-39 (10-19 of the viewport), half of it left of the viewport
    costs = row_costs(viewport, np.array([[0.0, 30.0, 30.0, 40.0]]), 3.0)
    assert np.allclose(np.diff(costs)[10:20], 100 + 3 * 20) and np.allclose(np.diff(costs)[:10], 100)
    assert band_end(costs, 0, 1000.0, 2) == 10  # ten empty rows fit
    assert band_end(costs, 10, 1000.0, 2) == 16  # six with the piece
    assert band_end(costs, 10, 10.0, 2) == 12  # at least two, whatever they cost
    assert band_end(costs, 38, 1000.0, 4) == 40  # no further than the last row


def test_square_numbers_are_written_on_a_copy_of_the_kept_board_image():
    from game.render.textures import board_image

    plain = board_image(INTERNATIONAL, 200)
    numbered = board_image(INTERNATIONAL, 200, numbers=True)
    flipped = board_image(INTERNATIONAL, 200, numbers=True, flipped=True)
    assert not np.array_equal(plain, numbered) and not np.array_equal(numbered, flipped)
    assert np.array_equal(board_image(INTERNATIONAL, 200), plain)  # the kept image is unchanged


@pytest.mark.parametrize("bgra", [False, True])
def test_the_reduced_picture_is_enlarged_smoothly_into_its_viewport(gl, bgra):
    from game.render.overlay import PixelCopy
    from game.render.pictures import Reduced

    viewport = (40, 20, 120, 60)  # GL pixels in a 200x100 target
    target = gl.framebuffer(gl.renderbuffer((200, 100), 4))
    reduced = Reduced(gl, viewport, 0.5, bgra)
    copy = PixelCopy(gl)
    try:
        assert reduced.size == (60, 30) and reduced.fbo.size == (60, 30)
        reduced.rescale(0.3)
        assert reduced.size == (36, 18) and reduced.fbo.size == (36, 18) and reduced.key is None
        reduced.rescale(0.5)
        target.use()
        gl.clear(0.0, 0.0, 1.0, 1.0)
        reduced.fbo.use()
        gl.clear(0.0, 0.0, 0.0, 1.0)  # the picture: black on the left, white on the right
        gl.scissor = (30, 0, 30, 30)
        gl.clear(1.0, 1.0, 1.0, 1.0)
        gl.scissor = None
        copy.copy_scaled(target, reduced.colour, viewport, [viewport])
        pixels = np.frombuffer(target.read(components=3), np.uint8).reshape(100, 200, 3).astype(int)
        assert gl.error == "GL_NO_ERROR"
    finally:
        copy.release()
        reduced.release()
        gl.detect_framebuffer(0).use()  # moderngl rebinds the bound framebuffer: not a released one
        target.release()
    inside = pixels[20:80, 40:160]
    outside = np.ones((100, 200), bool)
    outside[20:80, 40:160] = False
    assert (pixels[outside] == (0, 0, 255)).all()  # nothing drawn outside the viewport
    assert (inside[:, :55] == 0).all() and (inside[:, 65:] == 255).all()  # each half where it belongs
    edge = inside[30, 55:65, 0]
    assert ((edge > 20) & (edge < 235)).sum() >= 1 and (np.diff(edge) >= 0).all()  # a smooth step, not a jump


def test_a_picture_stored_blue_first_reads_writes_and_draws_as_rgba(gl):
    import ctypes

    from game.render.gl import picture_texture

    pixels = np.random.default_rng(3).integers(0, 256, (4, 8, 4), dtype=np.uint8)
    formats = {}
    for bgra in (False, True):
        texture = picture_texture(gl, (8, 4), bgra)
        fbo = gl.framebuffer([texture])
        try:
            texture.use(0)
            internal = ctypes.c_int()
            ctypes.CDLL("libGL.so.1").glGetTexLevelParameteriv(0x0DE1, 0, 0x1003, ctypes.byref(internal))
            formats[bgra] = internal.value  # GL_TEXTURE_INTERNAL_FORMAT
            texture.write(pixels.tobytes())
            assert np.array_equal(np.frombuffer(texture.read(), np.uint8).reshape(4, 8, 4), pixels)
            fbo.use()
            gl.clear(1.0, 0.5, 0.0, 1.0)
            drawn = np.frombuffer(texture.read(), np.uint8).reshape(-1, 4)
            assert (np.abs(drawn.astype(int) - (255, 128, 0, 255)) <= 1).all()
            assert gl.error == "GL_NO_ERROR"
        finally:
            gl.detect_framebuffer(0).use()
            fbo.release()
            texture.release()
    # the blue-first one was specified again with an unsized format (Mesa then matches the pixels' order)
    assert formats == {False: 0x8058, True: 0x1908}  # GL_RGBA8, GL_RGBA


def test_blue_first_pixels_are_written_into_a_rectangle_of_either_order_of_picture(gl):
    from game.render.gl import blue_first_writer, picture_texture

    write = blue_first_writer()
    assert write is not None  # the system library has glTexSubImage2D
    rgba = np.random.default_rng(5).integers(0, 256, (3, 5, 4), dtype=np.uint8)  # rows bottom first
    blue_first = rgba[..., [2, 1, 0, 3]].tobytes()  # as a pygame surface holds them
    for bgra in (False, True):
        texture = picture_texture(gl, (8, 4), bgra)
        try:
            texture.write(bytes(8 * 4 * 4))
            write(texture, blue_first, (2, 1, 5, 3))
            read = np.frombuffer(texture.read(), np.uint8).reshape(4, 8, 4)
            assert np.array_equal(read[1:4, 2:7], rgba), bgra
            assert not read[0].any() and not read[:, :2].any() and not read[:, 7:].any()  # nothing outside
            assert gl.error == "GL_NO_ERROR"
        finally:
            texture.release()


def test_the_stage_grows_to_the_largest_box_in_steps(gl):
    from game.render.pictures import STAGE_STEP, ViewCache

    view = ViewCache(bgra=True)
    try:
        first = view.stage_for(gl, (10, STAGE_STEP + 6))
        assert first.size == (STAGE_STEP, 2 * STAGE_STEP) and first.fbo.size == first.size
        assert view.stage_for(gl, (STAGE_STEP, 50)) is first  # fits: the same
        grown = view.stage_for(gl, (STAGE_STEP + 1, 10))
        assert grown is not first and grown.size == (2 * STAGE_STEP, 2 * STAGE_STEP)
        assert gl.error == "GL_NO_ERROR"
    finally:
        gl.detect_framebuffer(0).use()
        view.release()
    assert view.stage is None


def test_a_window_renderer_makes_board_images_in_the_background(gl, monkeypatch):
    import threading

    from game.render import textures
    from game.render.picking import Viewport
    from game.render.scene import CLEAR_COLOUR, BoardRenderer

    made = textures.board_image
    gate = threading.Event()

    def slow_image(*args, **kwargs):
        assert gate.wait(30)
        return made(*args, **kwargs)

    monkeypatch.setattr(textures, "board_image", slow_image)
    state = RenderState(Position.initial(INTERNATIONAL), camera=Camera.preset("top"))
    size = (240, 160)
    fbo = gl.framebuffer(gl.renderbuffer(size, 4))  # no depth buffer, as the window has none
    r = BoardRenderer(gl, samples=0, texture_pixels=200, software=True, motion_scale=1.0, background_textures=True)

    def draw(s):
        r.draw(s, 0.0, Viewport(0, 0, *size), target=fbo)
        return np.frombuffer(fbo.read(components=3), np.uint8).astype(int).reshape(size[1], size[0], 3)

    def settle(s):
        """Frames until the renderer has settled: the image is lit on one frame, gets its mipmaps
        on the next, and the warm-up takes a step per frame meanwhile."""
        for frames in range(1, 30):
            image = draw(s)
            if r.is_settled:
                return image, frames
        raise AssertionError("the renderer never settled")

    background = np.round(np.array(CLEAR_COLOUR) * 255)
    try:
        waiting = draw(state)  # the image is being made: the background only, and not settled
        assert np.abs(waiting - background).max() <= 1 and not r.is_settled
        gate.set()
        textures.board_image_future(INTERNATIONAL, 200).result(timeout=60)
        board, frames = settle(state)
        assert frames > 2  # spread over frames
        assert np.abs(board - background).max() > 40  # the board is there
        gate.clear()
        numbered = replace(state, show_numbers=True)
        meanwhile = draw(numbered)  # the numbered image is being made: the plain board meanwhile
        assert np.abs(meanwhile - board).max() <= 2 and not r.is_settled
        gate.set()
        textures.board_image_future(INTERNATIONAL, 200, numbers=True).result(timeout=60)
        assert np.abs(settle(numbered)[0] - board).max() > 40  # the numbers are written
        assert gl.error == "GL_NO_ERROR"
    finally:
        gate.set()
        r.release()
        gl.detect_framebuffer(0).use()
        fbo.release()


def test_the_reduced_pictures_men_have_fewer_triangles_and_the_same_shape():
    from game.render.geometry import PIECE_HEIGHT, PIECE_RADIUS, piece_mesh
    from game.render.scene import MOTION_PIECE_BEVEL_STEPS, MOTION_PIECE_SEGMENTS

    full_v, full_i = piece_mesh()
    motion_v, motion_i = piece_mesh(MOTION_PIECE_SEGMENTS, MOTION_PIECE_BEVEL_STEPS)
    assert len(motion_i) < 0.5 * len(full_i)  # a software renderer pays for each triangle
    for v in (full_v, motion_v):
        radius = np.hypot(v[:, 0], v[:, 2])
        assert np.isclose(radius.max(), PIECE_RADIUS) and np.isclose(v[:, 1].max(), PIECE_HEIGHT)
        assert np.isclose(v[:, 1].min(), 0.0)
        assert np.allclose(np.linalg.norm(v[:, 3:], axis=1), 1.0)  # unit normals for the lighting
    # the same rim and top: each vertex of the plainer men lies on the full men's outline
    def outline(v):  # (radius, height) of each vertex
        return {(round(float(r), 4), round(float(y), 4)) for r, y in np.column_stack([np.hypot(v[:, 0], v[:, 2]), v[:, 1]])}

    assert outline(motion_v) <= outline(full_v)

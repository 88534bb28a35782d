"""The board renderer: draws a :class:`RenderState` at a time into a viewport (moderngl).

Small parts with one job each: :class:`Mesh` (a vertex array with an instance buffer) and
:class:`BoardRenderer` (which issues one draw per mesh type, and keeps the cached pictures up to
date). What a frame shows is worked out without GL elsewhere: the instance rows (``instances``),
the frame's matrices and rows (``frame``), the screen boxes it redraws (``boxes``); the cached
pictures themselves are ``pictures``. Everything it reads comes from the state and the time; it
changes neither.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import moderngl
import numpy as np

from engine import Variant

from .board_textures import BoardTextures
from .boxes import (
    band_end,
    board_edge_strips,
    bounding,
    changed_boxes,
    grow,
    intersect,
    moving_boxes,
    row_costs,
    scissor,
    touching,
    viewport_box,
)
from .frame import Frame, seen_flipped
from .geometry import LIGHT_DIR, board_mesh, half_extent, piece_mesh, ring_mesh
from .gl import is_software_renderer, picture_texture
from .materials import load_program, set_uniform
from .overlay import PixelCopy
from .picking import Viewport, pick_square, piece_heights
from .pictures import Build, Landing, Layers, Rows, Shown, ViewCache
from .state import RenderState

CLEAR_COLOUR = (0.12, 0.12, 0.13)

MAX_PIECES = 2 * 50 + 8  # every man of a 10x10 game stacked as kings, plus animation extras

# A software renderer's cost is mostly per pixel: while the camera moves it draws at this fraction
# of the resolution at most (a quarter of the pixels) and scales the picture up; less when it is
# slow (see pictures.ViewCache.adapt_scale).
SOFTWARE_MOTION_SCALE = 0.5
# When the camera stops, the cached pictures are rebuilt a band of rows at a time, each frame as
# many rows as its budget (seconds of finished work since the frame began) pays for at the cost the
# last band measured, so no frame stalls on a rebuild; a band has at least 1/BUILD_BANDS_MOST of the
# rows.
BUILD_BANDS_MOST = 24
BUILD_BUDGET_S = 0.005
# While a move is animated, what its end changes in the still picture is drawn ahead the same way,
# a band of at least 1/LANDING_BANDS_MOST of a changed box's rows at a time, within a budget of its
# own: most animating frames take 2 ms, and the bands fill a few of them up to about 3 ms instead of
# 2-5 ms in the frame where the piece comes to rest (1280x800 on llvmpipe)
LANDING_BANDS_MOST = 8
LANDING_BUDGET_S = 0.003
# In a band of the still picture a pixel in a piece's box costs about this many of the board's
# (llvmpipe, 1280x800: an empty band of 50,000 pixels 2 ms, and 0.13 us more a pixel of pieces)
PIECE_PIXEL_COST = 3.0
# The reduced picture's men: 12 segments around, each rounded edge one (96 triangles, 224 with 16
# segments and the full edges: on llvmpipe at 1280x800 the pieces' share of a turning frame's scene
# went from 1.4-1.6 to 1.0-1.1 ms)
MOTION_PIECE_SEGMENTS = 12
MOTION_PIECE_BEVEL_STEPS = (1, 1)
WARM_SIZE = (320, 240)  # the warm-up's picture (see BoardRenderer._plan_warm_up)
FXAA_REACH = 8  # pixels around a pixel that fxaa.glsl may read (half its SPAN_MAX, plus a corner)
REDUCED_BLUR_PX = 8  # how far the reduced picture (at 0.3 of the resolution, scaled up) spreads a piece beyond its box


def _has_glint(eye, size: int) -> bool:
    """Whether the key light's highlight (lighting.glsl's, sharpness 300) shows anywhere on the top
    of a board of ``size`` seen from ``eye``: at the top's point nearest to where the light's mirror
    image lies. Only the second player's side and some orbits see it; the others skip its cost."""
    eye = np.asarray(eye, dtype=float)
    mirror = LIGHT_DIR * np.array([-1.0, 1.0, -1.0])  # the direction that sees the light reflected
    e = half_extent(size)
    p = eye - mirror * (eye[1] / mirror[1])
    p = np.array([min(max(p[0], -e), e), 0.0, min(max(p[2], -e), e)])
    view = (eye - p) / np.linalg.norm(eye - p)
    half = (LIGHT_DIR + view) / np.linalg.norm(LIGHT_DIR + view)
    return half[1] ** 300 * LIGHT_DIR[1] > 1 / 4096  # a fraction of a display step, at full gloss


class Mesh:
    """A vertex array: a static mesh plus an instance buffer rewritten each frame."""

    def __init__(self, ctx, program, vertices: np.ndarray, vertex_format: str, attributes: tuple,
                 indices: np.ndarray | None, instance_format: str, instance_attributes: tuple, max_instances: int):
        self.vbo = ctx.buffer(vertices.astype("f4").tobytes())
        self.ibo = ctx.buffer(indices.astype("i4").tobytes()) if indices is not None else None
        stride = sum(int(p.rstrip("f")) for p in instance_format.replace("/i", "").split()) * 4
        self.instances = ctx.buffer(reserve=stride * max_instances, dynamic=True)
        self.max_instances = max_instances
        self.vao = ctx.vertex_array(program, [(self.vbo, vertex_format, *attributes),
                                              (self.instances, instance_format, *instance_attributes)],
                                    index_buffer=self.ibo)

    def draw(self, rows: np.ndarray, mode=moderngl.TRIANGLES, vertices: int = -1) -> None:
        """Draw one instance per row of ``rows`` (float32, one row per instance)."""
        if len(rows) == 0:
            return
        rows = rows[: self.max_instances]
        self.instances.write(np.ascontiguousarray(rows, dtype="f4").tobytes())
        self.vao.render(mode, vertices=vertices, instances=len(rows))

    def release(self) -> None:
        for obj in (self.vao, self.vbo, self.ibo, self.instances):
            if obj is not None:
                obj.release()


@dataclass
class _WarmUp:
    """The shader warm-up (see BoardRenderer._plan_warm_up): its framebuffer, the states still to
    draw, and its own cached pictures."""

    fbo: moderngl.Framebuffer
    states: list[RenderState]
    view: ViewCache

    def release(self) -> None:
        self.view.release()
        for attachment in self.fbo.color_attachments:
            attachment.release()
        self.fbo.release()


class BoardRenderer:
    """Draws the board, pieces, markers and animations of a :class:`RenderState`.

    Create it once per GL context (``ctx = moderngl.create_context()`` after opening a pygame
    OPENGL window), then each frame call :meth:`draw` with the state, the time in seconds (the same
    clock the state's animations and camera moves were built with) and the board's
    :class:`Viewport`. ``samples`` asks for that much multisampling in an offscreen buffer
    (0 draws straight into the target; unavailable counts fall back to the largest supported).

    With ``background_textures`` (a window) a board image is made on a background thread (about a
    second of numpy): until it is ready a frame shows the board's other image of the same rules
    if there is one (numbers not yet written, say), else only the background, and the renderer is
    not settled. Without it (the offscreen tools, tests) the first frame makes it and waits (see
    :class:`BoardTextures`; ``texture_pixels`` is the images' size).
    """

    def __init__(self, ctx: moderngl.Context, variant: Variant | None = None, samples: int = 4,
                 texture_pixels: int | None = None, software: bool | None = None,
                 motion_scale: float | None = None, background_textures: bool = False):
        self.ctx = ctx
        self.background_textures = background_textures
        if software is None:
            software = is_software_renderer(ctx)
        # Multisampling costs a software renderer several times the frame (it shades every sample),
        # so there the still picture is smoothed once with FXAA instead.
        self.software = software
        self.samples = 0 if software or samples < 2 else min(samples, ctx.max_samples)
        if self.samples < 2:
            self.samples = 0
        self.fxaa = self.samples == 0 and samples >= 2
        self.motion_scale = (SOFTWARE_MOTION_SCALE if software else 1.0) if motion_scale is None else motion_scale
        self.build_budget_s = BUILD_BUDGET_S
        self.landing_budget_s = LANDING_BUDGET_S
        self.band_unit_s: dict[str, float] = {}  # what a unit of a band's cost took, last measured, per picture
        self.programs = {name: load_program(ctx, name) for name in ("board", "piece", "ring", "decal", "background",
                                                                      "present", "fxaa")}
        self.programs["board_glint"] = load_program(ctx, "board", ("GLINT",))
        self.programs["piece_motion"] = load_program(ctx, "piece", ("MOTION",))
        self.programs["fxaa_edges"] = load_program(ctx, "fxaa", ("EDGES",))
        self.edge_strips = ctx.buffer(reserve=12 * 6 * 2 * 4, dynamic=True)
        self.edge_strips_vao = ctx.vertex_array(self.programs["fxaa_edges"], [(self.edge_strips, "2f", "in_ndc")])
        pv, pi = piece_mesh()
        self.piece_mesh = Mesh(ctx, self.programs["piece"], pv, "3f 3f", ("in_position", "in_normal"), pi,
                               "4f 4f/i", ("in_place", "in_colour"), MAX_PIECES)
        # The reduced picture's pieces: fewer segments and plainer edges, which its pixels cannot tell
        # apart, for under half the triangles (a software renderer pays for each one), and a shader
        # without the details that fade out at its resolution anyway (piece.glsl's MOTION)
        pv, pi = piece_mesh(MOTION_PIECE_SEGMENTS, MOTION_PIECE_BEVEL_STEPS)
        self.motion_piece_mesh = Mesh(ctx, self.programs["piece_motion"], pv, "3f 3f", ("in_position", "in_normal"), pi,
                                      "4f 4f/i", ("in_place", "in_colour"), MAX_PIECES)
        rv, ri = ring_mesh()
        self.ring_mesh = Mesh(ctx, self.programs["ring"], rv, "2f", ("in_angles",), ri,
                              "4f 4f 4f/i", ("in_ring", "in_tube", "in_colour"), MAX_PIECES)
        corners = np.array([-1, -1, 1, -1, -1, 1, 1, 1], dtype="f4")
        self.decal_mesh = Mesh(ctx, self.programs["decal"], corners, "2f", ("in_corner",), None,
                               "4f 4f 4f/i", ("in_segment", "in_shape", "in_colour"), 512)
        self.empty_vao = {name: ctx.vertex_array(self.programs[name], [])
                          for name in ("background", "present", "fxaa")}
        self.pixel_copy = PixelCopy(ctx)  # how a whole picture goes into the target
        self._boards: dict[tuple, tuple] = {}  # (board size, program name) -> (vbo, vao)
        self.board_textures = BoardTextures(ctx, software, background_textures, texture_pixels)
        self._view = ViewCache(software)  # the pictures the frames keep (the warm-up keeps its own)
        self._warm: _WarmUp | None = None  # planned at the first frame of a software renderer
        if variant is not None:
            self.board_textures.make(variant, False, False)

    # --- cached resources -----------------------------------------------------------------------

    def _board_vao(self, size: int, program: str):
        if (size, program) not in self._boards:
            vbo = self.ctx.buffer(board_mesh(size).tobytes())
            vao = self.ctx.vertex_array(self.programs[program], [(vbo, "3f 3f 2f", "in_position", "in_normal", "in_uv")])
            self._boards[size, program] = (vbo, vao)
        return self._boards[size, program][1]

    # --- drawing --------------------------------------------------------------------------------

    def draw(self, state: RenderState, t: float, viewport: Viewport, target: moderngl.Framebuffer | None = None,
             kept: bool = False) -> None:
        """Draw ``state`` as it looks at time ``t`` into ``viewport`` of ``target`` (default: the
        context's screen; a depth buffer is not needed). Leaves depth testing and blending off.
        ``kept``: the target still holds, inside the viewport, what this renderer drew there last
        (nothing has drawn over it since: a window whose back buffer survives a flip).

        Two cached pictures keep frames cheap: the board alone (redrawn when the camera or the
        viewport changes) and the board with everything that stands still, both anti-aliased.
        Each frame copies the second and the moving pieces drawn over it; into a kept
        target it copies only where the last frame differs (where pieces moved or stood then, and
        where the still picture changed since). When a standing piece or a marker changes, only the
        squares around it are redrawn.

        While the camera moves, everything is drawn anew, at ``motion_scale`` of the
        resolution (software renderers: a third or so) and scaled up. When it stops, the cached pictures
        are rebuilt a band at a time over the next frames, which show the reduced picture until
        they are ready.
        """
        self._draw(state, t, viewport, target or self.ctx.screen, self._view, warm_up=True, kept=kept)

    def _draw(self, state: RenderState, t: float, viewport: Viewport, target, view: ViewCache,
              warm_up: bool = False, kept: bool = False) -> None:
        """:meth:`draw` with the pictures ``view`` keeps; ``warm_up``: take the warm-up's next steps
        first (the window's frames do, the warm-up's own don't)."""
        ctx = self.ctx
        shown, view.shown = (view.shown if kept else None), None  # (set again by _show_cached)
        cam = state.camera.at(t)
        # before anything is bound (see BoardTextures.usable)
        texture_key = self.board_textures.usable(state.position.variant, state.show_numbers, seen_flipped(cam))
        if texture_key is None:  # the board's image is still being made: the background meanwhile
            self._clear(target, viewport.gl())
            return
        if warm_up and self.software:
            self._warm_up(state)
        started = time.perf_counter()
        frame = Frame(state, t, cam, viewport.aspect, texture_key)
        camera_moving = view.previous_camera is not None and cam != view.previous_camera
        view.previous_camera = cam
        was_reduced, view.reduced_last = view.reduced_last, False
        try:
            if camera_moving:
                view.build = None
                self._draw_reduced(frame, viewport, target, view, None, camera_moving=True)
            elif self._cached_pictures_ready(frame, viewport, target, view, was_reduced, started, shown):
                assert view.layers is not None
                self._show_cached(frame, viewport, target, view, shown)
                if self.software:
                    self._draw_landing_ahead(frame, t, viewport, view, started)
        finally:
            # leave the target bound: moderngl rebinds the bound framebuffer after creating one, and
            # rebinding a cached layer released since (a resize) is a GL_INVALID_OPERATION
            target.use()
            ctx.scissor = None
            ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)

    def _clear(self, target, gl_viewport: tuple) -> None:
        """The background colour inside ``gl_viewport`` of ``target`` (bound, scissor left set)."""
        ctx = self.ctx
        target.use()
        ctx.viewport = ctx.scissor = gl_viewport
        ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)

    def _cached_pictures_ready(self, frame: Frame, viewport: Viewport, target, view: ViewCache, was_reduced: bool,
                               started: float, shown: Shown | None) -> bool:
        """Bring the cached pictures of a still camera up to date, or as far as this frame allows:
        True when they show this frame's state; False when this frame showed the reduced picture
        instead, while they are rebuilt band by band (a window, after the camera moved or the
        viewport changed), and on the frame that finishes them (copying the whole finished picture
        is the next frame's work, which a kept target spares the reduced picture's copy)."""
        gl_viewport = viewport.gl()
        vx, vy, w, h = gl_viewport
        layers = view.layers_for(self.ctx, (vx + w, vy + h), self.samples, self.fxaa)
        layers.viewport = gl_viewport
        board_key = (frame.camera, gl_viewport, frame.texture_key)
        still_key = (board_key, frame.still_key())
        if layers.board_key != board_key and not was_reduced and self.background_textures and view.build is None:
            # a window: show the reduced picture now and build the cached ones over the next frames
            self._draw_reduced(frame, viewport, target, view, shown)
            return False
        if layers.board_key != board_key and was_reduced and view.reduced is not None and view.reduced.viewport == gl_viewport:
            if view.build is None or view.build.board_key != board_key:
                view.build = Build(board_key, Rows(row_costs(gl_viewport, np.empty((0, 4)), 0.0)))
        elif view.build is not None and view.build.board_key != board_key:
            view.build = None
        if view.build is not None:
            # the next bands, unless the reduced picture had to be drawn again (pieces move meanwhile):
            # then this frame has had its share
            if self._draw_reduced(frame, viewport, target, view, shown) and self._advance_build(
                    frame, layers, view.build, still_key, started, at_least_one=True):
                view.build = None
            view.reduced_last = True
            return False
        if layers.board_key != board_key:
            self._build_board(frame, layers, viewport_box(gl_viewport))
            layers.board_key, layers.still_key = board_key, None
        if layers.still_key != still_key:
            landing = view.landing
            if landing is not None and landing.done and landing.key == still_key and landing.base == layers.still_key:
                self._land(layers, landing)
            else:
                boxes = [viewport_box(gl_viewport)]
                if layers.still_key is not None and layers.still_key[0] == board_key and layers.still_rows is not None:
                    boxes = changed_boxes(frame.view_proj_matrix, gl_viewport, layers.still_rows, frame.still_rows())
                self._build_still(frame, layers, boxes)
            layers.still_key, layers.still_rows = still_key, frame.still_rows()
        return True

    def _show_cached(self, frame: Frame, viewport: Viewport, target, view: ViewCache, shown: Shown | None) -> None:
        """Copy the still picture into ``target`` and draw the moving pieces over it. ``shown``: what
        the target holds from the last frame (ViewCache.shown), if it is kept; then the still
        picture is copied only where that differs: where the moving pieces were drawn, and where
        the still picture changed since. A copy of the whole view costs a software renderer a
        few ms; a moving piece's box, a few hundredths."""
        layers = view.layers
        assert layers is not None
        view.drop_reduced()  # until the camera moves again (see ViewCache.drop_reduced)
        gl_viewport = viewport.gl()
        boxes = moving_boxes(frame.view_proj_matrix, gl_viewport, frame.moving)
        if shown is not None and shown.picture is layers and shown.viewport == gl_viewport and layers.unshown is not None:
            rects = [scissor(box) for box in layers.unshown] + shown.boxes
        else:
            rects = [gl_viewport]
        if rects:
            self.pixel_copy.copy(target, layers.still_colour, rects)
        layers.unshown = []
        view.shown = Shown(layers, gl_viewport, boxes)
        if boxes:
            self._draw_moving(frame, view, gl_viewport, boxes, target)

    @property
    def is_settled(self) -> bool:
        """Whether the last :meth:`draw` showed the finished still picture: drawing the same state
        again (same camera, nothing animating) would give the same pixels, so a window may skip it."""
        view = self._view
        warming = self._warm is not None and bool(self._warm.states)
        return view.build is None and not view.reduced_last and not self.board_textures.pending and not warming

    def _warm_up(self, state: RenderState) -> None:
        """The warm-up's next step (planned at the first frame): a window (``background_textures``)
        takes one step per frame, so no frame takes all of it; otherwise the first frame takes them
        all. Each draws with the warm-up's own cached pictures, never the window's."""
        if self._warm is None:
            self._warm = self._plan_warm_up(state)
        warm = self._warm
        if not warm.states:
            return
        while warm.states:
            self._draw(warm.states.pop(0), 0.1, Viewport(0, 0, *WARM_SIZE), warm.fbo, warm.view)
            if self.background_textures:
                break
        if not warm.states:
            warm.view.release()

    def _plan_warm_up(self, state: RenderState) -> _WarmUp:
        """A run of every drawing path on a small picture, to be forgotten. A software renderer
        compiles a shader for each combination of program and state when first used, 0.1-0.2 s
        each: paid at the first frames rather than at the first move or camera drag."""
        from .animation import MoveAnimation

        # kept until release(): it is left bound, and moderngl rebinds the bound framebuffer after
        # creating one (a released one would be a GL_INVALID_OPERATION)
        # a picture like the window's: no depth buffer, the window's channel order
        fbo = self.ctx.framebuffer([picture_texture(self.ctx, WARM_SIZE, self.software)])
        camera = state.camera.at(0.0)
        still = replace(state, animation=None, camera=camera)
        move = next(iter(still.position.legal_moves()), None)
        states = [still]
        if move is not None:
            anim = MoveAnimation.build(still.position, move, start_time=0.0)
            moving = replace(still, position=still.position.play(move), animation=anim, last_move=move)
            states.append(moving)
        # the board's glint variant: seen from the side opposite the light (the same board image)
        glint = replace(still, camera=replace(camera, yaw=camera.base_yaw + 180))
        states += [replace(still, camera=camera.orbited(20, 0)), glint, glint,
                   replace(still, camera=camera.orbited(40, 0)), still, still]
        return _WarmUp(fbo, states, ViewCache(self.software))

    def _draw_scene(self, frame: Frame, fbo, mesh: Mesh | None = None) -> None:
        """Everything, directly: background, board, still pieces and markers, moving pieces."""
        self._draw_board(frame, frame.state.position.variant)
        self._draw_pieces(fbo, np.concatenate([frame.still.shadows, frame.markers]), frame.still.pieces,
                          frame.still.rings, mesh)
        if len(frame.moving.pieces):
            self._draw_pieces(fbo, frame.moving.shadows, frame.moving.pieces, frame.moving.rings, mesh)

    def _draw_reduced(self, frame: Frame, viewport: Viewport, target, view: ViewCache, shown: Shown | None,
                      camera_moving: bool = False) -> bool:
        """Show the scene drawn at ``motion_scale`` of the viewport's resolution, scaled up with
        linear filtering (at 1, a GPU's: copied as it is, with the full pieces and no dynamic scale,
        drawn in a picture of its own all the same as the target has no depth buffer). The reduced
        picture is kept, so a frame that would draw the same picture
        only copies it again (returns whether it did), and one that differs from it only in the
        moving pieces draws the scene again only around them, where they were and where they are.
        Once the camera has stopped, the picture of its last moving frame counts as the same: it
        ended there (an orbit drag) or a fraction of a pixel away (a transition eases out). Into a
        target that ``shown`` says shows it already nothing is copied; one that shows the same
        picture but for the moving pieces (pieces move while the cached pictures are rebuilt after
        the camera stopped) gets only their boxes."""
        ctx = self.ctx
        gl_viewport = viewport.gl()
        scale = view.scale_now = min(view.scale_now or self.motion_scale, self.motion_scale)
        reduced = view.reduced_for(ctx, gl_viewport, scale)
        key = (gl_viewport, frame.texture_key, frame.still_key(), frame.moving.pieces.tobytes())
        reused = reduced.key == key and not camera_moving
        if not reused:
            started = time.perf_counter()
            reduced.fbo.use()
            small = (0, 0, *reduced.size)
            moving = moving_boxes(frame.view_proj_matrix, small, frame.moving)
            ctx.viewport = ctx.scissor = small
            if not camera_moving and reduced.key is not None and reduced.key[:3] == key[:3]:
                # the same picture but for the moving pieces: drawn again only where they were and are
                # (a software renderer's cost is its pixels)
                ctx.scissor = bounding(reduced.moving + moving) if reduced.moving or moving else (0, 0, 0, 0)
            ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)
            lower = self.motion_scale < 1.0  # (at 1: the full pieces, no dynamic scale)
            self._draw_scene(frame, reduced.fbo, self.motion_piece_mesh if lower else None)
            ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
            reduced.key, reduced.moving = key, moving
            if camera_moving and lower:
                ctx.finish()  # a software renderer works lazily: the time is of finished work
                view.adapt_scale(time.perf_counter() - started, self.motion_scale)
        boxes = [] if camera_moving else moving_boxes(frame.view_proj_matrix, gl_viewport, frame.moving,
                                                     REDUCED_BLUR_PX)
        picture_key = (reduced.scale, frame.camera, key[:3])
        if shown is None or shown.picture is not reduced or shown.viewport != gl_viewport or shown.key != picture_key:
            rects = [gl_viewport]
        else:  # the same picture but (maybe) for the moving pieces: where they were and are
            rects = [] if reused else shown.boxes + boxes
        if rects:
            self.pixel_copy.copy_scaled(target, reduced.colour, gl_viewport, rects)
        view.shown = Shown(reduced, gl_viewport, boxes, picture_key)
        view.reduced_last = True
        return reused

    def _advance_build(self, frame: Frame, layers: Layers, build: Build, still_key, started: float,
                       at_least_one: bool) -> bool:
        """Draw the next bands of a spread-out rebuild while this frame's time budget lasts (at
        least one band when ``at_least_one``); True once both cached pictures are complete."""
        x, y, w, h = viewport = layers.viewport  # the build's (its board_key's)
        if build.still_key != still_key or build.still is None:  # something changed on the board meanwhile: its rows again
            build.still_key = still_key
            build.still = Rows(row_costs(viewport, frame.still_boxes(viewport)[0], PIECE_PIXEL_COST))
        least = -(-h // BUILD_BANDS_MOST)
        first = at_least_one
        self.ctx.finish()  # what the frame drew before is not the bands' cost
        for kind, rows in (("board", build.board), ("still", build.still)):
            while not rows.done:
                band_start = time.perf_counter()
                left = self.build_budget_s - (band_start - started)
                unit_s = self.band_unit_s.get(kind)
                end = band_end(rows.costs, rows.next, left / unit_s if unit_s else 0.0, least)
                cost = rows.costs[end] - rows.costs[rows.next]
                if not first and (unit_s is None or cost * unit_s > left):
                    return False
                first = False
                box = (x, y + rows.next, x + w, y + end)
                if kind == "board":
                    self._build_board(frame, layers, box)
                else:
                    self._build_still(frame, layers, [box])
                self.ctx.finish()  # the budget is for finished work: a software renderer works lazily
                self.band_unit_s[kind] = (time.perf_counter() - band_start) / cost
                rows.next = end
        layers.board_key, layers.still_key, layers.still_rows = build.board_key, still_key, frame.still_rows()
        return True

    def _draw_landing_ahead(self, frame: Frame, t: float, viewport: Viewport, view: ViewCache, started: float) -> None:
        """While a move is animated, draw what its end changes in the still picture into the
        view's :class:`Landing`, as many bands of rows as the frame's landing budget still pays for
        (as :meth:`_advance_build` does, at the cost per unit the last landing band measured), and
        at least one in a frame within the rebuild's budget, so that they are ready in time (a move
        is animated over 15 frames or more at the normal speed): the frame where the piece comes to
        rest copies them (:meth:`_land`) instead of drawing them. Planned once the still picture
        stands as it will until then, after the captured pieces have left it (they leave when the
        piece lands); planned again if it changes meanwhile."""
        anim = frame.state.animation
        layers = view.layers
        assert layers is not None and layers.still_key is not None and layers.still_rows is not None
        if anim is None or anim.is_done(t) or (anim.captured and t < anim.landed_time):
            return
        landing = view.landing_for(self.ctx, layers.size, layers.smoothed is not None)
        if landing.animation is not anim or landing.base != layers.still_key:
            end = Frame(frame.state, anim.end_time, frame.camera, viewport.aspect, frame.texture_key)
            bounds = viewport_box(layers.viewport)
            changed = changed_boxes(end.view_proj_matrix, layers.viewport, layers.still_rows, end.still_rows())
            boxes = [box for box in (intersect(b, bounds) for b in changed) if box is not None]
            pieces = end.still_boxes(layers.viewport)[0]
            landing.plan(anim, layers.still_key, (layers.still_key[0], end.still_key()), end, boxes,
                         [Rows(row_costs(scissor(box), pieces, PIECE_PIXEL_COST)) for box in boxes])
        if landing.done:
            return
        self.ctx.finish()  # what the frame drew before is not the bands' cost
        # one band whatever the landing's budget says, unless the frame is long already (the one
        # where a move arrives redraws the still picture where the piece left)
        first = time.perf_counter() - started < self.build_budget_s
        for (x0, y0, x1, y1), rows in zip(landing.boxes, landing.rows, strict=True):
            least = -(-(y1 - y0) // LANDING_BANDS_MOST)
            while not rows.done:
                band_start = time.perf_counter()
                left = self.landing_budget_s - (band_start - started)
                unit_s = self.band_unit_s.get("landing")
                end_row = band_end(rows.costs, rows.next, left / unit_s if unit_s else 0.0, least)
                cost = rows.costs[end_row] - rows.costs[rows.next]
                if not first and (left <= 0 or (unit_s is not None and cost * unit_s > left)):
                    return
                first = False
                self._build_still(landing.frame, layers, [(x0, y0 + rows.next, x1, y0 + end_row)], into=landing)
                self.ctx.finish()  # the budget is for finished work: a software renderer works lazily
                self.band_unit_s["landing"] = (time.perf_counter() - band_start) / cost
                rows.next = end_row

    def _land(self, layers: Layers, landing: Landing) -> None:
        """Bring the still picture to a move's end by copying what :meth:`_draw_landing_ahead` drew
        (as :meth:`_build_still` would have drawn it: its work picture a little wider than the
        boxes for FXAA's reads, the smoothed one inside them); the landing's plan is spent."""
        ctx = self.ctx
        bounds = viewport_box(layers.viewport)
        for box in landing.boxes:
            ctx.scissor = scissor(grow(box, FXAA_REACH if layers.smoothed is not None else 0, bounds))
            ctx.copy_framebuffer(layers.work, landing.work)  # colour and depth
            if layers.smoothed is not None and landing.smoothed is not None:
                ctx.scissor = scissor(box)
                ctx.copy_framebuffer(layers.smoothed, landing.smoothed)
        if layers.unshown is not None:
            layers.unshown += landing.boxes
        landing.plan(None, None, None, None, [])

    def _build_board(self, frame: Frame, layers: Layers, box) -> None:
        """Draw the board layer inside ``box`` (x0, y0, x1, y1 in GL pixels), FXAA-smoothed when
        the renderer uses FXAA (drawn a little wider, so the filter's reads are all drawn)."""
        ctx = self.ctx
        layers.unshown = None  # the still picture is made anew on this board
        bounds = viewport_box(layers.viewport)
        raw = layers.board_raw if layers.board_raw is not None else layers.board
        raw.use()
        ctx.viewport = layers.viewport
        ctx.scissor = scissor(grow(box, FXAA_REACH if raw is not layers.board else 0, bounds))
        ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)
        self._draw_board(frame, frame.state.position.variant)
        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        if raw is not layers.board:  # copy it into the board layer, smoothing its outline
            ctx.scissor = scissor(box)
            ctx.copy_framebuffer(layers.board_colour_fbo, layers.board_raw_colour_fbo)
            layers.board.use()  # sets the viewport and scissor to the whole layer's
            ctx.viewport, ctx.scissor = layers.viewport, scissor(box)
            layers.board_raw_colour.use(0)
            strips = board_edge_strips(frame.view_proj_matrix, layers.viewport, frame.state.position.variant.size)
            if strips is None:
                self.programs["fxaa"]["u_image"].value = 0
                self.empty_vao["fxaa"].render(moderngl.TRIANGLES, vertices=3)
            else:
                self.programs["fxaa_edges"]["u_image"].value = 0
                self.edge_strips.write(strips.tobytes())
                self.edge_strips_vao.render(moderngl.TRIANGLES, vertices=len(strips))

    def _build_still(self, frame: Frame, layers: Layers, boxes: list, into: Landing | None = None) -> None:
        """Redraw the still picture inside ``boxes`` (x0, y0, x1, y1): the board, then what stands
        on it, resolved or FXAA-smoothed around the pieces (the board was smoothed with its own
        layer and the markers are anti-aliased in their shader; a full pass would cost more than
        the rest). Copies between layers are blits, depth with colour: for a band's rows a scissored
        blit costs a software renderer about what a drawn copy does (``PixelCopy``: 0.2 ms).
        ``into``: draw into its pictures instead of the layers' own (on the layers' board)."""
        ctx = self.ctx
        out: Layers | Landing = layers if into is None else into
        if into is None and layers.unshown is not None:
            layers.unshown += boxes
        bounds = viewport_box(layers.viewport)
        wides = [grow(box, FXAA_REACH if out.smoothed is not None else 0, bounds) for box in boxes]
        rows = frame.still_rows()
        piece_boxes, ring_boxes, decal_boxes = frame.still_boxes(layers.viewport)
        ctx.viewport = layers.viewport
        self._set_camera_uniforms(frame)
        for wide in wides:  # one at a time: boxes may overlap, and blended shadows must not double
            ctx.scissor = scissor(wide)
            ctx.copy_framebuffer(out.work, layers.board)  # colour and depth
            out.work.use()  # sets the viewport and scissor to the whole layer's
            ctx.viewport, ctx.scissor = layers.viewport, scissor(wide)
            # only what reaches into the box: the rest would cost a software renderer its triangles
            self._draw_pieces(out.work, rows.shadows[touching(decal_boxes, wide)],
                              rows.pieces[touching(piece_boxes, wide)], rows.rings[touching(ring_boxes, wide)])
        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE | moderngl.BLEND)
        if out.resolved is not None:
            for box in boxes:
                ctx.scissor = scissor(box)
                ctx.copy_framebuffer(out.resolved, out.work)  # resolves colour and depth
        if out.smoothed is not None:
            for box in boxes:
                ctx.scissor = scissor(box)
                ctx.copy_framebuffer(out.smoothed, out.work_colour_fbo)
            out.smoothed.use()  # (the scissor is set below)
            ctx.viewport = layers.viewport
            out.work_colour.use(0)
            self.programs["fxaa"]["u_image"].value = 0
            for box in boxes:
                for piece_box in piece_boxes:
                    inside = intersect(piece_box, box)
                    if inside is not None:
                        ctx.scissor = scissor(inside)
                        self.empty_vao["fxaa"].render(moderngl.TRIANGLES, vertices=3)

    def _present(self, colour: moderngl.Texture, depth: moderngl.Texture, offset: tuple[int, int]) -> None:
        """Copy a layer's colour and depth pixel for pixel into the bound framebuffer (the stage: it
        may not take a blit of depth), inside the scissor, the layer's pixel at ``offset`` from
        the framebuffer's; leaves depth testing off."""
        ctx = self.ctx
        ctx.enable(moderngl.DEPTH_TEST)  # depth is only written with the test on
        ctx.depth_func = "1"  # always
        colour.use(0)
        depth.use(1)
        self.programs["present"]["u_image"].value = 0
        self.programs["present"]["u_depth"].value = 1
        self.programs["present"]["u_offset"].value = offset
        self.empty_vao["present"].render(moderngl.TRIANGLES, vertices=3)
        ctx.depth_func = "<"
        ctx.disable(moderngl.DEPTH_TEST)

    def _set_camera_uniforms(self, frame: Frame) -> None:
        for name in ("board", "board_glint", "piece", "piece_motion", "ring", "decal"):
            prog = self.programs[name]
            prog["u_view_proj"].write(frame.view_proj)
            set_uniform(prog, "u_light_dir", tuple(LIGHT_DIR))
            set_uniform(prog, "u_eye", frame.eye)

    def _draw_board(self, frame: Frame, variant: Variant) -> None:
        """The background and the board block (into the bound framebuffer)."""
        ctx = self.ctx
        texture = self.board_textures[frame.texture_key]
        self._set_camera_uniforms(frame)
        ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
        self.empty_vao["background"].render(moderngl.TRIANGLES, vertices=3)
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        texture.use(0)
        program = "board_glint" if _has_glint(frame.eye, variant.size) else "board"
        self.programs[program]["u_board"].value = 0
        self._board_vao(variant.size, program).render(moderngl.TRIANGLES)

    def _draw_moving(self, frame: Frame, view: ViewCache, gl_viewport: tuple, boxes: list, target) -> None:
        """The pieces being animated, with their shadows, over the still picture inside each of
        ``boxes`` (GL rectangles of the target) of ``target``. Each box is drawn in the view's stage:
        the still picture's colour and depth there (so that the pieces hide behind standing ones),
        the pieces over it, then copied into the target."""
        ctx = self.ctx
        layers = view.layers
        assert layers is not None
        self._set_camera_uniforms(frame)
        vx, vy, vw, vh = gl_viewport
        for x, y, w, h in boxes:
            stage = view.stage_for(ctx, (w, h))
            stage.fbo.use()
            ctx.viewport = (vx - x, vy - y, vw, vh)  # the box's corner at the stage's
            ctx.scissor = (0, 0, w, h)
            self._present(layers.still_colour, layers.still_depth, (x, y))
            self._draw_pieces(stage.fbo, frame.moving.shadows, frame.moving.pieces, frame.moving.rings)
            ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
            self.pixel_copy.copy_scaled(target, stage.colour, (x, y, *stage.size), [(x, y, w, h)])

    def _draw_pieces(self, fbo, decals, pieces, rings, mesh: Mesh | None = None) -> None:
        ctx = self.ctx
        # marks on the board: blended over it, behind the pieces, writing no depth
        ctx.disable(moderngl.CULL_FACE)
        ctx.enable(moderngl.DEPTH_TEST | moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        fbo.depth_mask = False
        self.decal_mesh.draw(decals, moderngl.TRIANGLE_STRIP, 4)
        fbo.depth_mask = True
        ctx.disable(moderngl.BLEND)
        ctx.enable(moderngl.CULL_FACE)
        (mesh or self.piece_mesh).draw(pieces)
        ctx.disable(moderngl.CULL_FACE)  # the squashed torus is cheap enough to draw both sides
        self.ring_mesh.draw(rings)

    # --- input support --------------------------------------------------------------------------

    def pick(self, state: RenderState, t: float, viewport: Viewport, x: float, y: float) -> int | None:
        """The square under window pixel (x, y) as the board is drawn at time ``t``; None off it."""
        return pick_square(state.position.variant, state.camera.at(t), viewport, x, y,
                           piece_heights(state.position.pieces()))

    def release(self) -> None:
        """Free the GL objects (the context itself belongs to the caller)."""
        for mesh in (self.piece_mesh, self.motion_piece_mesh, self.ring_mesh, self.decal_mesh):
            mesh.release()
        self.edge_strips_vao.release()
        self.edge_strips.release()
        for vbo, vao in self._boards.values():
            vao.release()
            vbo.release()
        self.board_textures.release()
        self._view.release()
        if self._warm is not None:
            self._warm.release()
        for vao in self.empty_vao.values():
            vao.release()
        self.pixel_copy.release()
        for prog in self.programs.values():
            prog.release()

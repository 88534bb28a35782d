"""The renderer's cached pictures (GL framebuffers) and what a draw keeps between frames.

:class:`Layers` holds the board and the still scene of one viewport size; :class:`Reduced` the
picture drawn at a reduced resolution while the camera moves; :class:`Stage` where moving pieces
are drawn over the still picture; :class:`Build` a rebuild of the layers spread over frames;
:class:`Landing` the still picture's changes at the end of a move, drawn while it is animated;
:class:`ViewCache` all of these for one target, with the last camera and the dynamic scale. The
window's frames keep one ViewCache, the shader warm-up another.

The window has no depth buffer: whatever needs one is drawn in these pictures and copied into it.
"""

from __future__ import annotations

from dataclasses import dataclass

import moderngl
import numpy as np

from .camera import Camera
from .gl import picture_texture
from .instances import Instances

# Dynamic resolution while the camera moves: the reduced picture's scale steps down (to
# MOTION_SCALE_MIN) when a frame takes longer than MOTION_FRAME_S, up again when it is quick.
# The floor is for the eye: the scene's cost keeps falling with the scale (1280x800 on llvmpipe, issued
# and finished: 1.4 ms at 0.2, 2.3 at 0.3, 3.0 at 0.4), but below 0.3 the turning board blurs.
MOTION_SCALE_MIN = 0.3
MOTION_SCALE_STEP = 0.05
# The reduced scene's drawing alone (finished): the frame adds its enlarged copy into the window and
# the flip (2-2.5 ms together at 1280x800 on llvmpipe), within 8 ms. 2 ms instead keeps the scale at
# its floor on a 2-core machine and gave the same camera frames (four interleaved runs).
MOTION_FRAME_S = 0.0025
STAGE_STEP = 64  # the stage grows in steps of this many pixels each way


class Layers:
    """The cached pictures of one viewport size, laid out like the target so they copy into it 1:1.

    board: background and board. work: board plus the still pieces and markers (multisampled when
    ``samples``). The still picture the frames copy is ``still_colour``/``still_depth``: the work
    buffer itself, its multisample resolve, or its FXAA-smoothed copy.
    """

    def __init__(self, ctx, size: tuple[int, int], samples: int, fxaa: bool, bgra: bool = False):
        self.size = size
        self.viewport = (0, 0, *size)  # the GL viewport the pictures were drawn for
        self.board_key: tuple | None = None
        self.still_key: tuple | None = None
        self.still_rows: Instances | None = None  # what the still picture shows (for partial updates)
        # boxes (x0, y0, x1, y1) where the still picture changed since a target last showed it; None:
        # all of it (see BoardRenderer._show_cached)
        self.unshown: list | None = None
        self._owned: list = []

        def own(obj):
            self._owned.append(obj)
            return obj

        def texture(depth=False):
            tex = own(ctx.depth_texture(size) if depth else picture_texture(ctx, size, bgra))
            tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
            if depth:
                tex.compare_func = ""  # read as plain values, not as a shadow comparison
            return tex

        def buffers():
            if samples:
                return own(ctx.framebuffer([own(ctx.renderbuffer(size, 4, samples=samples))],
                                           own(ctx.depth_renderbuffer(size, samples=samples))))
            return None

        self.resolved = self.smoothed = self.board_raw = self.board_colour = self.board_depth = None
        if samples:
            self.board, self.work = buffers(), buffers()
            self.still_colour, self.still_depth = texture(), texture(depth=True)
            self.resolved = own(ctx.framebuffer([self.still_colour], self.still_depth))
        else:
            self.board_colour, self.board_depth = texture(), texture(depth=True)
            self.board = own(ctx.framebuffer([self.board_colour], self.board_depth))
            self.work_colour, self.still_depth = texture(), texture(depth=True)
            self.work = own(ctx.framebuffer([self.work_colour], self.still_depth))
            self.still_colour = self.work_colour
            if fxaa:
                self.work_colour.filter = (moderngl.LINEAR, moderngl.LINEAR)
                self.work_colour_fbo = own(ctx.framebuffer([self.work_colour]))
                self.still_colour = texture()
                self.smoothed = own(ctx.framebuffer([self.still_colour]))
                self.board_raw_colour = texture()
                self.board_raw_colour.filter = (moderngl.LINEAR, moderngl.LINEAR)
                # the board is drawn here with its depth, then copied into the board layer, its
                # outline smoothed (colour-only framebuffers for the copy: the depth is shared)
                self.board_raw = own(ctx.framebuffer([self.board_raw_colour], self.board_depth))
                self.board_raw_colour_fbo = own(ctx.framebuffer([self.board_raw_colour]))
                self.board_colour_fbo = own(ctx.framebuffer([self.board_colour]))

    def release(self) -> None:
        for obj in reversed(self._owned):
            obj.release()
        self._owned = []


class Reduced:
    """The picture drawn at reduced resolution while the camera moves, for the GL ``viewport``:
    a frame shows it enlarged by a linearly filtered pass (``PixelCopy.copy_scaled``).

    Enlarging on the GPU side, even a software one, beats doing it on the CPU (reading the picture
    back, pygame's smoothscale, writing a full-size texture and copying that pixel for pixel): the
    same picture, and on llvmpipe at 1280x800 (``--bench-window``) 0.5-1 ms less a frame while the
    camera turns or pieces move over the reduced picture (median and p95); the linear pass costs
    about 0.5 ms more than the pixel-for-pixel copy, the CPU's part it saves 1-1.5 ms.
    """

    def __init__(self, ctx, viewport: tuple[int, int, int, int], scale: float, bgra: bool = False):
        self.ctx = ctx
        self.viewport = viewport
        self.bgra = bgra
        self.scale: float | None = None
        self.key: tuple | None = None  # what the picture shows (BoardRenderer._draw_reduced)
        self.moving: list = []  # where its moving pieces are drawn (GL rectangles in the reduced picture)
        self.rescale(scale)

    def rescale(self, scale: float) -> None:
        """Draw at ``scale`` from now on: new buffers of that size."""
        if scale == self.scale:
            return
        if self.scale is not None:
            self.release()
        _, _, w, h = self.viewport
        self.scale = scale
        self.size = (max(1, round(w * scale)), max(1, round(h * scale)))
        self.key = None
        self.colour: moderngl.Texture = picture_texture(self.ctx, self.size, self.bgra)
        self.colour.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.colour.repeat_x = self.colour.repeat_y = False  # an edge's pixels blend with their own side only
        self.depth: moderngl.Renderbuffer = self.ctx.depth_renderbuffer(self.size)
        self.fbo: moderngl.Framebuffer = self.ctx.framebuffer([self.colour], self.depth)

    def release(self) -> None:
        for obj in (self.fbo, self.depth, self.colour):
            obj.release()


class Stage:
    """Where moving pieces are drawn over the still picture, a box at a time, before the box is
    copied into the target (which has no depth buffer: see the module's doc): a colour picture and
    a depth buffer of ``size``, at least a box's."""

    def __init__(self, ctx, size: tuple[int, int], bgra: bool = False):
        self.size = size
        self.colour: moderngl.Texture = picture_texture(ctx, size, bgra)
        self.colour.filter = (moderngl.NEAREST, moderngl.NEAREST)  # copied pixel for pixel
        self.depth: moderngl.Renderbuffer = ctx.depth_renderbuffer(size)
        self.fbo: moderngl.Framebuffer = ctx.framebuffer([self.colour], self.depth)

    def release(self) -> None:
        for obj in (self.fbo, self.depth, self.colour):
            obj.release()


@dataclass
class Shown:
    """What a target shows since the last frame: the still picture of ``picture`` (:class:`Layers`)
    or the :class:`Reduced` picture, in the GL ``viewport``, with the moving pieces in ``boxes``
    (scissor rectangles) over it; for a reduced picture ``key`` is (its scale, its camera, what it
    shows besides the moving pieces)."""

    picture: Layers | Reduced
    viewport: tuple
    boxes: list
    key: tuple | None = None


@dataclass
class Rows:
    """The rows of a picture still to draw, bottom up: ``costs``, what drawing them costs
    cumulated (see boxes.row_costs); ``next``, the first row not drawn yet."""

    costs: np.ndarray
    next: int = 0

    @property
    def done(self) -> bool:
        return self.next == len(self.costs) - 1


class Build:
    """A rebuild of the cached pictures for ``board_key``, a band of rows at a time: the board's
    first (the still picture copies the board), then the still picture's (for ``still_key``, with
    its costs)."""

    def __init__(self, board_key, board: Rows):
        self.board_key = board_key
        self.board = board
        self.still_key: tuple | None = None
        self.still: Rows | None = None


class Landing:
    """The still picture's changes when a move's animation ends, drawn ahead in pictures of their
    own (laid out like :class:`Layers` of ``size``) while it runs, a band of rows at a time: the
    frame where the piece comes to rest copies them into the still picture instead of drawing them.

    A plan is for one ``animation`` and the still picture it was made against (``base``, a
    still key): ``key`` is the still key at the end, ``frame`` the end's :class:`Frame`, ``boxes``
    (x0, y0, x1, y1) what changes, each with its :class:`Rows` still to draw."""

    def __init__(self, ctx, size: tuple[int, int], fxaa: bool, bgra: bool = False):
        self.size = size
        self.resolved = None  # (a multisampled renderer draws its still changes at once)
        self.work_colour = picture_texture(ctx, size, bgra)
        self.work_colour.filter = (moderngl.LINEAR, moderngl.LINEAR) if fxaa else (moderngl.NEAREST, moderngl.NEAREST)
        self.depth = ctx.depth_texture(size)
        self.work = ctx.framebuffer([self.work_colour], self.depth)
        self._owned = [self.work, self.depth, self.work_colour]
        self.smoothed = None
        if fxaa:
            self.work_colour_fbo = ctx.framebuffer([self.work_colour])
            self.smoothed_colour = picture_texture(ctx, size, bgra)
            self.smoothed = ctx.framebuffer([self.smoothed_colour])
            self._owned = [self.smoothed, self.smoothed_colour, self.work_colour_fbo, *self._owned]
        self.plan(None, None, None, None, [])

    def plan(self, animation, base, key, frame, boxes: list, rows: list[Rows] | None = None) -> None:
        self.animation, self.base, self.key, self.frame, self.boxes = animation, base, key, frame, boxes
        self.rows = rows or []

    @property
    def done(self) -> bool:
        return self.animation is not None and all(rows.done for rows in self.rows)

    def release(self) -> None:
        for obj in self._owned:
            obj.release()
        self._owned = []


class ViewCache:
    """What drawing keeps between frames for one target: the cached :class:`Layers`, the last
    :class:`Reduced` picture and whether the last frame showed it, a :class:`Build` in progress,
    the last camera and the reduced picture's scale now (dynamic: see :meth:`adapt_scale`); the
    :class:`Stage` for moving pieces, the :class:`Landing` of a move animated. ``bgra``: its
    pictures' textures in that order (see :func:`picture_texture`)."""

    def __init__(self, bgra: bool = False):
        self.bgra = bgra
        self.layers: Layers | None = None
        self.reduced: Reduced | None = None
        self.stage: Stage | None = None
        self.landing: Landing | None = None
        self.reduced_last = False
        self.build: Build | None = None
        self.previous_camera: Camera | None = None
        self.scale_now: float | None = None
        self.shown: Shown | None = None  # what the target shows since the last frame (None: unknown)

    def layers_for(self, ctx, size: tuple[int, int], samples: int, fxaa: bool) -> Layers:
        """The layers for a target of ``size``, made anew when the size changed."""
        if self.layers is None or self.layers.size != size:
            if self.layers is not None:
                self.layers.release()
            self.layers = Layers(ctx, size, samples, fxaa, self.bgra)
        return self.layers

    def reduced_for(self, ctx, viewport: tuple[int, int, int, int], scale: float) -> Reduced:
        """The reduced picture for the GL ``viewport`` at ``scale``, made anew when the viewport changed."""
        if self.reduced is None or self.reduced.viewport != viewport:
            if self.reduced is not None:
                self.reduced.release()
            self.reduced = Reduced(ctx, viewport, scale, self.bgra)
        self.reduced.rescale(scale)
        return self.reduced

    def stage_for(self, ctx, size: tuple[int, int]) -> Stage:
        """A stage at least ``size`` (made anew, larger, when a box does not fit the last one)."""
        if self.stage is None or size[0] > self.stage.size[0] or size[1] > self.stage.size[1]:
            have = self.stage.size if self.stage is not None else (0, 0)
            w, h = (-(-max(want, had) // STAGE_STEP) * STAGE_STEP for want, had in zip(size, have, strict=True))
            if self.stage is not None:
                self.stage.release()
            self.stage = Stage(ctx, (w, h), self.bgra)
        return self.stage

    def landing_for(self, ctx, size: tuple[int, int], fxaa: bool) -> Landing:
        """The landing pictures for layers of ``size`` (made anew, without a plan, when it changed)."""
        if self.landing is None or self.landing.size != size:
            if self.landing is not None:
                self.landing.release()
            self.landing = Landing(ctx, size, fxaa, self.bgra)
        return self.landing

    def drop_reduced(self) -> None:
        """Free the reduced picture: the cached pictures are complete and show the still camera.
        Its buffers would otherwise wait for the next camera move, which makes them again at once."""
        if self.reduced is not None:
            self.reduced.release()
            self.reduced = None

    def adapt_scale(self, seconds: float, limit: float) -> None:
        """Dynamic resolution: steer the next moving frames' scale (in steps, each a new reduced
        picture, at most ``limit``) so drawing one takes about ``MOTION_FRAME_S``, whatever else the
        machine runs; ``seconds`` is what the last one took."""
        assert self.scale_now is not None
        scale = self.scale_now
        if seconds > 1.25 * MOTION_FRAME_S:
            scale -= MOTION_SCALE_STEP
        elif seconds < 0.6 * MOTION_FRAME_S:
            scale += MOTION_SCALE_STEP
        self.scale_now = round(min(max(scale, MOTION_SCALE_MIN), limit), 2)

    def release(self) -> None:
        """Free the pictures' GL objects (the cache can be used again: it makes new ones)."""
        for pictures in (self.layers, self.reduced, self.stage, self.landing):
            if pictures is not None:
                pictures.release()
        self.layers = self.reduced = self.stage = self.landing = None

"""The board renderer: draws a :class:`RenderState` at a time into a viewport (moderngl).

Small parts with one job each: :class:`Mesh` (a vertex array with an instance buffer),
:class:`BoardRenderer` (which builds the per-frame instance lists and issues one draw per mesh
type). Everything it reads comes from the state and the time; it changes neither.
"""

from __future__ import annotations

import time
from itertools import pairwise
from typing import NamedTuple

import moderngl
import numpy as np

from engine import Color, Piece, Variant

from .animation import LIFT_HEIGHT, captured_poses, crown_pose, is_crown_landed, piece_pose
from .camera import Camera
from .geometry import BOARD_THICKNESS, PIECE_HEIGHT, PIECE_RADIUS, board_mesh, half_extent, piece_mesh, ring_mesh, square_center
from .materials import load_program, set_uniform
from .picking import Viewport, pick_square, piece_heights
from .state import RenderState
from .textures import board_image, board_image_future, default_pixels, forget_image

LIGHT_DIR = np.array([-0.45, 0.80, 0.40]) / np.linalg.norm([-0.45, 0.80, 0.40])
CLEAR_COLOUR = (0.12, 0.12, 0.13)

# Piece colours (display gamma) and lacquer gloss. The dark side is a deep red-brown, the light side
# cream: far apart in lightness so they read at a glance in both views and on either wood.
PIECE_COLOURS = {
    "dark": (0.23, 0.085, 0.06, 1.0),
    "light": (0.94, 0.88, 0.74, 0.6),
}
GOLD = (1.0, 0.78, 0.34, 1.0)

# Marker colours (display gamma, alpha) and sizes in squares.
TARGET_DOT = ((0.30, 0.86, 0.36, 0.92), 0.13)
FINAL_RING = ((0.30, 0.86, 0.36, 0.95), 0.36, 0.29)
MUST_CAPTURE_RING = ((1.0, 0.80, 0.28, 0.95), 0.49, 0.425)
CAPTURED_RING = ((0.92, 0.16, 0.10, 0.95), 0.20, 0.145)
LAST_MOVE_LINE = ((1.0, 0.56, 0.12, 1.0), 0.05)  # opaque, so the joins don't show
ENTERED_PATH = ((1.0, 0.80, 0.28, 0.95), 0.045, 0.12)  # a capture partly entered: line width, stop dot
CURSOR_SQUARE = ((0.40, 0.78, 1.0, 0.95), 0.485, 0.435)
SHADOW = (0.0, 0.0, 0.0)

DECAL_SHADOW_Y, DECAL_MARK_Y = 0.0015, 0.003
KIND_DISC, KIND_RING, KIND_SQUARE, KIND_SHADOW = 0.0, 1.0, 2.0, 3.0
MAX_PIECES = 2 * 50 + 8  # every man of a 10x10 game stacked as kings, plus animation extras

# A software renderer's cost is mostly per pixel: while the camera moves it draws at this fraction
# of the resolution at most (a quarter of the pixels) and scales the picture up; less, down to
# MOTION_SCALE_MIN, when a frame at that scale takes longer than MOTION_FRAME_S (a busy machine).
SOFTWARE_MOTION_SCALE = 0.5
MOTION_SCALE_MIN = 0.3
MOTION_SCALE_STEP = 0.05
MOTION_FRAME_S = 0.010
# When the camera stops, the cached pictures are rebuilt in this many bands, as many a frame as fit
# in the budget (seconds of finished work), so no frame stalls on a whole rebuild.
BUILD_BANDS = 12
BUILD_BUDGET_S = 0.006
MOTION_PIECE_SEGMENTS = 16
WARM_SIZE = (320, 240)  # the warm-up's picture (see BoardRenderer._start_warm_up)
# what a draw keeps between frames for the picture it draws into (the warm-up keeps its own)
_VIEW_STATE = ("_layers", "_reduced", "_reduced_last", "_build", "_previous_camera", "_scale_now")
FXAA_REACH = 8  # pixels around a pixel that fxaa.glsl may read (half its SPAN_MAX, plus a corner)


def piece_colour(variant: Variant, color: Color):
    """The display colour of a side's pieces: the dark pieces are Black's in both games."""
    return PIECE_COLOURS["dark" if color is Color.BLACK else "light"]


def is_software_renderer(ctx) -> bool:
    """Whether the context renders on the CPU (Mesa llvmpipe/softpipe, SwiftShader, ...)."""
    name = ctx.info.get("GL_RENDERER", "").lower()
    return any(word in name for word in ("llvmpipe", "softpipe", "swiftshader", "software", "swrast"))


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


def _board_edge_strips(view_proj: np.ndarray, viewport: tuple, size: int, pixels: float = 3.0) -> np.ndarray | None:
    """Triangles (NDC x, y; float32 rows) covering ``pixels`` either side of the 12 edges of a
    board block of ``size``, as projected into the GL ``viewport`` (x, y, w, h): where FXAA has
    anything to smooth on the board. None when a corner is behind the camera."""
    e, t = half_extent(size), BOARD_THICKNESS
    corners = np.array([(x, y, z, 1.0) for x in (-e, e) for y in (0.0, -t) for z in (-e, e)]) @ view_proj.T
    if np.any(corners[:, 3] <= 1e-6):
        return None
    half = np.array([viewport[2], viewport[3]]) / 2
    px = corners[:, :2] / corners[:, 3:4] * half
    triangles = []
    for i in range(8):
        for j in range(i + 1, 8):
            if bin(i ^ j).count("1") != 1:  # corners joined by an edge differ in one coordinate
                continue
            d = px[j] - px[i]
            length = np.hypot(*d)
            if length < 1e-6:
                continue
            d *= pixels / length
            n = np.array([-d[1], d[0]])
            a, b = px[i] - d, px[j] + d
            triangles += [a + n, a - n, b - n, a + n, b - n, b + n]
    return (np.array(triangles) / half).astype("f4")


def _project_boxes(view_proj: np.ndarray, viewport: tuple, points: np.ndarray) -> np.ndarray:
    """GL pixel boxes (x0, y0, x1, y1) around each group of world points ((n, k, 3)), two pixels
    wider, clipped to the GL ``viewport`` (x, y, w, h); an (n, 4) int array (rows may be empty
    boxes). A group reaching behind the camera gets the whole viewport."""
    vx, vy, w, h = viewport
    clip = np.concatenate([points, np.ones(points.shape[:2] + (1,))], axis=2) @ view_proj.T
    behind = np.any(clip[..., 3] <= 1e-6, axis=1)
    ndc = clip[..., :2] / np.maximum(clip[..., 3:4], 1e-6)
    lo, hi = ndc.min(axis=1), ndc.max(axis=1)
    boxes = np.stack([np.floor(vx + (lo[:, 0] + 1) / 2 * w) - 2, np.floor(vy + (lo[:, 1] + 1) / 2 * h) - 2,
                      np.ceil(vx + (hi[:, 0] + 1) / 2 * w) + 2, np.ceil(vy + (hi[:, 1] + 1) / 2 * h) + 2], axis=1)
    boxes[behind] = (vx, vy, vx + w, vy + h)
    return np.clip(boxes, [vx, vy, vx, vy], [vx + w, vy + h, vx + w, vy + h]).astype(int)


def _piece_boxes(view_proj: np.ndarray, viewport: tuple, pieces: np.ndarray, margin: float = 0.06) -> np.ndarray:
    """Boxes around piece rows (x, y, z, scale, ...), with room for a king's stack."""
    r = PIECE_RADIUS + margin
    corners = np.array([(dx, dy, dz) for dx in (-r, r) for dz in (-r, r) for dy in (0.0, 1.0)])
    p = pieces[:, None, :3] + corners[None] * np.array([1.0, 0.0, 1.0]) * pieces[:, None, 3:4]
    p[..., 1] += corners[None, :, 1] * (2 * PIECE_HEIGHT * pieces[:, None, 3] + margin)
    return _project_boxes(view_proj, viewport, p)


def _ring_boxes(view_proj: np.ndarray, viewport: tuple, rings: np.ndarray) -> np.ndarray:
    """Boxes around ring rows (x, y, z, major radius, tube radius, ...)."""
    r = rings[:, 3:4] + rings[:, 4:5] + 0.02
    t = rings[:, 4:5] + 0.02
    corners = np.array([(dx, dy, dz) for dx in (-1, 1) for dz in (-1, 1) for dy in (-1, 1)], dtype=float)
    p = rings[:, None, :3] + corners[None] * np.stack([r, t, r], axis=2)
    return _project_boxes(view_proj, viewport, p)


def _decal_boxes(view_proj: np.ndarray, viewport: tuple, decals: np.ndarray) -> np.ndarray:
    """Boxes around decal rows (segment x0, z0, x1, z1; outer radius, inner, height, kind; ...),
    at least as wide as the quads decal.glsl draws, one per row."""
    r = decals[:, 4] * 1.45 + 0.02
    x0, x1 = np.minimum(decals[:, 0], decals[:, 2]) - r, np.maximum(decals[:, 0], decals[:, 2]) + r
    z0, z1 = np.minimum(decals[:, 1], decals[:, 3]) - r, np.maximum(decals[:, 1], decals[:, 3]) + r
    y = decals[:, 6]
    p = np.stack([np.stack([x, y, z], axis=1) for x in (x0, x1) for z in (z0, z1)], axis=1)
    return _project_boxes(view_proj, viewport, p)


def _decal_part_boxes(view_proj: np.ndarray, viewport: tuple, decals: np.ndarray) -> np.ndarray:
    """Boxes that together cover decal rows, a long segment getting one per square of its length
    (a single box around a diagonal line would cover a large part of the board)."""
    parts = []
    for row in decals:
        n = max(1, int(np.ceil(np.hypot(row[2] - row[0], row[3] - row[1]))))
        for k in range(n):
            part = row.copy()
            part[0:2] = row[0:2] + (row[2:4] - row[0:2]) * (k / n)
            part[2:4] = row[0:2] + (row[2:4] - row[0:2]) * ((k + 1) / n)
            parts.append(part)
    return _decal_boxes(view_proj, viewport, np.array(parts, dtype="f4").reshape(-1, decals.shape[1]))


def _touching(boxes: np.ndarray, box) -> np.ndarray:
    """Which of ``boxes`` ((n, 4) x0, y0, x1, y1) overlap ``box``, as a boolean mask."""
    return (boxes[:, 0] < box[2]) & (box[0] < boxes[:, 2]) & (boxes[:, 1] < box[3]) & (box[1] < boxes[:, 3])


def _box(viewport: tuple) -> tuple[int, int, int, int]:
    """A GL viewport (x, y, w, h) as a box (x0, y0, x1, y1)."""
    x, y, w, h = viewport
    return x, y, x + w, y + h


def _scissor(box) -> tuple[int, int, int, int]:
    """A box (x0, y0, x1, y1) as a GL scissor rectangle (x, y, w, h)."""
    return box[0], box[1], box[2] - box[0], box[3] - box[1]


def _grow(box, pixels: int, bounds) -> tuple[int, int, int, int]:
    """``box`` widened by ``pixels`` on every side, within ``bounds``."""
    return (max(box[0] - pixels, bounds[0]), max(box[1] - pixels, bounds[1]),
            min(box[2] + pixels, bounds[2]), min(box[3] + pixels, bounds[3]))


def _intersect(a, b) -> tuple[int, int, int, int] | None:
    """The overlap of two boxes; None when they do not overlap."""
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[2] > box[0] and box[3] > box[1] else None


def _merge_boxes(boxes: list, waste: float | None = None) -> list[tuple[int, int, int, int]]:
    """Boxes merged until none overlap (so one box never repaints another's piece); with
    ``waste``, instead any two whose bounding box is at most ``waste`` times their areas' sum."""
    def area(b):
        return (b[2] - b[0]) * (b[3] - b[1])

    boxes = [list(b) for b in boxes]
    merged = True
    while merged:  # a few dozen boxes at most
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                union = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                if (area(union) <= waste * (area(a) + area(b)) if waste is not None
                        else a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]):
                    boxes[i] = union
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [tuple(b) for b in boxes]


def _bands(viewport: tuple, count: int) -> list[tuple[int, int, int, int]]:
    """The GL ``viewport`` cut into ``count`` horizontal bands, as boxes."""
    x, y, w, h = viewport
    edges = [y + round(h * i / count) for i in range(count + 1)]
    return [(x, a, x + w, b) for a, b in pairwise(edges) if b > a]


def _mat_bytes(m: np.ndarray) -> bytes:
    return np.ascontiguousarray(m.T, dtype="f4").tobytes()  # GLSL matrices are column-major


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
    not settled. Without it (the offscreen tools, tests) the first frame makes it and waits.
    """

    def __init__(self, ctx: moderngl.Context, variant: Variant | None = None, samples: int = 4,
                 texture_pixels: int | None = None, software: bool | None = None,
                 motion_scale: float | None = None, background_textures: bool = False):
        self.ctx = ctx
        self.background_textures = background_textures
        self._texture_pending = False  # the last frame waited for a board image
        if software is None:
            software = is_software_renderer(ctx)
        # Multisampling costs a software renderer several times the frame (it shades every sample),
        # so there the still picture is smoothed once with FXAA instead.
        self.software = software
        self.samples = 0 if software or samples < 2 else min(samples, ctx.max_samples)
        if self.samples < 2:
            self.samples = 0
        self.fxaa = self.samples == 0 and samples >= 2
        self.texture_pixels = texture_pixels
        self.motion_scale = (SOFTWARE_MOTION_SCALE if software else 1.0) if motion_scale is None else motion_scale
        self.build_budget_s = BUILD_BUDGET_S
        self.programs = {name: load_program(ctx, name) for name in ("board", "board_bake", "piece", "ring", "decal",
                                                                      "background", "present", "fxaa")}
        self.programs["board_glint"] = load_program(ctx, "board", ("GLINT",))
        self.programs["piece_motion"] = load_program(ctx, "piece", ("MOTION",))
        self.programs["fxaa_edges"] = load_program(ctx, "fxaa", ("EDGES",))
        self.edge_strips = ctx.buffer(reserve=12 * 6 * 2 * 4, dynamic=True)
        self.edge_strips_vao = ctx.vertex_array(self.programs["fxaa_edges"], [(self.edge_strips, "2f", "in_ndc")])
        pv, pi = piece_mesh()
        self.piece_mesh = Mesh(ctx, self.programs["piece"], pv, "3f 3f", ("in_position", "in_normal"), pi,
                               "4f 4f/i", ("in_place", "in_colour"), MAX_PIECES)
        # The reduced picture's pieces: half the segments, which its pixels cannot tell apart, for
        # half the triangles (a software renderer pays for each one), and a shader without the
        # details that fade out at its resolution anyway (piece.glsl's MOTION)
        pv, pi = piece_mesh(MOTION_PIECE_SEGMENTS)
        self.motion_piece_mesh = Mesh(ctx, self.programs["piece_motion"], pv, "3f 3f", ("in_position", "in_normal"), pi,
                                      "4f 4f/i", ("in_place", "in_colour"), MAX_PIECES)
        rv, ri = ring_mesh()
        self.ring_mesh = Mesh(ctx, self.programs["ring"], rv, "2f", ("in_angles",), ri,
                              "4f 4f 4f/i", ("in_ring", "in_tube", "in_colour"), MAX_PIECES)
        corners = np.array([-1, -1, 1, -1, -1, 1, 1, 1], dtype="f4")
        self.decal_mesh = Mesh(ctx, self.programs["decal"], corners, "2f", ("in_corner",), None,
                               "4f 4f 4f/i", ("in_segment", "in_shape", "in_colour"), 512)
        self.empty_vao = {name: ctx.vertex_array(self.programs[name], [])
                          for name in ("background", "board_bake", "present", "fxaa")}
        self._boards: dict[tuple, tuple] = {}  # (board size, program name) -> (vbo, vao)
        self._textures: dict[tuple, moderngl.Texture] = {}
        self._baking: dict[tuple, moderngl.Texture] = {}  # lit, without mipmaps yet (see _usable_texture)
        self._bake_fbos: list[moderngl.Framebuffer] = []  # the textures' (see _bake_lighting)
        self._layers: _Layers | None = None
        self._previous_camera: Camera | None = None
        self._reduced: _Reduced | None = None  # the last picture drawn at reduced resolution
        self._reduced_last = False  # whether the last frame showed it
        self._scale_now: float | None = None  # its scale now (dynamic: see _adapt_scale)
        self._warm = False  # whether the warm-up was planned (see _start_warm_up)
        self._warm_fbo = None
        self._warm_states: list[RenderState] = []  # its states still to draw
        self._warm_view: dict | None = None  # its own cached pictures (the names in _VIEW_STATE)
        self._warming = False
        self._build: _Build | None = None  # a rebuild of the cached pictures spread over frames
        if variant is not None:
            self._board_texture(variant, False, False)

    # --- cached resources -----------------------------------------------------------------------

    def _board_vao(self, size: int, program: str):
        if (size, program) not in self._boards:
            vbo = self.ctx.buffer(board_mesh(size).tobytes())
            vao = self.ctx.vertex_array(self.programs[program], [(vbo, "3f 3f 2f", "in_position", "in_normal", "in_uv")])
            self._boards[size, program] = (vbo, vao)
        return self._boards[size, program][1]

    def _pixels(self, variant: Variant) -> int:
        return self.texture_pixels or default_pixels(variant)

    @staticmethod
    def _texture_key(variant: Variant, numbers: bool, flipped: bool) -> tuple:
        return (variant.name, numbers, flipped and numbers)

    def _usable_texture(self, variant: Variant, numbers: bool, flipped: bool) -> tuple | None:
        """The key of the board texture a frame should use now (see the class docstring): the one
        asked for, or while that is being made another of the same rules; None when there is none.
        In the background a finished image is lit on one frame and gets its mipmaps on the next
        (each a few hundred ms for a software renderer)."""
        key = self._texture_key(variant, numbers, flipped)
        self._texture_pending = False
        if key in self._textures:
            return key
        if not self.background_textures:
            self._board_texture(variant, numbers, flipped)
            return key
        pixels = self._pixels(variant)
        if key in self._baking:  # usable from the next frame on: this one has had its share
            self._textures[key] = self._finish_texture(self._baking.pop(key))
        else:
            future = board_image_future(variant, pixels, numbers, flipped)
            if future.done():
                self._baking[key] = self._bake_lighting(future.result())
                self.ctx.finish()  # a software renderer draws lazily: the lighting's cost stays in this frame
                forget_image(variant, pixels, numbers, flipped)
        self._texture_pending = True
        return next((k for k in self._textures if k[0] == variant.name and k != key), None)

    def _board_texture(self, variant: Variant, numbers: bool, flipped: bool) -> moderngl.Texture:
        key = self._texture_key(variant, numbers, flipped)
        if key not in self._textures:
            image = board_image(variant, self._pixels(variant), numbers=numbers, flipped=flipped)
            self._textures[key] = self._finish_texture(self._bake_lighting(image))
        return self._textures[key]

    def _finish_texture(self, tex: moderngl.Texture) -> moderngl.Texture:
        tex.build_mipmaps()
        # a software renderer pays for every texel read: bilinear from one mip level reads
        # half of trilinear's, and the difference does not show on wood grain
        tex.filter = (moderngl.LINEAR_MIPMAP_NEAREST if self.software else moderngl.LINEAR_MIPMAP_LINEAR,
                      moderngl.LINEAR)
        tex.anisotropy = 1.0 if self.software else 8.0  # anisotropic filtering is slow in software
        tex.repeat_x = tex.repeat_y = False
        return tex

    def _bake_lighting(self, image: np.ndarray) -> moderngl.Texture:
        """The board image lit (board_bake.glsl), as a new texture. Binds a framebuffer of its own
        (kept with the texture: moderngl may rebind it later, a released one would be an error), so
        it runs before a frame binds anything."""
        ctx = self.ctx
        h, w = image.shape[:2]
        raw = ctx.texture((w, h), 4, image.tobytes())
        tex = ctx.texture((w, h), 4)
        fbo = ctx.framebuffer([tex])
        self._bake_fbos.append(fbo)
        try:
            fbo.use()
            ctx.viewport, ctx.scissor = (0, 0, w, h), None
            ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
            prog = self.programs["board_bake"]
            set_uniform(prog, "u_light_dir", tuple(LIGHT_DIR))
            raw.use(0)
            prog["u_image"].value = 0
            self.empty_vao["board_bake"].render(moderngl.TRIANGLES, vertices=3)
        finally:
            raw.release()
        return tex

    def _layers_for(self, width: int, height: int) -> "_Layers":
        if self._layers is None or self._layers.size != (width, height):
            if self._layers is not None:
                self._layers.release()
            self._layers = _Layers(self.ctx, (width, height), self.samples, self.fxaa)
        return self._layers

    # --- drawing --------------------------------------------------------------------------------

    def draw(self, state: RenderState, t: float, viewport: Viewport, target: moderngl.Framebuffer | None = None) -> None:
        """Draw ``state`` as it looks at time ``t`` into ``viewport`` of ``target`` (default: the
        context's screen, which needs a depth buffer). Leaves depth testing and blending off.

        Two cached pictures keep frames cheap: the board alone (redrawn when the camera or the
        viewport changes) and the board with everything that stands still, both anti-aliased.
        Each frame copies the second (a blit) and draws only the moving pieces over it. When a
        standing piece or a marker changes, only the squares around it are redrawn.

        While the camera moves, everything is drawn directly, at ``motion_scale`` of the
        resolution (software renderers: half) and scaled up. When it stops, the cached pictures
        are rebuilt a band at a time over the next frames, which show the reduced picture until
        they are ready.
        """
        ctx = self.ctx
        target = target or ctx.screen
        cam = state.camera.at(t)
        flipped = _seen_flipped(cam)
        # before anything is bound (see _bake_lighting)
        texture_key = self._usable_texture(state.position.variant, state.show_numbers, flipped)
        if texture_key is None:  # the board's image is still being made: the background meanwhile
            target.use()
            ctx.viewport = ctx.scissor = viewport.gl()
            ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)
            ctx.scissor = None
            return
        if self.software and not self._warm:
            self._start_warm_up(state)
        if self._warm_states and not self._warming:
            self._warming = True
            try:
                self._warm_step()
                while self._warm_states and not self.background_textures:
                    self._warm_step()
            finally:
                self._warming = False
        started = time.perf_counter()
        frame = _Frame(self, state, t, cam, viewport.aspect, texture_key)
        gl_viewport = viewport.gl()
        camera_moving = self._previous_camera is not None and cam != self._previous_camera
        self._previous_camera = cam
        was_reduced, self._reduced_last = self._reduced_last, False
        try:
            if camera_moving:
                self._build = None
                if self.motion_scale < 1.0:
                    self._draw_reduced(frame, viewport, target, camera_moving=True)
                else:
                    target.use()
                    ctx.viewport = ctx.scissor = gl_viewport
                    ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)
                    self._draw_scene(frame, target)
                return
            vx, vy, w, h = gl_viewport
            layers = self._layers_for(vx + w, vy + h)
            layers.viewport = gl_viewport
            board_key = (cam, gl_viewport, texture_key)
            still_key = (board_key, frame.still_key())
            if layers.board_key != board_key and not was_reduced and self.background_textures and self._build is None:
                # a window: show the reduced picture now and build the cached ones over the next frames
                self._draw_reduced(frame, viewport, target)
                return
            if layers.board_key != board_key and was_reduced and self._reduced.viewport == gl_viewport:
                if self._build is None or self._build.board_key != board_key:
                    self._build = _Build(board_key, _bands(gl_viewport, BUILD_BANDS))
            elif self._build is not None and self._build.board_key != board_key:
                self._build = None
            if self._build is not None:
                reused = self._draw_reduced(frame, viewport, target)
                if not self._advance_build(frame, layers, still_key, started, at_least_one=reused):
                    self._reduced_last = True
                    return
                self._build = None
            if layers.board_key != board_key:
                self._build_board(frame, layers, (vx, vy, vx + w, vy + h))
                layers.board_key, layers.still_key = board_key, None
            if layers.still_key != still_key:
                boxes = [(vx, vy, vx + w, vy + h)]
                if layers.still_key is not None and layers.still_key[0] == board_key:
                    boxes = self._changed_boxes(frame, viewport, layers.still_rows)
                self._build_still(frame, layers, boxes)
                layers.still_key, layers.still_rows = still_key, frame.still_rows()
            target.use()
            ctx.viewport = ctx.scissor = gl_viewport
            ctx.copy_framebuffer(target, layers.still_colour_fbo)  # the blit obeys the scissor
            for box in self._moving_boxes(frame, viewport):
                # The moving pieces must hide behind still ones: restore the still depth, but only
                # around them (a full-screen depth copy would cost more than the blit).
                ctx.scissor = box
                self._present(layers.still_colour, layers.still_depth)
                ctx.enable(moderngl.DEPTH_TEST)
                self._draw_moving(frame, target)
        finally:
            # leave the target bound: moderngl rebinds the bound framebuffer after creating one, and
            # rebinding a cached layer released since (a resize) is a GL_INVALID_OPERATION
            target.use()
            ctx.scissor = None
            ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)

    @property
    def is_settled(self) -> bool:
        """Whether the last :meth:`draw` showed the finished still picture: drawing the same state
        again (same camera, nothing animating) would give the same pixels, so a window may skip it."""
        return self._build is None and not self._reduced_last and not self._texture_pending and not self._warm_states

    def _start_warm_up(self, state: RenderState) -> None:
        """Plan a run of every drawing path on a small picture, to be forgotten. A software renderer
        compiles a shader for each combination of program and state when first used, 0.1-0.2 s
        each: paid at the first frames rather than at the first move or camera drag. A window
        (``background_textures``) takes one step per frame, so no frame takes all of it; otherwise
        the first frame takes them all."""
        from dataclasses import replace

        from .animation import MoveAnimation

        self._warm = True
        # kept until release(): it is left bound, and moderngl rebinds the bound framebuffer after
        # creating one (a released one would be a GL_INVALID_OPERATION)
        self._warm_fbo = self.ctx.framebuffer([self.ctx.renderbuffer(WARM_SIZE, 4)],
                                              self.ctx.depth_renderbuffer(WARM_SIZE))
        still = replace(state, animation=None, camera=state.camera.at(0.0))
        move = next(iter(still.position.legal_moves()), None)
        states = [still]
        if move is not None:
            anim = MoveAnimation.build(still.position, move, start_time=0.0)
            moving = replace(still, position=still.position.play(move), animation=anim, last_move=move)
            states.append(moving)
        # the board's glint variant: seen from the side opposite the light (the same board image)
        glint = replace(still, camera=replace(still.camera, yaw=still.camera.base_yaw + 180))
        states += [replace(still, camera=still.camera.orbited(20, 0)), glint, glint,
                   replace(still, camera=still.camera.orbited(40, 0)), still, still]
        self._warm_states = states
        self._warm_view = {name: None for name in _VIEW_STATE}
        self._warm_view["_reduced_last"] = False

    def _warm_step(self) -> None:
        """Draw the next warm-up state with the warm-up's own cached pictures (the window's stay)."""
        real = {name: getattr(self, name) for name in _VIEW_STATE}
        for name, value in self._warm_view.items():
            setattr(self, name, value)
        try:
            self.draw(self._warm_states.pop(0), 0.1, Viewport(0, 0, *WARM_SIZE), target=self._warm_fbo)
        finally:
            self._warm_view = {name: getattr(self, name) for name in _VIEW_STATE}
            for name, value in real.items():
                setattr(self, name, value)
            if not self._warm_states:
                for layers in (self._warm_view["_layers"], self._warm_view["_reduced"]):
                    if layers is not None:
                        layers.release()
                self._warm_view = None

    def _draw_scene(self, frame: "_Frame", fbo, mesh: Mesh | None = None) -> None:
        """Everything, directly: background, board, still pieces and markers, moving pieces."""
        self._draw_board(frame, frame.state.position.variant)
        self._draw_pieces(fbo, np.concatenate([frame.still.shadows, frame.markers]), frame.still.pieces,
                          frame.still.rings, mesh)
        if len(frame.moving.pieces):
            self._draw_pieces(fbo, frame.moving.shadows, frame.moving.pieces, frame.moving.rings, mesh)

    def _draw_reduced(self, frame: "_Frame", viewport: Viewport, target, camera_moving: bool = False) -> bool:
        """Show the scene drawn at ``motion_scale`` of the viewport's resolution, scaled up with
        linear filtering. The reduced picture is kept, so a frame that would draw the same picture
        only scales it up again; returns whether it did. Once the camera has stopped, the picture
        of its last moving frame counts as the same: it ended there (an orbit drag) or a
        fraction of a pixel away (a transition eases out)."""
        ctx = self.ctx
        gl_viewport = viewport.gl()
        scale = self._scale_now = min(self._scale_now or self.motion_scale, self.motion_scale)
        if self._reduced is None or self._reduced.viewport != gl_viewport:
            if self._reduced is not None:
                self._reduced.release()
            self._reduced = _Reduced(ctx, gl_viewport, scale)
        reduced = self._reduced
        reduced.rescale(scale)
        size = reduced.size
        key = (gl_viewport, frame.texture_key, frame.still_key(), frame.moving.pieces.tobytes())
        reused = reduced.key == key and not camera_moving
        if not reused:
            started = time.perf_counter()
            reduced.fbo.use()
            ctx.viewport = ctx.scissor = (0, 0, *size)
            ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)
            self._draw_scene(frame, reduced.fbo, self.motion_piece_mesh)
            ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
            reduced.scale_up()  # reads the picture back, so the time below is of finished work
            reduced.key = key
            if camera_moving:
                self._adapt_scale(time.perf_counter() - started)
        target.use()
        ctx.viewport = ctx.scissor = gl_viewport
        ctx.copy_framebuffer(target, reduced.large_fbo)  # the blit obeys the scissor
        self._reduced_last = True
        return reused

    def _adapt_scale(self, seconds: float) -> None:
        """Dynamic resolution: steer the next moving frames' scale (in steps, each a new reduced
        picture) so drawing one takes about ``MOTION_FRAME_S``, whatever else the machine runs."""
        scale = self._scale_now
        if seconds > 1.25 * MOTION_FRAME_S:
            scale -= MOTION_SCALE_STEP
        elif seconds < 0.6 * MOTION_FRAME_S:
            scale += MOTION_SCALE_STEP
        self._scale_now = round(min(max(scale, MOTION_SCALE_MIN), self.motion_scale), 2)

    def _advance_build(self, frame: "_Frame", layers: "_Layers", still_key, started: float, at_least_one: bool) -> bool:
        """Do the next bands of a spread-out rebuild until this frame's time budget is spent (at
        least one band when ``at_least_one``); True once both cached pictures are complete."""
        build = self._build
        if build.still_key != still_key:  # something changed on the board meanwhile: its bands again
            build.still_key, build.still_bands = still_key, list(build.bands)
        first, last_band_s = at_least_one, 0.0
        while build.board_bands or build.still_bands:
            band_start = time.perf_counter()
            if not first and band_start - started + last_band_s > self.build_budget_s:
                return False
            first = False
            if build.board_bands:
                self._build_board(frame, layers, build.board_bands.pop(0))
            else:
                self._build_still(frame, layers, [build.still_bands.pop(0)])
            self.ctx.finish()  # the budget is for finished work: a software renderer works lazily
            last_band_s = time.perf_counter() - band_start
        layers.board_key, layers.still_key, layers.still_rows = build.board_key, still_key, frame.still_rows()
        return True

    def _build_board(self, frame: "_Frame", layers: "_Layers", box) -> None:
        """Draw the board layer inside ``box`` (x0, y0, x1, y1 in GL pixels), FXAA-smoothed when
        the renderer uses FXAA (drawn a little wider, so the filter's reads are all drawn)."""
        ctx = self.ctx
        bounds = _box(layers.viewport)
        raw = layers.board_raw if layers.board_raw is not None else layers.board
        raw.use()
        ctx.viewport = layers.viewport
        ctx.scissor = _scissor(_grow(box, FXAA_REACH if raw is not layers.board else 0, bounds))
        ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)
        self._draw_board(frame, frame.state.position.variant)
        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        if raw is not layers.board:  # copy it into the board layer, smoothing its outline
            ctx.scissor = _scissor(box)
            ctx.copy_framebuffer(layers.board_colour_fbo, layers.board_raw_colour_fbo)
            layers.board.use()  # sets the viewport and scissor to the whole layer's
            ctx.viewport, ctx.scissor = layers.viewport, _scissor(box)
            layers.board_raw_colour.use(0)
            strips = _board_edge_strips(frame.view_proj_matrix, layers.viewport, frame.state.position.variant.size)
            if strips is None:
                self.programs["fxaa"]["u_image"].value = 0
                self.empty_vao["fxaa"].render(moderngl.TRIANGLES, vertices=3)
            else:
                self.programs["fxaa_edges"]["u_image"].value = 0
                self.edge_strips.write(strips.tobytes())
                self.edge_strips_vao.render(moderngl.TRIANGLES, vertices=len(strips))

    def _build_still(self, frame: "_Frame", layers: "_Layers", boxes: list) -> None:
        """Redraw the still picture inside ``boxes`` (x0, y0, x1, y1): the board, then what stands
        on it, resolved or FXAA-smoothed around the pieces (the board was smoothed with its own
        layer and the markers are anti-aliased in their shader; a full pass would cost more than
        the rest). Copies are blits: a software renderer copies memory for them, where a
        present.glsl pass would cost as much as drawing a textured board."""
        ctx = self.ctx
        bounds = _box(layers.viewport)
        wides = [_grow(box, FXAA_REACH if layers.smoothed is not None else 0, bounds) for box in boxes]
        rows = frame.still_rows()
        piece_boxes, ring_boxes, decal_boxes = frame.still_boxes(layers.viewport)
        ctx.viewport = layers.viewport
        self._set_camera_uniforms(frame)
        for wide in wides:  # one at a time: boxes may overlap, and blended shadows must not double
            ctx.scissor = _scissor(wide)
            ctx.copy_framebuffer(layers.work, layers.board)  # colour and depth
            layers.work.use()  # sets the viewport and scissor to the whole layer's
            ctx.viewport, ctx.scissor = layers.viewport, _scissor(wide)
            # only what reaches into the box: the rest would cost a software renderer its triangles
            self._draw_pieces(layers.work, rows.shadows[_touching(decal_boxes, wide)],
                              rows.pieces[_touching(piece_boxes, wide)], rows.rings[_touching(ring_boxes, wide)])
        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE | moderngl.BLEND)
        if layers.resolved is not None:
            for box in boxes:
                ctx.scissor = _scissor(box)
                ctx.copy_framebuffer(layers.resolved, layers.work)  # resolves colour and depth
        if layers.smoothed is not None:
            for box in boxes:
                ctx.scissor = _scissor(box)
                ctx.copy_framebuffer(layers.smoothed, layers.work_colour_fbo)
            layers.smoothed.use()  # (the scissor is set below)
            ctx.viewport = layers.viewport
            layers.work_colour.use(0)
            self.programs["fxaa"]["u_image"].value = 0
            for box in boxes:
                for piece_box in piece_boxes:
                    inside = _intersect(piece_box, box)
                    if inside is not None:
                        ctx.scissor = _scissor(inside)
                        self.empty_vao["fxaa"].render(moderngl.TRIANGLES, vertices=3)

    def _present(self, colour: moderngl.Texture, depth: moderngl.Texture) -> None:
        """Copy a layer's colour and depth pixel for pixel into the bound framebuffer (the
        caller's: it may not take a blit of depth), inside the scissor; leaves depth testing off."""
        ctx = self.ctx
        ctx.enable(moderngl.DEPTH_TEST)  # depth is only written with the test on
        ctx.depth_func = "1"  # always
        colour.use(0)
        depth.use(1)
        self.programs["present"]["u_image"].value = 0
        self.programs["present"]["u_depth"].value = 1
        self.empty_vao["present"].render(moderngl.TRIANGLES, vertices=3)
        ctx.depth_func = "<"
        ctx.disable(moderngl.DEPTH_TEST)

    @staticmethod
    def _changed_boxes(frame: "_Frame", viewport: Viewport, old: "Instances") -> list[tuple[int, int, int, int]]:
        """Boxes (x0, y0, x1, y1) around every piece, ring and mark that the still picture gains or
        loses; the whole viewport when that is most of it. Boxes are merged only where that costs
        few extra pixels (each box costs a few draws; the bounding box of a long line of the last
        move and a ring may be many times their area). Overlaps need no merging: redrawing a box
        redraws all that reaches into it, so they come out the same."""
        new = frame.still_rows()
        vp = viewport.gl()
        boxes = []
        for rows_old, rows_new, boxes_of in ((old.pieces, new.pieces, _piece_boxes), (old.rings, new.rings, _ring_boxes),
                                             (old.shadows, new.shadows, _decal_part_boxes)):
            before = {r.tobytes() for r in rows_old}
            after = {r.tobytes() for r in rows_new}
            changed = [r for r in rows_old if r.tobytes() not in after] + [r for r in rows_new if r.tobytes() not in before]
            if changed:
                boxes += [tuple(b) for b in boxes_of(frame.view_proj_matrix, vp, np.array(changed))]
        boxes = _merge_boxes([b for b in boxes if b[2] > b[0] and b[3] > b[1]], waste=1.3)
        if sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) > 0.5 * vp[2] * vp[3]:
            return [_box(vp)]
        return boxes

    def _moving_boxes(self, frame: "_Frame", viewport: Viewport) -> list[tuple[int, int, int, int]]:
        """GL scissor boxes (x, y, w, h), clipped to the viewport, that cover the moving pieces and
        their shadows: one per piece, overlapping ones merged (so one box never repaints another's
        piece). Empty when nothing moves."""
        moving = frame.moving
        if len(moving.pieces) == 0:
            return []
        r = PIECE_RADIUS + 0.06
        vx, vy, w, h = viewport.gl()
        boxes = []
        for (x, y, z, scale), (sx, sz, _sx, _sz, outer) in zip(moving.pieces[:, :4], moving.shadows[:, :5], strict=False):
            top = y + 2 * PIECE_HEIGHT * scale + 0.06  # room for a king's stack and its ring
            pts = [(x + dx * scale, yy, z + dz * scale, 1.0) for dx in (-r, r) for dz in (-r, r) for yy in (y, top)]
            pts += [(sx + dx, 0.0, sz + dz, 1.0) for dx in (-outer, outer) for dz in (-outer, outer)]
            clip = np.array(pts) @ frame.view_proj_matrix.T
            if np.any(clip[:, 3] <= 1e-6):
                return [viewport.gl()]
            ndc = clip[:, :2] / clip[:, 3:4]
            box = [int(np.floor(vx + (ndc[:, 0].min() + 1) / 2 * w)) - 2, int(np.floor(vy + (ndc[:, 1].min() + 1) / 2 * h)) - 2,
                   int(np.ceil(vx + (ndc[:, 0].max() + 1) / 2 * w)) + 2, int(np.ceil(vy + (ndc[:, 1].max() + 1) / 2 * h)) + 2]
            box = [max(box[0], vx), max(box[1], vy), min(box[2], vx + w), min(box[3], vy + h)]
            if box[2] > box[0] and box[3] > box[1]:
                boxes.append(box)
        boxes = _merge_boxes(boxes)
        return [(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]

    def _set_camera_uniforms(self, frame: "_Frame") -> None:
        for name in ("board", "board_glint", "piece", "piece_motion", "ring", "decal"):
            prog = self.programs[name]
            prog["u_view_proj"].write(frame.view_proj)
            set_uniform(prog, "u_light_dir", tuple(LIGHT_DIR))
            set_uniform(prog, "u_eye", frame.eye)

    def _draw_board(self, frame: "_Frame", variant: Variant) -> None:
        """The background and the board block (into the bound framebuffer)."""
        ctx = self.ctx
        texture = self._textures[frame.texture_key]
        self._set_camera_uniforms(frame)
        ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
        self.empty_vao["background"].render(moderngl.TRIANGLES, vertices=3)
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        texture.use(0)
        program = "board_glint" if _has_glint(frame.eye, variant.size) else "board"
        self.programs[program]["u_board"].value = 0
        self._board_vao(variant.size, program).render(moderngl.TRIANGLES)

    def _draw_moving(self, frame: "_Frame", fbo) -> None:
        """The pieces being animated, with their shadows (into the bound fbo, depth test on)."""
        if len(frame.moving.pieces) == 0:
            return
        self._set_camera_uniforms(frame)
        self._draw_pieces(fbo, frame.moving.shadows, frame.moving.pieces, frame.moving.rings)

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
        for tex in (*self._textures.values(), *self._baking.values()):
            tex.release()
        for fbo in self._bake_fbos:
            fbo.release()
        for layers in (self._layers, self._reduced, *(self._warm_view or {}).values()):
            if isinstance(layers, (_Layers, _Reduced)):
                layers.release()
        if self._warm_fbo is not None:
            for attachment in (*self._warm_fbo.color_attachments, self._warm_fbo.depth_attachment):
                attachment.release()
            self._warm_fbo.release()
        for vao in self.empty_vao.values():
            vao.release()
        for prog in self.programs.values():
            prog.release()


class _Layers:
    """The cached pictures of one viewport size, laid out like the target so a blit copies them 1:1.

    board: background and board. work: board plus the still pieces and markers (multisampled when
    ``samples``). The still picture the frames copy is ``still_colour``/``still_depth``: the work
    buffer itself, its multisample resolve, or its FXAA-smoothed copy.
    """

    def __init__(self, ctx, size: tuple[int, int], samples: int, fxaa: bool):
        self.size = size
        self.viewport = (0, 0, *size)  # the GL viewport the pictures were drawn for
        self.board_key = self.still_key = None
        self.still_rows: Instances | None = None  # what the still picture shows (for partial updates)
        self._owned = []

        def own(obj):
            self._owned.append(obj)
            return obj

        def texture(depth=False):
            tex = own(ctx.depth_texture(size) if depth else ctx.texture(size, 4))
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
        self.still_colour_fbo = own(ctx.framebuffer([self.still_colour]))

    def release(self) -> None:
        for obj in reversed(self._owned):
            obj.release()
        self._owned = []


class _Reduced:
    """The picture drawn at reduced resolution while the camera moves, and its copy scaled up to
    the GL ``viewport`` (in a layer laid out like the target, so a blit shows it).

    The scaling is done on the CPU (pygame's smoothscale, SIMD code): a software renderer pays
    about as much for a full-window textured pass, or a scaling blit, as for drawing the scene
    at full resolution, but copies a same-size picture for almost nothing.
    """

    def __init__(self, ctx, viewport: tuple[int, int, int, int], scale: float):
        import pygame

        vx, vy, w, h = viewport
        self.ctx = ctx
        self.viewport = viewport
        self.large = pygame.Surface((w, h), 0, pygame.image.frombuffer(bytearray(4), (1, 1), "RGBA"))  # as the reduced
        self.large_colour = ctx.texture((vx + w, vy + h), 4)
        self.large_fbo = ctx.framebuffer([self.large_colour])
        self.scale = None
        self.rescale(scale)

    def rescale(self, scale: float) -> None:
        """Draw at ``scale`` from now on: new reduced buffers, the full-size ones kept (a dynamic
        scale changes often, and allocating those costs a software renderer several ms)."""
        import pygame

        if scale == self.scale:
            return
        if self.scale is not None:
            for obj in (self.fbo, self.depth, self.colour):
                obj.release()
        vx, vy, w, h = self.viewport
        self.scale = scale
        self.size = (max(1, round(w * scale)), max(1, round(h * scale)))
        self.key = None
        self.colour = self.ctx.texture(self.size, 4)
        self.depth = self.ctx.depth_renderbuffer(self.size)
        self.fbo = self.ctx.framebuffer([self.colour], self.depth)
        self.pixels = bytearray(self.size[0] * self.size[1] * 4)
        self.small = pygame.image.frombuffer(self.pixels, self.size, "RGBA")  # shares ``pixels``

    def scale_up(self) -> None:
        """Copy the reduced picture, scaled up, into the full-size layer (rows stay in GL order)."""
        import pygame

        self.fbo.read_into(self.pixels, components=4)
        pygame.transform.smoothscale(self.small, self.large.get_size(), self.large)
        self.large_colour.write(self.large.get_view("1"), viewport=self.viewport)

    def release(self) -> None:
        for obj in (self.large_fbo, self.large_colour, self.fbo, self.depth, self.colour):
            obj.release()


class _Build:
    """A rebuild of the cached pictures for ``board_key``, band by band: the board's bands first
    (the still picture copies the board), then the still picture's (for ``still_key``)."""

    def __init__(self, board_key, bands: list):
        self.board_key = board_key
        self.bands = bands
        self.board_bands = list(bands)
        self.still_key = None
        self.still_bands = list(bands)


class Instances(NamedTuple):
    """Per-instance rows for one group of pieces: men, gold rings and their shadow decals."""

    pieces: np.ndarray
    rings: np.ndarray
    shadows: np.ndarray


class _Frame:
    """What one frame draws, worked out from the state and the time: the camera's matrices, the
    still pieces and markers (cacheable) and the moving pieces (drawn every frame)."""

    def __init__(self, renderer: "BoardRenderer", state: RenderState, t: float, camera: Camera, aspect: float,
                 texture_key: tuple):
        n = state.position.variant.size
        self.state = state
        self.camera = camera
        self.texture_key = texture_key  # the board texture drawn (see BoardRenderer._usable_texture)
        self.view_proj_matrix = camera.view_projection(n, aspect)
        self.view_proj = _mat_bytes(self.view_proj_matrix)
        self.eye = tuple(float(v) for v in camera.eye(n, aspect))
        self.flipped = _seen_flipped(camera)
        self.still, self.moving = piece_rows(state, t)
        self.markers = marker_rows(state)
        self._still_boxes = None

    def still_key(self) -> bytes:
        """Bytes that change whenever the still picture would."""
        return b"".join(a.tobytes() for a in (*self.still, self.markers))

    def still_rows(self) -> "Instances":
        """The still picture's rows, its markers counted with the shadows (both are decals)."""
        return Instances(self.still.pieces, self.still.rings, np.concatenate([self.still.shadows, self.markers]))

    def still_boxes(self, viewport: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Screen boxes (x0, y0, x1, y1) in the GL ``viewport`` around each row of
        :meth:`still_rows`: (pieces, rings, decals)."""
        if self._still_boxes is None:
            rows = self.still_rows()
            self._still_boxes = (_piece_boxes(self.view_proj_matrix, viewport, rows.pieces),
                                 _ring_boxes(self.view_proj_matrix, viewport, rows.rings),
                                 _decal_boxes(self.view_proj_matrix, viewport, rows.shadows))
        return self._still_boxes


def _seen_flipped(camera: Camera) -> bool:
    """Whether the board is seen from the second player's side."""
    return abs(((camera.base_yaw + 180) % 360) - 180) > 90


def piece_rows(state: RenderState, t: float) -> tuple[Instances, Instances]:
    """(still, moving) instance rows for every piece the state shows at time ``t``."""
    variant = state.position.variant
    rows = {False: ([], [], []), True: ([], [], [])}

    def stack(piece: Piece, x, y, z, moving: bool, scale=1.0, layers=None, crown=True):
        pieces_rows, ring_rows, shadow_rows = rows[moving]
        colour = piece_colour(variant, piece.color)
        layers = layers if layers is not None else (2 if piece.king else 1)
        for k in range(layers):
            pieces_rows.append((x, y + k * PIECE_HEIGHT * scale, z, scale, *colour))
        top = y + layers * PIECE_HEIGHT * scale
        if piece.king and crown:
            ring_rows.append((x, top + 0.004, z, 0.215 * scale, 0.026 * scale, 0.55, 0, 0, *GOLD))
        # blob shadow: pushed away from the light, wider, softer and fainter as the piece rises
        h = y + 0.9 * layers * PIECE_HEIGHT * scale
        sx = x - LIGHT_DIR[0] / LIGHT_DIR[1] * h
        sz = z - LIGHT_DIR[2] / LIGHT_DIR[1] * h
        outer = (PIECE_RADIUS + 0.10) * scale + 0.22 * y
        inner = (PIECE_RADIUS - 0.12) * scale - 0.2 * y
        alpha = 0.9 * max(0.3, 1.0 - 1.2 * y) * scale
        shadow_rows.append((sx, sz, sx, sz, outer, inner, DECAL_SHADOW_Y, KIND_SHADOW, *SHADOW, alpha))
        return top

    anim = state.animation
    animating = anim is not None and not anim.is_done(t)
    for sq, piece in state.position.pieces().items():
        x, z = square_center(variant, sq)
        if animating and sq == anim.path[-1]:
            pose = piece_pose(anim, t)
            mover = anim.piece
            king = mover.king or is_crown_landed(anim, t)
            stack(Piece(mover.color, king), pose.x, pose.y, pose.z, True)
            drop = crown_pose(anim, t)
            if drop is not None and not king:
                stack(Piece(mover.color, False), drop.x, drop.y, drop.z, True)
            continue
        lift = LIFT_HEIGHT if sq == state.selected else 0.0
        dragged = sq == state.selected and state.drag_to is not None
        if dragged:  # in the player's hand: drawn every frame, over the pointer
            x, z = state.drag_to
        top = stack(piece, x, lift, z, dragged)
        if sq == state.selected:
            rows[dragged][1].append((x, lift + 0.5 * (top - lift), z, PIECE_RADIUS + 0.045, 0.028, 1.0, 0, 0, *GOLD))
    if animating:
        captured = dict(anim.captured)
        leaving = t >= anim.landed_time  # until then they stand still and belong to the cached picture
        for sq, pose in captured_poses(anim, t).items():
            if pose.scale > 0.01:
                stack(captured[sq], pose.x, pose.y, pose.z, leaving, pose.scale)

    def arrays(group):
        p, r, sh = group
        return Instances(np.array(p, dtype="f4").reshape(-1, 8), np.array(r, dtype="f4").reshape(-1, 12),
                         np.array(sh, dtype="f4").reshape(-1, 12))

    return arrays(rows[False]), arrays(rows[True])


def marker_rows(state: RenderState) -> np.ndarray:
    """Decal rows for the last move, captures, a capture partly entered, targets, must-capture rings
    and the cursor."""
    variant = state.position.variant
    rows = []

    def mark(sq, colour, outer, inner, kind):
        x, z = square_center(variant, sq)
        rows.append((x, z, x, z, outer, inner, DECAL_MARK_Y, kind, *colour))

    if state.last_move is not None:
        colour, width = LAST_MOVE_LINE
        path = [square_center(variant, sq) for sq in state.last_move.path]
        for (ax, az), (bx, bz) in pairwise(path):
            rows.append((ax, az, bx, bz, width, 0.0, DECAL_MARK_Y, KIND_DISC, *colour))
        ax, az = path[0]
        rows.append((ax, az, ax, az, width * 2.2, 0.0, DECAL_MARK_Y, KIND_DISC, *colour))  # where it started
        for sq in state.last_move.captured:
            mark(sq, CAPTURED_RING[0], CAPTURED_RING[1], CAPTURED_RING[2], KIND_RING)
    if len(state.entered) > 1:
        colour, width, dot = ENTERED_PATH
        path = [square_center(variant, sq) for sq in state.entered]
        for (ax, az), (bx, bz) in pairwise(path):
            rows.append((ax, az, bx, bz, width, 0.0, DECAL_MARK_Y, KIND_DISC, *colour))
        for sq in state.entered[1:]:
            mark(sq, colour, dot, 0.0, KIND_DISC)
    for sq in sorted(state.must_capture):
        mark(sq, MUST_CAPTURE_RING[0], MUST_CAPTURE_RING[1], MUST_CAPTURE_RING[2], KIND_RING)
    for sq in sorted(state.targets):
        mark(sq, TARGET_DOT[0], TARGET_DOT[1], 0.0, KIND_DISC)
    for sq in sorted(state.final_targets):
        mark(sq, FINAL_RING[0], FINAL_RING[1], FINAL_RING[2], KIND_RING)
    if state.cursor is not None:
        mark(state.cursor, CURSOR_SQUARE[0], CURSOR_SQUARE[1], CURSOR_SQUARE[2], KIND_SQUARE)
    return np.array(rows, dtype="f4").reshape(-1, 12)


__all__ = ["BoardRenderer", "Instances", "Mesh", "marker_rows", "piece_colour", "piece_rows"]

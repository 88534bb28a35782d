"""The board renderer: draws a :class:`RenderState` at a time into a viewport (moderngl).

Small parts with one job each: :class:`Mesh` (a vertex array with an instance buffer),
:class:`BoardRenderer` (which builds the per-frame instance lists and issues one draw per mesh
type). Everything it reads comes from the state and the time; it changes neither.
"""

from __future__ import annotations

from typing import NamedTuple

import moderngl
import numpy as np

from engine import Color, Piece, Variant

from .animation import LIFT_HEIGHT, captured_poses, crown_pose, is_crown_landed, piece_pose
from .camera import Camera
from .geometry import PIECE_HEIGHT, PIECE_RADIUS, board_mesh, piece_mesh, ring_mesh, square_center
from .materials import load_program, set_uniform
from .picking import Viewport, pick_square, piece_heights
from .state import RenderState
from .textures import board_image

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
CURSOR_SQUARE = ((0.40, 0.78, 1.0, 0.95), 0.485, 0.435)
SHADOW = (0.0, 0.0, 0.0)

DECAL_SHADOW_Y, DECAL_MARK_Y = 0.0015, 0.003
KIND_DISC, KIND_RING, KIND_SQUARE, KIND_SHADOW = 0.0, 1.0, 2.0, 3.0
MAX_PIECES = 2 * 50 + 8  # every man of a 10x10 game stacked as kings, plus animation extras


def piece_colour(variant: Variant, color: Color):
    """The display colour of a side's pieces: the dark pieces are Black's in both games."""
    return PIECE_COLOURS["dark" if color is Color.BLACK else "light"]


def is_software_renderer(ctx) -> bool:
    """Whether the context renders on the CPU (Mesa llvmpipe/softpipe, SwiftShader, ...)."""
    name = ctx.info.get("GL_RENDERER", "").lower()
    return any(word in name for word in ("llvmpipe", "softpipe", "swiftshader", "software", "swrast"))


def _screen_boxes(view_proj: np.ndarray, viewport: Viewport, pieces: np.ndarray, margin: float = 0.06):
    """GL pixel boxes (x0, y0, x1, y1) around each piece row (x, y, z, scale, ...) with room for a
    king's stack, clipped to the viewport; an (n, 4) int array (rows may be empty boxes)."""
    vx, vy, w, h = viewport.gl()
    r = PIECE_RADIUS + margin
    offsets = np.array([(dx, dy, dz) for dx in (-r, r) for dz in (-r, r) for dy in (0.0, 1.0)])
    p = pieces[:, None, :3] + offsets[None] * np.array([1.0, 0.0, 1.0])
    p[..., 1] += offsets[None, :, 1] * (2 * PIECE_HEIGHT * pieces[:, None, 3] + margin)
    clip = np.concatenate([p, np.ones(p.shape[:2] + (1,))], axis=2) @ view_proj.T
    wc = np.maximum(clip[..., 3:4], 1e-6)
    ndc = clip[..., :2] / wc
    lo, hi = ndc.min(axis=1), ndc.max(axis=1)
    boxes = np.stack([np.floor(vx + (lo[:, 0] + 1) / 2 * w) - 2, np.floor(vy + (lo[:, 1] + 1) / 2 * h) - 2,
                      np.ceil(vx + (hi[:, 0] + 1) / 2 * w) + 2, np.ceil(vy + (hi[:, 1] + 1) / 2 * h) + 2], axis=1)
    boxes = np.clip(boxes, [vx, vy, vx, vy], [vx + w, vy + h, vx + w, vy + h]).astype(int)
    return boxes


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
    """

    def __init__(self, ctx: moderngl.Context, variant: Variant | None = None, samples: int = 4,
                 texture_pixels: int | None = None, software: bool | None = None):
        self.ctx = ctx
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
        self.programs = {name: load_program(ctx, name) for name in ("board", "piece", "ring", "decal",
                                                                      "background", "present", "fxaa")}
        pv, pi = piece_mesh()
        self.piece_mesh = Mesh(ctx, self.programs["piece"], pv, "3f 3f", ("in_position", "in_normal"), pi,
                               "4f 4f/i", ("in_place", "in_colour"), MAX_PIECES)
        rv, ri = ring_mesh()
        self.ring_mesh = Mesh(ctx, self.programs["ring"], rv, "2f", ("in_angles",), ri,
                              "4f 4f 4f/i", ("in_ring", "in_tube", "in_colour"), MAX_PIECES)
        corners = np.array([-1, -1, 1, -1, -1, 1, 1, 1], dtype="f4")
        self.decal_mesh = Mesh(ctx, self.programs["decal"], corners, "2f", ("in_corner",), None,
                               "4f 4f 4f/i", ("in_segment", "in_shape", "in_colour"), 512)
        self.empty_vao = {name: ctx.vertex_array(self.programs[name], []) for name in ("background", "present", "fxaa")}
        self._boards: dict[int, tuple] = {}  # board size -> (vbo, vao)
        self._textures: dict[tuple, moderngl.Texture] = {}
        self._layers: _Layers | None = None
        self._previous_camera: Camera | None = None
        if variant is not None:
            self._board_texture(variant, False, False)

    # --- cached resources -----------------------------------------------------------------------

    def _board_vao(self, size: int):
        if size not in self._boards:
            vbo = self.ctx.buffer(board_mesh(size).tobytes())
            vao = self.ctx.vertex_array(self.programs["board"], [(vbo, "3f 3f 2f", "in_position", "in_normal", "in_uv")])
            self._boards[size] = (vbo, vao)
        return self._boards[size][1]

    def _board_texture(self, variant: Variant, numbers: bool, flipped: bool) -> moderngl.Texture:
        key = (variant.name, numbers, flipped and numbers)
        if key not in self._textures:
            pixels = self.texture_pixels or (1152 if variant.size <= 8 else 1408)
            img = board_image(variant, pixels, numbers=numbers, flipped=flipped)
            tex = self.ctx.texture((pixels, pixels), 4, img.tobytes())
            tex.build_mipmaps()
            tex.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
            tex.anisotropy = 1.0 if self.software else 8.0  # anisotropic filtering is slow in software
            tex.repeat_x = tex.repeat_y = False
            self._textures[key] = tex
        return self._textures[key]

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
        viewport changes) and the board with everything that stands still (redrawn when a marker
        or a standing piece changes), both anti-aliased. Each frame copies the second (a blit)
        and draws only the moving pieces over it. While the camera moves, everything is drawn
        directly instead.
        """
        ctx = self.ctx
        target = target or ctx.screen
        variant = state.position.variant
        cam = state.camera.at(t)
        frame = _Frame(self, state, t, cam, viewport.aspect)
        gl_viewport = viewport.gl()
        camera_moving = self._previous_camera is not None and cam != self._previous_camera
        self._previous_camera = cam
        try:
            if camera_moving:
                target.use()
                ctx.viewport = ctx.scissor = gl_viewport
                ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)
                self._draw_board(frame, variant)
                self._draw_pieces(target, np.concatenate([frame.still.shadows, frame.markers]), frame.still.pieces,
                                  frame.still.rings)
                self._draw_moving(frame, target)
                return
            vx, vy, w, h = gl_viewport
            layers = self._layers_for(vx + w, vy + h)
            board_key = (cam, gl_viewport, state.show_numbers, variant.name)
            still_key = (board_key, frame.still_key())
            ctx.viewport = ctx.scissor = gl_viewport
            if layers.board_key != board_key:
                layers.board.use()
                ctx.clear(*CLEAR_COLOUR, 1.0, depth=1.0)
                self._draw_board(frame, variant)
                if layers.board_raw is not None:  # smooth the board's outline once, into the board layer
                    ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
                    ctx.copy_framebuffer(layers.board_raw, layers.board)
                    layers.board.use()
                    layers.board_raw_colour.use(0)
                    self.programs["fxaa"]["u_image"].value = 0
                    self.empty_vao["fxaa"].render(moderngl.TRIANGLES, vertices=3)
                layers.board_key, layers.still_key = board_key, None
            if layers.still_key != still_key:
                ctx.copy_framebuffer(layers.work, layers.board)  # the board, then what stands on it
                layers.work.use()
                ctx.viewport = ctx.scissor = gl_viewport
                self._set_camera_uniforms(frame)
                self._draw_pieces(layers.work, np.concatenate([frame.still.shadows, frame.markers]),
                                  frame.still.pieces, frame.still.rings)
                ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
                if layers.resolved is not None:
                    ctx.copy_framebuffer(layers.resolved, layers.work)  # resolves colour and depth
                if layers.smoothed is not None:
                    # FXAA only around the pieces: the board was smoothed with its own layer and
                    # the markers are anti-aliased in their shader; a full pass would cost more
                    # than everything else in the rebuild
                    ctx.copy_framebuffer(layers.smoothed, layers.work_colour_fbo)
                    layers.smoothed.use()
                    layers.work_colour.use(0)
                    self.programs["fxaa"]["u_image"].value = 0
                    for x0, y0, x1, y1 in _screen_boxes(frame.view_proj_matrix, viewport, frame.still.pieces):
                        if x1 > x0 and y1 > y0:
                            ctx.scissor = (x0, y0, x1 - x0, y1 - y0)
                            self.empty_vao["fxaa"].render(moderngl.TRIANGLES, vertices=3)
                layers.still_key = still_key
            target.use()
            ctx.viewport = ctx.scissor = gl_viewport
            ctx.copy_framebuffer(target, layers.still_colour_fbo)  # the blit obeys the scissor
            for box in self._moving_boxes(frame, viewport):
                # The moving pieces must hide behind still ones: restore the still depth, but only
                # around them (a full-screen depth copy would cost more than the blit).
                ctx.scissor = box
                ctx.enable(moderngl.DEPTH_TEST)
                ctx.depth_func = "1"  # always
                layers.still_colour.use(0)
                layers.still_depth.use(1)
                self.programs["present"]["u_image"].value = 0
                self.programs["present"]["u_depth"].value = 1
                self.empty_vao["present"].render(moderngl.TRIANGLES, vertices=3)
                ctx.depth_func = "<"
                self._draw_moving(frame, target)
        finally:
            ctx.scissor = None
            ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)

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
        for (x, y, z, scale), (sx, sz, _sx, _sz, outer) in zip(moving.pieces[:, :4], moving.shadows[:, :5]):
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
        merged = True
        while merged:  # a few boxes at most: merge until none overlap
            merged = False
            for i in range(len(boxes)):
                for j in range(i + 1, len(boxes)):
                    a, b = boxes[i], boxes[j]
                    if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                        boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                        del boxes[j]
                        merged = True
                        break
                if merged:
                    break
        return [(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]

    def _set_camera_uniforms(self, frame: "_Frame") -> None:
        for name in ("board", "piece", "ring", "decal"):
            prog = self.programs[name]
            prog["u_view_proj"].write(frame.view_proj)
            set_uniform(prog, "u_light_dir", tuple(LIGHT_DIR))
            set_uniform(prog, "u_eye", frame.eye)

    def _draw_board(self, frame: "_Frame", variant: Variant) -> None:
        """The background and the board block (into the bound framebuffer)."""
        ctx = self.ctx
        self._set_camera_uniforms(frame)
        ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
        self.empty_vao["background"].render(moderngl.TRIANGLES, vertices=3)
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        flipped = abs(((frame.camera.base_yaw + 180) % 360) - 180) > 90
        self._board_texture(variant, frame.state.show_numbers, flipped).use(0)
        self.programs["board"]["u_board"].value = 0
        self._board_vao(variant.size).render(moderngl.TRIANGLES)

    def _draw_moving(self, frame: "_Frame", fbo) -> None:
        """The pieces being animated, with their shadows (into the bound fbo, depth test on)."""
        if len(frame.moving.pieces) == 0:
            return
        self._set_camera_uniforms(frame)
        self._draw_pieces(fbo, frame.moving.shadows, frame.moving.pieces, frame.moving.rings)

    def _draw_pieces(self, fbo, decals, pieces, rings) -> None:
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
        self.piece_mesh.draw(pieces)
        ctx.disable(moderngl.CULL_FACE)  # the squashed torus is cheap enough to draw both sides
        self.ring_mesh.draw(rings)

    # --- input support --------------------------------------------------------------------------

    def pick(self, state: RenderState, t: float, viewport: Viewport, x: float, y: float) -> int | None:
        """The square under window pixel (x, y) as the board is drawn at time ``t``; None off it."""
        return pick_square(state.position.variant, state.camera.at(t), viewport, x, y,
                           piece_heights(state.position.pieces()))

    def release(self) -> None:
        """Free the GL objects (the context itself belongs to the caller)."""
        for mesh in (self.piece_mesh, self.ring_mesh, self.decal_mesh):
            mesh.release()
        for vbo, vao in self._boards.values():
            vao.release()
            vbo.release()
        for tex in self._textures.values():
            tex.release()
        if self._layers is not None:
            self._layers.release()
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
        self.board_key = self.still_key = None
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

        self.resolved = self.smoothed = self.board_raw = None
        if samples:
            self.board, self.work = buffers(), buffers()
            self.still_colour, self.still_depth = texture(), texture(depth=True)
            self.resolved = own(ctx.framebuffer([self.still_colour], self.still_depth))
        else:
            self.board = own(ctx.framebuffer([texture()], texture(depth=True)))
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
                self.board_raw = own(ctx.framebuffer([self.board_raw_colour]))
        self.still_colour_fbo = own(ctx.framebuffer([self.still_colour]))

    def release(self) -> None:
        for obj in reversed(self._owned):
            obj.release()
        self._owned = []


class Instances(NamedTuple):
    """Per-instance rows for one group of pieces: men, gold rings and their shadow decals."""

    pieces: np.ndarray
    rings: np.ndarray
    shadows: np.ndarray


class _Frame:
    """What one frame draws, worked out from the state and the time: the camera's matrices, the
    still pieces and markers (cacheable) and the moving pieces (drawn every frame)."""

    def __init__(self, renderer: "BoardRenderer", state: RenderState, t: float, camera: Camera, aspect: float):
        n = state.position.variant.size
        self.state = state
        self.camera = camera
        self.view_proj_matrix = camera.view_projection(n, aspect)
        self.view_proj = _mat_bytes(self.view_proj_matrix)
        self.eye = tuple(float(v) for v in camera.eye(n, aspect))
        self.still, self.moving = piece_rows(state, t)
        self.markers = marker_rows(state)

    def still_key(self) -> bytes:
        """Bytes that change whenever the still picture would."""
        return b"".join(a.tobytes() for a in (*self.still, self.markers))


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
        top = stack(piece, x, lift, z, False)
        if sq == state.selected:
            rows[False][1].append((x, lift + 0.5 * (top - lift), z, PIECE_RADIUS + 0.045, 0.028, 1.0, 0, 0, *GOLD))
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
    """Decal rows for the last move, captures, targets, must-capture rings and the cursor."""
    variant = state.position.variant
    rows = []

    def mark(sq, colour, outer, inner, kind):
        x, z = square_center(variant, sq)
        rows.append((x, z, x, z, outer, inner, DECAL_MARK_Y, kind, *colour))

    if state.last_move is not None:
        colour, width = LAST_MOVE_LINE
        path = [square_center(variant, sq) for sq in state.last_move.path]
        for (ax, az), (bx, bz) in zip(path, path[1:]):
            rows.append((ax, az, bx, bz, width, 0.0, DECAL_MARK_Y, KIND_DISC, *colour))
        ax, az = path[0]
        rows.append((ax, az, ax, az, width * 2.2, 0.0, DECAL_MARK_Y, KIND_DISC, *colour))  # where it started
        for sq in state.last_move.captured:
            mark(sq, CAPTURED_RING[0], CAPTURED_RING[1], CAPTURED_RING[2], KIND_RING)
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

"""What the board shows, as rows of per-instance data for the renderer's meshes (numpy, no GL):
the pieces (still or moving), the gold rings of kings and of the selected piece, their blob
shadows, and the markers on the board (the last move, captures, targets, rings, the cursor).
They are pure functions of the state and the time."""

from __future__ import annotations

import math
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from engine import Color, Piece, Variant

from .animation import LIFT_HEIGHT, captured_poses, crown_pose, is_crown_landed, piece_pose
from .geometry import LIGHT_DIR, PIECE_HEIGHT, PIECE_RADIUS, square_center
from .state import RenderState

# Piece colours (display gamma) and lacquer gloss. The dark side is a deep red-brown, the light side
# cream: far apart in lightness so they read at a glance in both views and on either wood.
# Pool checkers' dark side is red (APCA rule 3): a lacquered checkers red, as dark as the cream is light
# is not, so that the two sides still part at a glance. Keyed by the names of Variant.piece_colours.
PIECE_COLOURS = {
    "black": (0.23, 0.085, 0.06, 1.0),
    "white": (0.94, 0.88, 0.74, 0.6),
    "red": (0.56, 0.09, 0.07, 1.0),
}
GOLD = (1.0, 0.78, 0.34, 1.0)

# Marker colours (display gamma, alpha) and sizes in squares.
TARGET_DOT = ((0.30, 0.86, 0.36, 0.92), 0.13)
FINAL_RING = ((0.30, 0.86, 0.36, 0.95), 0.36, 0.29)
MUST_CAPTURE_RING = ((1.0, 0.80, 0.28, 0.95), 0.49, 0.425)
CAPTURED_RING = ((0.92, 0.16, 0.10, 0.95), 0.20, 0.145)
LAST_MOVE_LINE = ((1.0, 0.56, 0.12, 1.0), 0.05)  # opaque, so the joins don't show
ENTERED_PATH = ((1.0, 0.80, 0.28, 0.95), 0.045, 0.12)  # a capture partly entered: line width, stop dot
BEST_MOVE_ARROW = ((0.30, 0.66, 1.0, 0.95), 0.055, 0.34)  # the engine's best move: line width, head length
CURSOR_SQUARE = ((0.40, 0.78, 1.0, 0.95), 0.485, 0.435)
SHADOW = (0.0, 0.0, 0.0)

DECAL_SHADOW_Y, DECAL_MARK_Y = 0.0015, 0.003
KIND_DISC, KIND_RING, KIND_SQUARE, KIND_SHADOW = 0.0, 1.0, 2.0, 3.0


def piece_colour(variant: Variant, color: Color):
    """The display colour of a side's pieces: the colour its rule set gives that side."""
    return PIECE_COLOURS[variant.piece_colours[color]]


class Instances(NamedTuple):
    """Per-instance rows for one group of pieces: men, gold rings and their shadow decals."""

    pieces: np.ndarray
    rings: np.ndarray
    shadows: np.ndarray


def piece_rows(state: RenderState, t: float) -> tuple[Instances, Instances]:
    """(still, moving) instance rows for every piece the state shows at time ``t``."""
    variant = state.position.variant
    rows: dict[bool, tuple[list, list, list]] = {False: ([], [], []), True: ([], [], [])}  # still, moving

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

    anim = state.animation if state.animation is not None and not state.animation.is_done(t) else None
    for sq, piece in state.position.pieces().items():
        x, z = square_center(variant, sq)
        if anim is not None and sq == anim.path[-1]:
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
        if state.drag_to is not None and dragged:  # in the player's hand: drawn every frame, over the pointer
            x, z = state.drag_to
        top = stack(piece, x, lift, z, dragged)
        if sq == state.selected:
            rows[dragged][1].append((x, lift + 0.5 * (top - lift), z, PIECE_RADIUS + 0.045, 0.028, 1.0, 0, 0, *GOLD))
    if anim is not None:
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
    """Decal rows for the last move, captures, the engine's best move, a capture partly entered,
    targets, must-capture rings and the cursor."""
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
    if state.best_move is not None:
        rows.extend(arrow_rows(variant, state.best_move.path))
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


def arrow_rows(variant: Variant, path: tuple[int, ...]) -> list[tuple]:
    """Decal rows of an arrow along ``path``: a line through its squares and a head of two short
    strokes at its end, 35 degrees either side of the last leg."""
    colour, width, head = BEST_MOVE_ARROW
    points = [square_center(variant, sq) for sq in path]
    rows = [(ax, az, bx, bz, width, 0.0, DECAL_MARK_Y, KIND_DISC, *colour) for (ax, az), (bx, bz) in pairwise(points)]
    (ax, az), (bx, bz) = points[-2], points[-1]
    length = math.hypot(bx - ax, bz - az)
    dx, dz = (ax - bx) / length, (az - bz) / length  # back along the last leg
    for angle in (math.radians(35), -math.radians(35)):
        hx = dx * math.cos(angle) - dz * math.sin(angle)
        hz = dx * math.sin(angle) + dz * math.cos(angle)
        rows.append((bx, bz, bx + head * hx, bz + head * hz, width, 0.0, DECAL_MARK_Y, KIND_DISC, *colour))
    return rows

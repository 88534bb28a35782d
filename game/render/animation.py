"""Move animations as pure functions of time (no GL).

A move is shown in phases: the piece lifts, travels square to square along its path (a slide for
a plain move, an arc over each captured piece, hop by hop), and settles; then the captured pieces
leave, and a man that was crowned receives its second piece, dropped onto it. The renderer asks
:func:`piece_pose`, :func:`captured_poses` and :func:`crown_pose` where things are at time ``t``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from engine import Move, Piece, Position, Variant

from .geometry import PIECE_HEIGHT, square_center

# Durations in seconds at speed 1.
LIFT_S = 0.10
SETTLE_S = 0.10
SLIDE_BASE_S = 0.16
SLIDE_PER_SQUARE_S = 0.07  # a flying king's long slide takes longer, but not in proportion
HOP_S = 0.30
REMOVE_S = 0.25
CROWN_DROP_S = 0.30

LIFT_HEIGHT = 0.22  # how high a moving (or selected) piece floats above the board
HOP_ARC = 0.40  # extra height at the top of each capturing hop
REMOVE_RISE = 0.35
CROWN_DROP_HEIGHT = 1.2


@dataclass(frozen=True)
class PiecePose:
    """Where a piece stands: world position of its base centre and its size (1 = full size)."""

    x: float
    y: float
    z: float
    scale: float = 1.0


@dataclass(frozen=True)
class MoveAnimation:
    """One move being shown. Build it with :meth:`build` from the position before the move.

    The renderer draws the position *after* the move and asks this object where the moving piece,
    the captured pieces and a crowning piece are until :attr:`end_time`.
    """

    variant: Variant
    path: tuple[int, ...]  # start, every landing square, end
    piece: Piece  # the moving piece as it was before the move
    captured: tuple[tuple[int, Piece], ...]  # (square, piece) of every captured piece
    crowned: bool
    is_capture: bool
    start_time: float
    speed: float = 1.0

    @classmethod
    def build(cls, before: Position, move: Move, start_time: float, speed: float = 1.0) -> "MoveAnimation":
        """The animation of ``move`` played from ``before``, starting at ``start_time`` seconds;
        ``speed`` 2 plays it twice as fast."""
        if speed <= 0:
            raise ValueError(f"animation speed must be positive, not {speed!r}")
        pieces = before.pieces()
        piece = pieces[move.start]
        after = before.play(move)
        crowned = not piece.king and after.pieces()[move.end].king
        return cls(before.variant, tuple(move.path), piece, tuple((sq, pieces[sq]) for sq in move.captured),
                   crowned, bool(move.captured), start_time, speed)

    # --- the timeline (seconds after start_time, already divided by speed) --------------------------

    def _hop_durations(self) -> list[float]:
        if self.is_capture:
            return [HOP_S / self.speed] * (len(self.path) - 1)
        out = []
        for a, b in pairwise(self.path):
            (ax, az), (bx, bz) = square_center(self.variant, a), square_center(self.variant, b)
            squares = max(abs(bx - ax), abs(bz - az))
            out.append((SLIDE_BASE_S + SLIDE_PER_SQUARE_S * squares) / self.speed)
        return out

    @property
    def landed_time(self) -> float:
        """When the moving piece is back on the board (captured pieces start to leave then)."""
        return self.start_time + (LIFT_S + SETTLE_S) / self.speed + sum(self._hop_durations())

    @property
    def end_time(self) -> float:
        """When everything is at rest and the plain position can be drawn instead."""
        tail = 0.0
        if self.captured:
            tail = max(tail, REMOVE_S / self.speed)
        if self.crowned:
            tail = max(tail, CROWN_DROP_S / self.speed)
        return self.landed_time + tail

    def is_done(self, t: float) -> bool:
        return t >= self.end_time


def _smooth(u: float) -> float:
    u = min(max(u, 0.0), 1.0)
    return u * u * (3 - 2 * u)


def piece_pose(anim: MoveAnimation, t: float) -> PiecePose:
    """The moving piece at time ``t`` (at its start square before the animation, at its end after)."""
    centres = [square_center(anim.variant, sq) for sq in anim.path]
    s = anim.speed
    local = t - anim.start_time
    lift, settle = LIFT_S / s, SETTLE_S / s
    if local <= 0:
        x, z = centres[0]
        return PiecePose(x, 0.0, z)
    if local < lift:
        x, z = centres[0]
        return PiecePose(x, LIFT_HEIGHT * _smooth(local / lift), z)
    local -= lift
    for i, d in enumerate(anim._hop_durations()):
        if local < d:
            u = local / d
            (ax, az), (bx, bz) = centres[i], centres[i + 1]
            k = _smooth(u)
            y = LIFT_HEIGHT + (HOP_ARC * math.sin(math.pi * u) if anim.is_capture else 0.0)
            return PiecePose(ax + (bx - ax) * k, y, az + (bz - az) * k)
        local -= d
    x, z = centres[-1]
    return PiecePose(x, LIFT_HEIGHT * (1 - _smooth(local / settle)), z)


def captured_poses(anim: MoveAnimation, t: float) -> dict[int, PiecePose]:
    """The captured pieces still to be drawn at time ``t``: they stay until the move has landed,
    then rise and shrink away. A square missing from the result has nothing to draw."""
    u = (t - anim.landed_time) / (REMOVE_S / anim.speed)
    if u >= 1:
        return {}
    k = _smooth(u)
    out = {}
    for sq, _piece in anim.captured:
        x, z = square_center(anim.variant, sq)
        out[sq] = PiecePose(x, REMOVE_RISE * k, z, 1.0 - k)
    return out


def crown_pose(anim: MoveAnimation, t: float) -> PiecePose | None:
    """The second piece of a newly crowned king: None before it appears (and for moves without a
    crowning), falling onto the stack after the move lands, resting on top at the end."""
    if not anim.crowned:
        return None
    u = (t - anim.landed_time) / (CROWN_DROP_S / anim.speed)
    if u < 0:
        return None
    x, z = square_center(anim.variant, anim.path[-1])
    u = min(u, 1.0)
    return PiecePose(x, PIECE_HEIGHT + CROWN_DROP_HEIGHT * (1 - u * u), z)  # falls as under gravity


def is_crown_landed(anim: MoveAnimation, t: float) -> bool:
    """Whether a crowning piece has come to rest (the king's gold ring shows from then on)."""
    return anim.crowned and t >= anim.landed_time + CROWN_DROP_S / anim.speed

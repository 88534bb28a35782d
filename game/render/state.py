"""What the renderer is asked to draw: one frozen value per frame (no GL)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Move, Position

from .animation import MoveAnimation
from .camera import Camera, CameraMove


@dataclass(frozen=True)
class RenderState:
    """Everything the board renderer reads. The renderer never changes it.

    ``position`` is the position to show; while ``animation`` runs it must be the position *after*
    the animated move (the animation supplies where the moving, captured and crowning pieces are).
    Squares are engine square numbers.
    """

    position: Position
    camera: Camera | CameraMove = Camera()
    selected: int | None = None  # lifted, with a gold ring
    targets: frozenset[int] = frozenset()  # green dots: where the selected piece can go next
    final_targets: frozenset[int] = frozenset()  # green rings: final squares of multi-captures
    must_capture: frozenset[int] = frozenset()  # gold rings at the base of pieces that must capture
    last_move: Move | None = None  # orange line along its path, small red rings where it captured
    best_move: Move | None = None  # the engine's best move (analysis, hint): a blue arrow along its path
    cursor: int | None = None  # the keyboard cursor's square
    show_numbers: bool = False  # PDN square numbers on the dark squares
    animation: MoveAnimation | None = None
    # a capture partly entered: the selected piece's square, then each square stopped on so far
    # (a gold line along them, a gold dot on each stop)
    entered: tuple[int, ...] = ()
    # drag and drop: the selected piece follows the pointer, lifted (at animation.LIFT_HEIGHT) over
    # this board-plane point (x, z) in world units instead of standing on its square
    drag_to: tuple[float, float] | None = None


def selection_markers(position: Position, square: int) -> tuple[frozenset[int], frozenset[int]]:
    """(green dot squares, green ring squares) for a piece selected on ``square``: the next square
    to press for each of its legal moves, and the final square of each multi-capture."""
    dots, rings = set(), set()
    for move in position.legal_moves():
        if move.start != square:
            continue
        for route in move.routes:
            dots.add(route[1])
        if len(move.path) > 2:
            rings.add(move.end)
    return frozenset(dots), frozenset(rings)


def must_capture_squares(position: Position) -> frozenset[int]:
    """Squares of the pieces that can capture, when a capture is compulsory (empty otherwise)."""
    return frozenset(m.start for m in position.legal_moves() if m.captured)

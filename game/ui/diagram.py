"""A rule's diagram (:class:`game.help.Diagram`) drawn as a small flat board in the panel's style.

The board is seen from the first player's side (a1 at the bottom left), with the files and ranks
written beside it, as the rules' text names the squares. On it, in the colours of the 3D board's
markers: the move the text explains as the game's orange path (a dot where it stops, red rings on the
pieces it captures), other legal moves as green arrows, a move the rules refuse as a red dashed line
ending in a cross, gold rings on the pieces that must capture, and blue squares the text points at.

Shapes are drawn at :data:`SUPERSAMPLE` times the size and scaled down smoothly, which gives the
circles and lines clean edges; the letters are drawn afterwards at the final size, so they stay crisp.
A picture is made once per diagram and size (:func:`diagram_picture`).
"""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from engine import Variant, coords_square, square_coords
from game.help import Diagram, Line, Style

from . import theme as th

SUPERSAMPLE = 3
# the 3D board's marker colours (game/render/instances.py), in display RGB
ORANGE = (255, 143, 31)  # LAST_MOVE_LINE
CAPTURED = (235, 41, 26)  # CAPTURED_RING
GOLD = (255, 204, 71)  # MUST_CAPTURE_RING, and the kings' rings
GREEN = (77, 219, 92)  # TARGET_DOT
REFUSED = (236, 70, 58)
MARKED = (70, 118, 196)  # a square the caption points at
DARK_SQUARE = (150, 102, 64)  # lighter than the table's, so that the dark pieces stand out
LIGHT_SQUARE = (232, 210, 166)
DARK_PIECE_RIM = (176, 124, 96)
LABEL_GAP = 4  # pixels between the board and its file and rank labels


def label_font(size: int, n: int) -> pygame.font.Font:
    """The font of the files and ranks beside a board ``size`` pixels wide with ``n`` squares a side."""
    return th.font(max(10, min(13, size // (n * 2) + 3)))


def board_rect(variant: Variant, size: int) -> pygame.Rect:
    """Where the squares lie in a picture ``size`` pixels wide: the rank labels to the left, the
    files below; whole pixels per square."""
    n = variant.size
    f = label_font(size, n)
    left = f.size("10")[0] + LABEL_GAP
    cell = max(8, (size - left) // n)
    return pygame.Rect(left, 0, cell * n, cell * n)


def picture_height(variant: Variant, size: int) -> int:
    """The height of the picture of a board ``size`` pixels wide (the board and the files below)."""
    return board_rect(variant, size).height + LABEL_GAP + label_font(size, variant.size).get_linesize()


def square_center(variant: Variant, board: pygame.Rect, square: int) -> tuple[float, float]:
    """The centre of ``square`` in a picture whose squares lie in ``board`` (a1 bottom left)."""
    file, rank = square_coords(variant, square)
    cell = board.width / variant.size
    return board.x + (file + 0.5) * cell, board.y + (variant.size - 1 - rank + 0.5) * cell


@lru_cache(maxsize=96)
def diagram_picture(diagram: Diagram, variant: Variant, size: int) -> pygame.Surface:
    """The picture of ``diagram`` (a position of ``variant``) ``size`` pixels wide."""
    from engine.position import Position  # the rules engine: loaded before any page draws a diagram

    position = Position.from_fen(variant, diagram.fen)
    board = board_rect(variant, size)
    n, cell = variant.size, board.width // variant.size
    k = SUPERSAMPLE
    big = pygame.Surface((board.width * k, board.height * k), pygame.SRCALPHA)
    big_board = pygame.Rect(0, 0, board.width * k, board.height * k)
    kc = cell * k

    def centre(square: int) -> tuple[float, float]:
        return square_center(variant, big_board, square)

    # squares, marked squares
    for rank in range(n):
        for file in range(n):
            square = coords_square(variant, file, rank)
            colour = LIGHT_SQUARE if square is None else DARK_SQUARE
            if square is not None and square in diagram.marks:
                colour = MARKED
            big.fill(colour, (file * kc, (n - 1 - rank) * kc, kc, kc))
    # pieces, with gold rings where they must capture and red rings on those the path captures
    captured = _captured(diagram, variant)
    radius = 0.39 * kc
    for square, piece in position.pieces().items():
        x, y = centre(square)
        fill, edge = th.piece_colours(variant, piece.color)
        if variant.piece_colours[piece.color] == "black":
            edge = DARK_PIECE_RIM
        _disc(big, (0, 0, 0, 90), (x + 0.03 * kc, y + 0.06 * kc), radius * 1.02)  # a soft shadow
        _disc(big, edge, (x, y), radius)
        _disc(big, fill, (x, y), radius * 0.84)
        _ring(big, th.lighter(fill, 26), (x, y), radius * 0.6, 0.035 * kc)
        if piece.king:
            _ring(big, GOLD, (x, y), radius * 0.5, 0.085 * kc)
        if square in diagram.rings:
            _ring(big, GOLD, (x, y), 0.485 * kc, 0.07 * kc)
        if square in captured:
            _ring(big, CAPTURED, (x, y), 0.47 * kc, 0.08 * kc)
    # the moves: refused under the others, the path on top, and the refused moves' crosses over all
    order = {Style.REFUSED: 0, Style.ARROW: 1, Style.PATH: 2}
    for line in sorted(diagram.lines, key=lambda ln: order[ln.style]):
        points = [centre(sq) for sq in line.route]
        if line.style is Style.PATH:
            _polyline(big, ORANGE, points, 0.1 * kc, head=0.34 * kc)
            for x, y in points[1:-1]:
                _disc(big, ORANGE, (x, y), 0.12 * kc)
        elif line.style is Style.ARROW:
            _polyline(big, GREEN, points, 0.075 * kc, head=0.3 * kc)
        else:
            _dashed(big, REFUSED, points, 0.07 * kc, dash=0.2 * kc, gap=0.12 * kc)
    for line in diagram.lines:
        if line.style is Style.REFUSED:
            _cross(big, REFUSED, centre(line.route[-1]), 0.17 * kc, 0.075 * kc)

    height = picture_height(variant, size)
    out = pygame.Surface((board.right, height), pygame.SRCALPHA)
    out.blit(pygame.transform.smoothscale(big, board.size), board.topleft)
    pygame.draw.rect(out, th.CARD_EDGE, board.inflate(2, 2), width=1)
    f = label_font(size, n)
    for file in range(n):
        img = th.text(f, chr(ord("a") + file), th.MUTED)
        out.blit(img, img.get_rect(midtop=(board.x + (file + 0.5) * cell, board.bottom + LABEL_GAP)))
    for rank in range(n):
        img = th.text(f, str(rank + 1), th.MUTED)
        out.blit(img, img.get_rect(midright=(board.x - LABEL_GAP, board.y + (n - 1 - rank + 0.5) * cell)))
    return out


def _captured(diagram: Diagram, variant: Variant) -> frozenset[int]:
    """The pieces the orange path captures (the engine's move along that route)."""
    out: set[int] = set()
    for line in diagram.lines:
        if line.style is Style.PATH:
            out.update(diagram.move(variant, line).captured)
    return frozenset(out)


def path_points(diagram: Diagram, variant: Variant, size: int, line: Line) -> list[tuple[float, float]]:
    """Where ``line``'s route runs in the picture of ``diagram`` ``size`` pixels wide."""
    board = board_rect(variant, size)
    return [square_center(variant, board, sq) for sq in line.route]


# --- shapes ---------------------------------------------------------------------------------------

def _disc(surface: pygame.Surface, colour, centre: tuple[float, float], radius: float) -> None:
    pygame.draw.circle(surface, colour, (round(centre[0]), round(centre[1])), round(radius))


def _ring(surface: pygame.Surface, colour, centre: tuple[float, float], radius: float, width: float) -> None:
    pygame.draw.circle(surface, colour, (round(centre[0]), round(centre[1])), round(radius), max(1, round(width)))


def _segment(surface: pygame.Surface, colour, a: tuple[float, float], b: tuple[float, float], width: float) -> None:
    """A thick segment with round ends."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if length < 1e-6:
        return
    nx, ny = -(by - ay) / length * width / 2, (bx - ax) / length * width / 2
    pygame.draw.polygon(surface, colour, [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)])
    _disc(surface, colour, a, width / 2)
    _disc(surface, colour, b, width / 2)


def _polyline(surface: pygame.Surface, colour, points: list[tuple[float, float]], width: float, head: float) -> None:
    """A line along ``points`` ending in an arrowhead ``head`` long at the last point."""
    (ax, ay), (bx, by) = points[-2], points[-1]
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    base = (bx - ux * head, by - uy * head)
    for a, b in zip(points[:-2], points[1:-1], strict=True):
        _segment(surface, colour, a, b, width)
    _segment(surface, colour, points[-2], base, width)
    half = head * 0.62
    pygame.draw.polygon(surface, colour, [(bx, by), (base[0] - uy * half, base[1] + ux * half),
                                          (base[0] + uy * half, base[1] - ux * half)])


def _dashed(surface: pygame.Surface, colour, points: list[tuple[float, float]], width: float, dash: float,
            gap: float) -> None:
    """A dashed line along ``points`` (the dashes run on across the corners)."""
    along = 0.0
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        t = along
        while t < length:
            end = min(length, t + dash)
            _segment(surface, colour, (ax + ux * t, ay + uy * t), (ax + ux * end, ay + uy * end), width)
            t = end + gap
        along = t - length


def _cross(surface: pygame.Surface, colour, centre: tuple[float, float], half: float, width: float) -> None:
    x, y = centre
    _segment(surface, colour, (x - half, y - half), (x + half, y + half), width)
    _segment(surface, colour, (x - half, y + half), (x + half, y - half), width)

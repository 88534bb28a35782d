"""Square names and move text.

Two ways to name a square:

* numbers, as in PDN and tournament records: 1-32 (American) or 1-50 (International), counted on
  the diagram seen from White with square 1 at the top left;
* algebraic names, as the specification uses them: seen from the first player (Black in American
  checkers, White in International draughts), files a, b, ... from the left and ranks 1, 2, ... from
  the near side, a1 at the bottom left. These match the letters and numbers on the board's frame.

So in American checkers square 1 is g1 and the move 11-15 is c3-d4; in International draughts square
46 is a1 and 32-28 is d4-e5.
"""

from __future__ import annotations

import re

from .variants import Color, Variant

FILES = "abcdefghij"


class InvalidSquareError(ValueError):
    """A square name or number that is not a playable square of the board."""


def square_coords(variant: Variant, square: int) -> tuple[int, int]:
    """(file, rank), both 0-based, of a square number, in the first player's frame."""
    if not 1 <= square <= variant.squares:
        raise InvalidSquareError(f"square {square} is not on the {variant.title} board (1-{variant.squares})")
    w = variant.row_width
    row, k = divmod(square - 1, w)  # row 0 = top of the diagram seen from White
    col = 2 * k + (1 - row % 2)
    if variant.first_player is Color.WHITE:
        return col, variant.size - 1 - row
    return variant.size - 1 - col, row


def coords_square(variant: Variant, file: int, rank: int) -> int | None:
    """The square number at 0-based (file, rank) in the first player's frame; None for a light square
    or a point off the board."""
    n = variant.size
    if not (0 <= file < n and 0 <= rank < n):
        return None
    if variant.first_player is Color.WHITE:
        col, row = file, n - 1 - rank
    else:
        col, row = n - 1 - file, rank
    if (col + row) % 2 == 0:
        return None  # light square
    return row * variant.row_width + col // 2 + 1


def square_name(variant: Variant, square: int) -> str:
    """Algebraic name of a square number, e.g. 'c3'."""
    f, r = square_coords(variant, square)
    return f"{FILES[f]}{r + 1}"


def parse_square(variant: Variant, text: str) -> int:
    """A square number from '15' or 'd4'; raises InvalidSquareError naming the text. Only ASCII digits
    count: ``str.isdigit`` and ``\\d`` also take '²', '①' or '٣', which ``int`` refuses or reads as 3."""
    t = text.strip().lower()
    if t.isascii() and t.isdigit():
        sq = int(t)
        if 1 <= sq <= variant.squares:
            return sq
        raise InvalidSquareError(f"{text!r} is not a square of the {variant.title} board (1-{variant.squares})")
    m = re.fullmatch(r"([a-j])([0-9]{1,2})", t)
    if m:
        named = coords_square(variant, FILES.index(m.group(1)), int(m.group(2)) - 1)
        if named is not None:
            return named
        raise InvalidSquareError(f"{text!r} is not a playable (dark) square of the {variant.title} board")
    raise InvalidSquareError(f"{text!r} is not a square name (expected a number or a name like c3)")


def format_square(variant: Variant, square: int, numeric: bool = True) -> str:
    return str(square) if numeric else square_name(variant, square)

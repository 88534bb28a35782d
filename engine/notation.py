"""Square names and move text.

Two ways to name a square:

* numbers, as in PDN and tournament records, each rule set's own way (``Variant.square_one_corner``,
  the PDN 3.0 GameType's digit): square 1 in a corner as seen from the first player, the numbers
  running along its row away from that corner, then row after row. American checkers: square 1 at
  Black's near right (so at the top left of the diagram seen from White); International draughts and
  Italian draughts: at White's far left; Spanish draughts: at White's near right;
* algebraic names, as the specification uses them: seen from the first player (Black in American
  checkers, White in International draughts), files a, b, ... from the left and ranks 1, 2, ... from
  the near side, a1 at the bottom left. These match the letters and numbers on the board's frame.

So in American checkers square 1 is g1 and the move 11-15 is c3-d4; in International draughts square
46 is a1 and 32-28 is d4-e5.

The kernels number the squares their own way (``_board``: square 1 at the top left of the diagram seen
from White, on a board whose bottom left corner is dark). On a board set the other way round
(``Variant.mirrored_board``: Italian and Spanish draughts, whose near right corner is the dark one) the
kernels play the mirror image, which has the same moves: a diagonal is a diagonal either way.
:func:`kernel_square` and :func:`public_square` translate.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .variants import Color, Variant

FILES = "abcdefghij"


class InvalidSquareError(ValueError):
    """A square name or number that is not a playable square of the board."""


def _is_playable(variant: Variant, file: int, rank: int) -> bool:
    """Whether (file, rank) in the first player's frame is a dark square: a1 is dark unless the board is
    mirrored (a half turn keeps the colours of a board with an even side)."""
    return (file + rank) % 2 == (1 if variant.mirrored_board else 0)


@lru_cache(maxsize=None)
def _coords_table(variant: Variant) -> tuple[tuple[int, int], ...]:
    """(file, rank) in the first player's frame of each square number (index ``number - 1``)."""
    n, w, corner = variant.size, variant.row_width, variant.square_one_corner
    out = []
    for number in range(1, variant.squares + 1):
        i, k = divmod(number - 1, w)
        rank = i if corner in (0, 1) else n - 1 - i
        files = [f for f in range(n) if _is_playable(variant, f, rank)]
        out.append((files[k] if corner in (0, 2) else files[w - 1 - k], rank))
    return tuple(out)


@lru_cache(maxsize=None)
def _kernel_table(variant: Variant) -> tuple[int, ...]:
    """The kernels' square number of each square number (index ``number - 1``)."""
    n, w = variant.size, variant.row_width
    out = []
    for file, rank in _coords_table(variant):
        if variant.first_player is Color.BLACK:  # to White's frame: a half turn
            file, rank = n - 1 - file, n - 1 - rank
        if variant.mirrored_board:  # the kernels' board is the mirror image
            file = n - 1 - file
        row = n - 1 - rank
        out.append(row * w + file // 2 + 1)
    assert sorted(out) == list(range(1, variant.squares + 1)), variant.name
    return tuple(out)


@lru_cache(maxsize=None)
def _public_table(variant: Variant) -> tuple[int, ...]:
    """The square number of each kernel square number (index ``kernel - 1``)."""
    out = [0] * variant.squares
    for number, kernel in enumerate(_kernel_table(variant), start=1):
        out[kernel - 1] = number
    return tuple(out)


def kernel_square(variant: Variant, square: int) -> int:
    """The kernels' number (``_board``) of a square number."""
    return _kernel_table(variant)[square - 1]


def public_square(variant: Variant, kernel: int) -> int:
    """The square number of a kernel square number."""
    return _public_table(variant)[kernel - 1]


def start_squares(variant: Variant) -> tuple[tuple[int, int], tuple[int, int]]:
    """The first and last square numbers of White's men and of Black's at the start (each side's men
    stand on consecutive numbers in every rule set of the table)."""
    men = variant.rows_of_men * variant.row_width
    white = sorted(public_square(variant, k) for k in range(variant.squares - men + 1, variant.squares + 1))
    black = sorted(public_square(variant, k) for k in range(1, men + 1))
    for side in (white, black):
        assert side == list(range(side[0], side[-1] + 1)), variant.name
    return (white[0], white[-1]), (black[0], black[-1])


def square_coords(variant: Variant, square: int) -> tuple[int, int]:
    """(file, rank), both 0-based, of a square number, in the first player's frame."""
    if not 1 <= square <= variant.squares:
        raise InvalidSquareError(f"square {square} is not on the {variant.title} board (1-{variant.squares})")
    return _coords_table(variant)[square - 1]


@lru_cache(maxsize=None)
def _squares_by_coords(variant: Variant) -> dict[tuple[int, int], int]:
    return {xy: number for number, xy in enumerate(_coords_table(variant), start=1)}


def coords_square(variant: Variant, file: int, rank: int) -> int | None:
    """The square number at 0-based (file, rank) in the first player's frame; None for a light square
    or a point off the board."""
    return _squares_by_coords(variant).get((file, rank))


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

"""Bitboard layout shared by the kernels and the Python side.

Squares are numbered as in PDN (1-32 or 1-50) on the diagram seen from White, square 1 at the top
left. Bit ``b`` of a 64-bit board stands for square ``s`` (0-based ``s = number - 1``, row
``r = s // W`` with ``W`` squares a row) at ``b = s + r // 2``: after every second row one "ghost" bit
is left out, so that each diagonal step is the same shift everywhere on the board and a step off
the side lands on a ghost bit (or off the ends), which the VALID mask clears. 8x8, W = 4:

    PDN numbers (White at the bottom)      bit index (g = ghost)
      .  1  .  2  .  3  .  4                 .  0  .  1  .  2  .  3
      5  .  6  .  7  .  8  .                 4  .  5  .  6  .  7  .    g8
      .  9  . 10  . 11  . 12                 .  9  . 10  . 11  . 12
     13  . 14  . 15  . 16  .                13  . 14  . 15  . 16  .    g17
      . 17  . 18  . 19  . 20                 . 18  . 19  . 20  . 21
     21  . 22  . 23  . 24  .                22  . 23  . 24  . 25  .    g26
      . 25  . 26  . 27  . 28                 . 27  . 28  . 29  . 30
     29  . 30  . 31  . 32  .                31  . 32  . 33  . 34  .

The four directions, as shifts of the bit index (the same on 10x10 with W = 5, 54 bits in use):

    UP_LEFT  = -(W+1)    UP_RIGHT  = -W        ("up" = towards square 1, White's way)
    DOWN_LEFT = +W       DOWN_RIGHT = +(W+1)   ("down" = towards the last square, Black's way)
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .notation import square_coords
from .variants import Variant

UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3

# rules vector (int64) handed to the kernels: the Variant's fields, draw-rule limits in plies (0 where
# the variant has no such rule)
(R_WIDTH, R_MEN_BACK, R_FLYING, R_MAJORITY, R_PROMO_ENDS, R_QUIET_PLIES, R_ENDGAME_RULE, R_LONE_VS_THREE_PLIES,
 R_LONE_VS_TWO_PLIES, R_MAIN_DIAGONAL_PLIES) = range(10)
# masks vector (uint64); the main diagonal runs from the first player's left corner (a1) to the far one
M_VALID, M_PROMO_WHITE, M_PROMO_BLACK, M_MAIN_DIAGONAL = range(4)


def square_bit(variant: Variant, square: int) -> int:
    """Bit index of a square number (1-based)."""
    s = square - 1
    return s + (s // variant.row_width) // 2


class Layout(NamedTuple):
    """The kernel tables of a variant, read-only: what the move generator and the search know of the
    board and the rules."""

    rules: np.ndarray  # int64, indexed by R_*
    masks: np.ndarray  # uint64, indexed by M_*
    nbr: np.ndarray  # int64 [4, 64]: the bit one step away in each direction, -1 off the board
    bit_to_square: np.ndarray  # int64 [64]: the square number of each bit (0 for ghost bits)


@lru_cache(maxsize=None)
def layout(variant: Variant) -> Layout:
    """The kernel tables of a variant."""
    w = variant.row_width
    bits = [square_bit(variant, sq) for sq in range(1, variant.squares + 1)]
    bit_to_square = np.zeros(64, dtype=np.int64)
    for sq, b in enumerate(bits, start=1):
        bit_to_square[b] = sq
    valid = 0
    for b in bits:
        valid |= 1 << b
    promo_white = 0  # White is crowned on the top row (squares 1..W)
    promo_black = 0  # Black on the bottom row
    for sq in range(1, w + 1):
        promo_white |= 1 << square_bit(variant, sq)
    for sq in range(variant.squares - w + 1, variant.squares + 1):
        promo_black |= 1 << square_bit(variant, sq)
    shifts = (-(w + 1), -w, w, w + 1)
    neighbours = np.full((4, 64), -1, dtype=np.int64)
    for b in bits:
        for d, step in enumerate(shifts):
            n = b + step
            if 0 <= n < 64 and valid >> n & 1:
                neighbours[d, b] = n
    diagonal = 0
    for sq in range(1, variant.squares + 1):
        file, rank = square_coords(variant, sq)
        if file == rank:
            diagonal |= 1 << square_bit(variant, sq)
    rules = np.array([w, variant.men_capture_backward, variant.flying_kings, variant.majority_capture,
                      variant.promotion_ends_capture, 2 * variant.quiet_limit_moves, variant.endgame_rule,
                      2 * (variant.lone_king_vs_three_moves or 0), 2 * (variant.lone_king_vs_two_moves or 0),
                      2 * (variant.lone_king_main_diagonal_moves or 0)], dtype=np.int64)
    masks = np.array([valid, promo_white, promo_black, diagonal], dtype=np.uint64)
    for arr in (rules, masks, neighbours, bit_to_square):
        arr.setflags(write=False)
    return Layout(rules, masks, neighbours, bit_to_square)


@lru_cache(maxsize=None)
def square_table(variant: Variant) -> tuple[int, ...]:
    """``bit_to_square`` of :func:`layout` as a tuple of Python ints (cheap to index from Python)."""
    return tuple(int(sq) for sq in layout(variant).bit_to_square)


def squares_of(variant: Variant, bitboard: int) -> list[int]:
    """Square numbers of the set bits, ascending."""
    table = square_table(variant)
    out = []
    while bitboard:
        low = bitboard & -bitboard
        out.append(table[low.bit_length() - 1])
        bitboard ^= low
    return out


def bitboard_of(variant: Variant, squares) -> int:
    bb = 0
    for sq in squares:
        bb |= 1 << square_bit(variant, sq)
    return bb


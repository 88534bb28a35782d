"""Bitboard layout shared by the kernels and the Python side.

The kernels' squares are numbered 1-32 or 1-50 on the diagram seen from White, square 1 at the top
left, on a board whose bottom left corner is dark (PDN's numbering of American checkers and
International draughts). A rule set that numbers its squares otherwise, or sets its board the other
way round, is translated at the edge (``notation.kernel_square``): ``squares_of``, ``bitboard_of``,
``number_bit`` and ``square_table`` speak the rule set's own numbers; ``square_bit`` and the layout's
``bit_to_square`` the kernels'. Bit ``b`` of a 64-bit board stands for square ``s`` (0-based ``s = number - 1``, row
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

from .notation import kernel_square, public_square
from .variants import Variant

UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3

# rules vector (int64) handed to the kernels: the Variant's fields, draw-rule limits in plies (0 where
# the variant has no such rule)
(R_WIDTH, R_MEN_BACK, R_FLYING, R_MAJORITY, R_PROMO_ENDS, R_QUIET_PLIES, R_ENDGAME_RULE, R_LONE_VS_THREE_PLIES,
 R_LONE_VS_TWO_PLIES, R_MAIN_DIAGONAL_PLIES, R_MEN_TAKE_KINGS, R_CROWN_GOES_ON, R_KING_LANDS_NEXT,
 R_REMOVE_AT_ONCE, R_PRIORITIES, R_LONE_VS_KINGS_PLIES, R_LONE_VS_MORE_KINGS, R_KINGS_FEW_PLIES, R_KINGS_MANY_PLIES,
 R_COUNTS_RESTART, R_KING_GOES_ON) = range(21)
# R_PRIORITIES: the capture priorities after the count, as bits (``_movegen._record`` ranks by them)
P_WITH_KING, P_MOST_KINGS, P_KINGS_FIRST = 1, 2, 4
# masks vector (uint64); the main diagonal runs from the first player's left corner (a1) to the far one
M_VALID, M_PROMO_WHITE, M_PROMO_BLACK, M_MAIN_DIAGONAL = range(4)


def square_bit(variant: Variant, square: int) -> int:
    """Bit index of a kernel square number (1-based)."""
    s = square - 1
    return s + (s // variant.row_width) // 2


def number_bit(variant: Variant, number: int) -> int:
    """Bit index of a square number of the rule set (``notation``)."""
    return square_bit(variant, kernel_square(variant, number))


class Layout(NamedTuple):
    """The kernel tables of a variant, read-only: what the move generator and the search know of the
    board and the rules."""

    rules: np.ndarray  # int64, indexed by R_*
    masks: np.ndarray  # uint64, indexed by M_*
    nbr: np.ndarray  # int64 [4, 64]: the bit one step away in each direction, -1 off the board
    bit_to_square: np.ndarray  # int64 [64]: the kernel square number of each bit (0 for ghost bits)


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
    # the main (long) diagonal: the kernels' a1-h8 seen from White (on a mirrored board, the mirror image
    # of its h1-a8: the long diagonal either way)
    diagonal = 0
    for sq in range(1, variant.squares + 1):
        row, k = divmod(sq - 1, w)
        if 2 * k + (1 - row % 2) == variant.size - 1 - row:
            diagonal |= 1 << square_bit(variant, sq)
    priorities = (P_WITH_KING * variant.king_capture_first | P_MOST_KINGS * variant.most_kings_capture
                  | P_KINGS_FIRST * variant.kings_first_capture)
    plies = lambda moves: 2 * (moves or 0)  # noqa: E731
    rules = np.array([w, variant.men_capture_backward, variant.flying_kings, variant.majority_capture,
                      variant.promotion_ends_capture, 2 * variant.quiet_limit_moves, variant.endgame_rule,
                      plies(variant.lone_king_vs_three_moves), plies(variant.lone_king_vs_two_moves),
                      plies(variant.lone_king_main_diagonal_moves), variant.men_capture_kings,
                      variant.crowned_capture_continues, variant.king_lands_next, variant.captured_removed_at_once,
                      priorities, plies(variant.lone_king_vs_three_kings_moves), variant.lone_king_vs_more_kings,
                      plies(variant.kings_ending_four_five_moves), plies(variant.kings_ending_six_seven_moves),
                      variant.endgame_counts_restart, variant.king_lands_to_go_on], dtype=np.int64)
    masks = np.array([valid, promo_white, promo_black, diagonal], dtype=np.uint64)
    for arr in (rules, masks, neighbours, bit_to_square):
        arr.setflags(write=False)
    return Layout(rules, masks, neighbours, bit_to_square)


@lru_cache(maxsize=None)
def square_table(variant: Variant) -> tuple[int, ...]:
    """The rule set's square number of each bit (0 for ghost bits), as Python ints (cheap to index)."""
    return tuple(public_square(variant, int(sq)) if sq else 0 for sq in layout(variant).bit_to_square)


def squares_of(variant: Variant, bitboard: int) -> list[int]:
    """The rule set's square numbers of the set bits, ascending."""
    table = square_table(variant)
    return sorted(table[b] for b in _bits(bitboard))


def _bits(bitboard: int) -> list[int]:
    out = []
    while bitboard:
        low = bitboard & -bitboard
        out.append(low.bit_length() - 1)
        bitboard ^= low
    return out


def bitboard_of(variant: Variant, squares) -> int:
    """The bitboard of some of the rule set's square numbers."""
    bb = 0
    for sq in squares:
        bb |= 1 << number_bit(variant, sq)
    return bb


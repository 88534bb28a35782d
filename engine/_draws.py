"""The endgame counts (numba), the one implementation that the game record (``engine.game``) and the
search (``_search``) both run, so the two can't disagree on when a game is drawn.

A *lone king* is a side whose only piece is a king. The rule sets' counts, with their limits from the
Variant table (through the rules vector of ``_board.layout``, in plies; 0 where a rule set has none):

* FMJD 6.4 (International draughts), as the specification restates it. Against a lone king,
  group 3: exactly 3 pieces with at least one king among them: drawn ``lone_vs_three_plies`` after the
  position where the material arose; when the lone king stands on the main diagonal and the other side
  has no piece on it, ``main_diagonal_plies`` after that position, whichever is first;
  group 2: 1 or 2 pieces with a king among them: drawn ``lone_vs_two_plies`` after the material arose,
  or, when a 3-piece ending becomes one, after that position but never after the 3-piece count's draw.
  Material moving within a group (a man stepping or crowning, the lone king taking one of 2 pieces)
  keeps the count; material outside the groups runs none. ``engine/game.py`` spells out the reading.
* FMJD-64 7.2.4-7.2.8 (Russian and Brazilian draughts; ``restart``): against a lone king, three kings
  (or more, ``more_kings``) are drawn ``lone_vs_kings_plies`` after their correlation arose (7.2.4),
  1 or 2 pieces with a king ``lone_vs_two_plies`` after (7.2.8, a count that then runs on whatever
  happens within it); 3 pieces with a king against the lone king alone on the main diagonal
  ``main_diagonal_plies`` after the first such position (7.2.7); and where both sides have kings, 4 or 5
  pieces on the board are drawn ``kings_few_plies`` after the balance of pieces last changed, 6 or 7
  ``kings_many_plies`` after (7.2.6). "The balance changed" is a capture or a crowning: every count but
  7.2.8's starts afresh then (the group carries the material's counts, so that a change shows).
* APCA (Pool checkers): three kings against a lone king, ``lone_vs_kings_plies``.

The rule's numbers travel as one :class:`EndgameRule` of scalars, not as the layout's arrays: the search
calls these kernels after every move, and with arrays as arguments it measured about 15% slower.
"""

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from . import _board
from ._board import (
    M_MAIN_DIAGONAL,
    R_COUNTS_RESTART,
    R_ENDGAME_RULE,
    R_KINGS_FEW_PLIES,
    R_KINGS_MANY_PLIES,
    R_LONE_VS_KINGS_PLIES,
    R_LONE_VS_MORE_KINGS,
    R_LONE_VS_THREE_PLIES,
    R_LONE_VS_TWO_PLIES,
    R_MAIN_DIAGONAL_PLIES,
)
from ._jit import inlined, kernel
from ._movegen import popcount
from .variants import Variant

ZERO = np.uint64(0)

# The groups of material that run a count (the low byte of a group); 2 and 3 are FMJD 6.4's
NO_GROUP, GROUP_TWO, GROUP_THREE, GROUP_KINGS, GROUP_KINGS_FEW, GROUP_KINGS_MANY = 0, 2, 3, 4, 5, 6
WATCH = 8  # flag of a group whose lone king faces 3 pieces with a king: the main diagonal is watched
NO_LIMIT = 1 << 30  # the draw ply when no endgame count runs


class EndgameRule(NamedTuple):
    """A variant's endgame counts, from the rules vector and masks of ``_board.layout``."""

    enabled: int  # 0: the variant has no endgame counts
    lone_vs_three_plies: int
    lone_vs_two_plies: int
    main_diagonal_plies: int
    main_diagonal: np.uint64  # bitboard
    lone_vs_kings_plies: int
    more_kings: int
    kings_few_plies: int
    kings_many_plies: int
    restart: int


@lru_cache(maxsize=None)
def endgame_rule(variant: Variant) -> EndgameRule:
    """The variant's endgame rule, read from its layout (the same types every time: no second compilation)."""
    rules, masks = _board.layout(variant)[:2]
    return EndgameRule(int(rules[R_ENDGAME_RULE]), int(rules[R_LONE_VS_THREE_PLIES]), int(rules[R_LONE_VS_TWO_PLIES]),
                       int(rules[R_MAIN_DIAGONAL_PLIES]), np.uint64(masks[M_MAIN_DIAGONAL]),
                       int(rules[R_LONE_VS_KINGS_PLIES]), int(rules[R_LONE_VS_MORE_KINGS]),
                       int(rules[R_KINGS_FEW_PLIES]), int(rules[R_KINGS_MANY_PLIES]), int(rules[R_COUNTS_RESTART]))


@kernel
def endgame_group(white, black, kings):
    """FMJD 6.4's groups: (group, lone side): GROUP_THREE or GROUP_TWO when one side (0 White, 1 Black)
    has a lone king against that many pieces with a king among them, else (NO_GROUP, -1). With a king
    each, both sides are lone kings: (GROUP_TWO, 0)."""
    for side in range(2):
        lone = white if side == 0 else black
        other = black if side == 0 else white
        if popcount(lone) == 1 and (lone & kings) != ZERO:
            n = popcount(other)
            if (other & kings) != ZERO and 1 <= n <= 3:
                return (GROUP_THREE if n == 3 else GROUP_TWO), side
    return NO_GROUP, -1


@kernel
def endgame_class(white, black, kings, rule):
    """(group, limit plies, lone side or -1) of the material under ``rule``: the group with the count it
    starts (WATCH set where the main diagonal is watched, and under ``rule.restart`` the material's counts
    in the bits from 16 on), or (NO_GROUP, 0, -1) where no count runs."""
    for side in range(2):
        lone = white if side == 0 else black
        other = black if side == 0 else white
        if popcount(lone) == 1 and (lone & kings) != ZERO and (other & kings) != ZERO:
            n = popcount(other)
            all_kings = (other & ~kings) == ZERO
            watch = WATCH if n == 3 and rule.main_diagonal_plies > 0 else 0
            if n <= 2 and rule.lone_vs_two_plies > 0:
                return GROUP_TWO, rule.lone_vs_two_plies, side
            if all_kings and rule.lone_vs_kings_plies > 0 and (n == 3 or (n > 3 and rule.more_kings != 0)):
                return _material(GROUP_KINGS | watch, white, black, kings, rule), rule.lone_vs_kings_plies, side
            if n == 3 and rule.lone_vs_three_plies > 0:
                return GROUP_THREE, rule.lone_vs_three_plies, side
            if watch != 0 and rule.kings_few_plies > 0:
                # 3 pieces, not all kings, against a lone king (FMJD-64): the both-kings count of 4 pieces,
                # and the main diagonal watched (a rule set with neither has no count here)
                return _material(GROUP_KINGS_FEW | watch, white, black, kings, rule), rule.kings_few_plies, side
    if (white & kings) != ZERO and (black & kings) != ZERO:
        total = popcount(white | black)
        if 4 <= total <= 5 and rule.kings_few_plies > 0:
            return _material(GROUP_KINGS_FEW, white, black, kings, rule), rule.kings_few_plies, -1
        if 6 <= total <= 7 and rule.kings_many_plies > 0:
            return _material(GROUP_KINGS_MANY, white, black, kings, rule), rule.kings_many_plies, -1
    return NO_GROUP, 0, -1


@kernel
def _material(group, white, black, kings, rule):
    """``group`` with the material's counts (men and kings of each side) above bit 16 where a change of
    material restarts the count (``rule.restart``), so that a changed balance makes another group."""
    if rule.restart == 0:
        return group
    counts = popcount(white & ~kings) | popcount(white & kings) << 5 | popcount(black & ~kings) << 10 \
        | popcount(black & kings) << 15
    return group | counts << 16


@inlined
def endgame_after(group, draw_at, ply, irreversible, white, black, kings, rule):
    """The endgame count (group, draw ply) at the position (``white``, ``black``, ``kings``) with ply
    index ``ply``, reached by a move that moved a man or captured (``irreversible``) or not, from a
    position whose count was (``group``, ``draw_at``), under the variant's :class:`EndgameRule`
    ``rule``. At the start of a record pass NO_GROUP and an irreversible move. Without a count:
    (NO_GROUP, NO_LIMIT)."""
    if rule.enabled == 0:
        return NO_GROUP, NO_LIMIT
    if not irreversible and (group & 0xFF) != GROUP_THREE and (group & WATCH) == 0:
        return group, draw_at  # the same material: the same count (only the main diagonal is watched)
    return _recount(group, draw_at, ply, white, black, kings, rule)


@kernel
def _recount(group, draw_at, ply, white, black, kings, rule):
    """``endgame_after`` where the material may have changed or the main diagonal is watched: a call of
    its own, so that what the search inlines after every move is only the same-material test (with
    this part inside, LLVM's inlining, before ``@inlined``, left the bench about 15% slower)."""
    new_group, limit, lone = endgame_class(white, black, kings, rule)
    if new_group == NO_GROUP:
        return NO_GROUP, NO_LIMIT
    base = new_group & 0xFF & ~WATCH
    if new_group != group:
        if base == GROUP_TWO and rule.restart == 0 and (group & 0xFF) == GROUP_THREE:
            draw_at = min(draw_at, ply + limit)  # 3 became 2: the 2-piece count, within the 3-piece one
        else:
            draw_at = ply + limit  # the material has just arisen (FMJD-64: the balance has just changed)
    if (new_group & WATCH) != 0 or base == GROUP_THREE:
        lone_side = white if lone == 0 else black
        other = black if lone == 0 else white
        if (lone_side & rule.main_diagonal) != ZERO and (other & rule.main_diagonal) == ZERO:
            draw_at = min(draw_at, ply + rule.main_diagonal_plies)
    return new_group, draw_at

"""The endgame rule's count (numba), the one implementation that the game record (``engine.game``)
and the search (``_search``) both run, so the two can't disagree on when a game is drawn.

FMJD 6.4 as the specification restates it (the limits come from the Variant table through the rules
vector of ``_board.layout``, in plies): a *lone king* is a side whose only piece is a king. Against it,

* group 3: exactly 3 pieces with at least one king among them: drawn ``lone_vs_three_plies`` after the
  position where the material arose; when the lone king stands on the main diagonal and the other side
  has no piece on it, ``main_diagonal_plies`` after that position, whichever is first;
* group 2: 1 or 2 pieces with a king among them: drawn ``lone_vs_two_plies`` after the material arose,
  or, when a 3-piece ending becomes one, after that position but never after the 3-piece count's draw.

Material moving within a group (a man stepping or crowning, the lone king taking one of 2 pieces)
keeps the count; material outside the groups runs none. ``engine/game.py`` spells out the reading.

The rule's numbers travel as one :class:`EndgameRule` of scalars, not as the layout's arrays: the search
calls these kernels after every move, and with arrays as arguments it measured about 15% slower.
"""

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from . import _board
from ._board import M_MAIN_DIAGONAL, R_ENDGAME_RULE, R_LONE_VS_THREE_PLIES, R_LONE_VS_TWO_PLIES, R_MAIN_DIAGONAL_PLIES
from ._jit import inlined, kernel
from ._movegen import popcount
from .variants import Variant

ZERO = np.uint64(0)

NO_GROUP, GROUP_TWO, GROUP_THREE = 0, 2, 3
NO_LIMIT = 1 << 30  # the draw ply when no endgame count runs


class EndgameRule(NamedTuple):
    """A variant's endgame rule, from the rules vector and masks of ``_board.layout``."""

    enabled: int  # 0: the variant has no endgame rule
    lone_vs_three_plies: int
    lone_vs_two_plies: int
    main_diagonal_plies: int
    main_diagonal: np.uint64  # bitboard


@lru_cache(maxsize=None)
def endgame_rule(variant: Variant) -> EndgameRule:
    """The variant's endgame rule, read from its layout (the same types every time: no second compilation)."""
    rules, masks = _board.layout(variant)[:2]
    return EndgameRule(int(rules[R_ENDGAME_RULE]), int(rules[R_LONE_VS_THREE_PLIES]), int(rules[R_LONE_VS_TWO_PLIES]),
                       int(rules[R_MAIN_DIAGONAL_PLIES]), np.uint64(masks[M_MAIN_DIAGONAL]))


@kernel
def endgame_group(white, black, kings):
    """(group, lone side): GROUP_THREE or GROUP_TWO when one side (0 White, 1 Black) has a lone king
    against that many pieces with a king among them, else (NO_GROUP, -1). With a king each, both sides
    are lone kings: (GROUP_TWO, 0)."""
    for side in range(2):
        lone = white if side == 0 else black
        other = black if side == 0 else white
        if popcount(lone) == 1 and (lone & kings) != ZERO:
            n = popcount(other)
            if (other & kings) != ZERO and 1 <= n <= 3:
                return (GROUP_THREE if n == 3 else GROUP_TWO), side
    return NO_GROUP, -1


@inlined
def endgame_after(group, draw_at, ply, irreversible, white, black, kings, rule):
    """The endgame count (group, draw ply) at the position (``white``, ``black``, ``kings``) with ply
    index ``ply``, reached by a move that moved a man or captured (``irreversible``) or not, from a
    position whose count was (``group``, ``draw_at``), under the variant's :class:`EndgameRule`
    ``rule``. At the start of a record pass NO_GROUP and an irreversible move. Without a count:
    (NO_GROUP, NO_LIMIT)."""
    if rule.enabled == 0:
        return NO_GROUP, NO_LIMIT
    if not irreversible and group != GROUP_THREE:
        return group, draw_at  # the same material: the same count (only 3 against 1 watches the diagonal)
    new_group, lone = endgame_group(white, black, kings)
    if new_group == NO_GROUP:
        return NO_GROUP, NO_LIMIT
    if new_group == GROUP_THREE:
        if group != GROUP_THREE:  # the material has just arisen
            draw_at = ply + rule.lone_vs_three_plies
        lone_side = white if lone == 0 else black
        other = black if lone == 0 else white
        if (lone_side & rule.main_diagonal) != ZERO and (other & rule.main_diagonal) == ZERO:
            draw_at = min(draw_at, ply + rule.main_diagonal_plies)
        return GROUP_THREE, draw_at
    if group == GROUP_THREE:  # 3 became 2: the 2-piece count, within the 3-piece one
        return GROUP_TWO, min(draw_at, ply + rule.lone_vs_two_plies)
    if group == GROUP_TWO:
        return GROUP_TWO, draw_at
    return GROUP_TWO, ply + rule.lone_vs_two_plies

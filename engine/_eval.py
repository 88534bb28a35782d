"""Static evaluation (numba), one entry of weights per game (``EVALUATIONS``), weights as data.

The kernel ``evaluate`` scores a quiet position (the search never calls it with a capture pending for
the side to move) in centi-men from the side to move's point of view. It reads one record,
:class:`EvalTables`, built once per variant by :func:`eval_tables` (a new table is a new field there):

* ``weights`` (int64, indexed by the ``W_*`` names below): the numbers a match may tune;
* ``tables`` (int64 [T_COUNT, 64]): per-square values derived from the weights (piece-square tables);
* ``masks`` (uint64 [MK_COUNT, 64]): per-square bitboards (the runaway cones) and, in column 0 of the
  ``MK_*`` single-mask rows, whole-board masks (back rank guards, wings).

Terms, as players of the two games name them (sources: the specification's strategy tips, shared/
seeds/000; Cake and Scan's evaluation for which features matter; the numbers are first guesses to be
tuned by matches):

1. material: men and kings (a king is worth about 1.4 men in American checkers, where it moves one
   square, and about 3 men in International draughts, where it flies);
2. men on their squares, tapered between opening and ending: advancement (tempo) counts more as the
   board empties, the centre counts in the middlegame, the side edges are passive;
3. back rank guard: men kept on the key squares of one's own crowning row (the bridge 1+3 / 30+32 in
   American checkers; 2, 3, 4 / 47, 48, 49 in International: ``Evaluation.key_back_squares``), while
   the opponent still has men;
4. kings: the centre is worth more than the edges; a king with no free neighbour square is trapped;
5. mobility: plain moves of men and one-square king moves, counted with shifts (cheap);
6. runaway men: a man with no enemy piece in the cone ahead of it gets to crown; the closer the better;
7. wing balance (International): men spread over both wings rather than piled on one;
8. endgame: the side ahead is paid for trading down (the fewer the pieces, the more one extra counts);
   hopeless material (a lone king against at most 3 pieces in International) is scored near level;
   an advantage fades as the quiet-move counter nears its limit, so the side ahead moves men or
   trades rather than drift into the automatic draw; in an ending the side ahead brings its kings
   close to the enemy pieces (to hunt down a king sitting in a corner).

Changing the numbers needs no compilation (they are arguments). A change to the *code* of ``evaluate``
recompiles the search that inlines it: the kernel cache is keyed by a hash of every kernel source
(see ``_jit.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from . import _board
from ._jit import kernel
from ._movegen import lsb, popcount
from .variants import AMERICAN, INTERNATIONAL, Variant

ONE = np.uint64(1)
ZERO = np.uint64(0)

# --- weights (index names) ---------------------------------------------------------------------
W_MAN = 0  # a man
W_KING = 1  # a king
W_ADV_OPEN = 2  # per row a man has advanced, full board
W_ADV_END = 3  # per row a man has advanced, empty board
W_CENTER_MAN = 4  # a man on a central square (middlegame)
W_EDGE_MAN = 5  # a man on a side edge (usually negative)
W_CENTER_KING = 6  # per step a king stands closer to the centre
W_BACK = 7  # a man on a key back-rank square while the opponent has men
W_MOBILITY = 8  # per plain move
W_RUNAWAY = 9  # a man with a free path, about to crown
W_RUNAWAY_STEP = 10  # less per row it still has to go
W_TRAPPED_KING = 11  # a king with no free neighbour square (penalty, positive number)
W_TRADE = 12  # percent added to a material lead as the board empties
W_BALANCE = 13  # per man of difference between the two wings (penalty)
W_DRAWISH = 14  # divide the score by this in a hopeless ending
W_HUNT = 15  # ending, side ahead: per step between each of its kings and the nearest enemy piece
W_COUNT = 16



@dataclass(frozen=True)
class Evaluation:
    """A variant's evaluation data: its weights (in ``W_*`` order) and the key squares of Black's back
    rank that a guard keeps (White's are the same squares turned 180 degrees)."""

    weights: tuple[int, ...]
    key_back_squares: tuple[int, ...]


EVALUATIONS = {
    # American: centre 6 -> 10, back rank 10 -> 25, mobility 2 -> 4 won a 600-game match at depth 6
    # against the first guesses (+50 +- 21 Elo)
    AMERICAN.name: Evaluation(weights=(
        100,  # W_MAN
        140,  # W_KING
        1,  # W_ADV_OPEN
        6,  # W_ADV_END
        10,  # W_CENTER_MAN
        -4,  # W_EDGE_MAN
        4,  # W_CENTER_KING
        25,  # W_BACK
        4,  # W_MOBILITY
        70,  # W_RUNAWAY
        8,  # W_RUNAWAY_STEP
        20,  # W_TRAPPED_KING
        60,  # W_TRADE
        0,  # W_BALANCE
        8,  # W_DRAWISH
        3,  # W_HUNT
    ), key_back_squares=(1, 3)),  # the bridge
    INTERNATIONAL.name: Evaluation(weights=(
        100,  # W_MAN
        300,  # W_KING
        1,  # W_ADV_OPEN
        6,  # W_ADV_END
        5,  # W_CENTER_MAN
        -5,  # W_EDGE_MAN
        3,  # W_CENTER_KING
        6,  # W_BACK
        1,  # W_MOBILITY
        90,  # W_RUNAWAY
        8,  # W_RUNAWAY_STEP
        30,  # W_TRAPPED_KING
        60,  # W_TRADE
        3,  # W_BALANCE
        16,  # W_DRAWISH
        2,  # W_HUNT
    ), key_back_squares=(2, 3, 4)),
}

# --- tables rows (per-square numbers the loops over single pieces read) --------------------------------
T_TOGO_W, T_TOGO_B, T_COL = range(3)
T_COUNT = 3
# --- masks rows: cones per square, then single masks in column 0, then bit planes -------------------------
MK_CONE_W, MK_CONE_B, MK_SINGLE, MK_PLANES = 0, 1, 2, 3
S_BACK_W, S_BACK_B, S_LEFT, S_RIGHT, S_VALID, S_CENTRAL, S_EDGE = 0, 1, 2, 3, 4, 5, 6
MK_COUNT = 4
# the rule info the kernel needs beyond the weights (kept in the single masks' row, as numbers)
S_START_PIECES, S_WIDTH, S_ENDGAME_RULE = 8, 9, 10
# Per-square counts (rows advanced, king steps from the edge) summed over a set of pieces with a few
# popcounts: row MK_PLANES holds PLANE_BITS bit planes of each count, plane k in column base + k, so
# that sum = sum_k 2^k popcount(pieces & plane_k) (no loop over the pieces).
PLANE_BITS = 4
P_ADV_W, P_ADV_B, P_KING_CENTRE = 0, PLANE_BITS, 2 * PLANE_BITS


def _geometry(variant: Variant):
    """(bit, row, col) for every playable square; row 0 is the top of the diagram (square 1's row),
    col 0 the left edge, as seen from White."""
    out = []
    w = variant.row_width
    for sq in range(1, variant.squares + 1):
        row, k = divmod(sq - 1, w)
        col = 2 * k + (1 - row % 2)
        out.append((_board.square_bit(variant, sq), row, col))
    return out


class EvalTables(NamedTuple):
    """What ``evaluate`` reads, read-only (see the module docstring)."""

    weights: np.ndarray  # int64 [W_COUNT]
    tables: np.ndarray  # int64 [T_COUNT, 64]
    masks: np.ndarray  # uint64 [MK_COUNT, 64]


@lru_cache(maxsize=None)
def eval_tables(variant: Variant, weights: tuple[int, ...] | None = None) -> EvalTables:
    """The tables ``evaluate`` reads; ``weights`` overrides the variant's defaults (a match tries other
    numbers this way)."""
    try:
        evaluation = EVALUATIONS[variant.name]
    except KeyError:
        raise ValueError(f"no evaluation for {variant.title}: add its entry to engine._eval.EVALUATIONS") from None
    wts = np.array(evaluation.weights if weights is None else weights, dtype=np.int64)
    assert wts.shape == (W_COUNT,)
    size = variant.size
    tables = np.zeros((T_COUNT, 64), dtype=np.int64)
    masks = np.zeros((MK_COUNT, 64), dtype=np.uint64)
    geo = _geometry(variant)
    mid_lo, mid_hi = size // 2 - 2, size // 2 + 1  # central rows
    centre = (size - 1) / 2
    central_mask = edge_mask = 0
    for bit, row, col in geo:
        if 2 <= col <= size - 3 and mid_lo <= row <= mid_hi:
            central_mask |= 1 << bit
        if col == 0 or col == size - 1:
            edge_mask |= 1 << bit
        dist = int(max(abs(row - centre), abs(col - centre)))  # 0 in the middle ... size/2 - 1 at the edge
        for base, count in ((P_ADV_W, size - 1 - row), (P_ADV_B, row), (P_KING_CENTRE, size // 2 - 1 - dist)):
            assert 0 <= count < 1 << PLANE_BITS
            for k in range(PLANE_BITS):
                if count >> k & 1:
                    masks[MK_PLANES, base + k] |= np.uint64(1 << bit)
        tables[T_TOGO_W, bit] = row
        tables[T_TOGO_B, bit] = size - 1 - row
        tables[T_COL, bit] = col
        cone_w = cone_b = 0
        for bit2, row2, col2 in geo:
            if row2 < row and abs(col2 - col) <= row - row2:
                cone_w |= 1 << bit2
            if row2 > row and abs(col2 - col) <= row2 - row:
                cone_b |= 1 << bit2
        masks[MK_CONE_W, bit] = cone_w
        masks[MK_CONE_B, bit] = cone_b
    masks[MK_SINGLE, S_CENTRAL] = central_mask
    masks[MK_SINGLE, S_EDGE] = edge_mask
    black_back = evaluation.key_back_squares
    masks[MK_SINGLE, S_BACK_W] = _board.bitboard_of(variant, (variant.squares + 1 - sq for sq in black_back))
    masks[MK_SINGLE, S_BACK_B] = _board.bitboard_of(variant, black_back)
    left = right = 0
    for bit, _row, col in geo:
        if col < size // 2:
            left |= 1 << bit
        else:
            right |= 1 << bit
    masks[MK_SINGLE, S_LEFT] = left
    masks[MK_SINGLE, S_RIGHT] = right
    masks[MK_SINGLE, S_VALID] = _board.layout(variant)[1][_board.M_VALID]
    masks[MK_SINGLE, S_START_PIECES] = 2 * variant.rows_of_men * variant.row_width
    masks[MK_SINGLE, S_WIDTH] = variant.row_width
    masks[MK_SINGLE, S_ENDGAME_RULE] = variant.endgame_rule
    for arr in (wts, tables, masks):
        arr.setflags(write=False)
    return EvalTables(wts, tables, masks)


@kernel
def _plane_sum(pieces, masks, base):
    """The sum over ``pieces`` of the per-square count stored as bit planes at ``base``."""
    total = np.int64(0)
    for k in range(PLANE_BITS):
        total += popcount(pieces & masks[MK_PLANES, base + k]) << k
    return total


@kernel
def evaluate(white, black, kings, color, quiet_plies, quiet_limit, ev):
    """Score of a quiet position for the side ``color`` to move, in centi-men (numbered steps in the
    module docstring). ``ev`` is the variant's :class:`EvalTables`."""
    weights = ev.weights
    tables = ev.tables
    masks = ev.masks
    wm = white & ~kings
    wk = white & kings
    bm = black & ~kings
    bk = black & kings
    n_wm = popcount(wm)
    n_wk = popcount(wk)
    n_bm = popcount(bm)
    n_bk = popcount(bk)
    n_all = n_wm + n_wk + n_bm + n_bk
    start = np.int64(masks[MK_SINGLE, S_START_PIECES])
    w = np.int64(masks[MK_SINGLE, S_WIDTH])
    empty = masks[MK_SINGLE, S_VALID] & ~(white | black)
    # 1. material
    material = weights[W_MAN] * (n_wm - n_bm) + weights[W_KING] * (n_wk - n_bk)
    # 2. + 6. men on their squares (advancement from bit planes, centre and edge masks), tapered; runaways
    phase = min(256, n_all * 256 // start)
    central = masks[MK_SINGLE, S_CENTRAL]
    edge = masks[MK_SINGLE, S_EDGE]
    adv = _plane_sum(wm, masks, P_ADV_W) - _plane_sum(bm, masks, P_ADV_B)
    place = weights[W_CENTER_MAN] * (popcount(wm & central) - popcount(bm & central)) \
        + weights[W_EDGE_MAN] * (popcount(wm & edge) - popcount(bm & edge))
    opening = weights[W_ADV_OPEN] * adv + place
    ending = weights[W_ADV_END] * adv
    runaway = np.int64(0)
    b = wm
    while b:
        sq = lsb(b)
        b &= b - ONE
        if (masks[MK_CONE_W, sq] & black) == ZERO:
            runaway += max(0, weights[W_RUNAWAY] - weights[W_RUNAWAY_STEP] * (tables[T_TOGO_W, sq] - 1))
    b = bm
    while b:
        sq = lsb(b)
        b &= b - ONE
        if (masks[MK_CONE_B, sq] & white) == ZERO:
            runaway -= max(0, weights[W_RUNAWAY] - weights[W_RUNAWAY_STEP] * (tables[T_TOGO_B, sq] - 1))
    score = material + (opening * phase + ending * (256 - phase)) // 256 + runaway
    # 3. back rank guard
    if n_bm > 0:
        score += weights[W_BACK] * popcount(wm & masks[MK_SINGLE, S_BACK_W])
    if n_wm > 0:
        score -= weights[W_BACK] * popcount(bm & masks[MK_SINGLE, S_BACK_B])
    # 4. kings: centre (bit planes), trapped (no free neighbour square: shifts of the empty squares)
    s1 = np.uint64(w)
    s2 = np.uint64(w + 1)
    if (wk | bk) != ZERO:
        score += weights[W_CENTER_KING] * (_plane_sum(wk, masks, P_KING_CENTRE) - _plane_sum(bk, masks, P_KING_CENTRE))
        has_free = (empty << s1) | (empty << s2) | (empty >> s1) | (empty >> s2)
        score -= weights[W_TRAPPED_KING] * (popcount(wk & ~has_free) - popcount(bk & ~has_free))
    # 5. mobility (plain moves; captures are the search's business)
    mob_w = popcount((wm >> s1) & empty) + popcount((wm >> s2) & empty)
    mob_b = popcount((bm << s1) & empty) + popcount((bm << s2) & empty)
    mob_w += popcount((wk >> s1) & empty) + popcount((wk >> s2) & empty) \
        + popcount((wk << s1) & empty) + popcount((wk << s2) & empty)
    mob_b += popcount((bk >> s1) & empty) + popcount((bk >> s2) & empty) \
        + popcount((bk << s1) & empty) + popcount((bk << s2) & empty)
    score += weights[W_MOBILITY] * (mob_w - mob_b)
    # 7. wing balance
    if weights[W_BALANCE] != 0:
        lw = popcount(wm & masks[MK_SINGLE, S_LEFT])
        lb = popcount(bm & masks[MK_SINGLE, S_LEFT])
        score -= weights[W_BALANCE] * (abs(2 * lw - n_wm) - abs(2 * lb - n_bm))
    # 8. endgame: trade down when ahead; hopeless endings; the quiet-move counter
    if material != 0:
        score += material * weights[W_TRADE] * (start - n_all) // (100 * start)
    n_w = n_wm + n_wk
    n_b = n_bm + n_bk
    if weights[W_DRAWISH] > 1:
        # a lone king against at most 3 pieces, where the endgame rule draws these (International)
        if masks[MK_SINGLE, S_ENDGAME_RULE] != ZERO and \
                ((n_w == 1 and n_wk == 1 and n_b <= 3) or (n_b == 1 and n_bk == 1 and n_w <= 3)):
            score //= weights[W_DRAWISH]
    if material != 0 and n_all * 3 <= start and weights[W_HUNT] != 0:
        strong_kings = wk if material > 0 else bk
        weak = black if material > 0 else white
        hunt = np.int64(0)
        b = strong_kings
        while b:
            sq = lsb(b)
            b &= b - ONE
            nearest = np.int64(99)
            b2 = weak
            while b2:
                sq2 = lsb(b2)
                b2 &= b2 - ONE
                # king steps between the two squares (rows and columns; T_TOGO_W is the row)
                dist = max(abs(tables[T_TOGO_W, sq] - tables[T_TOGO_W, sq2]),
                           abs(tables[T_COL, sq] - tables[T_COL, sq2]))
                nearest = min(nearest, dist)
            if nearest < 99:
                hunt += nearest
        score += -weights[W_HUNT] * hunt if material > 0 else weights[W_HUNT] * hunt
    half = quiet_limit // 2
    if quiet_plies > half and quiet_limit > half:
        score = score * (quiet_limit - quiet_plies) // (quiet_limit - half)
    return score if color == 0 else -score

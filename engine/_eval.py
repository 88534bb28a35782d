"""Static evaluation (numba): a weighted sum of feature counts, the weights fitted to self-play games.

The kernel ``evaluate`` scores a quiet position (the search never calls it with a capture pending for
the side to move) in centi-men from the side to move's point of view. Its linear part is
``dot(weights, features) // 256`` exactly (the dot product negated first for Black to move;
``features`` is the same kernel run to record the counts: one code path), where

* a feature is a count of White's pieces or patterns minus the same count of Black's, Black's seen
  from its own side of the board (its squares turned 180 degrees), so the two sides share the weights;
* each count goes into an opening and an ending slot, in the proportions ``phase`` and ``256 - phase``
  (``phase`` = 256 with every piece on the board, 0 with none): two weight rows, ``[2, F]``;
* the weights live as data in ``engine/weights/<variant>.json``, written with the command that made
  them, fitted by ``engine.tuning`` (logistic regression on the results of self-play games, in rounds:
  each round's games are played with the weights fitted to the rounds before, the first with the hand-set
  numbers of the evaluation before, and every round's positions are fitted together).

Features (the order of the weight rows; ``feature_names`` spells it out), as players name them
(issue 10; the specification's strategy tips, shared/seeds/000):

1. material: men, kings;
2. trapped kings (no empty square next to them); mobility of men and of kings (plain one-square moves);
3. wing balance: ``|men on the left - men on the right|`` (a pile on one wing is weak on 10x10);
4. the hunt: in an ending (a third of the pieces or fewer), the side ahead in material (a king counted
   as 1.5 men with short kings, 3 with flying ones) counts the steps from each of its kings to the
   nearest enemy piece (counted against it);
5. the opposition ("the move"): in an ending, whether the side to move has the move (an odd number of
   pieces in its system: the columns 0, 2, 4, ... from its own side) or the other side has it;
6. men by square (piece-square table: advancement, tempo, centre, edges, the dog holes);
7. kings by square (centre, double corners);
8. the back rank: the index of the pattern of one's own men on one's own back row (2^W patterns: the
   bridge 1+3 / 30+32 is one of them), while the other side has men, so the fit says which guards are
   worth keeping, and when;
9. runaway men: a man with no enemy piece in the cone ahead of it, by the rows it still has to go.

Two rules sit outside the fit: a lone king against at most three pieces, where the variant's endgame
rule draws them, scores a sixteenth (``DRAWISH``); and an advantage fades as the quiet-move counter
nears its limit, so the side ahead moves men or trades rather than drift into the automatic draw.

Changing the numbers needs no compilation (they are arguments). A change to the *code* of ``evaluate``
recompiles the search that inlines it: the kernel cache is keyed by a hash of every kernel source
(see ``_jit.py``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

import numpy as np

from . import _board
from ._jit import inlined, kernel
from ._movegen import lsb, popcount
from .variants import Variant

ONE = np.uint64(1)
ZERO = np.uint64(0)

WEIGHTS_DIR = "weights"  # inside the engine package: <variant name>.json, each rule set's own fit
DRAWISH = 16  # a lone king against at most 3 pieces, drawn by the endgame rule: the score divided by this
PHASE_ONE = 256  # the phase of a full board

# --- features: scalar counts first, then the per-square and per-pattern blocks -------------------
F_MAN, F_KING, F_TRAPPED_KING, F_MOBILITY_MAN, F_MOBILITY_KING, F_BALANCE, F_HUNT, F_THE_MOVE = range(8)
F_SCALARS = 8
SCALAR_NAMES = ("man", "king", "trapped_king", "mobility_man", "mobility_king", "balance", "hunt", "the_move")
# info vector (int64) indexed by I_*
(I_SQUARES, I_WIDTH, I_START, I_ENDGAME_RULE, I_OFF_MAN, I_OFF_KING, I_OFF_BACK, I_OFF_RUNAWAY, I_FEATURES,
 I_KING_HALVES) = range(10)
I_COUNT = 10
# what a king counts for, in half men, when the hunt asks which side is ahead (a short king is worth
# about 1.5 men, a flying one about 3)
KING_HALVES = {False: 3, True: 6}
# single masks (uint64) indexed by S_*
S_VALID, S_LEFT, S_SYSTEM_WHITE, S_SYSTEM_BLACK = range(4)
S_COUNT = 4


class EvalTables(NamedTuple):
    """What ``evaluate`` reads, read-only."""

    weights: np.ndarray  # int64 [2, F]: the opening and ending weight of each feature
    info: np.ndarray  # int64 [I_COUNT]: sizes and block offsets
    own: np.ndarray  # int64 [2, 64]: a white (row 0) / black (row 1) piece's square index (0-based) from its side
    cones: np.ndarray  # uint64 [2, 64]: the squares ahead of a white / black man (its path to crowning)
    row_col: np.ndarray  # int64 [2, 64]: row and column of each bit, as seen from White
    masks: np.ndarray  # uint64 [S_COUNT]
    no_out: np.ndarray  # int64 [1, 1], never written: ``out`` of the evaluation that records nothing


def feature_count(variant: Variant) -> int:
    """F, the number of features of a variant (its board size sets it)."""
    return F_SCALARS + 2 * variant.squares + (1 << variant.row_width) + variant.size


def feature_names(variant: Variant) -> list[str]:
    """The name of each feature, in the weights' order."""
    names = list(SCALAR_NAMES)
    names += [f"man_{sq}" for sq in range(1, variant.squares + 1)]
    names += [f"king_{sq}" for sq in range(1, variant.squares + 1)]
    names += [f"back_{pattern:0{variant.row_width}b}" for pattern in range(1 << variant.row_width)]
    names += [f"runaway_{rows}" for rows in range(variant.size)]
    assert len(names) == feature_count(variant)
    return names


def weights_path(variant: Variant):
    """The package's weights file that a variant plays with (ValueError when it has none yet)."""
    path = resources.files(__package__) / WEIGHTS_DIR / f"{variant.name}.json"
    if not path.is_file():
        raise ValueError(f"no evaluation for {variant.title}: fit its weights with "
                         f"python -m engine tune fit --variant {variant.name}")
    return path


def check_weights(variant: Variant, vector, where: str) -> tuple[int, ...]:
    """``vector`` as a tuple, if it is 2F whole numbers (opening row, then ending row)."""
    n = 2 * feature_count(variant)
    if not isinstance(vector, (list, tuple)) or len(vector) != n or not all(isinstance(x, int) for x in vector):
        raise ValueError(f"{where}: {variant.name} needs {n} whole numbers (opening, then ending weights)")
    return tuple(vector)


@lru_cache(maxsize=None)
def default_weights(variant: Variant) -> tuple[int, ...]:
    """The fitted weights shipped with the package (``engine/weights``)."""
    path = weights_path(variant)
    data = json.loads(path.read_text(encoding="utf-8"))
    return check_weights(variant, data.get(variant.name), str(path))


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


@lru_cache(maxsize=None)
def eval_tables(variant: Variant, weights: tuple[int, ...] | None = None) -> EvalTables:
    """The tables ``evaluate`` reads; ``weights`` (2F numbers: the opening row, then the ending row)
    overrides the variant's fitted ones (a match tries other numbers this way)."""
    f = feature_count(variant)
    wts = np.array(default_weights(variant) if weights is None else check_weights(variant, weights, "weights"),
                   dtype=np.int64).reshape(2, f)
    size, squares, w = variant.size, variant.squares, variant.row_width
    own = np.full((2, 64), -1, dtype=np.int64)
    cones = np.zeros((2, 64), dtype=np.uint64)
    row_col = np.zeros((2, 64), dtype=np.int64)
    geo = _geometry(variant)
    left = system_white = system_black = 0
    for sq, (bit, row, col) in enumerate(geo, start=1):
        own[0, bit] = sq - 1
        own[1, bit] = squares - sq
        row_col[0, bit] = row
        row_col[1, bit] = col
        cone_w = cone_b = 0
        for bit2, row2, col2 in geo:
            if row2 < row and abs(col2 - col) <= row - row2:
                cone_w |= 1 << bit2
            if row2 > row and abs(col2 - col) <= row2 - row:
                cone_b |= 1 << bit2
        cones[0, bit] = cone_w
        cones[1, bit] = cone_b
        if col < size // 2:
            left |= 1 << bit
        if col % 2 == 0:
            system_white |= 1 << bit  # columns 0, 2, ... from White's side
        else:
            system_black |= 1 << bit  # the same from Black's side (the board turned)
    masks = np.zeros(S_COUNT, dtype=np.uint64)
    masks[S_VALID] = _board.layout(variant)[1][_board.M_VALID]
    masks[S_LEFT] = left
    masks[S_SYSTEM_WHITE] = system_white
    masks[S_SYSTEM_BLACK] = system_black
    info = np.zeros(I_COUNT, dtype=np.int64)
    info[I_SQUARES] = squares
    info[I_WIDTH] = w
    info[I_START] = 2 * variant.rows_of_men * w
    info[I_ENDGAME_RULE] = variant.endgame_rule
    info[I_OFF_MAN] = F_SCALARS
    info[I_OFF_KING] = F_SCALARS + squares
    info[I_OFF_BACK] = F_SCALARS + 2 * squares
    info[I_OFF_RUNAWAY] = F_SCALARS + 2 * squares + (1 << w)
    info[I_FEATURES] = f
    info[I_KING_HALVES] = KING_HALVES[variant.flying_kings]
    for arr in (wts, info, own, cones, row_col, masks):
        arr.setflags(write=False)
    # no_out stays writable so that features and evaluate share one compiled _linear (never written)
    return EvalTables(wts, info, own, cones, row_col, masks, np.zeros((1, 1), dtype=np.int64))


@inlined
def _record(out, record, i, count, phase):
    """Add ``count`` of feature ``i`` to the opening and ending slots of ``out`` (when recording)."""
    if record:
        out[0, i] += count * phase
        out[1, i] += count * (PHASE_ONE - phase)


@inlined
def _side_pieces(men, kings, enemy, side, guarded, ev, out, record, sign, phase):
    """One side's men by square, its back-rank guard pattern (counted when ``guarded``), its runaway men
    and its kings by square, in its own view (``side`` 0 White, 1 Black): the (opening, ending) sums of
    their weights; recorded with ``sign`` (+1 White, -1 Black)."""
    w0 = ev.weights[0]
    w1 = ev.weights[1]
    info = ev.info
    own = ev.own
    width = info[I_WIDTH]
    off_man = info[I_OFF_MAN]
    off_king = info[I_OFF_KING]
    off_back = info[I_OFF_BACK]
    off_run = info[I_OFF_RUNAWAY]
    back_first = info[I_SQUARES] - width  # the own-view index of one's own back row's first square
    op = np.int64(0)
    en = np.int64(0)
    pattern = np.int64(0)
    b = men
    while b:
        sq = lsb(b)
        b &= b - ONE
        s = own[side, sq]
        op += w0[off_man + s]
        en += w1[off_man + s]
        _record(out, record, off_man + s, sign, phase)
        if s >= back_first:
            pattern |= np.int64(1) << (s - back_first)
        if (ev.cones[side, sq] & enemy) == ZERO:
            i = off_run + s // width
            op += w0[i]
            en += w1[i]
            _record(out, record, i, sign, phase)
    if guarded:
        op += w0[off_back + pattern]
        en += w1[off_back + pattern]
        _record(out, record, off_back + pattern, sign, phase)
    b = kings
    while b:
        sq = lsb(b)
        b &= b - ONE
        s = own[side, sq]
        op += w0[off_king + s]
        en += w1[off_king + s]
        _record(out, record, off_king + s, sign, phase)
    return op, en


@inlined
def _linear(white, black, kings, color, ev, out, record):
    """White's score times 256 (the dot product of the weights and the phase-weighted counts), and the
    phase; with ``record`` it also adds the counts to ``out`` (``features``)."""
    w0 = ev.weights[0]
    w1 = ev.weights[1]
    info = ev.info
    masks = ev.masks
    width = info[I_WIDTH]
    start = info[I_START]
    wm = white & ~kings
    wk = white & kings
    bm = black & ~kings
    bk = black & kings
    n_wm = popcount(wm)
    n_wk = popcount(wk)
    n_bm = popcount(bm)
    n_bk = popcount(bk)
    n_all = n_wm + n_wk + n_bm + n_bk
    phase = min(PHASE_ONE, n_all * PHASE_ONE // start)
    empty = masks[S_VALID] & ~(white | black)
    op = np.int64(0)
    en = np.int64(0)
    # 1. material
    c = n_wm - n_bm
    op += w0[F_MAN] * c
    en += w1[F_MAN] * c
    _record(out, record, F_MAN, c, phase)
    c = n_wk - n_bk
    op += w0[F_KING] * c
    en += w1[F_KING] * c
    _record(out, record, F_KING, c, phase)
    # 2. trapped kings, mobility
    s1 = np.uint64(width)
    s2 = np.uint64(width + 1)
    if (wk | bk) != ZERO:
        has_free = (empty << s1) | (empty << s2) | (empty >> s1) | (empty >> s2)
        c = popcount(wk & ~has_free) - popcount(bk & ~has_free)
        op += w0[F_TRAPPED_KING] * c
        en += w1[F_TRAPPED_KING] * c
        _record(out, record, F_TRAPPED_KING, c, phase)
        c = popcount((wk >> s1) & empty) + popcount((wk >> s2) & empty) + popcount((wk << s1) & empty) \
            + popcount((wk << s2) & empty) - popcount((bk >> s1) & empty) - popcount((bk >> s2) & empty) \
            - popcount((bk << s1) & empty) - popcount((bk << s2) & empty)
        op += w0[F_MOBILITY_KING] * c
        en += w1[F_MOBILITY_KING] * c
        _record(out, record, F_MOBILITY_KING, c, phase)
    c = popcount((wm >> s1) & empty) + popcount((wm >> s2) & empty) \
        - popcount((bm << s1) & empty) - popcount((bm << s2) & empty)
    op += w0[F_MOBILITY_MAN] * c
    en += w1[F_MOBILITY_MAN] * c
    _record(out, record, F_MOBILITY_MAN, c, phase)
    # 3. wing balance
    c = abs(2 * popcount(wm & masks[S_LEFT]) - n_wm) - abs(2 * popcount(bm & masks[S_LEFT]) - n_bm)
    op += w0[F_BALANCE] * c
    en += w1[F_BALANCE] * c
    _record(out, record, F_BALANCE, c, phase)
    # 4. + 5. endings: the hunt, the opposition
    if n_all * 3 <= start:
        lead = 2 * (n_wm - n_bm) + info[I_KING_HALVES] * (n_wk - n_bk)
        if lead != 0:
            strong_kings = wk if lead > 0 else bk
            weak = black if lead > 0 else white
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
                    dist = max(abs(ev.row_col[0, sq] - ev.row_col[0, sq2]), abs(ev.row_col[1, sq] - ev.row_col[1, sq2]))
                    nearest = min(nearest, dist)
                if nearest < 99:
                    hunt += nearest
            c = -hunt if lead > 0 else hunt
            op += w0[F_HUNT] * c
            en += w1[F_HUNT] * c
            _record(out, record, F_HUNT, c, phase)
        if color == 0:
            white_has = (popcount((white | black) & masks[S_SYSTEM_WHITE]) & 1) == 1
        else:
            white_has = (popcount((white | black) & masks[S_SYSTEM_BLACK]) & 1) == 0
        c = np.int64(1) if white_has else np.int64(-1)
        op += w0[F_THE_MOVE] * c
        en += w1[F_THE_MOVE] * c
        _record(out, record, F_THE_MOVE, c, phase)
    # 6. - 9. men by square, the back rank (while the other side has men to crown), runaways, kings by square
    o, e = _side_pieces(wm, wk, black, 0, n_bm > 0, ev, out, record, 1, phase)
    op += o
    en += e
    o, e = _side_pieces(bm, bk, white, 1, n_wm > 0, ev, out, record, -1, phase)
    op -= o
    en -= e
    return op * phase + en * (PHASE_ONE - phase)


@kernel
def features(white, black, kings, color, ev, out):
    """Add the position's phase-weighted feature counts (White minus Black) to ``out`` (int64 [2, F]):
    ``evaluate``'s linear part, from White's view, is ``(out * ev.weights).sum() // 256``."""
    _linear(white, black, kings, color, ev, out, True)


@kernel
def features_of(white, black, kings, color, ev, out):
    """``features`` of many positions: row n of ``out`` (int64 [N, 2, F], zeroed) for position n."""
    for n in range(white.shape[0]):
        _linear(white[n], black[n], kings[n], color[n], ev, out[n], True)


@inlined
def evaluate(white, black, kings, color, quiet_plies, quiet_limit, ev):
    """Score of a quiet position for the side ``color`` to move, in centi-men (see the module
    docstring): ``(±dot(weights, features)) // 256``, + for White to move. ``ev`` is the variant's
    :class:`EvalTables`."""
    linear = _linear(white, black, kings, color, ev, ev.no_out, False)
    score = (linear if color == 0 else -linear) // PHASE_ONE  # rounded alike for both colours
    return adjusted(score, white, black, kings, quiet_plies, quiet_limit, ev)


@inlined
def adjusted(score, white, black, kings, quiet_plies, quiet_limit, ev):
    """An evaluation's ``score`` with the two rules outside the fit (see the module docstring): a lone
    king against at most three pieces under an endgame rule, and the fade near the quiet-move limit."""
    if ev.info[I_ENDGAME_RULE] != 0:
        n_w = popcount(white)
        n_b = popcount(black)
        if (n_w == 1 and (white & kings) != ZERO and n_b <= 3) or (n_b == 1 and (black & kings) != ZERO and n_w <= 3):
            score //= DRAWISH
    half = quiet_limit // 2
    if quiet_plies > half and quiet_limit > half:
        score = score * (quiet_limit - quiet_plies) // (quiet_limit - half)
    return score

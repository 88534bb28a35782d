"""Endgame database kernels (numba): position index, retrograde solver, consistency check, probe.

The Python side (building in order, files, loading, the move at the root) is ``engine/egdb.py``; its
docstring explains what the tables mean, including the International endgame rule.

Normal form. Every position is stored with the side to move as White (moving up, towards square 1).
A position with Black to move is turned half a turn (square s -> squares + 1 - s) and its colours are
swapped. In the bit layout of ``_board.py`` the half turn is a plain bit reversal: bit b goes to
``top - b``, with ``top`` the highest bit in use (34 on 8x8, 53 on 10x10); the main diagonal of
10x10 maps onto itself.

Slices. A material key ``(a, b, c, d)`` = (men, kings) of the side to move, then (men, kings) of the
other side. Within a slice a position's index ranks, in the combinatorial number system, in this
order: the mover's men among the squares off its crowning row, the other side's men likewise (the
two sets may overlap in index space: such indices are marked invalid), the mover's kings among the
squares without men, the other side's kings among the squares left:

    index = ((rank(mover's men) * C(m, c) + rank(other men)) * C(f, b) + rank(mover's kings))
            * C(f - b, d) + rank(other kings)            with m = squares - width, f = squares - a - c

A move that neither captures nor crowns leads from slice (a, b, c, d) to slice (c, d, a, b): the two
form a *pair*, solved together. Captures and crownings lead to slices solved before (fewer pieces,
or fewer men with the same pieces).

Values. ``val`` holds V_DRAW, V_WIN, V_LOSS (for the side to move) or V_INVALID; ``dist`` the plies:
to the end of the game for V_WIN / V_LOSS (a loss in 0 is a side with no move), except under the
International endgame rule, where it is the least number of plies left on the rule's count for which
the value holds (see egdb.py). The solver works by distance: pass n finds the positions won in n
(a move to a position lost in n - 1) and lost in n (every move to a won position, the longest n - 1),
through the predecessors of the positions resolved in pass n - 1 ("unmoves" of the side that just
moved, checked for the compulsory capture), plus those whose best way out of the pair (a capture or
a crowning, values known) has that distance.
"""

from typing import NamedTuple

import numpy as np

from ._board import M_VALID, R_FLYING
from ._jit import kernel
from ._movegen import generate, has_capture, lsb, make_move, popcount

ONE = np.uint64(1)
ZERO = np.uint64(0)

MAX_PIECES = 6  # the index and the key table have room for this many pieces on the board
KEY_BASE = MAX_PIECES + 1
KEY_COUNT = KEY_BASE ** 4

V_DRAW, V_WIN, V_LOSS, V_INVALID = 0, 1, 2, 3
NO_DIST = 0xFFFF  # "no such way out" in the solver's 16-bit distances
MAX_DIST = 255  # the largest distance a table byte holds

# params vector (int64) of a variant
(P_SQUARES, P_WIDTH, P_TOP_BIT, P_ENDGAME, P_THREE_PLIES, P_TWO_PLIES, P_DIAG_PLIES, P_DIAG,
 P_PIECES) = range(9)
P_COUNT = 9


class TableArrays(NamedTuple):
    """What the kernels read of a variant's tables (``probe``): params, offsets by material key (-1:
    none), the index's tables, the 2-bit values and the distances."""

    params: np.ndarray  # int64 [P_COUNT]
    offsets: np.ndarray  # int64 [KEY_COUNT]
    sq_of_bit: np.ndarray  # int64 [64]: 0-based square of each bit, -1 for a ghost
    binom: np.ndarray  # int64 [65, MAX_PIECES + 1]
    wld: np.ndarray  # uint8: 4 positions a byte
    dist: np.ndarray  # uint8: a position a byte


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_M8 = np.uint64(0x00FF00FF00FF00FF)
_M16 = np.uint64(0x0000FFFF0000FFFF)


@kernel
def material_key(a, b, c, d):
    """The key of a material: (men, kings) of the side to move, then of the other side."""
    return ((a * KEY_BASE + b) * KEY_BASE + c) * KEY_BASE + d


@kernel
def key_material(key):
    """(a, b, c, d) of a material key."""
    d = key % KEY_BASE
    key //= KEY_BASE
    c = key % KEY_BASE
    key //= KEY_BASE
    b = key % KEY_BASE
    return key // KEY_BASE, b, c, d


@kernel
def partner_key(key):
    """The slice a move that neither captures nor crowns leads to (the sides swapped)."""
    a, b, c, d = key_material(key)
    return material_key(c, d, a, b)


@kernel
def flip(x, top):
    """The bitboard turned half a turn: bit b -> top - b (a bit reversal, then a shift)."""
    x = ((x >> np.uint64(1)) & _M1) | ((x & _M1) << np.uint64(1))
    x = ((x >> np.uint64(2)) & _M2) | ((x & _M2) << np.uint64(2))
    x = ((x >> np.uint64(4)) & _M4) | ((x & _M4) << np.uint64(4))
    x = ((x >> np.uint64(8)) & _M8) | ((x & _M8) << np.uint64(8))
    x = ((x >> np.uint64(16)) & _M16) | ((x & _M16) << np.uint64(16))
    x = (x >> np.uint64(32)) | (x << np.uint64(32))
    return x >> np.uint64(63 - top)


@kernel
def slice_size(key, params, binom):
    """How many indices the slice ``key`` has (invalid ones included)."""
    a, b, c, d = key_material(key)
    m = params[P_SQUARES] - params[P_WIDTH]
    f = params[P_SQUARES] - a - c
    return binom[m, a] * binom[m, c] * binom[f, b] * binom[f - b, d]


@kernel
def _rank(bits, below, sq_of_bit, shift, binom):
    """Combinatorial rank of the squares of ``bits``, each lowered by ``shift`` and by the number of
    ``below`` squares under it (squares and bits ascend together, so a mask of lower bits counts)."""
    r = 0
    i = 1
    while bits:
        bit = lsb(bits)
        bits &= bits - ONE
        x = sq_of_bit[bit] - shift - popcount(below & ((ONE << np.uint64(bit)) - ONE))
        r += binom[x, i]
        i += 1
    return r


@kernel
def encode(white, black, kings, params, sq_of_bit, binom):
    """(material key, index in its slice) of a position with White to move."""
    w = params[P_WIDTH]
    wm = white & ~kings
    wk = white & kings
    bm = black & ~kings
    bk = black & kings
    a = popcount(wm)
    b = popcount(wk)
    c = popcount(bm)
    d = popcount(bk)
    m = params[P_SQUARES] - w
    f = params[P_SQUARES] - a - c
    men = wm | bm
    index = _rank(wm, ZERO, sq_of_bit, w, binom) * binom[m, c] + _rank(bm, ZERO, sq_of_bit, 0, binom)
    index = index * binom[f, b] + _rank(wk, men, sq_of_bit, 0, binom)
    index = index * binom[f - b, d] + _rank(bk, men | wk, sq_of_bit, 0, binom)
    return material_key(a, b, c, d), index


@kernel
def _unrank(r, k, binom):
    """The k-subset of rank r as a mask of bit positions (the inverse of the rank)."""
    out = ZERO
    x = 63
    for i in range(k, 0, -1):
        while binom[x, i] > r:
            x -= 1
        r -= binom[x, i]
        out |= ONE << np.uint64(x)
        x -= 1
    return out


@kernel
def _spread(picks, occupied, squares, bit_of_sq):
    """The board bits of the free squares (not in ``occupied``) whose order numbers are in ``picks``."""
    out = ZERO
    j = 0
    for s in range(squares):
        bit = ONE << np.uint64(bit_of_sq[s])
        if occupied & bit:
            continue
        if (picks >> np.uint64(j)) & ONE:
            out |= bit
        j += 1
    return out


@kernel
def _men_bits(picks, shift, bit_of_sq):
    out = ZERO
    while picks:
        x = lsb(picks)
        picks &= picks - ONE
        out |= ONE << np.uint64(bit_of_sq[x + shift])
    return out


@kernel
def decode(key, index, params, bit_of_sq, binom):
    """(white, black, kings, valid) of ``index`` in slice ``key``, White to move; not valid when the
    two sides' men would share a square."""
    a, b, c, d = key_material(key)
    squares = params[P_SQUARES]
    w = params[P_WIDTH]
    m = squares - w
    f = squares - a - c
    n4 = binom[f - b, d]
    r4 = index % n4
    index //= n4
    n3 = binom[f, b]
    r3 = index % n3
    index //= n3
    n2 = binom[m, c]
    r2 = index % n2
    r1 = index // n2
    wm = _men_bits(_unrank(r1, a, binom), w, bit_of_sq)
    bm = _men_bits(_unrank(r2, c, binom), 0, bit_of_sq)
    if wm & bm:
        return ZERO, ZERO, ZERO, False
    men = wm | bm
    wk = _spread(_unrank(r3, b, binom), men, squares, bit_of_sq)
    bk = _spread(_unrank(r4, d, binom), men | wk, squares, bit_of_sq)
    return wm | wk, bm | bk, wk | bk, True


@kernel
def key_group(key, params):
    """The group of the International endgame rule (FMJD 6.4, as engine/game.py counts it) that the
    material ``key`` falls in: 3 for a lone king against 3 pieces with a king among them, 2 against 1
    or 2 such pieces, 0 otherwise (and always 0 where the variant has no such rule)."""
    if params[P_ENDGAME] == 0:
        return 0
    a, b, c, d = key_material(key)
    if a == 0 and b == 1 and d >= 1 and c + d <= 3:
        return 3 if c + d == 3 else 2
    if c == 0 and d == 1 and b >= 1 and a + b <= 3:
        return 3 if a + b == 3 else 2
    return 0


@kernel
def group_limit(group, params):
    """The most plies an endgame count of ``group`` can have left (0: no count)."""
    if group == 3:
        return params[P_THREE_PLIES]
    if group == 2:
        return params[P_TWO_PLIES]
    return 0


@kernel
def on_main_diagonal(white, black, kings, params):
    """Whether the lone king stands on the main diagonal with no enemy piece on it (a 3-against-1
    position in which the 5-move count starts): the caller knows the material is in group 3."""
    diag = np.uint64(params[P_DIAG])
    if popcount(white) == 1 and (white & kings) != ZERO:
        lone, other = white, black
    else:
        lone, other = black, white
    return (lone & diag) != ZERO and (other & diag) == ZERO


@kernel
def effective(parent_group, child_key, child_white, child_black, child_kings, value, dist, params):
    """What a child position (normal form, value and distance as stored) is worth to the parent that
    moved into it, under the endgame rule: a count that goes on (r -> r - 1) keeps it, a count capped
    at the 5-move limit (3 became 2, or the lone king reached the main diagonal) turns a longer one
    into a draw, a count that ends (the material left the groups) makes the distance 0 (any r
    suffices), and a count that starts afresh (32 or 10 plies) decides the value there.
    Returns (value, distance)."""
    if value == V_DRAW or value == V_INVALID:
        return V_DRAW, 0
    child_group = key_group(child_key, params)
    diag_cut = params[P_DIAG_PLIES]
    if parent_group == 0:
        if child_group == 0:
            return value, dist
        limit = group_limit(child_group, params)
        if child_group == 3 and on_main_diagonal(child_white, child_black, child_kings, params):
            limit = min(limit, diag_cut)
        if dist > limit:
            return V_DRAW, 0
        return value, dist
    if child_group == 0:
        return value, 0
    if parent_group == 3 and child_group == 3:
        if dist > diag_cut and on_main_diagonal(child_white, child_black, child_kings, params):
            return V_DRAW, 0
        return value, dist
    if parent_group == 3 and dist > params[P_TWO_PLIES]:  # 3 became 2: at most the 5-move count
        return V_DRAW, 0
    return value, dist


@kernel
def _pair_slot(key, index, k1, n1):
    """The slot (0 .. pair size) of a position of the pair whose first slice is ``k1`` (``n1`` long)."""
    if key == k1:
        return index
    return n1 + index


@kernel
def init_pair(k1, k2, off, val, dist, cnt, xw, xl, can_lose, params, rules, masks, nbr, sq_of_bit, bit_of_sq,
              binom, scratch, capstk, mv_from, mv_to, mv_cap, routes, route_len):
    """First pass over the pair (k1, k2) (k2 == k1 for a slice that is its own pair): every position's
    moves. Positions without a move are lost in 0; the others get the number of their moves that stay
    in the pair (``cnt``), the shortest win and longest loss among the moves that leave it (``xw``,
    ``xl``, NO_DIST / 0 when none) and whether every such move leaves the opponent a win
    (``can_lose``)."""
    top = params[P_TOP_BIT]
    n1 = slice_size(k1, params, binom)
    n2 = slice_size(k2, params, binom) if k2 != k1 else 0
    for slot in range(n1 + n2):
        key = k1 if slot < n1 else k2
        index = slot if slot < n1 else slot - n1
        g = off[key] + index
        white, black, kings, valid = decode(key, index, params, bit_of_sq, binom)
        if not valid:
            val[g] = V_INVALID
            continue
        group = key_group(key, params)
        partner = partner_key(key)
        n = generate(white, black, kings, 0, rules, masks, nbr, False, scratch, capstk, mv_from, mv_to, mv_cap, routes,
                     route_len)
        if n == 0:
            val[g] = V_LOSS
            dist[g] = 0
            continue
        inside = 0
        win = NO_DIST
        loss = 0
        loses = True
        for i in range(n):
            nw, nb, nk = make_move(white, black, kings, 0, mv_from[i], mv_to[i], mv_cap[i], masks)
            cw = flip(nb, top)
            cb = flip(nw, top)
            ck = flip(nk, top)
            if cw == ZERO:  # every enemy piece taken: the child has no move
                v, dd = V_LOSS, 0
            else:
                ckey, cindex = encode(cw, cb, ck, params, sq_of_bit, binom)
                if ckey == partner:
                    inside += 1
                    continue
                cg = off[ckey] + cindex
                v, dd = effective(group, ckey, cw, cb, ck, val[cg], np.int64(dist[cg]), params)
            if v == V_WIN:
                loss = max(loss, dd + 1)
            else:
                loses = False
                if v == V_LOSS:
                    win = min(win, dd + 1)
        cnt[slot] = inside
        xw[slot] = win
        xl[slot] = loss
        can_lose[slot] = loses


@kernel
def _retro(pw, pb, pk, q_value, n, k1, n1, off, val, dist, cnt, xl, can_lose, params, sq_of_bit, binom):
    """Pass n reaches predecessor P (given with its mover as Black: turned into normal form here) of a
    position resolved in pass n - 1 with ``q_value`` (for its own side to move). Returns 1 when P is
    resolved now."""
    top = params[P_TOP_BIT]
    key, index = encode(flip(pb, top), flip(pw, top), flip(pk, top), params, sq_of_bit, binom)
    g = off[key] + index
    if val[g] != V_DRAW:
        return 0
    slot = _pair_slot(key, index, k1, n1)
    if q_value == V_LOSS:
        val[g] = V_WIN
        dist[g] = n
        return 1
    cnt[slot] -= 1
    if cnt[slot] == 0 and can_lose[slot] and xl[slot] <= n:
        val[g] = V_LOSS
        dist[g] = n
        return 1
    return 0


@kernel
def solve_pair(k1, k2, off, val, dist, cnt, xw, xl, can_lose, params, rules, masks, nbr, sq_of_bit, bit_of_sq,
               binom):
    """Resolve the pair by distance after ``init_pair`` (see the module docstring). Under the endgame
    rule the passes stop at the group's limit: a longer count never arises, so the rest are draws.
    Returns the number of passes run, or -1 when a distance would not fit in a byte."""
    n1 = slice_size(k1, params, binom)
    n2 = slice_size(k2, params, binom) if k2 != k1 else 0
    size = n1 + n2
    group = key_group(k1, params)
    limit = group_limit(group, params) if group else MAX_DIST
    diag_cut = params[P_DIAG_PLIES]
    valid = masks[M_VALID]
    flying = rules[R_FLYING] != 0
    pending = 0
    for slot in range(size):
        if xw[slot] != NO_DIST:
            pending = max(pending, int(xw[slot]))
        pending = max(pending, int(xl[slot]))
    last = 0  # the latest pass that resolved a position (pass 0: the positions without a move)
    n = 1
    while n <= limit and (n <= pending or last == n - 1):
        # ways out of the pair that take effect now: a win through a capture or crowning, and a loss
        # whose moves inside the pair are all resolved but whose longest way out is this long
        for slot in range(size):
            key = k1 if slot < n1 else k2
            g = off[key] + (slot if slot < n1 else slot - n1)
            if val[g] != V_DRAW:
                continue
            if xw[slot] == n:
                val[g] = V_WIN
                dist[g] = n
                last = n
            elif cnt[slot] == 0 and can_lose[slot] and xl[slot] == n:
                val[g] = V_LOSS
                dist[g] = n
                last = n
        # predecessors inside the pair of the positions resolved in pass n - 1
        for slot in range(size):
            key = k1 if slot < n1 else k2
            index = slot if slot < n1 else slot - n1
            g = off[key] + index
            q_value = val[g]
            if (q_value != V_WIN and q_value != V_LOSS) or dist[g] != n - 1:
                continue
            white, black, kings, _ = decode(key, index, params, bit_of_sq, binom)
            if group == 3 and n - 1 > diag_cut and on_main_diagonal(white, black, kings, params):
                continue  # a 5-move count starts here: a longer result is a draw for the mover
            empty = valid & ~(white | black)
            # the mover (Black here): a king came back along a free diagonal, a man from a square above
            b = black
            while b:
                y = lsb(b)
                b &= b - ONE
                yb = ONE << np.uint64(y)
                is_king = (kings & yb) != ZERO
                d_hi = 4 if is_king else 2
                for d in range(d_hi):
                    x = nbr[d, y]
                    while x >= 0 and (empty >> np.uint64(x)) & ONE:
                        xb = ONE << np.uint64(x)
                        pb = (black & ~yb) | xb
                        pk = (kings & ~yb) | xb if is_king else kings
                        if not has_capture(pb, white, pk, 1, rules, masks, nbr):
                            if _retro(white, pb, pk, q_value, n, k1, n1, off, val, dist, cnt, xl, can_lose, params,
                                      sq_of_bit, binom):
                                last = n
                        if not (is_king and flying):
                            break
                        x = nbr[d, x]
        n += 1
    if group == 0 and n > limit:
        # a distance past what a byte holds (under the endgame rule, past the limit: a draw)
        if last == limit:
            return -1
        for slot in range(size):
            key = k1 if slot < n1 else k2
            g = off[key] + (slot if slot < n1 else slot - n1)
            if val[g] == V_DRAW and (xw[slot] != NO_DIST or (cnt[slot] == 0 and can_lose[slot])):
                return -1
    return n - 1


@kernel
def verify_slice(key, off, val, dist, params, rules, masks, nbr, sq_of_bit, bit_of_sq, binom, scratch, capstk,
                 mv_from, mv_to, mv_cap, routes, route_len, first_bad):
    """Recompute every position of a slice from its children's stored values (one ply of minimax,
    with the endgame rule's transitions and limit) and count the positions whose stored value or
    distance differs; ``first_bad[0]`` gets the first such index (-1 if none). Together with the
    distances (a win's child is lost one ply sooner, ...) this proves the tables are the solution."""
    top = params[P_TOP_BIT]
    group = key_group(key, params)
    limit = group_limit(group, params) if group else MAX_DIST
    bad = 0
    first_bad[0] = -1
    for index in range(slice_size(key, params, binom)):
        g = off[key] + index
        white, black, kings, ok = decode(key, index, params, bit_of_sq, binom)
        if not ok:
            if val[g] != V_INVALID:
                bad += 1
            continue
        n = generate(white, black, kings, 0, rules, masks, nbr, False, scratch, capstk, mv_from, mv_to, mv_cap, routes,
                     route_len)
        want_v = V_LOSS
        want_d = 0
        if n > 0:
            win = NO_DIST
            loss = 0
            loses = True
            for i in range(n):
                nw, nb, nk = make_move(white, black, kings, 0, mv_from[i], mv_to[i], mv_cap[i], masks)
                cw = flip(nb, top)
                cb = flip(nw, top)
                ck = flip(nk, top)
                if cw == ZERO:
                    v, dd = V_LOSS, 0
                else:
                    ckey, cindex = encode(cw, cb, ck, params, sq_of_bit, binom)
                    cg = off[ckey] + cindex
                    v, dd = effective(group, ckey, cw, cb, ck, val[cg], np.int64(dist[cg]), params)
                if v == V_LOSS:
                    win = min(win, dd + 1)
                elif v == V_WIN:
                    loss = max(loss, dd + 1)
                else:
                    loses = False
            if win != NO_DIST and win <= limit:
                want_v, want_d = V_WIN, win
            elif win == NO_DIST and loses and loss <= limit:
                want_v, want_d = V_LOSS, loss
            else:
                want_v, want_d = V_DRAW, 0
        got_d = np.int64(dist[g]) if val[g] != V_DRAW else 0
        if val[g] != want_v or got_d != want_d:
            bad += 1
            if first_bad[0] < 0:
                first_bad[0] = index
    return bad


@kernel
def probe(white, black, kings, color, plies_left, want_dist, params, offsets, sq_of_bit, binom, wld, dist):
    """The value of a position for the side to move ``color``: (-1, 0) when it is not in the tables,
    else (V_DRAW, 0), (V_WIN, distance) or (V_LOSS, distance). ``plies_left``: plies left on the
    endgame rule's count (ignored outside its groups). ``wld`` holds 2 bits a position, ``dist`` a
    byte; the distance is read only under the endgame rule (where the value depends on it) or when
    ``want_dist`` is set (0 otherwise), so a search touches the small 2-bit table alone."""
    if popcount(white | black) > params[P_PIECES] or white == ZERO or black == ZERO:
        return -1, 0
    if color == 1:
        top = params[P_TOP_BIT]
        white, black, kings = flip(black, top), flip(white, top), flip(kings, top)
    key, index = encode(white, black, kings, params, sq_of_bit, binom)
    base = offsets[key]
    if base < 0:
        return -1, 0
    g = base + index
    value = np.int64((wld[g >> 2] >> np.uint8(2 * (g & 3))) & np.uint8(3))
    if value == V_DRAW:
        return V_DRAW, 0
    group = key_group(key, params)
    d = 0
    if group or want_dist:
        d = int(dist[g])
    if group and d > plies_left:
        return V_DRAW, 0
    return value, d

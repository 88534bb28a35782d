"""Move generation kernels (numba) for every variant in the table.

Boards are uint64 bitboards in the layout drawn in ``_board.py``; ``rules``, ``masks`` and ``nbr``
come from ``_board.layout(variant)``. A move is (from bit, to bit, captured bitboard): its identity.
Two routes with the same identity are one move, as in Scan, Moby Dam and the published perft tables.

``generate`` fills caller-owned buffers and returns the number of moves, or more than the buffer
holds when it overflowed (callers check against MAX_MOVES). It allocates nothing: its work space
comes from ``new_scratch()``. With ``record`` set it lists every route
instead, with its landing squares in ``routes`` (for animation and click-by-click entry).
"""

import numpy as np

from ._board import (
    M_PROMO_BLACK,
    M_PROMO_WHITE,
    M_VALID,
    P_KINGS_FIRST,
    P_MOST_KINGS,
    P_WITH_KING,
    R_CROWN_GOES_ON,
    R_FLYING,
    R_KING_GOES_ON,
    R_KING_LANDS_NEXT,
    R_MAJORITY,
    R_MEN_BACK,
    R_MEN_TAKE_KINGS,
    R_PRIORITIES,
    R_PROMO_ENDS,
    R_REMOVE_AT_ONCE,
    R_WIDTH,
)
from ._jit import inlined, is_interpreted, kernel

ONE = np.uint64(1)
ZERO = np.uint64(0)
# A bit of a move's captured set that is no square (the layouts use bits 0-53): the man that made this
# capture was crowned on the way and ends it, a king, off its crowning row (Russian code 1.5.15). It is
# part of the move's identity; ``make_move`` reads it; whoever reads the captured squares masks it off
# (``masks[M_VALID]``).
CROWNED = np.uint64(1 << 62)

# The most legal moves we have room for in one position. Known maxima are far below: 32 in American
# checkers, and in International draughts positions with about 80 (flying kings on open diagonals).
MAX_MOVES = 256
# The most routes recorded for one position (record mode), and the longest route: a move captures at
# most 20 pieces (all of one side), so a route has at most 21 squares.
MAX_ROUTES = 4096
MAX_PATH = 24

# rows of the int64 scratch handed to ``generate``
S_STATE, S_CUR, S_DIR, S_LAND, S_FOUND, S_PATH, S_MUST = 0, 1, 2, 3, 4, 5, 6
S_ROWS = 7


if is_interpreted():  # plain Python (see _jit.interpret): the same answers, from Python's int

    def popcount(x):
        """The number of set bits of a uint64."""
        return int(x).bit_count()

    def lsb(x):
        """The index of the lowest set bit of a non-zero uint64."""
        x = int(x)
        return (x & -x).bit_length() - 1

else:
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def _ctpop(typingctx, x):
        """LLVM's population count (one POPCNT instruction on the host CPU)."""
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return types.uint64(types.uint64), codegen

    @intrinsic
    def _cttz(typingctx, x):
        """LLVM's count of trailing zeros (one TZCNT/BSF instruction); undefined for 0."""
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], context.get_constant(types.boolean, True))
        return types.uint64(types.uint64), codegen

    @inlined
    def popcount(x):
        """The number of set bits of a uint64, in one instruction."""
        return np.int64(_ctpop(np.uint64(x)))  # type: ignore[call-arg]  # numba passes the typing context

    @inlined
    def lsb(x):
        """The index of the lowest set bit of a non-zero uint64, in one instruction."""
        return np.int64(_cttz(np.uint64(x)))  # type: ignore[call-arg]  # numba passes the typing context


@inlined
def _record(frm, to, cap, ncap, rank, record, scratch, capstk, out_from, out_to, out_cap, routes, route_len):
    """Add one finished capture of ``ncap`` pieces (plain moves are listed by ``plain_moves``). ``rank``
    >= 0 is its precedence (``_rank``) under a variant whose captures are ranked: a higher one empties the
    list, a lower one is not legal; -1 where the player chooses freely."""
    st = scratch[S_STATE]
    if rank >= 0:
        if rank < st[1]:
            return
        if rank > st[1]:
            st[1] = rank
            st[0] = 0
    n = st[0]
    if record:
        if n < routes.shape[0]:
            # a capture's route is the start and every landing square
            path = scratch[S_PATH]
            routes[n, 0] = frm
            for i in range(ncap):
                routes[n, i + 1] = path[i + 1]
            route_len[n] = ncap + 1
    else:
        # one move per identity: drop a second route to the same (from, to, captured)
        for i in range(n):
            if out_cap[i] == cap and out_to[i] == to and out_from[i] == frm:
                return
    if n < out_from.shape[0]:
        out_from[n] = frm
        out_to[n] = to
        out_cap[n] = cap
    st[0] = n + 1


@inlined
def _rank(ncap, with_king, cap, their_kings, capstk, rules):
    """The precedence of a capture of ``ncap`` pieces (the jumped pieces in order in ``capstk[1]``), as one
    number compared as a whole, in the order of the rules (FID 6.6-6.9): the count (majority rule), then
    a capture with a king, then the most kings taken, then the kings met earliest (a bit for each jump
    that takes a king, the first jump's the highest); -1 where captures are not ranked."""
    majority = rules[R_MAJORITY] != 0
    priorities = rules[R_PRIORITIES]
    if not majority and priorities == 0:
        return np.int64(-1)
    rank = np.int64(ncap) << 40 if majority else np.int64(0)
    if priorities & P_WITH_KING and with_king:
        rank |= np.int64(1) << 36
    if priorities & P_MOST_KINGS:
        rank |= popcount(cap & their_kings) << 28
    if priorities & P_KINGS_FIRST:
        jumps = capstk[1]
        for i in range(ncap):
            if jumps[i] & their_kings:
                rank |= np.int64(1) << (27 - i)
    return rank


@inlined
def _king_can_jump(sq, them, cap, empty, nbr):
    """Whether a flying king on ``sq`` has a jump: along some diagonal the first piece is one of ``them``
    not yet captured (``cap``) with an empty square right behind it."""
    for d in range(4):
        n = nbr[d, sq]
        while n >= 0 and (empty >> np.uint64(n)) & ONE:
            n = nbr[d, n]
        if n >= 0 and (them >> np.uint64(n)) & ONE and not (cap >> np.uint64(n)) & ONE:
            beyond = nbr[d, n]
            if beyond >= 0 and (empty >> np.uint64(beyond)) & ONE:
                return True
    return False


@inlined
def _piece_captures(frm, them, targets, empty, king, d_lo, d_hi, stop_mask, crown_mask, their_kings, rules, nbr,
                    record, scratch, capstk, out_from, out_to, out_cap, routes, route_len):
    """Every capture of the piece on ``frm`` (a ``king`` or a man), depth first with an explicit stack
    (numba can't cache recursive functions). Frame k is the piece after k jumps. ``targets`` are the
    pieces of ``them`` a man may jump (FID 5.3(b): not the kings), a king jumps any of them. A flying king
    jumps a piece at any distance and lands on any empty square beyond it (or, where kings land next,
    on the square just beyond); other pieces jump an adjacent piece. Jumped pieces stay on the board
    until the move ends: they block, and can't be jumped twice (where they leave at once, their
    squares are empty behind the piece). A man on a ``stop_mask`` square ends its move there (WCDF
    1.21); one on a ``crown_mask`` square is crowned and goes on as a king (Russian code 1.5.15).

    Where a flying king that may land on several squares beyond a piece must take one from which it can
    jump on (``Variant.king_lands_to_go_on``; under the majority rule the count sees to it),
    ``scratch[S_MUST][k]`` says that the jump of frame k has such a landing, and a landing without one
    then ends no route."""
    cur_s = scratch[S_CUR]
    dir_s = scratch[S_DIR]
    land_s = scratch[S_LAND]
    found_s = scratch[S_FOUND]
    path = scratch[S_PATH]
    must_s = scratch[S_MUST]
    cap_s = capstk[0]
    jump_s = capstk[1]
    flying = rules[R_FLYING] != 0
    land_far = flying and rules[R_KING_LANDS_NEXT] == 0
    removed = rules[R_REMOVE_AT_ONCE] != 0  # captured pieces leave at once: their squares are empty
    look_on = land_far and rules[R_KING_GOES_ON] != 0  # a choice of landing must go on where it can
    crowned_at = 0 if king else MAX_PATH  # the first frame in which the piece moves as a king
    # what the piece is in the current frame: set again when k changes, where that can change it (a man
    # crowned on the way, captured pieces leaving at once)
    changes = removed or (crown_mask != ZERO and not king)
    as_king = king
    e = empty
    d_first = 0 if king else d_lo
    d_top = 4 if king else d_hi
    jumpable = them if king else targets
    k = 0
    cur_s[0] = frm
    cap_s[0] = ZERO
    dir_s[0] = d_first
    land_s[0] = -1
    found_s[0] = 0
    path[0] = frm
    while k >= 0:
        land = land_s[k]
        if land >= 0:
            # take the pending landing square of direction dir_s[k]
            d = dir_s[k]
            nxt = nbr[d, land] if as_king and land_far else -1
            if nxt >= 0 and (((e | jump_s[k]) if removed else e) >> np.uint64(nxt)) & ONE:
                land_s[k] = nxt
            else:
                land_s[k] = -1
                dir_s[k] = d + 1
            found_s[k] = 1
            path[k + 1] = land
            cap = cap_s[k] | jump_s[k]
            lb = ONE << np.uint64(land)
            if lb & stop_mask:
                # crowning ends the move (WCDF 1.21; kings and crowned men are handed no stop_mask)
                _record(frm, land, cap, k + 1, _rank(k + 1, king, cap, their_kings, capstk, rules),
                        record, scratch, capstk, out_from, out_to, out_cap, routes, route_len)
                continue
            k += 1
            if changes:
                if crowned_at >= k:  # a man still, whatever an earlier route did deeper down
                    crowned_at = k if lb & crown_mask else MAX_PATH
                as_king = k >= crowned_at
                e = (empty | cap) if removed else empty
                d_first = 0 if as_king else d_lo
                d_top = 4 if as_king else d_hi
                jumpable = them if as_king else targets
            cur_s[k] = land
            cap_s[k] = cap
            dir_s[k] = d_first
            land_s[k] = -1
            found_s[k] = 0
            continue
        d = dir_s[k]
        if d >= d_top:
            # no direction left: a frame that jumped nothing further ends a route (unless another
            # landing of the same jump goes on)
            if found_s[k] == 0 and k > 0 and not (look_on and must_s[k - 1]):
                cap = cap_s[k]
                to = cur_s[k]
                if changes and crowned_at <= k and not king and ((ONE << np.uint64(to)) & crown_mask) == ZERO:
                    cap |= CROWNED  # a man crowned on the way, ending off the crowning row: a king
                _record(frm, to, cap, k, _rank(k, king, cap_s[k], their_kings, capstk, rules), record,
                        scratch, capstk, out_from, out_to, out_cap, routes, route_len)
            k -= 1
            if changes and k >= 0:
                as_king = k >= crowned_at
                e = (empty | cap_s[k]) if removed else empty
                d_top = 4 if as_king else d_hi
                jumpable = them if as_king else targets
            continue
        n = nbr[d, cur_s[k]]
        if as_king and flying:
            while n >= 0 and (e >> np.uint64(n)) & ONE:
                n = nbr[d, n]
        if n >= 0:
            nb = ONE << np.uint64(n)
            beyond = nbr[d, n]
            if (jumpable & nb) != ZERO and (cap_s[k] & nb) == ZERO and beyond >= 0 and (e >> np.uint64(beyond)) & ONE:
                jump_s[k] = nb
                land_s[k] = beyond
                if look_on:
                    must_s[k] = 0
                    if as_king:
                        after = cap_s[k] | nb
                        e2 = (e | nb) if removed else e
                        sq = beyond
                        while sq >= 0 and (e2 >> np.uint64(sq)) & ONE:
                            if _king_can_jump(sq, them, after, e2, nbr):
                                must_s[k] = 1
                                break
                            sq = nbr[d, sq]
                continue
        dir_s[k] = d + 1


@inlined
def _jumpers(pieces, them, empty, d_lo, d_hi, w):
    """The pieces among ``pieces`` with an adjacent enemy piece and an empty square beyond it in one of
    the directions d_lo..d_hi-1 (directions 0, 1 shift right by w+1, w; directions 2, 3 shift left by w, w+1)."""
    out = ZERO
    for d in range(d_lo, d_hi):
        s = np.uint64(w + 1 if d == 0 or d == 3 else w)
        if d < 2:
            out |= pieces & (them << s) & (empty << (s + s))
        else:
            out |= pieces & (them >> s) & (empty >> (s + s))
    return out


@inlined
def plain_moves(men, my_kings, empty, color, w, flying, nbr, out_from, out_to, out_cap):
    """The moves that capture nothing: each man of ``men`` one square forward (White up = right shifts,
    Black down = left shifts), each king of ``my_kings`` one square in any direction, or any distance
    along ``empty`` squares when kings fly. Men first, in the order (shift w+1, shift w), each by
    ascending destination; then the kings by ascending square, directions 0..3. Writes what fits in
    the buffers and returns the count (more than they hold when they overflowed)."""
    size = out_from.shape[0]
    n = 0
    for s in (np.uint64(w + 1), np.uint64(w)):
        dest = ((men >> s) if color == 0 else (men << s)) & empty
        while dest:
            to = lsb(dest)
            dest &= dest - ONE
            if n < size:
                out_from[n] = to + np.int64(s) if color == 0 else to - np.int64(s)
                out_to[n] = to
                out_cap[n] = ZERO
            n += 1
    b = my_kings
    while b:
        frm = lsb(b)
        b &= b - ONE
        for d in range(4):
            to = nbr[d, frm]
            while to >= 0 and (empty >> np.uint64(to)) & ONE:
                if n < size:
                    out_from[n] = frm
                    out_to[n] = to
                    out_cap[n] = ZERO
                n += 1
                if not flying:
                    break
                to = nbr[d, to]
    return n


@inlined
def generate(us, them, kings, color, rules, masks, nbr, record, scratch, capstk, out_from, out_to, out_cap, routes,
             route_len):
    """All legal moves of the side ``color`` (0 white, 1 black) owning ``us``. Returns the count."""
    valid = masks[M_VALID]
    w = rules[R_WIDTH]
    flying = rules[R_FLYING] != 0
    empty = valid & ~(us | them)
    men = us & ~kings
    my_kings = us & kings
    their_kings = them & kings
    # men move towards their crowning row: White up (directions 0, 1), Black down (2, 3)
    fwd_lo = 0 if color == 0 else 2
    if rules[R_MEN_BACK]:
        cap_lo, cap_hi = 0, 4
    else:
        cap_lo, cap_hi = fwd_lo, fwd_lo + 2
    crowning = masks[M_PROMO_WHITE] if color == 0 else masks[M_PROMO_BLACK]
    stop_mask = crowning if rules[R_PROMO_ENDS] else ZERO
    crown_mask = crowning if rules[R_CROWN_GOES_ON] else ZERO
    targets = them if rules[R_MEN_TAKE_KINGS] else them & ~kings  # what a man may jump (FID 5.3(b))
    st = scratch[S_STATE]
    st[0] = 0
    st[1] = 0

    # captures: men, then kings (only pieces with a first jump start a search)
    b = _jumpers(men, targets, empty, cap_lo, cap_hi, w)
    while b:
        frm = lsb(b)
        b &= b - ONE
        _piece_captures(frm, them, targets, empty | (ONE << np.uint64(frm)), False, cap_lo, cap_hi, stop_mask,
                        crown_mask, their_kings, rules, nbr, record, scratch, capstk, out_from, out_to, out_cap,
                        routes, route_len)
    b = my_kings if flying else _jumpers(my_kings, them, empty, 0, 4, w)
    while b:
        frm = lsb(b)
        b &= b - ONE
        _piece_captures(frm, them, them, empty | (ONE << np.uint64(frm)), True, 0, 4, ZERO, ZERO, their_kings,
                        rules, nbr, record, scratch, capstk, out_from, out_to, out_cap, routes, route_len)
    if st[0] > 0:
        return st[0]

    # plain moves (one route each, so no duplicate check); a route is (from, to)
    n = plain_moves(men, my_kings, empty, color, w, flying, nbr, out_from, out_to, out_cap)
    if record:
        for i in range(min(n, routes.shape[0], out_from.shape[0])):
            routes[i, 0] = out_from[i]
            routes[i, 1] = out_to[i]
            route_len[i] = 2
    st[0] = n
    return st[0]


def new_scratch():
    """Work space for ``generate``: (scratch, capstk). Allocate once, reuse for every call."""
    return np.zeros((S_ROWS, MAX_PATH), dtype=np.int64), np.zeros((2, MAX_PATH), dtype=np.uint64)


@inlined
def has_capture(us, them, kings, color, rules, masks, nbr):
    """Whether the side ``color`` owning ``us`` has a capture: some piece has a first jump (cheaper than
    generating the moves). A flying king's first jump: the first piece along a diagonal is an enemy
    piece with an empty square right behind it."""
    empty = masks[M_VALID] & ~(us | them)
    w = rules[R_WIDTH]
    men = us & ~kings
    my_kings = us & kings
    fwd_lo = 0 if color == 0 else 2
    cap_lo, cap_hi = (0, 4) if rules[R_MEN_BACK] else (fwd_lo, fwd_lo + 2)
    targets = them if rules[R_MEN_TAKE_KINGS] else them & ~kings  # what a man may jump (FID 5.3(b))
    if _jumpers(men, targets, empty, cap_lo, cap_hi, w):
        return True
    if rules[R_FLYING] == 0:
        return _jumpers(my_kings, them, empty, 0, 4, w) != ZERO
    b = my_kings
    while b:
        frm = lsb(b)
        b &= b - ONE
        for d in range(4):
            n = nbr[d, frm]
            while n >= 0 and (empty >> np.uint64(n)) & ONE:
                n = nbr[d, n]
            if n >= 0 and (them >> np.uint64(n)) & ONE:
                beyond = nbr[d, n]
                if beyond >= 0 and (empty >> np.uint64(beyond)) & ONE:
                    return True
    return False


@inlined
def count_moves(us, them, kings, color, rules, masks, nbr, scratch, capstk, out_from, out_to, out_cap, routes,
                route_len):
    """How many legal moves ``generate`` would return (perft's bulk count at the last ply): men's steps
    and short kings' steps are counted with shifts, flying kings' moves are listed by ``plain_moves``
    into the buffers. Positions with a capture are handed to ``generate``."""
    if has_capture(us, them, kings, color, rules, masks, nbr):
        return generate(us, them, kings, color, rules, masks, nbr, False, scratch, capstk, out_from, out_to, out_cap,
                        routes, route_len)
    empty = masks[M_VALID] & ~(us | them)
    w = rules[R_WIDTH]
    men = us & ~kings
    my_kings = us & kings
    flying = rules[R_FLYING] != 0
    s1 = np.uint64(w)
    s2 = np.uint64(w + 1)
    if color == 0:
        n = popcount((men >> s1) & empty) + popcount((men >> s2) & empty)
    else:
        n = popcount((men << s1) & empty) + popcount((men << s2) & empty)
    if not flying:
        return n + popcount((my_kings >> s1) & empty) + popcount((my_kings >> s2) & empty) \
            + popcount((my_kings << s1) & empty) + popcount((my_kings << s2) & empty)
    # flying kings: listed into the (caller's) buffers, only the count is used
    return n + plain_moves(ZERO, my_kings, empty, color, w, True, nbr, out_from, out_to, out_cap)


@inlined
def make_move(white, black, kings, color, frm, to, cap, masks):
    """The bitboards after ``color`` plays (frm, to, cap). Returns (white, black, kings)."""
    fb = ONE << np.uint64(frm)
    tb = ONE << np.uint64(to)
    was_king = (kings & fb) != ZERO or (cap & CROWNED) != ZERO
    cap &= masks[M_VALID]
    kings &= ~(fb | cap)
    if color == 0:
        white = (white & ~fb) | tb
        black &= ~cap
        if was_king or (tb & masks[M_PROMO_WHITE]):
            kings |= tb
    else:
        black = (black & ~fb) | tb
        white &= ~cap
        if was_king or (tb & masks[M_PROMO_BLACK]):
            kings |= tb
    return white, black, kings


@kernel
def perft(white, black, kings, color, depth, rules, masks, nbr):
    """Leaf count at ``depth`` plies (moves at the last ply are counted, not played). -1 on overflow."""
    if depth <= 0:
        return 1
    scratch = np.zeros((S_ROWS, MAX_PATH), dtype=np.int64)
    capstk = np.zeros((2, MAX_PATH), dtype=np.uint64)
    routes = np.zeros((1, 1), dtype=np.int64)
    route_len = np.zeros(1, dtype=np.int64)
    mv_from = np.zeros((depth, MAX_MOVES), dtype=np.int64)
    mv_to = np.zeros((depth, MAX_MOVES), dtype=np.int64)
    mv_cap = np.zeros((depth, MAX_MOVES), dtype=np.uint64)
    bw = np.zeros(depth, dtype=np.uint64)
    bb = np.zeros(depth, dtype=np.uint64)
    bk = np.zeros(depth, dtype=np.uint64)
    count = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    bw[0], bb[0], bk[0] = white, black, kings
    total = 0
    ply = 0
    fresh = True
    while ply >= 0:
        side = (color + ply) % 2
        if fresh:
            us, them = (bw[ply], bb[ply]) if side == 0 else (bb[ply], bw[ply])
            if ply == depth - 1:
                # bulk count at the last ply
                n = count_moves(us, them, bk[ply], side, rules, masks, nbr, scratch, capstk, mv_from[ply], mv_to[ply],
                                mv_cap[ply], routes, route_len)
                if n > MAX_MOVES:
                    return -1
                total += n
                fresh = False
                ply -= 1
                continue
            n = generate(us, them, bk[ply], side, rules, masks, nbr, False, scratch, capstk, mv_from[ply], mv_to[ply],
                         mv_cap[ply], routes, route_len)
            if n > MAX_MOVES:
                return -1
            fresh = False
            count[ply] = n
            index[ply] = 0
        i = index[ply]
        if i >= count[ply]:
            ply -= 1
            continue
        index[ply] = i + 1
        bw[ply + 1], bb[ply + 1], bk[ply + 1] = make_move(bw[ply], bb[ply], bk[ply], side, mv_from[ply, i],
                                                          mv_to[ply, i], mv_cap[ply, i], masks)
        ply += 1
        fresh = True
    return total

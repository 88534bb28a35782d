"""Search kernels (numba): principal-variation search with a transposition table, move ordering,
capture resolution and the draw rules, written as a loop over an explicit stack.

numba's on-disk cache can't hold recursive functions, so no kernel here calls itself: ``search`` keeps
one frame per ply in the arrays ``fr`` (int64 fields F_*) and ``bfr`` (uint64 fields B_*), with the
ply's moves in ``mv_*[ply]``, and moves between three actions: ENTER a node, pick the NEXT move of a
node (and descend into it), RETURN a value to the parent. The steps of a node are numbered in
``search`` as in Stockfish's ``search()``.

``search`` takes five records (named tuples, which numba passes as structs and caches like arrays),
so no caller depends on the position of an argument and a new input is a new field of one of them:

    Tables    the variant's read-only tables: rules and geometry, endgame rule, evaluation, Zobrist keys,
              endgame tables
    Memory    what the searcher learns and keeps between searches: transposition table, killers, history
    Stack     the work arrays, one row per ply, and the positions of the game before the root
    Output    the result: ``out[O_*]`` and the principal variation
    Request   this call: the root's side to move, depth, window, limits and stop flags

Scores are centi-men from the side to move's view. A won game scores MATE - plies to the win, so
nearer wins score higher; draws score 0.

Transposition table: two arrays, ``tt_key`` (uint64, the Zobrist key) and ``tt_data`` (int64, packed:
score, depth, bound, move code, generation), in buckets of two entries: the first slot keeps the
deeper (or current-search) entry, the second is always replaced.

A move code packs (from bit, to bit, an 8-bit hash of the captured set) with bit 20 set so that no
move has code 0; killers, the hash move and the PV compare codes.
"""

from typing import NamedTuple

import numpy as np

from ._board import M_VALID, R_FLYING, R_QUIET_PLIES, R_WIDTH, Layout
from ._draws import EndgameRule, endgame_after
from ._egdb import P_PIECES, V_DRAW, V_WIN, TableArrays
from ._egdb import probe as egdb_probe
from ._eval import EvalTables, evaluate
from ._jit import is_interpreted, kernel
from ._movegen import MAX_MOVES, generate, has_capture, lsb, make_move, plain_moves, popcount

ONE = np.uint64(1)
ZERO = np.uint64(0)

MAX_PLY = 128  # deepest ply of the stack (search depth plus capture and single-reply extensions)
MATE = 30000  # a win at the root; a win n plies away scores MATE - n
MATE_BOUND = MATE - 1000  # scores beyond this are wins or losses
INFINITE = 32000
# A position the endgame tables hold as won scores EGDB_WIN plus 100 a piece ahead (so that among won
# lines the search still prefers the one that wins more); below every real win, above every evaluation.
# A root they hold scores EGDB_ROOT - plies to the win (search.py), above the tree's band.
EGDB_WIN = 20000
EGDB_ROOT = EGDB_WIN + 1000
EGDB_BOUND = EGDB_WIN - 1000  # scores beyond this are the tables' wins and losses

# int64 frame fields, fr[F_*, ply]
(F_ALPHA, F_BETA, F_DEPTH, F_N, F_I, F_BEST, F_BESTI, F_OALPHA, F_STAGE, F_CUR, F_QUIET, F_DRAWAT, F_EXT,
 F_THREAT, F_GROUP, F_CHILD_DEPTH, F_REDUCED) = range(17)
F_COUNT = 17
# uint64 frame fields, bfr[B_*, ply]
B_WHITE, B_BLACK, B_KINGS, B_KEY = range(4)
B_COUNT = 4
# out[] fields (int64)
O_SCORE, O_FROM, O_TO, O_CAP, O_HAVE_BEST, O_ABORTED, O_NODES, O_PV_LEN = range(8)
O_COUNT = 8

# the three actions of the stack machine
ENTER, NEXT, RETURN = 0, 1, 2
# the search stage of the move being searched at a ply
STAGE_FULL, STAGE_ZERO = 0, 1

# tt_data packing
TT_SCORE_BITS = 22
TT_SCORE_OFFSET = 1 << 21
BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 1, 2, 3

USED = -(1 << 62)  # mv_score of a move already searched at its ply
CAP_HASH = np.uint64(0x9E3779B97F4A7C15)


class Tables(NamedTuple):
    """A variant's read-only tables."""

    board: Layout  # rules and geometry (``_board.layout``)
    endgame: EndgameRule  # the endgame rule's numbers, as scalars (``_draws.endgame_rule``)
    evals: EvalTables  # evaluation weights and tables (``_eval.eval_tables``)
    zobrist: np.ndarray  # uint64 [5, 64] (see ``position_key``)
    egdb: TableArrays  # the endgame tables (``egdb.Tables.arrays``; ``egdb.no_tables()``: none, never probed)


class Memory(NamedTuple):
    """What the searcher learns, kept from one search to the next until a new game."""

    tt_key: np.ndarray  # uint64: transposition table keys (see the module docstring)
    tt_data: np.ndarray  # int64: transposition table entries
    killers: np.ndarray  # int64 [MAX_PLY, 2]: move codes of quiet moves that caused a cut-off
    history: np.ndarray  # int64 [2, 64, 64]: by side, from bit, to bit: depth^2 of each such cut-off


class Stack(NamedTuple):
    """The search's work space: one row per ply."""

    fr: np.ndarray  # int64 [F_COUNT, MAX_PLY]: frame fields
    bfr: np.ndarray  # uint64 [B_COUNT, MAX_PLY]: boards and key
    mv_from: np.ndarray  # int64 [MAX_PLY, MAX_MOVES]: each ply's moves
    mv_to: np.ndarray
    mv_cap: np.ndarray  # uint64
    mv_score: np.ndarray  # int64: ordering scores, USED once searched
    rep: np.ndarray  # uint64: keys of the game's positions since the last irreversible move, then the path
    scratch: np.ndarray  # the move generator's work space (``_movegen.new_scratch``)
    capstk: np.ndarray
    routes: np.ndarray  # unused by the search (no routes recorded), but the generator's argument
    route_len: np.ndarray


class Output(NamedTuple):
    """What a search call writes."""

    out: np.ndarray  # int64 [O_COUNT]
    pv_from: np.ndarray  # int64 [MAX_PLY, MAX_PLY]: the principal variation from each ply (row 0: the root's)
    pv_to: np.ndarray
    pv_cap: np.ndarray  # uint64
    pv_len: np.ndarray  # int64 [MAX_PLY]: where each row's variation ends


class Request(NamedTuple):
    """One call of ``search``: every field a Python int except the two flags (int64 arrays of one)."""

    root_color: int  # the side to move at the root
    depth: int  # plies to search
    alpha: int  # the window
    beta: int
    root_only: int  # >= 0: search this root move alone (its index in generation order)
    n_hist: int  # how many keys of the game before the root ``Stack.rep`` holds
    generation: int  # the search's number, for replacing old table entries
    max_nodes: int  # stop after this many nodes
    stop: np.ndarray  # non-zero: stop now (the searcher's clock sets it)
    ext_stop: np.ndarray  # non-zero: stop now (the caller's flag)


if is_interpreted():  # plain Python (see _jit.interpret): the game's window imports this module, never numba

    def _unlikely(cond):
        return cond

else:
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def _unlikely(typingctx, cond):
        """``cond``, telling LLVM that it is almost always false (llvm.expect): the code it guards is
        laid out away from the hot path."""
        def codegen(context, builder, signature, args):
            bit = ir.IntType(1)
            fn = builder.module.declare_intrinsic("llvm.expect", [bit], ir.FunctionType(bit, [bit, bit]))
            return builder.call(fn, [args[0], ir.Constant(bit, 0)])
        return types.boolean(types.boolean), codegen


@kernel
def move_code(frm, to, cap):
    """A compact, non-zero identity for a move (see the module docstring)."""
    return (1 << 20) | frm | (to << 6) | np.int64((cap * CAP_HASH) >> np.uint64(56)) << 12


@kernel
def position_key(white, black, kings, color, zob):
    """Zobrist key of a position: one random number per (piece kind, square), kinds 0 white man,
    1 white king, 2 black man, 3 black king; zob[4, 0] is xored in when Black is to move."""
    key = ZERO
    b = white | black
    while b:
        sq = lsb(b)
        b &= b - ONE
        kind = (0 if (white >> np.uint64(sq)) & ONE else 2) + np.int64((kings >> np.uint64(sq)) & ONE)
        key ^= zob[kind, sq]
    if color == 1:
        key ^= zob[4, 0]
    return key


@kernel
def has_plain_move(us, them, kings, color, rules, masks):
    """Whether the side ``color`` owning ``us`` has a move that captures nothing: a man's step forward
    or a king's step in any direction (a flying king that can move at all can make one step)."""
    empty = masks[M_VALID] & ~(us | them)
    w = rules[R_WIDTH]
    s1 = np.uint64(w)
    s2 = np.uint64(w + 1)
    men = us & ~kings
    my_kings = us & kings
    if color == 0:
        steps = (men >> s1) | (men >> s2)
    else:
        steps = (men << s1) | (men << s2)
    steps |= (my_kings >> s1) | (my_kings >> s2) | (my_kings << s1) | (my_kings << s2)
    return (steps & empty) != ZERO


@kernel
def gen_moves(us, them, kings, color, rules, masks, nbr, scratch, capstk, out_from, out_to, out_cap, routes,
              route_len):
    """The legal moves, as ``_movegen.generate`` finds them (see ``gen_known``). Returns the count."""
    return gen_known(us, them, kings, color, has_capture(us, them, kings, color, rules, masks, nbr), rules, masks,
                     nbr, scratch, capstk, out_from, out_to, out_cap, routes, route_len)


@kernel
def gen_known(us, them, kings, color, capture, rules, masks, nbr, scratch, capstk, out_from, out_to, out_cap, routes,
              route_len):
    """The legal moves when the caller already knows whether there is a ``capture``: ``generate`` for
    captures, else ``plain_moves`` alone (``generate``'s own plain-move list, without its capture
    search). Returns the count (at most MAX_MOVES)."""
    if capture:
        n = generate(us, them, kings, color, rules, masks, nbr, False, scratch, capstk, out_from, out_to, out_cap,
                     routes, route_len)
    else:
        n = plain_moves(us & ~kings, us & kings, masks[M_VALID] & ~(us | them), color, rules[R_WIDTH],
                        rules[R_FLYING] != 0, nbr, out_from, out_to, out_cap)
    return min(n, MAX_MOVES)


@kernel
def child_counters(quiet, group, draw_at, ply, irreversible, white, black, kings, endgame):
    """Step 9's draw-rule counters: (quiet plies, endgame group, endgame draw ply) of the child at
    ``ply + 1`` (boards ``white``, ``black``, ``kings``), reached by a move that moved a man or captured
    (``irreversible``) or not, from a node with the counters (``quiet``, ``group``, ``draw_at``)."""
    group, draw_at = endgame_after(group, draw_at, ply + 1, irreversible, white, black, kings, endgame)
    return (0 if irreversible else quiet + 1), group, draw_at


@kernel
def is_drawn_by_limits(quiet, ply, draw_at, quiet_limit):
    """Step 4: whether the move limits draw the node at ``ply`` with the counters (``quiet``, ``draw_at``)."""
    return quiet >= quiet_limit or ply >= draw_at


@kernel
def _tt_probe(tt_key, tt_data, key):
    """The data of ``key``'s entry, or 0 when it isn't stored."""
    i = np.int64(key & np.uint64(tt_key.shape[0] // 2 - 1)) * 2
    if tt_key[i] == key:
        return tt_data[i]
    if tt_key[i + 1] == key:
        return tt_data[i + 1]
    return 0


@kernel
def _tt_store(tt_key, tt_data, key, depth, bound, score, code, ply, gen):
    """Store a result; wins are stored as distance from this node, not from the root. Capture
    resolution (depth <= 0) is stored as depth 0: it answers every probe at depth <= 0."""
    if score > MATE_BOUND:
        score += ply
    elif score < -MATE_BOUND:
        score -= ply
    i = np.int64(key & np.uint64(tt_key.shape[0] // 2 - 1)) * 2
    slot = np.int64(-1)
    if tt_key[i] == key:
        slot = i
    elif tt_key[i + 1] == key:
        slot = i + 1
    if slot >= 0 and code == 0:
        code = (tt_data[slot] >> 32) & 0x1FFFFF  # keep the move we knew
    data = ((score + TT_SCORE_OFFSET) & ((1 << TT_SCORE_BITS) - 1)) | (min(max(depth, 0), 255) << 22) | (bound << 30) \
        | (code << 32) | ((gen & 0xFF) << 53)
    if slot < 0:
        old = tt_data[i]
        old_depth = (old >> 22) & 0xFF
        old_gen = (old >> 53) & 0xFF
        if depth >= old_depth or old_gen != (gen & 0xFF) or old == 0:
            # depth-preferred slot: the old entry moves to the always-replace slot
            tt_key[i + 1] = tt_key[i]
            tt_data[i + 1] = old
            slot = i
        else:
            slot = i + 1
    tt_key[slot] = key
    tt_data[slot] = data


@kernel
def search(tables, memory, stack, output, request):
    """One iteration: search the root (set up in fr/bfr[:, 0] by the caller) to ``request.depth`` plies
    with the window (alpha, beta). ``root_only`` >= 0 searches that root move alone (by generation
    index). Writes the score, the best root move, the PV and the node count to ``output``; stops early
    (out[O_ABORTED] = 1) when ``stop`` or ``ext_stop`` turn non-zero or ``max_nodes`` is spent."""
    rules, masks, nbr = tables.board.rules, tables.board.masks, tables.board.nbr
    quiet_limit = rules[R_QUIET_PLIES]
    endgame = tables.endgame
    evals = tables.evals
    zob = tables.zobrist
    egdb = tables.egdb
    egdb_pieces = egdb.params[P_PIECES]
    tt_key, tt_data, killers, history = memory.tt_key, memory.tt_data, memory.killers, memory.history
    fr, bfr, rep = stack.fr, stack.bfr, stack.rep
    mv_from, mv_to, mv_cap, mv_score = stack.mv_from, stack.mv_to, stack.mv_cap, stack.mv_score
    scratch, capstk, routes, route_len = stack.scratch, stack.capstk, stack.routes, stack.route_len
    out, pv_from, pv_to, pv_cap, pv_len = output.out, output.pv_from, output.pv_to, output.pv_cap, output.pv_len
    root_color, depth, alpha0, beta0 = request.root_color, request.depth, request.alpha, request.beta
    root_only, n_hist, gen, max_nodes = request.root_only, request.n_hist, request.generation, request.max_nodes
    stop, ext_stop = request.stop, request.ext_stop
    nodes = out[O_NODES]
    out[O_HAVE_BEST] = 0
    out[O_ABORTED] = 0
    fr[F_ALPHA, 0] = alpha0
    fr[F_BETA, 0] = beta0
    fr[F_DEPTH, 0] = depth
    fr[F_EXT, 0] = 0
    rep[n_hist] = bfr[B_KEY, 0]
    ply = 0
    action = ENTER
    ret = 0
    while True:
        c = (root_color + ply) & 1
        if action == ENTER:
            # Step 1. count the node; poll the stop flags every 512 nodes (well under a millisecond)
            nodes += 1
            if (nodes & 511) == 0 and (stop[0] != 0 or ext_stop[0] != 0):
                out[O_ABORTED] = 1
                break
            if nodes >= max_nodes:
                out[O_ABORTED] = 1
                break
            white = bfr[B_WHITE, ply]
            black = bfr[B_BLACK, ply]
            kings = bfr[B_KINGS, ply]
            key = bfr[B_KEY, ply]
            alpha = fr[F_ALPHA, ply]
            beta = fr[F_BETA, ply]
            d = fr[F_DEPTH, ply]
            quiet = fr[F_QUIET, ply]
            pv_len[ply] = ply
            fr[F_THREAT, ply] = 0
            us = white if c == 0 else black
            them = black if c == 0 else white
            # Step 2. repetition: the same position with the same side to move since the last man
            # move or capture, in the game (rep[:n_hist]) or on this path, is a draw
            if ply > 0 and quiet >= 4:
                j = n_hist + ply - 4
                last = n_hist + ply - quiet
                drawn = False
                while j >= last and j >= 0:
                    if rep[j] == key:
                        drawn = True
                        break
                    j -= 2
                if drawn:
                    ret = 0
                    action = RETURN
                    continue
            # Step 3. no move loses (checked before the move limits: a win on the last move within a
            # limit is a win); captures are forced. Moves are generated only after the table had its say.
            is_capture = has_capture(us, them, kings, c, rules, masks, nbr)
            if not is_capture and not has_plain_move(us, them, kings, c, rules, masks):
                ret = -(MATE - ply)
                action = RETURN
                continue
            # Step 4. draws by the move limits (40/25 quiet moves each; the endgame counts)
            if ply > 0 and is_drawn_by_limits(quiet, ply, fr[F_DRAWAT, ply], quiet_limit):
                ret = 0
                action = RETURN
                continue
            # Step 4b. endgame tables: a position they hold has its exact value under the rules,
            # the endgame count included (plies left on it: F_DRAWAT - ply)
            probe_here = egdb_pieces > 0 and ply > 0 and popcount(white | black) <= egdb_pieces
            if _unlikely(probe_here):
                value, _ = egdb_probe(white, black, kings, c, fr[F_DRAWAT, ply] - ply, False, egdb.params,
                                      egdb.offsets, egdb.sq_of_bit, egdb.binom, egdb.wld, egdb.dist)
                if value >= 0:
                    if value == V_WIN:
                        ret = EGDB_WIN + 100 * (popcount(us) - popcount(them))
                    elif value == V_DRAW:
                        ret = 0
                    else:
                        ret = -(EGDB_WIN + 100 * (popcount(them) - popcount(us)))
                    action = RETURN
                    continue
            if ply >= MAX_PLY - 2:
                ret = evaluate(white, black, kings, c, quiet, quiet_limit, evals)
                action = RETURN
                continue
            # Step 5. horizon: captures are forced, so a position with one is searched on (all its
            # moves are captures); a quiet position where the opponent threatens to capture gets one
            # more ply (once per path) so an exchange is never cut in the middle; else evaluate
            qnode = d <= 0
            if qnode and not is_capture:
                if fr[F_EXT, ply] == 0 and has_capture(them, us, kings, 1 - c, rules, masks, nbr):
                    fr[F_THREAT, ply] = 1
                else:
                    ret = evaluate(white, black, kings, c, quiet, quiet_limit, evals)
                    action = RETURN
                    continue
            # Step 6. transposition table: the hash move, and a cut-off outside the PV (capture
            # resolution too: the same exchanges are met again and again)
            hash_code = 0
            data = _tt_probe(tt_key, tt_data, key)
            if data != 0:
                hash_code = (data >> 32) & 0x1FFFFF
                tt_depth = (data >> 22) & 0xFF
                if beta - alpha == 1 and tt_depth >= d and ply > 0:
                    s = (data & ((1 << TT_SCORE_BITS) - 1)) - TT_SCORE_OFFSET
                    if s > MATE_BOUND:
                        s -= ply
                    elif s < -MATE_BOUND:
                        s += ply
                    bound = (data >> 30) & 3
                    if bound == BOUND_EXACT or (bound == BOUND_LOWER and s >= beta) or \
                            (bound == BOUND_UPPER and s <= alpha):
                        ret = s
                        action = RETURN
                        continue
            # Step 7. generate, and order: hash move, the most pieces captured, killers, history
            n = gen_known(us, them, kings, c, is_capture, rules, masks, nbr, scratch, capstk, mv_from[ply],
                          mv_to[ply], mv_cap[ply], routes, route_len)
            k0 = killers[ply, 0]
            k1 = killers[ply, 1]
            for i in range(n):
                code = move_code(mv_from[ply, i], mv_to[ply, i], mv_cap[ply, i])
                if code == hash_code:
                    sc = np.int64(1) << 50
                elif is_capture:
                    sc = (popcount(mv_cap[ply, i]) << 40) + history[c, mv_from[ply, i], mv_to[ply, i]]
                elif code == k0:
                    sc = np.int64(1) << 45
                elif code == k1:
                    sc = (np.int64(1) << 45) - 1
                else:
                    sc = history[c, mv_from[ply, i], mv_to[ply, i]]
                if ply == 0 and root_only >= 0 and i != root_only:
                    sc = np.int64(USED)
                mv_score[ply, i] = sc
            fr[F_N, ply] = n
            fr[F_I, ply] = 0
            fr[F_BEST, ply] = -INFINITE
            fr[F_BESTI, ply] = -1
            fr[F_OALPHA, ply] = alpha
            action = NEXT
            continue

        if action == NEXT:
            # Step 8. the next move, best ordered first (selection; searched moves are marked USED)
            n = fr[F_N, ply]
            pick = -1
            best_sc = USED
            for i in range(n):
                if mv_score[ply, i] > best_sc:
                    best_sc = mv_score[ply, i]
                    pick = i
            if pick < 0 or fr[F_BEST, ply] >= fr[F_BETA, ply]:
                # Step 11. all moves searched (or a cut-off): store and return
                best = fr[F_BEST, ply]
                if ply > 0 or root_only < 0:
                    bi = fr[F_BESTI, ply]
                    if best >= fr[F_BETA, ply]:
                        bound = BOUND_LOWER
                    elif best > fr[F_OALPHA, ply]:
                        bound = BOUND_EXACT
                    else:
                        bound = BOUND_UPPER
                    code = 0
                    if bi >= 0 and bound != BOUND_UPPER:
                        code = move_code(mv_from[ply, bi], mv_to[ply, bi], mv_cap[ply, bi])
                    _tt_store(tt_key, tt_data, bfr[B_KEY, ply], fr[F_DEPTH, ply], bound, best, code, ply, gen)
                ret = best
                action = RETURN
                continue
            mv_score[ply, pick] = USED
            k = fr[F_I, ply]
            fr[F_I, ply] = k + 1
            fr[F_CUR, ply] = pick
            # Step 9. make the move: the child's boards, key, counters
            white = bfr[B_WHITE, ply]
            black = bfr[B_BLACK, ply]
            kings = bfr[B_KINGS, ply]
            frm = mv_from[ply, pick]
            to = mv_to[ply, pick]
            cap = mv_cap[ply, pick]
            nw, nb, nk = make_move(white, black, kings, c, frm, to, cap, masks)
            was_king = (kings >> np.uint64(frm)) & ONE
            is_king = (nk >> np.uint64(to)) & ONE
            key = bfr[B_KEY, ply] ^ zob[2 * c + np.int64(was_king), frm] ^ zob[2 * c + np.int64(is_king), to] \
                ^ zob[4, 0]
            cb = cap & masks[M_VALID]  # the captured squares (not _movegen.CROWNED)
            while cb:
                sq = lsb(cb)
                cb &= cb - ONE
                key ^= zob[2 * (1 - c) + np.int64((kings >> np.uint64(sq)) & ONE), sq]
            p1 = ply + 1
            bfr[B_WHITE, p1] = nw
            bfr[B_BLACK, p1] = nb
            bfr[B_KINGS, p1] = nk
            bfr[B_KEY, p1] = key
            rep[n_hist + p1] = key
            fr[F_EXT, p1] = fr[F_EXT, ply] | fr[F_THREAT, ply]
            fr[F_QUIET, p1], fr[F_GROUP, p1], fr[F_DRAWAT, p1] = child_counters(
                fr[F_QUIET, ply], fr[F_GROUP, ply], fr[F_DRAWAT, ply], ply, cap != ZERO or was_king == ZERO, nw, nb, nk,
                endgame)
            # Step 10. the child's depth and window: a single reply costs no depth; late quiet moves
            # outside the PV are reduced by a ply (re-searched at full depth if they look good);
            # moves after the first get a null window (re-searched with the full one if inside it)
            d = fr[F_DEPTH, ply]
            alpha = fr[F_ALPHA, ply]
            beta = fr[F_BETA, ply]
            new_depth = d - 1
            if fr[F_N, ply] == 1 and d > 0:
                new_depth = d
            reduced = 0
            if k >= 3 and d >= 3 and cap == ZERO and beta - alpha == 1 and new_depth < d:
                reduced = 1
            fr[F_CHILD_DEPTH, ply] = new_depth
            fr[F_REDUCED, ply] = reduced
            if k == 0:
                fr[F_STAGE, ply] = STAGE_FULL
                fr[F_ALPHA, p1] = -beta
                fr[F_BETA, p1] = -alpha
            else:
                fr[F_STAGE, ply] = STAGE_ZERO
                fr[F_ALPHA, p1] = -alpha - 1
                fr[F_BETA, p1] = -alpha
            fr[F_DEPTH, p1] = new_depth - reduced
            ply = p1
            action = ENTER
            continue

        # action == RETURN: hand ``ret`` to the parent
        if ply == 0:
            break
        ply -= 1
        c = (root_color + ply) & 1
        score = -ret
        alpha = fr[F_ALPHA, ply]
        beta = fr[F_BETA, ply]
        p1 = ply + 1
        if fr[F_STAGE, ply] == STAGE_ZERO and score > alpha:
            # Step 12. re-search: a reduced move at full depth, then a null-window success with the
            # full window
            if fr[F_REDUCED, ply] == 1:
                fr[F_REDUCED, ply] = 0
                fr[F_ALPHA, p1] = -alpha - 1
                fr[F_BETA, p1] = -alpha
                fr[F_DEPTH, p1] = fr[F_CHILD_DEPTH, ply]
                ply = p1
                action = ENTER
                continue
            if score < beta and beta - alpha > 1:
                fr[F_STAGE, ply] = STAGE_FULL
                fr[F_ALPHA, p1] = -beta
                fr[F_BETA, p1] = -alpha
                fr[F_DEPTH, p1] = fr[F_CHILD_DEPTH, ply]
                ply = p1
                action = ENTER
                continue
        # Step 13. a new best move: raise alpha, copy the PV, remember cut-off moves
        cur = fr[F_CUR, ply]
        if score > fr[F_BEST, ply]:
            fr[F_BEST, ply] = score
            fr[F_BESTI, ply] = cur
            if score > alpha:
                fr[F_ALPHA, ply] = score
                pv_from[ply, ply] = mv_from[ply, cur]
                pv_to[ply, ply] = mv_to[ply, cur]
                pv_cap[ply, ply] = mv_cap[ply, cur]
                m = pv_len[p1] if pv_len[p1] > p1 else p1
                for j in range(p1, m):
                    pv_from[ply, j] = pv_from[p1, j]
                    pv_to[ply, j] = pv_to[p1, j]
                    pv_cap[ply, j] = pv_cap[p1, j]
                pv_len[ply] = m
                if ply == 0:
                    out[O_SCORE] = score
                    out[O_FROM] = mv_from[0, cur]
                    out[O_TO] = mv_to[0, cur]
                    out[O_CAP] = np.int64(mv_cap[0, cur])
                    out[O_HAVE_BEST] = 1
                if score >= beta and mv_cap[ply, cur] == ZERO:
                    code = move_code(mv_from[ply, cur], mv_to[ply, cur], ZERO)
                    if killers[ply, 0] != code:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = code
                    dd = max(fr[F_DEPTH, ply], 1)
                    h = history[c, mv_from[ply, cur], mv_to[ply, cur]] + dd * dd
                    history[c, mv_from[ply, cur], mv_to[ply, cur]] = h
                    if h > (1 << 30):
                        for a in range(2):
                            for x in range(64):
                                for y in range(64):
                                    history[a, x, y] //= 2
        action = NEXT

    out[O_NODES] = nodes
    if out[O_ABORTED] == 0:
        out[O_SCORE] = ret  # the root's best score (fail-soft: a bound outside the window)
    out[O_PV_LEN] = pv_len[0]
    return out[O_SCORE]

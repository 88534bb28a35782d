"""Search kernels (numba): principal-variation search with a transposition table, move ordering,
capture resolution and the draw rules, written as a loop over an explicit stack.

numba's on-disk cache can't hold recursive functions, so no kernel here calls itself: ``search`` keeps
one frame per ply in ``Stack.frames`` (records of the dtype ``FRAME``, fields by name), with the
ply's moves in ``mv_*[ply]``, and moves between three actions: ENTER a node, pick the NEXT move of a
node (and descend into it), RETURN a value to the parent. Each step of a node is numbered as in
Stockfish's ``search()``; the longer ones are helper kernels, and ``search`` is the loop that joins them.

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

Transposition table: one array of ``TT_ENTRY`` records, each the Zobrist key (uint64) and the data
(int64, packed: score, depth, bound, move code, generation), in buckets of two entries (32 bytes, so a
probe reads one cache line): the first slot keeps the deeper (or current-search) entry, the second
is always replaced. An entry holds its key XORed with its data, so that the threads of a parallel
search (``search.Searcher(threads=N)``), which share the table without locks, never take one thread's
data for another's key: an entry half written by one thread while another reads it fails the check.
A child's bucket is prefetched as soon as its key is known: its probe comes a few steps later, and
waiting on memory there took about a seventh of the bench's time (``perf``).

A move code packs (from bit, to bit, an 8-bit hash of the captured set) with bit 20 set so that no
move has code 0; killers, the hash move and the PV compare codes.

Measured in American checkers and left out, each an SPRT(0, 10) at 0.1 s a move stopped without a gain
(Elo of the change, 95%): a two-ply late-move reduction (-4 +- 22), the reduction of step 6b from 4 plies
left (-11 +- 23), a history malus (-4 +- 21), counter-move ordering (-3 +- 22), reverse futility pruning
(-10 +- 20), late-move pruning (the quiet moves after the first 3 + depth^2 at 3 plies left or fewer
skipped outside the PV: -10 +- 21), a second threat extension on a path (-10 +- 23), and in ``search.py``
an aspiration window widened step by step instead of opened at once (+3 +- 19). The singular extension's
variants, stopped without a gain at 50,000 nodes a move: Stockfish's negative extension (the hash move a ply
shallower when the entry's score is at or above beta and another move reached the bound: +4 +- 17 over 677
games), its double extension (two plies at a null-window node whose other moves all stay 25 centi-men below
the bound: -4 +- 20 over 376 games), and the extension from 6 plies left instead of 8 (+16 +- 20 over 408
games, but +4 +- 23 over 235 at 0.1 s a move: the extra verifying searches cost their time).
"""

from typing import NamedTuple

import numpy as np

from ._board import M_VALID, R_FLYING, R_QUIET_PLIES, R_WIDTH, Layout
from ._draws import EndgameRule, endgame_after
from ._egdb import P_PIECES, V_DRAW, V_WIN, TableArrays
from ._egdb import probe as egdb_probe
from ._eval import EvalTables, adjusted, evaluate
from ._jit import inlined, is_interpreted, kernel, uncounted
from ._movegen import MAX_MOVES, generate, has_capture, lsb, make_move, plain_moves, popcount
from ._network import N_H1, NetTables
from ._network import forward as net_forward
from ._network import refresh as net_refresh
from ._network import update as net_update

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

# One search frame a ply (``Stack.frames[ply]``, a record): the node's position and window, where its
# move loop stands, and the draw-rule counters and extension flags it hands to its children.
FRAME = np.dtype([
    ("white", np.uint64), ("black", np.uint64), ("kings", np.uint64),  # the position
    ("key", np.uint64),  # its Zobrist key
    ("alpha", np.int64), ("beta", np.int64),  # the window (alpha rises as moves improve on it)
    ("alpha_in", np.int64),  # alpha as the node was entered: what an exact score must beat
    ("depth", np.int64),  # plies left (<= 0: capture resolution)
    ("moves", np.int64),  # how many moves the node has (mv_*[ply, :moves])
    ("tried", np.int64),  # how many of them were searched or are being searched
    ("move", np.int64),  # the index of the move being searched
    ("best", np.int64), ("best_move", np.int64),  # the best score so far and its move's index (-1: none)
    ("stage", np.int64),  # STAGE_FULL or STAGE_ZERO: how the current move is being searched
    ("child_depth", np.int64),  # the current move's depth before a reduction
    ("reduced", np.int64),  # 1 while the current move is searched a ply shallower (late-move reduction)
    ("quiet", np.int64),  # plies since the last man move or capture
    ("group", np.int64), ("draw_at", np.int64),  # the endgame count: its group and the ply of its draw
    ("extended", np.int64),  # 1 once the path had its threat extension
    ("threat", np.int64),  # 1 when this node is searched on for the opponent's threatened capture
    ("truncated", np.int64),  # plies the path took off while its material was far outside the window
    # singular extension (steps 7b, 8b): 1 while the moves other than the hash move are searched below its
    # score; the window and depth to go back to, the hash move's index, and the ply its own search gets
    ("verify", np.int64), ("outer_beta", np.int64), ("outer_depth", np.int64), ("hash_index", np.int64),
    ("ext", np.int64),
])
# out[] fields (int64)
O_SCORE, O_FROM, O_TO, O_CAP, O_HAVE_BEST, O_ABORTED, O_NODES, O_PV_LEN = range(8)
O_COUNT = 8

# the three actions of the stack machine
ENTER, NEXT, RETURN = 0, 1, 2
# the search stage of the move being searched at a ply
STAGE_FULL, STAGE_ZERO = 0, 1

# a transposition table entry (the table is an array of them)
TT_ENTRY = np.dtype([("key", np.uint64), ("data", np.int64)])
# its data packing
TT_SCORE_BITS = 22
TT_SCORE_OFFSET = 1 << 21
BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 1, 2, 3

USED = -(1 << 62)  # mv_score of a move already searched at its ply
HASH_FIRST = 1 << 50  # mv_score of the hash move
CAP_HASH = np.uint64(0x9E3779B97F4A7C15)


class Tables(NamedTuple):
    """A variant's read-only tables."""

    board: Layout  # rules and geometry (``_board.layout``)
    endgame: EndgameRule  # the endgame rule's numbers, as scalars (``_draws.endgame_rule``)
    evals: EvalTables  # evaluation weights and tables (``_eval.eval_tables``)
    zobrist: np.ndarray  # uint64 [5, 64] (see ``position_key``)
    egdb: TableArrays  # the endgame tables (``egdb.Tables.arrays``; ``egdb.no_tables()``: none, never probed)
    net: NetTables  # the network evaluation (``network.default_net``; ``network.no_net``: none, the linear one plays)


class Memory(NamedTuple):
    """What the searcher learns, kept from one search to the next until a new game."""

    tt: np.ndarray  # TT_ENTRY: the transposition table (see the module docstring)
    killers: np.ndarray  # int64 [MAX_PLY, 2]: move codes of quiet moves that caused a cut-off
    history: np.ndarray  # int64 [2, 64, 64]: by side, from bit, to bit: depth^2 of each such cut-off


class Stack(NamedTuple):
    """The search's work space: one row per ply."""

    frames: np.ndarray  # FRAME [MAX_PLY]: one search frame a ply
    mv_from: np.ndarray  # int64 [MAX_PLY, MAX_MOVES]: each ply's moves
    mv_to: np.ndarray
    mv_cap: np.ndarray  # uint64
    mv_score: np.ndarray  # int64: ordering scores, USED once searched
    rep: np.ndarray  # uint64: keys of the game's positions since the last irreversible move, then the path
    scratch: np.ndarray  # the move generator's work space (``_movegen.new_scratch``)
    capstk: np.ndarray
    routes: np.ndarray  # unused by the search (no routes recorded), but the generator's argument
    route_len: np.ndarray
    acc: np.ndarray  # int16 [MAX_PLY, 2, _network.MAX_HIDDEN]: the network's accumulators, both views, each ply
    fresh: np.ndarray  # int64 [2]: each view's last row of ``acc`` that is up to date on the current path
    hidden: np.ndarray  # int16 [3, _network.MAX_HIDDEN]: the network's work space


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
    truncation: int  # plies a node takes off while its material is far outside the window (0: none)
    truncation_margin: int  # how far outside: centi-men beyond alpha or beta
    truncation_king: int  # a king's worth in that material count (a man is 100)
    reduction_depth: int  # step 6b: a node with no hash move and this many plies left loses one (0: never)
    singular_depth: int  # step 7b: the singular extension from this many plies left (0: never)
    singular_margin: int  # how far below the hash move's score the other moves are searched, per ply left
    max_nodes: int  # stop after this many nodes
    stop: np.ndarray  # non-zero: stop now (the searcher's clock sets it)
    ext_stop: np.ndarray  # non-zero: stop now (the caller's flag)


if is_interpreted():  # plain Python (see _jit.interpret): the game's window imports this module, never numba

    def _unlikely(cond):
        return cond

    def _prefetch(table, index):
        """Start loading ``table[index]`` into the cache (compiled; nothing in plain Python)."""

else:
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic

    from ._network import element_pointer

    @intrinsic
    def _unlikely(typingctx, cond):
        """``cond``, telling LLVM that it is almost always false (llvm.expect): the code it guards is
        laid out away from the hot path."""
        def codegen(context, builder, signature, args):
            bit = ir.IntType(1)
            fn = builder.module.declare_intrinsic("llvm.expect", [bit], ir.FunctionType(bit, [bit, bit]))
            return builder.call(fn, [args[0], ir.Constant(bit, 0)])
        return types.boolean(types.boolean), codegen

    @intrinsic
    def _prefetch(typingctx, table, index):
        """Start loading ``table[index]`` into the cache (llvm.prefetch: for reading, kept close)."""
        if not (isinstance(table, types.Array) and table.ndim == 1 and isinstance(index, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            bytes_at = ir.IntType(8).as_pointer()
            address = builder.bitcast(element_pointer(context, builder, signature.args[0], args[0], (args[1],)), bytes_at)
            i32 = ir.IntType(32)
            fn = builder.module.declare_intrinsic("llvm.prefetch", [bytes_at],
                                                  ir.FunctionType(ir.VoidType(), [bytes_at, i32, i32, i32]))
            builder.call(fn, [address, i32(0), i32(3), i32(1)])
            return context.get_dummy_value()
        return types.void(table, types.intp), codegen


@inlined
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


@inlined
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


@inlined
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


@inlined
def child_counters(quiet, group, draw_at, ply, irreversible, white, black, kings, endgame):
    """Step 9's draw-rule counters: (quiet plies, endgame group, endgame draw ply) of the child at
    ``ply + 1`` (boards ``white``, ``black``, ``kings``), reached by a move that moved a man or captured
    (``irreversible``) or not, from a node with the counters (``quiet``, ``group``, ``draw_at``)."""
    group, draw_at = endgame_after(group, draw_at, ply + 1, irreversible, white, black, kings, endgame)
    return (0 if irreversible else quiet + 1), group, draw_at


@inlined
def is_drawn_by_limits(quiet, ply, draw_at, quiet_limit):
    """Step 4: whether the move limits draw the node at ``ply`` with the counters (``quiet``, ``draw_at``)."""
    return quiet >= quiet_limit or ply >= draw_at


@inlined
def _tt_probe(tt, key):
    """The data of ``key``'s entry, or 0 when it isn't stored."""
    i = np.int64(key & np.uint64(tt.shape[0] // 2 - 1)) * 2
    data = tt[i].data
    if tt[i].key ^ np.uint64(data) == key:
        return data
    data = tt[i + 1].data
    if tt[i + 1].key ^ np.uint64(data) == key:
        return data
    return 0


@inlined
def _tt_prefetch(tt, key):
    """Start loading ``key``'s bucket (``_tt_probe`` reads it soon)."""
    _prefetch(tt, np.int64(key & np.uint64(tt.shape[0] // 2 - 1)) * 2)


@inlined
def _tt_fields(data):
    """A table entry's (score as stored, depth, bound) (``_tt_store`` packs them)."""
    return (data & ((1 << TT_SCORE_BITS) - 1)) - TT_SCORE_OFFSET, (data >> 22) & 0xFF, (data >> 30) & 3


@inlined
def _tt_store(tt, key, depth, bound, score, code, ply, gen):
    """Store a result; wins are stored as distance from this node, not from the root. Capture
    resolution (depth <= 0) is stored as depth 0: it answers every probe at depth <= 0."""
    if score > MATE_BOUND:
        score += ply
    elif score < -MATE_BOUND:
        score -= ply
    i = np.int64(key & np.uint64(tt.shape[0] // 2 - 1)) * 2
    slot = np.int64(-1)
    if tt[i].key ^ np.uint64(tt[i].data) == key:
        slot = i
    elif tt[i + 1].key ^ np.uint64(tt[i + 1].data) == key:
        slot = i + 1
    if slot >= 0 and code == 0:
        code = (tt[slot].data >> 32) & 0x1FFFFF  # keep the move we knew
    data = ((score + TT_SCORE_OFFSET) & ((1 << TT_SCORE_BITS) - 1)) | (min(max(depth, 0), 255) << 22) | (bound << 30) \
        | (code << 32) | ((gen & 0xFF) << 53)
    if slot < 0:
        old = tt[i].data
        old_depth = _tt_fields(old)[1]
        old_gen = (old >> 53) & 0xFF
        if depth >= old_depth or old_gen != (gen & 0xFF) or old == 0:
            # depth-preferred slot: the old entry moves to the always-replace slot
            tt[i + 1].key = tt[i].key
            tt[i + 1].data = old
            slot = i
        else:
            slot = i + 1
    tt[slot].key = key ^ np.uint64(data)
    tt[slot].data = data


@inlined
def _is_repetition(rep, key, n_hist, ply, quiet):
    """Step 2: whether the position ``key`` at ``ply`` stood on the board before with the same side to
    move since the last man move or capture (``quiet`` plies ago), in the game (rep[:n_hist]) or on
    this path."""
    j = n_hist + ply - 4
    last = n_hist + ply - quiet
    while j >= last and j >= 0:
        if rep[j] == key:
            return True
        j -= 2
    return False


@inlined
def _egdb_score(white, black, kings, c, plies_left, us, them, egdb):
    """Step 4b: the endgame tables' value of a position they hold (won: EGDB_WIN + 100 a piece ahead,
    drawn 0, lost the negative), with ``plies_left`` on the endgame count; (False, 0) when they
    don't hold it."""
    value, _ = egdb_probe(white, black, kings, c, plies_left, False, egdb.params, egdb.offsets, egdb.sq_of_bit,
                          egdb.binom, egdb.wld, egdb.dist)
    if value < 0:
        return False, 0
    if value == V_WIN:
        return True, EGDB_WIN + 100 * (popcount(us) - popcount(them))
    if value == V_DRAW:
        return True, 0
    return True, -(EGDB_WIN + 100 * (popcount(them) - popcount(us)))


@inlined
def _truncate(f, us, them, kings, plies, margin, king):
    """Step 4c, truncation (as Cake's ``negamax``): a node whose material alone (a man 100, a king
    ``king``) is more than ``margin`` outside its window is searched ``plies`` shallower, and the path carries
    what it took off (``f.truncated``); a node back inside the window gets it all back."""
    material = 100 * (popcount(us & ~kings) - popcount(them & ~kings)) + king * (popcount(us & kings)
                                                                                - popcount(them & kings))
    if material < f.alpha - margin or material > f.beta + margin:
        f.depth -= plies
        f.truncated += plies
    elif f.truncated > 0:
        f.depth += f.truncated
        f.truncated = 0


@inlined
def _tt_cutoff(data, ply, depth, alpha, beta):
    """Step 6: whether the table entry ``data`` ends the node at ``ply`` outside the PV (a null window):
    deep enough, and a bound on the right side of the window. Returns (cut, score)."""
    s, stored_depth, bound = _tt_fields(data)
    if beta - alpha != 1 or ply == 0 or stored_depth < depth:
        return False, 0
    if s > MATE_BOUND:
        s -= ply
    elif s < -MATE_BOUND:
        s += ply
    cut = bound == BOUND_EXACT or (bound == BOUND_LOWER and s >= beta) or (bound == BOUND_UPPER and s <= alpha)
    return cut, s


@inlined
def _order_moves(mv_from, mv_to, mv_cap, mv_score, ply, n, c, is_capture, hash_code, killers, history, root_only):
    """Step 7: the ordering score of each of the ply's ``n`` moves: the hash move first, then captures
    by the pieces they take (then history), the two killers, and the other quiet moves by history. With
    ``root_only`` >= 0 at the root, every other move counts as searched already."""
    k0 = killers[ply, 0]
    k1 = killers[ply, 1]
    for i in range(n):
        code = move_code(mv_from[ply, i], mv_to[ply, i], mv_cap[ply, i])
        if code == hash_code:
            sc = np.int64(HASH_FIRST)
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


@inlined
def _pick_move(mv_score, ply, n):
    """Step 8: the index of the best-ordered move not yet searched, or -1 when none is left."""
    pick = -1
    best_sc = USED
    for i in range(n):
        if mv_score[ply, i] > best_sc:
            best_sc = mv_score[ply, i]
            pick = i
    return pick


@inlined
def _store_node(f, mv_from, mv_to, mv_cap, ply, tt, gen):
    """Step 11: the node's result in the table: a lower bound after a cut-off, exact inside the window,
    an upper bound when no move beat alpha (with no move to remember)."""
    best = f.best
    bi = f.best_move
    if best >= f.beta:
        bound = BOUND_LOWER
    elif best > f.alpha_in:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    code = 0
    if bi >= 0 and bound != BOUND_UPPER:
        code = move_code(mv_from[ply, bi], mv_to[ply, bi], mv_cap[ply, bi])
    _tt_store(tt, f.key, f.depth, bound, best, code, ply, gen)


@inlined
def _make_child(f, child, c, frm, to, cap, ply, masks, zob, endgame):
    """Step 9: play (frm, to, cap) from frame ``f`` (side ``c`` to move) into frame ``child``: its
    boards, key, extension flag and draw-rule counters."""
    white, black, kings = f.white, f.black, f.kings
    nw, nb, nk = make_move(white, black, kings, c, frm, to, cap, masks)
    was_king = (kings >> np.uint64(frm)) & ONE
    is_king = (nk >> np.uint64(to)) & ONE
    key = f.key ^ zob[2 * c + np.int64(was_king), frm] ^ zob[2 * c + np.int64(is_king), to] ^ zob[4, 0]
    cb = cap & masks[M_VALID]  # the captured squares (not _movegen.CROWNED)
    while cb:
        sq = lsb(cb)
        cb &= cb - ONE
        key ^= zob[2 * (1 - c) + np.int64((kings >> np.uint64(sq)) & ONE), sq]
    child.white = nw
    child.black = nb
    child.kings = nk
    child.key = key
    child.extended = f.extended | f.threat
    child.quiet, child.group, child.draw_at = child_counters(f.quiet, f.group, f.draw_at, ply,
                                                             cap != ZERO or was_king == ZERO, nw, nb, nk, endgame)


@inlined
def _bring_up(acc, fresh, v, ply, frames, mv_from, mv_to, mv_cap, root_color, net, valid):
    """View ``v``'s network accumulator at ``ply`` of the current path, from the last row of it that is
    up to date (``fresh[v]``: rows past it were left behind by moves made since) through the moves the
    frames on the way made. A view is brought up only where an evaluation reads it: a node that
    returns without one (the table, a repetition, a cut-off) costs its moves nothing."""
    for q in range(fresh[v], ply):
        f = frames[q]
        frm, to = mv_from[q, f.move], mv_to[q, f.move]
        net_update(acc, q, net, v, (root_color + q) & 1, frm, to, mv_cap[q, f.move] & valid, f.kings,
                   np.int64((f.kings >> np.uint64(frm)) & ONE), np.int64((frames[q + 1].kings >> np.uint64(to)) & ONE))
    fresh[v] = ply


@inlined
def _child_window(f, child, k, cap):
    """Step 10: the depth and window of the node's ``k``-th move (capturing ``cap``). A single reply
    costs no depth, nor a singular hash move (step 8b); late quiet moves outside the PV are reduced by a
    ply (searched again at full depth if they look good); moves after the first get a null window
    (searched again with the full one if they land inside it)."""
    d = f.depth
    alpha = f.alpha
    beta = f.beta
    new_depth = d - 1
    if f.moves == 1 and d > 0:
        new_depth = d
    if k == 0:
        new_depth += f.ext
    reduced = 0
    if k >= 3 and d >= 3 and cap == ZERO and beta - alpha == 1 and new_depth < d:
        reduced = 1
    f.child_depth = new_depth
    f.reduced = reduced
    if k == 0:
        f.stage = STAGE_FULL
        child.alpha = -beta
        child.beta = -alpha
    else:
        f.stage = STAGE_ZERO
        child.alpha = -alpha - 1
        child.beta = -alpha
    child.depth = new_depth - reduced
    child.truncated = f.truncated


@inlined
def _research(f, child, score):
    """Step 12: whether the move just searched with a null window (``score`` from this node's side)
    is searched again, and how: a reduced move at full depth, then a null-window success with the
    full window. Sets up ``child`` for it."""
    alpha = f.alpha
    beta = f.beta
    if f.stage != STAGE_ZERO or score <= alpha:
        return False
    if f.reduced == 1:
        f.reduced = 0
        child.alpha = -alpha - 1
        child.beta = -alpha
        child.depth = f.child_depth
        child.truncated = f.truncated
        return True
    if score < beta and beta - alpha > 1:
        f.stage = STAGE_FULL
        child.alpha = -beta
        child.beta = -alpha
        child.depth = f.child_depth
        child.truncated = f.truncated
        return True
    return False


@inlined
def _singular_start(f, data, ply, n, mv_score, margin):
    """Step 7b, singular extension (as Stockfish): at a deep node whose table entry is a lower bound (or
    exact) from a search at most 3 plies shallower, the moves other than the hash move are first searched
    half as deep with a null window ``margin`` a ply below the entry's score. Sets the frame up for that
    search (step 8b ends it) and marks the hash move searched; does nothing for a win or loss."""
    s, stored_depth, bound = _tt_fields(data)
    if stored_depth < f.depth - 3 or bound & BOUND_LOWER == 0 or s > EGDB_BOUND or s < -EGDB_BOUND:
        return
    for i in range(n):
        if mv_score[ply, i] == HASH_FIRST:
            mv_score[ply, i] = USED
            f.verify = 1
            f.hash_index = i
            f.outer_beta = f.beta
            f.outer_depth = f.depth
            f.beta = s - margin * f.depth
            f.alpha = f.beta - 1
            f.depth = (f.depth - 1) // 2
            return


@inlined
def _singular_end(f):
    """Step 8b: the search of step 7b is over. No other move reached its bound: the hash move alone
    holds the node and is searched a ply deeper (``f.ext``). Another did, and the bound is at or above the
    node's beta: the node fails high on that bound (multi-cut; returns True). Else the node is searched
    as usual. Puts back the node's window and depth."""
    f.verify = 0
    if f.best < f.beta:
        f.ext = 1
    elif f.beta >= f.outer_beta:
        return True
    f.alpha = f.alpha_in
    f.beta = f.outer_beta
    f.depth = f.outer_depth
    f.tried = 0
    f.best = -INFINITE
    f.best_move = -1
    return False


@inlined
def _copy_pv(output, mv_from, mv_to, mv_cap, ply, cur):
    """Step 13, a new best move inside the window: the PV from ``ply`` is its move and the child's PV."""
    pv_from, pv_to, pv_cap, pv_len = output.pv_from, output.pv_to, output.pv_cap, output.pv_len
    p1 = ply + 1
    pv_from[ply, ply] = mv_from[ply, cur]
    pv_to[ply, ply] = mv_to[ply, cur]
    pv_cap[ply, ply] = mv_cap[ply, cur]
    m = pv_len[p1] if pv_len[p1] > p1 else p1
    for j in range(p1, m):
        pv_from[ply, j] = pv_from[p1, j]
        pv_to[ply, j] = pv_to[p1, j]
        pv_cap[ply, j] = pv_cap[p1, j]
    pv_len[ply] = m


@inlined
def _reward_quiet_move(killers, history, ply, c, frm, to, depth):
    """Step 13, a quiet move that caused a cut-off: the ply's first killer, and depth^2 more history
    (all halved when a count grows past 2^30)."""
    code = move_code(frm, to, ZERO)
    if killers[ply, 0] != code:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = code
    dd = max(depth, 1)
    h = history[c, frm, to] + dd * dd
    history[c, frm, to] = h
    if h > (1 << 30):
        for a in range(2):
            for x in range(64):
                for y in range(64):
                    history[a, x, y] //= 2


@uncounted
def search(tables, memory, stack, output, request):
    """One iteration: search the root (set up in ``stack.frames[0]`` by the caller) to ``request.depth``
    plies with the window (alpha, beta). ``root_only`` >= 0 searches that root move alone (by generation
    index). Writes the score, the best root move, the PV and the node count to ``output``; stops early
    (out[O_ABORTED] = 1) when ``stop`` or ``ext_stop`` turn non-zero or ``max_nodes`` is spent."""
    rules, masks, nbr = tables.board.rules, tables.board.masks, tables.board.nbr
    quiet_limit = rules[R_QUIET_PLIES]
    evals = tables.evals
    egdb_pieces = tables.egdb.params[P_PIECES]
    tt, killers, history = memory.tt, memory.killers, memory.history
    frames, rep = stack.frames, stack.rep
    mv_from, mv_to, mv_cap, mv_score = stack.mv_from, stack.mv_to, stack.mv_cap, stack.mv_score
    out, pv_len = output.out, output.pv_len
    root_color, root_only, n_hist = request.root_color, request.root_only, request.n_hist
    stop, ext_stop = request.stop, request.ext_stop
    nodes = out[O_NODES]
    out[O_HAVE_BEST] = 0
    out[O_ABORTED] = 0
    root = frames[0]
    root.alpha = request.alpha
    root.beta = request.beta
    root.depth = request.depth
    root.extended = 0
    root.truncated = 0
    rep[n_hist] = root.key
    net = tables.net
    acc = stack.acc
    use_net = net.sizes[N_H1] > 0
    fresh = stack.fresh
    fresh[0] = fresh[1] = 0
    if use_net:
        net_refresh(root.white, root.black, root.kings, net, acc[0])
    ply = 0
    action = ENTER
    ret = 0
    while True:
        c = (root_color + ply) & 1
        f = frames[ply]
        if action == ENTER:
            # Step 1. count the node; poll the stop flags every 512 nodes (well under a millisecond)
            nodes += 1
            if (nodes & 511) == 0 and (stop[0] != 0 or ext_stop[0] != 0):
                out[O_ABORTED] = 1
                break
            if nodes >= request.max_nodes:
                out[O_ABORTED] = 1
                break
            white, black, kings = f.white, f.black, f.kings
            pv_len[ply] = ply
            f.threat = 0
            us = white if c == 0 else black
            them = black if c == 0 else white
            # Step 2. repetition: a draw
            if ply > 0 and f.quiet >= 4 and _is_repetition(rep, f.key, n_hist, ply, f.quiet):
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
            if ply > 0 and is_drawn_by_limits(f.quiet, ply, f.draw_at, quiet_limit):
                ret = 0
                action = RETURN
                continue
            # Step 4b. endgame tables: a position they hold has its exact value under the rules,
            # the endgame count included (plies left on it: draw_at - ply)
            if _unlikely(egdb_pieces > 0 and ply > 0 and popcount(white | black) <= egdb_pieces):
                held, value = _egdb_score(white, black, kings, c, f.draw_at - ply, us, them, tables.egdb)
                if held:
                    ret = value
                    action = RETURN
                    continue
            # Step 4c. truncation: far outside the window on material, a shallower search (not in
            # endings of 8 pieces or fewer, where a man up or down is the whole game)
            if request.truncation > 0 and ply > 0 and not is_capture and popcount(white | black) > 8:
                _truncate(f, us, them, kings, request.truncation, request.truncation_margin,
                          request.truncation_king)
            # Step 5. horizon: captures are forced, so a position with one is searched on (all its
            # moves are captures); a quiet position where the opponent threatens to capture gets one
            # more ply (once per path) so an exchange is never cut in the middle; else evaluate (and
            # always at the bottom of the stack). One call site: the evaluation is inlined.
            at_horizon = f.depth <= 0 and not is_capture
            if at_horizon and ply < MAX_PLY - 2 and f.extended == 0 and has_capture(them, us, kings, 1 - c, rules,
                                                                                    masks, nbr):
                f.threat = 1
            elif at_horizon or ply >= MAX_PLY - 2:
                if use_net:
                    _bring_up(acc, fresh, c, ply, frames, mv_from, mv_to, mv_cap, root_color, net, masks[M_VALID])
                    ret = adjusted(net_forward(acc, ply, c, net, stack.hidden), white, black, kings, f.quiet,
                                   quiet_limit, evals)
                else:
                    ret = evaluate(white, black, kings, c, f.quiet, quiet_limit, evals)
                action = RETURN
                continue
            # Step 6. transposition table: the hash move, and a cut-off outside the PV (capture
            # resolution too: the same exchanges are met again and again)
            hash_code = 0
            data = _tt_probe(tt, f.key)
            if data != 0:
                hash_code = (data >> 32) & 0x1FFFFF
                cut, s = _tt_cutoff(data, ply, f.depth, f.alpha, f.beta)
                if cut:
                    ret = s
                    action = RETURN
                    continue
            # Step 6b. a deep node outside the PV that the table knows no move for (none searched it
            # before, or none of its moves beat alpha there): most likely one that fails low, so a
            # ply shallower (internal iterative reduction, as Stockfish)
            if hash_code == 0 and request.reduction_depth > 0 and f.depth >= request.reduction_depth \
                    and f.beta - f.alpha == 1 and not is_capture:
                f.depth -= 1
            # Step 7. generate, and order: hash move, the most pieces captured, killers, history
            n = gen_known(us, them, kings, c, is_capture, rules, masks, nbr, stack.scratch, stack.capstk,
                          mv_from[ply], mv_to[ply], mv_cap[ply], stack.routes, stack.route_len)
            _order_moves(mv_from, mv_to, mv_cap, mv_score, ply, n, c, is_capture, hash_code, killers, history,
                         root_only)
            f.moves = n
            f.tried = 0
            f.best = -INFINITE
            f.best_move = -1
            f.alpha_in = f.alpha
            f.verify = 0
            f.ext = 0
            # Step 7b. singular extension: is the hash move the only good one?
            if request.singular_depth > 0 and ply > 0 and hash_code != 0 and n > 1 \
                    and f.depth >= request.singular_depth and ply < 2 * request.depth:
                _singular_start(f, data, ply, n, mv_score, request.singular_margin)
            action = NEXT
            continue

        if action == NEXT:
            # Step 8. the next move, best ordered first (searched moves are marked USED)
            pick = _pick_move(mv_score, ply, f.moves)
            if pick < 0 or f.best >= f.beta:
                # Step 8b. the singular search is over: fail high on its bound, or search the node
                if f.verify == 1:
                    if _singular_end(f):
                        ret = f.beta
                        action = RETURN
                        continue
                    hi = f.hash_index  # its moves are all captures or none is
                    is_capture = mv_cap[ply, hi] & masks[M_VALID] != ZERO
                    _order_moves(mv_from, mv_to, mv_cap, mv_score, ply, f.moves, c, is_capture,
                                 move_code(mv_from[ply, hi], mv_to[ply, hi], mv_cap[ply, hi]), killers, history,
                                 root_only)
                    pv_len[ply] = ply
                    continue
                # Step 11. all moves searched (or a cut-off): store and return
                if ply > 0 or root_only < 0:
                    _store_node(f, mv_from, mv_to, mv_cap, ply, tt, request.generation)
                ret = f.best
                action = RETURN
                continue
            mv_score[ply, pick] = USED
            k = f.tried
            f.tried = k + 1
            f.move = pick
            # Step 9. make the move; Step 10. the child's depth and window
            child = frames[ply + 1]
            cap = mv_cap[ply, pick]
            _make_child(f, child, c, mv_from[ply, pick], mv_to[ply, pick], cap, ply, masks, tables.zobrist,
                        tables.endgame)
            rep[n_hist + ply + 1] = child.key
            _tt_prefetch(tt, child.key)
            # the accumulators past this ply are another path's now (brought up when evaluated)
            fresh[0] = min(fresh[0], ply)
            fresh[1] = min(fresh[1], ply)
            _child_window(f, child, k, cap)
            ply += 1
            action = ENTER
            continue

        # action == RETURN: hand ``ret`` to the parent
        if ply == 0:
            break
        ply -= 1
        c = (root_color + ply) & 1
        f = frames[ply]
        score = -ret
        # Step 12. re-search a null-window move that beat alpha
        if _research(f, frames[ply + 1], score):
            ply += 1
            action = ENTER
            continue
        # Step 13. a new best move: raise alpha, copy the PV, remember cut-off moves
        cur = f.move
        if score > f.best:
            f.best = score
            f.best_move = cur
            if score > f.alpha:
                f.alpha = score
                _copy_pv(output, mv_from, mv_to, mv_cap, ply, cur)
                if ply == 0:
                    out[O_SCORE] = score
                    out[O_FROM] = mv_from[0, cur]
                    out[O_TO] = mv_to[0, cur]
                    out[O_CAP] = np.int64(mv_cap[0, cur])
                    out[O_HAVE_BEST] = 1
                if score >= f.beta and mv_cap[ply, cur] == ZERO:
                    _reward_quiet_move(killers, history, ply, c, mv_from[ply, cur], mv_to[ply, cur], f.depth)
        action = NEXT

    out[O_NODES] = nodes
    if out[O_ABORTED] == 0:
        out[O_SCORE] = ret  # the root's best score (fail-soft: a bound outside the window)
    out[O_PV_LEN] = pv_len[0]
    return out[O_SCORE]

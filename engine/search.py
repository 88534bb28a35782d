"""The computer player: search limits and results, the Searcher, and the specification's levels.

    searcher = Searcher()                     # owns the transposition table (64 MB by default)
    searcher.warm_up()                        # compile or load the numba cache for both games
    result = searcher.search(game, Limits(movetime=1.5), stop=flag, on_info=print)
    result = choose_move(searcher, game, "medium", random.Random())

``game`` is an :class:`engine.game.Game`: its history feeds the repetition rule and its counters the
move limits (``Game(variant, position)`` searches a bare position). The kernels live in
``_search.py`` (search) and ``_eval.py`` (evaluation); this module prepares their records and turns
their bit-level results into ``Move``s.

Levels (specification, shared/seeds/000 FAQ "Is there a winning strategy for Checkers?"): Easy plays
40% of its moves at random and otherwise searches 2 plies; Medium searches the variant's
``medium_depth_plies`` (8 plies in American checkers, 6 in International draughts); Hard searches up
to 1.5 s per move, as deep as that goes.
Within a level the computer picks at random among the moves that score as well as the best one (or
within the level's small margin), so it doesn't play the same game every time. In the opening it
plays from the book (``engine.book``): Hard the best move, Easy and Medium one of the good ones.
"""

from __future__ import annotations

import mmap
import os
import random
import threading
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from operator import attrgetter
from typing import Callable

import numpy as np

from . import _board, egdb, network
from . import _search as K
from ._draws import NO_GROUP, NO_LIMIT, endgame_rule
from ._eval import eval_tables
from ._jit import mark_compiled
from ._movegen import CROWNED, MAX_MOVES, MAX_PATH, new_scratch
from ._network import MAX_HIDDEN
from .game import Game
from .position import Move, Position
from .variants import VARIANTS, Color, Variant

MATE = K.MATE
MATE_BOUND = K.MATE_BOUND
EGDB_WIN = K.EGDB_WIN
EGDB_ROOT = K.EGDB_ROOT
EGDB_BOUND = K.EGDB_BOUND  # beyond this (and within MATE_BOUND): a result the endgame tables know
_EGDB_RECHECK_SECONDS = 10.0  # how often a searcher looks again for tables that were not built yet
_MAX_DEPTH = K.MAX_PLY - 32  # iterative deepening never asks for more (extensions need the rest)
_ASPIRATION = 40  # centi-men either side of the last score
MAX_THREADS = 8  # the most search threads default_threads gives (lazy SMP gains little beyond)
_ZOBRIST_SEED = 0x5EED_C4EC
# truncation (``_search._truncate``, as Cake 1.22 searches): (plies, margin in centi-men, a king's worth
# in men's hundredths) by rule set, each named once an SPRT of its own showed the gain; a rule set not
# named here searches without it. American: Cake's king, 130; the others near their evaluation's king
# (Italian 250: a man cannot take a king, and the evaluation weighs one at 2.8 men). Measured level and
# left out: International with 300 and 250 (-9 +- 26 and -10 +- 30 Elo), and with 300 and a margin of 210
# (-4 +- 18), Spanish with 300 (0 +- 30), Czech with 270 (+7 +- 25); American with a margin of 90 instead of
# 110 (-1 +- 23)
_TRUNCATION: dict[str, tuple[int, int, int]] = {"american": (1, 110, 130), "italian": (1, 110, 250),
                                                 "russian": (1, 110, 270), "brazilian": (1, 110, 240),
                                                 "pool": (1, 110, 300), "thai": (1, 110, 250)}
# the reduction of a node the table knows no move for (``_search`` step 6b): from this many plies left,
# by rule set, each named once an SPRT of its own showed the gain (all nine have); a rule set not named
# here searches without it
_REDUCTION_DEPTH: dict[str, int] = dict.fromkeys(("american", "international", "brazilian", "russian", "pool", "spanish",
                                                  "italian", "czech", "thai"), 5)
# the singular extension (``_search`` steps 7b and 8b): (from this many plies left, centi-men a ply left below
# the hash move's score) by rule set, each named once an SPRT of its own showed the gain; a rule set not
# named here searches without it. American: +16 +- 14 Elo over 669 games at 0.1 s a move (SPRT(0, 10), LLR 3.67),
# +11 +- 21 over 400 games at 50,000 nodes a move. International: +18 +- 15 over 567 games at 0.1 s a move (two
# SPRT(0, 10) runs, seeds 97 and 98, stopped at LLR 1.04 and 1.37 and pooled), +17 +- 19 over 400 games at 50,000
# nodes a move (seed 99). Measured and not taken: American with a margin of 1, +19 +- 17 over 488 games at 0.1 s a
# move (SPRT(0, 10) accepted, seed 105) but +1 +- 20 over 400 games at 50,000 nodes a move (seed 106)
_SINGULAR: dict[str, tuple[int, int]] = {"american": (8, 2), "international": (8, 2)}


@dataclass(frozen=True)
class Limits:
    """When to stop: after ``depth`` plies, ``movetime`` seconds or ``nodes`` nodes, whichever first.
    None everywhere means "until stopped" (up to the deepest depth the stack allows)."""

    depth: int | None = None
    movetime: float | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class SearchResult:
    """The move to play. ``score`` is in centi-men from the side to move's view; a win scores
    ``MATE - plies`` (a loss the negative), so ``abs(score) > MATE_BOUND`` means a forced result, and
    ``abs(score) > EGDB_BOUND`` a result the endgame tables know (at a root they hold:
    ``EGDB_ROOT - plies`` for a win in ``plies``, the move the tables' fastest win, with ``depth`` 1 and
    no nodes: nothing was searched; in the tree ``EGDB_WIN`` + 100 a piece ahead)."""

    move: Move
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[Move, ...]


@dataclass(frozen=True)
class Info:
    """One finished iteration of iterative deepening."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: tuple[Move, ...]


@lru_cache(maxsize=None)
def zobrist(variant: Variant) -> np.ndarray:
    """The variant's Zobrist table (5 x 64 uint64): rows white man, white king, black man, black king,
    and [4, 0] for Black to move. Fixed seed, so keys (and the bench signature) never change."""
    rng = np.random.default_rng(_ZOBRIST_SEED + variant.size)
    table = rng.integers(1, np.iinfo(np.uint64).max, size=(5, 64), dtype=np.uint64, endpoint=True)
    table.setflags(write=False)
    return table


def position_key(pos: Position) -> int:
    """The Zobrist key the search uses for ``pos``."""
    return int(K.position_key(np.uint64(pos.white), np.uint64(pos.black), np.uint64(pos.kings), int(pos.turn),
                              zobrist(pos.variant)))


def _context(game: Game) -> tuple[Position, list[Position], int]:
    """(position, the positions since the last man move or capture before it, quiet plies) of a game."""
    if not isinstance(game, Game):
        raise TypeError(f"the search takes a Game, not {type(game).__name__} (a position p: Game(p.variant, p))")
    positions = game.positions
    quiet = game.quiet_plies
    return positions[-1], positions[len(positions) - 1 - quiet:-1], quiet


def root_endgame_count(game: Game) -> tuple[int, int]:
    """The endgame count of the search's root frame, as the game record has it: (group, the ply of the
    draw counted from the root), or (NO_GROUP, NO_LIMIT) when no count runs. The search carries it on
    with ``_search.child_counters``."""
    count = game.endgame_count
    return (NO_GROUP, NO_LIMIT) if count is None else count


@lru_cache(maxsize=None)
def _tables(variant: Variant, weights: tuple[int, ...] | None, net: str | None) -> K.Tables:
    """The kernel's read-only tables of a variant, with its own evaluation weights or ``weights``, and
    its own network (``net`` None), none (``"off"``: the linear evaluation plays) or a network file's."""
    if net is None:
        nets = network.default_net(variant)
    elif net == "off":
        nets = network.no_net(variant)
    else:
        nets = network.read_net(variant, net)
    return K.Tables(_board.layout(variant), endgame_rule(variant), eval_tables(variant, weights), zobrist(variant),
                    egdb.no_tables(), nets)


@dataclass(frozen=True)
class _Root:
    """One search's set-up: the position, its moves in kernel order, and the kernel's records but for
    the Request's depth and window (see ``Searcher._run``)."""

    position: Position
    moves: list[Move]
    by_bits: dict[tuple[int, int, int], Move]  # the moves by the kernel's (from bit, to bit, captured bits)
    tables: K.Tables
    stack: K.Stack
    request: K.Request


def _zeroed(entries: int, dtype) -> np.ndarray:
    """A zero-filled array on an anonymous memory mapping of its own: the system hands out its pages
    (zeroed) as they are first written, so a table the search has barely used holds little memory,
    and the mapping goes back to the system with the array. Where the system has them (Linux), the
    mapping asks for huge pages (2 MB): a table probe at a random place then costs no page-table walk
    of its own, which was half the search's time with 4 KB pages (a 64 MB table: 1.42 M nodes/s
    against 2.4-2.5 M, thread time, on this 2-core machine); the whole table is then resident
    after a few moves, as it soon is with small pages too."""
    private = {"flags": mmap.MAP_PRIVATE} if hasattr(mmap, "MAP_PRIVATE") else {}  # not shared with children (Unix)
    memory = mmap.mmap(-1, entries * np.dtype(dtype).itemsize, **private)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        memory.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(memory, dtype=dtype)


def _new_stack() -> K.Stack:
    """A search's work arrays (its ``rep`` is replaced per search, see ``Searcher._prepare``)."""
    scratch, capstk = new_scratch()
    return K.Stack(frames=np.zeros(K.MAX_PLY, dtype=K.FRAME),
                   mv_from=np.zeros((K.MAX_PLY, MAX_MOVES), dtype=np.int64),
                   mv_to=np.zeros((K.MAX_PLY, MAX_MOVES), dtype=np.int64),
                   mv_cap=np.zeros((K.MAX_PLY, MAX_MOVES), dtype=np.uint64),
                   mv_score=np.zeros((K.MAX_PLY, MAX_MOVES), dtype=np.int64),
                   rep=np.zeros(K.MAX_PLY + 1, dtype=np.uint64),
                   scratch=scratch, capstk=capstk, routes=np.zeros((1, MAX_PATH), dtype=np.int64),
                   route_len=np.zeros(1, dtype=np.int64),
                   acc=np.zeros((K.MAX_PLY, 2, MAX_HIDDEN), dtype=np.int16),
                   fresh=np.zeros(2, dtype=np.int64),
                   hidden=np.zeros((3, MAX_HIDDEN), dtype=np.int16))


def _new_output() -> K.Output:
    """Where a search call writes its result."""
    return K.Output(out=np.zeros(K.O_COUNT, dtype=np.int64),
                    pv_from=np.zeros((K.MAX_PLY, K.MAX_PLY), dtype=np.int64),
                    pv_to=np.zeros((K.MAX_PLY, K.MAX_PLY), dtype=np.int64),
                    pv_cap=np.zeros((K.MAX_PLY, K.MAX_PLY), dtype=np.uint64),
                    pv_len=np.zeros(K.MAX_PLY, dtype=np.int64))


class _Helper:
    """A helper thread's own arrays in a parallel search (``Searcher(threads=N)``): stack, output,
    killers and history; the transposition table is the searcher's."""

    def __init__(self, number: int):
        self.number = number
        self.stack = _new_stack()
        self.output = _new_output()
        self.killers = np.zeros((K.MAX_PLY, 2), dtype=np.int64)
        self.history = np.zeros((2, 64, 64), dtype=np.int64)

    def run(self, tables: K.Tables, memory: K.Memory, stack: K.Stack, request: K.Request, main_depth: np.ndarray,
            max_depth: int) -> None:
        """Deeper and deeper searches with the full window until a stop flag is set (the kernel releases
        the GIL: the threads search at the same time), each a ply or two deeper than the main thread's
        iteration (``main_depth[0]``) as it starts, so that the main thread's next one finds them in the table."""
        self.output.out[:] = 0
        depth = 0
        while depth < max_depth:
            depth = min(max_depth, max(depth + 1, int(main_depth[0]) + 1 + (self.number + 1) % 2))
            K.search(tables, memory, stack, self.output, request._replace(depth=depth))
            if self.output.out[K.O_ABORTED]:
                return


def default_threads() -> int:
    """The search threads the computer uses: every core the process may run on but one, which the
    window keeps (at least one, at most :data:`MAX_THREADS`)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(MAX_THREADS, cores - 1))


class Searcher:
    """Owns the transposition table, killers, history and the kernel's work arrays; one search at a
    time. ``weights`` maps a variant name to an evaluation weight vector (``_eval``: opening row, then ending row) to
    try other numbers in a match. With ``endgame_tables`` the searcher uses the endgame tables of
    ``engine.egdb`` once they are built (looking for them again every few seconds until then): a root
    they hold is answered from them (the fastest win, the longest loss; a drawn root is searched, the
    tables scoring its moves), and every node they hold in the tree gets its exact value. ``nets`` maps
    a variant name to ``"off"`` (the linear evaluation plays, as where no network is shipped) or a
    network weights file (``engine.network``) to play instead of the shipped one. With ``threads`` > 1
    a search is parallel (lazy SMP): helper threads search the same root at the same time, each with
    its own stack, killers and history, and fill the shared transposition table, where the main
    thread finds their results; the main thread's iterations give the move, as with one thread. A
    search with a node limit (the same search on every machine), a forced move and the searches of
    :meth:`equal_moves` run on the main thread alone."""

    def __init__(self, tt_size_mb: int = 64, weights: dict[str, tuple[int, ...]] | None = None,
                 endgame_tables: bool = False, nets: dict[str, str] | None = None, threads: int = 1):
        entries = max(2, tt_size_mb * (1 << 20) // 16)  # 16 bytes an entry (key + data)
        entries = 1 << (entries.bit_length() - 1)
        self._memory = K.Memory(tt=_zeroed(entries, K.TT_ENTRY),
                                killers=np.zeros((K.MAX_PLY, 2), dtype=np.int64),
                                history=np.zeros((2, 64, 64), dtype=np.int64))
        self._generation = 0
        self._weights = {k: tuple(int(x) for x in v) for k, v in (weights or {}).items()}
        self._nets = dict(nets or {})
        self._stack = _new_stack()
        self._output = _new_output()
        self._out = self._output.out
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self._helpers = [_Helper(i) for i in range(1, threads)]
        self._helpers_stop = np.zeros(1, dtype=np.int64)  # set when the main thread's search ends
        self._main_depth = np.zeros(1, dtype=np.int64)  # the main thread's iteration (the helpers search deeper)
        self._time_up = np.zeros(1, dtype=np.int64)  # set by a timer thread when movetime runs out
        self._no_stop = np.zeros(1, dtype=np.int64)
        self._endgame_tables = endgame_tables
        self._egdb: dict[str, egdb.Tables] = {}
        self._egdb_next_look: dict[str, float] = {}

    def tables(self, variant: Variant) -> egdb.Tables | None:
        """The endgame tables this searcher uses for ``variant`` (None: off, or not built yet)."""
        if not self._endgame_tables:
            return None
        found = self._egdb.get(variant.name)
        now = time.monotonic()
        if found is None and now >= self._egdb_next_look.get(variant.name, 0.0):
            self._egdb_next_look[variant.name] = now + _EGDB_RECHECK_SECONDS
            found = egdb.load(variant)
            if found is not None:
                self._egdb[variant.name] = found
        return found

    @property
    def tt_entries(self) -> int:
        return int(self._memory.tt.shape[0])

    def new_game(self) -> None:
        """Forget everything learnt: transposition table, killers, history."""
        # a fresh table rather than zeros written over the old one: writing would make every page of
        # the table resident at once, where fresh pages cost memory only as the search fills them
        entries = self.tt_entries
        self._memory.killers[:] = 0
        self._memory.history[:] = 0
        for helper in self._helpers:
            helper.killers[:] = 0
            helper.history[:] = 0
        self._memory = self._memory._replace(tt=_zeroed(entries, K.TT_ENTRY))
        self._generation = 0

    def warm_up(self) -> None:
        """Compile the kernels, or load them from numba's disk cache, for both games (a tiny search),
        and with ``endgame_tables`` those that load and probe the tables (``egdb.warm_up``)."""
        for variant in VARIANTS.values():
            self.search(Game(variant), Limits(depth=2))
        if self._endgame_tables:
            egdb.warm_up()
        self.new_game()
        mark_compiled()  # kernels_cached(search=True) now says so

    # --- one search ----------------------------------------------------------------------------

    def _prepare(self, game: Game, stop: np.ndarray | None) -> _Root:
        """Set up the root frame (``frames[0]``) and the kernel's records."""
        pos, history, quiet = _context(game)
        variant = pos.variant
        tables = _tables(variant, self._weights.get(variant.name), self._nets.get(variant.name))
        endgame_tables = self.tables(variant)
        if endgame_tables is not None:
            tables = tables._replace(egdb=endgame_tables.arrays)
        rep = np.zeros(len(history) + K.MAX_PLY + 1, dtype=np.uint64)
        for i, p in enumerate(history):
            rep[i] = position_key(p)
        root = self._stack.frames[0]
        root["white"], root["black"], root["kings"] = pos.white, pos.black, pos.kings
        root["key"] = position_key(pos)
        root["quiet"] = quiet
        root["group"], root["draw_at"] = root_endgame_count(game)
        self._generation += 1
        truncation, margin, king = _TRUNCATION.get(variant.name, (0, 0, 0))
        singular_depth, singular_margin = _SINGULAR.get(variant.name, (0, 0))
        request = K.Request(root_color=int(pos.turn), depth=1, alpha=-K.INFINITE, beta=K.INFINITE, root_only=-1,
                            n_hist=len(history), generation=self._generation, max_nodes=1 << 62,
                            truncation=truncation, truncation_margin=margin, truncation_king=king,
                            reduction_depth=_REDUCTION_DEPTH.get(variant.name, 0),
                            singular_depth=singular_depth, singular_margin=singular_margin,
                            stop=self._time_up, ext_stop=self._no_stop if stop is None else stop)
        moves, by_bits = self._root_moves(pos)
        return _Root(pos, moves, by_bits, tables, self._stack._replace(rep=rep), request)

    def _table_move(self, game: Game, started: float) -> SearchResult | None:
        """The tables' answer at a root they hold with a win or a loss (None otherwise)."""
        pos = game.position
        tables = self.tables(pos.variant)
        if tables is None or not tables.contains(pos):
            return None
        found = tables.best_move(pos, game.endgame_plies_left)
        if found is None or found[1].value == "draw":
            return None
        move, probe = found
        score = EGDB_ROOT - (probe.plies or 0)
        return SearchResult(move, score if probe.value == "win" else -score, 1, 0, time.perf_counter() - started,
                            (move,))

    def _root_moves(self, pos: Position) -> tuple[list[Move], dict[tuple[int, int, int], Move]]:
        """The legal moves in the order the kernel generates them (root_only indexes this list), and
        the same by their bits."""
        rules, masks, nbr, _ = _board.layout(pos.variant)
        us, them = (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)
        f = np.zeros(MAX_MOVES, dtype=np.int64)
        t = np.zeros(MAX_MOVES, dtype=np.int64)
        c = np.zeros(MAX_MOVES, dtype=np.uint64)
        n = K.gen_moves(np.uint64(us), np.uint64(them), np.uint64(pos.kings), int(pos.turn), rules, masks, nbr,
                        self._stack.scratch, self._stack.capstk, f, t, c, self._stack.routes, self._stack.route_len)
        bits = [(int(f[i]), int(t[i]), int(c[i])) for i in range(n)]
        moves = [self._to_move(pos, *b) for b in bits]
        return moves, dict(zip(bits, moves, strict=True))

    @staticmethod
    def _to_move(pos: Position, frm: int, to: int, cap: int) -> Move:
        table = _board.square_table(pos.variant)
        crowned = bool(cap & int(CROWNED))
        ident = (table[frm], table[to], tuple(_board.squares_of(pos.variant, cap & ~int(CROWNED))), crowned)
        for m in pos.legal_moves():
            if (m.start, m.end, m.captured, m.crowned) == ident:
                return m
        raise AssertionError(f"kernel move {ident} is not legal in {pos.fen()}")

    def _best_root_move(self, root: _Root) -> Move:
        """The root move the last kernel call wrote to ``out``."""
        return root.by_bits[(int(self._out[K.O_FROM]), int(self._out[K.O_TO]), int(self._out[K.O_CAP]))]

    def _raw_pv(self) -> tuple[tuple[int, int, int], ...]:
        """The last kernel call's principal variation as the kernel's (from, to, captured) bits."""
        output = self._output
        return tuple((int(output.pv_from[0, j]), int(output.pv_to[0, j]), int(output.pv_cap[0, j]))
                     for j in range(int(output.pv_len[0])))

    def _pv(self, pos: Position, raw: tuple[tuple[int, int, int], ...]) -> tuple[Move, ...]:
        """The moves of a raw PV (its legal prefix: a hash move may have gone stale). Made only for the
        result and for ``on_info``: turning kernel moves into ``Move``s costs more than a small search."""
        out = []
        for bits in raw:
            try:
                move = self._to_move(pos, *bits)
            except AssertionError:
                break
            out.append(move)
            pos = pos.play(move)
        return tuple(out)

    def _run(self, root: _Root, depth: int, alpha: int, beta: int, root_only: int = -1,
             max_nodes: int = 1 << 62) -> tuple[int, bool]:
        """One kernel call on ``root``; returns (score, aborted). Every Request field stays a Python int,
        so numba sees the same types each call (no second compilation)."""
        request = root.request._replace(depth=int(depth), alpha=int(alpha), beta=int(beta), root_only=int(root_only),
                                        max_nodes=int(max_nodes))
        K.search(root.tables, self._memory, root.stack, self._output, request)
        return int(self._out[K.O_SCORE]), bool(self._out[K.O_ABORTED])

    def search(self, game: Game, limits: Limits, stop: np.ndarray | None = None,
               on_info: Callable[[Info], None] | None = None) -> SearchResult:
        """Iterative deepening to ``limits``. ``stop`` is a shared integer array (int64 avoids a second
        compilation) polled every 512 nodes: non-zero ends the search at once. A ``movetime`` is
        spent whole (a move has no clock to save time for): the last iteration is cut off when it runs
        out. Returns the best move of the last finished iteration, or of the unfinished one when it
        already has a better one; always a legal move. Raises ValueError when the side to move has none."""
        started = time.perf_counter()
        root = self._prepare(game, stop)
        pos, root_moves = root.position, root.moves
        if not root_moves:
            raise ValueError(f"no legal move in {pos.fen()}")
        known = self._table_move(game, started)
        if known is not None:
            if on_info is not None:
                on_info(Info(known.depth, known.score, 0, known.seconds, known.pv))
            return known
        self._out[:] = 0
        self._time_up[0] = 0
        timer = None
        if limits.movetime is not None:
            timer = threading.Timer(max(0.0, limits.movetime), self._time_up.fill, (1,))
            timer.daemon = True
            timer.start()
        max_depth = min(limits.depth or _MAX_DEPTH, _MAX_DEPTH)
        max_nodes = limits.nodes if limits.nodes is not None else 1 << 62
        best: SearchResult | None = None
        best_pv: tuple[tuple[int, int, int], ...] = ()
        # a node budget is the same search on every machine (the game report's): no helpers there
        helping = self._start_helpers(root, max_depth) if len(root_moves) > 1 and limits.nodes is None else []
        try:
            for depth in range(1, max_depth + 1):
                self._main_depth[0] = depth
                alpha, beta = -K.INFINITE, K.INFINITE
                if best is not None and depth >= 5 and abs(best.score) < MATE_BOUND:
                    alpha, beta = best.score - _ASPIRATION, best.score + _ASPIRATION
                while True:
                    score, aborted = self._run(root, depth, alpha, beta, max_nodes=max_nodes)
                    if aborted or alpha < score < beta:
                        break
                    # outside the aspiration window: open that side and search again
                    if score <= alpha:
                        alpha = -K.INFINITE
                    else:
                        beta = K.INFINITE
                nodes = int(self._out[K.O_NODES])
                seconds = time.perf_counter() - started
                if aborted:
                    if self._out[K.O_HAVE_BEST] and best is not None:
                        move = self._best_root_move(root)
                        if move != best.move and self._out[K.O_SCORE] > best.score:
                            best = SearchResult(move, int(self._out[K.O_SCORE]), depth, nodes, seconds, ())
                            best_pv = self._raw_pv()
                    break
                move = self._best_root_move(root)
                best = SearchResult(move, score, depth, nodes, seconds, (move,))
                best_pv = self._raw_pv()
                if on_info is not None:
                    on_info(Info(depth, score, nodes, seconds, self._pv(pos, best_pv) or (move,)))
                if len(root_moves) == 1 and limits.depth is None:
                    break  # a forced move: nothing to think about
                if limits.depth is None and abs(score) > MATE_BOUND and depth > MATE - abs(score) + 2:
                    break  # a forced result found with room to spare
        finally:
            if timer is not None:
                timer.cancel()
            helper_nodes = self._stop_helpers(helping)
        if best is None:
            # stopped before depth 1 finished: a depth-1 search without the stop flags
            root = replace(root, request=root.request._replace(stop=self._no_stop, ext_stop=self._no_stop))
            score, _ = self._run(root, 1, -K.INFINITE, K.INFINITE)
            move = self._best_root_move(root)
            best = SearchResult(move, score, 1, int(self._out[K.O_NODES]), time.perf_counter() - started, (move,))
        pv = self._pv(pos, best_pv) or best.pv
        return replace(best, nodes=int(self._out[K.O_NODES]) + helper_nodes, seconds=time.perf_counter() - started,
                       pv=pv)

    def _start_helpers(self, root: _Root, max_depth: int) -> list[threading.Thread]:
        """Start the helper threads on ``root`` (see the class docstring): each searches deeper and
        deeper with the full window until :meth:`_stop_helpers`, the odd-numbered ones a ply beyond
        the main thread's iteration and the even-numbered ones two, so that they don't all search
        the same iteration at the same time (``_Helper.run``)."""
        self._helpers_stop[0] = 0
        self._main_depth[0] = 1
        threads = []
        for helper in self._helpers:
            stack = helper.stack._replace(rep=root.stack.rep.copy())
            stack.frames[0] = root.stack.frames[0]
            request = root.request._replace(stop=self._helpers_stop, ext_stop=self._time_up)
            memory = self._memory._replace(killers=helper.killers, history=helper.history)
            thread = threading.Thread(target=helper.run,
                                      args=(root.tables, memory, stack, request, self._main_depth, max_depth),
                                      name=f"search helper {helper.number}", daemon=True)
            thread.start()
            threads.append(thread)
        return threads

    def _stop_helpers(self, threads: list[threading.Thread]) -> int:
        """Stop the helper threads and wait for them (they poll the flag every 512 nodes); returns the
        nodes they searched."""
        self._helpers_stop[0] = 1
        for thread in threads:
            thread.join()
        return sum(int(helper.output.out[K.O_NODES]) for helper in self._helpers) if threads else 0

    def equal_moves(self, game: Game, result: SearchResult, margin: int, movetime: float | None = None,
                    stop: np.ndarray | None = None) -> list[Move]:
        """The moves that score at least ``result.score - margin`` at ``result.depth`` (the best move
        always among them), each proved by a null-window search of that move alone. Moves whose
        proof doesn't finish within ``movetime`` seconds are left out."""
        if result.depth <= 0 or abs(result.score) > EGDB_BOUND:
            return [result.move]
        root = self._prepare(game, stop)
        pos, root_moves = root.position, root.moves
        self._out[:] = 0
        self._time_up[0] = 0
        timer = None
        if movetime is not None:
            timer = threading.Timer(max(0.0, movetime), self._time_up.fill, (1,))
            timer.daemon = True
            timer.start()
        threshold = result.score - margin
        out = [result.move]
        try:
            for i, move in enumerate(root_moves):
                if move == result.move:
                    continue
                score, aborted = self._run(root, result.depth, threshold - 1, threshold, root_only=i)
                if aborted:
                    break
                if score >= threshold:
                    out.append(move)
        finally:
            if timer is not None:
                timer.cancel()
        order = {m: i for i, m in enumerate(pos.legal_moves())}
        return sorted(out, key=order.__getitem__)


# --- levels -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """A computer level. ``depth`` in plies: a number for every variant, a function of the variant, or
    None; ``movetime`` in seconds (or None); ``random_share`` of moves played at random; ``margin``:
    moves within this many centi-men of the best are played as often as the best."""

    name: str
    depth: int | Callable[[Variant], int] | None
    movetime: float | None
    random_share: float = 0.0
    margin: int = 0

    def limits(self, variant: Variant) -> Limits:
        depth = self.depth(variant) if callable(self.depth) else self.depth
        return Limits(depth=depth, movetime=self.movetime)


LEVELS: dict[str, Level] = {
    "easy": Level("easy", depth=2, movetime=None, random_share=0.4, margin=0),
    "medium": Level("medium", depth=attrgetter("medium_depth_plies"), movetime=None, margin=5),
    "hard": Level("hard", depth=None, movetime=1.5, margin=0),
}

# Hard's 1.5 s: most to the search, the rest to finding moves as good as the best one
_HARD_SEARCH_SHARE = 0.9


def _level(level: str) -> Level:
    try:
        return LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}: choose {', '.join(LEVELS)}") from None


def choose_move(searcher: Searcher, game: Game, level: str, rng: random.Random, stop: np.ndarray | None = None,
                on_info: Callable[[Info], None] | None = None, use_book: bool = True,
                movetime: float | None = None) -> SearchResult:
    """The computer's move at ``level`` (see the module docstring). A random move (Easy) is reported
    with depth 0 and score 0; an opening-book move (``engine.book``: the best one at Hard, one of the
    good ones at Easy and Medium) with the book's depth and score and no nodes. ``use_book=False``
    always searches; ``movetime`` replaces a timed level's budget (matches at other time controls)."""
    from .book import book_move

    lv = _level(level)
    started = time.perf_counter()
    pos = _context(game)[0]
    legal = pos.legal_moves()
    if not legal:
        raise ValueError(f"no legal move in {pos.fen()}")
    if lv.random_share and rng.random() < lv.random_share:
        move = rng.choice(legal)
        return SearchResult(move, 0, 0, 0, time.perf_counter() - started, (move,))
    if use_book and len(legal) > 1:
        found = book_move(game, lv.margin > 0 or lv.random_share > 0, rng)
        if found is not None:
            move, entry = found
            return SearchResult(move, entry.score, entry.depth, 0, time.perf_counter() - started, (move,))
    limits = lv.limits(pos.variant)
    budget = movetime if movetime is not None and limits.movetime is not None else limits.movetime
    if budget is not None:
        limits = replace(limits, movetime=budget * _HARD_SEARCH_SHARE)
    result = searcher.search(game, limits, stop, on_info)
    if len(legal) == 1 or (stop is not None and stop[0]):
        return result
    left = None if budget is None else max(0.0, budget - (time.perf_counter() - started))
    candidates = searcher.equal_moves(game, result, lv.margin, left, stop)
    move = rng.choice(candidates)
    if move == result.move:
        return replace(result, seconds=time.perf_counter() - started)
    return replace(result, move=move, pv=(move,), seconds=time.perf_counter() - started)


# the opening, where a draw offer is declined whatever the score: the game has hardly begun
_OPENING_MOVES_EACH = 20
_OPENING_PIECES_SHARE = 0.75


def in_opening(game: Game) -> bool:
    """Whether ``game`` is still in its opening: fewer than 20 moves each played, and at least three
    quarters of the rule set's full sets of pieces on the board (18 of 24 in American checkers, 30
    of 40 in International draughts), so early exchanges end it sooner and a set-up ending never is."""
    variant, pos = game.variant, game.position
    pieces = sum(pos.count(Color.WHITE)) + sum(pos.count(Color.BLACK))
    full = 2 * variant.rows_of_men * variant.row_width
    return game.ply < 2 * _OPENING_MOVES_EACH and pieces >= _OPENING_PIECES_SHARE * full


# "not better": at most a fifth of a man ahead, the positional edges the evaluation sees in level
# endings (two kings each scores 0 to 13 at the levels' depths)
_ACCEPT_MARGIN = 20


def accepts_draw(searcher: Searcher, game: Game, level: str) -> bool:
    """Whether the computer, to move in ``game``, accepts its opponent's draw offer: never in the
    opening (:func:`in_opening`), otherwise when ``level``'s search says its position is not better
    (a score of at most ``_ACCEPT_MARGIN``; Hard thinks for at most 0.5 s)."""
    lv = _level(level)
    pos = _context(game)[0]
    if not pos.legal_moves():
        return True
    if in_opening(game):
        return False
    limits = lv.limits(pos.variant)
    if limits.movetime is not None:
        limits = Limits(movetime=0.5)
    return searcher.search(game, limits).score <= _ACCEPT_MARGIN


# own offers: only in a long, quiet, level game, and never more often than the game record allows
_OFFER_AFTER_PLIES = 60
_OFFER_QUIET_PLIES = 10
_OFFER_LEVEL = 5


def offers_draw(searcher: Searcher, game: Game, level: str, last_score: int | None) -> bool:
    """Whether the computer attaches a draw offer to its next move: only when the record allows one
    (``game.can_offer_draw()``), the game has gone on for 30 moves each, the last 5 moves each were
    quiet (only kings moved) and the computer's last score was dead level. Rare by design."""
    _level(level)
    if not game.can_offer_draw()[0] or last_score is None:
        return False
    if abs(last_score) > _OFFER_LEVEL:
        return False
    pos, _, quiet = _context(game)
    if game.ply < _OFFER_AFTER_PLIES or quiet < _OFFER_QUIET_PLIES:
        return False
    return pos.count(pos.turn) == pos.count(pos.turn.opponent) or abs(last_score) == 0


# --- bench --------------------------------------------------------------------------------------

# (variant, FEN, depth): openings, middlegames and endings of both games, from the start and from
# games played by the engine itself; the depths keep the whole run to a few seconds.
BENCH_POSITIONS: tuple[tuple[str, str, int], ...] = (
    ("american", "B:W21-32:B1-12", 11),
    ("american", "W:W22,24-26,28-30,32:B3-6,9,12,14,15,18", 11),
    ("american", "W:W12,16,21,22,25,30,32:B1,4,7,13-15,28", 13),
    ("american", "W:W7,12,20-22:B13,23,28,K30", 15),
    ("international", "W:W31-50:B1-20", 9),
    ("international", "B:W28,34-38,40-50:B1-10,12,13,15,16,18-20,26", 9),
    ("international", "B:W27,31,34,35,37,40,41,43-45,47-50:B1-5,7,8,10-12,15,16,18,19,24", 9),
    ("international", "B:W24,25,29,32,34,37,44-46,49,50:B1,2,4,10,11,14,18,22", 10),
)


def run_bench(depth_offset: int = 0, tt_size_mb: int = 64) -> dict:
    """Search every bench position to its fixed depth (plus ``depth_offset``) with a fresh table, on
    this thread. Returns {"nodes" (the signature), "seconds", "nodes_per_second", "positions": [...]}."""
    from .variants import variant_named

    searcher = Searcher(tt_size_mb)
    searcher.warm_up()
    rows = []
    total_nodes = 0
    total_seconds = 0.0
    for name, fen, depth in BENCH_POSITIONS:
        searcher.new_game()
        pos = Position.from_fen(variant_named(name), fen)
        result = searcher.search(Game(pos.variant, pos), Limits(depth=max(1, depth + depth_offset)))
        total_nodes += result.nodes
        total_seconds += result.seconds
        rows.append({"variant": name, "fen": fen, "depth": result.depth, "move": pos.move_text(result.move),
                     "score": result.score, "nodes": result.nodes, "seconds": round(result.seconds, 4)})
    return {"nodes": total_nodes, "seconds": round(total_seconds, 4),
            "nodes_per_second": round(total_nodes / total_seconds) if total_seconds > 0 else None,
            "positions": rows}

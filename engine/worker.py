"""The computer player's background process and the client the game talks to it through.

The search runs in its own process so that the window never freezes: the game's loop calls
:meth:`EngineClient.poll` once a frame and never waits. Typed messages (frozen dataclasses, each with a
request id) cross two ``multiprocessing`` queues, one each way. A search running inside a numba kernel
can't read a queue, so stopping it is a shared flag the kernel polls (after Scan's Hub protocol, where
``stop`` may arrive during a search, and python-chess ``engine.Limit`` for the request shape).

    game window                                    worker process (spawn)
    EngineClient.request_move(game, level) --Search-->  Searcher.warm_up() ... Ready
    EngineClient.poll()  <--Info, Info, BestMove--      choose_move / Searcher.search
    EngineClient.cancel()  --flags[STOP]=1-->           kernel returns at once
    EngineClient.analyze(game)  --Analyze-->            Searcher.search to the deepest depth
                                <--Info, Info, ...      one per finished depth, until stopped
    EngineClient.stop(rid)      --flags[STOP]=1-->      ... then BestMove (the last depth's)
    EngineClient.analyze_game(game, limits) --AnalyzeGame-->  one search per position of the game
                                <--PlyScore, ..., GameScores

The worker runs one request at a time, in the order sent. The computer's moves and the analysis share
it by taking turns: each stops its own requests (``cancel(request_ids)``) before the other asks, so a
stop (which ends whatever search runs) never reaches the other's search.

Request ids only grow. The client keeps the requests it still wants an answer to; a reply whose id it
no longer holds (cancelled, or answered before a restart) is stale and dropped. If the process dies, the
next :meth:`EngineClient.poll` notices (``is_alive``), starts a fresh one and sends the outstanding
requests again, so the player only sees a short delay.

The shared stop flags (one ``RawArray`` of ints, viewed with ``np.frombuffer`` in the worker):

    flags[STOP]          nonzero: the running search stops now (the kernel polls this one)
    flags[STOP_THROUGH]  every request with an id up to this one is to be stopped, including requests
                         still queued, so a stop can't be lost when it races the start of a search
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .position import Move, Position

log = logging.getLogger(__name__)

STOP, STOP_THROUGH = 0, 1
_FLAG_CODE, _FLAG_DTYPE = "q", np.int64  # int64: the dtype the search kernel is compiled for
MAX_RESTARTS = 3  # deaths in a row, with no Ready in between, before the client gives up
# The game's transposition table. A Hard search (about 3 M nodes in its 1.5 s) fills every page of
# whatever table it has; 32 MB (2 M entries) reaches the same depths with as few nodes as 64 MB did
# (bench positions searched 1 M - 5 M nodes deep: 24.9 M nodes in all with 64 MB, 23.9 M with 32 MB)
# and leaves room for the endgame tables.
TT_SIZE_MB = 32
# The worker's niceness above the game's: a search takes whole cores for seconds, the window needs a
# few ms of processor now and then to draw; on a machine with a core or two (and a software GL whose
# drawing threads compete with the search) the window then gets the processor when it asks for it,
# and the search loses only those ms.
WORKER_NICE = 10


# --- messages to the worker ---------------------------------------------------------------------


@dataclass(frozen=True)
class NewGame:
    """The next searches are unrelated to the previous ones: clear the transposition table."""

    request_id: int = 0


@dataclass(frozen=True)
class Search:
    """Find a move in ``game`` (a ``Game.to_dict()`` snapshot): at a level of the specification
    (``'easy'``, ``'medium'``, ``'hard'``, seeded by ``seed`` so a game can be replayed) or within
    ``limits`` (an ``engine.search.Limits``). Answered by Info messages and one BestMove."""

    request_id: int
    game: dict
    level: str | None = None
    limits: Any = None
    seed: int | None = None


@dataclass(frozen=True)
class DrawQuestion:
    """``'accept'``: does the computer accept the draw its opponent offers? ``'offer'``: does it offer
    one now (``last_score`` = the score of its last search)? Answered by one DrawAnswer."""

    request_id: int
    game: dict
    level: str
    kind: Literal["accept", "offer"]
    last_score: int | None = None


@dataclass(frozen=True)
class Analyze:
    """Analyse the position of ``game`` (a ``Game.to_dict()`` snapshot): an Info after each finished
    depth, until stopped (:meth:`EngineClient.stop`), then a BestMove with the last. Unlike a Search
    without limits, a forced move or a forced result found doesn't end it: it deepens up to the
    deepest depth the search allows, then answers by itself. ``limits`` (an ``engine.search.Limits``)
    ends it earlier (a hint)."""

    request_id: int
    game: dict
    limits: Any = None


@dataclass(frozen=True)
class AnalyzeGame:
    """Score every position of ``game`` (its start and the position after each move) within
    ``limits`` each (a node budget gives the same scores on any machine): one PlyScore per position,
    in order, then GameScores. A stop ends it early (GameScores of the positions done)."""

    request_id: int
    game: dict
    limits: Any


@dataclass(frozen=True)
class Stop:
    """Stop the search of ``request_id`` now; its BestMove (best found so far) still comes. The flag
    does the stopping; the message only records it in the worker's log of requests."""

    request_id: int


@dataclass(frozen=True)
class Quit:
    request_id: int = 0


# --- replies from the worker --------------------------------------------------------------------


@dataclass(frozen=True)
class Ready:
    """The worker has compiled or loaded its kernels and takes requests. ``seconds``: from process
    start to ready."""

    pid: int
    seconds: float
    request_id: int = 0


@dataclass(frozen=True)
class Info:
    """One finished iteration of a search. ``pv`` is move text from the searched position."""

    request_id: int
    depth: int
    score: int
    nodes: int
    seconds: float
    pv: tuple[str, ...] = ()


@dataclass(frozen=True)
class BestMove:
    """The answer to a Search. ``move`` is one of the searched position's ``legal_moves()`` (use it as
    is, or find it again with ``position.parse_move(text)``); ``path`` the route to animate."""

    request_id: int
    move: Move
    text: str
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[str, ...] = ()

    @property
    def path(self) -> tuple[int, ...]:
        return self.move.path


@dataclass(frozen=True)
class PlyScore:
    """One position of an AnalyzeGame: the position after ``ply`` moves, its ``score`` in centi-men
    from the side to move's view (a win ``MATE - plies``, as a search scores it; a position where the
    game is over scores as the rules end it: ``-MATE`` without a move, 0 drawn), the best move's text
    (empty where the game is over), the depth and nodes searched."""

    request_id: int
    ply: int
    score: int
    best: str
    depth: int
    nodes: int


@dataclass(frozen=True)
class GameScores:
    """The answer to an AnalyzeGame: ``scores[i]`` and ``best[i]`` of the position after ``i`` moves
    (as in PlyScore), for every position scored."""

    request_id: int
    scores: tuple[int, ...]
    best: tuple[str, ...]


@dataclass(frozen=True)
class DrawAnswer:
    request_id: int
    kind: Literal["accept", "offer"]
    answer: bool


@dataclass(frozen=True)
class Error:
    """A request that failed (bad snapshot, a bug in the search) or a worker that keeps dying."""

    request_id: int
    message: str


Request = NewGame | Search | Analyze | AnalyzeGame | DrawQuestion | Stop | Quit
Reply = Ready | Info | PlyScore | BestMove | GameScores | DrawAnswer | Error
_ANSWERS = (BestMove, GameScores, DrawAnswer, Error)  # the replies that end a request
_PROGRESS = (Info, PlyScore)  # the replies on the way
# An analysis deepens until stopped: a depth no search reaches, which Searcher.search caps at the
# deepest its stack allows.
_UNTIL_STOPPED = 1 << 20


# --- helpers both sides use ---------------------------------------------------------------------


def snapshot(game) -> dict:
    """What a Search carries of a game: its ``to_dict()``, which holds the history the search needs for
    repetitions and the draw-rule counters."""
    return game.to_dict()


def restore(data: dict):
    from .game import Game

    return Game.from_dict(data)


def pv_text(position: Position, pv) -> tuple[str, ...]:
    """Move text of a principal variation given as Moves (or already as text), played out from
    ``position``; stops quietly at a move that doesn't fit (a stale hash move)."""
    out = []
    for move in pv or ():
        if isinstance(move, str):
            out.append(move)
            continue
        if move not in position.legal_moves():
            break
        out.append(position.move_text(move))
        position = position.play(move)
    return tuple(out)


# --- the worker process -------------------------------------------------------------------------


_compiler: subprocess.Popen | None = None  # the process compiling the kernels, while it does (see _compile_apart)


def _exit_with(parent) -> None:
    """Wait for the game's process to end, then end this one, whatever the main thread is doing
    (compiling, or deep in a search kernel, which releases the GIL): no orphan is left searching,
    nor compiling."""
    parent.join()
    if _compiler is not None:
        _compiler.kill()
    os._exit(0)


def _compile_apart() -> None:
    """On a cold cache (the first run, or the first after the kernels changed) have a short-lived
    process compile the kernels, and load them from the cache afterwards: a process that compiled
    keeps numba's compiler state, about 90 MB more resident than one that loaded the same code, for
    as long as it lives. Should that process fail, the warm-up compiles here as before."""
    global _compiler
    from ._jit import kernels_cached

    if kernels_cached(search=True):
        return
    from .lifeline import parent_env

    env = dict(parent_env(), PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    _compiler = subprocess.Popen([sys.executable, "-c", "from engine.worker import _compile; _compile()"], env=env,
                                 stdout=subprocess.DEVNULL)
    code = _compiler.wait()
    _compiler = None
    if code:
        log.warning("compiling the kernels apart failed (exit code %s); compiling them here", code)


def _compile() -> None:
    """The compiling process of :func:`_compile_apart`: the kernels into numba's cache. It ends at once
    if the worker that started it ends first (closed by the game while compiling: the game ends a
    worker that doesn't answer at once, which leaves it no time to end this one itself)."""
    from .lifeline import end_with_parent

    end_with_parent(poll_s=0.2)
    from .search import Searcher

    Searcher(tt_size_mb=1, endgame_tables=True).warm_up()


def _serve(requests, replies, flags_buffer, tt_size_mb: int, started: float, nice: int = 0) -> None:
    """The worker's main loop (the target of the spawned process), ``nice`` steps below the game's priority."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal is the game's to handle
    if nice and hasattr(os, "nice"):  # (not on Windows)
        os.nice(nice)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()
    from .search import Searcher, default_threads  # imported here: this is where numba compiles or loads its cache

    _compile_apart()
    flags = np.frombuffer(flags_buffer, dtype=_FLAG_DTYPE)
    stop = flags[STOP:STOP + 1]
    searcher = Searcher(tt_size_mb=tt_size_mb, endgame_tables=True, threads=default_threads())
    searcher.warm_up()
    from .pages import release_library_pages

    # the kernels are loaded: the searches run their code, never LLVM's again (see engine/pages.py)
    log.debug("released %.0f MiB of LLVM's code", release_library_pages("libllvmlite") / 2**20)
    replies.put(Ready(pid=os.getpid(), seconds=time.time() - started))
    try:  # endgame tables: built once, in the background; the searcher uses them when they appear
        from .egdb import start_background_build

        start_background_build()
    except OSError:
        log.exception("could not start building the endgame tables")
    while True:
        msg = requests.get()
        if isinstance(msg, Quit):
            return
        try:
            _handle(msg, searcher, flags, stop, replies)
        except Exception as exc:  # a failed request must not take the worker down with it
            log.exception("request %r failed", msg)
            replies.put(Error(getattr(msg, "request_id", 0), f"{type(exc).__name__}: {exc}"))


def _handle(msg, searcher, flags, stop, replies) -> None:
    from .search import Limits, accepts_draw, choose_move, offers_draw

    if isinstance(msg, NewGame):
        searcher.new_game()
    elif isinstance(msg, Stop):
        log.debug("stop %d arrived after its search", msg.request_id)
    elif isinstance(msg, (Search, Analyze)):
        game = restore(msg.game)
        position = game.position
        _arm(msg.request_id, flags, stop)

        def on_info(info) -> None:
            replies.put(Info(msg.request_id, int(info.depth), int(info.score), int(info.nodes),
                             float(info.seconds), pv_text(position, info.pv)))

        if isinstance(msg, Analyze):
            limits = msg.limits if msg.limits is not None else Limits(depth=_UNTIL_STOPPED)
            result = searcher.search(game, limits, stop=stop, on_info=on_info)
        elif msg.level is not None:
            rng = random.Random(msg.seed)
            result = choose_move(searcher, game, msg.level, rng, stop=stop, on_info=on_info)
        else:
            result = searcher.search(game, msg.limits, stop=stop, on_info=on_info)
        replies.put(BestMove(msg.request_id, result.move, position.move_text(result.move), int(result.score),
                             int(result.depth), int(result.nodes), float(result.seconds),
                             pv_text(position, result.pv)))
    elif isinstance(msg, AnalyzeGame):
        _analyze_game(msg, searcher, flags, stop, replies)
    elif isinstance(msg, DrawQuestion):
        game = restore(msg.game)
        if msg.kind == "accept":
            answer = accepts_draw(searcher, game, msg.level)
        elif msg.kind == "offer":
            answer = offers_draw(searcher, game, msg.level, msg.last_score)
        else:
            raise ValueError(f"unknown draw question {msg.kind!r}: expected 'accept' or 'offer'")
        replies.put(DrawAnswer(msg.request_id, msg.kind, bool(answer)))
    else:
        log.warning("worker ignores unknown message %r", msg)


def _arm(request_id: int, flags, stop) -> None:
    """Arm the stop flag for a request; a stop that raced its start is in STOP_THROUGH (written first)."""
    stop[0] = 0
    if flags[STOP_THROUGH] >= request_id:
        stop[0] = 1


def _analyze_game(msg: AnalyzeGame, searcher, flags, stop, replies) -> None:
    """Score each position of a game in turn, replayed from its start so that every search knows the
    history before it (repetitions, the draw counters)."""
    from .game import Game
    from .search import MATE

    record = restore(msg.game)
    game = Game(record.variant, record.start)
    scores: list[int] = []
    best: list[str] = []
    _arm(msg.request_id, flags, stop)
    searcher.new_game()  # the same scores whatever was searched before
    for ply in range(len(record.moves) + 1):
        if stop[0]:
            break
        position = game.position
        outcome = game.outcome
        if outcome is not None:  # the rules ended the game here (a resignation is not replayed)
            score, text, depth, nodes = (-MATE if outcome.winner is not None else 0), "", 0, 0
        else:
            result = searcher.search(game, msg.limits, stop=stop)
            if stop[0]:  # stopped inside the search: its score is not worth reporting
                break
            score, text = int(result.score), position.move_text(result.move)
            depth, nodes = int(result.depth), int(result.nodes)
        scores.append(score)
        best.append(text)
        replies.put(PlyScore(msg.request_id, ply, score, text, depth, nodes))
        if ply < len(record.moves):
            game.play(record.moves[ply])
    replies.put(GameScores(msg.request_id, tuple(scores), tuple(best)))


# --- the client the game uses -------------------------------------------------------------------


@dataclass
class _Process:
    """One incarnation of the worker: the process, its queues and its stop flags."""

    process: Any
    requests: Any
    replies: Any
    flags: np.ndarray
    ready: bool = False


@dataclass
class EngineClient:
    """The game's handle on the worker. Nothing here blocks except :meth:`wait` and :meth:`close`.

    Typical frame of the window loop::

        for reply in client.poll():
            if isinstance(reply, BestMove): ...   # only answers to live requests get here
    """

    tt_size_mb: int = TT_SIZE_MB
    nice: int = WORKER_NICE  # how far below the game's the worker's priority is (see WORKER_NICE)
    restarts: int = 0  # how many times a dead worker was replaced
    _worker: _Process | None = field(default=None, repr=False)
    _pending: dict[int, Request] = field(default_factory=dict, repr=False)
    _next_id: int = 1
    _deaths_in_a_row: int = 0
    _failed: str | None = None

    @classmethod
    def start(cls, tt_size_mb: int = TT_SIZE_MB, nice: int = WORKER_NICE) -> "EngineClient":
        """Start the worker process; it reports Ready (seen through :meth:`poll`) once its kernels are
        compiled or loaded. Requests may be sent before that: they wait in the queue."""
        client = cls(tt_size_mb=tt_size_mb, nice=nice)
        client._spawn()
        return client

    def _spawn(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # never fork a process that may hold GL or threads
        flags_buffer = ctx.RawArray(_FLAG_CODE, 2)
        requests, replies = ctx.Queue(), ctx.Queue()
        process = ctx.Process(target=_serve, name="checkers-engine", daemon=True,
                              args=(requests, replies, flags_buffer, self.tt_size_mb, time.time(), self.nice))
        process.start()
        self._worker = _Process(process, requests, replies, np.frombuffer(flags_buffer, dtype=_FLAG_DTYPE))

    # --- state ---

    @property
    def is_ready(self) -> bool:
        """Whether the current worker has reported Ready (False again while a replacement starts)."""
        return self._worker is not None and self._worker.ready

    @property
    def pid(self) -> int | None:
        return self._worker.process.pid if self._worker else None

    @property
    def is_busy(self) -> bool:
        """Whether some request still waits for its answer."""
        return bool(self._pending)

    # --- requests ---

    def request_move(self, game, level: str | None = None, limits=None, seed: int | None = None) -> int:
        """Ask for a move in ``game`` at ``level`` or within ``limits``; returns the request id that its
        Info and BestMove replies carry."""
        if (level is None) == (limits is None):
            raise ValueError("request_move needs exactly one of level= or limits=")
        return self._submit(lambda rid: Search(rid, snapshot(game), level, limits, seed))

    def ask_draw(self, game, level: str, kind: Literal["accept", "offer"] = "accept",
                 last_score: int | None = None) -> int:
        """Ask whether the computer accepts its opponent's draw offer (``kind='accept'``) or offers one
        itself now (``kind='offer'``); answered by a DrawAnswer with this request id."""
        if kind not in ("accept", "offer"):
            raise ValueError(f"unknown draw question {kind!r}: expected 'accept' or 'offer'")
        return self._submit(lambda rid: DrawQuestion(rid, snapshot(game), level, kind, last_score))

    def analyze(self, game, limits=None) -> int:
        """Analyse the position of ``game`` until :meth:`stop` (or within ``limits``): Info replies
        after each depth, then a BestMove. Returns the request id."""
        return self._submit(lambda rid: Analyze(rid, snapshot(game), limits))

    def analyze_game(self, game, limits) -> int:
        """Score every position of ``game`` within ``limits`` each: PlyScore replies, then GameScores."""
        return self._submit(lambda rid: AnalyzeGame(rid, snapshot(game), limits))

    def _submit(self, make) -> int:
        rid = self._next_id
        self._next_id += 1
        request = make(rid)
        self._pending[rid] = request  # if the worker has failed for good, poll() answers it with an Error
        self._send(request)
        return rid

    def _send(self, msg) -> None:
        if self._worker is not None and not self._failed:
            self._worker.requests.put(msg)

    def stop(self, request_id: int | None = None) -> None:
        """Stop the search of ``request_id`` (default: every outstanding one) now; its BestMove, the best
        move found so far, still comes."""
        through = request_id if request_id is not None else self._next_id - 1
        self._raise_stop(through)
        self._send(Stop(through))

    def cancel(self, request_ids: Iterable[int] | None = None) -> None:
        """Stop whatever the worker does and forget it: replies to the requests made so far are dropped.
        For undo, a new game, leaving the screen. With ``request_ids``, only those requests: the ones
        still waiting for their answer are stopped (through the newest of them) and forgotten; the
        worker runs one request at a time, so this is for the requests of one user of a worker shared
        by turns (see the module docstring)."""
        if request_ids is None:
            self._raise_stop(self._next_id - 1)
            self._pending.clear()
            return
        waiting = [rid for rid in request_ids if rid in self._pending]
        if waiting:
            self._raise_stop(max(waiting))
            for rid in waiting:
                del self._pending[rid]

    def _raise_stop(self, through: int) -> None:
        if self._worker is None:
            return
        flags = self._worker.flags
        flags[STOP_THROUGH] = max(int(flags[STOP_THROUGH]), through)  # written first: see module doc
        flags[STOP] = 1

    def new_game(self) -> None:
        """Cancel everything and clear the transposition table."""
        self.cancel()
        self._send(NewGame())

    # --- replies ---

    def poll(self) -> list[Reply]:
        """The replies that arrived since the last call, without waiting; stale ones are dropped. Also
        notices a dead worker, starts a new one and resends the outstanding requests."""
        out: list[Reply] = []
        if self._worker is None:
            return out
        if self._failed:
            out = [Error(rid, self._failed) for rid in self._pending]
            self._pending.clear()
            return out
        while True:
            try:
                reply = self._worker.replies.get_nowait()
            except queue.Empty:
                break
            except (EOFError, OSError):  # the pipe broke with the process
                break
            if isinstance(reply, Ready):
                self._worker.ready = True
                self._deaths_in_a_row = 0
                out.append(reply)
            elif not isinstance(reply, (*_PROGRESS, *_ANSWERS)):
                log.warning("client ignores unknown reply %r", reply)
            elif reply.request_id in self._pending:
                if isinstance(reply, _ANSWERS):
                    del self._pending[reply.request_id]
                out.append(reply)
        if not self._worker.process.is_alive():
            self._replace_dead_worker()
        return out

    def _replace_dead_worker(self) -> None:
        dead = self._worker
        assert dead is not None
        code = dead.process.exitcode
        log.warning("engine process %s died (exit code %s); starting a new one", dead.process.pid, code)
        self._discard(dead)
        self._deaths_in_a_row += 1
        if self._deaths_in_a_row > MAX_RESTARTS:
            self._failed = f"the engine process died {self._deaths_in_a_row} times in a row (last exit code {code})"
            return
        self.restarts += 1
        self._spawn()
        for request in self._pending.values():
            self._send(request)

    def wait(self, request_id: int, timeout: float = 60.0) -> Reply:
        """Block until the answer to ``request_id`` (for scripts and tests; the window uses poll).
        Raises TimeoutError if none comes in ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for reply in self.poll():
                if reply.request_id == request_id and isinstance(reply, _ANSWERS):
                    return reply
            if request_id not in self._pending:
                raise ValueError(f"request {request_id} was cancelled or already answered")
            time.sleep(0.005)
        raise TimeoutError(f"no answer to request {request_id} within {timeout} s")

    def wait_ready(self, timeout: float = 120.0) -> Ready:
        """Block until the worker reports Ready (for scripts and tests)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for reply in self.poll():
                if isinstance(reply, Ready):
                    return reply
            if self.is_ready:
                raise ValueError("the worker was already ready; its Ready went to an earlier poll()")
            if self._failed:
                raise RuntimeError(self._failed)
            time.sleep(0.01)
        raise TimeoutError(f"the engine was not ready within {timeout} s")

    # --- shutting down ---

    def close(self, timeout: float = 2.0) -> None:
        """Stop any search, ask the worker to quit, and make sure it is gone: join with ``timeout``, then
        terminate, then kill. Safe to call twice."""
        if self._worker is None:
            return
        worker, self._worker = self._worker, None
        self._pending.clear()
        worker.flags[STOP_THROUGH] = self._next_id
        worker.flags[STOP] = 1
        try:
            worker.requests.put(Quit())
        except (ValueError, OSError):
            pass
        worker.process.join(timeout)
        self._discard(worker)

    @staticmethod
    def _discard(worker: _Process) -> None:
        """End a worker incarnation for good and release its queues without waiting on them."""
        if worker.process.is_alive():
            worker.process.terminate()
            worker.process.join(1.0)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(1.0)
        for q in (worker.requests, worker.replies):
            q.cancel_join_thread()  # a dead reader must not make the game hang at exit
            q.close()

    def __enter__(self) -> "EngineClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

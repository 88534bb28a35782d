"""The GUI side of the Hub protocol: an outside engine (dame-rs, Scan, an older checkout of this one)
started as a process and asked for moves, so that ``python -m engine match`` can play it.

The protocol is the one ``engine/hub.py`` serves (Scan 3.0's ``protocol.txt``). A session goes:

    -> hub                                  <- id ...; param ... (one a line); wait
    -> set-param name=variant value=V       only when the engine announces a ``variant`` param
    -> init                                 <- ready (may take minutes: a numba engine compiles here)
    -> new-game; ping                       before every game <- pong
    -> pos pos=<start> moves="<M> ..."      the game's first position and every move since, so the
                                            engine sees the history its draw rules need
    -> level move-time=S | depth=N | nodes=N  (only what the player sets; nothing = the engine's own)
    -> go think                             <- info ... (kept: the last depth and score); done move=<M>
    -> quit                                 when the match ends

Variants: International draughts is Hub's default ("normal"); an engine that announces a ``variant``
param gets ``international``/``normal`` or ``american`` from its list of values. American checkers is
refused with a clear message when the engine doesn't offer it (dame-rs plays 10x10 only).

Waiting: an engine answers ``hub`` at once (within :data:`HUB_TIMEOUT_S`); only ``init`` may take
minutes. After :data:`NOTE_AFTER_S` seconds without the answer a line on stderr says what is awaited;
a program that echoes what it is sent (``cat``: no Hub engine) is refused at its first line.

Robustness: the engine's process is started once and kept for many games. If it dies or stops
answering (no ``done`` within :func:`move_deadline`; a ``stop`` is sent first), it is killed, started
again and asked the same move once more; a second failure raises :class:`HubEngineError`. A move
that is not legal raises ``IllegalMoveError`` (a match scores both as a forfeit).

Environment: the process runs with ``PYTHONSAFEPATH=1``, so ``/other/checkout/.venv/bin/python -m
engine hub`` imports that venv's engine and not the ``engine`` package of the directory the match
runs in (``python -m`` would otherwise put the working directory first on ``sys.path``). It runs in
the match's working directory unless ``cwd`` is given, so relative paths in the command work.
"""

from __future__ import annotations

import collections
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .game import Game
from .hub import CENTI_MEN_PER_MAN, HubError, format_line, format_move, format_position, parse_line, parse_move
from .position import Move
from .variants import AMERICAN, INTERNATIONAL, Variant

HUB_TIMEOUT_S = 60.0  # the answer to hub (id, param, wait) needs no compiling: a program start on a busy machine
INIT_TIMEOUT_S = 900.0  # a fresh numba engine may compile its kernels on a busy machine
NOTE_AFTER_S = 10.0  # a wait this long gets a line on stderr saying what for
PONG_TIMEOUT_S = 120.0  # new-game may clear a large table
STOP_GRACE_S = 10.0  # after a stop: how long a done may still take
_STDERR_LINES = 20  # the tail of the engine's stderr kept for error messages
_VARIANT_VALUES = {INTERNATIONAL.name: ("international", "normal"), AMERICAN.name: ("american", "english")}


class HubEngineError(RuntimeError):
    """The outside engine can't be started, refuses the variant, or died twice on one move."""


@dataclass(frozen=True)
class HubLevel:
    """What ``level`` says: any of move time (seconds), depth, nodes; none = the engine's default."""

    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def line(self) -> str | None:
        args: dict[str, object] = {}
        if self.depth is not None:
            args["depth"] = self.depth
        if self.nodes is not None:
            args["nodes"] = self.nodes
        if self.movetime is not None:
            args["move-time"] = f"{self.movetime:g}"
        return format_line("level", **args) if args else None


@dataclass(frozen=True)
class HubReply:
    """The engine's move, the score (centi-men, side to move's view) and depth of its last ``info``
    line (None and 0 without one), and the wall time from ``go`` to ``done``."""

    move: Move
    score: int | None
    depth: int
    seconds: float


def move_deadline(level: HubLevel) -> float:
    """Seconds to wait for ``done`` before sending ``stop``: generous, as the machine may be busy."""
    if level.movetime is not None and level.depth is None and level.nodes is None:
        return 4 * level.movetime + 30.0
    return 600.0


class HubClient:
    """One outside engine process speaking Hub, set up for one variant. ``command`` is the command
    line (split as a shell would, no shell run). Call :meth:`close` (or use ``with``) at the end."""

    def __init__(self, command: str, variant: Variant, cwd: str | None = None,
                 note: Callable[[str], None] | None = None):
        """``note`` takes the lines that say what a long wait is for (default: stderr)."""
        self.argv = shlex.split(command)
        self.note = note or _note_stderr
        if not self.argv:
            raise HubEngineError("empty Hub engine command")
        self.variant = variant
        self.cwd = cwd
        self.name = self.argv[0]
        self.params: dict[str, dict[str, str]] = {}
        self.restarts = 0
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=_STDERR_LINES)

    def __enter__(self) -> "HubClient":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- process ---

    def start(self) -> None:
        """Start the process and take it through hub / set-param / init; HubEngineError on failure."""
        self.close()
        try:
            proc = subprocess.Popen(self.argv, cwd=self.cwd, env={**os.environ, "PYTHONSAFEPATH": "1"},
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    bufsize=1)
        except OSError as err:
            raise HubEngineError(f"can't start Hub engine {shlex.join(self.argv)!r}: {err}") from None
        self._proc, self._lines = proc, queue.Queue()
        self._stderr.clear()
        threading.Thread(target=_pump, args=(proc.stdout, self._lines.put, True), daemon=True).start()
        threading.Thread(target=_pump, args=(proc.stderr, self._stderr.append), daemon=True).start()
        try:
            self._handshake()
        except HubEngineError:
            self.close()
            raise

    def _handshake(self) -> None:
        self._send("hub")
        self.params = {}
        for command, args in self._read_until("wait", HUB_TIMEOUT_S, "its id, params and 'wait'"):
            if command == "id" and args.get("name"):
                self.name = args["name"]
            elif command == "param" and "name" in args:
                self.params[args["name"]] = args
        value = self._variant_value()
        if value is not None:
            self._send(format_line("set-param", name="variant", value=value))
        self._send("init")
        self._read_until("ready", INIT_TIMEOUT_S, "'ready' (a numba engine compiles its search first)")

    def _variant_value(self) -> str | None:
        """The value of the engine's ``variant`` param for our variant, None to leave it (10x10)."""
        wanted = _VARIANT_VALUES.get(self.variant.name, (self.variant.name,))
        param = self.params.get("variant")
        if param is None:
            if self.variant.name == INTERNATIONAL.name:
                return None
            raise HubEngineError(f"Hub engine {self.name!r} announces no variant param, so it plays "
                                 f"International draughts only, not {self.variant.title}")
        offered = param.get("values", "").split()
        for value in wanted:
            if value in offered:
                return value
        raise HubEngineError(f"Hub engine {self.name!r} doesn't offer {self.variant.title} "
                             f"(its variant values: {' '.join(offered) or 'none'})")

    def close(self) -> None:
        """Ask the engine to quit; kill it if it doesn't within a few seconds."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                _write_line(proc, "quit")
            except (OSError, ValueError):
                pass
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except (OSError, ValueError):
                pass

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    # --- games ---

    def new_game(self) -> None:
        """Start the process if needed, then ``new-game`` and ``ping`` (its ``pong`` says the engine
        is alive and has read everything before it); a dead engine is started again."""
        if self._proc is None or self._proc.poll() is not None:
            self._restart()
        try:
            self._new_game()
        except HubEngineError:
            self._restart()
            self._new_game()

    def _new_game(self) -> None:
        self._send("new-game")
        self._send("ping")
        self._read_until("pong", PONG_TIMEOUT_S, "'pong' after new-game")

    def play(self, game: Game, level: HubLevel) -> HubReply:
        """The engine's move in ``game`` (which has a legal move). If the engine dies or hangs it is
        started again and asked once more; HubEngineError when that fails too. IllegalMoveError when
        the move it names is not legal."""
        try:
            return self._play_once(game, level)
        except HubEngineError:
            self._restart()
            self._new_game()
            return self._play_once(game, level)

    def _play_once(self, game: Game, level: HubLevel) -> HubReply:
        moves = " ".join(format_move(m) for m in game.moves)
        pos_args = {"pos": format_position(game.positions[0])}
        if moves:
            pos_args["moves"] = moves
        self._send(format_line("pos", **pos_args))
        level_line = level.line()
        if level_line:
            self._send(level_line)
        started = time.perf_counter()
        self._send("go think")
        score, depth = None, 0
        deadline = started + move_deadline(level)
        stopped = False
        while True:
            try:
                command, args = self._read(max(0.0, deadline - time.perf_counter()))
            except _Timeout:
                if stopped:
                    raise HubEngineError(f"Hub engine {self.name!r} gave no move, even after stop") from None
                self._send("stop")
                deadline, stopped = time.perf_counter() + STOP_GRACE_S, True
                continue
            if command == "info":
                depth, score = _info_depth_score(args, depth, score)
            elif command == "done":
                seconds = time.perf_counter() - started
                if "move" not in args:
                    raise HubEngineError(f"Hub engine {self.name!r} answered done without a move")
                move = parse_move(game.position, args["move"])
                return HubReply(move, score, depth, seconds)
            elif command == "error":
                raise HubEngineError(f"Hub engine {self.name!r} reports: {args.get('message', '')}")

    def _restart(self) -> None:
        self.restarts += 1
        self.start()

    # --- lines ---

    def _send(self, line: str) -> None:
        proc = self._proc
        if proc is None:
            raise HubEngineError(f"Hub engine {self.name!r} is not running")
        try:
            _write_line(proc, line)
        except (OSError, ValueError):
            raise HubEngineError(f"Hub engine {self.name!r} closed its input{self._stderr_tail()}") from None

    def _read(self, timeout: float) -> tuple[str, dict[str, str]]:
        """The next line the engine wrote that can be read; _Timeout, or HubEngineError when it died."""
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                raise _Timeout from None
            if line is None:
                code = self._proc.wait() if self._proc is not None else None
                raise HubEngineError(f"Hub engine {self.name!r} exited (code {code}){self._stderr_tail()}")
            if not line.strip():
                continue
            try:
                return parse_line(line)
            except HubError:
                continue  # a line we can't read: ignored, as the protocol asks

    def _read_until(self, command: str, timeout: float, what: str) -> list[tuple[str, dict[str, str]]]:
        """The lines up to and with ``command``; HubEngineError after ``timeout`` seconds (``what`` is
        awaited, in words, for the note after NOTE_AFTER_S and the error) or on an echo of ``hub``."""
        started = time.perf_counter()
        deadline, noted = started + timeout, False
        out: list[tuple[str, dict[str, str]]] = []
        while True:
            now = time.perf_counter()
            wait = deadline - now if noted else min(deadline, started + NOTE_AFTER_S) - now
            try:
                parsed = self._read(max(0.0, wait))
            except _Timeout:
                if not noted and time.perf_counter() < deadline:
                    self.note(f"waiting for Hub engine {self.name!r} to send {what} (giving up after {timeout:g} s)")
                    noted = True
                    continue
                raise HubEngineError(f"Hub engine {self.name!r} didn't send {what} within {timeout:g} s"
                                     f"{self._seen(out)}{self._stderr_tail()}") from None
            if parsed[0] == "hub" and command == "wait":
                raise HubEngineError(f"{shlex.join(self.argv)!r} answered 'hub' with 'hub': it repeats what it is sent, "
                                     "so it is not a Hub engine (one answers with id, param and wait lines)")
            out.append(parsed)
            if parsed[0] == command:
                return out

    @staticmethod
    def _seen(lines: list[tuple[str, dict[str, str]]]) -> str:
        if not lines:
            return "; it sent nothing"
        return f"; it sent {len(lines)} other lines, the last {format_line(lines[-1][0], **lines[-1][1])!r}"

    def _stderr_tail(self) -> str:
        tail = " | ".join(line.rstrip() for line in self._stderr if line.strip())
        return f"; its stderr ends: {tail}" if tail else ""


class _Timeout(Exception):
    pass


def _note_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _pump(stream, put, at_end=False) -> None:
    """Hand each line of ``stream`` to ``put``; then None when ``at_end`` (the end of the output)."""
    for line in stream:
        put(line.rstrip("\n"))
    if at_end:
        put(None)


def _write_line(proc: subprocess.Popen, line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def _info_depth_score(args: dict[str, str], depth: int, score: int | None) -> tuple[int, int | None]:
    """Depth and score (centi-men) of an ``info`` line; the previous ones where it lacks them."""
    try:
        depth = int(args["depth"])
    except (KeyError, ValueError):
        pass
    try:
        score = round(float(args["score"]) * CENTI_MEN_PER_MAN)
    except (KeyError, ValueError):
        pass
    return depth, score

"""The engine as a standalone program speaking the Hub protocol, version 2, on stdin and stdout.

The protocol is Fabien Letouzey's, as written in Scan 3.0's ``protocol.txt`` (2017-07-11): lines of
``<command> <arg>=<val> ...``, values in double quotes when they hold a space or ``=`` or are empty,
flags without ``=val``; both sides ignore commands and arguments they don't understand. What this
engine understands:

    hub                      -> id name=... version=... author=...; param ... (one a line); wait
    set-param name=N value=V    variant (a name or alias of the command line's --variant, or normal or
                                standard for international), tt-size (MB, 1 to 4096), threads (1 to 64;
                                default 1, as the protocol's engines have it: the GUI knows what else runs)
    init                     -> ready (the numba kernels are compiled or loaded here)
    new-game                    clear the transposition table
    pos pos=<P> [moves="<M> ..."]  a pos that can't be read is answered with an error, and so is every
                                go until a pos that can: the engine never answers for another position
    level depth=N | move-time=S | nodes=N | [moves=N] time=S [inc=S] | infinite
    go think | go analyze | go ponder
                             -> info depth= score= nodes= time= nps= pv="..." (one per iteration)
                             -> done move=<M> [ponder=<M>]
    stop, ping (-> pong), ponder-hit: also during a search
    quit; end of input quits at once, as the protocol asks

``<P>`` is the side to move (``W`` or ``B``) then one character per square in standard order (1..50,
or 1..32 on an 8x8 board, numbered as the rule set's FEN numbers them: the ``square_one_corner`` of its
``Variant``): ``w``/``b`` man, ``W``/``B`` king, ``e`` empty. ``<M>`` is ``32-28`` for a quiet move and
``from x to x captured x captured ...`` for a capture (``28x19x23``: from 28 to 19 taking 23; captured
squares in any order, written here in ascending order).
``score`` is in men (a man = 1.0), ``time`` in seconds, ``nps`` in millions of nodes per second.

The GUI decides when a game ends: its moves are applied even past a draw our own rules would have
declared (a GUI may count the endgame rule from another position, which the specification leaves
open); the game then goes on from that position, its draw counts started afresh.

Extensions beyond Scan's text: ``level nodes=N``. ``go ponder`` searches like ``go think`` under the
current level (the protocol lets an engine answer a ponder search whenever it likes), so ``ponder-hit``
needs no action. ``level moves/time/inc`` spends ``time / moves + inc`` (moves default 30), never more
than half the time left.

The program is ``checkers3d-engine`` (:func:`script`; ``python -m engine hub`` is the same).
A reader thread takes the lines from stdin so that ``stop``, ``ping`` and ``quit`` are served while the
main thread is inside the search kernel (which releases the GIL); ``stop`` raises the shared flag the
kernel polls. Outside a search ``ping`` is answered in turn, so ``pong`` also says that every command
before it has been carried out.
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import version
from .arguments import THREADS_MAX, TT_SIZE_MAX_MB, OneLineParser, variant_arg, whole_number
from .game import Game
from .position import IllegalMoveError, InvalidFenError, Move, Position
from .variants import ALL_VARIANTS, INTERNATIONAL, Color, Variant, variant_named, variant_names

if TYPE_CHECKING:
    from .search import Searcher  # imported when first used: it loads the search kernels

NAME, AUTHOR = "Checkers3D", "Checkers 3D authors"
CENTI_MEN_PER_MAN = 100  # the search scores in centi-men; Hub wants men
DEFAULT_TT_SIZE_MB = 64
DEFAULT_MOVES_TO_GO = 30  # the share of the clock one move may use when the GUI gives no moves=
_HUB_VARIANT_NAMES = {"normal": INTERNATIONAL.name,  # Scan's name for International draughts
                      "standard": INTERNATIONAL.name}  # pydraughts' and lidraughts' name for it


class HubError(ValueError):
    """A Hub line that can't be read or carried out; the message quotes it."""


# --- syntax -------------------------------------------------------------------------------------


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``(command, {arg: value})`` of one Hub line; a flag has the value ``''``. HubError on a missing
    closing quote or a line that starts with ``=``."""
    text = line.strip()
    i, n = 0, len(text)

    def name() -> str:
        nonlocal i
        start = i
        while i < n and not text[i].isspace() and text[i] not in '="':
            i += 1
        if i == start:
            raise HubError(f"bad Hub line {line.strip()!r}: expected a name at column {i + 1}")
        return text[start:i]

    def skip_blank() -> None:
        nonlocal i
        while i < n and text[i].isspace():
            i += 1

    skip_blank()
    command = name()
    args: dict[str, str] = {}
    while True:
        skip_blank()
        if i >= n:
            return command, args
        key = name()
        skip_blank()
        value = ""
        if i < n and text[i] == "=":
            i += 1
            skip_blank()
            if i < n and text[i] == '"':
                end = text.find('"', i + 1)
                if end < 0:
                    raise HubError(f"bad Hub line {line.strip()!r}: missing closing quote")
                value, i = text[i + 1:end], end + 1
            else:
                value = name()
        args[key] = value


def format_line(command: str, *flags: str, **args) -> str:
    """One Hub line; values with a space, ``=``, ``"`` or nothing in them are quoted."""
    parts = [command, *flags]
    for key, value in args.items():
        text = str(value)
        if not text or any(c.isspace() or c in '="' for c in text):
            text = f'"{text}"'
        parts.append(f"{key.replace('_', '-')}={text}")
    return " ".join(parts)


# --- positions and moves ------------------------------------------------------------------------


def parse_position(variant: Variant, text: str) -> Position:
    """A Position from Hub's ``W`` / ``B`` + one of ``wbWBe`` per square (51 or 33 characters)."""
    want = 1 + variant.squares
    if len(text) != want or text[0] not in "WB" or any(c not in "wbWBe" for c in text[1:]):
        raise HubError(f"bad Hub position {text!r}: expected {want} characters, W or B for the side to move "
                       f"then one of w, b, W, B, e for each of the {variant.squares} squares ({variant.name})")
    lists: dict[str, list[str]] = {"W": [], "B": []}
    for square, c in enumerate(text[1:], start=1):
        if c != "e":
            lists[c.upper()].append(f"K{square}" if c.isupper() else str(square))
    fen = f"{text[0]}:W{','.join(lists['W'])}:B{','.join(lists['B'])}"
    try:
        return Position.from_fen(variant, fen)
    except InvalidFenError as err:
        raise HubError(f"bad Hub position {text!r}: {err}") from None


def format_position(pos: Position) -> str:
    chars = ["e"] * pos.variant.squares
    for square, piece in pos.pieces().items():
        c = "w" if piece.color is Color.WHITE else "b"
        chars[square - 1] = c.upper() if piece.king else c
    return ("W" if pos.turn is Color.WHITE else "B") + "".join(chars)


def format_move(move: Move) -> str:
    """``32-28``, or ``28x19x23`` (from, to, then every captured square) for a capture."""
    if not move.captured:
        return f"{move.start}-{move.end}"
    return "x".join(str(sq) for sq in (move.start, move.end, *move.captured))


def parse_move(pos: Position, text: str) -> Move:
    """The legal move of ``pos`` that the Hub move ``text`` names: ``32-28``, ``28x19x23`` (captured
    squares in any order), or ``28x19`` alone when only one capture goes from 28 to 19."""
    t = text.strip().lower()
    is_capture = "x" in t
    try:
        squares = [int(s) for s in t.split("x" if is_capture else "-")]
    except ValueError:
        squares = []
    if len(squares) < 2 or (not is_capture and len(squares) != 2):
        raise IllegalMoveError(f"can't read Hub move {text!r}: write it like 32-28 or 28x19x23")
    start, end, captured = squares[0], squares[1], tuple(sorted(squares[2:]))
    matches = [m for m in pos.legal_moves() if (m.start, m.end) == (start, end) and m.is_capture == is_capture
               and (not captured or m.captured == captured)]
    if len(matches) == 1:
        return matches[0]
    legal = " ".join(format_move(m) for m in pos.legal_moves()) or "none"
    if matches:
        raise IllegalMoveError(f"Hub move {text!r} is ambiguous: name the captured squares ({legal})")
    raise IllegalMoveError(f"Hub move {text!r} is not legal in {format_position(pos)} (legal: {legal})")


# --- the engine ---------------------------------------------------------------------------------


@dataclass
class _Level:
    depth: int | None = None
    movetime: float | None = None
    nodes: int | None = None


class HubEngine:
    """One Hub session. ``write`` takes one line (without newline); it is called from the main thread
    and from the reader thread, so it is serialised here."""

    def __init__(self, variant: Variant = INTERNATIONAL, tt_size_mb: int = 64, write=None, threads: int = 1):
        self.variant = variant
        self.tt_size_mb = tt_size_mb
        self.threads = threads
        self._working_tt_size = min(tt_size_mb, DEFAULT_TT_SIZE_MB)  # what _init falls back to
        self._write_raw = write or _stdout_line
        self._write_lock = threading.Lock()
        self.searcher: Searcher | None = None  # made (and its kernels loaded) by init or the first go
        self.game = Game(variant)
        self._bad_pos = False  # the last pos was refused: go answers with an error until a good one
        self.level = _Level(depth=None, movetime=1.0)
        self.flags = np.zeros(1, dtype=np.int64)  # the search's stop flag
        self._stop_through = 0  # stop every search numbered up to this (see submit)
        self._go_count = 0  # go lines read (reader thread)
        self._searches_done = 0  # go lines carried out (main thread)
        self._lines: queue.Queue = queue.Queue()

    def write(self, line: str) -> None:
        with self._write_lock:
            self._write_raw(line)

    # --- the two threads ---

    def submit(self, line: str | None) -> None:
        """Take one input line (None = end of input), answering at once what must be answered during a
        search and queueing the rest for :meth:`run`. The reader thread calls this."""
        if line is None:
            self._stop_all()
            self._lines.put(None)
            return
        if not line.strip():
            return
        try:
            command, _ = parse_line(line)
        except HubError as err:
            self.write(format_line("error", message=str(err)))
            return
        if command == "ping" and self._go_count > self._searches_done:
            self.write("pong")  # during a search (or with one queued): at once, as the protocol asks
        elif command == "stop":
            self._stop_all()
        elif command == "ponder-hit":
            pass  # go ponder already searches under the current level
        else:
            if command == "go":
                self._go_count += 1
            elif command == "quit":
                self._stop_all()
            self._lines.put(line)

    def _stop_all(self) -> None:
        # Every search started so far or queued: written before the flag, read after clearing it.
        self._stop_through = self._go_count
        self.flags[0] = 1

    def run(self, lines=None) -> int:
        """Serve until ``quit`` or the end of input. ``lines`` (an iterable of lines) defaults to stdin,
        read by a daemon thread."""
        source = lines if lines is not None else sys.stdin
        reader = threading.Thread(target=self._read, args=(source,), name="hub-stdin", daemon=True)
        reader.start()
        searches = 0
        while True:
            line = self._lines.get()
            if line is None:
                return 0
            command, args = parse_line(line)
            if command == "quit":
                return 0
            if command == "go":
                searches += 1
            try:
                self._dispatch(command, args, searches)
            except (HubError, ValueError) as err:
                self.write(format_line("error", message=str(err)))
            finally:
                self._searches_done = searches

    def _read(self, source) -> None:
        for line in source:
            self.submit(line)
        self.submit(None)

    # --- commands ---

    def _dispatch(self, command: str, args: dict[str, str], search_number: int) -> None:
        if command == "hub":
            self.write(format_line("id", name=NAME, version=version(), author=AUTHOR))
            self.write(format_line("param", name="variant", value=self.variant.name, type="enum",
                                   values=" ".join(ALL_VARIANTS)))
            self.write(format_line("param", name="tt-size", value=self.tt_size_mb, type="int", min=1, max=TT_SIZE_MAX_MB))
            self.write(format_line("param", name="threads", value=self.threads, type="int", min=1, max=THREADS_MAX))
            self.write("wait")
        elif command == "set-param":
            self._set_param(args.get("name", ""), args.get("value", ""))
        elif command == "init":
            self._init()
            self.write("ready")
        elif command == "new-game":
            self._init().new_game()
            self.game = Game(self.variant)
        elif command == "pos":
            try:
                self.game, self._bad_pos = self._game_from(args), False
            except ValueError:  # HubError, IllegalMoveError, InvalidFenError: answered with an error line
                self._bad_pos = True
                raise
        elif command == "level":
            self.level = self._level_from(args)
        elif command == "go":
            self._go(search_number)
        elif command == "ping":  # outside a search: in turn, after every command before it
            self.write("pong")
        # anything else: ignored, as the protocol asks

    def _set_param(self, name: str, value: str) -> None:
        if name == "variant":
            try:
                self.variant = variant_named(_HUB_VARIANT_NAMES.get(value.strip().lower(), value))
            except ValueError as err:
                raise HubError(f"set-param variant: {err}") from None
            self.game = Game(self.variant)
        elif name == "tt-size":
            size = _whole_param(name, value, TT_SIZE_MAX_MB, " of megabytes", " (MB)")
            if size != self.tt_size_mb:
                self.tt_size_mb, self.searcher = size, None
        elif name == "threads":
            threads = _whole_param(name, value, THREADS_MAX)
            if threads != self.threads:
                self.threads, self.searcher = threads, None

    def _init(self) -> Searcher:
        """The searcher, made and warmed up on first use. A table the machine has no memory for is
        answered with an error line, and the size goes back to the last one that worked (or the
        default), so that init still ends in ready and go still searches."""
        if self.searcher is None:
            from .search import Searcher

            try:
                searcher = Searcher(tt_size_mb=self.tt_size_mb, endgame_tables=True, threads=self.threads)
            except (MemoryError, OSError):  # the table is an anonymous mapping: ENOMEM is an OSError
                if self.tt_size_mb == self._working_tt_size:
                    raise HubError(f"not enough memory for a {self.tt_size_mb} MB table") from None
                size, self.tt_size_mb = self.tt_size_mb, self._working_tt_size
                self.write(format_line("error", message=f"not enough memory for a {size} MB table; "
                                                        f"tt-size is {self.tt_size_mb} again"))
                return self._init()
            searcher.warm_up()
            self.searcher, self._working_tt_size = searcher, self.tt_size_mb
        return self.searcher

    def _game_from(self, args: dict[str, str]) -> Game:
        if "pos" not in args:
            raise HubError("pos needs pos=<position>")
        game = Game(self.variant, parse_position(self.variant, args["pos"]))
        for number, text in enumerate(args.get("moves", "").split(), start=1):
            game = _going_on(game)
            try:
                game.play(parse_move(game.position, text))
            except IllegalMoveError as err:
                raise HubError(f"pos: move {number} {text!r}: {err}") from None
        return _going_on(game)

    @staticmethod
    def _level_from(args: dict[str, str]) -> _Level:
        def number(key: str, kind):
            try:
                value = kind(args[key])
            except ValueError:
                raise HubError(f"level {key}={args[key]!r} is not a number") from None
            if value < 0:
                raise HubError(f"level {key}={args[key]!r} must not be negative")
            return value

        if "infinite" in args:
            return _Level()
        if "depth" in args:
            return _Level(depth=number("depth", int))
        if "move-time" in args:
            return _Level(movetime=number("move-time", float))
        if "nodes" in args:
            return _Level(nodes=number("nodes", int))
        if "time" in args:
            left = number("time", float)
            moves = number("moves", int) if "moves" in args else DEFAULT_MOVES_TO_GO
            inc = number("inc", float) if "inc" in args else 0.0
            return _Level(movetime=min(left / max(moves, 1) + inc, left / 2))
        raise HubError("level needs depth=, move-time=, nodes=, time= or infinite")

    def _go(self, search_number: int) -> None:
        from .search import Limits

        if self._bad_pos:
            raise HubError("go: no position to search: the last pos was refused (see its error); send a pos that can be read")
        searcher = self._init()
        if self.game.is_over or not self.game.position.legal_moves():
            raise HubError("go: the position has no legal move (the game is over)")
        position = self.game.position
        # Arm the stop flag; a stop that came in after this go was read is in _stop_through.
        self.flags[0] = 0
        if self._stop_through >= search_number:
            self.flags[0] = 1
        limits = Limits(depth=self.level.depth, movetime=self.level.movetime, nodes=self.level.nodes)

        def on_info(info) -> None:
            self.write(self._info_line(position, info.depth, info.score, info.nodes, info.seconds, info.pv))

        result = searcher.search(self.game, limits, stop=self.flags, on_info=on_info)
        pv = _pv_moves(position, result.pv)
        ponder = {"ponder": format_move(pv[1])} if len(pv) > 1 and pv[0] == result.move else {}
        self.write(format_line("done", move=format_move(result.move), **ponder))

    def _info_line(self, position: Position, depth, score, nodes, seconds, pv) -> str:
        pv_text = " ".join(format_move(m) for m in _pv_moves(position, pv))
        nps = nodes / seconds / 1e6 if seconds > 0 else 0.0
        return format_line("info", depth=int(depth), score=f"{score / CENTI_MEN_PER_MAN:.2f}", nodes=int(nodes),
                           time=f"{seconds:.3f}", nps=f"{nps:.2f}", pv=pv_text)


def _going_on(game: Game) -> Game:
    """``game``, or where our rules have ended it by a draw though the side to move has a move, a game
    that goes on from its position (the GUI decides when a game is over)."""
    if game.is_over and game.position.legal_moves():
        return Game(game.variant, game.position)
    return game


def _pv_moves(position: Position, pv) -> list[Move]:
    """The legal prefix of a principal variation (a hash move may have gone stale)."""
    out = []
    for move in pv or ():
        if move not in position.legal_moves():
            break
        out.append(move)
        position = position.play(move)
    return out


def _whole_param(name: str, value: str, most: int, of: str = "", unit: str = "") -> int:
    """A ``set-param`` value that must be a whole number from 1 to ``most``; HubError names it otherwise
    (``of`` says what the number counts, ``unit`` follows the range)."""
    try:
        number = int(value)
    except ValueError:
        raise HubError(f"{name} must be a whole number{of}, not {value!r}") from None
    if not 1 <= number <= most:
        raise HubError(f"{name} must be from 1 to {most}{unit}, not {number}")
    return number


def _stdout_line(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(variant: Variant = INTERNATIONAL, tt_size_mb: int = DEFAULT_TT_SIZE_MB, threads: int = 1) -> int:
    """``python -m engine hub``: serve one Hub session on stdin and stdout."""
    try:
        return HubEngine(variant, tt_size_mb, threads=threads).run()
    except BrokenPipeError:  # the GUI went away while we were writing
        return 0


# --- the program: checkers3d-engine ---------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The Hub engine's options (``checkers3d-engine`` and ``python -m engine hub``)."""
    p.add_argument("--variant", type=variant_arg, default="international",
                   help=f"one of {variant_names()}; default international; the GUI may change it with set-param")
    p.add_argument("--tt-size", type=whole_number(1, TT_SIZE_MAX_MB, "MB"), default=DEFAULT_TT_SIZE_MB, metavar="MB",
                   help=f"transposition table size in MB, 1 to {TT_SIZE_MAX_MB} (default {DEFAULT_TT_SIZE_MB}); "
                        "the GUI may change it with set-param name=tt-size")
    p.add_argument("--threads", type=whole_number(1, THREADS_MAX), default=1, metavar="N",
                   help=f"search threads, 1 to {THREADS_MAX} (default 1); the GUI may change it with "
                        "set-param name=threads")


def _program_path() -> str:
    """This program's full path, as a GUI needs it."""
    found = shutil.which(sys.argv[0]) if sys.argv and sys.argv[0] else None
    return os.path.abspath(found) if found else "checkers3d-engine"


def script(argv=None) -> int:
    """``checkers3d-engine``: the Hub engine as a program of its own, for GUIs and other programs
    that start an engine by its path."""
    path = _program_path()
    parser = OneLineParser(
        prog="checkers3d-engine", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Checkers 3D's engine (American checkers, International draughts and seven more rule "
                    "sets) speaking the\nHub protocol, version 2 (Scan's), on standard input and output.",
        epilog=f"""To use it from a GUI, add an engine whose command is this program's full path:

    {path}

and choose the Hub protocol where the GUI asks (Hub is Scan's protocol; DamExchange and
CheckerBoard's DLLs are not spoken). The GUI sets the rules with
set-param name=variant value=american|international (normal, as Scan calls it)|brazilian|
russian|pool|spanish|italian|czech|thai (pydraughts' names); without that, --variant decides.
Examples:

    pydraughts:   from draughts.engines.hub import HubEngine; HubEngine(["{path}"])
    a match:      python -m engine match --variant international --b 'hub={path}'
    by hand:      echo 'hub' | {path}

The first start compiles the search (about half a minute); 'init' is answered with 'ready' once
it is done. Endgame tables are used when built (python -m engine egdb build).""")
    parser.add_argument("--version", action="version", version=f"checkers3d-engine {version()} (Hub protocol 2)")
    add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 2
    return main(args.variant, args.tt_size, args.threads)

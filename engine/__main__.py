"""Command line: perft and moves (rules), plus whatever the other engine modules register.

    python -m engine perft --depth 6 [--variant international] [--fen FEN] [--divide] [--json]
    python -m engine moves [--fen FEN | --fen -] [--json]
    python -m engine bench [--json]
    python -m engine bestmove [--variant V] [--fen FEN] (--depth N | --movetime S | --level L) [--threads N] [--json]
    python -m engine game [--fen FEN] [--moves "11-15 23-19 ..."] [--json]
    python -m engine hub [--variant american] [--tt-size MB] [--threads N]  (Scan's Hub protocol: checkers3d-engine)
    python -m engine match --a level=hard --b level=medium [--variant V] [--games N] [--concurrency N] [--json]
    python -m engine pdn FILE... [--json] [--export OUT.pdn]           (PDN files: engine/pdn/)
    python -m engine egdb build [--variant V|all] [--pieces N]       (endgame tables, in the user's cache)
    python -m engine egdb probe [--variant V] --fen FEN [--plies-left N] [--json]
    python -m engine egdb info [--json]      |      python -m engine egdb verify [--variant V|all]
    python -m engine book build --variant american | probe [--moves "11-15 23-19"]   (the opening book)
    python -m engine tune generate|fit|hand --variant V ...           (the evaluation's weights: engine/tuning.py)
    python -m engine timeuse --level hard --moves 200 [--variant V]   (wall time and depth per move)

Bad input is one line on stderr, ``error: ...``, and exit status 2: values out of their bounds and
output files that can't be written are refused before any work starts (``engine/arguments.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import IO

import numpy as np

from . import _board, version
from ._movegen import perft
from .arguments import (
    THREADS_MAX,
    TT_SIZE_MAX_MB,
    OneLineParser,
    folder,
    os_error_text,
    output_file,
    seconds,
    variant_arg,
    whole_number,
)
from .game import Game
from .position import IllegalMoveError, InvalidFenError, Position
from .variants import AMERICAN, INTERNATIONAL, Variant, variant_names

PERFT_MAX_DEPTH = 40  # deeper than any count that finishes; a depth of 0 counts the position itself
MAX_SEARCH_DEPTH = 96  # the search's own cap (search._MAX_DEPTH: MAX_PLY less room for extensions)


def read_fen(variant: Variant, text: str) -> Position:
    """The position of a FEN given on the command line; where an American FEN fails on a square
    above 32 that International draughts has, the message suggests ``--variant international``."""
    try:
        return Position.from_fen(variant, text)
    except InvalidFenError as err:
        if variant is AMERICAN:
            try:
                Position.from_fen(INTERNATIONAL, text)
            except InvalidFenError:
                raise err from None
            raise InvalidFenError(f"{err} (a 10x10 position? add --variant international)") from None
        raise


def _position(args) -> Position:
    return read_fen(args.variant, args.fen) if args.fen else Position.initial(args.variant)


def run_perft(position: Position, depth: int) -> int:
    """Leaf nodes at ``depth`` plies from ``position`` (no draw rules)."""
    rules, masks, nbr, _ = _board.layout(position.variant)
    nodes = perft(np.uint64(position.white), np.uint64(position.black), np.uint64(position.kings),
                  int(position.turn), depth, rules, masks, nbr)
    if nodes < 0:
        raise RuntimeError(f"move buffer overflow under {position.fen()}")
    return int(nodes)


def cmd_perft(args) -> int:
    pos = _position(args)
    run_perft(pos, 1)  # compile or load the kernels before timing
    if args.divide:
        for move in pos.legal_moves():
            nodes = run_perft(pos.play(move), args.depth - 1)
            text = pos.move_text(move)
            print(json.dumps({"move": text, "nodes": nodes}) if args.json else f"{text}: {nodes}")
    start = time.perf_counter()
    nodes = run_perft(pos, args.depth)
    seconds = time.perf_counter() - start
    result = {"depth": args.depth, "nodes": nodes, "seconds": round(seconds, 4),
              "nodes_per_second": round(nodes / seconds) if seconds > 0 else None}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"perft({args.depth}) = {nodes:,} in {seconds:.3f} s ({nodes / max(seconds, 1e-9) / 1e6:.2f} M nodes/s)")
    return 0


def moves_json(pos: Position) -> list[dict]:
    return [{"notation": pos.move_text(m), "path": list(m.path), "captures": list(m.captured),
             "fen_after": pos.play(m).fen()} for m in pos.legal_moves()]


def cmd_moves(args) -> int:
    """The legal moves of one position; with ``--fen -`` one answer a line for each FEN line read from
    stdin (blank lines skipped): a JSON array of moves, or for a FEN that can't be read an error in
    its place (``{"error": ...}`` with --json, a line ``error: ...`` without), so answers line up with
    questions. The exit status is 2 if any line was bad."""
    if args.fen == "-":
        status = 0
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            try:
                answer = json.dumps(moves_json(read_fen(args.variant, line)))
            except InvalidFenError as err:
                answer = json.dumps({"error": str(err)}) if args.json else f"error: {err}"
                print(f"error: {err}", file=sys.stderr)
                status = 2
            print(answer, flush=True)
        return status
    pos = _position(args)
    if args.json:
        print(json.dumps(moves_json(pos)))
    else:
        for m in pos.legal_moves():
            print(pos.move_text(m), " ".join(map(str, m.path)))
    return 0


def cmd_game(args) -> int:
    """Play ``--moves`` from the position and print where the game stands (its FEN, the side to move,
    the outcome or null, the plies left before an automatic draw)."""
    game = Game(args.variant, _position(args))
    # Move numbers such as "1." or "12..." may sit between the moves, as in PDN.
    texts = [t for t in args.moves.replace(",", " ").split() if not re.fullmatch(r"\d+\.+", t)]
    for number, text in enumerate(texts, start=1):
        try:
            game.play(text)
        except IllegalMoveError as err:
            print(f"error: move {number} {text!r}: {err}", file=sys.stderr)
            return 2
    outcome = game.outcome
    result = {"fen": game.position.fen(), "to_move": game.turn.label,
              "outcome": outcome.to_dict() if outcome else None, "plies_until_draw": game.plies_until_draw}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"fen: {result['fen']}")
        if outcome is None:
            print(f"{game.turn.label} to move; automatic draw in {game.plies_until_draw} plies")
        else:
            print(f"game over: {outcome.result} ({outcome.reason})")
    return 0


def cmd_hub(args) -> int:
    from .hub import main as hub_main

    return hub_main(args.variant, args.tt_size, args.threads)


def cmd_match(args) -> int:
    from .match import cmd_match as match_main

    return match_main(args)


def _egdb_variants(variant: Variant | None) -> list[Variant]:
    from .variants import VARIANTS

    return list(VARIANTS.values()) if variant is None else [variant]


def _egdb_variant(text: str) -> Variant | None:
    """``--variant`` of egdb: a rule set, or ``all`` (None)."""
    return None if text.strip().lower() == "all" else variant_arg(text)


def cmd_egdb(args) -> int:
    """Endgame tables: build, probe, info, verify (see engine/egdb.py)."""
    from . import egdb

    if args.action == "build":
        if args.dir is not None:  # made now, so that a folder that can't be is refused before the build
            try:
                os.makedirs(args.dir, exist_ok=True)
            except OSError as err:
                raise ValueError(f"can't make the tables' folder {args.dir!r}: {err.strerror or err}") from None
        if args.background:
            egdb.build_in_background(args.dir)
            return 0
        if args.pieces is not None and args.variant is None:
            raise ValueError("--pieces needs one --variant (american or international)")
        for variant in _egdb_variants(args.variant):
            egdb.build(variant, args.pieces, args.dir, progress=lambda text: print(text, flush=True))
        return 0
    if args.action == "verify":
        wrong = 0
        for variant in _egdb_variants(args.variant):
            bad = egdb.verify(variant, args.dir, progress=print)
            print(f"{variant.name}: {'all positions agree with their moves' if bad == 0 else f'{bad} positions wrong'}")
            wrong += bad
        return 1 if wrong else 0
    if args.action == "info":
        rows = []
        for variant in _egdb_variants(None):
            info = egdb.read_info(variant, args.dir)
            if info is not None:
                rows.append({k: info[k] for k in ("variant", "pieces", "positions", "wld_bytes", "dist_bytes", "seconds",
                                                  "built")})
        if args.json:
            print(json.dumps({"directory": str(egdb.egdb_dir(args.dir)), "tables": rows}))
            return 0
        print(f"endgame tables in {egdb.egdb_dir(args.dir)}")
        for r in rows:
            print(f"{r['variant']:<13} {r['pieces']} pieces  {r['positions']:>12,} positions  "
                  f"{r['wld_bytes'] / 2**20:7.1f} MB values + {r['dist_bytes'] / 2**20:7.1f} MB distances  "
                  f"built in {r['seconds']:.0f} s ({r['built']})")
        for name in egdb.missing(args.dir):
            print(f"{name:<13} the default {egdb.DEFAULT_PIECES[name]}-piece tables are not built "
                  f"(python -m engine egdb build --variant {name})")
        return 0
    # probe: one variant, American unless told
    variant = AMERICAN if args.variant is None else args.variant
    tables = egdb.load(variant, args.dir)
    if tables is None:
        raise ValueError(f"no {variant.name} endgame tables in {egdb.egdb_dir(args.dir)}: "
                         f"build them with python -m engine egdb build --variant {variant.name}")
    if not args.fen:
        raise ValueError("probe needs --fen")
    pos = read_fen(variant, args.fen)
    found = tables.probe(pos, args.plies_left)
    if found is None:
        raise ValueError(f"{pos.fen()} is not in the tables ({tables.pieces} pieces at most, a piece on each side)")
    best = tables.best_move(pos, args.plies_left)
    out = {"fen": pos.fen(), "value": found.value, "plies": found.plies,
           "move": pos.move_text(best[0]) if best else None,
           "moves": {pos.move_text(m): {"value": p.value, "plies": p.plies}
                     for m, p in tables.move_values(pos, args.plies_left)}}
    if args.json:
        print(json.dumps(out))
    else:
        side = pos.turn.label
        how = "" if found.plies is None else f" in {found.plies} plies"
        print(f"{out['fen']}: {found.value} for {side}{how}" + (f"; best move {out['move']}" if best else ""))
    return 0


def cmd_bench(args) -> int:
    """Fixed positions of both games to fixed depths, fresh table, one thread: the node total is the
    search's signature (the same on every run), nodes per second its speed."""
    from .search import run_bench

    result = run_bench(args.depth_offset)
    if args.json:
        print(json.dumps(result))
    else:
        for row in result["positions"]:
            print(f"{row['variant']:<13} depth {row['depth']:>2}  {row['move']:>7} {row['score']:>6}  "
                  f"{row['nodes']:>10,} nodes  {row['seconds']:.3f} s   {row['fen']}")
        print(f"signature {result['nodes']}  nodes/s {result['nodes_per_second']:,}  ({result['seconds']:.2f} s)")
    return 0


def cmd_bestmove(args) -> int:
    """Search one position and print the move (JSON: move, path, captures, score, depth, nodes,
    seconds, pv)."""
    import random

    from .search import Limits, Searcher, choose_move

    pos = _position(args)
    if not pos.legal_moves():
        raise ValueError(f"no legal move in {pos.fen()}")
    try:
        searcher = Searcher(args.tt_size, endgame_tables=True, threads=args.threads)
    except (MemoryError, OSError):  # the table is an anonymous mapping: ENOMEM is an OSError
        raise ValueError(f"not enough memory for a {args.tt_size} MB transposition table: try a smaller --tt-size") from None
    searcher.warm_up()
    game = Game(pos.variant, pos)
    if args.level:
        result = choose_move(searcher, game, args.level, random.Random(args.seed))
    else:
        result = searcher.search(game, Limits(depth=args.depth, movetime=args.movetime))
    pv, p = [], pos
    for m in result.pv:
        pv.append(p.move_text(m))
        p = p.play(m)
    out = {"move": pos.move_text(result.move), "path": list(result.move.path), "captures": list(result.move.captured),
           "score": result.score, "depth": result.depth, "nodes": result.nodes,
           "seconds": round(result.seconds, 4), "pv": pv}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"bestmove {out['move']}  score {out['score']}  depth {out['depth']}  nodes {out['nodes']:,}  "
              f"{out['seconds']:.3f} s  pv {' '.join(pv)}")
    return 0


# --- python -m engine pdn ----------------------------------------------------------------------------


def cmd_pdn(args) -> int:
    """``python -m engine pdn FILE... [--json] [--export OUT]``: one line (or JSON object) per game on
    stdout; with ``--export``, the games of our rule sets written to OUT, normalised (a game cut short
    by a problem keeps the moves before it and a comment saying what stopped it). Exit status 0 when
    every game was read to its end, 1 otherwise, 2 when OUT can't be written."""
    from .pdn import PdnFileError, read_file

    export = args.export
    if export and any(os.path.exists(p) and os.path.exists(export) and os.path.samefile(p, export) for p in args.files):
        raise ValueError(f"{export!r} is one of the files read; export to another file")
    sink = _Export(export) if export else None
    status, written, left_out = 0, 0, 0
    try:
        for path in args.files:
            try:
                for game in read_file(path):
                    if game.error is not None:
                        status = 1
                    print(json.dumps(_game_summary(path, game), ensure_ascii=False) if args.json
                          else _summary_line(path, game), flush=True)
                    if sink is not None and game.start is None:
                        left_out += 1
                    elif sink is not None:
                        if game.error is not None:
                            game = game.annotate(len(game.moves) - 1 if game.moves else None,
                                                 comment=f"not read further: {game.error}")
                        sink.write(game.pdn())
                        written += 1
            except PdnFileError as error:
                print(f"error: {error}", file=sys.stderr)
                status = 1
        if sink is not None:
            sink.close(keep=not (status == 1 and written == 0 and left_out == 0))
    except BrokenPipeError:  # the reader stopped listening (| head): stop quietly
        sys.stdout = open(os.devnull, "w")  # so that the interpreter's last flush can't fail
        if sink is not None:
            sink.close(keep=False)
        return 1
    except OSError as err:  # a full disk, a device that takes nothing
        if sink is not None:
            sink.close(keep=False)
        raise ValueError(f"can't write {export!r}: {os_error_text(err)}") from None
    if sink is not None:
        if sink.kept:
            lost = f"; {left_out} of other rule sets left out" if left_out else ""
            print(f"wrote {written} games to {export}{lost}", file=sys.stderr)
        else:
            print(f"nothing written to {export}", file=sys.stderr)
    return status


class _Export:
    """Where ``pdn --export`` writes. The path is followed through symbolic links (the link stays, its
    target gets the games). A regular file, or a new one, is written to a temporary file beside it
    that replaces it once all is written (a failed export leaves the old file as it was); it keeps
    the old file's mode, and a new file gets the mode the umask gives (as the shell's ``>`` does).
    Anything else (a FIFO, a device, ``/dev/stdout``) is written through as it is, as it comes."""

    def __init__(self, path: str):
        self.target = os.path.realpath(path)
        self.kept = False
        self._temporary: str | None = None
        if os.path.exists(self.target) and not os.path.isfile(self.target):
            self._file: IO[str] = open(self.target, "w", encoding="utf-8", newline="\n")
            return
        if os.path.exists(self.target):
            mode = stat.S_IMODE(os.stat(self.target).st_mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, self._temporary = tempfile.mkstemp(prefix=".pdn-", suffix=".tmp", dir=os.path.dirname(self.target))
        os.fchmod(fd, mode)
        self._file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")

    def write(self, text: str) -> None:
        self._file.write(text)

    def close(self, keep: bool) -> None:
        """Finish: with ``keep`` the games are in place (the temporary file replaces the target),
        else the temporary file is removed. Closing a FIFO or a device may raise OSError (the data
        written could not all go)."""
        if self._file.closed:
            return
        try:
            self._file.close()
        except OSError:
            keep = False
            raise
        finally:
            if self._temporary is not None:
                if keep:
                    os.replace(self._temporary, self.target)
                else:
                    os.unlink(self._temporary)
            self.kept = keep


def _game_summary(path: str, game) -> dict:
    """What ``python -m engine pdn --json`` prints for a game."""
    return {"file": path, "index": game.index, "tags": game.tags, "variant": game.variant_name,
            "plies": game.plies, "fen": game.end.fen() if game.end is not None else None,
            "result": game.result, "error": str(game.error) if game.error else None, "warnings": list(game.warnings)}


def _summary_line(path: str, game) -> str:
    white, black = game.players
    fen = game.end.fen() if game.end is not None else "-"
    line = f"{path} #{game.index}: {game.variant_name}, {white} - {black}, {game.plies} plies, {game.result}, {fen}"
    return line + (f"; error: {game.error}" if game.error else "")


# --- the parser --------------------------------------------------------------------------------------


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", type=variant_arg, default="american", help=f"one of {variant_names()}")
    p.add_argument("--fen", help="PDN FEN of the position (default: the start position)")
    p.add_argument("--json", action="store_true", help="print one JSON object per line")


def _tt_size_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tt-size", type=whole_number(1, TT_SIZE_MAX_MB, "MB"), default=64, metavar="MB",
                   help=f"transposition table size in MB, 1 to {TT_SIZE_MAX_MB} (default 64)")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m engine", description="Checkers 3D rules and search engine")
    parser.add_argument("--version", action="version", version=f"%(prog)s (checkers3d) {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="count leaf nodes of the move tree")
    add_common(p)
    p.add_argument("--depth", type=whole_number(0, PERFT_MAX_DEPTH, "plies"), required=True,
                   help=f"plies, 0 to {PERFT_MAX_DEPTH}")
    p.add_argument("--divide", action="store_true", help="also print the count below each root move")
    p.set_defaults(func=cmd_perft)
    p = sub.add_parser("moves", help="list the legal moves (--fen - reads one FEN a line from stdin)")
    add_common(p)
    p.set_defaults(func=cmd_moves)
    p = sub.add_parser("bench", help="search fixed positions to fixed depths: node signature and nodes/s")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--depth-offset", type=int, default=0, help="add this to every bench depth")
    p.set_defaults(func=cmd_bench)
    p = sub.add_parser("bestmove", help="search one position: --depth N, --movetime SECONDS or --level L")
    add_common(p)
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--depth", type=whole_number(1, MAX_SEARCH_DEPTH, "plies"), help=f"plies, 1 to {MAX_SEARCH_DEPTH}")
    how.add_argument("--movetime", type=seconds, help="seconds (above 0)")
    how.add_argument("--level", choices=("easy", "medium", "hard"), help="a computer level")
    p.add_argument("--seed", type=int, default=None, help="random seed for --level (variety, Easy's random moves)")
    _tt_size_argument(p)
    p.add_argument("--threads", type=whole_number(1, THREADS_MAX), default=1, metavar="N",
                   help=f"search threads, 1 to {THREADS_MAX} (default 1)")
    p.set_defaults(func=cmd_bestmove)
    p = sub.add_parser("game", help="play moves from the position and print the outcome and draw counts")
    add_common(p)
    p.add_argument("--moves", default="", help='moves separated by spaces, e.g. "11-15 23-19"')
    p.set_defaults(func=cmd_game)
    p = sub.add_parser("hub", help="speak Scan's Hub protocol (version 2) on stdin and stdout (as checkers3d-engine)")
    from .hub import add_arguments as add_hub_arguments

    add_hub_arguments(p)
    p.set_defaults(func=cmd_hub)
    p = sub.add_parser("match", help="two configurations play each other from an opening set, colours swapped")
    add_common(p)
    from .match import add_arguments as add_match_arguments

    add_match_arguments(p)
    p.set_defaults(func=cmd_match)
    p = sub.add_parser("pdn", help="read PDN files: one line per game (rule set, plies, final FEN, result, error)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object per game")
    p.add_argument("--export", metavar="OUT", type=output_file,
                   help="write the games read to OUT, normalised (through a link, a FIFO or a device as it is)")
    p.set_defaults(func=cmd_pdn)
    p = sub.add_parser("egdb", help="endgame tables: build, probe, info, verify")
    p.add_argument("action", choices=("build", "probe", "info", "verify"))
    p.add_argument("--variant", type=_egdb_variant, default=None,
                   help="a rule set the tables can hold (american, international, spanish, italian, czech, thai) or "
                        "all: the window's two games (build, info, verify: default all; probe: default american)")
    p.add_argument("--pieces", type=int, default=None,
                   help="build up to this many pieces (default 5 on 8x8, 4 International)")
    p.add_argument("--fen", help="probe: the position")
    p.add_argument("--plies-left", type=whole_number(0), default=None,
                   help="probe: plies left on the International endgame count (default: a fresh count)")
    p.add_argument("--dir", type=folder, default=None, help="where the tables are (default: the user's cache directory)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--background", action="store_true",
                   help="build: the missing default tables at low priority, ending with the parent process")
    p.set_defaults(func=cmd_egdb)
    p = sub.add_parser("book", help="the opening book: build it with the search, or probe a position")
    from .book import add_arguments as add_book_arguments

    add_book_arguments(p)
    p = sub.add_parser("tune", help="the evaluation's weights: generate self-play data, fit them, or write the hand-set ones")
    from .tuning import add_arguments as add_tuning_arguments

    add_tuning_arguments(p)
    p = sub.add_parser("net", help="the network evaluation: train it on positions of tune generate")
    from .network import add_arguments as add_network_arguments

    add_network_arguments(p)
    p = sub.add_parser("timeuse", help="time a level's moves in self-play: distribution of wall times and depths")
    from .timeuse import add_arguments as add_timeuse_arguments
    from .timeuse import cmd_timeuse

    add_timeuse_arguments(p)
    p.set_defaults(func=cmd_timeuse)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status. Bad usage and bad input: one line ``error: ...`` on stderr,
    status 2 (argparse's exit is caught, so that a caller in the same process gets the status too)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help, --version, or a usage error already printed
        return done.code if isinstance(done.code, int) else 2
    try:
        return args.func(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
    except MemoryError as err:
        print(f"error: not enough memory{f' ({err})' if str(err) else ''}: try a smaller --tt-size", file=sys.stderr)
    except OSError as err:  # a disk that fills up while writing; no memory for a table (ENOMEM)
        print(f"error: {os_error_text(err)}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

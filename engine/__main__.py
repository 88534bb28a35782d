"""Command line: perft and moves (rules), plus whatever the other engine modules register.

    python -m engine perft --depth 6 [--variant international] [--fen FEN] [--divide] [--json]
    python -m engine moves [--fen FEN | --fen -] [--json]
    python -m engine bench [--json]
    python -m engine bestmove [--variant V] [--fen FEN] (--depth N | --movetime S | --level L) [--json]
    python -m engine game [--fen FEN] [--moves "11-15 23-19 ..."] [--json]
    python -m engine hub [--variant american] [--tt-size MB]          (Scan's Hub protocol on stdin/stdout)
    python -m engine match --a level=hard --b level=medium [--variant V] [--games N] [--concurrency N] [--json]
    python -m engine pdn FILE... [--json] [--export OUT.pdn]
    python -m engine egdb build [--variant V|all] [--pieces N]       (endgame tables, in the user's cache)
    python -m engine egdb probe [--variant V] --fen FEN [--plies-left N] [--json]
    python -m engine egdb info [--json]      |      python -m engine egdb verify [--variant V|all]
    python -m engine book build --variant american | probe [--moves "11-15 23-19"]   (the opening book)
    python -m engine tune generate|fit|hand --variant V ...           (the evaluation's weights: engine/tuning.py)
    python -m engine timeuse --level hard --moves 200 [--variant V]   (wall time and depth per move)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

import numpy as np

from . import _board
from ._movegen import perft
from .game import Game
from .position import IllegalMoveError, InvalidFenError, Position
from .variants import variant_named, variant_names


def _position(args) -> Position:
    return Position.from_fen(args.variant, args.fen) if args.fen else Position.initial(args.variant)


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
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                answer = json.dumps(moves_json(Position.from_fen(args.variant, line)))
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
    from .hub import main as hub_main  # imported here: it loads the search kernels

    return hub_main(args.variant, args.tt_size)


def cmd_match(args) -> int:
    from .match import cmd_match as match_main

    return match_main(args)


def _egdb_variants(name: str):
    from .variants import VARIANTS

    return list(VARIANTS.values()) if name == "all" else [variant_named(name)]


def cmd_egdb(args) -> int:
    """Endgame tables: build, probe, info, verify (see engine/egdb.py)."""
    from . import egdb

    if args.action == "build":
        if args.background:
            egdb.build_in_background(args.dir)
            return 0
        if args.pieces is not None and args.variant == "all":
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
        for variant in _egdb_variants("all"):
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
    # probe
    if args.variant == "all":
        raise ValueError("probe needs one --variant")
    variant = variant_named(args.variant)
    tables = egdb.load(variant, args.dir)
    if tables is None:
        raise ValueError(f"no {variant.name} endgame tables in {egdb.egdb_dir(args.dir)}: "
                         f"build them with python -m engine egdb build --variant {variant.name}")
    if not args.fen:
        raise ValueError("probe needs --fen")
    pos = Position.from_fen(variant, args.fen)
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
    searcher = Searcher(args.tt_size, endgame_tables=True)
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


def cmd_pdn(args) -> int:
    from .pdn import run_command

    return run_command(args.files, args.json, args.export)


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", type=variant_named, default="american", help=f"one of {variant_names()}")
    p.add_argument("--fen", help="PDN FEN of the position (default: the start position)")
    p.add_argument("--json", action="store_true", help="print one JSON object per line")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Checkers 3D rules and search engine")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="count leaf nodes of the move tree")
    add_common(p)
    p.add_argument("--depth", type=int, required=True)
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
    how.add_argument("--depth", type=int, help="plies")
    how.add_argument("--movetime", type=float, help="seconds")
    how.add_argument("--level", choices=("easy", "medium", "hard"), help="a computer level")
    p.add_argument("--seed", type=int, default=None, help="random seed for --level (variety, Easy's random moves)")
    p.add_argument("--tt-size", type=int, default=64, help="transposition table size in MB (default 64)")
    p.set_defaults(func=cmd_bestmove)
    p = sub.add_parser("game", help="play moves from the position and print the outcome and draw counts")
    add_common(p)
    p.add_argument("--moves", default="", help='moves separated by spaces, e.g. "11-15 23-19"')
    p.set_defaults(func=cmd_game)
    p = sub.add_parser("hub", help="speak Scan's Hub protocol (version 2) on stdin and stdout")
    p.add_argument("--variant", type=variant_named, default="international",
                   help=f"one of {variant_names()}; default international; the GUI may change it with set-param")
    p.add_argument("--tt-size", type=int, default=64, help="transposition table size in MB (default 64)")
    p.set_defaults(func=cmd_hub)
    p = sub.add_parser("match", help="two configurations play each other from an opening set, colours swapped")
    add_common(p)
    from .match import add_arguments as add_match_arguments

    add_match_arguments(p)
    p.set_defaults(func=cmd_match)
    p = sub.add_parser("pdn", help="read PDN files: one line per game (rule set, plies, final FEN, result, error)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object per game")
    p.add_argument("--export", metavar="OUT", help="write the games read to OUT, normalised")
    p.set_defaults(func=cmd_pdn)
    p = sub.add_parser("egdb", help="endgame tables: build, probe, info, verify")
    p.add_argument("action", choices=("build", "probe", "info", "verify"))
    p.add_argument("--variant", default="all",
                   help="a rule set the tables can hold (american, international, spanish, italian, czech, thai) or "
                        "all: the window's two games (build, info, verify)")
    p.add_argument("--pieces", type=int, default=None,
                   help="build up to this many pieces (default 5 on 8x8, 4 International)")
    p.add_argument("--fen", help="probe: the position")
    p.add_argument("--plies-left", type=int, default=None,
                   help="probe: plies left on the International endgame count (default: a fresh count)")
    p.add_argument("--dir", default=None, help="where the tables are (default: the user's cache directory)")
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
    p = sub.add_parser("timeuse", help="time a level's moves in self-play: distribution of wall times and depths")
    from .timeuse import add_arguments as add_timeuse_arguments
    from .timeuse import cmd_timeuse

    add_timeuse_arguments(p)
    p.set_defaults(func=cmd_timeuse)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

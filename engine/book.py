"""The opening book: moves for the first positions of a game, found offline by our own search.

    python -m engine book build --variant american        # rebuild engine/books/american.json
    python -m engine book build --variant international   # ... international.json
    python -m engine book probe --variant american --moves "11-15 23-19"

What it covers. American checkers: every position of the ACF three-move ballots (``engine.openings``,
the 157 in play, each prefix too, so a game from the start is in book for its first moves), and from
each ballot's position the line both sides' best moves make for ``line_plies`` more plies.
International draughts: no ballots, so the 385 varied four-ply openings of ``engine.openings`` (both
sides' first two moves, every first move among them) and their best lines the same way.
Both: the games the computer plays from the start, for its first moves: for the first ``tree_plies``
plies, every position where a side that plays the book's best moves is to move, whatever the other
side answered (the book's move at the start, every answer to it, the book's move in each of those...,
and the same with the computer moving second).

How. Each position is searched to a fixed ``depth`` with :meth:`Searcher.search`, then
:meth:`Searcher.equal_moves` finds the moves scoring within ``margin`` centi-men of the best. The
entry keeps the best move, its score and those good moves. Positions are keyed by FEN, so a book move
is found whatever the order of the moves that led to the position (transpositions). A position with one
legal move gets no entry. The build is deterministic: the lines and the tree are walked in a fixed
order, each line (and each side's tree) with a fresh transposition table, one thread, no clock; the
same engine makes the same file.

Use (``engine.search.choose_move``): Hard plays the best move; Easy and Medium pick at random among
the good moves, so their games vary.

The file is JSON, ``{"format": 1, "variant", "depth", "margin", "line_plies", "tree_plies", "made_with",
"positions": {FEN: [best move, score, [good moves]]}}``, shipped as package data (``engine/books``,
listed in pyproject) so an installed engine finds it. A missing or unreadable book, or an entry whose
moves aren't legal in its position, is logged and ignored: the engine then searches as usual.

The book is only as good as the search that made it: rebuild it (one command per variant) whenever the
evaluation or the search changes what the engine plays.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .arguments import input_file, output_file, variant_arg
from .game import Game
from .openings import openings_for
from .position import IllegalMoveError, Move, Position
from .variants import AMERICAN, INTERNATIONAL, Variant, variant_names

log = logging.getLogger(__name__)

FORMAT = 1
BOOK_DIR = "books"  # inside the engine package
# The build's settings per variant: search depth (plies), the best line followed from each opening
# (plies), and the margin of a good move (centi-men).
DEPTH = {AMERICAN.name: 15, INTERNATIONAL.name: 11}
LINE_PLIES = {AMERICAN.name: 2, INTERNATIONAL.name: 2}
# the other rule sets (8x8 boards, their openings every 3-ply line: engine.openings): a shorter build
OTHER_DEPTH, OTHER_LINE_PLIES = 11, 1
TREE_PLIES = 5
MARGIN = 10
TT_MB = 128


@dataclass(frozen=True)
class BookEntry:
    """A position's book moves: ``best`` with its ``score`` (centi-men, the mover's view, at the
    book's ``depth``) and ``good``, the moves within the book's margin of it (``best`` first)."""

    best: Move
    score: int
    good: tuple[Move, ...]
    depth: int


class Book:
    """The book of one variant, keyed by FEN; :meth:`probe` finds a position's entry."""

    def __init__(self, variant: Variant, positions: dict[str, list] | None = None, depth: int = 0):
        self.variant = variant
        self.depth = depth
        self._positions = positions or {}

    def __len__(self) -> int:
        return len(self._positions)

    def probe(self, position: Position) -> BookEntry | None:
        """The entry of ``position``, or None when it is out of book (or its entry is unusable)."""
        if position.variant != self.variant:
            return None
        raw = self._positions.get(position.fen())
        if raw is None:
            return None
        try:
            best_text, score, good_texts = raw
            best = position.parse_move(best_text)
            good = [best] + [position.parse_move(t) for t in good_texts if t != best_text]
            return BookEntry(best, int(score), tuple(dict.fromkeys(good)), self.depth)
        except (IllegalMoveError, TypeError, ValueError) as err:
            log.warning("opening book entry for %s is unusable (%s); searching instead", position.fen(), err)
            return None


def book_path(variant: Variant) -> Path:
    """Where the variant's book file lives (in the installed engine package)."""
    return Path(str(resources.files(__package__) / BOOK_DIR / f"{variant.name}.json"))


def read_book(variant: Variant, path: str | Path) -> Book:
    """The book in the file ``path``; ValueError says why it can't be used (missing, not a book of
    ``variant``, damaged)."""
    where = Path(path)
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("variant") != variant.name:
            raise ValueError(f"not a format-{FORMAT} {variant.name} book")
        positions = data["positions"]
        if not isinstance(positions, dict):
            raise ValueError("its positions are not a table")
        return Book(variant, positions, int(data.get("depth", 0)))
    except OSError as err:
        raise ValueError(f"can't use {str(where)!r} as the {variant.name} book ({err.strerror or err})") from None
    except (ValueError, KeyError, TypeError) as err:
        raise ValueError(f"can't use {str(where)!r} as the {variant.name} book ({err})") from None


@lru_cache(maxsize=None)
def load_book(variant: Variant, path: str | None = None) -> Book:
    """The variant's book, read once per process. Never raises: a missing or corrupt file gives an
    empty book (and a warning in the log)."""
    try:
        return read_book(variant, path if path is not None else book_path(variant))
    except ValueError as err:
        log.warning("no opening book for %s: %s", variant.name, err)
        return Book(variant)


def book_move(game, varied: bool, rng: random.Random, book: Book | None = None) -> tuple[Move, BookEntry] | None:
    """The book's move in ``game``'s position (a Game or a Position) and its entry: the best move,
    or with ``varied`` a random one of the good moves. None when the position is out of book."""
    position = game if isinstance(game, Position) else game.position
    entry = (book or load_book(position.variant)).probe(position)
    if entry is None:
        return None
    move = rng.choice(entry.good) if varied else entry.best
    return move, entry


# --- building -------------------------------------------------------------------------------------


def build(variant: Variant, depth: int | None = None, line_plies: int | None = None, margin: int = MARGIN,
          progress=None, lines: tuple[str, ...] | None = None, tree_plies: int = TREE_PLIES) -> dict:
    """Search every position the book covers (see the module doc) and return the book's data.
    ``lines`` replaces the variant's opening lines (the ballots or the 10x10 openings)."""
    from .search import Limits, Searcher

    depth = DEPTH.get(variant.name, OTHER_DEPTH) if depth is None else depth
    line_plies = LINE_PLIES.get(variant.name, OTHER_LINE_PLIES) if line_plies is None else line_plies
    searcher = Searcher(tt_size_mb=TT_MB)
    searcher.warm_up()
    positions: dict[str, list] = {}
    started = time.perf_counter()

    def enter(game: Game) -> Move | None:
        """Search the game's position (once) and return its best move; None when the game is over."""
        pos = game.position
        legal = pos.legal_moves()
        if game.is_over or not legal:
            return None
        fen = pos.fen()
        if fen in positions:
            return pos.parse_move(positions[fen][0])
        if len(legal) == 1:
            return legal[0]
        result = searcher.search(game, Limits(depth=depth))
        good = searcher.equal_moves(game, result, margin)
        best_text = pos.move_text(result.move)
        positions[fen] = [best_text, int(result.score),
                          sorted(pos.move_text(m) for m in good if m != result.move)]
        if progress is not None:
            progress(len(positions), time.perf_counter() - started)
        return result.move

    for line in openings_for(variant) if lines is None else lines:
        searcher.new_game()
        game = Game(variant)
        for text in line.split():
            enter(game)
            game.play(text)
        for _ in range(line_plies + 1):
            move = enter(game)
            if move is None:
                break
            game.play(move)

    def tree(game: Game, book_side: int) -> None:
        """The book's move where ``book_side`` (0 or 1: who moves first or second) is to move, every
        answer where the other side is, to ``tree_plies`` plies."""
        if game.ply >= tree_plies or game.is_over:
            return
        moves = game.position.legal_moves() if game.ply % 2 != book_side else [enter(game)]
        for move in moves:
            if move is not None:
                game.play(move)
                tree(game, book_side)
                game.undo()

    for book_side in (0, 1):
        searcher.new_game()
        tree(Game(variant), book_side)
    return {"format": FORMAT, "variant": variant.name, "depth": depth, "margin": margin, "line_plies": line_plies,
            "tree_plies": tree_plies,
            "made_with": f"python -m engine book build --variant {variant.name} --depth {depth} "
                         f"--line-plies {line_plies} --tree-plies {tree_plies} --margin {margin}",
            "positions": dict(sorted(positions.items()))}


def write(data: dict, path: Path) -> None:
    """The book as compact, stable JSON (one position a line, so a rebuild diffs readably)."""
    lines = [f"{json.dumps(fen)}: {json.dumps(entry, separators=(',', ':'))}" for fen, entry in data["positions"].items()]
    head = {k: v for k, v in data.items() if k != "positions"}
    text = json.dumps(head)[:-1] + ', "positions": {\n' + ",\n".join(lines) + "\n}}\n"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


# --- command line -----------------------------------------------------------------------------------


def _per_variant(values: dict[str, int], other: int) -> str:
    """A default for help texts: ``american 15, international 11, the others 11``."""
    return ", ".join(f"{name} {value}" for name, value in values.items()) + f", the others {other}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="book_command", required=True)
    b = sub.add_parser("build", help="search the book's positions and write the book file")
    b.add_argument("--variant", type=variant_arg, required=True, help=f"one of {variant_names()}")
    b.add_argument("--depth", type=int, default=None, help=f"search depth (default {_per_variant(DEPTH, OTHER_DEPTH)})")
    b.add_argument("--line-plies", type=int, default=None,
                   help=f"best line after each opening (default {_per_variant(LINE_PLIES, OTHER_LINE_PLIES)})")
    b.add_argument("--tree-plies", type=int, default=TREE_PLIES,
                   help=f"every answer to the book's moves for this many plies from the start (default {TREE_PLIES})")
    b.add_argument("--margin", type=int, default=MARGIN, help=f"good moves: within this of the best (default {MARGIN})")
    b.add_argument("--out", type=output_file, default=None, help="the file to write (default: the engine's own book)")
    b.set_defaults(func=cmd_build)
    q = sub.add_parser("probe", help="the book's moves in a position")
    q.add_argument("--variant", type=variant_arg, default="american")
    q.add_argument("--fen", help="the position (default: the start)")
    q.add_argument("--moves", default="", help='moves played from it first, e.g. "11-15 23-19"')
    q.add_argument("--book", type=input_file, default=None, help="the book file (default: the engine's own)")
    q.set_defaults(func=cmd_probe)


def cmd_build(args) -> int:
    out = Path(args.out) if args.out else book_path(args.variant)

    def progress(count: int, seconds: float) -> None:
        if count % 25 == 0:
            print(f"{count} positions in {seconds:.0f} s", file=sys.stderr, flush=True)

    started = time.perf_counter()
    data = build(args.variant, args.depth, args.line_plies, args.margin, progress, tree_plies=args.tree_plies)
    write(data, out)
    print(f"{len(data['positions'])} positions, depth {data['depth']}, {out.stat().st_size:,} bytes, "
          f"{time.perf_counter() - started:.0f} s -> {out}")
    return 0


def cmd_probe(args) -> int:
    start = Position.from_fen(args.variant, args.fen) if args.fen else None
    game = Game(args.variant, start)
    for text in args.moves.split():
        game.play(text)
    book = read_book(args.variant, args.book) if args.book else load_book(args.variant)
    entry = book.probe(game.position)
    if entry is None:
        print(f"out of book ({len(book)} positions in the book): {game.position.fen()}")
        return 1
    pos = game.position
    print(f"best {pos.move_text(entry.best)} (score {entry.score} at depth {book.depth}); good: "
          f"{' '.join(pos.move_text(m) for m in entry.good)}")
    return 0

"""The opening book: built by the search, keyed by position (transpositions), legal moves only, and
never in the way when its file is missing or broken."""

from __future__ import annotations

import fnmatch
import json
import random
import tomllib
from pathlib import Path

import pytest

from engine import ALL_VARIANTS, AMERICAN, INTERNATIONAL, Position
from engine.book import Book, book_move, book_path, build, load_book, write
from engine.game import Game
from engine.openings import openings_for
from engine.search import Searcher, choose_move

# Two move orders that reach one position: Black's two moves swapped around White's.
ORDERS = ("11-15 23-19 9-14", "9-14 23-19 11-15")


def play(variant, moves: str) -> Game:
    game = Game(variant)
    for text in moves.split():
        game.play(text)
    return game


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    """A shallow book of two transposing lines, written and read back as the engine would."""
    data = build(AMERICAN, depth=4, line_plies=1, lines=ORDERS, tree_plies=0)
    path = tmp_path_factory.mktemp("book") / "american.json"
    write(data, path)
    return data, load_book(AMERICAN, str(path))


def test_build_covers_the_lines_and_is_deterministic(small_book):
    data, book = small_book
    assert data == build(AMERICAN, depth=4, line_plies=1, lines=ORDERS, tree_plies=0)  # the same search, the same book
    # every position along both lines is in book (or has one legal move)
    for order in ORDERS:
        words = order.split()
        for n in range(len(words) + 1):
            game = play(AMERICAN, " ".join(words[:n]))
            assert book.probe(game.position) is not None or len(game.position.legal_moves()) == 1
    assert len(book) == len(data["positions"]) and book.depth == 4


def test_games_from_the_start_stay_in_book_whatever_the_answers():
    """The tree: for its plies, the book has a move wherever a side that plays the book's best moves
    is to move, whatever the other side played (no opening lines here, only the tree)."""
    data = build(INTERNATIONAL, depth=3, line_plies=0, lines=(), tree_plies=4)
    book = Book(INTERNATIONAL, data["positions"], data["depth"])
    reached = 0

    def walk(game: Game, book_side: int) -> None:
        nonlocal reached
        if game.ply >= 4:
            return
        legal = game.position.legal_moves()
        if game.ply % 2 == book_side:
            entry = book.probe(game.position)
            assert entry is not None or len(legal) == 1, game.moves
            legal = [entry.best if entry else legal[0]]
            reached += 1
        for move in legal:
            game.play(move)
            walk(game, book_side)
            game.undo()

    walk(Game(INTERNATIONAL), 0)
    walk(Game(INTERNATIONAL), 1)
    assert reached >= 1 + 9 + 9  # the start, each first move, each answer to the book's first move
    assert len(book) <= reached and data["tree_plies"] == 4 and "--tree-plies 4" in data["made_with"]


def test_transposed_move_orders_find_one_entry(small_book):
    _, book = small_book
    a, b = (play(AMERICAN, order) for order in ORDERS)
    assert a.position == b.position and a.moves != b.moves
    assert book.probe(a.position) == book.probe(b.position) is not None


def test_book_moves_are_legal_and_levels_choose_among_them(small_book):
    _, book = small_book
    game = play(AMERICAN, ORDERS[0])
    entry = book.probe(game.position)
    legal = game.position.legal_moves()
    assert entry.best == entry.good[0] and set(entry.good) <= set(legal)
    assert book_move(game, False, random.Random(1), book) == (entry.best, entry)
    picks = {book_move(game, True, random.Random(seed), book)[0] for seed in range(40)}
    assert picks == set(entry.good)
    assert book_move(play(AMERICAN, "9-13 22-18"), False, random.Random(1), book) is None  # out of book


def test_missing_or_corrupt_books_are_empty(tmp_path, caplog):
    assert len(load_book(AMERICAN, str(tmp_path / "missing.json"))) == 0
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert len(load_book(AMERICAN, str(bad))) == 0
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": 1, "variant": "international", "positions": {}}))
    assert len(load_book(AMERICAN, str(other))) == 0
    assert "no opening book" in caplog.text


def test_an_entry_with_illegal_moves_is_skipped(tmp_path, caplog):
    start = Game(AMERICAN).position
    book = Book(AMERICAN, {start.fen(): ["22-18", 0, []], play(AMERICAN, "11-15").position.fen(): ["x", 1]})
    assert book.probe(start) is None  # 22-18 is White's move
    assert book.probe(play(AMERICAN, "11-15").position) is None
    assert "unusable" in caplog.text
    assert book.probe(Game(INTERNATIONAL).position) is None  # another variant


@pytest.fixture(scope="module")
def searcher():
    s = Searcher(tt_size_mb=1)
    s.warm_up()
    return s


def test_levels_play_from_the_book(small_book, searcher, monkeypatch):
    _, book = small_book
    monkeypatch.setattr("engine.book.load_book", lambda variant, path=None: book)
    game = play(AMERICAN, ORDERS[0])
    entry = book.probe(game.position)
    hard = choose_move(searcher, game, "hard", random.Random(1))
    assert hard.move == entry.best and hard.nodes == 0 and hard.depth == 4 and hard.score == entry.score
    medium = {choose_move(searcher, game, "medium", random.Random(seed)).move for seed in range(30)}
    assert medium == set(entry.good)
    searched = choose_move(searcher, game, "medium", random.Random(1), use_book=False)
    assert searched.nodes > 0 and searched.depth == AMERICAN.medium_depth_plies
    out_of_book = choose_move(searcher, play(AMERICAN, "9-13 22-18"), "medium", random.Random(1))
    assert out_of_book.nodes > 0


def test_a_broken_book_file_never_stops_the_computer(tmp_path, searcher, monkeypatch):
    bad = tmp_path / "american.json"
    bad.write_bytes(b"\x00\xff garbage")
    broken = load_book(AMERICAN, str(bad))
    monkeypatch.setattr("engine.book.load_book", lambda variant, path=None: broken)
    game = play(AMERICAN, ORDERS[0])
    result = choose_move(searcher, game, "medium", random.Random(1))
    assert result.move in game.position.legal_moves() and result.nodes > 0


# The books shipped with the engine (engine/books/*.json), one for every rule set, and the openings each
# must cover (the ACF ballots, the 10x10 openings; for the others every line of three plies)
SHIPPED = [(variant, openings_for(variant)) for variant in ALL_VARIANTS.values()]


@pytest.mark.parametrize("variant, lines", SHIPPED, ids=lambda v: getattr(v, "name", ""))
def test_the_shipped_books(variant, lines):
    """Every entry is legal in its position, every opening (each prefix too) is in book, and so is
    the position after each opening's first best reply."""
    data = json.loads(book_path(variant).read_text(encoding="utf-8"))
    book = load_book(variant)
    assert len(book) == len(data["positions"]) > len(lines) and book.depth == data["depth"]
    for fen in data["positions"]:
        position = Position.from_fen(variant, fen)
        entry = book.probe(position)
        assert entry is not None, fen
        assert set(entry.good) <= set(position.legal_moves()) and entry.best == entry.good[0]
    for line in lines:
        words = line.split()
        game = Game(variant)
        for n in range(len(words) + 2):
            entry = book.probe(game.position)
            assert entry is not None or len(game.position.legal_moves()) == 1, (line, n)
            game.play(words[n] if n < len(words) else (entry.best if entry else game.position.legal_moves()[0]))


def test_the_books_are_package_data():
    """pyproject's package data takes every book file, so an installed engine has its books."""
    root = Path(__file__).resolve().parents[2]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["engine"]
    files = sorted((root / "engine" / "books").iterdir())
    assert [f.name for f in files] == sorted(f"{v.name}.json" for v, _ in SHIPPED)
    for f in files:
        assert any(fnmatch.fnmatch(f"books/{f.name}", g) for g in globs), f
    assert book_path(AMERICAN) == root / "engine" / "books" / "american.json"

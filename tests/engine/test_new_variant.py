"""A rule set is a table entry: Brazilian draughts, added here and nowhere else, plays through the
whole engine.

Brazilian draughts is International draughts on the 8x8 board (lidraughts: "Same rules as international
draughts, played on an 8x8 board"; dctl's ``brazilian`` rules): 12 men each on 3 rows, White moves
first, men capture backward, kings fly, the capture that takes the most pieces is compulsory, and a
man that passes its crowning row during a capture stays a man. The entry below and its evaluation
entry are the only two places this test touches (``VARIANTS`` in engine/variants.py, ``EVALUATIONS``
in engine/_eval.py); the move generator, the game record, the search, the levels, the command line,
the Hub protocol and PDN all take the new game from them. The draw-rule numbers and the PDN result's
points are International's, borrowed unchecked: perft counts no draws, and the rest only needs them
to be some rule set's.

Perft of the start position, "drop duplicates" (one move per (from, to, captured set), as ours):
dctl ``test/src/algo/traversal/initial/board_08x08.cpp`` (the "Standard validation generator moves"
thread of the shashki.com forum). Move by move the generator is also checked against pydraughts
0.6.7's ``brazilian`` variant on positions from random games.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import Color, Position, Variant, variant_named
from engine import _search as K
from engine.__main__ import main as engine_main
from engine.__main__ import run_perft
from engine._eval import EVALUATIONS
from engine.game import Game
from engine.hub import HubEngine, format_position
from engine.notation import coords_square, square_name
from engine.pdn import PdnGame, read_text
from engine.search import Limits, Searcher, choose_move
from engine.variants import AMERICAN, INTERNATIONAL, VARIANTS

BRAZILIAN = Variant(
    name="brazilian",
    title="Brazilian Draughts",
    size=8,
    rows_of_men=3,
    first_player=Color.WHITE,
    men_capture_backward=True,
    flying_kings=True,
    majority_capture=True,
    promotion_ends_capture=False,
    repetition_count=3,
    quiet_limit_moves=25,
    endgame_rule=True,
    medium_depth_plies=6,
    pdn_game_type=26,  # PDN 3.0's GameType list: 26 Brazilian draughts
    pdn_win_points=2,
    lone_king_vs_three_moves=16,
    lone_king_vs_two_moves=5,
    lone_king_main_diagonal_moves=5,
    aliases=("8x8-international",),
)
BRAZILIAN_EVALUATION = EVALUATIONS[AMERICAN.name]  # the weights file of a board of its size (fitted to checkers)

BRAZILIAN_START = [7, 49, 302, 1_469, 7_473, 37_628, 187_302, 907_830, 4_431_766, 21_560_022, 105_491_257,
                   511_882_477, 2_481_546_396]
SHALLOW_NODES, SLOW_NODES = 2_000_000, 30_000_000  # as tests/engine/test_perft.py: every run, slow, not run


@pytest.fixture
def brazilian(monkeypatch):
    """The two entries, for the length of one test."""
    monkeypatch.setitem(VARIANTS, BRAZILIAN.name, BRAZILIAN)
    monkeypatch.setitem(EVALUATIONS, BRAZILIAN.name, BRAZILIAN_EVALUATION)
    return BRAZILIAN


@pytest.mark.parametrize("depth, expected", [
    pytest.param(d, n, marks=[pytest.mark.slow] if n > SHALLOW_NODES else [])
    for d, n in enumerate(BRAZILIAN_START, start=1) if n <= SLOW_NODES])
def test_perft_of_the_start_is_the_published_one(brazilian, depth, expected):
    assert brazilian.start_fen == "W:W21-32:B1-12"
    assert run_perft(Position.initial(brazilian), depth) == expected


def test_moves_agree_with_pydraughts(brazilian):
    draughts = pytest.importorskip("draughts")

    def ours(pydraughts_square: int) -> int:
        # pydraughts numbers Brazilian squares from a1 (1) along each rank, White's side first
        rank, k = divmod(pydraughts_square - 1, 4)
        square = coords_square(brazilian, 2 * k + rank % 2, rank)
        assert square is not None
        return square

    rng = random.Random(12)
    checked = captures = 0
    for _ in range(25):
        pos = Position.initial(brazilian)
        while pos.legal_moves() and checked < 400:
            if rng.random() < 0.4:
                board = draughts.Board(variant="brazilian", fen=_algebraic(brazilian, pos))
                expected = {(ours(m.steps_move[0]), ours(m.steps_move[-1]), frozenset(map(ours, m.captures)))
                            for m in board.legal_moves()}
                got = {(m.start, m.end, frozenset(m.captured)) for m in pos.legal_moves()}
                assert got == expected, pos.fen()
                checked += 1
                captures += any(m.captured for m in pos.legal_moves())
            pos = pos.play(rng.choice(pos.legal_moves()))
    assert checked >= 150 and captures >= 30, (checked, captures)


def _algebraic(variant: Variant, pos: Position) -> str:
    """The position as a FEN with algebraic squares (a1 ...), White's list first (pydraughts reads the
    first list as White's whatever its letter)."""
    lists: dict[Color, list[str]] = {Color.WHITE: [], Color.BLACK: []}
    for square, piece in pos.pieces().items():
        lists[piece.color].append(("K" if piece.king else "") + square_name(variant, square))
    turn = "W" if pos.turn is Color.WHITE else "B"
    return f"{turn}:W{','.join(lists[Color.WHITE])}:B{','.join(lists[Color.BLACK])}"


def test_the_whole_engine_plays_it(brazilian, capsys):
    # found by name and alias; a game record that plays, saves and reads back
    assert variant_named("Brazilian") is brazilian and variant_named("8x8-international") is brazilian
    game = Game(brazilian)
    for text in ("22-17", "11-15", "17-13", "15-19"):
        game.play(text)
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.position == game.position and again.variant is brazilian
    # PDN: written with its GameType, read back as the same game (by GameType, and by its first move)
    text = PdnGame.from_game(game).pdn()
    assert '[GameType "26"]' in text
    assert read_text(text)[0].to_game().position == game.position
    untyped = read_text(text.replace('[GameType "26"]\n', ""))[0]
    assert untyped.variant is brazilian and untyped.to_game().position == game.position
    # the search and the levels, on the kernels already compiled for the other games
    searcher = Searcher(tt_size_mb=8)
    signatures = len(K.search.signatures)
    result = searcher.search(game, Limits(depth=5))
    assert result.move in game.position.legal_moves() and result.depth == 5
    assert choose_move(searcher, game, "medium", random.Random(1)).depth == brazilian.medium_depth_plies
    assert len(K.search.signatures) == max(signatures, 1)
    # the command line
    assert engine_main(["perft", "--variant", "brazilian", "--depth", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == BRAZILIAN_START[4]
    # the Hub protocol: set-param takes the name, and a search answers with a legal move
    lines: list[str] = []
    hub = HubEngine(INTERNATIONAL, write=lines.append)
    hub.searcher = searcher
    hub._dispatch("set-param", {"name": "variant", "value": "brazilian"}, 0)
    hub._dispatch("pos", {"pos": format_position(game.position)}, 0)
    hub._dispatch("level", {"depth": "3"}, 0)
    hub._dispatch("go", {}, 1)
    done = [line for line in lines if line.startswith("done")]
    assert hub.variant is brazilian and len(done) == 1
    start, end = (int(sq) for sq in done[0].split("=")[1].replace("x", "-").split("-")[:2])
    assert (start, end) in {(m.start, m.end) for m in game.position.legal_moves()}


def test_a_variant_without_an_evaluation_entry_is_named(monkeypatch):
    bare = replace(BRAZILIAN, name="brazilian-bare", title="Bare Brazilian Draughts", aliases=())
    monkeypatch.setitem(VARIANTS, bare.name, bare)
    with pytest.raises(ValueError, match="Bare Brazilian Draughts.*EVALUATIONS"):
        Searcher(tt_size_mb=1).search(Game(bare), Limits(depth=1))
    assert run_perft(Position.initial(bare), 2) == 49  # the rules need no evaluation

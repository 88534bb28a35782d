"""Cross-check with an independent implementation: pydraughts 0.6.7 (variants 'english' and 'standard').

pydraughts is slow (a millisecond or more a position), so a few hundred positions from seeded random
games, and some random king setups, are enough. Both the move identities and the set of landing
routes of each move are compared; on the positions below pydraughts agrees with the rules text (no
clause needed skipping). Its quirks, handled here:
* it reads the first piece list of a FEN as White whatever its letter, so we always give 'W:W..:B..';
* its legal_moves() lists every landing path, so moves are reduced to (from, to, captured set) and
  their routes collected per move before comparing.
"""

from __future__ import annotations

import random

import pytest
import reference as ref

from engine import Position, variant_named

draughts = pytest.importorskip("draughts")

PYDRAUGHTS_VARIANT = {"american": "english", "international": "standard"}


def oracle_moves(board: ref.Board) -> dict:
    """{(start, end, captured): routes} according to pydraughts."""
    fen = ref.fen(board)  # 'T:W...:B...', White's list first
    game = draughts.Board(variant=PYDRAUGHTS_VARIANT[board.variant], fen=fen)
    out: dict = {}
    for m in game.legal_moves():
        route = tuple(m.steps_move)
        out.setdefault((route[0], route[-1], frozenset(m.captures)), set()).add(route)
    return {ident: frozenset(routes) for ident, routes in out.items()}


def engine_moves(board: ref.Board) -> dict:
    pos = Position.from_fen(variant_named(board.variant), ref.fen(board))
    return {(m.start, m.end, frozenset(m.captured)): frozenset(m.routes) for m in pos.legal_moves()}


def sample(variant: str, seed: int, games: int, per_game: int) -> list[ref.Board]:
    """``per_game`` positions spread over each of ``games`` seeded random games."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        boards = ref.random_game(variant, rng)
        out += rng.sample(boards, min(per_game, len(boards)))
    return out


def show(idents) -> list[str]:
    return sorted(f"{s}{'x' if c else '-'}{e}{sorted(c) if c else ''}" for s, e, c in idents)


@pytest.mark.parametrize("variant", ["american", "international"])
def test_engine_agrees_with_pydraughts(variant):
    boards = sample(variant, seed=4242, games=20, per_game=10)
    assert len(boards) >= 150
    for board in boards:
        expected = oracle_moves(board)
        got = engine_moves(board)
        assert got.keys() == expected.keys(), (
            f"{variant} {ref.fen(board)}: engine lacks {show(expected.keys() - got.keys())}, "
            f"has extra {show(got.keys() - expected.keys())}")
        for ident, routes in expected.items():
            assert got[ident] == routes, f"{variant} {ref.fen(board)}: routes of {show([ident])} differ"


def test_pydraughts_reads_the_start_positions():
    assert len(oracle_moves(ref.start_board("american"))) == 7
    assert len(oracle_moves(ref.start_board("international"))) == 9


@pytest.mark.parametrize("variant", ["american", "international"])
def test_engine_agrees_with_pydraughts_on_king_setups(variant):
    rng = random.Random(3)
    for _ in range(150):
        board = ref.random_setup(variant, rng)
        expected, got = oracle_moves(board), engine_moves(board)
        assert got == expected, (f"{variant} {ref.fen(board)}: engine lacks {show(expected.keys() - got.keys())}, "
                                 f"has extra {show(got.keys() - expected.keys())}, or routes differ")

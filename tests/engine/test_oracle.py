"""Cross-check with an independent implementation: pydraughts 0.6.7, on the rule sets it knows: 'english'
(American), 'standard' (International), 'russian', 'brazilian' and 'italian'.

pydraughts is slow (a millisecond or more a position), so a few hundred positions from seeded random
games, and some random king setups, are enough. Both the move identities and the set of landing
routes of each move are compared; on the positions below pydraughts agrees with the rules text (no
clause needed skipping). Its quirks, handled here:
* it reads the first piece list of a FEN as White whatever its letter, so we always give 'W:W..:B..';
* its legal_moves() lists every landing path, so moves are reduced to (from, to, captured set) and
  their routes collected per move before comparing;
* Russian and Brazilian positions go in with algebraic squares (its own numbers for them run from a1
  along each rank, White's side first), and its squares come back in those numbers;
* its Italian rule 6.9 ("the kings met first") compares only where the first king comes in each
  capture (FID 6.9 and dctl compare king by king, as the engine does): positions where that decides
  are left out of the Italian comparison (``_italian_order_decides``), and counted.
"""

from __future__ import annotations

import random

import pytest
import reference as ref

from engine import Position, variant_named

draughts = pytest.importorskip("draughts")

PYDRAUGHTS_VARIANT = {"american": "english", "international": "standard", "russian": "russian",
                      "brazilian": "brazilian", "italian": "italian"}
ALGEBRAIC = ("russian", "brazilian")  # pydraughts reads these with algebraic squares
VARIANTS = list(PYDRAUGHTS_VARIANT)


def _algebraic_fen(board: ref.Board) -> str:
    """The board as a FEN with algebraic squares (a1 at White's near left), White's list first."""
    rules = board.rules
    lists: dict[int, list[str]] = {ref.WHITE: [], ref.BLACK: []}
    for sq, (color, king) in sorted(board.pieces.items()):
        row, col = ref.square_to_cell(rules, sq)
        lists[color].append(("K" if king else "") + "abcdefgh"[col] + str(rules.size - row))
    return f"{'W' if board.turn == ref.WHITE else 'B'}:W{','.join(lists[ref.WHITE])}:B{','.join(lists[ref.BLACK])}"


def _from_pydraughts(board: ref.Board, square: int) -> int:
    """Our square of one of pydraughts' numbers (for ALGEBRAIC: from a1 along each rank)."""
    if board.variant not in ALGEBRAIC:
        return square
    rank, k = divmod(square - 1, 4)
    ours = ref.cell_to_square(board.rules, board.rules.size - 1 - rank, 2 * k + rank % 2)
    assert ours is not None
    return ours


def oracle_moves(board: ref.Board) -> dict:
    """{(start, end, captured): routes} according to pydraughts."""
    fen = _algebraic_fen(board) if board.variant in ALGEBRAIC else ref.fen(board)  # White's list first
    game = draughts.Board(variant=PYDRAUGHTS_VARIANT[board.variant], fen=fen)
    out: dict = {}
    for m in game.legal_moves():
        route = tuple(_from_pydraughts(board, sq) for sq in m.steps_move)
        captured = frozenset(_from_pydraughts(board, sq) for sq in m.captures)
        out.setdefault((route[0], route[-1], captured), set()).add(route)
    return {ident: frozenset(routes) for ident, routes in out.items()}


def _italian_order_decides(board: ref.Board) -> bool:
    """Whether, among the captures left after FID 6.6-6.8, two meet their first king at the same jump
    but differ later (where pydraughts' reading of 6.9 and the rule's part ways)."""
    if board.variant != "italian":
        return False
    kinds = {tuple(k) for sq in board.pieces if board.pieces[sq][0] == board.turn
             for _, _, _, k in ref._captures_from(board, sq) if any(k)}
    firsts = {}
    for k in kinds:
        firsts.setdefault(k.index(True), set()).add(k)
    return any(len(group) > 1 for group in firsts.values())


def engine_moves(board: ref.Board) -> dict:
    """{(start, end, captured): routes} of the engine (a crowned and an uncrowned capture of the same
    squares, Russian, count as one: pydraughts doesn't tell them apart)."""
    pos = Position.from_fen(variant_named(board.variant), ref.fen(board))
    out: dict = {}
    for m in pos.legal_moves():
        out.setdefault((m.start, m.end, frozenset(m.captured)), set()).update(m.routes)
    return {ident: frozenset(routes) for ident, routes in out.items()}


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


@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_agrees_with_pydraughts(variant):
    boards = sample(variant, seed=4242, games=20, per_game=10)
    assert len(boards) >= 150
    skipped = sum(map(_italian_order_decides, boards))
    assert skipped <= len(boards) // 20
    for board in boards:
        if _italian_order_decides(board):
            continue
        expected = oracle_moves(board)
        got = engine_moves(board)
        assert got.keys() == expected.keys(), (
            f"{variant} {ref.fen(board)}: engine lacks {show(expected.keys() - got.keys())}, "
            f"has extra {show(got.keys() - expected.keys())}")
        for ident, routes in expected.items():
            assert got[ident] == routes, f"{variant} {ref.fen(board)}: routes of {show([ident])} differ"


@pytest.mark.parametrize("variant", VARIANTS)
def test_pydraughts_reads_the_start_positions(variant):
    assert oracle_moves(ref.start_board(variant)) == engine_moves(ref.start_board(variant))
    assert len(oracle_moves(ref.start_board(variant))) == (9 if variant == "international" else 7)


@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_agrees_with_pydraughts_on_king_setups(variant):
    rng = random.Random(3)
    for _ in range(150):
        board = ref.random_setup(variant, rng)
        if _italian_order_decides(board):
            continue
        expected, got = oracle_moves(board), engine_moves(board)
        assert got == expected, (f"{variant} {ref.fen(board)}: engine lacks {show(expected.keys() - got.keys())}, "
                                 f"has extra {show(got.keys() - expected.keys())}, or routes differ")

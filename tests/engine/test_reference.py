"""The numba move generator agrees with the plain-Python one written from the rules (reference.py).

For every position: the set of move identities (start, end, captured set), each move's set of routes,
and the position after each move. Positions come from seeded random games (both variants, played to
the end) and random king-heavy setups (both sides to move, men next to their crowning row)."""

from __future__ import annotations

import random

import pytest
import reference as ref

from engine import AMERICAN, INTERNATIONAL, Position, variant_named
from engine.__main__ import run_perft

VARIANTS = ["american", "international", "brazilian", "russian", "pool", "spanish", "italian", "czech", "thai"]


def engine_position(board: ref.Board) -> Position:
    return Position.from_fen(variant_named(board.variant), ref.fen(board))


def engine_moves(pos: Position) -> dict:
    """{(start, end, captured): routes} of the engine, checking the shape of each Move on the way."""
    out = {}
    for m in pos.legal_moves():
        ident = (m.start, m.end, frozenset(m.captured), m.crowned)
        assert ident not in out, f"{pos.fen()}: move {m} listed twice"
        assert list(m.captured) == sorted(set(m.captured)), f"{pos.fen()}: captured not ascending in {m}"
        assert len(set(m.routes)) == len(m.routes), f"{pos.fen()}: a route listed twice in {m}"
        assert m.path in m.routes, f"{pos.fen()}: path {m.path} not among the routes of {m}"
        out[ident] = frozenset(m.routes)
    return out


def describe(ident) -> str:
    start, end, captured, crowned = ident
    return (f"{start}{'x' if captured else '-'}{end}" + (f" taking {sorted(captured)}" if captured else "")
            + (" crowned" if crowned else ""))


def assert_agrees(board: ref.Board) -> int:
    """The engine and the reference agree on ``board``; returns how many moves were compared."""
    pos = engine_position(board)
    expected = ref.legal_moves(board)
    got = engine_moves(pos)
    fen = ref.fen(board)
    missing = sorted(map(describe, expected.keys() - got.keys()))
    extra = sorted(map(describe, got.keys() - expected.keys()))
    assert not missing and not extra, f"{board.variant} {fen}: engine lacks {missing}, engine has extra {extra}"
    for ident, routes in expected.items():
        assert got[ident] == routes, (f"{board.variant} {fen}: routes of {describe(ident)} differ: "
                                      f"engine lacks {sorted(routes - got[ident])}, "
                                      f"engine has extra {sorted(got[ident] - routes)}")
    for m in pos.legal_moves():
        after = ref.play(board, (m.start, m.end, frozenset(m.captured), m.crowned))
        played = pos.play(m)
        assert ref.Board.from_position(played).key() == after.key(), (
            f"{board.variant} {fen}: after {describe((m.start, m.end, m.captured, m.crowned))} "
            f"engine has {played.fen()}, rules give {ref.fen(after)}")
    return len(expected)


def game_boards(variant: str, seed: int, games: int) -> list[ref.Board]:
    rng = random.Random(seed)
    return [b for _ in range(games) for b in ref.random_game(variant, rng)]


def setup_boards(variant: str, seed: int, count: int) -> list[ref.Board]:
    rng = random.Random(seed)
    return [ref.random_setup(variant, rng) for _ in range(count)]


# --- the reference itself reproduces the published numbers (so it is worth trusting) -------------

@pytest.mark.parametrize("variant, expected", [
    ("american", [7, 49, 302, 1469]),  # shared/reference/perft.md, American start
    ("international", [9, 81, 658]),  # shared/reference/perft.md, International start
])
def test_reference_perft_start(variant, expected):
    board = ref.start_board(variant)
    assert [ref.perft(board, d) for d in range(1, len(expected) + 1)] == expected


def test_reference_random178():
    # shared/reference/perft.md: Random178, 14 distinct moves (178 ordered capture sequences), perft(3) 1,168
    pos = Position.from_fen(INTERNATIONAL, "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46")
    board = ref.Board.from_position(pos)
    assert len(ref.legal_moves(board)) == 14
    assert ref.perft(board, 3) == 1168


# --- the rules, one clause at a time, on hand-made positions ------------------------------------

def moves_of(variant, fen):
    return ref.legal_moves(ref.Board.from_position(Position.from_fen(variant, fen)))


def test_american_man_captures_forward_only():
    # white man 22 with black men on 18 (ahead) and 26 (behind): only the forward jump 22x15
    assert set(moves_of(AMERICAN, "W:W22:B18,26")) == {(22, 15, frozenset({18}), False)}


def test_international_man_captures_backward():
    # white man 28 with a black man behind it on 33: 28x39
    assert set(moves_of(INTERNATIONAL, "W:W28:B33")) == {(28, 39, frozenset({33}), False)}


def test_american_crowning_ends_the_capture():
    # black man 23 jumps 26 and lands on 30, White's back row: crowned, the move ends there, although
    # a king on 30 could jump 25 next
    assert moves_of(AMERICAN, "B:W25,26:B23") == {(23, 30, frozenset({26}), False): frozenset({(23, 30)})}


def test_international_man_passing_the_far_row_stays_a_man():
    # white man 12 jumps 8 to 3 on the far row and must go on (backward) over 9 to 14: it stays a man
    assert moves_of(INTERNATIONAL, "W:W12:B8,9") == {(12, 14, frozenset({8, 9}), False): frozenset({(12, 3, 14)})}
    board = ref.Board.from_position(Position.from_fen(INTERNATIONAL, "W:W12:B8,9"))
    assert ref.play(board, (12, 14, frozenset({8, 9}), False)).pieces == {14: (ref.WHITE, False)}


def test_majority_capture():
    # 32x21 takes one piece; 32x23x14 and 33x22x31 (a man captures backward) take two: only those
    assert set(moves_of(INTERNATIONAL, "W:W32,33:B27,28,19")) == {(32, 14, frozenset({28, 19}), False),
                                                                   (33, 31, frozenset({27, 28}), False)}


def test_american_free_choice_among_captures():
    # the one-piece 31x24 stands beside the two-piece 22x15x8
    assert set(moves_of(AMERICAN, "W:W22,31:B11,18,27")) == {(22, 8, frozenset({11, 18}), False),
                                                             (31, 24, frozenset({27}), False)}


def test_flying_king_lands_anywhere_beyond():
    # white king 46 takes 28 (after the empty 41, 37, 32) and may stop on 23, 19, 14, 10 or 5
    moves = moves_of(INTERNATIONAL, "W:WK46:B28")
    assert set(moves) == {(46, sq, frozenset({28}), False) for sq in (23, 19, 14, 10, 5)}


def test_american_king_moves_one_square():
    moves = moves_of(AMERICAN, "W:WK18:B1")
    assert {end for _, end, _, _ in moves} == {14, 15, 22, 23}


def test_circular_capture_returns_to_start_and_jumps_no_piece_twice():
    # American king 26 takes 23, 15, 14, 22 round a square, either way round, and is back on 26: one
    # move with two routes. Standing on 26 again it may not take 23 (or 22) a second time.
    assert moves_of(AMERICAN, "W:WK26:B14,15,22,23") == {
        (26, 26, frozenset({14, 15, 22, 23}), False): frozenset({(26, 19, 10, 17, 26), (26, 17, 10, 19, 26)})}
    # the same with an International man, which captures backward too
    assert moves_of(INTERNATIONAL, "W:W32:B17,18,27,28") == {
        (32, 32, frozenset({17, 18, 27, 28}), False): frozenset({(32, 23, 12, 21, 32), (32, 21, 12, 23, 32)})}


def test_flying_king_random178_first_move_is_circular():
    moves = moves_of(INTERNATIONAL, "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46")
    assert any(start == end for start, end, _, _ in moves)


# --- the agreement sweeps -----------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_agrees_on_random_games(variant):
    boards = game_boards(variant, seed=2024, games=25)
    moves = sum(assert_agrees(b) for b in boards)
    assert len(boards) > 1000 and moves > len(boards)


@pytest.mark.parametrize("variant", VARIANTS)
def test_agrees_on_random_king_setups(variant):
    boards = setup_boards(variant, seed=7, count=1500)
    moves = sum(assert_agrees(b) for b in boards)
    assert moves > len(boards)


@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_perft_agrees_with_kernel(variant):
    """Kernel perft (the CLI's run_perft) equals reference perft on random positions, at every depth
    from 1 up to 4 while the tree stays small (a plain-Python tree of king moves grows fast)."""
    rng = random.Random(99)
    games = [ref.random_game(variant, rng) for _ in range(6)]
    boards = [g[len(g) * k // 4] for g in games for k in (1, 2, 3)]
    boards += setup_boards(variant, seed=5, count=12)
    deepest = 0
    for board in boards:
        pos = engine_position(board)
        for depth in range(1, 5):
            nodes = run_perft(pos, depth)
            if nodes > 5000:
                break
            assert nodes == ref.perft(board, depth), f"{variant} {ref.fen(board)} perft({depth})"
            deepest = max(deepest, depth)
    assert deepest >= 3


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_agrees_on_many_positions(variant):
    boards = game_boards(variant, seed=31337, games=400) + setup_boards(variant, seed=11, count=30000)
    for b in boards:
        assert_agrees(b)

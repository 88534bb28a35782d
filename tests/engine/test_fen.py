"""PDN FEN in and out: `TURN:W<squares>:B<squares>`, K before a king, ranges, either list order,
whitespace and a trailing period tolerated; a bad FEN raises InvalidFenError quoting the input."""

from __future__ import annotations

import pickle
import random

import pytest
import reference as ref

from engine import AMERICAN, INTERNATIONAL, Color, InvalidFenError, InvalidSquareError, Piece, Position, variant_named

W, B = Color.WHITE, Color.BLACK


def test_start_positions():
    am = Position.initial(AMERICAN)
    assert am.turn is B and am.fen() == "B:W21-32:B1-12"
    assert am.pieces() == {**{sq: Piece(B, False) for sq in range(1, 13)}, **{sq: Piece(W, False) for sq in range(21, 33)}}
    intl = Position.initial(INTERNATIONAL)
    assert intl.turn is W and intl.fen() == "W:W31-50:B1-20"
    assert intl.count(W) == (20, 0) and intl.count(B) == (20, 0)


@pytest.mark.parametrize("fen", [
    "W:W31-50:B1-20",
    "W:B1-20:W31-50",  # the two lists in either order
    "W:W31-40,41-50:B1-5,6-20",
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20",
    "  W : W31-50 : B1-20  ",  # whitespace
    "W:W31-50:B1-20.",  # trailing period, as PDN files write it
    "w:w31-50:b1-20",  # lower case
    "W:W31 - 50:B1-20".replace(" ", ""),
    "W:W 31-50, :B1-20".replace(", ", ""),
])
def test_equivalent_spellings(fen):
    assert Position.from_fen(INTERNATIONAL, fen) == Position.initial(INTERNATIONAL)


def test_kings_ranges_and_empty_lists():
    pos = Position.from_fen(AMERICAN, "B:WK1,5-7,K32:BK10-12,20")
    assert pos.turn is B
    assert pos.pieces() == {1: Piece(W, True), 5: Piece(W, False), 6: Piece(W, False), 7: Piece(W, False),
                            10: Piece(B, True), 11: Piece(B, True), 12: Piece(B, True), 20: Piece(B, False),
                            32: Piece(W, True)}
    assert pos.piece_at(1) == Piece(W, True) and pos.piece_at(2) is None
    assert Position.from_fen(AMERICAN, pos.fen()) == pos
    empty = Position.from_fen(AMERICAN, "W:W:B1")
    assert empty.count(W) == (0, 0) and empty.count(B) == (1, 0) and empty.legal_moves() == ()


def test_men_on_the_far_row_are_fine_and_kings_anywhere():
    # only a man on its *own* crowning row is impossible: a man at home, and any king, is not
    pos = Position.from_fen(AMERICAN, "B:W29-32,K5:B1-4,K28")
    assert pos.piece_at(29) == Piece(W, False) and pos.piece_at(1) == Piece(B, False)
    assert Position.from_fen(INTERNATIONAL, "W:WK1,46:BK50,5").piece_at(1) == Piece(W, True)


def test_a_board_set_up_by_hand_is_checked_only_through_its_fen():
    pieces = {3: Piece(W, False), 20: Piece(B, True), 30: Piece(B, False)}
    pos = Position.from_pieces(AMERICAN, pieces, B)
    assert pos.pieces() == pieces and pos.turn is B
    assert pos.fen() == "B:W3:BK20,30"
    with pytest.raises(InvalidFenError, match="white man on square 3"):
        Position.from_fen(AMERICAN, pos.fen())
    start = Position.initial(INTERNATIONAL)
    assert Position.from_pieces(INTERNATIONAL, start.pieces(), W) == start
    with pytest.raises(InvalidSquareError, match="square 33"):
        Position.from_pieces(AMERICAN, {33: Piece(W, False)}, W)


@pytest.mark.parametrize("variant, square", [(AMERICAN, 0), (AMERICAN, 33), (INTERNATIONAL, -1), (INTERNATIONAL, 51)])
def test_piece_at_names_a_square_off_the_board(variant, square):
    with pytest.raises(InvalidSquareError, match=f"square {square} is not on the {variant.title} board"):
        Position.initial(variant).piece_at(square)


def test_fen_out_writes_kings_and_ranges():
    pos = Position.from_fen(INTERNATIONAL, "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46")
    out = pos.fen()
    assert out.startswith("B:W") and "K31" in out and "BK17,K24" in out
    assert Position.from_fen(INTERNATIONAL, out) == pos


@pytest.mark.parametrize("variant", ["american", "international"])
def test_round_trip_on_random_positions(variant):
    """fen() reads back as the same position, and the same FEN written by hand (reference.fen, every
    square listed) reads as it too. Positions are values: equal, hashable, picklable."""
    rng = random.Random(8)
    boards = [ref.random_setup(variant, rng) for _ in range(300)]
    boards += [b for _ in range(5) for b in ref.random_game(variant, rng)]
    v = variant_named(variant)
    for board in boards:
        pos = Position.from_fen(v, ref.fen(board))
        assert ref.Board.from_position(pos).key() == board.key()
        again = Position.from_fen(v, pos.fen())
        assert again == pos and hash(again) == hash(pos)
        assert pickle.loads(pickle.dumps(pos)) == pos


@pytest.mark.parametrize("variant, fen, why", [
    (AMERICAN, "", "TURN"),
    (AMERICAN, "W", "TURN"),
    (AMERICAN, "X:W21-32:B1-12", "TURN"),
    (AMERICAN, "W:W21-32", "TURN"),
    (AMERICAN, "W:W21-32:B1-12:B13", "TURN"),
    (AMERICAN, "W:W21-32:X1-12", "must start with W or B"),
    (AMERICAN, "W:W21-32:W1-12", "lists the white pieces twice"),
    (AMERICAN, "W:W21-32:B1-21", "square 21"),  # a square taken twice
    (AMERICAN, "W:W0:B1", "'0'"),
    (AMERICAN, "W:W33:B1", "'33'"),
    (INTERNATIONAL, "W:W51:B1", "'51'"),
    (AMERICAN, "W:W12-10:B1", "'12-10'"),
    (AMERICAN, "W:Wx:B1", "'x'"),
    (AMERICAN, "W:WK:B1", "'K'"),
    (AMERICAN, "W:W1,,2:B3", "''"),
    (AMERICAN, "W:W1-:B3", "'1-'"),
    (AMERICAN, "B:W3:B20", "white man on square 3"),  # a man on its own crowning row would be a king
    (AMERICAN, "W:W20:B30", "black man on square 30"),
    (INTERNATIONAL, "W:W3,K20:B30", "white man on square 3"),
    (INTERNATIONAL, "W:W30:B46-50", "black man on square 46"),
])
def test_bad_fen_quotes_the_input(variant, fen, why):
    with pytest.raises(InvalidFenError) as err:
        Position.from_fen(variant, fen)
    message = str(err.value)
    assert repr(fen) in message and why in message, message
    assert isinstance(err.value, ValueError)

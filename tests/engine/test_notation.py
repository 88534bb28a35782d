"""Square names both ways and move text out and in.

Squares: PDN numbers (1-32, 1-50) on the diagram seen from White, square 1 at the top left; algebraic
names as the specification gives them: seen from the first player (Black in American checkers, White in
International draughts), a1 at the bottom left, files a.. from the left, ranks 1.. from the near side.
"""

from __future__ import annotations

import random

import pytest
import reference as ref

from engine import (
    AMERICAN,
    INTERNATIONAL,
    IllegalMoveError,
    InvalidSquareError,
    Position,
    coords_square,
    parse_square,
    square_coords,
    square_name,
    variant_named,
)

FILES = "abcdefghij"


def expected_coords(variant, square):
    """(file, rank) 0-based in the first player's frame, worked out from the PDN diagram by hand:
    White's view is the diagram; Black's view is the diagram turned half a turn."""
    row, col = ref.square_to_cell(ref.RULES[variant.name], square)  # row 0 = top of the diagram seen from White
    n = variant.size
    if variant is INTERNATIONAL:  # White moves first: the diagram as it is
        return col, n - 1 - row
    return n - 1 - col, row  # American: Black moves first and sits at the top of the diagram


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
def test_every_square_both_ways(variant):
    names = set()
    for sq in range(1, variant.squares + 1):
        f, r = expected_coords(variant, sq)
        name = f"{FILES[f]}{r + 1}"
        assert square_coords(variant, sq) == (f, r)
        assert coords_square(variant, f, r) == sq
        assert square_name(variant, sq) == name
        assert parse_square(variant, name) == sq
        assert parse_square(variant, name.upper()) == sq
        assert parse_square(variant, str(sq)) == sq
        names.add(name)
    assert len(names) == variant.squares
    # every other point of the board is a light square (or off the board): None
    dark = sum(coords_square(variant, f, r) is not None for f in range(variant.size) for r in range(variant.size))
    assert dark == variant.squares
    assert coords_square(variant, -1, 0) is None and coords_square(variant, 0, variant.size) is None


@pytest.mark.parametrize("variant, square, name", [
    # "each player has a dark square in the near left corner": a1 is always playable
    (AMERICAN, 4, "a1"), (AMERICAN, 1, "g1"), (AMERICAN, 29, "h8"), (AMERICAN, 32, "b8"),
    (AMERICAN, 11, "c3"), (AMERICAN, 15, "d4"),
    (INTERNATIONAL, 46, "a1"), (INTERNATIONAL, 5, "j10"), (INTERNATIONAL, 1, "b10"), (INTERNATIONAL, 50, "i1"),
    (INTERNATIONAL, 32, "d4"), (INTERNATIONAL, 28, "e5"),
])
def test_known_squares(variant, square, name):
    assert square_name(variant, square) == name
    assert parse_square(variant, name) == square


@pytest.mark.parametrize("variant, text", [
    (AMERICAN, "0"), (AMERICAN, "33"), (AMERICAN, "a2"), (AMERICAN, "i1"), (AMERICAN, "a9"), (AMERICAN, "xyz"),
    (INTERNATIONAL, "51"), (INTERNATIONAL, "a2"), (INTERNATIONAL, "k1"), (INTERNATIONAL, "a11"), (INTERNATIONAL, ""),
    # digits that str.isdigit() and \d take but are not ASCII: int() refuses the first two, reads the rest
    (AMERICAN, "\u00b2"), (AMERICAN, "\u2460"), (AMERICAN, "\u0663"), (AMERICAN, "1\u0665"), (AMERICAN, "c\u0663"),
    (INTERNATIONAL, "\uff13\uff12"), (INTERNATIONAL, "a\u00b9"),
])
def test_bad_square_names_the_text(variant, text):
    with pytest.raises(InvalidSquareError) as err:
        parse_square(variant, text)
    assert repr(text) in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("variant, square", [(AMERICAN, 0), (AMERICAN, 33), (INTERNATIONAL, 51)])
def test_square_coords_off_the_board(variant, square):
    with pytest.raises(InvalidSquareError):
        square_coords(variant, square)


# --- move text -----------------------------------------------------------------------------------

def test_opening_moves_text():
    pos = Position.initial(AMERICAN)
    texts = {pos.move_text(m): pos.move_text(m, numeric=False) for m in pos.legal_moves()}
    assert texts == {"9-13": "g3-h4", "9-14": "g3-f4", "10-14": "e3-f4", "10-15": "e3-d4",
                     "11-15": "c3-d4", "11-16": "c3-b4", "12-16": "a3-b4"}
    pos = Position.initial(INTERNATIONAL)
    assert pos.move_text(pos.parse_move("32-28"), numeric=False) == "d4-e5"


@pytest.mark.parametrize("text", ["11-15", "c3-d4", "C3-D4", " 11 - 15 ", "c3 - d4"])
def test_parse_plain_move(text):
    pos = Position.initial(AMERICAN)
    move = pos.parse_move(text)
    assert (move.start, move.end, move.captured) == (11, 15, ())


def test_short_capture_text_and_parse():
    # White's 22x8 (over 18 and 11) and 31x24 (over 27): free choice in American checkers
    pos = Position.from_fen(AMERICAN, "W:W22,31:B11,18,27")
    assert sorted(pos.move_text(m) for m in pos.legal_moves()) == ["22x8", "31x24"]
    for text in ("22x8", "22x15x8", "22x15", "f6xb2"):
        if text == "22x15":
            with pytest.raises(IllegalMoveError, match="'22x15'"):
                pos.parse_move(text)  # 22x15 stops half way: not a legal move
            continue
        assert pos.parse_move(text).captured == (11, 18)
    assert pos.parse_move("31×24").captured == (27,)


def test_ambiguous_capture_needs_the_route():
    # Black's man on 10 reaches 26 two ways, over 14 and 22 or over 15 and 23: two moves, same ends
    pos = Position.from_fen(AMERICAN, "B:W14,15,22,23:B10")
    assert sorted(pos.move_text(m) for m in pos.legal_moves()) == ["10x17x26", "10x19x26"]
    assert sorted(pos.move_text(m, numeric=False) for m in pos.legal_moves()) == ["e3xc5xe7", "e3xg5xe7"]
    with pytest.raises(IllegalMoveError) as err:
        pos.parse_move("10x26")
    assert "'10x26'" in str(err.value) and "ambiguous" in str(err.value)
    assert "10x17x26" in str(err.value) and "10x19x26" in str(err.value)
    assert pos.parse_move("10x17x26").captured == (14, 22)
    assert pos.parse_move("e3xc5xe7").captured == (15, 23)


@pytest.mark.parametrize("text, why", [
    ("11", "can't read"), ("", "can't read"), ("11-", "can't read"), ("-15", "can't read"),
    ("zz-15", "'zz'"), ("11-33", "'33'"), ("a2-b3", "'a2'"),  # not squares
    ("11-19", "not a legal move"), ("22-18", "not a legal move"), ("11x18", "not a legal move"),
    ("\u00b2-15", "'\u00b2'"), ("\u2460-15", "'\u2460'"), ("1\u0661-15", "'1\u0661'"),  # non-ASCII digits
])
def test_bad_move_text_names_it(text, why):
    pos = Position.initial(AMERICAN)
    with pytest.raises(IllegalMoveError) as err:
        pos.parse_move(text)
    assert repr(text) in str(err.value) and why in str(err.value)
    assert isinstance(err.value, ValueError)


def test_exact_route_is_not_ambiguous():
    # White's king on 22 can take 25 alone (22x29), or go round over 18, 19, 27 and 26 back to 22
    # and then take 25 too, ending on 29 as well (22x15x24x31x22x29). The route "22x29" names the first exactly: the
    # text the engine prints for it must read back as it (found by the round-trip sweep below).
    pos = Position.from_fen(AMERICAN, "W:WK6,7,K22:B3,9,10,K18,K19,K20,25,26,27")
    short = next(m for m in pos.legal_moves() if m.captured == (25,))
    assert pos.parse_move(pos.move_text(short)) == short
    assert pos.parse_move("22x29") == short
    assert pos.parse_move("22x15x24x31x22x29").captured == (18, 19, 25, 26, 27)


@pytest.mark.parametrize("variant", ["american", "international"])
def test_move_text_round_trip(variant):
    """For every legal move of many positions, the printed text (numbers and algebraic) reads back as
    that move."""
    rng = random.Random(5)
    boards = [ref.random_setup(variant, rng) for _ in range(600)]
    boards += [b for _ in range(6) for b in ref.random_game(variant, rng)]
    checked = 0
    for board in boards:
        pos = Position.from_fen(variant_named(variant), ref.fen(board))
        for move in pos.legal_moves():
            for numeric in (True, False):
                text = pos.move_text(move, numeric=numeric)
                assert pos.parse_move(text) == move, f"{pos.fen()}: {text!r}"
                checked += 1
    assert checked > 5000

"""The game record (engine/game.py): outcomes, every automatic draw, draw offers, saving, and the
``python -m engine game`` command. Positions are PDN FEN; International squares 46 (a1) .. 5 (j10) form
the main diagonal."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import AMERICAN, INTERNATIONAL, Color, IllegalMoveError, Position
from engine.__main__ import main as engine_main
from engine.game import DrawOfferError, Game, GameOverError, InvalidGameRecordError, Outcome, Reason

ROOT = Path(__file__).resolve().parents[2]


def game(variant, fen, moves=""):
    g = Game(variant, Position.from_fen(variant, fen))
    for text in moves.split():
        g.play(text)
    return g


def walk(g, plies, keep=(), men=False):
    """Play ``plies`` quiet moves, the first legal one each time that moves a king (or a man if ``men``)
    not standing on a square of ``keep``, captures nothing, leaves the opponent no capture and a move,
    and reaches no position already seen twice. Deterministic, so each test replays the same game."""
    for _ in range(plies):
        pos = g.position
        for m in pos.legal_moves():
            if m.captured or m.start in keep or not (men or pos.piece_at(m.start).king):
                continue
            after = pos.play(m)
            if g.repetitions(after) < 2 and not after.has_capture() and after.legal_moves():
                g.play(m)
                break
        else:
            raise AssertionError(f"no quiet move to walk on in {pos.fen()}")


def offer_capture(g):
    """The side to move plays a king move that the opponent must answer by capturing."""
    pos = g.position
    for m in pos.legal_moves():
        if not m.captured and pos.piece_at(m.start).king and pos.play(m).has_capture():
            return g.play(m)
    raise AssertionError(f"no king to give away in {pos.fen()}")


def capture(g):
    """Capture, if possible so that the opponent then has no capture."""
    pos = g.position
    captures = [m for m in pos.legal_moves() if m.captured]
    return g.play(next((m for m in captures if not pos.play(m).has_capture()), captures[0]))


# --- the record itself --------------------------------------------------------------------------


def test_record_keeps_moves_positions_and_undo():
    g = Game(AMERICAN)
    assert g.start == Position.initial(AMERICAN) and g.turn is Color.BLACK
    m1 = g.play("11-15")
    m2 = g.play(g.position.parse_move("23-19"))
    assert g.moves == [m1, m2] and len(g.positions) == 3
    assert g.positions[1] == g.start.play(m1) and g.position == g.positions[1].play(m2)
    assert g.turn is Color.BLACK and g.ply == 2
    assert g.undo() == m2 and g.undo() == m1
    assert g.position == g.start and g.moves == []
    with pytest.raises(IndexError):
        g.undo()


def test_illegal_moves_and_bad_start():
    g = Game(AMERICAN)
    with pytest.raises(IllegalMoveError, match="'11-19'"):
        g.play("11-19")
    after = g.start.play(g.start.parse_move("11-15"))
    with pytest.raises(IllegalMoveError, match="22-18"):  # White's move, offered on Black's turn
        g.play(after.parse_move("22-18"))
    with pytest.raises(TypeError):
        g.play(1115)
    with pytest.raises(ValueError, match="international"):
        Game(AMERICAN, Position.initial(INTERNATIONAL))
    assert g.ply == 0


# --- a side with no legal move loses (WCDF 1.29-1.30, FMJD 5.1) ------------------------------------


def test_no_pieces_left_loses():
    g = game(AMERICAN, "W:W18:B14", "18x9")
    assert g.outcome == Outcome(Color.WHITE, Reason.NO_MOVES) and g.is_over
    assert g.plies_until_draw is None and g.moves_until_draw is None
    with pytest.raises(GameOverError, match="over"):
        g.play("9-5")
    assert isinstance(GameOverError("x"), IllegalMoveError)
    g.undo()
    assert g.outcome is None and not g.is_over


def test_all_pieces_blocked_loses():
    # White's only man, on 5, can't move to 1 (Black's man) and can't jump it (off the board).
    g = game(AMERICAN, "B:W5:B1,10", "10-14")
    assert g.outcome == Outcome(Color.BLACK, Reason.NO_MOVES)


def test_start_position_without_moves_is_already_lost():
    g = game(AMERICAN, "W:W5:B1,14")
    assert g.outcome == Outcome(Color.BLACK, Reason.NO_MOVES)


# --- repetition (WCDF 1.31, FMJD 6.2) ------------------------------------------------------------


def test_third_repetition_draws():
    g = game(AMERICAN, "B:WK32:BK1", "1-6 32-27 6-1 27-32 1-6 32-27 6-1")
    assert g.repetitions(g.start) == 2 and g.outcome is None
    g.play("27-32")
    assert g.repetitions() == 3 and g.outcome == Outcome(None, Reason.REPETITION)
    g.undo()
    assert g.outcome is None and g.repetitions(g.start) == 2


def test_same_board_with_the_other_side_to_move_does_not_count():
    # A flying king goes round 47-38-33-47 in three moves while Black's king shuffles 1-7-1, so the
    # board comes back with Black to move; the men on the corners keep the endgame rule out.
    g = game(INTERNATIONAL, "W:WK47,46:BK1,5", "47-38 1-7 38-33 7-1 33-47")
    black_to_move = g.position
    assert black_to_move.white == g.start.white and black_to_move.black == g.start.black
    assert black_to_move != g.start
    g.play("1-7"), g.play("47-38"), g.play("7-1"), g.play("38-47")
    # the board has now stood three times, but only twice with Black to move
    assert g.repetitions(black_to_move) == 2 and g.repetitions(g.start) == 1
    assert g.outcome is None
    g.play("1-7"), g.play("47-38"), g.play("7-1")
    g.play("38-47")
    assert g.outcome == Outcome(None, Reason.REPETITION)


# --- quiet-move limits (WCDF 1.32: 40 moves each, FMJD 6.3: 25 moves each) ---------------------------


AMERICAN_KINGS = "B:WK30,K32,21:BK1,K3,12"


def test_american_40_moves_each_exactly():
    g = game(AMERICAN, AMERICAN_KINGS)
    assert g.plies_until_draw == 80 and g.moves_until_draw == 40
    walk(g, 79)
    assert g.quiet_plies == 79 and g.plies_until_draw == 1 and g.moves_until_draw == 1
    assert g.outcome is None
    walk(g, 1)
    assert g.outcome == Outcome(None, Reason.MOVE_LIMIT)
    g.undo()
    assert g.outcome is None and g.plies_until_draw == 1


def test_american_man_move_resets_the_count():
    g = game(AMERICAN, AMERICAN_KINGS)
    walk(g, 40)
    assert g.quiet_plies == 40 and g.plies_until_draw == 40 and g.moves_until_draw == 20
    g.play("12-16")
    assert g.quiet_plies == 0 and g.plies_until_draw == 80
    g.undo()
    assert g.quiet_plies == 40


def test_american_capture_resets_the_count():
    g = game(AMERICAN, AMERICAN_KINGS)
    walk(g, 11)
    offer_capture(g)
    assert g.quiet_plies == 12
    capture(g)
    assert g.quiet_plies == 0 and g.plies_until_draw == 80


def test_international_25_moves_each_of_kings_only():
    g = game(INTERNATIONAL, "W:WK46,K50,45:BK1,K5,6")
    assert g.plies_until_draw == 50
    walk(g, 49)
    assert g.plies_until_draw == 1 and g.outcome is None
    walk(g, 1)
    assert g.outcome == Outcome(None, Reason.MOVE_LIMIT)


def test_international_man_move_resets_the_count():
    g = game(INTERNATIONAL, "W:WK46,K50,45:BK1,K5,6")
    walk(g, 30)
    man = next(m for m in g.position.legal_moves() if not g.position.piece_at(m.start).king)
    g.play(man)
    assert g.quiet_plies == 0 and g.plies_until_draw == 50


# --- International endgame rule (FMJD 6.4 as the specification words it) ----------------------------


@pytest.mark.parametrize("fen", ["W:WK46,K47,K49:BK3", "W:WK46,K48,37:BK3", "W:WK46,36,37:BK3"])
def test_lone_king_against_three_pieces_draws_after_16_moves_each(fen):
    g = game(INTERNATIONAL, fen)
    assert g.plies_until_draw == 32 and g.moves_until_draw == 16
    # K46 holds the main diagonal, so the 5-move clause never starts; men may move (they reset the
    # 25-move count, not this one) and may be crowned
    for _ in range(31):
        left = g.plies_until_draw
        walk(g, 1, keep={46}, men=True)
        assert g.plies_until_draw == left - 1
    assert g.outcome is None
    walk(g, 1, keep={46}, men=True)
    assert g.outcome == Outcome(None, Reason.ENDGAME_RULE)


def test_crowning_keeps_the_16_move_count():
    g = game(INTERNATIONAL, "W:WK46,7,8:BK30", "7-2")  # 1 king + 2 men becomes 2 kings + 1 man
    assert g.position.count(Color.WHITE) == (1, 2) and g.plies_until_draw == 31


@pytest.mark.parametrize("fen", ["W:WK46,K47:BK3", "W:WK46,36:BK3", "W:WK46:BK3"])
def test_lone_king_against_two_or_one_draws_after_5_moves_each(fen):
    g = game(INTERNATIONAL, fen)
    assert g.plies_until_draw == 10 and g.moves_until_draw == 5
    countdown(g, 9)
    assert g.outcome is None and g.plies_until_draw == 1
    walk(g, 1)
    assert g.outcome == Outcome(None, Reason.ENDGAME_RULE)


def test_material_outside_the_rule_runs_no_endgame_count():
    assert game(INTERNATIONAL, "W:W36,37,38:BK3").plies_until_draw == 50  # men only: no king
    assert game(INTERNATIONAL, "W:WK46,K47,K48,K49:BK3").plies_until_draw == 50  # 4 pieces
    assert game(INTERNATIONAL, "W:WK46,K47:BK3,K4").plies_until_draw == 50  # not a lone king
    assert game(AMERICAN, "B:WK32,K31:BK1").plies_until_draw == 80  # American has no such rule


def test_the_count_starts_when_the_material_arises():
    # Black's lone king takes one of 4 kings: 3 against 1 from that position on
    g = game(INTERNATIONAL, "B:WK46,K47,K48,K14:BK3")
    assert g.plies_until_draw == 50
    g.play("3x25")
    assert g.plies_until_draw == 32
    g.undo()
    assert g.plies_until_draw == 50


def test_main_diagonal_five_moves_from_that_position():
    g = game(INTERNATIONAL, "B:WK47,K48,K49:BK3")
    assert g.plies_until_draw == 32
    g.play("3-14")  # the lone king reaches the main diagonal, White has nothing on it
    assert g.plies_until_draw == 10
    for _ in range(9):  # the count runs on wherever the king then goes
        left = g.plies_until_draw
        walk(g, 1)
        assert g.plies_until_draw == left - 1
    assert g.outcome is None
    walk(g, 1)
    assert g.outcome == Outcome(None, Reason.ENDGAME_RULE) and g.ply == 11


def test_main_diagonal_at_the_start():
    assert game(INTERNATIONAL, "W:WK47,K48,K49:BK10").plies_until_draw == 10


def test_main_diagonal_needs_the_opponent_off_it():
    g = game(INTERNATIONAL, "W:WK46,41,K48:BK10")  # White's king and man on 46 and 41
    assert g.plies_until_draw == 32
    g.play("48-42")
    assert g.plies_until_draw == 31


def test_main_diagonal_count_is_capped_by_the_16_moves():
    g = game(INTERNATIONAL, "W:WK37,K47,K49:BK3")
    walk(g, 24, keep={37})
    assert g.plies_until_draw == 8
    # White's king leaves the main diagonal; then Black's lone king steps onto it
    pos = g.position
    leave = next(m for m in pos.legal_moves() if m.start == 37 and m.end not in DIAGONAL
                 and not pos.play(m).has_capture())
    g.play(leave)
    pos = g.position
    onto = next(m for m in pos.legal_moves() if m.end in DIAGONAL and not pos.play(m).has_capture())
    g.play(onto)
    assert g.ply == 26 and g.plies_until_draw == 6  # 32 - 26, not 10
    countdown(g, 5)
    walk(g, 1)
    assert g.ply == 32 and g.outcome == Outcome(None, Reason.ENDGAME_RULE)


DIAGONAL = {46, 41, 37, 32, 28, 23, 19, 14, 10, 5}


def countdown(g, plies):
    """Walk ``plies`` plies checking that plies_until_draw drops by one each time."""
    for _ in range(plies):
        left = g.plies_until_draw
        walk(g, 1)
        assert g.plies_until_draw == left - 1


def test_three_becoming_two_counts_five_moves_from_there():
    g = game(INTERNATIONAL, "W:WK46,K47,K49:BK3")
    walk(g, 4, keep={46})
    offer_capture(g)
    capture(g)  # the lone king takes one of the three kings at ply 6
    assert g.position.count(Color.WHITE) == (0, 2)
    assert g.ply == 6 and g.plies_until_draw == 10
    countdown(g, 9)
    walk(g, 1)
    assert g.ply == 16 and g.outcome == Outcome(None, Reason.ENDGAME_RULE)


def test_three_becoming_two_is_capped_by_the_16_moves():
    g = game(INTERNATIONAL, "W:WK46,K47,K49:BK3")
    walk(g, 24, keep={46})
    offer_capture(g)
    capture(g)  # at ply 26: 5 more moves each would run to ply 36, past the 16-move limit at 32
    assert g.ply == 26 and g.plies_until_draw == 6
    countdown(g, 5)
    walk(g, 1)
    assert g.ply == 32 and g.outcome == Outcome(None, Reason.ENDGAME_RULE)


def test_two_against_one_keeps_its_count_when_the_lone_king_takes_one():
    g = game(INTERNATIONAL, "B:WK46,K14:BK3")
    assert g.plies_until_draw == 10
    g.play("3x25")  # now a king against a king: still the same 5-move count
    assert g.plies_until_draw == 9


def test_win_on_the_last_move_within_the_limit_counts():
    # 2 kings against a lone king with the lone king to move: White's 5th move is the 10th ply
    g = game(INTERNATIONAL, "B:WK46,K47:BK3")
    walk(g, 8)
    assert g.plies_until_draw == 2
    offer_capture(g)  # Black's 5th move puts the king en prise
    capture(g)  # White's 5th move, the last within the limit, takes it
    assert g.ply == 10 and g.outcome == Outcome(Color.WHITE, Reason.NO_MOVES)
    g.undo(), g.undo()
    walk(g, 2)  # the same 5th moves without the capture
    assert g.ply == 10 and g.outcome == Outcome(None, Reason.ENDGAME_RULE)


# --- resignation ---------------------------------------------------------------------------------


def test_resignation():
    g = game(AMERICAN, "B:W21-32:B1-12", "11-15")
    g.resign(Color.WHITE)
    assert g.outcome == Outcome(Color.BLACK, Reason.RESIGNATION) and g.is_over
    with pytest.raises(GameOverError):
        g.play("23-19")
    with pytest.raises(GameOverError):
        g.resign(Color.BLACK)
    g.undo()  # takes back 11-15 and the resignation after it
    assert g.outcome is None and g.ply == 0
    g.resign(Color.BLACK)
    assert g.outcome == Outcome(Color.WHITE, Reason.RESIGNATION)


# --- draw offers ("Controls on this page") --------------------------------------------------------


def test_offer_accepted():
    g = game(AMERICAN, AMERICAN_KINGS)
    assert g.can_offer_draw() == (True, "")
    g.play("1-5", offer_draw=True)
    assert g.pending_offer is Color.BLACK
    g.accept_draw()
    assert g.outcome == Outcome(None, Reason.AGREEMENT) and g.pending_offer is None
    assert g.can_offer_draw()[0] is False
    with pytest.raises(GameOverError):
        g.play("30-26")
    with pytest.raises(DrawOfferError):
        g.accept_draw()


def test_accept_without_an_offer():
    g = game(AMERICAN, AMERICAN_KINGS, "1-5")
    with pytest.raises(DrawOfferError, match="no draw to accept"):
        g.accept_draw()


def test_declined_offer_blocks_the_same_side_until_a_man_moves():
    g = game(AMERICAN, AMERICAN_KINGS)
    g.play("1-5", offer_draw=True)
    g.play("30-26")  # White declines by moving (a king)
    assert g.pending_offer is None
    with pytest.raises(DrawOfferError):
        g.accept_draw()
    allowed, why = g.can_offer_draw()
    assert not allowed and "declined" in why
    with pytest.raises(DrawOfferError, match="declined"):
        g.play("3-7", offer_draw=True)
    with pytest.raises(DrawOfferError, match="declined"):
        g.play("12-16", offer_draw=True)  # not even on the man move itself
    assert g.ply == 2
    g.play("12-16")
    assert g.can_offer_draw()[0] is True  # White to move: White's own offers are untouched
    g.play("26-30")
    assert g.can_offer_draw() == (True, "")
    g.play("5-1", offer_draw=True)
    assert g.pending_offer is Color.BLACK


def test_the_declining_man_move_also_frees_the_offer():
    g = game(AMERICAN, AMERICAN_KINGS)
    g.play("1-5", offer_draw=True)
    g.play("21-17")  # White declines with a man move
    assert g.can_offer_draw() == (True, "")


def test_a_capture_frees_the_offer():
    g = game(AMERICAN, "B:WK18,K32,29:BK1,K3,4")
    g.play("1-5", offer_draw=True)
    g.play("18-14")
    assert not g.can_offer_draw()[0]
    g.play("5-9")  # Black's king steps where White must take it
    g.play("14x5")
    assert g.can_offer_draw() == (True, "")


def test_counter_offer_rides_on_the_declining_move():
    g = game(AMERICAN, AMERICAN_KINGS)
    g.play("1-5", offer_draw=True)
    g.play("30-26", offer_draw=True)
    assert g.pending_offer is Color.WHITE
    g.accept_draw()
    assert g.outcome == Outcome(None, Reason.AGREEMENT)


def test_undo_cancels_the_offer_and_restores_the_offer_state():
    g = game(AMERICAN, AMERICAN_KINGS)
    g.play("1-5", offer_draw=True)
    g.undo()
    assert g.pending_offer is None and g.ply == 0 and g.can_offer_draw() == (True, "")
    g.play("1-5", offer_draw=True)
    g.play("30-26")
    g.play("12-16")
    g.play("26-30")
    assert g.can_offer_draw()[0]
    g.undo(), g.undo()
    assert not g.can_offer_draw()[0]  # blocked again, exactly as before 12-16
    g.undo()
    assert g.pending_offer is Color.BLACK
    g.accept_draw()
    assert g.outcome == Outcome(None, Reason.AGREEMENT)
    g.undo()  # takes back the offer's move and the agreement with it
    assert g.outcome is None and g.pending_offer is None and g.ply == 0


def test_draw_offers_are_listed_per_move():
    g = game(AMERICAN, AMERICAN_KINGS)
    g.play("1-5", offer_draw=True)
    g.play("30-26")
    assert g.draw_offers == [True, False] == g.to_dict()["draw_offers"]
    g.draw_offers.append(True)  # a copy: the record is unchanged
    g.undo()
    assert g.draw_offers == [True]


# --- saving --------------------------------------------------------------------------------------


def test_round_trip_through_json():
    g = game(AMERICAN, AMERICAN_KINGS)
    g.play("1-5", offer_draw=True)
    g.play("30-26")
    g.play("12-16")
    g.play("26-30", offer_draw=True)
    data = json.loads(json.dumps(g.to_dict()))
    assert data == {"variant": "american", "start": "B:W21,K30,K32:BK1,K3,12",
                    "moves": ["1-5", "30-26", "12-16", "26-30"], "draw_offers": [True, False, False, True],
                    "resigned": None, "draw_agreed": False}
    back = Game.from_dict(data)
    assert back.positions == g.positions and back.moves == g.moves and back.pending_offer is Color.WHITE
    g.accept_draw()
    assert Game.from_dict(g.to_dict()).outcome == Outcome(None, Reason.AGREEMENT)
    g.undo()
    g.resign(Color.BLACK)
    again = Game.from_dict(g.to_dict())
    assert again.outcome == Outcome(Color.WHITE, Reason.RESIGNATION) and again.to_dict() == g.to_dict()


def test_round_trip_of_a_finished_international_game():
    g = game(INTERNATIONAL, "B:WK46,K47:BK3")
    walk(g, 8)
    offer_capture(g)
    capture(g)
    back = Game.from_dict(g.to_dict())
    assert back.outcome == Outcome(Color.WHITE, Reason.NO_MOVES) and back.position == g.position


GOOD = {"variant": "american", "start": "B:W21,K30,K32:BK1,K3,12", "moves": ["1-5", "30-26"],
        "draw_offers": [True, False], "resigned": None, "draw_agreed": False}


@pytest.mark.parametrize("change, message", [
    ({"variant": "chess"}, "chess"),
    ({"variant": 8}, "8"),
    ({"start": "X:W1:B2"}, "X:W1:B2"),
    ({"moves": "1-5 30-26"}, "1-5 30-26"),
    ({"moves": ["1-5", "30-22"]}, "move 2 '30-22'"),
    ({"moves": ["1-5", 7]}, "7"),
    ({"draw_offers": [True]}, "2 true/false"),
    ({"draw_offers": [1, 0]}, "1, 0"),
    ({"moves": ["1-5", "30-26", "3-7"], "draw_offers": [True, False, True]}, "move 3 '3-7'.*declined"),
    ({"draw_agreed": True}, "no draw to accept"),
    ({"resigned": "red"}, "red"),
    ({"resigned": "white", "draw_agreed": True}, "resigned"),
    ({"extra": 1}, "extra"),
])
def test_corrupt_records_are_refused(change, message):
    with pytest.raises(InvalidGameRecordError, match=message) as info:
        Game.from_dict({**GOOD, **change})
    assert isinstance(info.value, ValueError)


def test_records_that_are_not_objects_or_lack_fields():
    with pytest.raises(ValueError, match="object"):
        Game.from_dict(["american"])
    with pytest.raises(ValueError, match="'moves'"):
        Game.from_dict({"variant": "american", "start": "B:W21-32:B1-12"})
    with pytest.raises(ValueError, match="move 2"):  # a move after the game ended
        Game.from_dict({"variant": "american", "start": "W:W18:B14", "moves": ["18x9", "9-5"]})


# --- python -m engine game -----------------------------------------------------------------------


def test_cli_game_in_progress():
    run = subprocess.run([sys.executable, "-m", "engine", "game", "--moves", "1. 11-15 23-19 2. 8-11", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"fen": "W:W19,21,22,24-32:B1-7,9-12,15", "to_move": "white",
                                      "outcome": None, "plies_until_draw": 80}


def engine_game(capsys, *args):
    """``python -m engine game ARGS`` in this process: (exit status, stdout, stderr)."""
    status = engine_main(["game", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_cli_game_over_and_endgame_count(capsys):
    status, out, _ = engine_game(capsys, "--variant", "10x10", "--fen", "B:WK46,K47:BK3", "--json")
    assert status == 0 and json.loads(out)["plies_until_draw"] == 10
    status, out, _ = engine_game(capsys, "--fen", "W:W18:B14", "--moves", "18x9", "--json")
    assert json.loads(out) == {"fen": "B:W9:B", "to_move": "black",
                               "outcome": {"result": "white", "reason": "no_moves"}, "plies_until_draw": None}
    status, out, _ = engine_game(capsys, "--fen", "W:W18:B14", "--moves", "18x9")
    assert status == 0 and "white (no_moves)" in out


def test_cli_names_an_illegal_or_unreadable_move_and_fails(capsys):
    status, _, err = engine_game(capsys, "--moves", "11-15 23-19 8-11 22-17 9-13 17x10")
    assert status != 0 and "move 6 '17x10'" in err
    status, _, err = engine_game(capsys, "--moves", "11-15 banana")
    assert status != 0 and "move 2 'banana'" in err
    status, _, err = engine_game(capsys, "--fen", "W:W18:B14", "--moves", "18x9 9-5")
    assert status != 0 and "move 2 '9-5'" in err and "over" in err

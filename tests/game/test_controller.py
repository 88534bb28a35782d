"""The play state machine, without a window: every selection rule of the specification ("Controls on
this page"), multi-capture entry, computer turns, undo, draw offers, resignation, modes, saving."""

from __future__ import annotations

import json

import pytest
from support import position, sq

from engine import AMERICAN, INTERNATIONAL, Color, Position
from engine.game import Game, Reason
from game.files.settings import Notation, View
from game.modes import Level, Mode
from game.play.hand import WHEN_YOU_CAN_CAPTURE
from game.play.intents import (
    AcceptDraw,
    Cancel,
    ChangeMode,
    ChooseRules,
    ConfirmLeave,
    ConfirmResign,
    ContinueSaved,
    CursorMove,
    CursorPress,
    Deselect,
    DismissNotes,
    DragStarted,
    EditPosition,
    FlipBoard,
    OfferDraw,
    PieceDropped,
    PlayAgain,
    PlayFromHere,
    PlayMoveFromList,
    Resign,
    SetView,
    SquarePressed,
    StartGame,
    ToggleSetting,
    Undo,
)
from game.play.machine import Controller
from game.play.phases import (
    AwaitingDrawAnswer,
    ChoosingMode,
    ConfirmingLeave,
    ConfirmingResign,
    GameOver,
    HumanToMove,
    InGame,
    OpponentFailed,
    OpponentToMove,
    Resuming,
    Screen,
)
from game.play.status_text import MUST_CAPTURE


def press(c: Controller, *names: str) -> list[str]:
    """Press the squares ``names`` in turn; the sounds the window is asked to play."""
    return [sound for name in names for sound in c.handle(SquarePressed(sq(name, c.variant))).sounds]


def names(c: Controller, squares) -> set[str]:
    from engine import square_name
    return {square_name(c.variant, s) for s in squares}


def played(c: Controller) -> list[str]:
    return [p.move_text(m, numeric=False) for p, m in zip(c.game.positions, c.game.moves, strict=False)]


# --- selecting ------------------------------------------------------------------------------------

def test_press_a_piece_selects_it_with_green_dots_and_a_dot_moves_it(make):
    c = make()
    press(c, "c3")
    assert c.hand.selected == sq("c3")
    assert names(c, c.hand.targets(c.legal_moves())) == {"b4", "d4"}
    sounds = press(c, "d4")
    assert played(c) == ["c3-d4"]
    assert c.hand.selected is None and "move" in sounds


def test_pressing_another_piece_selects_it_instead(make):
    c = make()
    press(c, "c3", "e3")
    assert c.hand.selected == sq("e3")
    assert names(c, c.hand.targets(c.legal_moves())) == {"d4", "f4"}


def test_pressing_the_selected_piece_again_deselects_it(make):
    c = make()
    press(c, "c3", "c3")
    assert c.hand.selected is None and not c.game.moves


def test_press_outside_the_board_or_an_empty_square_deselects(make):
    c = make()
    press(c, "c3")
    c.handle(SquarePressed(None, outside=True))
    assert c.hand.selected is None
    press(c, "c3", "e5")
    assert c.hand.selected is None and not c.game.moves


def test_a_piece_without_moves_is_not_selected_and_says_why(make):
    c = make()
    sounds = press(c, "a1")
    assert c.hand.selected is None
    assert c.notice == "That man can't move: men move only forward, and the square ahead of it is taken"
    assert sounds == ["illegal"] and c.notice_rule == "men-move"


def test_opponent_pieces_are_not_selected(make):
    c = make()
    press(c, "b6")
    assert c.hand.selected is None


def test_compulsory_capture_rings_status_and_the_must_capture_notice(make):
    c = make(start=position("B", ["d4", "h6"], ["c3", "g1"]))
    assert c.hand.capturers(c.legal_moves()) == {sq("c3")}
    assert MUST_CAPTURE in c.status()
    press(c, "g1")
    assert c.hand.selected is None and c.notice == WHEN_YOU_CAN_CAPTURE + ": the gold rings show which pieces can"
    assert c.notice_rule == "compulsory-capture"
    press(c, "c3")
    assert names(c, c.hand.targets(c.legal_moves())) == {"e5"}
    sounds = press(c, "e5")
    assert played(c) == ["c3xe5"] and "capture" in sounds


def test_no_capture_no_rings(make):
    c = make()
    assert c.hand.capturers(c.legal_moves()) == frozenset() and MUST_CAPTURE not in c.status()


# --- multi-captures -------------------------------------------------------------------------------

FORK = dict(start=position("B", ["d4", "d6", "f6", "b6"], ["c3", "g1"]))  # c3xe5 then g7 or c7


def test_multi_capture_press_the_squares_in_order(make):
    c = make(**FORK)
    press(c, "c3")
    assert names(c, c.hand.targets(c.legal_moves())) == {"e5"}
    assert names(c, c.hand.final_rings(c.legal_moves())) == {"g7", "c7"}
    press(c, "e5")
    assert not c.game.moves, "two routes remain: nothing is played yet"
    assert names(c, c.hand.targets(c.legal_moves())) == {"g7", "c7"} and c.hand.entered_path() == (sq("c3"), sq("e5"))
    press(c, "c7")
    assert played(c) == ["c3xc7"]
    assert c.last_move()[0].path == (sq("c3"), sq("e5"), sq("c7"))


def test_once_one_route_remains_the_rest_plays_itself(make):
    c = make(start=position("B", ["d4", "f6"], ["c3"]))
    press(c, "c3", "e5")
    assert played(c) == ["c3xg7"]


def test_pressing_the_final_square_first_plays_the_only_route_there(make):
    c = make(**FORK)
    press(c, "c3", "g7")
    assert played(c) == ["c3xg7"]


def test_final_square_reached_by_two_routes_asks_for_the_squares_in_order(make):
    c = make(start=position("B", ["d4", "d6", "b4", "b6"], ["c3"]))  # c3-e5-c7 and c3-a5-c7
    press(c, "c3", "c7")
    assert not c.game.moves and "route" in c.notice
    assert c.hand.selected == sq("c3")
    press(c, "a5")
    assert played(c) == ["c3xa5xc7"]


def test_deselect_and_esc_cancel_a_partly_entered_capture(make):
    c = make(**FORK)
    press(c, "c3", "e5")
    c.handle(Deselect())
    assert c.hand.selected is None and c.hand.entered == ()
    press(c, "c3", "e5")
    c.handle(Cancel())
    assert c.hand.selected == sq("c3") and c.hand.entered == (), "Esc takes back the squares entered"
    c.handle(Cancel())
    assert c.hand.selected is None


def test_a_stray_press_keeps_a_partly_entered_capture(make):
    c = make(**FORK)
    sounds = press(c, "c3", "e5", "a3")
    assert c.hand.entered == (sq("e5"),) and "illegal" in sounds


# --- circular captures ----------------------------------------------------------------------------

CIRCLE = dict(start=position("B", ["d4", "f4", "f2", "d2"], ["Kc3", "a1"]))  # the king jumps round to c3


def test_pressing_the_selected_piece_plays_a_capture_that_returns_to_its_square(make):
    c = make(**CIRCLE)
    press(c, "c3")
    assert c.hand.selected == sq("c3")
    assert sq("c3") in c.hand.final_rings(c.legal_moves())
    press(c, "c3")
    assert played(c) == ["c3xc3"]
    assert len(c.game.moves[0].captured) == 4


def test_circular_capture_entered_square_by_square(make):
    c = make(**CIRCLE)
    press(c, "c3", "e1")
    assert played(c) == ["c3xc3"], "only one route starts with e1: it plays itself"
    assert c.last_move()[0].path == tuple(sq(n) for n in ("c3", "e1", "g3", "e5", "c3"))


def test_circular_capture_deselected_by_a_press_outside_the_board(make):
    c = make(**CIRCLE)
    press(c, "c3")
    c.handle(SquarePressed(None, outside=True))
    assert c.hand.selected is None and not c.game.moves


# --- other ways to play ---------------------------------------------------------------------------

def test_drag_and_drop_plays_and_a_bad_drop_keeps_the_selection(make):
    c = make()
    c.handle(DragStarted(sq("c3")))
    assert c.hand.dragging == sq("c3") and c.hand.selected == sq("c3")
    c.handle(PieceDropped(sq("c3"), sq("c5")))
    assert not c.game.moves and c.hand.dragging is None and c.hand.selected == sq("c3")
    c.handle(DragStarted(sq("c3")))
    c.handle(PieceDropped(sq("c3"), sq("d4")))
    assert played(c) == ["c3-d4"]


def test_drag_to_the_end_of_a_multi_capture(make):
    c = make(**FORK)
    c.handle(DragStarted(sq("c3")))
    c.handle(PieceDropped(sq("c3"), sq("g7")))
    assert played(c) == ["c3xg7"]


def test_legal_moves_list_plays_a_move(make):
    c = make()
    move = next(m for m in c.legal_moves() if c.move_text(m) == "c3-d4")
    c.handle(PlayMoveFromList(move))
    assert played(c) == ["c3-d4"]


def test_notation_setting_changes_the_move_text(make):
    c = make()
    move = next(m for m in c.legal_moves() if c.move_text(m) == "c3-d4")
    c.handle(ToggleSetting("notation"))
    assert c.settings.notation is Notation.NUMERIC and c.move_text(move) == "11-15"


def test_keyboard_cursor_moves_over_dark_squares_and_presses(make):
    c = make()
    c.hand.cursor = (2, 0)
    c.handle(CursorMove(1, 0))  # the first key only shows the cursor
    assert c.hand.cursor_visible and c.hand.cursor_square(c.variant) == sq("c1")
    c.handle(CursorMove(1, 0))
    assert c.hand.cursor_square(c.variant) == sq("e1"), "right jumps to the next dark square"
    c.handle(CursorMove(-1, 0))
    c.handle(CursorMove(0, 1))
    c.handle(CursorMove(0, 1))
    assert c.hand.cursor_square(c.variant) == sq("c3"), "up zigzags and keeps to the column"
    c.handle(CursorPress())
    assert c.hand.selected == sq("c3")
    c.handle(CursorMove(0, 1))
    assert c.hand.cursor_square(c.variant) in (sq("b4"), sq("d4"))
    c.handle(CursorPress())
    assert len(c.game.moves) == 1
    for _ in range(20):
        c.handle(CursorMove(0, -1))
        c.handle(CursorMove(-1, 0))
        assert c.hand.cursor_square(c.variant) is not None
    assert c.hand.cursor[1] == 0


def test_cursor_moves_with_the_screen_when_the_board_is_flipped(make):
    c = make()
    c.hand.cursor_visible = True
    c.hand.cursor = (2, 2)
    c.handle(FlipBoard())
    assert c.hand.second_side_near(c.variant, c.mode)
    c.handle(CursorMove(1, 0))
    assert c.hand.cursor == (0, 2), "right on the screen is left for the first player"
    c.handle(CursorMove(0, 1))
    assert c.hand.cursor[1] == 1, "up on the screen is down for the first player"


# --- against the computer -------------------------------------------------------------------------

def test_computer_replies_without_blocking_and_undo_takes_back_both_moves(make, opponent):
    c = make(level="medium")
    press(c, "c3", "d4")
    assert isinstance(c.phase, OpponentToMove) and len(opponent.requests) == 1 and "thinking" in c.status()
    assert not c.is_human_turn()
    press(c, "b6")  # the player can't move for the computer
    assert c.hand.selected is None
    c.update()
    assert isinstance(c.phase, OpponentToMove), "no reply yet: still thinking, nothing waits"
    opponent.reply_first_legal()
    c.update()
    assert len(c.game.moves) == 2 and c.is_human_turn() and not isinstance(c.phase, OpponentToMove)
    c.handle(Undo())
    assert c.game.moves == [] and c.is_human_turn()


def test_pressing_your_piece_on_the_computers_turn_says_to_wait(make, opponent):
    c = make(level="medium")
    press(c, "c3", "d4")
    assert isinstance(c.phase, OpponentToMove)
    press(c, "b6")  # the computer's piece: nothing to say
    assert c.notice is None
    press(c, "e3")  # the player's own piece
    assert c.hand.selected is None and c.notice == "Wait: the computer is thinking"
    opponent.reply_first_legal()
    c.update()
    press(c, "e3")
    assert c.hand.selected == sq("e3") and c.notice is None


def test_undo_while_the_computer_thinks_cancels_the_search(make, opponent):
    c = make(level="hard")
    press(c, "c3", "d4")
    assert isinstance(c.phase, OpponentToMove)
    c.handle(Undo())
    assert opponent.cancels == 1 and not isinstance(c.phase, OpponentToMove)
    assert c.game.moves == [] and c.is_human_turn()
    opponent.reply(Game(AMERICAN).position.legal_moves()[0])  # a late answer to the cancelled search
    c.update()
    assert c.game.moves == []


def test_playing_second_the_computer_opens_and_undo_returns_to_your_turn(make, storage, opponent):
    c = Controller(opponent=opponent, storage=storage)
    c.handle(StartGame(Level.MEDIUM, play_second=True))
    assert c.mode.human is Color.WHITE and isinstance(c.phase, OpponentToMove) and c.hand.second_side_near(c.variant, c.mode)
    assert not c.offers.can_undo(c.in_game)
    opponent.reply_first_legal()
    c.update()
    assert c.is_human_turn() and not c.offers.can_undo(c.in_game), "only the computer's move: nothing of yours to take back"
    c.handle(PlayMoveFromList(c.legal_moves()[0]))
    opponent.reply_first_legal()
    c.update()
    c.handle(Undo())
    assert len(c.game.moves) == 1 and c.is_human_turn()


def test_hotseat_undo_takes_back_one_move(make):
    c = make()
    press(c, "c3", "d4", "f6", "e5")
    assert len(c.game.moves) == 2
    c.handle(Undo())
    assert played(c) == ["c3-d4"] and c.game.turn is Color.WHITE


def test_engine_getting_ready_is_shown(make, opponent):
    c = make(level="easy", human=Color.WHITE)
    opponent.status("(compiling)", False)
    c.update()
    assert "getting ready" in c.status()
    opponent.status("ready", True)
    c.update()
    assert "thinking" in c.status()


# --- draw offers ----------------------------------------------------------------------------------

def test_hotseat_offer_goes_with_the_next_move_and_can_be_accepted(make):
    c = make()
    c.handle(OfferDraw())
    assert c.offers.armed
    press(c, "c3", "d4")
    assert c.game.pending_offer is Color.BLACK and c.offers.pending_for_player(c.turn_phase)
    assert not c.offers.armed
    out = c.handle(AcceptDraw())
    assert c.game.outcome.reason is Reason.AGREEMENT and c.status().startswith("Draw")
    assert "end" in out.sounds


def test_offer_toggle_can_be_withdrawn(make):
    c = make()
    c.handle(OfferDraw())
    c.handle(OfferDraw())
    press(c, "c3", "d4")
    assert c.game.pending_offer is None


def test_a_declined_offer_cannot_be_repeated_until_a_man_moves_or_a_capture(make):
    kings = position("B", ["Kh8", "Kh6"], ["Ka1", "Kc1"])
    c = make(start=kings)
    c.handle(OfferDraw())
    press(c, "a1", "b2")  # offer rides on a king move
    press(c, "h8", "g7")  # White declines by moving
    out = c.handle(OfferDraw())
    assert not c.offers.armed and "declined" in c.notice and out.sounds == ("illegal",)


def test_undoing_the_move_cancels_its_offer(make):
    c = make()
    c.handle(OfferDraw())
    press(c, "c3", "d4")
    c.handle(Undo())
    assert c.game.pending_offer is None and not c.offers.pending_for_player(c.turn_phase)


def test_computer_accepts_or_declines_the_players_offer(make, opponent, storage):
    c = make(level="easy")
    c.handle(OfferDraw())
    press(c, "c3", "d4")
    assert isinstance(c.phase, AwaitingDrawAnswer) and len(opponent.draw_questions) == 1 and not opponent.requests
    opponent.answer_draw(False)
    c.update()
    assert "declined" in c.notice and isinstance(c.phase, OpponentToMove), "declined: the computer now moves"
    opponent.reply_first_legal()
    c.update()
    c.handle(Undo())
    c.handle(OfferDraw())
    press(c, "c3", "d4")
    opponent.answer_draw(True)
    c.update()
    assert c.game.outcome.reason is Reason.AGREEMENT
    assert storage.results()["american"]["easy"]["draw"] == 1


def test_the_computers_refusal_is_still_said_once_it_has_moved(make, opponent):
    c = make(level="easy")
    c.handle(OfferDraw())
    press(c, "c3", "d4")
    opponent.answer_draw(False)
    c.update()
    opponent.reply_first_legal()
    c.update()
    assert c.is_human_turn() and c.notice == "The computer declined your draw offer"
    press(c, "b2")
    assert c.notice is None, "gone with the player's next press"


def test_computer_offer_shows_accept_draw(make, opponent):
    c = make(level="medium")
    press(c, "c3", "d4")
    opponent.reply_first_legal(offer_draw=True)
    c.update()
    assert c.offers.pending_for_player(c.turn_phase) and "offers a draw" in c.notice
    c.handle(AcceptDraw())
    assert c.game.outcome.winner is None


def test_playing_a_move_declines_the_offer(make):
    c = make()
    c.handle(OfferDraw())
    press(c, "c3", "d4", "f6", "e5")
    assert c.game.pending_offer is None
    c.handle(AcceptDraw())
    assert c.game.outcome is None


# --- resign, play again, change mode --------------------------------------------------------------

def test_resign_asks_first_then_the_computer_wins_and_it_is_recorded(make, storage):
    c = make(level="hard")
    c.handle(Resign())
    assert c.confirming_resign and c.game.outcome is None
    c.handle(Cancel())
    assert not c.confirming_resign
    press(c, "a1")  # a notice ("no legal move") must not outlive the game
    c.handle(Resign())
    c.handle(ConfirmResign())
    assert c.game.outcome.reason is Reason.RESIGNATION and c.notice is None
    assert c.status() == "The computer wins: you resigned"
    assert storage.results()["american"]["hard"] == {"win": 0, "draw": 0, "loss": 1}
    assert not c.offers.can_undo(c.in_game)


def test_results_say_who_resigned_and_a_draw_by_agreement_once(make, opponent):
    c = make(level="easy", human=Color.WHITE)
    opponent.reply_first_legal()
    c.update()
    c.handle(Resign())
    c.handle(ConfirmResign())
    assert c.status() == "The computer wins: you resigned"
    c = make()
    c.handle(Resign())
    c.handle(ConfirmResign())
    assert c.status() == "White wins: Black resigned", "two players: the colours"
    c = make()
    c.handle(OfferDraw())
    press(c, "c3", "d4")
    c.handle(AcceptDraw())
    assert c.status() == "Draw: both players agreed"


# a 25-ply game from the start that Black wins (White gives everything away)
QUICK_WIN = ("10-14 21-17 14x21 22-17 11-15 23-18 15x22 25x18 7-10 30-25 21x30 29-25 30x30 31-26 30x23 27x18 "
             "10-14 32-27 14x32 24-20 3-7 20-16 12x19 28-24").split()


def test_a_win_is_recorded_and_undoing_it_takes_it_back(opponent, storage):
    game = Game(AMERICAN)
    for text in QUICK_WIN:
        game.play(text)
    c = Controller(opponent=opponent, storage=storage)
    c.open_game(game, Mode(Level.MEDIUM, Color.BLACK))
    c.handle(PlayMoveFromList(game.position.parse_move("19x28")))
    assert c.status() == "You win: White has no pieces left"  # the capture took the last one
    assert storage.results()["american"]["medium"]["win"] == 1
    c.handle(Undo())
    assert c.game.outcome is None and storage.results()["american"]["medium"]["win"] == 0


def test_a_game_from_a_set_up_position_is_not_counted(make, storage):
    c = make(level="medium", start=position("B", ["d4"], ["c3"]))
    press(c, "c3", "e5")
    assert c.status() == "You win: White has no pieces left"
    assert storage.results().get("american", {}).get("medium", {}).get("win", 0) == 0


def test_a_game_from_a_set_up_position_counts_neither_resigned_nor_abandoned(make, storage, opponent):
    set_up = position("B", ["b6", "d6", "f6"], ["a1", "c3", "e3", "g3"])

    def hard_losses() -> int:
        return storage.results().get("american", {}).get("hard", {}).get("loss", 0)

    def moved() -> Controller:
        c = make(level="hard", start=set_up)
        press(c, "c3", "d4")
        opponent.reply_first_legal()
        c.update()
        assert c.is_human_turn() and len(c.game.moves) == 2
        return c

    c = moved()
    c.handle(Resign())
    c.handle(ConfirmResign())
    assert c.status() == "The computer wins: you resigned" and hard_losses() == 0, "resigned: not counted"
    c = moved()
    c.handle(PlayAgain())
    assert not isinstance(c.phase, ConfirmingLeave), "nothing to count: nothing to ask"
    assert c.game.moves == [] and c.game.start == Position.initial(AMERICAN) and hard_losses() == 0, "abandoned"
    c = moved()
    c.handle(ChangeMode())
    c.handle(StartGame(Level.EASY))
    assert c.mode.level is Level.EASY and hard_losses() == 0, "abandoned from the mode screen"
    c = moved()
    c.handle(EditPosition())
    assert not c.leaving_counts()
    c.handle(PlayFromHere(None))
    assert hard_losses() == 0 and c.notice is None, "left for a position of the editor"
    for leave in (Resign(), PlayAgain()):  # from the start position, either way counts once
        c = make(level="hard")
        press(c, "c3", "d4")
        c.handle(leave)
        c.handle(ConfirmResign() if isinstance(leave, Resign) else ConfirmLeave())
    assert hard_losses() == 2


def test_play_again_and_change_mode(make, storage, opponent):
    c = make(level="medium")
    press(c, "c3", "d4")
    c.handle(PlayAgain())
    c.handle(ConfirmLeave())
    assert opponent.cancels == 1 and c.game.moves == [] and c.mode.level is Level.MEDIUM and c.screen is Screen.GAME
    press(c, "c3", "d4")
    c.handle(ChangeMode())
    assert c.screen is Screen.MODE and not isinstance(c.phase, OpponentToMove) and opponent.cancels == 2
    c.handle(ChooseRules("international"))
    c.handle(StartGame(None))
    c.handle(ConfirmLeave())
    assert c.game.variant is INTERNATIONAL and not c.mode.vs_computer
    assert c.is_human_turn() and c.game.turn is Color.WHITE


def test_play_again_in_a_computer_game_asks_first_and_counts_as_a_loss(make, storage, opponent):
    c = make(level="hard")
    press(c, "c3", "d4")
    game = c.game
    c.handle(PlayAgain())
    assert isinstance(c.phase, ConfirmingLeave) and c.game is game, "asked first; nothing thrown away yet"
    c.handle(Cancel())
    assert c.game is game and isinstance(c.phase, OpponentToMove), "kept"
    c.handle(PlayAgain())
    c.handle(ConfirmLeave())
    assert c.game is not game and c.game.moves == [] and c.mode.level is Level.HARD
    assert storage.results()["american"]["hard"] == {"win": 0, "draw": 0, "loss": 1}


def test_a_new_game_from_the_mode_screen_asks_before_abandoning_a_computer_game(make, storage, opponent):
    c = make(level="easy")
    press(c, "c3", "d4")
    opponent.reply_first_legal()
    c.update()
    c.handle(ChangeMode())
    game = c.game
    c.handle(StartGame(Level.MEDIUM))
    assert isinstance(c.phase, ConfirmingLeave) and c.asking.then == StartGame(Level.MEDIUM) and c.game is game
    c.handle(Cancel())
    assert isinstance(c.phase, ChoosingMode)
    c.handle(ContinueSaved())
    assert c.game is game and c.is_human_turn(), "the game goes on"
    c.handle(ChangeMode())
    c.handle(StartGame(Level.MEDIUM))
    c.handle(ConfirmLeave())
    assert c.game is not game and c.mode.level is Level.MEDIUM
    assert storage.results()["american"]["easy"]["loss"] == 1 and "medium" not in storage.results()["american"]


def test_no_question_where_nothing_is_abandoned(make, storage, opponent):
    c = make(level="easy")
    c.handle(PlayAgain())  # the player hasn't moved
    assert c.is_human_turn() and c.game.moves == []
    c = make(level="medium", human=Color.WHITE)  # the computer opened; the player hasn't moved
    opponent.reply_first_legal()
    c.update()
    c.handle(PlayAgain())
    assert not isinstance(c.phase, ConfirmingLeave)
    c = make()  # two players
    press(c, "c3", "d4")
    c.handle(PlayAgain())
    assert c.game.moves == []
    c = make(level="easy")
    press(c, "c3", "d4")
    c.handle(Resign())
    c.handle(ConfirmResign())
    c.handle(PlayAgain())  # the game is over
    assert c.game.moves == [] and storage.results()["american"]["easy"]["loss"] == 1, "only the resignation"


def test_view_setting(make):
    c = make()
    c.handle(SetView(View.TOP))
    assert c.view is View.TOP
    with pytest.raises(TypeError):
        c.handle(SetView("sideways"))
    assert c.view is View.TOP


# --- saving ---------------------------------------------------------------------------------------

def test_game_is_saved_after_every_move_and_restored(make, storage, opponent):
    c = make(level="easy")
    press(c, "c3", "d4")
    opponent.reply_first_legal()
    c.update()
    c.handle(ToggleSetting("sound"))
    again = Controller(opponent=opponent, storage=storage)
    assert again.restore()
    assert again.screen is Screen.GAME and again.game.moves == c.game.moves and again.mode == c.mode
    assert again.settings.sound is False


def test_restore_resumes_the_computers_turn(make, storage, opponent):
    c = make(level="easy")
    press(c, "c3", "d4")
    opponent.requests.clear()
    again = Controller(opponent=opponent, storage=storage)
    assert again.restore() and isinstance(again.phase, OpponentToMove) and len(opponent.requests) == 1


def test_a_finished_game_is_not_restored(make, storage, opponent):
    c = make(start=position("B", ["d4"], ["c3"]))
    press(c, "c3", "e5")
    assert not Controller(opponent=opponent, storage=storage).restore()


def test_a_corrupt_saved_game_is_set_aside_and_the_game_starts_fresh(make, storage, opponent):
    c = make()
    press(c, "c3", "d4")
    storage.flush()  # the save is written on a background thread
    path = storage.directory / storage.GAME
    path.write_text(path.read_text()[:40])
    again = Controller(opponent=opponent, storage=storage)
    assert not again.restore() and again.screen is Screen.MODE
    assert any("set aside" in n for n in again.notes)
    assert list(storage.directory.glob("saved_game.json.corrupt-*"))


def test_a_saved_game_with_an_illegal_move_is_set_aside(storage, opponent):
    storage.save_game({"mode": {"level": None, "human": None}, "flipped": False,
                       "game": {"variant": "american", "start": AMERICAN.start_fen, "moves": ["11-17"]}})
    c = Controller(opponent=opponent, storage=storage)
    assert not c.restore() and c.notes


# --- phases, intents, the opponent failing ----------------------------------------------------------

def test_phases_follow_the_game_and_always_hold_it(make, opponent):
    c = Controller(opponent=opponent)
    assert isinstance(c.phase, ChoosingMode) and c.phase.left is None and c.screen is Screen.MODE
    c.handle(StartGame(Level.EASY))
    assert isinstance(c.phase, HumanToMove) and c.phase.mode.level is Level.EASY
    c.handle(OfferDraw())
    c.handle(PlayMoveFromList(c.legal_moves()[0]))
    assert isinstance(c.phase, AwaitingDrawAnswer) and opponent.draw_questions == [c.phase.game]
    opponent.answer_draw(False)
    c.update()
    assert isinstance(c.phase, OpponentToMove) and len(opponent.requests) == 1
    c.handle(Resign())
    assert isinstance(c.phase, ConfirmingResign) and isinstance(c.phase.under, OpponentToMove)
    opponent.reply_first_legal()
    c.update()
    assert isinstance(c.phase, HumanToMove), "the computer's move closes the question"
    c.handle(ChangeMode())
    left = c.phase.left
    assert isinstance(c.phase, ChoosingMode) and isinstance(left, HumanToMove) and c.game is left.game
    c.handle(ContinueSaved())
    assert c.phase == left
    c.handle(Resign())
    c.handle(ConfirmResign())
    assert isinstance(c.phase, GameOver) and c.phase.game.outcome.reason is Reason.RESIGNATION
    for phase in (left, c.phase):
        assert isinstance(phase, InGame) and phase.game is not None and phase.mode is not None


def test_back_to_the_game_asks_the_computer_again(make, opponent):
    c = make(level="hard")
    press(c, "c3", "d4")
    c.handle(ChangeMode())
    assert opponent.cancels == 1 and not opponent.requests
    c.handle(ContinueSaved())
    assert isinstance(c.phase, OpponentToMove) and len(opponent.requests) == 1


def test_an_unknown_intent_fails_loudly(make):
    c = make()
    with pytest.raises(TypeError):
        c.handle("undo")
    with pytest.raises(ValueError):
        c.handle(ToggleSetting("colour"))


def test_a_failing_computer_is_reported_and_never_moves_for_itself(make, opponent):
    c = make(level="medium")
    press(c, "c3", "d4")
    opponent.fail("the engine failed: the engine process died 4 times in a row")
    c.update()
    assert isinstance(c.phase, OpponentFailed) and len(c.game.moves) == 1
    assert "can't play" in c.status() and "died 4 times" in c.notice and "Take back your move" in c.notice
    assert not c.is_human_turn() and not c.legal_moves()
    c.handle(Undo())
    assert isinstance(c.phase, HumanToMove) and c.game.moves == []


def test_a_failing_computer_during_a_draw_question_is_reported(make, opponent):
    c = make(level="easy")
    c.handle(OfferDraw())
    press(c, "c3", "d4")
    opponent.fail("the engine failed: gone")
    c.update()
    assert isinstance(c.phase, OpponentFailed) and c.game.outcome is None and "declined" not in (c.notice or "")


def test_the_version_changes_with_every_intent_and_reply_only(make, opponent):
    c = make(level="easy")
    v = c.version
    c.update()
    assert c.version == v, "nothing happened"
    press(c, "c3")
    assert c.version == v + 1
    press(c, "d4")
    assert c.version == v + 2
    opponent.reply_first_legal()
    c.update()
    assert c.version == v + 3
    c.notes.append("a note")
    c.handle(DismissNotes())
    assert c.notes == [] and c.version == v + 4


# --- resuming at launch ---------------------------------------------------------------------------

def test_a_saved_game_in_progress_opens_on_the_game_screen_before_the_engine_replays_it(make, storage, opponent):
    c = make(level="easy")
    press(c, "c3", "d4")
    opponent.reply_first_legal()
    c.update()
    launch = Controller(storage=storage)
    assert launch.expect_saved_game()
    assert launch.screen is Screen.GAME and isinstance(launch.phase, Resuming) and launch.game is None
    assert launch.status() == "Resuming your game…" and launch.variant is AMERICAN
    assert launch.mode == c.mode
    assert launch.restore() and isinstance(launch.phase, HumanToMove) and launch.game.moves == c.game.moves


def test_a_finished_or_unreadable_saved_game_opens_the_mode_screen(make, storage, opponent):
    c = make(start=position("B", ["d4"], ["c3"]))
    press(c, "c3", "e5")
    assert not Controller(storage=storage).expect_saved_game(), "finished"
    storage.flush()
    path = storage.directory / storage.GAME
    data = json.loads(path.read_text())
    data["game"]["moves"] = ["11-17"]
    data["over"] = False
    path.write_text(json.dumps(data))
    launch = Controller(storage=storage)
    assert launch.expect_saved_game(), "the moves can't be checked before the engine loads"
    assert not launch.restore() and launch.screen is Screen.MODE and launch.notes, "then: the mode screen, told why"
    path.write_text("{not json")
    assert not Controller(storage=storage).expect_saved_game()


def test_a_game_restored_before_the_computer_is_ready_asks_it_once_it_is(make, storage, opponent):
    c = make(level="easy")
    press(c, "c3", "d4")  # the computer's turn when the game is saved
    opponent.requests.clear()
    launch = Controller(storage=storage)
    assert launch.expect_saved_game() and launch.restore()
    assert isinstance(launch.phase, OpponentToMove) and launch.status().startswith("Computer (White) is getting ready")
    launch.handle(Resign())  # a question meanwhile stays
    launch.attach_opponent(opponent)
    assert len(opponent.requests) == 1 and isinstance(launch.phase, ConfirmingResign)


def test_the_result_says_no_pieces_left_or_no_move_left_as_it_happened(make):
    c = make(start=position("B", ["d4"], ["c3"]))
    press(c, "c3", "e5")  # the last white piece captured
    assert c.status() == "Black wins: White has no pieces left"
    c = make(start=position("B", ["h2"], ["g1", "e1"]))
    press(c, "e1", "d2")  # White's man on h2 can't move: g1 is taken, and there is no square behind it
    assert sum(c.game.position.count(Color.WHITE)) == 1
    assert c.status() == "Black wins: White has no move left"

"""Review: stepping through a game in progress, a finished one and one opened from PDN, with the move's
route shown; "Play from here" against the computer or two players; the draw counters going on from the
position as the rules say."""

from __future__ import annotations

from support import position

from engine import AMERICAN, INTERNATIONAL, Color
from engine.game import Game, Reason
from engine.pdn import read_text
from game.modes import Level, Mode
from game.play import intents as it
from game.play.machine import Controller
from game.play.phases import GameOver, HumanToMove, OpponentToMove, Reviewing
from game.play.review import game_at

OPENING = "11-15 23-19 8-11 22-17 4-8 17-13 15-18".split()  # Black, White, ... (American)


def played(c: Controller, texts) -> None:
    for text in texts:
        c.handle(it.PlayMoveFromList(c.game.position.parse_move(text)))


def test_stepping_through_a_game_in_progress_and_back(make):
    c = make()
    played(c, OPENING)
    game = c.game
    c.handle(it.ReviewStep(-1))
    assert isinstance(c.phase, Reviewing) and c.shown_ply() == 6
    assert c.shown_position() == game.positions[6] and c.legal_moves() == ()
    move, before = c.last_move()  # the orange route: the move that led to the position shown
    assert move == game.moves[5] and before == game.positions[5]
    c.handle(it.ReviewTo(0))  # Home
    assert c.shown_ply() == 0 and c.last_move() is None and c.status() == "Review · the start · Black to move"
    c.handle(it.CursorMove(1, 0))  # Right
    assert c.shown_ply() == 1 and c.played is not None and c.played.move == game.moves[0]  # animated forward
    c.handle(it.CursorMove(-1, 0))  # Left
    assert c.shown_ply() == 0 and c.played is None
    c.handle(it.ReviewTo(3))  # a press on the move list
    assert c.status() == "Review · move 3 of 7 · White to move"
    c.handle(it.ReviewTo(None))  # End: back to the game going on
    assert isinstance(c.phase, HumanToMove) and c.game is game and len(game.moves) == 7
    c.handle(it.ReviewStep(-2))
    c.handle(it.Cancel())  # Esc
    assert isinstance(c.phase, HumanToMove)
    assert c.shown_ply() == 7


def test_a_review_never_moves_a_piece(make):
    c = make()
    played(c, OPENING[:2])
    c.handle(it.ReviewStep(-1))
    c.handle(it.SquarePressed(next(iter(c.shown_position().pieces()))))
    assert c.hand.selected is None and len(c.game.moves) == 2 and "Play from here" in c.notice


def test_the_computer_waits_during_a_review_and_is_asked_again_after(make, opponent):
    c = make(level="medium")
    played(c, OPENING[:1])
    assert isinstance(c.phase, OpponentToMove) and len(opponent.requests) == 1
    c.handle(it.ReviewTo(0))
    assert isinstance(c.phase, Reviewing) and opponent.cancels == 1 and not c.waiting_for_opponent
    c.handle(it.ReviewTo(None))
    assert isinstance(c.phase, OpponentToMove) and len(opponent.requests) == 1  # asked again
    opponent.reply_first_legal()
    c.update()
    assert isinstance(c.phase, HumanToMove) and len(c.game.moves) == 2


def test_a_finished_game_is_reviewed_to_its_last_move_and_back_to_the_result(make):
    c = make(start=position("B", ["d4"], ["c3"]))
    c.handle(it.PlayMoveFromList(c.game.position.legal_moves()[0]))
    assert isinstance(c.phase, GameOver)
    c.handle(it.ReviewStep(-1))
    c.handle(it.ReviewStep(1))
    assert isinstance(c.phase, Reviewing) and c.shown_ply() == 1  # the result card stays away
    assert c.status() == "Review · Black wins: White has no pieces left"
    c.handle(it.BackToGame())
    assert isinstance(c.phase, GameOver)


def test_play_from_here_against_the_computer_and_two_players(make, opponent):
    c = make()
    played(c, OPENING)
    original = c.game
    c.handle(it.ReviewTo(4))
    c.handle(it.PlayFromHere(Level.HARD))
    game = c.game
    assert game is not original and len(original.moves) == 7  # the game reviewed is left as it was
    assert game.moves == original.moves[:4] and c.mode == Mode(Level.HARD, Color.BLACK)  # Black is to move
    assert isinstance(c.phase, HumanToMove)
    c.handle(it.ReviewTo(1))
    c.handle(it.PlayFromHere(Level.EASY))
    assert c.mode == Mode(Level.EASY, Color.WHITE) and isinstance(c.phase, OpponentToMove) is False
    assert isinstance(c.phase, HumanToMove) and c.game.turn is Color.WHITE
    c.handle(it.ReviewTo(0))
    c.handle(it.PlayFromHere(None))
    assert c.mode == Mode() and c.game.moves == [] and isinstance(c.phase, HumanToMove)


def test_play_from_here_is_refused_where_the_game_is_over(make):
    c = make(start=position("B", ["d4"], ["c3"]))
    c.handle(it.PlayMoveFromList(c.game.position.legal_moves()[0]))
    c.handle(it.ReviewStep(-1))
    c.handle(it.ReviewStep(1))
    c.handle(it.PlayFromHere(None))
    assert isinstance(c.phase, Reviewing) and c.notice == "The game is over in this position"


def test_a_loaded_game_keeps_its_history_for_repetition():
    # kings shuffle: the position after 4 moves is the start again, after 8 a third time
    kings = "B:WK29,K20:BK1,K12"
    pdn = read_text(f'[GameType "21"]\n[FEN "{kings}"]\n1. 1-6 29-25 2. 6-1 25-29 3. 1-6 29-25 4. 6-1 *')
    c = Controller()
    c.handle(it.Pasted(pdn[0].pdn()))
    assert isinstance(c.phase, Reviewing) and c.phase.under is None and c.shown_ply() == 0
    c.handle(it.ReviewTo(7))
    c.handle(it.PlayFromHere(None))
    assert c.game.repetitions() == 2  # the history came along: one more repetition draws
    c.handle(it.PlayMoveFromList(c.game.position.parse_move("25-29")))
    assert c.game.outcome is not None and c.game.outcome.reason is Reason.REPETITION


def test_a_set_up_position_starts_its_counters_fresh():
    c = Controller()
    c.handle(it.Pasted("W:WK46:BK5"))  # a FEN: one king each, International
    c.handle(it.PlayFromHere(None))
    game = c.game
    assert game.variant is INTERNATIONAL and game.moves == [] and game.repetitions() == 1
    assert game.moves_until_draw == 5  # the endgame rule's count starts here (FMJD 6.4: 5 moves each)


def test_game_at_keeps_the_moves_and_offers_and_leaves_the_game():
    game = Game(AMERICAN)
    for text in OPENING[:3]:
        game.play(text)
    game.play("22-17", offer_draw=True)
    copy = game_at(game, 4)
    assert copy is not game and copy.moves == game.moves and copy.pending_offer is Color.WHITE
    assert game_at(game, 0).moves == [] and len(game.moves) == 4


def test_leaving_a_game_against_the_computer_for_another_counts_as_a_loss(make, opponent, storage):
    c = make(level="hard")
    played(c, OPENING[:1])
    opponent.reply_first_legal()
    c.update()
    c.handle(it.ReviewTo(0))
    assert not c.leaving_counts()  # playing on from its own moves is like taking them back
    c.handle(it.PlayFromHere(Level.HARD))
    assert storage.results().get("american", {}).get("hard", {}).get("loss", 0) == 0
    played(c, OPENING[:1])
    opponent.reply_first_legal()
    c.update()
    c.handle(it.EditPosition())
    assert c.leaving_counts()
    c.handle(it.PlayFromHere(None))
    assert c.asking is not None and c.asking.then == it.PlayFromHere(None), "asked first"
    assert storage.results().get("american", {}).get("hard", {}).get("loss", 0) == 0
    c.handle(it.ConfirmLeave())
    assert storage.results()["american"]["hard"]["loss"] == 1 and c.mode == Mode() and not c.game.moves
    c.handle(it.Pasted("B:W18:B14"))  # two players: nothing to count
    assert storage.results()["american"]["hard"]["loss"] == 1

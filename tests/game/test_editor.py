"""The position editor: pieces placed and removed with the mouse and the keys, the side to move, clear
and the start position, FEN out and in, the check that refuses impossible positions with the reason,
and "Play from here" against the computer or two players."""

from __future__ import annotations

from support import sq

from engine import AMERICAN, INTERNATIONAL, Color, Piece, Position
from game.files.settings import Notation
from game.modes import Level, Mode
from game.play import intents as it
from game.play.editor import Setup, Tool
from game.play.machine import Controller
from game.play.phases import ChoosingMode, Editing, GameOver, HumanToMove, OpponentToMove, Screen

W, B = Color.WHITE, Color.BLACK


def editor(variant=AMERICAN) -> Controller:
    c = Controller()
    c.settings.variant = variant.name
    c.handle(it.EditPosition())  # from the mode screen: the rules' start position
    assert isinstance(c.phase, Editing) and c.screen is Screen.EDITOR
    return c


def test_pieces_go_on_and_off_with_the_mouse():
    c = editor()
    assert c.shown_position() == Position.initial(AMERICAN)
    c.handle(it.ClearBoard())
    assert c.shown_position().pieces() == {}
    c.handle(it.ChooseTool(Tool.WHITE_KING))
    c.handle(it.SquarePressed(sq("d4")))
    assert c.shown_position().piece_at(sq("d4")) == Piece(W, True)
    c.handle(it.ChooseTool(Tool.BLACK_MAN))
    c.handle(it.SquarePressed(sq("d4")))  # another piece replaces it
    assert c.shown_position().piece_at(sq("d4")) == Piece(B, False)
    c.handle(it.SquarePressed(sq("d4")))  # the same piece again takes it away
    assert c.shown_position().piece_at(sq("d4")) is None
    c.handle(it.SquarePressed(sq("f6")))
    c.handle(it.ChooseTool(Tool.ERASE))
    c.handle(it.SquarePressed(sq("f6")))
    assert c.shown_position().pieces() == {}
    c.handle(it.StartPosition())
    assert c.shown_position() == Position.initial(AMERICAN)


def test_pieces_go_on_with_the_keys():
    c = editor()
    c.handle(it.ClearBoard())
    c.handle(it.ChooseTool(Tool.WHITE_MAN))
    c.handle(it.CursorMove(0, 1))  # the first arrow shows the cursor
    c.handle(it.CursorMove(0, 1))
    square = c.hand.cursor_square(c.variant)
    c.handle(it.CursorPress())
    assert c.shown_position().pieces() == {square: Piece(W, False)}


def test_side_to_move_and_fen_out_and_in():
    c = editor()
    c.handle(it.SetTurn(W))
    assert c.shown_position().turn is W and c.status() == "Set up a position · White to move"
    out = c.handle(it.CopyFen())
    assert out.clipboard == Position.initial(AMERICAN).fen().replace("B:", "W:", 1)
    c.handle(it.Pasted("B:W18,K3:B14"))
    assert c.shown_position() == Position.from_fen(AMERICAN, "B:W18,K3:B14")
    c.handle(it.Pasted("W:W33:B1"))  # not a square of this board: said, nothing changed
    assert "33" in c.notice and c.shown_position() == Position.from_fen(AMERICAN, "B:W18,K3:B14")


def test_a_man_on_its_crowning_row_is_refused_with_the_reason():
    setup = Setup.empty(AMERICAN, B).put(sq("d8"), Piece(B, True)).put(sq("c1"), Piece(W, False))
    setup = setup.put(sq("e1"), Piece(W, False)).put(sq("b8"), Piece(B, False))
    assert setup.check().problems == (  # the king on d8 is fine
        "A black man on b8, Black's crowning row: it would be a king",
        "A white man on c1 and e1, White's crowning row: it would be a king")
    assert setup.check(numeric=True).problems == (  # b8 is square 32, c1 and e1 are 3 and 2
        "A black man on square 32, Black's crowning row: it would be a king",
        "A white man on squares 2 and 3, White's crowning row: it would be a king")


def test_the_editors_messages_name_squares_in_the_players_notation():
    c = editor()
    assert c.settings.notation is Notation.ALGEBRAIC  # (the default: the specification names squares a1..h8)
    c.handle(it.ClearBoard())
    c.handle(it.ChooseTool(Tool.WHITE_MAN))
    c.handle(it.SquarePressed(sq("g1")))  # square 1, on White's crowning row
    c.handle(it.PlayFromHere(None))
    assert isinstance(c.phase, Editing) and "white man on g1, White's crowning row" in c.notice
    assert "square" not in c.notice
    c.settings.notation = Notation.NUMERIC
    c.handle(it.PlayFromHere(None))
    assert "white man on square 1, White's crowning row" in c.notice


def test_too_many_pieces_are_refused():
    setup = Setup.start(AMERICAN).put(sq("d4"), Piece(B, False))
    assert setup.check().problems == ("Black has 13 pieces: at most 12, the pieces a side starts with",)
    assert Setup.start(INTERNATIONAL).check().is_playable


def test_a_side_to_move_without_a_move_is_allowed_but_said():
    setup = Setup.empty(AMERICAN, W).put(sq("d4"), Piece(B, True))
    check = setup.check()
    assert check.is_playable and check.notes == ("White, to move, has no move: the game is over at once (Black wins)",)
    c = editor()
    c.handle(it.Pasted("W:W:BK14"))
    c.handle(it.PlayFromHere(None))
    assert isinstance(c.phase, GameOver) and c.notice == check.notes[0]


def test_play_from_here_against_the_computer_or_two_players():
    c = editor(INTERNATIONAL)
    c.handle(it.Pasted("B:W33,34:B18,19"))
    c.handle(it.PlayFromHere(Level.MEDIUM))
    assert isinstance(c.phase, HumanToMove) and c.mode == Mode(Level.MEDIUM, B)  # the person takes the side to move
    assert c.game.start == Position.from_fen(INTERNATIONAL, "B:W33,34:B18,19") and c.game.moves == []
    c.handle(it.EditPosition())  # from a game: the position shown
    assert c.shown_position() == c.phase.setup.position()
    c.handle(it.SetTurn(W))
    c.handle(it.PlayFromHere(Level.EASY))
    assert c.mode == Mode(Level.EASY, W) and not isinstance(c.phase, OpponentToMove)
    c.handle(it.EditPosition())
    c.handle(it.PlayFromHere(None))
    assert c.mode == Mode() and isinstance(c.phase, HumanToMove)


def test_cancel_returns_to_where_the_editor_was_opened():
    c = editor()
    c.handle(it.Cancel())
    assert isinstance(c.phase, ChoosingMode)
    c.handle(it.StartGame(None))
    game = c.game
    c.handle(it.EditPosition())
    c.handle(it.ClearBoard())
    c.handle(it.Cancel())
    assert isinstance(c.phase, HumanToMove) and c.game is game and game.position == Position.initial(AMERICAN)

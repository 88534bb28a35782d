"""Stepping through a game, playing on from the position shown, and the position editor's board.

The review itself is a phase (``game.phases.Reviewing``: the game and the ply shown), and so is the
editor (``game.phases.Editing``); :class:`Review` moves them for the controller. :func:`game_at` is
the record of a game as it stood after some of its moves.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from engine import Color
from game.intents import ChooseTool, ClearBoard, SetTurn, StartPosition
from game.phases import (
    Browsing,
    Editing,
    GameOver,
    InGame,
    Level,
    Mode,
    Played,
    Question,
    ReadingHelp,
    Resuming,
    Reviewing,
    RoomPhase,
)

if TYPE_CHECKING:
    from engine.game import Game
    from game.controller import Controller


def game_at(game: Game, ply: int) -> Game:
    """A new record of ``game``'s first ``ply`` moves (with their draw offers) from its start; ``game``
    is left as it is. The history before the position stays, so repetitions and the draw counters go
    on from there as the rules say (a game opened from a file keeps the history it was read with; a
    position set up by hand has none). A resignation or an agreed draw after the last move is left
    out: from there the game can go on."""
    from engine.game import Game

    if not 0 <= ply <= len(game.moves):
        raise ValueError(f"no position after {ply} moves: the game has {len(game.moves)}")
    data = game.to_dict()
    data.update(moves=data["moves"][:ply], draw_offers=data["draw_offers"][:ply], resigned=None, draw_agreed=False)
    return Game.from_dict(data)


class Review:
    """The controller's review, playing on from a position, and the position editor."""

    def __init__(self, c: Controller) -> None:
        self.c = c

    def review_to(self, ply: int | None) -> None:
        """Show the position after ``ply`` moves (None: the last). From a game going on this starts a
        review (the opponent waits); reaching the last move of a game going on ends it."""
        p = self.c.phase.under if isinstance(self.c.phase, Question) else self.c.phase
        if not isinstance(p, InGame) or (not isinstance(p, Reviewing) and self.c.friend_play.refused_in_friend_game()):
            return
        game, last = p.game, len(p.game.moves)
        target = last if ply is None else max(0, min(ply, last))
        current = self.c.shown_ply()
        if isinstance(p, Reviewing):
            under = p.under
        else:
            if target == last:
                return
            self.c.stop_opponent()
            under = p
        self.c.notice = None
        self.c.hand.deselect()
        self.c.played = Played(game.moves[current], game.positions[current]) if target == current + 1 else None
        if target == last and under is not None and not isinstance(under, GameOver):
            played = self.c.played
            self.c.go_back(under)
            self.c.played = played
            return
        self.c.phase = Reviewing(game, p.mode, target, under)

    def back_to_game(self) -> None:
        p = self.c.reviewing
        if p is None or p.under is None:
            return
        self.c.played = None
        self.c.go_back(p.under)

    def play_from_here(self, level: Level | None) -> None:
        """A new game from the position shown (the review's, the editor's or the game's as it stands):
        a record of the moves up to there (a set-up position has none), so the draw rules count on as
        they should; against the computer the person plays the side to move."""
        from engine.game import Game
        from game.review import game_at

        p = self.c.base_phase
        notice = None
        if isinstance(p, Editing):
            from game.settings import Notation

            check = p.setup.check(numeric=self.c.settings.notation is Notation.NUMERIC)
            if not check.is_playable:
                self.c.illegal("Can't play from here: " + "; ".join(check.problems))
                return
            from engine import Position

            game = Game(p.setup.variant, Position.from_fen(p.setup.variant, p.setup.fen()))
            notice = "; ".join(check.notes) or None  # allowed, and said again
        elif isinstance(p, InGame):
            game = game_at(p.game, self.c.shown_ply())
            if game.is_over:
                self.c.illegal("The game is over in this position")
                return
        else:
            return
        left = self.c.results.leave_game(keep=p.game if isinstance(p, Reviewing) else None)
        self.c.stop_opponent()
        self.c.files.close_listing()
        self.c.friend_play.leave_rooms()
        mode = Mode(Level(level), game.turn) if level is not None else Mode()
        self.c.flipped = False
        self.c.played = None
        self.c.source = None
        self.c.results.recorded = False
        self.c.after_change()
        self.c.cursor = self.c.hand.home_cursor(game.variant, mode.human if mode.human is not None else game.turn)
        self.c.enter_turn(game, mode)
        self.c.notice = "; ".join(n for n in (notice, left) if n) or None
        self.c.saved.save()

    def edit(self) -> None:
        """The editor, on the position shown (the rules' start position from the mode screen)."""
        from game.editor import Setup, Tool

        p = self.c.base_phase
        if isinstance(p, (Editing, ReadingHelp, Resuming, RoomPhase)) or self.c.friend_play.refused_in_friend_game():
            return
        self.c.stop_opponent()
        self.c.files.close_listing()
        position = self.c.shown_position()
        setup = Setup.of(position) if position is not None else Setup.start(self.c.variant)
        left = p.under if isinstance(p, Question) else p
        assert not isinstance(left, Browsing)
        self.c.hand.deselect()
        self.c.notice = None
        self.c.played = None
        self.c.cursor = self.c.hand.home_cursor(setup.variant, setup.variant.first_player)
        first = setup.variant.first_player
        self.c.phase = Editing(setup, Tool.BLACK_MAN if first is Color.BLACK else Tool.WHITE_MAN, left)

    def edit_board(self, intent: ChooseTool | SetTurn | ClearBoard | StartPosition) -> None:
        """The editor's tools: the piece a press puts, the side to move, an empty board, the start."""
        from game.editor import Setup

        p = self.c.phase
        if not isinstance(p, Editing):
            return
        match intent:
            case ChooseTool(tool=tool):
                self.c.phase = dataclasses.replace(p, tool=tool)
            case SetTurn(color=color):
                self.c.phase = dataclasses.replace(p, setup=p.setup.with_turn(color))
            case ClearBoard():
                self.c.phase = dataclasses.replace(p, setup=Setup.empty(self.c.variant, p.setup.turn))
            case StartPosition():
                self.c.phase = dataclasses.replace(p, setup=Setup.start(self.c.variant))

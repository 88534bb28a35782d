"""Games begin and are left: the mode screen's choices, a new game, "Play again" (asking first when it
abandons a game against the computer), the mode screen with the game left there, and going back to it.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from engine import variant_named
from game.modes import Level, Mode
from game.play.intents import JoinRoom, OpenJoin, PlayFriend, StartGame
from game.play.phases import ChoosingMode, ConfirmingNewGame, GameOver, InGame, OpponentFailed, Reviewing, RoomPhase, TurnPhase

if TYPE_CHECKING:
    from engine import Variant
    from engine.game import Game
    from game.play.machine import Controller


class Games:
    """The controller's games starting, being left and taken up again."""

    def __init__(self, c: Controller) -> None:
        self.c = c

    def change_mode(self) -> None:
        """To the mode screen, with the rules of the game left there chosen (from the room screen:
        as Cancel)."""
        if isinstance(self.c.phase, RoomPhase):
            self.c.friend_play.leave_room_screen(self.c.phase)
            return
        self.c.stop_opponent()
        self.c.files.close_listing()
        left = self.c.game_phase_of(self.c.phase)
        if left is not None and left.mode.vs_friend:
            self.c.friend_play.close_friend()  # the seat stays the player's: "Return to the game with your friend"
        self.c.phase = ChoosingMode(left=left)
        if left is not None and self.c.settings.variant != left.game.variant.name:
            self.c.settings.variant = left.game.variant.name
            self.c.save_settings()
        self.c.hand.deselect()

    def continue_left(self) -> None:
        """Back to the game left for the mode screen, in its phase; a failed opponent is asked again,
        a friend's room is returned to."""
        if not isinstance(self.c.phase, ChoosingMode) or self.c.phase.left is None:
            return
        left = self.c.phase.left
        if left.mode.vs_friend:
            if self.c.friend_play.can_return_to_room():
                self.c.friend_play.return_to_room(left)
        elif isinstance(left, OpponentFailed):
            self.c.enter_turn(left.game, left.mode)
        else:
            self.c.resume(left)

    def play_again(self) -> None:
        """A new game with the same rules and the same way of playing; abandoning a game against the
        computer asks first (from a review of it too)."""
        if isinstance(self.c.phase, Reviewing) and self.c.phase.under is not None:
            self.c.review.back_to_game()
        p = self.c.turn_phase
        if isinstance(p, InGame) and not isinstance(p, Reviewing) and p.mode.vs_friend:
            self.c.friend_play.rematch()  # after a friend's game, "Play again" is the rematch
        elif isinstance(p, InGame) and not isinstance(p, Reviewing) and self.c.results.abandons(p):
            self.c.phase = ConfirmingNewGame(p.game, p.mode, under=p)
        elif isinstance(p, InGame):
            self.new_game(p.game.variant, p.mode)

    def asks_first(self, intent: StartGame | PlayFriend | OpenJoin | JoinRoom) -> bool:
        """On the mode screen over a game against the computer going on, which ``intent`` would
        abandon: ask first (True: asked; the player confirms or cancels)."""
        p = self.c.phase
        if isinstance(p, ChoosingMode) and p.left is not None and self.c.results.abandons(p.left):
            self.c.phase = dataclasses.replace(p, asking=intent)
            return True
        return False

    def confirm_new_game(self) -> None:
        """The player confirmed abandoning the game going on: a loss at its level, then the new game
        (for a friend's game, the game left is resigned, a loss as resigning counts it)."""
        p = self.c.phase
        if isinstance(p, ConfirmingNewGame):
            self.c.results.abandon(p)
            self.new_game(p.game.variant, p.mode)
        elif isinstance(p, ChoosingMode) and p.left is not None:
            match p.asking:
                case StartGame(level=level, play_second=second):
                    self.c.results.abandon(p.left)
                    self.start(level, second)
                case PlayFriend():
                    self._resign_left(p.left)
                    self.c.friend_play.play_friend()
                case OpenJoin():
                    self._resign_left(p.left)
                    self.c.friend_play.open_join()
                case JoinRoom(link=link):
                    self._resign_left(p.left)
                    self.c.friend_play.join(link)

    def _resign_left(self, left: TurnPhase) -> None:
        """Resign the game left on the mode screen (its result recorded and saved, as resigning does)."""
        game, mode = left.game, left.mode
        game.resign(mode.human if mode.human is not None else game.turn)
        self.c.phase = ChoosingMode(left=GameOver(game, mode))
        self.c.results.record(+1)
        self.c.saved.save()

    def start(self, level: Level | None, play_second: bool) -> None:
        variant = variant_named(self.c.settings.variant)
        if level is None:
            mode = Mode()
        else:
            first = variant.first_player
            mode = Mode(Level(level), first.opponent if play_second else first)
        self.new_game(variant, mode)

    def new_game(self, variant: Variant, mode: Mode) -> None:
        from engine.game import Game

        self.c.stop_opponent()
        self.c.friend_play.leave_rooms()
        self.c.files.close_listing()
        self.c.flipped = False
        self.c.played = None
        self.c.notice = None
        self.c.source = None
        self.c.results.recorded = False
        self.c.after_change()
        game = Game(variant)
        self.c.hand.home(game, mode)
        self.c.enter_turn(game, mode)
        self.c.saved.save()

    def open_game(self, game: Game, mode: Mode, flipped: bool = False) -> None:
        """Show ``game`` (played as ``mode``) on the game screen, in the phase it is in."""
        self.c.flipped = flipped
        self.c.results.recorded = game.is_over
        self.c.after_change()
        self.c.hand.home(game, mode)
        self.c.enter_turn(game, mode)
        self.c.version += 1

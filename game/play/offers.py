"""Draw offers, resignation and taking moves back: what the player asks of the game going on.

A draw offer goes with the player's next move (the rules' way); an offer to the player shows "Accept
draw". Resigning asks first (``ConfirmingResign``). Against a friend, acceptances and resignations
are told to the friend's room, and there is no undo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.play.phases import ConfirmingResign, HumanToMove, InGame, Reviewing

if TYPE_CHECKING:
    from game.play.machine import Controller


class Offers:
    """Draw offers, resignation and undo in the controller's game."""

    def __init__(self, c: Controller) -> None:
        self.c = c

    def offer_pending_for_player(self) -> bool:
        """Whether "Accept draw" should show: a draw is offered to the side a person plays now."""
        p = self.c.turn_phase
        return (isinstance(p, HumanToMove) and p.game.pending_offer is not None
                and p.game.pending_offer is not p.game.turn)

    def can_undo(self) -> bool:
        p = self.c.in_game
        if p is None or isinstance(p, Reviewing) or not p.game.moves or p.mode.vs_friend:
            return False
        outcome = p.game.outcome
        if outcome is not None:
            from engine.game import Reason

            if outcome.reason in (Reason.RESIGNATION, Reason.AGREEMENT):
                return False
        if p.mode.vs_computer:
            return any(pos.turn is p.mode.human for pos in p.game.positions[:-1])
        return True

    def undo(self) -> None:
        p = self.c.in_game
        if p is None or not self.can_undo():
            return
        game, mode = p.game, p.mode
        self.c.notice = None
        if game.outcome is not None:
            self.c.results.record(-1)
        self.c.stop_opponent()
        game.undo()
        if mode.vs_computer:
            while game.moves and game.turn is not mode.human:
                game.undo()
        self.c.after_change()
        self.c.played = None
        self.c.saved.save()
        self.c.enter_turn(game, mode)

    def toggle_offer(self) -> None:
        p = self.c.turn_phase
        if not isinstance(p, HumanToMove):
            return
        if self.c.offer_armed:
            self.c.offer_armed = False
            return
        ok, reason = p.game.can_offer_draw()
        if ok:
            self.c.offer_armed = True
            self.c.notice = "Your draw offer goes with your next move"
        else:
            self.c.illegal(reason)

    def accept_draw(self) -> None:
        p = self.c.turn_phase
        if isinstance(p, HumanToMove) and self.offer_pending_for_player() and self.c.is_human_turn():
            self.c.notice = None
            p.game.accept_draw()
            if p.mode.vs_friend and self.c.friend is not None:
                self.c.friend.accepted_draw()
            self.c.after_change()
            self.c.game_over(p.game, p.mode)

    def ask_resign(self) -> None:
        """"Resign" asks first, in a game going on."""
        p = self.c.turn_phase
        if isinstance(p, InGame) and not isinstance(p, Reviewing) and not p.game.is_over:
            self.c.phase = ConfirmingResign(p.game, p.mode, under=p)

    def resign(self) -> None:
        p = self.c.phase
        if not isinstance(p, ConfirmingResign) or p.game.is_over:
            return
        if p.mode.vs_friend and self.c.friend_play.friend_connection != "connected":
            self.c.phase = p.under
            self.c.illegal("Not connected to the room: resign once the connection is back")
            return
        self.c.notice = None
        self.c.stop_opponent()
        p.game.resign(p.mode.human if p.mode.human is not None else p.game.turn)
        if p.mode.vs_friend and self.c.friend is not None:
            self.c.friend.resigned()
        self.c.after_change()
        self.c.game_over(p.game, p.mode)

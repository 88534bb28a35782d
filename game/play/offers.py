"""Draw offers and taking moves back: what the player may ask of the game going on.

A draw offer goes with the player's next move (the rules' way): :class:`Offers` keeps whether one is
armed; an offer to the player shows "Accept draw". Resigning asks first (``ConfirmingResign``).
Against a friend there is no undo. The machine (``game.play.machine``) plays, undoes and ends games;
this module says what the rules and the mode allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.play.effects import Refused, Say, Step
from game.play.phases import GameOver, HumanToMove, Reviewing

if TYPE_CHECKING:
    from game.play.phases import InGame, Phase


OWN_TURN = "A draw is offered with your own move, on your turn"
NO_UNDO_YET = "No move to take back yet"
RE_OFFER = "Your draw offer was declined: you can offer again once a man moves or a piece is captured"


class Offers:
    """The player's draw offer armed for the next move (``armed``)."""

    def __init__(self) -> None:
        self.armed = False

    def toggle(self, turn: Phase) -> Step | Refused:
        """"Offer a draw with your next move", on or off (``turn``: the phase of the game, who acts)."""
        if not isinstance(turn, HumanToMove):
            return Refused(OWN_TURN)
        if self.armed:
            self.armed = False
            return Step()
        why = self.why_no_offer(turn)
        if why is not None:
            return Refused(why, said=True)
        self.armed = True
        return Step(effects=(Say("Your draw offer goes with your next move"),))

    def why_no_offer(self, turn: Phase) -> str | None:
        """Why "Offer a draw with your next move" does nothing now (None: it arms or disarms the offer):
        not the player's turn, the game over, or the rules' re-offer limit."""
        if not isinstance(turn, HumanToMove):
            return "The game is over" if isinstance(turn, GameOver) else OWN_TURN
        if self.armed:
            return None
        if turn.game.is_over:
            return "The game is over"
        return None if turn.game.can_offer_draw()[0] else RE_OFFER

    @staticmethod
    def pending_for_player(turn: Phase) -> bool:
        """Whether "Accept draw" should show: a draw is offered to the side a person plays now."""
        return (isinstance(turn, HumanToMove) and turn.game.pending_offer is not None
                and turn.game.pending_offer is not turn.game.turn)

    @staticmethod
    def can_undo(p: InGame | None) -> bool:
        """Whether the last move (against the computer: the player's last move and the computer's
        answer) can be taken back in the game on screen."""
        return Offers.why_no_undo(p) is None

    @staticmethod
    def why_no_undo(p: InGame | None) -> str | None:
        """Why "Undo move" takes nothing back in the game on screen (None: it can)."""
        if p is None or isinstance(p, Reviewing):
            return "No move to take back here"
        if p.mode.vs_friend:
            return "A game with a friend has no undo"
        if not p.game.moves:
            return NO_UNDO_YET
        outcome = p.game.outcome
        if outcome is not None:
            from engine.game import Reason

            if outcome.reason in (Reason.RESIGNATION, Reason.AGREEMENT):
                return "A game resigned or drawn by agreement stays as it ended"
        if p.mode.vs_computer and not any(pos.turn is p.mode.human for pos in p.game.positions[:-1]):
            return "No move of yours to take back yet"
        return None

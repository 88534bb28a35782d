"""Draw offers and taking moves back: what the player may ask of the game going on.

A draw offer goes with the player's next move (the rules' way): :class:`Offers` keeps whether one is
armed; an offer to the player shows "Accept draw". Resigning asks first (``ConfirmingResign``).
Against a friend there is no undo. The machine (``game.play.machine``) plays, undoes and ends games;
this module says what the rules and the mode allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.play.effects import Refused, Say, Step
from game.play.phases import HumanToMove, Reviewing

if TYPE_CHECKING:
    from game.play.phases import InGame, Phase


class Offers:
    """The player's draw offer armed for the next move (``armed``)."""

    def __init__(self) -> None:
        self.armed = False

    def toggle(self, turn: Phase) -> Step | Refused:
        """"Offer a draw with your next move", on or off (``turn``: the phase of the game, who acts)."""
        if not isinstance(turn, HumanToMove):
            return Refused("A draw is offered with your own move, on your turn")
        if self.armed:
            self.armed = False
            return Step()
        ok, reason = turn.game.can_offer_draw()
        if not ok:
            return Refused(reason or "No draw can be offered now", said=True)
        self.armed = True
        return Step(effects=(Say("Your draw offer goes with your next move"),))

    @staticmethod
    def pending_for_player(turn: Phase) -> bool:
        """Whether "Accept draw" should show: a draw is offered to the side a person plays now."""
        return (isinstance(turn, HumanToMove) and turn.game.pending_offer is not None
                and turn.game.pending_offer is not turn.game.turn)

    @staticmethod
    def can_undo(p: InGame | None) -> bool:
        """Whether the last move (against the computer: the player's last move and the computer's
        answer) can be taken back in the game on screen."""
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

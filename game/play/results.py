"""The results table's bookkeeping: a finished game's result at its level (taken back with an undo),
and a game against the computer left for another counts as a loss, so that results can't be dodged.
Only games from the rules' start position count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.modes import Mode, Result
from game.play.phases import InGame, TurnPhase

if TYPE_CHECKING:
    from engine.game import Game
    from game.play.machine import Controller


class Results:
    """What the controller's games add to the results table."""

    def __init__(self, c: Controller) -> None:
        self.c = c
        self.recorded = False  # this game's result is in the results table

    def leave_game(self, keep: Game | None = None) -> str | None:
        """Before another game takes the place of the one going on (Play from here, a game opened): a
        game against the computer in which the player has moved counts as a loss, as it does for Play
        again, unless the new game goes on from ``keep``'s own moves (like taking moves back). Returns
        what to tell the player."""
        live = self.c.game_phase_of(self.c.phase)
        if live is None or live.game is keep or not self.abandons(live):
            return None
        self.abandon(live)
        return "The game you left against the computer counts as a loss"

    def leaving_counts(self) -> bool:
        """Whether playing from the position shown, or opening a game, would leave a game against the
        computer that counts as a loss (the panel says so beside those buttons)."""
        live = self.c.game_phase_of(self.c.phase)
        reviewing = self.c.reviewing
        return (live is not None and self.abandons(live)
                and not (reviewing is not None and reviewing.game is live.game))

    def abandons(self, p: TurnPhase) -> bool:
        """Whether a new game would abandon ``p``'s game: one against the computer, from the rules' start
        position, going on, in which the player has moved (abandoning it counts as a loss, so that results
        can't be dodged; a game from another position counts for nothing, as when it is resigned)."""
        human = p.mode.human
        return (p.mode.vs_computer and not p.game.is_over and self.from_the_start(p.game)
                and any(pos.turn is human for pos in p.game.positions[:-1]))

    def abandon(self, p: InGame) -> None:
        if self.c.storage is not None and p.mode.level is not None:
            self.c.storage.record_result(p.game.variant.name, p.mode.level, Result.LOSS)

    def game_ended(self, game: Game, mode: Mode) -> None:
        """Once the game has an outcome: the end sound, and the result in the table."""
        if game.outcome is not None and not self.recorded:
            self.c.events.append("end")
            self.record(+1)

    def record(self, delta: int) -> None:
        """Add (or, after undoing a finished game, take back) this game's result in the table."""
        game, mode = self.c.game, self.c.mode
        assert game is not None and mode is not None
        if mode.level is None or self.c.storage is None or game.outcome is None or not self.from_the_start(game):
            self.recorded = delta > 0
            return
        if (delta > 0) == self.recorded:
            return
        self.c.storage.record_result(game.variant.name, mode.level, mode.result(game.outcome.winner), delta)
        self.recorded = delta > 0

    @staticmethod
    def from_the_start(game: Game) -> bool:
        """Whether a game began at the rules' start position (only those count in the results)."""
        from engine import Position

        return game.start == Position.initial(game.variant)

"""The results table's bookkeeping: a finished game's result at its level (taken back with an undo),
and which games count when left for another (``counts_when_left``): a game against the computer
counts as a loss, so that results can't be dodged. Only games from the rules' start position count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.play.effects import Sound, Step

if TYPE_CHECKING:
    from engine.game import Game
    from game.files.storage import Storage
    from game.modes import Mode
    from game.play.phases import TurnPhase


class Results:
    """What the games add to the results table (kept by ``storage``; None: nothing is kept)."""

    def __init__(self, storage: Storage | None) -> None:
        self.storage = storage
        self.recorded = False  # the game on screen's result is in the results table

    @staticmethod
    def abandons(p: TurnPhase) -> bool:
        """Whether leaving ``p``'s game would count as a loss: one against the computer, from the rules'
        start position, going on, in which the player has moved (a game from another position counts
        for nothing, as when it is resigned)."""
        human = p.mode.human
        return (p.mode.vs_computer and not p.game.is_over and Results.from_the_start(p.game)
                and any(pos.turn is human for pos in p.game.positions[:-1]))

    @staticmethod
    def counts_when_left(p: TurnPhase) -> bool:
        """Whether leaving ``p``'s game for another asks first: one that :meth:`abandons` counts as a
        loss, or a friend's game going on (which is resigned)."""
        return Results.abandons(p) or (p.mode.vs_friend and not p.game.is_over)

    def game_ended(self, game: Game, mode: Mode) -> Step:
        """Once the game has an outcome: the end sound, and the result in the table."""
        if game.outcome is None or self.recorded:
            return Step()
        self.record(game, mode, +1)
        return Step(effects=(Sound("end"),))

    def record(self, game: Game, mode: Mode, delta: int) -> None:
        """Add (or, after undoing a finished game, take back) ``game``'s result in the table."""
        if mode.level is None or self.storage is None or game.outcome is None or not self.from_the_start(game):
            self.recorded = delta > 0
            return
        if (delta > 0) == self.recorded:
            return
        self.storage.record_result(game.variant.name, mode.level, mode.result(game.outcome.winner), delta)
        self.recorded = delta > 0

    @staticmethod
    def from_the_start(game: Game) -> bool:
        """Whether a game began at the rules' start position (only those count in the results)."""
        from engine import Position

        return game.start == Position.initial(game.variant)


"""Stepping through a game: the record of a game as it stood after some of its moves.

The review itself is a phase (``game.phases.Reviewing``: the game and the ply shown); the controller
moves it. What needs the rules is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Game


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

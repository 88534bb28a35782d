"""Stepping through a game and playing on from the position shown: the records they make.

The review itself is a phase (``game.play.phases.Reviewing``: the game and the ply shown), and so is the
editor (``game.play.phases.Editing``); the machine moves them. :func:`game_at` is the record of a game
as it stood after some of its moves, :func:`game_from_here` the record a game played on from the
position shown starts with, :func:`edited` the editor's board after one of its tools.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from game.play.effects import Refused
from game.play.intents import ChooseTool, ClearBoard, SetTurn, StartPosition
from game.play.phases import Editing, InGame

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


def game_from_here(p: InGame | Editing, ply: int, numeric: bool = False) -> tuple[Game, str | None] | Refused:
    """The record a game played on from the position shown starts with (the review's after ``ply``
    moves, the editor's, the game's as it stands), and what to say of it; or why none can start
    there (squares named by their numbers with ``numeric``, the player's notation). A review keeps
    the moves up to there (a set-up position has none), so the draw rules count on as they should."""
    from engine.game import Game

    if isinstance(p, Editing):
        check = p.setup.check(numeric=numeric)
        if not check.is_playable:
            return Refused("Can't play from here: " + "; ".join(check.problems), said=True)
        from engine import Position

        game = Game(p.setup.variant, Position.from_fen(p.setup.variant, p.setup.fen()))
        return game, "; ".join(check.notes) or None  # allowed, and said again
    game = game_at(p.game, ply)
    if game.is_over:
        return Refused("The game is over in this position", said=True)
    return game, None


def edited(p: Editing, tool: ChooseTool | SetTurn | ClearBoard | StartPosition) -> Editing:
    """The editor after one of its tools: the piece a press puts, the side to move, an empty board,
    the start position."""
    from game.play.editor import Setup

    variant = p.setup.variant
    match tool:
        case ChooseTool(tool=chosen):
            return dataclasses.replace(p, tool=chosen)
        case SetTurn(color=color):
            return dataclasses.replace(p, setup=p.setup.with_turn(color))
        case ClearBoard():
            return dataclasses.replace(p, setup=Setup.empty(variant, p.setup.turn))
        case StartPosition():
            return dataclasses.replace(p, setup=Setup.start(variant))

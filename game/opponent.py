"""Whoever plays the other side against the person at this device, as the controller sees it.

The computer is one (``game.computer.worker_opponent``, the engine's worker process); a friend whose moves
arrive over the network will be another. Nothing here blocks: the controller says what it wants
(:meth:`Opponent.request_move`, :meth:`Opponent.ask_draw`) and takes the replies from
:meth:`Opponent.poll` once a frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from engine import Move
    from engine.game import Game
    from game.modes import Mode


@dataclass(frozen=True)
class OpponentMove:
    """The opponent's move, and whether it offers a draw with it."""

    move: Move
    offer_draw: bool = False


@dataclass(frozen=True)
class DrawAnswer:
    """The opponent's answer to the player's draw offer."""

    accept: bool


@dataclass(frozen=True)
class OpponentStatus:
    """How the opponent is getting on before it can play (the engine's kernels loading ...);
    ``ready`` once it can."""

    text: str
    ready: bool = False


@dataclass(frozen=True)
class OpponentError:
    """The opponent can't answer what it was asked (``message`` says why, in a player's words)."""

    message: str


Reply = OpponentMove | DrawAnswer | OpponentStatus | OpponentError


class Opponent(Protocol):
    """What the controller needs from the other side. ``mode`` says how the game is played (the
    computer reads its level there)."""

    def request_move(self, game: Game, mode: Mode) -> None:
        """It is the opponent's turn in ``game``: an :class:`OpponentMove` (or an error) follows."""

    def ask_draw(self, game: Game, mode: Mode) -> None:
        """The player offered a draw with the last move: a :class:`DrawAnswer` (or an error) follows."""

    def cancel(self) -> None:
        """Forget the questions asked so far: their replies never come (undo, a new game ...)."""

    def poll(self) -> list[Reply]:
        """The replies since the last call, without waiting."""

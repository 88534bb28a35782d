"""How a game is played and what it counts: the words every package of ``game`` shares (the state
machine, the computer, a friend's game, the files). Imports only ``engine``."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine import Color


class Level(enum.StrEnum):
    """The computer's strength (the values are the engine's level names and the saved words)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Result(enum.StrEnum):
    """A finished game from the player's side (the words of the results file)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class Room:
    """The player's seat in a friend's room: its ``link`` (the room and its server), the seat's
    ``secret`` (it proves the seat on returning; kept with the saved game, never shown, sent only to
    the room server) and whether the room lives in this game's own room server (``hosted``), which
    ends with the program; ``opponent`` is the nickname of an opponent found by "Play someone online"
    (None: a friend's room)."""

    link: str
    secret: str = field(repr=False)
    hosted: bool = False
    opponent: str | None = None

    def opponent_words(self, capital: bool = False) -> str:
        """Who the opponent is, in a sentence: the nickname, or "your friend" ("Your friend" with
        ``capital``, to begin one)."""
        if self.opponent is not None:
            return self.opponent
        return "Your friend" if capital else "your friend"


@dataclass(frozen=True)
class Mode:
    """How the game is played: against an opponent (the computer at ``level``, or a friend in
    ``room``) with the person here on ``human``, or two people on this device (all None)."""

    level: Level | None = None
    human: Color | None = None
    room: Room | None = None

    @property
    def vs_computer(self) -> bool:
        return self.level is not None

    @property
    def vs_friend(self) -> bool:
        return self.room is not None

    @property
    def computer(self) -> Color | None:
        """The side the opponent plays; None when people play both."""
        return self.human.opponent if self.human is not None else None

    def opponent_words(self, capital: bool = False) -> str:
        """Who plays the other side, in a sentence: the computer, your friend, or the nickname of
        someone found online (``capital``: to begin one)."""
        if self.room is not None:
            return self.room.opponent_words(capital)
        return "The computer" if capital else "the computer"

    def result(self, winner: Color | None) -> Result:
        """The player's result of a game that ``winner`` won (None: drawn); needs ``human``."""
        assert self.human is not None
        return Result.DRAW if winner is None else Result.WIN if winner is self.human else Result.LOSS

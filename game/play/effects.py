"""What a job returns to the state machine, and what the state machine hands the window.

A job (the hand, the offers, a friend's game ...) owns its state and gets what it needs as arguments;
what it changes beyond its own state it returns as a :class:`Step`: the phase to enter, if another,
and effects (a sound, the notice, a note, text for the clipboard, a move for the machine to play).
``game.play.machine`` applies steps in one place, and each of its entry points (``handle``,
``update`` ...) returns an :class:`Outbox`: what the window is to carry out (sounds to play, text to
put on the system clipboard) and, for an intent the phase refuses, why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import Move
    from game.help import Refusal
    from game.play.phases import Phase


@dataclass(frozen=True)
class Sound:
    """A sound to play: move, capture, crown, illegal, end."""

    name: str


@dataclass(frozen=True)
class Say:
    """The notice under the status line (None: none)."""

    text: str | None


@dataclass(frozen=True)
class Note:
    """A message in the panel's notes (files set aside, a room that closed ...), until dismissed."""

    text: str


@dataclass(frozen=True)
class Copy:
    """Text for the system clipboard."""

    text: str


@dataclass(frozen=True)
class Explain:
    """A move the rules refuse: the notice says why in their words and names the Rules section to
    open (``refusal``; ``otherwise`` when the explanation finds the attempt allowed after all), with
    the refusal's sound."""

    refusal: Refusal | None
    otherwise: str | None = None


@dataclass(frozen=True)
class PlayMove:
    """A move for the machine to play for the side to move, along ``route`` (None: its own path)."""

    move: Move
    route: tuple[int, ...] | None = None


Effect = Sound | Say | Note | Copy | Explain | PlayMove


@dataclass(frozen=True)
class Step:
    """What a job returns: the ``phase`` to enter (None: the phase stays) and ``effects``."""

    phase: Phase | None = None
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Refused:
    """An intent that the phase (or the game's state) does not take, and why in a player's words.
    ``said``: the notice says so, with the refusal's sound (else it is only returned in the outbox,
    as pressing a key that means nothing here does nothing on screen)."""

    reason: str
    said: bool = False

    def __post_init__(self) -> None:
        assert self.reason, "a refusal says why"


def illegal(text: str | None) -> Step:
    """A refused attempt: the notice says why (``text``, if any), and the refusal's sound plays."""
    return Step(effects=((Say(text),) if text else ()) + (Sound("illegal"),))


@dataclass(frozen=True)
class Outbox:
    """What the window carries out after an intent or a frame's update: ``sounds`` to play, text for
    the system ``clipboard``; ``refused``: why the intent was refused (None: it was taken)."""

    sounds: tuple[str, ...] = ()
    clipboard: str | None = None
    refused: str | None = None

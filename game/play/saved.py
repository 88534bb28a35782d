"""The game in progress kept on disk: saved after every move, shown at once at launch and rebuilt once
the rules engine has loaded (a friend's game goes to the mode screen, which offers its room back).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from engine import Color, variant_named
from game.modes import Level, Mode, Room
from game.play.phases import ChoosingMode, ReadingHelp, Resuming

if TYPE_CHECKING:
    from engine.game import Game
    from game.play.machine import Controller


class SavedGame:
    """The controller's game in progress, saved and restored."""

    def __init__(self, c: Controller) -> None:
        self.c = c

    def save(self) -> None:
        game, mode = self.c.game, self.c.mode
        if self.c.storage is None or game is None or mode is None:
            return
        saved: dict[str, Any] = {"level": mode.level.value if mode.level is not None else None,
                                 "human": mode.human.label if mode.human is not None else None}
        if mode.room is not None:  # the seat's secret too: returning to the room after a relaunch needs it
            saved["room"] = {"link": mode.room.link, "seat": mode.room.secret, "hosted": mode.room.hosted}
        self.c.storage.save_game({"mode": saved, "flipped": self.c.flipped,
                                "over": game.is_over,  # read at launch, before the engine can replay it
                                "game": game.to_dict()})

    def expect_saved_game(self) -> bool:
        """At launch, before the rules engine has loaded: if a game in progress was saved, show the
        game screen at once (:class:`Resuming`) until :meth:`restore` can rebuild it (a friend's game
        goes to the mode screen, which offers its room back). Reads the file only; whether its moves are
        good is for :meth:`restore` to find."""
        data = self.c.storage.peek_game() if self.c.storage is not None else None
        try:
            assert data is not None and data["over"] is False
            m = data["mode"]
            assert m.get("room") is None
            mode = Mode(Level(m["level"]) if m["level"] is not None else None,
                        Color[m["human"].upper()] if m["human"] else None)
            variant = variant_named(data["game"]["variant"]).name
        except (AssertionError, KeyError, TypeError, AttributeError, ValueError):
            return False  # none, finished, or not readable here: the mode screen, as before
        self.c.phase = Resuming(variant, mode)
        self.c.version += 1
        return True

    def restore(self) -> bool:
        """Load the saved game in progress (if any and not finished) and show it; False if none. A
        player reading the help meanwhile stays there, and Back leads to the game."""
        reading = self.c.phase if isinstance(self.c.phase, ReadingHelp) else None
        restored = self._restore()
        if reading is not None and self.c.phase is not reading:
            self.c.phase = dataclasses.replace(reading, back=self.c.left_for_help)
        return restored

    def _restore(self) -> bool:
        if self.c.storage is None:
            return False
        data = self.c.storage.load_game(game_from_dict)
        self.c.notes.extend(self.c.storage.take_notes())
        self.c.version += 1
        if data is None:
            if isinstance(self.c.left_for_help, Resuming):  # it could not be read after all
                self.c.phase = ChoosingMode()
            return False
        game, mode, flipped = data
        if game.is_over or mode.vs_friend:
            # kept for the mode screen: the game last played, or a friend's game to return to
            self.c.phase = ChoosingMode(left=self.c.phase_of(game, mode))
            self.c.flipped = flipped
            if mode.vs_friend:
                self.c.settings.variant = game.variant.name
            return False
        self.c.settings.variant = game.variant.name
        self.c.open_game(game, mode, flipped)
        return True


def game_from_dict(d: dict) -> tuple[Game, Mode, bool]:
    """(game, mode, flipped) from a saved game; ValueError when the content is not a saved game."""
    from engine.game import Game

    try:
        m = d["mode"]
        level, human, room = m["level"], m["human"], m.get("room")
        if room is not None:
            room = Room(str(room["link"]), str(room["seat"]), bool(room.get("hosted", False)))
        mode = Mode(Level(level) if level is not None else None, Color[human.upper()] if human else None, room)
        if (mode.vs_computer or mode.vs_friend) != (mode.human is not None) or (mode.vs_computer and mode.vs_friend):
            raise ValueError("a game against the computer or a friend needs the player's colour, and only one")
        return Game.from_dict(d["game"]), mode, bool(d.get("flipped", False))
    except (KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"not a saved game: {err!r}") from None

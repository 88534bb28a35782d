"""The game in progress as it is kept on disk (``game.files.storage`` writes it after every move):
its mode, whether the board was flipped, and the game's record; read back in full once the rules
engine has loaded, and peeked at before that (the game screen is shown at once at launch).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import Color, variant_named
from game.modes import Level, Mode, Room

if TYPE_CHECKING:
    from engine.game import Game


def saved_game(game: Game, mode: Mode, flipped: bool) -> dict[str, Any]:
    """What is kept of ``game``, played as ``mode``: a friend's game keeps the seat's secret too
    (returning to the room after a relaunch needs it)."""
    saved: dict[str, Any] = {"level": mode.level.value if mode.level is not None else None,
                             "human": mode.human.label if mode.human is not None else None}
    if mode.room is not None:
        saved["room"] = {"link": mode.room.link, "seat": mode.room.secret, "hosted": mode.room.hosted,
                         "opponent": mode.room.opponent}
    return {"mode": saved, "flipped": flipped,
            "over": game.is_over,  # read at launch, before the engine can replay it
            "game": game.to_dict()}


def game_in_progress(data: dict | None) -> tuple[str, Mode] | None:
    """The rules (a name in ``engine.ALL_VARIANTS``) and the mode of a game in progress kept as ``data``,
    read without the rules engine; None for none, a finished game, a friend's game (the mode screen
    offers its room back) or one that can't be read here. Whether its moves are good is for
    :func:`game_from_dict` to find."""
    try:
        assert data is not None and data["over"] is False
        m = data["mode"]
        assert m.get("room") is None
        mode = Mode(Level(m["level"]) if m["level"] is not None else None,
                    Color[m["human"].upper()] if m["human"] else None)
        return variant_named(data["game"]["variant"]).name, mode
    except (AssertionError, KeyError, TypeError, AttributeError, ValueError):
        return None


def game_from_dict(d: dict) -> tuple[Game, Mode, bool]:
    """(game, mode, flipped) from a saved game; ValueError when the content is not a saved game."""
    from engine.game import Game

    try:
        m = d["mode"]
        level, human, room = m["level"], m["human"], m.get("room")
        if room is not None:
            opponent = room.get("opponent")
            room = Room(str(room["link"]), str(room["seat"]), bool(room.get("hosted", False)),
                        str(opponent) if opponent is not None else None)
        mode = Mode(Level(level) if level is not None else None, Color[human.upper()] if human else None, room)
        if (mode.vs_computer or mode.vs_friend) != (mode.human is not None) or (mode.vs_computer and mode.vs_friend):
            raise ValueError("a game against the computer or a friend needs the player's colour, and only one")
        return Game.from_dict(d["game"]), mode, bool(d.get("flipped", False))
    except (KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"not a saved game: {err!r}") from None

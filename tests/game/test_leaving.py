"""Leaving a game that counts (issue 20): a game against the computer, from the rules' start position,
in which the player has moved, counts as a loss when left for another; every way of leaving it asks
first, names the cost, records it once, and Cancel changes nothing."""

from __future__ import annotations

import time

from support import sq

from engine import AMERICAN
from engine.game import Game
from engine.pdn import PdnGame
from game.play import intents as it
from game.play.phases import Browsing, Reviewing


def hard_losses(storage) -> int:
    return storage.results().get("american", {}).get("hard", {}).get("loss", 0)


def moved(make, opponent):
    """A game against the computer (Hard) in which the player has moved: leaving it counts."""
    c = make(level="hard")
    c.handle(it.SquarePressed(sq("c3")))
    c.handle(it.SquarePressed(sq("d4")))
    opponent.reply_first_legal()
    c.update()
    assert c.is_human_turn() and len(c.game.moves) == 2 and c.leaving_counts()
    return c


def a_game_pdn() -> str:
    game = Game(AMERICAN)
    for text in "11-15 23-19 8-11".split():
        game.play(text)
    return PdnGame.from_game(game).pdn()


def read(c, timeout: float = 10.0) -> None:
    """Frames until the browser's file has been read."""
    end = time.monotonic() + timeout
    while isinstance(c.phase, Browsing) and c.phase.listing is not None and not c.phase.listing.done.is_set():
        assert time.monotonic() < end
        c.update()
        time.sleep(0.01)
    c.update()


def asked(c, game) -> bool:
    """Whether the player is being asked before ``game`` is left (the game still there, nothing counted)."""
    return c.game is game and "counts as a loss at Hard" in question_text(c)


def question_text(c) -> str:
    import pygame

    from game.ui import Interface

    pygame.font.init()
    ui = Interface((1280, 800))
    ui.render(c, 0.0)
    return " ".join(w.label for w in ui.widgets)


def test_pasting_a_game_over_a_counted_game_asks_first(make, opponent, storage):
    c = moved(make, opponent)
    game = c.game
    c.handle(it.Pasted(a_game_pdn()))
    assert asked(c, game) and hard_losses(storage) == 0, "asked first: nothing thrown away yet"
    c.handle(it.Cancel())
    assert c.game is game and c.is_human_turn() and hard_losses(storage) == 0, "kept"
    c.handle(it.Pasted(a_game_pdn()))
    c.handle(it.ConfirmLeave())
    assert isinstance(c.phase, Reviewing) and c.game is not game and len(c.game.moves) == 3
    assert hard_losses(storage) == 1, "one loss"


def test_dropping_a_file_over_a_counted_game_asks_first(make, opponent, storage, tmp_path):
    c = moved(make, opponent)
    game = c.game
    path = tmp_path / "one.pdn"
    path.write_text(a_game_pdn(), encoding="utf-8")
    c.handle(it.OpenFile(str(path)))
    read(c)
    assert asked(c, game) and hard_losses(storage) == 0, "asked first: nothing thrown away yet"
    c.handle(it.Cancel())
    assert c.game is game and hard_losses(storage) == 0 and not isinstance(c.phase, Reviewing), "kept"
    c.handle(it.OpenFile(str(path)))
    read(c)
    c.handle(it.ConfirmLeave())
    assert isinstance(c.phase, Reviewing) and c.game is not game and hard_losses(storage) == 1


def test_opening_a_listed_game_over_a_counted_game_asks_first(make, opponent, storage, tmp_path):
    c = moved(make, opponent)
    game = c.game
    path = tmp_path / "two.pdn"
    path.write_text(a_game_pdn() + "\n\n" + a_game_pdn(), encoding="utf-8")
    c.handle(it.OpenBrowser())
    c.handle(it.OpenFile(str(path)))
    read(c)
    assert isinstance(c.phase, Browsing) and len(c.phase.listing.games) == 2
    c.handle(it.OpenListedGame(1))
    assert asked(c, game) and hard_losses(storage) == 0, "asked first: nothing thrown away yet"
    c.handle(it.Cancel())
    assert c.game is game and hard_losses(storage) == 0 and isinstance(c.phase, Browsing), "kept, in the browser"
    c.handle(it.OpenListedGame(1))
    c.handle(it.ConfirmLeave())
    assert isinstance(c.phase, Reviewing) and c.game is not game and hard_losses(storage) == 1

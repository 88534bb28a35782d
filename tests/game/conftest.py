"""Fixtures of the controller and storage tests: storage and the games folder in a temporary
directory, a scripted computer, a controller on the game screen."""

from __future__ import annotations

import pytest
from support import ScriptedOpponent

from engine import AMERICAN, Position
from engine.game import Game
from game.files.storage import Storage
from game.modes import Level, Mode
from game.play.machine import Controller


@pytest.fixture(autouse=True)
def games_folder(tmp_path, monkeypatch):
    """Saved games go to a temporary folder, never the user's documents."""
    from game.files.pdn import ENV_GAMES_DIR

    folder = tmp_path / "Documents" / "Checkers 3D"
    monkeypatch.setenv(ENV_GAMES_DIR, str(folder))
    return folder


@pytest.fixture
def storage(tmp_path):
    return Storage(tmp_path / "data")


@pytest.fixture
def opponent():
    return ScriptedOpponent()


@pytest.fixture
def make(storage, opponent):
    """make(level=None, start=None, human=None) -> a controller on the game screen."""
    def build(level=None, start: Position | None = None, human=None, variant=AMERICAN) -> Controller:
        c = Controller(opponent=opponent, storage=storage)
        human = (human if human is not None else variant.first_player) if level else None
        c.open_game(Game(variant, start), Mode(Level(level) if level else None, human))
        return c
    return build

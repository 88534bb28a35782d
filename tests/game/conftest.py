"""Fixtures of the controller and storage tests: storage in a temporary directory, a scripted
computer, a controller on the game screen."""

from __future__ import annotations

import pytest
from support import ScriptedOpponent

from engine import AMERICAN, Position
from engine.game import Game
from game.controller import Controller, Mode
from game.storage import Storage


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
        c.game = Game(variant, start)
        c.mode = Mode(level, (human if human is not None else variant.first_player) if level else None)
        c.screen = "game"
        c._start_computer_turn()
        return c
    return build

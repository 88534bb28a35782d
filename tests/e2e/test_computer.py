"""The controller against the real computer player (engine worker process): it replies without the
controller ever waiting, undo in the middle of a search cancels it, a draw offer gets an answer, and a
worker that fails for good is reported to the player."""

from __future__ import annotations

import os
import signal
import time

import pytest

from engine import MORE_VARIANTS, worker
from engine.game import Reason
from engine.worker import EngineClient
from game.computer.worker_opponent import WorkerOpponent
from game.modes import Level
from game.play import intents as it
from game.play.machine import Controller
from game.play.phases import AwaitingDrawAnswer, HumanToMove, OpponentFailed, OpponentToMove


def run_until(c: Controller, done, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the computer did not answer in time"
        c.update()
        time.sleep(0.01)


@pytest.fixture(scope="module")
def opponent():
    client = EngineClient.start()
    client.wait_ready(timeout=600)
    yield WorkerOpponent(client)
    client.close()


def test_computer_replies_and_undo_mid_search(opponent):
    c = Controller(opponent=opponent)
    c.handle(it.StartGame(Level.EASY))
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    assert isinstance(c.phase, OpponentToMove)
    run_until(c, lambda: not isinstance(c.phase, OpponentToMove))
    assert len(c.game.moves) == 2 and c.is_human_turn()
    assert c.game.moves[1] in c.game.positions[1].legal_moves()

    c.handle(it.StartGame(Level.HARD))
    c.handle(it.ConfirmLeave())  # the Easy game left counts as lost
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    assert isinstance(c.phase, OpponentToMove)
    c.handle(it.Undo())
    assert not isinstance(c.phase, OpponentToMove) and c.game.moves == [] and c.is_human_turn()
    end = time.monotonic() + 3  # the cancelled search's answer never arrives
    while time.monotonic() < end:
        c.update()
        time.sleep(0.05)
    assert c.game.moves == []


@pytest.mark.parametrize("name", list(MORE_VARIANTS))
def test_the_computer_plays_each_more_rule_set(opponent, name):
    c = Controller(opponent=opponent)
    c.handle(it.ChooseRules(name))
    c.handle(it.StartGame(Level.EASY, play_second=True))
    for plies in (1, 3, 5):
        if plies > 1:
            c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        run_until(c, lambda: not isinstance(c.phase, OpponentToMove))
        assert c.game.variant is MORE_VARIANTS[name] and len(c.game.moves) == plies and c.is_human_turn()
        assert c.game.moves[-1] in c.game.positions[-2].legal_moves()


def test_the_computer_answers_a_draw_offer(opponent):
    c = Controller(opponent=opponent)
    c.handle(it.StartGame(Level.MEDIUM))
    c.handle(it.OfferDraw())
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    assert isinstance(c.phase, AwaitingDrawAnswer)
    run_until(c, lambda: c.game.is_over or len(c.game.moves) == 2)
    if c.game.is_over:
        assert c.game.outcome.reason is Reason.AGREEMENT
    else:  # declined by moving
        assert len(c.game.moves) == 2 and c.game.pending_offer is not c.mode.human


def test_a_worker_that_fails_for_good_is_reported_and_the_computer_never_moves(monkeypatch):
    monkeypatch.setattr(worker, "MAX_RESTARTS", 0)  # the first death is for good
    client = EngineClient.start(tt_size_mb=8)
    try:
        client.wait_ready(timeout=600)
        c = Controller(opponent=WorkerOpponent(client))
        c.handle(it.StartGame(Level.HARD))
        c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        assert isinstance(c.phase, OpponentToMove)
        os.kill(client.pid, signal.SIGKILL)
        run_until(c, lambda: not isinstance(c.phase, OpponentToMove), timeout=60)
        assert isinstance(c.phase, OpponentFailed) and len(c.game.moves) == 1
        assert "can't play" in c.status() and "died" in c.notice
        c.handle(it.Undo())
        assert isinstance(c.phase, HumanToMove) and c.game.moves == []
    finally:
        client.close()

"""The controller against the real computer player (engine worker process): it replies without the
controller ever waiting, undo in the middle of a search cancels it, and a draw offer gets an answer."""

from __future__ import annotations

import time

import pytest

from engine.worker import EngineClient
from game import controller as ctl


def run_until(c: ctl.Controller, done, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the computer did not answer in time"
        c.update()
        time.sleep(0.01)


@pytest.fixture(scope="module")
def opponent():
    client = EngineClient.start()
    client.wait_ready(timeout=600)
    yield ctl.WorkerOpponent(client)
    client.close()


def test_computer_replies_and_undo_mid_search(opponent):
    c = ctl.Controller(opponent=opponent)
    c.handle(ctl.StartGame("easy"))
    c.handle(ctl.PlayMoveFromList(c.legal_moves()[0]))
    assert c.thinking
    run_until(c, lambda: not c.thinking)
    assert len(c.game.moves) == 2 and c.is_human_turn()
    assert c.game.moves[1] in c.game.positions[1].legal_moves()

    c.handle(ctl.StartGame("hard"))
    c.handle(ctl.PlayMoveFromList(c.legal_moves()[0]))
    assert c.thinking
    c.handle(ctl.Undo())
    assert not c.thinking and c.game.moves == [] and c.is_human_turn()
    end = time.monotonic() + 3  # the cancelled search's answer never arrives
    while time.monotonic() < end:
        c.update()
        time.sleep(0.05)
    assert c.game.moves == []


def test_the_computer_answers_a_draw_offer(opponent):
    c = ctl.Controller(opponent=opponent)
    c.handle(ctl.StartGame("medium"))
    c.handle(ctl.OfferDraw())
    c.handle(ctl.PlayMoveFromList(c.legal_moves()[0]))
    assert c.asking_draw
    run_until(c, lambda: c.game.is_over or len(c.game.moves) == 2)
    if c.game.is_over:
        assert c.game.outcome.reason == "agreement"
    else:  # declined by moving
        assert len(c.game.moves) == 2 and c.game.pending_offer is not c.mode.human

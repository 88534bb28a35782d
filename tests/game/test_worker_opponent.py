"""The adapter between the controller and engine.worker.EngineClient, with a scripted client."""

from __future__ import annotations

from engine import AMERICAN
from engine import worker as w
from engine.game import Game
from game.controller import ComputerMove, DrawAnswer, EngineStatus, WorkerOpponent


class ScriptedClient:
    """Hands out request ids like EngineClient and returns whatever replies a test queues."""

    def __init__(self, ready=False):
        self.is_ready = ready
        self.next_id = 1
        self.sent: list[tuple] = []
        self.replies: list = []
        self.cancelled = 0

    def request_move(self, game, level=None):
        self.sent.append(("move", self.next_id, level))
        self.next_id += 1
        return self.next_id - 1

    def ask_draw(self, game, level, kind="accept", last_score=None):
        self.sent.append((kind, self.next_id, last_score))
        self.next_id += 1
        return self.next_id - 1

    def cancel(self):
        self.cancelled += 1

    def poll(self):
        out, self.replies = self.replies, []
        return out


def best(rid, game, score=0):
    move = game.position.legal_moves()[0]
    return w.BestMove(rid, move, game.position.move_text(move), score, 1, 1, 0.0)


def test_status_until_ready():
    client = ScriptedClient(ready=False)
    op = WorkerOpponent(client)
    assert op.poll() == [EngineStatus("(preparing the engine)", False)]
    client.replies = [w.Ready(pid=1, seconds=1.0)]
    assert op.poll() == [EngineStatus("ready", True)]


def test_a_best_move_is_followed_by_the_offer_question():
    client, game = ScriptedClient(ready=True), Game(AMERICAN)
    op = WorkerOpponent(client)
    op.request_move(game, "hard")
    client.replies = [best(1, game, score=-5)]
    assert op.poll() == []
    assert client.sent[-1] == ("offer", 2, -5)
    client.replies = [w.DrawAnswer(2, "offer", True)]
    assert op.poll() == [ComputerMove(game.position.legal_moves()[0], offer_draw=True)]


def test_accept_question_and_errors_keep_the_game_going():
    client, game = ScriptedClient(ready=True), Game(AMERICAN)
    op = WorkerOpponent(client)
    op.ask_draw(game, "easy")
    client.replies = [w.DrawAnswer(1, "accept", False)]
    assert op.poll() == [DrawAnswer(False)]
    op.request_move(game, "easy")
    client.replies = [w.Error(2, "worker died")]
    assert op.poll() == [ComputerMove(game.position.legal_moves()[0])]
    op.cancel()
    assert client.cancelled == 1

"""The adapter between the controller and engine.worker.EngineClient, with a scripted client."""

from __future__ import annotations

from engine import AMERICAN
from engine import worker as w
from engine.game import Game
from game.computer.worker_opponent import WorkerOpponent
from game.modes import Level, Mode
from game.opponent import DrawAnswer, OpponentError, OpponentMove, OpponentStatus

EASY, HARD = Mode(Level.EASY, AMERICAN.first_player), Mode(Level.HARD, AMERICAN.first_player)


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
    assert op.poll() == [OpponentStatus("(preparing the engine)", False)]
    client.replies = [w.Ready(pid=1, seconds=1.0)]
    assert op.poll() == [OpponentStatus("ready", True)]


def test_a_best_move_is_followed_by_the_offer_question():
    client, game = ScriptedClient(ready=True), Game(AMERICAN)
    op = WorkerOpponent(client)
    op.request_move(game, HARD)
    assert client.sent == [("move", 1, "hard")]
    client.replies = [w.Info(1, 1, 0, 10, 0.0), best(1, game, score=-5)]
    assert op.poll() == []
    assert client.sent[-1] == ("offer", 2, -5)
    client.replies = [w.DrawAnswer(2, "offer", True)]
    assert op.poll() == [OpponentMove(game.position.legal_moves()[0], offer_draw=True)]


def test_the_accept_question_is_answered():
    client, game = ScriptedClient(ready=True), Game(AMERICAN)
    op = WorkerOpponent(client)
    op.ask_draw(game, EASY)
    client.replies = [w.DrawAnswer(1, "accept", False)]
    assert op.poll() == [DrawAnswer(False)]
    op.cancel()
    assert client.cancelled == 1


def test_a_request_the_worker_cannot_answer_is_an_error_never_a_move_for_the_computer():
    client, game = ScriptedClient(ready=True), Game(AMERICAN)
    op = WorkerOpponent(client)
    op.request_move(game, EASY)
    client.replies = [w.Error(1, "the engine process died 4 times in a row (last exit code -9)")]
    assert op.poll() == [OpponentError("the engine failed: the engine process died 4 times in a row "
                                       "(last exit code -9)")]
    op.ask_draw(game, EASY)
    client.replies = [w.Error(2, "gone")]
    assert op.poll() == [OpponentError("the engine failed: gone")]
    client.replies = [w.Error(77, "a request nobody waits for")]
    assert op.poll() == []


def test_a_failed_offer_question_still_plays_the_move_found():
    client, game = ScriptedClient(ready=True), Game(AMERICAN)
    op = WorkerOpponent(client)
    op.request_move(game, EASY)
    client.replies = [best(1, game)]
    assert op.poll() == []
    client.replies = [w.Error(2, "the search failed")]
    assert op.poll() == [OpponentMove(game.position.legal_moves()[0])]

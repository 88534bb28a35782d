"""Helpers for the controller tests: positions by algebraic square names, a scripted computer, and
controllers run frame by frame until what a room's server sends has arrived."""

from __future__ import annotations

import time

from engine import AMERICAN, Position, parse_square
from engine.game import Game
from game.opponent import DrawAnswer, OpponentError, OpponentMove, OpponentStatus

# a room client's timings for tests: quick reconnection, pings and first connection
FAST = dict(backoff=(0.05, 0.3), ping_interval=2.0, first_connect_timeout=3.0)


def sq(name: str, variant=AMERICAN) -> int:
    return parse_square(variant, name)


def position(turn: str, white: list[str], black: list[str], variant=AMERICAN) -> Position:
    """A position from algebraic names; a leading K marks a king: position('B', ['d4'], ['Kc3'])."""
    def items(names):
        return ",".join(("K" if n.startswith("K") else "") + str(sq(n.lstrip("K"), variant)) for n in names)
    return Position.from_fen(variant, f"{turn}:W{items(white)}:B{items(black)}")


class ScriptedOpponent:
    """The computer for tests: records what it is asked (the game and the level) and answers only when
    a test says so (``reply_first_legal``, ``answer_draw``, ``fail``), so the controller can be caught
    mid-search."""

    def __init__(self):
        self.requests: list[tuple[Game, str]] = []
        self.draw_questions: list[Game] = []
        self.cancels = 0
        self.outbox: list = []

    def request_move(self, game, mode):
        self.requests.append((game, mode.level))

    def ask_draw(self, game, mode):
        self.draw_questions.append(game)

    def cancel(self):
        self.cancels += 1
        self.requests.clear()
        self.draw_questions.clear()

    def poll(self):
        out, self.outbox = self.outbox, []
        return out

    def reply(self, move, offer_draw=False):
        self.requests.clear()
        self.outbox.append(OpponentMove(move, offer_draw))

    def reply_first_legal(self, offer_draw=False):
        game, _ = self.requests[-1]
        self.reply(game.position.legal_moves()[0], offer_draw)

    def answer_draw(self, accept: bool):
        self.draw_questions.clear()
        self.outbox.append(DrawAnswer(accept))

    def status(self, text, ready):
        self.outbox.append(OpponentStatus(text, ready))

    def fail(self, message):
        self.requests.clear()
        self.draw_questions.clear()
        self.outbox.append(OpponentError(message))




def pump(*players, until, timeout: float = 10.0, what: str = "") -> None:
    """Run each controller's frame update (as the window's loop does) until ``until()`` holds."""
    end = time.monotonic() + timeout
    while not until():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or until}: "
                                 + "; ".join(f"{type(c.phase).__name__} {c.status()!r} {c.notice!r}" for c in players))
        for c in players:
            c.update()
        time.sleep(0.01)

"""One engine worker (``engine.worker.EngineClient``) shared by the computer player and the analysis.

Each user asks through a :class:`Channel` of its own and gets back only the replies to its own
requests (and the worker's Ready, which every channel sees). The worker runs one request at a time,
so its users take turns: the controller never has the computer and the analysis thinking at once, and
stops the one before it asks the other (a stop ends whatever search runs).
"""

from __future__ import annotations

from typing import Any

from engine import worker


class EngineLink:
    """Hands out channels and sorts the worker's replies to them (``client`` is an EngineClient)."""

    def __init__(self, client: Any):
        self.client = client
        self._channels: list[Channel] = []
        self._owner: dict[int, Channel] = {}  # request id -> the channel that asked

    def channel(self) -> Channel:
        ch = Channel(self)
        self._channels.append(ch)
        return ch

    def _asked(self, channel: Channel, request_id: int) -> int:
        self._owner[request_id] = channel
        return request_id

    def _forget(self, request_ids) -> None:
        for rid in request_ids:
            self._owner.pop(rid, None)

    def pump(self) -> None:
        """Take the client's replies (without waiting) and hand each to the channel that asked."""
        for reply in self.client.poll():
            if isinstance(reply, worker.Ready):
                for ch in self._channels:
                    ch.inbox.append(reply)
                continue
            owner = self._owner.get(reply.request_id)
            if owner is None:
                continue  # a request forgotten meanwhile
            owner.inbox.append(reply)
            if isinstance(reply, (worker.BestMove, worker.GameScores, worker.DrawAnswer, worker.Error)):
                del self._owner[reply.request_id]


class Channel:
    """An EngineClient as one user sees it: the same requests, and :meth:`poll` and :meth:`cancel`
    that concern only this channel's requests."""

    def __init__(self, link: EngineLink):
        self._link = link
        self.inbox: list[worker.Reply] = []

    @property
    def is_ready(self) -> bool:
        return bool(self._link.client.is_ready)

    def request_move(self, game, level: str | None = None, limits=None, seed: int | None = None) -> int:
        return self._link._asked(self, self._link.client.request_move(game, level=level, limits=limits, seed=seed))

    def ask_draw(self, game, level: str, kind: str = "accept", last_score: int | None = None) -> int:
        return self._link._asked(self, self._link.client.ask_draw(game, level, kind, last_score))

    def analyze(self, game, limits=None) -> int:
        return self._link._asked(self, self._link.client.analyze(game, limits))

    def analyze_game(self, game, limits) -> int:
        return self._link._asked(self, self._link.client.analyze_game(game, limits))

    def cancel(self) -> None:
        """Stop and forget this channel's requests; their replies never come."""
        mine = [rid for rid, ch in self._link._owner.items() if ch is self]
        self._link.client.cancel(mine)
        self._link._forget(mine)
        self.inbox = [r for r in self.inbox if isinstance(r, worker.Ready)]

    def poll(self) -> list[worker.Reply]:
        self._link.pump()
        out, self.inbox = self.inbox, []
        return out

    def close(self) -> None:
        """This user is done: its requests are cancelled (the worker itself belongs to the link's owner)."""
        self.cancel()

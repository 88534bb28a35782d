"""A friend on another machine as the controller's opponent (``game.opponent``).

``game.friend.rooms.Rooms`` opens the rooms; each room is a :class:`FriendOpponent`: the room's ``FriendGame``
(``game.friend.session``) adapted to the :class:`~game.opponent.Opponent` protocol. The friend's
moves come as :class:`~game.opponent.OpponentMove`, the friend's acceptance of the player's draw
offer as ``DrawAnswer(True)`` (a move instead of an answer declines it); the rest of the room's news
(its link, a game started, the friend resigned, the connections, a rematch asked for) comes as the
session's own events. The player's moves and actions are told to the room with
:meth:`FriendOpponent.played` and its siblings, and the server checks each.

This module loads the rules engine (the session replays the server's games) and the WebSocket client:
it is imported only once a friend's game is asked for.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from game.friend.session import (
    ConnectionChanged,
    DrawAgreed,
    FriendGame,
    FriendMoved,
    FriendPresence,
    FriendResigned,
    GameStarted,
    Refused,
    RematchAsked,
    Resynced,
    RoomOpened,
    TimedOut,
)
from game.modes import Room
from game.opponent import DrawAnswer, OpponentMove, Reply

if TYPE_CHECKING:
    from engine import Move
    from engine.game import Game
    from game.modes import Mode

# what the controller takes from a friend: replies as from any opponent, and the room's own news
RoomNews = (RoomOpened | TimedOut | GameStarted | FriendResigned | Resynced | Refused | FriendPresence | RematchAsked
            | ConnectionChanged)
FriendReply = Reply | RoomNews

__all__ = ["ConnectionChanged", "FriendOpponent", "FriendPresence", "FriendReply", "FriendResigned", "GameStarted",
           "RematchAsked", "Refused", "Resynced", "RoomNews", "RoomOpened", "TimedOut"]


class FriendOpponent:
    """The friend across a room server. ``reach`` is where the room server is reached (shown on the
    waiting screen), ``this_network`` whether it is the game's own server (reached on this network
    only), ``hosted`` whether the room lives in that server."""

    def __init__(self, session: FriendGame, *, reach: str, this_network: bool, hosted: bool):
        self.session = session
        self.reach = reach
        self.this_network = this_network
        self.hosted = hosted
        self.connection = "connecting"  # ours: connecting | connected | reconnecting | gave_up
        self.detail = ""  # why the connection is down, or the next try, in a player's words
        self._down_since: float | None = None  # time.monotonic() when ours dropped

    # --- the Opponent protocol: the friend plays and answers when they will ------------------------

    def request_move(self, game: Game, mode: Mode) -> None:
        """Nothing to ask: the friend's move arrives when they make it."""

    def ask_draw(self, game: Game, mode: Mode) -> None:
        """Nothing to ask: the offer rode on the move; the friend accepts it or moves instead."""

    def cancel(self) -> None:
        """Nothing to forget: every move the friend makes is the room's game."""

    def poll(self) -> list[FriendReply]:
        out: list[FriendReply] = []
        for event in self.session.poll():
            match event:
                case FriendMoved(move=move, offer_draw=offer):
                    out.append(OpponentMove(move, offer))
                case DrawAgreed():
                    out.append(DrawAnswer(True))
                case ConnectionChanged(status=status, detail=detail):
                    self._connection(status, detail)
                    out.append(event)
                case _:
                    out.append(event)
        return out

    def _connection(self, status: str, detail: str) -> None:
        self.connection, self.detail = status, detail
        if status == "connected":
            self._down_since = None
        elif self._down_since is None:
            self._down_since = time.monotonic()

    # --- the player's actions, applied to the controller's game already ----------------------------

    def played(self, move: Move, offer_draw: bool) -> None:
        self.session.play(move, offer_draw)

    def accepted_draw(self) -> None:
        self.session.accept_draw()

    def resigned(self) -> None:
        self.session.resign()

    def rematch(self) -> None:
        self.session.rematch()

    def close(self) -> None:
        """Leave the room's connection (the seat stays the player's: the room keeps it)."""
        self.session.close()

    # --- what the controller reads --------------------------------------------------------------

    @property
    def is_connected(self) -> bool:
        return self.connection == "connected"

    @property
    def room(self) -> Room | None:
        """The player's seat, once the room server has given it."""
        s = self.session
        return Room(s.link, s.seat, self.hosted, s.opponent) if s.link is not None and s.seat is not None else None

    @property
    def friend_connected(self) -> bool:
        return self.session.friend_connected

    def friend_away_s(self, now: float | None = None) -> float | None:
        """Seconds the friend has been disconnected (None while connected, or before they joined)."""
        return self.session.friend_away_s(now)

    def down_s(self, now: float | None = None) -> float | None:
        """Seconds our own connection has been down (None while it is up)."""
        if self._down_since is None or self.connection == "connecting":
            return None
        return (time.monotonic() if now is None else now) - self._down_since

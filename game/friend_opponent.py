"""A friend on another machine as the controller's opponent (``game.opponent``), and where their rooms
are opened.

:class:`Rooms` opens a room (or joins one, or returns to a seat) on the room server named in Settings,
or, when none is, on the game's own server: an ``EmbeddedServer`` on a background thread, started for
the first room and stopped when no room of this program needs it. Each room is a
:class:`FriendOpponent`: the room's ``FriendGame`` (``game.online.session``) adapted to the
:class:`~game.opponent.Opponent` protocol. The friend's moves come as :class:`~game.opponent.OpponentMove`,
the friend's acceptance of the player's draw offer as ``DrawAnswer(True)`` (a move instead of an
answer declines it); the rest of the room's news (its link, a game started, the friend resigned, the
connections, a rematch asked for) comes as the session's own events. The player's moves and actions
are told to the room with :meth:`FriendOpponent.played` and its siblings, and the server checks each.

This module loads the rules engine (the session replays the server's games): the controller imports
it only once a friend's game is asked for.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from game.online.protocol import DEFAULT_PORT, Link, ServerAddress, parse_link, parse_server_address
from game.online.server import EmbeddedServer
from game.online.session import (
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
)
from game.opponent import DrawAnswer, OpponentMove, Reply
from game.phases import Room

if TYPE_CHECKING:
    from engine import Move
    from engine.game import Game
    from game.phases import Mode

# what the controller takes from a friend: replies as from any opponent, and the room's own news
RoomNews = RoomOpened | GameStarted | FriendResigned | Resynced | Refused | FriendPresence | RematchAsked | ConnectionChanged
FriendReply = Reply | RoomNews

__all__ = ["ConnectionChanged", "FriendOpponent", "FriendPresence", "FriendReply", "FriendResigned", "GameStarted",
           "RematchAsked", "Refused", "Resynced", "RoomNews", "RoomOpened", "Rooms"]


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
        return Room(s.link, s.seat, self.hosted) if s.link is not None and s.seat is not None else None

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


class Rooms:
    """Opens friends' rooms: on the server given (``server``, as Settings has it), or on the game's own
    server when none is. The own server listens on ``listen`` (every interface, so a friend on the
    network reaches it) at ``port``, or any free port when that one is taken; ``client_options`` go to
    each room's client (reconnection timings, for tests)."""

    def __init__(self, *, listen: str = "0.0.0.0", port: int = DEFAULT_PORT, advertise: str | None = None,
                 client_options: dict[str, Any] | None = None):
        self.listen, self.port, self.advertise = listen, port, advertise
        self.client_options = dict(client_options or {})
        self.embedded: EmbeddedServer | None = None

    @property
    def is_hosting(self) -> bool:
        """Whether the game's own room server is running (its rooms are alive)."""
        return self.embedded is not None

    def create(self, variant: str, server: str = "") -> FriendOpponent:
        """A new room with these rules; the player moves first. ``InvalidLinkError`` for a bad server
        address, ``OSError`` when the own server can't listen."""
        if server.strip():
            address = parse_server_address(server)
            session = FriendGame.create(address, variant, **self.client_options)
            return FriendOpponent(session, reach=address.url.rstrip("/"), this_network=False, hosted=False)
        own = self._host()
        assert own.address is not None
        session = FriendGame.create(self._local_url(own), variant, **self.client_options)
        return FriendOpponent(session, reach=f"{own.address.host}:{own.address.port}", this_network=True, hosted=True)

    def join(self, link: str) -> FriendOpponent:
        """Take the free seat of the room ``link`` names (``InvalidLinkError`` quotes a bad one)."""
        parsed = parse_link(link)
        session = FriendGame.join(parsed, **self.client_options)
        return FriendOpponent(session, reach=parsed.server.url.rstrip("/"), this_network=False, hosted=False)

    def resume(self, room: Room) -> FriendOpponent:
        """Return to the player's seat in ``room`` (a room of the own server only while it runs)."""
        parsed = parse_link(room.link)
        if room.hosted and self.embedded is not None:
            local = Link(parse_server_address(self._local_url(self.embedded)), parsed.room)
            session = FriendGame.resume(local, room.secret, **self.client_options)
        else:
            session = FriendGame.resume(parsed, room.secret, **self.client_options)
        return FriendOpponent(session, reach=parsed.server.url.rstrip("/"), this_network=room.hosted, hosted=room.hosted)

    def stop_hosting(self) -> None:
        """Stop the game's own room server (its rooms end with it)."""
        if self.embedded is not None:
            self.embedded.stop()
            self.embedded = None

    def close(self) -> None:
        self.stop_hosting()

    def _host(self) -> EmbeddedServer:
        if self.embedded is None:
            try:
                server = EmbeddedServer(self.listen, self.port, advertise=self.advertise)
                server.start()
            except OSError:  # the usual port is taken (another game hosting on this machine): any free one
                server = EmbeddedServer(self.listen, 0, advertise=self.advertise)
                server.start()
            self.embedded = server
        return self.embedded

    def _local_url(self, server: EmbeddedServer) -> str:
        """How this program reaches its own server: through loopback when it listens there."""
        assert server.address is not None
        host = "127.0.0.1" if self.listen in ("", "0.0.0.0") else self.listen
        return ServerAddress(host, server.address.port).url

"""Where friends' rooms are opened: on the room server named in Settings, or, when none is, on the
game's own server (an ``EmbeddedServer`` on a background thread, started for the first room and
stopped when no room of this program needs it).

The game makes its :class:`Rooms` at launch, but nothing of friend play loads until the player opens
a room, joins one or returns to one: the WebSocket client and server, SQLite (the server's store) and
the room's session (which replays games with the rules engine) are imported then, so the window
process does not carry them for a player who never plays a friend.
"""

from __future__ import annotations

import errno
import logging
from typing import TYPE_CHECKING, Any

from game.online.protocol import DEFAULT_PORT, Link, ServerAddress, parse_link, parse_server_address

if TYPE_CHECKING:
    from game.friend.opponent import FriendOpponent
    from game.modes import Room
    from game.online.server import EmbeddedServer

log = logging.getLogger("checkers3d.online")


class HostingError(OSError):
    """The game's own room server could not start: the message says what failed in a player's words,
    ``advice`` what to try (the system's errors are in the log, ``checkers3d.online``)."""

    def __init__(self, message: str, advice: str):
        super().__init__(message)
        self.advice = advice


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

    def create(self, variant: str, server: str = "", clock: bool = False) -> FriendOpponent:
        """A new room with these rules (and the game clock, with ``clock``); the player moves first.
        ``InvalidLinkError`` for a bad server address, :class:`HostingError` when the own server can't
        listen."""
        from game.friend.opponent import FriendOpponent
        from game.friend.session import FriendGame

        if server.strip():
            address = parse_server_address(server)
            session = FriendGame.create(address, variant, clock, **self.client_options)
            return FriendOpponent(session, reach=address.url.rstrip("/"), this_network=False, hosted=False)
        own = self._host()
        assert own.address is not None
        session = FriendGame.create(self._local_url(own), variant, clock, **self.client_options)
        return FriendOpponent(session, reach=f"{own.address.host}:{own.address.port}", this_network=True, hosted=True)

    def seek(self, variant: str, server: str, nickname: str) -> FriendOpponent:
        """"Play someone online": be paired on the room server ``server`` (never the game's own: both
        players must reach it) with the next player seeking these rules; ``InvalidLinkError`` for a
        bad address."""
        from game.friend.opponent import FriendOpponent
        from game.friend.session import FriendGame

        address = parse_server_address(server)
        session = FriendGame.seek(address, variant, nickname, **self.client_options)
        return FriendOpponent(session, reach=address.url.rstrip("/"), this_network=False, hosted=False)

    def join(self, link: str) -> FriendOpponent:
        """Take the free seat of the room ``link`` names (``InvalidLinkError`` quotes a bad one)."""
        from game.friend.opponent import FriendOpponent
        from game.friend.session import FriendGame

        parsed = parse_link(link)
        session = FriendGame.join(parsed, **self.client_options)
        return FriendOpponent(session, reach=parsed.server.url.rstrip("/"), this_network=False, hosted=False)

    def resume(self, room: Room) -> FriendOpponent:
        """Return to the player's seat in ``room`` (a room of the own server only while it runs)."""
        from game.friend.opponent import FriendOpponent
        from game.friend.session import FriendGame

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
        from game.online.server import EmbeddedServer

        if self.embedded is None:
            try:
                server = EmbeddedServer(self.listen, self.port, advertise=self.advertise)
                server.start()
            except OSError as taken:  # the usual port is taken (another game hosting on this machine): any free one
                log.info("this computer's room server could not listen on %s port %d: %s", self.listen, self.port, taken)
                try:
                    server = EmbeddedServer(self.listen, 0, advertise=self.advertise)
                    server.start()
                except OSError as err:
                    log.warning("this computer's room server could not listen on %s port %d, nor on any free port: %s",
                                self.listen, self.port, err)
                    raise self._hosting_error(err) from err
            self.embedded = server
        return self.embedded

    def _hosting_error(self, err: OSError) -> HostingError:
        """Why the own server could not listen, in a player's words, and what to try."""
        elsewhere = "or set a room server under Settings, “Room server”."
        if err.errno == errno.EADDRNOTAVAIL:  # --room-host names an address this computer doesn't have
            return HostingError(f"this computer's room server could not start: {self.listen} (given with --room-host) "
                                "is not an address of this computer", "Start the game again without --room-host or "
                                "with an address of this computer, " + elsewhere)
        return HostingError(f"this computer's room server could not start on port {self.port}, nor on any other "
                            "free port", "Restart the game and try again, " + elsewhere)

    def _local_url(self, server: EmbeddedServer) -> str:
        """How this program reaches its own server: through loopback when it listens there."""
        assert server.address is not None
        host = "127.0.0.1" if self.listen in ("", "0.0.0.0") else self.listen
        return ServerAddress(host, server.address.port).url

"""The room server: two players per room, one authoritative ``engine.game.Game`` per room.

Every move is checked by the rules engine; draw offers (with their re-offer limits), resignations and
every automatic draw are the engine's; after every change both players get the room's ``state``.
``docs/online-protocol.md`` describes what goes over the wire; ``game.online.protocol`` has its types.

Run it on its own (``checkers3d-server --help``; rooms in SQLite with ``--db``) or inside the game
(:class:`EmbeddedServer`: a background thread, rooms in memory). It imports neither pygame nor moderngl.

How a room lives:

* ``create`` makes it and seats the creator (seat 0, the side that moves first in game 1);
  ``join`` seats the friend (seat 1); the game starts then. Each seat has a secret that only its player
  gets (in ``joined``); ``resume`` with it returns a player to the seat, from any new connection, which
  replaces an older one still holding the seat.
* After a game, ``rematch`` from both players starts the next one with colours swapped.
* A room is deleted when neither player has been connected for ``idle_timeout`` seconds, and
  ``max_age`` seconds after it was made; connections still in it are closed with code 4000.

One line per room event goes to the ``checkers3d.server`` logger (standard error from the command
line); moves are logged at DEBUG (``--verbose``).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hmac
import logging
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from websockets.asyncio.connection import broadcast
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from engine import Color, variant_named, version
from engine.game import DrawOfferError, Game, InvalidGameRecordError, Reason
from engine.position import IllegalMoveError
from engine.variants import Variant

from .protocol import (
    CLOSE_ROOM_GONE,
    CLOSE_SEAT_TAKEN,
    DEFAULT_PORT,
    MAX_MESSAGE_BYTES,
    RATE_LIMIT_MESSAGES,
    RATE_WINDOW_S,
    AcceptDraw,
    BadMessage,
    ClientMessage,
    Create,
    Error,
    InvalidLinkError,
    Join,
    Joined,
    Ping,
    Player,
    PlayMove,
    Pong,
    Rematch,
    Resign,
    Result,
    Resume,
    ServerAddress,
    State,
    encode,
    new_room_id,
    new_seat_secret,
    parse_client,
    parse_server_address,
)
from .store import RoomRecord, RoomStore

log = logging.getLogger("checkers3d.server")

HOST, GUEST = 0, 1  # the seats: the room's creator and the friend who joined


class Refusal(Exception):
    """A request the server refuses; the client gets ``error`` with this code and message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class Peer:
    """One connection: the seat it holds (if any) and its recent message times for the rate limit."""

    def __init__(self, conn: ServerConnection, rate_limit: int):
        self.conn = conn
        self.room: Room | None = None
        self.player: int | None = None
        self._times: deque[float] = deque(maxlen=rate_limit)

    def allow(self, now: float) -> bool:
        """Whether one more message fits in the rate limit (refused messages don't count)."""
        if len(self._times) == self._times.maxlen and now - self._times[0] < RATE_WINDOW_S:
            return False
        self._times.append(now)
        return True


class Seat:
    """A player's place in a room: the secret that proves it, the connection on it now (if any) and
    when its player was last connected (unix time)."""

    def __init__(self, secret: str, last_seen: float):
        self.secret = secret
        self.peer: Peer | None = None
        self.last_seen = last_seen


class Room:
    """A room: its rules, two seats, the game being played (numbered from 1) and the rematch requests.

    The game record is replayed from the stored one only when first needed, so a server restarting
    on a database of many rooms is serving at once."""

    def __init__(self, room_id: str, variant: Variant, created: float, host_secret: str, *,
                 game_number: int = 1, record: dict | None = None):
        self.id = room_id
        self.variant = variant
        self.created = created
        self.last_seen = created  # unix time a player was last connected (now, while one is)
        self.seats: list[Seat | None] = [Seat(host_secret, created), None]
        self.game_number = game_number
        self.rematch: set[int] = set()
        self.ended_logged = 0  # the last game whose end is in the log
        self._game: Game | None = None if record is not None else Game(variant)
        self._stored = record  # the stored record, until the game is replayed from it
        # each move's text and draw-offer flag, kept as played (Game.to_dict would redo every one)
        self._texts: list[str] = list(record["moves"]) if record is not None else []
        self._offers: list[bool] = (list(record.get("draw_offers", [False] * len(self._texts))) if record is not None
                                    else [])

    # --- the game ---------------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        if self._game is None:
            assert self._stored is not None
            game = Game.from_dict(self._stored)
            if game.variant != self.variant:
                raise InvalidGameRecordError(f"room {self.id}: a {game.variant.name} game in a {self.variant.name} room")
            self._game, self._stored = game, None
        return self._game

    def play(self, text: str, offer_draw: bool) -> None:
        """Play move text for the side to move (the engine's errors pass through; nothing changes then)."""
        game = self.game
        before = game.position
        move = game.play(text, offer_draw=offer_draw)
        self._texts.append(before.move_text(move))
        self._offers.append(offer_draw)

    def record(self) -> dict:
        """The game as ``Game.to_dict`` gives it."""
        if self._game is None:
            assert self._stored is not None
            return self._stored
        outcome = self._game.outcome
        resigned = None
        if outcome is not None and outcome.reason is Reason.RESIGNATION:
            assert outcome.winner is not None
            resigned = outcome.winner.opponent.label
        return {"variant": self.variant.name, "start": self._game.start.fen(), "moves": list(self._texts),
                "draw_offers": list(self._offers), "resigned": resigned,
                "draw_agreed": outcome is not None and outcome.reason is Reason.AGREEMENT}

    def new_game(self) -> None:
        """The rematch: the next game from the start, colours swapped."""
        self.game_number += 1
        self._game, self._stored = Game(self.variant), None
        self._texts, self._offers = [], []
        self.rematch.clear()

    @property
    def is_started(self) -> bool:
        return self.seats[GUEST] is not None

    def color_of(self, player: int) -> Color:
        """The colour ``player`` plays in the current game: the host moves first in odd games."""
        first = self.variant.first_player
        return first if (player + self.game_number - 1) % 2 == 0 else first.opponent

    def player_with(self, secret: str) -> int | None:
        found = None
        for player, seat in enumerate(self.seats):  # compare every seat, in constant time
            if seat is not None and hmac.compare_digest(seat.secret.encode(), secret.encode()):
                found = player
        return found

    def peers(self) -> list[Peer]:
        return [s.peer for s in self.seats if s is not None and s.peer is not None]

    def expiry(self, now: float, idle_timeout: float, max_age: float) -> str | None:
        """Why the room is to be deleted now, or None."""
        if now - self.created >= max_age:
            return f"older than {max_age:g} s"
        if not self.peers() and now - self.last_seen >= idle_timeout:
            return f"nobody connected for {idle_timeout:g} s"
        return None

    # --- what goes out ----------------------------------------------------------------------------

    def state_for(self, player: int, now: float) -> State:
        g, record = self.game, self.record()
        players = {}
        for p, seat in enumerate(self.seats):
            if seat is None:
                info = Player(connected=False, seated=False)
            elif seat.peer is not None:
                info = Player(connected=True)
            else:
                info = Player(connected=False, away_s=round(max(0.0, now - seat.last_seen), 1))
            players[self.color_of(p).label] = info
        outcome = g.outcome
        offer = g.pending_offer
        return State(
            room=self.id, variant=self.variant.name, game=self.game_number, start_fen=record["start"],
            moves=tuple(record["moves"]), fen=g.position.fen(), to_move=g.turn.label,
            outcome=Result(outcome.result, outcome.reason.value) if outcome else None,
            draw_offer=offer.label if offer is not None else None, players=players, you=self.color_of(player).label,
            offered_at=tuple(i for i, o in enumerate(record["draw_offers"]) if o),
            rematch=tuple(sorted(self.color_of(p).label for p in self.rematch)))

    # --- stored form ------------------------------------------------------------------------------

    def to_record(self) -> RoomRecord:
        secrets = tuple(s.secret if s is not None else None for s in self.seats)
        connected = tuple(s is not None and s.peer is not None for s in self.seats)
        return RoomRecord(self.id, self.variant.name, self.created, self.last_seen, self.game_number,
                          (secrets[0] or "", secrets[1]), (connected[0], connected[1]), self.record(),
                          tuple(sorted(self.rematch)))

    @classmethod
    def from_record(cls, r: RoomRecord, now: float) -> "Room":
        """A stored room, every seat disconnected. A room whose players were connected when the server
        stopped counts its idle time from ``now``: they had no chance to come back yet."""
        room = cls(r.id, variant_named(r.variant), r.created, r.secrets[0], game_number=r.game_number, record=r.record)
        room.last_seen = now if any(r.connected) else r.last_seen
        seat = room.seats[HOST]
        assert seat is not None
        seat.last_seen = room.last_seen
        if r.secrets[1] is not None:
            room.seats[GUEST] = Seat(r.secrets[1], room.last_seen)
        room.rematch = {p for p in r.rematch if p in (HOST, GUEST)}
        return room


class RoomServer:
    """The rooms and what each message does to them. ``handle`` is the WebSocket handler; with a
    ``store`` every change is written before it is acknowledged. ``public`` is the address links carry
    (default: the one each client connected to, from its request's Host header)."""

    def __init__(self, *, store: RoomStore | None = None, idle_timeout: float = 1800.0, max_age: float = 86400.0,
                 max_rooms: int = 10000, public: ServerAddress | None = None, sweep_interval: float | None = None,
                 rate_limit: int = RATE_LIMIT_MESSAGES):
        self.store = store
        self.rate_limit = rate_limit
        self.idle_timeout = idle_timeout
        self.max_age = max_age
        self.max_rooms = max_rooms
        self.public = public
        self.sweep_interval = sweep_interval or min(60.0, max(0.05, min(idle_timeout, max_age) / 4))
        self.rooms: dict[str, Room] = {}
        if store is not None:
            now = time.time()
            for r in store.load():
                try:
                    self.rooms[r.id] = Room.from_record(r, now)
                except (ValueError, IndexError, KeyError, TypeError) as err:
                    log.error("room %s: stored room unreadable, skipped: %s", r.id, err)

    # --- connections ------------------------------------------------------------------------------

    async def handle(self, conn: ServerConnection) -> None:
        """One connection, from its first message to its close."""
        peer = Peer(conn, self.rate_limit)
        try:
            async for text in conn:
                await self._receive(peer, text)
        except ConnectionClosed:
            pass
        finally:
            self._leave(peer)

    async def _receive(self, peer: Peer, text: str | bytes) -> None:
        if not peer.allow(time.monotonic()):
            self._send(peer, Error("rate_limited", f"more than {self.rate_limit} messages in "
                                                   f"{RATE_WINDOW_S:g} s: message ignored"))
            return
        try:
            message = parse_client(text)
        except BadMessage as err:
            self._send(peer, Error("bad_message", str(err)))
            return
        try:
            await self._dispatch(peer, message)
        except Refusal as r:
            self._send(peer, Error(r.code, r.message))

    async def _dispatch(self, peer: Peer, m: ClientMessage) -> None:
        if isinstance(m, Ping):
            self._send(peer, Pong())
        elif isinstance(m, Create):
            await self._create(peer, m)
        elif isinstance(m, Join):
            await self._join(peer, m)
        elif isinstance(m, Resume):
            await self._resume(peer, m)
        elif isinstance(m, PlayMove):
            await self._move(peer, m)
        elif isinstance(m, AcceptDraw):
            await self._accept_draw(peer)
        elif isinstance(m, Resign):
            await self._resign(peer)
        elif isinstance(m, Rematch):
            await self._rematch(peer)

    def _send(self, peer: Peer, message: Joined | State | Pong | Error) -> None:
        # broadcast() writes at once, in call order, and skips a closing connection
        broadcast([peer.conn], encode(message))

    # --- entering a room --------------------------------------------------------------------------

    async def _create(self, peer: Peer, m: Create) -> None:
        if len(self.rooms) >= self.max_rooms:
            raise Refusal("too_many_rooms", f"the server holds its limit of {self.max_rooms} rooms; try again later")
        now = time.time()
        room = Room(new_room_id(), variant_named(m.variant), now, new_seat_secret())
        self.rooms[room.id] = room
        self._leave(peer)
        await self._save(room)
        log.info("room %s created: %s (%d rooms)", room.id, room.variant.name, len(self.rooms))
        self._seat_peer(peer, room, HOST)

    async def _join(self, peer: Peer, m: Join) -> None:
        room = self._room(m.room)
        if room.seats[GUEST] is not None:
            raise Refusal("room_full", f"room {room.id} has two players already")
        room.seats[GUEST] = Seat(new_seat_secret(), time.time())  # taken now; connected once stored
        self._leave(peer)
        await self._save(room)
        log.info("room %s joined", room.id)
        self._seat_peer(peer, room, GUEST)

    async def _resume(self, peer: Peer, m: Resume) -> None:
        room = self._room(m.room)
        player = room.player_with(m.seat)
        if player is None:
            raise Refusal("bad_seat", f"that is not the secret of a seat in room {room.id}")
        seat = room.seats[player]
        assert seat is not None
        old = seat.peer
        if old is not peer:
            self._leave(peer)
            if old is not None:  # a connection left over from before (its network went away unnoticed)
                old.room = old.player = None
                seat.peer = None
                asyncio.get_running_loop().create_task(old.conn.close(CLOSE_SEAT_TAKEN, "seat resumed elsewhere"))
        log.info("room %s: %s resumed", room.id, room.color_of(player).label)
        self._seat_peer(peer, room, player)
        self._save_later(room)

    def _seat_peer(self, peer: Peer, room: Room, player: int) -> None:
        """Put the connection on its seat, tell it (``joined``) and tell both (``state``)."""
        seat = room.seats[player]
        assert seat is not None
        if room.id not in self.rooms:  # expired while being stored
            raise Refusal("no_such_room", f"room {room.id} has just expired")
        peer.room, peer.player = room, player
        seat.peer = peer
        now = time.time()
        seat.last_seen = room.last_seen = now
        self._send(peer, Joined(room.id, seat.secret, room.color_of(player).label, self._address(peer).link(room.id)))
        self._broadcast(room)

    def _leave(self, peer: Peer) -> None:
        """The connection leaves its seat (it closed, or it enters another room): the other player is told."""
        room, player = peer.room, peer.player
        if room is None or player is None:
            return
        peer.room = peer.player = None
        seat = room.seats[player]
        if seat is None or seat.peer is not peer:
            return
        seat.peer = None
        seat.last_seen = room.last_seen = time.time()
        if room.id in self.rooms:
            log.info("room %s: %s disconnected", room.id, room.color_of(player).label)
            self._save_later(room)
            self._broadcast(room)

    def _room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise Refusal("no_such_room", f"there is no room {room_id!r} (it may have expired)")
        try:
            room.game  # noqa: B018 - a stored record is replayed here, once
        except InvalidGameRecordError as err:
            log.error("room %s: stored game unreadable, room deleted: %s", room.id, err)
            self._expire(room, "unreadable record")
            raise Refusal("no_such_room", f"there is no room {room_id!r} (its record was unreadable)") from None
        return room

    def _address(self, peer: Peer) -> ServerAddress:
        """Where this client reached us: ``public`` if set, else the request's Host (and a proxy's
        X-Forwarded-Proto for TLS), else the socket's own address."""
        if self.public is not None:
            return self.public
        request = peer.conn.request
        host = request.headers.get("Host") if request is not None else None
        if host:
            secure = request is not None and request.headers.get("X-Forwarded-Proto", "").lower() in ("https", "wss")
            try:
                return parse_server_address(f"{'wss' if secure else 'ws'}://{host}")
            except InvalidLinkError:
                pass
        local = peer.conn.local_address
        return ServerAddress(str(local[0]), int(local[1]))

    # --- playing ----------------------------------------------------------------------------------

    def _seated(self, peer: Peer) -> tuple[Room, int]:
        if peer.room is None or peer.player is None:
            raise Refusal("not_in_room", "send create, join or resume first")
        if not peer.room.is_started:
            raise Refusal("not_your_turn", "the game starts when your friend joins")
        return peer.room, peer.player

    @staticmethod
    def _check_not_over(room: Room) -> None:
        outcome = room.game.outcome
        if outcome is not None:
            raise Refusal("game_over", f"the game is over ({outcome.result}, {outcome.reason})")

    async def _move(self, peer: Peer, m: PlayMove) -> None:
        room, player = self._seated(peer)
        self._check_not_over(room)
        game, color = room.game, room.color_of(player)
        if game.turn is not color:
            raise Refusal("not_your_turn", f"it is {game.turn.label}'s move")
        try:
            room.play(m.move, m.offer_draw)
        except DrawOfferError as err:
            raise Refusal("no_offer", f"no draw offer allowed now, the move was not played: {err}") from None
        except IllegalMoveError as err:
            raise Refusal("illegal_move", str(err)) from None
        log.debug("room %s: %s %s%s", room.id, color.label, m.move, " (offers a draw)" if m.offer_draw else "")
        await self._commit(room)

    async def _accept_draw(self, peer: Peer) -> None:
        room, player = self._seated(peer)
        self._check_not_over(room)
        if room.game.pending_offer is not room.color_of(player).opponent:
            raise Refusal("no_offer", "there is no draw offer from your opponent to accept")
        room.game.accept_draw()
        await self._commit(room)

    async def _resign(self, peer: Peer) -> None:
        room, player = self._seated(peer)
        self._check_not_over(room)
        room.game.resign(room.color_of(player))
        await self._commit(room)

    async def _rematch(self, peer: Peer) -> None:
        room, player = self._seated(peer)
        if room.game.outcome is None:
            raise Refusal("not_your_turn", "a rematch can be asked for once the game is over")
        room.rematch.add(player)
        if room.rematch == {HOST, GUEST}:
            room.new_game()
            log.info("room %s: game %d starts, colours swapped", room.id, room.game_number)
        await self._commit(room)

    async def _commit(self, room: Room) -> None:
        """Store the changed room, then tell both players (their ``state`` is the acknowledgement)."""
        await self._save(room)
        outcome = room.game.outcome
        if outcome is not None and room.ended_logged < room.game_number:
            room.ended_logged = room.game_number
            log.info("room %s: game %d over: %s (%s)", room.id, room.game_number, outcome.result, outcome.reason)
        self._broadcast(room)

    def _broadcast(self, room: Room) -> None:
        now = time.time()
        for peer in room.peers():
            if peer.player is not None:
                self._send(peer, room.state_for(peer.player, now))

    # --- storage ----------------------------------------------------------------------------------

    async def _save(self, room: Room) -> None:
        if self.store is not None:
            await self.store.save(room.id, room.to_record)

    def _save_later(self, room: Room) -> None:
        """Store without waiting (who is connected, when last seen: nothing a player waits on)."""
        if self.store is not None:
            self.store.save(room.id, room.to_record).add_done_callback(_ignore_result)

    # --- expiry -----------------------------------------------------------------------------------

    def sweep(self, now: float | None = None) -> int:
        """Delete the rooms whose time is up; returns how many."""
        now = time.time() if now is None else now
        expired = [(room, why) for room in self.rooms.values()
                   if (why := room.expiry(now, self.idle_timeout, self.max_age)) is not None]
        for room, why in expired:
            self._expire(room, why)
        return len(expired)

    def _expire(self, room: Room, why: str) -> None:
        self.rooms.pop(room.id, None)
        if self.store is not None:
            self.store.delete(room.id).add_done_callback(_ignore_result)
        for peer in room.peers():
            peer.room = peer.player = None
            asyncio.get_running_loop().create_task(peer.conn.close(CLOSE_ROOM_GONE, "room expired"))
        log.info("room %s deleted: %s (%d rooms)", room.id, why, len(self.rooms))

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval)
            self.sweep()


def _ignore_result(future: asyncio.Future) -> None:
    if not future.cancelled():
        future.exception()  # already logged by the store; this only marks it retrieved


# --- running it -------------------------------------------------------------------------------------


def warm_engine() -> None:
    """Load the rules engine's kernels (numba) before the first player waits on them."""
    for name in ("american", "international"):
        Game(variant_named(name)).position.legal_moves()


async def run(server: RoomServer, host: str, port: int, stop: asyncio.Event, *,
              ready: Callable[[str, int], None] | None = None, ping_interval: float = 20.0) -> None:
    """Serve ``server`` on host:port (0: any free port) until ``stop`` is set; ``ready(host, port)`` is
    called once listening. Messages over :data:`MAX_MESSAGE_BYTES` close their connection (1009)."""
    if server.store is not None:
        server.store.start()
    try:
        async with serve(server.handle, host, port, max_size=MAX_MESSAGE_BYTES, compression=None,
                         ping_interval=ping_interval, ping_timeout=ping_interval) as ws:
            bound_host, bound_port = ws.sockets[0].getsockname()[:2]
            log.info("listening on %s:%d (%d rooms)", bound_host, bound_port, len(server.rooms))
            if ready is not None:
                ready(bound_host, bound_port)
            sweeper = asyncio.get_running_loop().create_task(server.sweep_forever())
            try:
                await stop.wait()
            finally:
                sweeper.cancel()
    finally:
        if server.store is not None:
            await server.store.close()


def lan_address() -> str:
    """This machine's address on its local network (what a friend on the same network connects to),
    or 127.0.0.1 when it has none. A UDP socket "connected" to a documentation address (RFC 5737)
    learns the interface of the default route; connecting a UDP socket sends no packet."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address = s.getsockname()[0]
            if address and not address.startswith(("127.", "0.")):
                return address
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith(("127.", "0.")):
                return address
    except OSError:
        pass
    return "127.0.0.1"


class EmbeddedServer:
    """The room server on a background thread (what the game runs for "Play a friend" when no server is
    configured): rooms in memory unless ``db`` is given.

    ``host`` is the address to listen on (every interface by default, so a friend on the network can
    connect; tests pass 127.0.0.1), ``port`` 0 for any free one. Links carry ``advertise``: by default
    :func:`lan_address` when listening on every interface, else ``host``."""

    def __init__(self, host: str = "0.0.0.0", port: int = 0, *, advertise: str | None = None,
                 db: str | Path | None = None, idle_timeout: float = 1800.0, max_age: float = 86400.0,
                 max_rooms: int = 10000, sweep_interval: float | None = None, ping_interval: float = 20.0,
                 rate_limit: int = RATE_LIMIT_MESSAGES):
        self.host, self.port = host, port
        self._advertise = advertise
        self._make_server = functools.partial(RoomServer, idle_timeout=idle_timeout, max_age=max_age,
                                              max_rooms=max_rooms, sweep_interval=sweep_interval, rate_limit=rate_limit)
        self._db = db
        self._ping_interval = ping_interval
        self.server: RoomServer | None = None
        self.address: ServerAddress | None = None  # what links carry, once started
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def start(self, timeout: float = 30.0) -> ServerAddress:
        """Start listening; returns the address links carry. OSError when the port can't be had."""
        self._thread = threading.Thread(target=self._run, name="checkers3d-room-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError(f"the room server did not start within {timeout:g} s")
        if self._error is not None:
            raise self._error
        assert self.address is not None
        return self.address

    @property
    def url(self) -> str:
        """The WebSocket URL this machine connects to."""
        assert self.address is not None, "start() first"
        return self.address.url

    def stop(self, timeout: float = 10.0) -> None:
        """Close every connection, stop listening, and wait for the thread."""
        if self._loop is not None and self._stop is not None:
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:  # the loop has already ended
                pass
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> "EmbeddedServer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as err:  # reported to start(); a running server only ends by stop()
            self._error = err
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = self._make_server(store=RoomStore(self._db) if self._db is not None else None)
        self.server = server

        def ready(host: str, port: int) -> None:
            advertise = self._advertise or (lan_address() if self.host in ("", "0.0.0.0", "::") else host)
            self.address = server.public = ServerAddress(advertise, port)
            self._ready.set()

        await run(server, self.host, self.port, self._stop, ready=ready, ping_interval=self._ping_interval)


# --- command line -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``checkers3d-server``: the room server on its own, until SIGTERM or Ctrl+C."""
    p = argparse.ArgumentParser(prog="checkers3d-server",
                                description="The Checkers 3D room server: play a friend through a link.")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free one)")
    p.add_argument("--db", metavar="FILE", help="keep rooms in this SQLite file (default: in memory)")
    p.add_argument("--idle-timeout", type=float, default=1800.0, metavar="S",
                   help="delete a room nobody has been connected to for S seconds (default 1800)")
    p.add_argument("--max-age", type=float, default=86400.0, metavar="S",
                   help="delete a room S seconds after it was made (default 86400)")
    p.add_argument("--max-rooms", type=int, default=10000, metavar="N", help="refuse new rooms beyond N (default 10000)")
    p.add_argument("--rate-limit", type=int, default=RATE_LIMIT_MESSAGES, metavar="N",
                   help=f"messages a second one connection may send (default {RATE_LIMIT_MESSAGES})")
    p.add_argument("--public-url", metavar="URL",
                   help="the address links carry, e.g. wss://rooms.example.org (default: the address each client used)")
    p.add_argument("--verbose", action="store_true", help="log every move too")
    p.add_argument("--version", action="version", version=f"checkers3d-server {version()}")
    args = p.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)  # handshake noise is not a room event
    try:
        public = parse_server_address(args.public_url) if args.public_url else None
    except InvalidLinkError as err:
        p.error(str(err))
    if args.idle_timeout <= 0 or args.max_age <= 0 or args.max_rooms < 1 or args.rate_limit < 1:
        p.error("--idle-timeout and --max-age must be positive, --max-rooms and --rate-limit at least 1")
    warm_engine()
    try:
        store = RoomStore(args.db) if args.db else None
    except Exception as err:  # sqlite3.Error, an unknown schema: say which file and why
        p.error(f"can't open the rooms database {args.db}: {err}")
    server = RoomServer(store=store, idle_timeout=args.idle_timeout, max_age=args.max_age,
                        max_rooms=args.max_rooms, public=public, rate_limit=args.rate_limit)

    async def serve_until_signal() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await run(server, args.host, args.port, stop)
        log.info("stopped (%d rooms)", len(server.rooms))

    try:
        asyncio.run(serve_until_signal())
    except OSError as err:
        log.error("can't serve on %s:%d: %s", args.host, args.port, err)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

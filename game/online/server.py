"""The room server: two players per room, one authoritative ``engine.game.Game`` per room.

Every move is checked by the rules engine; draw offers (with their re-offer limits), resignations and
every automatic draw are the engine's, the clocks (:mod:`game.online.clock`) the server's; after every
change both players get the room's ``state``. ``docs/online-protocol.md`` describes what goes over the
wire; ``game.online.protocol`` has its types.

Run it on its own (``checkers3d-server --help``; rooms in SQLite with ``--db``) or inside the game
(:class:`EmbeddedServer`: a background thread, rooms in memory). It imports neither pygame nor moderngl.

How a room lives:

* ``create`` makes it and seats the creator (seat 0, the side that moves first in game 1), with the
  clock or without; ``join`` seats the friend (seat 1); the game starts then. Or two ``seek`` messages
  for the same rules are paired: the server makes a room with both seated, colours drawn at random,
  with the clock. Each seat has a secret that only its player gets (in ``joined`` or ``paired``);
  ``resume`` with it returns a player to the seat, from any new connection, which replaces an older one
  still holding the seat.
* After a game, ``rematch`` from both players starts the next one with colours swapped.
* A room is deleted when neither player has been connected for ``idle_timeout`` seconds (a room
  nobody joined: ``unjoined_timeout`` after its host left), and ``max_age`` seconds after it was made;
  connections still in it are closed with code 4000.

With a store (``--db``), a change is on disk before it is anywhere else: the server builds the room as
it will be after the change, commits that, and only then changes the room in memory and tells the
players. A failed commit changes nothing (the sender gets ``server_error``), and no ``state`` that is
not on disk is ever sent.

What one client can take is bounded: messages (a rate limit, one ``rate_limited`` answer a window, a
flood closes the connection), unsent data (:data:`MAX_UNSENT_BYTES`; a client that stops reading is
dropped), rooms (one unjoined room per connection, ``max_rooms_per_address`` per address).

One line per room event goes to the ``checkers3d.server`` logger (standard error from the command
line); moves are logged at DEBUG (``--verbose``).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import hmac
import ipaddress
import logging
import math
import resource
import secrets
import signal
import socket
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path

from websockets.asyncio.connection import broadcast
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from engine import Color, variant_named, version
from engine.game import DrawOfferError, Game, InvalidGameRecordError, Reason
from engine.position import IllegalMoveError
from engine.variants import Variant

from .clock import ClockSettings, GameClock
from .protocol import (
    CLOSE_FLOOD,
    CLOSE_ROOM_GONE,
    CLOSE_SEAT_TAKEN,
    DEFAULT_PORT,
    FLOOD_FACTOR,
    MAX_MESSAGE_BYTES,
    MAX_UNSENT_BYTES,
    RATE_LIMIT_MESSAGES,
    RATE_WINDOW_S,
    AcceptDraw,
    BadMessage,
    CancelSeek,
    ClientMessage,
    Create,
    Error,
    InvalidLinkError,
    Join,
    Joined,
    Paired,
    Ping,
    Player,
    PlayMove,
    Pong,
    Rematch,
    Resign,
    Result,
    Resume,
    Seek,
    SeekCancelled,
    Seeking,
    ServerAddress,
    ServerMessage,
    State,
    encode,
    new_room_id,
    new_seat_secret,
    parse_client,
    parse_server_address,
)
from .store import RoomRecord, RoomStore, StoreError, seat_hash

log = logging.getLogger("checkers3d.server")

HOST, GUEST = 0, 1  # the seats: the room's creator and the friend who joined (in a paired room: either)
ACCEPT_ERROR_LOG_INTERVAL_S = 60.0  # a full accept queue (no file descriptors left) is logged this often
FLOOD_CLOSE_TIMEOUT_S = 1.0  # a flooding client gets this long to answer the close (its messages dropped)


class Refusal(Exception):
    """A request the server refuses; the client gets ``error`` with this code and message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class Connection(ServerConnection):
    """A server connection that is dropped, not waited on, once its unsent data passes
    :data:`MAX_UNSENT_BYTES`: :func:`run` makes that the transport's high-water mark, so asyncio calls
    :meth:`pause_writing` exactly when the client has stopped reading. Without this, answers (and the
    library's automatic pongs) pile up in memory without bound, and the keepalive ping waits in
    ``drain()`` behind them, so its timeout never starts."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        # the kernel's send buffer too: left to autotuning it grows to megabytes for a client that
        # reads nothing before a byte stays in ours
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, MAX_UNSENT_BYTES)
            except OSError:
                pass

    def pause_writing(self) -> None:
        super().pause_writing()
        log.warning("connection from %s dropped: more than %d KiB unsent (it reads nothing)",
                    _remote(self), MAX_UNSENT_BYTES // 1024)
        self.transport.abort()  # connection_lost() follows: the handler's loop ends, drain() waiters wake


def _remote(conn: ServerConnection) -> str:
    address = conn.remote_address
    return str(address[0]) if isinstance(address, tuple) else str(address)


def client_address(conn: ServerConnection) -> str:
    """The address a connection comes from, for the per-address room limit: the socket's, or behind a
    reverse proxy on this machine (a loopback peer) the last address of its ``X-Forwarded-For``."""
    address = _remote(conn)
    forwarded = conn.request.headers.get("X-Forwarded-For") if conn.request is not None else None
    if forwarded:
        try:
            if ipaddress.ip_address(address).is_loopback:
                return forwarded.rsplit(",", 1)[-1].strip()
        except ValueError:
            pass
    return address


class Peer:
    """One connection: the seat it holds (if any), its seek (if any), the rooms it has sat in, and its
    recent message times for the rate limit."""

    OK, LIMITED, WARN, FLOOD = range(4)

    def __init__(self, conn: ServerConnection, rate_limit: int):
        self.conn = conn
        self.address = client_address(conn)
        self.room: Room | None = None
        self.player: int | None = None
        self.seek: Seek | None = None  # waiting in the lobby with this
        self.pairing: Pairing | None = None  # paired, the room not yet stored
        self.sat_in: set[str] = set()  # rooms this connection has held a seat in (it can't join them)
        self.closed = False
        self._times: deque[float] = deque(maxlen=rate_limit)
        self._refused: deque[float] = deque(maxlen=FLOOD_FACTOR * rate_limit)
        self._warned_at = -math.inf

    def allow(self, now: float) -> int:
        """Whether one more message fits in the rate limit (refused messages don't count): OK, LIMITED
        (ignore it), WARN (ignore it and say so: once a window) or FLOOD (far over the limit)."""
        if len(self._times) == self._times.maxlen and now - self._times[0] < RATE_WINDOW_S:
            self._refused.append(now)
            if len(self._refused) == self._refused.maxlen and now - self._refused[0] < RATE_WINDOW_S:
                return Peer.FLOOD
            if now - self._warned_at >= RATE_WINDOW_S:
                self._warned_at = now
                return Peer.WARN
            return Peer.LIMITED
        self._times.append(now)
        return Peer.OK


@dataclasses.dataclass
class Pairing:
    """Two seeks paired, while their room is being stored; a cancel or a close meanwhile calls it off."""

    peers: tuple[Peer, Peer]
    called_off_by: set[Peer] = dataclasses.field(default_factory=set)


class Seat:
    """A player's place in a room: the hash of the secret that proves it, the connection on it now (if
    any), when its player was last connected (unix time) and the player's nickname (paired rooms)."""

    def __init__(self, secret_hash: str, last_seen: float, name: str | None = None):
        self.secret_hash = secret_hash
        self.peer: Peer | None = None
        self.last_seen = last_seen
        self.name = name


class Room:
    """A room: its rules, two seats, the game being played (numbered from 1), the rematch requests and
    the clocks (None without).

    The game record is replayed from the stored one only when first needed, so a server restarting
    on a database of many rooms is serving at once. ``lock`` is held by every change, from building the
    room as it will be to telling the players; ``pending`` is that room while its commit is under way
    (what the store writes of it then)."""

    def __init__(self, room_id: str, variant: Variant, created: float, host_hash: str, *,
                 game_number: int = 1, record: dict | None = None, first_seat: int = HOST,
                 clock: GameClock | None = None, creator: str | None = None, host_name: str | None = None):
        self.id = room_id
        self.variant = variant
        self.created = created
        self.last_seen = created  # unix time a player was last connected (now, while one is)
        self.seats: list[Seat | None] = [Seat(host_hash, created, host_name), None]
        self.first_seat = first_seat
        self.game_number = game_number
        self.rematch: set[int] = set()
        self.clock = clock
        self.creator = creator  # the address that made it (None for paired rooms and stored ones)
        self.ended_logged = 0  # the last game whose end is in the log
        self.lock = asyncio.Lock()
        self.pending: RoomRecord | None = None
        self.broadcast_due = False  # a state was held back while a change was being stored
        self.timer: asyncio.TimerHandle | None = None  # the flag's fall, while a clock runs
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

    @property
    def outcome(self) -> Result | None:
        """How the current game ended (the engine's outcome, or a loss on time), or None."""
        if self.clock is not None and self.clock.flagged is not None:
            return Result(Color[self.clock.flagged.upper()].opponent.label, "time")
        outcome = self.game.outcome
        return Result(outcome.result, outcome.reason.value) if outcome is not None else None

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

    def new_game(self, clock: GameClock | None) -> None:
        """The rematch: the next game from the start, colours swapped, with these clocks."""
        self.game_number += 1
        self._game, self._stored = Game(self.variant), None
        self._texts, self._offers = [], []
        self.rematch.clear()
        self.clock = clock

    def fresh_clock(self, now: float) -> GameClock:
        """Full clocks for the current game, the first mover's running from ``now``."""
        assert self.clock is not None
        return GameClock.new(self.clock.settings).start(self.variant.first_player.label, now)

    @property
    def is_started(self) -> bool:
        return self.seats[GUEST] is not None

    def color_of(self, player: int) -> Color:
        """The colour ``player`` plays in the current game: ``first_seat`` moves first in odd games."""
        first = self.variant.first_player
        return first if (player + self.first_seat + self.game_number - 1) % 2 == 0 else first.opponent

    def player_with(self, secret: str) -> int | None:
        found = None
        digest = seat_hash(secret)
        for player, seat in enumerate(self.seats):  # compare every seat, in constant time
            if seat is not None and hmac.compare_digest(seat.secret_hash, digest):
                found = player
        return found

    def peers(self) -> list[Peer]:
        return [s.peer for s in self.seats if s is not None and s.peer is not None]

    def expiry(self, now: float, idle_timeout: float, unjoined_timeout: float, max_age: float) -> str | None:
        """Why the room is to be deleted now, or None."""
        if now - self.created >= max_age:
            return f"older than {max_age:g} s"
        if not self.peers():
            if not self.is_started and now - self.last_seen >= unjoined_timeout:
                return f"nobody joined, its host gone for {unjoined_timeout:g} s"
            if now - self.last_seen >= idle_timeout:
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
                info = Player(connected=True, name=seat.name)
            else:
                info = Player(connected=False, away_s=round(max(0.0, now - seat.last_seen), 1), name=seat.name)
            players[self.color_of(p).label] = info
        offer = g.pending_offer if self.outcome is None else None
        return State(
            room=self.id, variant=self.variant.name, game=self.game_number, start_fen=record["start"],
            moves=tuple(record["moves"]), fen=g.position.fen(), to_move=g.turn.label, outcome=self.outcome,
            draw_offer=offer.label if offer is not None else None, players=players, you=self.color_of(player).label,
            offered_at=tuple(i for i, o in enumerate(record["draw_offers"]) if o),
            rematch=tuple(sorted(self.color_of(p).label for p in self.rematch)),
            clock=self.clock.read(now) if self.clock is not None else None)

    # --- stored form ------------------------------------------------------------------------------

    def to_record(self) -> RoomRecord:
        """The room as the store writes it: the change being committed (``pending``), if one is, with
        who is connected now."""
        connected = tuple(s is not None and s.peer is not None for s in self.seats)
        if self.pending is not None:
            return dataclasses.replace(self.pending, connected=(connected[0], connected[1]), last_seen=self.last_seen)
        hashes = tuple(s.secret_hash if s is not None else None for s in self.seats)
        names = tuple(s.name if s is not None else None for s in self.seats)
        return RoomRecord(self.id, self.variant.name, self.created, self.last_seen, self.game_number,
                          (hashes[0] or "", hashes[1]), (connected[0], connected[1]), self.record(),
                          tuple(sorted(self.rematch)), self.first_seat, (names[0], names[1]),
                          self.clock.to_dict() if self.clock is not None else None)

    def changed(self, **fields) -> RoomRecord:
        """The stored form of the room with these fields changed (``clock`` as a GameClock)."""
        if "clock" in fields and fields["clock"] is not None:
            fields["clock"] = fields["clock"].to_dict()
        return dataclasses.replace(self.to_record(), **fields)

    @classmethod
    def from_record(cls, r: RoomRecord, now: float) -> "Room":
        """A stored room, every seat disconnected. A room whose players were connected when the server
        stopped counts its idle time from ``now``: they had no chance to come back yet. Its clock
        runs on from where it was (the server's downtime is on it too, as any time a player is away)."""
        clock = GameClock.from_dict(r.clock) if r.clock is not None else None
        if r.first_seat not in (HOST, GUEST):
            raise ValueError(f"first seat {r.first_seat}")
        room = cls(r.id, variant_named(r.variant), r.created, r.seats[0], game_number=r.game_number, record=r.record,
                   first_seat=r.first_seat, clock=clock, host_name=r.names[0])
        room.last_seen = now if any(r.connected) else r.last_seen
        seat = room.seats[HOST]
        assert seat is not None
        seat.last_seen = room.last_seen
        if r.seats[1] is not None:
            room.seats[GUEST] = Seat(r.seats[1], room.last_seen, r.names[1])
        room.rematch = {p for p in r.rematch if p in (HOST, GUEST)}
        return room


class RoomServer:
    """The rooms and what each message does to them. ``handle`` is the WebSocket handler; with a
    ``store`` every change is written before it is made and acknowledged. ``public`` is the address links
    carry (default: the one each client connected to, from its request's Host header). ``clock`` is the
    time control of new rooms with the clock (every paired room, and a friend's when asked for).

    A store that can't be read raises :class:`~game.online.store.StoreError`."""

    def __init__(self, *, store: RoomStore | None = None, idle_timeout: float = 1800.0, max_age: float = 86400.0,
                 max_rooms: int = 10000, public: ServerAddress | None = None, sweep_interval: float | None = None,
                 rate_limit: int = RATE_LIMIT_MESSAGES, unjoined_timeout: float = 300.0,
                 max_rooms_per_address: int = 100, clock: ClockSettings | None = None):
        self.store = store
        self.rate_limit = rate_limit
        self.idle_timeout = idle_timeout
        self.unjoined_timeout = unjoined_timeout
        self.max_age = max_age
        self.max_rooms = max_rooms
        self.max_rooms_per_address = max_rooms_per_address
        self.clock = clock or ClockSettings()
        self.public = public
        self.sweep_interval = sweep_interval or min(60.0, max(0.05, min(idle_timeout, unjoined_timeout, max_age) / 4))
        self.rooms: dict[str, Room] = {}
        self.seeks: dict[str, dict[Peer, Seek]] = {"american": {}, "international": {}}  # in the order they came
        self._by_address: Counter[str] = Counter()  # rooms made from each address, still there
        self._tasks: set[asyncio.Task] = set()  # tasks started on the side (closes, flag falls), kept till done
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
            flooded = False
            async for text in conn:
                if flooded:
                    continue  # read and dropped until the close handshake ends (or its timeout)
                if not await self._receive(peer, text):
                    flooded = True
                    self._stop_seeking(peer)
                    self._leave(peer)
                    self._spawn(_close_soon(conn, CLOSE_FLOOD, "message flood"))
        except ConnectionClosed:
            pass
        finally:
            peer.closed = True
            self._stop_seeking(peer)
            self._leave(peer)

    async def _receive(self, peer: Peer, text: str | bytes) -> bool:
        """Answer one message; False when the connection floods and is to be closed."""
        verdict = peer.allow(time.monotonic())
        if verdict == Peer.FLOOD:
            log.warning("connection from %s closed: more than %d messages in %g s", peer.address,
                        FLOOD_FACTOR * self.rate_limit, RATE_WINDOW_S)
            return False
        if verdict == Peer.WARN:
            self._send(peer, Error("rate_limited", f"more than {self.rate_limit} messages in {RATE_WINDOW_S:g} s: "
                                                   "messages ignored (said once a window)"))
        if verdict != Peer.OK:
            return True
        try:
            message = parse_client(text)
        except BadMessage as err:
            self._send(peer, Error("bad_message", str(err)))
            return True
        try:
            await self._dispatch(peer, message)
        except Refusal as r:
            self._send(peer, Error(r.code, r.message))
        return True

    async def _dispatch(self, peer: Peer, m: ClientMessage) -> None:
        if isinstance(m, Ping):
            self._send(peer, Pong())
        elif isinstance(m, Create):
            await self._create(peer, m)
        elif isinstance(m, Seek):
            await self._seek(peer, m)
        elif isinstance(m, CancelSeek):
            self._cancel_seek(peer)
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

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _send(self, peer: Peer, message: ServerMessage) -> None:
        # broadcast() writes at once, in call order, and skips a closing connection; Connection drops
        # one whose unsent data passes the limit
        if not peer.conn.transport.is_closing():
            broadcast([peer.conn], encode(message))

    # --- entering a room --------------------------------------------------------------------------

    async def _create(self, peer: Peer, m: Create) -> None:
        if len(self.rooms) >= self.max_rooms:
            raise Refusal("too_many_rooms", f"the server holds its limit of {self.max_rooms} rooms; try again later")
        replaced = self._unjoined_room_of(peer)
        if self._by_address[peer.address] - (replaced is not None) >= self.max_rooms_per_address:
            raise Refusal("too_many_rooms", f"{self.max_rooms_per_address} rooms made from your address are "
                                            "open already; try again once some have ended")
        now = time.time()
        secret = new_seat_secret()
        room = Room(new_room_id(), variant_named(m.variant), now, seat_hash(secret),
                    clock=GameClock.new(self.clock) if m.clock else None, creator=peer.address)
        self._add(room)
        async with room.lock:
            try:
                await self._commit(room, room.to_record)
            except Refusal:
                self._drop(room)
                raise
            self._stop_seeking(peer)
            self._leave(peer, moving=True)
            log.info("room %s created: %s%s (%d rooms)", room.id, room.variant.name,
                     ", with the clock" if room.clock else "", len(self.rooms))
            self._seat_peer(peer, room, HOST, secret)

    async def _join(self, peer: Peer, m: Join) -> None:
        room = self._room(m.room)
        async with room.lock:
            if room.id in peer.sat_in:
                raise Refusal("own_room", f"you have a seat in room {room.id} already: send its link to your friend")
            if room.seats[GUEST] is not None:
                raise Refusal("room_full", f"room {room.id} has two players already")
            if room.id not in self.rooms:
                raise Refusal("no_such_room", f"room {room.id} has just expired")
            now = time.time()
            secret = new_seat_secret()
            host = room.seats[HOST]
            assert host is not None
            clock = room.fresh_clock(now) if room.clock is not None else None
            await self._commit(room, lambda: room.changed(seats=(host.secret_hash, seat_hash(secret)), clock=clock))
            room.seats[GUEST] = Seat(seat_hash(secret), now)
            room.clock = clock
            self._stop_seeking(peer)
            self._leave(peer, moving=True)
            log.info("room %s joined", room.id)
            self._seat_peer(peer, room, GUEST, secret)
            self._arm_clock(room)

    async def _resume(self, peer: Peer, m: Resume) -> None:
        room = self._room(m.room)
        async with room.lock:
            player = room.player_with(m.seat)
            if player is None:
                raise Refusal("bad_seat", f"that is not the secret of a seat in room {room.id}")
            seat = room.seats[player]
            assert seat is not None
            old = seat.peer
            if old is not peer:
                self._stop_seeking(peer)
                self._leave(peer, moving=True)
                if old is not None:  # a connection left over from before (its network went away unnoticed)
                    old.room = old.player = None
                    seat.peer = None
                    self._spawn(old.conn.close(CLOSE_SEAT_TAKEN, "seat resumed elsewhere"))
            log.info("room %s: %s resumed", room.id, room.color_of(player).label)
            self._seat_peer(peer, room, player, m.seat)
            self._save_later(room)

    def _seat_peer(self, peer: Peer, room: Room, player: int, secret: str, opponent: str | None = None) -> None:
        """Put the connection on its seat, tell it (``joined``, or ``paired`` with the opponent's
        nickname) and tell both (``state``)."""
        seat = room.seats[player]
        assert seat is not None
        if room.id not in self.rooms:  # expired while being stored
            raise Refusal("no_such_room", f"room {room.id} has just expired")
        peer.room, peer.player = room, player
        peer.sat_in.add(room.id)
        seat.peer = peer
        now = time.time()
        seat.last_seen = room.last_seen = now
        color = room.color_of(player).label
        if opponent is not None:
            self._send(peer, Paired(room.id, secret, color, opponent))
        else:
            self._send(peer, Joined(room.id, secret, color, self._address(peer).link(room.id)))
        self._broadcast(room)

    def _leave(self, peer: Peer, moving: bool = False) -> None:
        """The connection leaves its seat (it closed, or ``moving``: it enters another room or seeks one):
        the other player is told. A room nobody joined that its host leaves for another is deleted."""
        room, player = peer.room, peer.player
        if room is None or player is None:
            return
        peer.room = peer.player = None
        seat = room.seats[player]
        if seat is None or seat.peer is not peer:
            return
        seat.peer = None
        seat.last_seen = room.last_seen = time.time()
        if room.id not in self.rooms:
            return
        if moving and not room.is_started:
            self._expire(room, "its host left it for another")
            return
        log.info("room %s: %s disconnected", room.id, room.color_of(player).label)
        self._save_later(room)
        self._broadcast(room)

    def _unjoined_room_of(self, peer: Peer) -> Room | None:
        room = peer.room
        return room if room is not None and not room.is_started and room.id in self.rooms else None

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

    # --- the lobby: seeking an opponent -----------------------------------------------------------

    async def _seek(self, peer: Peer, m: Seek) -> None:
        if len(self.rooms) >= self.max_rooms:
            raise Refusal("too_many_rooms", f"the server holds its limit of {self.max_rooms} rooms; try again later")
        self._stop_seeking(peer)
        self._leave(peer, moving=True)
        peer.seek = m
        self._send(peer, Seeking(m.variant, m.nickname))
        self.seeks[m.variant][peer] = m
        log.debug("%s seeks a game of %s (%d waiting)", peer.address, m.variant, len(self.seeks[m.variant]))
        await self._match(m.variant)

    async def _match(self, variant: str) -> None:
        """Pair the seeks of these rules two by two, those that waited longest first."""
        waiting = self.seeks[variant]
        while len(waiting) >= 2:
            a, b = list(waiting)[:2]
            seek_a, seek_b = waiting.pop(a), waiting.pop(b)
            a.seek = b.seek = None
            await self._pair(a, seek_a, b, seek_b)

    def _cancel_seek(self, peer: Peer) -> None:
        if peer.seek is None and peer.pairing is None:
            raise Refusal("not_seeking", "there is no seek of yours to cancel (perhaps it was just paired)")
        self._stop_seeking(peer)
        self._send(peer, SeekCancelled())

    def _stop_seeking(self, peer: Peer) -> None:
        """The connection's seek ends (cancelled, closed, or the connection enters a room): out of the
        queue, and a pairing still being stored is called off."""
        if peer.seek is not None:
            self.seeks[peer.seek.variant].pop(peer, None)
            peer.seek = None
        if peer.pairing is not None:
            peer.pairing.called_off_by.add(peer)
            peer.pairing = None

    async def _pair(self, a: Peer, seek_a: Seek, b: Peer, seek_b: Seek) -> None:
        """Make a room for two seeks (``a`` waited longer): both seated, colours at random, the clock
        running. Stored first; if either player cancels or leaves meanwhile, the room is deleted and the
        other waits again, first in the queue."""
        now = time.time()
        secret_a, secret_b = new_seat_secret(), new_seat_secret()
        room = Room(new_room_id(), variant_named(seek_a.variant), now, seat_hash(secret_a),
                    first_seat=secrets.randbelow(2), clock=GameClock.new(self.clock), host_name=seek_a.nickname)
        room.seats[GUEST] = Seat(seat_hash(secret_b), now, seek_b.nickname)
        room.clock = room.fresh_clock(time.time())  # from now: making the game's first position may take a while
        pairing = Pairing((a, b))
        a.pairing = b.pairing = pairing
        self._add(room)
        async with room.lock:
            try:
                await self._commit(room, room.to_record)
            except Refusal as r:
                self._drop(room)
                for peer in (a, b):  # their seeks are gone: they may seek again
                    if peer.pairing is pairing:
                        peer.pairing = None
                        self._send(peer, Error(r.code, f"no game could be made, seek again: {r.message}"))
                return
            for peer in (a, b):
                if peer.pairing is pairing:
                    peer.pairing = None
            if pairing.called_off_by or a.closed or b.closed:
                self._expire(room, "a player left before the game began")
                for peer, seek in ((a, seek_a), (b, seek_b)):
                    if not peer.closed and peer not in pairing.called_off_by:
                        self._requeue(peer, seek)
                        self._spawn(self._match(seek.variant))  # someone may have come meanwhile
                return
            log.info("room %s paired: %s (%d rooms)", room.id, room.variant.name, len(self.rooms))
            self._seat_peer(a, room, HOST, secret_a, opponent=seek_b.nickname)
            self._seat_peer(b, room, GUEST, secret_b, opponent=seek_a.nickname)
            self._arm_clock(room)

    def _requeue(self, peer: Peer, seek: Seek) -> None:
        """Put a seek back at the head of its queue (its pairing was called off by the other player)."""
        waiting = self.seeks[seek.variant]
        self.seeks[seek.variant] = {peer: seek, **waiting}
        peer.seek = seek

    # --- playing ----------------------------------------------------------------------------------

    def _seated(self, peer: Peer) -> tuple[Room, int]:
        if peer.room is None or peer.player is None:
            raise Refusal("not_in_room", "send create, join, resume or seek first")
        if not peer.room.is_started:
            raise Refusal("not_your_turn", "the game starts when your friend joins")
        return peer.room, peer.player

    async def _check_not_over(self, room: Room, now: float) -> None:
        """Refuse a game action once the game is over, or once the side to move is out of time (which
        is then declared)."""
        if room.clock is not None and room.outcome is None and room.clock.is_out(now):
            await self._flag_fall(room, now)
        outcome = room.outcome
        if outcome is not None:
            raise Refusal("game_over", f"the game is over ({outcome.result}, {outcome.reason})")

    async def _move(self, peer: Peer, m: PlayMove) -> None:
        room, player = self._seated(peer)
        async with room.lock:
            now = time.time()
            await self._check_not_over(room, now)
            game, color = room.game, room.color_of(player)
            if game.turn is not color:
                raise Refusal("not_your_turn", f"it is {game.turn.label}'s move")
            try:
                move = game.position.parse_move(m.move)
                if m.offer_draw and not (allowed := game.can_offer_draw())[0]:
                    raise DrawOfferError(allowed[1])
            except DrawOfferError as err:
                raise Refusal("no_offer", f"no draw offer allowed now, the move was not played: {err}") from None
            except IllegalMoveError as err:
                raise Refusal("illegal_move", str(err)) from None
            text = game.position.move_text(move)
            clock = room.clock.moved(now) if room.clock is not None else None

            def after() -> RoomRecord:
                record = room.record()
                return room.changed(record={**record, "moves": [*record["moves"], text],
                                            "draw_offers": [*record["draw_offers"], m.offer_draw]}, clock=clock)

            await self._commit(room, after)
            room.play(text, m.offer_draw)
            room.clock = clock
            log.debug("room %s: %s %s%s", room.id, color.label, text, " (offers a draw)" if m.offer_draw else "")
            self._changed(room, now)

    async def _accept_draw(self, peer: Peer) -> None:
        room, player = self._seated(peer)
        async with room.lock:
            now = time.time()
            await self._check_not_over(room, now)
            if room.game.pending_offer is not room.color_of(player).opponent:
                raise Refusal("no_offer", "there is no draw offer from your opponent to accept")
            clock = room.clock.stopped(now) if room.clock is not None else None
            await self._commit(room, lambda: room.changed(record={**room.record(), "draw_agreed": True}, clock=clock))
            room.game.accept_draw()
            room.clock = clock
            self._changed(room, now)

    async def _resign(self, peer: Peer) -> None:
        room, player = self._seated(peer)
        async with room.lock:
            now = time.time()
            await self._check_not_over(room, now)
            color = room.color_of(player)
            clock = room.clock.stopped(now) if room.clock is not None else None
            await self._commit(room, lambda: room.changed(record={**room.record(), "resigned": color.label},
                                                          clock=clock))
            room.game.resign(color)
            room.clock = clock
            self._changed(room, now)

    async def _rematch(self, peer: Peer) -> None:
        room, player = self._seated(peer)
        async with room.lock:
            now = time.time()
            if room.clock is not None and room.outcome is None and room.clock.is_out(now):
                await self._flag_fall(room, now)
            if room.outcome is None:
                raise Refusal("not_your_turn", "a rematch can be asked for once the game is over")
            asked = room.rematch | {player}
            if asked == {HOST, GUEST}:
                clock = room.fresh_clock(now) if room.clock is not None else None
                await self._commit(room, lambda: room.changed(
                    game_number=room.game_number + 1, record=Game(room.variant).to_dict(), rematch=(), clock=clock))
                room.new_game(clock)
                log.info("room %s: game %d starts, colours swapped", room.id, room.game_number)
            else:
                await self._commit(room, lambda: room.changed(rematch=tuple(sorted(asked))))
                room.rematch = asked
            self._changed(room, now)

    def _changed(self, room: Room, now: float) -> None:
        """After a change is stored and made: stop the clocks of a game that just ended, log its end,
        set the flag's fall, tell both players."""
        outcome = room.outcome
        if outcome is not None:
            if room.clock is not None and room.clock.running is not None:  # a move ended the game
                room.clock = room.clock.stopped(now)
                self._save_later(room)
            if room.ended_logged < room.game_number:
                room.ended_logged = room.game_number
                log.info("room %s: game %d over: %s (%s)", room.id, room.game_number, outcome.result, outcome.reason)
        self._arm_clock(room)
        self._broadcast(room)

    def _broadcast(self, room: Room) -> None:
        if room.pending is not None:  # the room in memory may be about to change: tell them after
            room.broadcast_due = True
            return
        room.broadcast_due = False
        peers = [peer for peer in room.peers() if peer.player is not None]
        if not peers:
            return
        state = room.state_for(HOST, time.time())  # the same for both but "you"
        for peer in peers:
            assert peer.player is not None
            you = room.color_of(peer.player).label
            self._send(peer, state if state.you == you else dataclasses.replace(state, you=you))

    # --- the clocks -------------------------------------------------------------------------------

    def start_clocks(self) -> None:
        """Set the flag's fall of every room whose clock runs (after a restart; on the running loop)."""
        for room in self.rooms.values():
            self._arm_clock(room)

    def _arm_clock(self, room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        deadline = room.clock.deadline() if room.clock is not None else None
        if deadline is None or room.id not in self.rooms:
            return
        room.timer = asyncio.get_running_loop().call_later(max(0.0, deadline - time.time()),
                                                           lambda: self._spawn(self._on_flag_timer(room)))

    async def _on_flag_timer(self, room: Room) -> None:
        async with room.lock:
            room.timer = None
            if room.id not in self.rooms or room.clock is None or room.clock.running is None:
                return
            now = time.time()
            try:
                over = room.game.outcome is not None
            except InvalidGameRecordError:
                return  # deleted when someone asks for the room
            if over:  # a stored clock of a game that ended: stop it
                room.clock = room.clock.stopped(now)
                self._save_later(room)
            elif not room.clock.is_out(now):  # the timer came early
                self._arm_clock(room)
            else:
                try:
                    await self._flag_fall(room, now)
                except Refusal:  # not stored: try again in a second
                    room.timer = asyncio.get_running_loop().call_later(1.0, lambda: self._spawn(self._on_flag_timer(room)))

    async def _flag_fall(self, room: Room, now: float) -> None:
        """The side to move is out of time: it loses (stored, then told). With the room's lock held."""
        assert room.clock is not None
        clock = room.clock.flag()
        await self._commit(room, lambda: room.changed(clock=clock))
        room.clock = clock
        self._changed(room, now)

    # --- storage ----------------------------------------------------------------------------------

    async def _commit(self, room: Room, after: Callable[[], RoomRecord]) -> None:
        """Put ``after()`` (the room as it will be after a change) on disk before anything of the change
        is made or sent; with the room's lock held. A failed commit is Refusal("server_error") and the
        room stays as it was. Without a store, nothing (``after`` isn't even called)."""
        if self.store is None:
            return
        room.pending = after()
        try:
            await self.store.save(room.id, room.to_record)
        except Exception:
            room.pending = None
            if room.broadcast_due:
                self._broadcast(room)
            raise Refusal("server_error", "the server could not store that, so nothing changed; try again") from None
        room.pending = None

    def _save_later(self, room: Room) -> None:
        """Store without waiting (who is connected, when last seen: nothing a player waits on); never a
        room deleted meanwhile (that would write it back)."""
        if self.store is not None and room.id in self.rooms:
            self.store.save(room.id, room.to_record).add_done_callback(_ignore_result)

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        if room.creator is not None:
            self._by_address[room.creator] += 1

    def _drop(self, room: Room) -> None:
        if self.rooms.pop(room.id, None) is not None and room.creator is not None:
            self._by_address[room.creator] -= 1
            if self._by_address[room.creator] <= 0:
                del self._by_address[room.creator]
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None

    # --- expiry -----------------------------------------------------------------------------------

    def sweep(self, now: float | None = None) -> int:
        """Delete the rooms whose time is up; returns how many."""
        now = time.time() if now is None else now
        expired = [(room, why) for room in self.rooms.values()
                   if (why := room.expiry(now, self.idle_timeout, self.unjoined_timeout, self.max_age)) is not None]
        for room, why in expired:
            self._expire(room, why)
        return len(expired)

    def _expire(self, room: Room, why: str) -> None:
        self._drop(room)
        if self.store is not None:
            self.store.delete(room.id).add_done_callback(_ignore_result)
        for peer in room.peers():
            peer.room = peer.player = None
            self._spawn(peer.conn.close(CLOSE_ROOM_GONE, "room expired"))
        log.info("room %s deleted: %s (%d rooms)", room.id, why, len(self.rooms))

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval)
            self.sweep()


async def _close_soon(conn: ServerConnection, code: int, reason: str) -> None:
    """Close with ``code``; a client that doesn't answer the close within a second is cut off."""
    try:
        await asyncio.wait_for(conn.close(code, reason), FLOOD_CLOSE_TIMEOUT_S)
    except TimeoutError:
        conn.transport.abort()


def _ignore_result(future: asyncio.Future) -> None:
    if not future.cancelled():
        future.exception()  # already logged by the store; this only marks it retrieved


# --- running it -------------------------------------------------------------------------------------


def warm_engine() -> None:
    """Load the rules engine's kernels (numba) before the first player waits on them."""
    for name in ("american", "international"):
        Game(variant_named(name)).position.legal_moves()


def raise_open_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (each connection is one; the
    usual soft limit of 1024 is a few hundred players); returns the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # an infinite hard limit above the kernel's nr_open
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class _AcceptErrorLog:
    """The event loop's exception handler: a failing ``accept()`` (no file descriptor left: asyncio
    retries every second, and logs a traceback for every try) becomes one line per interval with a
    count; anything else goes to the default handler."""

    def __init__(self, interval: float = ACCEPT_ERROR_LOG_INTERVAL_S):
        self.interval = interval
        self.count = 0
        self._last = -math.inf

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        if not (context.get("message", "").startswith("socket.accept()")
                and isinstance(context.get("exception"), OSError)):
            loop.default_exception_handler(context)
            return
        self.count += 1
        now = time.monotonic()
        if now - self._last >= self.interval:
            log.error("can't accept new connections: %s (%d times since the last such line; open-file limit %d)",
                      context["exception"], self.count, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
            self._last, self.count = now, 0


async def run(server: RoomServer, host: str, port: int, stop: asyncio.Event, *,
              ready: Callable[[str, int], None] | None = None, ping_interval: float = 20.0) -> None:
    """Serve ``server`` on host:port (0: any free port) until ``stop`` is set; ``ready(host, port)`` is
    called once listening. Messages over :data:`MAX_MESSAGE_BYTES` close their connection (1009);
    a connection with more than :data:`MAX_UNSENT_BYTES` unsent is dropped."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(_AcceptErrorLog())
    if server.store is not None:
        server.store.start()
    try:
        async with serve(server.handle, host, port, max_size=MAX_MESSAGE_BYTES, compression=None,
                         ping_interval=ping_interval, ping_timeout=ping_interval, create_connection=Connection,
                         write_limit=MAX_UNSENT_BYTES) as ws:
            bound_host, bound_port = ws.sockets[0].getsockname()[:2]
            server.start_clocks()
            log.info("listening on %s:%d (%d rooms, open-file limit %d)", bound_host, bound_port, len(server.rooms),
                     resource.getrlimit(resource.RLIMIT_NOFILE)[0])
            if ready is not None:
                ready(bound_host, bound_port)
            sweeper = loop.create_task(server.sweep_forever())
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
    :func:`lan_address` when listening on every interface, else ``host``. The other options are
    :class:`RoomServer`'s."""

    def __init__(self, host: str = "0.0.0.0", port: int = 0, *, advertise: str | None = None,
                 db: str | Path | None = None, db_timeout: float = 5.0, ping_interval: float = 20.0, **options):
        self.host, self.port = host, port
        self._advertise = advertise
        self._make_server = functools.partial(RoomServer, **options)
        self._db, self._db_timeout = db, db_timeout
        self._ping_interval = ping_interval
        self.server: RoomServer | None = None
        self.address: ServerAddress | None = None  # what links carry, once started
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def start(self, timeout: float = 30.0) -> ServerAddress:
        """Start listening; returns the address links carry. OSError when the port can't be had,
        StoreError when the database can't be used."""
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

    def call(self, fn: Callable[[], object], timeout: float = 10.0) -> object:
        """Run ``fn()`` on the server's loop and return what it returns (for tests and tools that look
        at the rooms: they change only there)."""
        assert self._loop is not None, "start() first"

        async def call() -> object:
            return fn()

        return asyncio.run_coroutine_threadsafe(call(), self._loop).result(timeout)

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
        server = self._make_server(store=RoomStore(self._db, self._db_timeout) if self._db is not None else None)
        self.server = server

        def ready(host: str, port: int) -> None:
            advertise = self._advertise or (lan_address() if self.host in ("", "0.0.0.0", "::") else host)
            self.address = server.public = ServerAddress(advertise, port)
            self._ready.set()

        await run(server, self.host, self.port, self._stop, ready=ready, ping_interval=self._ping_interval)


# --- command line -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``checkers3d-server``: the room server on its own, until SIGTERM or Ctrl+C. Exit status 2 when
    the rooms database can't be used (a unit may say ``RestartPreventExitStatus=2``), 1 when the port
    can't be had."""
    p = argparse.ArgumentParser(prog="checkers3d-server",
                                description="The Checkers 3D room server: play a friend through a link, "
                                            "or someone online.")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free one)")
    p.add_argument("--db", metavar="FILE", help="keep rooms in this SQLite file (default: in memory)")
    p.add_argument("--idle-timeout", type=float, default=1800.0, metavar="S",
                   help="delete a room nobody has been connected to for S seconds (default 1800)")
    p.add_argument("--unjoined-timeout", type=float, default=300.0, metavar="S",
                   help="delete a room nobody joined S seconds after its host left (default 300)")
    p.add_argument("--max-age", type=float, default=86400.0, metavar="S",
                   help="delete a room S seconds after it was made (default 86400)")
    p.add_argument("--max-rooms", type=int, default=10000, metavar="N", help="refuse new rooms beyond N (default 10000)")
    p.add_argument("--max-rooms-per-address", type=int, default=100, metavar="N",
                   help="refuse new rooms from an address that made N still open (default 100)")
    p.add_argument("--rate-limit", type=int, default=RATE_LIMIT_MESSAGES, metavar="N",
                   help=f"messages a second one connection may send (default {RATE_LIMIT_MESSAGES})")
    defaults = ClockSettings()
    p.add_argument("--clock-main", type=float, default=defaults.main_s, metavar="S",
                   help=f"main time of each player in games with the clock (default {defaults.main_s:g})")
    p.add_argument("--clock-periods", type=int, default=defaults.periods, metavar="N",
                   help=f"byo-yomi periods after the main time (default {defaults.periods})")
    p.add_argument("--clock-period", type=float, default=defaults.period_s, metavar="S",
                   help=f"seconds of each byo-yomi period (default {defaults.period_s:g})")
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
    if (min(args.idle_timeout, args.unjoined_timeout, args.max_age) <= 0
            or min(args.max_rooms, args.rate_limit, args.max_rooms_per_address) < 1):
        p.error("--idle-timeout, --unjoined-timeout and --max-age must be positive, "
                "--max-rooms, --max-rooms-per-address and --rate-limit at least 1")
    try:
        clock = ClockSettings(args.clock_main, args.clock_periods, args.clock_period)
    except ValueError as err:
        p.error(str(err))
    raise_open_file_limit()
    try:
        store = RoomStore(args.db) if args.db else None
        server = RoomServer(store=store, idle_timeout=args.idle_timeout, unjoined_timeout=args.unjoined_timeout,
                            max_age=args.max_age, max_rooms=args.max_rooms,
                            max_rooms_per_address=args.max_rooms_per_address, public=public,
                            rate_limit=args.rate_limit, clock=clock)
    except StoreError as err:
        print(f"checkers3d-server: can't use the rooms database {err}", file=sys.stderr)
        return 2
    warm_engine()

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

"""A room-server client for a program's main loop: it never blocks the caller.

A background thread runs an asyncio loop that holds the WebSocket. The caller sends with plain method
calls (:meth:`RoomClient.create`, :meth:`~RoomClient.move`, ...) from any thread and takes what came
back with :meth:`RoomClient.poll` once a frame: the server's messages (``Joined``, ``Paired``,
``Seeking``, ``SeekCancelled``, ``State``, ``Error``, ``Pong`` from :mod:`game.online.protocol`) and
the connection's own events (:class:`Connected`, :class:`Reconnecting`, :class:`GaveUp`,
:class:`Unsent`).

"Play someone online" is :meth:`RoomClient.seek`: ``Seeking`` answers, ``Paired`` (then a ``State``)
comes once the server has found an opponent, and from then on the client holds a seat as after
``joined``. A seek lives as long as its connection: after a drop the client seeks again by itself
(at the back of the queue), until :meth:`~RoomClient.cancel_seek`. A ``State`` of a room with the
clock carries a :class:`~game.online.clock.ClockReading`; ``reading.after(seconds)`` counts it down
between states.

A dropped connection is reconnected by itself with exponential backoff (0.5 s doubling to 10 s, with
jitter); once the client holds a seat it sends ``resume`` with the seat's secret on every new
connection, so the player is back on their seat without doing anything. It gives up (:class:`GaveUp`)
when the server says the room or seat is gone, when the room expired (close code 4000), when another
connection resumed the seat (4001), or after ``give_up_after`` seconds without a connection. WebSocket
pings every ``ping_interval`` seconds notice a connection that died without a word.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import random
import threading
import time
from dataclasses import dataclass

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.connection import broadcast
from websockets.exceptions import WebSocketException
from websockets.protocol import State as SocketState

from .protocol import (
    CLOSE_ROOM_GONE,
    CLOSE_SEAT_TAKEN,
    AcceptDraw,
    BadMessage,
    CancelSeek,
    ClientMessage,
    Create,
    Error,
    Join,
    Joined,
    Paired,
    Ping,
    PlayMove,
    Rematch,
    Resign,
    Resume,
    Seek,
    Seeking,
    ServerAddress,
    ServerMessage,
    State,
    encode,
    parse_server,
    parse_server_address,
)

log = logging.getLogger("checkers3d.online")


@dataclass(frozen=True)
class Connected:
    """A connection to the server is open (the first one, or a new one after a drop)."""


@dataclass(frozen=True)
class Reconnecting:
    """The connection is down; the next try is in ``delay_s`` seconds (``attempt`` counts from 1)."""

    attempt: int
    delay_s: float
    reason: str


@dataclass(frozen=True)
class GaveUp:
    """The client stopped for good (the room is gone, or the server unreachable too long); ``reason``
    says why in words a player can read. ``unreachable``: the server could not be reached (the
    connection errors are in the log)."""

    reason: str
    unreachable: bool = False


@dataclass(frozen=True)
class Unsent:
    """A game action that was not sent because the connection was down; the state that follows a
    reconnection says what the game is now."""

    message: ClientMessage


Event = ServerMessage | Connected | Reconnecting | GaveUp | Unsent

# the answers to create/join/resume that end the hope of that room
_ROOM_LOST = ("no_such_room", "bad_seat")


class RoomClient:
    """One player's connection to a room server (``server``: a :class:`ServerAddress` or an address as
    :func:`parse_server_address` reads it). It starts connecting at once; :meth:`close` ends it.

    ``room``, ``seat``, ``color`` and ``link`` hold what the last ``joined`` or ``paired`` (and
    ``color`` the last ``state``) said, ``opponent`` the nickname a ``paired`` gave; keep ``room`` and
    ``seat`` to :meth:`resume` after a relaunch. ``seeking`` is whether a seek is under way."""

    def __init__(self, server: str | ServerAddress, *, give_up_after: float = 1800.0,
                 first_connect_timeout: float = 15.0, backoff: tuple[float, float] = (0.5, 10.0),
                 ping_interval: float = 10.0, open_timeout: float = 10.0):
        self.address = server if isinstance(server, ServerAddress) else parse_server_address(server)
        self.give_up_after = give_up_after
        self.first_connect_timeout = first_connect_timeout
        self.backoff = backoff
        self.ping_interval = ping_interval
        self.open_timeout = open_timeout
        self.room: str | None = None
        self.seat: str | None = None
        self.color: str | None = None
        self.link: str | None = None
        self.opponent: str | None = None
        self._inbox: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._hello: Create | Join | Resume | Seek | None = None  # what enters a room on each new connection
        self._hello_pending = False  # sent, answer (joined or error) not yet received
        self._conn: ClientConnection | None = None
        self._conn_opened = False  # the last connection attempt got through
        self._closed = False
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._thread = threading.Thread(target=self._run, name="checkers3d-room-client", daemon=True)
        self._thread.start()

    # --- the caller's side (any thread) -----------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._conn is not None

    @property
    def seeking(self) -> bool:
        return isinstance(self._hello, Seek)

    def create(self, variant: str, clock: bool = False) -> None:
        """Open a room with these rules (``american`` or ``international``), with the game clock if
        ``clock``; ``joined`` answers."""
        self._submit(Create(variant, clock))

    def seek(self, variant: str, nickname: str) -> None:
        """Ask to be paired with the next player seeking these rules; ``seeking`` answers, ``paired``
        comes with the opponent (``nickname``: what the opponent sees)."""
        self._submit(Seek(variant, nickname))

    def cancel_seek(self) -> None:
        """Stop seeking (``seek_cancelled`` answers; a ``paired`` already on its way still comes)."""
        self._submit(CancelSeek())

    def join(self, room: str) -> None:
        self._submit(Join(room))

    def resume(self, room: str, seat: str) -> None:
        """Return to a seat held before (the room and seat secret kept from its ``joined``)."""
        self._submit(Resume(room, seat))

    def move(self, text: str, offer_draw: bool = False) -> None:
        """Play a move given in numeric notation (``11-15``, ``22x15``, ``15x24x31``)."""
        self._submit(PlayMove(text, offer_draw))

    def accept_draw(self) -> None:
        self._submit(AcceptDraw())

    def resign(self) -> None:
        self._submit(Resign())

    def rematch(self) -> None:
        self._submit(Rematch())

    def ping(self) -> None:
        self._submit(Ping())

    def poll(self) -> list[Event]:
        """Everything received since the last call, oldest first; never waits."""
        out = []
        while True:
            try:
                out.append(self._inbox.get_nowait())
            except queue.Empty:
                return out

    def wait(self, timeout: float) -> Event | None:
        """The next event, waiting up to ``timeout`` seconds (None if none came): for tools and tests,
        not for a frame loop."""
        try:
            return self._inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self, timeout: float = 5.0) -> None:
        """Close the connection and stop the thread."""
        if self._closed:
            return
        self._closed = True
        try:
            self._loop.call_soon_threadsafe(self._stop.set)
        except RuntimeError:  # the loop has ended already
            pass
        self._thread.join(timeout)

    def _submit(self, message: ClientMessage) -> None:
        if self._closed:
            raise RuntimeError("the room client is closed")
        self._loop.call_soon_threadsafe(self._send_now, message)

    # --- the loop's side --------------------------------------------------------------------------

    def _send_now(self, message: ClientMessage) -> None:
        if isinstance(message, (Create, Join, Resume, Seek)):
            self._hello = message  # also what a new connection sends, until it is answered (a seek: paired)
            if self._conn is not None:
                self._send_hello(self._conn)
            return
        if isinstance(message, CancelSeek):
            if isinstance(self._hello, Seek):
                self._hello = self._held_seat()
                self._hello_pending = False
            if self._conn is not None and self._conn.state is SocketState.OPEN:
                broadcast([self._conn], encode(message))
            return  # while down there is no seek on the server to cancel
        conn = self._conn
        if conn is None or conn.state is not SocketState.OPEN:
            self._inbox.put(Unsent(message))
            return
        broadcast([conn], encode(message))  # written at once, in call order

    def _send_hello(self, conn: ClientConnection) -> None:
        assert self._hello is not None
        self._hello_pending = True
        broadcast([conn], encode(self._hello))

    def _run(self) -> None:
        with asyncio.Runner(loop_factory=lambda: self._loop) as runner:  # closes the loop, cancels what is left
            runner.run(self._main())

    async def _main(self) -> None:
        down_since = time.monotonic()
        ever_connected = False
        attempt = 0
        stopping = asyncio.get_running_loop().create_task(self._stop.wait())
        while not self._stop.is_set():
            connection = asyncio.get_running_loop().create_task(self._connection())
            await asyncio.wait((connection, stopping), return_when=asyncio.FIRST_COMPLETED)
            if self._stop.is_set():  # close() while connecting or connected: leaving the task closes the socket
                connection.cancel()
                await asyncio.gather(connection, return_exceptions=True)
                break
            reason, final = connection.result()
            if self._conn_opened:
                ever_connected, attempt, down_since = True, 0, time.monotonic()
            if final:
                self._inbox.put(GaveUp(reason))
                break
            limit = self.give_up_after if ever_connected else self.first_connect_timeout
            if time.monotonic() - down_since >= limit:
                log.warning("gave up on %s after %g s without a connection: %s", self.address.url, limit, reason)
                where = self.address.url.rstrip("/")
                said = (f"the room server {where} could not be reached" if not ever_connected
                        else f"the room server {where} could not be reached for {_duration(limit)}")
                self._inbox.put(GaveUp(said, unreachable=True))
                break
            low, high = self.backoff
            delay = min(high, low * 2 ** attempt) * random.uniform(0.75, 1.0)
            attempt += 1
            self._inbox.put(Reconnecting(attempt, round(delay, 2), reason))
            try:
                await asyncio.wait_for(self._stop.wait(), delay)
            except TimeoutError:
                pass

    async def _connection(self) -> tuple[str, bool]:
        """One connection from opening to its end: (why it ended, whether that is final)."""
        self._conn_opened = False
        try:
            async with connect(self.address.url, open_timeout=self.open_timeout, ping_interval=self.ping_interval,
                               ping_timeout=self.ping_interval, compression=None, max_size=2 ** 20) as conn:
                self._conn, self._conn_opened = conn, True
                self._inbox.put(Connected())
                if self._hello is not None:
                    self._send_hello(conn)
                try:
                    final = await self._read(conn)
                finally:
                    self._conn = None
                if final is not None:
                    return final, True
                code = conn.close_code
                if code == CLOSE_ROOM_GONE:
                    return "the room has expired", True
                if code == CLOSE_SEAT_TAKEN:
                    return "your seat was taken up by another connection (the game opened elsewhere)", True
                return f"connection closed ({code or 'no code'} {conn.close_reason or ''})".strip(), False
        except (OSError, TimeoutError, WebSocketException) as err:
            self._conn = None
            return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__, False

    async def _read(self, conn: ClientConnection) -> str | None:
        """Deliver messages until the connection ends; returns why, when it must not be reconnected."""
        try:
            async for text in conn:
                try:
                    message = parse_server(text)
                except BadMessage as err:
                    log.warning("ignored a malformed message from the server: %s", err)
                    continue
                final = self._receive(message)
                self._inbox.put(message)
                if final is not None:
                    await conn.close()
                    return final
        except WebSocketException:
            pass
        return None

    def _held_seat(self) -> Resume | None:
        return Resume(self.room, self.seat) if self.room and self.seat else None

    def _receive(self, message: ServerMessage) -> str | None:
        """Keep what the messages say about our seat; a reason when the room is lost for good."""
        if isinstance(message, Joined):
            self._hello_pending = False
            self.room, self.seat, self.color, self.link = message.room, message.seat, message.color, message.link
            self.opponent = None
            self._hello = Resume(message.room, message.seat)
        elif isinstance(message, Paired):
            self._hello_pending = False
            self.room, self.seat, self.color, self.link = message.room, message.seat, message.color, None
            self.opponent = message.opponent
            self._hello = Resume(message.room, message.seat)
        elif isinstance(message, Seeking):
            self._hello_pending = False  # answered; the seek is sent again on a new connection until paired
        elif isinstance(message, State):
            self.color = message.you
        elif isinstance(message, Error) and isinstance(self._hello, Seek) and message.code == "server_error":
            self._hello_pending = False  # the pairing could not be stored: the seek is over
            self._hello = self._held_seat()
        elif isinstance(message, Error) and self._hello_pending and message.code != "rate_limited":
            self._hello_pending = False
            if isinstance(self._hello, Resume):
                if message.code in _ROOM_LOST:
                    return f"the room is gone: {message.message}"
            else:  # create, join or seek refused: a seat held before (if any) is still ours
                self._hello = self._held_seat()
        return None


def _duration(seconds: float) -> str:
    """A time limit in a player's words: 45 seconds, 30 minutes."""
    if seconds >= 120:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"

"""Rooms kept in SQLite (stdlib ``sqlite3``), so a server that crashes or restarts loses nothing.

One row per room: rules, created and last-seen times, the game counter, the seat that moves first in
game 1, a hash of each seat's secret, who was connected, the players' nicknames, the game record
(``engine.game.Game.to_dict``, moves as text), the rematch requests and the clocks. The database runs
in WAL mode with ``synchronous=FULL``: a commit is on disk (the WAL fsynced) when it returns, and the
server changes a room (and tells its players) only after its commit.

Writes are batched: :meth:`RoomStore.save` marks a room dirty and returns a future; one writer task
snapshots every dirty room (on the event loop, so a room is never read while it changes), commits them
in one transaction on a worker thread and then resolves the futures of all of them, or fails them all
when the commit fails (nothing of the batch is then on disk). Under load many rooms share one fsync
(group commit); a room saved twice before its commit is written once.

The file and its ``-wal`` and ``-shm`` companions are the server user's alone (mode 0600): they hold
the rooms. Seat secrets are not in them at all, only their SHA-256 (:func:`seat_hash`): a secret is 128
random bits, so its hash can't be turned back into it, and a key beside the file would add nothing
(a keyed hash guards guessable values such as passwords, and a key kept with the file is read with it).

Anything wrong with the file (it can't be opened, it is not a database, it is damaged, its rooms table
has another shape, its schema is newer) is a :class:`StoreError` naming the file, at open.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("checkers3d.server")

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    created REAL NOT NULL,        -- unix time
    last_seen REAL NOT NULL,      -- unix time a player was last connected
    game_number INTEGER NOT NULL, -- games in the room, from 1
    host_seat TEXT NOT NULL,      -- seat_hash() of the creator's seat secret
    guest_seat TEXT,              -- the same of the other seat, NULL until someone joins
    connected TEXT NOT NULL,      -- JSON [host, guest] booleans at the last write
    record TEXT NOT NULL,         -- JSON engine.game.Game.to_dict() of the current game
    rematch TEXT NOT NULL,        -- JSON list of players (0 host, 1 guest) who asked for a rematch
    first_seat INTEGER NOT NULL DEFAULT 0,     -- the seat that moves first in game 1
    names TEXT NOT NULL DEFAULT '[null,null]', -- JSON [host, guest] nicknames (null in a friend's room)
    clock TEXT                    -- JSON game.online.clock.GameClock.to_dict(), NULL without the clock
)
"""
_COLUMNS = ("id", "variant", "created", "last_seen", "game_number", "host_seat", "guest_seat", "connected",
            "record", "rematch", "first_seat", "names", "clock")
_V1_COLUMNS = ("id", "variant", "created", "last_seen", "game_number", "host_secret", "guest_secret", "connected",
               "record", "rematch")


class StoreError(Exception):
    """The rooms database can't be used; the message names the file and says why."""


def seat_hash(secret: str) -> str:
    """What the database keeps of a seat secret (hex SHA-256); a seat is proved by a secret with this hash."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class RoomRecord:
    """A room as stored: everything needed to bring it back after a restart."""

    id: str
    variant: str
    created: float
    last_seen: float
    game_number: int
    seats: tuple[str, str | None]  # seat_hash() of (host, guest)
    connected: tuple[bool, bool]
    record: dict  # engine.game.Game.to_dict()
    rematch: tuple[int, ...]
    first_seat: int = 0
    names: tuple[str | None, str | None] = (None, None)
    clock: dict | None = None  # GameClock.to_dict()


def _pair(values: list) -> tuple:
    first, second = values
    return first, second


def _private(path: Path) -> None:
    """Make ``path`` and its -wal and -shm files readable by this user only (SQLite makes the other two
    with the database's mode; older servers made all three readable by everyone)."""
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            mode = stat.S_IMODE(p.stat().st_mode)
        except FileNotFoundError:
            continue
        if mode & 0o077:
            os.chmod(p, mode & 0o700)
            log.warning("%s was readable by others (mode %o): now %o", p, mode, mode & 0o700)


class RoomStore:
    """The rooms table of one SQLite file. :meth:`load` at start, then :meth:`save` and :meth:`delete`
    from the event loop (after :meth:`start`), :meth:`close` at the end."""

    def __init__(self, path: str | Path, timeout: float = 5.0):
        """Open (or make) the file; ``timeout``: how long a write waits for a lock another process holds
        on the file before it fails."""
        self.path = Path(path)
        try:
            if self.path.is_dir():
                raise StoreError(f"{self.path}: is a directory")
            if not self.path.exists():  # made private from the start: it never holds a row readable by others
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            self._db = sqlite3.connect(self.path, timeout=timeout, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as err:
            raise StoreError(f"{self.path}: {err}") from None
        try:
            self._open()
            _private(self.path)
        except OSError as err:
            self._db.close()
            raise StoreError(f"{self.path}: {err}") from None
        except sqlite3.Error as err:
            self._db.close()
            raise StoreError(f"{self.path}: {err}") from None
        except StoreError:
            self._db.close()
            raise
        self._dirty: dict[str, Callable[[], RoomRecord] | None] = {}  # room id -> snapshot, None to delete
        self._waiting: list[asyncio.Future] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task | None = None
        self._closing = False

    def _open(self) -> None:
        db = self._db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        check = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
        if check != ["ok"]:
            raise StoreError(f"{self.path}: the database is damaged ({'; '.join(map(str, check[:3]))})")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        columns = tuple(row[1] for row in db.execute("PRAGMA table_info(rooms)"))
        if version == 1 or (version == 0 and columns == _V1_COLUMNS):
            self._migrate_from_1(columns)
        elif version not in (0, SCHEMA_VERSION):
            raise StoreError(f"{self.path}: rooms database of schema {version}, this server reads {SCHEMA_VERSION}")
        elif columns and columns != _COLUMNS:
            raise StoreError(f"{self.path}: its rooms table has other columns ({', '.join(columns)})")
        db.execute(_SCHEMA)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _migrate_from_1(self, columns: tuple[str, ...]) -> None:
        """Schema 1 kept seat secrets in plain text and knew no pairing or clock: hash the secrets, add
        the columns (every such room is a friend's room without the clock, its host moving first)."""
        if columns != _V1_COLUMNS:
            raise StoreError(f"{self.path}: its rooms table has other columns ({', '.join(columns)})")
        db = self._db
        with db:
            db.execute("BEGIN")
            rows = db.execute("SELECT id, host_secret, guest_secret FROM rooms").fetchall()
            db.execute("ALTER TABLE rooms RENAME COLUMN host_secret TO host_seat")
            db.execute("ALTER TABLE rooms RENAME COLUMN guest_secret TO guest_seat")
            db.execute("ALTER TABLE rooms ADD COLUMN first_seat INTEGER NOT NULL DEFAULT 0")
            db.execute("ALTER TABLE rooms ADD COLUMN names TEXT NOT NULL DEFAULT '[null,null]'")
            db.execute("ALTER TABLE rooms ADD COLUMN clock TEXT")
            for room_id, host, guest in rows:
                db.execute("UPDATE rooms SET host_seat = ?, guest_seat = ? WHERE id = ?",
                           (seat_hash(str(host)), seat_hash(guest) if guest is not None else None, room_id))
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("VACUUM")  # the plain secrets leave the file's free pages too ...
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # ... and the main file, not only the WAL
        log.info("%s: rooms database updated to schema %d (%d rooms, seat secrets hashed)",
                 self.path, SCHEMA_VERSION, len(rows))

    def load(self) -> list[RoomRecord]:
        """Every stored room; a row that can't be read is logged and skipped (it never stops the server).
        StoreError when the table can't be read at all."""
        try:
            rows = self._db.execute(f"SELECT {', '.join(_COLUMNS)} FROM rooms").fetchall()
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: {err}") from None
        out = []
        for row in rows:
            try:
                connected = _pair(json.loads(row[7]))
                names = _pair(json.loads(row[11]))
                if not all(n is None or isinstance(n, str) for n in names):
                    raise ValueError(f"names must be text or null, not {names!r}")
                clock = json.loads(row[12]) if row[12] is not None else None
                if clock is not None and not isinstance(clock, dict):
                    raise ValueError(f"clock must be an object, not {clock!r}")
                out.append(RoomRecord(row[0], row[1], float(row[2]), float(row[3]), int(row[4]), (row[5], row[6]),
                                      (bool(connected[0]), bool(connected[1])), json.loads(row[8]),
                                      tuple(int(p) for p in json.loads(row[9])), int(row[10]), names, clock))
            except (ValueError, TypeError) as err:
                log.error("room %s: stored row unreadable, skipped: %s", row[0], err)
        return out

    # --- writing (on the event loop) --------------------------------------------------------------

    def start(self) -> None:
        """Start the writer task on the running loop."""
        self._wake = asyncio.Event()
        self._writer = asyncio.get_running_loop().create_task(self._write_forever())

    def save(self, room_id: str, snapshot: Callable[[], RoomRecord]) -> asyncio.Future:
        """Write the room as ``snapshot()`` gives it at commit time; the future is done once it is on
        disk, or fails with the commit's error."""
        return self._mark(room_id, snapshot)

    def delete(self, room_id: str) -> asyncio.Future:
        return self._mark(room_id, None)

    def _mark(self, room_id: str, snapshot: Callable[[], RoomRecord] | None) -> asyncio.Future:
        assert self._wake is not None, "RoomStore.start() first"
        self._dirty[room_id] = snapshot
        done = asyncio.get_running_loop().create_future()
        self._waiting.append(done)
        self._wake.set()
        return done

    async def _write_forever(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._dirty:
                await self._write_batch()
            if self._closing and not self._dirty:
                return

    async def _write_batch(self) -> None:
        dirty, waiting = self._dirty, self._waiting
        self._dirty, self._waiting = {}, []
        rows = {room_id: (snap() if snap is not None else None) for room_id, snap in dirty.items()}
        try:
            await asyncio.to_thread(self._commit, rows)
        except Exception as err:  # every waiter learns of it
            log.error("rooms database write failed (%d rooms, nothing of them written): %s", len(rows), err)
            for f in waiting:
                if not f.done():
                    f.set_exception(err)
        else:
            for f in waiting:
                if not f.done():
                    f.set_result(None)

    def _commit(self, rows: dict[str, RoomRecord | None]) -> None:
        with self._db:  # one transaction
            self._db.execute("BEGIN")
            for room_id, r in rows.items():
                if r is None:
                    self._db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
                    continue
                self._db.execute(
                    f"INSERT OR REPLACE INTO rooms ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                    (r.id, r.variant, r.created, r.last_seen, r.game_number, r.seats[0], r.seats[1],
                     json.dumps(list(r.connected)), json.dumps(r.record, separators=(",", ":")),
                     json.dumps(list(r.rematch)), r.first_seat, json.dumps(list(r.names), ensure_ascii=False),
                     json.dumps(r.clock, separators=(",", ":")) if r.clock is not None else None))

    async def close(self) -> None:
        """Write what is pending, stop the writer and close the file."""
        if self._writer is not None and self._wake is not None:
            self._closing = True
            self._wake.set()
            await self._writer
            self._writer = None
        self._db.close()

    def close_now(self) -> None:
        """Close the file without a loop (when the writer never started)."""
        self._db.close()

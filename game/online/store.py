"""Rooms kept in SQLite (stdlib ``sqlite3``), so a server that crashes or restarts loses nothing.

One row per room: rules, created and last-seen times, the game counter, both seat secrets, who was
connected, the game record (``engine.game.Game.to_dict``, moves as text) and the rematch requests. The
database runs in WAL mode with ``synchronous=FULL``: a commit is on disk (the WAL fsynced) when it
returns, and the server acknowledges a move only after its commit.

Writes are batched: :meth:`RoomStore.save` marks a room dirty and returns a future; one writer task
snapshots every dirty room (on the event loop, so a game is never read while it changes), commits them
in one transaction on a worker thread and then resolves the futures of all of them. Under load many
rooms share one fsync (group commit); a room saved twice before its commit is written once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("checkers3d.server")

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    created REAL NOT NULL,        -- unix time
    last_seen REAL NOT NULL,      -- unix time a player was last connected
    game_number INTEGER NOT NULL, -- games in the room, from 1
    host_secret TEXT NOT NULL,    -- the creator's seat
    guest_secret TEXT,            -- the friend's seat, NULL until someone joins
    connected TEXT NOT NULL,      -- JSON [host, guest] booleans at the last write
    record TEXT NOT NULL,         -- JSON engine.game.Game.to_dict() of the current game
    rematch TEXT NOT NULL         -- JSON list of players (0 host, 1 guest) who asked for a rematch
)
"""


@dataclass(frozen=True)
class RoomRecord:
    """A room as stored: everything needed to bring it back after a restart."""

    id: str
    variant: str
    created: float
    last_seen: float
    game_number: int
    secrets: tuple[str, str | None]  # (host, guest)
    connected: tuple[bool, bool]
    record: dict  # engine.game.Game.to_dict()
    rematch: tuple[int, ...]


def _pair(flags: list) -> tuple[bool, bool]:
    host, guest = flags
    return bool(host), bool(guest)


class RoomStore:
    """The rooms table of one SQLite file. :meth:`load` at start, then :meth:`save` and :meth:`delete`
    from the event loop (after :meth:`start`), :meth:`close` at the end."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise RuntimeError(f"{self.path}: rooms database of schema {version}, this server reads {SCHEMA_VERSION}")
        self._db.execute(_SCHEMA)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._dirty: dict[str, Callable[[], RoomRecord] | None] = {}  # room id -> snapshot, None to delete
        self._waiting: list[asyncio.Future] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task | None = None
        self._closing = False

    def load(self) -> list[RoomRecord]:
        """Every stored room; a row that can't be read is logged and skipped (it never stops the server)."""
        rows = self._db.execute(
            "SELECT id, variant, created, last_seen, game_number, host_secret, guest_secret, connected, record, rematch"
            " FROM rooms").fetchall()
        out = []
        for row in rows:
            try:
                out.append(RoomRecord(row[0], row[1], float(row[2]), float(row[3]), int(row[4]), (row[5], row[6]),
                                      _pair(json.loads(row[7])), json.loads(row[8]),
                                      tuple(int(p) for p in json.loads(row[9]))))
            except (ValueError, TypeError) as err:
                log.error("room %s: stored row unreadable, skipped: %s", row[0], err)
        return out

    # --- writing (on the event loop) --------------------------------------------------------------

    def start(self) -> None:
        """Start the writer task on the running loop."""
        self._wake = asyncio.Event()
        self._writer = asyncio.get_running_loop().create_task(self._write_forever())

    def save(self, room_id: str, snapshot: Callable[[], RoomRecord]) -> asyncio.Future:
        """Write the room as ``snapshot()`` gives it at commit time; the future is done once it is on disk."""
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
            log.exception("rooms database write failed")
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
                    "INSERT OR REPLACE INTO rooms (id, variant, created, last_seen, game_number, host_secret,"
                    " guest_secret, connected, record, rematch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (r.id, r.variant, r.created, r.last_seen, r.game_number, r.secrets[0], r.secrets[1],
                     json.dumps(list(r.connected)), json.dumps(r.record, separators=(",", ":")),
                     json.dumps(list(r.rematch))))

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

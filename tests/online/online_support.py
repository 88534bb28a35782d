"""Helpers of the online tests: a real WebSocket client speaking raw JSON, and the room server as a
separate process (for killing and restarting it). Every server binds 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]


class Wire:
    """One raw connection: send dicts (or text), receive decoded messages, with timeouts."""

    def __init__(self, url: str, **options):
        self._stack = ExitStack()
        self.ws = self._stack.enter_context(connect(url, open_timeout=10, max_size=2 ** 20, **options))
        self.seen: list[dict] = []  # messages skipped by until()
        self.last_state: dict | None = None

    def send(self, message: dict | str | bytes) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = 5.0) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "state":
            self.last_state = message
        return message

    def until(self, kind: str, timeout: float = 5.0, **match) -> dict:
        """The next message of this type (whose fields equal ``match``), skipping others."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind} {match or ''} within {timeout} s; skipped {self.seen[-5:]}")
            message = self.recv(left)
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message
            self.seen.append(message)

    def error(self, message: dict | str | bytes) -> dict:
        """Send, and return the error it gets."""
        self.send(message)
        return self.until("error")

    def close(self) -> None:
        self._stack.close()


def seat_two(url: str, variant: str = "american") -> tuple[Wire, Wire, dict, dict]:
    """A room with both players: (host, guest, host's joined, guest's joined), states drained."""
    host = Wire(url)
    host.send({"type": "create", "variant": variant})
    hj = host.until("joined")
    host.until("state")
    guest = Wire(url)
    guest.send({"type": "join", "room": hj["room"]})
    gj = guest.until("joined")
    guest.until("state")
    host.until("state")
    return host, guest, hj, gj


def resume(url: str, joined: dict) -> tuple[Wire, dict]:
    """A new connection back on the seat of ``joined`` (a joined or paired message): (it, its state)."""
    wire = Wire(url)
    wire.send({"type": "resume", "room": joined["room"], "seat": joined["seat"]})
    assert wire.until("joined")["seat"] == joined["seat"]
    return wire, wire.until("state")


def play(mover: Wire, other: Wire, move: str, ply: int, offer_draw: bool = False) -> dict:
    """Play a move (the game's ``ply``-th) and return the state both get (asserting they agree)."""
    mover.send({"type": "move", "move": move, "offer_draw": offer_draw})
    mine, theirs = state_with(mover, ply), state_with(other, ply)
    assert {k: v for k, v in mine.items() if k != "you"} == {k: v for k, v in theirs.items() if k != "you"}
    return mine


def state_with(wire: Wire, plies: int, timeout: float = 5.0) -> dict:
    """The next state with this many moves; an error on the way fails the test."""
    end = time.monotonic() + timeout
    while True:
        m = wire.recv(max(0.01, end - time.monotonic()))
        if m["type"] == "error":
            raise AssertionError(f"refused: {m}")
        if m["type"] == "state" and len(m["moves"]) == plies:
            return m


class ServerProcess:
    """``python -m game.online.server`` on 127.0.0.1; reads its log lines from standard error."""

    def __init__(self, *args: str, port: int = 0, open_files: tuple[int, int] | None = None):
        """``open_files``: the (soft, hard) limit on open files the server starts with."""
        self.args, self.port = list(args), port
        self.open_files = open_files
        self.proc: subprocess.Popen | None = None
        self.log: list[str] = []

    def start(self, timeout: float = 60.0) -> "ServerProcess":
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.log = []
        limits = self.open_files

        def set_limits() -> None:
            if limits is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, limits)

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "game.online.server", "--host", "127.0.0.1", "--port", str(self.port), *self.args],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            preexec_fn=set_limits)
        listening = threading.Event()

        def read():
            assert self.proc is not None and self.proc.stderr is not None
            for line in self.proc.stderr:
                self.log.append(line.rstrip("\n"))
                m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
                if m:
                    self.port = int(m.group(1))
                    listening.set()

        threading.Thread(target=read, daemon=True).start()
        if not listening.wait(timeout):
            self.kill()
            raise TimeoutError(f"server did not start: {self.log}")
        return self

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def rss_mib(self) -> float:
        """The server's resident memory now."""
        assert self.proc is not None
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def wait_for_log(self, text: str, timeout: float = 10.0) -> str:
        """The first log line with ``text`` in it, waiting for it to come."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in list(self.log):
                if text in line:
                    return line
            time.sleep(0.02)
        raise TimeoutError(f"no log line with {text!r} within {timeout} s: {self.log[-10:]}")

    def kill(self) -> None:
        """SIGKILL: no goodbye, no flush."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def terminate(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(10)


@contextmanager
def write_lock(db: Path):
    """Hold the rooms database's write lock, as another process's long transaction would: the server's
    commits wait for it (and fail after the server's busy timeout)."""
    sql = sqlite3.connect(db, isolation_level=None, timeout=10)
    sql.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        sql.execute("ROLLBACK")
        sql.close()


def drain(wire: Wire, seconds: float) -> list[dict]:
    """Every message that comes to ``wire`` within ``seconds`` (a closed connection ends it early)."""
    out = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            out.append(wire.recv(left))
        except TimeoutError:
            break
        except Exception:  # closed
            break
    return out

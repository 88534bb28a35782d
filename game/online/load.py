"""Load measurement of the room server: how many rooms and moves per second one server process takes,
and its memory per room.

    python -m game.online.load --rooms 200 --seconds 10 [--db FILE] [--think 0] [--never-reading]

It starts ``python -m game.online.server`` on 127.0.0.1 (any free port) as a separate process, then in
this process opens ``--rooms`` rooms (two WebSocket connections each: create, join) and has every room
play random legal moves as fast as the server answers (each move waits for the server's state; a
finished game is followed by a rematch) for ``--seconds``. ``--think S`` makes each player wait S
seconds before a move, for many rooms at a human pace. Then it stops everything and prints:

* rooms/s: rooms opened (create + join answered) per second while opening them all, and per second
  of the server's CPU time;
* moves/s: moves acknowledged per second by all rooms together, and the median and 99th percentile of
  the time from sending a move to its state;
* the server process's CPU (percent of one core) during play: moves/s divided by that share is what
  one core would carry with the clients elsewhere;
* the server's resident memory before any room, after opening them, and after play, per room, and
  the most it reached during play.

``--never-reading`` adds issue 22's attacker while the rooms play: one more connection, with a small
receive buffer, that sends pings as fast as it can and never reads. It reports when the server cut it
off; the rooms' latencies and the server's memory show what it cost them. ``--rate-limit N`` passes the
server's rate limit (a high one answers every ping, so the attacker meets the unsent-data limit
rather than the flood limit).

Every connection goes to 127.0.0.1 and every loop is bounded in count and time. The clients pick their
moves with the rules engine in this process, so on a small machine they share the CPU with the server:
the numbers are a floor, and noisy when other work runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from engine import Position, variant_named

from .protocol import Create, Join, PlayMove, Rematch, encode

_CONNECT_AT_ONCE = 50  # rooms being opened at the same time
_HANDSHAKE = (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
_SEND_INTERVAL_S = 1 / 18  # each connection stays under the server's 20 messages a second


@dataclass
class Stats:
    moves: int = 0
    errors: int = 0
    games_finished: int = 0
    latencies: list[float] = field(default_factory=list)


class Side:
    """One player's connection: keeps the latest state it received."""

    def __init__(self, conn: ClientConnection):
        self.conn = conn
        self.state: dict | None = None
        self.joined: dict | None = None
        self.errors = 0
        self.last_error: dict | None = None
        self.changed = asyncio.Event()
        self._last_send = 0.0

    async def send(self, text: str) -> float:
        """Send, first waiting as long as the server's rate limit asks; returns when it was sent."""
        wait = self._last_send + _SEND_INTERVAL_S - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_send = time.monotonic()
        await self.conn.send(text)
        return self._last_send

    async def read(self) -> None:
        try:
            async for text in self.conn:
                message = json.loads(text)
                if message["type"] == "state":
                    self.state = message
                elif message["type"] == "joined":
                    self.joined = message
                elif message["type"] == "error":
                    self.errors += 1
                    self.last_error = message
                self.changed.set()
        except WebSocketException:
            pass

    async def until(self, done, timeout: float) -> None:
        end = time.monotonic() + timeout
        while True:
            self.changed.clear()
            if done(self):
                return
            await asyncio.wait_for(self.changed.wait(), max(0.001, end - time.monotonic()))


async def open_room(url: str, variant: str) -> tuple[Side, Side, list[asyncio.Task]]:
    host = Side(await connect(url, compression=None, max_size=2 ** 20))
    tasks = [asyncio.get_running_loop().create_task(host.read())]
    await host.send(encode(Create(variant)))
    await host.until(lambda s: s.joined is not None, 30)
    assert host.joined is not None
    guest = Side(await connect(url, compression=None, max_size=2 ** 20))
    tasks.append(asyncio.get_running_loop().create_task(guest.read()))
    await guest.send(encode(Join(host.joined["room"])))
    await guest.until(lambda s: s.state is not None and s.state["players"]["white"]["seated"], 30)
    await host.until(lambda s: s.state is not None and s.state["players"]["white"]["seated"], 30)
    return host, guest, tasks


def _at(game: int, plies: int):
    """A wait condition: the side's state is game ``game`` with ``plies`` moves, or it got an error."""
    return lambda s: s.errors > 0 or (s.state is not None and s.state["game"] == game and len(s.state["moves"]) == plies)


async def play_room(host: Side, guest: Side, variant: str, rng: random.Random, stats: Stats, stop_at: float,
                    think: float) -> None:
    v = variant_named(variant)
    while time.monotonic() < stop_at:
        state = host.state
        assert state is not None
        number, plies = state["game"], len(state["moves"])
        if state["outcome"] is not None:
            stats.games_finished += 1
            for side in (host, guest):
                await side.send(encode(Rematch()))
            await host.until(_at(number + 1, 0), 30)
            continue
        mover = host if state["you"] == state["to_move"] else guest
        await mover.until(_at(number, plies), 30)
        assert mover.state is not None
        pos = Position.from_fen(v, mover.state["fen"])
        move = rng.choice(pos.legal_moves())
        if think:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        sent = await mover.send(encode(PlayMove(pos.move_text(move))))
        await mover.until(_at(number, plies + 1), 30)
        if mover.errors or host.errors or guest.errors:
            stats.errors += 1
            return
        stats.latencies.append(time.monotonic() - sent)
        stats.moves += 1
        await host.until(_at(number, plies + 1), 30)


class NeverReader:
    """A client that never reads (issue 22, defect 1): a WebSocket with a 4 KiB receive buffer sending
    ``{"type":"ping"}`` as fast as the server takes it, on a thread, for up to ``seconds``.
    ``dropped_after`` is the time until the server cut it off (None while it hasn't)."""

    def __init__(self, port: int, seconds: float):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(_HANDSHAKE)
        self.sock.settimeout(1.0)
        self.seconds = seconds
        self.pings = 0
        self.dropped_after: float | None = None
        self._thread = threading.Thread(target=self._run, name="never-reader", daemon=True)
        self._thread.start()

    @property
    def is_running(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        payload = b'{"type":"ping"}'
        burst = (bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload) * 64  # masked frames, mask 0
        t0 = time.monotonic()
        while time.monotonic() - t0 < self.seconds:
            try:
                self.sock.sendall(burst)
                self.pings += 64
            except TimeoutError:
                continue  # the server reads no more of it, but has not dropped it yet
            except OSError:
                self.dropped_after = time.monotonic() - t0
                return

    def stop(self) -> None:
        self.seconds = 0
        self._thread.join(5)
        self.sock.close()


class ServerProcess:
    """The room server as a child process on 127.0.0.1, with its CPU time and memory read from /proc."""

    def __init__(self, db: str | None, rate_limit: int | None = None):
        args = [sys.executable, "-m", "game.online.server", "--host", "127.0.0.1", "--port", "0",
                "--max-rooms", "1000000", "--max-rooms-per-address", "1000000"]
        if db:
            args += ["--db", db]
        if rate_limit:
            args += ["--rate-limit", str(rate_limit)]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self.port = 0
        ready = threading.Event()

        def read() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
                if m:
                    self.port = int(m.group(1))
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(120):
            self.proc.kill()
            raise RuntimeError("the server did not start")

    def cpu_s(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def measure(args: argparse.Namespace) -> dict:
    server = ServerProcess(args.db, args.rate_limit)
    url = f"ws://127.0.0.1:{server.port}/"
    rng = random.Random(args.seed)
    try:
        base_rss = server.rss_mib()
        gate = asyncio.Semaphore(_CONNECT_AT_ONCE)
        variants = [("american", "international")[i % 2] for i in range(args.rooms)]

        async def opened(variant: str):
            async with gate:
                return await open_room(url, variant)

        cpu_open, t0 = server.cpu_s(), time.monotonic()
        rooms = await asyncio.wait_for(asyncio.gather(*(opened(v) for v in variants)), args.seconds + 300)
        open_s, cpu_open = time.monotonic() - t0, server.cpu_s() - cpu_open
        rooms_rss = server.rss_mib()
        stats = Stats()
        peak_rss = [rooms_rss]
        sampling = True

        def sample() -> None:
            while sampling:
                peak_rss[0] = max(peak_rss[0], server.rss_mib())
                time.sleep(0.2)  # light: this process's clients share its interpreter

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        attacker = NeverReader(server.port, args.seconds) if args.never_reading else None
        cpu0, t1 = server.cpu_s(), time.monotonic()
        stop_at = t1 + args.seconds
        players = [play_room(h, g, v, random.Random(rng.random()), stats, stop_at, args.think)
                   for (h, g, _), v in zip(rooms, variants, strict=True)]
        await asyncio.wait_for(asyncio.gather(*players), args.seconds + 120)
        play_s, cpu = time.monotonic() - t1, server.cpu_s() - cpu0
        if attacker is not None:
            attacker.stop()
        sampling = False
        sampler.join()
        played_rss = server.rss_mib()
        for h, g, tasks in rooms:
            await h.conn.close()
            await g.conn.close()
            for t in tasks:
                t.cancel()
        lat = sorted(stats.latencies) or [0.0]
        return {
            "rooms": args.rooms, "db": bool(args.db), "think_s": args.think,
            "rooms_per_s": round(args.rooms / open_s, 1), "open_s": round(open_s, 2),
            "rooms_per_cpu_s": round(args.rooms / cpu_open, 1) if cpu_open else None,
            "moves": stats.moves, "moves_per_s": round(stats.moves / play_s, 1), "play_s": round(play_s, 2),
            "games_finished": stats.games_finished, "errors": stats.errors,
            "latency_ms_median": round(1000 * statistics.median(lat), 2),
            "latency_ms_p99": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2),
            "server_cpu_percent": round(100 * cpu / play_s, 1),
            "moves_per_cpu_s": round(stats.moves / cpu, 1) if cpu else None,
            "rss_mib_base": round(base_rss, 1), "rss_mib_rooms": round(rooms_rss, 1), "rss_mib_played": round(played_rss, 1),
            "kib_per_room_opened": round(1024 * (rooms_rss - base_rss) / args.rooms, 1),
            "kib_per_room_played": round(1024 * (played_rss - base_rss) / args.rooms, 1),
            "kib_per_move": round(1024 * (played_rss - rooms_rss) / stats.moves, 2) if stats.moves else None,
            "rss_mib_max_during_play": round(peak_rss[0], 1),
            **({"never_reading_pings_sent": attacker.pings,
                "never_reading_dropped_after_s": (round(attacker.dropped_after, 2)
                                                  if attacker.dropped_after is not None else None)}
               if attacker is not None else {}),
        }
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m game.online.load", description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=200, help="rooms playing at once (default 200)")
    p.add_argument("--seconds", type=float, default=10.0, help="how long they play (default 10)")
    p.add_argument("--think", type=float, default=0.0, metavar="S", help="seconds each player waits before a move")
    p.add_argument("--db", metavar="FILE", help="the server keeps rooms in this SQLite file (default: in memory)")
    p.add_argument("--never-reading", action="store_true",
                   help="add a client that floods pings and never reads, while the rooms play")
    p.add_argument("--rate-limit", type=int, metavar="N", help="the server's --rate-limit (default: its own)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    if not 1 <= args.rooms <= 20000 or not 0 < args.seconds <= 3600:
        p.error("--rooms 1..20000, --seconds up to 3600")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 4 * args.rooms + 256)  # both ends of every connection, server and clients
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    result = asyncio.run(measure(args))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:22} {value}")
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

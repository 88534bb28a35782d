"""The room server against a hostile or unlucky internet (issue 22's defects), each with a real server
on a free port of 127.0.0.1 and real clients: a client that never reads, floods, rooms hoarded by one
connection or address, file descriptors run out, a slow or failed commit and a SIGKILL, Unicode digits
in a move, a damaged database, the database's file modes, a host joining its own room."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from online_support import ROOT, ServerProcess, Wire, drain, play, resume, seat_two, state_with, write_lock
from websockets.exceptions import ConnectionClosed

from game.online.load import NeverReader
from game.online.protocol import MAX_UNSENT_BYTES

HANDSHAKE = (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")


# --- 1: memory, floods, keepalive -------------------------------------------------------------------------

def test_a_client_that_never_reads_is_dropped_and_the_servers_memory_stays_bounded():
    """Every ping answered (a rate limit that lets all through), none read: the answers pile up on the
    server until its unsent data passes 64 KiB, and then it drops the connection. Before: 145 -> 866 MiB
    in 75 s, never dropped. Meanwhile a room plays on."""
    server = ServerProcess("--rate-limit", "1000000").start()
    try:
        host, guest, _, _ = seat_two(server.url)
        base = server.rss_mib()
        attacker = NeverReader(server.port, seconds=40)
        peak, moves = base, 0
        texts = [("11-15", "23-19"), ("8-11", "22-17"), ("4-8", "17-13"), ("15-18", "24-20"), ("9-14", "27-23")]
        for a, b in texts:
            play(host, guest, a, 2 * moves + 1)
            play(guest, host, b, 2 * moves + 2)
            moves += 1
            peak = max(peak, server.rss_mib())
        while attacker.dropped_after is None and attacker.is_running:
            peak = max(peak, server.rss_mib())
            time.sleep(0.1)
        attacker.stop()
        assert attacker.dropped_after is not None, f"not dropped; sent {attacker.pings} pings"
        line = server.wait_for_log("unsent")
        assert f"more than {MAX_UNSENT_BYTES // 1024} KiB unsent" in line
        assert peak - base < 40, f"the server grew from {base:.0f} to {peak:.0f} MiB"
        play(host, guest, "18x27", 11)  # and the room still plays
    finally:
        server.kill()


def test_a_flood_gets_one_rate_limited_answer_and_then_a_close(server):
    wire = Wire(server.url)
    sent = 0
    with contextlib.suppress(ConnectionClosed):  # the close may come before the 400th
        for _ in range(400):
            wire.send({"type": "ping"})
            sent += 1
    assert sent > 220  # 20 answered, 200 refused in the window, then one more is the flood
    answers = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            answers.append(wire.recv()["type"])
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert answers.count("pong") == 20 and answers.count("error") == 1
    host, guest, _, _ = seat_two(server.url)  # nobody else minds
    play(host, guest, "11-15", 1)


def test_the_keepalive_closes_a_connection_that_answers_nothing(make_server):
    server = make_server(ping_interval=0.3)
    sock = socket.create_connection(("127.0.0.1", server.address.port))
    sock.sendall(HANDSHAKE)
    sock.settimeout(5)
    got = b""
    t0 = time.monotonic()
    while time.monotonic() - t0 < 5:
        chunk = sock.recv(4096)
        if not chunk:
            break
        got += chunk
    sock.close()
    assert not chunk, "still open after 5 s"
    assert b"\x89" in got and b"\x88" in got  # pings came, then the close frame (no pong from us)


# --- 2: rooms ---------------------------------------------------------------------------------------------

def rooms_in(server) -> int:
    return server.call(lambda: len(server.server.rooms))


def test_one_connection_holds_at_most_one_room_nobody_joined(make_server):
    server = make_server(max_rooms=20, rate_limit=1000)
    hoarder = Wire(server.url)
    made = []
    for _ in range(50):  # the attack filled --max-rooms 200 in 10.5 s this way
        hoarder.send({"type": "create", "variant": "american"})
        made.append(hoarder.until("joined")["room"])
    assert rooms_in(server) == 1
    probe = Wire(server.url)
    for room in made[:-1]:
        assert probe.error({"type": "join", "room": room})["code"] == "no_such_room"
    honest = Wire(server.url)
    honest.send({"type": "create", "variant": "international"})
    assert honest.until("joined")
    probe.send({"type": "join", "room": made[-1]})  # the last one is there to join
    assert probe.until("joined")["room"] == made[-1]


def test_rooms_made_from_one_address_are_capped(make_server):
    server = make_server(max_rooms_per_address=3)

    def create_from(address: str | None) -> dict:
        headers = {"X-Forwarded-For": f"198.51.100.1, {address}"} if address else {}
        wire = Wire(server.url, additional_headers=headers)
        wire.send({"type": "create", "variant": "american"})
        return wire.until("joined")

    for _ in range(3):
        assert create_from("203.0.113.7")["room"]
    hoard = Wire(server.url, additional_headers={"X-Forwarded-For": "203.0.113.7"})
    error = hoard.error({"type": "create", "variant": "american"})
    assert error["code"] == "too_many_rooms" and "your address" in error["message"]
    assert create_from("203.0.113.8")["room"]  # another address behind the same proxy
    assert create_from(None)["room"]  # and the proxy's (this machine's) own


def test_a_room_nobody_joined_lives_briefly_after_its_host_left(make_server):
    server = make_server(unjoined_timeout=0.3, idle_timeout=60, sweep_interval=0.05)
    lonely = Wire(server.url)
    lonely.send({"type": "create", "variant": "american"})
    lonely_room = lonely.until("joined")["room"]
    host, guest, hj, gj = seat_two(server.url)
    lonely.close()
    host.close()
    guest.close()
    time.sleep(0.8)
    probe = Wire(server.url)
    assert probe.error({"type": "join", "room": lonely_room})["code"] == "no_such_room"
    probe.send({"type": "resume", "room": hj["room"], "seat": hj["seat"]})  # a joined room stays
    assert probe.until("joined")["room"] == hj["room"]


def test_a_host_cannot_join_its_own_room(server):
    host = Wire(server.url)
    host.send({"type": "create", "variant": "american"})
    joined = host.until("joined")
    error = host.error({"type": "join", "room": joined["room"]})
    assert error["code"] == "own_room" and "link" in error["message"]
    again = Wire(server.url)  # the host's seat on another connection: still the host
    again.send({"type": "resume", "room": joined["room"], "seat": joined["seat"]})
    again.until("joined")
    assert again.error({"type": "join", "room": joined["room"]})["code"] == "own_room"
    friend = Wire(server.url)
    friend.send({"type": "join", "room": joined["room"]})
    assert friend.until("joined")["color"] == "white"
    play(again, friend, "11-15", 1)


# --- 3: file descriptors ----------------------------------------------------------------------------------

def _our_file_limit(at_least: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < at_least:
        pytest.skip(f"this machine allows {hard} open files, the test needs {at_least}")
    if soft < at_least:
        resource.setrlimit(resource.RLIMIT_NOFILE, (at_least, hard))


def half_open(port: int, count: int) -> list[socket.socket]:
    """Connections that start a handshake and never finish it."""
    out = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET / HTTP/1.1\r\n")
        out.append(s)
    return out


def test_1100_half_open_connections_leave_honest_clients_served():
    """The server starts with the usual soft limit of 1024 open files and raises it to the hard one."""
    _our_file_limit(3000)
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    server = ServerProcess(open_files=(1024, hard)).start()
    held: list[socket.socket] = []
    try:
        assert f"open-file limit {hard}" in server.wait_for_log("listening on")
        held = half_open(server.port, 1100)
        for i in range(5):
            host, guest, _, _ = seat_two(server.url, ("american", "international")[i % 2])
            play(host, guest, ("11-15", "32-28")[i % 2], 1)
        assert not any("accept" in line or "Traceback" in line for line in server.log)
    finally:
        for s in held:
            s.close()
        server.kill()


def test_a_full_accept_queue_is_logged_once_an_interval_not_per_attempt():
    _our_file_limit(1000)
    server = ServerProcess(open_files=(100, 100)).start()  # a hard limit it can't raise
    held: list[socket.socket] = []
    try:
        held = half_open(server.port, 150)
        time.sleep(3.5)  # asyncio retries accept() every second
        lines = [line for line in server.log if "can't accept new connections" in line]
        assert len(lines) == 1 and "open-file limit 100" in lines[0]
        assert not any("Traceback" in line for line in server.log)
        for s in held:
            s.close()
        held = []
        time.sleep(1.5)  # the next retry finds descriptors again
        host, guest, _, _ = seat_two(server.url)
        play(host, guest, "11-15", 1)
    finally:
        for s in held:
            s.close()
        server.kill()


# --- 4 and 8: nothing anyone sees before it is on disk ------------------------------------------------------

def test_a_delayed_commit_then_sigkill_loses_nothing_any_player_saw(tmp_path):
    """A move's commit waits (another process holds the database's write lock); meanwhile the mover's
    friend drops and a third connection resumes the friend's seat: nobody gets a state with the move.
    The server is killed, the lock let go, the server restarted: every room is as its players saw it."""
    db = tmp_path / "rooms.db"
    server = ServerProcess("--db", str(db), "--rate-limit", "1000").start()
    try:
        host, guest, hj, gj = seat_two(server.url)
        play(host, guest, "11-15", 1)
        play(guest, host, "23-19", 2)
        with write_lock(db):
            host.send({"type": "move", "move": "8-11"})
            time.sleep(0.3)
            guest.close()  # the friend's disconnect sends a state to the host: not before the commit
            back = Wire(server.url)
            back.send({"type": "resume", "room": gj["room"], "seat": gj["seat"]})
            seen = drain(host, 0.5) + drain(back, 0.5)
            assert all(len(m["moves"]) == 2 for m in seen if m["type"] == "state"), seen
            server.kill()
        server.start()
        for j in (hj, gj):
            _, state = resume(server.url, j)
            assert state["moves"] == ["11-15", "23-19"]
        # and the same with the commit let through: what was seen is on disk
        host = Wire(server.url)
        host.send({"type": "resume", "room": hj["room"], "seat": hj["seat"]})
        host.until("joined")
        with write_lock(db):
            host.send({"type": "move", "move": "8-11"})
            assert all(len(m["moves"]) == 2 for m in drain(host, 0.5) if m["type"] == "state")
        assert state_with(host, 3)["moves"][-1] == "8-11"
        server.kill()
        server.start()
        _, state = resume(server.url, gj)
        assert state["moves"] == ["11-15", "23-19", "8-11"]
    finally:
        server.kill()


def test_a_failed_commit_changes_nothing_and_says_so(make_server, tmp_path):
    db = tmp_path / "rooms.db"
    server = make_server(db=db, db_timeout=0.3, max_rooms=3)
    host, guest, hj, _ = seat_two(server.url)
    with write_lock(db):
        error = host.error({"type": "move", "move": "11-15"})
        assert error["code"] == "server_error" and "nothing changed" in error["message"]
        assert server.call(lambda: server.server.rooms[hj["room"]].record()["moves"]) == []
        assert all(len(m["moves"]) == 0 for m in drain(guest, 0.3) if m["type"] == "state")
        lonely = Wire(server.url)  # a create that isn't stored leaves no room behind
        assert lonely.error({"type": "create", "variant": "american"})["code"] == "server_error"
        assert rooms_in(server) == 1
    play(host, guest, "11-15", 1)  # the same move, once the database takes it
    for _ in range(2):  # the failed create took none of the 3 rooms allowed
        wire = Wire(server.url)
        wire.send({"type": "create", "variant": "american"})
        assert wire.until("joined")


# --- 5: Unicode digits ------------------------------------------------------------------------------------

def test_moves_with_unicode_digits_are_illegal_moves_not_a_closed_connection(server):
    host, guest, _, _ = seat_two(server.url)
    for text in ("\u00b2-15", "\u2460-15", "\u0661\u0661-\u0661\u0665", "11-\uff11\uff15", "c\u0663-d4"):
        error = host.error({"type": "move", "move": text})
        assert error["code"] == "illegal_move" and repr(text)[1:-1] in error["message"]
    host.send({"type": "ping"})
    assert host.until("pong")
    play(host, guest, "11-15", 1)


# --- 6 and 7: the database file ------------------------------------------------------------------------------

def run_server(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game.online.server", "--host", "127.0.0.1", "--port", "0", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def a_database_with_rooms(path: Path) -> None:
    server = ServerProcess("--db", str(path)).start()
    try:
        for _ in range(40):  # enough rows for pages past the first
            host, guest, _, _ = seat_two(server.url)
            play(host, guest, "11-15", 1)
            host.close()
            guest.close()
    finally:
        server.terminate()


def test_a_damaged_database_gets_the_same_one_line_message_as_one_that_cannot_be_opened(tmp_path):
    cases = {}
    cases["a directory"] = tmp_path / "dir.db"
    cases["a directory"].mkdir()
    cases["not a database"] = tmp_path / "text.db"
    cases["not a database"].write_text("these are not the rooms you are looking for\n" * 100)
    damaged = cases["damaged past its header"] = tmp_path / "damaged.db"
    a_database_with_rooms(damaged)
    data = bytearray(damaged.read_bytes())
    assert len(data) >= 4 * 4096
    data[4096:3 * 4096] = os.urandom(2 * 4096)  # pages 2 and 3; the header page stays good
    damaged.write_bytes(bytes(data))
    other = cases["a rooms table of another shape"] = tmp_path / "other.db"
    with sqlite3.connect(other) as sql:
        sql.execute("CREATE TABLE rooms (id TEXT PRIMARY KEY, stuff TEXT)")
    newer = cases["a newer schema"] = tmp_path / "newer.db"
    with sqlite3.connect(newer) as sql:
        sql.execute("PRAGMA user_version=9")
    for why, path in cases.items():
        result = run_server("--db", str(path))
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2, (why, result.stderr)
        assert len(lines) == 1 and lines[0].startswith(f"checkers3d-server: can't use the rooms database {path}"), (
            why, result.stderr)


def test_the_database_files_are_private_and_hold_no_seat_secret(tmp_path):
    db = tmp_path / "rooms.db"
    old_umask = os.umask(0o022)  # the usual: files readable by all unless made otherwise
    try:
        server = ServerProcess("--db", str(db)).start()
    finally:
        os.umask(old_umask)
    try:
        host, guest, hj, gj = seat_two(server.url)
        play(host, guest, "11-15", 1)
        files = [db, db.with_name("rooms.db-wal"), db.with_name("rooms.db-shm")]
        for f in files:
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
        everything = b"".join(f.read_bytes() for f in files)
        assert hj["room"].encode() in everything  # the rooms are there ...
        assert hj["seat"].encode() not in everything and gj["seat"].encode() not in everything  # ... not the secrets
    finally:
        server.kill()


def test_a_schema_1_database_is_updated_its_secrets_hashed_and_its_files_made_private(tmp_path):
    db = tmp_path / "rooms.db"
    secret = "PlainSecretOfSchema1xx"
    record = {"variant": "american", "start": "B:W21-32:B1-12", "moves": ["11-15"], "draw_offers": [False],
              "resigned": None, "draw_agreed": False}
    with sqlite3.connect(db) as sql:
        sql.execute("CREATE TABLE rooms (id TEXT PRIMARY KEY, variant TEXT NOT NULL, created REAL NOT NULL,"
                    " last_seen REAL NOT NULL, game_number INTEGER NOT NULL, host_secret TEXT NOT NULL,"
                    " guest_secret TEXT, connected TEXT NOT NULL, record TEXT NOT NULL, rematch TEXT NOT NULL)")
        sql.execute("INSERT INTO rooms VALUES ('OldRoom000000001', 'american', ?, ?, 1, ?, 'GuestSecretOfSchema1x',"
                    " '[false,false]', ?, '[]')", (time.time(), time.time(), secret, json.dumps(record)))
        sql.execute("PRAGMA user_version=1")
    os.chmod(db, 0o644)
    server = ServerProcess("--db", str(db)).start()
    try:
        wire = Wire(server.url)
        wire.send({"type": "resume", "room": "OldRoom000000001", "seat": secret})
        assert wire.until("joined")["color"] == "black"
        assert wire.until("state")["moves"] == ["11-15"]
        assert stat.S_IMODE(db.stat().st_mode) == 0o600
        files = [p for p in tmp_path.iterdir() if p.name.startswith("rooms.db")]
        assert all(secret.encode() not in p.read_bytes() for p in files)
    finally:
        server.kill()

"""Play someone online: seek, cancel_seek and the pairing, with a real server and real clients. Seekers
of the same rules are paired in the order they came, colours drawn at random and swapped on every
rematch; nobody twice, nobody with themselves, never a cancelled or departed seek."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter

import pytest
from online_support import ServerProcess, Wire, drain, play, write_lock
from websockets.asyncio.client import connect as async_connect

from game.online.client import RoomClient
from game.online.protocol import Paired, SeekCancelled, Seeking, State

FAST = dict(backoff=(0.05, 0.3), ping_interval=2.0)


def seek(url: str, variant: str, nickname: str) -> Wire:
    wire = Wire(url)
    wire.send({"type": "seek", "variant": variant, "nickname": nickname})
    assert wire.until("seeking") == {"type": "seeking", "variant": variant, "nickname": nickname}
    return wire


def test_two_seekers_are_paired_and_play_with_the_clock(server):
    ann = seek(server.url, "american", "Ann")
    bo = seek(server.url, "american", "Bo")
    pa, pb = ann.until("paired"), bo.until("paired")
    assert pa["room"] == pb["room"] and pa["seat"] != pb["seat"]
    assert (pa["opponent"], pb["opponent"]) == ("Bo", "Ann")
    assert {pa["color"], pb["color"]} == {"black", "white"}
    state = ann.until("state")
    assert state["players"][pa["color"]]["name"] == "Ann" and state["players"][pb["color"]]["name"] == "Bo"
    clock = state["clock"]
    assert (clock["main_s"], clock["periods"], clock["period_s"]) == (300.0, 3, 30.0)
    assert clock["running"] == "black" and 299 < clock["black"]["main_s"] <= 300
    bo.until("state")
    black, white = (ann, bo) if pa["color"] == "black" else (bo, ann)
    moved = play(black, white, "11-15", 1)
    assert moved["clock"]["running"] == "white" and moved["clock"]["black"]["main_s"] < 300
    again = Wire(server.url)  # the seat comes back with its secret, like a friend's
    again.send({"type": "resume", "room": pa["room"], "seat": pa["seat"]})
    assert again.until("joined")["color"] == pa["color"]


def test_seekers_of_other_rules_wait_and_a_cancelled_seek_is_never_paired(server):
    ann = seek(server.url, "american", "Ann")
    ann.send({"type": "cancel_seek"})
    assert ann.until("seek_cancelled") == {"type": "seek_cancelled"}
    assert ann.error({"type": "cancel_seek"})["code"] == "not_seeking"
    bo = seek(server.url, "american", "Bo")
    cy = seek(server.url, "international", "Cy")  # other rules: no match for Bo
    assert not [m for m in drain(bo, 0.3) + drain(ann, 0.1) + drain(cy, 0.1) if m["type"] == "paired"]
    dee = seek(server.url, "american", "Dee")
    assert bo.until("paired")["opponent"] == "Dee" and dee.until("paired")["opponent"] == "Bo"
    gone = seek(server.url, "american", "Eve")  # waits, then leaves: her seek goes with her connection
    gone.close()
    time.sleep(0.2)
    fay = seek(server.url, "american", "Fay")
    assert not [m for m in drain(fay, 0.3) if m["type"] == "paired"]
    gus = seek(server.url, "american", "Gus")
    assert fay.until("paired")["opponent"] == "Gus" and gus.until("paired")["opponent"] == "Fay"
    assert not [m for m in drain(cy, 0.1) if m["type"] == "paired"]  # still nobody for International


def test_a_seek_cancelled_while_its_pairing_is_stored_is_not_paired(make_server, tmp_path):
    db = tmp_path / "rooms.db"
    server = make_server(db=db)
    ann = seek(server.url, "american", "Ann")
    with write_lock(db):
        bo = seek(server.url, "american", "Bo")  # paired with Ann: the room waits for the database
        time.sleep(0.2)
        ann.send({"type": "cancel_seek"})
        assert ann.until("seek_cancelled")
        cy = seek(server.url, "american", "Cy")  # comes while Bo is taken: waits
    assert not [m for m in drain(ann, 0.5) if m["type"] in ("paired", "state")]
    # the room for Ann and Bo is deleted; Bo waits again, first in the queue, and Cy is there
    assert bo.until("paired")["opponent"] == "Cy" and cy.until("paired")["opponent"] == "Bo"
    assert server.call(lambda: len(server.server.rooms)) == 1


def test_a_pairing_that_cannot_be_stored_ends_both_seeks_and_leaves_no_room(make_server, tmp_path):
    db = tmp_path / "rooms.db"
    server = make_server(db=db, db_timeout=0.3)
    with write_lock(db):
        ann = seek(server.url, "american", "Ann")
        bo = seek(server.url, "american", "Bo")
        for wire in (ann, bo):
            error = wire.until("error")
            assert error["code"] == "server_error" and "seek again" in error["message"]
    assert server.call(lambda: len(server.server.rooms)) == 0
    assert ann.error({"type": "cancel_seek"})["code"] == "not_seeking"
    cy = seek(server.url, "american", "Cy")
    bo.send({"type": "seek", "variant": "american", "nickname": "Bo"})
    assert bo.until("paired")["opponent"] == "Cy" and cy.until("paired")["opponent"] == "Bo"


def test_seeking_leaves_a_seat_and_a_room_nobody_joined(server):
    host = Wire(server.url)
    host.send({"type": "create", "variant": "american"})
    room = host.until("joined")["room"]
    host.send({"type": "seek", "variant": "american", "nickname": "Host"})
    host.until("seeking")
    probe = Wire(server.url)
    assert probe.error({"type": "join", "room": room})["code"] == "no_such_room"
    assert host.error({"type": "move", "move": "11-15"})["code"] == "not_in_room"


@pytest.mark.parametrize("stored", [False, True], ids=["in memory", "with --db"])
def test_100_clients_seeking_at_once_in_both_rule_sets_are_all_paired_once_and_never_with_themselves(
        stored, tmp_path):
    args = ("--db", str(tmp_path / "rooms.db")) if stored else ()
    server = ServerProcess(*args).start()

    async def client(i: int) -> tuple[int, str, list[dict]]:
        variant = ("american", "international")[i % 2]
        async with async_connect(server.url) as ws:
            await ws.send(json.dumps({"type": "seek", "variant": variant, "nickname": f"player {i}"}))
            got = []
            while not any(m["type"] == "state" for m in got):
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
            try:  # nothing more comes: no second pairing
                while True:
                    got.append(json.loads(await asyncio.wait_for(ws.recv(), 1.0)))
            except TimeoutError:
                pass
            return i, variant, got

    async def everyone():
        return await asyncio.wait_for(asyncio.gather(*(client(i) for i in range(100))), 120)

    try:
        results = asyncio.run(everyone())
    finally:
        server.kill()
    rooms: dict[str, list[tuple[int, str, dict]]] = {}
    for i, variant, got in results:
        paired = [m for m in got if m["type"] == "paired"]
        assert len(paired) == 1, (i, got)
        assert not [m for m in got if m["type"] == "error"], (i, got)
        rooms.setdefault(paired[0]["room"], []).append((i, variant, paired[0]))
    assert len(rooms) == 50
    for members in rooms.values():
        (i, vi, pi), (j, vj, pj) = members
        assert i != j and vi == vj
        assert pi["opponent"] == f"player {j}" and pj["opponent"] == f"player {i}"
        assert {pi["color"], pj["color"]} == {"black", "white"}
    assert Counter(v for members in rooms.values() for _, v, _ in members) == {"american": 50, "international": 50}


def test_colours_are_drawn_at_random_and_swap_on_every_rematch(make_server):
    server = make_server(rate_limit=1000)
    first_seeker_black = Counter()
    for n in range(30):
        a = seek(server.url, "american", f"a{n}")
        b = seek(server.url, "american", f"b{n}")
        first_seeker_black[a.until("paired")["color"] == "black"] += 1
        b.until("paired")
        a.close()
        b.close()
    assert first_seeker_black[True] > 0 and first_seeker_black[False] > 0  # all one way: 2 ** -29
    a = seek(server.url, "international", "Ann")
    b = seek(server.url, "international", "Bo")
    color = a.until("paired")["color"]
    b.until("paired")
    for game in (2, 3, 4):
        a.send({"type": "resign"})
        for wire in (a, b):
            while not ((m := wire.until("state"))["outcome"] and m["game"] == game - 1):
                pass
        a.send({"type": "rematch"})
        b.send({"type": "rematch"})
        start = a.until("state", game=game)
        assert b.until("state", game=game)["you"] == color  # the other takes the colour Ann had
        assert start["you"] != color, f"game {game}: the same colour again"
        color = start["you"]
        assert start["outcome"] is None and start["clock"]["running"] == "white"
        assert start["clock"]["white"]["main_s"] > 299 and start["clock"]["black"]["main_s"] == 300


def test_the_client_library_seeks_cancels_and_seeks_again_after_the_server_restarts(tmp_path):
    db = tmp_path / "rooms.db"
    proc = ServerProcess("--db", str(db)).start()
    clients: list[RoomClient] = []
    try:
        ann = RoomClient(proc.url, **FAST)
        clients.append(ann)
        ann.seek("american", "Ann")
        assert next_of(ann, Seeking).nickname == "Ann" and ann.seeking
        ann.cancel_seek()
        assert isinstance(next_of(ann, SeekCancelled), SeekCancelled) and not ann.seeking
        ann.seek("american", "Ann")
        next_of(ann, Seeking)
        proc.kill()
        proc.start()  # the same port: Ann's client reconnects and seeks again by itself
        next_of(ann, Seeking, timeout=20)
        bo = RoomClient(proc.url, **FAST)
        clients.append(bo)
        bo.seek("american", "Bo")
        paired = next_of(ann, Paired)
        assert paired.opponent == "Bo" and ann.opponent == "Bo" and ann.room == paired.room and ann.seat == paired.seat
        state = next_of(ann, State)
        assert state.clock is not None and state.clock.running == "black"
        assert state.players[paired.color].name == "Ann" and not ann.seeking
    finally:
        for c in clients:
            c.close()
        proc.kill()


def next_of(client: RoomClient, kind: type, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        event = client.wait(end - time.monotonic())
        if isinstance(event, kind):
            return event
    raise TimeoutError(f"no {kind.__name__} within {timeout} s")

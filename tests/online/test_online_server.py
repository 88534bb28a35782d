"""The room server with real WebSocket clients on 127.0.0.1: whole games, every error code, seats and
their secrets, rematches, draw offers, expiry, storage across a restart and a SIGKILL, many rooms."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import random
import socket
import sqlite3
import time

import pytest
from online_support import ServerProcess, Wire, play, seat_two, state_with
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed

from engine import Position, variant_named
from engine.game import Game
from game.online.protocol import MAX_MESSAGE_BYTES, new_seat_secret, parse_link
from game.online.server import EmbeddedServer, lan_address
from game.online.store import RoomRecord, RoomStore, seat_hash


def random_game(host: Wire, guest: Wire, hj: dict, variant: str, seed: int, max_plies: int = 500) -> tuple[dict, Game]:
    """Both players play random legal moves (the engine's) to the end; (last state, local replay)."""
    rng = random.Random(seed)
    local = Game(variant_named(variant))
    by_color = {hj["color"]: host, ("white" if hj["color"] == "black" else "black"): guest}
    state: dict = {}
    while local.outcome is None:
        assert local.ply < max_plies
        move = rng.choice(local.position.legal_moves())
        text = local.position.move_text(move)
        local.play(move)
        mover = by_color[local.positions[-2].turn.label]
        state = play(mover, guest if mover is host else host, text, local.ply)
        assert state["fen"] == local.position.fen()
    return state, local


# --- whole games -------------------------------------------------------------------------------------

@pytest.fixture
def fast(make_server) -> EmbeddedServer:
    """A server whose rate limit lets a test play a whole game as fast as it can."""
    return make_server(rate_limit=1000)


@pytest.mark.parametrize("variant, seed", [("american", 3), ("international", 5)])
def test_a_whole_game_to_its_result(fast, variant, seed):
    server = fast
    host, guest, hj, gj = seat_two(server.url, variant)
    first = variant_named(variant).first_player.label
    assert hj["color"] == first and gj["color"] != first
    state, local = random_game(host, guest, hj, variant, seed)
    assert state["outcome"] == local.outcome.to_dict()
    assert state["outcome"]["reason"] in ("no_moves", "repetition", "move_limit", "endgame_rule")
    assert state["moves"] == local.to_dict()["moves"] and state["to_move"] == local.turn.label
    assert state["draw_offer"] is None and state["game"] == 1
    assert host.error({"type": "move", "move": "1-5"})["code"] == "game_over"
    room = server.server.rooms[hj["room"]]
    assert room.record() == room.game.to_dict()


def test_a_game_decided_by_resignation_and_one_by_agreement(server):
    host, guest, hj, _ = seat_two(server.url)
    play(host, guest, "11-15", 1)
    guest.send({"type": "resign"})
    state = state_with(host, 1)
    assert state["outcome"] == {"result": "black", "reason": "resignation"}
    assert state_with(guest, 1)["outcome"] == state["outcome"]

    host, guest, hj, _ = seat_two(server.url, "international")
    play(host, guest, "32-28", 1, offer_draw=True)
    guest.send({"type": "accept_draw"})
    assert state_with(host, 1)["outcome"] == {"result": "draw", "reason": "agreement"}


def test_joined_gives_the_link_and_a_secret_that_is_not_in_it(server):
    host = Wire(server.url)
    host.send({"type": "create", "variant": "international"})
    joined = host.until("joined")
    link = parse_link(joined["link"])
    assert link.room == joined["room"] and link.server.port == server.address.port
    assert link.server.host == "127.0.0.1"
    assert joined["seat"] not in joined["link"] and len(joined["seat"]) >= 16 and len(joined["room"]) >= 16
    assert joined["color"] == "white"  # International draughts: White moves first
    state = host.until("state")
    assert state["players"]["black"] == {"connected": False, "seated": False, "away_s": None, "name": None}
    assert state["clock"] is None  # a friend's room has no clock unless asked for
    assert state["players"]["white"]["connected"] and state["you"] == "white"
    assert state["start_fen"] == state["fen"] == variant_named("international").start_fen


# --- every error code ----------------------------------------------------------------------------------

def test_malformed_messages_get_bad_message_and_the_connection_stays(server):
    wire = Wire(server.url)
    for text in ("{", "[]", '{"type": "create", "variant": "chess"}', '{"type": "move"}', b"\x00\x01",
                 '{"type": "join", "room": "not a room"}', '{"type": "ping", "x": 1}'):
        error = wire.error(text)
        assert error["code"] == "bad_message" and error["message"]
    wire.send({"type": "ping"})
    assert wire.recv() == {"type": "pong"}


def test_room_errors(server):
    wire = Wire(server.url)
    assert wire.error({"type": "join", "room": "NoSuchRoom123456"})["code"] == "no_such_room"
    assert wire.error({"type": "resume", "room": "NoSuchRoom123456", "seat": "x"})["code"] == "no_such_room"
    for action in ({"type": "move", "move": "11-15"}, {"type": "accept_draw"}, {"type": "resign"}, {"type": "rematch"}):
        assert wire.error(action)["code"] == "not_in_room"
    host, guest, hj, gj = seat_two(server.url)
    third = Wire(server.url)
    assert third.error({"type": "join", "room": hj["room"]})["code"] == "room_full"
    error = third.error({"type": "resume", "room": hj["room"], "seat": new_seat_secret()})
    assert error["code"] == "bad_seat" and hj["seat"] not in error["message"]
    # a refused third player leaves the game alone
    play(host, guest, "11-15", 1)


def test_turn_and_move_errors(server):
    lonely = Wire(server.url)
    lonely.send({"type": "create", "variant": "american"})
    lonely.until("joined")
    error = lonely.error({"type": "move", "move": "11-15"})
    assert error["code"] == "not_your_turn" and "joins" in error["message"]
    host, guest, _, _ = seat_two(server.url)
    assert guest.error({"type": "move", "move": "22-18"})["code"] == "not_your_turn"
    error = host.error({"type": "move", "move": "11-17"})
    assert error["code"] == "illegal_move" and "'11-17'" in error["message"]
    assert host.error({"type": "move", "move": "eleven"})["code"] == "illegal_move"
    assert host.error({"type": "accept_draw"})["code"] == "no_offer"
    assert host.error({"type": "rematch"})["code"] == "not_your_turn"
    play(host, guest, "11-15", 1, offer_draw=True)
    assert host.error({"type": "accept_draw"})["code"] == "no_offer"  # one's own offer
    host.send({"type": "resign"})
    state_with(guest, 1)
    assert host.error({"type": "resign"})["code"] == "game_over"
    assert guest.error({"type": "move", "move": "22-18"})["code"] == "game_over"
    assert guest.error({"type": "accept_draw"})["code"] == "game_over"


def test_more_than_20_messages_a_second_are_rate_limited_with_one_answer_a_window(server):
    wire = Wire(server.url)
    for _ in range(30):
        wire.send({"type": "ping"})
    answers = [wire.recv()["type"] for _ in range(21)]
    assert answers.count("pong") == 20 and answers.count("error") == 1
    with pytest.raises(TimeoutError):  # the other 9 ignored without a word
        wire.recv(timeout=0.5)
    time.sleep(0.6)
    wire.send({"type": "ping"})
    assert wire.recv() == {"type": "pong"}


def test_too_many_rooms(make_server):
    server = make_server(max_rooms=2)
    for _ in range(2):
        wire = Wire(server.url)
        wire.send({"type": "create", "variant": "american"})
        wire.until("joined")
    error = wire.error({"type": "create", "variant": "american"})
    assert error["code"] == "too_many_rooms" and "2" in error["message"]


def test_an_oversize_message_closes_its_connection_and_nothing_else(server):
    host, guest, _, _ = seat_two(server.url)
    vandal = Wire(server.url)
    vandal.send(json.dumps({"type": "move", "move": "x" * MAX_MESSAGE_BYTES}))
    with pytest.raises(ConnectionClosed) as closed:
        vandal.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    play(host, guest, "11-15", 1)


# --- seats ---------------------------------------------------------------------------------------------

def test_a_player_returns_to_their_seat_with_its_secret(server):
    host, guest, hj, gj = seat_two(server.url)
    play(host, guest, "11-15", 1)
    guest.close()
    state = host.until("state")
    assert not state["players"]["white"]["connected"] and state["players"]["white"]["seated"]
    assert state["players"]["white"]["away_s"] >= 0
    back = Wire(server.url)
    back.send({"type": "resume", "room": gj["room"], "seat": gj["seat"]})
    joined = back.until("joined")
    assert (joined["seat"], joined["color"], joined["room"]) == (gj["seat"], "white", gj["room"])
    assert back.until("state")["moves"] == ["11-15"]
    assert host.until("state")["players"]["white"]["connected"]
    play(back, host, "23-19", 2)


def test_resuming_elsewhere_replaces_the_old_connection(server):
    host, guest, hj, _ = seat_two(server.url)
    second = Wire(server.url)
    second.send({"type": "resume", "room": hj["room"], "seat": hj["seat"]})
    assert second.until("joined")["color"] == "black"
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            host.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
    play(second, guest, "11-15", 1)


def test_rematch_swaps_colours(server):
    host, guest, hj, gj = seat_two(server.url, "international")
    play(host, guest, "32-28", 1)
    host.send({"type": "resign"})
    state_with(guest, 1)
    state_with(host, 1)
    host.send({"type": "rematch"})
    asked = state_with(guest, 1)
    assert asked["rematch"] == ["white"] and asked["game"] == 1
    host.send({"type": "rematch"})  # twice is once
    assert state_with(guest, 1)["game"] == 1
    guest.send({"type": "rematch"})
    h2, g2 = state_with(host, 0), state_with(guest, 0)
    assert h2["game"] == g2["game"] == 2 and h2["outcome"] is None and h2["rematch"] == []
    assert (h2["you"], g2["you"]) == ("black", "white")
    assert h2["to_move"] == "white"  # the friend who joined moves first now
    assert guest.error({"type": "move", "move": "19-23"})["code"] == "illegal_move"  # that is a black man
    assert host.error({"type": "move", "move": "32-28"})["code"] == "not_your_turn"
    play(guest, host, "32-28", 1)
    again = Wire(server.url)
    again.send({"type": "resume", "room": hj["room"], "seat": hj["seat"]})
    assert again.until("joined")["color"] == "black"


# --- draw offers -----------------------------------------------------------------------------------------

def test_draw_offer_declined_by_a_move(server):
    host, guest, _, _ = seat_two(server.url)
    state = play(host, guest, "11-15", 1, offer_draw=True)
    assert state["draw_offer"] == "black" and state["offered_at"] == [0]
    state = play(guest, host, "23-19", 2)
    assert state["draw_offer"] is None and state["outcome"] is None
    assert guest.error({"type": "accept_draw"})["code"] == "no_offer"


KINGS_START = "B:WK30,K32:BK1,5"  # American: kings move without resetting the re-offer limit


def stored_room(path, variant: str, start: str) -> tuple[str, str, str]:
    """Write a room into a rooms database as a server would (game from ``start``); (room, host, guest)."""
    room, host, guest = "StoredRoom000001", new_seat_secret(), new_seat_secret()
    record = Game(variant_named(variant), Position.from_fen(variant_named(variant), start)).to_dict()

    async def write():
        store = RoomStore(path)
        store.start()
        now = time.time()
        await store.save(room, lambda: RoomRecord(room, variant, now, now, 1, (seat_hash(host), seat_hash(guest)),
                                                  (False, False), record, ()))
        await store.close()

    asyncio.run(write())
    return room, host, guest


def test_draw_offer_limits(make_server, tmp_path):
    """After a declined offer the same side may offer again only once a man has moved or a piece was
    captured, by a move without the offer (engine.game); the server refuses the move that carries an
    offer too early, and plays nothing."""
    db = tmp_path / "rooms.db"
    room, host_seat, guest_seat = stored_room(db, "american", KINGS_START)
    server = make_server(db=db)
    host, guest = Wire(server.url), Wire(server.url)
    host.send({"type": "resume", "room": room, "seat": host_seat})
    guest.send({"type": "resume", "room": room, "seat": guest_seat})
    assert host.until("joined")["color"] == "black" and guest.until("joined")["color"] == "white"
    assert state_with(guest, 0)["start_fen"] == KINGS_START
    play(host, guest, "1-6", 1, offer_draw=True)
    play(guest, host, "30-26", 2)  # declined, by a king move
    error = host.error({"type": "move", "move": "6-10", "offer_draw": True})
    assert error["code"] == "no_offer" and "not played" in error["message"]
    state = play(host, guest, "6-10", 3)  # the same move without the offer
    assert state["draw_offer"] is None
    play(guest, host, "26-22", 4)
    assert host.error({"type": "move", "move": "10-14", "offer_draw": True})["code"] == "no_offer"
    play(host, guest, "5-9", 5)  # a man moves
    play(guest, host, "22-17", 6)
    state = play(host, guest, "10-14", 7, offer_draw=True)
    assert state["draw_offer"] == "black" and state["offered_at"] == [0, 6]
    guest.send({"type": "accept_draw"})
    assert state_with(host, 7)["outcome"] == {"result": "draw", "reason": "agreement"}


# --- expiry ----------------------------------------------------------------------------------------------

def test_idle_rooms_expire_and_rooms_in_use_do_not(make_server):
    server = make_server(idle_timeout=0.4, sweep_interval=0.05)
    gone = Wire(server.url)
    gone.send({"type": "create", "variant": "american"})
    gone_room = gone.until("joined")["room"]
    stays = Wire(server.url)
    stays.send({"type": "create", "variant": "american"})
    stays_room = stays.until("joined")["room"]
    gone.close()
    time.sleep(1.0)
    probe = Wire(server.url)
    assert probe.error({"type": "join", "room": gone_room})["code"] == "no_such_room"
    probe.send({"type": "join", "room": stays_room})
    assert probe.until("joined")["room"] == stays_room


def test_rooms_expire_at_their_maximum_age_even_in_use(make_server):
    server = make_server(max_age=0.5, sweep_interval=0.05)
    host, guest, hj, _ = seat_two(server.url)
    for wire in (host, guest):
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                wire.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
    again = Wire(server.url)
    assert again.error({"type": "resume", "room": hj["room"], "seat": hj["seat"]})["code"] == "no_such_room"


# --- storage ---------------------------------------------------------------------------------------------

def test_rooms_survive_a_restart_on_the_same_database(tmp_path):
    db = tmp_path / "rooms.db"
    with EmbeddedServer("127.0.0.1", db=db) as server:
        host, guest, hj, gj = seat_two(server.url)
        before = play(host, guest, "11-15", 1, offer_draw=True)
        port = server.address.port
    with EmbeddedServer("127.0.0.1", port, db=db) as server:
        back = Wire(server.url)
        back.send({"type": "resume", "room": gj["room"], "seat": gj["seat"]})
        assert back.until("joined")["color"] == "white"
        after = back.until("state")
        for key in ("moves", "fen", "draw_offer", "offered_at", "game", "start_fen"):
            assert after[key] == before[key]
        back.send({"type": "accept_draw"})
        assert state_with(back, 1)["outcome"] == {"result": "draw", "reason": "agreement"}


def test_a_server_killed_with_sigkill_comes_back_with_every_room(tmp_path):
    db = tmp_path / "rooms.db"
    proc = ServerProcess("--db", str(db), "--rate-limit", "1000").start()
    try:
        rooms = []  # (host joined, guest joined or None, last state)
        for i, variant in enumerate(("american", "international", "american", "international")):
            host, guest, hj, gj = seat_two(proc.url, variant)
            state = None
            if i == 0:  # a finished game
                play(host, guest, "11-15", 1)
                guest.send({"type": "resign"})
                state = host.until("state", outcome={"result": "black", "reason": "resignation"})
            if i == 1:
                state = play(host, guest, "32-28", 1, offer_draw=True)
            if i == 2:  # game 2 after a rematch, with a move in it
                host.send({"type": "resign"})
                state_with(guest, 0)
                host.send({"type": "rematch"})
                guest.send({"type": "rematch"})
                state_with(host, 0)
                state = play(guest, host, "11-15", 1)
            if i == 3:  # no move yet
                state = host.last_state
            rooms.append((hj, gj, state))
        waiting = Wire(proc.url)
        waiting.send({"type": "create", "variant": "american"})
        wj = waiting.until("joined")
        stored_before = {r.id: r for r in _load(db)}
        proc.kill()
        stored = {r.id: r for r in _load(db)}
        assert stored.keys() == stored_before.keys() == {hj["room"] for hj, _, _ in rooms} | {wj["room"]}
        for r in stored.values():
            assert r.created == stored_before[r.id].created
        proc.start()
        for hj, gj, state in rooms:
            for j in (hj, gj):
                back = Wire(proc.url)
                back.send({"type": "resume", "room": j["room"], "seat": j["seat"]})
                assert back.until("joined")["seat"] == j["seat"]
                now = back.until("state")
                for key in ("moves", "fen", "outcome", "draw_offer", "offered_at", "game", "to_move"):
                    assert now[key] == state[key], key
        friend = Wire(proc.url)
        friend.send({"type": "join", "room": wj["room"]})
        assert friend.until("joined")["color"] == "white"
        host = Wire(proc.url)
        host.send({"type": "resume", "room": rooms[1][0]["room"], "seat": rooms[1][0]["seat"]})
        host.until("joined")
        guest = Wire(proc.url)
        guest.send({"type": "resume", "room": rooms[1][1]["room"], "seat": rooms[1][1]["seat"]})
        guest.until("joined")
        guest.send({"type": "accept_draw"})
        host.until("state", outcome={"result": "draw", "reason": "agreement"})
    finally:
        proc.kill()


def test_unreadable_stored_rooms_never_stop_the_server(make_server, tmp_path):
    db = tmp_path / "rooms.db"
    room, host_seat, _ = stored_room(db, "american", "B:W21-32:B1-12")
    with sqlite3.connect(db) as sql:
        for bad, record in (("BadJson", "'{not json'"),
                            ("BadMoves", "json_set(record, '$.moves', json('[\"11-15\", \"11-15\"]'))"),
                            ("NoMoves", "json_remove(record, '$.moves')")):
            sql.execute(f"INSERT INTO rooms SELECT '{bad}', variant, created, last_seen, game_number, host_seat,"
                        f" guest_seat, connected, {record}, rematch, first_seat, names, clock FROM rooms WHERE id = ?",
                        (room,))
        sql.execute("INSERT INTO rooms SELECT 'BadClock', variant, created, last_seen, game_number, host_seat,"
                    " guest_seat, connected, record, rematch, first_seat, names, '{\"main_s\": 1}' FROM rooms"
                    " WHERE id = ?", (room,))
    server = make_server(db=db)
    wire = Wire(server.url)
    for bad in ("BadJson", "BadMoves", "NoMoves", "BadClock"):
        assert wire.error({"type": "resume", "room": bad, "seat": host_seat})["code"] == "no_such_room"
    wire.send({"type": "resume", "room": room, "seat": host_seat})
    assert wire.until("joined")["room"] == room


def _load(db) -> list[RoomRecord]:
    store = RoomStore(db)
    try:
        return store.load()
    finally:
        store.close_now()


# --- the command line --------------------------------------------------------------------------------------

def test_the_command_line_server_logs_one_line_per_room_event(tmp_path):
    proc = ServerProcess().start()
    try:
        host, guest, hj, _ = seat_two(proc.url)
        host.send({"type": "resign"})
        state_with(guest, 0)
        guest.close()
        host.until("state")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not any("disconnected" in line for line in proc.log):
            time.sleep(0.05)
        events = [line for line in proc.log if hj["room"] in line]
        assert [next(w for w in ("created", "joined", "over", "disconnected") if w in line) for line in events] == [
            "created", "joined", "over", "disconnected"]
        assert hj["seat"] not in "\n".join(proc.log)
        # behind a TLS proxy the link says so (the server's address is taken from the request)
        wire = Wire(proc.url, additional_headers={"X-Forwarded-Proto": "https"})
        wire.send({"type": "create", "variant": "american"})
        link = wire.until("joined")["link"]
        assert link.endswith("?tls=1") and parse_link(link).server.tls
        assert proc.terminate() == 0
    finally:
        proc.kill()


def test_the_lan_address_is_an_ipv4_address_of_this_machine():
    address = ipaddress.IPv4Address(lan_address())
    assert not address.is_unspecified and not address.is_multicast
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind((str(address), 0))  # it is one of this machine's own addresses


# --- many rooms ----------------------------------------------------------------------------------------------

def test_200_rooms_play_at_once():
    """200 rooms (400 connections) each play 6 random moves at the same time; every room ends where a
    local replay of its moves does. The server runs in its own process, as it would."""
    moves_each = 6
    server = ServerProcess("--max-rooms-per-address", "1000").start()

    async def room(i: int) -> tuple[str, Game, dict]:
        variant = ("american", "international")[i % 2]
        rng, local = random.Random(i), Game(variant_named(variant))
        async with async_connect(server.url) as host, async_connect(server.url) as guest:
            await host.send(json.dumps({"type": "create", "variant": variant}))
            hj = await _next(host, "joined")
            await guest.send(json.dumps({"type": "join", "room": hj["room"]}))
            await _next(guest, "joined")
            sides = {hj["color"]: host, ("white" if hj["color"] == "black" else "black"): guest}
            state: dict = {}
            for _ in range(moves_each):
                move = rng.choice(local.position.legal_moves())
                mover = sides[local.turn.label]
                await mover.send(json.dumps({"type": "move", "move": local.position.move_text(move)}))
                local.play(move)
                state = await _next(mover, "state", plies=local.ply)
            return hj["room"], local, state

    async def all_rooms():
        return await asyncio.wait_for(asyncio.gather(*(room(i) for i in range(200))), 120)

    try:
        results = asyncio.run(all_rooms())
    finally:
        server.kill()
    assert len({room_id for room_id, _, _ in results}) == 200
    for _, local, state in results:
        assert state["moves"] == local.to_dict()["moves"] and state["fen"] == local.position.fen()


async def _next(conn, kind: str, plies: int | None = None) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(conn.recv(), 60))
        assert message["type"] != "error", message
        if message["type"] == kind and (plies is None or len(message["moves"]) == plies):
            return message

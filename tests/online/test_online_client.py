"""The client library against real servers: events, sending while down, reconnection with the seat
secret across a server killed and restarted, giving up; and FriendGame, the controller's view."""

from __future__ import annotations

import socket
import time

import pytest
from online_support import ServerProcess

from engine import Color
from engine.game import Game
from game.friend.session import (
    FRIEND_AWAY_LIMIT_S,
    DrawAgreed,
    FriendGame,
    FriendMoved,
    FriendPresence,
    FriendResigned,
    GameStarted,
    RematchAsked,
    Resynced,
    RoomOpened,
)
from game.online.client import Connected, GaveUp, Reconnecting, RoomClient, Unsent
from game.online.clock import ClockSettings
from game.online.protocol import Error, Joined, PlayMove, State, parse_link
from game.online.server import EmbeddedServer

FAST = dict(backoff=(0.05, 0.3), ping_interval=2.0)


def next_of(client: RoomClient, kind: type, timeout: float = 10.0, seen: list | None = None):
    """The next event of this type (others go to ``seen``)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        event = client.wait(end - time.monotonic())
        if isinstance(event, kind):
            return event
        if seen is not None and event is not None:
            seen.append(event)
    raise TimeoutError(f"no {kind.__name__} within {timeout} s (seen {seen})")


def state_with(client: RoomClient, plies: int, timeout: float = 10.0) -> State:
    end = time.monotonic() + timeout
    while True:
        state = next_of(client, State, end - time.monotonic())
        if len(state.moves) == plies:
            return state


def test_the_client_delivers_typed_events_and_never_blocks(server):
    host = RoomClient(server.url, **FAST)
    t0 = time.monotonic()
    early = host.poll()
    assert time.monotonic() - t0 < 0.05 and all(isinstance(e, Connected) for e in early)
    host.create("american")
    joined = next_of(host, Joined)
    assert host.room == joined.room and host.seat == joined.seat and host.color == "black"
    guest = RoomClient(parse_link(joined.link).server, **FAST)
    guest.join(joined.room)
    assert next_of(guest, Joined).color == "white"
    host.move("11-15", offer_draw=True)
    state = state_with(guest, 1)
    assert state.moves == ("11-15",) and state.draw_offer == "black" and state.you == "white"
    guest.move("11-15")
    error = next_of(guest, Error)
    assert error.code == "illegal_move"
    host.close()
    guest.close()
    with pytest.raises(RuntimeError):
        host.move("9-13")


def test_a_room_with_the_clock_gives_states_with_readings_the_client_counts_down(make_server):
    server = make_server(clock=ClockSettings(60.0, 3, 10.0))
    host = RoomClient(server.url, **FAST)
    host.create("international", clock=True)
    joined = next_of(host, Joined)
    waiting = next_of(host, State)
    assert waiting.clock is not None and waiting.clock.running is None and waiting.clock.white.main_s == 60.0
    guest = RoomClient(server.url, **FAST)
    guest.join(joined.room)
    started = state_with(guest, 0)
    while not started.started:
        started = state_with(guest, 0)
    reading = started.clock
    assert reading is not None and reading.running == "white" and reading.settings == ClockSettings(60.0, 3, 10.0)
    later = reading.after(65.0)  # main time gone, and half a period
    assert (later.white.main_s, later.white.periods) == (0.0, 3)
    assert later.white.period_s == pytest.approx(10.0 - (65.0 - reading.white.main_s))
    assert later.black == reading.black
    host.close()
    guest.close()


def test_actions_while_down_come_back_unsent_and_the_client_gives_up(caplog):
    client = RoomClient("ws://127.0.0.1:9/", first_connect_timeout=0.6, backoff=(0.05, 0.2))
    client.move("11-15")
    client.create("american")  # held for when a connection opens
    seen: list = []
    assert next_of(client, Unsent, seen=seen).message == PlayMove("11-15")
    gave_up = next_of(client, GaveUp, seen=seen)
    assert gave_up.reason == "the room server ws://127.0.0.1:9 could not be reached" and gave_up.unreachable
    logged = [r.getMessage() for r in caplog.records if r.name == "checkers3d.online"]
    assert any("ws://127.0.0.1:9/" in m and "Error" in m for m in logged), "the connection error is in the log"
    assert any(isinstance(e, Reconnecting) for e in seen)
    assert not any(isinstance(e, Connected) for e in seen)
    client.close()


def test_the_client_resumes_its_seat_after_the_server_is_killed_and_restarted(tmp_path):
    proc = ServerProcess("--db", str(tmp_path / "rooms.db")).start()
    try:
        host, guest = RoomClient(proc.url, **FAST), RoomClient(proc.url, **FAST)
        host.create("international")
        joined = next_of(host, Joined)
        guest.join(joined.room)
        next_of(guest, Joined)
        host.move("32-28")
        state_with(guest, 1)
        proc.kill()
        for client in (host, guest):
            next_of(client, Reconnecting)
        proc.start()  # the same port and database
        for client, seat in ((host, joined.seat), (guest, guest.seat)):
            seen: list = []
            back = next_of(client, Joined, seen=seen)
            assert back.seat == seat and any(isinstance(e, Connected) for e in seen)
        guest.move("19-23")
        state = state_with(host, 2)
        assert state.moves == ("32-28", "19-23") and state.players["black"].connected
        host.close()
        guest.close()
    finally:
        proc.kill()


def test_the_client_gives_up_when_its_room_is_gone():
    server = EmbeddedServer("127.0.0.1")
    server.start()
    client = RoomClient(server.url, **FAST)
    client.create("american")
    next_of(client, Joined)
    port = server.address.port
    server.stop()  # rooms were in memory only
    with EmbeddedServer("127.0.0.1", port):
        seen: list = []
        gave_up = next_of(client, GaveUp, seen=seen)
        assert "room is gone" in gave_up.reason
        assert any(isinstance(e, Error) and e.code == "no_such_room" for e in seen)
    client.close()


# --- FriendGame ----------------------------------------------------------------------------------------

def pump(*games: FriendGame, until, timeout: float = 10.0) -> list[list]:
    """Poll each game (as a frame loop would) until ``until(events)`` holds for the events so far."""
    events: list[list] = [[] for _ in games]
    end = time.monotonic() + timeout
    while not until(events):
        if time.monotonic() > end:
            raise TimeoutError(f"events so far: {events}")
        for got, game in zip(events, games, strict=True):
            got.extend(game.poll())
        time.sleep(0.01)
    return events


def has(kind: type, index: int = 0):
    return lambda events: any(isinstance(e, kind) for e in events[index])


def started_pair(url: str, variant: str = "american") -> tuple[FriendGame, FriendGame, Game, Game]:
    """Host and guest of a new room with their controllers' games (as GameStarted gave them)."""
    host = FriendGame.create(url, variant, **FAST)
    (opened,) = pump(host, until=has(RoomOpened))
    link = next(e for e in opened if isinstance(e, RoomOpened)).link
    assert host.seat is not None and host.seat not in link
    guest = FriendGame.join(link, **FAST)
    h, g = pump(host, guest, until=lambda ev: all(any(isinstance(e, GameStarted) for e in x) for x in ev))
    hs = next(e for e in h if isinstance(e, GameStarted))
    gs = next(e for e in g if isinstance(e, GameStarted))
    assert (hs.color, gs.color, hs.number) == (Color.BLACK if variant == "american" else Color.WHITE,
                                               Color.WHITE if variant == "american" else Color.BLACK, 1)
    return host, guest, hs.game, gs.game


def test_friend_game_turns_states_into_the_friends_moves(server):
    host, guest, host_game, guest_game = started_pair(server.url)
    move = host_game.position.parse_move("11-15")
    host_game.play(move, offer_draw=True)  # the controller plays its player's move ...
    host.play(move, offer_draw=True)  # ... and tells the friend game
    (_, got) = pump(host, guest, until=has(FriendMoved, 1))
    friend_moved = next(e for e in got if isinstance(e, FriendMoved))
    assert friend_moved.move == move and friend_moved.offer_draw
    guest_game.play(friend_moved.move, offer_draw=friend_moved.offer_draw)
    assert guest_game.pending_offer is Color.BLACK
    guest_game.accept_draw()
    guest.accept_draw()
    (got, _) = pump(host, guest, until=has(DrawAgreed))
    host_game.accept_draw()
    assert host_game.to_dict() == guest_game.to_dict() == host.view.to_dict()
    host.rematch()
    (_, got) = pump(host, guest, until=has(RematchAsked, 1))
    guest.rematch()
    h, g = pump(host, guest, until=lambda ev: has(GameStarted)(ev) and has(GameStarted, 1)(ev))
    assert next(e for e in h if isinstance(e, GameStarted)).color is Color.WHITE
    second = next(e for e in g if isinstance(e, GameStarted))
    assert (second.color, second.number, second.game.ply) == (Color.BLACK, 2, 0)
    host.resign()  # it is not the host's turn: resigning needs none
    (_, got) = pump(host, guest, until=has(FriendResigned, 1))
    host.close()
    guest.close()


def test_friend_presence_and_the_time_away(server):
    host, guest, _, _ = started_pair(server.url, "international")
    guest.close()
    (got,) = pump(host, until=has(FriendPresence))
    assert next(e for e in got if isinstance(e, FriendPresence)) == FriendPresence(connected=False)
    away = host.friend_away_s()
    assert away is not None and 0 <= away < 5
    assert not host.can_continue_vs_computer
    assert host.friend_away_s(now=time.monotonic() + FRIEND_AWAY_LIMIT_S) >= FRIEND_AWAY_LIMIT_S
    back = FriendGame.resume(f"checkers3d://127.0.0.1:{server.address.port}/{guest.room}", guest.seat, **FAST)
    (got,) = pump(host, until=lambda ev: FriendPresence(connected=True, returned=True) in ev[0])
    assert host.friend_away_s() is None
    back.close()
    host.close()


def test_a_move_sent_while_the_server_is_down_is_taken_back(tmp_path):
    db = tmp_path / "rooms.db"
    server = EmbeddedServer("127.0.0.1", db=db)
    server.start()
    host, guest, host_game, _ = started_pair(server.url)
    port = server.address.port
    server.stop()
    pump(host, until=lambda ev: host.status == "reconnecting")
    move = host_game.position.parse_move("9-13")
    host_game.play(move)
    host.play(move)
    (got,) = pump(host, until=has(Resynced))
    resynced = next(e for e in got if isinstance(e, Resynced))
    assert resynced.game.ply == 0 and host.view.ply == 0
    with EmbeddedServer("127.0.0.1", port, db=db):
        pump(host, until=lambda ev: host.status == "connected")
        host_game = resynced.game
        move = host_game.position.parse_move("9-13")
        host_game.play(move)
        host.play(move)
        (_, got) = pump(host, guest, until=has(FriendMoved, 1))
        assert next(e for e in got if isinstance(e, FriendMoved)).move == move
        host.close()
        guest.close()


def test_close_does_not_wait_for_a_handshake_that_never_comes():
    with socket.socket() as silent:  # accepts TCP, never answers the WebSocket handshake
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        client = RoomClient(f"ws://127.0.0.1:{silent.getsockname()[1]}/", open_timeout=30)
        time.sleep(0.2)
        t0 = time.monotonic()
        client.close()
        assert time.monotonic() - t0 < 2 and not client._thread.is_alive()

"""The game clock on a real server, with short times: the server keeps it (every state carries both
clocks at the server's time), a player out of time loses with reason "time", the byo-yomi periods
are used up one by one, and the clock runs on while a player is away and across a server killed with
SIGKILL and restarted on the same database."""

from __future__ import annotations

import time

import pytest
from online_support import ServerProcess, Wire, play, resume

from game.online.clock import ClockSettings


def clocked_room(url: str, variant: str = "american") -> tuple[Wire, Wire, dict, dict, dict]:
    """A friend's room made with the clock, both seated: (host, guest, host's joined, guest's joined,
    the first state with the clock running)."""
    host = Wire(url)
    host.send({"type": "create", "variant": variant, "clock": True})
    hj = host.until("joined")
    waiting = host.until("state")
    assert waiting["clock"]["running"] is None  # not before the friend is there
    guest = Wire(url)
    guest.send({"type": "join", "room": hj["room"]})
    gj = guest.until("joined")
    start = guest.until("state")
    host.until("state")
    return host, guest, hj, gj, start


def wait_outcome(wire: Wire, timeout: float) -> dict:
    end = time.monotonic() + timeout
    while True:
        state = wire.until("state", timeout=max(0.01, end - time.monotonic()))
        if state["outcome"] is not None:
            return state


def test_a_room_is_made_without_the_clock_unless_asked_and_a_friends_clock_starts_on_join(server):
    host = Wire(server.url)
    host.send({"type": "create", "variant": "american"})
    host.until("joined")
    assert host.until("state")["clock"] is None
    _, _, _, _, start = clocked_room(server.url)
    assert start["clock"]["running"] == "black" and start["clock"]["white"]["main_s"] == 300.0


def test_a_player_who_lets_every_period_run_out_loses_on_time(make_server):
    server = make_server(clock=ClockSettings(0.5, 2, 0.3))  # flag after 0.5 + 2 x 0.3 s
    host, guest, _, _, start = clocked_room(server.url)
    t0 = time.monotonic()
    lost = wait_outcome(guest, 5)
    assert time.monotonic() - t0 >= 1.0
    assert lost["outcome"] == {"result": "white", "reason": "time"}
    assert wait_outcome(host, 1)["outcome"] == lost["outcome"]
    clock = lost["clock"]
    assert clock["running"] is None and clock["black"] == {"main_s": 0.0, "periods": 0, "period_s": 0.0}
    assert clock["white"] == {"main_s": 0.5, "periods": 2, "period_s": 0.3}
    assert host.error({"type": "move", "move": "11-15"})["code"] == "game_over"
    host.send({"type": "rematch"})
    guest.send({"type": "rematch"})
    again = host.until("state", game=2)
    assert again["outcome"] is None and again["clock"]["running"] == "black"
    assert again["clock"]["white"]["main_s"] == 0.5 and again["you"] == "white"


def test_byo_yomi_periods_are_used_up_one_by_one(make_server):
    """1 s of main time, 3 periods of 2 s. Black thinks 4 s on one move (main time, one period run out,
    half of the next): 2 periods left, a whole one for the next move. Then 0.3 s: still 2. Then black
    thinks no more: the two periods run out and black loses."""
    server = make_server(clock=ClockSettings(1.0, 3, 2.0), rate_limit=1000)
    host, guest, _, _, _ = clocked_room(server.url)
    time.sleep(4.0)
    state = play(host, guest, "11-15", 1)
    assert state["clock"]["black"] == {"main_s": 0.0, "periods": 2, "period_s": 2.0}
    assert state["clock"]["running"] == "white"
    state = play(guest, host, "23-19", 2)
    assert state["clock"]["white"]["main_s"] > 0.5 and state["clock"]["white"]["periods"] == 3
    time.sleep(0.3)
    state = play(host, guest, "8-11", 3)
    assert state["clock"]["black"] == {"main_s": 0.0, "periods": 2, "period_s": 2.0}
    play(guest, host, "22-17", 4)
    t0 = time.monotonic()
    lost = wait_outcome(guest, 8)
    assert time.monotonic() - t0 >= 3.5  # both periods, 2 s each
    assert lost["outcome"] == {"result": "white", "reason": "time"} and lost["moves"][-1] == "22-17"


def test_each_state_reads_the_clocks_at_its_own_time(make_server):
    server = make_server(clock=ClockSettings(2.0, 1, 1.0))
    _, _, _, gj, start = clocked_room(server.url)
    time.sleep(0.5)
    back = Wire(server.url)  # the guest's seat again, from a new connection: a new state
    back.send({"type": "resume", "room": gj["room"], "seat": gj["seat"]})
    assert back.until("joined")
    at_start, later = start["clock"], back.until("state")["clock"]
    assert later["at"] - at_start["at"] >= 0.5
    assert later["black"]["main_s"] == pytest.approx(at_start["black"]["main_s"] - (later["at"] - at_start["at"]))
    assert later["white"] == at_start["white"] and later["running"] == "black"


def test_the_clock_runs_while_a_player_is_away_and_they_lose_on_time_away(make_server):
    server = make_server(clock=ClockSettings(1.5, 1, 0.5))
    host, guest, hj, _, _ = clocked_room(server.url)
    host.close()  # black, to move, drops
    away = guest.until("state")
    assert not away["players"]["black"]["connected"] and away["clock"]["running"] == "black"
    lost = wait_outcome(guest, 5)
    assert lost["outcome"] == {"result": "white", "reason": "time"}
    _, state = resume(server.url, hj)
    assert state["outcome"] == lost["outcome"]


def test_the_clock_comes_back_with_the_room_after_sigkill_and_keeps_running(tmp_path):
    db = tmp_path / "rooms.db"
    proc = ServerProcess("--db", str(db), "--clock-main", "8", "--clock-periods", "1", "--clock-period", "2",
                         "--rate-limit", "1000").start()
    try:
        host, guest, hj, gj, _ = clocked_room(proc.url)
        time.sleep(0.5)
        moved = play(host, guest, "11-15", 1)
        turn_began = time.monotonic()  # white's clock runs from here
        black_left = moved["clock"]["black"]
        assert 7.0 < black_left["main_s"] < 7.6 and moved["clock"]["running"] == "white"
        proc.kill()
        time.sleep(1.0)
        proc.start()
        back, state = resume(proc.url, gj)
        elapsed = time.monotonic() - turn_began
        clock = state["clock"]
        assert clock["running"] == "white" and clock["black"] == black_left  # stored, as it was
        assert clock["white"]["main_s"] == pytest.approx(8.0 - elapsed, abs=0.5)  # downtime counted
        lost = wait_outcome(back, 12)
        assert time.monotonic() - turn_began >= 9.5  # 8 s + the 2 s period, from the turn's start
        assert lost["outcome"] == {"result": "black", "reason": "time"}
        proc.kill()  # and the loss is on disk
        proc.start()
        _, state = resume(proc.url, hj)
        assert state["outcome"] == {"result": "black", "reason": "time"}
    finally:
        proc.kill()


def test_a_flag_that_fell_while_the_server_was_down_falls_at_restart(tmp_path):
    db = tmp_path / "rooms.db"
    proc = ServerProcess("--db", str(db), "--clock-main", "1", "--clock-periods", "1", "--clock-period", "1").start()
    try:
        host, guest, hj, _, _ = clocked_room(proc.url)
        proc.kill()
        time.sleep(2.5)
        proc.start()
        back, state = resume(proc.url, hj)
        if state["outcome"] is None:
            state = wait_outcome(back, 2)
        assert state["outcome"] == {"result": "white", "reason": "time"}
    finally:
        proc.kill()

"""The byo-yomi arithmetic (game.online.clock), against the specification's words: 5 minutes of main
time, then 3 periods of 30 seconds; a move in time starts the next with a whole period, each period let
run out is used up, and a side with no time left has lost."""

from __future__ import annotations

import pytest

from game.online.clock import OUT, ClockSettings, GameClock, SideTime

SPEC = ClockSettings()  # 300 s + 3 x 30 s


def test_the_default_is_the_specifications():
    assert (SPEC.main_s, SPEC.periods, SPEC.period_s) == (300.0, 3, 30.0)
    with pytest.raises(ValueError):
        ClockSettings(300, 3, 0)
    with pytest.raises(ValueError):
        ClockSettings(0, 0, 30)


@pytest.mark.parametrize("seconds, left", [
    (0, SideTime(300, 3, 30)),
    (100, SideTime(200, 3, 30)),
    (300, SideTime(0, 3, 30)),  # main time gone: the first period starts
    (310, SideTime(0, 3, 20)),
    (330, SideTime(0, 2, 30)),  # one period let run out: used up
    (345, SideTime(0, 2, 15)),
    (389.5, SideTime(0, 1, 0.5)),
    (390, OUT),  # all three gone
    (1000, OUT),
])
def test_one_turn_spends_main_time_then_periods(seconds, left):
    assert SPEC.fresh.spend(seconds, SPEC.period_s) == left


def test_spending_in_steps_is_spending_at_once():
    for total in (12.5, 299, 301, 329.9, 331, 360, 389):
        side = SPEC.fresh
        for _ in range(10):
            side = side.spend(total / 10, SPEC.period_s)
        at_once = SPEC.fresh.spend(total, SPEC.period_s)
        assert side.periods == at_once.periods and side.main_s == pytest.approx(at_once.main_s)
        assert side.period_s == pytest.approx(at_once.period_s)


def test_a_move_in_byo_yomi_gets_a_whole_period_back_and_a_period_run_out_is_gone():
    clock = GameClock.new(SPEC).start("black", 0.0)
    clock = clock.moved(310.0)  # black used its main time and 10 s of a period
    assert clock.black == SideTime(0.0, 3, 30.0) and clock.running == "white" and clock.since == 310.0
    clock = clock.moved(311.0).moved(311.0 + 45)  # black: 45 s, one period run out
    assert clock.black == SideTime(0.0, 2, 30.0)
    assert clock.white.main_s == pytest.approx(299.0) and clock.running == "white"
    assert clock.deadline() == pytest.approx(356.0 + 299.0 + 3 * 30.0)


def test_the_flag_falls_at_the_deadline():
    clock = GameClock.new(ClockSettings(10.0, 2, 5.0)).start("white", 100.0)
    assert clock.deadline() == 120.0
    assert not clock.is_out(119.99) and clock.is_out(120.0)
    reading = clock.read(117.0)
    assert reading.white == SideTime(0.0, 1, 3.0) and reading.black == SideTime(10.0, 2, 5.0)
    flagged = clock.flag()
    assert flagged.flagged == "white" and flagged.running is None and flagged.white == OUT
    assert flagged.deadline() is None


def test_a_reading_counts_down_as_the_server_would():
    clock = GameClock.new(SPEC).start("black", 1000.0)
    reading = clock.read(1100.0)
    for later in (0.0, 50.0, 199.0, 215.0, 260.0, 289.0, 290.0, 400.0):
        assert reading.after(later) == clock.read(1100.0 + later)
    assert clock.stopped(1100.0).read(5000.0).black == reading.black  # a stopped clock stands still


def test_the_stored_form_reads_back():
    clock = GameClock.new(SPEC).start("black", 5.0).moved(17.5)
    assert GameClock.from_dict(clock.to_dict()) == clock
    assert GameClock.from_dict(clock.flag().to_dict()) == clock.flag()
    for bad in ({**clock.to_dict(), "running": "red"}, {**clock.to_dict(), "since": None},
                {**clock.to_dict(), "period_s": 0}):
        with pytest.raises(ValueError):
            GameClock.from_dict(bad)
    with pytest.raises(KeyError):
        GameClock.from_dict({"main_s": 1})

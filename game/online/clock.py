"""The clock of online games: main time, then byo-yomi periods.

The specification: "5 minutes of main time plus 3 byo-yomi periods of 30 seconds. Once main time is up,
you have 30 seconds per move, and each period you let run out is used up. If all your time runs out,
you lose. Your clock keeps running while you are disconnected."

So a move spends main time first; once that is gone, each move must come within one period (a move
in time starts the next with a whole period again), and a period let run out is used up for good. A
side whose last period runs out has lost on time.

This module is plain arithmetic on seconds, shared by the room server (which keeps the clocks: they
are authoritative there, and kept on disk with the room) and its clients (which count down between
two states from the server). Times are unix times (``time.time()``), the server's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

COLORS = ("black", "white")


@dataclass(frozen=True)
class ClockSettings:
    """A time control: ``main_s`` seconds of main time, then ``periods`` byo-yomi periods of
    ``period_s`` seconds each."""

    main_s: float = 300.0
    periods: int = 3
    period_s: float = 30.0

    def __post_init__(self) -> None:
        if not (self.main_s >= 0 and self.periods >= 0 and self.period_s > 0 and self.main_s + self.periods > 0):
            raise ValueError(f"not a time control: {self.main_s:g} s main time, {self.periods} periods of "
                             f"{self.period_s:g} s")

    @property
    def fresh(self) -> SideTime:
        """A side's time before its first move."""
        return SideTime(float(self.main_s), self.periods, float(self.period_s))


@dataclass(frozen=True)
class SideTime:
    """One side's time left: main time, byo-yomi periods (counting the one under way) and the seconds
    left of the current period (a whole period unless this side's clock runs in byo-yomi)."""

    main_s: float
    periods: int
    period_s: float

    @property
    def is_out(self) -> bool:
        """Whether this side has no time left (it has lost on time)."""
        return self.main_s <= 0 and self.periods <= 0

    def spend(self, seconds: float, period_s: float) -> SideTime:
        """The time left after the clock ran ``seconds`` more (``period_s``: the length of a whole
        period): main time first, then the current period, then whole periods, each used up in turn."""
        if seconds < self.main_s:
            return SideTime(self.main_s - seconds, self.periods, self.period_s)
        over = seconds - self.main_s
        if self.periods <= 0:
            return OUT
        if over < self.period_s:
            return SideTime(0.0, self.periods, self.period_s - over)
        over -= self.period_s  # the current period is used up ...
        used = math.floor(over / period_s)  # ... and these whole ones after it
        periods = self.periods - 1 - used
        if periods <= 0:
            return OUT
        return SideTime(0.0, periods, period_s - (over - used * period_s))


OUT = SideTime(0.0, 0, 0.0)


def budget_s(side: SideTime, settings: ClockSettings) -> float:
    """Seconds a side may think from ``side`` before it runs out: main time, the current period and
    every whole period left after it."""
    if side.is_out:
        return 0.0
    return side.main_s + (side.period_s + (side.periods - 1) * settings.period_s if side.periods > 0 else 0.0)


@dataclass(frozen=True)
class ClockReading:
    """Both clocks as the server read them at unix time ``at`` (what a ``state`` carries): the time
    control, each side's time left (by colour) and whose clock runs (None: neither, before the game
    starts or after it ends)."""

    settings: ClockSettings
    black: SideTime
    white: SideTime
    running: str | None
    at: float

    def side(self, color: str) -> SideTime:
        return self.black if color == "black" else self.white

    def after(self, seconds: float) -> ClockReading:
        """The reading ``seconds`` later, if nobody moves: what a client shows between two states
        (``seconds``: the time since the state came, on the client's own clock)."""
        if self.running is None or seconds <= 0:
            return self
        spent = self.side(self.running).spend(seconds, self.settings.period_s)
        if self.running == "black":
            return replace(self, black=spent, at=self.at + seconds)
        return replace(self, white=spent, at=self.at + seconds)


@dataclass(frozen=True)
class GameClock:
    """The clocks of one game as the server keeps them: each side's time left when its current or
    next turn began (``black``, ``white``), whose clock runs since unix time ``since``, and the side
    that ran out of time (``flagged``), if one did."""

    settings: ClockSettings
    black: SideTime
    white: SideTime
    running: str | None = None
    since: float | None = None
    flagged: str | None = None

    @classmethod
    def new(cls, settings: ClockSettings) -> GameClock:
        """Both clocks full and stopped (until the game starts)."""
        return cls(settings, settings.fresh, settings.fresh)

    def side(self, color: str) -> SideTime:
        return self.black if color == "black" else self.white

    def start(self, color: str, now: float) -> GameClock:
        """``color``'s clock runs from ``now``."""
        return replace(self, running=color, since=now)

    def read(self, now: float) -> ClockReading:
        """Both clocks at ``now``."""
        black, white = self.black, self.white
        if self.running is not None and self.since is not None:
            spent = self.side(self.running).spend(max(0.0, now - self.since), self.settings.period_s)
            black, white = (spent, white) if self.running == "black" else (black, spent)
        return ClockReading(self.settings, black, white, self.running, now)

    def deadline(self) -> float | None:
        """The unix time at which the running side runs out, or None while no clock runs."""
        if self.running is None or self.since is None:
            return None
        return self.since + budget_s(self.side(self.running), self.settings)

    def is_out(self, now: float) -> bool:
        """Whether the running side has run out by ``now``."""
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def moved(self, now: float) -> GameClock:
        """The running side moved at ``now``: its time is spent (a move in byo-yomi starts the next with
        a whole period) and the opponent's clock runs. Only for a side not out of time (:meth:`is_out`)."""
        assert self.running is not None and self.since is not None
        spent = self.side(self.running).spend(max(0.0, now - self.since), self.settings.period_s)
        assert not spent.is_out, "moved() after the flag fell"
        spent = replace(spent, period_s=float(self.settings.period_s))
        other = "white" if self.running == "black" else "black"
        return replace(self._with(self.running, spent), running=other, since=now)

    def stopped(self, now: float) -> GameClock:
        """Both clocks stopped at ``now`` (the game ended), the running side's time spent."""
        if self.running is None:
            return self
        reading = self.read(now)
        return replace(self, black=reading.black, white=reading.white, running=None, since=None)

    def flag(self) -> GameClock:
        """The running side ran out of time: it has lost; the clocks stop."""
        assert self.running is not None
        return replace(self._with(self.running, OUT), running=None, since=None, flagged=self.running)

    def _with(self, color: str, side: SideTime) -> GameClock:
        return replace(self, black=side) if color == "black" else replace(self, white=side)

    # --- stored form (JSON) -------------------------------------------------------------------------

    def to_dict(self) -> dict:
        s = self.settings
        return {"main_s": s.main_s, "periods": s.periods, "period_s": s.period_s,
                **{c: [self.side(c).main_s, self.side(c).periods, self.side(c).period_s] for c in COLORS},
                "running": self.running, "since": self.since, "flagged": self.flagged}

    @classmethod
    def from_dict(cls, data: dict) -> GameClock:
        """The stored form back; ValueError (or KeyError, TypeError) for one that can't be read."""
        settings = ClockSettings(float(data["main_s"]), int(data["periods"]), float(data["period_s"]))
        sides = {}
        for color in COLORS:
            main_s, periods, period_s = data[color]
            sides[color] = SideTime(float(main_s), int(periods), float(period_s))
        running, since, flagged = data.get("running"), data.get("since"), data.get("flagged")
        if running not in (None, *COLORS) or flagged not in (None, *COLORS) or (running is None) != (since is None):
            raise ValueError(f"bad clock state: running={running!r}, since={since!r}, flagged={flagged!r}")
        return cls(settings, sides["black"], sides["white"], running, None if since is None else float(since),
                   flagged)

"""A game against a friend through a room server, as the controller sees it.

:class:`FriendGame` wraps a :class:`~game.online.client.RoomClient` and is polled once a frame, like the
computer's ``Opponent``. The controller keeps its own ``engine.game.Game`` and plays its player's moves
on it at once (so the animation starts without waiting for the network), telling the friend game with
:meth:`FriendGame.play`; :meth:`FriendGame.poll` turns the server's states into what the controller
does next:

* :class:`TimedOut`: a side's clock ran out on the server: it loses on time.
* :class:`RoomOpened`: the room exists (its link, for the host's "Waiting for your friend"; the friend
  who joins gets it too, just before :class:`GameStarted`).
* :class:`GameStarted`: both players are seated (the first game, a rematch with colours swapped, or the
  game found on returning to a room): show this game, the player on ``color``.
* :class:`FriendMoved`: play this move (and the draw offer riding on it) for the friend, as a
  ``ComputerMove`` is played.
* :class:`FriendResigned`, :class:`DrawAgreed`: the game ended by the friend's hand.
* :class:`Resynced`: the server's game differs from the controller's (a move of ours was refused, or
  not sent while the connection was down): take this game instead, without animation.
* :class:`Refused`: the server's error, for a notice.
* :class:`FriendPresence`: the friend connected or left; :meth:`FriendGame.friend_away_s` counts how
  long they have been away (after :data:`FRIEND_AWAY_LIMIT_S`, "Continue vs computer").
* :class:`RematchAsked`: the friend wants a rematch.
* :class:`ConnectionChanged`: our own connection: ``connected``, ``reconnecting`` or ``gave_up``.

The server's state is the truth; the friend game keeps a copy of the game as the controller should have
it (``view``) and compares each new state with it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine import Color, Move, variant_named
from engine.game import Game
from game.online.client import Connected, GaveUp, Reconnecting, RoomClient, Unsent
from game.online.clock import ClockReading, SideTime
from game.online.protocol import Error, Joined, Link, ServerAddress, State, parse_link
from game.online.protocol import Paired as PairedMessage

FRIEND_AWAY_LIMIT_S = 120.0  # "Continue vs computer" once the friend has been away this long (specification)


@dataclass(frozen=True)
class RoomOpened:
    room: str
    link: str
    color: Color


@dataclass(frozen=True)
class TimedOut:
    color: Color  # the side whose time ran out


@dataclass(frozen=True)
class GameStarted:
    game: Game  # a copy for the controller to own
    color: Color  # the player's colour in it
    number: int  # games in this room so far, from 1


@dataclass(frozen=True)
class FriendMoved:
    move: Move
    offer_draw: bool = False


@dataclass(frozen=True)
class FriendResigned:
    pass


@dataclass(frozen=True)
class DrawAgreed:
    """The friend accepted the player's draw offer."""


@dataclass(frozen=True)
class Resynced:
    game: Game  # a copy for the controller to own
    reason: str


@dataclass(frozen=True)
class Refused:
    code: str
    message: str


@dataclass(frozen=True)
class FriendPresence:
    connected: bool
    seated: bool = True
    returned: bool = False  # connected again after being away (not their first connection)


@dataclass(frozen=True)
class RematchAsked:
    pass


@dataclass(frozen=True)
class ConnectionChanged:
    status: str  # "connected" | "reconnecting" | "gave_up"
    detail: str = ""
    unreachable: bool = False  # gave up because the room server could not be reached


FriendEvent = (RoomOpened | TimedOut | GameStarted | FriendMoved | FriendResigned | DrawAgreed | Resynced | Refused
               | FriendPresence | RematchAsked | ConnectionChanged)


def _copy(game: Game) -> Game:
    return Game.from_dict(game.to_dict())


def _game_of(state: State) -> Game:
    """The state's game as a record (replayed and checked by the engine)."""
    offered = set(state.offered_at)
    outcome = state.outcome
    resigned = None
    if outcome is not None and outcome.reason == "resignation":
        resigned = "black" if outcome.result == "white" else "white"
    return Game.from_dict({
        "variant": state.variant, "start": state.start_fen, "moves": list(state.moves),
        "draw_offers": [i in offered for i in range(len(state.moves))], "resigned": resigned,
        "draw_agreed": outcome is not None and outcome.reason == "agreement",
        **({"timed_out": "black" if outcome.result == "white" else "white"}
           if outcome is not None and outcome.reason == "time" else {})})


class FriendGame:
    """One player's side of a room. Make it with :meth:`create`, :meth:`join` or :meth:`resume`; poll it
    once a frame; :meth:`close` it when the game is left."""

    def __init__(self, client: RoomClient):
        self.client = client
        self.view: Game | None = None  # the game as the controller has it
        self.color: Color | None = None
        self.number = 0  # the game shown (0: none yet)
        self.room: str | None = None
        self.seat: str | None = None  # the seat's secret: saved with the game, never shown or sent to anyone
        self.link: str | None = None
        self.status = "connecting"  # our connection: connecting | connected | reconnecting | gave_up
        self._server: Game | None = None  # the game of the last state received
        self._friend_seated = False
        self._friend_connected = False
        self._friend_away_since: float | None = None  # time.monotonic() when the friend left
        self._friend_rematch = False
        self._friend_was_connected = False  # the friend has been seen connected in this room
        self.opponent: str | None = None  # the nickname of an opponent found online (None: a friend), from the states
        self._clock: tuple[ClockReading, float] | None = None  # the last state's clocks, and when it came

    @classmethod
    def create(cls, server: str | ServerAddress, variant: str, clock: bool = False, **client_options) -> "FriendGame":
        """Open a room on ``server`` with these rules (and the game clock, with ``clock``); the player
        moves first."""
        game = cls(RoomClient(server, **client_options))
        game.client.create(variant_named(variant).name, clock)
        return game

    @classmethod
    def seek(cls, server: str | ServerAddress, variant: str, nickname: str, **client_options) -> "FriendGame":
        """Be paired with the next player seeking these rules on ``server`` (the room's
        :class:`GameStarted` comes then); colours are drawn by the server."""
        game = cls(RoomClient(server, **client_options))
        game.client.seek(variant_named(variant).name, nickname)
        return game

    @classmethod
    def join(cls, link: str | Link, **client_options) -> "FriendGame":
        """Take the free seat of the room a link names (``InvalidLinkError`` for a bad link)."""
        parsed = parse_link(link) if isinstance(link, str) else link
        game = cls(RoomClient(parsed.server, **client_options))
        game.client.join(parsed.room)
        return game

    @classmethod
    def resume(cls, link: str | Link, seat: str, **client_options) -> "FriendGame":
        """Return to a seat kept from before (the link and the seat secret saved with the game)."""
        parsed = parse_link(link) if isinstance(link, str) else link
        game = cls(RoomClient(parsed.server, **client_options))
        game.client.resume(parsed.room, seat)
        return game

    # --- the player's actions (the controller has applied each to its own game already) -------------

    def play(self, move: Move, offer_draw: bool = False) -> None:
        """The player played ``move`` (with a draw offer riding on it if ``offer_draw``) on the controller's
        game, which is the same as ``view`` as long as the controller applies every event; the engine's
        errors (an illegal move, an offer not allowed) pass through, and nothing is sent then."""
        assert self.view is not None, "no game yet"
        text = self.view.position.move_text(move)
        self.view.play(move, offer_draw=offer_draw)
        self.client.move(text, offer_draw)

    def accept_draw(self) -> None:
        assert self.view is not None, "no game yet"
        self.view.accept_draw()
        self.client.accept_draw()

    def resign(self) -> None:
        assert self.view is not None and self.color is not None, "no game yet"
        self.view.resign(self.color)
        self.client.resign()

    def rematch(self) -> None:
        """Ask for the next game (colours swapped); :class:`GameStarted` comes once both have asked."""
        self.client.rematch()

    def close(self) -> None:
        """Leave the room's connection (a seek under way is cancelled first)."""
        if self.client.seeking and self.room is None:
            self.client.cancel_seek()
        self.client.close()

    # --- what the controller reads ------------------------------------------------------------------

    @property
    def is_started(self) -> bool:
        return self.number > 0

    @property
    def friend_connected(self) -> bool:
        return self._friend_connected

    def friend_away_s(self, now: float | None = None) -> float | None:
        """Seconds the friend has been disconnected (None while connected or before they joined)."""
        if self._friend_away_since is None:
            return None
        return (time.monotonic() if now is None else now) - self._friend_away_since

    def clock(self, now: float | None = None) -> dict[Color, SideTime] | None:
        """Each side's time left now (main time, byo-yomi periods, the running period), from the last
        state's clocks run on since it came; None in a room without the clock."""
        if self._clock is None:
            return None
        reading, received = self._clock
        if reading.running is not None:
            reading = reading.after(max(0.0, (time.monotonic() if now is None else now) - received))
        return {color: reading.side(color.label) for color in Color}

    @property
    def clock_running(self) -> Color | None:
        """The side whose clock runs (None: neither, or no clock)."""
        if self._clock is None or self._clock[0].running is None:
            return None
        return Color[self._clock[0].running.upper()]

    @property
    def can_continue_vs_computer(self) -> bool:
        away = self.friend_away_s()
        return away is not None and away >= FRIEND_AWAY_LIMIT_S

    def poll(self) -> list[FriendEvent]:
        """What happened since the last call, in order; never waits."""
        out: list[FriendEvent] = []
        for event in self.client.poll():
            if isinstance(event, State):
                self._on_state(event, out)
            elif isinstance(event, PairedMessage):
                self.room, self.seat, self.link = event.room, event.seat, self.client.address.link(event.room)
            elif isinstance(event, Joined):
                self.room, self.seat, self.link = event.room, event.seat, event.link
                if self.number == 0:
                    out.append(RoomOpened(event.room, event.link, Color[event.color.upper()]))
            elif isinstance(event, Error):
                out.append(Refused(event.code, event.message))
                self._resync(out, event.message)
            elif isinstance(event, Unsent):
                self._resync(out, "not connected: the last action was not sent")
            elif isinstance(event, Connected):
                self.status = "connected"
                out.append(ConnectionChanged("connected"))
            elif isinstance(event, Reconnecting):
                self.status = "reconnecting"
                out.append(ConnectionChanged("reconnecting", f"try {event.attempt} in {event.delay_s:.1f} s"))
            elif isinstance(event, GaveUp):
                self.status = "gave_up"
                out.append(ConnectionChanged("gave_up", event.reason, event.unreachable))
        return out

    # --- from states to events ----------------------------------------------------------------------

    def _on_state(self, s: State, out: list[FriendEvent]) -> None:
        me = Color[s.you.upper()]
        friend = s.players[me.opponent.label]
        if friend.name is not None:  # a paired room: the opponent's nickname (also on returning to it)
            self.opponent = friend.name
        self._presence(friend.connected, friend.seated, friend.away_s, out)
        wants = me.opponent.label in s.rematch
        if wants and not self._friend_rematch:
            out.append(RematchAsked())
        self._friend_rematch = wants
        self._clock = (s.clock, time.monotonic()) if s.clock is not None else None
        if not s.started:
            return
        self._server = _game_of(s)
        if s.game != self.number or self.view is None:
            self.number, self.color = s.game, me
            self.view = _copy(self._server)
            self._friend_rematch = False
            out.append(GameStarted(_copy(self._server), me, s.game))
            return
        view, server = self.view, self._server
        mine, theirs = view.to_dict(), server.to_dict()
        if mine == theirs:
            return
        n = len(mine["moves"])
        if mine["moves"] == theirs["moves"][:n] and mine["draw_offers"] == theirs["draw_offers"][:n] and not view.is_over:
            # the friend moved (perhaps several times while we were away), then perhaps resigned or agreed
            for text, offer in zip(theirs["moves"][n:], theirs["draw_offers"][n:], strict=True):
                if view.turn is me:
                    break
                move = view.play(view.position.parse_move(text), offer_draw=offer)
                out.append(FriendMoved(move, offer))
            if not view.is_over and server.outcome is not None and len(view.moves) == len(server.moves):
                if server.outcome.reason == "resignation" and server.outcome.result == me.label:
                    view.resign(me.opponent)
                    out.append(FriendResigned())
                elif server.outcome.reason == "agreement" and view.pending_offer is me:
                    view.accept_draw()
                    out.append(DrawAgreed())
                elif server.outcome.reason == "time":
                    loser = Color[server.outcome.result.upper()].opponent
                    view.time_out(loser)
                    out.append(TimedOut(loser))
            if view.to_dict() != theirs:
                self._resync(out, "the game on the server differs")
        elif theirs["moves"] == mine["moves"][:len(theirs["moves"])]:
            pass  # our own move (or resignation, acceptance) is on its way: its state follows
        else:
            self._resync(out, "the game on the server differs")

    def _resync(self, out: list[FriendEvent], reason: str) -> None:
        """The controller takes the server's game when its own differs from it."""
        if self._server is None or self.view is None or self.view.to_dict() == self._server.to_dict():
            return
        self.view = _copy(self._server)
        out.append(Resynced(_copy(self._server), reason))

    def _presence(self, connected: bool, seated: bool, away_s: float | None, out: list[FriendEvent]) -> None:
        # back after being away, not their first connection (a paired opponent may connect a moment after us)
        returned = connected and self._friend_away_since is not None and self._friend_was_connected
        if connected:
            self._friend_away_since = None
            self._friend_was_connected = True
        elif seated and self._friend_away_since is None:
            self._friend_away_since = time.monotonic() - (away_s or 0.0)
        if (connected, seated) != (self._friend_connected, self._friend_seated):
            self._friend_connected, self._friend_seated = connected, seated
            out.append(FriendPresence(connected, seated, returned))

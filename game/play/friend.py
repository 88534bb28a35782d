"""A friend's game through a room: opening and joining rooms, the room screen's phases, rematches,
and the room given up for the computer when the friend is gone.

A friend on another machine is an opponent (``game.friend.opponent``, opened by
:class:`~game.friend.rooms.Rooms`): the player's moves, draw acceptances and resignations are told to
the friend's room (:meth:`FriendPlay.tell_move` and its siblings), whose server checks them; the friend's arrive like the
computer's. Against a friend there is no undo; after the game "Rematch (swap sides)" replaces "Play
again"; when the friend has been gone for ``away_limit_s`` (or the room can't be reached as long),
"Continue vs computer" turns the game into one against the computer.

:class:`FriendPlay` owns the room's connection (``friend``) and the rematch flags; the machine
(``game.play.machine``) hands it the phases it needs and applies the steps it returns.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

from game.friend.rooms import HostingError
from game.online.protocol import InvalidLinkError, parse_link, parse_server_address
from game.play.effects import Note, Refused, Say, Step
from game.play.phases import (
    ChoosingMode,
    EnteringLink,
    GameOver,
    InGame,
    JoiningRoom,
    RoomPhase,
    SeekingOpponent,
    WaitingForFriend,
    game_phase_of,
    in_game_of,
)

if TYPE_CHECKING:
    from engine import Move
    from game.friend.opponent import FriendOpponent
    from game.friend.rooms import Rooms
    from game.modes import Room
    from game.play.phases import Phase, TurnPhase

FRIEND_AWAY_LIMIT_S = 120.0  # "Continue vs computer" after the friend is gone this long (specification: 2 minutes)


class FriendPlay:
    """The friend's game on screen or being reached: its room's connection (``friend``), opened by
    ``rooms`` (None: no friend can be played)."""

    def __init__(self, rooms: Rooms | None = None, away_limit_s: float = FRIEND_AWAY_LIMIT_S) -> None:
        self.rooms = rooms
        self.away_limit_s = away_limit_s
        self.friend: FriendOpponent | None = None
        self.rematch_asked = False  # the player pressed "Rematch (swap sides)" in this game
        self.friend_wants_rematch = False
        self._clock: tuple = ()  # the friend's time away and ours as shown (the panel redraws when they change)

    # --- what the panel reads ---------------------------------------------------------------------

    @property
    def connection(self) -> str | None:
        """Our connection to the friend's room: connecting, connected, reconnecting, gave_up (None: no room)."""
        return self.friend.connection if self.friend is not None else None

    def friend_away_s(self, phase: Phase, now: float | None = None) -> float | None:
        """Seconds the friend has been disconnected, in the game on screen (None while connected)."""
        p = in_game_of(phase)
        if self.friend is None or p is None or not p.mode.vs_friend:
            return None
        return self.friend.friend_away_s(now)

    def can_continue_vs_computer(self, phase: Phase, now: float | None = None) -> bool:
        """Whether "Continue vs computer" is offered: a friend's game going on whose friend has been
        gone ``away_limit_s``, or whose room has been out of reach as long (or for good); on the mode
        screen, any friend's game left there."""
        p = game_phase_of(phase)
        if p is None or not p.mode.vs_friend or p.game.is_over:
            return False
        f = self.friend
        if not isinstance(phase, InGame) or f is None:
            return isinstance(phase, ChoosingMode)
        gone = max(f.friend_away_s(now) or 0.0, f.down_s(now) or 0.0)
        return f.connection == "gave_up" or gone >= self.away_limit_s

    def can_return_to_room(self, phase: Phase) -> bool:
        """Whether the friend's game left on the mode screen may be returned to: its room is on a
        room server, or on this game's own one while it still runs."""
        p = game_phase_of(phase)
        if not isinstance(phase, ChoosingMode) or p is None or p.mode.room is None or p.game.is_over:
            return False
        return not p.mode.room.hosted or (self.rooms is not None and self.rooms.is_hosting)

    # --- reaching a room --------------------------------------------------------------------------

    def open_room(self, left: TurnPhase | None, variant: str, server: str, clock: bool = False) -> Step:
        """"Play a friend (send a link)": open a room with the rules chosen (with the game clock, with
        ``clock``), and wait for the friend."""
        assert self.rooms is not None
        self.close()
        try:
            friend = self.rooms.create(variant, server, clock)
        except HostingError as err:  # the system's error is in the log
            return Step(effects=(Note(f"Couldn't open a room: {err}. {err.advice}"),))
        except (InvalidLinkError, OSError) as err:
            return Step(effects=(Note(f"Couldn't open a room: {err}"),))
        self.friend = friend
        return Step(WaitingForFriend(left=left, variant=variant, reach=friend.reach, this_network=friend.this_network),
                    (Say(None),))

    def seek(self, left: TurnPhase | None, variant: str, server: str, nickname: str) -> Step:
        """"Play someone online": wait on the room server ``server`` to be paired with the next player
        seeking these rules."""
        assert self.rooms is not None
        self.close()
        try:
            friend = self.rooms.seek(variant, server, nickname)
        except InvalidLinkError as err:
            return Step(effects=(Note(f"Couldn't look for an opponent: {err}"),))
        self.friend = friend
        return Step(SeekingOpponent(left=left, variant=variant, nickname=nickname, since=time.monotonic(),
                                    reach=friend.reach), (Say(None),))

    @staticmethod
    def check_link(link: str) -> str | None:
        """What is wrong with a friend's link (None: it can be read)."""
        text = link.strip()
        try:
            if not text:
                raise InvalidLinkError("Paste your friend's link first: it starts with checkers3d://")
            parse_link(text)
        except InvalidLinkError as err:
            return str(err)
        return None

    def join(self, left: TurnPhase | None, link: str) -> Step:
        """Take the free seat in the room of ``link``; a link that can't be read is quoted back."""
        assert self.rooms is not None
        error = self.check_link(link)
        if error is not None:
            return Step(EnteringLink(left=left, text=link, caret=len(link), error=error))
        text = link.strip()
        self.close()
        self.friend = self.rooms.join(text)
        return Step(JoiningRoom(left=left, link=text), (Say(None),))

    def return_to_room(self, left: TurnPhase) -> Step:
        """Back to the player's seat in the room of the friend's game ``left``."""
        room = left.mode.room
        assert room is not None and self.rooms is not None
        self.close()
        self.friend = self.rooms.resume(room)
        return Step(JoiningRoom(left=left, link=room.link, returning=True), (Say(None),))

    def leave_room_screen(self, p: RoomPhase) -> Step:
        """Cancel on the room screen: a join goes back to its link, the rest to the mode screen; a
        room being opened or waited in is closed (and the game's own room server stopped with it,
        unless the game left on the mode screen still has its room there)."""
        if isinstance(p, (WaitingForFriend, SeekingOpponent, JoiningRoom)):
            self.close()
        if isinstance(p, WaitingForFriend) and self.rooms is not None:
            held = p.left.mode.room if p.left is not None else None
            if held is None or not held.hosted:
                self.rooms.stop_hosting()
        if isinstance(p, JoiningRoom) and not p.returning:
            return Step(EnteringLink(left=p.left, text=p.link, caret=len(p.link)))
        return Step(ChoosingMode(left=p.left))

    @staticmethod
    def check_server(text: str) -> str | None:
        """What is wrong with a room server's address (None: it can be used; empty: the game's own)."""
        if text.strip():
            try:
                parse_server_address(text.strip())
            except InvalidLinkError as err:
                return str(err)
        return None

    def room_failed(self, phase: Phase, why: str, refused: bool, unreachable: bool = False) -> Step:
        """The room refused a request (``refused``) or can't be reached any more: a room being
        opened or joined is given up (the reason shown, and what to try when its server could not be
        reached: the connection errors are in the log); a game goes on showing it."""
        if isinstance(phase, JoiningRoom):
            self.close()
            if phase.returning:
                try_later = ". Try again later from this screen." if unreachable else ""
                return Step(ChoosingMode(left=phase.left),
                            (Note(f"Couldn't return to your friend's room: {why}{try_later}"),))
            error = (f"Couldn't join: {why}. Check the link with your friend, and that their game is open and "
                     "reachable from here." if unreachable else f"Couldn't join {phase.link}: {why}")
            return Step(EnteringLink(left=phase.left, text=phase.link, caret=len(phase.link), error=error))
        if isinstance(phase, SeekingOpponent):
            step = self.leave_room_screen(phase)
            advice = (". Check its address under Settings, “Room server”, and your internet connection; then try "
                      "again." if unreachable else "")
            return Step(step.phase, (*step.effects, Note(f"Couldn't look for an opponent: {why}{advice}")))
        if isinstance(phase, WaitingForFriend):
            step = self.leave_room_screen(phase)
            if unreachable:
                note = (f"Couldn't open a room: {why}. Check its address under Settings, “Room server” (left empty, "
                        "rooms are on this computer, for your network), and your internet connection; then try again.")
            else:
                note = f"The room closed: {why}"
            return Step(step.phase, (*step.effects, Note(note)))
        p = in_game_of(phase)
        if p is not None and p.mode.vs_friend:
            return Step(effects=(Say(f"The room refused that: {why}" if refused
                                     else f"The connection to the room is lost: {why}"),))
        return Step()

    @staticmethod
    def room_opened(phase: Phase, link: str) -> Step:
        """The room exists: the waiting screen shows its link."""
        return Step(dataclasses.replace(phase, link=link)) if isinstance(phase, WaitingForFriend) else Step()

    # --- the room's game --------------------------------------------------------------------------

    def game_started(self) -> None:
        """The room's next game begins: no rematch asked in it yet."""
        self.rematch_asked = self.friend_wants_rematch = False

    def rematch(self, turn: Phase) -> Step | Refused:
        f = self.friend
        if not isinstance(turn, GameOver) or not turn.mode.vs_friend or f is None or self.rematch_asked:
            return Refused("A rematch is asked for once a game with your friend is over")
        if not f.is_connected:
            return Refused("Not connected to the room: the rematch can be asked for once it is back", said=True)
        f.rematch()
        self.rematch_asked = True
        assert turn.mode.room is not None
        who = turn.mode.room.opponent_words()
        return Step(effects=(Say(None if self.friend_wants_rematch else f"Waiting for {who} to press Rematch too"),))

    def rematch_asked_by_friend(self, room: Room | None) -> Step:
        """The friend asked for a rematch; what is said of it in their game going on in ``room`` (None:
        the game on screen is not theirs)."""
        self.friend_wants_rematch = True
        if room is None:
            return Step()
        who = room.opponent_words(capital=True)
        return Step(effects=(Say(f"{who} pressed Rematch too: the next game is starting" if self.rematch_asked
                                 else f"{who} asks for a rematch: press Rematch (swap sides)"),))

    # what the player did to the game, told to the friend's room (when connected to one)

    def tell_move(self, move: Move, offer_draw: bool) -> None:
        if self.friend is not None:
            self.friend.played(move, offer_draw)

    def tell_draw_accepted(self) -> None:
        if self.friend is not None:
            self.friend.accepted_draw()

    def tell_resigned(self) -> None:
        if self.friend is not None:
            self.friend.resigned()

    def tick_clock(self, phase: Phase) -> bool:
        """Whether the times shown moved on a second (the connections', the game clocks', the wait for
        an opponent online) or "Continue vs computer" appeared: the panel redraws then."""
        f = self.friend
        away, down = (f.friend_away_s(), f.down_s()) if f is not None else (None, None)
        times = f.session.clock() if f is not None else None
        waited = int(time.monotonic() - phase.since) if isinstance(phase, SeekingOpponent) else None
        clock = (None if away is None else int(away), None if down is None else int(down),
                 self.can_continue_vs_computer(phase), waited,
                 None if times is None else tuple((int(t.main_s), t.periods, int(t.period_s)) for t in times.values()))
        if clock == self._clock:
            return False
        self._clock = clock
        return True

    # --- leaving ----------------------------------------------------------------------------------

    def close(self) -> None:
        """Leave the room's connection (the seat stays the player's in the room)."""
        if self.friend is not None:
            self.friend.close()
            self.friend = None
        self._clock = ()

    def leave_rooms(self) -> None:
        """A game of another kind starts: the friend's room is left and the game's own server stopped."""
        self.close()
        if self.rooms is not None:
            self.rooms.stop_hosting()

    def give_up_room(self, p: TurnPhase) -> None:
        """The friend's game ``p`` goes on against the computer: its room is left (and the game's own
        server stopped, when the room was there)."""
        self.close()
        if p.mode.room is not None and p.mode.room.hosted and self.rooms is not None:
            self.rooms.stop_hosting()

    @staticmethod
    def register_links(on_server_card: bool) -> Step:
        """Settings: make ``checkers3d://`` links open this game; what happened is said on the room
        server's card when it is open, else in the notes."""
        from game.desktop import register_link_handler

        try:
            said = register_link_handler()
        except (OSError, RuntimeError) as err:
            said = f"Couldn't register checkers3d:// links: {err}"
        return Step(effects=(Say(said) if on_server_card else Note(said),))


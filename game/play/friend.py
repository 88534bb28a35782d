"""A friend's game through a room: opening and joining rooms, the room's news, rematches, and going
on against the computer when the friend is gone.

A friend on another machine is an opponent (``game.friend.opponent``, opened by
:class:`~game.friend.rooms.Rooms`): the player's moves, draw acceptances and resignations are
told to the friend's room, whose server checks them; the friend's arrive like the computer's. Against
a friend there is no undo; after the game "Rematch (swap sides)" replaces "Play again"; when the
friend has been gone for ``friend_away_limit_s`` (or the room can't be reached as long), "Continue
vs computer" turns the game into one against the computer.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, assert_never

from engine import Color
from game.friend.rooms import HostingError
from game.modes import Level, Mode
from game.online.protocol import InvalidLinkError, parse_link, parse_server_address
from game.opponent import DrawAnswer, OpponentError, OpponentMove, OpponentStatus
from game.play.phases import (
    ChoosingMode,
    EnteringLink,
    EnteringServer,
    GameOver,
    InGame,
    JoiningRoom,
    RoomPhase,
    Screen,
    TurnPhase,
    WaitingForFriend,
)

if TYPE_CHECKING:
    from engine.game import Game
    from game.friend.opponent import FriendReply, RoomNews
    from game.play.machine import Controller


class FriendPlay:
    """The controller's friend's game and its room."""

    def __init__(self, c: Controller) -> None:
        self.c = c
        self._friend_clock: tuple = ()  # the friend's time away and ours as shown (the panel redraws when they change)

    @property
    def friend_connection(self) -> str | None:
        """Our connection to the friend's room: connecting, connected, reconnecting, gave_up (None: no room)."""
        return self.c.friend.connection if self.c.friend is not None else None

    def friend_away_s(self, now: float | None = None) -> float | None:
        """Seconds the friend has been disconnected, in the game on screen (None while connected)."""
        return self.c.friend.friend_away_s(now) if self.c.friend is not None and self.c.vs_friend else None

    def can_continue_vs_computer(self, now: float | None = None) -> bool:
        """Whether "Continue vs computer" is offered: a friend's game going on whose friend has been
        gone ``friend_away_limit_s``, or whose room has been out of reach as long (or for good); on
        the mode screen, any friend's game left there."""
        p = self.c.game_phase
        if p is None or not p.mode.vs_friend or p.game.is_over:
            return False
        f = self.c.friend
        if not isinstance(self.c.phase, InGame) or f is None:
            return isinstance(self.c.phase, ChoosingMode)
        gone = max(f.friend_away_s(now) or 0.0, f.down_s(now) or 0.0)
        return f.connection == "gave_up" or gone >= self.c.friend_away_limit_s

    def can_return_to_room(self) -> bool:
        """Whether the friend's game left on the mode screen may be returned to: its room is on a
        room server, or on this game's own one while it still runs."""
        p = self.c.game_phase
        if not isinstance(self.c.phase, ChoosingMode) or p is None or p.mode.room is None or p.game.is_over:
            return False
        return not p.mode.room.hosted or (self.c.rooms is not None and self.c.rooms.is_hosting)

    def play_friend(self) -> None:
        """"Play a friend (send a link)": open a room with the rules chosen, and wait for the friend."""
        if self.c.screen is not Screen.MODE or self.c.rooms is None:
            return
        left = self.c.game_phase
        self.close_friend()
        try:
            friend = self.c.rooms.create(self.c.settings.variant, self.c.settings.room_server)
        except HostingError as err:  # the system's error is in the log
            self.c.notes.append(f"Couldn't open a room: {err}. {err.advice}")
            return
        except (InvalidLinkError, OSError) as err:
            self.c.notes.append(f"Couldn't open a room: {err}")
            return
        self.c.friend = friend
        self.c.notice = None
        self.c.phase = WaitingForFriend(left=left, variant=self.c.settings.variant, reach=friend.reach,
                                      this_network=friend.this_network)

    def open_join(self) -> None:
        """"Join a friend": the screen where the friend's link is pasted."""
        if self.c.screen is Screen.MODE:
            self.c.phase = EnteringLink(left=self.c.game_phase)

    def join(self, link: str) -> None:
        """Take the free seat in the room of ``link``; a link that can't be read is quoted back."""
        if self.c.screen is Screen.GAME or self.c.rooms is None:
            return
        left = self.c.game_phase
        text = link.strip()
        try:
            if not text:
                raise InvalidLinkError("Paste your friend's link first: it starts with checkers3d://")
            parse_link(text)
        except InvalidLinkError as err:
            self.c.phase = EnteringLink(left=left, text=link, caret=len(link), error=str(err))
            return
        self.close_friend()
        self.c.friend = self.c.rooms.join(text)
        self.c.notice = None
        self.c.phase = JoiningRoom(left=left, link=text)

    def return_to_room(self, left: TurnPhase) -> None:
        """Back to the player's seat in the room of the friend's game ``left``."""
        room = left.mode.room
        assert room is not None and self.c.rooms is not None
        self.close_friend()
        self.c.friend = self.c.rooms.resume(room)
        self.c.notice = None
        self.c.phase = JoiningRoom(left=left, link=room.link, returning=True)

    def leave_room_screen(self, p: RoomPhase) -> None:
        """Cancel on the room screen: a join goes back to its link, the rest to the mode screen; a
        room being opened or waited in is closed (and the game's own room server stopped with it,
        unless the game left on the mode screen still has its room there)."""
        if isinstance(p, (WaitingForFriend, JoiningRoom)):
            self.close_friend()
        if isinstance(p, WaitingForFriend) and self.c.rooms is not None:
            held = p.left.mode.room if p.left is not None else None
            if held is None or not held.hosted:
                self.c.rooms.stop_hosting()
        if isinstance(p, JoiningRoom) and not p.returning:
            self.c.phase = EnteringLink(left=p.left, text=p.link, caret=len(p.link))
        else:
            self.c.phase = ChoosingMode(left=p.left)

    def close_friend(self) -> None:
        """Leave the room's connection (the seat stays the player's in the room)."""
        if self.c.friend is not None:
            self.c.friend.close()
            self.c.friend = None
        self._friend_clock = ()

    def leave_rooms(self) -> None:
        """A game of another kind starts: the friend's room is left and the game's own server stopped."""
        self.close_friend()
        if self.c.rooms is not None:
            self.c.rooms.stop_hosting()

    def rematch(self) -> None:
        p = self.c.turn_phase
        f = self.c.friend
        if not isinstance(p, GameOver) or not p.mode.vs_friend or f is None or self.c.rematch_asked:
            return
        if not f.is_connected:
            self.c.illegal("Not connected to the room: the rematch can be asked for once it is back")
            return
        f.rematch()
        self.c.rematch_asked = True
        self.c.notice = None if self.c.friend_wants_rematch else "Waiting for your friend to press Rematch too"

    def continue_vs_computer(self) -> None:
        """The friend's game goes on against the computer (Medium) from where it is, moves kept."""
        p = self.c.game_phase
        if p is None or p.mode.room is None or not self.can_continue_vs_computer():
            return
        self.c.stop_opponent()
        self.close_friend()
        if p.mode.room.hosted and self.c.rooms is not None:
            self.c.rooms.stop_hosting()
        mode = Mode(Level.MEDIUM, p.mode.human)
        self.c.results.recorded = False
        self.c.after_change()
        self.c.enter_turn(p.game, mode)
        self.c.notice = "You now play the computer (Medium) from here"
        self.c.saved.save()

    def save_server(self, p: EnteringServer) -> None:
        text = p.text.strip()
        if text:
            try:
                parse_server_address(text)
            except InvalidLinkError as err:
                self.c.phase = dataclasses.replace(p, error=str(err))
                return
        self.c.settings.room_server = text
        self.c.save_settings()
        self.c.phase = ChoosingMode(left=p.left)

    def register_links(self) -> None:
        from game.desktop import register_link_handler

        try:
            said = register_link_handler()
        except (OSError, RuntimeError) as err:
            said = f"Couldn't register checkers3d:// links: {err}"
        if isinstance(self.c.phase, EnteringServer):  # its card shows it
            self.c.notice = said
        else:
            self.c.notes.append(said)

    def on_news(self, news: FriendReply) -> None:
        """One piece of news from the friend's room: a reply as from any opponent, or the room's own."""
        match news:
            case OpponentMove() | DrawAnswer() | OpponentStatus() | OpponentError():
                if self.c.vs_friend:
                    self.c.on_reply(news)
            case _:
                self._on_room(news)

    def _on_room(self, news: RoomNews) -> None:
        from game.friend import opponent as fo

        p = self.c.turn_phase
        in_friend_game = isinstance(p, InGame) and p.mode.vs_friend
        match news:
            case fo.RoomOpened(link=link):
                if isinstance(self.c.phase, WaitingForFriend):
                    self.c.phase = dataclasses.replace(self.c.phase, link=link)
            case fo.GameStarted(game=game, color=color, number=number):
                self._game_started(game, color, number)
            case fo.FriendResigned():
                if isinstance(p, InGame) and in_friend_game and not p.game.is_over:
                    assert p.mode.computer is not None
                    p.game.resign(p.mode.computer)
                    self.c.notice = "Your friend resigned"
                    self.c.after_change()
                    self.c.game_over(p.game, p.mode)
            case fo.Resynced(game=game):
                if isinstance(p, InGame) and in_friend_game:
                    refused = self.c.notice if self.c.notice and self.c.notice.startswith("The room refused") else None
                    self._take_game(game, p.mode)
                    self.c.notice = refused or "The game was set back to where the room has it"
            case fo.Refused(message=message):
                self._room_failed(message, refused=True)
            case fo.FriendPresence(connected=connected, seated=seated):
                if in_friend_game and seated:
                    self.c.notice = "Your friend is back" if connected else "Your friend was disconnected"
            case fo.RematchAsked():
                self.c.friend_wants_rematch = True
                if in_friend_game:
                    self.c.notice = ("Your friend pressed Rematch too: the next game is starting" if self.c.rematch_asked
                                   else "Your friend asks for a rematch: press Rematch (swap sides)")
            case fo.ConnectionChanged(status="gave_up", detail=detail, unreachable=unreachable):
                self._room_failed(detail, refused=False, unreachable=unreachable)
            case fo.ConnectionChanged():
                pass  # the status line reads the connection
            case _:
                assert_never(news)

    def _room_failed(self, why: str, refused: bool, unreachable: bool = False) -> None:
        """The room refused a request (``refused``) or can't be reached any more: a room being
        opened or joined is given up (the reason shown, and what to try when its server could not be
        reached: the connection errors are in the log); a game goes on showing it."""
        p = self.c.phase
        if isinstance(p, JoiningRoom):
            self.close_friend()
            if p.returning:
                self.c.phase = ChoosingMode(left=p.left)
                try_later = ". Try again later from this screen." if unreachable else ""
                self.c.notes.append(f"Couldn't return to your friend's room: {why}{try_later}")
            else:
                error = (f"Couldn't join: {why}. Check the link with your friend, and that their game is open and "
                         "reachable from here." if unreachable else f"Couldn't join {p.link}: {why}")
                self.c.phase = EnteringLink(left=p.left, text=p.link, caret=len(p.link), error=error)
        elif isinstance(p, WaitingForFriend):
            self.leave_room_screen(p)
            if unreachable:
                self.c.notes.append(f"Couldn't open a room: {why}. Check its address under Settings, "
                                    "“Room server” (left empty, rooms are on this computer, for your network), "
                                    "and your internet connection; then try again.")
            else:
                self.c.notes.append(f"The room closed: {why}")
        elif self.c.vs_friend:
            self.c.notice = f"The room refused that: {why}" if refused else f"The connection to the room is lost: {why}"

    def _game_started(self, game: Game, color: Color, number: int) -> None:
        """The room's game begins (the friend joined, a rematch, or the game found on returning)."""
        assert self.c.friend is not None
        room = self.c.friend.room
        assert room is not None, "the room gives the seat before its game"
        before = self.c.phase
        mode = Mode(human=color, room=room)
        self.c.flipped = False
        self.c.played = None
        self.c.rematch_asked = self.c.friend_wants_rematch = False
        self.c.results.recorded = game.is_over
        self.c.after_change()
        self.c.cursor = self.c.hand.home_cursor(game.variant, color)
        self.c.enter_turn(game, mode)
        mover = "you move first" if game.turn is color else "your friend moves first"
        if number > 1:
            self.c.notice = f"Game {number}, sides swapped: you play {color.label.capitalize()}"
        elif isinstance(before, JoiningRoom) and before.returning:
            self.c.notice = "You are back in the room"
        else:
            self.c.notice = f"You play {color.label.capitalize()}; {mover}"
        self.c.saved.save()

    def _take_game(self, game: Game, mode: Mode) -> None:
        """The room's game replaces ours (ours differed: a move the room refused or never heard)."""
        self.c.played = None
        self.c.after_change()
        self.c.results.recorded = game.is_over
        self.c.enter_turn(game, mode)
        self.c.saved.save()

    def tick_clock(self) -> bool:
        """Whether the times shown for the connections moved on (a second) or "Continue vs computer"
        appeared: the panel redraws then."""
        f = self.c.friend
        away, down = (f.friend_away_s(), f.down_s()) if f is not None else (None, None)
        clock = (None if away is None else int(away), None if down is None else int(down),
                 self.can_continue_vs_computer())
        if clock == self._friend_clock:
            return False
        self._friend_clock = clock
        return True

    def in_friend_game(self) -> bool:
        """Whether a game with a friend is going on on screen: a review, the editor, the browser and the
        analysis wait until it is over (the friend plays on meanwhile)."""
        p = self.c.in_game
        return p is not None and p.mode.vs_friend and not p.game.is_over

    def refused_in_friend_game(self) -> bool:
        """:meth:`in_friend_game`, the player told why nothing happens."""
        if not self.in_friend_game():
            return False
        self.c.illegal("Not during a game with your friend: once it is over")
        return True

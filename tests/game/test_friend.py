"""Playing a friend, controller against controller through a REAL room server on a free port of
127.0.0.1 (the game's own embedded server, or one "configured" in Settings): opening a room and its
link, joining by a pasted link, moves both ways with the selection rules, draw offers and their
re-offer limits, resignation, rematch with sides swapped, a dropped connection and its reconnection,
the friend gone and "Continue vs computer", returning to the room after a relaunch, bad links."""

from __future__ import annotations

import errno
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import FAST, ScriptedOpponent, pump, sq

from engine import Color
from engine.game import Reason
from game.files.storage import Storage
from game.friend import session
from game.friend.rooms import Rooms
from game.modes import Level
from game.online.server import EmbeddedServer
from game.play.intents import (
    AcceptDraw,
    Cancel,
    ChangeMode,
    ConfirmLeave,
    ConfirmResign,
    ContinueSaved,
    ContinueVsComputer,
    CopyLink,
    EditServer,
    EditText,
    JoinRoom,
    OfferDraw,
    OpenJoin,
    PlayAgain,
    PlayFriend,
    PlayMoveFromList,
    Rematch,
    Resign,
    SquarePressed,
    StartGame,
    SubmitText,
    TypeText,
    Undo,
)
from game.play.machine import FRIEND_AWAY_LIMIT_S, Controller
from game.play.phases import (
    AwaitingDrawAnswer,
    ChoosingMode,
    ConfirmingLeave,
    EnteringLink,
    EnteringServer,
    GameOver,
    HumanToMove,
    JoiningRoom,
    OpponentToMove,
    Screen,
    WaitingForFriend,
)

ROOT = Path(__file__).resolve().parents[2]

# A real game (tests/data/pdn/american-oca.pdn) to the point where both sides have kings and Black,
# to move, can make quiet king moves: what the draw offers' re-offer limit needs.
TO_KINGS = ("11-15 24-20 8-11 28-24 4-8 23-19 9-14 22-17 15-18 26-23 5-9 17-13 1-5 32-28 14-17 21x14 10x17 23x14 "
            "9x18 25-21 6-10 21x14 10x17 29-25 17-22 25-21 11-16 20x4 3-8 4x11 7x32 24-20 22-25 21-17 25-29 17-14 "
            "2-6 30-26 29-25 20-16 12x19 26-23 19x26 31x15 25-22 14-10 22-18 10x1 18x11 1-6").split()


@pytest.fixture
def make_rooms():
    """make_rooms(**client_options) -> Rooms whose own server listens on 127.0.0.1 (closed after the test)."""
    made: list[Rooms] = []

    def build(**options) -> Rooms:
        rooms = Rooms(listen="127.0.0.1", port=0, client_options={**FAST, **options})
        made.append(rooms)
        return rooms

    yield build
    for rooms in made:
        rooms.close()


@pytest.fixture
def make_player(tmp_path, make_rooms):
    """make_player(name, **controller_options) -> a controller with its own saves and rooms."""
    made: list[Controller] = []

    def build(name: str, rooms: Rooms | None = None, **options) -> Controller:
        c = Controller(opponent=ScriptedOpponent(), storage=Storage(tmp_path / name),
                       rooms=rooms or make_rooms(), **options)
        made.append(c)
        return c

    yield build
    for c in made:
        c.close()


def open_room(host: Controller) -> str:
    host.handle(PlayFriend())
    assert isinstance(host.phase, WaitingForFriend) and host.phase.link is None
    pump(host, until=lambda: isinstance(host.phase, WaitingForFriend) and host.phase.link, what="the room's link")
    assert isinstance(host.phase, WaitingForFriend) and host.phase.link is not None
    return host.phase.link


def join(guest: Controller, link: str) -> None:
    """Join as a player does: "Join a friend", paste the link, Join."""
    guest.handle(OpenJoin())
    guest.handle(TypeText(link + "\n"))
    guest.handle(SubmitText())
    assert isinstance(guest.phase, JoiningRoom)


def seated(host: Controller, guest: Controller) -> None:
    pump(host, guest, until=lambda: host.vs_friend and guest.vs_friend, what="both in the game")


def pair(make_player, **options) -> tuple[Controller, Controller]:
    host, guest = make_player("host", **options), make_player("guest", **options)
    join(guest, open_room(host))
    seated(host, guest)
    return host, guest


def play(mover: Controller, other: Controller, text: str, offer: bool = False) -> None:
    """``mover`` plays ``text`` (numeric) from its legal moves list; both see it."""
    plies = len(mover.game.moves) + 1
    if offer:
        mover.handle(OfferDraw())
        assert mover.offers.armed, mover.notice
    move = mover.game.position.parse_move(text)
    assert move in mover.legal_moves(), (text, mover.status())
    mover.handle(PlayMoveFromList(move))
    pump(mover, other, until=lambda: len(other.game.moves) == plies, what=f"{text} to arrive")


def numeric(c: Controller) -> list[str]:
    return [p.move_text(m) for p, m in zip(c.game.positions, c.game.moves, strict=False)]


def test_the_two_minute_limit_is_the_specifications():
    assert FRIEND_AWAY_LIMIT_S == session.FRIEND_AWAY_LIMIT_S == 120.0


def test_a_room_is_opened_on_the_games_own_server_and_its_link_copied(make_player):
    host = make_player("host")
    link = open_room(host)
    p = host.phase
    assert isinstance(p, WaitingForFriend) and p.this_network and host.screen is Screen.ROOM
    assert host.friend_play.rooms is not None and host.friend_play.rooms.is_hosting
    assert link.startswith(f"checkers3d://127.0.0.1:{host.friend_play.rooms.embedded.address.port}/")
    assert p.reach == f"127.0.0.1:{host.friend_play.rooms.embedded.address.port}"
    assert host.status() == "Waiting for your friend"
    assert host.handle(CopyLink()).clipboard == link
    host.handle(Cancel())  # Esc or Cancel closes the room and stops the game's own server
    assert isinstance(host.phase, ChoosingMode) and host.friend_play.friend is None and not host.friend_play.rooms.is_hosting


def test_a_friend_joins_by_the_link_and_the_host_plays_first(make_player):
    host, guest = pair(make_player)
    assert host.mode.human is Color.BLACK and guest.mode.human is Color.WHITE
    assert not host.hand.second_side_near(host.variant, host.mode), "the host's pieces are near them"
    assert guest.hand.second_side_near(guest.variant, guest.mode), "the joiner's pieces are near them"
    assert isinstance(host.phase, HumanToMove) and isinstance(guest.phase, OpponentToMove)
    assert guest.status() == "Your friend's move (Black)…" and guest.legal_moves() == ()
    assert host.notice == "You play Black; you move first" and guest.notice == "You play White; your friend moves first"
    # the selection rules as in any game: a piece with no move says so, a dot plays the move
    host.handle(SquarePressed(sq("a1")))
    assert host.notice.startswith("That man can't move") and host.hand.selected is None
    host.handle(SquarePressed(sq("c3")))
    assert host.hand.targets(host.legal_moves()) == {sq("b4"), sq("d4")}
    host.handle(SquarePressed(sq("d4")))
    assert isinstance(host.phase, OpponentToMove) and host.status() == "Your friend's move (White)…"
    pump(host, guest, until=lambda: len(guest.game.moves) == 1)
    assert guest.played is not None and guest.played.move == host.game.moves[0], "the friend's move is animated"
    assert isinstance(guest.phase, HumanToMove) and guest.status() == "Your move (White)"
    play(guest, host, "22-18")
    # the host must capture: the rings and the words of a local game
    assert host.hand.capturers(host.legal_moves()) == {sq("d4")} and "You must capture" in host.status()
    host.handle(SquarePressed(sq("e3")))
    assert host.notice.startswith("When you can capture, you must capture")
    play(host, guest, "15x22")
    assert numeric(host) == numeric(guest) == ["11-15", "22-18", "15x22"]
    # no undo against a friend
    assert not host.offers.can_undo(host.in_game) and not guest.offers.can_undo(guest.in_game)
    guest.handle(Undo())
    assert len(guest.game.moves) == 3


def test_a_draw_offer_declined_by_a_move_and_the_re_offer_limit(make_player):
    host, guest = pair(make_player)
    players = {Color.BLACK: host, Color.WHITE: guest}
    for i, text in enumerate(TO_KINGS):
        mover = players[Color.BLACK if i % 2 == 0 else Color.WHITE]
        play(mover, players[Color.WHITE if i % 2 == 0 else Color.BLACK], text)
        time.sleep(0.06)  # at most a few moves a second, as people play: the server refuses over 20 a second
    assert host.game.position.count(Color.BLACK)[1] and host.game.position.count(Color.WHITE)[1]
    play(host, guest, "11-7", offer=True)
    assert isinstance(host.phase, AwaitingDrawAnswer) and host.notice == "You offered a draw"
    assert guest.offers.pending_for_player(guest.turn_phase) and "a draw is offered" in guest.status()
    play(guest, host, "6-1")  # a move instead of an answer declines
    assert host.notice == "Your friend declined your draw offer"
    out = host.handle(OfferDraw())  # no man moved and nothing captured since: no new offer yet
    assert not host.offers.armed and out.sounds == ("illegal",) and host.notice
    play(host, guest, "7-2")
    guest.handle(OfferDraw())  # the friend's own first offer is allowed
    assert guest.offers.armed


def test_a_draw_offer_accepted_ends_both_games(make_player):
    host, guest = pair(make_player)
    play(host, guest, "9-13", offer=True)
    assert guest.notice == "Your friend offers a draw" and guest.offers.pending_for_player(guest.turn_phase)
    guest.handle(AcceptDraw())
    pump(host, guest, until=lambda: isinstance(host.phase, GameOver), what="the agreed draw")
    assert host.game.outcome.reason is Reason.AGREEMENT and guest.game.outcome.reason is Reason.AGREEMENT
    assert host.notice == "Your friend accepted your draw offer"
    assert host.status() == "Draw: both players agreed"


def test_resignation_and_a_rematch_with_sides_swapped(make_player):
    host, guest = pair(make_player)
    play(host, guest, "11-15")
    guest.handle(Resign())
    guest.handle(ConfirmResign())
    assert isinstance(guest.phase, GameOver) and guest.status() == "Your friend wins: you resigned"
    pump(host, guest, until=lambda: isinstance(host.phase, GameOver), what="the resignation")
    assert host.notice == "Your friend resigned" and host.status() == "You win: your friend resigned"
    host.handle(PlayAgain())  # after a friend's game "Play again" is the rematch
    assert host.friend_play.rematch_asked and host.notice == "Waiting for your friend to press Rematch too"
    pump(host, guest, until=lambda: guest.friend_play.friend_wants_rematch, what="the rematch request")
    assert guest.notice == "Your friend asks for a rematch: press Rematch (swap sides)"
    guest.handle(Rematch())
    pump(host, guest, until=lambda: host.mode.human is Color.WHITE and guest.mode.human is Color.BLACK,
         what="the second game")
    assert host.game.ply == 0 == guest.game.ply and not host.game.is_over
    assert host.hand.second_side_near(host.variant, host.mode), "the board turns with the colours"
    assert not guest.hand.second_side_near(guest.variant, guest.mode)
    assert isinstance(guest.phase, HumanToMove) and isinstance(host.phase, OpponentToMove)
    assert host.notice == "Game 2, sides swapped: you play White"
    play(guest, host, "11-15")


def test_a_dropped_connection_reconnects_by_itself(tmp_path, make_player, make_rooms):
    db = tmp_path / "rooms.db"
    server = EmbeddedServer("127.0.0.1", db=db)
    server.start()
    port = server.address.port
    try:
        host, guest = make_player("host"), make_player("guest")
        host.settings.room_server = f"ws://127.0.0.1:{port}"  # a configured server, not the own one
        link = open_room(host)
        assert not host.phase.this_network and host.phase.reach == f"ws://127.0.0.1:{port}"
        assert not host.friend_play.rooms.is_hosting
        join(guest, link)
        seated(host, guest)
        play(host, guest, "11-15")
        server.stop()
        pump(host, guest, until=lambda: host.friend_play.connection == guest.friend_play.connection == "reconnecting",
             what="both reconnecting")
        assert host.status() == guest.status() == "Reconnecting…"
        assert not guest.is_human_turn() and guest.legal_moves() == (), "no move the room can't hear"
        server = EmbeddedServer("127.0.0.1", port, db=db)
        server.start()
        pump(host, guest, until=lambda: host.friend_play.connection == guest.friend_play.connection == "connected",
             timeout=20, what="both back")
        assert guest.status() == "Your move (White)" and guest.is_human_turn()
        play(guest, host, "22-18")
        assert numeric(host) == numeric(guest) == ["11-15", "22-18"]
    finally:
        server.stop()


def test_the_friend_gone_two_minutes_turns_into_continue_vs_computer(make_player):
    host, guest = pair(make_player, friend_away_limit_s=0.5)
    play(host, guest, "11-15")
    guest.handle(ChangeMode())  # the guest leaves on its turn: its connection closes, its seat stays
    assert isinstance(guest.phase, ChoosingMode) and guest.friend_play.friend is None
    pump(host, until=lambda: host.friend_play.friend_away_s(host.phase) is not None, what="the friend away")
    assert host.notice == "Your friend was disconnected"
    assert host.status().startswith("Your friend (White) is disconnected (0:0")
    assert not host.friend_play.can_continue_vs_computer(host.phase)
    pump(host, until=lambda: host.friend_play.can_continue_vs_computer(host.phase), what="the limit")
    host.handle(ContinueVsComputer())
    assert host.mode.level is Level.MEDIUM and host.mode.human is Color.BLACK and not host.vs_friend
    assert numeric(host) == ["11-15"] and host.friend_play.friend is None and not host.friend_play.rooms.is_hosting
    assert host.notice == "You now play the computer (Medium) from here"
    assert isinstance(host.phase, OpponentToMove) and host.opponent.requests, "the computer is asked for White's move"
    host.opponent.reply_first_legal()
    host.update()
    assert isinstance(host.phase, HumanToMove) and len(host.game.moves) == 2 and host.offers.can_undo(host.in_game)


def test_a_friend_who_leaves_and_returns_is_back_in_the_game(make_player):
    host, guest = pair(make_player)
    play(host, guest, "11-15")
    guest.handle(ChangeMode())
    pump(host, until=lambda: host.friend_play.friend_away_s(host.phase) is not None)
    assert guest.friend_play.can_return_to_room(guest.phase)
    guest.handle(ContinueSaved())  # "Return to the game with your friend"
    assert isinstance(guest.phase, JoiningRoom) and guest.phase.returning
    pump(host, guest, until=lambda: guest.vs_friend and host.friend_play.friend_away_s(host.phase) is None, what="the return")
    assert guest.notice == "You are back in the room" and numeric(guest) == ["11-15"]
    play(guest, host, "22-18")


def test_a_relaunch_offers_to_return_to_the_room_with_the_seat_kept_unseen(tmp_path, make_player, make_rooms):
    host, guest = pair(make_player)
    play(host, guest, "11-15")
    guest.close()  # quit
    saved = json.loads((tmp_path / "guest" / "saved_game.json").read_text())
    room = saved["mode"]["room"]
    assert room["link"] == guest.mode.room.link and len(room["seat"]) >= 22 and room["seat"] not in room["link"]
    again = Controller(opponent=ScriptedOpponent(), storage=Storage(tmp_path / "guest"), rooms=make_rooms())
    try:
        assert not again.expect_saved_game(), "a friend's game is offered back from the mode screen"
        assert not again.restore() and isinstance(again.phase, ChoosingMode)
        assert again.friend_play.can_return_to_room(again.phase) and again.mode.room.secret == room["seat"]
        assert room["seat"] not in repr(again.phase), "the seat secret is never shown"
        again.handle(ContinueSaved())
        pump(host, again, until=lambda: again.vs_friend and host.friend_play.friend_away_s(host.phase) is None, what="the return")
        assert numeric(again) == ["11-15"] and again.mode.human is Color.WHITE
        play(again, host, "22-18")
    finally:
        again.close()


def test_a_hosted_room_ends_with_its_program_so_a_relaunch_offers_only_the_computer(tmp_path, make_player, make_rooms):
    host, guest = pair(make_player)
    play(host, guest, "11-15")
    host.close()  # the room lived in the host's own server
    again = Controller(opponent=ScriptedOpponent(), storage=Storage(tmp_path / "host"), rooms=make_rooms())
    try:
        again.restore()
        assert again.mode.room.hosted and not again.friend_play.can_return_to_room(again.phase)
        assert again.friend_play.can_continue_vs_computer(again.phase)
        again.handle(ContinueSaved())
        assert isinstance(again.phase, ChoosingMode), "nothing to return to"
        again.handle(ContinueVsComputer())
        assert again.mode.level is Level.MEDIUM and numeric(again) == ["11-15"]
        assert isinstance(again.phase, OpponentToMove), "White, the computer now, is to move"
    finally:
        again.close()


def test_bad_links_are_quoted_and_a_full_or_missing_room_is_explained(make_player):
    host, guest = pair(make_player)
    third = make_player("third")
    third.handle(OpenJoin())
    third.handle(SubmitText())
    assert isinstance(third.phase, EnteringLink) and "Paste your friend's link first" in third.phase.error
    third.handle(TypeText("http://example.org/room"))
    third.handle(SubmitText())
    assert isinstance(third.phase, EnteringLink) and "'http://example.org/room'" in third.phase.error
    link = host.mode.room.link
    third.handle(JoinRoom(link))
    pump(third, until=lambda: isinstance(third.phase, EnteringLink), what="the refusal")
    assert third.phase.error == f"Couldn't join {link}: room {link[-16:]} has two players already"
    missing = link[:-4] + "AAAA"
    third.handle(JoinRoom(missing))
    pump(third, until=lambda: isinstance(third.phase, EnteringLink), what="the refusal")
    assert third.phase.text == missing and f"there is no room '{missing[-16:]}'" in third.phase.error
    third.handle(Cancel())
    assert isinstance(third.phase, ChoosingMode) and third.friend_play.friend is None


def test_an_unreachable_server_gives_up_saying_what_to_check(make_player):
    c = make_player("lonely")
    c.handle(JoinRoom("checkers3d://127.0.0.1:9/AAAAAAAAAAAAAAAA"))  # nothing listens on port 9
    pump(c, until=lambda: isinstance(c.phase, EnteringLink), timeout=15, what="giving up")
    assert c.phase.error == ("Couldn't join: the room server ws://127.0.0.1:9 could not be reached. Check the link "
                             "with your friend, and that their game is open and reachable from here.")


def test_the_link_field_edits_like_a_text_field(make_player):
    c = make_player("player")
    c.handle(OpenJoin())
    c.handle(TypeText("checkers3d://host/ROOM"))
    for key in ("home", "right", "right"):
        c.handle(EditText(key))
    assert c.phase.caret == 2
    c.handle(EditText("backspace"))
    c.handle(EditText("delete"))
    assert c.phase.text == "cckers3d://host/ROOM" and c.phase.caret == 1
    c.handle(EditText("end"))
    c.handle(TypeText("X"))
    assert c.phase.text.endswith("ROOMX") and c.phase.caret == len(c.phase.text)
    c.handle(Cancel())
    assert isinstance(c.phase, ChoosingMode)


def test_the_room_server_setting_is_checked_kept_and_used(tmp_path, make_player):
    c = make_player("player")
    c.handle(EditServer())
    assert isinstance(c.phase, EnteringServer) and c.phase.text == ""
    c.handle(TypeText("ftp://rooms.example.org"))
    c.handle(SubmitText())
    assert isinstance(c.phase, EnteringServer) and "'ftp://rooms.example.org'" in c.phase.error
    with EmbeddedServer("127.0.0.1") as server:
        for _ in range(len(c.phase.text)):
            c.handle(EditText("backspace"))
        c.handle(TypeText(f"ws://127.0.0.1:{server.address.port}"))
        c.handle(SubmitText())
        assert isinstance(c.phase, ChoosingMode) and c.settings.room_server == f"ws://127.0.0.1:{server.address.port}"
        assert Storage(tmp_path / "player").load_settings().room_server == c.settings.room_server
        link = open_room(c)
        assert link.startswith(f"checkers3d://127.0.0.1:{server.address.port}/") and not c.friend_play.rooms.is_hosting
        c.handle(Cancel())
    c.handle(EditServer())
    assert c.phase.text == c.settings.room_server and c.phase.caret == len(c.phase.text)
    for _ in range(len(c.phase.text)):
        c.handle(EditText("backspace"))
    c.handle(SubmitText())
    assert c.settings.room_server == "", "empty: the game's own server again"


def test_a_new_local_game_leaves_the_room_and_stops_the_own_server(make_player):
    host, guest = pair(make_player)
    host.handle(ChangeMode())
    assert host.friend_play.rooms.is_hosting, "the room waits for the host's return"
    host.handle(StartGame(Level.EASY))
    host.handle(ConfirmLeave())  # the friend's game going on is resigned
    assert not host.friend_play.rooms.is_hosting and not host.vs_friend and host.friend_play.friend is None


def test_a_game_with_a_friend_keeps_the_screen_until_it_is_over(make_player):
    """A review, the editor, the browser, pasting and the analysis wait: the friend plays on meanwhile."""
    from game.play.intents import EditPosition, OpenBrowser, Pasted, ReviewStep, ToggleAnalysis
    from game.play.phases import Reviewing

    host, guest = pair(make_player)
    play(host, guest, "11-15")
    for intent in (ReviewStep(-1), EditPosition(), OpenBrowser(), Pasted("W:WK10:BK23"), ToggleAnalysis()):
        guest.handle(intent)
        assert isinstance(guest.phase, HumanToMove) and guest.vs_friend, intent
        assert guest.notice == "Not during a game with your friend: once it is over" or intent == ToggleAnalysis()
    assert not guest.studies.can_analyze(guest.phase) and not guest.studies.analysis_on
    play(guest, host, "22-18")  # the game goes on as before
    host.handle(Resign())
    host.handle(ConfirmResign())
    pump(host, guest, until=lambda: guest.game.is_over, what="the resignation")
    guest.handle(ReviewStep(-1))
    assert isinstance(guest.phase, Reviewing) and guest.shown_ply() == 1


FRIEND_PLAY_MODULES = ("websockets", "sqlite3", "game.friend.opponent", "game.online.server", "game.online.client")
LAZY = """
import sys
import game.window.app, game.cli, game.play.machine
from game.play import intents as it
from game.play.machine import Controller
from game.friend.rooms import Rooms

c = Controller(rooms=Rooms(listen="127.0.0.1", port=0))
c.handle(it.StartGame(None))
c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
c.handle(it.ChangeMode())
c.handle(it.OpenJoin())
c.handle(it.Cancel())
before = [m for m in sys.argv[1:] if m in sys.modules]
c.handle(it.PlayFriend())
after = [m for m in sys.argv[1:] if m in sys.modules]
c.close()
print(before, after, type(c.phase).__name__)
"""


def test_friend_play_loads_its_modules_only_once_a_room_is_opened(tmp_path):
    """The window process carries no WebSocket client or server, nor SQLite, until the player opens
    friend play (a fresh interpreter: this one has loaded them for other tests)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1", CHECKERS3D_DATA_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", LAZY, *FRIEND_PLAY_MODULES], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == f"[] {list(FRIEND_PLAY_MODULES)} WaitingForFriend", out.stdout


def test_pressing_your_piece_on_the_friends_turn_says_whose_turn_it_is(make_player):
    host, guest = pair(make_player)
    guest.handle(SquarePressed(sq("b6")))  # a white man: the guest's own, on the host's turn
    assert guest.hand.selected is None and guest.notice == "It's your friend's turn"
    guest.handle(SquarePressed(sq("c3")))  # the friend's piece: nothing to say
    assert guest.notice == "It's your friend's turn"


UNREACHABLE = dict(first_connect_timeout=0.6, backoff=(0.05, 0.2))


def test_a_room_server_out_of_reach_is_said_in_words_with_what_to_try(make_player, make_rooms, caplog):
    c = make_player("host", rooms=make_rooms(**UNREACHABLE))
    c.settings.room_server = "ws://127.0.0.1:9"  # nothing listens there
    c.handle(PlayFriend())
    assert isinstance(c.phase, WaitingForFriend)
    pump(c, until=lambda: c.notes, what="giving up")
    assert isinstance(c.phase, ChoosingMode)
    assert c.notes == ["Couldn't open a room: the room server ws://127.0.0.1:9 could not be reached. Check its "
                       "address under Settings, “Room server” (left empty, rooms are on this computer, for your "
                       "network), and your internet connection; then try again."]
    assert any("ws://127.0.0.1:9/" in r.getMessage() for r in caplog.records), "the details are in the log"


@pytest.mark.parametrize("friend_button", [PlayFriend(), OpenJoin()], ids=["play a friend", "join a friend"])
def test_a_friends_game_over_a_computer_game_asks_first_and_counts_it_lost(make_player, friend_button):
    c = make_player("host")
    c.handle(StartGame(Level.MEDIUM))
    c.handle(PlayMoveFromList(c.legal_moves()[0]))
    c.opponent.reply_first_legal()
    c.update()
    game = c.game
    c.handle(ChangeMode())
    c.handle(friend_button)
    assert isinstance(c.phase, ConfirmingLeave) and c.asking.then == friend_button, "asked first"
    assert c.storage.results() == {}
    c.handle(Cancel())
    assert isinstance(c.phase, ChoosingMode) and not game.is_over, "kept"
    c.handle(friend_button)
    c.handle(ConfirmLeave())
    assert isinstance(c.phase, WaitingForFriend if friend_button == PlayFriend() else EnteringLink)
    assert game.outcome is not None and game.outcome.reason is Reason.RESIGNATION
    assert c.storage.results()["american"]["medium"]["loss"] == 1, "a loss at its level, as resigning counts it"
    c.handle(Cancel())
    assert isinstance(c.phase, ChoosingMode) and c.phase.left is not None and c.phase.left.game.is_over
    c.handle(friend_button)
    assert c.asking is None, "nothing left to abandon"


def test_this_computers_room_server_not_starting_is_said_in_words_with_what_to_try(make_player, caplog):
    c = make_player("host", rooms=Rooms(listen="192.0.2.1"))  # a documentation address (RFC 5737): not this computer's
    c.handle(PlayFriend())
    assert isinstance(c.phase, ChoosingMode) and c.friend_play.friend is None
    assert c.notes == ["Couldn't open a room: this computer's room server could not start: 192.0.2.1 (given with "
                       "--room-host) is not an address of this computer. Start the game again without --room-host "
                       "or with an address of this computer, or set a room server under Settings, “Room server”."]
    logged = [r for r in caplog.records if r.name == "checkers3d.online" and r.levelno == logging.WARNING]
    assert any("192.0.2.1" in r.getMessage() and "Errno" in r.getMessage() for r in logged), "the details are in the log"


def test_this_computers_room_server_failing_on_every_port_says_the_port(make_player, monkeypatch, caplog):
    def refuse(server, timeout=30.0):
        raise PermissionError(errno.EACCES, f"not allowed to listen on port {server.port}")

    monkeypatch.setattr(EmbeddedServer, "start", refuse)
    c = make_player("host", rooms=Rooms(listen="127.0.0.1", port=47899))
    c.handle(PlayFriend())
    assert isinstance(c.phase, ChoosingMode) and c.friend_play.friend is None
    assert c.notes == ["Couldn't open a room: this computer's room server could not start on port 47899, nor on any "
                       "other free port. Restart the game and try again, or set a room server under Settings, "
                       "“Room server”."]
    assert any("not allowed to listen on port 0" in r.getMessage() for r in caplog.records), "the details are in the log"


def test_a_link_given_at_launch_over_a_computer_game_asks_first_and_counts_it_lost(make_player, tmp_path):
    host = make_player("host")
    link = open_room(host)
    last_run = Controller(opponent=ScriptedOpponent(), storage=Storage(tmp_path / "guest"))
    last_run.handle(StartGame(Level.EASY))
    last_run.handle(PlayMoveFromList(last_run.legal_moves()[0]))
    last_run.opponent.reply_first_legal()
    last_run.update()
    last_run.close()
    guest = make_player("guest")  # launched with the link: the game in progress comes back first, then the link
    assert guest.expect_saved_game() and guest.restore()
    game = guest.game
    guest.handle(JoinRoom(link))
    assert isinstance(guest.phase, ConfirmingLeave) and guest.asking.then == JoinRoom(link), "asked first"
    assert guest.asking.leaving.game is game and guest.friend_play.friend is None and guest.storage.results() == {}
    guest.handle(Cancel())
    assert isinstance(guest.phase, ChoosingMode) and not game.is_over, "kept"
    guest.handle(ContinueSaved())
    assert guest.game is game and guest.is_human_turn()
    guest.handle(JoinRoom(link))
    guest.handle(ConfirmLeave())
    assert isinstance(guest.phase, JoiningRoom)
    assert game.outcome is not None and game.outcome.reason is Reason.RESIGNATION
    assert guest.storage.results()["american"]["easy"]["loss"] == 1, "a loss at its level, as resigning counts it"
    seated(host, guest)
    assert guest.mode.room.link == link and guest.game.moves == []


def test_a_link_given_at_launch_over_a_game_that_counts_for_nothing_joins_at_once(make_player):
    host = make_player("host")
    link = open_room(host)
    guest = make_player("guest")
    guest.handle(StartGame(None))  # two players on this device
    guest.handle(PlayMoveFromList(guest.legal_moves()[0]))
    game = guest.game
    guest.handle(JoinRoom(link))
    assert isinstance(guest.phase, JoiningRoom) and guest.phase.left.game is game
    seated(host, guest)
    assert guest.storage.results() == {} and not game.is_over


def panel_words(c: Controller) -> str:
    import pygame

    from game.ui import Interface

    pygame.font.init()
    ui = Interface((1280, 800))
    ui.render(c, 0.0)
    return " ".join(w.label for w in ui.widgets)


@pytest.mark.parametrize("leave", [StartGame(Level.HARD), PlayFriend()], ids=["a game vs computer", "another room"])
def test_leaving_a_friends_game_from_the_mode_screen_asks_first_and_resigns_it(make_player, leave):
    host, guest = pair(make_player)
    play(host, guest, "11-15")
    game = host.game
    host.handle(ChangeMode())
    assert host.friend_play.can_return_to_room(host.phase)
    host.handle(leave)
    assert host.game is game and not game.is_over, "asked first: nothing left yet"
    assert "resigned" in panel_words(host), "the question names what leaving costs"
    host.handle(Cancel())
    assert host.friend_play.can_return_to_room(host.phase) and "Return to the game with your friend" in panel_words(host), "kept"
    host.handle(leave)
    host.handle(ConfirmLeave())
    assert game.outcome is not None and game.outcome.reason is Reason.RESIGNATION, "the friend's game resigned"
    if leave == PlayFriend():
        assert isinstance(host.phase, WaitingForFriend)
    else:
        assert host.mode.level is Level.HARD and host.game.moves == []
    assert host.storage.results() == {}, "a friend's game counts in no level's results"

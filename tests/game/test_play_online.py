""""Play someone online", controller against controller through a REAL room server on a free port of
127.0.0.1 (configured in Settings, as a player sets it): the nickname asked for first and kept, the
wait on the room screen with its time and Stop looking, two players seeking the same rules paired with
colours drawn at random and each other's nicknames, the clocks in the panel, a game lost on time, the
rematch with colours swapped; with no room server set, the button is greyed and says what to do."""

from __future__ import annotations

import time

import pytest
from support import FAST, ScriptedOpponent, pump

from engine import Color
from engine.game import Reason
from game.files.storage import Storage
from game.friend.rooms import Rooms
from game.online.clock import ClockSettings
from game.online.server import EmbeddedServer
from game.play import intents as it
from game.play.machine import Controller
from game.play.phases import ChoosingMode, EnteringNickname, GameOver, HumanToMove, SeekingOpponent
from game.ui import Interface


@pytest.fixture
def server():
    """A room server whose paired games have short clocks: 2 s of main time, then 2 periods of 1 s."""
    with EmbeddedServer("127.0.0.1", clock=ClockSettings(main_s=2.0, periods=2, period_s=1.0)) as s:
        yield s


@pytest.fixture
def make_player(tmp_path, server):
    """make_player(name, nickname) -> a controller with its own saves, the room server set in Settings."""
    made: list[Controller] = []

    def build(name: str, nickname: str = "") -> Controller:
        c = Controller(opponent=ScriptedOpponent(), storage=Storage(tmp_path / name),
                       rooms=Rooms(listen="127.0.0.1", port=0, client_options=FAST))
        c.settings.room_server = f"ws://127.0.0.1:{server.address.port}"
        c.settings.nickname = nickname
        made.append(c)
        return c

    yield build
    for c in made:
        c.close()


def paired(a: Controller, b: Controller) -> None:
    a.handle(it.PlayOnline())
    b.handle(it.PlayOnline())
    assert isinstance(a.phase, SeekingOpponent) and isinstance(b.phase, SeekingOpponent)
    pump(a, b, until=lambda: a.vs_friend and b.vs_friend, what="both paired and in the game")


def words(c: Controller, size=(1280, 800)) -> str:
    ui = Interface(size)
    ui.render(c, 0.0)
    return " ".join(w.label for w in ui.widgets if w.label)


def test_without_a_room_server_the_button_is_greyed_and_says_what_to_do(tmp_path):
    c = Controller(opponent=ScriptedOpponent(), storage=Storage(tmp_path / "p"),
                   rooms=Rooms(listen="127.0.0.1", port=0, client_options=FAST))
    try:
        ui = Interface((1920, 1080))  # room for the words under the button
        ui.render(c, 0.0)
        button = next(h for h in ui.hits if h.id == "online:play")
        assert not button.enabled and "room server" in button.why, "greyed, with the reason"
        c.handle(button.press)
        assert "room server" in c.notice, "a press says why"
        assert "Needs a room server both players reach" in " ".join(w.label for w in ui.widgets if w.label)
        c.handle(it.PlayOnline())
        assert isinstance(c.phase, ChoosingMode), "nobody is waited for"
        assert "room server" in c.notice and "README" in c.notice
    finally:
        c.close()


def test_the_nickname_is_asked_for_first_checked_and_kept(tmp_path, make_player):
    c = make_player("ann")
    c.handle(it.PlayOnline())
    assert isinstance(c.phase, EnteringNickname) and c.phase.seek
    c.handle(it.TypeText("x" * 21))
    c.handle(it.SubmitText())
    assert isinstance(c.phase, EnteringNickname) and "20 characters" in c.phase.error
    for _ in range(21):
        c.handle(it.EditText("backspace"))
    c.handle(it.TypeText("  Ann  "))
    c.handle(it.SubmitText())
    assert isinstance(c.phase, SeekingOpponent) and c.phase.nickname == "Ann"
    assert Storage(tmp_path / "ann").load_settings().nickname == "Ann"
    assert "Looking for an opponent" in words(c)
    c.handle(it.Cancel())
    assert isinstance(c.phase, ChoosingMode) and c.friend_play.friend is None
    assert "Nickname: Ann" in words(c)


def test_a_cancelled_seek_is_never_paired(make_player):
    a, b, d = make_player("a", "Ann"), make_player("b", "Bob"), make_player("d", "Dee")
    a.handle(it.PlayOnline())
    pump(a, until=lambda: a.friend_play.friend.is_connected, what="Ann's seek to reach the server")
    a.handle(it.Cancel())
    assert isinstance(a.phase, ChoosingMode)
    time.sleep(0.3)  # the cancel reaches the server
    paired(b, d)
    assert {b.game_phase.mode.room.opponent, d.game_phase.mode.room.opponent} == {"Bob", "Dee"}
    assert isinstance(a.phase, ChoosingMode)


def test_two_players_seeking_are_paired_with_colours_drawn_and_nicknames_shown(make_player):
    a, b = make_player("a", "Ann"), make_player("b", "Bob")
    paired(a, b)
    ma, mb = a.game_phase.mode, b.game_phase.mode
    assert {ma.human, mb.human} == {Color.WHITE, Color.BLACK}, "one each"
    assert ma.room.opponent == "Bob" and mb.room.opponent == "Ann"
    mover = a if a.game.turn is ma.human else b
    other = b if mover is a else a
    assert isinstance(mover.phase, HumanToMove)
    panel = words(other)
    assert f"{mover.settings.nickname}:" in panel, "the opponent's nickname beside their colour"
    assert f"online vs {mover.settings.nickname}" in panel
    clocks = other.friend_play.friend.session.clock()
    assert clocks is not None and clocks[Color.WHITE].periods == 2, "a paired game has the clock"
    ui = Interface((1280, 800))
    ui.render(other, 0.0)
    shown = [w for w in ui.widgets if w.what == "clock"]
    assert len(shown) == 2, "both clocks in the panel"


def test_a_player_whose_time_runs_out_loses_on_time_and_the_rematch_swaps_colours(make_player):
    a, b = make_player("a", "Ann"), make_player("b", "Bob")
    paired(a, b)
    mover = a if a.game.turn is a.game_phase.mode.human else b
    other = b if mover is a else a
    colour = mover.game_phase.mode.human
    # 2 s of main time and 2 periods of 1 s: the side to move flags within about 4 s
    pump(a, b, until=lambda: isinstance(a.phase, GameOver) and isinstance(b.phase, GameOver), timeout=15.0,
         what="the flag to fall")
    for c in (a, b):
        outcome = c.game.outcome
        assert outcome.reason is Reason.TIME and outcome.winner is colour.opponent
    assert mover.status() == f"{other.settings.nickname} wins: your time ran out"
    assert other.status() == f"You win: the time of {mover.settings.nickname} ran out"
    a.handle(it.Rematch())
    b.handle(it.Rematch())
    pump(a, b, until=lambda: not a.game.is_over and not b.game.is_over, what="the rematch")
    assert mover.game_phase.mode.human is colour.opponent, "colours swap on the rematch"


def test_a_relaunch_returns_to_the_paired_game_with_the_opponents_nickname(tmp_path, make_player, server):
    a, b = make_player("a", "Ann"), make_player("b", "Bob")
    paired(a, b)
    b.close()  # Bob quits
    again = Controller(opponent=ScriptedOpponent(), storage=Storage(tmp_path / "b"),
                       rooms=Rooms(listen="127.0.0.1", port=0, client_options=FAST))
    try:
        again.settings.room_server = f"ws://127.0.0.1:{server.address.port}"
        assert not again.restore() and isinstance(again.phase, ChoosingMode)
        assert again.friend_play.can_return_to_room(again.phase)
        again.handle(it.ContinueSaved())
        pump(a, again, until=lambda: again.vs_friend, what="Bob back in the room")
        assert again.game_phase.mode.room.opponent == "Ann"
        assert again.friend_play.friend.session.clock() is not None, "the clock ran on"
    finally:
        again.close()


@pytest.mark.parametrize("clock", [False, True])
def test_a_friends_room_has_the_clock_only_when_the_setting_says_so(tmp_path, make_player, clock):
    from game.play.phases import EnteringServer, WaitingForFriend

    host, guest = make_player("host"), make_player("guest")
    host.handle(it.EditServer())
    if clock:
        host.handle(it.ToggleSetting("friend_clock"))
        assert "Clock in games with a friend: on" in words(host)
    assert isinstance(host.phase, EnteringServer)
    host.handle(it.Cancel())
    assert Storage(tmp_path / "host").load_settings().friend_clock is clock
    host.handle(it.PlayFriend())
    pump(host, until=lambda: isinstance(host.phase, WaitingForFriend) and host.phase.link, what="the link")
    guest.handle(it.JoinRoom(host.phase.link))
    pump(host, guest, until=lambda: host.vs_friend and guest.vs_friend, what="both in the game")
    for c in (host, guest):
        assert (c.friend_play.friend.session.clock() is not None) is clock


def test_a_long_nickname_is_cut_to_fit_beside_the_clock(make_player):
    a, b = make_player("a", "W" * 20), make_player("b", "Bob")
    paired(a, b)
    assert not (b.notice or "").endswith("is back"), "a first connection is no return"
    ui = Interface((640, 480))
    ui.reveal("friend:continue")
    ui.render(b, 0.0)
    labels = [w for w in ui.widgets if w.label and w.label.startswith("WWW") and "panel" in w.views]
    assert labels and all(w.label.endswith("…: ") for w in labels), "cut with an ellipsis"
    clocks = [w.rect for w in ui.widgets if w.what == "clock"]
    assert all(not w.rect.colliderect(c) for w in labels for c in clocks), "the name stays clear of the clock"

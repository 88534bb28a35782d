"""Playing a friend without a network: the text field's editing, the room screens and the friend's game
panel as drawn (every control on screen and sending the right intent), the desktop's link
registration (in a temporary XDG home), and the command line's link."""

from __future__ import annotations

import os
import stat

import pygame
import pytest

from engine import AMERICAN, Color
from engine.game import Game
from game import desktop
from game.cli import build_parser
from game.files.saved import game_from_dict
from game.modes import Level, Mode, Room
from game.play import intents as it
from game.play import text_entry
from game.play.machine import Controller
from game.play.phases import ChoosingMode, EnteringLink, EnteringServer, GameOver, HumanToMove, JoiningRoom, WaitingForFriend
from game.ui import Interface
from game.ui.paint import cut_anywhere

LINK = "checkers3d://192.168.1.20:47800/Yc8VZ0m4kq1WnV3e"
ROOM = Room(LINK, "q3x9AAAAAAAAAAAAAAAAAA")


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()


def drawn(c: Controller, size=(1280, 800)) -> tuple[Interface, dict]:
    ui = Interface(size)
    ui.render(c, 0.0)
    for hit in ui.hits:  # what scrolls is checked by test_layout
        assert hit.views or ui.surface.get_rect().contains(hit.rect), f"{hit.id} is on screen"
    return ui, {h.id: h for h in ui.hits}


# --- the text field ---------------------------------------------------------------------------------

def test_typing_and_editing_keys_move_the_caret():
    text, caret = text_entry.insert("", 0, "abc")
    assert (text, caret) == ("abc", 3)
    assert text_entry.edit(text, caret, "backspace") == ("ab", 2)
    assert text_entry.edit(text, 0, "backspace") == ("abc", 0)
    assert text_entry.edit(text, 1, "delete") == ("ac", 1)
    assert text_entry.edit(text, 3, "delete") == ("abc", 3)
    assert text_entry.edit(text, 1, "left") == ("abc", 0) and text_entry.edit(text, 0, "left") == ("abc", 0)
    assert text_entry.edit(text, 3, "right") == ("abc", 3)
    assert text_entry.edit(text, 2, "home") == ("abc", 0) and text_entry.edit(text, 0, "end") == ("abc", 3)
    assert text_entry.insert("ad", 1, "bc") == ("abcd", 3)
    with pytest.raises(ValueError, match="'undo'"):
        text_entry.edit(text, 0, "undo")


def test_a_paste_is_one_clean_line():
    assert text_entry.insert("", 0, f"  {LINK}\r\n") == (LINK, len(LINK))
    assert text_entry.insert("a", 1, "b\nc\td") == ("ab c d", 6)
    assert text_entry.insert("", 0, "x\x00y") == ("xy", 2)
    long, caret = text_entry.insert("", 0, "x" * 1000)
    assert len(long) == caret == text_entry.MAX_LENGTH
    assert text_entry.insert(long, caret, "more") == (long, caret)


# --- the mode screen --------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(1280, 800), (760, 1000)])
def test_the_mode_screen_offers_play_and_join_a_friend_and_their_settings(size):
    c = Controller()
    ui, h = drawn(c, size)
    assert h["friend:play"].intent == it.PlayFriend() and h["friend:join"].intent == it.OpenJoin()
    assert h["set:room_server"].intent == it.EditServer()
    c.settings.room_server = "wss://rooms.example.org"
    c.version += 1
    ui.render(c, 0.0)
    assert any(h.id == "set:room_server" for h in ui.hits)


def test_a_friends_game_left_on_the_mode_screen_offers_the_way_back():
    game = Game(AMERICAN)
    game.play(game.position.legal_moves()[0])
    c = Controller()
    c.phase = ChoosingMode(left=HumanToMove(game, Mode(human=Color.WHITE, room=ROOM)))
    _, h = drawn(c)
    assert h["friend:return"].intent == it.ContinueSaved()
    assert h["friend:continue"].intent == it.ContinueVsComputer()
    c.phase = ChoosingMode(left=HumanToMove(game, Mode(human=Color.WHITE, room=Room(LINK, "s", hosted=True))))
    c.version += 1
    _, h = drawn(c)
    assert "friend:return" not in h and "friend:continue" in h, "a room that ended with its program"


# --- the room screen --------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(1280, 800), (760, 1000)])
def test_the_waiting_screen_shows_the_link_copy_and_cancel(size):
    c = Controller()
    c.phase = WaitingForFriend(variant="american", link=LINK, reach="192.168.1.20:47800", this_network=True)
    ui, h = drawn(c, size)
    assert h["room:copy"].intent == it.CopyLink() and h["room:cancel"].intent == it.Cancel()
    assert ui.over_view and not ui.editing
    assert h["room:copy"].rect.colliderect(ui.layout.view), "the card lies over the board"


def test_a_long_link_is_broken_only_where_it_must_be():
    f = pygame.font.Font(None, 24)
    whole = f.size(LINK)[0]
    assert cut_anywhere(f, LINK, whole + 5) == [LINK]
    lines = cut_anywhere(f, LINK, whole // 2)
    assert "".join(lines) == LINK and len(lines) >= 2 and all(f.size(line)[0] <= whole // 2 for line in lines)
    room_start = f.size(LINK[:LINK.rindex("/") + 4])[0]
    assert cut_anywhere(f, LINK, room_start) == [LINK[:LINK.rindex("/") + 1], LINK[LINK.rindex("/") + 1:]], \
        "after a slash where one fits"


@pytest.mark.parametrize("phase, submit", [(EnteringLink(text=LINK, caret=5, error="'x' is not a game link"), "Join"),
                                           (EnteringServer(text="", caret=0), "Save")])
def test_the_text_field_screens_take_the_keyboard(phase, submit):
    c = Controller()
    c.phase = phase
    ui, h = drawn(c)
    assert ui.editing, "the keyboard types into the field"
    assert h["room:submit"].intent == it.SubmitText() and h["room:cancel-card"].intent == it.Cancel()
    assert ("room:register-links" in h) == (submit == "Save"), "the room server's screen registers the links"
    if submit == "Save":
        assert h["room:register-links"].intent == it.RegisterLinks()
    c.phase = JoiningRoom(link=LINK)
    c.version += 1
    ui.render(c, 0.0)
    assert not ui.editing and any(h.id == "room:cancel-card" for h in ui.hits)


# --- the friend's game ------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(1280, 800), (760, 1000)])
def test_a_friends_game_has_no_undo_and_shows_the_players(size):
    c = Controller()
    c.open_game(Game(AMERICAN), Mode(human=Color.BLACK, room=ROOM))
    ui, h = drawn(c, size)
    assert "btn:Undo move" not in h and "btn:Play again" not in h
    assert "btn:rematch" in h and not h["btn:rematch"].enabled, "a rematch once the game is over"
    assert "friend:continue" not in h
    assert c.status() == "Not connected to the room" and not c.is_human_turn()


def test_the_result_card_of_a_friends_game_offers_the_rematch():
    game = Game(AMERICAN)
    game.resign(Color.WHITE)
    c = Controller()
    c.phase = GameOver(game, Mode(human=Color.BLACK, room=ROOM))
    _, h = drawn(c)
    assert h["card:rematch"].intent == it.Rematch() and "card:again" not in h
    assert c.status() == "You win: your friend resigned"


def test_saved_friends_games_are_read_back_and_checked():
    read = game_from_dict
    game = Game(AMERICAN).to_dict()
    _, mode, _ = read({"mode": {"level": None, "human": "white", "room": {"link": LINK, "seat": "s", "hosted": True}},
                       "game": game})
    assert mode == Mode(human=Color.WHITE, room=Room(LINK, "s", True)) and mode.vs_friend
    with pytest.raises(ValueError):
        read({"mode": {"level": None, "human": None, "room": {"link": LINK, "seat": "s"}}, "game": game})
    with pytest.raises(ValueError):
        read({"mode": {"level": "easy", "human": "white", "room": {"link": LINK, "seat": "s"}}, "game": game})
    assert Mode(Level.EASY, Color.BLACK).vs_computer and not Mode(Level.EASY, Color.BLACK).vs_friend


# --- the desktop's links ----------------------------------------------------------------------------

@pytest.fixture
def xdg_home(tmp_path, monkeypatch):
    """A temporary HOME and XDG directories, and a PATH holding only ``bin`` (no xdg-utils there)."""
    for name in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    return tmp_path


def test_the_desktop_entry_opens_links_with_this_game(xdg_home):
    message = desktop.register_link_handler(["/opt/my games/.venv/bin/checkers3d"])
    entry = xdg_home / "xdg_data_home" / "applications" / "checkers3d.desktop"
    assert str(entry) in message
    lines = entry.read_text().splitlines()
    assert lines[0] == "[Desktop Entry]"
    assert 'Exec="/opt/my games/.venv/bin/checkers3d" %u' in lines
    assert "MimeType=x-scheme-handler/checkers3d;" in lines and "Type=Application" in lines
    mimeapps = (xdg_home / "xdg_config_home" / "mimeapps.list").read_text().splitlines()
    assert mimeapps == ["[Default Applications]", "x-scheme-handler/checkers3d=checkers3d.desktop;"]


def test_the_desktop_folders_are_platformdirs_own(xdg_home, monkeypatch):
    """desktop.py asks platformdirs where the user's data and config folders are (as storage does)."""
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(xdg_home / "asked-data"))
    monkeypatch.setattr(platformdirs, "user_config_dir", lambda *a, **k: str(xdg_home / "asked-config"))
    desktop.register_link_handler(["checkers3d"])
    assert (xdg_home / "asked-data" / "applications" / "checkers3d.desktop").is_file()
    assert (xdg_home / "asked-config" / "mimeapps.list").is_file()


def test_without_xdg_utils_the_defaults_file_is_edited_in_place(xdg_home):
    mimeapps = xdg_home / "xdg_config_home" / "mimeapps.list"
    mimeapps.parent.mkdir(parents=True)
    mimeapps.write_text("[Default Applications]\ntext/html=firefox.desktop;\nx-scheme-handler/checkers3d=old.desktop;\n"
                        "[Added Associations]\nimage/png=gimp.desktop;\n")
    desktop.register_link_handler(["checkers3d"])
    assert mimeapps.read_text().splitlines() == [
        "[Default Applications]", "text/html=firefox.desktop;", "x-scheme-handler/checkers3d=checkers3d.desktop;",
        "[Added Associations]", "image/png=gimp.desktop;"]


def test_xdg_mime_is_asked_when_it_is_there(xdg_home):
    log = xdg_home / "xdg-mime.log"
    fake = xdg_home / "bin" / "xdg-mime"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {log}\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    desktop.register_link_handler(["checkers3d"])
    assert log.read_text().split() == ["default", "checkers3d.desktop", "x-scheme-handler/checkers3d"]
    assert not (xdg_home / "xdg_config_home" / "mimeapps.list").exists(), "xdg-mime writes the defaults itself"
    fake.write_text("#!/bin/sh\necho 'no desktop here' >&2\nexit 3\n")
    with pytest.raises(RuntimeError, match="no desktop here"):
        desktop.register_link_handler(["checkers3d"])


def test_register_links_from_settings_reports_what_it_did(xdg_home):
    c = Controller()
    c.handle(it.EditServer())
    c.handle(it.RegisterLinks())
    assert c.notice is not None and c.notice.startswith("checkers3d:// links now open this game")
    exec_line = next(line for line in (xdg_home / "xdg_data_home" / "applications" / "checkers3d.desktop")
                     .read_text().splitlines() if line.startswith("Exec="))
    assert exec_line.endswith(" %u") and ("checkers3d" in exec_line or "main.py" in exec_line)


def test_exec_arguments_are_quoted_and_escaped():
    assert desktop.exec_argument("/usr/bin/checkers3d") == "/usr/bin/checkers3d"
    assert desktop.exec_argument("/home/a b/100%") == '"/home/a b/100%%"'
    assert desktop.exec_argument('say "$x"') == '"say \\\\"\\\\$x\\\\""'


# --- the command line -------------------------------------------------------------------------------

def test_the_command_line_takes_a_link():
    args = build_parser(tools=False).parse_args([LINK])
    assert args.link == LINK and args.room_host == "0.0.0.0"
    assert build_parser(tools=False).parse_args([]).link is None
    assert os.path.exists(desktop.launch_command()[-1])

"""Games in and out as PDN through the controller, with real files: saving into the games folder (named
from the date and players) and opening it again, a file of several games listed and one chosen, the
recent files, pasted PDN and FEN, copying; bad files (truncated, binary, huge, another rule set) give a
clear message and the game goes on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine import AMERICAN, INTERNATIONAL, Color
from engine.pdn import read_file, read_text
from game.files import pdn as files
from game.modes import Level, Mode
from game.play import intents as it
from game.play.machine import Controller
from game.play.phases import Browsing, HumanToMove, Reviewing

DATA = Path(__file__).resolve().parents[1] / "data" / "pdn"


def read(c: Controller) -> None:
    """Let the browser's file be read to its end (a thread), as the window's frames would."""
    listing = c.phase.listing if isinstance(c.phase, Browsing) else None
    if listing is not None:
        assert listing.done.wait(60), "the file was read"
    c.update()


def played(c: Controller, texts) -> None:
    for text in texts.split():
        c.handle(it.PlayMoveFromList(c.game.position.parse_move(text)))


def test_a_saved_game_opens_again_with_its_players_moves_and_result(make, storage, games_folder):
    c = make(level="hard")
    played(c, "11-15")
    c.opponent.reply(c.game.position.parse_move("23-19"))
    c.update()
    c.handle(it.Resign())
    c.handle(it.ConfirmResign())
    c.handle(it.SaveGame())
    saved = list(games_folder.iterdir())
    assert len(saved) == 1 and c.notice == f"Saved as {saved[0]}"
    name = saved[0].name
    assert name.endswith(f"{files.player_name()} - Checkers 3D (Hard).pdn") and name[:4].isdigit()
    [game] = list(read_file(saved[0]))
    assert game.error is None and game.result == "0-1"  # Black (first) resigned: White's point
    assert game.tags["Black"] == files.player_name() and game.tags["White"] == "Checkers 3D (Hard)"
    assert storage.recent_files() == [str(saved[0])]

    c.handle(it.SaveGame())  # again: a second file, the first kept
    assert len(list(games_folder.iterdir())) == 2

    other = Controller(storage=storage)
    other.handle(it.OpenFile(str(saved[0])))
    read(other)
    assert isinstance(other.phase, Reviewing) and other.phase.under is None
    assert [m for m in other.game.moves] == c.game.moves and other.game.outcome == c.game.outcome
    assert other.files.source.tags["White"] == "Checkers 3D (Hard)"


def test_a_two_player_game_is_saved_with_numbered_players(make, games_folder):
    c = make()
    played(c, "11-15 23-19")
    c.handle(it.SaveGame())
    [path] = games_folder.iterdir()
    assert path.name.endswith(" Player 1 - Player 2.pdn")
    [game] = list(read_file(path))
    assert game.tags["Black"] == "Player 1" and game.result == "*" and game.plies == 2


def test_a_file_of_several_games_is_listed_and_one_chosen(storage):
    c = Controller(storage=storage)
    path = DATA / "american-oca.pdn"
    c.handle(it.OpenFile(str(path)))
    read(c)
    assert isinstance(c.phase, Browsing) and len(c.phase.listing.games) == 30
    first = c.phase.listing.games[0]
    assert first.players == ("Wyllie, J.", "Moorhead, W.") and first.tags["Event"] == "Manchester 1841"
    c.handle(it.OpenListedGame(0))
    assert isinstance(c.phase, Reviewing) and len(c.game.moves) == first.plies and c.game.variant is AMERICAN
    c.handle(it.ReviewTo(None))
    assert c.shown_position() == first.end
    assert storage.recent_files() == [str(path)]
    c.handle(it.OpenBrowser())
    c.handle(it.CloseBrowser())  # back to the review, where it was
    assert isinstance(c.phase, Reviewing) and c.shown_ply() == first.plies


def test_a_dropped_file_of_one_game_opens_at_once(make, tmp_path, opponent):
    c = make(level="medium")
    played(c, "11-15")  # the computer is thinking when the file arrives
    path = tmp_path / "one.pdn"
    path.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n', encoding="utf-8")
    c.handle(it.OpenFile(str(path)))
    assert opponent.cancels == 1 and not c.waiting_for_opponent
    read(c)
    assert c.asking is not None, "the game against the computer counts: leaving it asks first"
    c.handle(it.ConfirmLeave())
    assert isinstance(c.phase, Reviewing) and c.game.variant is INTERNATIONAL and len(c.game.moves) == 4


@pytest.mark.parametrize("content, message", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40, "not a PDN text file"),
    ('[Event "x"]\n[GameType "40"]\n1. 32-28 *\n'.encode(), "Frisian draughts"),
    (b"", "No games in"),
])
def test_bad_files_give_a_message_and_the_game_goes_on(make, tmp_path, content, message):
    c = make()
    played(c, "11-15")
    path = tmp_path / "bad.pdn"
    path.write_bytes(content)
    c.handle(it.OpenFile(str(path)))
    read(c)
    assert message in c.notice
    c.handle(it.CloseBrowser())
    assert isinstance(c.phase, HumanToMove) and len(c.game.moves) == 1  # the game is there as it was
    played(c, "23-19")


def test_a_game_of_one_of_the_more_rule_sets_opens(make, tmp_path):
    c = make()
    path = tmp_path / "russian.pdn"
    path.write_text('[Event "x"]\n[GameType "25"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n', encoding="utf-8")
    c.handle(it.OpenFile(str(path)))
    read(c)
    assert c.game.variant.name == "russian" and len(c.game.moves) == 4, c.notice
    assert c.game.position.move_text(c.game.moves[2]) == "d4:f6"


def test_a_truncated_file_keeps_the_moves_before_the_break(make, tmp_path):
    c = make()
    text = (DATA / "american-oca.pdn").read_text(encoding="latin-1")
    first = text[text.index("[Event"):text.index("[Event", text.index("[Event") + 1)]
    path = tmp_path / "cut.pdn"
    path.write_text(first[:first.index("8. 1-5") + 4], encoding="latin-1")  # cut in the middle of a move
    c.handle(it.OpenFile(str(path)))
    read(c)
    assert isinstance(c.phase, Reviewing) and len(c.game.moves) == 14
    assert c.notice.startswith("Read 14 moves; the rest can't be read. Line 8: can't read")


def test_a_missing_or_huge_file_is_refused(make, tmp_path, monkeypatch):
    c = make()
    c.handle(it.OpenFile(str(tmp_path / "gone.pdn")))
    read(c)
    assert "Can't open gone.pdn" in c.notice
    big = tmp_path / "big.pdn"
    with open(big, "wb") as f:  # a sparse file: large on paper, nothing to write
        f.truncate(files.MAX_FILE_BYTES + 1)
    c.handle(it.OpenFile(str(big)))
    read(c)
    assert "too large" in c.notice and "64 MB" in c.notice


def test_a_large_collection_lists_its_first_games(make, tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_LISTED", 40)
    one = (DATA / "american-oca.pdn").read_text(encoding="latin-1")
    path = tmp_path / "many.pdn"
    path.write_text(one * 3, encoding="latin-1")  # 90 games
    c = make()
    c.handle(it.OpenFile(str(path)))
    read(c)
    assert len(c.phase.listing.games) == 40 and c.phase.listing.more


def test_pasted_pdn_and_fen_open_and_copy_goes_out(make):
    c = make()
    played(c, "11-15 23-19")
    [game] = read_text(c.handle(it.CopyPdn()).clipboard)
    assert [pm.move for pm in game.moves] == c.game.moves and c.notice == "The game's PDN is on the clipboard"
    c.handle(it.ReviewStep(-1))
    assert c.handle(it.CopyFen()).clipboard == c.game.positions[1].fen()

    c.handle(it.Pasted((DATA / "american-tricks-traps-and-shots.pdn").read_text(encoding="latin-1")))
    assert isinstance(c.phase, Browsing) and len(c.phase.listing.games) > 1 and not c.phase.listing.is_file
    c.handle(it.OpenListedGame(1))
    assert isinstance(c.phase, Reviewing)
    c.handle(it.Pasted('[FEN "W:W31-50:B1-20"]'))
    assert c.game.variant is INTERNATIONAL and c.game.moves == [] and isinstance(c.phase, Reviewing)
    for text, message in (("W:W99:B1", "99"), ("hello", "can't read 'hello'"), ("", "no text")):
        c.handle(it.Pasted(text))
        assert message in c.notice and isinstance(c.phase, Reviewing)


def test_the_games_folder_lists_newest_first(games_folder):
    games_folder.mkdir(parents=True)
    for i, name in enumerate(("old.pdn", "new.PDN", "notes.txt")):
        p = games_folder / name
        p.write_text("*")
        os.utime(p, (1000 + i, 1000 + i))
    assert [p.name for p in files.folder_files()] == ["new.PDN", "old.pdn"]


def test_a_game_played_here_is_named_from_the_date_and_players():
    import datetime

    when = datetime.datetime(2025, 3, 4, 14, 5)
    tags = files.game_tags(INTERNATIONAL, Mode(Level.EASY, Color.BLACK), when)
    assert tags["Date"] == "2025.03.04" and tags["White"] == "Checkers 3D (Easy)"
    assert files.file_name(INTERNATIONAL, tags, when) == f"2025-03-04 14.05 Checkers 3D (Easy) - {files.player_name()}.pdn"
    assert files.file_name(AMERICAN, {"Black": 'A/B "c"', "White": "?"}, when) == "2025-03-04 14.05 A_B _c_ - _.pdn"


def test_a_game_opened_from_a_file_is_saved_as_read(storage, games_folder):
    c = Controller(storage=storage)
    c.handle(it.OpenFile(str(DATA / "american-oca.pdn")))
    read(c)
    c.handle(it.OpenListedGame(1))  # Alwick 1842: drawn, by agreement (the moves alone end no game)
    c.handle(it.SaveGame())
    [path] = games_folder.iterdir()
    [again] = list(read_file(path))
    assert again.result == "1/2-1/2" and again.tags["Event"] == "Alwick 1842"
    assert [pm.move for pm in again.moves] == c.game.moves
    assert path.name.endswith(" Hay, W. - Wyllie, J.pdn")  # a name does not end in a dot


def test_what_cant_be_read_is_said_in_a_players_words_with_the_place(make):
    c = make()
    c.handle(it.Pasted("hello"))
    assert c.notice.startswith("Can't open this game. Line 1: can't read 'hello' (expected a move such as")
    assert c.notice.count("line 1") + c.notice.count("Line 1") == 1 and "game 1" not in c.notice
    c.handle(it.Pasted("W:W37,99:Bxx"))
    assert c.notice.startswith("That position can't be read: '99' is not within squares 1-50") and "FEN" not in c.notice
    c.handle(it.Pasted('[GameType "21"]\n\n1. 11-15 23-19\n2. 9-14\n   22-13\n3. 14x23 27x18\n4. 5-9 *'))
    assert isinstance(c.phase, Reviewing) and len(c.game.moves) == 3  # the moves before the wrong one
    assert c.notice.startswith("Read 3 moves; the rest can't be read. Move 2... on line 5 can't be played: '22-13' is "
                               "not a legal move here (White to move; legal: 22-17,")

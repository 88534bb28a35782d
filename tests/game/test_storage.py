"""Saved game, results and settings: atomic writes, and unreadable files set aside, never fatal."""

from __future__ import annotations

import json
import os

from game.files.settings import AnimationSpeed, Notation, Settings, View
from game.files.storage import CONFIG_ENV_DIR, ENV_DIR, Storage, config_dir, data_dir
from game.modes import Level, Result


def test_data_dir_can_be_overridden(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_DIR, str(tmp_path / "x"))
    assert data_dir() == tmp_path / "x"
    assert Storage().directory == tmp_path / "x"


def user_folders(tmp_path, monkeypatch):
    """The platform's own folders (platformdirs, which reads the XDG variables on Linux) under tmp_path."""
    for name in (ENV_DIR, CONFIG_ENV_DIR):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "share" / "checkers3d", tmp_path / "config" / "checkers3d"


def test_settings_live_in_the_user_config_folder(tmp_path, monkeypatch):
    data, config = user_folders(tmp_path, monkeypatch)
    assert (data_dir(), config_dir()) == (data, config)
    storage = Storage()
    storage.save_settings(Settings(sound=False))
    storage.save_game({"n": 1})
    storage.flush()
    assert sorted(p.name for p in config.iterdir()) == [Storage.SETTINGS]
    assert sorted(p.name for p in data.iterdir()) == [Storage.GAME]
    assert Storage().load_settings().sound is False


def test_settings_of_an_older_version_move_to_the_config_folder_on_first_start(tmp_path, monkeypatch):
    data, config = user_folders(tmp_path, monkeypatch)
    data.mkdir(parents=True)
    (data / Storage.SETTINGS).write_text(json.dumps({"sound": False, "view": "top"}))
    storage = Storage()
    assert storage.load_settings() == Settings(sound=False, view=View.TOP)
    assert not (data / Storage.SETTINGS).exists()
    assert json.loads((config / Storage.SETTINGS).read_text())["view"] == "top"
    assert storage.take_notes() == []
    # settings already in the config folder are never overwritten by an old file
    (data / Storage.SETTINGS).write_text(json.dumps({"sound": True}))
    assert Storage().load_settings().sound is False


def test_the_folder_overrides_keep_a_tests_files_together(tmp_path, monkeypatch):
    user_folders(tmp_path, monkeypatch)
    monkeypatch.setenv(ENV_DIR, str(tmp_path / "all"))
    assert Storage().config_directory == tmp_path / "all"  # the data folder alone moves everything
    monkeypatch.setenv(CONFIG_ENV_DIR, str(tmp_path / "settings"))
    assert Storage().config_directory == tmp_path / "settings"
    assert Storage(tmp_path / "given").config_directory == tmp_path / "given"
    assert Storage(tmp_path / "given", tmp_path / "conf").config_directory == tmp_path / "conf"


def test_settings_round_trip_and_defaults_for_missing_file(storage):
    assert storage.load_settings() == Settings()
    s = Settings(notation=Notation.NUMERIC, square_numbers=True, animation_speed=AnimationSpeed.FAST, sound=False,
                 view=View.TOP, variant="international")
    storage.save_settings(s)
    again = Storage(storage.directory).load_settings()
    assert again == s and again.view is View.TOP and again.notation is Notation.NUMERIC


def test_unknown_or_wrong_typed_settings_fall_back_to_defaults(storage):
    storage.directory.mkdir(parents=True)
    (storage.directory / Storage.SETTINGS).write_text(json.dumps({"sound": "loud", "view": "sideways",
                                                                  "notation": "numeric", "extra": 1}))
    s = storage.load_settings()
    assert s.sound is True and s.view is View.ANGLED and s.notation is Notation.NUMERIC


def test_writes_are_atomic_and_leave_no_temporary_files(storage):
    for i in range(5):
        storage.save_game({"n": i})
    storage.flush()
    assert sorted(p.name for p in storage.directory.iterdir()) == [Storage.GAME]
    assert json.loads((storage.directory / Storage.GAME).read_text())["n"] == 4


def test_results_count_per_rules_and_level(storage):
    storage.record_result("american", Level.EASY, Result.WIN)
    storage.record_result("american", Level.EASY, Result.WIN)
    storage.record_result("international", Level.HARD, Result.LOSS)
    storage.record_result("american", Level.EASY, Result.WIN, -1)
    again = Storage(storage.directory).results()
    assert again == {"american": {"easy": {"win": 1, "draw": 0, "loss": 0}},
                     "international": {"hard": {"win": 0, "draw": 0, "loss": 1}}}


def test_corrupt_files_are_set_aside_with_a_note(storage):
    storage.directory.mkdir(parents=True)
    (storage.directory / Storage.RESULTS).write_text('{"american": {"easy": {"win": -3')
    (storage.directory / Storage.SETTINGS).write_bytes(b"\xff\xfe\x00garbage")
    assert storage.results() == {}
    assert storage.load_settings() == Settings()
    notes = storage.take_notes()
    assert len(notes) == 2 and all("set aside" in n for n in notes)
    assert storage.take_notes() == []
    names = sorted(p.name for p in storage.directory.iterdir())
    assert any(n.startswith("results.json.corrupt-") for n in names)
    assert any(n.startswith("settings.json.corrupt-") for n in names)
    storage.record_result("american", "easy", "draw")  # and a fresh table is written
    assert Storage(storage.directory).results()["american"]["easy"]["draw"] == 1


def test_an_unwritable_directory_never_stops_the_game(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    s = Storage(blocker / "data")
    s.save_game({"a": 1})
    s.save_settings(Settings())
    assert s.load_game(lambda d: d) is None
    notes = s.take_notes()
    assert notes and all("Couldn't" in n for n in notes)


def test_writes_happen_off_the_callers_thread_in_order(storage, monkeypatch):
    import threading

    writers = []
    write = Storage._write_now

    def spy(self, path, text):
        writers.append((threading.current_thread() is threading.main_thread(), path.name))
        write(self, path, text)

    monkeypatch.setattr(Storage, "_write_now", spy)
    storage.save_game({"n": 1})
    storage.clear_game()
    storage.save_settings(Settings(sound=False))
    storage.flush()
    assert writers and not any(main for main, _ in writers)
    assert not (storage.directory / Storage.GAME).exists()  # the removal came after the save
    assert Storage(storage.directory).load_settings().sound is False


def test_empty_file_is_set_aside(storage):
    storage.directory.mkdir(parents=True)
    (storage.directory / Storage.GAME).write_text("")
    assert storage.load_game(lambda d: d) is None
    assert storage.take_notes() and not os.path.exists(storage.directory / Storage.GAME)

"""What the game keeps between runs: the game in progress, results per rules and level, settings.

Small JSON files: the settings in the user config directory, the rest in the user data directory
(``platformdirs``; ``CHECKERS3D_CONFIG_DIR`` and ``CHECKERS3D_DATA_DIR`` override them, and with
``CHECKERS3D_DATA_DIR`` alone every file goes there, as tests want). Settings that an older version
kept in the data directory are moved to the config directory on the first start that reads them.
Every write goes to a temporary file first and replaces the old one with ``os.replace``, so a crash
mid-write never leaves half a file. The writing (and its ``fsync``, which can take tens of
milliseconds on a busy disk) happens on a background thread, so saving after a move never stalls a
frame; reads, :meth:`Storage.take_notes` and :meth:`Storage.flush` wait for the writes
queued before them. A file that can't be read (truncated, corrupt, or holding the wrong content)
never stops the game from starting: it is renamed aside as ``NAME.corrupt-<time>``, a note for the
player is queued (:meth:`Storage.take_notes`) and the game starts fresh.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from game.files.settings import Settings
from game.modes import Level, Result

ENV_DIR = "CHECKERS3D_DATA_DIR"
CONFIG_ENV_DIR = "CHECKERS3D_CONFIG_DIR"


def data_dir() -> Path:
    """Where the files live: ``$CHECKERS3D_DATA_DIR`` or the platform's user data directory."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("checkers3d", appauthor=False))


def config_dir() -> Path:
    """Where the settings live: ``$CHECKERS3D_CONFIG_DIR``, else ``$CHECKERS3D_DATA_DIR`` when that is
    set (all of the game's files in one folder), else the platform's user config directory."""
    override = os.environ.get(CONFIG_ENV_DIR) or os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("checkers3d", appauthor=False))


class _Writer:
    """One background thread that writes files in the order asked, the latest content of a file
    replacing an older one still waiting (only the last state matters)."""

    def __init__(self):
        self._lock = threading.Condition()
        self._pending: dict[Path, tuple[Callable[[Path, str | None], None], str | None]] = {}
        self._writing = False
        self._thread: threading.Thread | None = None

    def submit(self, path: Path, write: Callable[[Path, str | None], None], text: str | None) -> None:
        with self._lock:
            self._pending.pop(path, None)  # re-queued last, so files keep the order of their last writes
            self._pending[path] = (write, text)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="storage-writer", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def flush(self) -> None:
        """Wait until everything queued so far is written."""
        with self._lock:
            while self._pending or self._writing:
                self._lock.wait()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._pending:
                    self._lock.wait()
                path = next(iter(self._pending))
                write, text = self._pending.pop(path)
                self._writing = True
            try:
                write(path, text)
            finally:
                with self._lock:
                    self._writing = False
                    self._lock.notify_all()


_writer = _Writer()


class Storage:
    """Reads and writes the saved game, the results table and the settings."""

    GAME, RESULTS, SETTINGS, RECENT = "saved_game.json", "results.json", "settings.json", "recent_files.json"
    MAX_RECENT = 10

    def __init__(self, directory: str | os.PathLike | None = None, config_directory: str | os.PathLike | None = None):
        """Files in ``directory`` (default :func:`data_dir`), the settings in ``config_directory``
        (default: ``directory`` when that is given, else :func:`config_dir`)."""
        self.directory = Path(directory) if directory is not None else data_dir()
        if config_directory is not None:
            self.config_directory = Path(config_directory)
        else:
            self.config_directory = self.directory if directory is not None else config_dir()
        self._notes: list[str] = []
        self._results: dict | None = None

    def take_notes(self) -> list[str]:
        """Messages for the player (a file set aside ...), each returned once."""
        _writer.flush()
        notes, self._notes = self._notes, []
        return notes

    @staticmethod
    def flush() -> None:
        """Wait until every write asked for so far is on disk (before closing, or reading a file)."""
        _writer.flush()

    # --- files ----------------------------------------------------------------------------------

    def _read(self, name: str, what: str, check: Callable[[Any], Any]):
        """The checked content of ``name``, or None when it is missing or unusable (then set aside)."""
        path = self._path(name)
        _writer.flush()
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as err:
            self._notes.append(f"Couldn't read your {what} ({err.strerror}); starting fresh.")
            return None
        try:
            return check(json.loads(raw.decode("utf-8")))
        except (ValueError, TypeError, KeyError, AttributeError):
            self._set_aside(path, what)
            return None

    def _set_aside(self, path: Path, what: str) -> None:
        aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(path, aside)
            self._notes.append(f"Your {what} could not be read; it was set aside as {aside.name} and a fresh "
                               "one started.")
        except OSError:
            self._notes.append(f"Your {what} could not be read; a fresh one was started.")

    def _path(self, name: str) -> Path:
        return (self.config_directory if name == self.SETTINGS else self.directory) / name

    def _write(self, name: str, data) -> None:
        """Queue ``data`` for ``name`` (turned into text now: the caller may change it afterwards)."""
        _writer.submit(self._path(name), self._write_now, json.dumps(data, indent=1))

    def _write_now(self, path: Path, text: str | None) -> None:
        """On the writer thread: an atomic write (a temporary file in the same directory, then
        ``os.replace``), or the file's removal when ``text`` is None. A failure (read-only disk ...)
        is reported once and never stops the game."""
        try:
            if text is None:
                path.unlink(missing_ok=True)
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as err:
            note = f"Couldn't save to {path.parent} ({err.strerror or err})."
            if note not in self._notes:
                self._notes.append(note)

    # --- the game in progress -------------------------------------------------------------------

    def save_game(self, data: dict) -> None:
        self._write(self.GAME, {"version": 1, **data})

    def load_game(self, convert: Callable[[dict], Any]):
        """The saved game passed through ``convert`` (which raises ValueError on bad content), or None."""

        def check(d):
            if not isinstance(d, dict) or d.get("version") != 1:
                raise ValueError("not a saved game")
            return convert(d)

        return self._read(self.GAME, "saved game", check)

    def peek_game(self) -> dict | None:
        """The saved game's data as stored, without checking its moves (that needs the rules engine) and
        without setting a bad file aside (:meth:`load_game` does that); None when there is none or it
        can't be read as a saved game."""
        _writer.flush()
        try:
            d = json.loads((self.directory / self.GAME).read_bytes().decode("utf-8"))
        except (OSError, ValueError):
            return None
        return d if isinstance(d, dict) and d.get("version") == 1 else None

    def clear_game(self) -> None:
        _writer.submit(self.directory / self.GAME, self._write_now, None)

    # --- results --------------------------------------------------------------------------------

    def results(self) -> dict[str, dict[str, dict[str, int]]]:
        """``{variant: {level: {"win": n, "draw": n, "loss": n}}}`` of finished games vs the computer."""
        if self._results is None:
            self._results = self._read(self.RESULTS, "results", _check_results) or {}
        return self._results

    def record_result(self, variant: str, level: Level, result: Result, delta: int = 1) -> None:
        """Count one game (``delta`` -1 takes one back, when a finished game is undone)."""
        table = self.results().setdefault(variant, {}).setdefault(Level(level).value,
                                                                  dict.fromkeys((r.value for r in Result), 0))
        key = Result(result).value
        table[key] = max(0, table.get(key, 0) + delta)
        self._write(self.RESULTS, self._results)

    # --- recent PDN files -----------------------------------------------------------------------

    def recent_files(self) -> list[str]:
        """The PDN files opened or saved lately, the latest first."""

        def check(d):
            if not isinstance(d, list) or not all(isinstance(p, str) for p in d):
                raise ValueError("recent files must be a list of paths")
            return d

        return self._read(self.RECENT, "list of recent files", check) or []

    def add_recent_file(self, path: str) -> None:
        paths = [path] + [p for p in self.recent_files() if p != path]
        self._write(self.RECENT, paths[:self.MAX_RECENT])

    # --- settings -------------------------------------------------------------------------------

    def load_settings(self) -> Settings:
        """The stored settings; defaults for anything missing or unknown."""

        def check(d):
            if not isinstance(d, dict):
                raise ValueError("settings must be an object")
            return d

        self._move_old_settings()
        return Settings.from_dict(self._read(self.SETTINGS, "settings", check) or {})

    def _move_old_settings(self) -> None:
        """Settings an older version kept in the data directory move to the config directory, once
        (not over settings already there). Where the move fails they are read where they are."""
        old, new = self.directory / self.SETTINGS, self._path(self.SETTINGS)
        if old == new or new.exists() or not old.is_file():
            return
        _writer.flush()
        try:
            new.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(old, new)  # a rename, or across file systems a copy and a removal
        except OSError as err:
            self._notes.append(f"Couldn't move your settings to {new.parent} ({err.strerror or err}); "
                               "they stay where they were.")
            self.config_directory = self.directory

    def save_settings(self, settings: Settings) -> None:
        self._write(self.SETTINGS, settings.to_dict())


def _check_results(d):
    if not isinstance(d, dict):
        raise ValueError("results must be an object")
    for levels in d.values():
        for counts in levels.values():
            if not all(isinstance(counts[r.value], int) and counts[r.value] >= 0 for r in Result):
                raise ValueError("bad counts")
    return d

"""What the game keeps between runs: the game in progress, results per rules and level, settings.

Three small JSON files in the user data directory (``platformdirs``; ``CHECKERS3D_DATA_DIR`` overrides
it, for tests). Every write goes to a temporary file first and replaces the old one with
``os.replace``, so a crash mid-write never leaves half a file. A file that can't be read (truncated,
corrupt, or holding the wrong content) never stops the game from starting: it is renamed aside as
``NAME.corrupt-<time>``, a note for the player is queued (:meth:`Storage.take_notes`) and the game
starts fresh.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ENV_DIR = "CHECKERS3D_DATA_DIR"
OUTCOMES = ("win", "draw", "loss")


def data_dir() -> Path:
    """Where the files live: ``$CHECKERS3D_DATA_DIR`` or the platform's user data directory."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("checkers3d", appauthor=False))


class Storage:
    """Reads and writes the saved game, the results table and the settings."""

    GAME, RESULTS, SETTINGS = "saved_game.json", "results.json", "settings.json"

    def __init__(self, directory: str | os.PathLike | None = None):
        self.directory = Path(directory) if directory is not None else data_dir()
        self._notes: list[str] = []
        self._results: dict | None = None

    def take_notes(self) -> list[str]:
        """Messages for the player (a file set aside ...), each returned once."""
        notes, self._notes = self._notes, []
        return notes

    # --- files ----------------------------------------------------------------------------------

    def _read(self, name: str, what: str, check: Callable[[Any], Any]):
        """The checked content of ``name``, or None when it is missing or unusable (then set aside)."""
        path = self.directory / name
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

    def _write(self, name: str, data) -> None:
        """Atomic write: a temporary file in the same directory, then ``os.replace``. A failure to write
        (read-only disk ...) is reported once and never stops the game."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=self.directory)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, indent=1)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, self.directory / name)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as err:
            note = f"Couldn't save to {self.directory} ({err.strerror or err})."
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

    def clear_game(self) -> None:
        try:
            (self.directory / self.GAME).unlink()
        except FileNotFoundError:
            pass

    # --- results --------------------------------------------------------------------------------

    def results(self) -> dict[str, dict[str, dict[str, int]]]:
        """``{variant: {level: {"win": n, "draw": n, "loss": n}}}`` of finished games vs the computer."""
        if self._results is None:
            self._results = self._read(self.RESULTS, "results", _check_results) or {}
        return self._results

    def record_result(self, variant: str, level: str, outcome: str, delta: int = 1) -> None:
        """Count one game (``delta`` -1 takes one back, when a finished game is undone)."""
        assert outcome in OUTCOMES, outcome
        table = self.results().setdefault(variant, {}).setdefault(level, dict.fromkeys(OUTCOMES, 0))
        table[outcome] = max(0, table.get(outcome, 0) + delta)
        self._write(self.RESULTS, self._results)

    # --- settings -------------------------------------------------------------------------------

    def load_settings(self):
        """The stored :class:`game.controller.Settings`; defaults for anything missing or unknown."""
        from game.controller import Settings

        def check(d):
            if not isinstance(d, dict):
                raise ValueError("settings must be an object")
            return d

        stored = self._read(self.SETTINGS, "settings", check) or {}
        settings = Settings()
        for f in dataclasses.fields(Settings):
            value = stored.get(f.name)
            default = getattr(settings, f.name)
            choices = Settings.CHOICES.get(f.name)
            if type(value) is type(default) and (choices is None or value in choices):
                setattr(settings, f.name, value)
        return settings

    def save_settings(self, settings) -> None:
        self._write(self.SETTINGS, dataclasses.asdict(settings))


def _check_results(d):
    if not isinstance(d, dict):
        raise ValueError("results must be an object")
    for levels in d.values():
        for counts in levels.values():
            if not all(isinstance(counts[k], int) and counts[k] >= 0 for k in OUTCOMES):
                raise ValueError("bad counts")
    return d

"""Games kept as PDN files: the games folder, a saved game's name and tags, writing one, and reading
a file's games off the main thread.

Saved games go into the user's documents folder, ``Checkers 3D`` subfolder (``platformdirs``;
``CHECKERS3D_GAMES_DIR`` overrides it, for tests), named from the date and the players. A file is
read by :class:`Listing`, a thread that lists its games by their tags only (``engine.pdn`` replays
a game's moves when first asked), at most :data:`MAX_LISTED` of them, so a large collection opens at
once and the window never waits; a file over :data:`MAX_FILE_BYTES` is refused with a message.
"""

from __future__ import annotations

import datetime
import getpass
import os
import re
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from game.modes import Mode

if TYPE_CHECKING:
    from engine import Variant
    from engine.pdn import PdnGame

ENV_GAMES_DIR = "CHECKERS3D_GAMES_DIR"
FOLDER_NAME = "Checkers 3D"
MAX_FILE_BYTES = 64 << 20  # larger files are refused (a PDN collection of some 100,000 games)
MAX_LISTED = 1000  # games listed of one file (they open at once; the rest are left)
MAX_PASTE_CHARS = 4_000_000  # pasted text (a clipboard holding more is not PDN a player means to paste)
MAX_FOLDER_FILES = 200  # files the browser lists from the games folder, the newest first
_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')  # characters some file systems refuse in a name


def games_dir() -> Path:
    """Where saved games go: ``$CHECKERS3D_GAMES_DIR``, else the documents folder's ``Checkers 3D``."""
    override = os.environ.get(ENV_GAMES_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_documents_dir()) / FOLDER_NAME


def player_name() -> str:
    """The person at this computer, as the PDN's player tag: the login name, else ``Player``."""
    try:
        name = getpass.getuser().strip()
    except (KeyError, OSError):  # no such user in the password database, no login name
        name = ""
    return name[:1].upper() + name[1:] if name else "Player"


def players(variant: Variant, mode: Mode) -> dict[str, str]:
    """The White and Black tags of a game played here: the player and ``Checkers 3D (Hard)`` against
    the computer; ``Player 1`` (who moves first) and ``Player 2`` at one device."""
    if mode.human is None or mode.level is None:
        first = variant.first_player
        return {first.label.capitalize(): "Player 1", first.opponent.label.capitalize(): "Player 2"}
    return {mode.human.label.capitalize(): player_name(),
            mode.human.opponent.label.capitalize(): f"Checkers 3D ({mode.level.value.capitalize()})"}


def game_tags(variant: Variant, mode: Mode, when: datetime.datetime) -> dict[str, str]:
    """The tags of a game played here (PDN's date is ``YYYY.MM.DD``)."""
    return {"Event": f"Checkers 3D · {variant.title}", "Site": "Checkers 3D", "Date": when.strftime("%Y.%m.%d"),
            "Round": "-", **players(variant, mode)}


def file_name(variant: Variant, tags: dict[str, str], when: datetime.datetime) -> str:
    """``2025-03-04 14.05 Alice - Checkers 3D (Hard).pdn``: the date and time, then the players, who
    moves first first."""
    first = variant.first_player.label.capitalize()
    second = variant.first_player.opponent.label.capitalize()
    names = f"{tags.get(first) or first} - {tags.get(second) or second}"
    return f"{when:%Y-%m-%d %H.%M} {_UNSAFE.sub('_', names).strip(' .')[:120]}.pdn"


def save_text(text: str, name: str, folder: Path | None = None) -> Path:
    """Write ``text`` as ``name`` in ``folder`` (default :func:`games_dir`, made if missing) and return
    the path. A file of that name already there is kept: the new one gets `` (2)``, `` (3)`` ... The
    text goes to a temporary file first, so a crash never leaves half a file. OSError if it can't."""
    folder = games_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    stem, suffix = os.path.splitext(name)
    fd, tmp = tempfile.mkstemp(prefix=".saving-", suffix=suffix, dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        for n in range(1, 1000):
            path = folder / (name if n == 1 else f"{stem} ({n}){suffix}")
            try:
                os.link(tmp, path)  # fails if the name is taken: never overwrites
                return path
            except FileExistsError:
                continue
        raise FileExistsError(f"too many files named {name!r} in {folder}")
    finally:
        os.unlink(tmp)


def folder_files(folder: Path | None = None) -> list[Path]:
    """The PDN files of the games folder, the newest first (at most MAX_FOLDER_FILES)."""
    folder = games_dir() if folder is None else folder
    try:
        files = [p for p in folder.iterdir() if p.suffix.lower() == ".pdn" and p.is_file()]
    except OSError:
        return []
    files.sort(key=lambda p: _mtime(p), reverse=True)
    return files[:MAX_FOLDER_FILES]


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


class Listing(threading.Thread):
    """The games of one PDN file, read on a thread of their own. ``games`` grows as they are read (the
    tags only); ``done`` is set at the end, with ``error`` (a message for the player, or None) and
    ``more`` (True when the file has more than MAX_LISTED games). :meth:`cancel` ends the reading at
    the next game."""

    def __init__(self, path: str | os.PathLike[str]):
        super().__init__(name="pdn-listing", daemon=True)
        self.path = Path(path)
        self.is_file = True  # False for games pasted as text
        self.games: list[PdnGame] = []
        self.error: str | None = None
        self.more = False
        self.done = threading.Event()
        self._cancelled = threading.Event()

    @classmethod
    def of_games(cls, games: list[PdnGame], name: str) -> Listing:
        """A listing already read (games pasted as text), shown in the browser as ``name``."""
        listing = cls(name)
        listing.is_file = False
        listing.games = games[:MAX_LISTED]
        listing.more = len(games) > MAX_LISTED
        listing.done.set()
        return listing

    def cancel(self) -> None:
        self._cancelled.set()

    def run(self) -> None:
        from engine.pdn import PdnError, read_file

        try:
            size = self.path.stat().st_size
            if size > MAX_FILE_BYTES:
                self.error = (f"{self.path.name} is too large to open ({size / (1 << 20):.0f} MB; "
                              f"the game opens PDN files up to {MAX_FILE_BYTES >> 20} MB)")
                return
            for game in read_file(self.path):
                if self._cancelled.is_set():
                    return
                if len(self.games) == MAX_LISTED:
                    self.more = True
                    return
                self.games.append(game)
        except OSError as err:
            self.error = f"Can't open {self.path.name}: {err.strerror or err}"
        except PdnError as err:
            from game.reading import problem_words

            self.error = f"Can't open {self.path.name}: {problem_words(err)}"
        except Exception as err:  # a reader bug must not take the window down: say it, keep playing
            self.error = f"Can't read {self.path.name}: {type(err).__name__}: {err}"
        finally:
            self.done.set()

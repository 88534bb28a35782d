"""Games in and out as PDN: saved in the games folder or copied; opened from files (in the browser, or
dropped on the window) or from pasted text (PDN, or a FEN, which the editor takes too).

:class:`PdnFiles` owns what it reads and writes: the PDN the game on screen was opened from
(``source``) and the browser's file being read; opening a game is a transition of the machine
(``game.play.machine``), which asks first when that leaves a game that counts.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import re
from typing import TYPE_CHECKING

from game.play.effects import Refused, Say, Step
from game.play.phases import Browsing

if TYPE_CHECKING:
    from engine import Position, Variant
    from engine.game import Game
    from engine.pdn import PdnGame
    from game.computer.report import GameReport
    from game.files.pdn import Listing
    from game.files.storage import Storage
    from game.modes import Mode
    from game.play.phases import ChoosingMode, Editing, Reviewing, TurnPhase

_FEN_TEXT = re.compile(r'\s*(\[\s*FEN\s+")?\s*[WB]\s*:', re.I)  # pasted text that is a FEN, not PDN


class PdnFiles:
    """PDN in and out; the recent files are kept by ``storage`` (None: none)."""

    def __init__(self, storage: Storage | None = None) -> None:
        self.storage = storage
        self.source: PdnGame | None = None  # the PDN the game on screen was opened from (its tags, comments, result)
        self._listing_seen: tuple = ()  # (listing, games, done) last seen: the browser redraws as a file is read
        self._listing_handled: Listing | None = None  # the last listing whose end was acted on

    def pdn(self, game: Game | None, mode: Mode | None, report: GameReport | None) -> PdnGame | None:
        """``game`` (played as ``mode``) as PDN: as its file has it while its moves are those read (its
        tags, comments and result), else its tags (from its file, or the players and the date), moves and
        result; with the game report's marks and scores when there is one."""
        from engine.pdn import PdnGame
        from game.computer.report import annotate
        from game.files.pdn import game_tags

        if game is None or mode is None:
            return None
        source = self.source
        if source is not None and [pm.move for pm in source.moves] == game.moves:
            pdn = source  # as it was read: its tags, comments, marks and result (a draw agreed ...)
        else:
            tags = dict(source.tags) if source is not None else game_tags(game.variant, mode, datetime.datetime.now())
            pdn = PdnGame.from_game(game, tags)
        return annotate(pdn, report) if report is not None else pdn

    def save(self, pdn: PdnGame, variant: Variant) -> Step | Refused:
        """``pdn`` saved in the games folder, and remembered among the recent files."""
        from game.files.pdn import file_name, save_text

        try:
            path = save_text(pdn.pdn(), file_name(pdn.variant or variant, pdn.tags, datetime.datetime.now()))
        except OSError as err:
            return Refused(f"Couldn't save the game: {err.strerror or err}", said=True)
        if self.storage is not None:
            self.storage.add_recent_file(str(path))
        return Step(effects=(Say(f"Saved as {path}"),))

    # --- the browser ------------------------------------------------------------------------------

    def browser(self, under: ChoosingMode | TurnPhase | Reviewing | Editing) -> Browsing:
        """The browser over ``under``: the recent files (still there) and the games folder's."""
        from game.files.pdn import folder_files, games_dir

        recent = tuple(p for p in (self.storage.recent_files() if self.storage is not None else [])
                       if os.path.isfile(p))
        folder = tuple(str(p) for p in folder_files(games_dir()) if str(p) not in recent)
        return Browsing(under, recent=recent, folder=folder)

    @staticmethod
    def read_file(browsing: Browsing, path: str) -> Browsing:
        """The browser reading ``path``'s games (off this thread)."""
        from game.files.pdn import Listing

        close_listing(browsing)
        listing = Listing(path)
        listing.start()
        return dataclasses.replace(browsing, listing=listing, page=0)

    @staticmethod
    def list_games(browsing: Browsing, games: list[PdnGame], name: str) -> Browsing:
        from game.files.pdn import Listing

        close_listing(browsing)
        return dataclasses.replace(browsing, listing=Listing.of_games(games, name), page=0)

    def follow(self, browsing: Browsing) -> tuple[bool, Step, PdnGame | None]:
        """The browser's file being read: whether anything changed (the browser redraws as games come);
        once read, what to say, and the game to open when the file has one (the file goes to the
        recent ones)."""
        listing = browsing.listing
        if listing is None:
            return False, Step(), None
        seen = (listing, len(listing.games), listing.done.is_set())
        if seen == self._listing_seen:
            return False, Step(), None
        self._listing_seen = seen
        if not listing.done.is_set() or self._listing_handled is listing:
            return True, Step(), None
        self._listing_handled = listing
        if listing.error is None and listing.games and self.storage is not None and listing.is_file:
            self.storage.add_recent_file(str(listing.path))
        if listing.error is not None:
            return True, Step(effects=(Say(listing.error),)), None
        if not listing.games:
            return True, Step(effects=(Say(f"No games in {listing.path.name}"),)), None
        return True, Step(), listing.games[0] if len(listing.games) == 1 else None

    # --- games read -------------------------------------------------------------------------------

    @staticmethod
    def game_of(pdn: PdnGame) -> Game | Refused:
        """The game a PDN game holds (the moves before what couldn't be read), or why none can be opened."""
        from engine.pdn import PdnError
        from game.reading import problem_words

        if pdn.variant is None or (pdn.error is not None and not pdn.moves):
            return Refused(f"Can't open this game. {problem_words(pdn.error) if pdn.error else ''}".strip(), said=True)
        try:
            return pdn.to_game()
        except PdnError as err:
            return Refused(f"Can't open this game. {problem_words(err)}", said=True)

    @staticmethod
    def opened_notice(pdn: PdnGame, game: Game) -> str:
        """What the player is told of a game just opened: its players, moves and result, or what
        couldn't be read."""
        from game.reading import problem_words

        white, black = pdn.players
        if pdn.error is not None:
            return f"Read {game.ply} moves; the rest can't be read. {problem_words(pdn.error)}"
        if game.ply < pdn.plies:
            return f"The rules end this game after {game.ply} of its {pdn.plies} moves"
        return f"{white} – {black}: {len(game.moves)} moves, {pdn.result}. Step through with ◀ ▶"

    @staticmethod
    def read_paste(text: str, variant: Variant | None) -> Refused | Position | list[PdnGame]:
        """Pasted text: a FEN (of ``variant``'s rules when given: the editor's), else PDN games; or why
        it is neither."""
        from engine import InvalidFenError
        from engine.pdn import PdnError, position_from_fen, read_text
        from game.files.pdn import MAX_PASTE_CHARS
        from game.reading import problem_words

        text = text.strip()
        if not text:
            return Refused("There is no text on the clipboard to paste", said=True)
        if len(text) > MAX_PASTE_CHARS:
            return Refused(f"The pasted text is too long ({len(text):,} characters) to be a game", said=True)
        if _FEN_TEXT.match(text):
            try:
                return position_from_fen(text, variant)
            except InvalidFenError as err:
                return Refused(problem_words(err), said=True)
        try:
            games = read_text(text)
        except PdnError as err:
            return Refused(problem_words(err), said=True)
        if not games:
            return Refused("The pasted text holds no PDN game and no FEN", said=True)
        return games


def close_listing(phase: object) -> None:
    """Stop reading the browser's file, if ``phase`` is the browser reading one."""
    if isinstance(phase, Browsing) and phase.listing is not None:
        phase.listing.cancel()

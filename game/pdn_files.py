"""Games in and out as PDN: saved in the games folder or copied; opened from files (in the browser, or
dropped on the window) or from pasted text (PDN, or a FEN, which the editor takes too).
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import re
from typing import TYPE_CHECKING

from game.phases import Browsing, Mode, Question, ReadingHelp, Resuming, Reviewing, RoomPhase

if TYPE_CHECKING:
    from engine.pdn import PdnGame
    from game.controller import Controller
    from game.files import Listing

_FEN_TEXT = re.compile(r'\s*(\[\s*FEN\s+")?\s*[WB]\s*:', re.I)  # pasted text that is a FEN, not PDN


class PdnFiles:
    """PDN in and out for the controller."""

    def __init__(self, c: Controller) -> None:
        self.c = c
        self._listing_seen: tuple = ()  # (listing, games, done) last seen: the browser redraws as a file is read
        self._listing_handled: Listing | None = None  # the last listing whose end was acted on

    def pdn(self) -> PdnGame | None:
        """The game on screen as PDN: as its file has it while its moves are those read (its tags,
        comments and result), else its tags (from its file, or the players and the date), moves and
        result; with the game report's marks and scores when there is one."""
        from engine.pdn import PdnGame
        from game.files import game_tags
        from game.report import annotate

        game, mode = self.c.game, self.c.mode
        if game is None or mode is None:
            return None
        source = self.c.source
        if source is not None and [pm.move for pm in source.moves] == game.moves:
            pdn = source  # as it was read: its tags, comments, marks and result (a draw agreed ...)
        else:
            tags = dict(source.tags) if source is not None else game_tags(game.variant, mode, datetime.datetime.now())
            pdn = PdnGame.from_game(game, tags)
        report = self.c.studies.current_report()
        return annotate(pdn, report) if report is not None else pdn

    def save_pdn(self) -> None:
        from game.files import file_name, save_text

        pdn = self.pdn()
        if pdn is None:
            return
        try:
            path = save_text(pdn.pdn(), file_name(pdn.variant or self.c.variant, pdn.tags, datetime.datetime.now()))
        except OSError as err:
            self.c.illegal(f"Couldn't save the game: {err.strerror or err}")
            return
        self.c.notice = f"Saved as {path}"
        if self.c.storage is not None:
            self.c.storage.add_recent_file(str(path))

    def copy_pdn(self) -> None:
        pdn = self.pdn()
        if pdn is not None:
            self.c.clipboard = pdn.pdn()
            self.c.notice = "The game's PDN is on the clipboard"

    def open_browser(self) -> None:
        """The browser: the recent files and the games folder's (over a file's games: back to them)."""
        from game.files import folder_files, games_dir

        if isinstance(self.c.phase, (ReadingHelp, Resuming, RoomPhase)) or self.c.friend_play.refused_in_friend_game():
            return
        if isinstance(self.c.phase, Browsing):
            under = self.c.phase.under
            self.close_listing()
        else:
            self.c.stop_opponent()
            under = self.c.phase.under if isinstance(self.c.phase, Question) else self.c.phase
        self.c.hand.deselect()
        self.c.notice = None
        recent = tuple(p for p in (self.c.storage.recent_files() if self.c.storage is not None else [])
                       if os.path.isfile(p))
        folder = tuple(str(p) for p in folder_files(games_dir()) if str(p) not in recent)
        self.c.phase = Browsing(under, recent=recent, folder=folder)

    def close_browser(self) -> None:
        if isinstance(self.c.phase, Browsing):
            self.close_listing()
            self.c.go_back(self.c.phase.under)

    def close_listing(self) -> None:
        if isinstance(self.c.phase, Browsing) and self.c.phase.listing is not None:
            self.c.phase.listing.cancel()

    def open_file(self, path: str) -> None:
        """Read a PDN file's games (off this thread, in the browser): one game opens by itself."""
        from game.files import Listing

        if not isinstance(self.c.phase, Browsing):
            self.open_browser()
            if not isinstance(self.c.phase, Browsing):
                return  # not now (a game with a friend, the room screen ...)
        self.close_listing()
        listing = Listing(path)
        listing.start()
        self.c.phase = dataclasses.replace(self.c.phase, listing=listing, page=0)

    def follow_listing(self) -> bool:
        """The browser's file being read: redraw as games come; once read, a file of one game opens
        it, and the file goes to the recent ones. Returns whether anything changed."""
        p = self.c.phase
        if not isinstance(p, Browsing) or p.listing is None:
            return False
        listing = p.listing
        seen = (listing, len(listing.games), listing.done.is_set())
        if seen == self._listing_seen:
            return False
        self._listing_seen = seen
        if listing.done.is_set() and self._listing_handled is not listing:
            self._listing_handled = listing
            if listing.error is None and listing.games and self.c.storage is not None and listing.is_file:
                self.c.storage.add_recent_file(str(listing.path))
            if listing.error is not None:
                self.c.notice = listing.error
            elif not listing.games:
                self.c.notice = f"No games in {listing.path.name}"
            elif len(listing.games) == 1:
                self.open_pdn(listing.games[0])
        return True

    def open_listed(self, index: int) -> None:
        p = self.c.phase
        if isinstance(p, Browsing) and p.listing is not None and 0 <= index < len(p.listing.games):
            self.open_pdn(p.listing.games[index])

    def open_pdn(self, pdn: PdnGame) -> None:
        """Show a game read from PDN in a review from its start; what couldn't be read is said (the
        moves before it are kept)."""
        from engine.pdn import PdnError

        if pdn.variant is None or (pdn.error is not None and not pdn.moves):
            self.c.illegal(f"Can't open it: {pdn.error}")
            return
        from engine import VARIANTS
        from engine.pdn import GAME_TYPES

        if pdn.variant.name not in VARIANTS:  # the engine reads it, but the window doesn't offer that game yet
            self.c.illegal(f"Can't open it: {GAME_TYPES[pdn.variant.pdn_game_type]} is not among the games offered here")
            return
        try:
            game = pdn.to_game()
        except PdnError as err:
            self.c.illegal(f"Can't open it: {err}")
            return
        left = self.c.results.leave_game()
        self.close_listing()
        self.c.stop_opponent()
        self.c.friend_play.leave_rooms()
        self.c.after_change()
        self.c.flipped = False
        self.c.played = None
        self.c.results.recorded = True  # a game from a file never counts in the results
        self.c.source = pdn
        white, black = pdn.players
        if pdn.error is not None:
            self.c.notice = f"Read {game.ply} moves; then: {pdn.error}"
        elif game.ply < pdn.plies:
            self.c.notice = f"The rules end this game after {game.ply} of its {pdn.plies} moves"
        else:
            self.c.notice = f"{white} – {black}: {len(game.moves)} moves, {pdn.result}. Step through with ◀ ▶"
        if left:
            self.c.notice = f"{left}. {self.c.notice}"
        self.c.phase = Reviewing(game, Mode(), 0, None)

    def paste(self, text: str) -> None:
        """Pasted text: a FEN (into the editor's board, or opened as a position), else PDN games."""
        from engine import InvalidFenError
        from engine.pdn import PdnError, position_from_fen, read_text
        from game.files import MAX_PASTE_CHARS, Listing

        if self.c.friend_play.refused_in_friend_game():
            return
        text = text.strip()
        if not text:
            self.c.illegal("There is no text on the clipboard to paste")
            return
        if len(text) > MAX_PASTE_CHARS:
            self.c.illegal(f"The pasted text is too long ({len(text):,} characters) to be a game")
            return
        editing = self.c.editing
        if _FEN_TEXT.match(text):
            try:
                position = position_from_fen(text, editing.setup.variant if editing is not None else None)
            except InvalidFenError as err:
                self.c.illegal(str(err))
                return
            if editing is not None:
                from game.editor import Setup

                self.c.phase = dataclasses.replace(editing, setup=Setup.of(position))
                self.c.notice = "Position pasted"
                return
            from engine.game import Game
            from engine.pdn import PdnGame

            self.open_pdn(PdnGame.from_game(Game(position.variant, position)))
            self.c.notice = "Position pasted: Analyze it, or play from here"
            return
        try:
            games = read_text(text)
        except PdnError as err:
            self.c.illegal(str(err))
            return
        if not games:
            self.c.illegal("The pasted text holds no PDN game and no FEN")
        elif len(games) == 1:
            self.open_pdn(games[0])
        else:
            if not isinstance(self.c.phase, Browsing):
                self.open_browser()
            self.close_listing()
            assert isinstance(self.c.phase, Browsing)
            self.c.phase = dataclasses.replace(self.c.phase, listing=Listing.of_games(games, "pasted text"), page=0)

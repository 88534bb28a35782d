"""The play state machine: what a press, a key or a button does, the opponent's turns, undo and offers.

Intents come in (``game.intents``, from ``game.input`` and the panel) and :meth:`Controller.handle`
routes each to the job that applies it; the opponent's replies come in through
:meth:`Controller.update`, once a frame. The state is an explicit phase (``game.phases``, with its
diagram) plus the selection on the board; the renderer and the panel read it (``phase``,
``selected``, :meth:`Controller.targets`, :meth:`Controller.status` ...), and
:attr:`Controller.version` changes whenever any of it may have. Nothing here touches a window, so it
is tested without one.

The controller keeps the phases, the moves played and the opponent's turns, and composes one object
per job, each in its own module with its own docstring:

* ``hand`` (``game.hand``): the player's hand on the board: selection, multi-capture entry, drag and
  the keyboard cursor, and why the rules refuse a move;
* ``offers`` (``game.offers``): draw offers, resignation and taking moves back;
* ``friend_play`` (``game.friend_play``): a friend's game through a room;
* ``review`` (``game.review``): stepping through a game, playing on from a position, the editor;
* ``studies`` (``game.studies``): the analysis, a hint and the game report beside the board;
* ``files`` (``game.pdn_files``): games in and out as PDN (files, the browser, the clipboard);
* ``saved`` (``game.saved_game``): the game in progress kept on disk and resumed at launch;
* ``results`` (``game.results``): the results table, and what leaving a game costs;
* ``games`` (``game.games``): games starting from the mode screen, Play again, the mode screen and back;
* the status line is ``game.status_text``.

The other side's moves come from an *opponent* (``game.opponent``: the computer's worker in the game,
a test double in tests) that never blocks; a friend on another machine is an opponent too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, assert_never

from engine import variant_named
from game import intents as it
from game import status_text, text_entry
from game.analysis import Analyst
from game.friend_play import FriendPlay
from game.games import Games
from game.hand import Hand
from game.help import Refusal
from game.offers import Offers
from game.opponent import DrawAnswer, Opponent, OpponentError, OpponentMove, OpponentStatus, Reply
from game.pdn_files import PdnFiles
from game.phases import (
    AwaitingDrawAnswer,
    Browsing,
    ChoosingMode,
    ConfirmingNewGame,
    ConfirmingResign,
    Editing,
    EnteringLink,
    EnteringServer,
    EnteringText,
    GameOver,
    HelpPage,
    HumanToMove,
    InGame,
    Mode,
    OpponentFailed,
    OpponentToMove,
    Phase,
    Played,
    Question,
    ReadingHelp,
    Resuming,
    Reviewing,
    RoomPhase,
    RoomScreen,
    Screen,
    TurnPhase,
    WaitingForFriend,
)
from game.results import Results
from game.review import Review
from game.saved_game import SavedGame
from game.settings import Notation, Settings, View
from game.studies import Studies, Study

if TYPE_CHECKING:  # at run time engine.game loads with the first game: the mode screen needs no numba
    from engine import Color, Move, Position, Variant
    from engine.game import Game
    from engine.pdn import PdnGame
    from game.friend_opponent import FriendOpponent
    from game.report import GameReport
    from game.rooms import Rooms
    from game.storage import Storage

FRIEND_AWAY_LIMIT_S = 120.0  # "Continue vs computer" after the friend is gone this long (specification: 2 minutes)


@dataclass
class Controller:
    """The whole play state. ``storage`` keeps the game, the results and the settings; ``opponent``
    plays the other side against a person (the computer); ``analyst`` analyses (the same computer);
    ``rooms`` opens friends' rooms (None: no
    friend can be played), and ``friend`` is the room of the friend's game on screen or being reached."""

    opponent: Opponent | None = None
    storage: Storage | None = None
    analyst: Analyst | None = None
    rooms: Rooms | None = None
    friend_away_limit_s: float = FRIEND_AWAY_LIMIT_S

    phase: Phase = field(default_factory=ChoosingMode)
    settings: Settings = field(default_factory=Settings)
    selected: int | None = None
    entered: tuple[int, ...] = ()  # landing squares pressed so far in a capture
    dragging: int | None = None
    cursor: tuple[int, int] = (2, 0)  # (file, rank) of a dark square in the first player's frame
    cursor_visible: bool = False
    flipped: bool = False  # the board seen from the second player's side
    offer_armed: bool = False
    notice: str | None = None  # a one-off explanation under the status line
    refusal: Refusal | None = None  # why the rules refused the last attempted move (the notice, while it says so)
    keys_shown: bool = False  # the keys overlay ("?") is over the game
    notes: list[str] = field(default_factory=list)  # messages from storage (files set aside ...)
    events: list[str] = field(default_factory=list)  # sounds to play: move capture crown illegal end
    played: Played | None = None
    opponent_status: str = ""  # how the opponent is getting ready, until opponent_ready
    opponent_ready: bool = True
    friend: FriendOpponent | None = None
    rematch_asked: bool = False  # the player pressed "Rematch (swap sides)" in this game
    friend_wants_rematch: bool = False
    clipboard: str | None = None  # text for the window to put on the system clipboard (then None)
    version: int = 0  # changes whenever anything shown may have (see handle, update, restore)
    analysis_on: bool = False  # "Analyze" is on: the engine follows the position shown
    study: Study | None = None  # what the analysis or a hint shows
    report: GameReport | None = None  # the game report of report_game (growing while it is made)
    report_game: Game | None = None
    report_running: bool = False
    source: PdnGame | None = None  # the PDN the game on screen was opened from (its tags, comments, result)
    # the jobs (see the module's docstring)
    hand: Hand = field(init=False, repr=False)
    offers: Offers = field(init=False, repr=False)
    friend_play: FriendPlay = field(init=False, repr=False)
    review: Review = field(init=False, repr=False)
    studies: Studies = field(init=False, repr=False)
    files: PdnFiles = field(init=False, repr=False)
    saved: SavedGame = field(init=False, repr=False)
    results: Results = field(init=False, repr=False)
    games: Games = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.hand, self.offers, self.friend_play = Hand(self), Offers(self), FriendPlay(self)
        self.review, self.studies, self.files = Review(self), Studies(self), PdnFiles(self)
        self.saved, self.results, self.games = SavedGame(self), Results(self), Games(self)
        if self.storage is not None:
            self.settings = self.storage.load_settings()
            self.notes.extend(self.storage.take_notes())

    # --- derived state --------------------------------------------------------------------------

    @property
    def screen(self) -> Screen:
        return self.phase.screen

    @property
    def left_for_help(self) -> (ChoosingMode | Resuming | RoomScreen | TurnPhase | ConfirmingResign | ConfirmingNewGame
                                | Reviewing | Editing | Browsing):
        """The phase under the help screen (the one Back returns to); else the phase itself."""
        return self.phase.back if isinstance(self.phase, ReadingHelp) else self.phase

    @property
    def turn_phase(self) -> ChoosingMode | Resuming | RoomScreen | TurnPhase | Reviewing | Editing | Browsing:
        """The phase under a question (``ConfirmingResign``, ``ConfirmingNewGame``) or the help screen:
        who acts in the game (nobody in a review, the editor or the browser)."""
        p = self.left_for_help
        return p.under if isinstance(p, Question) else p

    @property
    def base_phase(self) -> Phase:
        """The phase on screen under the PDN browser (the phase itself when it isn't open)."""
        return self.phase.under if isinstance(self.phase, Browsing) else self.phase

    @property
    def _shown_phase(self) -> Phase:
        """The phase whose game is on screen: under the help screen and the browser."""
        p = self.left_for_help
        return p.under if isinstance(p, Browsing) else p

    @property
    def in_game(self) -> InGame | None:
        """The phase of the game on screen (a review too, and under the browser); None elsewhere."""
        p = self.base_phase
        return p if isinstance(p, InGame) else None

    @property
    def reviewing(self) -> Reviewing | None:
        p = self.base_phase
        return p if isinstance(p, Reviewing) else None

    @property
    def editing(self) -> Editing | None:
        p = self.base_phase
        return p if isinstance(p, Editing) else None

    @property
    def game_phase(self) -> TurnPhase | None:
        """The phase of the game going on (on screen, or under the help screen, a question, a review,
        the editor or the browser), or of the one the mode and room screens hold (to go back to)."""
        return self.game_phase_of(self.phase)

    @property
    def game(self) -> Game | None:
        """The game on screen (or under the help screen or the browser); on the mode and room screens
        the one left there (None at launch, while a saved game is resumed, and in the editor)."""
        p = self._shown_phase
        if isinstance(p, (ChoosingMode, RoomPhase)):
            return p.left.game if p.left is not None else None
        return p.game if isinstance(p, InGame) else None

    @property
    def mode(self) -> Mode | None:
        """How the game on screen (or being resumed, or left for the mode screen) is played."""
        p = self._shown_phase
        if isinstance(p, (ChoosingMode, RoomPhase)):
            return p.left.mode if p.left is not None else None
        return p.mode if isinstance(p, (InGame, Resuming)) else None

    @property
    def variant(self) -> Variant:
        """The rules of the game on screen (the editor's board; a game being resumed); on the mode screen,
        the rules chosen there."""
        if isinstance(self.phase, Resuming):
            return variant_named(self.phase.variant)
        editing = self.editing
        if editing is not None:
            return editing.setup.variant
        p = self.in_game
        return p.game.variant if p is not None else variant_named(self.settings.variant)

    def shown_ply(self) -> int:
        """How many moves of the game the board shows (all of them but in a review)."""
        p = self.in_game
        if p is None:
            return 0
        return p.ply if isinstance(p, Reviewing) else len(p.game.moves)

    def shown_position(self) -> Position | None:
        """The position on the board: the review's, the editor's, or the game's as it stands."""
        editing = self.editing
        if editing is not None:
            return editing.setup.position()
        p = self.in_game
        if p is None:
            return None
        return p.game.positions[self.shown_ply()]

    @property
    def view(self) -> View:
        return self.settings.view

    @property
    def notice_rule(self) -> str | None:
        """The id of the Rules section that explains the notice (a refused move), which pressing the
        notice opens; None for any other notice."""
        r = self.refusal
        return r.section if r is not None and self.notice == r.message else None

    @property
    def confirming_resign(self) -> bool:
        return isinstance(self.phase, ConfirmingResign)

    @property
    def waiting_for_opponent(self) -> bool:
        """Whether the opponent is finding a move or deciding on a draw offer (a review, the editor and
        the browser stop it: the game waits meanwhile)."""
        return isinstance(self.turn_phase, (OpponentToMove, AwaitingDrawAnswer))

    def is_human_turn(self) -> bool:
        """Whether a person may move now (not the opponent's turn, game not over; against a friend,
        only while the room is connected, so no move is made that the room can't hear)."""
        p = self.turn_phase
        return isinstance(p, HumanToMove) and (not p.mode.vs_friend or self.friend_play.friend_connection == "connected")

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the player may make now (empty on the opponent's turn)."""
        p = self.turn_phase
        return p.game.position.legal_moves() if isinstance(p, HumanToMove) and self.is_human_turn() else ()

    @property
    def vs_friend(self) -> bool:
        """Whether the game on screen is played against a friend."""
        p = self.in_game
        return p is not None and p.mode.vs_friend

    def opponent_for(self, mode: Mode) -> Opponent | FriendOpponent | None:
        return self.friend if mode.vs_friend else self.opponent

    def opponent_name(self, mode: Mode) -> str:
        return "Your friend" if mode.vs_friend else "The computer"

    def move_text(self, move: Move, position: Position | None = None) -> str:
        """A move as the notation setting writes it on screen (``c3-d4`` / ``11-15``; ``c3×e5`` for a
        capture, as the specification writes it; PDN files and the command line keep ``x``)."""
        if position is None:
            game = self.game
            assert game is not None, "a move's text needs its position"
            position = game.position
        return position.move_text(move, numeric=self.settings.notation is Notation.NUMERIC).replace("x", "×")

    def last_move(self) -> tuple[Move, Position] | None:
        """The last move of the game (in a review: the move that led to the position shown), with its
        route, and the position it was played in."""
        game = self.game
        ply = self.shown_ply()
        if game is None or self.editing is not None or ply == 0:
            return None
        move, before = game.moves[ply - 1], game.positions[ply - 1]
        if self.played is not None and self.played.move == move and self.played.before == before:
            move = self.played.move  # the route the player actually entered
        return move, before

    def moves_until_draw(self) -> int | None:
        """Moves each left before an automatic draw, once a count toward one runs (a move with no man
        moved and no capture, an endgame count, or a board of kings only, where every move but a
        capture counts from the start); None before that and once the game is over. At the start of a
        game no count runs: every move moves a man."""
        game = self.game
        if game is None or (plies := game.plies_until_draw) is None:
            return None
        position = game.position
        only_kings = position.kings == position.white | position.black
        if plies >= 2 * game.variant.quiet_limit_moves and not only_kings:
            return None
        return game.moves_until_draw


    # --- what the jobs answer (the panel, the renderer and the tests ask the controller) --------

    def status(self) -> str:
        return status_text.status(self)

    def capturers(self) -> frozenset[int]:
        return self.hand.capturers()

    def targets(self) -> frozenset[int]:
        return self.hand.targets()

    def final_rings(self) -> frozenset[int]:
        return self.hand.final_rings()

    def entered_path(self) -> tuple[int, ...]:
        return self.hand.entered_path()

    def cursor_square(self) -> int | None:
        return self.hand.cursor_square()

    def is_own_piece(self, square: int | None) -> bool:
        return self.hand.is_own_piece(square)

    def near_color(self) -> Color:
        return self.hand.near_color()

    def second_side_near(self) -> bool:
        return self.hand.second_side_near()

    def offer_pending_for_player(self) -> bool:
        return self.offers.offer_pending_for_player()

    def can_undo(self) -> bool:
        return self.offers.can_undo()

    @property
    def friend_connection(self) -> str | None:
        return self.friend_play.friend_connection

    def friend_away_s(self, now: float | None = None) -> float | None:
        return self.friend_play.friend_away_s(now)

    def can_continue_vs_computer(self, now: float | None = None) -> bool:
        return self.friend_play.can_continue_vs_computer(now)

    def can_return_to_room(self) -> bool:
        return self.friend_play.can_return_to_room()

    def in_friend_game(self) -> bool:
        return self.friend_play.in_friend_game()

    def can_analyze(self) -> bool:
        return self.studies.can_analyze()

    def can_hint(self) -> bool:
        return self.studies.can_hint()

    def can_report(self) -> bool:
        return self.studies.can_report()

    def current_report(self) -> GameReport | None:
        return self.studies.current_report()

    def _on_analysis(self, answer) -> None:
        self.studies.on_answer(answer)

    def leaving_counts(self) -> bool:
        return self.results.leaving_counts()

    def pdn(self) -> PdnGame | None:
        return self.files.pdn()

    def open_game(self, game: Game, mode: Mode, flipped: bool = False) -> None:
        self.games.open_game(game, mode, flipped)

    def expect_saved_game(self) -> bool:
        return self.saved.expect_saved_game()

    def restore(self) -> bool:
        return self.saved.restore()

    # --- intents --------------------------------------------------------------------------------

    def handle(self, intent: it.Intent) -> None:
        """Apply one intent; anything else is a TypeError. The help screen shows no game and takes only
        its own intents: the others wait for Back (dropped, as presses on a hidden board would be)."""
        if isinstance(self.phase, ReadingHelp) and not isinstance(intent, (it.OpenHelp, it.CloseHelp, it.Cancel)):
            if not isinstance(intent, it.Intent):
                raise TypeError(f"the controller has no intent {intent!r}")
            return
        if not (self._handle_play(intent) or self._handle_study(intent) or self._handle_files(intent)
                or self._handle_screens(intent) or self._handle_friend(intent)):
            raise TypeError(f"the controller has no intent {intent!r}")
        self.studies.follow()
        self.version += 1

    def _handle_play(self, intent: it.Intent) -> bool:
        """The board and the game's buttons; False: not one of those."""
        match intent:
            case it.SquarePressed(square=square, outside=outside):
                self.hand.press(square, outside)
            case it.DragStarted(square=square):
                self.hand.start_drag(square)
            case it.PieceDropped(start=start, square=square):
                self.hand.drop(start, square)
            case it.Deselect():
                self.hand.deselect()
                self.notice = None
            case it.Cancel():
                self._cancel()
            case it.CursorMove(dx=dx, dy=dy) if self.reviewing is not None and dx:
                self.review.review_to(self.shown_ply() + dx)
            case it.CursorMove(dx=dx, dy=dy):
                self.hand.move_cursor(dx, dy)
            case it.CursorPress():
                if self.screen in (Screen.GAME, Screen.EDITOR):
                    self.cursor_visible = True
                    self.hand.press(self.hand.cursor_square(), False)
            case it.PlayMoveFromList(move=move):
                if move in self.legal_moves():
                    self.play(move)
            case it.Undo():
                self.offers.undo()
            case it.OfferDraw():
                self.offers.toggle_offer()
            case it.AcceptDraw():
                self.offers.accept_draw()
            case it.Resign():
                self.offers.ask_resign()
            case it.ConfirmResign():
                self.offers.resign()
            case it.PlayAgain():
                self.games.play_again()
            case it.ConfirmNewGame():
                self.games.confirm_new_game()
            case _:
                return False
        return True

    def _handle_study(self, intent: it.Intent) -> bool:
        """The review, the editor and the engine beside the board; False: not one of those."""
        match intent:
            case it.ReviewStep(delta=delta):
                self.review.review_to(self.shown_ply() + delta)
            case it.ReviewTo(ply=ply):
                self.review.review_to(ply)
            case it.BackToGame():
                self.review.back_to_game()
            case it.PlayFromHere(level=level):
                self.review.play_from_here(level)
            case it.EditPosition():
                self.review.edit()
            case it.ChooseTool() | it.SetTurn() | it.ClearBoard() | it.StartPosition():
                self.review.edit_board(intent)
            case it.ToggleAnalysis():
                self.studies.toggle_analysis()
            case it.Hint():
                self.studies.hint()
            case it.AnalyzeGame():
                self.studies.analyze_game()
            case _:
                return False
        return True

    def _handle_files(self, intent: it.Intent) -> bool:
        """PDN and FEN in and out; False: not one of those."""
        match intent:
            case it.SaveGame():
                self.files.save_pdn()
            case it.CopyPdn():
                self.files.copy_pdn()
            case it.CopyFen():
                position = self.shown_position()
                if position is not None:
                    self.clipboard = position.fen()
                    self.notice = f"FEN copied: {self.clipboard}"
            case it.PasteFromClipboard():
                pass  # game.input reads the clipboard and sends Pasted
            case it.Pasted(text=text):
                self.files.paste(text)
            case it.OpenFile(path=path):
                self.files.open_file(path)
            case it.OpenBrowser():
                self.files.open_browser()
            case it.CloseBrowser():
                self.files.close_browser()
            case it.BrowserPage(delta=delta):
                if isinstance(self.phase, Browsing):
                    self.phase = dataclasses.replace(self.phase, page=max(0, self.phase.page + delta))
            case it.OpenListedGame(index=index):
                self.files.open_listed(index)
            case _:
                return False
        return True

    def _handle_screens(self, intent: it.Intent) -> bool:
        """The mode screen, the settings, the view and the help; False: not one of those."""
        match intent:
            case it.ChangeMode():
                self.games.change_mode()
            case it.ChooseRules(variant=name):
                self.settings.variant = variant_named(name).name
                self.save_settings()
            case it.StartGame(level=level, play_second=second):
                if not self.games.asks_first(intent):
                    self.games.start(level, second)
            case it.ContinueSaved():
                self.games.continue_left()
            case it.FlipBoard():
                self.flipped = not self.flipped
            case it.SetView(view=View() as view):
                self.settings.view = view
                self.save_settings()
            case it.ToggleSetting(name=name):
                self.settings.toggle(name)
                self.save_settings()
            case it.DismissNotes():
                self.notes.clear()
            case it.OpenHelp(page=page, section=section):
                self._open_help(HelpPage(page), section)
            case it.CloseHelp():
                if isinstance(self.phase, ReadingHelp):
                    self.phase = self.phase.back
            case it.ShowKeys():
                self.keys_shown = self.screen is Screen.GAME
            case it.HideKeys():
                self.keys_shown = False
            case _:
                return False
        return True

    def _handle_friend(self, intent: it.Intent) -> bool:
        """A friend's room and the text fields of its screens; False: not one of those."""
        match intent:
            case it.PlayFriend():
                if self.rooms is not None and not self.games.asks_first(intent):
                    self.friend_play.play_friend()
            case it.OpenJoin():
                if not self.games.asks_first(intent):
                    self.friend_play.open_join()
            case it.JoinRoom(link=link):
                if self.screen is Screen.GAME and self.game_phase is not None:
                    self.games.change_mode()  # a link opened over a game (the command line's): the game is left
                if not self.games.asks_first(intent):
                    self.friend_play.join(link)
            case it.CopyLink():
                if isinstance(self.phase, WaitingForFriend) and self.phase.link:
                    self.clipboard = self.phase.link
                    self.notice = "The link is on the clipboard: paste it to your friend"
            case it.Rematch():
                self.friend_play.rematch()
            case it.ContinueVsComputer():
                self.friend_play.continue_vs_computer()
            case it.EditServer():
                if self.screen is Screen.MODE:
                    text = self.settings.room_server
                    self.phase = EnteringServer(left=self.game_phase, text=text, caret=len(text))
            case it.RegisterLinks():
                self.friend_play.register_links()
            case it.TypeText(text=typed):
                if isinstance(self.phase, EnteringText):
                    text, caret = text_entry.insert(self.phase.text, self.phase.caret, typed)
                    self.phase = dataclasses.replace(self.phase, text=text, caret=caret)
            case it.EditText(key=key):
                if isinstance(self.phase, EnteringText):
                    text, caret = text_entry.edit(self.phase.text, self.phase.caret, key)
                    self.phase = dataclasses.replace(self.phase, text=text, caret=caret)
            case it.SubmitText():
                if isinstance(self.phase, EnteringLink):
                    self.friend_play.join(self.phase.text)
                elif isinstance(self.phase, EnteringServer):
                    self.friend_play.save_server(self.phase)
            case _:
                return False
        return True

    def _cancel(self) -> None:
        if isinstance(self.phase, ReadingHelp):
            self.phase = self.phase.back
            return
        self.notice = None
        if isinstance(self.phase, RoomPhase):
            self.friend_play.leave_room_screen(self.phase)
        elif isinstance(self.phase, Question):
            self.phase = self.phase.under
        elif isinstance(self.phase, ChoosingMode) and self.phase.asking is not None:
            self.phase = dataclasses.replace(self.phase, asking=None)
        elif isinstance(self.phase, Browsing):
            self.files.close_browser()
        elif isinstance(self.phase, Editing):
            self.go_back(self.phase.left)
        elif isinstance(self.phase, Reviewing):
            self.review.back_to_game()
        elif self.entered:
            self.entered = ()
        else:
            self.hand.deselect()

    def _open_help(self, page: HelpPage, section: str | None) -> None:
        """The help screen at ``page`` and ``section`` over the phase the player is in, which Back returns
        to. The Rules shown are those of the game on screen; on the mode screen, those chosen there."""
        p = self.phase
        if isinstance(p, ReadingHelp):
            self.phase = dataclasses.replace(p, page=page, section=section)
            return
        if isinstance(p, WaitingForFriend):
            variant = variant_named(p.variant)
        else:
            variant = self.variant
        self.keys_shown = False
        self.dragging = None
        self.phase = ReadingHelp(p, variant.name, page, section)

    @staticmethod
    def game_phase_of(phase: Phase | None) -> TurnPhase | None:
        """The phase of the game that ``phase`` is over or waits to return to (None: no game)."""
        match phase:
            case Question(under=under) | Reviewing(under=under):
                return under
            case Browsing(under=under):
                return Controller.game_phase_of(under)
            case Editing(left=left):
                return Controller.game_phase_of(left)
            case ReadingHelp(back=back):
                return Controller.game_phase_of(back)
            case ChoosingMode(left=left) | RoomPhase(left=left):
                return left
            case Resuming() | None:
                return None
        return phase

    def illegal(self, text: str | None) -> None:
        """A refused attempt: the notice says why (``text``, if any), and the refusal's sound plays."""
        if text:
            self.notice = text
        self.events.append("illegal")

    # --- playing moves --------------------------------------------------------------------------

    def play(self, move: Move, route: tuple[int, ...] | None = None, offer: bool | None = None) -> None:
        """Play ``move`` for the side to move (along ``route`` when given), then enter the phase the
        game is in after it."""
        from engine.game import DrawOfferError

        p = self.in_game
        assert p is not None, "a move needs a game"
        game, mode = p.game, p.mode
        before = game.position
        offer = self.offer_armed if offer is None else offer
        if route is not None:
            move = dataclasses.replace(move, path=route)
        try:
            game.play(move, offer_draw=offer)
        except DrawOfferError as err:
            if self.is_human_turn():
                # the player asked for the offer: tell them and let them decide, the move is not played
                self.offer_armed = False
                self.hand.deselect()
                self.illegal(f"{err} Your offer was withdrawn; make your move again.")
                return
            game.play(move)  # the opponent's offer is just dropped
        piece, after = before.piece_at(move.start), game.position.piece_at(move.end)
        self.played = Played(move, before)
        self.events.append("capture" if move.captured else "move")
        if piece is not None and after is not None and not piece.king and after.king:
            self.events.append("crown")
        if mode.vs_friend and before.turn is mode.human and self.friend is not None:
            self.friend.played(move, offer)
        if offer and game.pending_offer is not None:
            self.notice = ("You offered a draw" if mode.human is not None and before.turn is mode.human
                           else f"{before.turn.label.capitalize()} offers a draw")
        else:
            self.notice = None
        self.after_change()
        self.results.game_ended(game, mode)
        self.saved.save()
        self.enter_turn(game, mode)

    def game_over(self, game: Game, mode: Mode) -> None:
        """A game that has just ended off the board (resigned, drawn by agreement): its result counted,
        the game saved, the result shown."""
        self.results.game_ended(game, mode)
        self.saved.save()
        self.phase = GameOver(game, mode)

    def after_change(self) -> None:
        """After a move, an undo, a new game: no selection, and no draw offer armed."""
        self.hand.deselect()
        self.offer_armed = False

    # --- phases and the opponent ----------------------------------------------------------------

    @staticmethod
    def phase_of(game: Game, mode: Mode) -> TurnPhase:
        """The phase ``game`` is in as it stands: over, a person's move, or the opponent's (its move,
        or its answer to the player's draw offer)."""
        if game.is_over:
            return GameOver(game, mode)
        if mode.computer is None or game.turn is not mode.computer:
            return HumanToMove(game, mode)
        if game.pending_offer is mode.human:
            return AwaitingDrawAnswer(game, mode)
        return OpponentToMove(game, mode)

    def enter_turn(self, game: Game, mode: Mode) -> None:
        """Enter the phase ``game`` is in, asking the opponent for what it waits for: its move, or
        first its answer to the player's draw offer."""
        self.resume(self.phase_of(game, mode))

    def resume(self, phase: TurnPhase) -> None:
        """Enter ``phase`` of a game, asking the opponent again what that phase waits for."""
        self.phase = phase
        self._ask(phase)

    def _ask(self, phase: TurnPhase) -> None:
        """Ask the opponent what ``phase`` waits for: its move, or its answer to the player's offer (the
        analysis is stopped before the computer is asked: they share its worker)."""
        if isinstance(phase, (OpponentToMove, AwaitingDrawAnswer)) and not phase.mode.vs_friend:
            self.studies.pause("The analysis waits while the computer thinks")
        opponent = self.opponent_for(phase.mode)
        if opponent is None:
            return
        if isinstance(phase, OpponentToMove):
            opponent.request_move(phase.game, phase.mode)
        elif isinstance(phase, AwaitingDrawAnswer):
            opponent.ask_draw(phase.game, phase.mode)

    def stop_opponent(self) -> None:
        p = self.in_game
        opponent = self.opponent_for(p.mode) if p is not None else None
        if self.waiting_for_opponent and opponent is not None:
            opponent.cancel()

    def go_back(self, phase: ChoosingMode | TurnPhase | Reviewing | Editing) -> None:
        """Return to a phase that waited (under a review, the editor or the browser): a game's turn
        asks the opponent again."""
        self.hand.deselect()
        match phase:
            case ChoosingMode() | Reviewing() | Editing():
                self.phase = phase
            case OpponentFailed(game=game, mode=mode):
                self.enter_turn(game, mode)
            case _:
                self.resume(phase)

    def update(self) -> None:
        """Once a frame: take the opponent's and the analyst's replies, the friend's room's news and the
        browser's progress (never waits). On the help screen they wait: the player sees them arrive once
        back."""
        if isinstance(self.phase, ReadingHelp):
            return
        changed = False
        if self.opponent is not None:
            for reply in self.opponent.poll():
                changed = True
                mode = self.mode
                # the computer's status always; its answers only in its own games
                if isinstance(reply, OpponentStatus) or mode is None or not mode.vs_friend:
                    self.on_reply(reply)
        friend = self.friend
        if friend is not None:
            for news in friend.poll():
                changed = True
                self.friend_play.on_news(news)
                if self.friend is not friend:  # the room was left: what else it said is moot
                    break
            changed |= self.friend_play.tick_clock()
        if self.analyst is not None:
            found = self.analyst.poll()
            for answer in found:
                self.studies.on_answer(answer)
            changed |= bool(found)
        changed |= self.files.follow_listing()
        if changed:
            self.studies.follow()
            self.version += 1

    def on_reply(self, reply: Reply) -> None:
        p = self.turn_phase
        name = self.opponent_name(p.mode) if isinstance(p, InGame) else "The computer"
        match reply:
            case OpponentStatus(text=text, ready=ready):
                self.opponent_status, self.opponent_ready = text, ready
            case DrawAnswer(accept=True) if isinstance(p, AwaitingDrawAnswer):
                p.game.accept_draw()
                self.notice = f"{name} accepted your draw offer"
                self.game_over(p.game, p.mode)
            case DrawAnswer(accept=False) if isinstance(p, AwaitingDrawAnswer):
                self.notice = f"{name} declined your draw offer"
                thinking = OpponentToMove(p.game, p.mode, declined_offer=True)
                question = self.phase
                self.resume(thinking)
                if isinstance(question, Question):  # still asked: nothing was played
                    self.phase = dataclasses.replace(question, under=thinking)
            case OpponentMove(move=move, offer_draw=offer) if isinstance(p, (OpponentToMove, AwaitingDrawAnswer)):
                # a move instead of an answer to the player's offer declines it (a friend's way); an offer
                # declined before the move is still news when the player's turn comes
                declined = isinstance(p, AwaitingDrawAnswer) or p.declined_offer
                if move not in p.game.position.legal_moves():
                    self.phase = OpponentFailed(p.game, p.mode, f"its move {move} is not legal here")
                    return
                self.play(move, move.path, offer=offer)
                if offer and p.game.pending_offer is p.mode.computer:
                    self.notice = f"{name} offers a draw"
                elif declined and self.notice is None:
                    self.notice = f"{name} declined your draw offer"
            case OpponentError(message=message) if isinstance(p, (OpponentToMove, AwaitingDrawAnswer)):
                self.phase = OpponentFailed(p.game, p.mode, message)
                self.notice = f"{message[:1].upper()}{message[1:]}. Take back your move, or start a new game."
            case DrawAnswer() | OpponentMove() | OpponentError():
                pass  # an answer nothing waits for any more
            case _:
                assert_never(reply)

    def save_settings(self) -> None:
        if self.storage is not None:
            self.storage.save_settings(self.settings)

    def attach_opponent(self, opponent: Opponent) -> None:
        """The opponent is there (the computer's process ready): ask it what the game waits for, if
        anything (a game restored before it was)."""
        self.opponent = opponent
        p = self.turn_phase
        if isinstance(p, (OpponentToMove, AwaitingDrawAnswer)):
            self._ask(p)  # under a question or the help screen too: they stay
        self.version += 1

    def close(self) -> None:
        """Stop the opponent and the analysis, leave the friend's room (stopping the game's own room
        server) and let the last save reach the disk (saved after every move)."""
        self.stop_opponent()
        if self.analyst is not None:
            self.analyst.stop()
        self.files.close_listing()
        self.friend_play.close_friend()
        if self.rooms is not None:
            self.rooms.close()
        if self.storage is not None:
            self.storage.flush()

"""The play state machine: what each press, key and button does in each phase, the opponent's turns,
and every change of phase. This module is the only one that assigns the phase or changes the game a
phase holds (a move played, taken back, a resignation, a draw agreed).

Intents come in (``game.play.intents``, from ``game.window.input`` and the panel) through
:meth:`Controller.handle`; the opponent's, the analyst's and the friend's room's news through
:meth:`Controller.update`, once a frame. What an intent does is looked up in :data:`TRANSITIONS` by
its kind and the phase's kind (``game.play.phases``): the method of :class:`Controller` that applies
it, or the reason it is refused there. Three rules lie over the table:

* the help screen takes only its own intents (the game waits under it until Back);
* a question (``ConfirmingResign``, ``ConfirmingLeave``) takes its answers and Cancel; anything
  else is done as in the phase under it, and the question stays unless that moves the phase on
  (the board works under "Resign this game?", and a move answers it);
* leaving a game that counts (a new game, Play again, a game from the mode screen, a friend's room,
  a link at launch, opening, pasting or dropping a PDN, Play from here in a review or the editor)
  asks first (:meth:`Controller._asks_first`): "Yes" (``ConfirmLeave``) counts it once, as resigning
  does (a loss at its level; a friend's game resigned), and then does what was asked; Cancel
  changes nothing.

The controller owns what every screen shows (the phase, the notice, the notes, the settings, the move
just played) and composes one object per job, each owning its state, given what it needs as
arguments and returning a :class:`~game.play.effects.Step` (a phase, effects) that
:meth:`Controller._apply` carries out: ``hand`` (the selection, a capture partly entered, the drag,
the keyboard cursor, the board flipped), ``offers`` (a draw offer armed), ``results`` (the results
table), ``studies`` (the analysis, a hint, the game report), ``friend_play`` (a friend's room and
its rematch), ``files`` (PDN in and out). The window reads them (``c.hand.targets(c.legal_moves())``)
and carries out the :class:`~game.play.effects.Outbox` each entry point returns (sounds, the
clipboard); :attr:`Controller.version` changes, in :meth:`Controller._commit` alone, whenever
anything shown may have. Nothing here touches a window, so it is tested without one.

Adding to the game:

* an intent: a dataclass in ``game.play.intents`` (and in its ``Intent`` union), a row of
  :data:`TRANSITIONS` (the phases where it applies, the method that applies it, the reason it is
  refused elsewhere) and that method, which returns None or a :class:`~game.play.effects.Refused`;
  ``tests/game/test_transitions.py`` walks every phase with it;
* a phase: a frozen dataclass in ``game.play.phases`` (in its ``Phase`` union, with its ``screen``),
  added to the rows of the intents it takes; a phase over another holds it (as ``Browsing.under``)
  and the reading functions there (``game_phase_of``, ``with_game_phase``, ``base_of``) learn it;
* a screen: a member of ``game.play.phases.Screen``, the phases that show it, and its sections in
  ``game.ui`` (``game.ui.panel`` draws the sections a phase's screen registers);
* a way to leave a game: call :meth:`Controller._asks_first` with the intent before anything is
  left, having checked first that what was asked can be done.

The other side's moves come from an *opponent* (``game.opponent``: the computer's worker, a friend's
room, a test double in tests) that never blocks.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, assert_never

from engine import Color, variant_named
from game.computer.analysis import Analyst
from game.files.saved import game_from_dict, game_in_progress, saved_game
from game.files.settings import Settings, View
from game.modes import Level, Mode
from game.opponent import DrawAnswer, Opponent, OpponentError, OpponentMove, OpponentStatus, Reply
from game.play import intents as it
from game.play import status_text, text_entry
from game.play.effects import Copy, Effect, Explain, Note, Outbox, PlayMove, Refused, Say, Sound, Step
from game.play.friend import FRIEND_AWAY_LIMIT_S, FriendPlay
from game.play.hand import Hand
from game.play.offers import Offers
from game.play.pdn import PdnFiles, close_listing
from game.play.phases import (
    ROOM_SCREEN,
    TURNS,
    AwaitingDrawAnswer,
    Browsing,
    ChoosingMode,
    ConfirmingLeave,
    ConfirmingResign,
    Editing,
    EnteringLink,
    EnteringNickname,
    EnteringServer,
    EnteringText,
    GameOver,
    HelpPage,
    HumanToMove,
    InGame,
    JoiningRoom,
    OpponentFailed,
    OpponentToMove,
    Phase,
    Played,
    Question,
    ReadingHelp,
    Resuming,
    Reviewing,
    RoomPhase,
    Screen,
    TurnPhase,
    WaitingForFriend,
    base_of,
    game_phase_of,
    help_back,
    in_friend_game,
    in_game_of,
    is_waiting_for_opponent,
    phase_of,
    shown_of,
    shown_ply_of,
    turn_of,
    unasked,
    with_game_phase,
)
from game.play.results import Results
from game.play.review import edited, game_from_here
from game.play.studies import Studies

if TYPE_CHECKING:  # at run time engine.game loads with the first game: the mode screen needs no numba
    from engine import Move, Position, Variant
    from engine.game import Game
    from engine.pdn import PdnGame
    from game.files.storage import Storage
    from game.friend.opponent import FriendOpponent, FriendReply
    from game.friend.rooms import Rooms
    from game.help import Refusal

NOT_WITH_FRIEND = "Not during a game with your friend: once it is over"


# --- the transition table --------------------------------------------------------------------------

@dataclass(frozen=True)
class On:
    """A row of the table: in ``phases`` the intent is applied by the controller's method ``apply``;
    in any other phase it is refused, because ``otherwise``."""

    phases: tuple[type, ...]
    apply: str
    otherwise: str = "Nothing to do here"


class _Under:
    """The table's answer for a question's phase and an intent that is not an answer to it: the
    intent is looked up again with the phase under the question."""

    def __repr__(self) -> str:
        return "UNDER"


UNDER = _Under()
EVERYWHERE = (ChoosingMode, Resuming, *TURNS, *ROOM_SCREEN, Reviewing, Editing, Browsing)
GAME_SCREEN = (*TURNS, Reviewing)
BOARD = (*TURNS, Reviewing, Editing)
CURSOR = (*BOARD, Resuming, Browsing)  # the screens where the board shows (the browser's: under it)
OPENS_GAMES = (ChoosingMode, *BOARD, Browsing)
HAS_GAME = (ChoosingMode, *GAME_SCREEN, Browsing, *ROOM_SCREEN)
TEXT_FIELDS = (EnteringLink, EnteringServer, EnteringNickname)
HELP_TAKES = (it.OpenHelp, it.CloseHelp, it.GoToSection, it.Cancel, it.ClipboardUnavailable)
HELP_REFUSES = "The help is open: its Back returns to the game first"
QUESTIONS_TAKE: dict[type, tuple[type, ...]] = {
    ConfirmingResign: (it.ConfirmResign, it.Cancel, it.OpenHelp, it.ClipboardUnavailable),
    ConfirmingLeave: (it.ConfirmLeave, it.Cancel, it.OpenHelp, it.ClipboardUnavailable),
}
QUESTIONS = tuple(QUESTIONS_TAKE)
NO_BOARD = "There is no board to play on here"
NO_GAME = "No game is on screen here"
NOT_BROWSING = "The list of games is not open"
NOT_EDITING = "Only the position editor has that"

TRANSITIONS: dict[type, On] = {
    # the board
    it.SquarePressed: On(BOARD, "_press", NO_BOARD),
    it.DragStarted: On(TURNS, "_start_drag", "No piece can be moved here"),
    it.PieceDropped: On(TURNS, "_drop", "No piece is being dragged"),
    it.Deselect: On(TURNS, "_deselect", "Nothing is selected here"),
    it.Cancel: On((*EVERYWHERE, *QUESTIONS, ReadingHelp), "_cancel"),
    it.CursorMove: On(CURSOR, "_cursor_move", NO_BOARD),
    it.CursorPress: On(CURSOR, "_cursor_press", NO_BOARD),
    it.PlayMoveFromList: On(TURNS, "_play_listed", "No move can be played here"),
    # the game's buttons
    it.Undo: On((*TURNS, Browsing), "_undo", "No move to take back here"),
    it.OfferDraw: On(TURNS, "_offer_draw", "A draw is offered with a move, in a game"),
    it.AcceptDraw: On(TURNS, "_accept_draw", "No draw is offered to you here"),
    it.Resign: On(TURNS, "_ask_resign", "No game to resign here"),
    it.ConfirmResign: On((ConfirmingResign,), "_resign", "Nothing asks to resign"),
    it.PlayAgain: On(GAME_SCREEN, "_play_again", "Play again is for a game on screen"),
    it.ConfirmLeave: On((ConfirmingLeave,), "_confirm_leave", "Nothing asks to leave a game"),
    it.Rematch: On(TURNS, "_rematch", "A rematch is asked for after a game with your friend"),
    it.ContinueVsComputer: On((ChoosingMode, *GAME_SCREEN), "_continue_vs_computer",
                              "Continue vs computer is for a friend's game whose friend is gone"),
    # the mode screen, the settings, the view, the help
    it.ChangeMode: On(EVERYWHERE, "_change_mode"),
    it.ChooseRules: On(EVERYWHERE, "_choose_rules"),
    it.ToggleMoreRules: On((ChoosingMode,), "_toggle_more_rules", "The rule sets are listed on the mode screen"),
    it.StartGame: On(EVERYWHERE, "_start_game"),
    it.ContinueSaved: On((ChoosingMode,), "_continue_left", "No game left to go back to here"),
    it.FlipBoard: On(EVERYWHERE, "_flip_board"),
    it.SetView: On(EVERYWHERE, "_set_view"),
    it.ToggleSetting: On(EVERYWHERE, "_toggle_setting"),
    it.DismissNotes: On(EVERYWHERE, "_dismiss_notes"),
    it.OpenHelp: On((*EVERYWHERE, *QUESTIONS, ReadingHelp), "_open_help"),
    it.CloseHelp: On((ReadingHelp,), "_close_help", "The help is not open"),
    it.GoToSection: On((ReadingHelp,), "_go_to_section", "The help is not open"),
    it.ShowKeys: On((*GAME_SCREEN, Resuming, Browsing), "_show_keys",
                    "The keys card shows over a game; F1 opens the Controls page"),
    it.HideKeys: On(EVERYWHERE, "_hide_keys"),
    # a friend's room and its text fields
    it.PlayFriend: On((ChoosingMode,), "_play_friend", "A friend's game is opened from the mode screen"),
    it.PlayOnline: On((ChoosingMode,), "_play_online", "Someone to play online is looked for from the mode screen"),
    it.EditNickname: On((ChoosingMode,), "_edit_nickname", "The nickname is set on the mode screen"),
    it.OpenJoin: On((ChoosingMode,), "_open_join", "A friend's room is joined from the mode screen"),
    it.JoinRoom: On(EVERYWHERE, "_join_room"),
    it.CopyLink: On((WaitingForFriend,), "_copy_link", "No room's link to copy here"),
    it.EditServer: On((ChoosingMode,), "_edit_server", "The room server is set on the mode screen"),
    it.RegisterLinks: On(EVERYWHERE, "_register_links"),
    it.TypeText: On(TEXT_FIELDS, "_type_text", "No text field here"),
    it.EditText: On(TEXT_FIELDS, "_edit_text", "No text field here"),
    it.SubmitText: On(TEXT_FIELDS, "_submit_text", "No text field here"),
    # the review, the editor, the engine beside the board
    it.ReviewStep: On(GAME_SCREEN, "_review_step", "No game to step through here"),
    it.ReviewTo: On(GAME_SCREEN, "_review_to", "No game to step through here"),
    it.BackToGame: On((Reviewing,), "_back_to_game", "Not in a review"),
    it.PlayFromHere: On((*BOARD, Browsing), "_play_from_here", "No position to play on from here"),
    it.EditPosition: On((ChoosingMode, *GAME_SCREEN, Browsing), "_edit_position",
                        "The editor opens from the mode screen or a game"),
    it.ChooseTool: On((Editing,), "_edit_board", NOT_EDITING),
    it.SetTurn: On((Editing,), "_edit_board", NOT_EDITING),
    it.ClearBoard: On((Editing,), "_edit_board", NOT_EDITING),
    it.StartPosition: On((Editing,), "_edit_board", NOT_EDITING),
    it.ToggleAnalysis: On((*GAME_SCREEN, Browsing), "_toggle_analysis", "No game to analyse here"),
    it.Hint: On(TURNS, "_hint", "A hint is for your move in a game against the computer"),
    it.AnalyzeGame: On((*GAME_SCREEN, Browsing), "_analyze_game", "No game to analyse here"),
    # files and the clipboard
    it.SaveGame: On(HAS_GAME, "_save_game", "No game to save here"),
    it.CopyPdn: On(HAS_GAME, "_copy_pdn", "No game to copy here"),
    it.CopyFen: On((*BOARD, Browsing), "_copy_fen", "No position to copy here"),
    it.PasteFromClipboard: On((), "_paste", "The window reads the clipboard for that button and sends its text"),
    it.Pasted: On(EVERYWHERE, "_paste"),
    it.OpenFile: On(OPENS_GAMES, "_open_file", "Games are opened from the mode screen, a game or the editor"),
    it.OpenBrowser: On(OPENS_GAMES, "_open_browser", "Games are opened from the mode screen, a game or the editor"),
    it.CloseBrowser: On((Browsing,), "_close_browser", NOT_BROWSING),
    it.BrowserPage: On((Browsing,), "_browser_page", NOT_BROWSING),
    it.OpenListedGame: On((Browsing,), "_open_listed", NOT_BROWSING),
    # the window's reports
    it.ClipboardUnavailable: On((*EVERYWHERE, *QUESTIONS, ReadingHelp), "_clipboard_unavailable"),
    it.Greyed: On(EVERYWHERE, "_greyed", "Nothing here can be pressed"),
}


def transition(phase: type, intent: type) -> str | Refused | _Under:
    """What an intent of kind ``intent`` does in a phase of kind ``phase``: the name of the
    :class:`Controller` method that applies it, :data:`UNDER` (a question's phase: as in the phase
    under it), or why it is refused. A kind that is not an intent is a KeyError."""
    row = TRANSITIONS[intent]
    if phase is ReadingHelp and intent not in HELP_TAKES:
        return Refused(HELP_REFUSES)
    if phase in QUESTIONS_TAKE and intent not in QUESTIONS_TAKE[phase]:
        return UNDER
    return row.apply if phase in row.phases else Refused(row.otherwise)


assert set(TRANSITIONS) == set(typing.get_args(it.Intent)), "every intent has a row"


class Controller:
    """The whole play state (see the module's docstring). ``storage`` keeps the game, the results and
    the settings (None: nothing is kept); ``opponent`` plays the other side against a person (the
    computer), ``analyst`` analyses (the same computer; both may come later, :meth:`attach_opponent`);
    ``rooms`` opens friends' rooms (None: no friend can be played, :meth:`attach_rooms`)."""

    def __init__(self, opponent: Opponent | None = None, storage: Storage | None = None,
                 analyst: Analyst | None = None, rooms: Rooms | None = None,
                 friend_away_limit_s: float = FRIEND_AWAY_LIMIT_S) -> None:
        self.opponent = opponent
        self.storage = storage
        self.phase: Phase = ChoosingMode()
        self.settings = storage.load_settings() if storage is not None else Settings()
        self.notice: str | None = None  # a one-off explanation under the status line
        self.refusal: Refusal | None = None  # why the rules refused the last attempted move (the notice, while it says so)
        self.keys_shown = False  # the keys overlay ("?") is over the game
        self.notes: list[str] = storage.take_notes() if storage is not None else []  # files set aside ...
        self.played: Played | None = None  # the move just played, for the animation
        self.opponent_status = ""  # how the opponent is getting ready, until opponent_ready
        self.opponent_ready = True
        self.version = 0  # changes whenever anything shown may have (_commit)
        # the jobs (see the module's docstring)
        self.hand = Hand()
        self.offers = Offers()
        self.results = Results(storage)
        self.studies = Studies(analyst)
        self.friend_play = FriendPlay(rooms, friend_away_limit_s)
        self.files = PdnFiles(storage)
        self._sounds: list[str] = []  # the outbox being filled
        self._clipboard: str | None = None

    # --- derived state --------------------------------------------------------------------------

    @property
    def screen(self) -> Screen:
        return self.phase.screen

    @property
    def left_for_help(self) -> Phase:
        """The phase under the help screen (the one Back returns to); else the phase itself."""
        return help_back(self.phase)

    @property
    def turn_phase(self) -> Phase:
        """The phase under the questions and the help screen: who acts in the game (nobody in a
        review, the editor or the browser)."""
        return turn_of(self.phase)

    @property
    def base_phase(self) -> Phase:
        """The phase on screen under the leaving question and the PDN browser."""
        return base_of(self.phase)

    @property
    def in_game(self) -> InGame | None:
        """The phase of the game on screen (a review too, and under the browser); None elsewhere."""
        return in_game_of(self.phase)

    @property
    def reviewing(self) -> Reviewing | None:
        p = self.base_phase
        return p if isinstance(p, Reviewing) else None

    @property
    def editing(self) -> Editing | None:
        p = self.base_phase
        return p if isinstance(p, Editing) else None

    @property
    def asking(self) -> ConfirmingLeave | None:
        """The question before leaving a game that counts, while it is asked."""
        return self.phase if isinstance(self.phase, ConfirmingLeave) else None

    @property
    def game_phase(self) -> TurnPhase | None:
        """The phase of the game going on (on screen, or under the help screen, a question, a review,
        the editor or the browser), or of the one the mode and room screens hold (to go back to)."""
        return game_phase_of(self.phase)

    @property
    def game(self) -> Game | None:
        """The game on screen (or under the help screen or the browser); on the mode and room screens
        the one left there (None at launch, while a saved game is resumed, and in the editor)."""
        p = shown_of(self.phase)
        if isinstance(p, (ChoosingMode, RoomPhase)):
            return p.left.game if p.left is not None else None
        return p.game if isinstance(p, InGame) else None

    @property
    def mode(self) -> Mode | None:
        """How the game on screen (or being resumed, or left for the mode screen) is played."""
        p = shown_of(self.phase)
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
        return shown_ply_of(self.phase)

    def shown_position(self) -> Position | None:
        """The position on the board: the review's, the editor's, or the game's as it stands."""
        editing = self.editing
        if editing is not None:
            return editing.setup.position()
        p = self.in_game
        return p.game.positions[self.shown_ply()] if p is not None else None

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
        return is_waiting_for_opponent(self.phase)

    def is_human_turn(self) -> bool:
        """Whether a person may move now (not the opponent's turn, game not over; against a friend,
        only while the room is connected, so no move is made that the room can't hear)."""
        p = self.turn_phase
        return isinstance(p, HumanToMove) and (not p.mode.vs_friend or self.friend_play.connection == "connected")

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
        return self.friend_play.friend if mode.vs_friend else self.opponent

    def move_text(self, move: Move, position: Position | None = None) -> str:
        """A move as the notation setting writes it on screen (``c3-d4`` / ``11-15``; ``c3×e5`` for a
        capture, as the specification writes it; PDN files and the command line keep ``x``)."""
        if position is None:
            game = self.game
            assert game is not None, "a move's text needs its position"
            position = game.position
        return position.move_text(move, numeric=self.settings.notation.numeric(position.variant)).replace("x", "×")

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

    def status(self) -> str:
        return status_text.status(self)

    def leaving_counts(self) -> bool:
        """Whether playing from the position shown, or opening a game, would leave a game against the
        computer that counts as a loss (the panel says so beside those buttons)."""
        live = self.game_phase
        reviewing = self.reviewing
        return (live is not None and Results.abandons(live)
                and not (reviewing is not None and reviewing.game is live.game))

    def pdn(self) -> PdnGame | None:
        """The game on screen as PDN (``game.play.pdn``)."""
        return self.files.pdn(self.game, self.mode, self.studies.current_report(self.game))

    # --- the entry points -------------------------------------------------------------------------

    def handle(self, intent: it.Intent) -> Outbox:
        """Apply one intent as the table says (anything else is a TypeError); what the window is to
        do comes back in the outbox, with the reason when the phase refused it."""
        if type(intent) not in TRANSITIONS:
            raise TypeError(f"the controller has no intent {intent!r}")
        refused = self._refuse(self._dispatch(intent))
        self._apply(self.studies.follow(self.phase))
        self._commit()
        return self._outbox(refused)

    def update(self) -> Outbox:
        """Once a frame: take the opponent's and the analyst's replies, the friend's room's news and the
        browser's progress (never waits). On the help screen they wait: the player sees them arrive once
        back."""
        if isinstance(self.phase, ReadingHelp):
            return self._outbox()
        changed = False
        if self.opponent is not None:
            for reply in self.opponent.poll():
                changed = True
                mode = self.mode
                # the computer's status always; its answers only in its own games
                if isinstance(reply, OpponentStatus) or mode is None or not mode.vs_friend:
                    self._on_reply(reply)
        friend = self.friend_play.friend
        if friend is not None:
            for news in friend.poll():
                changed = True
                self._on_news(news)
                if self.friend_play.friend is not friend:  # the room was left: what else it said is moot
                    break
            changed |= self.friend_play.tick_clock(self.phase)
        analyst = self.studies.analyst
        if analyst is not None:
            found = analyst.poll()
            for answer in found:
                self._apply(self.studies.on_answer(answer))
            changed |= bool(found)
        if isinstance(self.phase, Browsing):
            seen, step, single = self.files.follow(self.phase)
            self._apply(step)
            if single is not None:
                self._refuse(self._open_pdn(single, it.OpenListedGame(0)))
            changed |= seen
        if changed:
            self._apply(self.studies.follow(self.phase))
            self._commit()
        return self._outbox()

    def attach_opponent(self, opponent: Opponent, analyst: Analyst | None = None) -> Outbox:
        """The opponent is there (the computer's process ready; ``analyst`` on it too): ask it what the
        game waits for, if anything (a game restored before it was)."""
        self.opponent = opponent
        if analyst is not None:
            self.studies.analyst = analyst
        p = self.turn_phase
        if isinstance(p, (OpponentToMove, AwaitingDrawAnswer)):
            self._ask(p)  # under a question or the help screen too: they stay
        self._commit()
        return self._outbox()

    def attach_rooms(self, rooms: Rooms) -> None:
        """Friends' rooms can be opened (friend play replays games: once the rules engine is ready)."""
        self.friend_play.rooms = rooms

    def expect_saved_game(self) -> bool:
        """At launch, before the rules engine has loaded: if a game in progress was saved, show the
        game screen at once (:class:`Resuming`) until :meth:`restore` can rebuild it (a friend's game
        goes to the mode screen, which offers its room back). Reads the file only."""
        found = game_in_progress(self.storage.peek_game() if self.storage is not None else None)
        if found is None:
            return False  # none, finished, or not readable here: the mode screen, as before
        self.phase = Resuming(*found)
        self._commit()
        return True

    def restore(self) -> bool:
        """Load the saved game in progress (if any and not finished) and show it; False if none. A
        player reading the help meanwhile stays there, and Back leads to the game."""
        reading = self.phase if isinstance(self.phase, ReadingHelp) else None
        restored = self._restore()
        if reading is not None and self.phase is not reading:
            back = self.phase
            assert not isinstance(back, ReadingHelp)
            self.phase = dataclasses.replace(reading, back=back)
        self._commit()
        return restored

    def open_game(self, game: Game, mode: Mode, flipped: bool = False) -> None:
        """Show ``game`` (played as ``mode``) on the game screen, in the phase it is in."""
        self.hand.flipped = flipped
        self.results.recorded = game.is_over
        self._after_change()
        self.hand.home(game.variant, mode.human if mode.human is not None else game.variant.first_player)
        self._enter_turn(game, mode)
        self._commit()

    def close(self) -> None:
        """Stop the opponent and the analysis, leave the friend's room (stopping the game's own room
        server) and let the last save reach the disk (saved after every move)."""
        self._stop_opponent()
        if self.studies.analyst is not None:
            self.studies.analyst.stop()
        close_listing(self.phase)
        self.friend_play.close()
        if self.friend_play.rooms is not None:
            self.friend_play.rooms.close()
        if self.storage is not None:
            self.storage.flush()

    # --- applying changes -----------------------------------------------------------------------

    def _dispatch(self, intent: it.Intent) -> Refused | None:
        """Apply ``intent`` as the table says in this phase; returns the refusal, if it was refused."""
        rule = transition(type(self.phase), type(intent))
        if rule is UNDER:
            question = self.phase
            assert isinstance(question, (ConfirmingResign, ConfirmingLeave))
            under = question.over if isinstance(question, ConfirmingLeave) else question.under
            self.phase = under
            try:
                return self._dispatch(intent)
            finally:
                if self.phase is under:  # nothing moved on: the question is still asked
                    self.phase = question
        if isinstance(rule, Refused):
            return rule
        assert isinstance(rule, str)
        return getattr(self, rule)(intent)

    def _refuse(self, refused: Refused | None) -> Refused | None:
        """A refusal that is said: the notice says why, with the refusal's sound."""
        if refused is not None and refused.said:
            self._apply(Step(effects=(Say(refused.reason), Sound("illegal"))))
        return refused

    def _apply(self, step: Step | Refused | None) -> Refused | None:
        """Carry out what a job returned: the phase it enters, then its effects in order (a refusal is
        handed back, for the intent's answer)."""
        if step is None or isinstance(step, Refused):
            return step
        if step.phase is not None:
            self.phase = step.phase
        for effect in step.effects:
            self._effect(effect)
        return None

    def _effect(self, effect: Effect) -> None:
        match effect:
            case Say(text=text):
                self.notice = text
            case Sound(name=name):
                self._sounds.append(name)
            case Note(text=text):
                self.notes.append(text)
            case Copy(text=text):
                self._clipboard = text
            case Explain(refusal=refusal, otherwise=otherwise):
                self.refusal = refusal
                text = refusal.message if refusal is not None else otherwise
                if text:
                    self.notice = text
                self._sounds.append("illegal")
            case PlayMove(move=move, route=route):
                self._play(move, route)
            case _:
                assert_never(effect)

    def _commit(self) -> None:
        """Something shown may have changed: the one place the version moves."""
        self.version += 1

    def _outbox(self, refused: Refused | None = None) -> Outbox:
        out = Outbox(tuple(self._sounds), self._clipboard, refused.reason if refused is not None else None)
        self._sounds, self._clipboard = [], None
        return out

    def _say(self, text: str | None) -> None:
        self._apply(Step(effects=(Say(text),)))

    # --- the board --------------------------------------------------------------------------------

    def _press(self, intent: it.SquarePressed) -> Refused | None:
        return self._press_square(intent.square, intent.outside)

    def _press_square(self, square: int | None, outside: bool) -> Refused | None:
        p = self.phase
        if isinstance(p, Editing):
            if square is not None and not outside:
                self.phase = dataclasses.replace(p, setup=p.setup.press(square, p.tool))
            return None
        game = self.game
        if isinstance(p, Reviewing) and square is not None and game is not None and Hand.is_own_piece(game.position, square):
            self._say("This is a review: press “Play from here” to play on from this position")
            return None
        legal = self.legal_moves()
        if not legal or game is None:
            return self._not_your_turn(square)
        return self._apply(self.hand.press(square, outside, legal, game.position))

    def _not_your_turn(self, square: int | None) -> Refused:
        """A press while the player can't move; on one of their pieces, say who is to (it would
        otherwise do nothing at all)."""
        p, game = self.turn_phase, self.game
        piece = game.position.piece_at(square) if game is not None and square is not None else None
        if piece is not None and isinstance(p, InGame) and piece.color is p.mode.human:
            if isinstance(p, (OpponentToMove, AwaitingDrawAnswer)):
                self._say("It's your friend's turn" if p.mode.vs_friend else "Wait: the computer is thinking")
            elif isinstance(p, HumanToMove) and p.mode.vs_friend:
                self._say("Not connected to the room: you can move once the connection is back")
        return Refused("It is not your move")

    def _start_drag(self, intent: it.DragStarted) -> Refused | None:
        game = self.game
        assert game is not None
        return self._apply(self.hand.start_drag(intent.square, self.legal_moves(), game.position))

    def _drop(self, intent: it.PieceDropped) -> Refused | None:
        game = self.game
        assert game is not None
        return self._apply(self.hand.drop(intent.start, intent.square, self.legal_moves(), game.position))

    def _greyed(self, intent: it.Greyed) -> Refused:
        """A greyed control pressed: it says why it does nothing now, as a refused move does."""
        return Refused(intent.reason, said=True)

    def _deselect(self, intent: it.Deselect) -> None:
        self.hand.deselect()
        self.notice = None

    def _cancel(self, intent: it.Cancel) -> None:
        """Esc: close the help, a question, the room screen, the browser, the editor or a review; else
        take back a capture partly entered, else deselect."""
        p = self.phase
        if isinstance(p, ReadingHelp):
            self.phase = p.back
            return
        self.notice = None
        if isinstance(p, RoomPhase):
            self._apply(self.friend_play.leave_room_screen(p))
        elif isinstance(p, Question):
            self.phase = p.under
        elif isinstance(p, ConfirmingLeave):
            self.phase = p.over
        elif isinstance(p, Browsing):
            close_listing(p)
            self._go_back(p.under)
        elif isinstance(p, Editing):
            self._go_back(p.left)
        elif isinstance(p, Reviewing):
            self._back_to_game(it.BackToGame())
        elif self.hand.entered:
            self.hand.entered = ()
        else:
            self.hand.deselect()

    def _cursor_move(self, intent: it.CursorMove) -> Refused | None:
        if self.reviewing is not None and intent.dx:  # Left and Right step through a review
            return self._review_to(it.ReviewTo(self.shown_ply() + intent.dx))
        if self.screen not in (Screen.GAME, Screen.EDITOR):
            return Refused(NO_BOARD)
        self.hand.move_cursor(intent.dx, intent.dy, self.variant, self.hand.second_side_near(self.variant, self.mode))
        return None

    def _cursor_press(self, intent: it.CursorPress) -> Refused | None:
        if self.screen not in (Screen.GAME, Screen.EDITOR):
            return Refused(NO_BOARD)
        self.hand.cursor_visible = True
        return self._press_square(self.hand.cursor_square(self.variant), False)

    def _play_listed(self, intent: it.PlayMoveFromList) -> Refused | None:
        if intent.move not in self.legal_moves():
            return Refused("That move can't be played now")
        self._play(intent.move)
        return None

    # --- moves and the game's end -----------------------------------------------------------------

    def _play(self, move: Move, route: tuple[int, ...] | None = None, offer: bool | None = None) -> None:
        """Play ``move`` for the side to move (along ``route`` when given), then enter the phase the
        game is in after it."""
        from engine.game import DrawOfferError

        p = self.in_game
        assert p is not None, "a move needs a game"
        game, mode = p.game, p.mode
        before = game.position
        offer = self.offers.armed if offer is None else offer
        if route is not None:
            move = dataclasses.replace(move, path=route)
        try:
            game.play(move, offer_draw=offer)
        except DrawOfferError as err:
            if self.is_human_turn():
                # the player asked for the offer: tell them and let them decide, the move is not played
                self.offers.armed = False
                self.hand.deselect()
                self._apply(Step(effects=(Say(f"{err} Your offer was withdrawn; make your move again."), Sound("illegal"))))
                return
            game.play(move)  # the opponent's offer is just dropped
        piece, after = before.piece_at(move.start), game.position.piece_at(move.end)
        self.played = Played(move, before)
        self._sounds.append("capture" if move.captured else "move")
        if piece is not None and after is not None and not piece.king and after.king:
            self._sounds.append("crown")
        if mode.vs_friend and before.turn is mode.human:
            self.friend_play.tell_move(move, offer)
        if offer and game.pending_offer is not None:
            self.notice = ("You offered a draw" if mode.human is not None and before.turn is mode.human
                           else f"{game.variant.side_name(before.turn)} offers a draw")
        else:
            self.notice = None
        self._after_change()
        self._apply(self.results.game_ended(game, mode))
        self._save()
        self._enter_turn(game, mode)

    def _game_over(self, game: Game, mode: Mode) -> None:
        """A game that has just ended off the board (resigned, drawn by agreement): its result counted,
        the game saved, the result shown."""
        self._apply(self.results.game_ended(game, mode))
        self._save()
        self.phase = GameOver(game, mode)

    def _after_change(self) -> None:
        """After a move, an undo, a new game: no selection, and no draw offer armed."""
        self.hand.deselect()
        self.offers.armed = False

    def _undo(self, intent: it.Undo) -> Refused | None:
        p = self.in_game
        if p is None or not Offers.can_undo(p):
            return Refused("No move to take back here")
        game, mode = p.game, p.mode
        self.notice = None
        if game.outcome is not None:
            self.results.record(game, mode, -1)
        self._stop_opponent()
        game.undo()
        if mode.vs_computer:
            while game.moves and game.turn is not mode.human:
                game.undo()
        self._after_change()
        self.played = None
        self._save()
        self._enter_turn(game, mode)
        return None

    def _offer_draw(self, intent: it.OfferDraw) -> Refused | None:
        return self._apply(self.offers.toggle(self.turn_phase))

    def _accept_draw(self, intent: it.AcceptDraw) -> Refused | None:
        p = self.turn_phase
        if not (isinstance(p, HumanToMove) and Offers.pending_for_player(p) and self.is_human_turn()):
            return Refused("No draw is offered to you now")
        self.notice = None
        p.game.accept_draw()
        if p.mode.vs_friend:
            self.friend_play.tell_draw_accepted()
        self._after_change()
        self._game_over(p.game, p.mode)
        return None

    def _ask_resign(self, intent: it.Resign) -> Refused | None:
        """"Resign" asks first, in a game going on."""
        p = self.turn_phase
        if not isinstance(p, TURNS) or p.game.is_over:
            return Refused("No game going on to resign")
        self.phase = ConfirmingResign(p.game, p.mode, under=p)
        return None

    def _resign(self, intent: it.ConfirmResign) -> Refused | None:
        p = self.phase
        assert isinstance(p, ConfirmingResign)
        if p.game.is_over:
            return Refused("The game is over already")
        if p.mode.vs_friend and self.friend_play.connection != "connected":
            self.phase = p.under
            return Refused("Not connected to the room: resign once the connection is back", said=True)
        self.notice = None
        self._stop_opponent()
        p.game.resign(p.mode.human if p.mode.human is not None else p.game.turn)
        if p.mode.vs_friend:
            self.friend_play.tell_resigned()
        self._after_change()
        self._game_over(p.game, p.mode)
        return None

    # --- leaving a game that counts ---------------------------------------------------------------

    def _asks_first(self, then: it.Intent, keep: Game | None = None) -> bool:
        """The rule for every way of leaving a game: if ``then`` would leave a game that counts (the
        one going on, or left on the mode screen; not when the new game goes on from ``keep``'s own
        moves, like taking moves back), ask first, and return True; the player confirms
        (:meth:`_confirm_leave`) or cancels."""
        live = self.game_phase
        if live is None or live.game is keep or not Results.counts_when_left(live):
            return False
        over = unasked(self.phase)
        if isinstance(over, (RoomPhase, Resuming, ReadingHelp)):
            return False  # the room screen holds a game left only once it was asked about (or counts for nothing)
        assert isinstance(over, (ChoosingMode, *TURNS, Reviewing, Editing, Browsing)), over
        self.phase = ConfirmingLeave(typing.cast(ChoosingMode | TurnPhase | Reviewing | Editing | Browsing, over), live, then)
        return True

    def _confirm_leave(self, intent: it.ConfirmLeave) -> Refused | None:
        """Yes to the question: the game left counts once (resigned: a loss at its level, or a friend's
        game given up), then what was asked is done from where it was asked."""
        q = self.phase
        assert isinstance(q, ConfirmingLeave)
        game, mode = q.leaving.game, q.leaving.mode
        self._stop_opponent()
        game.resign(mode.human if mode.human is not None else game.turn)
        if mode.vs_friend:
            self.friend_play.tell_resigned()
        self.results.record(game, mode, +1)
        self._save(game, mode)
        self.phase = with_game_phase(q.over, GameOver(game, mode))
        return self._dispatch(q.then)

    # --- games beginning and left -----------------------------------------------------------------

    def _change_mode(self, intent: it.ChangeMode) -> None:
        """To the mode screen, with the rules of the game left there chosen (from the room screen:
        as Cancel)."""
        if isinstance(self.phase, RoomPhase):
            self._apply(self.friend_play.leave_room_screen(self.phase))
            return
        self._stop_opponent()
        close_listing(self.phase)
        left = self.game_phase
        if left is not None and left.mode.vs_friend:
            self.friend_play.close()  # the seat stays the player's: "Return to the game with your friend"
        self.phase = ChoosingMode(left=left)
        if left is not None and self.settings.variant != left.game.variant.name:
            self.settings.variant = left.game.variant.name
            self._save_settings()
        self.hand.deselect()

    def _start_game(self, intent: it.StartGame) -> None:
        if self._asks_first(intent):
            return
        variant = variant_named(self.settings.variant)
        if intent.level is None:
            mode = Mode()
        else:
            first = variant.first_player
            mode = Mode(Level(intent.level), first.opponent if intent.play_second else first)
        self._new_game(variant, mode)

    def _play_again(self, intent: it.PlayAgain) -> Refused | None:
        """A new game with the same rules and the same way of playing (from a review of it too); after
        a friend's game, the rematch."""
        if isinstance(self.phase, Reviewing) and self.phase.under is not None:
            self._back_to_game(it.BackToGame())
        p = self.turn_phase
        if isinstance(p, InGame) and not isinstance(p, Reviewing) and p.mode.vs_friend:
            return self._rematch(it.Rematch())
        if not isinstance(p, InGame):
            return Refused("Play again is for a game on screen")
        if not isinstance(p, Reviewing) and self._asks_first(intent):
            return None
        self._new_game(p.game.variant, p.mode)
        return None

    def _new_game(self, variant: Variant, mode: Mode) -> None:
        from engine.game import Game

        self._stop_opponent()
        self.friend_play.leave_rooms()
        close_listing(self.phase)
        self.hand.flipped = False
        self.played = None
        self.notice = None
        self.files.source = None
        self.results.recorded = False
        self._after_change()
        game = Game(variant)
        self.hand.home(variant, mode.human if mode.human is not None else variant.first_player)
        self._enter_turn(game, mode)
        self._save()

    def _continue_left(self, intent: it.ContinueSaved) -> Refused | None:
        """Back to the game left for the mode screen, in its phase; a failed opponent is asked again,
        a friend's room is returned to."""
        p = self.phase
        assert isinstance(p, ChoosingMode)
        left = p.left
        if left is None:
            return Refused("No game left to go back to")
        if left.mode.vs_friend:
            if not self.friend_play.can_return_to_room(p):
                return Refused("The room of that game closed with the game that hosted it")
            self._apply(self.friend_play.return_to_room(left))
        elif isinstance(left, OpponentFailed):
            self._enter_turn(left.game, left.mode)
        else:
            self._resume(left)
        return None

    def _play_from_here(self, intent: it.PlayFromHere) -> Refused | None:
        """A new game from the position shown (the review's, the editor's or the game's as it stands);
        against the computer the person plays the side to move."""
        p = self.base_phase
        if not isinstance(p, (Editing, InGame)):
            return Refused("No position to play on from here")
        variant = p.setup.variant if isinstance(p, Editing) else p.game.variant
        made = game_from_here(p, self.shown_ply(), numeric=self.settings.notation.numeric(variant))
        if isinstance(made, Refused):
            return made
        game, notice = made
        if self._asks_first(intent, keep=p.game if isinstance(p, Reviewing) else None):
            return None
        self._stop_opponent()
        close_listing(self.phase)
        self.friend_play.leave_rooms()
        mode = Mode(Level(intent.level), game.turn) if intent.level is not None else Mode()
        self.hand.flipped = False
        self.played = None
        self.files.source = None
        self.results.recorded = False
        self._after_change()
        self.hand.cursor = Hand.home_cursor(game.variant, mode.human if mode.human is not None else game.turn)
        self._enter_turn(game, mode)
        self.notice = notice
        self._save()
        return None

    # --- the opponent's turns ---------------------------------------------------------------------

    def _enter_turn(self, game: Game, mode: Mode) -> None:
        """Enter the phase ``game`` is in, asking the opponent for what it waits for: its move, or
        first its answer to the player's draw offer."""
        self._resume(phase_of(game, mode))

    def _resume(self, phase: TurnPhase) -> None:
        """Enter ``phase`` of a game, asking the opponent again what that phase waits for."""
        self.phase = phase
        self._ask(phase)

    def _ask(self, phase: TurnPhase) -> None:
        """Ask the opponent what ``phase`` waits for: its move, or its answer to the player's offer (the
        analysis is paused before the computer is asked: they share its worker)."""
        if isinstance(phase, (OpponentToMove, AwaitingDrawAnswer)) and not phase.mode.vs_friend:
            self._apply(self.studies.pause("The analysis waits while the computer thinks"))
        opponent = self.opponent_for(phase.mode)
        if opponent is None:
            return
        if isinstance(phase, OpponentToMove):
            opponent.request_move(phase.game, phase.mode)
        elif isinstance(phase, AwaitingDrawAnswer):
            opponent.ask_draw(phase.game, phase.mode)

    def _stop_opponent(self) -> None:
        p = self.in_game
        opponent = self.opponent_for(p.mode) if p is not None else None
        if self.waiting_for_opponent and opponent is not None:
            opponent.cancel()

    def _go_back(self, phase: ChoosingMode | TurnPhase | Reviewing | Editing) -> None:
        """Return to a phase that waited (under a review, the editor or the browser): a game's turn
        asks the opponent again."""
        self.hand.deselect()
        match phase:
            case ChoosingMode() | Reviewing() | Editing():
                self.phase = phase
            case OpponentFailed(game=game, mode=mode):
                self._enter_turn(game, mode)
            case _:
                self._resume(phase)

    def _on_reply(self, reply: Reply) -> None:
        p = self.turn_phase
        name = p.mode.opponent_words(capital=True) if isinstance(p, InGame) else "The computer"
        match reply:
            case OpponentStatus(text=text, ready=ready):
                self.opponent_status, self.opponent_ready = text, ready
            case DrawAnswer(accept=True) if isinstance(p, AwaitingDrawAnswer):
                p.game.accept_draw()
                self.notice = f"{name} accepted your draw offer"
                self._game_over(p.game, p.mode)
            case DrawAnswer(accept=False) if isinstance(p, AwaitingDrawAnswer):
                self.notice = f"{name} declined your draw offer"
                thinking = OpponentToMove(p.game, p.mode, declined_offer=True)
                question = self.phase
                self._resume(thinking)
                if isinstance(question, (Question, ConfirmingLeave)):  # still asked: nothing was played
                    self.phase = with_game_phase(question, thinking)
            case OpponentMove(move=move, offer_draw=offer) if isinstance(p, (OpponentToMove, AwaitingDrawAnswer)):
                # a move instead of an answer to the player's offer declines it (a friend's way); an offer
                # declined before the move is still news when the player's turn comes
                declined = isinstance(p, AwaitingDrawAnswer) or p.declined_offer
                if move not in p.game.position.legal_moves():
                    self.phase = OpponentFailed(p.game, p.mode, f"its move {move} is not legal here")
                    return
                self._play(move, move.path, offer=offer)
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

    # --- a friend's room --------------------------------------------------------------------------

    def _play_friend(self, intent: it.PlayFriend) -> Refused | None:
        """"Play a friend (send a link)": open a room with the rules chosen, and wait for the friend."""
        if self.friend_play.rooms is None:
            return Refused("A friend can be played once the rules engine has loaded")
        if self._asks_first(intent):
            return None
        return self._apply(self.friend_play.open_room(self.game_phase, self.settings.variant, self.settings.room_server,
                                                      self.settings.friend_clock))

    def missing_room_server(self) -> str | None:
        """Why "Play someone online" can't look for anybody while Settings name no room server (the
        button is greyed then); None once one is set."""
        if self.settings.room_server.strip():
            return None
        return ("Play someone online needs a room server that both players reach: give its address under "
                "Settings, “Room server”, or run one (checkers3d-server, see the README)")

    def online_refusal(self) -> str | None:
        """Why "Play someone online" can't look for an opponent now (None: it can)."""
        missing = self.missing_room_server()
        if missing is None and self.friend_play.rooms is None:
            return "Someone can be played online once the rules engine has loaded"
        return missing

    def _play_online(self, intent: it.PlayOnline) -> Refused | None:
        """"Play someone online": the nickname first if there is none, then (after the question, when a
        game that counts is left) wait on the room server for the next player seeking these rules."""
        refusal = self.online_refusal()
        if refusal is not None:
            return Refused(refusal, said=True)
        nickname = self.settings.nickname.strip()
        if not nickname:
            self.phase = EnteringNickname(left=self.game_phase, seek=True)
            return None
        if self._asks_first(intent):
            return None
        return self._apply(self.friend_play.seek(self.game_phase, self.settings.variant, self.settings.room_server,
                                                 nickname))

    def _edit_nickname(self, intent: it.EditNickname) -> None:
        text = self.settings.nickname
        self.phase = EnteringNickname(left=self.game_phase, text=text, caret=len(text))

    def _open_join(self, intent: it.OpenJoin) -> None:
        """"Join a friend": the screen where the friend's link is pasted."""
        if not self._asks_first(intent):
            self.phase = EnteringLink(left=self.game_phase)

    def _join_room(self, intent: it.JoinRoom) -> Refused | None:
        """Take the free seat of the room ``link`` names; a link given over a game (the command line's)
        leaves it for the mode screen first."""
        if self.screen is Screen.GAME and self.game_phase is not None:
            self._change_mode(it.ChangeMode())
        if self._asks_first(intent):
            return None
        if self.screen is Screen.GAME or self.friend_play.rooms is None:
            return Refused("A friend's room is joined from the mode screen, once the rules engine has loaded")
        return self._apply(self.friend_play.join(self.game_phase, intent.link))

    def _copy_link(self, intent: it.CopyLink) -> Refused | None:
        p = self.phase
        if not isinstance(p, WaitingForFriend) or not p.link:
            return Refused("The room's link is not there yet")
        self._apply(Step(effects=(Copy(p.link), Say("The link is on the clipboard: paste it to your friend"))))
        return None

    def _rematch(self, intent: it.Rematch) -> Refused | None:
        return self._apply(self.friend_play.rematch(self.turn_phase))

    def _continue_vs_computer(self, intent: it.ContinueVsComputer) -> Refused | None:
        """The friend's game goes on against the computer (Medium) from where it is, moves kept."""
        p = self.game_phase
        if p is None or p.mode.room is None or not self.friend_play.can_continue_vs_computer(self.phase):
            return Refused("Continue vs computer is for a friend's game whose friend is gone")
        self._stop_opponent()
        self.friend_play.give_up_room(p)
        mode = Mode(Level.MEDIUM, p.mode.human)
        self.results.recorded = False
        self._after_change()
        self._enter_turn(p.game, mode)
        self.notice = "You now play the computer (Medium) from here"
        self._save()
        return None

    def _edit_server(self, intent: it.EditServer) -> None:
        text = self.settings.room_server
        self.phase = EnteringServer(left=self.game_phase, text=text, caret=len(text))

    def _register_links(self, intent: it.RegisterLinks) -> None:
        self._apply(FriendPlay.register_links(isinstance(self.phase, EnteringServer)))

    def _type_text(self, intent: it.TypeText) -> None:
        p = self.phase
        assert isinstance(p, EnteringText)
        text, caret = text_entry.insert(p.text, p.caret, intent.text)
        self.phase = dataclasses.replace(p, text=text, caret=caret)

    def _edit_text(self, intent: it.EditText) -> None:
        p = self.phase
        assert isinstance(p, EnteringText)
        text, caret = text_entry.edit(p.text, p.caret, intent.key)
        self.phase = dataclasses.replace(p, text=text, caret=caret)

    def _submit_text(self, intent: it.SubmitText) -> Refused | None:
        """Enter in a text field: Join the link's room (the game left was asked about at "Join a
        friend"), or keep the room server's address."""
        p = self.phase
        if isinstance(p, EnteringLink):
            if self.friend_play.rooms is None:
                return Refused("A friend's room can be joined once the rules engine has loaded")
            return self._apply(self.friend_play.join(self.game_phase, p.text))
        if isinstance(p, EnteringNickname):
            from game.online.protocol import BadMessage, check_nickname

            try:
                nickname = check_nickname(p.text)
            except BadMessage as err:
                self.phase = dataclasses.replace(p, error=str(err).capitalize())
                return None
            self.settings.nickname = nickname
            self._save_settings()
            self.phase = ChoosingMode(left=p.left)
            return self._play_online(it.PlayOnline()) if p.seek else None
        assert isinstance(p, EnteringServer)
        error = FriendPlay.check_server(p.text)
        if error is not None:
            self.phase = dataclasses.replace(p, error=error)
            return None
        self.settings.room_server = p.text.strip()
        self._save_settings()
        self.phase = ChoosingMode(left=p.left)
        return None

    def _on_news(self, news: FriendReply) -> None:
        """One piece of news from the friend's room: a reply as from any opponent, or the room's own."""
        from game.friend import opponent as fo  # friend play loads with the first room

        p = self.turn_phase
        in_friend_game = isinstance(p, InGame) and p.mode.vs_friend
        match news:
            case OpponentMove() | DrawAnswer() | OpponentStatus() | OpponentError():
                if self.vs_friend:
                    self._on_reply(news)
            case fo.RoomOpened(link=link):
                self._apply(FriendPlay.room_opened(self.phase, link))
            case fo.TimedOut(color=color):
                if isinstance(p, InGame) and in_friend_game and not p.game.is_over:
                    p.game.time_out(color)
                    self._after_change()
                    self._game_over(p.game, p.mode)
            case fo.GameStarted(game=game, color=color, number=number):
                self._room_game_started(game, color, number)
            case fo.FriendResigned():
                if isinstance(p, InGame) and in_friend_game and not p.game.is_over:
                    assert p.mode.computer is not None
                    p.game.resign(p.mode.computer)
                    self.notice = "Your friend resigned"
                    self._after_change()
                    self._game_over(p.game, p.mode)
            case fo.Resynced(game=game):
                if isinstance(p, InGame) and in_friend_game:
                    refused = self.notice if self.notice and self.notice.startswith("The room refused") else None
                    self._take_game(game, p.mode)
                    self.notice = refused or "The game was set back to where the room has it"
            case fo.Refused(message=message):
                self._apply(self.friend_play.room_failed(self.phase, message, refused=True))
            case fo.FriendPresence(connected=connected, seated=seated, returned=returned):
                if in_friend_game and seated and (returned or not connected):
                    assert isinstance(p, InGame) and p.mode.room is not None
                    who = p.mode.room.opponent_words(capital=True)
                    self.notice = f"{who} is back" if connected else f"{who} was disconnected"
            case fo.RematchAsked():
                room = p.mode.room if isinstance(p, InGame) and in_friend_game else None
                self._apply(self.friend_play.rematch_asked_by_friend(room))
            case fo.ConnectionChanged(status="gave_up", detail=detail, unreachable=unreachable):
                self._apply(self.friend_play.room_failed(self.phase, detail, refused=False, unreachable=unreachable))
            case fo.ConnectionChanged():
                pass  # the status line reads the connection
            case _:
                assert_never(news)

    def _room_game_started(self, game: Game, color: Color, number: int) -> None:
        """The room's game begins (the friend joined, a rematch, or the game found on returning)."""
        friend = self.friend_play.friend
        assert friend is not None
        room = friend.room
        assert room is not None, "the room gives the seat before its game"
        before = self.phase
        mode = Mode(human=color, room=room)
        self.hand.flipped = False
        self.played = None
        self.friend_play.game_started()
        self.results.recorded = game.is_over
        self._after_change()
        self.hand.cursor = Hand.home_cursor(game.variant, color)
        self._enter_turn(game, mode)
        mover = "you move first" if game.turn is color else f"{room.opponent_words()} moves first"
        if number > 1:
            self.notice = f"Game {number}, sides swapped: you play {game.variant.side_name(color)}"
        elif isinstance(before, JoiningRoom) and before.returning:
            self.notice = "You are back in the room"
        elif room.opponent is not None:
            self.notice = f"You play {game.variant.side_name(color)} against {room.opponent}; {mover}"
        else:
            self.notice = f"You play {game.variant.side_name(color)}; {mover}"
        self._save()

    def _take_game(self, game: Game, mode: Mode) -> None:
        """The room's game replaces ours (ours differed: a move the room refused or never heard)."""
        self.played = None
        self._after_change()
        self.results.recorded = game.is_over
        self._enter_turn(game, mode)
        self._save()

    # --- the screens, the settings, the help ------------------------------------------------------

    def _choose_rules(self, intent: it.ChooseRules) -> None:
        self.settings.variant = variant_named(intent.variant).name
        self._save_settings()

    def _toggle_more_rules(self, intent: it.ToggleMoreRules) -> None:
        p = self.phase
        assert isinstance(p, ChoosingMode)
        self.phase = dataclasses.replace(p, more_rules=not p.more_rules)

    def _flip_board(self, intent: it.FlipBoard) -> None:
        self.hand.flipped = not self.hand.flipped

    def _set_view(self, intent: it.SetView) -> None:
        if not isinstance(intent.view, View):
            raise TypeError(f"no view {intent.view!r}")
        self.settings.view = intent.view
        self._save_settings()

    def _toggle_setting(self, intent: it.ToggleSetting) -> None:
        self.settings.toggle(intent.name)
        self._save_settings()

    def _dismiss_notes(self, intent: it.DismissNotes) -> None:
        self.notes.clear()

    def _open_help(self, intent: it.OpenHelp) -> None:
        """The help screen at the page and section asked for, over the phase the player is in, which
        Back returns to. The Rules shown are those of the game on screen; on the mode screen, those
        chosen there."""
        p = self.phase
        page = HelpPage(intent.page)
        if isinstance(p, ReadingHelp):
            self.phase = dataclasses.replace(p, page=page, section=intent.section)
            return
        variant = variant_named(p.variant) if isinstance(p, WaitingForFriend) else self.variant
        self.keys_shown = False
        self.hand.dragging = None
        self.phase = ReadingHelp(p, variant.name, page, intent.section)

    def _close_help(self, intent: it.CloseHelp) -> None:
        p = self.phase
        assert isinstance(p, ReadingHelp)
        self.phase = p.back

    def _go_to_section(self, intent: it.GoToSection) -> None:
        p = self.phase
        assert isinstance(p, ReadingHelp)
        self.phase = dataclasses.replace(p, section=intent.section, jumps=p.jumps + 1)

    def _show_keys(self, intent: it.ShowKeys) -> Refused | None:
        self.keys_shown = self.screen is Screen.GAME
        return None if self.keys_shown else Refused("The keys card shows over a game; F1 opens the Controls page")

    def _hide_keys(self, intent: it.HideKeys) -> None:
        self.keys_shown = False

    def _clipboard_unavailable(self, intent: it.ClipboardUnavailable) -> None:
        self.notice = "Couldn't reach the clipboard" + (
            ": select the link and copy it by hand" if isinstance(self.phase, WaitingForFriend) else "")

    def _save_settings(self) -> None:
        if self.storage is not None:
            self.storage.save_settings(self.settings)

    # --- the review and the editor ----------------------------------------------------------------

    def _review_step(self, intent: it.ReviewStep) -> Refused | None:
        return self._review_to(it.ReviewTo(self.shown_ply() + intent.delta))

    def _review_to(self, intent: it.ReviewTo) -> Refused | None:
        """Show the position after ``ply`` moves (None: the last). From a game going on this starts a
        review (the opponent waits); reaching the last move of a game going on ends it."""
        p = self.phase
        if not isinstance(p, (*TURNS, Reviewing)):
            return Refused("No game to step through here")
        if not isinstance(p, Reviewing) and in_friend_game(p):
            return Refused(NOT_WITH_FRIEND, said=True)
        game, last = p.game, len(p.game.moves)
        target = last if intent.ply is None else max(0, min(intent.ply, last))
        current = self.shown_ply()
        if isinstance(p, Reviewing):
            under = p.under
        else:
            if target == last:
                return Refused("The board shows the game as it stands")
            self._stop_opponent()
            under = p
        self.notice = None
        self.hand.deselect()
        self.played = Played(game.moves[current], game.positions[current]) if target == current + 1 else None
        if target == last and under is not None and not isinstance(under, GameOver):
            played = self.played
            self._go_back(under)
            self.played = played
            return None
        self.phase = Reviewing(game, p.mode, target, under)
        return None

    def _back_to_game(self, intent: it.BackToGame) -> Refused | None:
        p = self.reviewing
        if p is None or p.under is None:
            return Refused("This game was opened on its own: play on with “Play from here”")
        self.played = None
        self._go_back(p.under)
        return None

    def _edit_position(self, intent: it.EditPosition) -> Refused | None:
        """The editor, on the position shown (the rules' start position from the mode screen)."""
        from game.play.editor import Setup, Tool

        p = self.base_phase
        if isinstance(p, Editing):
            return Refused("The position editor is open already")
        if in_friend_game(self.phase):
            return Refused(NOT_WITH_FRIEND, said=True)
        assert isinstance(p, (ChoosingMode, *TURNS, Reviewing)), p
        left = typing.cast(ChoosingMode | TurnPhase | Reviewing, p)
        self._stop_opponent()
        close_listing(self.phase)
        position = self.shown_position()
        setup = Setup.of(position) if position is not None else Setup.start(self.variant)
        self.hand.deselect()
        self.notice = None
        self.played = None
        first = setup.variant.first_player
        self.hand.cursor = Hand.home_cursor(setup.variant, first)
        self.phase = Editing(setup, Tool.BLACK_MAN if first is Color.BLACK else Tool.WHITE_MAN, left)
        return None

    def _edit_board(self, intent: it.ChooseTool | it.SetTurn | it.ClearBoard | it.StartPosition) -> None:
        p = self.phase
        assert isinstance(p, Editing)
        self.phase = edited(p, intent)

    # --- the engine beside the board --------------------------------------------------------------

    def _toggle_analysis(self, intent: it.ToggleAnalysis) -> Refused | None:
        return self._apply(self.studies.toggle(self.phase))

    def _hint(self, intent: it.Hint) -> Refused | None:
        return self._apply(self.studies.hint(self.phase))

    def _analyze_game(self, intent: it.AnalyzeGame) -> Refused | None:
        return self._apply(self.studies.analyze_game(self.phase))

    # --- files and the clipboard ------------------------------------------------------------------

    def _save_game(self, intent: it.SaveGame) -> Refused | None:
        pdn = self.pdn()
        if pdn is None:
            return Refused("No game to save here")
        return self._apply(self.files.save(pdn, self.variant))

    def _copy_pdn(self, intent: it.CopyPdn) -> Refused | None:
        pdn = self.pdn()
        if pdn is None:
            return Refused("No game to copy here")
        self._apply(Step(effects=(Copy(pdn.pdn()), Say("The game's PDN is on the clipboard"))))
        return None

    def _copy_fen(self, intent: it.CopyFen) -> Refused | None:
        position = self.shown_position()
        if position is None:
            return Refused("No position to copy here")
        fen = position.fen()
        self._apply(Step(effects=(Copy(fen), Say(f"FEN copied: {fen}"))))
        return None

    def _paste(self, intent: it.Pasted | it.PasteFromClipboard) -> Refused | None:
        """Pasted text: a FEN (into the editor's board, or opened as a position), else PDN games."""
        assert isinstance(intent, it.Pasted)
        if in_friend_game(self.phase):
            return Refused(NOT_WITH_FRIEND, said=True)
        editing = self.editing
        read = PdnFiles.read_paste(intent.text, editing.setup.variant if editing is not None else None)
        if isinstance(read, Refused):
            return read
        if isinstance(read, list):
            if len(read) == 1:
                return self._open_pdn(read[0], intent)
            if not isinstance(self.phase, Browsing):
                refused = self._open_browser(it.OpenBrowser())
                if refused is not None:
                    return refused
            assert isinstance(self.phase, Browsing)
            self.phase = PdnFiles.list_games(self.phase, read, "pasted text")
            return None
        if editing is not None:
            from game.play.editor import Setup

            self.phase = dataclasses.replace(editing, setup=Setup.of(read))
            self.notice = "Position pasted"
            return None
        from engine.game import Game
        from engine.pdn import PdnGame

        return self._open_pdn(PdnGame.from_game(Game(read.variant, read)), intent,
                              "Position pasted: Analyze it, or play from here")

    def _open_pdn(self, pdn: PdnGame, then: it.Intent, notice: str | None = None) -> Refused | None:
        """Show a game read from PDN in a review from its start; what couldn't be read is said (the
        moves before it are kept). ``then`` is what opens it, asked again once a game that counts
        has been left."""
        game = PdnFiles.game_of(pdn)
        if isinstance(game, Refused):
            return self._apply(game)
        if self._asks_first(then):
            return None
        close_listing(self.phase)
        self._stop_opponent()
        self.friend_play.leave_rooms()
        self._after_change()
        self.hand.flipped = False
        self.played = None
        self.results.recorded = True  # a game from a file never counts in the results
        self.files.source = pdn
        self.notice = notice or PdnFiles.opened_notice(pdn, game)
        self.phase = Reviewing(game, Mode(), 0, None)
        return None

    def _open_browser(self, intent: it.OpenBrowser) -> Refused | None:
        """The browser: the recent files and the games folder's (over a file's games: back to them)."""
        p = self.phase
        if isinstance(p, (ReadingHelp, Resuming, RoomPhase)):
            return Refused("Games are opened from the mode screen, a game or the editor")
        if in_friend_game(p):
            return Refused(NOT_WITH_FRIEND, said=True)
        if isinstance(p, Browsing):
            under: Phase = p.under
            close_listing(p)
        else:
            self._stop_opponent()
            under = p
        assert isinstance(under, (ChoosingMode, *TURNS, Reviewing, Editing)), under
        self.hand.deselect()
        self.notice = None
        self.phase = self.files.browser(typing.cast(ChoosingMode | TurnPhase | Reviewing | Editing, under))
        return None

    def _open_file(self, intent: it.OpenFile) -> Refused | None:
        """Read a PDN file's games (off this thread, in the browser): one game opens by itself."""
        if not isinstance(self.phase, Browsing):
            refused = self._open_browser(it.OpenBrowser())
            if refused is not None:
                return refused
        assert isinstance(self.phase, Browsing)
        self.phase = PdnFiles.read_file(self.phase, intent.path)
        return None

    def _close_browser(self, intent: it.CloseBrowser) -> None:
        p = self.phase
        assert isinstance(p, Browsing)
        close_listing(p)
        self._go_back(p.under)

    def _browser_page(self, intent: it.BrowserPage) -> None:
        p = self.phase
        assert isinstance(p, Browsing)
        self.phase = dataclasses.replace(p, page=max(0, p.page + intent.delta))

    def _open_listed(self, intent: it.OpenListedGame) -> Refused | None:
        p = self.phase
        assert isinstance(p, Browsing)
        if p.listing is None or not 0 <= intent.index < len(p.listing.games):
            return Refused("No such game in the list")
        return self._open_pdn(p.listing.games[intent.index], intent)

    # --- the game kept on disk --------------------------------------------------------------------

    def _save(self, game: Game | None = None, mode: Mode | None = None) -> None:
        """Keep the game on screen (or ``game``, played as ``mode``) on disk."""
        game, mode = (game, mode) if game is not None else (self.game, self.mode)
        if self.storage is None or game is None or mode is None:
            return
        self.storage.save_game(saved_game(game, mode, self.hand.flipped))

    def _restore(self) -> bool:
        if self.storage is None:
            return False
        data = self.storage.load_game(game_from_dict)
        self.notes.extend(self.storage.take_notes())
        if data is None:
            if isinstance(self.left_for_help, Resuming):  # it could not be read after all
                self.phase = ChoosingMode()
            return False
        game, mode, flipped = data
        if game.is_over or mode.vs_friend:
            # kept for the mode screen: the game last played, or a friend's game to return to
            self.phase = ChoosingMode(left=phase_of(game, mode))
            self.hand.flipped = flipped
            if mode.vs_friend:
                self.settings.variant = game.variant.name
            return False
        self.settings.variant = game.variant.name
        self.open_game(game, mode, flipped)
        return True

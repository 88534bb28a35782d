"""The play state machine: what a press, a key or a button does, the opponent's turns, undo and offers.

Intents come in (``game.intents``, from ``game.input`` and the panel) and :meth:`Controller.handle`
applies them; the opponent's replies come in through :meth:`Controller.update`, once a frame. The
state is an explicit phase (``game.phases``, with its diagram) plus the selection on the board; the
renderer and the panel read it (``phase``, ``selected``, :meth:`Controller.targets`,
:meth:`Controller.status` ...), and :attr:`Controller.version` changes whenever any of it may have.
Nothing here touches a window, so it is tested without one.

Selection follows the specification ("Controls on this page") to the letter:

* press one of your pieces: it is selected and its landing squares get green dots; press a dot to move;
* pressing another piece selects that one instead; pressing the selected piece again deselects it,
  unless it has a capture that goes round and returns to its own square: then pressing it plays that
  capture (press outside the board to deselect);
* when a capture is compulsory a press on a piece that cannot capture explains "When you can
  capture, you must capture"; every refused attempt says why in the words of the rules
  (``game.help.explain_refusal``), and the notice names the Rules section to open (:attr:`notice_rule`);
* a multi-capture is entered by pressing the squares to stop on in order; as soon as one route
  remains, the rest plays itself; pressing the final square (green ring) first plays the move when
  only one route leads there; "Deselect" (or Esc) cancels a capture partly entered.

The other side's moves come from an *opponent* (``game.opponent``: the computer's worker in the game,
a test double in tests) that never blocks. A friend on another machine is an opponent too
(``game.friend_opponent``, opened by :class:`~game.friend_opponent.Rooms`): the player's moves, draw
acceptances and resignations are told to the friend's room, whose server checks them; the friend's
arrive like the computer's. Against a friend there is no undo; after the game "Rematch (swap sides)"
replaces "Play again"; when the friend has been gone for ``friend_away_limit_s`` (or the room can't
be reached as long), "Continue vs computer" turns the game into one against the computer. The
analysis, a hint and the game report come from an *analyst* (``game.analysis``) on the computer's
worker, which the controller lets think only while the computer doesn't (it stops the one before it
asks the other).

Beyond play (``game.phases`` has the diagram): a review steps through any game, and "Play from here"
goes on from the position shown; games come in from PDN files (a browser, a file dropped on the
window, text pasted) and go out as PDN (saved in the games folder, or copied); the position editor
sets up a board to play from.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, assert_never

from engine import Color, coords_square, variant_named
from game import text_entry
from game.analysis import HINT_SECONDS, AnalysisFailed, Analyst, GameScored, Line, LineFound, PositionScored
from game.help import Refusal, explain_refusal
from game.intents import (
    AcceptDraw,
    AnalyzeGame,
    BackToGame,
    BrowserPage,
    Cancel,
    ChangeMode,
    ChooseRules,
    ChooseTool,
    ClearBoard,
    CloseBrowser,
    CloseHelp,
    ConfirmNewGame,
    ConfirmResign,
    ContinueSaved,
    ContinueVsComputer,
    CopyFen,
    CopyLink,
    CopyPdn,
    CursorMove,
    CursorPress,
    Deselect,
    DismissNotes,
    DragStarted,
    EditPosition,
    EditServer,
    EditText,
    FlipBoard,
    HideKeys,
    Hint,
    Intent,
    JoinRoom,
    OfferDraw,
    OpenBrowser,
    OpenFile,
    OpenHelp,
    OpenJoin,
    OpenListedGame,
    Pasted,
    PasteFromClipboard,
    PieceDropped,
    PlayAgain,
    PlayFriend,
    PlayFromHere,
    PlayMoveFromList,
    RegisterLinks,
    Rematch,
    Resign,
    ReviewStep,
    ReviewTo,
    SaveGame,
    SetTurn,
    SetView,
    ShowKeys,
    SquarePressed,
    StartGame,
    StartPosition,
    SubmitText,
    ToggleAnalysis,
    ToggleSetting,
    TypeText,
    Undo,
)
from game.online.protocol import InvalidLinkError, parse_link, parse_server_address
from game.opponent import DrawAnswer, Opponent, OpponentError, OpponentMove, OpponentStatus, Reply
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
    JoiningRoom,
    Level,
    Mode,
    OpponentFailed,
    OpponentToMove,
    Phase,
    Question,
    ReadingHelp,
    Result,
    Resuming,
    Reviewing,
    Room,
    RoomPhase,
    RoomScreen,
    Screen,
    TurnPhase,
    WaitingForFriend,
)
from game.settings import Notation, Settings, View

if TYPE_CHECKING:  # at run time engine.game loads with the first game: the mode screen needs no numba
    from engine import Move, Position, Variant
    from engine.game import Game, Outcome
    from engine.pdn import PdnGame
    from game.files import Listing
    from game.friend_opponent import FriendOpponent, FriendReply, RoomNews, Rooms
    from game.report import GameReport
    from game.storage import Storage

MUST_CAPTURE = "You must capture"
# the specification's words for a press on a piece that can't capture while another can: the refusal
# that game.help gives then begins with them
WHEN_YOU_CAN_CAPTURE = "When you can capture, you must capture"
FRIEND_AWAY_LIMIT_S = 120.0  # "Continue vs computer" after the friend is gone this long (specification: 2 minutes)


@dataclass(frozen=True)
class Played:
    """A move just played, for the animation: ``move.path`` is the route actually taken."""

    move: Move
    before: Position


@dataclass
class Study:
    """What the engine shows beside the board: the analysis of the position shown, or a hint.
    ``key`` says which position of which game (None while the analysis waits: ``note`` says why)."""

    kind: str  # "analysis" | "hint"
    key: tuple | None
    position: Position | None
    line: Line | None = None
    running: bool = False
    note: str | None = None


_FEN_TEXT = re.compile(r'\s*(\[\s*FEN\s+")?\s*[WB]\s*:', re.I)  # pasted text that is a FEN, not PDN


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
    _recorded: bool = False  # this game's result is in the results table
    _friend_clock: tuple = ()  # the friend's time away and ours as shown (the panel redraws when they change)
    _report_moves: tuple = ()  # the moves report_game had when its report was asked for
    _listing_seen: tuple = ()  # (listing, games, done) last seen: the browser redraws as a file is read
    _listing_handled: Listing | None = None  # the last listing whose end was acted on
    _report_scores: list[int] = field(default_factory=list)
    _report_best: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
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
        return self._game_phase(self.phase)

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
        return isinstance(p, HumanToMove) and (not p.mode.vs_friend or self.friend_connection == "connected")

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the player may make now (empty on the opponent's turn)."""
        p = self.turn_phase
        return p.game.position.legal_moves() if isinstance(p, HumanToMove) and self.is_human_turn() else ()

    # --- a friend's game ------------------------------------------------------------------------

    @property
    def vs_friend(self) -> bool:
        """Whether the game on screen is played against a friend."""
        p = self.in_game
        return p is not None and p.mode.vs_friend

    @property
    def friend_connection(self) -> str | None:
        """Our connection to the friend's room: connecting, connected, reconnecting, gave_up (None: no room)."""
        return self.friend.connection if self.friend is not None else None

    def friend_away_s(self, now: float | None = None) -> float | None:
        """Seconds the friend has been disconnected, in the game on screen (None while connected)."""
        return self.friend.friend_away_s(now) if self.friend is not None and self.vs_friend else None

    def can_continue_vs_computer(self, now: float | None = None) -> bool:
        """Whether "Continue vs computer" is offered: a friend's game going on whose friend has been
        gone ``friend_away_limit_s``, or whose room has been out of reach as long (or for good); on
        the mode screen, any friend's game left there."""
        p = self.game_phase
        if p is None or not p.mode.vs_friend or p.game.is_over:
            return False
        f = self.friend
        if not isinstance(self.phase, InGame) or f is None:
            return isinstance(self.phase, ChoosingMode)
        gone = max(f.friend_away_s(now) or 0.0, f.down_s(now) or 0.0)
        return f.connection == "gave_up" or gone >= self.friend_away_limit_s

    def can_return_to_room(self) -> bool:
        """Whether the friend's game left on the mode screen may be returned to: its room is on a
        room server, or on this game's own one while it still runs."""
        p = self.game_phase
        if not isinstance(self.phase, ChoosingMode) or p is None or p.mode.room is None or p.game.is_over:
            return False
        return not p.mode.room.hosted or (self.rooms is not None and self.rooms.is_hosting)

    def _opponent_for(self, mode: Mode) -> Opponent | FriendOpponent | None:
        return self.friend if mode.vs_friend else self.opponent

    def _opponent_name(self, mode: Mode) -> str:
        return "Your friend" if mode.vs_friend else "The computer"

    def move_text(self, move: Move, position: Position | None = None) -> str:
        """A move as the notation setting writes it on screen (``c3-d4`` / ``11-15``; ``c3×e5`` for a
        capture, as the specification writes it; PDN files and the command line keep ``x``)."""
        if position is None:
            game = self.game
            assert game is not None, "a move's text needs its position"
            position = game.position
        return position.move_text(move, numeric=self.settings.notation is Notation.NUMERIC).replace("x", "×")

    def capturers(self) -> frozenset[int]:
        """Squares of the pieces that can capture, when a capture is compulsory (gold base rings)."""
        return frozenset(m.start for m in self.legal_moves() if m.captured)

    def _routes(self) -> list[tuple[tuple[int, ...], Move]]:
        """Routes of the selected piece that agree with the squares entered so far."""
        if self.selected is None:
            return []
        n = len(self.entered)
        return [(r, m) for m in self.legal_moves() if m.start == self.selected for r in m.routes
                if r[1:n + 1] == self.entered and len(r) > n + 1]

    def targets(self) -> frozenset[int]:
        """Green dots: the next squares to stop on."""
        return frozenset(r[len(self.entered) + 1] for r, _ in self._routes())

    def final_rings(self) -> frozenset[int]:
        """Green rings: where a multi-capture still ahead ends (press it to play when only one leads there)."""
        n = len(self.entered)
        return frozenset(r[-1] for r, _ in self._routes() if len(r) > n + 2)

    def entered_path(self) -> tuple[int, ...]:
        """The selected square and the squares entered so far (drawn as a route in progress)."""
        return (self.selected,) + self.entered if self.selected is not None else ()

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

    def offer_pending_for_player(self) -> bool:
        """Whether "Accept draw" should show: a draw is offered to the side a person plays now."""
        p = self.turn_phase
        return (isinstance(p, HumanToMove) and p.game.pending_offer is not None
                and p.game.pending_offer is not p.game.turn)

    def moves_until_draw(self) -> int | None:
        """Moves each left before an automatic draw, once a count toward one runs (a move with no man
        moved and no capture, or an endgame count); None before that and once the game is over. At
        the start of a game no count runs: every move moves a man."""
        game = self.game
        if game is None or (plies := game.plies_until_draw) is None or plies >= 2 * game.variant.quiet_limit_moves:
            return None
        return game.moves_until_draw

    def can_undo(self) -> bool:
        p = self.in_game
        if p is None or isinstance(p, Reviewing) or not p.game.moves or p.mode.vs_friend:
            return False
        outcome = p.game.outcome
        if outcome is not None:
            from engine.game import Reason

            if outcome.reason in (Reason.RESIGNATION, Reason.AGREEMENT):
                return False
        if p.mode.vs_computer:
            return any(pos.turn is p.mode.human for pos in p.game.positions[:-1])
        return True

    def status(self) -> str:
        """The status line: whose turn, a compulsory capture, the opponent thinking, the result; what
        a review shows; the editor's side to move."""
        p = self.turn_phase
        if isinstance(p, (OpponentToMove, AwaitingDrawAnswer, HumanToMove)) and p.mode.vs_friend:
            waiting = self._friend_status(p)
            if waiting is not None:
                return waiting
        match p:
            case Browsing(listing=listing):
                return f"Reading {listing.path.name}…" if listing is not None and not listing.done.is_set() \
                    else "Open a game"
            case Editing(setup=setup):
                return f"Set up a position · {setup.turn.label.capitalize()} to move"
            case Reviewing(game=game, ply=ply):
                last = len(game.moves)
                if ply == last and game.outcome is not None:
                    return "Review · " + self._result_text(game, game.outcome, p.mode)
                who = game.positions[ply].turn.label.capitalize()
                where = "the start" if ply == 0 else f"move {ply} of {last}"
                return f"Review · {where} · {who} to move"
            case ChoosingMode():
                return "Choose the rules, then how to play"
            case Resuming():
                return "Resuming your game…"
            case WaitingForFriend(link=link):
                return "Waiting for your friend" if link else "Opening a room…"
            case EnteringLink():
                return "Paste your friend's link"
            case EnteringServer():
                return "Room server"
            case JoiningRoom(returning=returning):
                return "Returning to your friend's room…" if returning else "Joining your friend's room…"
            case GameOver(game=game, mode=mode):
                assert game.outcome is not None
                return self._result_text(game, game.outcome, mode)
            case OpponentFailed(game=game):
                return f"The computer ({game.turn.label.capitalize()}) can't play"
            case OpponentToMove(game=game, mode=mode) | AwaitingDrawAnswer(game=game, mode=mode):
                who = game.turn.label.capitalize()
                if mode.vs_friend:
                    away = self.friend_away_s()
                    if away is not None:
                        return f"Your friend ({who}) is disconnected ({_clock(away)}); waiting for them…"
                    return f"Your friend's move ({who})…"
                if not self.opponent_ready or self.opponent is None:
                    return f"Computer ({who}) is getting ready… {self.opponent_status}".rstrip()
                return f"Computer ({who}) is thinking…"
            case HumanToMove(game=game, mode=mode):
                who = game.turn.label.capitalize()
                text = f"Your move ({who})" if mode.human is not None else f"{who} to move"
                if game.position.has_capture():
                    text += " · " + MUST_CAPTURE
                if self.offer_pending_for_player():
                    text += " · a draw is offered"
                return text
        raise AssertionError(f"no status for {p!r}")

    def _friend_status(self, p: InGame) -> str | None:
        """The status of a friend's game while our connection to the room is down, else None."""
        f = self.friend
        if f is None:
            return "Not connected to the room"
        if f.connection == "reconnecting":
            return "Reconnecting…"
        if f.connection == "gave_up":
            return "The connection to the room is lost"
        if f.connection == "connecting":
            return "Connecting…"
        return None

    @staticmethod
    def _result_text(game: Game, outcome: Outcome, mode: Mode) -> str:
        from engine.game import Reason

        winner = outcome.winner
        loser = winner.opponent.label.capitalize() if winner is not None else ""
        match outcome.reason:
            case Reason.NO_MOVES:
                reason = f"{loser} has no move left"
            case Reason.RESIGNATION if mode.human is not None:
                opponent = "your friend" if mode.vs_friend else "the computer"
                reason = "you resigned" if winner is mode.computer else f"{opponent} resigned"
            case Reason.RESIGNATION:
                reason = f"{loser} resigned"
            case Reason.AGREEMENT:
                reason = "both players agreed"
            case Reason.REPETITION:
                reason = "the same position occurred 3 times"
            case Reason.MOVE_LIMIT:
                reason = f"{game.variant.quiet_limit_moves} moves each without a man moved or a capture"
            case Reason.ENDGAME_RULE:
                reason = "the endgame move limit was reached"
            case _:
                assert_never(outcome.reason)
        if winner is None:
            head = "Draw"
        elif mode.human is not None:
            opponent = "Your friend" if mode.vs_friend else "The computer"
            head = "You win" if winner is mode.human else f"{opponent} wins"
        else:
            head = f"{winner.label.capitalize()} wins"
        return f"{head}: {reason}"

    def near_color(self) -> Color:
        """The side whose pieces are at the near edge of the board (the bottom of the table)."""
        mode = self.mode
        base = mode.human if mode is not None and mode.human is not None else self.variant.first_player
        return base.opponent if self.flipped else base

    def second_side_near(self) -> bool:
        """Whether the board is turned 180 degrees (the second player's pieces near)."""
        return self.near_color() is not self.variant.first_player

    @staticmethod
    def _home_cursor(variant: Variant, near: Color) -> tuple[int, int]:
        """A dark square in the middle of the near edge, where ``near``'s pieces start."""
        rank = 0 if near is variant.first_player else variant.size - 1
        file = variant.size // 2 - 1
        return (file if coords_square(variant, file, rank) is not None else file + 1), rank

    def cursor_square(self) -> int | None:
        return coords_square(self.variant, *self.cursor)

    def is_own_piece(self, square: int | None) -> bool:
        """Whether a piece of the side to move stands on ``square``."""
        game = self.game
        if square is None or game is None:
            return False
        piece = game.position.piece_at(square)
        return piece is not None and piece.color is game.turn

    # --- intents --------------------------------------------------------------------------------

    def handle(self, intent: Intent) -> None:
        """Apply one intent; anything else is a TypeError. The help screen shows no game and takes only
        its own intents: the others wait for Back (dropped, as presses on a hidden board would be)."""
        if isinstance(self.phase, ReadingHelp) and not isinstance(intent, (OpenHelp, CloseHelp, Cancel)):
            if not isinstance(intent, Intent):
                raise TypeError(f"the controller has no intent {intent!r}")
            return
        match intent:
            case SquarePressed(square=square, outside=outside):
                self._press(square, outside)
            case DragStarted(square=square):
                self._start_drag(square)
            case PieceDropped(start=start, square=square):
                self._drop(start, square)
            case Deselect():
                self._deselect()
                self.notice = None
            case Cancel():
                self._cancel()
            case CursorMove(dx=dx, dy=dy) if self.reviewing is not None and dx:
                self._review_to(self.shown_ply() + dx)
            case CursorMove(dx=dx, dy=dy):
                self._move_cursor(dx, dy)
            case CursorPress():
                if self.screen in (Screen.GAME, Screen.EDITOR):
                    self.cursor_visible = True
                    self._press(self.cursor_square(), False)
            case PlayMoveFromList(move=move):
                if move in self.legal_moves():
                    self._play(move)
            case Undo():
                self._undo()
            case OfferDraw():
                self._toggle_offer()
            case AcceptDraw():
                self._accept_draw()
            case Resign():
                p = self.turn_phase
                if isinstance(p, InGame) and not isinstance(p, Reviewing) and not p.game.is_over:
                    self.phase = ConfirmingResign(p.game, p.mode, under=p)
            case ConfirmResign():
                self._resign()
            case PlayAgain():
                self._play_again()
            case ConfirmNewGame():
                self._confirm_new_game()
            case ReviewStep(delta=delta):
                self._review_to(self.shown_ply() + delta)
            case ReviewTo(ply=ply):
                self._review_to(ply)
            case BackToGame():
                self._back_to_game()
            case PlayFromHere(level=level):
                self._play_from_here(level)
            case ToggleAnalysis():
                self._toggle_analysis()
            case Hint():
                self._hint()
            case AnalyzeGame():
                self._analyze_game()
            case SaveGame():
                self._save_pdn()
            case CopyPdn():
                self._copy_pdn()
            case CopyFen():
                position = self.shown_position()
                if position is not None:
                    self.clipboard = position.fen()
                    self.notice = f"FEN copied: {self.clipboard}"
            case PasteFromClipboard():
                pass  # game.input reads the clipboard and sends Pasted
            case Pasted(text=text):
                self._paste(text)
            case OpenFile(path=path):
                self._open_file(path)
            case OpenBrowser():
                self._open_browser()
            case CloseBrowser():
                self._close_browser()
            case BrowserPage(delta=delta):
                if isinstance(self.phase, Browsing):
                    self.phase = dataclasses.replace(self.phase, page=max(0, self.phase.page + delta))
            case OpenListedGame(index=index):
                self._open_listed(index)
            case EditPosition():
                self._edit()
            case ChooseTool(tool=tool):
                if isinstance(self.phase, Editing):
                    self.phase = dataclasses.replace(self.phase, tool=tool)
            case SetTurn(color=color):
                if isinstance(self.phase, Editing):
                    self.phase = dataclasses.replace(self.phase, setup=self.phase.setup.with_turn(color))
            case ClearBoard():
                if isinstance(self.phase, Editing):
                    from game.editor import Setup

                    self.phase = dataclasses.replace(self.phase, setup=Setup.empty(self.variant, self.phase.setup.turn))
            case StartPosition():
                if isinstance(self.phase, Editing):
                    from game.editor import Setup

                    self.phase = dataclasses.replace(self.phase, setup=Setup.start(self.variant))
            case ChangeMode():
                self._change_mode()
            case ChooseRules(variant=name):
                self.settings.variant = variant_named(name).name
                self._save_settings()
            case StartGame(level=level, play_second=second):
                choosing = self.phase
                if isinstance(choosing, ChoosingMode) and choosing.left is not None and self._abandons(choosing.left):
                    self.phase = dataclasses.replace(choosing, asking=intent)
                else:
                    self._start(level, second)
            case ContinueSaved():
                self._continue()
            case FlipBoard():
                self.flipped = not self.flipped
            case SetView(view=View() as view):
                self.settings.view = view
                self._save_settings()
            case ToggleSetting(name=name):
                self.settings.toggle(name)
                self._save_settings()
            case DismissNotes():
                self.notes.clear()
            case OpenHelp(page=page, section=section):
                self._open_help(HelpPage(page), section)
            case CloseHelp():
                if isinstance(self.phase, ReadingHelp):
                    self.phase = self.phase.back
            case ShowKeys():
                self.keys_shown = self.screen is Screen.GAME
            case HideKeys():
                self.keys_shown = False
            case PlayFriend():
                self._play_friend()
            case OpenJoin():
                if self.screen is Screen.MODE:
                    self.phase = EnteringLink(left=self.game_phase)
            case JoinRoom(link=link):
                self._join(link)
            case CopyLink():
                if isinstance(self.phase, WaitingForFriend) and self.phase.link:
                    self.clipboard = self.phase.link
                    self.notice = "The link is on the clipboard: paste it to your friend"
            case Rematch():
                self._rematch()
            case ContinueVsComputer():
                self._continue_vs_computer()
            case EditServer():
                if self.screen is Screen.MODE:
                    text = self.settings.room_server
                    self.phase = EnteringServer(left=self.game_phase, text=text, caret=len(text))
            case RegisterLinks():
                self._register_links()
            case TypeText(text=typed):
                if isinstance(self.phase, EnteringText):
                    text, caret = text_entry.insert(self.phase.text, self.phase.caret, typed)
                    self.phase = dataclasses.replace(self.phase, text=text, caret=caret)
            case EditText(key=key):
                if isinstance(self.phase, EnteringText):
                    text, caret = text_entry.edit(self.phase.text, self.phase.caret, key)
                    self.phase = dataclasses.replace(self.phase, text=text, caret=caret)
            case SubmitText():
                if isinstance(self.phase, EnteringLink):
                    self._join(self.phase.text)
                elif isinstance(self.phase, EnteringServer):
                    self._save_server(self.phase)
            case _:
                raise TypeError(f"the controller has no intent {intent!r}")
        self._follow_study()
        self.version += 1

    def _start_drag(self, square: int) -> None:
        if self.is_human_turn() and self.is_own_piece(square) and not (self.selected == square and self.entered):
            self.dragging = square
            if self.selected != square:
                self._select(square)

    def _drop(self, start: int, square: int | None) -> None:
        self.dragging = None
        if not self.is_human_turn() or square == start:
            return
        if self.selected != start and not self._select(start):
            return
        if square is None:
            self._illegal(None)
        elif not self._press_target(square):
            self._refuse(start, self.entered + (square,), "That piece can't move there")

    def _cancel(self) -> None:
        if isinstance(self.phase, ReadingHelp):
            self.phase = self.phase.back
            return
        self.notice = None
        if isinstance(self.phase, RoomPhase):
            self._leave_room_screen(self.phase)
        elif isinstance(self.phase, Question):
            self.phase = self.phase.under
        elif isinstance(self.phase, ChoosingMode) and self.phase.asking is not None:
            self.phase = dataclasses.replace(self.phase, asking=None)
        elif isinstance(self.phase, Browsing):
            self._close_browser()
        elif isinstance(self.phase, Editing):
            self._go_back(self.phase.left)
        elif isinstance(self.phase, Reviewing):
            self._back_to_game()
        elif self.entered:
            self.entered = ()
        else:
            self._deselect()

    def _move_cursor(self, dx: int, dy: int) -> None:
        """The cursor keeps to the dark squares: left and right jump to the next dark square of the row,
        up and down step to the next row, alternating to either side so it keeps to its column."""
        if self.screen not in (Screen.GAME, Screen.EDITOR):
            return
        if not self.cursor_visible:
            self.cursor_visible = True
            return
        sign = -1 if self.second_side_near() else 1
        n, v = self.variant.size, self.variant
        f, r = self.cursor
        if dx:
            candidates = [(f + 2 * sign * dx, r)]
        else:
            r2 = r + sign * dy
            side = 1 if f % 2 == 0 else -1
            candidates = [(f + side, r2), (f - side, r2)]
        for cf, cr in candidates:
            if 0 <= cf < n and 0 <= cr < n and coords_square(v, cf, cr) is not None:
                self.cursor = (cf, cr)
                return

    def _undo(self) -> None:
        p = self.in_game
        if p is None or not self.can_undo():
            return
        game, mode = p.game, p.mode
        self.notice = None
        if game.outcome is not None:
            self._record_result(-1)
        self._stop_opponent()
        game.undo()
        if mode.vs_computer:
            while game.moves and game.turn is not mode.human:
                game.undo()
        self._after_change()
        self.played = None
        self._save()
        self._enter_turn(game, mode)

    def _toggle_offer(self) -> None:
        p = self.turn_phase
        if not isinstance(p, HumanToMove):
            return
        if self.offer_armed:
            self.offer_armed = False
            return
        ok, reason = p.game.can_offer_draw()
        if ok:
            self.offer_armed = True
            self.notice = "Your draw offer goes with your next move"
        else:
            self._illegal(reason)

    def _accept_draw(self) -> None:
        p = self.turn_phase
        if isinstance(p, HumanToMove) and self.offer_pending_for_player() and self.is_human_turn():
            self.notice = None
            p.game.accept_draw()
            if p.mode.vs_friend and self.friend is not None:
                self.friend.accepted_draw()
            self._after_change()
            self._game_ended(p.game, p.mode)
            self._save()
            self.phase = GameOver(p.game, p.mode)

    def _resign(self) -> None:
        p = self.phase
        if not isinstance(p, ConfirmingResign) or p.game.is_over:
            return
        if p.mode.vs_friend and self.friend_connection != "connected":
            self.phase = p.under
            self._illegal("Not connected to the room: resign once the connection is back")
            return
        self.notice = None
        self._stop_opponent()
        p.game.resign(p.mode.human if p.mode.human is not None else p.game.turn)
        if p.mode.vs_friend and self.friend is not None:
            self.friend.resigned()
        self._after_change()
        self._game_ended(p.game, p.mode)
        self._save()
        self.phase = GameOver(p.game, p.mode)

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

    def _change_mode(self) -> None:
        """To the mode screen, with the rules of the game left there chosen (from the room screen:
        as Cancel)."""
        if isinstance(self.phase, RoomPhase):
            self._leave_room_screen(self.phase)
            return
        self._stop_opponent()
        self._close_listing()
        left = self._game_phase(self.phase)
        if left is not None and left.mode.vs_friend:
            self._close_friend()  # the seat stays the player's: "Return to the game with your friend"
        self.phase = ChoosingMode(left=left)
        if left is not None and self.settings.variant != left.game.variant.name:
            self.settings.variant = left.game.variant.name
            self._save_settings()
        self._deselect()

    @staticmethod
    def _game_phase(phase: Phase | None) -> TurnPhase | None:
        """The phase of the game that ``phase`` is over or waits to return to (None: no game)."""
        match phase:
            case Question(under=under) | Reviewing(under=under):
                return under
            case Browsing(under=under):
                return Controller._game_phase(under)
            case Editing(left=left):
                return Controller._game_phase(left)
            case ReadingHelp(back=back):
                return Controller._game_phase(back)
            case ChoosingMode(left=left) | RoomPhase(left=left):
                return left
            case Resuming() | None:
                return None
        return phase

    def _continue(self) -> None:
        """Back to the game left for the mode screen, in its phase; a failed opponent is asked again,
        a friend's room is returned to."""
        if not isinstance(self.phase, ChoosingMode) or self.phase.left is None:
            return
        left = self.phase.left
        if left.mode.vs_friend:
            if self.can_return_to_room():
                self._return_to_room(left)
        elif isinstance(left, OpponentFailed):
            self._enter_turn(left.game, left.mode)
        else:
            self._resume(left)

    def _play_again(self) -> None:
        """A new game with the same rules and the same way of playing; abandoning a game against the
        computer asks first (from a review of it too)."""
        if isinstance(self.phase, Reviewing) and self.phase.under is not None:
            self._back_to_game()
        p = self.turn_phase
        if isinstance(p, InGame) and not isinstance(p, Reviewing) and p.mode.vs_friend:
            self._rematch()  # after a friend's game, "Play again" is the rematch
        elif isinstance(p, InGame) and not isinstance(p, Reviewing) and self._abandons(p):
            self.phase = ConfirmingNewGame(p.game, p.mode, under=p)
        elif isinstance(p, InGame):
            self._new_game(p.game.variant, p.mode)

    def _leave_game(self, keep: Game | None = None) -> str | None:
        """Before another game takes the place of the one going on (Play from here, a game opened): a
        game against the computer in which the player has moved counts as a loss, as it does for Play
        again, unless the new game goes on from ``keep``'s own moves (like taking moves back). Returns
        what to tell the player."""
        live = self._game_phase(self.phase)
        if live is None or live.game is keep or not self._abandons(live):
            return None
        self._abandon(live)
        return "The game you left against the computer counts as a loss"

    def leaving_counts(self) -> bool:
        """Whether playing from the position shown, or opening a game, would leave a game against the
        computer that counts as a loss (the panel says so beside those buttons)."""
        live = self._game_phase(self.phase)
        reviewing = self.reviewing
        return (live is not None and self._abandons(live)
                and not (reviewing is not None and reviewing.game is live.game))

    def _abandons(self, p: TurnPhase) -> bool:
        """Whether a new game would abandon ``p``'s game: one against the computer, going on, in which
        the player has moved (abandoning it counts as a loss, so that results can't be dodged)."""
        human = p.mode.human
        return (p.mode.vs_computer and not p.game.is_over
                and any(pos.turn is human for pos in p.game.positions[:-1]))

    def _confirm_new_game(self) -> None:
        """The player confirmed abandoning the game going on: a loss at its level, then the new game."""
        p = self.phase
        if isinstance(p, ConfirmingNewGame):
            self._abandon(p)
            self._new_game(p.game.variant, p.mode)
        elif isinstance(p, ChoosingMode) and p.asking is not None and p.left is not None:
            self._abandon(p.left)
            self._start(p.asking.level, p.asking.play_second)

    def _abandon(self, p: InGame) -> None:
        if self.storage is not None and p.mode.level is not None:
            self.storage.record_result(p.game.variant.name, p.mode.level, Result.LOSS)

    def _start(self, level: Level | None, play_second: bool) -> None:
        variant = variant_named(self.settings.variant)
        if level is None:
            mode = Mode()
        else:
            first = variant.first_player
            mode = Mode(Level(level), first.opponent if play_second else first)
        self._new_game(variant, mode)

    # --- pressing squares -----------------------------------------------------------------------

    def _press(self, square: int | None, outside: bool) -> None:
        if isinstance(self.phase, Editing):
            if square is not None and not outside:
                setup = self.phase.setup.press(square, self.phase.tool)
                self.phase = dataclasses.replace(self.phase, setup=setup)
            return
        if isinstance(self.phase, Reviewing) and square is not None and self.is_own_piece(square):
            self.notice = "This is a review: press “Play from here” to play on from this position"
            return
        if not self.is_human_turn():
            return
        if outside:
            self._deselect()
            return
        if self.selected is not None and square is not None and self._press_target(square):
            return
        if self.selected is not None and square == self.selected:
            self._deselect()
        elif square is not None and self.is_own_piece(square):
            self._select(square)
        elif self.selected is not None:
            # a square the selected piece can't stop on: say why; a capture partly entered stays
            if square is not None:
                self._refuse(self.selected, self.entered + (square,), "Press the next square to stop on, or Deselect")
            if not self.entered:
                self._deselect()
        elif square is not None and self.game is not None and self.game.position.piece_at(square) is not None:
            self._refuse(square, ())  # the other side's piece

    def _select(self, square: int) -> bool:
        """Select one of the mover's pieces; explains why not when it has no legal move."""
        moves = [m for m in self.legal_moves() if m.start == square]
        if not moves:
            self._refuse(square, (), "That piece has no legal move")
            return False
        self.selected, self.entered, self.notice = square, (), None
        return True

    def _press_target(self, square: int) -> bool:
        """Press ``square`` with a piece selected: the next stop of a route, or the final square of
        exactly one move. Returns whether it was accepted."""
        routes = self._routes()
        step = len(self.entered) + 1
        following = [(r, m) for r, m in routes if r[step] == square]
        if following:
            self.entered += (square,)
            remaining = [(r, m) for r, m in following if len(r) > step + 1]
            done = [(r, m) for r, m in following if len(r) == step + 1]
            moves = {m for _, m in following}
            if done and not remaining:
                self._play(done[0][1], done[0][0])
            elif len(moves) == 1:
                route, move = following[0]
                self._play(move, route)
            else:
                self.notice = None
            return True
        ending = [(r, m) for r, m in routes if r[-1] == square]
        if not ending:
            return False
        if len({m for _, m in ending}) == 1:
            self._play(ending[0][1], ending[0][0])
        else:
            self._illegal("More than one route ends there: press the squares to stop on in order")
        return True

    def _deselect(self) -> None:
        self.selected, self.entered, self.dragging = None, (), None

    def _illegal(self, text: str | None) -> None:
        if text:
            self.notice = text
        self.events.append("illegal")

    def _refuse(self, start: int, stops: tuple[int, ...], otherwise: str | None = None) -> None:
        """The rules refuse moving the piece on ``start`` to ``stops`` (none: selecting it): the notice
        says why in the words of the rules, and names the section of the Rules that explains it
        (``otherwise`` if the explanation finds the attempt allowed after all)."""
        game = self.game
        assert game is not None, "a refusal needs a game"
        self.refusal = explain_refusal(game.position, start, stops)
        self._illegal(self.refusal.message if self.refusal is not None else otherwise)

    # --- playing moves --------------------------------------------------------------------------

    def _play(self, move: Move, route: tuple[int, ...] | None = None, offer: bool | None = None) -> None:
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
                self._deselect()
                self._illegal(f"{err} Your offer was withdrawn; make your move again.")
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
        self._after_change()
        self._game_ended(game, mode)
        self._save()
        self._enter_turn(game, mode)

    def _after_change(self) -> None:
        self._deselect()
        self.offer_armed = False

    def _game_ended(self, game: Game, mode: Mode) -> None:
        """Once the game has an outcome: the end sound, and the result in the table."""
        if game.outcome is not None and not self._recorded:
            self.events.append("end")
            self._record_result(+1)

    def _record_result(self, delta: int) -> None:
        """Add (or, after undoing a finished game, take back) this game's result in the table."""
        game, mode = self.game, self.mode
        assert game is not None and mode is not None
        if mode.level is None or self.storage is None or game.outcome is None or not self._from_the_start(game):
            self._recorded = delta > 0
            return
        if (delta > 0) == self._recorded:
            return
        self.storage.record_result(game.variant.name, mode.level, mode.result(game.outcome.winner), delta)
        self._recorded = delta > 0

    # --- phases and the opponent ----------------------------------------------------------------

    @staticmethod
    def _phase_of(game: Game, mode: Mode) -> TurnPhase:
        """The phase ``game`` is in as it stands: over, a person's move, or the opponent's (its move,
        or its answer to the player's draw offer)."""
        if game.is_over:
            return GameOver(game, mode)
        if mode.computer is None or game.turn is not mode.computer:
            return HumanToMove(game, mode)
        if game.pending_offer is mode.human:
            return AwaitingDrawAnswer(game, mode)
        return OpponentToMove(game, mode)

    def _enter_turn(self, game: Game, mode: Mode) -> None:
        """Enter the phase ``game`` is in, asking the opponent for what it waits for: its move, or
        first its answer to the player's draw offer."""
        self._resume(self._phase_of(game, mode))

    def _resume(self, phase: TurnPhase) -> None:
        """Enter ``phase`` of a game, asking the opponent again what that phase waits for."""
        self.phase = phase
        self._ask(phase)

    def _ask(self, phase: TurnPhase) -> None:
        """Ask the opponent what ``phase`` waits for: its move, or its answer to the player's offer (the
        analysis is stopped before the computer is asked: they share its worker)."""
        if isinstance(phase, (OpponentToMove, AwaitingDrawAnswer)) and not phase.mode.vs_friend:
            self._pause_study("The analysis waits while the computer thinks")
        opponent = self._opponent_for(phase.mode)
        if opponent is None:
            return
        if isinstance(phase, OpponentToMove):
            opponent.request_move(phase.game, phase.mode)
        elif isinstance(phase, AwaitingDrawAnswer):
            opponent.ask_draw(phase.game, phase.mode)

    def _stop_opponent(self) -> None:
        p = self.in_game
        opponent = self._opponent_for(p.mode) if p is not None else None
        if self.waiting_for_opponent and opponent is not None:
            opponent.cancel()

    @staticmethod
    def _from_the_start(game: Game) -> bool:
        """Whether a game began at the rules' start position (only those count in the results)."""
        from engine import Position

        return game.start == Position.initial(game.variant)

    def _go_back(self, phase: ChoosingMode | TurnPhase | Reviewing | Editing) -> None:
        """Return to a phase that waited (under a review, the editor or the browser): a game's turn
        asks the opponent again."""
        self._deselect()
        match phase:
            case ChoosingMode() | Reviewing() | Editing():
                self.phase = phase
            case OpponentFailed(game=game, mode=mode):
                self._enter_turn(game, mode)
            case _:
                self._resume(phase)
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
                    self._on_reply(reply)
        friend = self.friend
        if friend is not None:
            for news in friend.poll():
                changed = True
                self._on_friend(news)
                if self.friend is not friend:  # the room was left: what else it said is moot
                    break
            changed |= self._tick_friend_clock()
        if self.analyst is not None:
            found = self.analyst.poll()
            for answer in found:
                self._on_analysis(answer)
            changed |= bool(found)
        changed |= self._follow_listing()
        if changed:
            self._follow_study()
            self.version += 1

    def _on_reply(self, reply: Reply) -> None:
        p = self.turn_phase
        name = self._opponent_name(p.mode) if isinstance(p, InGame) else "The computer"
        match reply:
            case OpponentStatus(text=text, ready=ready):
                self.opponent_status, self.opponent_ready = text, ready
            case DrawAnswer(accept=True) if isinstance(p, AwaitingDrawAnswer):
                p.game.accept_draw()
                self.notice = f"{name} accepted your draw offer"
                self._game_ended(p.game, p.mode)
                self._save()
                self.phase = GameOver(p.game, p.mode)
            case DrawAnswer(accept=False) if isinstance(p, AwaitingDrawAnswer):
                self.notice = f"{name} declined your draw offer"
                thinking = OpponentToMove(p.game, p.mode, declined_offer=True)
                question = self.phase
                self._resume(thinking)
                if isinstance(question, Question):  # still asked: nothing was played
                    self.phase = dataclasses.replace(question, under=thinking)
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

    # --- a friend's room ------------------------------------------------------------------------

    def _play_friend(self) -> None:
        """"Play a friend (send a link)": open a room with the rules chosen, and wait for the friend."""
        if self.screen is not Screen.MODE or self.rooms is None:
            return
        left = self.game_phase
        self._close_friend()
        try:
            friend = self.rooms.create(self.settings.variant, self.settings.room_server)
        except (InvalidLinkError, OSError) as err:
            self.notes.append(f"Couldn't open a room: {err}")
            return
        self.friend = friend
        self.notice = None
        self.phase = WaitingForFriend(left=left, variant=self.settings.variant, reach=friend.reach,
                                      this_network=friend.this_network)

    def _join(self, link: str) -> None:
        """Take the free seat in the room of ``link``; a link that can't be read is quoted back."""
        if self.screen is Screen.GAME or self.rooms is None:
            return
        left = self.game_phase
        text = link.strip()
        try:
            if not text:
                raise InvalidLinkError("Paste your friend's link first: it starts with checkers3d://")
            parse_link(text)
        except InvalidLinkError as err:
            self.phase = EnteringLink(left=left, text=link, caret=len(link), error=str(err))
            return
        self._close_friend()
        self.friend = self.rooms.join(text)
        self.notice = None
        self.phase = JoiningRoom(left=left, link=text)

    def _return_to_room(self, left: TurnPhase) -> None:
        """Back to the player's seat in the room of the friend's game ``left``."""
        room = left.mode.room
        assert room is not None and self.rooms is not None
        self._close_friend()
        self.friend = self.rooms.resume(room)
        self.notice = None
        self.phase = JoiningRoom(left=left, link=room.link, returning=True)

    def _leave_room_screen(self, p: RoomPhase) -> None:
        """Cancel on the room screen: a join goes back to its link, the rest to the mode screen; a
        room being opened or waited in is closed (and the game's own room server stopped with it,
        unless the game left on the mode screen still has its room there)."""
        if isinstance(p, (WaitingForFriend, JoiningRoom)):
            self._close_friend()
        if isinstance(p, WaitingForFriend) and self.rooms is not None:
            held = p.left.mode.room if p.left is not None else None
            if held is None or not held.hosted:
                self.rooms.stop_hosting()
        if isinstance(p, JoiningRoom) and not p.returning:
            self.phase = EnteringLink(left=p.left, text=p.link, caret=len(p.link))
        else:
            self.phase = ChoosingMode(left=p.left)

    def _close_friend(self) -> None:
        """Leave the room's connection (the seat stays the player's in the room)."""
        if self.friend is not None:
            self.friend.close()
            self.friend = None
        self._friend_clock = ()

    def _leave_rooms(self) -> None:
        """A game of another kind starts: the friend's room is left and the game's own server stopped."""
        self._close_friend()
        if self.rooms is not None:
            self.rooms.stop_hosting()

    def _rematch(self) -> None:
        p = self.turn_phase
        f = self.friend
        if not isinstance(p, GameOver) or not p.mode.vs_friend or f is None or self.rematch_asked:
            return
        if not f.is_connected:
            self._illegal("Not connected to the room: the rematch can be asked for once it is back")
            return
        f.rematch()
        self.rematch_asked = True
        self.notice = None if self.friend_wants_rematch else "Waiting for your friend to press Rematch too"

    def _continue_vs_computer(self) -> None:
        """The friend's game goes on against the computer (Medium) from where it is, moves kept."""
        p = self.game_phase
        if p is None or p.mode.room is None or not self.can_continue_vs_computer():
            return
        self._stop_opponent()
        self._close_friend()
        if p.mode.room.hosted and self.rooms is not None:
            self.rooms.stop_hosting()
        mode = Mode(Level.MEDIUM, p.mode.human)
        self._recorded = False
        self._after_change()
        self._enter_turn(p.game, mode)
        self.notice = "You now play the computer (Medium) from here"
        self._save()

    def _save_server(self, p: EnteringServer) -> None:
        text = p.text.strip()
        if text:
            try:
                parse_server_address(text)
            except InvalidLinkError as err:
                self.phase = dataclasses.replace(p, error=str(err))
                return
        self.settings.room_server = text
        self._save_settings()
        self.phase = ChoosingMode(left=p.left)

    def _register_links(self) -> None:
        from game.desktop import register_link_handler

        try:
            said = register_link_handler()
        except (OSError, RuntimeError) as err:
            said = f"Couldn't register checkers3d:// links: {err}"
        if isinstance(self.phase, EnteringServer):  # its card shows it
            self.notice = said
        else:
            self.notes.append(said)

    def _on_friend(self, news: FriendReply) -> None:
        """One piece of news from the friend's room: a reply as from any opponent, or the room's own."""
        match news:
            case OpponentMove() | DrawAnswer() | OpponentStatus() | OpponentError():
                if self.vs_friend:
                    self._on_reply(news)
            case _:
                self._on_room(news)

    def _on_room(self, news: RoomNews) -> None:
        from game import friend_opponent as fo

        p = self.turn_phase
        in_friend_game = isinstance(p, InGame) and p.mode.vs_friend
        match news:
            case fo.RoomOpened(link=link):
                if isinstance(self.phase, WaitingForFriend):
                    self.phase = dataclasses.replace(self.phase, link=link)
            case fo.GameStarted(game=game, color=color, number=number):
                self._friend_game_started(game, color, number)
            case fo.FriendResigned():
                if isinstance(p, InGame) and in_friend_game and not p.game.is_over:
                    assert p.mode.computer is not None
                    p.game.resign(p.mode.computer)
                    self.notice = "Your friend resigned"
                    self._after_change()
                    self._game_ended(p.game, p.mode)
                    self._save()
                    self.phase = GameOver(p.game, p.mode)
            case fo.Resynced(game=game):
                if isinstance(p, InGame) and in_friend_game:
                    refused = self.notice if self.notice and self.notice.startswith("The room refused") else None
                    self._take_friend_game(game, p.mode)
                    self.notice = refused or "The game was set back to where the room has it"
            case fo.Refused(message=message):
                self._room_failed(message, refused=True)
            case fo.FriendPresence(connected=connected, seated=seated):
                if in_friend_game and seated:
                    self.notice = "Your friend is back" if connected else "Your friend was disconnected"
            case fo.RematchAsked():
                self.friend_wants_rematch = True
                if in_friend_game:
                    self.notice = ("Your friend pressed Rematch too: the next game is starting" if self.rematch_asked
                                   else "Your friend asks for a rematch: press Rematch (swap sides)")
            case fo.ConnectionChanged(status="gave_up", detail=detail):
                self._room_failed(detail, refused=False)
            case fo.ConnectionChanged():
                pass  # the status line reads the connection
            case _:
                assert_never(news)

    def _room_failed(self, why: str, refused: bool) -> None:
        """The room refused a request (``refused``) or can't be reached any more: a room being
        opened or joined is given up (the reason shown); a game goes on showing it."""
        p = self.phase
        if isinstance(p, JoiningRoom):
            self._close_friend()
            if p.returning:
                self.phase = ChoosingMode(left=p.left)
                self.notes.append(f"Couldn't return to your friend's room: {why}")
            else:
                self.phase = EnteringLink(left=p.left, text=p.link, caret=len(p.link),
                                          error=f"Couldn't join {p.link}: {why}")
        elif isinstance(p, WaitingForFriend):
            self._leave_room_screen(p)
            self.notes.append(f"The room closed: {why}")
        elif self.vs_friend:
            self.notice = f"The room refused that: {why}" if refused else f"The connection to the room is lost: {why}"

    def _friend_game_started(self, game: Game, color: Color, number: int) -> None:
        """The room's game begins (the friend joined, a rematch, or the game found on returning)."""
        assert self.friend is not None
        room = self.friend.room
        assert room is not None, "the room gives the seat before its game"
        before = self.phase
        mode = Mode(human=color, room=room)
        self.flipped = False
        self.played = None
        self.rematch_asked = self.friend_wants_rematch = False
        self._recorded = game.is_over
        self._after_change()
        self.cursor = self._home_cursor(game.variant, color)
        self._enter_turn(game, mode)
        mover = "you move first" if game.turn is color else "your friend moves first"
        if number > 1:
            self.notice = f"Game {number}, sides swapped: you play {color.label.capitalize()}"
        elif isinstance(before, JoiningRoom) and before.returning:
            self.notice = "You are back in the room"
        else:
            self.notice = f"You play {color.label.capitalize()}; {mover}"
        self._save()

    def _take_friend_game(self, game: Game, mode: Mode) -> None:
        """The room's game replaces ours (ours differed: a move the room refused or never heard)."""
        self.played = None
        self._after_change()
        self._recorded = game.is_over
        self._enter_turn(game, mode)
        self._save()

    def _tick_friend_clock(self) -> bool:
        """Whether the times shown for the connections moved on (a second) or "Continue vs computer"
        appeared: the panel redraws then."""
        f = self.friend
        away, down = (f.friend_away_s(), f.down_s()) if f is not None else (None, None)
        clock = (None if away is None else int(away), None if down is None else int(down),
                 self.can_continue_vs_computer())
        if clock == self._friend_clock:
            return False
        self._friend_clock = clock
        return True


    # --- review and playing on from a position ------------------------------------------------

    def in_friend_game(self) -> bool:
        """Whether a game with a friend is going on on screen: a review, the editor, the browser and the
        analysis wait until it is over (the friend plays on meanwhile)."""
        p = self.in_game
        return p is not None and p.mode.vs_friend and not p.game.is_over

    def _refused_in_friend_game(self) -> bool:
        """:meth:`in_friend_game`, the player told why nothing happens."""
        if not self.in_friend_game():
            return False
        self._illegal("Not during a game with your friend: once it is over")
        return True

    def _review_to(self, ply: int | None) -> None:
        """Show the position after ``ply`` moves (None: the last). From a game going on this starts a
        review (the opponent waits); reaching the last move of a game going on ends it."""
        p = self.phase.under if isinstance(self.phase, Question) else self.phase
        if not isinstance(p, InGame) or (not isinstance(p, Reviewing) and self._refused_in_friend_game()):
            return
        game, last = p.game, len(p.game.moves)
        target = last if ply is None else max(0, min(ply, last))
        current = self.shown_ply()
        if isinstance(p, Reviewing):
            under = p.under
        else:
            if target == last:
                return
            self._stop_opponent()
            under = p
        self.notice = None
        self._deselect()
        self.played = Played(game.moves[current], game.positions[current]) if target == current + 1 else None
        if target == last and under is not None and not isinstance(under, GameOver):
            played = self.played
            self._go_back(under)
            self.played = played
            return
        self.phase = Reviewing(game, p.mode, target, under)

    def _back_to_game(self) -> None:
        p = self.reviewing
        if p is None or p.under is None:
            return
        self.played = None
        self._go_back(p.under)

    def _play_from_here(self, level: Level | None) -> None:
        """A new game from the position shown (the review's, the editor's or the game's as it stands):
        a record of the moves up to there (a set-up position has none), so the draw rules count on as
        they should; against the computer the person plays the side to move."""
        from engine.game import Game
        from game.review import game_at

        p = self.base_phase
        notice = None
        if isinstance(p, Editing):
            check = p.setup.check()
            if not check.is_playable:
                self._illegal("Can't play from here: " + "; ".join(check.problems))
                return
            from engine import Position

            game = Game(p.setup.variant, Position.from_fen(p.setup.variant, p.setup.fen()))
            notice = "; ".join(check.notes) or None  # allowed, and said again
        elif isinstance(p, InGame):
            game = game_at(p.game, self.shown_ply())
            if game.is_over:
                self._illegal("The game is over in this position")
                return
        else:
            return
        left = self._leave_game(keep=p.game if isinstance(p, Reviewing) else None)
        self._stop_opponent()
        self._close_listing()
        self._leave_rooms()
        mode = Mode(Level(level), game.turn) if level is not None else Mode()
        self.flipped = False
        self.played = None
        self.source = None
        self._recorded = False
        self._after_change()
        self.cursor = self._home_cursor(game.variant, mode.human if mode.human is not None else game.turn)
        self._enter_turn(game, mode)
        self.notice = "; ".join(n for n in (notice, left) if n) or None
        self._save()

    # --- the engine beside the board: analysis, hint, game report ---------------------------------

    def can_analyze(self) -> bool:
        """Whether "Analyze" can be turned on (a game on screen and an analyst)."""
        return self.analyst is not None and self.in_game is not None and not self.in_friend_game()

    def can_hint(self) -> bool:
        p = self.phase
        return (self.analyst is not None and isinstance(p, HumanToMove) and p.mode.vs_computer
                and not self.report_running)

    def can_report(self) -> bool:
        """Whether "Analyze game" can run: a game with moves, and the computer not thinking."""
        game = self.game
        return (self.analyst is not None and self.in_game is not None and game is not None and bool(game.moves)
                and not self.waiting_for_opponent and not self.report_running and not self.in_friend_game())

    def current_report(self) -> GameReport | None:
        """The game report of the game on screen, while its moves are still the ones analysed."""
        game = self.game
        if self.report is None or game is None or self.report_game is not game:
            return None
        if tuple(game.moves[:len(self._report_moves)]) != self._report_moves:
            return None  # moves taken back since
        return self.report

    def _toggle_analysis(self) -> None:
        if self.analysis_on:
            self.analysis_on = False
            self._stop_study()
        elif self.can_analyze():
            self.analysis_on = True

    def _hint(self) -> None:
        p = self.phase
        if not self.can_hint() or not isinstance(p, HumanToMove):
            return
        assert self.analyst is not None
        self.analyst.analyze(p.game, HINT_SECONDS)
        self.study = Study("hint", self._live_key(p.game), p.game.position, running=True)

    def _analyze_game(self) -> None:
        game = self.game
        if not self.can_report() or game is None:
            return
        assert self.analyst is not None
        self.analyst.analyze_game(game)
        self.study = None
        self.report_game, self.report, self.report_running = game, None, True
        self._report_moves = tuple(game.moves)
        self._report_scores, self._report_best = [], []

    @staticmethod
    def _live_key(game: Game) -> tuple:
        return id(game), len(game.moves), game.position

    def _study_target(self) -> tuple | str:
        """(key, ply) of the position the analysis should look at, or why it waits."""
        p = self.in_game
        if p is None:
            return "No game to analyse"
        if self.waiting_for_opponent:
            return "The analysis waits while the computer thinks"
        if self.report_running:
            return "The analysis waits for the game report"
        ply = self.shown_ply()
        live = not isinstance(p, Reviewing)
        if p.mode.vs_friend and not p.game.is_over:
            return "No analysis during a game with your friend: once it is over"
        if live and p.mode.vs_computer and not p.game.is_over:
            return "In a game against the computer, ask for a Hint (or look back at earlier moves)"
        return (id(p.game), ply, p.game.positions[ply]), ply

    def _follow_study(self) -> None:
        """Keep the analysis on the position shown (restarting it when that changes), drop a hint
        whose position is gone. Called after every intent and every reply."""
        if self.analyst is None:
            return
        study = self.study
        if study is not None and study.kind == "hint":
            p = self.phase
            if isinstance(p, HumanToMove) and study.key == self._live_key(p.game):
                return
            self._stop_study()
        if not self.analysis_on:
            return
        target = self._study_target()
        if isinstance(target, str):
            self._pause_study(target)
            return
        key, ply = target
        if study is not None and study.key == key:
            return
        from game.review import game_at

        shown = self.in_game
        assert shown is not None
        record = shown.game if ply == len(shown.game.moves) else game_at(shown.game, ply)
        if record.is_over:
            self.analyst.stop()
            self.study = Study("analysis", key, record.position, note="The game is over in this position")
            return
        self.analyst.analyze(record)
        self.study = Study("analysis", key, record.position, running=True)

    def _stop_study(self) -> None:
        if self.study is not None and self.study.running and self.analyst is not None:
            self.analyst.stop()
        self.study = None

    def _pause_study(self, why: str) -> None:
        """Stop the analyst (its requests forgotten), saying why, until it may think again."""
        if self.analyst is not None and (self.report_running or (self.study is not None and self.study.running)):
            self.analyst.stop()
        if self.report_running:
            self.report_running = False
            self.notice = "The game report was stopped: the computer is thinking"
        if self.analysis_on:
            self.study = Study("analysis", None, None, note=why)
        elif self.study is not None:
            self.study = None

    def _on_analysis(self, answer) -> None:
        match answer:
            case LineFound(line=line, final=final) if self.study is not None and self.study.running:
                self.study.line = line
                self.study.running = not final
            case PositionScored(score=score, best=best) if self.report_running and self.report_game is not None:
                from game.report import GameReport

                self._report_scores.append(score)
                self._report_best.append(best)
                self.report = GameReport.of(self.report_game, self._report_scores, self._report_best)
            case GameScored(scores=scores, best=best) if self.report_running and self.report_game is not None:
                from game.report import GameReport

                self.report = GameReport.of(self.report_game, scores, best)
                self.report_running = False
                marks = self.report.marks()
                blunders = sum(1 for m in marks.values() if m == "??")
                self.notice = (f"Game report: {len(marks) - blunders} mistake{'s' if len(marks) - blunders != 1 else ''}"
                               f" (?) and {blunders} blunder{'s' if blunders != 1 else ''} (??)")
            case AnalysisFailed(message=message):
                self.study = None
                self.analysis_on = self.report_running = False
                self.notice = f"{message[:1].upper()}{message[1:]}"
            case _:
                pass  # an answer nothing waits for any more

    # --- PDN out: save, copy ------------------------------------------------------------------

    def pdn(self) -> PdnGame | None:
        """The game on screen as PDN: as its file has it while its moves are those read (its tags,
        comments and result), else its tags (from its file, or the players and the date), moves and
        result; with the game report's marks and scores when there is one."""
        from engine.pdn import PdnGame
        from game.files import game_tags
        from game.report import annotate

        game, mode = self.game, self.mode
        if game is None or mode is None:
            return None
        source = self.source
        if source is not None and [pm.move for pm in source.moves] == game.moves:
            pdn = source  # as it was read: its tags, comments, marks and result (a draw agreed ...)
        else:
            tags = dict(source.tags) if source is not None else game_tags(game.variant, mode, datetime.datetime.now())
            pdn = PdnGame.from_game(game, tags)
        report = self.current_report()
        return annotate(pdn, report) if report is not None else pdn

    def _save_pdn(self) -> None:
        from game.files import file_name, save_text

        pdn = self.pdn()
        if pdn is None:
            return
        try:
            path = save_text(pdn.pdn(), file_name(pdn.variant or self.variant, pdn.tags, datetime.datetime.now()))
        except OSError as err:
            self._illegal(f"Couldn't save the game: {err.strerror or err}")
            return
        self.notice = f"Saved as {path}"
        if self.storage is not None:
            self.storage.add_recent_file(str(path))

    def _copy_pdn(self) -> None:
        pdn = self.pdn()
        if pdn is not None:
            self.clipboard = pdn.pdn()
            self.notice = "The game's PDN is on the clipboard"

    # --- PDN in: files, pasted text, the browser ------------------------------------------------

    def _open_browser(self) -> None:
        """The browser: the recent files and the games folder's (over a file's games: back to them)."""
        from game.files import folder_files, games_dir

        if isinstance(self.phase, (ReadingHelp, Resuming, RoomPhase)) or self._refused_in_friend_game():
            return
        if isinstance(self.phase, Browsing):
            under = self.phase.under
            self._close_listing()
        else:
            self._stop_opponent()
            under = self.phase.under if isinstance(self.phase, Question) else self.phase
        self._deselect()
        self.notice = None
        recent = tuple(p for p in (self.storage.recent_files() if self.storage is not None else [])
                       if os.path.isfile(p))
        folder = tuple(str(p) for p in folder_files(games_dir()) if str(p) not in recent)
        self.phase = Browsing(under, recent=recent, folder=folder)

    def _close_browser(self) -> None:
        if isinstance(self.phase, Browsing):
            self._close_listing()
            self._go_back(self.phase.under)

    def _close_listing(self) -> None:
        if isinstance(self.phase, Browsing) and self.phase.listing is not None:
            self.phase.listing.cancel()

    def _open_file(self, path: str) -> None:
        """Read a PDN file's games (off this thread, in the browser): one game opens by itself."""
        from game.files import Listing

        if not isinstance(self.phase, Browsing):
            self._open_browser()
            if not isinstance(self.phase, Browsing):
                return  # not now (a game with a friend, the room screen ...)
        self._close_listing()
        listing = Listing(path)
        listing.start()
        self.phase = dataclasses.replace(self.phase, listing=listing, page=0)

    def _follow_listing(self) -> bool:
        """The browser's file being read: redraw as games come; once read, a file of one game opens
        it, and the file goes to the recent ones. Returns whether anything changed."""
        p = self.phase
        if not isinstance(p, Browsing) or p.listing is None:
            return False
        listing = p.listing
        seen = (listing, len(listing.games), listing.done.is_set())
        if seen == self._listing_seen:
            return False
        self._listing_seen = seen
        if listing.done.is_set() and self._listing_handled is not listing:
            self._listing_handled = listing
            if listing.error is None and listing.games and self.storage is not None and listing.is_file:
                self.storage.add_recent_file(str(listing.path))
            if listing.error is not None:
                self.notice = listing.error
            elif not listing.games:
                self.notice = f"No games in {listing.path.name}"
            elif len(listing.games) == 1:
                self._open_pdn(listing.games[0])
        return True

    def _open_listed(self, index: int) -> None:
        p = self.phase
        if isinstance(p, Browsing) and p.listing is not None and 0 <= index < len(p.listing.games):
            self._open_pdn(p.listing.games[index])

    def _open_pdn(self, pdn: PdnGame) -> None:
        """Show a game read from PDN in a review from its start; what couldn't be read is said (the
        moves before it are kept)."""
        from engine.pdn import PdnError

        if pdn.variant is None or (pdn.error is not None and not pdn.moves):
            self._illegal(f"Can't open it: {pdn.error}")
            return
        try:
            game = pdn.to_game()
        except PdnError as err:
            self._illegal(f"Can't open it: {err}")
            return
        left = self._leave_game()
        self._close_listing()
        self._stop_opponent()
        self._leave_rooms()
        self._after_change()
        self.flipped = False
        self.played = None
        self._recorded = True  # a game from a file never counts in the results
        self.source = pdn
        white, black = pdn.players
        if pdn.error is not None:
            self.notice = f"Read {game.ply} moves; then: {pdn.error}"
        elif game.ply < pdn.plies:
            self.notice = f"The rules end this game after {game.ply} of its {pdn.plies} moves"
        else:
            self.notice = f"{white} – {black}: {len(game.moves)} moves, {pdn.result}. Step through with ◀ ▶"
        if left:
            self.notice = f"{left}. {self.notice}"
        self.phase = Reviewing(game, Mode(), 0, None)

    def _paste(self, text: str) -> None:
        """Pasted text: a FEN (into the editor's board, or opened as a position), else PDN games."""
        from engine import InvalidFenError
        from engine.pdn import PdnError, position_from_fen, read_text
        from game.files import MAX_PASTE_CHARS, Listing

        if self._refused_in_friend_game():
            return
        text = text.strip()
        if not text:
            self._illegal("There is no text on the clipboard to paste")
            return
        if len(text) > MAX_PASTE_CHARS:
            self._illegal(f"The pasted text is too long ({len(text):,} characters) to be a game")
            return
        editing = self.editing
        if _FEN_TEXT.match(text):
            try:
                position = position_from_fen(text, editing.setup.variant if editing is not None else None)
            except InvalidFenError as err:
                self._illegal(str(err))
                return
            if editing is not None:
                from game.editor import Setup

                self.phase = dataclasses.replace(editing, setup=Setup.of(position))
                self.notice = "Position pasted"
                return
            from engine.game import Game
            from engine.pdn import PdnGame

            self._open_pdn(PdnGame.from_game(Game(position.variant, position)))
            self.notice = "Position pasted: Analyze it, or play from here"
            return
        try:
            games = read_text(text)
        except PdnError as err:
            self._illegal(str(err))
            return
        if not games:
            self._illegal("The pasted text holds no PDN game and no FEN")
        elif len(games) == 1:
            self._open_pdn(games[0])
        else:
            if not isinstance(self.phase, Browsing):
                self._open_browser()
            self._close_listing()
            assert isinstance(self.phase, Browsing)
            self.phase = dataclasses.replace(self.phase, listing=Listing.of_games(games, "pasted text"), page=0)

    # --- the position editor ---------------------------------------------------------------------

    def _edit(self) -> None:
        """The editor, on the position shown (the rules' start position from the mode screen)."""
        from game.editor import Setup, Tool

        p = self.base_phase
        if isinstance(p, (Editing, ReadingHelp, Resuming, RoomPhase)) or self._refused_in_friend_game():
            return
        self._stop_opponent()
        self._close_listing()
        position = self.shown_position()
        setup = Setup.of(position) if position is not None else Setup.start(self.variant)
        left = p.under if isinstance(p, Question) else p
        assert not isinstance(left, Browsing)
        self._deselect()
        self.notice = None
        self.played = None
        self.cursor = self._home_cursor(setup.variant, setup.variant.first_player)
        first = setup.variant.first_player
        self.phase = Editing(setup, Tool.BLACK_MAN if first is Color.BLACK else Tool.WHITE_MAN, left)

    # --- games, saving --------------------------------------------------------------------------

    def _new_game(self, variant: Variant, mode: Mode) -> None:
        from engine.game import Game

        self._stop_opponent()
        self._leave_rooms()
        self._close_listing()
        self.flipped = False
        self.played = None
        self.notice = None
        self.source = None
        self._recorded = False
        self._after_change()
        game = Game(variant)
        self._home(game, mode)
        self._enter_turn(game, mode)
        self._save()

    def _home(self, game: Game, mode: Mode) -> None:
        """A new game's keyboard cursor: hidden until an arrow key, on the player's near edge."""
        variant = game.variant
        self.cursor = self._home_cursor(variant, mode.human if mode.human is not None else variant.first_player)
        self.cursor_visible = False

    def open_game(self, game: Game, mode: Mode, flipped: bool = False) -> None:
        """Show ``game`` (played as ``mode``) on the game screen, in the phase it is in."""
        self.flipped = flipped
        self._recorded = game.is_over
        self._after_change()
        self._home(game, mode)
        self._enter_turn(game, mode)
        self.version += 1

    def _save(self) -> None:
        game, mode = self.game, self.mode
        if self.storage is None or game is None or mode is None:
            return
        saved: dict[str, Any] = {"level": mode.level.value if mode.level is not None else None,
                                 "human": mode.human.label if mode.human is not None else None}
        if mode.room is not None:  # the seat's secret too: returning to the room after a relaunch needs it
            saved["room"] = {"link": mode.room.link, "seat": mode.room.secret, "hosted": mode.room.hosted}
        self.storage.save_game({"mode": saved, "flipped": self.flipped,
                                "over": game.is_over,  # read at launch, before the engine can replay it
                                "game": game.to_dict()})

    def _save_settings(self) -> None:
        if self.storage is not None:
            self.storage.save_settings(self.settings)

    def expect_saved_game(self) -> bool:
        """At launch, before the rules engine has loaded: if a game in progress was saved, show the
        game screen at once (:class:`Resuming`) until :meth:`restore` can rebuild it (a friend's game
        goes to the mode screen, which offers its room back). Reads the file only; whether its moves are
        good is for :meth:`restore` to find."""
        data = self.storage.peek_game() if self.storage is not None else None
        try:
            assert data is not None and data["over"] is False
            m = data["mode"]
            assert m.get("room") is None
            mode = Mode(Level(m["level"]) if m["level"] is not None else None,
                        Color[m["human"].upper()] if m["human"] else None)
            variant = variant_named(data["game"]["variant"]).name
        except (AssertionError, KeyError, TypeError, AttributeError, ValueError):
            return False  # none, finished, or not readable here: the mode screen, as before
        self.phase = Resuming(variant, mode)
        self.version += 1
        return True

    def attach_opponent(self, opponent: Opponent) -> None:
        """The opponent is there (the computer's process ready): ask it what the game waits for, if
        anything (a game restored before it was)."""
        self.opponent = opponent
        p = self.turn_phase
        if isinstance(p, (OpponentToMove, AwaitingDrawAnswer)):
            self._ask(p)  # under a question or the help screen too: they stay
        self.version += 1

    def restore(self) -> bool:
        """Load the saved game in progress (if any and not finished) and show it; False if none. A
        player reading the help meanwhile stays there, and Back leads to the game."""
        reading = self.phase if isinstance(self.phase, ReadingHelp) else None
        restored = self._restore()
        if reading is not None and self.phase is not reading:
            self.phase = dataclasses.replace(reading, back=self.left_for_help)
        return restored

    def _restore(self) -> bool:
        if self.storage is None:
            return False
        data = self.storage.load_game(self._game_from_dict)
        self.notes.extend(self.storage.take_notes())
        self.version += 1
        if data is None:
            if isinstance(self.left_for_help, Resuming):  # it could not be read after all
                self.phase = ChoosingMode()
            return False
        game, mode, flipped = data
        if game.is_over or mode.vs_friend:
            # kept for the mode screen: the game last played, or a friend's game to return to
            self.phase = ChoosingMode(left=self._phase_of(game, mode))
            self.flipped = flipped
            if mode.vs_friend:
                self.settings.variant = game.variant.name
            return False
        self.settings.variant = game.variant.name
        self.open_game(game, mode, flipped)
        return True

    @staticmethod
    def _game_from_dict(d: dict) -> tuple[Game, Mode, bool]:
        """(game, mode, flipped) from a saved game; ValueError when the content is not a saved game."""
        from engine.game import Game

        try:
            m = d["mode"]
            level, human, room = m["level"], m["human"], m.get("room")
            if room is not None:
                room = Room(str(room["link"]), str(room["seat"]), bool(room.get("hosted", False)))
            mode = Mode(Level(level) if level is not None else None, Color[human.upper()] if human else None, room)
            if (mode.vs_computer or mode.vs_friend) != (mode.human is not None) or (mode.vs_computer and mode.vs_friend):
                raise ValueError("a game against the computer or a friend needs the player's colour, and only one")
            return Game.from_dict(d["game"]), mode, bool(d.get("flipped", False))
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not a saved game: {err!r}") from None

    def close(self) -> None:
        """Stop the opponent and the analysis, leave the friend's room (stopping the game's own room
        server) and let the last save reach the disk (saved after every move)."""
        self._stop_opponent()
        if self.analyst is not None:
            self.analyst.stop()
        self._close_listing()
        self._close_friend()
        if self.rooms is not None:
            self.rooms.close()
        if self.storage is not None:
            self.storage.flush()


def _clock(seconds: float) -> str:
    """A time away as a clock shows it: 0:07, 2:45."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"

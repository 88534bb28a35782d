"""The phases of the play state machine: each a frozen value, replaced at each transition by the one
module that applies transitions (``game.play.machine``, whose table says which intent leads where in
which phase). Every phase on the game screen carries the game and its mode, so neither is ever
missing there.

* the mode screen (:class:`ChoosingMode`, holding the game left there), the game screen's phases of a
  game (:data:`TurnPhase`: who acts), a game opened or resumed (:class:`Resuming` while the rules
  engine loads at launch), the room screen's (:data:`RoomScreen`), the review, the editor and the
  browser, and the help screen over any of them;
* a phase that returns somewhere holds where: :class:`ChoosingMode` and :class:`Editing` the phase
  left, :class:`ReadingHelp` its ``back``; a question or an overlay holds the phase under it, as the
  :class:`Question` phases (the game goes on under them), :class:`ConfirmingLeave` and
  :class:`Browsing` do.

The functions at the end read through those layers (``turn_of``, ``game_phase_of`` ...): what the
game on screen is, who acts in it, which ply the board shows.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from game.modes import Mode

if TYPE_CHECKING:  # engine.game loads with the first game: the mode screen needs no numba
    from engine import Move, Position
    from engine.game import Game
    from game.files.pdn import Listing
    from game.play.editor import Setup, Tool
    from game.play.intents import Intent


class Screen(enum.Enum):
    """What fills the window beside the 3D board."""

    MODE = "mode"  # choosing the rules and how to play
    GAME = "game"  # a game: the panel, the status line and the board's buttons
    ROOM = "room"  # reaching a friend's room: its link, the link field, the room server's address
    HELP = "help"  # the Rules or the Controls pages, over the whole window
    EDITOR = "editor"  # setting up a position: the board, and the editor's panel


class HelpPage(enum.StrEnum):
    """The pages of the help screen (``game.help``)."""

    RULES = "rules"
    CONTROLS = "controls"


@dataclass(frozen=True)
class ChoosingMode:
    """The mode screen. ``left`` is the game the player left for it ("Change mode"), which "Back to
    the game in progress" resumes; None at launch. ``more_rules``: the "More rule sets" list is open
    (closed whenever the screen opens)."""

    left: TurnPhase | None = None
    more_rules: bool = False
    screen: ClassVar[Screen] = Screen.MODE


@dataclass(frozen=True)
class Resuming:
    """The game screen at launch while the rules engine loads: a game in progress was saved (with the
    rules ``variant``, a name in ``engine.ALL_VARIANTS``, played as ``mode``), and it is rebuilt and shown
    as soon as the engine can replay it. Nothing is played meanwhile."""

    variant: str
    mode: Mode
    screen: ClassVar[Screen] = Screen.GAME


@dataclass(frozen=True)
class InGame:
    """A phase of a game on the game screen."""

    game: Game
    mode: Mode
    screen: ClassVar[Screen] = Screen.GAME


@dataclass(frozen=True)
class HumanToMove(InGame):
    """A person here may move (either side, with two players on this device)."""


@dataclass(frozen=True)
class OpponentToMove(InGame):
    """The opponent finds its move; the window never waits for it. ``declined_offer``: it has just
    declined the player's draw offer (the player is told so with its move)."""

    declined_offer: bool = False


@dataclass(frozen=True)
class AwaitingDrawAnswer(InGame):
    """The opponent decides on the draw the player offered with their move."""


@dataclass(frozen=True)
class GameOver(InGame):
    """The game has ended (``game.outcome``)."""


@dataclass(frozen=True)
class OpponentFailed(InGame):
    """The opponent could not answer (``message`` says why): the game waits for the player to take
    back their move or start another game."""

    message: str


@dataclass(frozen=True)
class Question(InGame):
    """A question asked over ``under``, the phase the game is in, which goes on meanwhile."""

    under: TurnPhase


@dataclass(frozen=True)
class ConfirmingResign(Question):
    """The question "Resign this game?"."""


@dataclass(frozen=True)
class RoomPhase:
    """A phase of the room screen. ``left`` is the game the mode screen held (Cancel goes back to it)."""

    left: TurnPhase | None = None
    screen: ClassVar[Screen] = Screen.ROOM


@dataclass(frozen=True)
class WaitingForFriend(RoomPhase):
    """The player's room is being opened (``link`` None) or is open, and waits for the friend.
    ``reach`` says where the friend's game connects to, ``this_network`` whether that is the game's
    own room server (reached on this network only)."""

    variant: str = ""
    link: str | None = None
    reach: str = ""
    this_network: bool = False


@dataclass(frozen=True)
class EnteringText(RoomPhase):
    """A text field (``text``, with the caret before ``caret``); ``error`` says what was wrong with
    the text last submitted."""

    text: str = ""
    caret: int = 0
    error: str | None = None


@dataclass(frozen=True)
class EnteringLink(EnteringText):
    """"Join a friend": the link to paste or type."""


@dataclass(frozen=True)
class EnteringServer(EnteringText):
    """Settings, "Room server": an address, or nothing for the game's own server."""


@dataclass(frozen=True)
class EnteringNickname(EnteringText):
    """The nickname an opponent found online sees (kept in the settings); with ``seek``, submitting
    it goes on to "Play someone online"."""

    seek: bool = False


@dataclass(frozen=True)
class SeekingOpponent(RoomPhase):
    """"Play someone online": waiting on the room server (``reach``) to be paired with the next player
    seeking ``variant``, as ``nickname``, since ``since`` (``time.monotonic()``)."""

    variant: str = ""
    nickname: str = ""
    since: float = 0.0
    reach: str = ""


@dataclass(frozen=True)
class JoiningRoom(RoomPhase):
    """Connecting to the room of ``link``, to take its free seat, or (``returning``) to return to the
    player's seat in the game ``left``."""

    link: str = ""
    returning: bool = False


TurnPhase = HumanToMove | OpponentToMove | AwaitingDrawAnswer | GameOver | OpponentFailed  # who acts in the game
RoomScreen = (WaitingForFriend | EnteringLink | EnteringServer | EnteringNickname | SeekingOpponent
              | JoiningRoom)  # the phases of the room screen


@dataclass(frozen=True)
class Reviewing(InGame):
    """Stepping through ``game``: the board shows the position after ``ply`` moves (0: the start).
    ``under`` is the phase of the game to go back to (it waits meanwhile), None for a game opened
    from a file, which goes on only by "Play from here"."""

    ply: int = 0
    under: TurnPhase | None = None


@dataclass(frozen=True)
class Editing:
    """The position editor: ``setup`` is the position being set up, ``tool`` what a press on the board
    puts there, and ``left`` the phase that "Cancel" returns to."""

    setup: Setup
    tool: Tool
    left: ChoosingMode | TurnPhase | Reviewing
    screen: ClassVar[Screen] = Screen.EDITOR


@dataclass(frozen=True)
class Browsing:
    """The PDN browser over ``under`` (which waits): the recent files and the games folder's, then
    the games of the file being read (``listing``), a page of them at a time."""

    under: ChoosingMode | TurnPhase | Reviewing | Editing
    listing: Listing | None = None
    page: int = 0
    recent: tuple[str, ...] = ()  # the files opened or saved lately, the latest first
    folder: tuple[str, ...] = ()  # the games folder's PDN files, the newest first

    @property
    def screen(self) -> Screen:
        return self.under.screen


@dataclass(frozen=True)
class ConfirmingLeave:
    """The question "Start a new game?" (or "Open this game?"): ``then``, what the player asked for,
    would leave ``leaving``, a game that counts (against the computer, from the start, the player
    having moved: a loss at its level; with a friend, going on: resigned). The question stands over
    ``over``, the phase the player asked from (a question there dropped), which goes on meanwhile as
    under :class:`ConfirmingResign`; "Yes" counts the game left, then does ``then``; Cancel changes
    nothing."""

    over: ChoosingMode | TurnPhase | Reviewing | Editing | Browsing
    leaving: TurnPhase
    then: Intent

    @property
    def screen(self) -> Screen:
        return self.over.screen


@dataclass(frozen=True)
class ReadingHelp:
    """The help screen: ``page`` (the Rules of ``variant``, a name in ``engine.ALL_VARIANTS``, or the
    Controls), opened at the section with the id ``section`` (None: at the top). ``back`` is the phase
    the player left for it, which Back returns to as it was: a game keeps its state, and its opponent
    goes on thinking (its reply is taken once the player is back)."""

    back: (ChoosingMode | Resuming | TurnPhase | ConfirmingResign | ConfirmingLeave | RoomScreen | Reviewing | Editing
          | Browsing)
    variant: str
    page: HelpPage = HelpPage.RULES
    section: str | None = None
    jumps: int = 0  # entries of the contents pressed (each scrolls the page to its section)
    screen: ClassVar[Screen] = Screen.HELP


Phase = (ChoosingMode | Resuming | TurnPhase | ConfirmingResign | ConfirmingLeave | ReadingHelp | RoomScreen
         | Reviewing | Editing | Browsing)
P = TypeVar("P", bound=Phase)
TURNS = (HumanToMove, OpponentToMove, AwaitingDrawAnswer, GameOver, OpponentFailed)
ROOM_SCREEN = (WaitingForFriend, EnteringLink, EnteringServer, EnteringNickname, SeekingOpponent, JoiningRoom)


@dataclass(frozen=True)
class Played:
    """A move just played, for the animation: ``move.path`` is the route actually taken."""

    move: Move
    before: Position


# --- reading through the layers --------------------------------------------------------------------

def help_back(phase: Phase) -> Phase:
    """The phase under the help screen (the one Back returns to); else the phase itself."""
    return phase.back if isinstance(phase, ReadingHelp) else phase


def unasked(phase: Phase) -> Phase:
    """The phase under a question (:class:`ConfirmingLeave`, then a :class:`Question`), else itself."""
    if isinstance(phase, ConfirmingLeave):
        phase = phase.over
    return phase.under if isinstance(phase, Question) else phase


def turn_of(phase: Phase) -> Phase:
    """Who acts in the game: the phase under the help screen and the questions (nobody in a review,
    the editor or the browser, which are themselves)."""
    return unasked(help_back(phase))


def base_of(phase: Phase) -> Phase:
    """The phase on screen under the leaving question and the PDN browser."""
    if isinstance(phase, ConfirmingLeave):
        phase = phase.over
    return phase.under if isinstance(phase, Browsing) else phase


def in_game_of(phase: Phase) -> InGame | None:
    """The phase of the game on screen (a review and a question too, and under the browser)."""
    p = base_of(phase)
    return p if isinstance(p, InGame) else None


def shown_of(phase: Phase) -> Phase:
    """The phase whose game is on screen: under the help screen, the leaving question and the browser."""
    return base_of(help_back(phase))


def game_phase_of(phase: Phase | None) -> TurnPhase | None:
    """The phase of the game that ``phase`` is over or waits to return to (None: no game)."""
    match phase:
        case Question(under=under) | Reviewing(under=under):
            return under
        case ConfirmingLeave(over=over):
            return game_phase_of(over)
        case Browsing(under=under):
            return game_phase_of(under)
        case Editing(left=left):
            return game_phase_of(left)
        case ReadingHelp(back=back):
            return game_phase_of(back)
        case ChoosingMode(left=left) | RoomPhase(left=left):
            return left
        case Resuming() | None:
            return None
    return phase


def with_game_phase(phase: P, turn: TurnPhase) -> P:
    """``phase`` with the phase of its game (as :func:`game_phase_of` finds it) replaced by ``turn``."""
    return typing.cast(P, _with_game_phase(phase, turn))


def _with_game_phase(phase: Any, turn: TurnPhase) -> Any:
    match phase:
        case Question(under=_):
            return dataclasses.replace(phase, under=turn)
        case Reviewing(under=under) if under is not None:
            return dataclasses.replace(phase, under=turn)
        case ConfirmingLeave(over=over):
            return dataclasses.replace(phase, over=_with_game_phase(over, turn), leaving=turn)
        case Browsing(under=under):
            return dataclasses.replace(phase, under=_with_game_phase(under, turn))
        case Editing(left=left):
            return dataclasses.replace(phase, left=_with_game_phase(left, turn))
        case ReadingHelp(back=back):
            return dataclasses.replace(phase, back=_with_game_phase(back, turn))
        case ChoosingMode(left=left) | RoomPhase(left=left) if left is not None:
            return dataclasses.replace(phase, left=turn)
        case HumanToMove() | OpponentToMove() | AwaitingDrawAnswer() | GameOver() | OpponentFailed():
            return turn
    return phase


def shown_ply_of(phase: Phase) -> int:
    """How many moves of the game the board shows (all of them but in a review)."""
    p = in_game_of(phase)
    if p is None:
        return 0
    return p.ply if isinstance(p, Reviewing) else len(p.game.moves)


def phase_of(game: Game, mode: Mode) -> TurnPhase:
    """The phase ``game`` is in as it stands: over, a person's move, or the opponent's (its move, or its
    answer to the player's draw offer)."""
    if game.is_over:
        return GameOver(game, mode)
    if mode.computer is None or game.turn is not mode.computer:
        return HumanToMove(game, mode)
    if game.pending_offer is mode.human:
        return AwaitingDrawAnswer(game, mode)
    return OpponentToMove(game, mode)


def is_waiting_for_opponent(phase: Phase) -> bool:
    """Whether the opponent is finding a move or deciding on a draw offer (a review, the editor and the
    browser stop it: the game waits meanwhile)."""
    return isinstance(turn_of(phase), (OpponentToMove, AwaitingDrawAnswer))


def in_friend_game(phase: Phase) -> bool:
    """Whether a game with a friend is going on on screen: a review, the editor, the browser and the
    analysis wait until it is over (the friend plays on meanwhile)."""
    p = in_game_of(phase)
    return p is not None and p.mode.vs_friend and not p.game.is_over

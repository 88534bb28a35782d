"""The controller's state: how a game is played (:class:`Mode`) and the phase it is in.

A phase is a frozen value that the controller (``game.play.machine``) replaces at each transition.
Every phase on the game screen carries the game and its mode, so neither is ever missing there.

    ChoosingMode --StartGame, PlayAgain--> the new game's first phase
                 --ContinueSaved--------> the phase it left (a failed opponent is asked again)
    any game phase --ChangeMode--> ChoosingMode(left=that phase)

    HumanToMove --a move--> OpponentToMove          the opponent's turn
                            AwaitingDrawAnswer      the opponent's turn, with the player's draw offer
                            HumanToMove             two players on this device
                            GameOver                the move ended the game
                --accepting the opponent's offer--> GameOver
    AwaitingDrawAnswer --accepted--> GameOver
                       --declined--> OpponentToMove
    OpponentToMove --its move--> HumanToMove, GameOver
    OpponentToMove, AwaitingDrawAnswer --the opponent fails--> OpponentFailed
    HumanToMove, OpponentToMove, AwaitingDrawAnswer, OpponentFailed, GameOver
                --Undo--> HumanToMove (OpponentToMove when the computer opened the game)
    a game going on --Resign--> ConfirmingResign(under=its phase)
                                --Cancel--> that phase; --ConfirmResign--> GameOver
                                the board works meanwhile, and any move, undo or new game answers it
    a game against the computer going on, the player having moved
                --PlayAgain--> ConfirmingNewGame(under=its phase), a question as ConfirmingResign is
                               --ConfirmNewGame--> the new game (the one left counts as a loss)
    ChoosingMode(left=such a game) --StartGame, PlayFriend, OpenJoin, JoinRoom--> ChoosingMode(left, asking=that intent)
                                   --ConfirmNewGame--> the new game (the one left counts as a loss), or
                                                       the room screen (the one left resigned)
                                   --Cancel--> ChoosingMode(left)
    a game phase --JoinRoom (a link on the command line)--> ChoosingMode(left=that phase), and on as there
    any phase but ReadingHelp --OpenHelp (F1, "Rules", a refusal pressed)--> ReadingHelp(back=that phase)
    ReadingHelp --OpenHelp--> ReadingHelp (another page or section, the same back)
                --CloseHelp, Cancel (Back, Esc)--> back, unchanged: the opponent's reply waits meanwhile
    a game phase --a step back, a press on the move list--> Reviewing(under=that phase)
                 (the opponent is stopped meanwhile: the game waits)
    Reviewing --steps, jumps--> Reviewing (another ply)
              --back to the game, or a step past the last move--> under (the opponent asked again)
              --Play from here--> the new game's first phase (a record of the moves up to there)
    a game opened from a file --> Reviewing(under=None) (it has no phase of its own to go back to)
    any phase but the editor --Set up a position--> Editing(left=that phase) --Cancel--> left
                                                    --Play from here--> the new game's first phase
    any phase --Open a game--> Browsing(under=that phase) --Close--> under; --a game chosen--> Reviewing

    at launch, with a game in progress saved: Resuming (the game screen while the rules engine loads)
                --the engine loaded--> the saved game's phase; ChoosingMode when it can't be read

A game with a friend (``Mode.room``) goes through the same phases: the friend is the opponent in
:class:`OpponentToMove` (``game.friend.opponent``), and a rematch starts the room's next game in
its first phase. Reaching the room has phases of its own, on the room screen:

    ChoosingMode --PlayFriend--> WaitingForFriend (link None until the room is open, then its link)
                 --OpenJoin----> EnteringLink --JoinRoom--> JoiningRoom
                 --JoinRoom (a link on the command line)--> JoiningRoom
                 --ContinueSaved (a friend's game left)---> JoiningRoom(returning=True)
                 --EditServer--> EnteringServer --SubmitText--> ChoosingMode
    WaitingForFriend, JoiningRoom --the friend's room starts its game--> the game's first phase
    JoiningRoom --refused, or the room is gone--> EnteringLink (with the reason), or ChoosingMode
    any of them --Cancel--> ChoosingMode (the room closed, and the game's own room server stopped)

Further phases hold what they return to, as :class:`ChoosingMode`, :class:`ReadingHelp` and
:class:`Editing` do, and a question or an overlay over a phase holds the phase under it, as the
:class:`Question` phases and :class:`Browsing` do.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from game.modes import Mode

if TYPE_CHECKING:  # engine.game loads with the first game: the mode screen needs no numba
    from engine import Move, Position
    from engine.game import Game
    from game.files.pdn import Listing
    from game.play.editor import Setup, Tool
    from game.play.intents import JoinRoom, OpenJoin, PlayFriend, StartGame


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
    the game in progress" resumes; None at launch. ``asking``: the new game the player chose while
    ``left`` is a game against the computer going on, waiting for them to confirm abandoning it (for
    a friend's game, ``PlayFriend``, ``OpenJoin`` or ``JoinRoom``, a link given on the command line:
    the game left is resigned)."""

    left: TurnPhase | None = None
    asking: StartGame | PlayFriend | OpenJoin | JoinRoom | None = None
    screen: ClassVar[Screen] = Screen.MODE


@dataclass(frozen=True)
class Resuming:
    """The game screen at launch while the rules engine loads: a game in progress was saved (with the
    rules ``variant``, a name in ``engine.VARIANTS``, played as ``mode``), and it is rebuilt and shown
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
class ConfirmingNewGame(Question):
    """The question "Start a new game?": Play again would abandon a game against the computer that is
    going on, which counts as a loss at its level."""


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
class JoiningRoom(RoomPhase):
    """Connecting to the room of ``link``, to take its free seat, or (``returning``) to return to the
    player's seat in the game ``left``."""

    link: str = ""
    returning: bool = False


TurnPhase = HumanToMove | OpponentToMove | AwaitingDrawAnswer | GameOver | OpponentFailed  # who acts in the game
RoomScreen = WaitingForFriend | EnteringLink | EnteringServer | JoiningRoom  # the phases of the room screen


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
class ReadingHelp:
    """The help screen: ``page`` (the Rules of ``variant``, a name in ``engine.VARIANTS``, or the
    Controls), opened at the section with the id ``section`` (None: at the top). ``back`` is the phase
    the player left for it, which Back returns to as it was: a game keeps its state, and its opponent
    goes on thinking (its reply is taken once the player is back)."""

    back: (ChoosingMode | Resuming | TurnPhase | ConfirmingResign | ConfirmingNewGame | RoomScreen | Reviewing | Editing
          | Browsing)
    variant: str
    page: HelpPage = HelpPage.RULES
    section: str | None = None
    screen: ClassVar[Screen] = Screen.HELP


Phase = (ChoosingMode | Resuming | TurnPhase | ConfirmingResign | ConfirmingNewGame | ReadingHelp | RoomScreen
         | Reviewing | Editing | Browsing)


@dataclass(frozen=True)
class Played:
    """A move just played, for the animation: ``move.path`` is the route actually taken."""

    move: Move
    before: Position

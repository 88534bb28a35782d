"""What a player asks for: the intents that ``game.window.input`` and the panel send to the state
machine, and the window's reports to it.

Each is a frozen value; :meth:`game.play.machine.Controller.handle` looks up its type with the phase's
in the machine's table, which says what it does there or why it is refused; a value of any other type
is a TypeError. The window's own events (quit, resize, turning the camera) are ``game.window.input``'s
and stay in the app. A new intent is a dataclass here, added to :data:`Intent`, and a row of the
machine's table (see ``game.play.machine``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.files.settings import View
from game.modes import Level
from game.play.phases import HelpPage

if TYPE_CHECKING:
    from engine import Color, Move
    from game.play.editor import Tool


@dataclass(frozen=True)
class SquarePressed:
    """A press on the board (3D board or the "Button controls" table). ``square`` is a playable square
    number, or None for a light square; ``outside`` is True for a press that missed the board."""

    square: int | None
    outside: bool = False


@dataclass(frozen=True)
class DragStarted:
    """The pointer went down on ``square`` and moved: the piece there follows the pointer."""

    square: int


@dataclass(frozen=True)
class PieceDropped:
    """A dragged piece was released over ``square`` (None: off the board or a light square)."""

    start: int
    square: int | None


@dataclass(frozen=True)
class Deselect:
    """The "Deselect" button: drop the selection and any capture partly entered."""


@dataclass(frozen=True)
class Cancel:
    """Esc: close a question, else take back a capture partly entered, else deselect."""


@dataclass(frozen=True)
class CursorMove:
    """Arrow keys: move the keyboard cursor one square, ``dx`` right and ``dy`` up *on the screen*.
    In a review, Left and Right step back and forward through the moves instead."""

    dx: int
    dy: int


@dataclass(frozen=True)
class CursorPress:
    """Enter or Space on the board: press the square under the cursor."""


@dataclass(frozen=True)
class PlayMoveFromList:
    """A press on one of the "Legal moves"."""

    move: Move


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class OfferDraw:
    """Toggles "Offer a draw with your next move"."""


@dataclass(frozen=True)
class AcceptDraw:
    pass


@dataclass(frozen=True)
class Resign:
    """Asks for confirmation first; :class:`ConfirmResign` concedes."""


@dataclass(frozen=True)
class ConfirmResign:
    pass


@dataclass(frozen=True)
class PlayAgain:
    """A new game with the same rules and the same way of playing."""


@dataclass(frozen=True)
class ConfirmLeave:
    """Yes to "Start a new game?" (or "Open this game?"): leave the game that counts (a loss at its
    level, or a friend's game resigned), and do what was asked."""


@dataclass(frozen=True)
class ChangeMode:
    """Back to the mode screen."""


@dataclass(frozen=True)
class ChooseRules:
    variant: str  # a name in engine.ALL_VARIANTS


@dataclass(frozen=True)
class ToggleMoreRules:
    """Opens or closes the mode screen's "More rule sets" (the rule sets beyond engine.VARIANTS)."""


@dataclass(frozen=True)
class StartGame:
    """From the mode screen: ``level`` None is "2 players on this device"."""

    level: Level | None
    play_second: bool = False


@dataclass(frozen=True)
class ContinueSaved:
    """Resume the game in progress offered on the mode screen."""


@dataclass(frozen=True)
class FlipBoard:
    pass


@dataclass(frozen=True)
class SetView:
    view: View


@dataclass(frozen=True)
class ToggleSetting:
    """Flip a boolean setting or step a choice (``name`` is a :class:`game.files.settings.Settings` field)."""

    name: str


@dataclass(frozen=True)
class DismissNotes:
    """Close the notes about files set aside."""


@dataclass(frozen=True)
class OpenHelp:
    """F1, the "Rules" buttons, the tabs of the help screen, a refusal pressed: show ``page``, at the
    section with the id ``section`` (None: the top)."""

    page: HelpPage = HelpPage.RULES
    section: str | None = None


@dataclass(frozen=True)
class CloseHelp:
    """"Back" on the help screen (Esc too, as :class:`Cancel`)."""


@dataclass(frozen=True)
class GoToSection:
    """A press on an entry of the help screen's contents: the page scrolls to that section."""

    section: str


@dataclass(frozen=True)
class ShowKeys:
    """"?" during a game: the keys in an overlay."""


@dataclass(frozen=True)
class HideKeys:
    """Any key or press while the keys are shown."""


# --- a friend through a link -----------------------------------------------------------------------

@dataclass(frozen=True)
class PlayFriend:
    """"Play a friend (send a link)": open a room with the rules chosen."""


@dataclass(frozen=True)
class PlayOnline:
    """"Play someone online": be paired on the room server with the next player seeking the rules
    chosen (the nickname asked for first when there is none)."""


@dataclass(frozen=True)
class EditNickname:
    """Settings, "Nickname": the field for the name an opponent online sees."""


@dataclass(frozen=True)
class OpenJoin:
    """"Join a friend": the field to paste the friend's link in."""


@dataclass(frozen=True)
class JoinRoom:
    """Take the free seat of the room ``link`` names (the Join button, or a link on the command line)."""

    link: str


@dataclass(frozen=True)
class CopyLink:
    """Put the room's link on the system clipboard."""


@dataclass(frozen=True)
class Rematch:
    """"Rematch (swap sides)": the next game starts when both players have asked."""


@dataclass(frozen=True)
class ContinueVsComputer:
    """Turn a game whose friend is gone into a game against the computer (Medium), from where it is."""


@dataclass(frozen=True)
class EditServer:
    """Settings, "Room server": the field for its address."""


@dataclass(frozen=True)
class RegisterLinks:
    """Settings: make ``checkers3d://`` links open this game (a ``.desktop`` file and ``xdg-mime``)."""


# --- a text field ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TypeText:
    """Characters typed, or the clipboard's text pasted (Ctrl+V), at the caret."""

    text: str


@dataclass(frozen=True)
class EditText:
    """An editing key in a text field: a name in ``game.play.text_entry.KEYS`` (backspace, delete, left ...)."""

    key: str


@dataclass(frozen=True)
class SubmitText:
    """Enter in a text field: what its button does (Join, Save)."""


# --- the window's reports ------------------------------------------------------------------------

@dataclass(frozen=True)
class Greyed:
    """A press on a greyed control (one that does nothing now): the notice says ``reason``, why."""

    reason: str


@dataclass(frozen=True)
class ClipboardUnavailable:
    """The window could not put the text it was given on the system clipboard."""


# --- review ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ReviewStep:
    """Step ``delta`` moves back (negative) or forward through the game (PageUp, PageDown, the panel's
    arrows); from a game going on, a step back starts a review."""

    delta: int


@dataclass(frozen=True)
class ReviewTo:
    """Show the position after ``ply`` moves (Home: 0, a press on the move list or the graph); None
    is the last (End)."""

    ply: int | None


@dataclass(frozen=True)
class BackToGame:
    """Leave the review for the game as it stands (Esc)."""


@dataclass(frozen=True)
class PlayFromHere:
    """Play on from the position shown (a review, or the editor's board): against the computer at
    ``level`` (the person takes the side to move), or two players on this device (``level`` None)."""

    level: Level | None


# --- the engine beside the board ---------------------------------------------------------------------

@dataclass(frozen=True)
class ToggleAnalysis:
    """"Analyze": the engine analyses the position shown, and follows it, until turned off."""


@dataclass(frozen=True)
class Hint:
    """The computer's best move in the position, shown on the board (against the computer)."""


@dataclass(frozen=True)
class AnalyzeGame:
    """"Analyze game": the game report (every move scored, mistakes and blunders marked)."""


# --- files and the clipboard -------------------------------------------------------------------------

@dataclass(frozen=True)
class SaveGame:
    """Save the game as PDN in the games folder (Ctrl+S)."""


@dataclass(frozen=True)
class CopyPdn:
    """The game's PDN onto the clipboard (Ctrl+C)."""


@dataclass(frozen=True)
class CopyFen:
    """The FEN of the position shown onto the clipboard (Ctrl+Shift+C)."""


@dataclass(frozen=True)
class PasteFromClipboard:
    """A button that pastes: ``game.window.input`` reads the clipboard when it is pressed and sends
    :class:`Pasted` instead."""


@dataclass(frozen=True)
class Pasted:
    """Text pasted (Ctrl+V) or dropped on the window: PDN (games to open) or a FEN (a position)."""

    text: str


@dataclass(frozen=True)
class OpenFile:
    """Open a PDN file: dropped on the window, or chosen in the browser."""

    path: str


@dataclass(frozen=True)
class OpenBrowser:
    """"Open a game…" (Ctrl+O): the recent files and the games folder."""


@dataclass(frozen=True)
class CloseBrowser:
    pass


@dataclass(frozen=True)
class BrowserPage:
    """The next (1) or previous (-1) page of a file's games."""

    delta: int


@dataclass(frozen=True)
class OpenListedGame:
    """Open the game at ``index`` (0-based) of the file read in the browser."""

    index: int


# --- the position editor -----------------------------------------------------------------------------

@dataclass(frozen=True)
class EditPosition:
    """"Set up a position": the editor, from the position shown (the start position on the mode screen)."""


@dataclass(frozen=True)
class ChooseTool:
    """What a press on the editor's board puts there (keys 1-4; 0 or Delete: remove)."""

    tool: Tool


@dataclass(frozen=True)
class SetTurn:
    """The side to move of the position being set up."""

    color: Color


@dataclass(frozen=True)
class ClearBoard:
    pass


@dataclass(frozen=True)
class StartPosition:
    """The rules' start position on the editor's board."""


Intent = (SquarePressed | DragStarted | PieceDropped | Deselect | Cancel | CursorMove | CursorPress | PlayMoveFromList
          | Undo | OfferDraw | AcceptDraw | Resign | ConfirmResign | PlayAgain | ConfirmLeave | ChangeMode
          | ChooseRules | ToggleMoreRules | StartGame | ContinueSaved | FlipBoard | SetView | ToggleSetting
          | DismissNotes | PlayFriend | PlayOnline | EditNickname | OpenJoin | JoinRoom | CopyLink | Rematch
          | ContinueVsComputer | EditServer | RegisterLinks | TypeText | EditText | SubmitText | OpenHelp | CloseHelp
          | GoToSection | ShowKeys | HideKeys | ReviewStep | ReviewTo | BackToGame | PlayFromHere | ToggleAnalysis
          | Hint | AnalyzeGame | SaveGame | CopyPdn | CopyFen | PasteFromClipboard | Pasted | OpenFile | OpenBrowser
          | CloseBrowser | BrowserPage | OpenListedGame | EditPosition | ChooseTool | SetTurn | ClearBoard
          | StartPosition | ClipboardUnavailable | Greyed)

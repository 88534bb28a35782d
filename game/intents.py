"""What a player asks for: the intents that ``game.input`` and the panel send to the controller.

Each is a frozen value; :meth:`game.controller.Controller.handle` dispatches on its type and refuses
any other (a TypeError). The window's own events (quit, resize, turning the camera) are
``game.input``'s and stay in the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.phases import HelpPage, Level
from game.settings import View

if TYPE_CHECKING:
    from engine import Move


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
    """Arrow keys: move the keyboard cursor one square, ``dx`` right and ``dy`` up *on the screen*."""

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
class ConfirmNewGame:
    """Yes to "Start a new game?": abandon the game against the computer going on (a loss)."""


@dataclass(frozen=True)
class ChangeMode:
    """Back to the mode screen."""


@dataclass(frozen=True)
class ChooseRules:
    variant: str  # a name in engine.VARIANTS


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
    """Flip a boolean setting or step a choice (``name`` is a :class:`game.settings.Settings` field)."""

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
    """An editing key in a text field: a name in ``game.text_entry.KEYS`` (backspace, delete, left ...)."""

    key: str


@dataclass(frozen=True)
class SubmitText:
    """Enter in a text field: what its button does (Join, Save)."""


Intent = (SquarePressed | DragStarted | PieceDropped | Deselect | Cancel | CursorMove | CursorPress | PlayMoveFromList
          | Undo | OfferDraw | AcceptDraw | Resign | ConfirmResign | PlayAgain | ConfirmNewGame | ChangeMode | ChooseRules
          | StartGame | ContinueSaved | FlipBoard | SetView | ToggleSetting | DismissNotes | PlayFriend | OpenJoin | JoinRoom
          | CopyLink | Rematch | ContinueVsComputer | EditServer | RegisterLinks | TypeText | EditText | SubmitText
          | OpenHelp | CloseHelp | ShowKeys | HideKeys)

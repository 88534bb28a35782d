"""The only reader of pygame events: turns mouse, keyboard and window events into intents.

On the board a press on one of the mover's pieces is a press at once (it selects, as the
specification asks: "each step is a single press"), and moving the pointer on from there drags the
piece (drag and drop). A press elsewhere on the board counts when the button comes up without the
pointer having moved; if it moved, the drag turns the camera instead (orbit), so turning the view never
deselects. The wheel zooms the board, and scrolls the panel (or the list under the pointer); a press
on a scrollbar or on scrolled content that is not a button drags it. Arrow keys move the board cursor,
Enter or Space presses (or activates the button focused with Tab, which scrolls it into view), Esc
cancels. F1 opens the Rules, "?" shows the keys (any key or press closes them again). On a page that
fills the window (the help screen) the wheel scrolls it, and so do the arrow keys, Page Up/Down and
Home/End. Scrolling and focus are the interface's own state: they go to it directly, not as intents.

While a text field is on screen (the interface says so: ``ui.editing``) the keyboard is the field's:
typed characters (the window's text input events, so every layout and input method works), Ctrl+V
or Shift+Insert pastes the clipboard's text, Backspace, Delete, Left, Right, Home and End edit, Enter
submits, Esc cancels. On the waiting screen Ctrl+C copies the room's link.

Games and positions: in a game, Home, Page Up, Page Down and End step through the moves (and Left
and Right in a review: the controller reads the arrows there); Ctrl+S saves the game, Ctrl+C copies
its PDN (on the waiting screen, the room's link) and Ctrl+Shift+C the position's FEN, Ctrl+V pastes
PDN or a FEN (the clipboard is read here),
Ctrl+O opens the browser, Ctrl+E the position editor, where 1-4 choose a piece and 0, Delete or
Backspace removing one. A file dropped on the window is opened, text dropped on it pasted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pygame

from game.play import intents as it
from game.play.editor import Tool
from game.ui.help_screen import Scroll
from game.window import clipboard

DRAG_PIXELS = 6  # how far the pointer moves before a press becomes a drag
WHEEL_PIXELS = 48  # one notch of the wheel scrolls the panel this far
KEYS_CARD_SCROLL = {pygame.K_UP: -WHEEL_PIXELS, pygame.K_DOWN: WHEEL_PIXELS, pygame.K_PAGEUP: -240,
                    pygame.K_PAGEDOWN: 240}  # the keys that scroll the keys card ("?"), and how far


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class Resize:
    width: int
    height: int


@dataclass(frozen=True)
class Exposed:
    """The window was uncovered or its pixels lost: draw everything again."""


@dataclass(frozen=True)
class Orbit:
    """Turn the camera by a pointer movement of (dx, dy) pixels."""

    dx: float
    dy: float


@dataclass(frozen=True)
class Zoom:
    steps: float  # wheel notches, positive = closer


_ARROWS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}
_PRESS_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
# keys that move a page that fills the window
_PAGE_KEYS = {pygame.K_UP: Scroll(lines=-2), pygame.K_DOWN: Scroll(lines=2), pygame.K_LEFT: Scroll(sections=-1),
              pygame.K_RIGHT: Scroll(sections=1), pygame.K_PAGEUP: Scroll(pages=-1),
              pygame.K_PAGEDOWN: Scroll(pages=1), pygame.K_HOME: Scroll(end=-1), pygame.K_END: Scroll(end=1)}
_EDIT_KEYS = {pygame.K_BACKSPACE: "backspace", pygame.K_DELETE: "delete", pygame.K_LEFT: "left",
              pygame.K_RIGHT: "right", pygame.K_HOME: "home", pygame.K_END: "end"}


@dataclass
class _Press:
    kind: str  # "piece" (selected on press; may become a drag) | "board" (a press or an orbit) | "orbit" | "scroll"
    pos: tuple[int, int]
    square: int | None
    on_board: bool
    moved: bool = False


class Input:
    """Reads the event queue once a frame.

    ``ui`` is the :class:`game.ui.Interface` (what is under the pointer, Tab focus, scrolling, whether a
    page fills the window or the keys are shown), ``pick(x, y)``
    returns ``(square, on_board)`` for a window point in the board's viewport (square None on a light
    square or off the board), ``can_drag(square)`` says whether the piece there may be moved now.
    """

    def __init__(self, ui, pick: Callable[[int, int], tuple[int | None, bool]], can_drag: Callable[[int], bool]):
        self.ui = ui
        self.pick = pick
        self.can_drag = can_drag
        self._press: _Press | None = None
        self._orbit_button: tuple[int, int] | None = None  # right/middle drag in progress: last pos

    def poll(self) -> list:
        """Every intent from the events since the last call."""
        out: list = []
        for event in pygame.event.get():
            self._event(event, out)
        return out

    @staticmethod
    def close_requested() -> bool:
        """Whether the window has been asked to close since the last :meth:`poll` (its close button,
        the window manager's WM_DELETE_WINDOW): a look at the queue, which leaves the event there for
        the next poll. For a frame that has long work ahead (a start-up frame) to stop before it."""
        return pygame.event.peek(pygame.QUIT)

    def _event(self, e, out: list) -> None:
        t = e.type
        if t == pygame.QUIT:
            out.append(Quit())
        elif t == pygame.VIDEORESIZE:
            out.append(Resize(e.w, e.h))
        elif t == pygame.WINDOWSIZECHANGED:  # also when the program itself resizes the window
            out.append(Resize(e.x, e.y))
        elif t in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            out.append(Exposed())
        elif t == pygame.MOUSEMOTION:
            self.ui.mouse = e.pos
            self._motion(e, out)
        elif self.ui.keys_shown and t == pygame.KEYDOWN and e.key in KEYS_CARD_SCROLL and self.ui.keys_card_scrolls():
            self.ui.scroll_at((0, 0), KEYS_CARD_SCROLL[e.key])  # a card too tall for the window scrolls
        elif self.ui.keys_shown and (t == pygame.KEYDOWN or (t == pygame.MOUSEBUTTONDOWN and e.button in (1, 2, 3))):
            out.append(it.HideKeys())  # any other key or press closes the keys, and does nothing else
        elif t == pygame.MOUSEBUTTONDOWN and e.button in (1, 2, 3):
            self.ui.mouse = e.pos
            if e.button == 1:
                self._down(e.pos, out)
            elif not self.ui.full_page and self.ui.layout.board.collidepoint(e.pos):
                self._orbit_button = e.pos
        elif t == pygame.MOUSEBUTTONUP and e.button in (1, 2, 3):
            if e.button == 1:
                self._up(e.pos, out)
            else:
                self._orbit_button = None
        elif t == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            steps = e.precise_y if hasattr(e, "precise_y") else e.y
            if not self.ui.full_page and not self.ui.keys_shown and self.ui.layout.board.collidepoint(pos):
                out.append(Zoom(steps))
            else:
                self.ui.scroll_at(pos, round(-steps * WHEEL_PIXELS))
        elif t == pygame.WINDOWLEAVE:
            self.ui.mouse = (-1, -1)
        elif t == pygame.TEXTINPUT:
            if self.ui.editing:
                out.append(it.TypeText(e.text))
        elif t == pygame.KEYDOWN:
            if self.ui.editing:
                self._edit_key(e, out)
            else:
                self._key(e, out)
        elif t == pygame.DROPFILE:
            out.append(it.OpenFile(e.file))
        elif t == pygame.DROPTEXT:
            out.append(it.Pasted(e.text))

    # --- mouse ----------------------------------------------------------------------------------

    def _down(self, pos, out: list) -> None:
        self._press = None
        hit = self.ui.hit_at(pos)
        if hit is not None:
            out.append(self._pressed(hit.press))
            return
        if self.ui.grab(pos):
            self._press = _Press("scroll", pos, None, False)
            return
        if self.ui.full_page or not self.ui.layout.board.collidepoint(pos):
            return
        square, on_board = self.pick(*pos)
        if square is not None and self.can_drag(square):
            out.append(it.SquarePressed(square))
            self._press = _Press("piece", pos, square, True)
        else:
            self._press = _Press("board", pos, square, on_board)

    def _motion(self, e, out: list) -> None:
        if self._orbit_button is not None:
            out.append(Orbit(e.pos[0] - self._orbit_button[0], e.pos[1] - self._orbit_button[1]))
            self._orbit_button = e.pos
        p = self._press
        if p is None:
            return
        if p.kind == "scroll":
            self.ui.drag_to(e.pos)
            return
        if not p.moved:
            if abs(e.pos[0] - p.pos[0]) + abs(e.pos[1] - p.pos[1]) < DRAG_PIXELS:
                return
            p.moved = True
            if p.kind == "piece":
                assert p.square is not None  # a press on a piece
                out.append(it.DragStarted(p.square))
                return
            p.kind = "orbit"
            out.append(Orbit(e.pos[0] - p.pos[0], e.pos[1] - p.pos[1]))
        elif p.kind == "orbit":
            out.append(Orbit(*e.rel))

    def _up(self, pos, out: list) -> None:
        p, self._press = self._press, None
        if p is None:
            return
        if p.kind == "scroll":
            self.ui.release()
        elif p.kind == "piece" and p.moved:
            assert p.square is not None  # a press on a piece
            square, _ = self.pick(*pos) if self.ui.layout.board.collidepoint(pos) else (None, False)
            out.append(it.PieceDropped(p.square, square))
        elif p.kind == "board" and not p.moved:
            out.append(it.SquarePressed(p.square, outside=not p.on_board))

    # --- keyboard -------------------------------------------------------------------------------

    def _key(self, e, out: list) -> None:
        k = e.key
        ctrl, shift = e.mod & pygame.KMOD_CTRL, e.mod & pygame.KMOD_SHIFT
        if k == pygame.K_F1:
            out.append(it.OpenHelp())
        elif getattr(e, "unicode", "") == "?":  # wherever "?" is on the keyboard
            out.append(it.ShowKeys())
        elif self.ui.full_page and k in _PAGE_KEYS:
            self.ui.navigate(_PAGE_KEYS[k])
        elif k in _ARROWS:
            out.append(it.CursorMove(*_ARROWS[k]))
        elif k in _PRESS_KEYS:
            intent = self.ui.focused_intent()
            out.append(self._pressed(intent) if intent is not None else it.CursorPress())
        elif k == pygame.K_ESCAPE:
            self.ui.focus = None
            out.append(it.Cancel())
        elif k == pygame.K_TAB:
            self.ui.move_focus(-1 if shift else 1)
        elif ctrl and k == pygame.K_c and not shift and self.ui.shows("room:copy"):
            out.append(it.CopyLink())  # the waiting screen's link
        elif ctrl and k in _CTRL_KEYS:
            out.append(_CTRL_KEYS[k](bool(shift)))
        elif k in _REVIEW_KEYS and not ctrl:
            out.append(_REVIEW_KEYS[k])
        elif k in _TOOL_KEYS and not ctrl:
            out.append(it.ChooseTool(_TOOL_KEYS[k]))

    def _edit_key(self, e, out: list) -> None:
        """A key while a text field is on screen (characters come as text input events instead)."""
        k, ctrl, shift = e.key, e.mod & pygame.KMOD_CTRL, e.mod & pygame.KMOD_SHIFT
        if (k == pygame.K_v and ctrl) or (k == pygame.K_INSERT and shift):
            out.append(it.TypeText(clipboard.paste()))
        elif k == pygame.K_F1:
            out.append(it.OpenHelp())
        elif k in _EDIT_KEYS:
            out.append(it.EditText(_EDIT_KEYS[k]))
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            intent = self.ui.focused_intent()
            out.append(intent if intent is not None else it.SubmitText())
        elif k == pygame.K_ESCAPE:
            self.ui.focus = None
            out.append(it.Cancel())
        elif k == pygame.K_TAB:
            self.ui.move_focus(-1 if shift else 1)

    def _pressed(self, intent):
        """What a press on a button sends: its intent, or for a button that pastes, the text on the
        clipboard (read here, the only place that reads what the system hands the game)."""
        return it.Pasted(clipboard.paste()) if isinstance(intent, it.PasteFromClipboard) else intent


_CTRL_KEYS = {
    pygame.K_z: lambda shift: it.Undo(),
    pygame.K_s: lambda shift: it.SaveGame(),
    pygame.K_o: lambda shift: it.OpenBrowser(),
    pygame.K_c: lambda shift: it.CopyFen() if shift else it.CopyPdn(),
    pygame.K_v: lambda shift: it.Pasted(clipboard.paste()),
    pygame.K_e: lambda shift: it.EditPosition(),
}
_REVIEW_KEYS = {pygame.K_HOME: it.ReviewTo(0), pygame.K_END: it.ReviewTo(None), pygame.K_PAGEUP: it.ReviewStep(-1),
                pygame.K_PAGEDOWN: it.ReviewStep(1)}
_TOOL_KEYS = {pygame.K_1: Tool.BLACK_MAN, pygame.K_2: Tool.BLACK_KING, pygame.K_3: Tool.WHITE_MAN,
              pygame.K_4: Tool.WHITE_KING, pygame.K_0: Tool.ERASE, pygame.K_DELETE: Tool.ERASE,
              pygame.K_BACKSPACE: Tool.ERASE}

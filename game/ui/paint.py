"""The panel's drawing toolkit: a :class:`Painter` that draws buttons, text and scrolled areas onto the
interface's surface in immediate mode, and records as it draws what is pressable (:class:`Hit`, each
with the intent a press sends) and where every widget lies (:class:`Widget`, for the layout tests);
and the registry of the panel's sections and screens.

Every section is a function drawing at ``(x, y)`` in width ``w`` with a painter (its first argument)
and returning the height it used; it registers under a name (:func:`section`) and a screen lists the
sections it shows by name (:func:`part`), so no section module imports another. A screen's layout (a
function of the painter, the controller and the phase shown) registers for the phase kinds it draws
(:func:`screen`); ``game.ui.panel`` imports the modules that register and draws what the phase's
screen lists (see ``game.ui.column`` for how sections are stacked, fill a column or scroll).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, Sequence

import pygame

from game.play import intents as it

from . import theme as th
from .column import ScrollView, Section

if TYPE_CHECKING:
    from game.play.phases import Phase

    from .layout import Layout

TWO_COLUMNS_W = 640  # a panel at least this wide (under the board) has two columns


@dataclass(frozen=True)
class Hit:
    """Something pressable on screen: its rectangle, the intent it sends, a stable id for focus.
    ``clip`` is the area it can be pressed in (None: anywhere on its rectangle): a hit in scrolled
    content may lie partly or wholly outside it. ``views`` names the scroll views it lies in, outermost
    first."""

    rect: pygame.Rect
    intent: it.Intent
    id: str
    enabled: bool = True
    clip: pygame.Rect | None = None
    views: tuple[str, ...] = ()
    why: str | None = None  # a greyed control (not enabled): why it does nothing now

    @property
    def visible(self) -> pygame.Rect:
        """The part of it on screen."""
        return self.rect if self.clip is None else self.rect.clip(self.clip)

    @property
    def press(self) -> it.Intent:
        """What a press on it sends: its intent, or for a greyed control the reason it does nothing."""
        return self.intent if self.enabled or self.why is None else it.Greyed(self.why)


@dataclass(frozen=True)
class Widget:
    """Something drawn (a line of text, a button, the table), as the layout tests see it: ``what`` it
    is (``text:`` and its words, a button's hit id, ``table``) and the words on it."""

    rect: pygame.Rect
    what: str
    clip: pygame.Rect | None = None
    views: tuple[str, ...] = ()
    label: str = ""
    font_px: int = 0  # the height of its words' font

    @property
    def visible(self) -> pygame.Rect:
        return self.rect if self.clip is None else self.rect.clip(self.clip)


Colour = tuple[int, ...]
Item = tuple[str, it.Intent, dict[str, Any]]  # a button of a flow: its label, its intent, its options


class Painter:
    """Draws onto ``surface`` (the window's size, laid out as ``layout``), recording what it draws.

    What it keeps while drawing: ``hits`` and ``widgets`` of the part being drawn, the scroll views by
    name (``views``, which keep their offsets between drawings), the hit under the pointer
    (``hover``) and the one focused with Tab (``focus``), the time (``now``). What a drawing tells
    the window about the screen: a text field is on it (``editing``), something lies over the 3D view
    (``over_view``), the draw countdown below the board (``countdown``)."""

    def __init__(self, surface: pygame.Surface, layout: Layout) -> None:
        self.surface = surface
        self.layout = layout
        self.hits: list[Hit] = []
        self.widgets: list[Widget] = []
        self.views: dict[str, ScrollView] = {}  # the scroll views by name ("panel", "moves")
        self.view_order: list[str] = []  # the scroll views drawn, outermost first
        self.hover: str | None = None
        self.focus: str | None = None  # id of the focused hit (Tab), None: the board
        self.grabbed: str | None = None  # the scroll view being dragged
        self.now = 0.0
        self.measuring = False  # drawing only to measure: nothing reaches the surface or is recorded
        self.editing = False
        self.over_view = False
        self.countdown: str | None = None
        self.review_row: int | None = None  # the move shown when the move list last followed a review
        self.wants_view: tuple[pygame.Rect, str] | None = None  # what the panel scrolls to once (a question)
        self._clip: pygame.Rect | None = None  # where what is drawn now can be seen and pressed
        self._in_views: tuple[str, ...] = ()

    # --- recording ------------------------------------------------------------------------------

    def add_hit(self, rect, intent: it.Intent, hit_id: str, enabled: bool = True, why: str | None = None) -> None:
        """Make ``rect`` pressable (sending ``intent``), within the clipping and the scroll views of
        what is being drawn; not ``enabled``, a press says ``why`` (if given)."""
        if not self.measuring:
            self.hits.append(Hit(pygame.Rect(rect), intent, hit_id, enabled, self._clip, self._in_views, why))

    def note(self, rect, what: str, label: str = "", font_px: int = 0) -> None:
        """Record a widget drawn at ``rect`` (for the layout tests)."""
        if not self.measuring:
            self.widgets.append(Widget(pygame.Rect(rect), what, self._clip, self._in_views, label, font_px))

    def keep_in_view(self, rect, name: str) -> None:
        """Ask for ``rect`` (as drawn now, in the panel) to be scrolled into view when it first
        appears as ``name`` (a question asked): the interface scrolls the panel there once."""
        if not self.measuring:
            self.wants_view = pygame.Rect(rect), name

    # --- the panel's shape ----------------------------------------------------------------------

    def columns(self) -> tuple[int, int]:
        """How many columns the panel has, and their width."""
        p = self.layout.panel
        n = 2 if p.width >= TWO_COLUMNS_W else 1
        return n, (p.width - 2 * th.PAD - (n - 1) * th.PAD) // n

    def measure(self, s: Section, w: int) -> int:
        """How tall section ``s`` is at width ``w`` (a fill section: at its minimum height): it is drawn
        with nothing reaching the surface and nothing recorded."""
        saved = self.hits, self.widgets, self.surface.get_clip(), self.measuring
        self.hits, self.widgets, self.measuring = [], [], True
        self.surface.set_clip(pygame.Rect(0, 0, 0, 0))
        try:
            return s.draw(0, 0, w, s.min_h) if s.fill else s.draw(0, 0, w)
        finally:
            self.hits, self.widgets, clip, self.measuring = saved
            self.surface.set_clip(clip)

    @contextmanager
    def scrolled(self, name: str, rect: pygame.Rect, content_h: int, key: Hashable = None, *,
                 follows_end: bool = False, news: Hashable = None) -> Iterator[int]:
        """Draw content ``content_h`` tall in ``rect``, scrolled as the view ``name`` is: yields how far
        down it is scrolled (subtract it from the rows drawn), clips what is drawn and pressed to
        ``rect``, and draws the scrollbar after. ``key`` names what the view shows (a change scrolls
        it back to its start); for a view that ``follows_end``, a change of ``news`` brings the end
        into view."""
        if self.measuring:
            yield 0
            return
        view = self.views.get(name)
        if view is None:
            view = self.views[name] = ScrollView(follows_end)
        view.update(rect, content_h, key, news)
        self.view_order.append(name)
        outer_clip, outer_views, surface_clip = self._clip, self._in_views, self.surface.get_clip()
        clip = pygame.Rect(rect) if outer_clip is None else rect.clip(outer_clip)
        self._clip, self._in_views = clip, outer_views + (name,)
        self.surface.set_clip(clip)
        try:
            yield view.offset
        finally:
            self._clip, self._in_views = outer_clip, outer_views
            self.surface.set_clip(surface_clip)
        self._scrollbar(name, view)

    def _scrollbar(self, name: str, view: ScrollView) -> None:
        thumb = view.thumb()
        if thumb is None:
            return
        pygame.draw.rect(self.surface, th.CARD, view.track(), border_radius=3)
        colour = th.lighter(th.MUTED, 40) if self.grabbed == name else th.MUTED
        pygame.draw.rect(self.surface, colour, thumb, border_radius=3)

    # --- the primitives -------------------------------------------------------------------------

    def button(self, rect, label: str, intent: it.Intent, *, enabled: bool = True, active: bool = False,
               style: str = "normal", hit_id: str | None = None, font: pygame.font.Font | None = None,
               why: str | None = None) -> pygame.Rect:
        """A button (``style``: normal, primary or danger; ``active``: lit). ``why``: it does nothing
        now, for that reason: greyed (as one not ``enabled``), and a press says why. Tab passes
        over both kinds."""
        rect = pygame.Rect(rect)
        hit_id = hit_id or f"btn:{label}"
        enabled = enabled and why is None
        hovered = enabled and self.hover == hit_id
        if not enabled:
            bg, fg = th.BUTTON_DISABLED, th.TEXT_DISABLED
        elif active or style == "primary":
            bg, fg = th.ACCENT, th.ACCENT_TEXT
            if hovered:
                bg = th.lighter(bg, 18)
        elif style == "danger":
            bg, fg = (th.DANGER if hovered else (150, 66, 62)), th.TEXT
        else:
            bg, fg = (th.BUTTON_HOVER if hovered else th.BUTTON), th.TEXT
        pygame.draw.rect(self.surface, bg, rect, border_radius=th.RADIUS)
        if self.focus == hit_id:
            pygame.draw.rect(self.surface, th.FOCUS, rect.inflate(4, 4), width=2, border_radius=th.RADIUS + 2)
        f = self.button_font(label, rect, font)
        lines = [label]
        if f.size(label)[0] > rect.width - 12 and rect.height >= 2 * f.get_linesize() + 4:
            lines = self.lines(f, label, rect.width - 12)
        y = rect.centery - len(lines) * f.get_linesize() // 2
        for line in lines:
            img = th.text(f, line, fg)
            self.surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
            y += f.get_linesize()
        self.add_hit(rect, intent, hit_id, enabled, why)
        self.note(rect, hit_id, label, f.get_height())
        return rect

    @staticmethod
    def button_font(label: str, rect: pygame.Rect, font: pygame.font.Font | None = None) -> pygame.font.Font:
        """The font for a button's words: ``font`` (the body font) when they fit on one line, else the
        small font (on two lines when the button is tall enough for them and one is not enough)."""
        f = font or th.body_font()
        if f.size(label)[0] > rect.width - 12:
            f = th.small_font()
        return f

    def label(self, x: int, y: int, value: str, f: pygame.font.Font | None = None, colour: Colour = th.TEXT,
              right: int | None = None) -> int:
        """One line of text at (x, y) (right-aligned to ``right`` when given); returns its height."""
        font = f or th.body_font()
        img = th.text(font, value, colour)
        if right is not None:
            x = right - img.get_width()
        self.surface.blit(img, (x, y))
        self.note((x, y, img.get_width(), img.get_height()), f"text:{value}", value, font.get_height())
        return img.get_height()

    @staticmethod
    def lines(f: pygame.font.Font, value: str, w: int, sep: str = " ") -> list[str]:
        """``value`` broken into lines no wider than ``w``, between the parts that ``sep`` separates
        (words; `` · `` keeps "you play Black" together)."""
        lines: list[str] = []
        line = ""
        for part in value.split(sep):
            trial = f"{line}{sep}{part}".strip() if line else part.strip()
            if f.size(trial)[0] > w and line:
                lines.append(line)
                line = part.strip()
            else:
                line = trial
        return lines + [line] if line else lines

    def wrapped(self, x: int, y: int, w: int, value: str, f: pygame.font.Font | None = None,
                colour: Colour = th.TEXT, sep: str = " ", cut_words: bool = False) -> int:
        """Text wrapped to width ``w``; returns the height used. ``cut_words``: a word too long for a
        line (a link) is cut where it must be (after a ``/`` where one fits)."""
        font = f or th.body_font()
        top = y
        for line in self.lines(font, value, w, sep):
            for part in cut_anywhere(font, line, w) if cut_words and font.size(line)[0] > w else [line]:
                y += self.label(x, y, part, font, colour) + 2
        return y - top

    def heading(self, x: int, y: int, value: str) -> int:
        return self.label(x, y, value.upper(), th.heading_font(), th.MUTED) + 6

    def flow(self, x: int, y: int, w: int, items: Sequence[Item], *, h: int = th.BUTTON_H,
             f: pygame.font.Font | None = None, pad: int = 14) -> int:
        """Buttons laid out left to right, wrapping; ``items`` are (label, intent, options). Returns the
        height used."""
        font = f or th.body_font()
        cx, cy = x, y
        for label, intent, opts in items:
            bw = min(w, font.size(label)[0] + 2 * pad)
            if cx > x and cx + bw > x + w:
                cx, cy = x, cy + h + th.GAP
            self.button((cx, cy, bw, h), label, intent, font=font, **opts)
            cx += bw + th.GAP
        return cy + h - y if items else 0

    def pill(self, rect: pygame.Rect, colour: Colour = th.OVERLAY) -> None:
        """A rounded, translucent box."""
        pill = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(pill, colour, pill.get_rect(), border_radius=th.RADIUS)
        self.surface.blit(pill, rect.topleft)


def cut_anywhere(f: pygame.font.Font, text: str, w: int) -> list[str]:
    """``text`` (a link: no spaces) cut into lines no wider than ``w``, after a ``/`` where one fits."""
    lines: list[str] = []
    while text:
        n = len(text)
        while n > 1 and f.size(text[:n])[0] > w:
            n -= 1
        if n < len(text):
            slash = text.rfind("/", 0, n)
            if slash >= n // 2:
                n = slash + 1
        lines.append(text[:n])
        text = text[n:]
    return lines


# --- the registry ------------------------------------------------------------------------------------

Draw = Callable[..., int]
Columns = tuple[list[Section], list[list[Section]]]  # the full-width head, then the columns
ScreenLayout = Callable[..., Columns]
_SECTIONS: dict[str, Draw] = {}
_SCREENS: dict[type, ScreenLayout] = {}


def section(name: str) -> Callable[[Draw], Draw]:
    """Register a section's drawing function under ``name`` (one name, one function)."""
    def register(draw: Draw) -> Draw:
        assert _SECTIONS.setdefault(name, draw) is draw, f"two sections named {name!r}"
        return draw
    return register


def part(name: str, *args: Any, fill: bool = False, min_h: int = 0, optional: bool = False) -> Section:
    """The section registered as ``name``, drawing with ``args`` before its place (a KeyError names
    a section that no module registered)."""
    return Section(name, partial(_SECTIONS[name], *args), fill=fill, min_h=min_h, optional=optional)


def screen(*kinds: type) -> Callable[[ScreenLayout], ScreenLayout]:
    """Register the layout of the panel for phases of ``kinds``: a function of the painter, the
    controller, the phase shown and the loading text, returning the head and the columns."""
    def register(layout: ScreenLayout) -> ScreenLayout:
        for kind in kinds:
            assert _SCREENS.setdefault(kind, layout) is layout, f"two screens for {kind.__name__}"
        return layout
    return register


def screen_for(phase: Phase) -> ScreenLayout:
    """The layout registered for ``phase``'s kind (or the nearest kind it derives from)."""
    for kind in type(phase).__mro__:
        if kind in _SCREENS:
            return _SCREENS[kind]
    raise KeyError(f"no screen is registered for {type(phase).__name__}")


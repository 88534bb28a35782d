"""The 2D interface, drawn with pygame onto one window-sized surface that the renderer lays over the
3D board: the side panel (mode screen or game panel), the status line and the buttons on the board;
or, instead of all that, the help screen over the whole window (``help_screen``), and the keys card.

The panel is a list of sections (``_mode_sections``, ``_game_sections``) laid out by
``game.ui.column``: one column beside the board, two under it when the panel is wide, scrolled when
they don't fit (see that module for how to add a section). Drawing a part rebuilds its list of
pressable things (:class:`Hit`), each with the intent a press sends and the area it can be pressed in
(scrolled content is clipped), so hit-testing always matches what is on screen; it also lists every
widget's rectangle (:attr:`Interface.widgets`), which the layout tests check. Each part of the surface
(the panel; the bars around the 3D view) is redrawn only when something it shows has changed.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator

import pygame

from engine import VARIANTS, coords_square, square_name
from game import intents as it
from game.controller import Controller
from game.phases import (
    Browsing,
    ChoosingMode,
    ConfirmingNewGame,
    Editing,
    HelpPage,
    InGame,
    Level,
    Mode,
    ReadingHelp,
    Resuming,
    Reviewing,
    RoomPhase,
    Screen,
)
from game.settings import Notation, View

from . import editor as editor_ui
from . import online_screen, pdn_browser, study
from . import theme as th
from .column import SECTION_GAP, Placed, ScrollView, Section, arrange, column_height
from .help_screen import HelpScreen, draw_keys_card
from .layout import Layout, compute_layout

if TYPE_CHECKING:
    from engine import Variant

RULES_PER_ROW = 2  # rule-set buttons side by side on the mode screen
TWO_COLUMNS_W = 640  # a panel at least this wide (under the board) has two columns
MOVE_LIST_ROWS = 6  # the move list shows at least this many rows (it scrolls)
NUMBER_COLOUR = (235, 215, 180)  # square numbers on the table's dark squares
LEVEL_TITLES = {Level.EASY: "Easy", Level.MEDIUM: "Medium", Level.HARD: "Hard"}
VIEW_TITLES = {View.ANGLED: "Angled", View.TOP: "Top-down"}
SETTING_LABELS: dict[str, Callable[[Any, Variant], str]] = {
    "notation": lambda v, variant: f"Notation: {notation_example(variant, v)}",
    "square_numbers": lambda v, _: "Square numbers: " + ("on" if v else "off"),
    "animation_speed": lambda v, _: f"Animation: {v}",
    "sound": lambda v, _: "Sound: " + ("on" if v else "off"),
}


def notation_example(variant: Variant, notation: Notation) -> str:
    """A first move of ``variant`` as ``notation`` writes it: the first player's man from the middle of
    its front row, one step forward and right (c3-d4 or 11-15; d4-e5 or 32-28 on the 10x10 board)."""
    rank = variant.rows_of_men - 1
    file = next(f for f in range(2, variant.size) if coords_square(variant, f, rank) is not None)
    start, end = coords_square(variant, file, rank), coords_square(variant, file + 1, rank + 1)
    assert start is not None and end is not None
    if notation is Notation.NUMERIC:
        return f"{start}-{end}"
    return f"{square_name(variant, start)}-{square_name(variant, end)}"


UNFOCUSED = ("cell:", "ply:", "graph:")  # squares, moves, graph columns: pressed, not reached with Tab

CONTROLS_HELP = (
    "Press a piece, then a green dot; or drag the piece there.",
    "Drag the board to turn it; the mouse wheel zooms.",
    "Arrow keys move over the board, Enter or Space presses, Esc cancels, Tab reaches the buttons.",
)


@dataclass(frozen=True)
class Hit:
    """Something pressable on screen: its rectangle, the intent it sends, a stable id for focus.
    ``clip`` is the area it can be pressed in (None: anywhere on its rectangle): a hit in scrolled
    content may lie partly or wholly outside it. ``views`` names the scroll views it lies in, outermost
    first."""

    rect: pygame.Rect
    intent: object
    id: str
    enabled: bool = True
    clip: pygame.Rect | None = None
    views: tuple[str, ...] = ()

    @property
    def visible(self) -> pygame.Rect:
        """The part of it on screen."""
        return self.rect if self.clip is None else self.rect.clip(self.clip)


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


@dataclass
class _Grab:
    """A drag on a scroll view: its scrollbar's thumb (``thumb``) or its content."""

    view: str
    thumb: bool
    anchor: int  # the pointer's row minus the thumb's top, or the pointer's row and the offset
    offset: int = 0


class Interface:
    """Draws the panel and the board overlays, and says what is under the pointer."""

    def __init__(self, size: tuple[int, int]):
        self.layout: Layout = compute_layout(*size)
        self.surface = pygame.Surface(size, pygame.SRCALPHA)
        self.hits: list[Hit] = []
        self.widgets: list[Widget] = []  # what the last render drew where (panel and bars)
        self.views: dict[str, ScrollView] = {}  # the scroll views by name ("panel", "moves")
        self.mouse: tuple[int, int] = (-1, -1)
        self.focus: str | None = None  # id of the focused hit (Tab), None: the board
        self.countdown: str | None = None  # the draw countdown shown below the board, if any
        self.over_view = False  # something is drawn over the 3D view itself (a long status, the result)
        self.full_page = False  # the help screen fills the window: no board under it
        self.keys_shown = False  # the keys card ("?") is over everything
        self.help = HelpScreen()
        self.editing = False  # a text field is on screen: the keyboard types into it
        self.redrawn: list[pygame.Rect] = []  # what the last render() redrew
        self._panel_key: tuple | None = None
        self._bars_key: tuple | None = None
        self._page_key: tuple | None = None
        self._panel_hits: list[Hit] = []
        self._bar_hits: list[Hit] = []
        self._panel_widgets: list[Widget] = []
        self._bar_widgets: list[Widget] = []
        self._view_order: list[str] = []  # the scroll views drawn, outermost first
        self._clip: pygame.Rect | None = None  # where what is drawn now can be seen and pressed
        self._in_views: tuple[str, ...] = ()
        self._measuring = False
        self._grab: _Grab | None = None
        self._screen: tuple | None = None  # _screen_key of what was last drawn
        self._review_row: int | None = None  # the move shown when the move list last followed a review
        self._hover: str | None = None
        self._now = 0.0

    # --- queries --------------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        self.layout = compute_layout(*size, side=self.layout.side)
        self.surface = pygame.Surface((self.layout.width, self.layout.height), pygame.SRCALPHA)
        self._panel_key = self._bars_key = None

    def _follow_evaluation(self, c: Controller) -> None:
        """The strip for the evaluation bar beside the board, while it is shown."""
        side = study.EVAL_BAR_W + 2 * 10 if study.shows_evaluation(c) else 0
        if side != self.layout.side:
            self.layout = compute_layout(self.layout.width, self.layout.height, side=side)
            self._panel_key = self._bars_key = None

    def hit_at(self, pos) -> Hit | None:
        """The enabled hit under ``pos`` (the last drawn wins: overlays are drawn after the panel)."""
        for h in reversed(self.hits):
            if h.enabled and h.rect.collidepoint(pos) and (h.clip is None or h.clip.collidepoint(pos)):
                return h
        return None

    def move_focus(self, step: int) -> None:
        """Tab / Shift-Tab: the next pressable thing, scrolled into view; past the last one the focus
        returns to the board."""
        ids = [h.id for h in self.hits if h.enabled and not h.id.startswith(UNFOCUSED)]
        if not ids:
            self.focus = None
            return
        order = [None] + ids
        i = order.index(self.focus) if self.focus in order else 0
        self.focus = order[(i + step) % len(order)]
        if self.focus is not None:
            self.reveal(self.focus)

    def add_hit(self, rect: pygame.Rect, intent, hit_id: str) -> None:
        """Make ``rect`` pressable (for parts drawn outside this module), within the clipping and the
        scroll views of what is being drawn."""
        self.hits.append(Hit(pygame.Rect(rect), intent, hit_id, True, self._clip, self._in_views))

    def navigate(self, move) -> None:
        """A key's move on the page that fills the window (``game.input.Scroll``), or an entry of its
        contents (``help_screen.GoToSection``)."""
        if self.full_page:
            self.help.navigate(move)

    def shows(self, hit_id: str) -> bool:
        """Whether the pressable thing ``hit_id`` is on screen now (and enabled)."""
        return any(h.id == hit_id and h.enabled for h in self.hits)

    def focused_intent(self):
        for h in self.hits:
            if h.id == self.focus and h.enabled:
                return h.intent
        return None

    # --- scrolling ------------------------------------------------------------------------------

    def reveal(self, hit_id: str) -> None:
        """Scroll the views a hit lies in so that it is in view (it shows at the next render)."""
        hit = next((h for h in self.hits if h.id == hit_id), None)
        if hit is None:
            return
        rect = hit.rect
        for name in reversed(hit.views):  # innermost first, then the views around it
            view = self.views[name]
            moved = view.reveal(rect.top, rect.bottom)
            rect = rect.move(0, -moved).clip(view.rect) or view.rect

    def scroll_at(self, pos, dy: int) -> bool:
        """The wheel over ``pos``: scroll the innermost view there that can move ``dy`` pixels that way
        (on the help screen, its page, wherever the pointer is)."""
        if self.full_page:
            return self.help.scroll.scroll_by(dy)
        for name in reversed(self._view_order):
            view = self.views[name]
            if view.rect.collidepoint(pos) and view.scroll_by(dy):
                return True
        return False

    def grab(self, pos) -> bool:
        """A press that no button took: on a scrollbar it grabs the thumb (a press beside the thumb
        first moves it there), on scrolled content it drags the content; False elsewhere."""
        for name in reversed(self._view_order):
            view = self.views[name]
            thumb = view.thumb()
            if thumb is None or not view.rect.collidepoint(pos):
                continue
            if view.track().inflate(8, 0).collidepoint(pos):
                if not thumb.collidepoint(pos):
                    view.scroll_to(view.offset_for_thumb_top(pos[1] - thumb.height // 2))
                    thumb = view.thumb() or thumb
                self._grab = _Grab(name, True, pos[1] - thumb.top)
            else:
                self._grab = _Grab(name, False, pos[1], view.offset)
            return True
        return False

    def drag_to(self, pos) -> None:
        """The pointer moved while a scroll view is grabbed."""
        g = self._grab
        if g is None:
            return
        view = self.views[g.view]
        if g.thumb:
            view.scroll_to(view.offset_for_thumb_top(pos[1] - g.anchor))
        else:
            view.scroll_to(g.offset - (pos[1] - g.anchor))

    def release(self) -> None:
        self._grab = None

    def _offsets(self) -> tuple:
        return tuple((name, v.offset) for name, v in self.views.items())

    # --- drawing --------------------------------------------------------------------------------

    def render(self, c: Controller, now: float, loading: str | None = None) -> bool:
        """Redraw the parts whose content has changed (the panel; the bars around the 3D view with
        what is drawn over it); returns whether anything changed. :attr:`redrawn` lists the
        rectangles redrawn, so the window uploads only those."""
        screen = self._screen_key(c)
        if screen != self._screen:  # another screen or a new game: the Tab focus starts again
            self._screen, self.focus = screen, None
        self._follow_evaluation(c)
        hover = self.hit_at(self.mouse)
        self._hover = hover.id if hover else None
        state = (c.version, self._hover, self.focus, self.layout.width, self.layout.height)
        grabbed = self._grab.view if self._grab is not None else None
        if isinstance(c.phase, ReadingHelp):
            return self._render_help(c.phase, (state, grabbed), diagrams=loading is None)
        if self.full_page:  # back from the help screen: everything is drawn again
            self.full_page = False
            self._panel_key = self._bars_key = self._page_key = None
        self.keys_shown = c.keys_shown and c.screen is Screen.GAME
        panel_key = (state, loading, self._offsets(), grabbed)
        # the status line's dots move while the computer thinks: only the bars redraw for them
        bars_key = (state, int(now * 3) if c.waiting_for_opponent else 0)
        panel_due, bars_due = panel_key != self._panel_key, bars_key != self._bars_key
        if self.keys_shown and (panel_due or bars_due):  # the card lies over both
            panel_due = bars_due = True
        self.redrawn = []
        if panel_due:
            self._draw_panel(c, loading)
            self._panel_key = (state, loading, self._offsets(), grabbed)  # as laid out (clamped, following)
            self.redrawn.append(self.layout.panel)
        if bars_due:
            self._bars_key = bars_key
            self._now = now
            self._draw_bars(c)
            self.redrawn.extend((*self.layout.bars, self.layout.view))
        self.hits = self._panel_hits + self._bar_hits  # the bars' last: they may lie over the view
        self.widgets = self._panel_widgets + self._bar_widgets
        if self.keys_shown and self.redrawn:
            draw_keys_card(self)
        return bool(self.redrawn)

    def _render_help(self, phase: ReadingHelp, state: tuple, diagrams: bool) -> bool:
        """The help screen over the whole window, redrawn when anything on it changed."""
        fresh = not self.full_page
        self.full_page, self.keys_shown, self.over_view, self.editing = True, False, False, False
        self.help.sync(phase, (self.layout.width, self.layout.height), fresh)
        key = (state, self.help.state(), diagrams)
        self.redrawn = []
        if fresh or key != self._page_key:
            self.hits, self.widgets, self._view_order = [], [], []
            self.help.draw(self, phase, diagrams)
            self._page_key = (state, self.help.state(), diagrams)
            self.redrawn.append(self.surface.get_rect())
        return bool(self.redrawn)

    def _draw_panel(self, c: Controller, loading: str | None) -> None:
        self.hits = self._panel_hits = []
        self.widgets = self._panel_widgets = []
        self._view_order = []
        pygame.draw.rect(self.surface, th.PANEL, self.layout.panel)
        match c.phase:
            case Browsing() as browsing:
                head, columns = pdn_browser.sections(self, c, browsing)
            case Editing() as editing:
                head, columns = editor_ui.sections(self, c, editing)
            case ChoosingMode() as choosing:
                head, columns = self._mode_sections(c, choosing, loading)
            case InGame() as play:
                head, columns = self._game_sections(c, play, loading)
            case Resuming(mode=mode):
                head = [Section("title", partial(self._game_title, c, mode))]
                columns = [[Section("loading", partial(self._loading, loading)),
                            Section("spacer", lambda x, y, w, h: h, fill=True),
                            Section("settings", partial(self._settings, c, False))]]
            case RoomPhase() as room:
                head, columns = online_screen.room_sections(self, c, room)
        self._lay_out(head, columns, self._screen_key(c))

    @staticmethod
    def _screen_key(c: Controller) -> tuple:
        """What the panel shows: the mode screen (asking a question or not), a room screen, which game,
        the editor, the browser (which file); the help screen: none of them."""
        if c.screen is Screen.HELP:
            return ("help",)
        if isinstance(c.phase, Browsing):
            return "browser", id(c.phase.listing)
        if c.editing is not None:
            return ("editor",)
        if c.in_game is not None:
            return "game", id(c.game)
        if isinstance(c.phase, Resuming):
            return ("resuming",)
        if isinstance(c.phase, RoomPhase):
            return "room", type(c.phase).__name__
        return "mode", isinstance(c.phase, ChoosingMode) and c.phase.asking is not None

    def _draw_bars(self, c: Controller) -> None:
        self.hits = self._bar_hits = []
        self.widgets = self._bar_widgets = []
        self.surface.fill((0, 0, 0, 0), self.layout.view)
        for bar in self.layout.bars:
            self.surface.fill(th.BACKGROUND, bar)
        self.countdown = None
        self.over_view = False
        self.editing = False
        if self.layout.side:
            study.evaluation_bar(self, c, self.layout.side_strip)
        if c.in_game is not None or isinstance(c.phase, Resuming):
            self._board_overlays(c, c.in_game)
        elif isinstance(c.phase, RoomPhase):
            online_screen.room_card(self, c, c.phase)
        elif c.editing is not None:
            self._view_buttons(c)
            self._status(c, self._status_area())

    # --- layout ---------------------------------------------------------------------------------

    def _columns(self) -> tuple[int, int]:
        """How many columns the panel has, and their width."""
        p = self.layout.panel
        n = 2 if p.width >= TWO_COLUMNS_W else 1
        return n, (p.width - 2 * th.PAD - (n - 1) * th.PAD) // n

    def _lay_out(self, head: list[Section], columns: list[list[Section]], key: Hashable) -> None:
        """Measure the sections, stack them (``column.arrange``) and draw them in the panel, scrolled."""
        p = self.layout.panel
        full_w = p.width - 2 * th.PAD
        _, col_w = self._columns()
        placed_head = arrange([(s, self._measure(s, full_w)) for s in head], 0)
        head_h = column_height(placed_head)
        if head_h:
            head_h += SECTION_GAP
        room = p.height - 2 * th.PAD - head_h
        placed = [arrange([(s, self._measure(s, col_w)) for s in col], room) for col in columns]
        content_h = 2 * th.PAD + head_h + max((column_height(col) for col in placed), default=0)
        with self._scrolled("panel", p, content_h, key) as offset:
            top = p.y + th.PAD - offset
            self._draw_placed(placed_head, p.x + th.PAD, top, full_w)
            for i, col in enumerate(placed):
                self._draw_placed(col, p.x + th.PAD + i * (col_w + th.PAD), top + head_h, col_w)

    def _measure(self, s: Section, w: int) -> int:
        """How tall section ``s`` is at width ``w`` (a fill section: at its minimum height): it is drawn
        with nothing reaching the surface and nothing recorded."""
        saved = self.hits, self.widgets, self.surface.get_clip(), self._measuring
        self.hits, self.widgets, self._measuring = [], [], True
        self.surface.set_clip(pygame.Rect(0, 0, 0, 0))
        try:
            return s.draw(0, 0, w, s.min_h) if s.fill else s.draw(0, 0, w)
        finally:
            self.hits, self.widgets, clip, self._measuring = saved
            self.surface.set_clip(clip)

    @staticmethod
    def _draw_placed(placed: list[Placed], x: int, top: int, w: int) -> None:
        for pl in placed:
            s = pl.section
            if s.fill:
                s.draw(x, top + pl.y, w, pl.h)
            else:
                s.draw(x, top + pl.y, w)

    @contextmanager
    def _scrolled(self, name: str, rect: pygame.Rect, content_h: int, key=None, *, follows_end: bool = False,
                  news=None) -> Iterator[int]:
        """Draw content ``content_h`` tall in ``rect``, scrolled as the view ``name`` is: yields how far
        down it is scrolled (subtract it from the rows drawn), clips what is drawn and pressed to
        ``rect``, and draws the scrollbar after. ``key`` names what the view shows (a change scrolls
        it back to its start); for a view that ``follows_end``, a change of ``news`` brings the end
        into view."""
        if self._measuring:
            yield 0
            return
        view = self.views.get(name)
        if view is None:
            view = self.views[name] = ScrollView(follows_end)
        view.update(rect, content_h, key, news)
        self._view_order.append(name)
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
        grabbed = self._grab is not None and self._grab.view == name
        pygame.draw.rect(self.surface, th.CARD, view.track(), border_radius=3)
        pygame.draw.rect(self.surface, th.lighter(th.MUTED, 40) if grabbed else th.MUTED, thumb, border_radius=3)

    def _note(self, rect, what: str, label: str = "", font_px: int = 0) -> None:
        """Record a widget drawn at ``rect`` (for the layout tests)."""
        if not self._measuring:
            self.widgets.append(Widget(pygame.Rect(rect), what, self._clip, self._in_views, label, font_px))

    # --- primitives -----------------------------------------------------------------------------

    def _button(self, rect, label: str, intent, *, enabled=True, active=False, style="normal", hit_id=None,
                font=None) -> pygame.Rect:
        rect = pygame.Rect(rect)
        hit_id = hit_id or f"btn:{label}"
        hovered = enabled and self._hover == hit_id
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
        f = self._button_font(label, rect, font)
        lines = [label]
        if f.size(label)[0] > rect.width - 12 and rect.height >= 2 * f.get_linesize() + 4:
            lines = self._lines(f, label, rect.width - 12)
        y = rect.centery - len(lines) * f.get_linesize() // 2
        for line in lines:
            img = th.text(f, line, fg)
            self.surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
            y += f.get_linesize()
        if not self._measuring:
            self.hits.append(Hit(rect, intent, hit_id, enabled, self._clip, self._in_views))
        self._note(rect, hit_id, label, f.get_height())
        return rect

    @staticmethod
    def _button_font(label: str, rect: pygame.Rect, font=None) -> pygame.font.Font:
        """The font for a button's words: ``font`` (the body font) when they fit on one line, else the
        small font (on two lines when the button is tall enough for them and one is not enough)."""
        f = font or th.body_font()
        if f.size(label)[0] > rect.width - 12:
            f = th.small_font()
        return f

    def _label(self, x, y, value: str, f=None, colour=th.TEXT, right: int | None = None) -> int:
        """One line of text at (x, y) (right-aligned to ``right`` when given); returns its height."""
        img = th.text(f or th.body_font(), value, colour)
        if right is not None:
            x = right - img.get_width()
        self.surface.blit(img, (x, y))
        self._note((x, y, img.get_width(), img.get_height()), f"text:{value}", value, (f or th.body_font()).get_height())
        return img.get_height()

    @staticmethod
    def _lines(f, value: str, w: int, sep: str = " ") -> list[str]:
        """``value`` broken into lines no wider than ``w``, between the parts that ``sep`` separates
        (words; `` · `` keeps "you play Black" together)."""
        lines, line = [], ""
        for part in value.split(sep):
            trial = f"{line}{sep}{part}".strip() if line else part.strip()
            if f.size(trial)[0] > w and line:
                lines.append(line)
                line = part.strip()
            else:
                line = trial
        return lines + [line] if line else lines

    def _wrapped(self, x, y, w, value: str, f=None, colour=th.TEXT, sep: str = " ") -> int:
        """Text wrapped to width ``w``; returns the height used."""
        f = f or th.body_font()
        top = y
        for line in self._lines(f, value, w, sep):
            y += self._label(x, y, line, f, colour) + 2
        return y - top

    def _heading(self, x, y, value: str) -> int:
        return self._label(x, y, value.upper(), th.heading_font(), th.MUTED) + 6

    def _flow(self, x, y, w, items, *, h=th.BUTTON_H, f=None, pad=14) -> int:
        """Buttons laid out left to right, wrapping; ``items`` are (label, intent, options). Returns the
        height used."""
        f = f or th.body_font()
        cx, cy = x, y
        for label, intent, opts in items:
            bw = min(w, f.size(label)[0] + 2 * pad)
            if cx > x and cx + bw > x + w:
                cx, cy = x, cy + h + th.GAP
            self._button((cx, cy, bw, h), label, intent, font=f, **opts)
            cx += bw + th.GAP
        return cy + h - y if items else 0

    def _pill(self, rect, colour=th.OVERLAY) -> None:
        pill = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(pill, colour, pill.get_rect(), border_radius=th.RADIUS)
        self.surface.blit(pill, rect.topleft)

    # --- the mode screen ------------------------------------------------------------------------

    def _mode_sections(self, c: Controller, choosing: ChoosingMode,
                       loading: str | None) -> tuple[list[Section], list[list[Section]]]:
        """The mode screen: the rules, then how to play; the settings at the bottom."""
        head = [Section("title", self._mode_title), Section("new-game?", partial(self._asking, choosing))]
        first = [Section("rules", partial(self._rules, c)),
                 Section("help", self._help_buttons),
                 Section("vs-computer", partial(self._vs_computer, c)),
                 Section("games", partial(study.mode_section, self, c)),
                 Section("games-help", partial(study.mode_help, self), optional=True)]
        second = [Section("play-second", partial(self._play_second, c)),
                  Section("hotseat", self._hotseat),
                  Section("back", partial(self._back, c, choosing)),
                  Section("loading", partial(self._loading, loading)),
                  Section("notes", partial(self._notes, c)),
                  Section("controls-help", self._controls_help, optional=True),
                  Section("spacer", lambda x, y, w, h: h, fill=True),
                  Section("settings", partial(self._settings, c, True))]
        second.insert(2, Section("friend", partial(online_screen.mode_section, self, c)))
        return head, ([first, second] if self._columns()[0] == 2 else [first + second])

    def _new_game_question(self, mode: Mode, x, y, w, keep: str) -> int:
        """"Start a new game?" when it would abandon a game against the computer going on."""
        top = y
        y += self._wrapped(x, y, w, "Start a new game?", th.body_font(), th.TEXT) + 2
        level = LEVEL_TITLES[mode.level] if mode.level is not None else ""
        y += self._wrapped(x, y, w, f"Your game in progress counts as a loss at {level}.", th.small_font(),
                           th.MUTED) + 6
        return y + self._flow(x, y, w, [("Yes, new game", it.ConfirmNewGame(), {"style": "danger"}),
                                        (keep, it.Cancel(), {})]) - top

    def _asking(self, choosing: ChoosingMode, x, y, w) -> int:
        if choosing.asking is None or choosing.left is None:
            return 0
        return self._new_game_question(choosing.left.mode, x, y, w, "Keep that game")

    def _mode_title(self, x, y, w) -> int:
        top = y
        y += self._label(x, y, "Checkers 3D", th.title_font()) + 2
        y += self._wrapped(x, y, w, "Choose the rules, then how to play.", th.body_font(), th.MUTED)
        return y - top

    def _rules(self, c: Controller, x, y, w) -> int:
        top = y
        variant = c.variant
        y += self._heading(x, y, "Rules")
        bw = (w - (RULES_PER_ROW - 1) * th.GAP) // RULES_PER_ROW
        # one font for them all: the one that the longest title fits in
        f = min((self._button_font(v.title, pygame.Rect(0, 0, bw, 40)) for v in VARIANTS.values()),
                key=lambda font: font.get_height())
        for i, rules in enumerate(VARIANTS.values()):
            row, col = divmod(i, RULES_PER_ROW)
            self._button((x + col * (bw + th.GAP), y + row * (40 + th.GAP), bw, 40), rules.title,
                         it.ChooseRules(rules.name), active=variant.name == rules.name, hit_id=f"rules:{rules.name}",
                         font=f)
        y += (len(VARIANTS) + RULES_PER_ROW - 1) // RULES_PER_ROW * (40 + th.GAP) - th.GAP + 6
        size = f"{variant.size}×{variant.size}, {variant.rows_of_men * variant.row_width} pieces each"
        y += self._label(x, y, size, th.small_font(), th.MUTED)
        return y - top

    def _help_buttons(self, x, y, w) -> int:
        """The buttons to the Rules (of the rules chosen) and the Controls."""
        items = [("Read the rules", it.OpenHelp(HelpPage.RULES), {"hit_id": "mode:rules"}),
                 ("Controls", it.OpenHelp(HelpPage.CONTROLS), {"hit_id": "mode:controls"})]
        return self._flow(x, y, w, items, h=28, f=th.small_font(), pad=12)

    def _vs_computer(self, c: Controller, x, y, w) -> int:
        top = y
        variant = c.variant
        first = variant.first_player.label.capitalize()
        y += self._heading(x, y, "Play vs computer")
        y += self._label(x, y, f"You play first ({first})", th.small_font(), th.MUTED) + 6
        results = c.storage.results().get(variant.name, {}) if c.storage is not None else {}
        f = th.small_font()
        bw = min(150, (w - 12) * 2 // 5)
        for level in Level:
            self._button((x, y, bw, th.BUTTON_H), LEVEL_TITLES[level], it.StartGame(level), hit_id=f"level:{level}")
            r = results.get(level, {})
            summary = f"{r.get('win', 0)} won · {r.get('draw', 0)} drawn · {r.get('loss', 0)} lost"
            lines = self._lines(f, summary, w - bw - 12, " · ")
            ty = y + (th.BUTTON_H - len(lines) * (f.get_linesize() + 2)) // 2
            self._wrapped(x + bw + 12, ty, w - bw - 12, summary, f, th.MUTED, " · ")
            y += th.BUTTON_H + th.GAP
        return y - th.GAP - top

    def _play_second(self, c: Controller, x, y, w) -> int:
        top = y
        second = c.variant.first_player.opponent.label.capitalize()
        self._button((x, y, w, th.BUTTON_H), "Play second · Medium", it.StartGame(Level.MEDIUM, play_second=True))
        y += th.BUTTON_H + 4
        y += self._wrapped(x, y, w, f"The computer opens; you play {second}", th.small_font(), th.MUTED)
        return y - top

    def _hotseat(self, x, y, w) -> int:
        self._button((x, y, w, th.BUTTON_H), "2 players on this device", it.StartGame(None))
        return th.BUTTON_H

    def _back(self, c: Controller, choosing: ChoosingMode, x, y, w) -> int:
        left = choosing.left
        if left is not None and left.mode.vs_friend and not left.game.is_over:
            return online_screen.left_friend_game(self, c, x, y, w)
        if left is None or left.game.is_over or not left.game.moves:
            return 0
        self._button((x, y, w, th.BUTTON_H), "Back to the game in progress", it.ContinueSaved(), style="primary")
        return th.BUTTON_H

    def _loading(self, loading: str | None, x, y, w) -> int:
        if not loading:
            return 0
        f = th.small_font()
        lines = len(self._lines(f, loading, w - 16))
        self._pill(pygame.Rect(x, y, w, lines * (f.get_linesize() + 2) + 16), th.CARD)
        return self._wrapped(x + 8, y + 8, w - 16, loading, f, th.ACCENT) + 16

    def _notes(self, c: Controller, x, y, w) -> int:
        if not c.notes:
            return 0
        top = y
        y += 8
        for note in c.notes:
            y += self._wrapped(x + 8, y, w - 16, note, th.small_font(), th.TEXT) + 4
        pygame.draw.rect(self.surface, th.DANGER, (x - 2, top, 3, y - top))
        self._button((x + w - 70, y, 70, 26), "OK", it.DismissNotes(), font=th.small_font(), hit_id="notes:ok")
        return y + 26 - top

    def _controls_help(self, x, y, w) -> int:
        top = y
        y += self._heading(x, y, "Controls")
        for line in CONTROLS_HELP:
            y += self._wrapped(x, y, w, line, th.small_font(), th.MUTED) + 4
        return y - 4 - top

    def _settings(self, c: Controller, mode_screen: bool, x, y, w) -> int:
        """The settings; on the mode screen also where a friend's rooms are opened (its screen also
        registers the desktop's links to them)."""
        top = y
        y += self._heading(x, y, "Settings")
        items: list[tuple[str, it.Intent, dict]] = [
            (fmt(getattr(c.settings, name), c.variant), it.ToggleSetting(name), {"hit_id": f"set:{name}"})
            for name, fmt in SETTING_LABELS.items()]
        if mode_screen:
            items.append((online_screen.server_label(c), it.EditServer(), {"hit_id": "set:room_server"}))
        return y + self._flow(x, y, w, items, h=28, f=th.small_font(), pad=10) - top

    # --- the game panel -------------------------------------------------------------------------

    def _game_sections(self, c: Controller, play: InGame,
                       loading: str | None) -> tuple[list[Section], list[list[Section]]]:
        """One column (the table with the counts beside it, then buttons, legal moves, the move list,
        settings) or, when the panel is wide (under the board), two columns. While the rules engine
        still loads (a game resumed at launch), its progress is under the title."""
        n, col_w = self._columns()
        head = [Section("title", partial(self._game_title, c, play.mode)),
                Section("loading", partial(self._loading, loading))]
        moves = Section("moves", partial(self._move_list, c, play), fill=True,
                        min_h=self._move_list_height(MOVE_LIST_ROWS))
        rest = [Section("legal-moves", partial(self._legal_moves, c, play)), moves,
                Section("review", partial(study.review_section, self, c, play)),
                Section("engine", partial(study.engine_section, self, c, play)),
                Section("report", partial(study.report_section, self, c, play)),
                Section("files", partial(study.files_section, self, c)),
                Section("settings", partial(self._settings, c, False))]
        size = c.variant.size
        if n == 2:
            room = self.layout.panel.height - 2 * th.PAD - 60
            table_w = max(14 * size, min(col_w, room - 150))
            first = [Section("table", partial(self._table, c, play, table_w)),
                     Section("controls", partial(self._controls, c, play)),
                     Section("players", partial(online_screen.players, self, c, play))]
            return head, [first, [Section("notes", partial(self._notes, c)),
                                  Section("info", partial(self._info, c, play)), *rest]]
        table_w = max(14 * size, min(224, col_w - 132))
        return head, [[Section("table", partial(self._table_and_info, c, play, table_w)),
                       Section("controls", partial(self._controls, c, play)),
                       Section("players", partial(online_screen.players, self, c, play)),
                       Section("notes", partial(self._notes, c)), *rest]]

    def _game_title(self, c: Controller, mode: Mode, x, y, w) -> int:
        return self._wrapped(x, y, w, self._title(c, mode), th.body_font(), th.MUTED, sep=" · ")

    @staticmethod
    def _title(c: Controller, mode: Mode) -> str:
        level, human = mode.level, mode.human
        if level is not None and human is not None:
            how = f"vs computer · {LEVEL_TITLES[level]} · you play {human.label.capitalize()}"
        elif mode.vs_friend and human is not None:
            how = f"with a friend · you play {human.label.capitalize()}"
        else:
            how = "2 players on this device"
        return f"{c.variant.title} · {how}"

    def _table_and_info(self, c: Controller, play: InGame, table_w: int, x, y, w) -> int:
        """The table with the counts beside it (one column)."""
        bottom = self._table(c, play, table_w, x, y, w)
        n = c.variant.size
        right = x + table_w // n * n + 14
        info = self._info(c, play, right, y + 22, x + w - right, compact=True)
        return max(bottom, info + 22)

    def _table(self, c: Controller, play: InGame | None, table_w: int, x, y, w) -> int:
        """The "Button controls" table: the board shown (a review's position, the editor's board) as
        buttons, turned like the 3D board, ``table_w`` wide. Returns the height used."""
        v = c.variant
        n = v.size
        top = y
        y += self._heading(x, y, "Button controls")
        cell = max(14, min(table_w // n, 44))
        shown = c.shown_position()
        pieces = shown.pieces() if shown is not None else {}
        targets, rings = c.targets(), c.final_rings()
        capturers = c.capturers()
        flipped = c.second_side_near()
        cursor = c.cursor_square() if c.cursor_visible else None
        cursor_cell = c.cursor
        last = c.last_move()
        last_path = set(last[0].path) if last else set()
        font = th.font(max(9, int(cell * 0.45)))
        for rank in range(n):
            for file in range(n):
                col, row = (n - 1 - file, rank) if flipped else (file, n - 1 - rank)
                rect = pygame.Rect(x + col * cell, y + row * cell, cell, cell)
                sq = coords_square(v, file, rank)
                if sq is None:
                    pygame.draw.rect(self.surface, th.LIGHT_SQUARE, rect)
                    if c.cursor_visible and cursor_cell == (file, rank):
                        pygame.draw.rect(self.surface, th.FOCUS, rect, width=2)
                    continue
                hit_id = f"cell:{sq}"
                colour = th.DARK_SQUARE
                if sq in last_path:
                    colour = (150, 96, 52)
                if self._hover == hit_id:
                    colour = th.lighter(colour, 25)
                pygame.draw.rect(self.surface, colour, rect)
                if not self._measuring:
                    self.hits.append(Hit(rect, it.SquarePressed(sq), hit_id, True, self._clip, self._in_views))
                piece = pieces.get(sq)
                r = int(cell * 0.38)
                if piece is not None:
                    fill, edge = th.PIECE_COLOURS[piece.color.label]
                    pygame.draw.circle(self.surface, fill, rect.center, r)
                    pygame.draw.circle(self.surface, edge, rect.center, r, width=max(1, cell // 16))
                    if piece.king:
                        pygame.draw.circle(self.surface, th.ACCENT, rect.center, max(2, r // 2), width=max(2, cell // 12))
                if sq in capturers:
                    pygame.draw.circle(self.surface, th.ACCENT, rect.center, r + 2, width=2)
                if sq == c.selected:
                    pygame.draw.rect(self.surface, th.ACCENT, rect, width=3)
                if sq in targets:
                    pygame.draw.circle(self.surface, th.GREEN, rect.center, max(3, cell // 7))
                if sq in rings:
                    pygame.draw.circle(self.surface, th.GREEN, rect.center, int(cell * 0.32), width=2)
                if sq in c.entered:
                    pygame.draw.circle(self.surface, th.ACCENT, rect.center, max(3, cell // 8))
                marked = sq in targets or sq in rings or sq in c.entered
                if c.settings.square_numbers and piece is None and not marked:
                    # on the empty squares only, in the middle: a piece or a marker would hide it
                    img = th.text(font, str(sq), NUMBER_COLOUR)
                    at = img.get_rect(center=rect.center)
                    self.surface.blit(img, at)
                    self._note(at, f"number:{sq}", str(sq), font.get_height())
                if sq == cursor:
                    pygame.draw.rect(self.surface, th.FOCUS, rect, width=3)
        board = pygame.Rect(x - 1, y - 1, n * cell + 2, n * cell + 2)
        pygame.draw.rect(self.surface, th.CARD_EDGE, board, width=1)
        self._note(board, "table")
        return y + n * cell - top

    def _controls(self, c: Controller, play: InGame, x, y, w) -> int:
        g = play.game
        human = c.is_human_turn()
        top = y
        if c.confirming_resign:
            y += self._label(x, y, "Resign this game?", th.body_font(), th.TEXT) + 6
            return y + self._flow(x, y, w, [("Yes, resign", it.ConfirmResign(), {"style": "danger"}),
                                            ("Keep playing", it.Cancel(), {})]) - top
        if isinstance(c.phase, ConfirmingNewGame):
            return self._new_game_question(play.mode, x, y, w, "Keep playing")
        if isinstance(play, Reviewing):  # nothing to offer, undo or resign in a review
            items: list[tuple[str, it.Intent, dict]] = [
                ("Play again", it.PlayAgain(), {}), ("Change mode", it.ChangeMode(), {}), ("Flip board", it.FlipBoard(), {})]
            return self._flow(x, y, w, items, f=th.small_font(), pad=10)
        can_offer = human and g.can_offer_draw()[0]
        self._button((x, y, w, th.BUTTON_H), "Offer a draw with your next move", it.OfferDraw(),
                     enabled=human and (can_offer or c.offer_armed), active=c.offer_armed, hit_id="btn:offer")
        y += th.BUTTON_H + th.GAP
        if c.offer_pending_for_player():
            self._button((x, y, w, th.BUTTON_H), "Accept draw", it.AcceptDraw(), style="primary",
                         hit_id="btn:accept-panel")
            y += th.BUTTON_H + th.GAP
        if play.mode.vs_friend:
            items = online_screen.game_buttons(c, play)
        else:
            items = [("Undo move", it.Undo(), {"enabled": c.can_undo()}),
                     ("Resign", it.Resign(), {"enabled": not g.is_over}),
                     ("Play again", it.PlayAgain(), {}),
                     ("Change mode", it.ChangeMode(), {}),
                     ("Flip board", it.FlipBoard(), {})]
        items.append(("Rules", it.OpenHelp(), {"hit_id": "btn:rules"}))
        return y + self._flow(x, y, w, items, f=th.small_font(), pad=10) - top

    def _info(self, c: Controller, play: InGame, x, y, w, compact: bool = False) -> int:
        """Pieces left (men and kings), moves left before an automatic draw, the last move. Returns
        the height used."""
        pos = c.shown_position() or play.game.position
        top = y
        f = th.small_font() if compact else th.body_font()
        y += self._heading(x, y, "Pieces left")
        for color in (c.variant.first_player, c.variant.first_player.opponent):
            men, kings = pos.count(color)
            fill, edge = th.PIECE_COLOURS[color.label]
            line = f.get_linesize()
            pygame.draw.circle(self.surface, fill, (x + 7, y + line // 2), 6)
            pygame.draw.circle(self.surface, edge, (x + 7, y + line // 2), 6, width=1)
            counts = f"{men} {'man' if men == 1 else 'men'} · {kings} {'king' if kings == 1 else 'kings'}"
            if compact:
                y += self._label(x + 18, y, color.label.capitalize(), f)
                y += self._wrapped(x + 18, y, w - 18, counts, f, th.MUTED, " · ") + 4
            else:
                self._label(x + 20, y, color.label.capitalize(), f)
                y += self._label(x + 90, y, counts, f) + 3
        y += 6
        left = c.moves_until_draw()
        if left is not None:
            text = f"Automatic draw in {left} {'move' if left == 1 else 'moves'} each"
            y += self._wrapped(x, y, w, text, th.small_font(), th.MUTED) + 2
        last = c.last_move()
        if last is not None:
            move, before = last
            y += self._wrapped(x, y, w, f"Last move: {c.move_text(move, before)}", th.small_font(), th.MUTED)
        return y - top

    def _legal_moves(self, c: Controller, play: InGame, x, y, w) -> int:
        if isinstance(play, Reviewing):
            return 0
        top = y
        y += self._heading(x, y, "Legal moves")
        moves = c.legal_moves()
        if not moves:
            text = ("—" if play.game.is_over else "Waiting for your friend…" if play.mode.vs_friend
                    else "Waiting for the computer…")
            return y + self._label(x, y, text, th.small_font(), th.MUTED) - top
        texts = sorted(((c.move_text(m), m) for m in moves), key=lambda tm: (tm[1].start, tm[1].end, tm[0]))
        items = [(text, it.PlayMoveFromList(m), {"hit_id": f"move:{text.replace('×', 'x')}"}) for text, m in texts]
        return y + self._flow(x, y, w, items, h=26, f=th.small_font(), pad=8) - top

    @staticmethod
    def _move_list_height(rows: int) -> int:
        return th.heading_font().get_linesize() + 6 + rows * (th.small_font().get_linesize() + 2)

    def _move_list(self, c: Controller, play: InGame, x, y, w, h) -> int:
        """The moves played, a row per move of each side, in a list of its own that scrolls (it
        follows the latest move unless the player scrolled up; in a review, the move shown). A press
        on a move shows the position after it; the game report's marks follow the moves. Fills
        height ``h``."""
        top = y
        y += self._heading(x, y, "Moves")
        g = play.game
        f = th.small_font()
        if not g.ply:
            self._label(x, y, "No moves yet", f, th.MUTED)
            return h
        report = c.current_report()
        marks = report.marks() if report is not None else {}
        rows: list[tuple[int, tuple[int, str] | None, tuple[int, str] | None]] = []  # number, (ply, text) each side
        for index, (before, move, offered) in enumerate(zip(g.positions, g.moves, g.draw_offers, strict=False)):
            cell = (index + 1, c.move_text(move, before) + marks.get(index, "") + (" (=)" if offered else ""))
            first = before.turn is c.variant.first_player
            if first or not rows:
                rows.append((len(rows) + 1, cell if first else None, None if first else cell))
            else:
                rows[-1] = (rows[-1][0], rows[-1][1], cell)
        line_h = f.get_linesize() + 2
        box = pygame.Rect(x, y, w, (top + h - y) // line_h * line_h)  # whole rows at either end
        shown = c.shown_ply() if isinstance(play, Reviewing) else None
        self._follow_review_row(rows, shown, line_h, box, id(g))
        col_w = min(120, (w - 42) // 2)
        with self._scrolled("moves", box, len(rows) * line_h, id(g), follows_end=True, news=g.ply) as offset:
            first_row = offset // line_h
            for i in range(first_row, min(len(rows), first_row + box.height // line_h + 2)):
                number, a, b = rows[i]
                ry = box.y - offset + i * line_h
                self._label(x, ry, f"{number}.", f, th.MUTED, right=x + 34)
                for side, cx in ((a, x + 42), (b, x + 42 + col_w)):
                    if side is not None:
                        self._move_cell(side, cx, ry, col_w - 6, line_h, f, shown, marks)
                    elif cx == x + 42:
                        self._label(cx, ry, "…", f)
        return h

    def _move_cell(self, cell: tuple[int, str], x, y, w, h, f, shown: int | None, marks: dict[int, str]) -> None:
        """One move of the list: pressable (shows the position after it), highlighted when shown."""
        ply, text = cell
        rect = pygame.Rect(x - 3, y, min(w, f.size(text)[0] + 6), h)
        hit_id = f"ply:{ply}"
        if ply == shown:
            pygame.draw.rect(self.surface, th.ACCENT, rect, border_radius=3)
        elif self._hover == hit_id:
            pygame.draw.rect(self.surface, th.BUTTON_HOVER, rect, border_radius=3)
        mark = marks.get(ply - 1, "")
        colour = th.ACCENT_TEXT if ply == shown else study.MARK_COLOURS.get(mark, th.TEXT)
        self._label(x, y, text, f, colour)
        if not self._measuring:
            self.hits.append(Hit(rect, it.ReviewTo(ply), hit_id, True, self._clip, self._in_views))

    def _follow_review_row(self, rows, shown: int | None, line_h: int, box: pygame.Rect, key) -> None:
        """In a review, bring the row of the move shown into the list's view when that move changes
        (the player may scroll the list freely in between)."""
        view = self.views.get("moves")
        if shown is None or self._measuring or view is None or view.key != key or shown == self._review_row:
            self._review_row = shown if not self._measuring else self._review_row
            return
        self._review_row = shown
        row = next((i for i, (_, a, b) in enumerate(rows) if any(cl is not None and cl[0] == shown for cl in (a, b))),
                   0 if shown == 0 else None)
        if row is None:
            return
        height = box.height
        offset = view.offset
        if row * line_h < offset:
            offset = row * line_h
        elif (row + 1) * line_h > offset + height:
            offset = (row + 1) * line_h - height
        view.offset = max(0, min(offset, len(rows) * line_h - height))
        view.at_end = view.offset >= len(rows) * line_h - height

    # --- over the board -------------------------------------------------------------------------

    def _view_buttons(self, c: Controller) -> None:
        """The view buttons, top right of the board."""
        b = self.layout.board
        vw = 92 if not self.layout.stacked_bars else 84
        vx = b.right - 14 - 2 * vw - th.GAP
        for i, (view, label) in enumerate(VIEW_TITLES.items()):
            self._button((vx + i * (vw + th.GAP), b.y + 12, vw, 32), label, it.SetView(view),
                         active=c.view == view, hit_id=f"view:{view}", font=th.small_font())

    def _status_area(self) -> pygame.Rect:
        """Where the status line goes: top left, or under the view buttons on a narrow board."""
        b = self.layout.board
        if self.layout.stacked_bars:
            return pygame.Rect(b.x + 14, b.y + 12 + 32 + 8, b.width - 28, 0)
        vw = 92
        vx = b.right - 14 - 2 * vw - th.GAP
        return pygame.Rect(b.x + 14, b.y + 10, vx - th.GAP * 2 - b.x - 14, 0)

    def _board_overlays(self, c: Controller, play: InGame | None) -> None:
        """The status line and the view buttons above the board; below it, in a game (``play``), the
        buttons and the draw countdown; over it the result."""
        b = self.layout.board
        self._view_buttons(c)
        self._status(c, self._status_area())
        if play is None:
            return
        # below the board: Deselect, Accept draw, the draw countdown
        items: list[tuple[str, it.Intent, dict]] = [
            ("Deselect", it.Deselect(), {"enabled": c.selected is not None, "hit_id": "btn:deselect"})]
        if c.offer_pending_for_player():
            items.append(("Accept draw", it.AcceptDraw(), {"style": "primary", "hit_id": "btn:accept-board"}))
        left = c.moves_until_draw()
        countdown = f"Draw in {left} {'move' if left == 1 else 'moves'} each" if left is not None and left <= 5 else None
        self.countdown = countdown
        f = th.body_font()
        widths = [f.size(label)[0] + 28 for label, _, _ in items] + ([f.size(countdown)[0] + 28] if countdown else [])
        rows = self._centred_rows(widths, b.width - 28)
        y = b.bottom - 12 - th.BUTTON_H - (len(rows) - 1) * (th.BUTTON_H + th.GAP)
        self.over_view |= y < self.layout.view.bottom
        i = 0
        for row in rows:
            x = b.centerx - (sum(row) + th.GAP * (len(row) - 1)) // 2
            for bw in row:
                if i < len(items):
                    label, intent, opts = items[i]
                    self._button((x, y, bw, th.BUTTON_H), label, intent, **opts)
                else:
                    assert countdown is not None
                    rect = pygame.Rect(x, y, bw, th.BUTTON_H)
                    self._pill(rect, (120, 60, 20, 220))
                    img = th.text(f, countdown, th.TEXT)
                    self.surface.blit(img, img.get_rect(center=rect.center))
                    self._note(rect, "countdown")
                x += bw + th.GAP
                i += 1
            y += th.BUTTON_H + th.GAP
        if play.game.is_over and not isinstance(play, Reviewing):
            self._result_card(c)

    @staticmethod
    def _centred_rows(widths: list[int], w: int) -> list[list[int]]:
        """``widths`` in rows no wider than ``w`` (with gaps), in order."""
        rows: list[list[int]] = [[]]
        for bw in widths:
            if rows[-1] and sum(rows[-1]) + th.GAP * len(rows[-1]) + bw > w:
                rows.append([])
            rows[-1].append(bw)
        return rows

    def _status(self, c: Controller, at: pygame.Rect) -> None:
        """The status line and the notice under it, in a pill at ``at``'s top left no wider than
        ``at``; long text wraps (over the 3D view when the bar is full)."""
        status = c.status()
        if c.waiting_for_opponent:
            status = status.rstrip("…") + "." * (1 + int(self._now * 3) % 3)
        bold = th.font(17, bold=True)
        inner = at.width - 28
        if inner < 40:
            return
        lines = [(line, bold, th.TEXT) for line in self._lines(bold, status, inner)]
        rule = c.notice_rule  # the notice says why a move is refused: pressing it opens that rule
        if c.notice:
            lines += [(line, th.body_font(), th.ACCENT) for line in self._lines(th.body_font(), c.notice, inner)]
            if rule is not None:
                lines.append(("Press here to read the rule ›", th.small_font(), th.FOCUS))
        width = min(at.width, max(f.size(t)[0] for t, f, _ in lines) + 28)
        height = sum(f.get_linesize() for _, f, _ in lines) + 16 + 4 * (len(lines) - 1)
        rect = pygame.Rect(at.x, at.y, width, height)
        self.over_view |= rect.bottom > self.layout.view.y
        hovered = rule is not None and self._hover == "notice:rule"
        self._pill(rect, (34, 40, 52, 225) if hovered else th.OVERLAY)
        if rule is not None:  # the notice's lines, pressable
            top = rect.y + 8 + sum(f.get_linesize() + 4 for _, f, colour in lines if f is bold)
            notice = pygame.Rect(rect.x, top - 4, rect.width, rect.bottom - top + 4)
            if self.focus == "notice:rule":
                pygame.draw.rect(self.surface, th.FOCUS, notice, width=2, border_radius=th.RADIUS)
            self.add_hit(notice, it.OpenHelp(HelpPage.RULES, rule), "notice:rule")
        ty = rect.y + 8
        for t, f, colour in lines:
            self._label(rect.x + 14, ty, t, f, colour)
            ty += f.get_linesize() + 4

    def _result_card(self, c: Controller) -> None:
        self.over_view = True
        b = self.layout.board
        head, _, reason = c.status().partition(": ")
        big = th.font(30, bold=True)
        w = max(440 if c.vs_friend else 320, big.size(head)[0] + 60, th.body_font().size(reason)[0] + 60)
        rect = pygame.Rect(0, 0, min(w, b.width - 40), 150)
        rect.center = (b.centerx, b.centery)
        self._pill(rect, (20, 24, 31, 230))
        pygame.draw.rect(self.surface, th.ACCENT, rect, width=2, border_radius=th.RADIUS)
        y = rect.y + 16
        img = th.text(big, head, th.ACCENT)
        self.surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
        y += img.get_height() + 6
        img = th.text(th.body_font(), reason[:1].upper() + reason[1:], th.TEXT)
        self.surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
        bw = 140
        bx = rect.centerx - bw - th.GAP // 2
        if c.vs_friend:  # the friend's room: its next game, sides swapped, when both ask
            bw = min(190, (rect.width - 24 - th.GAP) // 2)
            bx = rect.centerx - bw - th.GAP // 2
            enabled = c.friend is not None and c.friend.is_connected and not c.rematch_asked
            label = "Rematch asked" if c.rematch_asked else "Rematch (swap sides)"
            if th.small_font().size(label)[0] > bw - 12:
                label = label.split(" (")[0]
            self._button((bx, rect.bottom - 16 - th.BUTTON_H, bw, th.BUTTON_H), label, it.Rematch(),
                         style="primary", enabled=enabled, hit_id="card:rematch")
        else:
            self._button((bx, rect.bottom - 16 - th.BUTTON_H, bw, th.BUTTON_H), "Play again", it.PlayAgain(),
                         style="primary", hit_id="card:again")
        self._button((bx + bw + th.GAP, rect.bottom - 16 - th.BUTTON_H, bw, th.BUTTON_H), "Change mode",
                     it.ChangeMode(), hit_id="card:mode")


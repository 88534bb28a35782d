"""The 2D interface, drawn with pygame onto one window-sized surface that the renderer lays over the
3D board: the side panel (mode screen or game panel), the status line and the buttons on the board
(``overlays``); or, instead of all that, the help screen over the whole window (``help_screen``), and
the keys card.

The panel is a list of sections (``mode_screen``, ``game_panel``; ``editor``, ``pdn_browser`` and
``online_screen`` for their screens) laid out by ``game.ui.column``: one column beside the board, two
under it when the panel is wide, scrolled when they don't fit (see that module for how to add a
section). Drawing a part rebuilds its list of
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

from engine import coords_square, square_name
from game import intents as it
from game.controller import Controller
from game.phases import Browsing, ChoosingMode, Editing, InGame, ReadingHelp, Resuming, RoomPhase, Screen
from game.settings import Notation

from . import editor as editor_ui
from . import game_panel, mode_screen, online_screen, overlays, pdn_browser, study
from . import theme as th
from .column import SECTION_GAP, Placed, ScrollView, Section, arrange, column_height
from .help_screen import HelpScreen, draw_keys_card
from .layout import Layout, compute_layout

if TYPE_CHECKING:
    from engine import Variant

TWO_COLUMNS_W = 640  # a panel at least this wide (under the board) has two columns
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
        side = study.EVAL_STRIP_W if study.shows_evaluation(c) else 0
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
                head, columns = mode_screen.sections(self, c, choosing, loading)
            case InGame() as play:
                head, columns = game_panel.sections(self, c, play, loading)
            case Resuming(mode=mode):
                head = [Section("title", partial(game_panel.title, self, c, mode))]
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
        if c.in_game is not None or isinstance(c.phase, Resuming):
            overlays.board_overlays(self, c, c.in_game)
        elif isinstance(c.phase, RoomPhase):
            online_screen.room_card(self, c, c.phase)
        elif c.editing is not None:
            overlays.view_buttons(self, c)
            overlays.status(self, c, overlays.status_area(self))
        if self.layout.side:  # below a status that reaches over the strip (a narrow window), above the buttons
            strip = self.layout.side_strip
            top, bottom = strip.top, strip.bottom
            for w in self.widgets:
                if w.rect.colliderect(strip):
                    if w.rect.centery < strip.centery:
                        top = max(top, w.rect.bottom + 8)
                    else:
                        bottom = min(bottom, w.rect.top - 8)
            study.evaluation_bar(self, c, pygame.Rect(strip.x, top, strip.width, max(0, bottom - top)))

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

    # --- sections on more than one screen ---------------------------------------------------------

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


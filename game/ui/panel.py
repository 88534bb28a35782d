"""The 2D interface, drawn with pygame onto one window-sized surface that the renderer lays over the
3D board: the side panel (the mode screen, the game panel, the editor, the browser, the room screen),
the status line and the buttons on the board (``overlays``); or, instead of all that, the help screen
over the whole window (``help_screen``), and the keys card.

:class:`Interface` is a :class:`~game.ui.paint.Painter` (the toolkit every section draws with) that
also knows the screens: the panel of a phase is the layout its screen registered
(``game.ui.paint.screen``), a list of sections laid out by ``game.ui.column``: one column beside the
board, two under it when the panel is wide, scrolled when they don't fit. Drawing a part rebuilds its
list of pressable things (:class:`~game.ui.paint.Hit`), each with the intent a press sends and the area
it can be pressed in (scrolled content is clipped), so hit-testing always matches what is on screen;
it also lists every widget's rectangle (:attr:`Interface.widgets`), which the layout tests check. Each
part of the surface (the panel; the bars around the 3D view) is redrawn only when something it shows
has changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

import pygame

from game.play.machine import Controller
from game.play.phases import Browsing, ConfirmingLeave, ReadingHelp, Resuming, RoomPhase, Screen

# the modules whose sections and screens register themselves (game.ui.paint)
from . import common, editor, game_panel, mode_screen, online_screen, overlays, pdn_browser, study  # noqa: F401
from . import theme as th
from .column import SECTION_GAP, Placed, Section, arrange, column_height
from .help_screen import KEYS_VIEW, HelpScreen, Scroll, draw_keys_card
from .layout import Layout, compute_layout
from .paint import Hit, Painter, Widget, screen_for

UNFOCUSED = ("cell:", "ply:", "graph:")  # squares, moves, graph columns: pressed, not reached with Tab


@dataclass
class _Grab:
    """A drag on a scroll view: its scrollbar's thumb (``thumb``) or its content."""

    view: str
    thumb: bool
    anchor: int  # the pointer's row minus the thumb's top, or the pointer's row and the offset
    offset: int = 0


class Interface(Painter):
    """Draws the panel and the board overlays, and says what is under the pointer."""

    def __init__(self, size: tuple[int, int]):
        layout: Layout = compute_layout(*size)
        super().__init__(pygame.Surface(size, pygame.SRCALPHA), layout)
        self.mouse: tuple[int, int] = (-1, -1)
        self.full_page = False  # the help screen fills the window: no board under it
        self._menu = False  # the layout is the mode screen's (compute_layout's ``menu``)
        self.keys_shown = False  # the keys card ("?") is over everything
        self.help = HelpScreen()
        self.redrawn: list[pygame.Rect] = []  # what the last render() redrew
        self._panel_key: tuple | None = None
        self._bars_key: tuple | None = None
        self._page_key: tuple | None = None
        self._panel_hits: list[Hit] = []
        self._bar_hits: list[Hit] = []
        self._panel_widgets: list[Widget] = []
        self._bar_widgets: list[Widget] = []
        self._grab: _Grab | None = None
        self._screen: tuple | None = None  # _screen_key of what was last drawn
        self._revealed: str | None = None  # the question last scrolled into view (Painter.keep_in_view)

    # --- queries --------------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        self.layout = compute_layout(*size, side=self.layout.side, menu=self._menu)
        self.surface = pygame.Surface((self.layout.width, self.layout.height), pygame.SRCALPHA)
        self._panel_key = self._bars_key = None

    def _follow_evaluation(self, c: Controller) -> None:
        """The strip for the evaluation bar beside the board, while it is shown; the mode screen's
        arrangement (its panel beside the board wherever that leaves the board as large)."""
        side = study.EVAL_STRIP_W if study.shows_evaluation(c) else 0
        menu = c.screen is Screen.MODE
        if side != self.layout.side or menu != self._menu:
            self._menu = menu
            self.layout = compute_layout(self.layout.width, self.layout.height, side=side, menu=menu)
            self._panel_key = self._bars_key = None

    def hit_at(self, pos) -> Hit | None:
        """The enabled or greyed hit under ``pos`` (the last drawn wins: overlays are drawn after the
        panel); a greyed one's press (``Hit.press``) says why it does nothing now."""
        for h in reversed(self.hits):
            if (h.enabled or h.why) and h.rect.collidepoint(pos) and (h.clip is None or h.clip.collidepoint(pos)):
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

    def navigate(self, move: Scroll) -> None:
        """A key's move on the page that fills the window (``help_screen.Scroll``)."""
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
        (on the help screen, its page, and under the keys card, the card, wherever the pointer is)."""
        if self.full_page:
            return self.help.scroll.scroll_by(dy)
        if self.keys_shown:  # the keys card lies over everything: it scrolls, nothing under it
            keys = self.views.get(KEYS_VIEW)
            return keys is not None and keys.scroll_by(dy)
        for name in reversed(self.view_order):
            view = self.views[name]
            if view.rect.collidepoint(pos) and view.scroll_by(dy):
                return True
        return False

    def keys_card_scrolls(self) -> bool:
        """Whether the keys card is shown and too tall for the window (then it scrolls)."""
        keys = self.views.get(KEYS_VIEW)
        return self.keys_shown and keys is not None and keys.scrollable

    def grab(self, pos) -> bool:
        """A press that no button took: on a scrollbar it grabs the thumb (a press beside the thumb
        first moves it there), on scrolled content it drags the content; False elsewhere."""
        for name in reversed(self.view_order):
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
        self.hover = hover.id if hover else None
        state = (c.version, self.hover, self.focus, self.layout.width, self.layout.height)
        grabbed = self.grabbed = self._grab.view if self._grab is not None else None
        if isinstance(c.phase, ReadingHelp):
            return self._render_help(c.phase, (state, grabbed), diagrams=loading is None)
        if self.full_page:  # back from the help screen: everything is drawn again
            self.full_page = False
            self._panel_key = self._bars_key = self._page_key = None
        self.keys_shown = c.keys_shown and c.screen is Screen.GAME
        if not self.keys_shown:  # the card opens at its top
            self.views.pop(KEYS_VIEW, None)
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
            self.now = now
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
            self.hits, self.widgets, self.view_order = [], [], []
            self.help.draw(self, phase, diagrams)
            self._page_key = (state, self.help.state(), diagrams)
            self.redrawn.append(self.surface.get_rect())
        return bool(self.redrawn)

    def _draw_panel(self, c: Controller, loading: str | None) -> None:
        """Draw the panel; a question that has just appeared in it and lies out of view (the short
        panel under the board at 640x480) is scrolled into view, and the panel drawn again."""
        self._draw_panel_once(c, loading)
        wanted, self.wants_view = self.wants_view, None
        name = wanted[1] if wanted is not None else None
        if name != self._revealed:
            self._revealed = name
            panel = self.views.get("panel")
            if wanted is not None and panel is not None and panel.reveal(wanted[0].top, wanted[0].bottom):
                self._draw_panel_once(c, loading)
                self.wants_view = None

    def _draw_panel_once(self, c: Controller, loading: str | None) -> None:
        self.hits = self._panel_hits = []
        self.widgets = self._panel_widgets = []
        self.view_order = []
        pygame.draw.rect(self.surface, th.PANEL, self.layout.panel)
        shown = c.phase.over if isinstance(c.phase, ConfirmingLeave) else c.phase
        head, columns = screen_for(shown)(self, c, shown, loading)
        self._lay_out(head, columns, self._screen_key(c))

    @staticmethod
    def _screen_key(c: Controller) -> tuple:
        """What the panel shows: the mode screen (asking a question or not), a room screen, which game,
        the editor, the browser (which file); the help screen: none of them."""
        if c.screen is Screen.HELP:
            return ("help",)
        shown = c.phase.over if isinstance(c.phase, ConfirmingLeave) else c.phase
        if isinstance(shown, Browsing):
            return "browser", id(shown.listing)
        if c.editing is not None:
            return ("editor",)
        if c.in_game is not None:
            return "game", id(c.game)
        if isinstance(c.phase, Resuming):
            return ("resuming",)
        if isinstance(c.phase, RoomPhase):
            return "room", type(c.phase).__name__
        return "mode", c.asking is not None

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

    def _lay_out(self, head: list[Section], columns: list[list[Section]], key: Hashable) -> None:
        """Measure the sections, stack them (``column.arrange``) and draw them in the panel, scrolled."""
        p = self.layout.panel
        full_w = p.width - 2 * th.PAD
        _, col_w = self.columns()
        placed_head = arrange([(s, self.measure(s, full_w)) for s in head], 0)
        head_h = column_height(placed_head)
        if head_h:
            head_h += SECTION_GAP
        room = p.height - 2 * th.PAD - head_h
        placed = [arrange([(s, self.measure(s, col_w)) for s in col], room) for col in columns]
        content_h = 2 * th.PAD + head_h + max((column_height(col) for col in placed), default=0)
        with self.scrolled("panel", p, content_h, key) as offset:
            top = p.y + th.PAD - offset
            self._draw_placed(placed_head, p.x + th.PAD, top, full_w)
            for i, col in enumerate(placed):
                self._draw_placed(col, p.x + th.PAD + i * (col_w + th.PAD), top + head_h, col_w)

    @staticmethod
    def _draw_placed(placed: list[Placed], x: int, top: int, w: int) -> None:
        for pl in placed:
            s = pl.section
            if s.fill:
                s.draw(x, top + pl.y, w, pl.h)
            else:
                s.draw(x, top + pl.y, w)

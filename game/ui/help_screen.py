"""The help screen (the Rules of a game and the Controls, from ``game.help``) over the whole window, and
the keys card that "?" shows over a game.

The screen: a header (Back, the Rules and Controls tabs, the game's name), the contents (a column at
the left in a wide window, at the top of the page otherwise) and the page, which scrolls (the wheel,
the keys, the scrollbar). A section of the Rules is its title, its paragraphs and its diagrams, beside
the text when the page is wide enough and under it otherwise, each with its caption.

The page is laid out once per page and width (:class:`PageLayout`, text wrapped, every item placed in
page coordinates), then each redraw draws only what lies in view, in the panel's scroll view
(``game.ui.column.ScrollView``: the wheel, the scrollbar and a drag on the page work as in the panel).
Where the reader is (the scroll offset, the section last jumped to) is the screen's own state, as a
scroll position is a window's: the controller's :class:`game.play.phases.ReadingHelp` says which page was
opened at which section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from engine import Variant, variant_named
from game.help import KEYS, Diagram, Key, Page, controls_page, rules_page
from game.play import intents as it
from game.play.phases import HelpPage, ReadingHelp

from . import theme as th
from .column import ScrollView
from .diagram import CAPTURED, GOLD, GREEN, MARKED, ORANGE, REFUSED, diagram_picture, picture_height

if TYPE_CHECKING:
    from .paint import Painter

HEADER_H = 52
SIDEBAR_FROM = 960  # window width from which the contents stand in a column at the left
SIDEBAR_W = 248
SCROLLBAR_W = 12  # the page's right margin, where the scroll view's bar runs
PAD = 24  # around the page's text
TEXT_MAX_W = 640  # the longest line of text (about 80 characters)
SIDE_BY_SIDE_FROM = 660  # page width from which diagrams stand beside the text
DIAGRAM_MIN, DIAGRAM_MAX = 220, 300
LINE = 20  # pixels of one scroll step (an arrow key is two)
JUMP_MARGIN = 10  # above a section's title when the page jumps to it (the previous section's last line is out of view)
KEYS_SECTION = "keys"  # the id of the key table's section on the Controls page

LEGEND = (
    ("path", "the move the text explains (a dot where it stops)"),
    ("captured", "a piece that move captures"),
    ("arrow", "another move the rules allow"),
    ("refused", "a move the rules don't allow"),
    ("ring", "a piece that must capture"),
    ("king", "a king"),
    ("marked", "a square the text points at"),
)


@dataclass(frozen=True)
class Scroll:
    """A key's move on the page that fills the window (``game.window.input`` sends it to
    ``Interface.navigate``): by ``lines`` (positive: further down), by ``pages``, to an ``end`` (-1 the
    top, 1 the bottom) or by ``sections``."""

    lines: int = 0
    pages: int = 0
    end: int = 0
    sections: int = 0


# --- what a page is made of ------------------------------------------------------------------------

@dataclass(frozen=True)
class _Text:
    x: int
    y: int
    value: str
    font: pygame.font.Font
    colour: tuple

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(self.x, self.y, self.font.size(self.value)[0], self.font.get_linesize())


@dataclass(frozen=True)
class _Picture:
    rect: pygame.Rect
    diagram: Diagram
    variant: Variant


@dataclass(frozen=True)
class _Box:
    rect: pygame.Rect
    colour: tuple
    radius: int = th.RADIUS


@dataclass(frozen=True)
class _Glyph:
    """A sample of a diagram's marking, for the legend."""

    rect: pygame.Rect
    kind: str


@dataclass(frozen=True)
class _Link:
    """An entry of the contents at the top of the page (pressable)."""

    rect: pygame.Rect
    section: str
    lines: tuple[str, ...]


_Item = _Text | _Picture | _Box | _Glyph | _Link


@dataclass(frozen=True)
class SectionSpan:
    id: str
    title: str
    top: int
    bottom: int


@dataclass
class PageLayout:
    """A page laid out at one width: its items in page coordinates (x from the page's left edge, y
    from its top), its sections' extents, its height."""

    items: list[_Item] = field(default_factory=list)
    sections: list[SectionSpan] = field(default_factory=list)
    height: int = 0
    left: int = PAD  # where the text begins

    def section(self, section_id: str) -> SectionSpan | None:
        return next((s for s in self.sections if s.id == section_id), None)


def help_page(phase: ReadingHelp) -> tuple[Page, Variant]:
    """The page the help screen shows in ``phase``, and the rules it is about."""
    variant = variant_named(phase.variant)
    page = rules_page(variant) if phase.page is HelpPage.RULES else controls_page(variant)
    return page, variant


def wrap(f: pygame.font.Font, value: str, width: int) -> list[str]:
    """``value`` broken into lines no wider than ``width`` (a word longer than that has a line of its own)."""
    lines, line = [], ""
    for word in value.split():
        trial = f"{line} {word}".strip()
        if f.size(trial)[0] > width and line:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line] if line else lines


class _Flow:
    """Places text down a column ``width`` wide starting at ``x``."""

    def __init__(self, items: list[_Item], x: int, y: int, width: int):
        self.items, self.x, self.y, self.width = items, x, y, width

    def text(self, value: str, f: pygame.font.Font, colour=th.TEXT, indent: int = 0, gap: int = 2) -> None:
        for line in wrap(f, value, self.width - indent):
            self.items.append(_Text(self.x + indent, self.y, line, f, colour))
            self.y += f.get_linesize() + gap

    def paragraph(self, value: str, f: pygame.font.Font, colour=th.TEXT) -> None:
        """A paragraph; one that starts with "• " hangs its lines after the bullet."""
        if value.startswith("• "):
            self.items.append(_Text(self.x + 4, self.y, "•", f, colour))
            self.text(value[2:], f, colour, indent=20)
        else:
            self.text(value, f, colour)


def layout_page(page: Page, variant: Variant, width: int, contents: bool) -> PageLayout:
    """Lay ``page`` out ``width`` pixels wide; ``contents``: its contents open the page."""
    out = PageLayout()
    items = out.items
    inner = width - 2 * PAD
    side = inner >= SIDE_BY_SIDE_FROM
    has_diagrams = any(s.diagrams for s in page.sections)
    if side and has_diagrams:
        diagram_w = max(DIAGRAM_MIN, min(DIAGRAM_MAX, int(inner * 0.36)))
        text_w = min(TEXT_MAX_W, inner - diagram_w - 32)
        used = text_w + 32 + diagram_w
    else:
        diagram_w = min(DIAGRAM_MAX, inner)
        text_w = used = min(TEXT_MAX_W, inner)
    left = out.left = PAD + max(0, (inner - used) // 2)  # the column in the middle of a wide page
    inner = min(inner, used)
    body, title = th.font(15), th.font(18, bold=True)
    flow = _Flow(items, left, PAD, inner)
    heading = page.title if page.id == "controls" else f"Rules of {variant.title}"
    flow.text(heading, th.title_font(), th.TEXT)
    flow.y += 6
    sections = [(s.id, s.title) for s in page.sections]
    if page.keys:
        sections.append((KEYS_SECTION, "Keys"))
    if contents:
        flow.y = _contents(items, sections, left, flow.y + 8, inner) + 8
    if page.id == "rules":
        flow.y = _legend(items, left, flow.y, inner) + 8
    for section in page.sections:
        top = flow.y + 18
        flow.y = top
        # two diagrams go side by side under the text, one beside it (under it on a narrow page)
        across = len(section.diagrams) > 1 and 2 * DIAGRAM_MIN + 24 <= inner
        beside = side and len(section.diagrams) == 1
        flow.width = text_w if beside or not section.diagrams else min(TEXT_MAX_W, inner)
        flow.text(section.title, title, th.TEXT, gap=6)
        for paragraph in section.paragraphs:
            flow.paragraph(paragraph, body)
            flow.y += 6
        if beside:
            bottom = _diagram(items, section.diagrams[0], variant, left + text_w + 32, top + 4, diagram_w)
            flow.y = max(flow.y, bottom)
        elif section.diagrams:
            size = min(diagram_w, (inner - 24) // 2) if across else diagram_w
            x, y, row_bottom = left, flow.y + 6, flow.y
            for diagram in section.diagrams:
                row_bottom = max(row_bottom, _diagram(items, diagram, variant, x, y, size))
                if across and x == left:
                    x += size + 24
                else:
                    x, y = left, row_bottom + 16
            flow.y = row_bottom
        out.sections.append(SectionSpan(section.id, section.title, top, flow.y))
    if page.keys:
        top = flow.y + 18
        flow.y = top
        flow.width = text_w
        flow.text("Keys", title, th.TEXT, gap=8)
        flow.y = _key_rows(items, page.keys, left, flow.y, text_w, body)
        out.sections.append(SectionSpan(KEYS_SECTION, "Keys", top, flow.y))
    out.height = flow.y + PAD
    return out


def _diagram(items: list[_Item], diagram: Diagram, variant: Variant, x: int, y: int, size: int) -> int:
    """A diagram ``size`` wide at (x, y) and its caption under it; returns the bottom."""
    rect = pygame.Rect(x, y, size, picture_height(variant, size))
    items.append(_Picture(rect, diagram, variant))
    flow = _Flow(items, x, rect.bottom + 6, size)
    flow.text(diagram.caption, th.small_font(), th.MUTED)
    return flow.y


def _legend(items: list[_Item], x: int, y: int, width: int) -> int:
    """How to read the diagrams: a sample of each marking and what it means, in a card."""
    f = th.small_font()
    pad = 12
    heading = th.heading_font()
    columns = 2 if width >= 560 else 1
    column_w = (width - 2 * pad - 16 * (columns - 1)) // columns
    card: list[_Item] = [_Text(x + pad, y + pad, "HOW TO READ THE DIAGRAMS", heading, th.MUTED)]
    row_y = y + pad + heading.get_linesize() + 6
    for i in range(0, len(LEGEND), columns):
        row_h = 0
        for col, (kind, meaning) in enumerate(LEGEND[i:i + columns]):
            gx = x + pad + col * (column_w + 16)
            card.append(_Glyph(pygame.Rect(gx, row_y, 34, f.get_linesize()), kind))
            flow = _Flow(card, gx + 44, row_y, column_w - 44)
            flow.text(meaning, f, th.MUTED)
            row_h = max(row_h, flow.y - row_y)
        row_y += row_h + 6
    bottom = row_y + pad - 6
    items.append(_Box(pygame.Rect(x, y, width, bottom - y), th.CARD))
    items.extend(card)
    return bottom


def _contents(items: list[_Item], sections: list[tuple[str, str]], x: int, y: int, width: int) -> int:
    """The contents at the top of the page: an entry per section, in two columns when they fit."""
    f = th.small_font()
    heading = th.heading_font()
    items.append(_Text(x, y, "CONTENTS", heading, th.MUTED))
    y += heading.get_linesize() + 6
    columns = 2 if width >= 480 else 1
    column_w = (width - th.GAP * (columns - 1)) // columns
    entries = [(sid, tuple(wrap(f, title, column_w - 20))) for sid, title in sections]
    per_column = (len(entries) + columns - 1) // columns
    bottom = y
    for col in range(columns):
        cy = y
        for sid, lines in entries[col * per_column:(col + 1) * per_column]:
            h = len(lines) * f.get_linesize() + 10
            items.append(_Link(pygame.Rect(x + col * (column_w + th.GAP), cy, column_w, h), sid, lines))
            cy += h + 4
        bottom = max(bottom, cy)
    return bottom


def _key_rows(items: list[_Item], keys: tuple[Key, ...], x: int, y: int, width: int, f: pygame.font.Font) -> int:
    """The key table: each key on a key cap, what it does beside it; returns the bottom."""
    cap_font = th.font(f.get_height() - 2, bold=True)
    cap_w = min(width // 3, max(cap_font.size(k.label)[0] for k in keys) + 20)
    for key in keys:
        label = wrap(cap_font, key.label, cap_w - 16)
        cap_h = len(label) * cap_font.get_linesize() + 8
        items.append(_Box(pygame.Rect(x, y, cap_w, cap_h), th.BUTTON, 6))
        for i, line in enumerate(label):
            items.append(_Text(x + 8, y + 4 + i * cap_font.get_linesize(), line, cap_font, th.TEXT))
        flow = _Flow(items, x + cap_w + 14, y + (cap_h - f.get_linesize()) // 2 if len(label) == 1 else y + 4,
                     width - cap_w - 14)
        flow.text(key.action, f, th.TEXT)
        y = max(y + cap_h, flow.y) + 8
    return y


# --- the screen --------------------------------------------------------------------------------

class HelpScreen:
    """Draws the help screen into the interface's surface and keeps where the reader is."""

    def __init__(self) -> None:
        self.scroll = ScrollView()  # the page's, in the interface's views as "help"
        self.target: str | None = None  # the section jumped to (marked), until the reader scrolls on
        self.view = pygame.Rect(0, 0, 0, 0)  # where the page shows, in window pixels (its text stops short of the bar)
        self.layout = PageLayout()
        self._opened: tuple | None = None  # (page, variant, section, jumps) the screen was last opened at
        self._layout_key: tuple | None = None
        self._target_at = 0  # the offset the jump to the target left

    @property
    def offset(self) -> int:
        """Pixels of the page scrolled past the top of the view."""
        return self.scroll.offset

    @property
    def max_offset(self) -> int:
        return self.scroll.max_offset

    def state(self) -> tuple:
        """What the drawing depends on besides the controller and the pointer."""
        if self.target is not None and self.offset != self._target_at:  # scrolled on (the wheel, a drag)
            self.target = None
        return self.offset, self.target

    def sync(self, phase: ReadingHelp, size: tuple[int, int], fresh: bool) -> None:
        """Lay the page out for a window of ``size``, and open it at the phase's section when the screen
        was just opened (``fresh``: the last frame showed something else) or at another page or section."""
        width, height = size
        left = self.sidebar_width(size)
        self.view = pygame.Rect(left, HEADER_H, width - left - SCROLLBAR_W, max(1, height - HEADER_H))
        page, variant = help_page(phase)
        key = (page.id, variant.name, self.view.width, left == 0)
        reading = self.current_section() if self.offset and key != self._layout_key else None
        if key != self._layout_key:
            self._layout_key = key
            self.layout = layout_page(page, variant, self.view.width, contents=left == 0)
        self.scroll.update(self.scroll_rect, self.layout.height, key)  # (another key: back to the top)
        opened = (phase.page, phase.variant, phase.section, phase.jumps)
        if fresh or opened != self._opened:
            self._opened = opened
            self.go_to(phase.section)
        elif reading is not None:  # the same page at another width: the section being read stays in view
            self.go_to(reading)
            self.target = None

    def regions(self) -> list[pygame.Rect]:
        """The screen's parts, which together cover the window: the header, the contents' column and
        the page. Scrolling changes the page's pixels alone, so the window takes only those."""
        w = self.scroll_rect.right
        parts = [pygame.Rect(0, 0, w, HEADER_H), pygame.Rect(0, HEADER_H, self.view.x, self.view.height),
                 self.scroll_rect]
        return [r for r in parts if r.width > 0 and r.height > 0]

    @property
    def scroll_rect(self) -> pygame.Rect:
        """The scroll view's rectangle: the page and its bar."""
        return pygame.Rect(self.view.x, self.view.y, self.view.width + SCROLLBAR_W, self.view.height)

    @staticmethod
    def sidebar_width(size: tuple[int, int]) -> int:
        """The contents' column at the left, 0 when the contents open the page instead."""
        return SIDEBAR_W if size[0] >= SIDEBAR_FROM else 0

    # --- moving about -----------------------------------------------------------------------------

    def go_to(self, section: str | None) -> None:
        """Show ``section`` at the top of the view (None: the top of the page)."""
        span = self.layout.section(section) if section is not None else None
        self.scroll.scroll_to(span.top - JUMP_MARGIN if span is not None else 0)
        self.target = span.id if span is not None else None
        self._target_at = self.offset

    def current_section(self) -> str | None:
        """The section being read: the one jumped to, else the first at the top of the page, else the
        last one that starts in the upper two fifths of the view or above it."""
        if self.target is not None:
            return self.target
        if self.offset == 0:  # the top of the page: its first section
            return self.layout.sections[0].id if self.layout.sections else None
        current = None
        for span in self.layout.sections:
            if span.top <= self.offset + self.view.height * 2 // 5:
                current = span.id
        return current

    def navigate(self, move: Scroll) -> None:
        """A key's move (the contents' entries are intents: ``ReadingHelp.section``)."""
        match move:
            case Scroll(end=end) if end:
                self.scroll.scroll_to(0 if end < 0 else self.max_offset)
            case Scroll(sections=step) if step:
                self._step_section(step)
                return
            case Scroll(lines=lines, pages=pages):
                self.scroll.scroll_by(lines * LINE + pages * max(LINE, self.view.height - 2 * LINE))
        self.target = None

    def _step_section(self, step: int) -> None:
        """To the next section's title below the top of the view (``step`` 1), or the previous one
        above it (-1; the top of the page before the first)."""
        tops = [(span.id, span.top - JUMP_MARGIN) for span in self.layout.sections]
        if step > 0:
            below = [sid for sid, top in tops if top > self.offset]
            if below:
                self.go_to(below[0])
        else:
            above = [sid for sid, top in tops if top < self.offset]
            self.go_to(above[-1] if above else None)

    # --- drawing ----------------------------------------------------------------------------------

    def draw(self, paint: Painter, phase: ReadingHelp, diagrams: bool) -> None:
        """The whole screen, into ``paint.surface``, its pressable parts into ``paint.hits``. ``diagrams``:
        the rules engine is loaded (the diagrams' positions need it), else they wait in a placeholder."""
        surface = paint.surface
        surface.fill(th.BACKGROUND)
        width, height = surface.get_size()
        page, variant = help_page(phase)
        view = self.view
        self._header(paint, phase, page, variant, pygame.Rect(0, 0, width, HEADER_H))
        if view.x:
            self._sidebar(paint, pygame.Rect(0, HEADER_H, view.x, height - HEADER_H))
        surface.fill(th.PAGE, self.scroll_rect)
        paint.views["help"] = self.scroll
        with paint.scrolled("help", self.scroll_rect, self.layout.height, self._layout_key):
            for item in self.layout.items:
                self._draw_item(paint, item, diagrams)
            if self.target is not None:
                span = self.layout.section(self.target)
                if span is not None:
                    y0, y1 = view.y + span.top - self.offset, view.y + span.bottom - self.offset
                    pygame.draw.rect(surface, th.ACCENT, (view.x + self.layout.left - 12, y0, 3, y1 - y0))

    def _page_rect(self, rect: pygame.Rect) -> pygame.Rect:
        return rect.move(self.view.x, self.view.y - self.offset)

    def _draw_item(self, paint: Painter, item: _Item, diagrams: bool) -> None:
        surface, view = paint.surface, self.view
        match item:
            case _Text(x=x, y=y, value=value, font=f, colour=colour):
                sy = view.y + y - self.offset
                if view.y - 40 < sy < view.bottom:
                    surface.blit(th.text(f, value, colour), (view.x + x, sy))
            case _Box(rect=rect, colour=colour, radius=radius):
                r = self._page_rect(rect)
                if r.colliderect(view):
                    pygame.draw.rect(surface, colour, r, border_radius=radius)
            case _Picture(rect=rect, diagram=diagram, variant=variant):
                r = self._page_rect(rect)
                if not r.colliderect(view):
                    return
                if diagrams:
                    surface.blit(diagram_picture(diagram, variant, rect.width), r.topleft)
                else:
                    pygame.draw.rect(surface, th.CARD, r, border_radius=th.RADIUS)
                    f = th.small_font()
                    for i, line in enumerate(wrap(f, "The diagram appears once the rules engine is ready.",
                                                  r.width - 24)):
                        surface.blit(th.text(f, line, th.MUTED), (r.x + 12, r.y + 12 + i * f.get_linesize()))
            case _Glyph(rect=rect, kind=kind):
                r = self._page_rect(rect)
                if r.colliderect(view):
                    _glyph(surface, r, kind)
            case _Link(rect=rect, section=section, lines=lines):
                r = self._page_rect(rect)
                if r.colliderect(view):
                    self._entry(paint, r, section, lines)

    def _entry(self, paint: Painter, rect: pygame.Rect, section: str, lines: tuple[str, ...]) -> None:
        """An entry of the contents: the section being read is marked in gold."""
        hit_id = f"toc:{section}"
        current = section == self.current_section()
        colour = th.BUTTON_HOVER if paint.hover == hit_id else th.CARD if current else th.BUTTON
        surface = paint.surface
        pygame.draw.rect(surface, colour, rect, border_radius=6)
        if current:
            pygame.draw.rect(surface, th.ACCENT, (rect.x, rect.y + 4, 3, rect.height - 8))
        if paint.focus == hit_id:
            pygame.draw.rect(surface, th.FOCUS, rect.inflate(4, 4), width=2, border_radius=8)
        f = th.small_font()
        for i, line in enumerate(lines):
            surface.blit(th.text(f, line, th.ACCENT if current else th.TEXT), (rect.x + 12, rect.y + 5 + i * f.get_linesize()))
        paint.add_hit(rect, it.GoToSection(section), hit_id)

    def _sidebar(self, paint: Painter, area: pygame.Rect) -> None:
        surface = paint.surface
        surface.fill(th.PANEL, area)
        f, heading = th.small_font(), th.heading_font()
        x, y, w = area.x + 14, area.y + 16, area.width - 28
        surface.blit(th.text(heading, "CONTENTS", th.MUTED), (x, y))
        y += heading.get_linesize() + 8
        spans = [(s.id, s.title) for s in self.layout.sections]
        entries = [(sid, tuple(wrap(f, title, w - 20))) for sid, title in spans]
        line = f.get_linesize()
        need = sum(len(lines) * line + 10 + 4 for _, lines in entries)
        if need > area.bottom - y - 8:  # too many to wrap: one line each, cut short
            entries = [(sid, (_cut(f, " ".join(lines), w - 20),)) for sid, lines in entries]
        for sid, lines in entries:
            h = len(lines) * line + 10
            self._entry(paint, pygame.Rect(x, y, w, h), sid, lines)
            y += h + 4

    def _header(self, paint: Painter, phase: ReadingHelp, page: Page, variant: Variant, area: pygame.Rect) -> None:
        surface = paint.surface
        surface.fill(th.PANEL, area)
        pygame.draw.line(surface, th.CARD_EDGE, (0, area.bottom - 1), (area.right, area.bottom - 1))
        y, h = area.y + (area.height - th.BUTTON_H) // 2, th.BUTTON_H
        x = area.x + 12
        x = paint.button((x, y, 92, h), "‹ Back", it.CloseHelp(), hit_id="help:back").right + 18
        for kind, label in ((HelpPage.RULES, "Rules"), (HelpPage.CONTROLS, "Controls")):
            w = th.body_font().size(label)[0] + 32
            paint.button((x, y, w, h), label, it.OpenHelp(kind), active=phase.page is kind, hit_id=f"help:{kind}")
            x += w + th.GAP
        title = th.text(th.body_font(), variant.title, th.MUTED)
        if x + 24 + title.get_width() <= area.right - 16:
            surface.blit(title, title.get_rect(midright=(area.right - 16, area.centery)))


def _cut(f: pygame.font.Font, value: str, width: int) -> str:
    """``value``, shortened with an ellipsis to fit ``width``."""
    if f.size(value)[0] <= width:
        return value
    while value and f.size(value + "…")[0] > width:
        value = value[:-1]
    return value.rstrip() + "…"


def _glyph(surface: pygame.Surface, r: pygame.Rect, kind: str) -> None:
    """A legend's sample of a marking, in ``r``."""
    cy = r.centery
    if kind in ("path", "arrow", "refused"):
        colour = {"path": ORANGE, "arrow": GREEN, "refused": REFUSED}[kind]
        if kind == "refused":
            for x in range(r.x, r.right - 10, 8):
                pygame.draw.line(surface, colour, (x, cy), (x + 4, cy), 3)
            pygame.draw.line(surface, colour, (r.right - 9, cy - 5), (r.right - 1, cy + 5), 3)
            pygame.draw.line(surface, colour, (r.right - 9, cy + 5), (r.right - 1, cy - 5), 3)
            return
        pygame.draw.line(surface, colour, (r.x, cy), (r.right - 8, cy), 4 if kind == "path" else 3)
        pygame.draw.polygon(surface, colour, [(r.right, cy), (r.right - 9, cy - 6), (r.right - 9, cy + 6)])
        if kind == "path":
            pygame.draw.circle(surface, colour, (r.centerx - 4, cy), 4)
    elif kind in ("captured", "ring", "king"):
        fill, edge = th.PIECE_COLOURS["white" if kind == "captured" else "black"]
        c = (r.centerx, cy)
        pygame.draw.circle(surface, (176, 124, 96) if kind != "captured" else edge, c, 8)
        pygame.draw.circle(surface, fill, c, 7)
        if kind == "king":
            pygame.draw.circle(surface, GOLD, c, 4, 2)
        else:
            pygame.draw.circle(surface, GOLD if kind == "ring" else CAPTURED, c, 10, 2)
    elif kind == "marked":
        pygame.draw.rect(surface, MARKED, (r.centerx - 8, cy - 8, 16, 16))


# --- the keys card ("?") ------------------------------------------------------------------------

KEYS_TWO_COLUMNS_W = 1000  # a window at least this wide has the keys card in two columns
KEYS_VIEW = "keys"  # the scroll view of the card's list


def draw_keys_card(paint: Painter) -> None:
    """The keys over the whole window, dimmed under it; any key or press closes it (``game.window.input``).
    The list is in two columns on a wide window; what does not fit scrolls (the wheel, ↑ ↓, Page Up
    and Page Down) between the title and the footer."""
    surface = paint.surface
    width, height = surface.get_size()
    dim = pygame.Surface((width, height), pygame.SRCALPHA)
    dim.fill((10, 12, 16, 170))
    surface.blit(dim, (0, 0))
    columns = 2 if width >= KEYS_TWO_COLUMNS_W else 1
    card_w = min(620 if columns == 1 else 1180, width - 24)
    pad, gap = 18, 28
    column_w = (card_w - 2 * pad - gap * (columns - 1)) // columns
    f = th.small_font() if height < 560 or column_w < 520 else th.body_font()
    items: list[_Item] = []
    per_column = (len(KEYS) + columns - 1) // columns
    content_h = max(_key_rows(items, KEYS[i * per_column:(i + 1) * per_column], pad + i * (column_w + gap), 0,
                              column_w, f) for i in range(columns))
    small = th.small_font()
    top = pad + th.title_font().get_linesize() + 8
    footer_h = small.get_linesize() + 16
    card = pygame.Rect(0, 0, card_w, min(top + content_h + footer_h, height - 12))
    card.center = (width // 2, height // 2)
    pygame.draw.rect(surface, th.PANEL, card, border_radius=th.RADIUS)
    pygame.draw.rect(surface, th.ACCENT, card, width=2, border_radius=th.RADIUS)
    surface.blit(th.text(th.title_font(), "Keys", th.TEXT), (card.x + pad, card.y + pad))
    rows = pygame.Rect(card.x + 2, card.y + top, card.width - 4, card.height - top - footer_h)
    with paint.scrolled(KEYS_VIEW, rows, content_h) as offset:
        for item in items:
            match item:
                case _Box(rect=rect, colour=colour, radius=radius):
                    pygame.draw.rect(surface, colour, rect.move(card.x, rows.y - offset), border_radius=radius)
                case _Text(x=x, y=y, value=value, font=tf, colour=colour):
                    img = th.text(tf, value, colour)
                    surface.blit(img, (card.x + x, rows.y - offset + y))
                    paint.note((card.x + x, rows.y - offset + y, img.get_width(), img.get_height()),
                               f"keys:{value}", value, tf.get_height())
    view = paint.views[KEYS_VIEW]
    footer = "Any key or press closes this · F1: the Rules and Controls"
    if view.scrollable:
        footer = "Wheel, ↑ ↓: more keys · any other key or a press closes this · F1: the Rules and Controls"
    lines = paint.lines(small, footer, card.width - 2 * pad, " · ")
    if len(lines) > 1:  # too narrow for one line: the first part, which matters most here
        footer = lines[0]
    img = th.text(small, footer, th.MUTED)
    at = img.get_rect(bottomright=(card.right - pad, card.bottom - 8))
    surface.blit(img, at)
    paint.note(at, "keys:footer", footer, small.get_height())
    paint.over_view = True

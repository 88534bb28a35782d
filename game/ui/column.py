"""The panel's layout: columns of sections in a scrollable viewport, and scroll views.

A screen's panel is a list of full-width *head* sections (the title) above one or more *columns*
(one beside the board, two when the panel lies under the board and is wide). Each section draws
itself at a given place and width and says how tall it was; :func:`arrange` stacks them. Whatever
does not fit in the window scrolls (:class:`ScrollView`, with a visible scrollbar, the wheel, a drag,
and the Tab focus brought into view), so every control stays reachable at any window size.

Adding something to the panel (see ``game/ui/paint.py``):

1. write a function that draws it with a :class:`~game.ui.paint.Painter` (its first argument) at
   ``(x, y)`` in width ``w``, returning the height used (0 to show nothing), with the toolkit's
   primitives (``button``, ``flow``, ``label``, ``wrapped``, ``heading``), which record what is
   pressable (hits, which then respect scrolling and clipping) and every widget's rectangle (which
   the layout tests check for overlaps); register it with ``@section("name")``;
2. add ``part("name", paint, ...)`` to the list of the screen it belongs to (the layout a module
   registered with ``@screen(...)``), where it should appear.

A section that should take the height left over (the move list) is ``fill=True`` with a ``min_h``;
its function also gets ``h``. An ``optional=True`` section (help text) is left out rather than make
the panel scroll. A section with a scrolling area of its own (the move list) draws it inside
``Painter.scrolled``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Hashable

import pygame

SECTION_GAP = 14  # between two sections of a column
SCROLLBAR_W = 6  # the bar's width; it sits in the right margin of what scrolls
MIN_THUMB = 24


@dataclass(frozen=True)
class Section:
    """A piece of a panel. ``draw(x, y, w)`` (``draw(x, y, w, h)`` for a ``fill`` section, with the
    height it is given) draws it and returns the height it used."""

    name: str
    draw: Callable[..., int]
    fill: bool = False  # takes the column's leftover height, at least min_h
    min_h: int = 0
    optional: bool = False  # left out when the column would not fit without scrolling


@dataclass(frozen=True)
class Placed:
    section: Section
    y: int  # from the top of its column
    h: int


def arrange(column: list[tuple[Section, int]], height: int, gap: int = SECTION_GAP) -> list[Placed]:
    """Stack a column's sections (each with its measured height; a fill section's is its minimum)
    top to bottom into ``height``: optional sections go when the rest would not fit, the fill
    sections share what is left over. Sections of height 0 (but fill sections) take no gap. The
    result may be taller than ``height``: then the panel scrolls."""

    def total(items):
        shown = [h for s, h in items if h > 0 or s.fill]
        return sum(shown) + gap * max(0, len(shown) - 1)

    items = list(column)
    if total(items) > height:
        items = [(s, h) for s, h in items if not s.optional]
    spare = max(0, height - total(items))
    fills = [s for s, _ in items if s.fill]
    placed, y = [], 0
    for s, h in items:
        if h <= 0 and not s.fill:
            continue
        if s.fill and fills:
            share = spare // len(fills)
            h += share
            spare -= share
            fills.remove(s)
        placed.append(Placed(s, y, h))
        y += h + gap
    return placed


def column_height(placed: list[Placed]) -> int:
    return max((p.y + p.h for p in placed), default=0)


@dataclass
class ScrollView:
    """A viewport (``rect``, on screen) over content ``content_h`` tall, scrolled down by ``offset``.

    ``key`` names what it shows: when it changes (another game) the view goes back to its start,
    the top, or the end for a view that ``follows_end`` (the move list, which shows the latest move;
    it stops following when the player scrolls up, and follows again once they are back at the end
    or something new is added, ``news``).
    """

    follows_end: bool = False
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    content_h: int = 0
    offset: int = 0
    key: Hashable = None
    news: Hashable = None
    at_end: bool = True  # for a view that follows: whether it stays at the end as content grows

    @property
    def max_offset(self) -> int:
        return max(0, self.content_h - self.rect.height)

    @property
    def scrollable(self) -> bool:
        return self.max_offset > 0

    def update(self, rect: pygame.Rect, content_h: int, key: Hashable = None, news: Hashable = None) -> None:
        """Lay the view out for this drawing: its place, its content's height, what it shows (``key``)
        and what was added to it last (``news``: a view that follows the end shows it again)."""
        if key != self.key:
            self.key, self.offset, self.at_end = key, 0, True
        if news != self.news:
            self.news, self.at_end = news, True
        self.rect, self.content_h = pygame.Rect(rect), content_h
        if self.follows_end and self.at_end:
            self.offset = self.max_offset
        self.offset = min(max(0, self.offset), self.max_offset)

    def scroll_by(self, dy: int) -> bool:
        """Scroll ``dy`` pixels down (up when negative); returns whether it moved."""
        return self.scroll_to(self.offset + dy)

    def scroll_to(self, offset: int) -> bool:
        old = self.offset
        self.offset = min(max(0, int(offset)), self.max_offset)
        self.at_end = self.offset >= self.max_offset
        return self.offset != old

    def reveal(self, top: int, bottom: int, margin: int = 8) -> int:
        """Scroll so that the screen rows ``top``..``bottom`` (as drawn now) are in view; returns how
        far the content moved up."""
        old = self.offset
        if bottom > self.rect.bottom - margin:
            self.scroll_by(bottom - (self.rect.bottom - margin))
        if top < self.rect.top + margin:
            self.scroll_by(top - (self.rect.top + margin))
        return self.offset - old

    def track(self) -> pygame.Rect:
        """Where the scrollbar runs: along the right edge, inside the view."""
        r = self.rect
        return pygame.Rect(r.right - SCROLLBAR_W - 3, r.top + 3, SCROLLBAR_W, max(0, r.height - 6))

    def thumb(self) -> pygame.Rect | None:
        """The scrollbar's thumb (its length shows how much is in view); None when all is in view."""
        if not self.scrollable:
            return None
        track = self.track()
        h = max(MIN_THUMB, track.height * self.rect.height // max(1, self.content_h))
        h = min(h, track.height)
        y = track.top + (track.height - h) * self.offset // self.max_offset
        return pygame.Rect(track.x, y, track.width, h)

    def offset_for_thumb_top(self, y: int) -> int:
        """The offset that puts the thumb's top at screen row ``y`` (dragging it)."""
        thumb, track = self.thumb(), self.track()
        if thumb is None or track.height <= thumb.height:
            return 0
        return round((y - track.top) * self.max_offset / (track.height - thumb.height))

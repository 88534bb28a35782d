"""Where the board and the panel go in a window of a given size."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

MIN_PANEL_W, MAX_PANEL_W = 340, 440
BAR_H = 58  # the bars above and below the 3D board
VIEW_ROW_H = 42  # the view buttons' own row above the status line, on a narrow board
STACKED_BARS_W = 600  # a board narrower than this has the status line under the view buttons
BOARD_ASPECT = 1.25  # the angled board on screen is about this much wider than tall
BOARD_SHARE = 0.5  # the board beside the panel is at least this share of the window's width, else the panel goes below
MIN_PANEL_BELOW_H = 120  # the panel under the board keeps at least this much of the window's height (it scrolls)


@dataclass(frozen=True)
class Layout:
    """The board area and the panel, in window pixels (origin top left). ``view`` is the part of the
    board area the 3D board is drawn in: a bar above it holds the status line and the view buttons, a
    bar below it "Deselect", "Accept draw" and the draw countdown, so they never cover the board."""

    width: int
    height: int
    board: pygame.Rect
    panel: pygame.Rect
    narrow: bool  # the panel is under the board
    side: int = 0  # a strip this wide left of the 3D view, beside the board (the evaluation bar)

    def regions(self, over_view: bool) -> list[pygame.Rect]:
        """The parts of the window the interface draws on: the panel and the bars, and the 3D view
        itself only when something is shown over it (``over_view``). Compositing just these keeps
        the software renderer from blending a whole window of transparent pixels every frame."""
        rects = [self.panel, *self.bars]
        if over_view:
            rects.append(self.view)
        return [r for r in rects if r.width > 0 and r.height > 0]

    @property
    def bars(self) -> tuple[pygame.Rect, ...]:
        """The bars above and below the 3D view, and the strip beside it when there is one (opaque: the
        interface paints their background)."""
        view = self.view
        bars = (pygame.Rect(self.board.x, self.board.y, self.board.width, view.y - self.board.y),
                pygame.Rect(self.board.x, view.bottom, self.board.width, self.board.bottom - view.bottom))
        return bars + (self.side_strip,) if self.side else bars

    @property
    def side_strip(self) -> pygame.Rect:
        """The strip left of the 3D view (empty when ``side`` is 0)."""
        view = self.view
        return pygame.Rect(self.board.x, view.y, self.side, view.height)

    @property
    def stacked_bars(self) -> bool:
        """Whether the board is too narrow for the status line beside the view buttons: then the
        top bar has the buttons in a row of their own and the status line under them."""
        return self.board.width < STACKED_BARS_W

    @property
    def view(self) -> pygame.Rect:
        bar = BAR_H if self.board.height >= 360 else BAR_H - 10
        top = bar + (VIEW_ROW_H if self.stacked_bars else 0)
        return pygame.Rect(self.board.x + self.side, self.board.y + top, self.board.width - self.side,
                           max(50, self.board.height - top - bar))


def _board_size(layout: Layout) -> float:
    """About how large the 3D board is drawn in ``layout`` (it fills its view's width or height)."""
    view = layout.view
    return min(view.width, view.height * BOARD_ASPECT)


def compute_layout(width: int, height: int, side: int = 0, menu: bool = False) -> Layout:
    """The panel to the right of the board, or below it (narrow or portrait windows), as the
    specification has it: below where the board beside the panel would be under about half the
    window's width (``BOARD_SHARE``: 640x480 has 300 px of board beside 340 of panel), or where
    the panel below leaves the board larger; ``side``: a strip that wide left of the 3D view. With
    ``menu`` (the mode screen, where the panel is what the player reads and the board only shows),
    the panel below keeps 44% of the height, and goes there only where that leaves the board larger.
    Below, the board takes at least 56% of the height, and on a wide window as much as it can
    while the panel keeps ``MIN_PANEL_BELOW_H`` (its content scrolls)."""
    width, height = max(width, 200), max(height, 200)
    panel_w = min(MAX_PANEL_W, max(MIN_PANEL_W, int(width * 0.31)))
    beside = Layout(width, height, pygame.Rect(0, 0, width - panel_w, height),
                    pygame.Rect(width - panel_w, 0, panel_w, height), False, side)
    board_h = int(min(width * 0.95, height * 0.56 if menu else
                      max(height * 0.56, min(width * 0.56, height - MIN_PANEL_BELOW_H))))
    below = Layout(width, height, pygame.Rect(0, 0, width, board_h),
                   pygame.Rect(0, board_h, width, height - board_h), True, side)
    if beside.board.width < BOARD_SHARE * width and not menu:
        return below
    return beside if _board_size(beside) >= _board_size(below) else below

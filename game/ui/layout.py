"""Where the board and the panel go in a window of a given size."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

NARROW_WIDTH = 900  # below this the panel moves under the board
MIN_PANEL_W, MAX_PANEL_W = 340, 440
BAR_H = 58  # the bars above and below the 3D board


@dataclass(frozen=True)
class Layout:
    """The board area and the panel, in window pixels (origin top left). ``view`` is the part of the
    board area the 3D board is drawn in: a bar above it holds the status line and the view buttons, a
    bar below it "Deselect", "Accept draw" and the draw countdown, so they never cover the board."""

    width: int
    height: int
    board: pygame.Rect
    panel: pygame.Rect
    narrow: bool

    def regions(self, over_view: bool) -> list[pygame.Rect]:
        """The parts of the window the interface draws on: the panel and the bars, and the 3D view
        itself only when something is shown over it (``over_view``). Compositing just these keeps
        the software renderer from blending a whole window of transparent pixels every frame."""
        rects = [self.panel, *self.bars]
        if over_view:
            rects.append(self.view)
        return [r for r in rects if r.width > 0 and r.height > 0]

    @property
    def bars(self) -> tuple[pygame.Rect, pygame.Rect]:
        """The bars above and below the 3D view (opaque: the interface paints their background)."""
        view = self.view
        return (pygame.Rect(self.board.x, self.board.y, self.board.width, view.y - self.board.y),
                pygame.Rect(self.board.x, view.bottom, self.board.width, self.board.bottom - view.bottom))

    @property
    def view(self) -> pygame.Rect:
        bar = BAR_H if self.board.height >= 360 else BAR_H - 10
        return pygame.Rect(self.board.x, self.board.y + bar, self.board.width, max(50, self.board.height - 2 * bar))


def compute_layout(width: int, height: int) -> Layout:
    """The panel to the right of the board; below it when the window is narrow (or taller than wide)."""
    width, height = max(width, 200), max(height, 200)
    narrow = width < NARROW_WIDTH or width < height
    if not narrow:
        panel_w = min(MAX_PANEL_W, max(MIN_PANEL_W, int(width * 0.31)))
        return Layout(width, height, pygame.Rect(0, 0, width - panel_w, height),
                      pygame.Rect(width - panel_w, 0, panel_w, height), False)
    board_h = int(min(width * 0.95, height * 0.56))
    return Layout(width, height, pygame.Rect(0, 0, width, board_h),
                  pygame.Rect(0, board_h, width, height - board_h), True)

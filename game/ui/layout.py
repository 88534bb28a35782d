"""Where the board and the panel go in a window of a given size."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

NARROW_WIDTH = 900  # below this the panel moves under the board
MIN_PANEL_W, MAX_PANEL_W = 340, 440


@dataclass(frozen=True)
class Layout:
    """The 3D board's rectangle and the panel's, in window pixels (origin top left)."""

    width: int
    height: int
    board: pygame.Rect
    panel: pygame.Rect
    narrow: bool


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

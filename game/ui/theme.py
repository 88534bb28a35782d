"""Colours, fonts and spacing of the 2D panel, in one place so every screen looks alike."""

from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from engine import Color, Variant

# colours (RGB)
BACKGROUND = (31, 31, 33)  # behind the 3D board (the renderer's clear colour, 0.12 0.12 0.13)
PANEL = (29, 34, 43)
CARD = (38, 45, 56)
PAGE = (25, 29, 37)  # behind a page of text (the help screen)
CARD_EDGE = (52, 61, 75)
TEXT = (236, 233, 226)
MUTED = (150, 160, 172)
BUTTON = (52, 61, 75)
BUTTON_HOVER = (66, 78, 96)
BUTTON_DISABLED = (40, 46, 56)
MARK_COLOURS = {"?": (236, 160, 60), "??": (226, 84, 70)}  # a mistake, a blunder (the game report)
TEXT_DISABLED = (98, 106, 118)
ACCENT = (226, 181, 74)  # gold, as the selection ring on the board
ACCENT_TEXT = (33, 28, 18)
GREEN = (88, 190, 110)
DANGER = (200, 86, 80)
FOCUS = (120, 180, 255)
OVERLAY = (20, 24, 31, 205)  # translucent pills over the board
LIGHT_SQUARE = (222, 196, 150)
DARK_SQUARE = (120, 78, 48)
# the 3D board's deep red-brown and cream pieces (game/render/instances.py), with a rim colour each
# The pieces' colours (fill, edge) by the colour's name a rule set gives its sides (Variant.piece_colours):
# Pool checkers' dark pieces are red (APCA rule 3), every other rule set's black.
PIECE_COLOURS = {"black": ((66, 28, 20), (120, 70, 52)), "white": ((240, 226, 192), (176, 156, 122)),
                 "red": ((150, 32, 26), (204, 92, 78))}

Colour = tuple[int, int, int]


def piece_colours(variant: Variant, color: Color) -> tuple[Colour, Colour]:
    """The fill and edge of ``color``'s pieces in ``variant``: the colour its rules give that side."""
    return PIECE_COLOURS[variant.piece_colours[color]]


def lighter(colour: Colour, amount: int) -> Colour:
    """``colour`` with ``amount`` added to each channel (a hovered button or square)."""
    r, g, b = colour
    return min(255, r + amount), min(255, g + amount), min(255, b + amount)


# spacing (pixels)
PAD = 16
GAP = 8
RADIUS = 8
BUTTON_H = 34

# Clean sans-serif system fonts by path (asking fontconfig costs half a second at launch); pygame's
# bundled font when none is there.
_FONT_FILES = {
    False: ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "/System/Library/Fonts/Helvetica.ttc",
            "C:/Windows/Fonts/segoeui.ttf"),
    True: ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
           "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", "/System/Library/Fonts/Helvetica.ttc",
           "C:/Windows/Fonts/segoeuib.ttf"),
}


@lru_cache(maxsize=None)
def _font_file(bold: bool) -> str | None:
    return next((p for p in _FONT_FILES[bold] if os.path.exists(p)), None)


_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def forget_fonts() -> None:
    """Drop the cached fonts and text: call before ``pygame.quit`` (they are invalid after it, even
    once pygame is initialised again)."""
    _fonts.clear()
    text.cache_clear()


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """A font ``size`` pixels high (cached; fonts from before a ``pygame.quit`` are dropped)."""
    if not pygame.font.get_init():
        pygame.font.init()
        forget_fonts()
    key = (size, bold)
    if key not in _fonts:
        path = _font_file(bold)
        _fonts[key] = f = pygame.font.Font(path, size)
        if path is None and bold:
            f.set_bold(True)
    return _fonts[key]


def title_font() -> pygame.font.Font:
    return font(24, bold=True)


def heading_font() -> pygame.font.Font:
    return font(14, bold=True)


def body_font() -> pygame.font.Font:
    return font(15)


def small_font() -> pygame.font.Font:
    return font(13)


@lru_cache(maxsize=2048)
def text(f: pygame.font.Font, value: str, colour: tuple) -> pygame.Surface:
    """A rendered, anti-aliased line of text (cached: the panel redraws the same words often)."""
    return f.render(value, True, colour)

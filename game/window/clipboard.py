"""The system clipboard, through pygame-ce's text clipboard (SDL's: the X11 CLIPBOARD selection, the
Wayland and Windows clipboards). It needs the window open; without one (or a clipboard) copying does
nothing and pasting gives nothing, and the game goes on."""

from __future__ import annotations

import pygame


def copy(text: str) -> bool:
    """Put ``text`` on the clipboard; whether it worked."""
    try:
        pygame.scrap.put_text(text)
    except pygame.error:
        return False
    return True


def paste() -> str:
    """The clipboard's text ("" when it holds none)."""
    try:
        return pygame.scrap.get_text() or ""
    except pygame.error:
        return ""

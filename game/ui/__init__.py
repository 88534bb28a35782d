"""The 2D interface: side panel, mode screen, status line and on-board buttons, drawn with pygame."""

from .layout import Layout, compute_layout
from .paint import Hit
from .panel import Interface

__all__ = ["Hit", "Interface", "Layout", "compute_layout"]

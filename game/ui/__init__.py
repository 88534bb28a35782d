"""The 2D interface: side panel, mode screen, status line and on-board buttons, drawn with pygame."""

from .layout import Layout, compute_layout
from .panel import DismissNotes, Hit, Interface

__all__ = ["DismissNotes", "Hit", "Interface", "Layout", "compute_layout"]

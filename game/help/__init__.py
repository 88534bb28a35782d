"""Help inside the game: the Rules of each game, the Controls, and why a move is refused.

No pygame or moderngl here: the pages are data (:mod:`game.help.model`) that the Rules and Controls
screens, the "?" overlay and ``python -m game.help`` (a text preview) all read.

* :func:`rules_page` (variant) -> Page; sections by the ids in :data:`SECTION_IDS`
* :func:`controls_page` (variant) -> Page, with the key table; :data:`KEYS` for the "?" overlay
* :func:`explain_refusal` (position, start, stops) -> Refusal(reason, message, section) or None
"""

from .content import SECTION_IDS, rules_page
from .controls import CONTROL_SECTION_IDS, KEYS, controls_page
from .explain import Refusal, explain_refusal
from .model import Claim, Diagram, Key, Line, Page, Section, Style

__all__ = [
    "SECTION_IDS", "CONTROL_SECTION_IDS", "KEYS", "rules_page", "controls_page", "explain_refusal", "Refusal",
    "Claim", "Diagram", "Key", "Line", "Page", "Section", "Style",
]

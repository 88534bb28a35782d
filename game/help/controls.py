"""The Controls page and the keys of the "?" overlay, as the game behaves (``game/window/input.py``,
the state machine in ``game/play``, the panel in ``game/ui``), not as a web page would. The words and
the keys are data: ``pages/controls.toml``, read here; ``{first}`` and ``{second}`` in them name the
players of the rules chosen."""

from __future__ import annotations

from functools import cache

from engine import Variant

from .content import read_pages
from .model import Key, Page, Section

CONTROL_SECTION_IDS = (
    "controls-start", "controls-select", "controls-captures", "controls-drag", "controls-keyboard",
    "controls-button-table", "controls-views", "controls-draw-offers", "controls-undo", "controls-friend",
    "controls-review", "controls-analysis", "controls-files", "controls-editor", "controls-settings",
)


def _keys() -> tuple[Key, ...]:
    return tuple(Key(k["label"], k["action"], tuple(k["pygame_keys"]), k.get("text", ""))
                 for k in read_pages("controls")["key"])


# Every key the game reads, in the order the overlay lists them. pygame_keys names the constants
# game/window/input.py must read for each (tests check it); text: a character read from the key's text.
KEYS = _keys()


def controls_page(variant: Variant) -> Page:
    """The Controls page; ``variant`` names the first player in its text."""
    return _controls(variant.side_name(variant.first_player), variant.side_name(variant.first_player.opponent))


@cache
def _controls(first: str, second: str) -> Page:
    data = read_pages("controls")
    fill = {"first": first, "second": second}
    return Page("controls", data["title"], tuple(
        Section(s["id"], s["title"], tuple(p.format_map(fill) for p in s["text"])) for s in data["section"]), keys=KEYS)

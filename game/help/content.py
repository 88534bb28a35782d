"""The Rules page of each rule set, in our own words, for a player who has never played the game:
American checkers and International draughts written from the specification (shared/seeds/000, "Rules
and how to play" and "International Draughts (10x10) rules", which restate the WCDF and FMJD rules),
the other rule sets from the sources their :class:`engine.Variant` entries name beside each field
(engine/variants.py), which each page names too.

The words are data: ``pages/<variant>.toml`` (and ``pages/shared.toml``, the sections several pages
share, each under its ``key``), read here. Each rule is a :class:`~game.help.model.Section` with a stable id (``SECTION_IDS``),
so other code can open the page at that rule (``explain.py`` returns these ids), and a small diagram:
a FEN with square names (``K`` before a king; ``start``: the rules' start position), the moves to
draw (``MOVE [arrow|refused] [CLAIM ...]``: a legal move of :class:`engine.Position`, drawn like the
game's orange path unless ``arrow``; a move the rules refuse; what the caption claims of it, which the
tests check), squares ringed or marked, a caption. The numbers in the words (``{quiet_limit_moves}``
...) come from the :class:`engine.Variant` table, so the page and the rules can't disagree.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from engine import ALL_VARIANTS, Variant

from .model import Claim, Diagram, Line, Page, Section, Style, named_fen, route, squares

# Every id a Rules page may have; a page has those that apply to its game (no maximum capture in
# American checkers, no lone-king endings, ...).
SECTION_IDS = (
    "differences", "board", "men-move", "men-capture", "multi-jump", "compulsory-capture", "choice-of-capture",
    "maximum-capture", "crowning", "kings-move", "kings-capture", "winning", "draw-repetition", "draw-move-limit",
    "capture-priority", "draw-endgame", "draw-main-diagonal", "draw-offers", "sources",
)
ORDINALS = {2: "second", 3: "third", 4: "fourth"}


def rules_page(variant: Variant) -> Page:
    """The Rules page of ``variant`` (``pages/<name>.toml``)."""
    return _page(variant.name)


def read_pages(name: str) -> dict[str, Any]:
    """The data file ``pages/<name>.toml`` of this package."""
    return tomllib.loads(resources.files(__package__).joinpath("pages", f"{name}.toml").read_text(encoding="utf-8"))


def words(variant: Variant) -> dict[str, Any]:
    """The numbers and names of ``variant``'s rules that the words quote."""
    return {"title": variant.title, "quiet_limit_moves": variant.quiet_limit_moves,
            "repetition": ORDINALS.get(variant.repetition_count, f"{variant.repetition_count}th"),
            "first": variant.side_name(variant.first_player), "second": variant.side_name(variant.first_player.opponent),
            "three": variant.lone_king_vs_three_moves, "two": variant.lone_king_vs_two_moves,
            "diagonal": variant.lone_king_main_diagonal_moves, "three_kings": variant.lone_king_vs_three_kings_moves,
            "few": variant.kings_ending_four_five_moves, "many": variant.kings_ending_six_seven_moves}


@cache
def _page(name: str) -> Page:
    variant = ALL_VARIANTS[name]
    data, shared = read_pages(name), {s.get("key", s["id"]): s for s in read_pages("shared")["section"]}
    values = words(variant)
    sections = []
    for entry in data["section"]:
        text = shared[entry["shared"]] if "shared" in entry else entry
        fill = {**values, **{k: v for k, v in entry.items() if k not in ("shared", "diagram")}}
        sections.append(Section(text["id"], text["title"].format_map(fill),
                                tuple(p.format_map(fill) for p in text["text"]),
                                tuple(diagram(variant, d, fill) for d in entry.get("diagram", ()))))
    return Page("rules", data["title"].format_map(values), tuple(sections))


def diagram(variant: Variant, data: dict[str, Any], fill: dict[str, Any]) -> Diagram:
    """A diagram of a page's data: its FEN (square names), moves, rings, marks and caption."""
    fen = variant.start_fen if data["fen"] == "start" else named_fen(variant, data["fen"])
    return Diagram(fen, data["caption"].format_map(fill), tuple(line(variant, m) for m in data.get("moves", ())),
                   frozenset(squares(variant, data.get("rings", ""))), frozenset(squares(variant, data.get("marks", ""))),
                   bool(data.get("complete", False)))


def line(variant: Variant, text: str) -> Line:
    """A move drawn on a diagram: ``"c3xe5"``, then how it is drawn (``arrow``, ``refused``; a path
    by default) and what the caption claims of it (``only``, ``crowns`` ...)."""
    move, *rest = text.split()
    styles = [Style(w) for w in rest if w in {s.value for s in Style}]
    claims = [Claim(w) for w in rest if w not in {s.value for s in Style}]
    if len(styles) > 1:
        raise ValueError(f"two styles in {text!r}")
    return route(variant, move, styles[0] if styles else Style.PATH, *claims)

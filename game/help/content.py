"""The Rules pages of both games, in our own words, written from the specification
(shared/seeds/000, "Rules and how to play" and "International Draughts (10x10) rules", which restate
the WCDF and FMJD rules), for a player who has never played the game.

The words are data: ``pages/<variant>.toml`` (and ``pages/shared.toml``, the sections both games
share), read here. Each rule is a :class:`~game.help.model.Section` with a stable id (``SECTION_IDS``),
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

from engine import AMERICAN, INTERNATIONAL, Variant

from .model import Claim, Diagram, Line, Page, Section, Style, named_fen, route, squares

# Every id a Rules page may have; a page has those that apply to its game (no maximum capture in
# American checkers, no lone-king endings, ...).
SECTION_IDS = (
    "differences", "board", "men-move", "men-capture", "multi-jump", "compulsory-capture", "choice-of-capture",
    "maximum-capture", "crowning", "kings-move", "kings-capture", "winning", "draw-repetition", "draw-move-limit",
    "draw-endgame", "draw-main-diagonal", "draw-offers",
)
ORDINALS = {2: "second", 3: "third", 4: "fourth"}


def rules_page(variant: Variant) -> Page:
    """The Rules page of ``variant``: its own page where one is written (``pages/<name>.toml``), else
    a short one told from its table entry (:func:`table_page`)."""
    if variant.name in (AMERICAN.name, INTERNATIONAL.name):
        return _page(variant.name)
    return table_page(variant)


def read_pages(name: str) -> dict[str, Any]:
    """The data file ``pages/<name>.toml`` of this package."""
    return tomllib.loads(resources.files(__package__).joinpath("pages", f"{name}.toml").read_text(encoding="utf-8"))


def words(variant: Variant) -> dict[str, Any]:
    """The numbers and names of ``variant``'s rules that the words quote."""
    return {"title": variant.title, "quiet_limit_moves": variant.quiet_limit_moves,
            "repetition": ORDINALS.get(variant.repetition_count, f"{variant.repetition_count}th"),
            "three": variant.lone_king_vs_three_moves, "two": variant.lone_king_vs_two_moves,
            "diagonal": variant.lone_king_main_diagonal_moves}


@cache
def _page(name: str) -> Page:
    variant = {AMERICAN.name: AMERICAN, INTERNATIONAL.name: INTERNATIONAL}[name]
    data, shared = read_pages(name), {s["id"]: s for s in read_pages("shared")["section"]}
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


@cache
def table_page(variant: Variant) -> Page:
    """A short Rules page of a rule set without a written one, every sentence told from a field of its
    :class:`engine.Variant` entry (so it can't disagree with the rules the game plays), with the start
    position as its one diagram."""
    first = variant.side_name(variant.first_player)
    men = variant.rows_of_men * variant.row_width
    corner = "light" if variant.mirrored_board else "dark"
    names = ("named a1 to h8 from the first player's side, as printed on the board's frame" if variant.algebraic_notation
             else f"numbered 1 to {variant.squares} in this game's own order")
    article = "an" if variant.size in (8, 11, 18) else "a"
    board = (f"{variant.title} is played on the {variant.squares} dark squares of {article} {variant.size}×{variant.size} "
             f"board, turned so that each player has a {corner} square in the corner on their left.",
             f"Each player starts with {men} men on the dark squares of the {variant.rows_of_men} rows nearest to "
             f"them. {first} moves first; then the players take turns. Squares are {names}.",
             "This page is told from the game's table of rules; a page with a diagram for each rule, as American "
             "Checkers and International Draughts have, is not written yet.")
    capture = ["Capturing is compulsory: a piece that can jump an opposing piece with an empty square beyond it "
               "must, and it goes on jumping as long as it can, in the same turn.",
               "Men capture forward and backward." if variant.men_capture_backward else "Men capture forward only."]
    if not variant.men_capture_kings:
        capture.append("A man may not capture a king.")
    if variant.captured_removed_at_once:
        capture.append("Each captured piece leaves the board as soon as it is jumped.")
    else:
        capture.append("The captured pieces leave the board when the move ends; a piece can't be jumped twice.")
    if variant.majority_capture:
        choice = ["Where several captures are possible, you must take the one that takes the most pieces."]
        priorities = [(variant.king_capture_first, "a capture with a king before one with a man"),
                      (variant.most_kings_capture, "the capture that takes the most kings"),
                      (variant.kings_first_capture, "the capture that meets a king earliest")]
        then = [words for on, words in priorities if on]
        if then:
            choice.append(f"Among those that take as many, you must take {'; then '.join(then)}.")
    else:
        choice = ["Where several captures are possible, you choose which one to make, and you take it to its end."]
        if variant.king_capture_first:
            choice.append("But where a king can capture, you must capture with a king.")
    if variant.crowned_capture_continues:
        crowning = "A man that reaches the far row becomes a king; in the middle of a capture it goes on capturing as a king."
    elif variant.promotion_ends_capture:
        crowning = "A man that reaches the far row becomes a king, and its move ends there."
    else:
        crowning = ("A man that reaches the far row at the end of its move becomes a king; one that only passes the "
                    "far row during a capture stays a man.")
    if variant.flying_kings:
        kings = ["A king moves any number of empty squares along a diagonal, forward or backward."]
        kings.append("It captures a piece at any distance along a diagonal, landing on the square just beyond it."
                     if variant.king_lands_next else
                     "It captures a piece at any distance along a diagonal and lands on any empty square beyond it.")
        if variant.king_lands_to_go_on:
            kings.append("Where it can land on several squares, it must take one from which it can capture again, "
                         "if there is one.")
    else:
        kings = ["A king moves and captures one square diagonally, forward or backward."]
    nth = ORDINALS.get(variant.repetition_count, f"{variant.repetition_count}th")
    draws = [f"The game is drawn when the same position occurs for the {nth} time with the same player to move.",
             f"It is drawn after {variant.quiet_limit_moves} moves each in which no man has moved and nothing has "
             "been captured."]
    endings = [(variant.lone_king_vs_two_moves, "a lone king against two pieces or fewer"),
               (variant.lone_king_vs_three_moves, "a lone king against three pieces with a king among them"),
               (variant.lone_king_vs_three_kings_moves,
                "a lone king against three kings" + (" or more" if variant.lone_king_vs_more_kings else "")),
               (variant.kings_ending_four_five_moves, "4 or 5 pieces on the board, kings on both sides"),
               (variant.kings_ending_six_seven_moves, "6 or 7 pieces on the board, kings on both sides")]
    counted = [f"{words}: {moves} moves" for moves, words in endings if variant.endgame_rule and moves]
    if counted:
        restart = (" A capture or a crowning starts the count afresh." if variant.endgame_counts_restart else "")
        draws.append(f"In these endings the stronger side must win within so many moves each, or it is a draw: "
                     f"{'; '.join(counted)}.{restart}")
    if variant.endgame_rule and variant.lone_king_main_diagonal_moves:
        draws.append(f"With three pieces against a lone king that holds the main diagonal, the count is "
                     f"{variant.lone_king_main_diagonal_moves} moves.")
    start = Diagram(variant.start_fen, f"The start: {first} moves first.", (), frozenset(), frozenset(), False)
    sections = (Section("board", "The board and the pieces", board, (start,)),
                Section("men-move", "How men move", ("A man moves one square diagonally forward, onto an empty dark "
                                                      "square.",)),
                Section("men-capture", "Capturing", tuple(capture)),
                Section("choice-of-capture", "Which capture", tuple(choice)),
                Section("crowning", "Becoming a king", (crowning,)),
                Section("kings-move", "Kings", tuple(kings)),
                Section("winning", "Winning", ("You win when your opponent has no piece left or no legal move.",)),
                Section("draw-repetition", "Draws", tuple(draws)))
    return Page("rules", f"Rules: {variant.title}", sections)

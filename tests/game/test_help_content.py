"""The Rules and Controls pages (game.help): every diagram is a legal position that shows what its text
says, every rule of the specification has its section, every key and button the Controls page names
is one the game has."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from engine import ALL_VARIANTS, AMERICAN, INTERNATIONAL, Color, Position, Variant, square_coords
from engine.game import Game
from game.help import CONTROL_SECTION_IDS, KEYS, SECTION_IDS, Claim, Diagram, Style, controls_page, explain_refusal, rules_page
from game.help.explain import MESSAGES
from game.help.model import board_fen, route, squares

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = tuple(ALL_VARIANTS.values())


def diagrams(variant: Variant):
    return [(s.id, d) for s in rules_page(variant).sections for d in s.diagrams]


def diagram_lines(variant: Variant):
    return [(sid, d, line) for sid, d in diagrams(variant) for line in d.lines]


def ids(params):
    return [f"{v.name}-{sid}-{i}" for i, (v, sid, *_rest) in enumerate(params)]


DIAGRAMS = [(v, sid, d) for v in VARIANTS for sid, d in diagrams(v)]
LINES = [(v, sid, d, line) for v in VARIANTS for sid, d, line in diagram_lines(v)]


# --- pages and ids --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_section_ids_are_unique_known_and_distinct_from_the_controls_ids(variant):
    rules, controls = rules_page(variant), controls_page(variant)
    assert len(set(rules.section_ids)) == len(rules.section_ids)
    assert set(rules.section_ids) <= set(SECTION_IDS)
    assert controls.section_ids == CONTROL_SECTION_IDS
    assert not set(rules.section_ids) & set(controls.section_ids)
    assert rules.section("crowning").id == "crowning"
    with pytest.raises(KeyError, match="no section 'castling'"):
        rules.section("castling")


# Reasons only some rule sets' rules can give (the others can come up in every game), by the rule they name.
REASON_RULES = {
    "man-captures-forward": lambda v: not v.men_capture_backward,
    "king-one-square": lambda v: not v.flying_kings, "king-jumps-next": lambda v: not v.flying_kings,
    "crowning-ends-move": lambda v: v.promotion_ends_capture,
    "most-pieces": lambda v: v.majority_capture, "most-pieces-at-most": lambda v: v.majority_capture,
    "most-pieces-piece": lambda v: v.majority_capture,
    "stays-man": lambda v: not v.promotion_ends_capture and not v.crowned_capture_continues,
    "stays-man-goes-on": lambda v: not v.promotion_ends_capture and not v.crowned_capture_continues,
    "king-blocked-way": lambda v: v.flying_kings, "jump-one-at-a-time": lambda v: v.flying_kings,
    "crowned-goes-on": lambda v: v.crowned_capture_continues,
    "man-takes-no-king": lambda v: not v.men_capture_kings,
    "king-lands-next": lambda v: v.king_lands_next, "king-lands-to-go-on": lambda v: v.king_lands_to_go_on,
    "king-capture-first": lambda v: v.king_capture_first, "most-kings": lambda v: v.most_kings_capture,
    "kings-first": lambda v: v.kings_first_capture,
}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_section_an_explanation_can_open_is_on_the_page(variant):
    page_ids = set(rules_page(variant).section_ids)
    for reason, (_message, section) in MESSAGES.items():
        if not REASON_RULES.get(reason, lambda v: True)(variant):
            continue
        assert section in page_ids, reason
        twin = {"men-move": "kings-move", "men-capture": "kings-capture"}.get(section)  # told about a king
        assert twin is None or twin in page_ids


def test_paragraphs_are_short_enough_for_a_side_panel():
    pages = [p for v in VARIANTS for p in (rules_page(v), controls_page(v))]
    for page in pages:
        for section in page.sections:
            assert section.paragraphs, section.id
            for text in (*section.paragraphs, *(d.caption for d in section.diagrams)):
                assert len(text) <= 320, (section.id, text)
                assert text == text.strip() and "  " not in text, (section.id, text)


# --- the checklist: every rule of the specification has its section ---------------------------------
# (section id, phrases its text must contain), from shared/seeds/000 "Rules and how to play" and
# "International Draughts (10x10) rules"; numbers written out here, not read from engine.Variant.

CHECKLIST = {
    "american": [
        ("board", ["32 dark squares", "8×8", "12 pieces", "three rows", "Black moves first", "take turns"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "captured", "only forward"]),
        ("multi-jump", ["jump again", "one move", "removed when the move is over", "jumped twice"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("choice-of-capture", ["any of them", "fewer", "must finish"]),
        ("crowning", ["far row", "becomes a king", "ends the move", "middle of a capture"]),
        ("kings-move", ["one square diagonally, forward or backward"]),
        ("kings-capture", ["all four directions", "keep jumping"]),
        ("winning", ["can't make a move", "captured", "blocked", "resign"]),
        ("draw-repetition", ["third time", "same player to move", "nobody has to claim"]),
        ("draw-move-limit", ["40 moves each", "no man moves", "nothing is captured"]),
        ("draw-offers", ["agree", "together with a move", "declines", "man has moved", "captured",
                         "doesn't count"]),
    ],
    "international": [
        ("differences", ["backward", "fly", "most pieces", "stays a man"]),
        ("board", ["50 dark squares", "10×10", "20 pieces", "four rows", "White moves first", "take turns"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "captured", "backward as well as forward"]),
        ("multi-jump", ["jump again", "one move", "stay on the board until the move is over", "jumped twice",
                        "same empty square more than once", "come off together"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("maximum-capture", ["takes the most pieces", "Kings and men count the same", "same number"]),
        ("crowning", ["ends its move on the far row", "passes over the far row", "still a man"]),
        ("kings-move", ["as many squares as it likes", "empty"]),
        ("kings-capture", ["far along a diagonal", "any of the empty squares beyond", "most-pieces rule"]),
        ("winning", ["can't make a move", "captured", "blocked", "resign"]),
        ("draw-repetition", ["third time", "same player to move", "nobody has to claim"]),
        ("draw-move-limit", ["25 moves each", "only kings move", "nothing is captured"]),
        ("draw-endgame", ["single king", "3 kings, 2 kings and a man, or a king and 2 men", "16 moves each",
                          "2 kings, a king and a man, or a single king", "5 moves each", "doesn't add",
                          "still a win"]),
        ("draw-main-diagonal", ["a1 to j10", "no piece on it", "5 moves each", "3 against 1 becomes 2 against 1",
                                "16-move limit"]),
        ("draw-offers", ["agree", "together with a move", "declines", "man has moved", "captured",
                         "doesn't count"]),
    ],
    # The other rule sets (issue 25), from the sources engine/variants.py names beside each field; each page
    # names its sources, and the rules that set it apart are in these phrases.
    "brazilian": [
        ("differences", ["International draughts on the 8×8 board", "backward", "fly", "most pieces", "stays a man"]),
        ("board", ["32 dark squares", "8×8", "12 men", "three rows", "White moves first", "as in chess"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "backward as well as forward"]),
        ("multi-jump", ["jump again", "stay on the board until the move is over", "jumped twice"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("maximum-capture", ["takes the most pieces", "Kings and men count the same", "Brazilian federation"]),
        ("crowning", ["ends its move on the far row", "still a man", "rule 13"]),
        ("kings-move", ["as many squares as it likes"]),
        ("kings-capture", ["far along a diagonal", "any of the empty squares beyond", "most-pieces rule"]),
        ("winning", ["can't make a move", "resign"]),
        ("draw-repetition", ["third time", "same player to move"]),
        ("draw-move-limit", ["15 moves each", "only kings move", "FMJD-64 7.2.5", "rule 16 says 20"]),
        ("draw-endgame", ["three kings or more against a lone king: 15 moves", "4 or 5 pieces on the board: 30 moves",
                          "6 or 7 pieces: 60 moves", "long diagonal (a1 to h8): 5 moves", "against a lone king: 5 moves",
                          "starts the first two counts afresh", "7.2.4 to 7.2.8"]),
        ("draw-offers", ["agree"]),
        ("sources", ["brazil.fmjd.org", "fmjd64.org"]),
    ],
    "russian": [
        ("differences", ["White moves first", "backward", "fly", "crowned at once and goes on capturing as a king",
                         "choose which capture"]),
        ("board", ["32 dark squares", "8×8", "12 men", "three rows", "White moves first", "as in chess", "colon"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "backward as well as forward", "1.5.3"]),
        ("multi-jump", ["jump again", "stay on the board until the move is over", "jumped twice"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("choice-of-capture", ["any of them", "takes fewer", "to its end", "1.5"]),
        ("crowning", ["becomes a king", "crowned at once", "goes on capturing as a king", "1.5.15"]),
        ("kings-move", ["as many squares as it likes", "1.4.5"]),
        ("kings-capture", ["far along a diagonal", "any of the empty squares beyond", "must land there and go on"]),
        ("winning", ["can't make a move", "resign"]),
        ("draw-repetition", ["third time", "same player to move"]),
        ("draw-move-limit", ["15 moves each", "only kings move", "FMJD-64 7.2.5"]),
        ("draw-endgame", ["three kings or more against a lone king: 15 moves", "4 or 5 pieces on the board: 30 moves",
                          "6 or 7 pieces: 60 moves", "long diagonal (a1 to h8): 5 moves", "against a lone king: 5 moves"]),
        ("draw-offers", ["agree"]),
        ("sources", ["fmjd64.org", "Russian code of 2004"]),
    ],
    "pool": [
        ("differences", ["red and move first", "backward", "fly", "goes on as a man", "choose which capture"]),
        ("board", ["32 dark squares", "8×8", "12 men", "red and white", "Red moves first", "APCA rule 7",
                   "numbered 1 to 32"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "backward as well as forward", "APCA rule 14"]),
        ("multi-jump", ["jump again", "stay on the board until the move is over", "jumped twice"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("choice-of-capture", ["any of them", "takes fewer", "APCA rule 20"]),
        ("crowning", ["ends its move on the far row", "still a man", "APCA rules 16, 22 and 23"]),
        ("kings-move", ["as many squares as it likes", "APCA rule 15"]),
        ("kings-capture", ["far along a diagonal", "must land there and go on", "APCA rule 19"]),
        ("winning", ["can't make a move", "resign"]),
        ("draw-repetition", ["third time", "same player to move"]),
        ("draw-move-limit", ["15 moves each", "only kings move", "APCA rule 26"]),
        ("draw-endgame", ["Three kings must beat a lone king within 13 moves each"]),
        ("draw-offers", ["agree"]),
        ("sources", ["American Pool Checkers Association", "Tournament Rules of Play"]),
    ],
    "spanish": [
        ("differences", ["White moves first", "turned the other way", "fly", "most pieces", "more kings"]),
        ("board", ["32 dark squares", "8×8", "light square in the corner on their left", "12 men", "White moves first",
                   "FPD rule 6", "number the squares 1 to 32 from White's near right corner"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "only forward", "FPD rule 2.2"]),
        ("multi-jump", ["jump again", "stay on the board until the move is over"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("maximum-capture", ["takes the most pieces", "law of quantity", "Kings and men count the same"]),
        ("capture-priority", ["same number of pieces", "the most kings", "law of quality", "takes a king"]),
        ("crowning", ["becomes a king", "its move ends there", "not go on"]),
        ("kings-move", ["as many squares as it likes"]),
        ("kings-capture", ["far along a diagonal", "any of the empty squares beyond"]),
        ("winning", ["can't make a move", "resign"]),
        ("draw-repetition", ["third time", "same player to move"]),
        ("draw-move-limit", ["25 moves each", "only kings move", "set no such count"]),
        ("draw-offers", ["agree"]),
        ("sources", ["Portuguese federation", "FPD 2013"]),
    ],
    "italian": [
        ("differences", ["White moves first", "turned the other way", "never capture a king", "order of priorities"]),
        ("board", ["32 dark squares", "8×8", "light square in the corner on their left", "FID article 2.3", "12 men", "(a8)",
                   "White moves first", "number the squares 1 to 32", "FID 2.4"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "only forward", "never capture a king", "FID 5.3"]),
        ("multi-jump", ["jump again", "jumped twice"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("maximum-capture", ["takes the most pieces", "FID 6.6"]),
        ("capture-priority", ["a capture with a king comes before one with a man", "FID 6.7", "the most kings", "FID 6.8",
                              "meets a king earliest", "FID 6.9", "the king on b3", "it must take the king",
                              "h1 must capture"]),
        ("crowning", ["becomes a king", "its move ends there"]),
        ("kings-move", ["one square diagonally, forward or backward", "FID 4.7"]),
        ("kings-capture", ["right next to it", "all four directions", "captures kings as well as men"]),
        ("winning", ["can't make a move", "resign"]),
        ("draw-repetition", ["fourth time", "same player to move", "FID 9.3"]),
        ("draw-move-limit", ["40 moves each", "no man moves", "FID 10.4"]),
        ("draw-offers", ["agree"]),
        ("sources", ["Regolamento tecnico", "fid.it"]),
    ],
    "czech": [
        ("differences", ["White moves first", "fly", "a king's capture comes first"]),
        ("board", ["32 dark squares", "8×8", "12 men", "White moves first", "as in chess", "Czech rules 2.6"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "only forward", "Czech rules 4.1"]),
        ("multi-jump", ["jump again", "stay on the board until the move is over"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("choice-of-capture", ["any of them", "takes fewer"]),
        ("capture-priority", ["you must capture with a king", "even if a man could take more", "Czech rules 4.14"]),
        ("crowning", ["becomes a king", "its move ends there"]),
        ("kings-move", ["as many squares as it likes", "Czech rules 3.9"]),
        ("kings-capture", ["far along a diagonal", "must land there and go on"]),
        ("winning", ["can't make a move", "resign"]),
        ("draw-repetition", ["third time", "same player to move"]),
        ("draw-move-limit", ["25 moves each", "only kings move", "set no automatic draw"]),
        ("draw-offers", ["agree"]),
        ("sources", ["damweb.cz"]),
    ],
    "thai": [
        ("differences", ["8 men", "two rows", "lands on the square just beyond the piece it takes",
                         "leaves the board as soon as it is jumped"]),
        ("board", ["32 dark squares", "8×8", "8 men", "two rows", "Black moves first", "numbered 1 to 32"]),
        ("men-move", ["one square diagonally forward", "never moves backward"]),
        ("men-capture", ["jumps over it", "only forward", "mindsports"]),
        ("multi-jump", ["jump again", "leaves the board at once", "fandom"]),
        ("compulsory-capture", ["you must make a capture", "gold ring"]),
        ("choice-of-capture", ["any of them", "no priorities of capture"]),
        ("crowning", ["becomes a king", "its move ends there, even in the middle of a capture"]),
        ("kings-move", ["as many squares as it likes"]),
        ("kings-capture", ["far along a diagonal", "must land on the square just beyond the piece it takes",
                           "may not fly on"]),
        ("winning", ["can't make a move", "resign"]),
        ("draw-repetition", ["third time", "same player to move"]),
        ("draw-move-limit", ["25 moves each", "only kings move", "give no automatic draw"]),
        ("draw-offers", ["agree"]),
        ("sources", ["mindsports.nl", "checkers.fandom.com", "pdn.fmjd.org"]),
    ],
}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_rule_of_the_specification_has_its_section(variant):
    page = rules_page(variant)
    checklist = CHECKLIST[variant.name]
    assert [sid for sid, _ in checklist] == list(page.section_ids)  # nothing missing, nothing unlisted
    for sid, phrases in checklist:
        text = page.section(sid).text
        for phrase in phrases:
            assert phrase.lower() in text.lower(), (sid, phrase)


def test_each_page_speaks_of_its_own_game_only():
    american, international = rules_page(AMERICAN), rules_page(INTERNATIONAL)
    assert "maximum-capture" not in american.section_ids and "choice-of-capture" not in international.section_ids
    assert not {"draw-endgame", "draw-main-diagonal", "differences"} & set(american.section_ids)
    for section in american.sections:
        assert "10×10" not in section.text and "fly" not in section.text, section.id


# --- diagrams ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "sid", "diagram"), DIAGRAMS, ids=ids(DIAGRAMS))
def test_diagram_position_is_legal_and_sensible(variant, sid, diagram):
    pos = diagram.position(variant)
    assert Position.from_fen(variant, pos.fen()) == pos
    for color in (Color.WHITE, Color.BLACK):
        men, kings = pos.count(color)
        assert 1 <= men + kings <= variant.rows_of_men * variant.row_width
    crown_rank = {variant.first_player: variant.size - 1, variant.first_player.opponent: 0}
    for sq, piece in pos.pieces().items():
        if not piece.king:
            assert square_coords(variant, sq)[1] != crown_rank[piece.color], f"a man on its crowning row: {sq}"
    assert pos.legal_moves(), "the side to move can move"
    assert diagram.caption
    every = {sq for line in diagram.lines for sq in line.route} | diagram.rings | diagram.marks
    assert all(1 <= sq <= variant.squares for sq in every)


@pytest.mark.parametrize(("variant", "sid", "diagram", "line"), LINES, ids=ids(LINES))
def test_moves_drawn_are_legal_and_refused_ones_are_refused_for_this_rule(variant, sid, diagram, line):
    pos = diagram.position(variant)
    if line.style is Style.REFUSED:
        assert not any(line.route in m.routes for m in pos.legal_moves())
        with pytest.raises(ValueError, match="drawn as refused"):
            diagram.move(variant, line)
        why = explain_refusal(pos, line.start, line.stops, finished=True)
        assert why is not None
        expected = {("international", "kings-capture"): "maximum-capture", ("brazilian", "kings-capture"): "maximum-capture",
                    ("spanish", "kings-capture"): "maximum-capture"}.get((variant.name, sid), sid)
        assert why.section == expected, why
        assert not line.claims
    else:
        move = diagram.move(variant, line)
        assert move in pos.legal_moves() and move.path == line.route


@pytest.mark.parametrize(("variant", "sid", "diagram", "line"), [p for p in LINES if p[3].claims],
                         ids=ids([p for p in LINES if p[3].claims]))
def test_what_a_caption_claims_about_its_move_is_true(variant, sid, diagram, line):
    pos = diagram.position(variant)
    move = diagram.move(variant, line)
    after = pos.play(move)
    piece = pos.piece_at(move.start)
    crown_rank = variant.size - 1 if piece.color is variant.first_player else 0
    for claim in line.claims:
        if claim is Claim.ONLY:
            assert pos.legal_moves() == (move,)
        elif claim is Claim.MAXIMUM:  # the most; and without the rule a capture taking fewer would be allowed
            free = Position.from_fen(dataclasses.replace(variant, majority_capture=False, king_capture_first=False,
                                                         most_kings_capture=False, kings_first_capture=False), pos.fen())
            assert len(move.captured) == max(len(m.captured) for m in free.legal_moves())
            assert min(len(m.captured) for m in free.legal_moves()) < len(move.captured)
        elif claim is Claim.FEWER:
            assert max(len(m.captured) for m in pos.legal_moves()) > len(move.captured) > 0
        elif claim is Claim.CROWNS:
            assert not piece.king and after.piece_at(move.end).king
        elif claim is Claim.STAYS_MAN:
            assert not piece.king and not after.piece_at(move.end).king
            assert any(square_coords(variant, sq)[1] == crown_rank for sq in line.route[1:-1])
        elif claim is Claim.CROWNED_GOES_ON:  # crowned on its crowning row mid-capture, it jumps on as a king
            assert not piece.king and after.piece_at(move.end).king and len(line.route) > 2
            crowned_at = next(i for i, sq in enumerate(line.route) if square_coords(variant, sq)[1] == crown_rank)
            assert 0 < crowned_at < len(line.route) - 1
            as_man = Position.from_fen(dataclasses.replace(variant, crowned_capture_continues=False), pos.fen())
            assert not any(line.route in m.routes for m in as_man.legal_moves()), "no man could take this way"
        elif claim is Claim.WINS:
            assert not after.legal_moves()


# The refused moves of the rules that set the other rule sets apart, and the reason each is given.
RULE_REFUSALS = [
    ("russian", "crowning", 0, "d6xf8", "crowned-goes-on"), ("russian", "kings-capture", 1, "a1xe5", "king-lands-to-go-on"),
    ("pool", "kings-capture", 1, "a1xe5", "king-lands-to-go-on"), ("czech", "kings-capture", 1, "a1xe5", "king-lands-to-go-on"),
    ("italian", "men-capture", 1, "f3xd5", "man-takes-no-king"),
    ("italian", "capture-priority", 0, "f3xd5", "king-capture-first"),
    ("italian", "capture-priority", 1, "e4xg6", "most-kings"), ("italian", "capture-priority", 2, "a8xc6xe8", "kings-first"),
    ("spanish", "capture-priority", 0, "f3xh5", "most-kings"), ("czech", "capture-priority", 0, "a1xc3xe5", "king-capture-first"),
    ("thai", "kings-capture", 0, "b8xh2", "king-lands-next"),
]


@pytest.mark.parametrize(("name", "sid", "index", "text", "reason"), RULE_REFUSALS,
                         ids=[f"{p[0]}-{p[4]}" for p in RULE_REFUSALS])
def test_the_rules_that_set_a_rule_set_apart_are_what_refuses_their_diagrams_moves(name, sid, index, text, reason):
    """The move is refused on the page's diagram for that rule (drawn as refused there, or where the page
    shows only the move the rule forces, not drawn) with the reason the rule gives, in the rule set's words."""
    variant = ALL_VARIANTS[name]
    pos = rules_page(variant).section(sid).diagrams[index].position(variant)
    attempt = route(variant, text)
    assert not any(attempt.route in m.routes for m in pos.legal_moves())
    why = explain_refusal(pos, attempt.start, attempt.stops, finished=True)
    assert why is not None and why.reason == reason and why.section in rules_page(variant).section_ids
    assert "{" not in why.message and ("{title}" not in MESSAGES[reason][0] or variant.title in why.message)


@pytest.mark.parametrize(("variant", "sid", "diagram"), [p for p in DIAGRAMS if p[2].complete],
                         ids=ids([p for p in DIAGRAMS if p[2].complete]))
def test_complete_diagrams_draw_every_move_of_their_pieces(variant, sid, diagram):
    pos = diagram.position(variant)
    legal = [line for line in diagram.lines if line.style is not Style.REFUSED]
    starts = {line.start for line in legal}
    assert {diagram.move(variant, line) for line in legal} == {m for m in pos.legal_moves() if m.start in starts}


@pytest.mark.parametrize(("variant", "sid", "diagram"), [p for p in DIAGRAMS if p[2].rings],
                         ids=ids([p for p in DIAGRAMS if p[2].rings]))
def test_gold_rings_are_on_the_pieces_that_can_capture(variant, sid, diagram):
    pos = diagram.position(variant)
    assert diagram.rings == {m.start for m in pos.legal_moves() if m.captured}


def test_the_starting_positions_are_the_games_own():
    for variant in VARIANTS:
        board = rules_page(variant).section("board").diagrams[0]
        assert board.position(variant) == Position.initial(variant)


@pytest.mark.parametrize(("variant", "sid", "moves_each"), [
    (AMERICAN, "draw-move-limit", 40), (INTERNATIONAL, "draw-move-limit", 25),
    (INTERNATIONAL, "draw-endgame", 16), (INTERNATIONAL, "draw-main-diagonal", 5),
    *((ALL_VARIANTS[name], "draw-move-limit", moves) for name, moves in (
        ("brazilian", 15), ("russian", 15), ("pool", 15), ("spanish", 25), ("italian", 40), ("czech", 25), ("thai", 25))),
    (ALL_VARIANTS["brazilian"], "draw-endgame", 15), (ALL_VARIANTS["russian"], "draw-endgame", 15),
    (ALL_VARIANTS["pool"], "draw-endgame", 13),
], ids=lambda p: getattr(p, "name", str(p)))
def test_draw_diagrams_show_the_limit_their_caption_gives(variant, sid, moves_each):
    diagram = rules_page(variant).section(sid).diagrams[0]
    game = Game(variant, diagram.position(variant))
    assert game.moves_until_draw == moves_each
    assert f"{moves_each} moves each" in diagram.caption


def test_the_long_diagonal_marked_is_a1_to_j10_and_the_lone_king_is_on_it():
    diagram = rules_page(INTERNATIONAL).section("draw-main-diagonal").diagrams[0]
    assert diagram.marks == {sq for sq in range(1, 51) if len(set(square_coords(INTERNATIONAL, sq))) == 1}
    pos = diagram.position(INTERNATIONAL)
    (lone,) = [sq for sq, p in pos.pieces().items() if p.color is Color.BLACK]
    assert lone in diagram.marks and pos.count(Color.BLACK) == (0, 1)
    assert not diagram.marks & {sq for sq, p in pos.pieces().items() if p.color is Color.WHITE}


def test_winning_diagrams_mark_the_blocked_piece():
    for variant in VARIANTS:
        diagram = rules_page(variant).section("winning").diagrams[0]
        after = diagram.position(variant).play(diagram.move(variant, diagram.lines[0]))
        assert diagram.marks == {sq for sq, p in after.pieces().items() if p.color is after.turn}


def test_content_helpers_read_square_names_and_name_bad_ones():
    assert board_fen(AMERICAN, Color.BLACK, "d4 Kf6", "c3") == "B:W15,K22:B11"
    assert squares(INTERNATIONAL, "a1 j10") == (46, 5)
    with pytest.raises(ValueError, match="'b1'"):
        board_fen(AMERICAN, Color.BLACK, "b1")
    diagram = Diagram(board_fen(AMERICAN, Color.BLACK, "d4", "c3"), "White's man is in the way.")
    with pytest.raises(ValueError, match="not a legal move"):
        diagram.move(AMERICAN, route(AMERICAN, "c3-d4", Style.ARROW))


def test_the_words_are_data_filled_in_from_the_rules_table():
    """The pages' words live in game/help/pages/*.toml (package data); every name in braces there is
    filled in from the Variant table, and the diagrams' moves are read as the files write them."""
    from game.help.content import line, read_pages, words

    files = {p.name for p in (ROOT / "game" / "help" / "pages").glob("*.toml")}
    assert files == {f"{name}.toml" for name in ALL_VARIANTS} | {"shared.toml", "controls.toml"}
    assert read_pages("american")["title"] == "Rules: {title}"
    for variant in VARIANTS:
        for page in (rules_page(variant), controls_page(variant)):
            texts = [page.title] + [t for s in page.sections for t in (s.title, *s.paragraphs, *(d.caption for d in s.diagrams))]
            assert not [t for t in texts if "{" in t or "}" in t], "every name filled in"
    limit = rules_page(INTERNATIONAL).section("draw-move-limit")
    assert limit.title == f"Draw: {INTERNATIONAL.quiet_limit_moves} moves each without progress"
    assert "only kings move" in limit.paragraphs[0], "a shared section with the page's own words"
    assert words(dataclasses.replace(AMERICAN, repetition_count=4))["repetition"] == "fourth"
    assert line(AMERICAN, "d6xf8 only crowns") == route(AMERICAN, "d6xf8", Style.PATH, Claim.ONLY, Claim.CROWNS)
    assert line(AMERICAN, "d4-c3 refused").style is Style.REFUSED
    with pytest.raises(ValueError, match="'sideways'"):
        line(AMERICAN, "d4-c5 sideways")


# --- the Controls page: keys and buttons that exist ---------------------------------------------------

def _input_source() -> ast.Module:
    return ast.parse((ROOT / "game" / "window" / "input.py").read_text(encoding="utf-8"))


def _keys_read_by_input() -> set[str]:
    """The pygame key constants game/window/input.py reads (``pygame.K_...``)."""
    return {n.attr for n in ast.walk(_input_source())
            if isinstance(n, ast.Attribute) and n.attr.startswith("K_") and getattr(n.value, "id", "") == "pygame"}


def _texts_in_input() -> set[str]:
    return {n.value for n in ast.walk(_input_source()) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


@pytest.mark.parametrize("key", KEYS, ids=lambda k: k.label)
def test_every_key_the_controls_page_names_is_read_by_the_input_layer(key):
    assert key.pygame_keys or key.text
    assert set(key.pygame_keys) <= _keys_read_by_input()
    assert not key.text or key.text in _texts_in_input()


def test_every_key_the_input_layer_reads_is_on_the_controls_page():
    listed = {name for k in KEYS for name in k.pygame_keys}
    assert _keys_read_by_input() <= listed
    page = controls_page(AMERICAN)
    assert page.keys == KEYS
    keyboard = page.section("controls-keyboard").text
    for word in ("arrow keys", "Enter", "Space", "Tab", "Shift+Tab", "Esc", "Ctrl+Z", "F1", "?"):
        assert word in keyboard


def test_every_button_and_message_the_pages_quote_is_in_the_game():
    sources = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "game").rglob("*.py"))
                      if "help" not in p.relative_to(ROOT / "game").parts)
    literals = set(re.findall(r'"([^"\n]+)"', sources))
    quoted = set()
    for variant in VARIANTS:
        for page in (rules_page(variant), controls_page(variant)):
            for section in page.sections:
                quoted |= set(re.findall(r"“([^”]+)”", section.text))
    assert len(quoted) >= 15
    for label in quoted:
        assert label in literals, label


def test_controls_name_the_first_and_second_player_of_each_game():
    american, international = controls_page(AMERICAN), controls_page(INTERNATIONAL)
    assert "you move first (Black)" in american.section("controls-start").text
    assert "you move first (White)" in international.section("controls-start").text
    assert "you play White" in american.section("controls-start").text


# --- the text preview -------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_the_preview_prints_every_section_with_its_diagrams(variant, capsys):
    from game.help.__main__ import main

    assert main(["--variant", variant.name]) == 0
    out = capsys.readouterr().out
    for page in (rules_page(variant), controls_page(variant)):
        for section in page.sections:
            assert f"{section.title}  [{section.id}]" in out
    assert out.count("to move · FEN") == len(diagrams(variant))
    refused = [line for _, _, line in diagram_lines(variant) if line.style is Style.REFUSED]
    assert out.count("   refused ") == len(refused) and "should be refused" not in out
    assert "a  b  c  d  e  f  g  h" in out and ("i  j" in out) == (variant is INTERNATIONAL)
    for key in KEYS:
        assert key.label in out


def test_the_preview_names_an_unknown_variant(capsys):
    from game.help.__main__ import main

    with pytest.raises(SystemExit):
        main(["--variant", "chess"])
    assert "unknown variant 'chess'" in capsys.readouterr().err

"""Why a move is refused (game.help.explain): the message for every reason in both games, the real
controller refusing exactly what is explained, every message true of its position, and the plain
capture walk agreeing with the engine."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from engine import ALL_VARIANTS, AMERICAN, INTERNATIONAL, Color, Position, Variant, coords_square, parse_square, square_coords
from engine.game import Game
from game.help import explain_refusal, rules_page
from game.help.explain import MESSAGES, _Board
from game.help.model import board_fen
from game.modes import Mode
from game.play.hand import WHEN_YOU_CAN_CAPTURE
from game.play.intents import SquarePressed
from game.play.machine import Controller

AM, INTL = AMERICAN, INTERNATIONAL
RUS, POOL, ITA, THAI, CZ = (ALL_VARIANTS[n] for n in ("russian", "pool", "italian", "thai", "czech"))
# the specification's words when a piece that can't capture is pressed ("Controls on this page"), and where to look
MUST = WHEN_YOU_CAN_CAPTURE + ": the gold rings show which pieces can"
B, W = Color.BLACK, Color.WHITE


def attempt(variant: Variant, turn: Color, white: str, black: str, start: str, stops: str = "", **kw):
    pos = Position.from_fen(variant, board_fen(variant, turn, white, black))
    return explain_refusal(pos, parse_square(variant, start), [parse_square(variant, s) for s in stops.split()], **kw)


# --- every reason, by hand --------------------------------------------------------------------------
# (variant, turn, white, black, start, stops, options, reason, message)

CASES = [
    # whose turn, whose piece
    (AM, B, "d4", "c3", "d4", "", {}, "not-your-piece", "That's a white piece: Black is to move"),
    (INTL, W, "c3", "d6", "d6", "c5", {}, "not-your-piece", "That's a black piece: White is to move"),
    (AM, B, "d4", "c3", "e5", "", {}, "no-piece", "Press one of your own pieces to move it"),
    (AM, B, "d4", "c3", "c3", "b4", {"player": W}, "not-your-turn", "It's not your turn: Black is to move"),
    (AM, W, "a5", "b4 c3", "a5", "", {}, "game-over", "White has no move left: the game is over"),
    # compulsory capture
    (AM, B, "d4 g7", "c3 g3", "g3", "", {}, "must-capture", MUST),
    (AM, B, "d4 g7", "c3 g3", "g3", "h4", {}, "must-capture", MUST),
    (AM, B, "d4 g7", "c3 g3", "g3", "f2", {}, "must-capture", MUST),
    (INTL, W, "c3 h2", "d4 a9", "h2", "g3", {}, "must-capture", MUST),
    (AM, B, "d4 g7", "c3 g3", "c3", "b4", {}, "must-capture-no-step",
     "You must capture: no plain move is allowed while a capture is possible"),
    (INTL, W, "Kb2", "e5 h6", "b2", "a3", {}, "must-capture-no-step",
     "You must capture: no plain move is allowed while a capture is possible"),
    # the most pieces
    (INTL, W, "e3", "d4 f4 h6", "e3", "c5", {}, "most-pieces",
     "In International Draughts you must take the most pieces: this capture takes 1, another takes 2"),
    (INTL, W, "Kb2", "e5 h6", "b2", "f6", {}, "most-pieces",
     "In International Draughts you must take the most pieces: this capture takes 1, another takes 2"),
    (INTL, W, "a3 e3", "b4 f4 h6", "a3", "", {}, "most-pieces-piece",
     "In International Draughts you must take the most pieces: this piece can take only 1, another capture takes 2"),
    (INTL, W, "a3 e3", "b4 f4 h6", "a3", "c5", {}, "most-pieces",
     "In International Draughts you must take the most pieces: this capture takes 1, another takes 2"),
    (INTL, W, "Kj10 Kc5 e3 Kh2", "Ki9 h6 Ke5 b4 Kf2", "j10", "h8", {}, "most-pieces-at-most",
     "In International Draughts you must take the most pieces: this way takes at most 3, another capture takes 4"),
    # blocked pieces
    (AM, B, "b4 c5", "a3 h2", "a3", "", {}, "man-blocked",
     "That man can't move: men move only forward, and the square ahead of it is taken"),
    (AM, B, "c3 e3 b4 f4", "d2 h2", "d2", "", {}, "man-blocked",
     "That man can't move: men move only forward, and both squares ahead of it are taken"),
    (AM, B, "c5 e5 c3 e3 b6 f6 b2 f2", "Kd4 g1", "d4", "", {}, "king-blocked",
     "That king can't move: every square next to it is taken"),
    # men
    (AM, B, "g7", "d4", "d4", "c3", {}, "men-forward", "Men move only forward"),
    (INTL, W, "e5", "a9", "e5", "d4", {}, "men-forward", "Men move only forward"),
    (AM, B, "g7", "d4", "d4", "b6", {}, "man-one-square", "A man moves one square at a time, diagonally forward"),
    (INTL, W, "e5", "a9", "e5", "g7", {}, "man-one-square", "A man moves one square at a time, diagonally forward"),
    (AM, B, "f2", "e3", "e3", "g1", {}, "man-captures-forward", "A man captures only forward in American Checkers"),
    (AM, B, "d4 f2", "e3", "e3", "g1", {}, "man-captures-forward", "A man captures only forward in American Checkers"),
    (AM, B, "e5 a7", "c3", "c3", "f6", {}, "man-jumps-next",
     "A man jumps only a piece right next to it, onto the empty square just beyond"),
    # kings
    (AM, B, "g7", "Kd4", "d4", "f6", {}, "king-one-square", "Kings in American Checkers move one square at a time"),
    (AM, B, "d4 d2 g7", "Ke5", "e5", "h8", {}, "king-jumps-next",
     "Kings in American Checkers jump only a piece right next to them"),
    (INTL, W, "Kd4 f6", "a9", "d4", "g7", {}, "king-blocked-way",
     "A king can't pass over pieces: the way to that square is blocked"),
    (INTL, W, "Ka1 j2", "c3 d4 a9", "a1", "e5", {}, "jump-one-at-a-time",
     "A piece jumps one piece at a time: two pieces in a row can't be jumped"),
    # any piece
    (AM, B, "g7", "d4", "d4", "d6", {}, "diagonal-only", "That square is not reachable: pieces move only diagonally"),
    (AM, B, "g7", "d4 e5", "d4", "e5", {}, "occupied", "That square is taken: a piece moves only onto an empty square"),
    (INTL, W, "Kd4 f6", "a9", "d4", "f6", {}, "occupied", "That square is taken: a piece moves only onto an empty square"),
    (AM, B, "g7", "d4 e5", "d4", "f6", {}, "jump-own", "You can jump only your opponent's pieces, never your own"),
    (INTL, W, "e5 f6", "a9", "e5", "g7", {}, "jump-own", "You can jump only your opponent's pieces, never your own"),
    # multiple jumps
    (AM, B, "b4 d6 g7", "a3", "a3", "c5", {"finished": True}, "keep-jumping",
     "The same piece must keep jumping while it can: this capture goes on"),
    (AM, B, "b2 d4 f6", "a1", "a1", "e5", {}, "keep-jumping",
     "The same piece must keep jumping while it can: this capture goes on"),
    (INTL, W, "a3", "b4 d6 f6", "a3", "c5 d4", {}, "keep-jumping",
     "The same piece must keep jumping while it can: this capture goes on"),
    (INTL, W, "Kb2", "e5 h6", "b2", "g7 h8", {}, "keep-jumping",
     "The same piece must keep jumping while it can: this capture goes on"),
    (AM, B, "d4 g7", "c3", "c3", "e5 f6", {}, "capture-over", "That capture is over: the piece has nothing more to jump"),
    (AM, B, "d4 g7", "Ke5", "e5", "c3 e5", {}, "jump-twice", "A piece can't be jumped twice in one move"),
    (INTL, W, "Kb2", "e5 h6", "b2", "g7 d4", {}, "jump-twice", "A piece can't be jumped twice in one move"),
    (AM, B, "g7", "d4", "d4", "c5 b6", {}, "step-ends-move", "A move without a capture is a single step"),
    # crowning
    (AM, B, "e7 g7", "d6", "d6", "f8 h6", {}, "crowning-ends-move",
     "Crowning ends the move in American Checkers: the new king jumps again only on its next turn"),
    (INTL, W, "b8", "c9 e9", "b8", "d10", {"finished": True}, "stays-man-goes-on",
     "The capture goes on: a man becomes a king only if its move ends on the far row"),
    (INTL, W, "b8", "c9 e9", "b8", "d10 g7", {}, "stays-man",
     "A man that passes the far row during a capture stays a man and jumps like a man"),
    # the rules of the other rule sets (issue 25)
    (RUS, W, "d6", "e7 g7 f4", "d6", "f8", {"finished": True}, "crowned-goes-on",
     "The new king goes on: in Russian Draughts a man crowned during a capture jumps on as a king"),
    (RUS, W, "d6", "e7 g7 f4", "d6", "f8 h6", {"finished": True}, "keep-jumping",
     "The same piece must keep jumping while it can: this capture goes on"),
    (RUS, W, "Ka1", "c3 g5", "a1", "e5", {"finished": True}, "king-lands-to-go-on",
     "The king must land where it can jump on: this capture goes on from another square"),
    (ITA, W, "f3", "Ke4 g4", "f3", "d5", {}, "man-takes-no-king", "In Italian Draughts a man may never capture a king"),
    (THAI, B, "f4", "Kb8", "b8", "h2", {}, "king-lands-next",
     "In Thai Draughts a king lands on the square just beyond the piece it takes"),
    (ITA, W, "f3 Kb3", "e4 c4", "f3", "d5", {}, "king-capture-first",
     "In Italian Draughts a capture with a king comes first, and a king can capture"),
    (CZ, W, "a1 Kh6", "b2 d4 g7", "a1", "c3", {}, "king-capture-first",
     "In Czech Draughts a capture with a king comes first, and a king can capture"),
    (ITA, W, "Ke4", "f5 Kd5", "e4", "g6", {}, "most-kings",
     "In Italian Draughts you must take the most kings: another capture takes as many pieces and 1 king"),
    (ITA, W, "Kh1 Ka8", "Kg2 e4 b7 Kd7", "a8", "c6 e8", {"finished": True}, "kings-first",
     "In Italian Draughts you must make the capture that meets a king earliest"),
    (POOL, B, "d4", "c5", "d4", "", {}, "not-your-piece", "That's a white piece: Red is to move"),
    (POOL, W, "d4", "c5", "c5", "", {}, "not-your-piece", "That's a red piece: White is to move"),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0].name}-{c[7]}-{i}" for i, c in enumerate(CASES)])
def test_each_reason_says_what_the_rules_say(case):
    variant, turn, white, black, start, stops, options, reason, message = case
    refusal = attempt(variant, turn, white, black, start, stops, **options)
    assert refusal is not None
    assert (refusal.reason, refusal.message) == (reason, message)
    assert refusal.section in rules_page(variant).section_ids


def test_every_reason_has_a_case_in_each_game_it_can_happen_in():
    covered = {(c[0].name, c[7]) for c in CASES}
    assert {reason for _, reason in covered} == set(MESSAGES) - {"unreachable"}
    for reason in ("must-capture", "men-forward", "occupied", "jump-own", "keep-jumping", "jump-twice",
                   "not-your-piece", "man-one-square"):
        assert {("american", reason), ("international", reason)} <= covered | {("american", "not-your-piece")}


def test_a_kings_mistake_opens_the_kings_section():
    assert attempt(AMERICAN, B, "g7", "Kd4 e5", "d4", "e5").section == "kings-move"
    assert attempt(AMERICAN, B, "g7", "Kd4 e5", "d4", "f6").section == "kings-capture"
    assert attempt(AMERICAN, B, "g7", "d4 e5", "d4", "f6").section == "men-capture"


@pytest.mark.parametrize(("variant", "turn", "white", "black", "start", "stops", "options"), [
    (AM, B, "d4 g7", "c3 g3", "c3", "", {}),  # a piece that can capture
    (AM, B, "d4 g7", "c3 g3", "c3", "e5", {}),
    (AM, B, "b4 d6 g7", "a3", "a3", "c5", {}),  # a capture entered so far
    (AM, B, "b4 d6 g7", "a3", "a3", "e7", {"finished": True}),  # its end pressed first
    (INTL, W, "b8", "c9 e9", "b8", "d10", {}),  # passing the far row, still going
    (INTL, W, "b8", "c9 e9", "b8", "d10 f8", {"finished": True}),
    (INTL, W, "Kd4 f6", "a9", "d4", "a7", {}),  # a flying king
    (AM, B, "g7", "d4", "d4", "c5", {"player": B}),  # the player's own turn
])
def test_a_legal_attempt_is_not_refused(variant, turn, white, black, start, stops, options):
    assert attempt(variant, turn, white, black, start, stops, **options) is None


def test_a_square_off_the_board_is_named():
    pos = Position.initial(AM)
    with pytest.raises(ValueError, match="square 33 is not on the American Checkers board"):
        explain_refusal(pos, 9, (33,))
    with pytest.raises(ValueError, match="square 0 is not on"):
        explain_refusal(pos, 0)


# --- every message true, and the controller refusing exactly what is explained ----------------------------

def random_positions(variant: Variant, rng: random.Random, games: int, boards: int) -> list[Position]:
    """Positions from random games, and random boards with many kings (men off their crowning row);
    only positions where the side to move can move."""
    out: list[Position] = []
    while len(out) < games:
        pos = Position.initial(variant)
        for _ in range(rng.randrange(0, 120)):
            if not pos.legal_moves():
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.legal_moves():
            out.append(pos)
    while len(out) < games + boards:
        lists: dict[Color, list[str]] = {W: [], B: []}
        for sq in rng.sample(range(1, variant.squares + 1), rng.randrange(2, 14)):
            color = rng.choice((W, B))
            crowning = square_coords(variant, sq)[1] == (variant.size - 1 if color is variant.first_player else 0)
            lists[color].append(("K" if crowning or rng.random() < 0.4 else "") + str(sq))
        if lists[W] and lists[B]:
            pos = Position.from_fen(variant, f"{rng.choice('WB')}:W{','.join(lists[W])}:B{','.join(lists[B])}")
            if pos.legal_moves():
                out.append(pos)
    return out


def controller_accepts(pos: Position, start: int, presses: tuple[int, ...]) -> bool | None:
    """Whether the game's controller takes the presses (start, then each stop) without refusing one;
    None when it played the move (the only one left) before the last press."""
    c = Controller()
    c.open_game(Game(pos.variant, pos), Mode())
    c.handle(SquarePressed(start))
    if c.hand.selected != start:
        return False
    for i, sq in enumerate(presses, start=1):
        ply, entered = c.game.ply, c.hand.entered
        c.handle(SquarePressed(sq))
        if c.game.ply > ply:
            return True if i == len(presses) else None
        if c.hand.entered == entered and not (c.notice or "").startswith("More than one route ends there"):
            return False
    return True


def _between(v: Variant, a: int, b: int) -> list[int] | None:
    (fa, ra), (fb, rb) = square_coords(v, a), square_coords(v, b)
    if fa == fb or abs(fb - fa) != abs(rb - ra):
        return None
    n = abs(fb - fa)
    return [coords_square(v, fa + i * (fb - fa) // n, ra + i * (rb - ra) // n) for i in range(1, n)]


def _plain_targets(pos: Position, start: int) -> set[int]:
    """Where the piece on ``start`` could step if no capture were compulsory (the rules text)."""
    v, piece = pos.variant, pos.piece_at(start)
    forward = 1 if piece.color is v.first_player else -1
    out = set()
    for sq in range(1, v.squares + 1):
        way = _between(v, start, sq)
        if way is None or pos.piece_at(sq) or any(pos.piece_at(s) for s in way):
            continue
        ahead = (square_coords(v, sq)[1] - square_coords(v, start)[1]) * forward > 0
        if (piece.king and (v.flying_kings or not way)) or (not piece.king and ahead and not way):
            out.add(sq)
    return out


def _is_subsequence(needle, hay) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


def assert_true(pos: Position, start: int, stops: tuple[int, ...], refusal) -> None:
    """The refusal of an attempt whose stops but the last follow a legal route is true of the position."""
    v = pos.variant
    legal = pos.legal_moves()
    best = max(len(m.captured) for m in legal)
    piece = pos.piece_at(start)
    routes = [r for m in legal if m.start == start for r in m.routes]
    forward = 1 if piece.color is v.first_player else -1
    crown_rank = v.size - 1 if piece.color is v.first_player else 0
    at = ((start,) + stops)[-2] if stops else start
    to = stops[-1] if stops else None
    way = _between(v, at, to) if to else None
    pieces_between = [pos.piece_at(s) for s in way or () if pos.piece_at(s) and s != start]
    jumped = {s for a, b in zip((start,) + stops[:-2], stops[:-1], strict=True) for s in _between(v, a, b)
              if pos.piece_at(s)} if len(stops) > 1 else set()
    back = to is not None and (square_coords(v, to)[1] - square_coords(v, at)[1]) * forward < 0
    reason = refusal.reason
    if reason == "must-capture":
        assert best and not routes
    elif reason == "must-capture-no-step":
        assert best and routes and to in _plain_targets(pos, start)
    elif reason in ("most-pieces", "most-pieces-at-most", "most-pieces-piece"):
        n, m = map(int, re.findall(r"\d+", refusal.message))
        assert v.majority_capture and m == best > n
        free = Position.from_fen(dataclasses.replace(v, majority_capture=False), pos.fen())
        for done in (stops, stops[:-1]):  # the whole attempt is a smaller capture, or it goes wrong after one
            took = [len(mv.captured) for mv in free.legal_moves() if mv.start == start for r in mv.routes
                    if r[1:len(done) + 1] == done]
            if took:
                break
        assert took and max(took) == n
        assert (len(set(took)) == 1) == (reason != "most-pieces-at-most") or reason == "most-pieces-piece"
    elif reason == "man-blocked":
        assert not piece.king and not best and not routes and not _plain_targets(pos, start)
    elif reason == "king-blocked":
        assert piece.king and not best and not routes and not _plain_targets(pos, start)
    elif reason == "men-forward":
        assert not piece.king and back and way is not None and not pieces_between
    elif reason == "man-one-square":
        assert not piece.king and not back and way and not pieces_between
    elif reason == "man-captures-forward":
        assert not v.men_capture_backward and not piece.king and back and len(way) == 1 and pieces_between
    elif reason == "man-jumps-next":
        assert not piece.king and len(way) >= 2 and pieces_between
    elif reason == "king-one-square":
        assert piece.king and not v.flying_kings and way and not pieces_between
    elif reason == "king-jumps-next":
        assert piece.king and not v.flying_kings and len(way) >= 2 and pieces_between
    elif reason == "king-blocked-way":
        assert piece.king and v.flying_kings and any(p.color is piece.color for p in pieces_between)
    elif reason == "diagonal-only":
        assert _between(v, at, to) is None
    elif reason == "occupied":
        assert to != start and pos.piece_at(to) is not None
    elif reason == "jump-own":
        assert any(p.color is piece.color for p in pieces_between)
    elif reason == "jump-one-at-a-time":
        assert len([p for p in pieces_between if p.color is not piece.color]) >= 2
    elif reason == "jump-twice":
        assert jumped & set(way)
    elif reason == "keep-jumping":
        assert any(_is_subsequence(stops, r[1:-1]) or (len(stops) > 1 and r[1:len(stops)] == stops[:-1]
                                                       and len(r) > len(stops)) for r in routes)
    elif reason == "capture-over":
        assert (start,) + stops[:-1] in routes
    elif reason == "crowning-ends-move":
        assert v.promotion_ends_capture and not piece.king and (start,) + stops[:-1] in routes
        assert square_coords(v, stops[-2])[1] == crown_rank
    elif reason == "stays-man-goes-on":
        assert not piece.king and square_coords(v, to)[1] == crown_rank
        assert any(_is_subsequence(stops, r[1:-1]) for r in routes)
    elif reason == "stays-man":
        assert not piece.king and any(square_coords(v, s)[1] == crown_rank for s in stops[:-1])
        assert len(way) >= 2 and len(pieces_between) == 1
    elif reason == "step-ends-move":
        assert not best and (start, stops[0]) in routes and len(stops) > 1
    else:
        raise AssertionError(f"{reason} is not expected here: {refusal}")


@pytest.mark.parametrize("variant", (AMERICAN, INTERNATIONAL), ids=lambda v: v.name)
def test_refusals_match_the_controller_and_every_message_is_true(variant):
    rng = random.Random(20240514)
    page = set(rules_page(variant).section_ids)
    seen = set()
    compared = 0
    for pos in random_positions(variant, rng, games=25, boards=25):
        for start, piece in pos.pieces().items():
            if piece.color is not pos.turn:
                continue
            selected = explain_refusal(pos, start)
            assert (selected is None) == any(m.start == start for m in pos.legal_moves())
            if selected is not None:
                assert_true(pos, start, (), selected)
                seen.add(selected.reason)
            attempts = [(to,) for to in range(1, variant.squares + 1)]
            for m in pos.legal_moves():  # a capture entered so far, then every square
                if m.start == start:
                    attempts += [r[1:k] + (to,) for r in m.routes for k in range(2, len(r))
                                 for to in range(1, variant.squares + 1)]
            for stops in attempts:
                own = pos.piece_at(stops[-1])
                if stops[-1] == start or (own is not None and own.color is pos.turn):
                    continue  # the controller selects (or deselects) that piece instead
                refusal = explain_refusal(pos, start, stops)
                accepted = controller_accepts(pos, start, stops) if selected is None else None
                if accepted is not None:
                    assert accepted == (refusal is None), (pos.fen(), start, stops, refusal)
                    compared += 1
                if refusal is not None:
                    assert refusal.section in page
                    assert_true(pos, start, stops, refusal)
                    seen.add(refusal.reason)
    assert len(seen) >= 12 and compared >= 1000  # the sweep met most reasons


@pytest.mark.parametrize("variant", (AMERICAN, INTERNATIONAL), ids=lambda v: v.name)
def test_a_capture_stopped_short_or_continued_past_its_end_is_refused_truly(variant):
    rng = random.Random(7)
    for pos in random_positions(variant, rng, games=40, boards=40):
        for m in pos.legal_moves():
            for r in m.routes:
                for k in range(1, len(r) - 1):  # stopping where the capture goes on
                    refusal = explain_refusal(pos, r[0], r[1:k + 1], finished=True)
                    assert refusal is not None and refusal.reason in ("keep-jumping", "stays-man-goes-on")
                    assert_true(pos, r[0], r[1:k + 1], refusal)
                for k in range(2, len(r) - 1):  # skipping to a later landing
                    refusal = explain_refusal(pos, r[0], (r[k],))
                    if refusal is not None:  # (None: the same square is also a next landing or an end)
                        assert refusal.reason in ("keep-jumping", "stays-man-goes-on"), refusal
                if not m.captured:
                    continue
                for to in range(1, variant.squares + 1):  # going on after the end
                    refusal = explain_refusal(pos, r[0], r[1:] + (to,))
                    if refusal is not None and (to == r[0] or pos.piece_at(to) is None or to in m.captured):
                        assert_true(pos, r[0], r[1:] + (to,), refusal)


# --- the plain capture walk against the engine ------------------------------------------------------------

@pytest.mark.parametrize("variant", (AMERICAN, INTERNATIONAL), ids=lambda v: v.name)
def test_the_capture_walk_counts_what_the_engine_counts(variant):
    """For every piece, the capture totals the walk finds (every complete capture, the most pieces rule
    set aside) are those of the engine's moves with that rule turned off."""
    free_variant = dataclasses.replace(variant, majority_capture=False)
    rng = random.Random(3)
    compared = 0
    for pos in random_positions(variant, rng, games=60, boards=60):
        free = Position.from_fen(free_variant, pos.fen())
        for start, piece in pos.pieces().items():
            if piece.color is not pos.turn:
                continue
            board = _Board(pos, start)
            engine_totals = {len(m.captured) for m in free.legal_moves() if m.start == start and m.captured}
            walk_totals = board.totals(start, piece.king, ()) - {0}
            if free.has_capture():
                assert walk_totals == engine_totals, (pos.fen(), start)
                compared += bool(walk_totals)
            landings = {land for land, _ in board.jumps(start, piece.king, ())}
            assert landings == {r[1] for m in free.legal_moves() if m.start == start and m.captured for r in m.routes}
    assert compared >= 20

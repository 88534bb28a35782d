"""Why the rules refuse a move a player tried, in the words of the rules, with the Rules section to open.

The player tried to move the piece on ``start`` and chose ``stops``: the squares where it should stop,
in order (the landing squares pressed so far, or the square a piece was dropped on); no stops means
they only pressed the piece. :func:`explain_refusal` returns None when the rules allow that (the
piece has a legal move; the stops follow a legal route so far, or the last one is where a legal route
ends after the earlier ones), else a :class:`Refusal`.

How the player's hand's refusals map onto a call (``game/play/hand.py``):

* ``select`` fails (a piece with no legal move): ``explain_refusal(pos, square)``;
* a press that is no target of the selected piece (``press``/``_press_target``):
  ``explain_refusal(pos, selected, entered + (square,))``;
* a drop (``PieceDropped``) that ``_press_target`` refuses: ``explain_refusal(pos, start, (square,))``.

Legality always comes from the engine (``Position.legal_moves``); the reasons come from walking the
attempt jump by jump with the rules of the :class:`engine.Variant`, written out plainly here, so each
message is true of its position (the tests check that, and check this walk against the engine).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine import Color, Variant, coords_square, square_coords

if TYPE_CHECKING:
    from engine.position import Move, Piece, Position


@dataclass(frozen=True)
class Refusal:
    """What to tell the player: ``message`` for the status line, ``section`` the id of the Rules
    section that explains it (on the page of the position's variant), ``reason`` a stable code."""

    reason: str
    message: str
    section: str


# --- the reasons --------------------------------------------------------------------------------
# reason code -> (message, section id). {side}, {turn}, {n}, {m}, {s}, {ahead} are filled in, and {title}, the
# rule set's name, by explain_refusal.

MESSAGES: dict[str, tuple[str, str]] = {
    "not-your-turn": ("It's not your turn: {turn} is to move", "board"),
    "not-your-piece": ("That's a {side} piece: {turn} is to move", "board"),
    "no-piece": ("Press one of your own pieces to move it", "board"),
    "game-over": ("{turn} has no move left: the game is over", "winning"),
    "must-capture": ("When you can capture, you must capture: the gold rings show which pieces can", "compulsory-capture"),
    "must-capture-no-step": ("You must capture: no plain move is allowed while a capture is possible",
                             "compulsory-capture"),
    "most-pieces": ("In {title} you must take the most pieces: this capture takes {n}, "
                    "another takes {m}", "maximum-capture"),
    "most-pieces-at-most": ("In {title} you must take the most pieces: this way takes at "
                            "most {n}, another capture takes {m}", "maximum-capture"),
    "most-pieces-piece": ("In {title} you must take the most pieces: this piece can take "
                          "only {n}, another capture takes {m}", "maximum-capture"),
    "man-blocked": ("That man can't move: men move only forward, and {ahead}", "men-move"),
    "king-blocked": ("That king can't move: every square next to it is taken", "kings-move"),
    "men-forward": ("Men move only forward", "men-move"),
    "man-one-square": ("A man moves one square at a time, diagonally forward", "men-move"),
    "man-captures-forward": ("A man captures only forward in {title}", "men-capture"),
    "man-jumps-next": ("A man jumps only a piece right next to it, onto the empty square just beyond",
                       "men-capture"),
    "king-one-square": ("Kings in {title} move one square at a time", "kings-move"),
    "king-jumps-next": ("Kings in {title} jump only a piece right next to them", "kings-capture"),
    "king-blocked-way": ("A king can't pass over pieces: the way to that square is blocked", "kings-move"),
    "diagonal-only": ("That square is not reachable: pieces move only diagonally", "men-move"),
    "occupied": ("That square is taken: a piece moves only onto an empty square", "men-move"),
    "jump-own": ("You can jump only your opponent's pieces, never your own", "men-capture"),
    "jump-one-at-a-time": ("A piece jumps one piece at a time: two pieces in a row can't be jumped",
                           "men-capture"),
    "jump-twice": ("A piece can't be jumped twice in one move", "multi-jump"),
    "keep-jumping": ("The same piece must keep jumping while it can: this capture goes on", "multi-jump"),
    "capture-over": ("That capture is over: the piece has nothing more to jump", "multi-jump"),
    "step-ends-move": ("A move without a capture is a single step", "men-move"),
    "crowning-ends-move": ("Crowning ends the move in {title}: the new king jumps again only on "
                           "its next turn", "crowning"),
    "stays-man-goes-on": ("The capture goes on: a man becomes a king only if its move ends on the far row",
                          "crowning"),
    "stays-man": ("A man that passes the far row during a capture stays a man and jumps like a man",
                  "crowning"),
    "crowned-goes-on": ("The new king goes on: in {title} a man crowned during a capture jumps on as a king",
                        "crowning"),
    "man-takes-no-king": ("In {title} a man may never capture a king", "men-capture"),
    "king-lands-next": ("In {title} a king lands on the square just beyond the piece it takes", "kings-capture"),
    "king-lands-to-go-on": ("The king must land where it can jump on: this capture goes on from another square",
                            "kings-capture"),
    "king-capture-first": ("In {title} a capture with a king comes first, and a king can capture", "capture-priority"),
    "most-kings": ("In {title} you must take the most kings: another capture takes as many pieces and {m} "
                   "king{s}", "capture-priority"),
    "kings-first": ("In {title} you must make the capture that meets a king earliest", "capture-priority"),
    "unreachable": ("That square is not reachable", "men-move"),
}

# sections about men that have a kings' twin: the same reason, told about a king
_KING_SECTION = {"men-move": "kings-move", "men-capture": "kings-capture"}


def _refusal(reason: str, king: bool = False, **fill: object) -> Refusal:
    message, section = MESSAGES[reason]
    if king:
        section = _KING_SECTION.get(section, section)
    return Refusal(reason, message.format(title="{title}", **fill), section)


# --- the rules, written out plainly ------------------------------------------------------------

@lru_cache(maxsize=4)
def _pieces(position: Position) -> dict[int, Piece]:
    """The pieces of a position (kept for the few positions a player tries moves in one after another)."""
    return position.pieces()


class _Board:
    """The position as the moving piece sees it: every other piece (jumped ones stay until the move
    ends), the mover's colour and the variant's geometry, in the first player's (file, rank) frame."""

    def __init__(self, position: Position, start: int):
        self.variant: Variant = position.variant
        self.color: Color = position.turn
        self.pieces: dict[int, Piece] = {sq: p for sq, p in _pieces(position).items() if sq != start}
        first = self.color is self.variant.first_player
        self.forward = 1 if first else -1  # the rank step of the mover's men
        self.crown_rank = self.variant.size - 1 if first else 0

    def square(self, file: int, rank: int) -> int | None:
        return coords_square(self.variant, file, rank)

    def is_opponent(self, sq: int) -> bool:
        p = self.pieces.get(sq)
        return p is not None and p.color is not self.color

    def on_crown_row(self, sq: int) -> bool:
        return square_coords(self.variant, sq)[1] == self.crown_rank

    def between(self, a: int, b: int) -> tuple[int, ...] | None:
        """The squares strictly between ``a`` and ``b`` on their diagonal; None if not on one."""
        (fa, ra), (fb, rb) = square_coords(self.variant, a), square_coords(self.variant, b)
        df, dr = fb - fa, rb - ra
        if df == 0 or abs(df) != abs(dr):
            return None
        sf, sr = (1 if df > 0 else -1), (1 if dr > 0 else -1)
        out = []
        for i in range(1, abs(df)):
            sq = self.square(fa + i * sf, ra + i * sr)
            assert sq is not None  # a diagonal between two dark squares is all dark
            out.append(sq)
        return tuple(out)

    def is_forward(self, a: int, b: int) -> bool:
        return (square_coords(self.variant, b)[1] - square_coords(self.variant, a)[1]) * self.forward > 0

    def jumps(self, at: int, king: bool, captured: Sequence[int]) -> list[tuple[int, int]]:
        """Every single jump from ``at``: (landing, jumped square). Jumped pieces stay on the board
        until the move ends: they block, and can't be jumped again."""
        v = self.variant
        flying = king and v.flying_kings
        f0, r0 = square_coords(v, at)
        out = []
        for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            if not king and not v.men_capture_backward and dr != self.forward:
                continue
            i = 1  # a flying king runs up over empty squares to the piece it jumps
            while flying and (sq := self.square(f0 + i * df, r0 + i * dr)) is not None and sq not in self.pieces:
                i += 1
            jumped = self.square(f0 + i * df, r0 + i * dr)
            if jumped is None or not self.is_opponent(jumped) or jumped in captured:
                continue
            beyond = 1 if v.king_lands_next or not flying else v.size
            for j in range(i + 1, i + 1 + beyond):  # and lands on an empty square beyond (Thai: just beyond)
                land = self.square(f0 + j * df, r0 + j * dr)
                if land is None or land in self.pieces:
                    break
                out.append((land, jumped))
        return out

    def totals(self, at: int, king: bool, captured: tuple[int, ...]) -> set[int]:
        """How many pieces each complete capture from here takes in all (counting ``captured``)."""
        if captured and not king and self.on_crown_row(at) and self.variant.promotion_ends_capture:
            return {len(captured)}
        found: set[int] = set()
        for land, jumped in self.jumps(at, king, captured):
            found |= self.totals(land, king, captured + (jumped,))
        return found or {len(captured)}


def _segment(board: _Board, at: int, to: int, king: bool, captured: tuple[int, ...],
             passed_crown_row: bool) -> tuple[str, int | None]:
    """One step of an attempt, from ``at`` to ``to``: ("step", None) for a plain move the piece may
    make, ("jump", jumped square) for a jump it may make, or (reason, None) for what's wrong."""
    v = board.variant
    between = board.between(at, to)
    if between is None:
        return "diagonal-only", None
    if to in board.pieces:
        return "occupied", None
    taken = [sq for sq in between if sq in board.pieces]
    forward = board.is_forward(at, to)
    if not taken:
        if king:
            return ("step", None) if v.flying_kings or not between else ("king-one-square", None)
        if not forward:
            return "men-forward", None
        return ("step", None) if not between else ("man-one-square", None)
    if any(sq in captured for sq in taken):
        return "jump-twice", None
    if any(not board.is_opponent(sq) for sq in taken):
        return ("king-blocked-way" if king and v.flying_kings else "jump-own"), None
    if len(taken) > 1:
        if not king:
            return "man-jumps-next", None
        return ("jump-one-at-a-time" if v.flying_kings else "king-jumps-next"), None
    jumped = taken[0]
    if king:
        if not v.flying_kings and len(between) != 1:
            return "king-jumps-next", None
        return "jump", jumped
    if len(between) != 1:
        return ("stays-man" if passed_crown_row and v.flying_kings else "man-jumps-next"), None
    if not forward and not v.men_capture_backward:
        return "man-captures-forward", None
    return "jump", jumped


# --- the explanation -----------------------------------------------------------------------------

def _accepted(routes: list[tuple[int, ...]], stops: tuple[int, ...], finished: bool) -> bool:
    """Whether a legal route follows the stops: all but the last as its first landings, the last as its
    end, or (unless ``finished``) as its next landing (what the controller accepts)."""
    k = len(stops)
    return any(r[1:k] == stops[:-1] and (r[-1] == stops[-1] or not finished and len(r) > k and r[k] == stops[-1])
               for r in routes)


def _is_subsequence(needle: tuple[int, ...], hay: tuple[int, ...]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


def _stuck(board: _Board, start: int, king: bool, best: int) -> Refusal:
    """Why the piece on ``start`` has no legal move at all (``best``: the most pieces a legal capture
    takes, 0 when there is none)."""
    v = board.variant
    if best:
        if v.majority_capture:
            own = max(board.totals(start, king, ()))
            if own:
                return _refusal("most-pieces-piece", n=own, m=best)
        return _refusal("must-capture")
    if king:
        return _refusal("king-blocked")
    f, r = square_coords(v, start)
    ahead = [sq for sq in (board.square(f - 1, r + board.forward), board.square(f + 1, r + board.forward))
             if sq is not None]
    text = "the square ahead of it is taken" if len(ahead) == 1 else "both squares ahead of it are taken"
    return _refusal("man-blocked", ahead=text)


def explain_refusal(position: Position, start: int, stops: Sequence[int] = (), *, finished: bool = False,
                    player: Color | None = None) -> Refusal | None:
    """Why the rules refuse to move the piece on ``start`` to the ``stops`` (see the module's text), or
    None when they allow it. ``finished``: the move is meant to end on the last stop (a move drawn as
    refused on a diagram; a capture entered so far is otherwise allowed to go on). ``player``: the side
    the person plays, when the other side is the computer (None for two players at one device)."""
    refusal = _explain(position, start, tuple(stops), finished, player)
    if refusal is None:
        return None
    return dataclasses.replace(refusal, message=refusal.message.replace("{title}", position.variant.title))


# A rule of some rule sets that a refused attempt may break where the rest allow it: the fields that, so set,
# turn the rule off (a rule set whose fields differ has it), more fields its twin needs, and the reason. In this
# order; the capture priorities after the count are one entry (_priority tells them apart).
_RULES_OF_SOME: tuple[tuple[dict[str, Any], dict[str, Any], str], ...] = (
    ({"men_capture_kings": True}, {}, "man-takes-no-king"),
    ({"king_lands_next": False}, {}, "king-lands-next"),
    ({"king_lands_to_go_on": False}, {}, "king-lands-to-go-on"),
    ({"crowned_capture_continues": False}, {"promotion_ends_capture": True}, "crowned-goes-on"),
    ({"king_capture_first": False, "most_kings_capture": False, "kings_first_capture": False}, {}, "priority"),
)


def _rule_of_some(position: Position, start: int, stops: tuple[int, ...], finished: bool) -> Refusal | None:
    """The rule of :data:`_RULES_OF_SOME` that refuses the attempt, told by trying it in the engine's
    twin of the position whose rule set lacks that rule; None if none does."""
    from engine.position import Position

    v = position.variant
    for off, more, reason in _RULES_OF_SOME:
        if all(getattr(v, name) == value for name, value in off.items()):
            continue
        twin = Position.from_fen(dataclasses.replace(v, **off, **more), position.fen())
        moves = [m for m in twin.legal_moves() if m.start == start and _accepted(list(m.routes), stops, finished)]
        if moves:
            return _priority(position, moves[0]) if reason == "priority" else _refusal(reason)
    return None


def _priority(position: Position, attempt: Move) -> Refusal:
    """Which capture priority after the count refuses ``attempt``, a capture that takes as many pieces
    as the legal ones: a king's capture first, then the most kings, then the king met earliest."""
    pieces = _pieces(position)
    legal = position.legal_moves()[0]

    def kings(move: Move) -> int:
        return sum(pieces[sq].king for sq in move.captured)

    if position.variant.king_capture_first and pieces[legal.start].king and not pieces[attempt.start].king:
        return _refusal("king-capture-first")
    if position.variant.most_kings_capture and kings(legal) > kings(attempt):
        return _refusal("most-kings", m=kings(legal), s="" if kings(legal) == 1 else "s")
    return _refusal("kings-first")


def _explain(position: Position, start: int, stops: tuple[int, ...], finished: bool,
             player: Color | None) -> Refusal | None:
    for sq in (start, *stops):
        square_coords(position.variant, sq)  # InvalidSquareError (a ValueError) names a square off the board
    variant = position.variant
    turn = variant.side_name(position.turn)
    if player is not None and position.turn is not player:
        return _refusal("not-your-turn", turn=turn)
    legal = position.legal_moves()
    if not legal:
        return _refusal("game-over", turn=turn)
    piece = position.piece_at(start)
    if piece is None:
        return _refusal("no-piece")
    if piece.color is not position.turn:
        return _refusal("not-your-piece", side=variant.side_name(piece.color).lower(), turn=turn)
    routes = [r for m in legal if m.start == start for r in m.routes]
    if (not stops and routes) or (stops and _accepted(routes, stops, finished)):
        return None
    board = _Board(position, start)
    best = max(len(m.captured) for m in legal)  # 0: no capture anywhere
    if stops and best and (rule := _rule_of_some(position, start, stops, finished)) is not None:
        return rule
    if not stops:
        return _stuck(board, start, piece.king, best)
    return _walk(board, start, piece.king, stops, routes, best, finished)


# plain moves, good or bad: no help mid-capture, nor when the piece may not move at all (another must capture)
_PLAIN_MOVES = ("step", "men-forward", "man-one-square", "king-one-square")
_PLAIN_MISTAKES = ("men-forward", "man-one-square", "king-one-square", "occupied", "diagonal-only")


def _walk(board: _Board, start: int, king: bool, stops: tuple[int, ...], routes: list[tuple[int, ...]],
          best: int, finished: bool) -> Refusal:
    """Follow a refused attempt stop by stop and name the first thing the rules don't allow."""
    v = board.variant
    captured: tuple[int, ...] = ()
    at, crowned, passed = start, False, False
    for to in stops:
        if crowned:
            return _refusal("crowning-ends-move")
        kind, jumped = _segment(board, at, to, king, captured, passed)
        if kind != "jump":
            return _wrong_stop(board, start, king, stops, routes, best, kind, at, captured)
        assert jumped is not None
        captured += (jumped,)
        at = to
        if not king and board.on_crown_row(at):
            if v.crowned_capture_continues:
                king = True  # crowned at once: it jumps on as a king
            else:
                crowned, passed = v.promotion_ends_capture, not v.promotion_ends_capture
    # every stop is a jump the piece may make: it stops too early, or the capture takes too few
    if finished and not crowned and board.jumps(at, king, captured):
        if not king and passed and board.on_crown_row(at):
            return _refusal("stays-man-goes-on")
        return _refusal("keep-jumping")
    return _too_few(board, at, king, captured, best) or _refusal("unreachable", king)


def _too_few(board: _Board, at: int, king: bool, captured: tuple[int, ...], best: int) -> Refusal | None:
    """The most-pieces rule, when every capture that goes on from ``at`` takes fewer than ``best``."""
    if not board.variant.majority_capture:
        return None
    totals = board.totals(at, king, captured)
    if max(totals) >= best:
        return None
    return _refusal("most-pieces" if len(totals) == 1 else "most-pieces-at-most", n=max(totals), m=best)


def _wrong_stop(board: _Board, start: int, king: bool, stops: tuple[int, ...], routes: list[tuple[int, ...]],
                best: int, kind: str, at: int, captured: tuple[int, ...]) -> Refusal:
    """Why the piece, on ``at`` after jumping ``captured``, can't go on to the next stop (``kind``: what
    :func:`_segment` found wrong, or "step")."""
    if captured:
        too_few = _too_few(board, at, king, captured, best)
        if too_few is not None:
            return too_few
        if kind != "jump-twice" and not board.jumps(at, king, captured):
            return _refusal("capture-over")
    for r in routes:  # the stops skip part of a legal capture, or stop where it goes on
        if _is_subsequence(stops, r[1:]) and stops[-1] != r[-1]:
            if not king and board.on_crown_row(stops[-1]) and not board.variant.promotion_ends_capture:
                return _refusal("stays-man-goes-on")
            return _refusal("keep-jumping")
    if captured and kind in _PLAIN_MOVES:
        return _refusal("keep-jumping")  # mid-capture, only a jump goes on
    if kind == "step":
        if best:
            return _refusal("must-capture-no-step") if routes else _stuck(board, start, king, best)
        return _refusal("step-ends-move", king)  # a legal step with more stops after it
    if not routes and best and not captured and kind in _PLAIN_MISTAKES:
        return _stuck(board, start, king, best)  # it may not move at all
    return _refusal(kind, king)

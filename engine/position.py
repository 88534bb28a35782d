"""Positions (immutable, hashable, picklable), moves, PDN FEN in and out, move text in and out."""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import numpy as np

from . import _board
from ._movegen import CROWNED, MAX_MOVES, MAX_PATH, MAX_ROUTES, generate, make_move, new_scratch
from .notation import InvalidSquareError, format_square, parse_square
from .variants import Color, Variant


class InvalidFenError(ValueError):
    """A FEN string that can't be read; the message quotes it (``fen``) and says what is wrong
    (``problem``, words that a player can read too)."""

    def __init__(self, problem: str, fen: str | None = None):
        super().__init__(problem if fen is None else f"bad FEN {fen!r}: {problem}")
        self.fen = fen
        self.problem = problem


class IllegalMoveError(ValueError):
    """Move text that is unreadable, illegal or ambiguous in the position; the message quotes it."""


class Piece(NamedTuple):
    color: Color
    king: bool


@dataclass(frozen=True)
class Move:
    """A legal move. Its identity is (start, end, captured): what perft counts and two routes with the
    same captures and the same end share. ``path`` is one route (start, every landing square, end) and
    ``routes`` all of them, for animation and for entering a capture square by square.

    ``crowned`` is part of the identity too: where a man crowned in the middle of a capture goes on as a
    king (Russian draughts), a route that passed the crowning row and one that did not can end on the
    same square with the same pieces taken, one a king and the other a man. It is set only for the
    king ending off the crowning row (a man ending on it is crowned anyway)."""

    start: int
    end: int
    captured: tuple[int, ...]  # captured squares, ascending
    path: tuple[int, ...] = field(compare=False)
    routes: tuple[tuple[int, ...], ...] = field(compare=False, repr=False)
    crowned: bool = False

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)


@dataclass(frozen=True)
class Position:
    """A board and the side to move. ``white``, ``black`` and ``kings`` are bitboards in the layout of
    ``engine._board`` (use :meth:`pieces` or :meth:`piece_at` to read squares)."""

    variant: Variant
    white: int
    black: int
    kings: int
    turn: Color

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def initial(cls, variant: Variant) -> "Position":
        return cls.from_fen(variant, variant.start_fen)

    @classmethod
    def from_fen(cls, variant: Variant, fen: str) -> "Position":
        """Read PDN FEN such as ``W:W31-50:B1-20`` (``K`` before a king, ranges allowed, the two lists
        in either order, an optional trailing period)."""
        text = fen.strip()
        if text.endswith("."):
            text = text[:-1]
        parts = [p.strip() for p in text.split(":")]
        if len(parts) != 3 or parts[0].upper() not in ("W", "B"):
            raise InvalidFenError("expected 'TURN:W<squares>:B<squares>' with TURN W or B (the side to move, then each "
                                  "side's squares, as in B:W21-32:B1-12)", fen)
        turn = Color.WHITE if parts[0].upper() == "W" else Color.BLACK
        boards = {}
        for part in parts[1:]:
            if not part or part[0].upper() not in ("W", "B"):
                raise InvalidFenError(f"the piece list {part!r} must start with W or B (whose pieces they are)", fen)
            color = Color.WHITE if part[0].upper() == "W" else Color.BLACK
            if color in boards:
                raise InvalidFenError(f"it lists the {color.label} pieces twice", fen)
            boards[color] = _parse_piece_list(variant, fen, part[1:])
        (white, white_kings), (black, black_kings) = boards[Color.WHITE], boards[Color.BLACK]
        both = white & black
        if both:
            sq = _board.squares_of(variant, both)[0]
            raise InvalidFenError(f"square {sq} holds a white and a black piece", fen)
        _, masks, _, _ = _board.layout(variant)
        for color, men, crowning in ((Color.WHITE, white & ~white_kings, masks[_board.M_PROMO_WHITE]),
                                     (Color.BLACK, black & ~black_kings, masks[_board.M_PROMO_BLACK])):
            if men & int(crowning):
                sq = _board.squares_of(variant, men & int(crowning))[0]
                raise InvalidFenError(f"a {color.label} man on square {sq}, on {color.label}'s crowning row (it would "
                                      "be a king)", fen)
        return cls(variant, white, black, white_kings | black_kings, turn)

    @classmethod
    def from_pieces(cls, variant: Variant, pieces: Mapping[int, Piece], turn: Color) -> "Position":
        """A board set up square by square (a position editor), with nothing checked: a man may stand
        on its own crowning row, where a player may put one before being told why it can't be played
        from there. ``Position.from_fen(variant, p.fen())`` checks it; InvalidSquareError names a
        number that is not a square of the board."""
        white = black = kings = 0
        for square, piece in pieces.items():
            if not 1 <= square <= variant.squares:
                raise InvalidSquareError(f"square {square} is not on the {variant.title} board (1-{variant.squares})")
            bit = 1 << _board.number_bit(variant, square)
            if piece.color is Color.WHITE:
                white |= bit
            else:
                black |= bit
            if piece.king:
                kings |= bit
        return cls(variant, white, black, kings, turn)

    def fen(self) -> str:
        """PDN FEN, men as ranges where consecutive, kings with K."""
        turn = "W" if self.turn is Color.WHITE else "B"
        return f"{turn}:W{self._fen_list(self.white)}:B{self._fen_list(self.black)}"

    def _fen_list(self, side: int) -> str:
        items = []
        men = _board.squares_of(self.variant, side & ~self.kings)
        i = 0
        while i < len(men):
            j = i
            while j + 1 < len(men) and men[j + 1] == men[j] + 1:
                j += 1
            items.append((men[i], f"{men[i]}-{men[j]}" if j > i + 1 else str(men[i])))
            if j == i + 1:
                items.append((men[j], str(men[j])))
            i = j + 1
        items += [(sq, f"K{sq}") for sq in _board.squares_of(self.variant, side & self.kings)]
        return ",".join(text for _, text in sorted(items))

    # --- reading the board --------------------------------------------------------------------

    def piece_at(self, square: int) -> Piece | None:
        """The piece on ``square`` (a number 1-32 or 1-50), or None when it is empty; InvalidSquareError
        names a number that is not a square of the board."""
        if not 1 <= square <= self.variant.squares:
            raise InvalidSquareError(f"square {square} is not on the {self.variant.title} board "
                                     f"(1-{self.variant.squares})")
        bit = 1 << _board.number_bit(self.variant, square)
        if not (self.white | self.black) & bit:
            return None
        return Piece(Color.WHITE if self.white & bit else Color.BLACK, bool(self.kings & bit))

    def pieces(self) -> dict[int, Piece]:
        """Every piece on the board by square number."""
        out = {}
        for color, side in ((Color.WHITE, self.white), (Color.BLACK, self.black)):
            for sq in _board.squares_of(self.variant, side):
                out[sq] = Piece(color, sq in self._king_squares)
        return dict(sorted(out.items()))

    @cached_property
    def _king_squares(self) -> frozenset[int]:
        return frozenset(_board.squares_of(self.variant, self.kings))

    def count(self, color: Color) -> tuple[int, int]:
        """(men, kings) of one side."""
        side = self.white if color is Color.WHITE else self.black
        return (side & ~self.kings).bit_count(), (side & self.kings).bit_count()

    # --- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move, one per (start, end, captured), in generation order."""
        return self._moves

    @cached_property
    def _moves(self) -> tuple[Move, ...]:
        rules, masks, nbr, _ = _board.layout(self.variant)
        us, them = (self.white, self.black) if self.turn is Color.WHITE else (self.black, self.white)
        scratch, capstk, out_from, out_to, out_cap, routes, route_len = _work_buffers()
        n = generate(np.uint64(us), np.uint64(them), np.uint64(self.kings), int(self.turn), rules, masks, nbr, True,
                     scratch, capstk, out_from, out_to, out_cap, routes, route_len)
        assert n <= MAX_ROUTES, f"more than {MAX_ROUTES} capture routes in {self.fen()}"
        square = _board.square_table(self.variant)
        crowned_bit = int(CROWNED)
        grouped: dict[tuple, list[tuple[int, ...]]] = {}
        # plain lists: indexing them is much cheaper than indexing numpy arrays element by element
        for row, length, cap in zip(routes[:n].tolist(), route_len[:n].tolist(), out_cap[:n].tolist(), strict=True):
            route = tuple([square[b] for b in row[:length]])
            captured = tuple(_board.squares_of(self.variant, cap & ~crowned_bit))
            grouped.setdefault((route[0], route[-1], captured, bool(cap & crowned_bit)), []).append(route)
        assert len(grouped) <= MAX_MOVES
        return tuple(Move(s, e, c, rs[0], tuple(rs), crowned) for (s, e, c, crowned), rs in grouped.items())

    def play(self, move: Move) -> "Position":
        """The position after ``move`` (which must be one of :meth:`legal_moves`)."""
        if move not in self._moves_set:
            raise IllegalMoveError(f"{self.move_text(move)!r} is not a legal move in {self.fen()}")
        sq_bit = lambda sq: _board.number_bit(self.variant, sq)  # noqa: E731
        cap = int(CROWNED) if move.crowned else 0
        for sq in move.captured:
            cap |= 1 << sq_bit(sq)
        _, masks, _, _ = _board.layout(self.variant)
        w, b, k = make_move(np.uint64(self.white), np.uint64(self.black), np.uint64(self.kings), int(self.turn),
                            sq_bit(move.start), sq_bit(move.end), np.uint64(cap), masks)
        return Position(self.variant, int(w), int(b), int(k), self.turn.opponent)

    @cached_property
    def _moves_set(self) -> frozenset[Move]:
        return frozenset(self._moves)

    def has_capture(self) -> bool:
        """Whether the side to move must capture."""
        return any(m.captured for m in self._moves)

    # --- move text ----------------------------------------------------------------------------

    def move_text(self, move: Move, numeric: bool | None = None) -> str:
        """``11-15`` / ``22x15`` (numbers) or ``c3-d4`` / ``c3xe5`` (algebraic; by default the rule set's
        custom, ``Variant.algebraic_notation``), a capture with the rule set's separator (``c3:e5`` in
        Russian draughts); the full route when another legal move has the same start and end."""
        if numeric is None:
            numeric = not self.variant.algebraic_notation
        name = lambda sq: format_square(self.variant, sq, numeric)  # noqa: E731
        if not move.captured:
            return f"{name(move.start)}-{name(move.end)}"
        ambiguous = sum(1 for m in self._moves if m.start == move.start and m.end == move.end) > 1
        squares = move.path if ambiguous else (move.start, move.end)
        return self.variant.capture_separator.join(name(sq) for sq in squares)

    def parse_move(self, text: str) -> Move:
        """The legal move that ``text`` names: short form when unambiguous (``11-15``, ``15x24``), the
        route (``15x24x31``), or algebraic (``c3-d4``); IllegalMoveError says why not."""
        tokens = [t for t in re.split(r"\s*[-x×:]\s*", text.strip().lower())]
        if len(tokens) < 2 or any(not t for t in tokens):
            raise IllegalMoveError(f"can't read move {text!r}: write it like 11-15, 22x15 or c3-d4")
        try:
            squares = [parse_square(self.variant, t) for t in tokens]
        except InvalidSquareError as err:
            raise IllegalMoveError(f"can't read move {text!r}: {err}") from None
        start, end, between = squares[0], squares[-1], squares[1:-1]
        matches = [m for m in self._moves if m.start == start and m.end == end
                   and (not between or any(_is_subsequence(between, r[1:-1]) for r in m.routes))]
        if len(matches) > 1:  # a complete route names its move exactly, even when a longer one contains it
            exact = [m for m in matches if tuple(squares) in m.routes]
            if len(exact) == 1:
                return exact[0]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            legal = ", ".join(self.move_text(m) for m in self._moves) or "none"
            raise IllegalMoveError(f"{text!r} is not a legal move here ({self.turn.label.capitalize()} to move; "
                                   f"legal: {legal})")
        options = " or ".join("x".join(map(str, m.path)) for m in matches)
        raise IllegalMoveError(f"{text!r} is ambiguous: it could be {options}; give the route")


_WORK = threading.local()


def _work_buffers() -> tuple[np.ndarray, ...]:
    """The arrays ``generate`` writes into, allocated once per thread (the kernel doesn't need them
    cleared): (scratch, capstk, out_from, out_to, out_cap, routes, route_len)."""
    buffers = getattr(_WORK, "buffers", None)
    if buffers is None:
        scratch, capstk = new_scratch()
        buffers = _WORK.buffers = (scratch, capstk, np.zeros(MAX_ROUTES, dtype=np.int64),
                                   np.zeros(MAX_ROUTES, dtype=np.int64), np.zeros(MAX_ROUTES, dtype=np.uint64),
                                   np.zeros((MAX_ROUTES, MAX_PATH), dtype=np.int64), np.zeros(MAX_ROUTES, dtype=np.int64))
    return buffers


def _is_subsequence(needle, hay) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


_FEN_ITEM = re.compile(r"(K?)(\d+)(?:-(\d+))?")
_FEN_NAMED = re.compile(r"([Kk]?)([a-jA-J](?:10|[1-9]))")


def _parse_piece_list(variant: Variant, fen: str, text: str) -> tuple[int, int]:
    """(pieces, kings) bitboards of one FEN list such as ``31-50`` or ``K3,7,11-13``."""
    pieces = kings = 0
    if not text.strip():
        return 0, 0
    for item in text.split(","):
        item = item.strip()
        named = _FEN_NAMED.fullmatch(item)
        m = named or _FEN_ITEM.fullmatch(item.upper())
        if not m:
            raise InvalidFenError(f"{item!r} is not a square (write squares like 12, K12 for a king, 1-20 or c3)", fen)
        if named:  # an algebraic square (PDN FEN of a rule set with algebraic notation: Ka1, c3)
            try:
                first = last = parse_square(variant, named.group(2))
            except InvalidSquareError as err:
                raise InvalidFenError(str(err), fen) from None
        else:
            first = int(m.group(2))
            last = int(m.group(3)) if m.group(3) else first
        if not (1 <= first <= last <= variant.squares):
            raise InvalidFenError(f"{item!r} is not within squares 1-{variant.squares} of the {variant.title} board", fen)
        for sq in range(first, last + 1):
            bit = 1 << _board.number_bit(variant, sq)
            pieces |= bit
            if m.group(1):
                kings |= bit
    return pieces, kings

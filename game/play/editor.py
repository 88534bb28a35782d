"""The position editor's board: pieces placed and removed by hand, the side to move, and the check
that says whether a game can be played from it.

A :class:`Setup` is a value, like a position: each change returns a new one. It may hold what no
game can (a man on its crowning row, too many pieces): the board shows it as it is, and
:meth:`Setup.check` says why "Play from here" refuses it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from engine import Color, Variant, square_coords, square_name

if TYPE_CHECKING:
    from engine import Piece, Position


class Tool(enum.Enum):
    """What a press on the board does: put that piece there (a press on the same piece takes it away),
    or take away whatever is there. The keys 1-4 and 0 (or Delete) choose them."""

    BLACK_MAN = "Black man"
    BLACK_KING = "Black king"
    WHITE_MAN = "White man"
    WHITE_KING = "White king"
    ERASE = "Remove"

    @property
    def piece(self) -> Piece | None:
        """The piece this tool puts down (None: it takes pieces away)."""
        if self is Tool.ERASE:
            return None
        from engine import Piece

        color, kind = self.value.split()
        return Piece(Color[color.upper()], kind == "king")


@dataclass(frozen=True)
class Check:
    """What :meth:`Setup.check` found: ``problems`` keep a game from being played from the position
    (each says why); ``notes`` are allowed, but said."""

    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def is_playable(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Setup:
    """A board being set up: ``pieces`` by square number, and the side to move."""

    variant: Variant
    pieces: MappingProxyType[int, Piece] = field(default_factory=lambda: MappingProxyType({}))
    turn: Color = Color.WHITE

    @classmethod
    def of(cls, position: Position) -> Setup:
        return cls(position.variant, MappingProxyType(dict(position.pieces())), position.turn)

    @classmethod
    def start(cls, variant: Variant) -> Setup:
        from engine import Position

        return cls.of(Position.initial(variant))

    @classmethod
    def empty(cls, variant: Variant, turn: Color | None = None) -> Setup:
        return cls(variant, MappingProxyType({}), variant.first_player if turn is None else turn)

    # --- changes --------------------------------------------------------------------------------

    def put(self, square: int, piece: Piece | None) -> Setup:
        """``piece`` on ``square`` (None: the square emptied)."""
        pieces = dict(self.pieces)
        if piece is None:
            pieces.pop(square, None)
        else:
            pieces[square] = piece
        return Setup(self.variant, MappingProxyType(dict(sorted(pieces.items()))), self.turn)

    def press(self, square: int, tool: Tool) -> Setup:
        """A press on ``square`` with ``tool``: its piece put there, or taken away when that very piece
        is there already (so a second press undoes the first)."""
        piece = tool.piece
        return self.put(square, None if piece is None or self.pieces.get(square) == piece else piece)

    def with_turn(self, turn: Color) -> Setup:
        return Setup(self.variant, self.pieces, turn)

    # --- reading --------------------------------------------------------------------------------

    def position(self) -> Position:
        """The board as a position, checked for nothing (what the board shows)."""
        from engine import Position

        return Position.from_pieces(self.variant, self.pieces, self.turn)

    def fen(self) -> str:
        return self.position().fen()

    def count(self, color: Color) -> int:
        return sum(1 for p in self.pieces.values() if p.color is color)

    def crowning_squares(self, color: Color) -> frozenset[int]:
        """The squares of ``color``'s crowning row (the far side's first row): square 1's row for
        White, the last square's for Black, as PDN numbers the board."""
        v = self.variant
        rank = square_coords(v, 1 if color is Color.WHITE else v.squares)[1]
        return frozenset(sq for sq in range(1, v.squares + 1) if square_coords(v, sq)[1] == rank)

    def check(self, numeric: bool = False) -> Check:
        """Whether a game can be played from this board, and why not: no man may stand on its own
        crowning row (it would have been crowned), and no side may have more pieces than it starts
        with. A side to move without a move is allowed (the game is over at once), and said. Squares
        are named as the player's notation names them: c3 (algebraic), or with ``numeric`` by
        their numbers ("square 32")."""
        v = self.variant
        problems: list[str] = []
        for color in (v.first_player, v.first_player.opponent):
            crowned = sorted(sq for sq, p in self.pieces.items()
                             if p.color is color and not p.king and sq in self.crowning_squares(color))
            if crowned:
                if numeric:
                    where = f"{'square' if len(crowned) == 1 else 'squares'} {_listed(map(str, crowned))}"
                else:
                    where = _listed(sorted(square_name(v, sq) for sq in crowned))
                problems.append(f"A {v.side_name(color).lower()} man on {where}, {v.side_name(color)}'s crowning row: "
                                "it would be a king")
            most = v.rows_of_men * v.row_width
            if self.count(color) > most:
                problems.append(f"{v.side_name(color)} has {self.count(color)} pieces: at most {most}, "
                                "the pieces a side starts with")
        if problems:
            return Check(tuple(problems))
        notes: list[str] = []
        if not self.position().legal_moves():
            winner = v.side_name(self.turn.opponent)
            notes.append(f"{v.side_name(self.turn)}, to move, has no move: the game is over at once "
                         f"({winner} wins)")
        return Check((), tuple(notes))


def _listed(names) -> str:
    """'a', 'a and b', 'a, b and c'."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

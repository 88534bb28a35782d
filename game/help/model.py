"""What a help page is made of: pages, sections, diagrams, the lines drawn on a diagram, keys.

Plain frozen data, so the Rules and Controls screens, the "?" overlay and the text preview
(``python -m game.help``) all read the same thing, and tests can check every diagram against the
engine. Squares are square numbers (as in :class:`engine.Position`); the content is written with
algebraic names (``c3``), read through :func:`named_fen`, :func:`route` and :func:`squares`.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import Color, Variant, parse_square

if TYPE_CHECKING:  # engine.position loads numba: the pages themselves don't need it
    from engine.position import Move, Position


class Style(enum.Enum):
    """How a line is drawn on a diagram."""

    PATH = "path"  # a legal move drawn like the game's last move: the orange path, red rings on captures
    ARROW = "arrow"  # another legal move, as an arrow
    REFUSED = "refused"  # what the rules don't allow (crossed out); never a legal move


class Claim(enum.Enum):
    """What a diagram's caption says about one of its lines; the tests check each claim."""

    ONLY = "only"  # the only legal move in the position
    MAXIMUM = "maximum"  # a capture that takes the most pieces, while another capture takes fewer
    FEWER = "fewer"  # a legal capture although another capture takes more (American free choice)
    CROWNS = "crowns"  # the man that moves ends as a king
    STAYS_MAN = "stays-man"  # the man passes its crowning row during the capture and ends as a man
    CROWNED_GOES_ON = "crowned-goes-on"  # the man is crowned on its crowning row mid-capture and jumps on as a king
    WINS = "wins"  # afterwards the opponent has no legal move


@dataclass(frozen=True)
class Line:
    """One move drawn on a diagram: ``route`` is the start and every square where the piece stops."""

    route: tuple[int, ...]
    style: Style = Style.PATH
    claims: frozenset[Claim] = frozenset()

    @property
    def start(self) -> int:
        return self.route[0]

    @property
    def stops(self) -> tuple[int, ...]:
        return self.route[1:]


@dataclass(frozen=True)
class Diagram:
    """A small board for one rule: a position, the moves to draw on it, marked squares and a caption.

    ``rings`` are gold rings on pieces (as the game marks the pieces that must capture); ``marks``
    tint squares (a row, a diagonal). ``complete``: the legal lines drawn are all the legal moves of
    the pieces they start from (the caption then says "can move to these squares")."""

    fen: str
    caption: str
    lines: tuple[Line, ...] = ()
    rings: frozenset[int] = frozenset()
    marks: frozenset[int] = frozenset()
    complete: bool = False

    def position(self, variant: Variant) -> Position:
        from engine.position import Position

        return Position.from_fen(variant, self.fen)

    def move(self, variant: Variant, line: Line) -> Move:
        """The legal move a PATH or ARROW line draws, its path set to the line's route; ValueError if
        the route is no route of a legal move."""
        if line.style is Style.REFUSED:
            raise ValueError(f"line {line.route} is drawn as refused, not as a move")
        for move in self.position(variant).legal_moves():
            if line.route in move.routes:
                return dataclasses.replace(move, path=line.route)
        raise ValueError(f"route {line.route} is not a legal move in {self.fen}")


@dataclass(frozen=True)
class Section:
    """One rule (or one group of controls): a stable ``id`` that other code opens the page at, a
    title, short paragraphs, and diagrams."""

    id: str
    title: str
    paragraphs: tuple[str, ...]
    diagrams: tuple[Diagram, ...] = ()

    @property
    def text(self) -> str:
        """The title, paragraphs and captions as one string (for searching and for tests)."""
        return "\n".join((self.title, *self.paragraphs, *(d.caption for d in self.diagrams)))


@dataclass(frozen=True)
class Key:
    """A key the game handles: ``label`` as the player reads it, what it does, and how the input layer
    recognises it: pygame key constants (by name, so this package needs no pygame), or ``text``, the
    character the key types (for "?", which sits on different keys in different layouts)."""

    label: str
    action: str
    pygame_keys: tuple[str, ...]
    text: str = ""


@dataclass(frozen=True)
class Page:
    """A help page: Rules of one game, or Controls."""

    id: str
    title: str
    sections: tuple[Section, ...]
    keys: tuple[Key, ...] = ()  # the Controls page's key table

    def section(self, section_id: str) -> Section:
        """The section with that id; KeyError names an unknown one."""
        for s in self.sections:
            if s.id == section_id:
                return s
        raise KeyError(f"no section {section_id!r} on the {self.title} page")

    @property
    def section_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sections)


# --- writing content with square names ------------------------------------------------------------

def squares(variant: Variant, names: str) -> tuple[int, ...]:
    """Square numbers from names separated by spaces: ``"c3 d4"``."""
    return tuple(parse_square(variant, n) for n in names.split())


def board_fen(variant: Variant, turn: Color, white: str = "", black: str = "") -> str:
    """PDN FEN from algebraic names, ``K`` before a king: ``board_fen(AMERICAN, Color.BLACK, "d4 Kf6", "c3")``."""
    def items(names: str) -> str:
        return ",".join(("K" if n.startswith("K") else "") + str(parse_square(variant, n.removeprefix("K")))
                        for n in names.split())
    return f"{'W' if turn is Color.WHITE else 'B'}:W{items(white)}:B{items(black)}"


def named_fen(variant: Variant, text: str) -> str:
    """PDN FEN from a FEN with square names, ``K`` before a king: ``"B:Wd4,Kf6:Bc3"``."""
    turn, *lists = text.split(":")
    pieces = {part[:1].upper(): part[1:].replace(",", " ") for part in lists}
    if turn not in ("W", "B") or set(pieces) != {"W", "B"}:
        raise ValueError(f"bad FEN {text!r}: expected 'TURN:W<squares>:B<squares>' with TURN W or B")
    return board_fen(variant, Color.WHITE if turn == "W" else Color.BLACK, pieces["W"], pieces["B"])


def route(variant: Variant, text: str, style: Style = Style.PATH, *claims: Claim) -> Line:
    """A line from move text with square names, ``"c3-d4"`` or ``"c3xe5xc7"``."""
    names = text.replace("-", " ").replace("x", " ").split()
    return Line(tuple(parse_square(variant, n) for n in names), style, frozenset(claims))

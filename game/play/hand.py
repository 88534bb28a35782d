"""The player's hand on the board: selecting a piece, entering a multi-capture, dragging, the keyboard
cursor, and why the rules refuse an attempt.

Selection follows the specification ("Controls on this page") to the letter:

* press one of your pieces: it is selected and its landing squares get green dots; press a dot to move;
* pressing another piece selects that one instead; pressing the selected piece again deselects it,
  unless it has a capture that goes round and returns to its own square: then pressing it plays that
  capture (press outside the board to deselect);
* when a capture is compulsory a press on a piece that cannot capture explains "When you can
  capture, you must capture"; every refused attempt says why in the words of the rules
  (``game.help.explain_refusal``), and the notice names the Rules section to open
  (:attr:`Controller.notice_rule <game.play.machine.Controller.notice_rule>`);
* a multi-capture is entered by pressing the squares to stop on in order; as soon as one route
  remains, the rest plays itself; pressing the final square (green ring) first plays the move when
  only one route leads there; "Deselect" (or Esc) cancels a capture partly entered.

The hand owns its state (``selected``, ``entered``, ``dragging``, the keyboard ``cursor`` and whether
it shows, whether the board is ``flipped``), which the renderer and the panel read; it is given what
it needs to know of the game (the moves the player may make now, the position) and returns what
else follows (a move for the machine to play, a refusal explained) as a :class:`Step`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import Color, coords_square
from game.help import explain_refusal
from game.play.effects import Explain, PlayMove, Say, Step, illegal

if TYPE_CHECKING:
    from engine import Move, Position, Variant
    from game.modes import Mode

# the specification's words for a press on a piece that can't capture while another can: the refusal
# that game.help gives then begins with them
WHEN_YOU_CAN_CAPTURE = "When you can capture, you must capture"
NOTHING = Step()


class Hand:
    """The player's hand on the board (see the module's docstring). ``legal``, where a method takes it,
    is the moves the player may make now (none on the opponent's turn)."""

    def __init__(self) -> None:
        self.selected: int | None = None
        self.entered: tuple[int, ...] = ()  # landing squares pressed so far in a capture
        self.dragging: int | None = None
        self.cursor: tuple[int, int] = (2, 0)  # (file, rank) of a dark square in the first player's frame
        self.cursor_visible = False
        self.flipped = False  # the board seen from the second player's side

    # --- what the board shows -------------------------------------------------------------------

    @staticmethod
    def capturers(legal: tuple[Move, ...]) -> frozenset[int]:
        """Squares of the pieces that can capture, when a capture is compulsory (gold base rings)."""
        return frozenset(m.start for m in legal if m.captured)

    def _routes(self, legal: tuple[Move, ...]) -> list[tuple[tuple[int, ...], Move]]:
        """Routes of the selected piece that agree with the squares entered so far."""
        if self.selected is None:
            return []
        n = len(self.entered)
        return [(r, m) for m in legal if m.start == self.selected for r in m.routes
                if r[1:n + 1] == self.entered and len(r) > n + 1]

    def targets(self, legal: tuple[Move, ...]) -> frozenset[int]:
        """Green dots: the next squares to stop on."""
        return frozenset(r[len(self.entered) + 1] for r, _ in self._routes(legal))

    def final_rings(self, legal: tuple[Move, ...]) -> frozenset[int]:
        """Green rings: where a multi-capture still ahead ends (press it to play when only one leads there)."""
        n = len(self.entered)
        return frozenset(r[-1] for r, _ in self._routes(legal) if len(r) > n + 2)

    def entered_path(self) -> tuple[int, ...]:
        """The selected square and the squares entered so far (drawn as a route in progress)."""
        return (self.selected,) + self.entered if self.selected is not None else ()

    def near_color(self, variant: Variant, mode: Mode | None) -> Color:
        """The side whose pieces are at the near edge of the board (the bottom of the table)."""
        base = mode.human if mode is not None and mode.human is not None else variant.first_player
        return base.opponent if self.flipped else base

    def second_side_near(self, variant: Variant, mode: Mode | None) -> bool:
        """Whether the board is turned 180 degrees (the second player's pieces near)."""
        return self.near_color(variant, mode) is not variant.first_player

    @staticmethod
    def home_cursor(variant: Variant, near: Color) -> tuple[int, int]:
        """A dark square in the middle of the near edge, where ``near``'s pieces start."""
        rank = 0 if near is variant.first_player else variant.size - 1
        file = variant.size // 2 - 1
        return (file if coords_square(variant, file, rank) is not None else file + 1), rank

    def cursor_square(self, variant: Variant) -> int | None:
        return coords_square(variant, *self.cursor)

    @staticmethod
    def is_own_piece(position: Position | None, square: int | None) -> bool:
        """Whether a piece of the side to move stands on ``square``."""
        if square is None or position is None:
            return False
        piece = position.piece_at(square)
        return piece is not None and piece.color is position.turn

    # --- what the player does -------------------------------------------------------------------

    def start_drag(self, square: int, legal: tuple[Move, ...], position: Position) -> Step:
        if legal and self.is_own_piece(position, square) and not (self.selected == square and self.entered):
            self.dragging = square
            if self.selected != square:
                return self.select(square, legal, position)[1]
        return NOTHING

    def drop(self, start: int, square: int | None, legal: tuple[Move, ...], position: Position) -> Step:
        self.dragging = None
        if not legal or square == start:
            return NOTHING
        if self.selected != start:
            selected, step = self.select(start, legal, position)
            if not selected:
                return step
        if square is None:
            return illegal(None)
        accepted, step = self._press_target(square, legal)
        if not accepted:
            return self.refuse(position, start, self.entered + (square,), "That piece can't move there")
        return step

    def move_cursor(self, dx: int, dy: int, variant: Variant, second_side_near: bool) -> None:
        """The cursor keeps to the dark squares: left and right jump to the next dark square of the row,
        up and down step to the next row, alternating to either side so it keeps to its column."""
        if not self.cursor_visible:
            self.cursor_visible = True
            return
        sign = -1 if second_side_near else 1
        n = variant.size
        f, r = self.cursor
        if dx:
            candidates = [(f + 2 * sign * dx, r)]
        else:
            r2 = r + sign * dy
            side = 1 if f % 2 == 0 else -1
            candidates = [(f + side, r2), (f - side, r2)]
        for cf, cr in candidates:
            if 0 <= cf < n and 0 <= cr < n and coords_square(variant, cf, cr) is not None:
                self.cursor = (cf, cr)
                return

    def press(self, square: int | None, outside: bool, legal: tuple[Move, ...], position: Position) -> Step:
        """A press on the board while the player may move (``legal`` not empty)."""
        if outside:
            self.deselect()
            return NOTHING
        if self.selected is not None and square is not None:
            accepted, step = self._press_target(square, legal)
            if accepted:
                return step
        if self.selected is not None and square == self.selected:
            self.deselect()
        elif square is not None and self.is_own_piece(position, square):
            return self.select(square, legal, position)[1]
        elif self.selected is not None:
            # a square the selected piece can't stop on: say why; a capture partly entered stays
            step = NOTHING
            if square is not None:
                step = self.refuse(position, self.selected, self.entered + (square,),
                                   "Press the next square to stop on, or Deselect")
            if not self.entered:
                self.deselect()
            return step
        elif square is not None and position.piece_at(square) is not None:
            return self.refuse(position, square, ())  # the other side's piece
        return NOTHING

    def select(self, square: int, legal: tuple[Move, ...], position: Position) -> tuple[bool, Step]:
        """Select one of the mover's pieces; explains why not when it has no legal move."""
        if not any(m.start == square for m in legal):
            return False, self.refuse(position, square, (), "That piece has no legal move")
        self.selected, self.entered = square, ()
        return True, Step(effects=(Say(None),))

    def _press_target(self, square: int, legal: tuple[Move, ...]) -> tuple[bool, Step]:
        """Press ``square`` with a piece selected: the next stop of a route, or the final square of
        exactly one move. Returns whether it was accepted, and what follows."""
        routes = self._routes(legal)
        step = len(self.entered) + 1
        following = [(r, m) for r, m in routes if r[step] == square]
        if following:
            self.entered += (square,)
            remaining = [(r, m) for r, m in following if len(r) > step + 1]
            done = [(r, m) for r, m in following if len(r) == step + 1]
            moves = {m for _, m in following}
            if done and not remaining:
                return True, Step(effects=(PlayMove(done[0][1], done[0][0]),))
            if len(moves) == 1:
                route, move = following[0]
                return True, Step(effects=(PlayMove(move, route),))
            return True, Step(effects=(Say(None),))
        ending = [(r, m) for r, m in routes if r[-1] == square]
        if not ending:
            return False, NOTHING
        if len({m for _, m in ending}) == 1:
            return True, Step(effects=(PlayMove(ending[0][1], ending[0][0]),))
        return True, illegal("More than one route ends there: press the squares to stop on in order")

    def deselect(self) -> None:
        self.selected, self.entered, self.dragging = None, (), None

    @staticmethod
    def refuse(position: Position, start: int, stops: tuple[int, ...], otherwise: str | None = None) -> Step:
        """The rules refuse moving the piece on ``start`` to ``stops`` (none: selecting it): the notice
        says why in the words of the rules, and names the section of the Rules that explains it
        (``otherwise`` if the explanation finds the attempt allowed after all)."""
        return Step(effects=(Explain(explain_refusal(position, start, stops), otherwise),))

    def home(self, variant: Variant, near: Color) -> None:
        """A new game's keyboard cursor: hidden until an arrow key, on the player's near edge."""
        self.cursor = self.home_cursor(variant, near)
        self.cursor_visible = False


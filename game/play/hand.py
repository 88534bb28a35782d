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

The state it works on (``selected``, ``entered``, ``dragging``, ``cursor``) is the controller's, which
the renderer and the panel read.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from engine import Color, coords_square
from game.help import explain_refusal
from game.modes import Mode
from game.play.phases import AwaitingDrawAnswer, Editing, HumanToMove, InGame, OpponentToMove, Reviewing, Screen

if TYPE_CHECKING:
    from engine import Move, Variant
    from engine.game import Game
    from game.play.machine import Controller

# the specification's words for a press on a piece that can't capture while another can: the refusal
# that game.help gives then begins with them
WHEN_YOU_CAN_CAPTURE = "When you can capture, you must capture"


class Hand:
    """The player's hand on the controller's board (see the module's docstring)."""

    def __init__(self, c: Controller) -> None:
        self.c = c

    def capturers(self) -> frozenset[int]:
        """Squares of the pieces that can capture, when a capture is compulsory (gold base rings)."""
        return frozenset(m.start for m in self.c.legal_moves() if m.captured)

    def _routes(self) -> list[tuple[tuple[int, ...], Move]]:
        """Routes of the selected piece that agree with the squares entered so far."""
        if self.c.selected is None:
            return []
        n = len(self.c.entered)
        return [(r, m) for m in self.c.legal_moves() if m.start == self.c.selected for r in m.routes
                if r[1:n + 1] == self.c.entered and len(r) > n + 1]

    def targets(self) -> frozenset[int]:
        """Green dots: the next squares to stop on."""
        return frozenset(r[len(self.c.entered) + 1] for r, _ in self._routes())

    def final_rings(self) -> frozenset[int]:
        """Green rings: where a multi-capture still ahead ends (press it to play when only one leads there)."""
        n = len(self.c.entered)
        return frozenset(r[-1] for r, _ in self._routes() if len(r) > n + 2)

    def entered_path(self) -> tuple[int, ...]:
        """The selected square and the squares entered so far (drawn as a route in progress)."""
        return (self.c.selected,) + self.c.entered if self.c.selected is not None else ()

    def near_color(self) -> Color:
        """The side whose pieces are at the near edge of the board (the bottom of the table)."""
        mode = self.c.mode
        base = mode.human if mode is not None and mode.human is not None else self.c.variant.first_player
        return base.opponent if self.c.flipped else base

    def second_side_near(self) -> bool:
        """Whether the board is turned 180 degrees (the second player's pieces near)."""
        return self.near_color() is not self.c.variant.first_player

    @staticmethod
    def home_cursor(variant: Variant, near: Color) -> tuple[int, int]:
        """A dark square in the middle of the near edge, where ``near``'s pieces start."""
        rank = 0 if near is variant.first_player else variant.size - 1
        file = variant.size // 2 - 1
        return (file if coords_square(variant, file, rank) is not None else file + 1), rank

    def cursor_square(self) -> int | None:
        return coords_square(self.c.variant, *self.c.cursor)

    def is_own_piece(self, square: int | None) -> bool:
        """Whether a piece of the side to move stands on ``square``."""
        game = self.c.game
        if square is None or game is None:
            return False
        piece = game.position.piece_at(square)
        return piece is not None and piece.color is game.turn

    def _not_your_turn(self, square: int | None) -> None:
        """A press on one of the player's pieces while they can't move: say who is to (it would
        otherwise do nothing at all)."""
        p, game = self.c.turn_phase, self.c.game
        piece = game.position.piece_at(square) if game is not None and square is not None else None
        if piece is None or not isinstance(p, InGame) or piece.color is not p.mode.human:
            return
        if isinstance(p, (OpponentToMove, AwaitingDrawAnswer)):
            self.c.notice = "It's your friend's turn" if p.mode.vs_friend else "Wait: the computer is thinking"
        elif isinstance(p, HumanToMove) and p.mode.vs_friend:
            self.c.notice = "Not connected to the room: you can move once the connection is back"

    def start_drag(self, square: int) -> None:
        if self.c.is_human_turn() and self.is_own_piece(square) and not (self.c.selected == square and self.c.entered):
            self.c.dragging = square
            if self.c.selected != square:
                self.select(square)

    def drop(self, start: int, square: int | None) -> None:
        self.c.dragging = None
        if not self.c.is_human_turn() or square == start:
            return
        if self.c.selected != start and not self.select(start):
            return
        if square is None:
            self.c.illegal(None)
        elif not self._press_target(square):
            self.refuse(start, self.c.entered + (square,), "That piece can't move there")

    def move_cursor(self, dx: int, dy: int) -> None:
        """The cursor keeps to the dark squares: left and right jump to the next dark square of the row,
        up and down step to the next row, alternating to either side so it keeps to its column."""
        if self.c.screen not in (Screen.GAME, Screen.EDITOR):
            return
        if not self.c.cursor_visible:
            self.c.cursor_visible = True
            return
        sign = -1 if self.second_side_near() else 1
        n, v = self.c.variant.size, self.c.variant
        f, r = self.c.cursor
        if dx:
            candidates = [(f + 2 * sign * dx, r)]
        else:
            r2 = r + sign * dy
            side = 1 if f % 2 == 0 else -1
            candidates = [(f + side, r2), (f - side, r2)]
        for cf, cr in candidates:
            if 0 <= cf < n and 0 <= cr < n and coords_square(v, cf, cr) is not None:
                self.c.cursor = (cf, cr)
                return

    def press(self, square: int | None, outside: bool) -> None:
        if isinstance(self.c.phase, Editing):
            if square is not None and not outside:
                setup = self.c.phase.setup.press(square, self.c.phase.tool)
                self.c.phase = dataclasses.replace(self.c.phase, setup=setup)
            return
        if isinstance(self.c.phase, Reviewing) and square is not None and self.is_own_piece(square):
            self.c.notice = "This is a review: press “Play from here” to play on from this position"
            return
        if not self.c.is_human_turn():
            self._not_your_turn(square)
            return
        if outside:
            self.deselect()
            return
        if self.c.selected is not None and square is not None and self._press_target(square):
            return
        if self.c.selected is not None and square == self.c.selected:
            self.deselect()
        elif square is not None and self.is_own_piece(square):
            self.select(square)
        elif self.c.selected is not None:
            # a square the selected piece can't stop on: say why; a capture partly entered stays
            if square is not None:
                self.refuse(self.c.selected, self.c.entered + (square,), "Press the next square to stop on, or Deselect")
            if not self.c.entered:
                self.deselect()
        elif square is not None and self.c.game is not None and self.c.game.position.piece_at(square) is not None:
            self.refuse(square, ())  # the other side's piece

    def select(self, square: int) -> bool:
        """Select one of the mover's pieces; explains why not when it has no legal move."""
        moves = [m for m in self.c.legal_moves() if m.start == square]
        if not moves:
            self.refuse(square, (), "That piece has no legal move")
            return False
        self.c.selected, self.c.entered, self.c.notice = square, (), None
        return True

    def _press_target(self, square: int) -> bool:
        """Press ``square`` with a piece selected: the next stop of a route, or the final square of
        exactly one move. Returns whether it was accepted."""
        routes = self._routes()
        step = len(self.c.entered) + 1
        following = [(r, m) for r, m in routes if r[step] == square]
        if following:
            self.c.entered += (square,)
            remaining = [(r, m) for r, m in following if len(r) > step + 1]
            done = [(r, m) for r, m in following if len(r) == step + 1]
            moves = {m for _, m in following}
            if done and not remaining:
                self.c.play(done[0][1], done[0][0])
            elif len(moves) == 1:
                route, move = following[0]
                self.c.play(move, route)
            else:
                self.c.notice = None
            return True
        ending = [(r, m) for r, m in routes if r[-1] == square]
        if not ending:
            return False
        if len({m for _, m in ending}) == 1:
            self.c.play(ending[0][1], ending[0][0])
        else:
            self.c.illegal("More than one route ends there: press the squares to stop on in order")
        return True

    def deselect(self) -> None:
        self.c.selected, self.c.entered, self.c.dragging = None, (), None

    def refuse(self, start: int, stops: tuple[int, ...], otherwise: str | None = None) -> None:
        """The rules refuse moving the piece on ``start`` to ``stops`` (none: selecting it): the notice
        says why in the words of the rules, and names the section of the Rules that explains it
        (``otherwise`` if the explanation finds the attempt allowed after all)."""
        game = self.c.game
        assert game is not None, "a refusal needs a game"
        self.c.refusal = explain_refusal(game.position, start, stops)
        self.c.illegal(self.c.refusal.message if self.c.refusal is not None else otherwise)

    def home(self, game: Game, mode: Mode) -> None:
        """A new game's keyboard cursor: hidden until an arrow key, on the player's near edge."""
        variant = game.variant
        self.c.cursor = self.home_cursor(variant, mode.human if mode.human is not None else variant.first_player)
        self.c.cursor_visible = False

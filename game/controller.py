"""The play state machine: what a press, a key or a button does, computer turns, undo and offers.

Intents come in (from ``game.input`` and the panel), :meth:`Controller.handle` applies them, and the
renderer and the panel read the controller's state (``selected``, :meth:`Controller.targets`,
:meth:`Controller.status` ...). Nothing here touches a window, so it is tested without one.

Selection follows the specification ("Controls on this page") to the letter:

* press one of your pieces: it is selected and its landing squares get green dots; press a dot to move;
* pressing another piece selects that one instead; pressing the selected piece again deselects it,
  unless it has a capture that goes round and returns to its own square: then pressing it plays that
  capture (press outside the board to deselect);
* when a capture is compulsory a press on a piece that cannot capture explains "When you can
  capture, you must capture";
* a multi-capture is entered by pressing the squares to stop on in order; as soon as one route
  remains, the rest plays itself; pressing the final square (green ring) first plays the move when
  only one route leads there; "Deselect" (or Esc) cancels a capture partly entered.

The computer's moves come from an *opponent* client (``engine.worker`` in the game, a test double in
tests) that never blocks: :meth:`Controller.update` polls it once a frame.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine import Color, coords_square, variant_named
from engine.variants import Variant

if TYPE_CHECKING:  # at run time engine.game loads with the first game: the mode screen needs no numba
    from engine import Move, Position
    from engine.game import Game, Outcome

LEVELS = ("easy", "medium", "hard")

MUST_CAPTURE = "You must capture"
WHEN_YOU_CAN_CAPTURE = "When you can capture, you must capture"

_REASONS = {
    "no_moves": "{loser} has no move left",
    "resignation": "{loser} resigned",
    "agreement": "draw agreed",
    "repetition": "the same position occurred 3 times",
    "move_limit": "{limit} moves each without a man moved or a capture",
    "endgame_rule": "the endgame move limit was reached",
}


# --- intents ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SquarePressed:
    """A press on the board (3D board or the "Button controls" table). ``square`` is a playable square
    number, or None for a light square; ``outside`` is True for a press that missed the board."""

    square: int | None
    outside: bool = False


@dataclass(frozen=True)
class DragStarted:
    """The pointer went down on ``square`` and moved: the piece there follows the pointer."""

    square: int


@dataclass(frozen=True)
class PieceDropped:
    """A dragged piece was released over ``square`` (None: off the board or a light square)."""

    start: int
    square: int | None


@dataclass(frozen=True)
class Deselect:
    """The "Deselect" button: drop the selection and any capture partly entered."""


@dataclass(frozen=True)
class Cancel:
    """Esc: close a question, else take back a capture partly entered, else deselect."""


@dataclass(frozen=True)
class CursorMove:
    """Arrow keys: move the keyboard cursor one square, ``dx`` right and ``dy`` up *on the screen*."""

    dx: int
    dy: int


@dataclass(frozen=True)
class CursorPress:
    """Enter or Space on the board: press the square under the cursor."""


@dataclass(frozen=True)
class PlayMoveFromList:
    """A press on one of the "Legal moves"."""

    move: Move


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class OfferDraw:
    """Toggles "Offer a draw with your next move"."""


@dataclass(frozen=True)
class AcceptDraw:
    pass


@dataclass(frozen=True)
class Resign:
    """Asks for confirmation first; :class:`ConfirmResign` concedes."""


@dataclass(frozen=True)
class ConfirmResign:
    pass


@dataclass(frozen=True)
class PlayAgain:
    """A new game with the same rules and the same way of playing."""


@dataclass(frozen=True)
class ChangeMode:
    """Back to the mode screen."""


@dataclass(frozen=True)
class ChooseRules:
    variant: str  # "american" | "international"


@dataclass(frozen=True)
class StartGame:
    """From the mode screen: ``level`` None is "2 players on this device"."""

    level: str | None
    play_second: bool = False


@dataclass(frozen=True)
class ContinueSaved:
    """Resume the saved game offered on the mode screen."""


@dataclass(frozen=True)
class FlipBoard:
    pass


@dataclass(frozen=True)
class SetView:
    view: str  # "angled" | "top"


@dataclass(frozen=True)
class ToggleSetting:
    """Flip a boolean setting or step a choice (``name`` is a :class:`Settings` field)."""

    name: str


# --- the computer opponent ------------------------------------------------------------------------

@dataclass(frozen=True)
class ComputerMove:
    """The computer's reply: its move, and whether it offers a draw with it."""

    move: Move
    offer_draw: bool = False


@dataclass(frozen=True)
class DrawAnswer:
    """The computer's answer to a draw offer."""

    accept: bool


@dataclass(frozen=True)
class EngineStatus:
    """Progress of the engine worker start (kernels compiling); ``ready`` once it can search."""

    text: str
    ready: bool = False


class Opponent(Protocol):
    """What the controller needs from the computer. Nothing blocks: replies arrive from :meth:`poll`."""

    def request_move(self, game: Game, level: str) -> None: ...

    def ask_draw(self, game: Game, level: str) -> None: ...

    def cancel(self) -> None: ...

    def poll(self) -> list[ComputerMove | DrawAnswer | EngineStatus]: ...


# --- settings and results ---------------------------------------------------------------------------

@dataclass
class Settings:
    """What the player chose; stored between runs by ``game.storage``."""

    notation: str = "algebraic"  # "algebraic" (c3-d4) | "numeric" (11-15)
    square_numbers: bool = False  # standard numbers on the dark squares of the board
    animation_speed: str = "normal"  # "slow" | "normal" | "fast"
    sound: bool = True
    view: str = "angled"  # "angled" | "top"
    variant: str = "american"  # the rules last chosen on the mode screen

    CHOICES = {"notation": ("algebraic", "numeric"), "animation_speed": ("slow", "normal", "fast"),
               "view": ("angled", "top"), "variant": ("american", "international")}


@dataclass(frozen=True)
class Mode:
    """How the game is played: against the computer at ``level`` with the player on ``human``, or two
    players on this device (``level`` None)."""

    level: str | None
    human: Color | None = None

    @property
    def vs_computer(self) -> bool:
        return self.level is not None

    @property
    def computer(self) -> Color | None:
        return self.human.opponent if self.human is not None else None


@dataclass(frozen=True)
class Played:
    """A move just played, for the animation: ``move.path`` is the route actually taken."""

    move: Move
    before: Position


# --- the controller ---------------------------------------------------------------------------------

@dataclass
class Controller:
    """The whole play state. ``storage`` (``game.storage.Storage`` or None) keeps the game, the results
    and the settings; ``opponent`` plays the computer's side."""

    opponent: Opponent | None = None
    storage: Any = None

    screen: str = "mode"  # "mode" | "game"
    settings: Settings = field(default_factory=Settings)
    game: Game | None = None
    mode: Mode | None = None
    selected: int | None = None
    entered: tuple[int, ...] = ()  # landing squares pressed so far in a capture
    dragging: int | None = None
    cursor: tuple[int, int] = (2, 0)  # (file, rank) of a dark square in the first player's frame
    cursor_visible: bool = False
    flipped: bool = False  # the board seen from the second player's side
    offer_armed: bool = False
    confirming_resign: bool = False
    notice: str | None = None  # a one-off explanation under the status line
    notes: list[str] = field(default_factory=list)  # messages from storage (files set aside ...)
    events: list[str] = field(default_factory=list)  # sounds to play: move capture crown illegal end
    played: Played | None = None
    thinking: bool = False  # waiting for the computer's move
    asking_draw: bool = False  # waiting for the computer's answer to our offer
    engine_status: str = ""
    engine_ready: bool = True
    _recorded: bool = False  # this game's result is in the results table
    _offer_answered: bool = False  # the computer has declined the offer pending now

    def __post_init__(self):
        if self.storage is not None:
            self.settings = self.storage.load_settings()
            self.notes.extend(self.storage.take_notes())

    # --- derived state --------------------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.game.variant if self.game is not None else variant_named(self.settings.variant)

    @property
    def position(self) -> Position | None:
        return self.game.position if self.game is not None else None

    @property
    def view(self) -> str:
        return self.settings.view

    def is_human_turn(self) -> bool:
        """Whether a person may move now (not the computer's turn, game not over)."""
        if self.game is None or self.game.is_over or self.screen != "game":
            return False
        return not self.mode.vs_computer or self.game.turn is self.mode.human

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the player may make now (empty on the computer's turn)."""
        return self.game.position.legal_moves() if self.is_human_turn() else ()

    def move_text(self, move: Move, position: Position | None = None) -> str:
        """A move as the notation setting writes it (``c3-d4`` / ``11-15``; ``x`` for a capture)."""
        pos = position or self.game.position
        return pos.move_text(move, numeric=self.settings.notation == "numeric")

    def capturers(self) -> frozenset[int]:
        """Squares of the pieces that can capture, when a capture is compulsory (gold base rings)."""
        return frozenset(m.start for m in self.legal_moves() if m.captured)

    def _routes(self) -> list[tuple[tuple[int, ...], Move]]:
        """Routes of the selected piece that agree with the squares entered so far."""
        if self.selected is None:
            return []
        n = len(self.entered)
        return [(r, m) for m in self.legal_moves() if m.start == self.selected for r in m.routes
                if r[1:n + 1] == self.entered and len(r) > n + 1]

    def targets(self) -> frozenset[int]:
        """Green dots: the next squares to stop on."""
        return frozenset(r[len(self.entered) + 1] for r, _ in self._routes())

    def final_rings(self) -> frozenset[int]:
        """Green rings: where a multi-capture still ahead ends (press it to play when only one leads there)."""
        n = len(self.entered)
        return frozenset(r[-1] for r, _ in self._routes() if len(r) > n + 2)

    def entered_path(self) -> tuple[int, ...]:
        """The selected square and the squares entered so far (drawn as a route in progress)."""
        return (self.selected,) + self.entered if self.selected is not None else ()

    def last_move(self) -> tuple[Move, Position] | None:
        """The last move of the game (with its route) and the position it was played in."""
        if self.game is None or not self.game.moves:
            return None
        move = self.game.moves[-1]
        if self.played is not None and self.played.move == move and self.played.before == self.game.positions[-2]:
            move = self.played.move  # the route the player actually entered
        return move, self.game.positions[-2]

    def offer_pending_for_player(self) -> bool:
        """Whether "Accept draw" should show: a draw is offered to the side a person plays now."""
        return self.is_human_turn() and self.game.pending_offer is not None and self.game.pending_offer is not self.game.turn

    def can_undo(self) -> bool:
        if self.game is None or self.screen != "game" or not self.game.moves:
            return False
        if self.game.outcome is not None and self.game.outcome.reason in ("resignation", "agreement"):
            return False
        if self.mode.vs_computer:
            return any(self.game.positions[i].turn is self.mode.human for i in range(len(self.game.moves)))
        return True

    def status(self) -> str:
        """The status line: whose turn, a compulsory capture, the computer thinking, the result."""
        if self.game is None:
            return "Choose the rules, then how to play"
        g = self.game
        if g.outcome is not None:
            return self._result_text(g.outcome)
        who = g.turn.label.capitalize()
        if self.mode.vs_computer:
            if g.turn is self.mode.computer:
                if not self.engine_ready:
                    return f"Computer ({who}) is getting ready… {self.engine_status}".rstrip()
                return f"Computer ({who}) is thinking…"
            text = f"Your move ({who})"
        else:
            text = f"{who} to move"
        if g.position.has_capture():
            text += " · " + MUST_CAPTURE
        if self.offer_pending_for_player():
            text += " · a draw is offered"
        return text

    def _result_text(self, outcome: Outcome) -> str:
        g = self.game
        winner = outcome.winner
        loser = winner.opponent if winner is not None else None
        reason = _REASONS.get(outcome.reason, outcome.reason).format(
            loser=loser.label.capitalize() if loser is not None else "",
            limit=g.variant.quiet_limit_moves)
        if winner is None:
            head = "Draw"
        elif self.mode.vs_computer:
            head = "You win" if winner is self.mode.human else "The computer wins"
        else:
            head = f"{winner.label.capitalize()} wins"
        return f"{head}: {reason}"

    def near_color(self) -> Color:
        """The side whose pieces are at the near edge of the board (the bottom of the table)."""
        base = self.mode.human if self.mode is not None and self.mode.human is not None else self.variant.first_player
        return base.opponent if self.flipped else base

    def second_side_near(self) -> bool:
        """Whether the board is turned 180 degrees (the second player's pieces near)."""
        return self.near_color() is not self.variant.first_player

    def _home_cursor(self) -> tuple[int, int]:
        """A dark square in the middle of the near edge."""
        n = self.variant.size
        rank = 0 if self.near_color() is self.variant.first_player else n - 1
        file = n // 2 - 1
        return (file if coords_square(self.variant, file, rank) is not None else file + 1), rank

    def cursor_square(self) -> int | None:
        return coords_square(self.variant, *self.cursor)

    # --- intents --------------------------------------------------------------------------------

    def handle(self, intent) -> None:
        """Apply one intent; unknown ones are ignored."""
        method = getattr(self, "_on_" + type(intent).__name__, None)
        if method is not None:
            method(intent)

    def _on_SquarePressed(self, i: SquarePressed) -> None:
        self._press(i.square, i.outside)

    def _on_DragStarted(self, i: DragStarted) -> None:
        if self.is_human_turn() and self.is_own_piece(i.square) and not (self.selected == i.square and self.entered):
            self.dragging = i.square
            if self.selected != i.square:
                self._select(i.square)

    def _on_PieceDropped(self, i: PieceDropped) -> None:
        self.dragging = None
        if not self.is_human_turn() or i.square == i.start:
            return
        if self.selected != i.start and not self._select(i.start):
            return
        if i.square is None or not self._press_target(i.square):
            self._illegal("That piece can't move there" if i.square is not None else None)

    def _on_Deselect(self, _i) -> None:
        self._deselect()
        self.notice = None

    def _on_Cancel(self, _i) -> None:
        self.notice = None
        if self.confirming_resign:
            self.confirming_resign = False
        elif self.entered:
            self.entered = ()
        else:
            self._deselect()

    def _on_CursorMove(self, i: CursorMove) -> None:
        """The cursor keeps to the dark squares: left and right jump to the next dark square of the row,
        up and down step to the next row, alternating to either side so it keeps to its column."""
        if self.screen != "game":
            return
        if not self.cursor_visible:
            self.cursor_visible = True
            return
        sign = -1 if self.second_side_near() else 1
        n, v = self.variant.size, self.variant
        f, r = self.cursor
        if i.dx:
            candidates = [(f + 2 * sign * i.dx, r)]
        else:
            r2 = r + sign * i.dy
            side = 1 if f % 2 == 0 else -1
            candidates = [(f + side, r2), (f - side, r2)]
        for cf, cr in candidates:
            if 0 <= cf < n and 0 <= cr < n and coords_square(v, cf, cr) is not None:
                self.cursor = (cf, cr)
                return

    def _on_CursorPress(self, _i) -> None:
        if self.screen == "game":
            self.cursor_visible = True
            self._press(self.cursor_square(), False)

    def _on_PlayMoveFromList(self, i: PlayMoveFromList) -> None:
        if i.move in self.legal_moves():
            self._play(i.move)

    def _on_Undo(self, _i) -> None:
        if not self.can_undo():
            return
        self.notice = None
        if self.game.outcome is not None:
            self._record_result(-1)
        if self.thinking or self.asking_draw:
            self.opponent.cancel()
            self.thinking = self.asking_draw = False
        self.game.undo()
        if self.mode.vs_computer:
            while self.game.moves and self.game.turn is not self.mode.human:
                self.game.undo()
        self._after_change()
        self.played = None
        self._save()
        self._start_computer_turn()

    def _on_OfferDraw(self, _i) -> None:
        if not self.is_human_turn():
            return
        if self.offer_armed:
            self.offer_armed = False
            return
        ok, reason = self.game.can_offer_draw()
        if ok:
            self.offer_armed = True
            self.notice = "Your draw offer goes with your next move"
        else:
            self._illegal(reason)

    def _on_AcceptDraw(self, _i) -> None:
        if self.offer_pending_for_player():
            self.notice = None
            self.game.accept_draw()
            self._after_change()
            self._game_ended_check()
            self._save()

    def _on_Resign(self, _i) -> None:
        if self.game is not None and not self.game.is_over and self.screen == "game":
            self.confirming_resign = True

    def _on_ConfirmResign(self, _i) -> None:
        if not self.confirming_resign or self.game.is_over:
            return
        self.confirming_resign = False
        self.notice = None
        if self.thinking or self.asking_draw:
            self.opponent.cancel()
            self.thinking = self.asking_draw = False
        self.game.resign(self.mode.human if self.mode.vs_computer else self.game.turn)
        self._after_change()
        self._game_ended_check()
        self._save()

    def _on_PlayAgain(self, _i) -> None:
        if self.mode is not None:
            self._new_game(self.variant, self.mode)

    def _on_ChangeMode(self, _i) -> None:
        self._stop_computer()
        self.screen = "mode"
        self.confirming_resign = False
        self._deselect()

    def _on_ChooseRules(self, i: ChooseRules) -> None:
        self.settings.variant = variant_named(i.variant).name
        self._save_settings()

    def _on_StartGame(self, i: StartGame) -> None:
        variant = variant_named(self.settings.variant)
        if i.level is None:
            mode = Mode(None)
        else:
            first = variant.first_player
            mode = Mode(i.level, first.opponent if i.play_second else first)
        self._new_game(variant, mode)

    def _on_ContinueSaved(self, _i) -> None:
        if self.game is not None and self.mode is not None:
            self.screen = "game"
            self._start_computer_turn()

    def _on_FlipBoard(self, _i) -> None:
        self.flipped = not self.flipped

    def _on_SetView(self, i: SetView) -> None:
        if i.view in Settings.CHOICES["view"]:
            self.settings.view = i.view
            self._save_settings()

    def _on_ToggleSetting(self, i: ToggleSetting) -> None:
        value = getattr(self.settings, i.name, None)
        if isinstance(value, bool):
            setattr(self.settings, i.name, not value)
        elif i.name in Settings.CHOICES:
            choices = Settings.CHOICES[i.name]
            setattr(self.settings, i.name, choices[(choices.index(value) + 1) % len(choices)])
        else:
            return
        self._save_settings()

    # --- pressing squares -----------------------------------------------------------------------

    def is_own_piece(self, square: int | None) -> bool:
        """Whether a piece of the side to move stands on ``square``."""
        if square is None or self.game is None:
            return False
        piece = self.game.position.piece_at(square)
        return piece is not None and piece.color is self.game.turn

    def _press(self, square: int | None, outside: bool) -> None:
        if not self.is_human_turn():
            return
        if outside:
            self._deselect()
            return
        if self.selected is not None and square is not None and self._press_target(square):
            return
        if self.selected is not None and square == self.selected:
            self._deselect()
        elif self.is_own_piece(square):
            self._select(square)
        elif self.selected is not None:
            if self.entered:
                self._illegal("Press the next square to stop on, or Deselect")
            else:
                self._deselect()

    def _select(self, square: int) -> bool:
        """Select one of the mover's pieces; explains why not when it has no legal move."""
        moves = [m for m in self.legal_moves() if m.start == square]
        if not moves:
            if self.game.position.has_capture():
                self._illegal(WHEN_YOU_CAN_CAPTURE)
            else:
                self._illegal("That piece has no legal move")
            return False
        self.selected, self.entered, self.notice = square, (), None
        return True

    def _press_target(self, square: int) -> bool:
        """Press ``square`` with a piece selected: the next stop of a route, or the final square of
        exactly one move. Returns whether it was accepted."""
        routes = self._routes()
        step = len(self.entered) + 1
        following = [(r, m) for r, m in routes if r[step] == square]
        if following:
            self.entered += (square,)
            remaining = [(r, m) for r, m in following if len(r) > step + 1]
            done = [(r, m) for r, m in following if len(r) == step + 1]
            moves = {m for _, m in following}
            if done and not remaining:
                self._play(done[0][1], done[0][0])
            elif len(moves) == 1:
                route, move = following[0]
                self._play(move, route)
            else:
                self.notice = None
            return True
        ending = [(r, m) for r, m in routes if r[-1] == square]
        if not ending:
            return False
        if len({m for _, m in ending}) == 1:
            self._play(ending[0][1], ending[0][0])
        else:
            self._illegal("More than one route ends there: press the squares to stop on in order")
        return True

    def _deselect(self) -> None:
        self.selected, self.entered, self.dragging = None, (), None

    def _illegal(self, text: str | None) -> None:
        if text:
            self.notice = text
        self.events.append("illegal")

    # --- playing moves --------------------------------------------------------------------------

    def _play(self, move: Move, route: tuple[int, ...] | None = None, offer: bool | None = None) -> None:
        """Play ``move`` for the side to move (along ``route`` when given)."""
        g = self.game
        before = g.position
        offer = self.offer_armed if offer is None else offer
        if route is not None:
            move = dataclasses.replace(move, path=route)
        from engine.game import DrawOfferError

        try:
            g.play(move, offer_draw=offer)
        except DrawOfferError as err:
            if self.is_human_turn():
                # the player asked for the offer: tell them and let them decide, the move is not played
                self.offer_armed = False
                self._deselect()
                self._illegal(f"{err} Your offer was withdrawn; make your move again.")
                return
            g.play(move)  # the computer's offer is just dropped
        piece = before.piece_at(move.start)
        crowned = not piece.king and g.position.piece_at(move.end).king
        self.played = Played(move, before)
        self.events.append("capture" if move.captured else "move")
        if crowned:
            self.events.append("crown")
        if offer and g.pending_offer is not None:
            self.notice = ("You offered a draw" if self.mode.vs_computer and before.turn is self.mode.human
                           else f"{before.turn.label.capitalize()} offers a draw")
        else:
            self.notice = None
        self.offer_armed = False
        self._after_change()
        self._game_ended_check()
        self._save()
        self._start_computer_turn()

    def _after_change(self) -> None:
        self._offer_answered = False
        self._deselect()
        self.confirming_resign = False
        self.offer_armed = False

    def _game_ended_check(self) -> None:
        if self.game.outcome is not None and not self._recorded:
            self.events.append("end")
            self._record_result(+1)

    def _record_result(self, delta: int) -> None:
        """Add (or, after undoing a finished game, take back) this game's result in the table."""
        if not self.mode.vs_computer or self.storage is None or self.game.outcome is None:
            self._recorded = delta > 0
            return
        if (delta > 0) == self._recorded:
            return
        winner = self.game.outcome.winner
        outcome = "draw" if winner is None else ("win" if winner is self.mode.human else "loss")
        self.storage.record_result(self.game.variant.name, self.mode.level, outcome, delta)
        self._recorded = delta > 0

    # --- the computer ---------------------------------------------------------------------------

    def _start_computer_turn(self) -> None:
        g = self.game
        if (self.screen != "game" or g is None or g.is_over or not self.mode.vs_computer or self.opponent is None
                or g.turn is not self.mode.computer or self.thinking or self.asking_draw):
            return
        if g.pending_offer is self.mode.human and not self._offer_answered:
            self.asking_draw = True
            self.opponent.ask_draw(g, self.mode.level)
        else:
            self.thinking = True
            self.opponent.request_move(g, self.mode.level)

    def _stop_computer(self) -> None:
        if (self.thinking or self.asking_draw) and self.opponent is not None:
            self.opponent.cancel()
        self.thinking = self.asking_draw = False

    def update(self) -> None:
        """Once a frame: take the computer's replies (never waits)."""
        if self.opponent is None:
            return
        for reply in self.opponent.poll():
            if isinstance(reply, EngineStatus):
                self.engine_status, self.engine_ready = reply.text, reply.ready
            elif isinstance(reply, DrawAnswer) and self.asking_draw:
                self.asking_draw = False
                if reply.accept:
                    self.game.accept_draw()
                    self.notice = "The computer accepted your draw offer"
                    self._game_ended_check()
                    self._save()
                else:
                    self.notice = "The computer declined your draw offer"
                    self._offer_answered = True
                    self._start_computer_turn()
            elif isinstance(reply, ComputerMove) and self.thinking:
                self.thinking = False
                if reply.move in self.game.position.legal_moves():
                    self._play(reply.move, reply.move.path, offer=reply.offer_draw)
                    if reply.offer_draw and self.game.pending_offer is self.mode.computer:
                        self.notice = "The computer offers a draw"

    # --- games, saving --------------------------------------------------------------------------

    def _new_game(self, variant: Variant, mode: Mode) -> None:
        from engine.game import Game

        self._stop_computer()
        self.game, self.mode = Game(variant), mode
        self.screen = "game"
        self.flipped = False
        self.played = None
        self.notice = None
        self._recorded = False
        self._after_change()
        self.cursor = self._home_cursor()
        self._save()
        self._start_computer_turn()

    def _save(self) -> None:
        if self.storage is None or self.game is None:
            return
        self.storage.save_game({
            "mode": {"level": self.mode.level, "human": self.mode.human.label if self.mode.human else None},
            "flipped": self.flipped,
            "game": self.game.to_dict(),
        })

    def _save_settings(self) -> None:
        if self.storage is not None:
            self.storage.save_settings(self.settings)

    def restore(self) -> bool:
        """Load the saved game in progress (if any and not finished) and show it; False if none."""
        if self.storage is None:
            return False
        data = self.storage.load_game(self._game_from_dict)
        self.notes.extend(self.storage.take_notes())
        if data is None:
            return False
        self.game, self.mode, self.flipped = data
        if self.game.is_over:
            return False
        self.screen = "game"
        self.settings.variant = self.game.variant.name
        self._recorded = False
        self._start_computer_turn()
        return True

    @staticmethod
    def _game_from_dict(d: dict):
        """(game, mode, flipped) from a saved game; ValueError when the content is not a saved game."""
        from engine.game import Game

        try:
            m = d["mode"]
            level, human = m["level"], m["human"]
            if level is not None and level not in LEVELS:
                raise ValueError(f"unknown level {level!r}")
            mode = Mode(level, Color[human.upper()] if human else None)
            if mode.vs_computer != (mode.human is not None):
                raise ValueError("a computer game needs the player's colour")
            return Game.from_dict(d["game"]), mode, bool(d.get("flipped", False))
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not a saved game: {err!r}") from None

    def close(self) -> None:
        """Stop the computer and let the last save reach the disk (saved after every move)."""
        self._stop_computer()
        if self.storage is not None:
            self.storage.flush()



class WorkerOpponent:
    """Adapts ``engine.worker.EngineClient`` to :class:`Opponent`.

    After each best move the worker is asked whether the computer offers a draw with it (only when the
    rules allow an offer then), so the move and its offer reach the game together."""

    def __init__(self, client):
        self.client = client
        self._games: dict[int, Game] = {}  # request id -> the game the question was about
        self._level = "medium"
        self._move_for_offer: dict[int, Move] = {}  # request id of an 'offer' question -> the move
        # until the worker's Ready, the status line says the computer is getting ready
        self._first: list = [] if client.is_ready else [EngineStatus("(preparing the engine)", False)]

    def request_move(self, game: Game, level: str) -> None:
        self._level = level
        self._games[self.client.request_move(game, level=level)] = game

    def ask_draw(self, game: Game, level: str) -> None:
        self.client.ask_draw(game, level, kind="accept")

    def cancel(self) -> None:
        self.client.cancel()
        self._games.clear()
        self._move_for_offer.clear()

    def poll(self) -> list[ComputerMove | DrawAnswer | EngineStatus]:
        from engine import worker

        out: list[ComputerMove | DrawAnswer | EngineStatus] = self._first
        self._first = []
        for reply in self.client.poll():
            if isinstance(reply, worker.Ready):
                out.append(EngineStatus("ready", True))
            elif isinstance(reply, worker.BestMove):
                game = self._games.pop(reply.request_id, None)
                if game is not None and game.can_offer_draw()[0]:
                    rid = self.client.ask_draw(game, self._level, kind="offer", last_score=reply.score)
                    self._move_for_offer[rid] = reply.move
                else:
                    out.append(ComputerMove(reply.move))
            elif isinstance(reply, worker.DrawAnswer):
                if reply.kind == "offer":
                    move = self._move_for_offer.pop(reply.request_id, None)
                    if move is not None:
                        out.append(ComputerMove(move, offer_draw=reply.answer))
                else:
                    out.append(DrawAnswer(reply.answer))
            elif isinstance(reply, worker.Error):
                # the computer can't answer (worker gone for good): a legal move keeps the game going
                game = self._games.pop(reply.request_id, None)
                move = self._move_for_offer.pop(reply.request_id, None)
                if move is not None:
                    out.append(ComputerMove(move))
                elif game is not None:
                    out.append(ComputerMove(game.position.legal_moves()[0]))
                else:
                    out.append(DrawAnswer(False))
        return out

    def close(self) -> None:
        self.client.close()

"""A game record: the moves played, undo, the outcome, every automatic draw, and draw offers.

The rules come from the specification (shared/seeds/000, "Rules and how to play", "International
Draughts (10x10) rules" and "Controls on this page"), which restates WCDF "English Rules" (2025) and
FMJD "Annex 1 - Official FMJD rules for international draughts" (2024), and for the other rule sets
from the sources ``engine/variants.py`` lists, each limit a field of the Variant table. The record
declares every draw itself; nobody has to claim one.

How the rules are counted here (a *ply* is one player's move; "N moves each" is 2N plies):

* **No moves** (specification, "Rules and how to play": "A player who has no piece that can move on
  their turn loses"; the same for International): no pieces left, or all of them blocked. This is
  checked first after every move, so a win on the last move within any limit is a win, not a draw.
* **Repetition** (WCDF 1.31, FMJD 6.2): the third occurrence of the same position with the same side
  to move draws (the fourth in Italian draughts: ``Variant.repetition_count``). Only positions since
  the record's start count (a FEN brings no history).
* **Quiet moves** (WCDF 1.32: 40 moves each; FMJD 6.3: 25 moves each; FMJD-64 7.2.5: 15): a draw once
  that many plies in a row have moved no man and captured nothing (the limit comes from
  ``Variant.quiet_limit_moves``). The count starts at zero at the record's start.
* **Endgame counts of Russian and Brazilian draughts and Pool checkers** (FMJD-64 7.2.4-7.2.8, APCA;
  ``_draws`` spells them out): three kings (or more) against a lone king, 1 or 2 pieces against it,
  3 pieces against a lone king on the main diagonal, and, where both sides have kings, 4-5 or 6-7
  pieces on the board with the balance of pieces unchanged. A capture or a crowning changes the
  balance and starts those counts afresh (but the 1-or-2-pieces count, which runs on).
* **Endgame rule** (FMJD 6.4 as the specification words it; International, limits from the
  ``Variant.lone_king_*`` fields). *A lone king* is a side whose only piece is one king. Against it:

  - "3 pieces" means exactly 3 pieces of which at least one is a king (3 kings, 2 kings + 1 man,
    1 king + 2 men): draw 16 moves each (32 plies) after the position in which that material first
    arose, i.e. when that position's ply count plus 32 is reached.
  - "2 pieces" means 2 kings, 1 king + 1 man, or 1 king: draw 5 moves each (10 plies) after that
    material arose.
  - Men do not stop either count: a man of the stronger side that moves (or is crowned, turning
    1 king + 2 men into 2 kings + 1 man) leaves the count running, because the material stays within
    the same group of the rule. Material the rule does not list (a lone king against men only,
    against 4 or more pieces, two kings against two kings, ...) runs no endgame count, and a count ends
    when the material leaves the groups; arriving again starts a fresh count.
  - Main diagonal: in a 3-against-1 ending, from the first position in which the lone king stands on
    the main diagonal (a1-j10: squares 46, 41, 37, 32, 28, 23, 19, 14, 10, 5) and the opponent has no
    piece on it, the draw comes 5 moves each (10 plies) later, whoever is to move there. The count,
    once started, runs on even if the king leaves the diagonal (the specification counts "from that
    position"); a later such position would only give a later limit, so the earliest one rules.
  - 3 becomes 2 (the lone king captures one of the 3): the draw comes 5 moves each after that
    position. Both 5-move counts are capped by the 16-move count that started earlier, so "capturing
    along the way does not extend the 16-move limit" (the 3-becomes-2 count by the draw already in
    force: the 16-move one, or the main diagonal's when that came first). Crowning 1 king + 1 man into
    2 kings, or the lone king taking one of 2 pieces, stays within the 2-piece group and keeps its count.

  The count is computed by one kernel, ``_draws.endgame_after``, which the search runs too.

  With one lone king against another (1 king vs 1 king) both are lone kings; the 5-move limit applies.

* **Draw offers** ("Controls on this page"): an offer rides on a move; the opponent accepts on their
  turn (:meth:`Game.accept_draw`) or declines by moving. Once a side's offer has been declined it may
  not offer again until a man has moved or a piece has been captured, by either side, *after* the
  offer's move; the move that carries a new offer doesn't count, so a side may offer again only after
  such a move without its offer has been played (the opponent's declining move counts if it moved a
  man or captured).

If one move makes several draws at once, the outcome names the first of repetition, move limit,
endgame rule.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from ._draws import NO_GROUP, NO_LIMIT, endgame_after, endgame_rule
from .position import IllegalMoveError, Move, Position
from .variants import Color, Variant, variant_named


class DrawOfferError(ValueError):
    """A draw offer (or an acceptance) that the rules don't allow now; the message says why."""


class GameOverError(IllegalMoveError):
    """A move, resignation or offer after the game has ended."""


class InvalidGameRecordError(ValueError):
    """A saved game (:meth:`Game.from_dict`) that can't be read or replayed; the message quotes it."""


class Reason(enum.StrEnum):
    """Why a game ended; the values are the words of the saved games and the command line."""

    NO_MOVES = "no_moves"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    REPETITION = "repetition"
    MOVE_LIMIT = "move_limit"
    ENDGAME_RULE = "endgame_rule"
    TIME = "time"  # the loser's clock ran out (an online game's, kept by the room server)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the ``winner`` (None for a draw) and the ``reason``."""

    winner: Color | None
    reason: Reason

    @property
    def result(self) -> str:
        """The result in words: ``'white'`` or ``'black'`` (the winner), or ``'draw'``."""
        return self.winner.label if self.winner is not None else "draw"

    def to_dict(self) -> dict:
        return {"result": self.result, "reason": self.reason.value}


def _endgame_after(before: tuple[int, int], ply: int, irreversible: bool, pos: Position) -> tuple[int, int]:
    """The endgame count (group, draw ply) at ``pos`` (ply index ``ply``): the kernel the search runs too."""
    group, draw_at = endgame_after(before[0], before[1], ply, irreversible, np.uint64(pos.white),
                                   np.uint64(pos.black), np.uint64(pos.kings), endgame_rule(pos.variant))
    return int(group), int(draw_at)


class Game:
    """A game from a start position: moves, positions, undo, outcome, automatic draws, draw offers.

    ``positions[0]`` is the start and ``positions[i + 1]`` the position after ``moves[i]``. Every
    per-ply fact is kept in a list indexed by ply so that :meth:`undo` is a pop, not a replay.
    """

    def __init__(self, variant: Variant, start: Position | None = None):
        if start is None:
            start = Position.initial(variant)
        elif start.variant != variant:
            raise ValueError(f"start position {start.fen()!r} is {start.variant.name}, not {variant.name}")
        self.variant = variant
        self.start = start
        self._moves: list[Move] = []
        self._offers: list[bool] = []  # _offers[i]: a draw offer rode on moves[i]
        self._positions: list[Position] = [start]
        self._quiet_from: list[int] = [0]  # ply index of the last man move or capture (0 at the start)
        self._last_offer: list[tuple[int, int]] = [(-1, -1)]  # index of each colour's last offering move
        # the endgame count (group, draw ply index) at each ply; (NO_GROUP, NO_LIMIT) where none runs
        self._endgame: list[tuple[int, int]] = [_endgame_after((NO_GROUP, NO_LIMIT), 0, True, start)]
        self._seen: dict[Position, int] = {start: 1}
        self._auto: list[Outcome | None] = [self._automatic_outcome(0)]
        self._ending: Outcome | None = None  # a resignation or agreement after the last move

    # --- reading the record ---------------------------------------------------------------------

    @property
    def moves(self) -> list[Move]:
        """The moves played, in order (a copy)."""
        return list(self._moves)

    @property
    def draw_offers(self) -> list[bool]:
        """Whether a draw offer rode on each move, in the order of :attr:`moves` (a copy)."""
        return list(self._offers)

    @property
    def positions(self) -> list[Position]:
        """The start and the position after each move (a copy)."""
        return list(self._positions)

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self._positions[-1].turn

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self._moves)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._ending or self._auto[-1]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def quiet_plies(self) -> int:
        """Plies since a man moved or a piece was captured (or since the start)."""
        return self.ply - self._quiet_from[-1]

    @property
    def plies_until_draw(self) -> int | None:
        """Plies left before the nearest automatic move-limit or endgame draw; None once the game is over.
        The move-limit count always runs, so while the game goes on there is always a number."""
        if self.is_over:
            return None
        left = 2 * self.variant.quiet_limit_moves - self.quiet_plies
        endgame = self.endgame_plies_left
        return left if endgame is None else min(left, endgame)

    @property
    def endgame_count(self) -> tuple[int, int] | None:
        """The endgame count running in the current position: (its group, as ``_draws.endgame_after``
        numbers it, plies left), or None when none runs. The search starts its own count from it."""
        group, draw_at = self._endgame[-1]
        return None if group == NO_GROUP else (group, draw_at - self.ply)

    @property
    def endgame_plies_left(self) -> int | None:
        """Plies left before the endgame rule's draw (see the module docstring), or None when no
        endgame count runs in the current position."""
        group, draw_at = self._endgame[-1]
        return None if group == NO_GROUP else draw_at - self.ply

    @property
    def moves_until_draw(self) -> int | None:
        """:attr:`plies_until_draw` in moves each, rounded up (what the side panel shows)."""
        plies = self.plies_until_draw
        return None if plies is None else math.ceil(plies / 2)

    def repetitions(self, position: Position | None = None) -> int:
        """How often ``position`` (default: the current one; the side to move is part of it) has
        occurred in this record."""
        return self._seen.get(self.position if position is None else position, 0)

    # --- playing --------------------------------------------------------------------------------

    def play(self, move: Move | str, offer_draw: bool = False) -> Move:
        """Play ``move`` (a legal :class:`Move` or move text such as ``11-15``), with a draw offer riding
        on it if ``offer_draw``. Returns the move played. Raises IllegalMoveError (GameOverError once
        the game has ended) or DrawOfferError, and then changes nothing."""
        self._check_not_over("no more moves can be played")
        pos = self.position
        if isinstance(move, str):
            move = pos.parse_move(move)
        elif isinstance(move, Move):
            move = self._legal(pos, move)
        else:
            raise TypeError(f"expected a Move or move text, got {move!r}")
        if offer_draw:
            allowed, why = self.can_offer_draw()
            if not allowed:
                raise DrawOfferError(why)
        mover = pos.turn
        after = pos.play(move)
        ply = len(self._moves) + 1
        moved = pos.piece_at(move.start)
        assert moved is not None  # a legal move starts on a piece
        man_moved = not moved.king
        self._moves.append(move)
        self._offers.append(bool(offer_draw))
        self._positions.append(after)
        self._quiet_from.append(ply if man_moved or move.is_capture else self._quiet_from[-1])
        last = list(self._last_offer[-1])
        if offer_draw:
            last[mover] = ply - 1
        self._last_offer.append((last[0], last[1]))
        self._endgame.append(_endgame_after(self._endgame[-1], ply, man_moved or move.is_capture, after))
        self._seen[after] = self._seen.get(after, 0) + 1
        self._auto.append(self._automatic_outcome(ply))
        return move

    def undo(self) -> Move:
        """Take back the last move, with a draw offer that rode on it; a game that that move ended, or
        that ended by resignation or agreement after it, goes on again. IndexError if no move was
        played."""
        if not self._moves:
            raise IndexError("no move to take back")
        self._ending = None
        after = self._positions.pop()
        if self._seen[after] == 1:
            del self._seen[after]
        else:
            self._seen[after] -= 1
        for per_ply in (self._offers, self._quiet_from, self._last_offer, self._endgame, self._auto):
            per_ply.pop()
        return self._moves.pop()

    def resign(self, color: Color) -> None:
        """``color`` resigns and loses."""
        self._check_not_over(f"{Color(color).label} can't resign")
        self._ending = Outcome(Color(color).opponent, Reason.RESIGNATION)

    def time_out(self, color: Color) -> None:
        """``color``'s clock ran out: it loses on time."""
        self._check_not_over(f"{Color(color).label} can't lose on time")
        self._ending = Outcome(Color(color).opponent, Reason.TIME)

    # --- draw offers ----------------------------------------------------------------------------

    @property
    def pending_offer(self) -> Color | None:
        """The side whose draw offer rode on the last move and awaits an answer, if any."""
        if self.is_over or not self._offers or not self._offers[-1]:
            return None
        return self._positions[-2].turn

    def accept_draw(self) -> None:
        """The side to move accepts the pending offer: the game is drawn by agreement."""
        outcome = self.outcome
        if outcome is not None:
            raise DrawOfferError(f"no draw to accept: the game is over ({outcome.reason})")
        if self.pending_offer is None:
            raise DrawOfferError(f"no draw to accept: {self.turn.opponent.label} made no offer with the last move")
        self._ending = Outcome(None, Reason.AGREEMENT)

    def can_offer_draw(self) -> tuple[bool, str]:
        """Whether the side to move may attach a draw offer to its next move, and if not, why not
        (an empty reason when it may)."""
        outcome = self.outcome
        if outcome is not None:
            return False, f"the game is over ({outcome.reason})"
        side = self.turn
        offered = self._last_offer[-1][side]
        # A man move or capture must come after the declined offer's move (index ``offered``) and
        # before the new offer's move; _quiet_from holds the ply after the latest such move.
        if offered >= 0 and self._quiet_from[-1] <= offered + 1:
            return False, (f"{side.label}'s draw offer was declined; {side.label} may offer again only after "
                           "a man has moved or a piece has been captured, by a move without the offer")
        return True, ""

    # --- saving ---------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The record as JSON-safe data: variant, start FEN, moves as text, the draw-offer flag of each
        move, and a resignation or agreement (and ``timed_out``, the side whose clock ran out, in a
        game lost on time). :meth:`from_dict` reads it back."""
        resigned = None
        if self._ending is not None and self._ending.reason is Reason.RESIGNATION:
            assert self._ending.winner is not None
            resigned = self._ending.winner.opponent.label
        record = {
            "variant": self.variant.name,
            "start": self.start.fen(),
            "moves": [pos.move_text(m) for pos, m in zip(self._positions, self._moves, strict=False)],
            "draw_offers": list(self._offers),
            "resigned": resigned,
            "draw_agreed": self._ending is not None and self._ending.reason is Reason.AGREEMENT,
        }
        if self._ending is not None and self._ending.reason is Reason.TIME:
            assert self._ending.winner is not None
            record["timed_out"] = self._ending.winner.opponent.label
        return record

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        """Rebuild a game from :meth:`to_dict` output, replaying and checking every move, offer,
        resignation and agreement; InvalidGameRecordError (a ValueError) quotes anything wrong."""
        if not isinstance(data, dict):
            raise InvalidGameRecordError(f"a saved game must be an object, not {data!r}")
        known = {"variant", "start", "moves", "draw_offers", "resigned", "draw_agreed", "timed_out"}
        if unknown := sorted(set(map(str, data)) - known):
            raise InvalidGameRecordError(f"saved game has unknown fields {unknown!r}")
        for key in ("variant", "start", "moves"):
            if key not in data:
                raise InvalidGameRecordError(f"saved game lacks {key!r}")
        name, fen, texts = data["variant"], data["start"], data["moves"]
        offers = data.get("draw_offers", [False] * len(texts) if isinstance(texts, list) else None)
        resigned, agreed, timed_out = data.get("resigned"), data.get("draw_agreed", False), data.get("timed_out")
        if not isinstance(name, str) or not isinstance(fen, str):
            raise InvalidGameRecordError(f"variant and start must be text, not {name!r} and {fen!r}")
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise InvalidGameRecordError(f"moves must be a list of move texts, not {texts!r}")
        if (not isinstance(offers, list) or len(offers) != len(texts)
                or not all(isinstance(o, bool) for o in offers)):
            raise InvalidGameRecordError(f"draw_offers must be {len(texts)} true/false flags, not {offers!r}")
        if (resigned not in (None, "white", "black") or timed_out not in (None, "white", "black")
                or not isinstance(agreed, bool) or sum(map(bool, (resigned, agreed, timed_out))) > 1):
            raise InvalidGameRecordError(f"bad ending: resigned={resigned!r}, draw_agreed={agreed!r}, "
                                         f"timed_out={timed_out!r}")
        try:
            variant = variant_named(name)
            game = cls(variant, Position.from_fen(variant, fen))
        except ValueError as err:
            raise InvalidGameRecordError(f"saved game: {err}") from None
        for number, (text, offer) in enumerate(zip(texts, offers, strict=False), start=1):
            try:
                game.play(text, offer_draw=offer)
            except ValueError as err:
                raise InvalidGameRecordError(f"saved game, move {number} {text!r}: {err}") from None
        try:
            if agreed:
                game.accept_draw()
            if resigned:
                game.resign(Color.WHITE if resigned == "white" else Color.BLACK)
            if timed_out:
                game.time_out(Color.WHITE if timed_out == "white" else Color.BLACK)
        except ValueError as err:
            raise InvalidGameRecordError(f"saved game, ending: {err}") from None
        return game

    # --- rules ----------------------------------------------------------------------------------

    def _check_not_over(self, what: str) -> None:
        o = self.outcome
        if o is not None:
            raise GameOverError(f"the game is over ({o.result}, {o.reason}): {what}")

    @staticmethod
    def _legal(pos: Position, move: Move) -> Move:
        """The legal move equal to ``move`` (so its path and routes are this position's)."""
        for legal in pos.legal_moves():
            if legal == move:
                return legal
        raise IllegalMoveError(f"{move.start}-{move.end} capturing {list(move.captured)} is not a legal move "
                               f"in {pos.fen()}")

    def _automatic_outcome(self, ply: int) -> Outcome | None:
        """What the rules declare at ply index ``ply`` (the last position): no-moves loss first."""
        pos = self._positions[ply]
        if not pos.legal_moves():
            return Outcome(pos.turn.opponent, Reason.NO_MOVES)
        if self._seen[pos] >= self.variant.repetition_count:
            return Outcome(None, Reason.REPETITION)
        if ply - self._quiet_from[ply] >= 2 * self.variant.quiet_limit_moves:
            return Outcome(None, Reason.MOVE_LIMIT)
        group, draw_at = self._endgame[ply]
        if group != NO_GROUP and ply >= draw_at:
            return Outcome(None, Reason.ENDGAME_RULE)
        return None

"""The engine beside the board: analysis of the position shown, a hint, and the scores of a whole game.

The controller asks an :class:`Analyst` (the engine's worker through ``WorkerAnalyst``; never
blocking, like ``game.opponent``) and reads what comes back with :meth:`Analyst.poll` once a frame.
Scores are the engine's centi-men (100 = one man) from the side to move's view; a forced win is
``MATE - plies``. The words and numbers a player reads (:func:`score_words`, :func:`men_ahead`,
:func:`winning_chance`) are here too, so the panel, the evaluation bar and the game report agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from engine import Color, Variant

if TYPE_CHECKING:
    from engine import Move, Position
    from engine.game import Game

# The engine's scores (engine.search.MATE, MATE_BOUND, EGDB_BOUND; repeated here so that the panel needs
# no numba)
MATE = 30000
MATE_BOUND = MATE - 1000
EGDB_BOUND = 19000  # beyond: a win or loss the endgame tables know (below MATE_BOUND: not counted in moves)
HINT_SECONDS = 1.5  # a hint searches as long as the Hard level does
REPORT_NODES = 60_000  # the game report's budget per position: a few seconds for a whole game
CHANCE_SCALE = 80.0  # centi-men: a man ahead is a winning chance of about 0.78 (see winning_chance)


@dataclass(frozen=True)
class Line:
    """What the engine thinks of a position after searching ``depth`` plies: the ``score``, the
    principal variation as move text, and its first move (``best``) to draw on the board."""

    depth: int
    score: int
    pv: tuple[str, ...]
    best: Move | None
    nodes: int = 0


# --- replies ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LineFound:
    """A depth of the analysis (or the hint) finished; ``final`` once it has ended (stopped, or the
    hint's time is up)."""

    line: Line
    final: bool = False


@dataclass(frozen=True)
class PositionScored:
    """One position of the game report: the position after ``ply`` moves scored ``score``, its best
    move ``best`` (empty where the game is over)."""

    ply: int
    score: int
    best: str


@dataclass(frozen=True)
class GameScored:
    """The game report's scores, one per position (the start, then after each move)."""

    scores: tuple[int, ...]
    best: tuple[str, ...]


@dataclass(frozen=True)
class AnalysisFailed:
    message: str


AnalystReply = LineFound | PositionScored | GameScored | AnalysisFailed


class Analyst(Protocol):
    """The engine as the analysis sees it. One request at a time: a new one replaces the last."""

    def analyze(self, game: Game, seconds: float | None = None) -> None:
        """Analyse the position of ``game`` until :meth:`stop` (or for ``seconds``: a hint)."""

    def analyze_game(self, game: Game) -> None:
        """Score every position of ``game``: PositionScored replies, then GameScored."""

    def stop(self) -> None:
        """Stop and forget what was asked; no reply to it comes any more."""

    def poll(self) -> list[AnalystReply]:
        """The replies since the last call, without waiting."""


class WorkerAnalyst:
    """An :class:`Analyst` on the engine's worker (``channel``: a ``game.computer.engine_link.Channel``)."""

    def __init__(self, channel: Any):
        self.channel = channel
        self._position: Position | None = None  # the position analysed, to read the moves of its lines

    def analyze(self, game: Game, seconds: float | None = None) -> None:
        from engine.search import Limits

        self.stop()
        self._position = game.position
        self.channel.analyze(game, Limits(movetime=seconds) if seconds is not None else None)

    def analyze_game(self, game: Game) -> None:
        from engine.search import Limits

        self.stop()
        self.channel.analyze_game(game, Limits(nodes=REPORT_NODES))

    def stop(self) -> None:
        self.channel.cancel()
        self._position = None

    def poll(self) -> list[AnalystReply]:
        from engine import worker

        out: list[AnalystReply] = []
        for reply in self.channel.poll():
            match reply:
                case worker.Info(depth=depth, score=score, pv=pv, nodes=nodes) if self._position is not None:
                    out.append(LineFound(Line(depth, score, pv, self._first_move(pv), nodes)))
                case worker.BestMove(depth=depth, score=score, pv=pv, nodes=nodes, move=move):
                    out.append(LineFound(Line(depth, score, pv or (reply.text,), move, nodes), final=True))
                case worker.PlyScore(ply=ply, score=score, best=best):
                    out.append(PositionScored(ply, score, best))
                case worker.GameScores(scores=scores, best=best):
                    out.append(GameScored(scores, best))
                case worker.Error(message=message):
                    out.append(AnalysisFailed(f"the engine failed: {message}"))
        return out

    def _first_move(self, pv: tuple[str, ...]) -> Move | None:
        if not pv or self._position is None:
            return None
        try:
            return self._position.parse_move(pv[0])
        except ValueError:
            return None


# --- what a player reads ---------------------------------------------------------------------------

def is_forced(score: int) -> bool:
    """Whether the score is a forced win or loss found by the search."""
    return abs(score) > MATE_BOUND


def is_known(score: int) -> bool:
    """Whether the score is a win or loss the endgame tables know (no number of moves to it)."""
    return EGDB_BOUND < abs(score) <= MATE_BOUND


def white_view(score: int, turn: Color) -> int:
    """A side-to-move score as White's (positive: White is better)."""
    return score if turn is Color.WHITE else -score


def winning_chance(score: int) -> float:
    """A score as a chance of winning for the side it favours, between 0 and 1: 0.5 when even, about
    0.78 a man ahead, 0.92 two men ahead, 1 for a forced win. The evaluation bar shows it and the game
    report counts a move's cost in it, so that a man given away in a game already lost (or won) is not
    a blunder."""
    if is_forced(score) or is_known(score):
        return 1.0 if score > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-score / CHANCE_SCALE))


def forced_moves(score: int) -> int:
    """The moves (of the winner) to a forced result."""
    return max(1, (MATE - abs(score) + 1) // 2)


def men_ahead(score: int) -> str:
    """A score as men ahead, ``+1.25`` or ``-0.50``; a forced result ``win in 12`` / ``loss in 12`` (moves)."""
    if is_forced(score):
        return f"{'win' if score > 0 else 'loss'} in {forced_moves(score)}"
    if is_known(score):
        return "win" if score > 0 else "loss"
    return f"{score / 100:+.2f}"


def score_words(score: int, turn: Color, variant: Variant) -> str:
    """A side-to-move score in a player's words: ``Black is 1.25 men ahead``, ``Even``, ``White wins in
    7 moves``."""
    ahead = turn if score > 0 else turn.opponent
    if is_forced(score):
        moves = forced_moves(score)
        return f"{variant.side_name(ahead)} wins in {moves} move{'s' if moves != 1 else ''}"
    if is_known(score):
        return f"{variant.side_name(ahead)} wins (endgame tables)"
    men = abs(score) / 100
    if men < 0.1:
        return "Even"
    return f"{variant.side_name(ahead)} is {men:.2f} {'man' if men == 1 else 'men'} ahead"

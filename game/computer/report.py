"""The game report: the engine's score of every position of a game, the moves that threw a lot away
marked ``?`` (a mistake) and ``??`` (a blunder), and the marks and scores written into the PDN.

A move's cost is what it lost against the engine's best move, counted in winning chances
(``game.computer.analysis.winning_chance``): the mover's chance before the move, by the engine's best, less
its chance after it. Counted so, a man given away from an even game is a blunder, half a man a
mistake, and nothing much is lost in a game already won or lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import Color

from .analysis import forced_moves, is_forced, men_ahead, white_view, winning_chance

if TYPE_CHECKING:
    from engine.game import Game
    from engine.pdn import PdnGame

MISTAKE = 0.12  # winning chance lost: half a man from an even game (0.5 -> 0.35)
BLUNDER = 0.25  # a man from an even game (0.5 -> 0.22)
GRAPH_CLAMP = 200  # centi-men: the graph shows scores up to 2 men either way (forced results at the edge)


@dataclass(frozen=True)
class GameReport:
    """Scores of the positions of a game: ``scores[i]`` (the side to move's view) and ``best[i]`` of
    the position after ``i`` moves, and ``turns[i]`` the side to move there; ``played_best[i]`` says
    whether move ``i`` was the engine's best. ``scores`` may stop short of the game's end while the
    report is being made."""

    scores: tuple[int, ...]
    best: tuple[str, ...]
    turns: tuple[Color, ...]
    played_best: tuple[bool, ...] = ()  # per move: it is the engine's best move there

    @classmethod
    def of(cls, game: Game, scores, best) -> GameReport:
        positions = game.positions
        agrees = []
        for ply, text in enumerate(best[:len(game.moves)]):
            try:
                agrees.append(bool(text) and positions[ply].parse_move(text) == game.moves[ply])
            except ValueError:
                agrees.append(False)
        return cls(tuple(scores), tuple(best), tuple(p.turn for p in positions[:len(scores)]), tuple(agrees))

    @property
    def plies(self) -> int:
        """Moves whose cost is known (both the position before and after them are scored)."""
        return max(0, len(self.scores) - 1)

    def white_score(self, ply: int) -> int:
        """The score of the position after ``ply`` moves, from White's view."""
        return white_view(self.scores[ply], self.turns[ply])

    def loss(self, index: int) -> float:
        """What move ``index`` (0-based) cost its player, in winning chance (0 for the best move)."""
        before = winning_chance(self.scores[index])
        after = 1.0 - winning_chance(self.scores[index + 1])
        return max(0.0, before - after)

    def mark(self, index: int) -> str:
        """``'??'``, ``'?'`` or ``''`` for move ``index`` (never for the engine's own best move: what
        it seems to lose then is the difference between two searches, not the move's)."""
        if index < len(self.played_best) and self.played_best[index]:
            return ""
        lost = self.loss(index)
        return "??" if lost >= BLUNDER else "?" if lost >= MISTAKE else ""

    def marks(self) -> dict[int, str]:
        """Move index -> mark, for the marked moves."""
        return {i: m for i in range(self.plies) if (m := self.mark(i))}

    def graph_points(self) -> list[float]:
        """White's score after each ply, between -1 and 1 (GRAPH_CLAMP centi-men or a forced result
        at either end), for the graph."""
        out = []
        for ply in range(len(self.scores)):
            s = self.white_score(ply)
            out.append(max(-1.0, min(1.0, (1.0 if s > 0 else -1.0) if is_forced(s) else s / GRAPH_CLAMP)))
        return out


def annotate(pdn: PdnGame, report: GameReport) -> PdnGame:
    """``pdn`` (the same game's moves) with the report in it: each scored move's mark, and a comment
    ``[%eval 0.35]`` with White's score after it in men (lidraughts' and lichess' form; ``#12`` / ``#-12``
    for a forced win in 12 moves), and after a marked move the engine's better move."""
    out = pdn
    for index in range(min(report.plies, len(pdn.moves))):
        score = report.white_score(index + 1)
        if is_forced(score):
            value = f"#{'' if score > 0 else '-'}{forced_moves(score)}"
        else:
            value = f"{score / 100:.2f}"
        comment = f"[%eval {value}]"
        mark = report.mark(index)
        if mark and report.best[index]:
            comment += f" better {report.best[index]} ({men_ahead(report.scores[index])})"
        out = out.annotate(index, mark=mark or None, comment=comment)
    return out

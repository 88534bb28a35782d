"""The engine beside the board: the analysis of the position shown, a hint, and the game report.

They come from an *analyst* (``game.computer.analysis``) on the computer's worker, which the controller lets
think only while the computer doesn't (it stops the one before it asks the other).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.computer.analysis import HINT_SECONDS, AnalysisFailed, GameScored, Line, LineFound, PositionScored
from game.play.phases import HumanToMove, Reviewing

if TYPE_CHECKING:
    from engine import Position
    from engine.game import Game
    from game.computer.report import GameReport
    from game.play.machine import Controller


@dataclass
class Study:
    """What the engine shows beside the board: the analysis of the position shown, or a hint.
    ``key`` says which position of which game (None while the analysis waits: ``note`` says why)."""

    kind: str  # "analysis" | "hint"
    key: tuple | None
    position: Position | None
    line: Line | None = None
    running: bool = False
    note: str | None = None


class Studies:
    """The analysis, hints and the game report of the controller's game."""

    def __init__(self, c: Controller) -> None:
        self.c = c
        self._report_moves: tuple = ()  # the moves report_game had when its report was asked for
        self._report_scores: list[int] = []
        self._report_best: list[str] = []

    def can_analyze(self) -> bool:
        """Whether "Analyze" can be turned on (a game on screen and an analyst)."""
        return self.c.analyst is not None and self.c.in_game is not None and not self.c.friend_play.in_friend_game()

    def can_hint(self) -> bool:
        p = self.c.phase
        return (self.c.analyst is not None and isinstance(p, HumanToMove) and p.mode.vs_computer
                and not self.c.report_running)

    def can_report(self) -> bool:
        """Whether "Analyze game" can run: a game with moves, and the computer not thinking."""
        game = self.c.game
        return (self.c.analyst is not None and self.c.in_game is not None and game is not None and bool(game.moves)
                and not self.c.waiting_for_opponent and not self.c.report_running and not self.c.friend_play.in_friend_game())

    def current_report(self) -> GameReport | None:
        """The game report of the game on screen, while its moves are still the ones analysed."""
        game = self.c.game
        if self.c.report is None or game is None or self.c.report_game is not game:
            return None
        if tuple(game.moves[:len(self._report_moves)]) != self._report_moves:
            return None  # moves taken back since
        return self.c.report

    def toggle_analysis(self) -> None:
        if self.c.analysis_on:
            self.c.analysis_on = False
            self.stop()
        elif self.can_analyze():
            self.c.analysis_on = True

    def hint(self) -> None:
        p = self.c.phase
        if not self.can_hint() or not isinstance(p, HumanToMove):
            return
        assert self.c.analyst is not None
        self.c.analyst.analyze(p.game, HINT_SECONDS)
        self.c.study = Study("hint", self._live_key(p.game), p.game.position, running=True)

    def analyze_game(self) -> None:
        game = self.c.game
        if not self.can_report() or game is None:
            return
        assert self.c.analyst is not None
        self.c.analyst.analyze_game(game)
        self.c.study = None
        self.c.report_game, self.c.report, self.c.report_running = game, None, True
        self._report_moves = tuple(game.moves)
        self._report_scores, self._report_best = [], []

    @staticmethod
    def _live_key(game: Game) -> tuple:
        return id(game), len(game.moves), game.position

    def _target(self) -> tuple | str:
        """(key, ply) of the position the analysis should look at, or why it waits."""
        p = self.c.in_game
        if p is None:
            return "No game to analyse"
        if self.c.waiting_for_opponent:
            return "The analysis waits while the computer thinks"
        if self.c.report_running:
            return "The analysis waits for the game report"
        ply = self.c.shown_ply()
        live = not isinstance(p, Reviewing)
        if p.mode.vs_friend and not p.game.is_over:
            return "No analysis during a game with your friend: once it is over"
        if live and p.mode.vs_computer and not p.game.is_over:
            return "In a game against the computer, ask for a Hint (or look back at earlier moves)"
        return (id(p.game), ply, p.game.positions[ply]), ply

    def follow(self) -> None:
        """Keep the analysis on the position shown (restarting it when that changes), drop a hint
        whose position is gone. Called after every intent and every reply."""
        if self.c.analyst is None:
            return
        study = self.c.study
        if study is not None and study.kind == "hint":
            p = self.c.phase
            if isinstance(p, HumanToMove) and study.key == self._live_key(p.game):
                return
            self.stop()
        if not self.c.analysis_on:
            return
        target = self._target()
        if isinstance(target, str):
            self.pause(target)
            return
        key, ply = target
        if study is not None and study.key == key:
            return
        from game.play.review import game_at

        shown = self.c.in_game
        assert shown is not None
        record = shown.game if ply == len(shown.game.moves) else game_at(shown.game, ply)
        if record.is_over:
            self.c.analyst.stop()
            self.c.study = Study("analysis", key, record.position, note="The game is over in this position")
            return
        self.c.analyst.analyze(record)
        self.c.study = Study("analysis", key, record.position, running=True)

    def stop(self) -> None:
        if self.c.study is not None and self.c.study.running and self.c.analyst is not None:
            self.c.analyst.stop()
        self.c.study = None

    def pause(self, why: str) -> None:
        """Stop the analyst (its requests forgotten), saying why, until it may think again."""
        if self.c.analyst is not None and (self.c.report_running or (self.c.study is not None and self.c.study.running)):
            self.c.analyst.stop()
        if self.c.report_running:
            self.c.report_running = False
            self.c.notice = "The game report was stopped: the computer is thinking"
        if self.c.analysis_on:
            self.c.study = Study("analysis", None, None, note=why)
        elif self.c.study is not None:
            self.c.study = None

    def on_answer(self, answer) -> None:
        match answer:
            case LineFound(line=line, final=final) if self.c.study is not None and self.c.study.running:
                self.c.study.line = line
                self.c.study.running = not final
            case PositionScored(score=score, best=best) if self.c.report_running and self.c.report_game is not None:
                from game.computer.report import GameReport

                self._report_scores.append(score)
                self._report_best.append(best)
                self.c.report = GameReport.of(self.c.report_game, self._report_scores, self._report_best)
            case GameScored(scores=scores, best=best) if self.c.report_running and self.c.report_game is not None:
                from game.computer.report import GameReport

                self.c.report = GameReport.of(self.c.report_game, scores, best)
                self.c.report_running = False
                marks = self.c.report.marks()
                blunders = sum(1 for m in marks.values() if m == "??")
                self.c.notice = (f"Game report: {len(marks) - blunders} mistake{'s' if len(marks) - blunders != 1 else ''}"
                               f" (?) and {blunders} blunder{'s' if blunders != 1 else ''} (??)")
            case AnalysisFailed(message=message):
                self.c.study = None
                self.c.analysis_on = self.c.report_running = False
                self.c.notice = f"{message[:1].upper()}{message[1:]}"
            case _:
                pass  # an answer nothing waits for any more

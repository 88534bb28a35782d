"""The engine beside the board: the analysis of the position shown, a hint, and the game report.

They come from an *analyst* (``game.computer.analysis``) on the computer's worker, which the machine
lets think only while the computer doesn't (it pauses the analysis before it asks the computer).
:class:`Studies` owns what they show; the machine tells it the phase after every change
(:meth:`Studies.follow`) and hands it the analyst's answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.computer.analysis import HINT_SECONDS, AnalysisFailed, GameScored, Line, LineFound, PositionScored
from game.play.effects import Refused, Say, Step
from game.play.phases import HumanToMove, Reviewing, in_friend_game, in_game_of, is_waiting_for_opponent, shown_ply_of

if TYPE_CHECKING:
    from engine import Position
    from engine.game import Game
    from game.computer.analysis import Analyst, AnalystReply
    from game.computer.report import GameReport
    from game.play.phases import Phase

NO_LIVE_ANALYSIS = "In a game against the computer, ask for a Hint (or look back at earlier moves)"
NO_FRIEND_ANALYSIS = "No analysis during a game with your friend: once it is over"


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
    """The analysis, hints and the game report of the game on screen, from ``analyst`` (None until
    the computer's worker is there)."""

    def __init__(self, analyst: Analyst | None = None) -> None:
        self.analyst = analyst
        self.analysis_on = False  # "Analyze" is on: the engine follows the position shown
        self.study: Study | None = None  # what the analysis or a hint shows
        self.report: GameReport | None = None  # the game report of report_game (growing while it is made)
        self.report_game: Game | None = None
        self.report_running = False
        self._report_moves: tuple = ()  # the moves report_game had when its report was asked for
        self._report_scores: list[int] = []
        self._report_best: list[str] = []

    # --- what the panel offers --------------------------------------------------------------------

    def why_no_analysis(self, phase: Phase) -> str | None:
        """Why "Analyze" is not offered in ``phase`` (None: it is)."""
        p = in_game_of(phase)
        if self.analyst is None or p is None:
            return "The computer is not ready to analyse yet" if p is not None else "No game to analyse"
        if in_friend_game(phase):
            return NO_FRIEND_ANALYSIS
        if not isinstance(p, Reviewing) and p.mode.vs_computer and not p.game.is_over:
            return NO_LIVE_ANALYSIS
        return None

    def can_analyze(self, phase: Phase) -> bool:
        """Whether "Analyze" can be turned on: a game on screen, an analyst, and not a game going on
        against the computer (a Hint there) or a friend."""
        return self.why_no_analysis(phase) is None

    def can_hint(self, phase: Phase) -> bool:
        return self.why_no_hint(phase) is None

    def why_no_hint(self, phase: Phase) -> str | None:
        """Why "Hint" does nothing now (None: it asks the computer)."""
        if self.analyst is None:
            return "The computer is not ready to give hints yet"
        if not isinstance(phase, HumanToMove) or not phase.mode.vs_computer:
            return "A hint is for your move in a game against the computer"
        if self.report_running:
            return "The computer is analysing the game: a hint once it is done"
        return None

    def can_report(self, phase: Phase) -> bool:
        """Whether "Analyze game" can run: a game with moves, and the computer not thinking."""
        return self.why_no_report(phase) is None

    def why_no_report(self, phase: Phase) -> str | None:
        """Why "Analyze game" does nothing now (None: it runs)."""
        p = in_game_of(phase)
        if self.analyst is None or p is None:
            return "The computer is not ready to analyse yet" if p is not None else "No game to analyse"
        if in_friend_game(phase):
            return NO_FRIEND_ANALYSIS
        if not p.game.moves:
            return "The game report needs a game with moves"
        if self.report_running:
            return "The game is being analysed"
        if is_waiting_for_opponent(phase):
            return "The computer is thinking: analyse the game once it has moved"
        return None

    def current_report(self, game: Game | None) -> GameReport | None:
        """The game report of ``game`` (the game on screen), while its moves are still the ones analysed."""
        if self.report is None or game is None or self.report_game is not game:
            return None
        if tuple(game.moves[:len(self._report_moves)]) != self._report_moves:
            return None  # moves taken back since
        return self.report

    # --- what the player asks -----------------------------------------------------------------------

    def toggle(self, phase: Phase) -> Step | Refused:
        if self.analysis_on:
            self.analysis_on = False
            self.stop()
            return Step()
        why = self.why_no_analysis(phase)
        if why is not None:
            return Refused(why, said=True)
        self.analysis_on = True
        return Step()

    def hint(self, phase: Phase) -> Step | Refused:
        why = self.why_no_hint(phase)
        if why is not None or not isinstance(phase, HumanToMove) or self.analyst is None:
            return Refused(why or "A hint is for your move in a game against the computer", said=True)
        self.analyst.analyze(phase.game, HINT_SECONDS)
        self.study = Study("hint", self._live_key(phase.game), phase.game.position, running=True)
        return Step()

    def analyze_game(self, phase: Phase) -> Step | Refused:
        p = in_game_of(phase)
        why = self.why_no_report(phase)
        if why is not None or p is None or self.analyst is None:
            return Refused(why or "No game to analyse", said=True)
        game = p.game
        self.analyst.analyze_game(game)
        self.study = None
        self.report_game, self.report, self.report_running = game, None, True
        self._report_moves = tuple(game.moves)
        self._report_scores, self._report_best = [], []
        return Step()

    # --- following the game -----------------------------------------------------------------------

    @staticmethod
    def _live_key(game: Game) -> tuple:
        return id(game), len(game.moves), game.position

    def _target(self, phase: Phase) -> tuple | str:
        """(key, ply) of the position the analysis should look at, or why it waits."""
        p = in_game_of(phase)
        if p is None:
            return "No game to analyse"
        if is_waiting_for_opponent(phase):
            return "The analysis waits while the computer thinks"
        if self.report_running:
            return "The analysis waits for the game report"
        ply = shown_ply_of(phase)
        live = not isinstance(p, Reviewing)
        if p.mode.vs_friend and not p.game.is_over:
            return NO_FRIEND_ANALYSIS
        if live and p.mode.vs_computer and not p.game.is_over:
            return NO_LIVE_ANALYSIS
        return (id(p.game), ply, p.game.positions[ply]), ply

    def follow(self, phase: Phase) -> Step:
        """Keep the analysis on the position shown (restarting it when that changes), drop a hint
        whose position is gone. The machine calls it after every intent and every reply."""
        if self.analyst is None:
            return Step()
        study = self.study
        if study is not None and study.kind == "hint":
            if isinstance(phase, HumanToMove) and study.key == self._live_key(phase.game):
                return Step()
            self.stop()
        if not self.analysis_on:
            return Step()
        target = self._target(phase)
        if isinstance(target, str):
            return self.pause(target)
        key, ply = target
        if study is not None and study.key == key:
            return Step()
        from game.play.review import game_at

        shown = in_game_of(phase)
        assert shown is not None
        record = shown.game if ply == len(shown.game.moves) else game_at(shown.game, ply)
        if record.is_over:
            self.analyst.stop()
            self.study = Study("analysis", key, record.position, note="The game is over in this position")
            return Step()
        self.analyst.analyze(record)
        self.study = Study("analysis", key, record.position, running=True)
        return Step()

    def stop(self) -> None:
        if self.study is not None and self.study.running and self.analyst is not None:
            self.analyst.stop()
        self.study = None

    def pause(self, why: str) -> Step:
        """Stop the analyst (its requests forgotten), saying why, until it may think again."""
        step = Step()
        if self.analyst is not None and (self.report_running or (self.study is not None and self.study.running)):
            self.analyst.stop()
        if self.report_running:
            self.report_running = False
            step = Step(effects=(Say("The game report was stopped: the computer is thinking"),))
        if self.analysis_on:
            self.study = Study("analysis", None, None, note=why)
        elif self.study is not None:
            self.study = None
        return step

    def on_answer(self, answer: AnalystReply) -> Step:
        match answer:
            case LineFound(line=line, final=final) if self.study is not None and self.study.running:
                self.study.line = line
                self.study.running = not final
            case PositionScored(score=score, best=best) if self.report_running and self.report_game is not None:
                from game.computer.report import GameReport

                self._report_scores.append(score)
                self._report_best.append(best)
                self.report = GameReport.of(self.report_game, self._report_scores, self._report_best)
            case GameScored(scores=scores, best=best) if self.report_running and self.report_game is not None:
                from game.computer.report import GameReport

                self.report = GameReport.of(self.report_game, scores, best)
                self.report_running = False
                marks = self.report.marks()
                blunders = sum(1 for m in marks.values() if m == "??")
                mistakes = len(marks) - blunders
                return Step(effects=(Say(f"Game report: {mistakes} mistake{'s' if mistakes != 1 else ''} (?) and "
                                         f"{blunders} blunder{'s' if blunders != 1 else ''} (??)"),))
            case AnalysisFailed(message=message):
                self.study = None
                self.analysis_on = self.report_running = False
                return Step(effects=(Say(f"{message[:1].upper()}{message[1:]}"),))
            case _:
                pass  # an answer nothing waits for any more
        return Step()

"""The engine beside the board, through the controller and a real worker process: the analysis follows
the position shown and stops when turned off, a hint shows the best move, the computer and the analysis
take turns on the one worker, and the game report marks a planted blunder and goes into the PDN."""

from __future__ import annotations

import time

import pytest

from engine import AMERICAN, Color
from engine.game import Game
from engine.pdn import PdnGame, read_text
from engine.worker import EngineClient
from game.computer.analysis import WorkerAnalyst, men_ahead, score_words, winning_chance
from game.computer.engine_link import EngineLink
from game.computer.report import GameReport, annotate
from game.computer.worker_opponent import WorkerOpponent
from game.modes import Level
from game.play import intents as it
from game.play.machine import Controller
from game.play.phases import HumanToMove, OpponentToMove

TIMEOUT = 300.0
BLUNDER_GAME = "10-14 21-17 14x21 24-20 11-15 22-18 15x22 25x18"  # 2. 21-17? gives White's man away


@pytest.fixture(scope="module")
def link():
    client = EngineClient.start(tt_size_mb=16)
    client.wait_ready(TIMEOUT)
    yield EngineLink(client)
    client.close()


@pytest.fixture
def c(link):
    controller = Controller(opponent=WorkerOpponent(link.channel()), analyst=WorkerAnalyst(link.channel()))
    yield controller
    controller.close()


def run_until(c: Controller, done, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the engine did not answer in time"
        c.update()
        time.sleep(0.01)


def open_game(c: Controller, moves: str) -> None:
    game = Game(AMERICAN)
    for text in moves.split():
        game.play(text)
    c.handle(it.Pasted(PdnGame.from_game(game).pdn()))


def test_the_analysis_follows_the_position_shown_and_stops_when_turned_off(c):
    open_game(c, BLUNDER_GAME)
    c.handle(it.ToggleAnalysis())
    assert c.studies.study is not None and c.studies.study.running and c.studies.study.position == c.game.positions[0]
    run_until(c, lambda: c.studies.study.line is not None and c.studies.study.line.depth >= 4)
    line = c.studies.study.line
    assert line.best in c.game.positions[0].legal_moves() and c.game.positions[0].parse_move(line.pv[0]) == line.best
    c.handle(it.ReviewTo(3))  # the analysis follows the review
    assert c.studies.study.position == c.game.positions[3] and c.studies.study.line is None
    run_until(c, lambda: c.studies.study.line is not None and c.studies.study.line.depth >= 3)
    assert c.studies.study.line.best in c.game.positions[3].legal_moves()
    assert c.studies.study.line.score < -50  # White to move, a man down
    c.handle(it.ToggleAnalysis())
    assert c.studies.study is None
    end = time.monotonic() + 1.0
    while time.monotonic() < end:  # nothing more comes
        c.update()
        assert c.studies.study is None
        time.sleep(0.02)


def test_a_hint_shows_the_best_move_and_the_computer_then_plays_in_full(c):
    c.handle(it.StartGame(Level.EASY))
    assert c.studies.can_hint(c.phase)
    c.handle(it.Hint())
    run_until(c, lambda: c.studies.study is not None and not c.studies.study.running)
    hint = c.studies.study.line.best
    assert c.studies.study.kind == "hint" and hint in c.legal_moves()
    c.handle(it.PlayMoveFromList(hint))
    assert c.studies.study is None and isinstance(c.phase, OpponentToMove)  # the hint went with its position
    run_until(c, lambda: isinstance(c.phase, HumanToMove))
    assert len(c.game.moves) == 2


def test_analysis_waits_while_the_computer_thinks(c):
    c.handle(it.StartGame(Level.MEDIUM, play_second=True))  # the computer opens
    run_until(c, lambda: isinstance(c.phase, HumanToMove))
    c.handle(it.ReviewTo(0))  # a look back at the start, where the analysis is offered
    c.handle(it.ToggleAnalysis())
    assert c.studies.analysis_on and c.studies.study.running and c.studies.study.position == c.game.positions[0]
    c.handle(it.ReviewTo(None))  # back to the game: the analysis stops before the computer could think
    assert c.studies.study.key is None and "Hint" in c.studies.study.note  # live, against the computer: a hint instead
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    assert isinstance(c.phase, OpponentToMove) and c.studies.study.key is None
    assert "computer thinks" in c.studies.study.note


def test_the_game_report_marks_a_planted_blunder_and_goes_into_the_pdn(c):
    open_game(c, BLUNDER_GAME)
    c.handle(it.AnalyzeGame())
    assert c.studies.report_running
    run_until(c, lambda: not c.studies.report_running)
    report = c.studies.current_report(c.game)
    assert report is not None and len(report.scores) == len(c.game.moves) + 1
    marks = report.marks()
    # 21-17, White's first move, gives a man for a little play: half a man to a man lost as the
    # evaluation sees it, a mistake or a blunder
    mark = marks.get(1)
    assert mark in ("?", "??"), (marks, report.scores)
    assert "blunder" in c.notice and "mistake" in c.notice
    pdn = c.pdn().pdn()
    assert f"21-17{mark}" in pdn and "[%eval" in pdn
    [again] = read_text(pdn)
    assert again.moves[1].mark == mark and any("better" in cm for cm in again.moves[1].comments)


def test_report_marks_count_winning_chances():
    turns = (Color.BLACK, Color.WHITE, Color.BLACK, Color.WHITE)
    # Black to move is even; Black's move leaves White +1 man (Black lost a man: a blunder);
    # White's reply from +100 to Black +50 (White gave back a man and a half)
    report = GameReport((0, 100, 50, -50), ("a", "b", "c", ""), turns)
    assert report.marks() == {0: "??", 1: "??"}
    assert report.graph_points()[1] == pytest.approx(100 / 200)
    lost = GameReport((-900, 1000, -1000), ("", "", ""), (Color.BLACK, Color.WHITE, Color.BLACK))
    assert lost.marks() == {}  # a man more given away in a game long lost is no blunder
    agreed = GameReport((0, 100, 50, -50), ("a", "b", "c", ""), turns, played_best=(True, False, False))
    assert agreed.marks() == {1: "??"}  # the engine's own best move is never marked
    assert winning_chance(0) == 0.5 and winning_chance(29990) == 1.0 and 0.75 < winning_chance(100) < 0.8


def test_scores_in_a_players_words():
    assert score_words(125, Color.BLACK, AMERICAN) == "Black is 1.25 men ahead"
    assert score_words(-100, Color.BLACK, AMERICAN) == "White is 1.00 man ahead"
    assert score_words(5, Color.WHITE, AMERICAN) == "Even"
    assert score_words(30000 - 13, Color.WHITE, AMERICAN) == "White wins in 7 moves"
    assert men_ahead(-50) == "-0.50" and men_ahead(-(30000 - 2)) == "loss in 1"


def test_endgame_table_results_in_a_players_words():
    from engine import search
    from game.computer import analysis

    assert (analysis.MATE, analysis.MATE_BOUND, analysis.EGDB_BOUND) == (search.MATE, search.MATE_BOUND,
                                                                         search.EGDB_BOUND)
    root, tree = search.EGDB_ROOT - 81, search.EGDB_WIN + 100  # a root the tables hold; a node below
    assert score_words(root, Color.WHITE, AMERICAN) == "White wins (endgame tables)"
    assert score_words(-tree, Color.WHITE, AMERICAN) == "Black wins (endgame tables)"
    assert men_ahead(-tree) == "loss" and men_ahead(root) == "win"
    assert winning_chance(root) == 1.0 and winning_chance(-tree) == 0.0


def test_annotations_survive_a_round_trip():
    game = Game(AMERICAN)
    for text in BLUNDER_GAME.split()[:3]:
        game.play(text)
    report = GameReport.of(game, (0, 0, 120, 130), ("9-13", "22-18", "14x21", "25x18"))
    text = annotate(PdnGame.from_game(game, {"White": "W"}), report).pdn()
    [again] = read_text(text)
    assert again.moves[1].mark == "??" and again.moves[1].comments[0].startswith("[%eval -1.20]")
    assert again.moves[0].comments == ("[%eval 0.00]",)



class ScriptedAnalyst:
    """The analyst for tests that need no search: records what it is asked; answers when told."""

    def __init__(self):
        self.asked: list[Game] = []
        self.answers: list = []

    def analyze(self, game, seconds=None):
        self.asked.append(game)

    def analyze_game(self, game):
        self.asked.append(game)

    def stop(self):
        self.asked.clear()

    def poll(self):
        out, self.answers = self.answers, []
        return out


def test_analyze_is_not_offered_in_a_game_against_the_computer_and_says_why():
    from support import ScriptedOpponent

    from game.computer.analysis import Line, LineFound

    analyst = ScriptedAnalyst()
    c = Controller(opponent=ScriptedOpponent(), analyst=analyst)
    c.handle(it.StartGame(Level.EASY))
    c.handle(it.Hint())
    position = c.game.position
    best = position.legal_moves()[0]
    analyst.answers.append(LineFound(Line(11, 20, (position.move_text(best),), best), final=True))
    c.update()
    assert c.studies.study is not None and c.studies.study.kind == "hint" and c.studies.study.line.depth == 11
    assert not c.studies.can_analyze(c.phase), "Analyze is greyed in a game against the computer going on"
    c.handle(it.ToggleAnalysis())
    assert not c.studies.analysis_on, "not turned on"
    assert c.notice is not None and "Hint" in c.notice, "pressed, it says why"

"""Games in the real window under Xvfb, with the real engine worker: a PDN file dropped on the window
(a real DROPFILE event in its queue) is reviewed with the keys and the move list and analysed (the
analysis, its arrow and evaluation bar, the game report's marks and graph); the clipboard carries a
game out and a position in; a bad file dropped leaves the game running."""

from __future__ import annotations

import time

import pygame

from engine import AMERICAN
from engine.game import Game
from engine.pdn import PdnGame, read_text
from game.play.phases import Browsing, GameOver, HumanToMove, Reviewing

BLUNDER = "10-14 21-17 14x21 24-20 11-15 22-18 15x22 25x18 9-14 18x9 5x14"  # 2. 21-17? gives a man away


def post(kind, **attrs) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def key(k: int, mod: int = 0) -> None:
    post(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def press(app, hit_id: str) -> None:
    """A click on what the interface shows as ``hit_id`` (scrolled into view first)."""
    app.ui.reveal(hit_id)
    run(app, 0.2)
    hit = next(h for h in app.ui.hits if h.id == hit_id)
    assert hit.enabled, hit_id
    pos = hit.visible.center
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
    run(app, 0.1)


def run(app, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.step()
        time.sleep(0.005)


def until(app, done, what: str, timeout: float = 180.0) -> None:
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        app.step()
        time.sleep(0.005)


def test_a_dropped_pdn_file_is_reviewed_and_analysed(open_app, tmp_path):
    game = Game(AMERICAN)
    for text in BLUNDER.split():
        game.play(text)
    path = tmp_path / "blunder.pdn"
    path.write_text(PdnGame.from_game(game, {"White": "Careless", "Black": "Sharp"}).pdn(), encoding="utf-8")
    app = open_app((1280, 800))
    c = app.controller

    post(pygame.DROPFILE, file=str(path))
    until(app, lambda: isinstance(c.phase, Reviewing), "the dropped file to open")
    assert c.game.moves == game.moves and c.shown_ply() == 0 and c.files.source.tags["White"] == "Careless"

    key(pygame.K_END)
    run(app, 0.2)
    assert c.shown_ply() == len(game.moves)
    key(pygame.K_LEFT)
    key(pygame.K_LEFT)
    run(app, 0.2)
    assert c.shown_ply() == len(game.moves) - 2 and app._state.position == game.positions[-3]
    assert app._state.last_move == game.moves[-3]  # the move's orange route
    press(app, "ply:2")  # a press on the move list
    assert c.shown_ply() == 2 and app._state.position == game.positions[2]
    key(pygame.K_HOME)
    run(app, 0.2)
    assert c.shown_ply() == 0

    press(app, "btn:analyze")
    studies = c.studies
    until(app, lambda: studies.study is not None and studies.study.line is not None and studies.study.line.depth >= 4,
          "the analysis")
    assert app.ui.layout.side > 0, "the evaluation bar stands beside the board"
    run(app, 0.2)
    assert app._state.best_move == c.studies.study.line.best and app._state.best_move in game.positions[0].legal_moves()
    key(pygame.K_PAGEDOWN)
    until(app, lambda: studies.study.line is not None and studies.study.position == game.positions[1],
          "the analysis to follow")
    press(app, "btn:analyze")
    assert c.studies.study is None and not c.studies.analysis_on

    press(app, "btn:analyze-game")
    until(app, lambda: not c.studies.report_running, "the game report")
    report = c.studies.current_report(c.game)
    mark = report.marks().get(1) if report is not None else None
    assert mark in ("?", "??"), report  # a man for a little play: the evaluation sees half a man to a man lost
    run(app, 0.3)
    marked = c.move_text(game.moves[1], game.positions[1]) + mark
    assert {"graph", f"text:{marked}"} <= {w.what for w in app.ui.widgets}, "the graph, and the mark in the move list"
    press(app, "graph:5")  # the graph takes the review there
    assert c.shown_ply() == 5

    press(app, "from:medium")  # play on against the computer
    assert isinstance(c.phase, HumanToMove | GameOver) or c.waiting_for_opponent
    assert c.game.moves == game.moves[:5]


def test_the_clipboard_carries_a_game_out_and_a_position_in(open_app):
    app = open_app((1000, 700), until=lambda app: app.is_ready and app.renderer is not None)
    c = app.controller
    press(app, "btn:2 players on this device")
    until(app, lambda: c.game is not None, "the game")
    press(app, "move:c3-d4")
    key(pygame.K_c, pygame.KMOD_CTRL)
    run(app, 0.2)
    [copied] = read_text(pygame.scrap.get_text())
    assert [pm.move for pm in copied.moves] == c.game.moves and len(c.game.moves) == 1

    pygame.scrap.put_text("W:WK10:BK23,K28")
    key(pygame.K_v, pygame.KMOD_CTRL)
    until(app, lambda: isinstance(c.phase, Reviewing), "the pasted position")
    assert c.shown_position().fen() == "W:WK10:BK23,K28"
    key(pygame.K_c, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    run(app, 0.2)
    assert pygame.scrap.get_text() == "W:WK10:BK23,K28"


def test_a_bad_file_dropped_leaves_the_game_running(open_app, tmp_path):
    app = open_app((1280, 800))
    c = app.controller
    press(app, "btn:2 players on this device")
    until(app, lambda: c.game is not None, "the game")
    press(app, "move:c3-d4")
    bad = tmp_path / "photo.pdn"
    bad.write_bytes(bytes(range(256)) * 100)
    post(pygame.DROPFILE, file=str(bad))
    until(app, lambda: isinstance(c.phase, Browsing) and c.notice, "the file to be read")
    assert "not a PDN text file" in c.notice
    key(pygame.K_ESCAPE)
    run(app, 0.2)
    assert isinstance(c.phase, HumanToMove) and len(c.game.moves) == 1
    press(app, "move:f6-g5")
    assert len(c.game.moves) == 2

"""The worker process: starts and says ready, searches, stops, drops stale replies, survives being
killed, and leaves no process behind. Waits have generous timeouts; nothing asserts a duration."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import children_of, command_line, is_running, wait_gone

from engine import AMERICAN, INTERNATIONAL, Position
from engine.game import Game
from engine.search import MATE, Limits
from engine.worker import WORKER_NICE, BestMove, DrawAnswer, EngineClient, Error, GameScores, Info, PlyScore, Ready, Search

LONG = Limits(movetime=600.0)  # a search that only a stop can end within any test's timeout
TIMEOUT = 300.0  # generous: a fresh worker may have to compile the numba cache on a busy machine


@pytest.fixture(scope="module")
def client():
    c = EngineClient.start(tt_size_mb=8)
    c.wait_ready(TIMEOUT)
    yield c
    c.close()


def game_after(variant, moves: str = "") -> Game:
    game = Game(variant)
    for text in moves.split():
        game.play(text)
    return game


def replies_until_answer(client: EngineClient, request_id: int, timeout: float = TIMEOUT) -> list:
    """Every reply poll() hands out until the answer to ``request_id``, that answer last."""
    out = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for reply in client.poll():
            out.append(reply)
            if reply.request_id == request_id and isinstance(reply, (BestMove, GameScores, DrawAnswer, Error)):
                return out
        time.sleep(0.005)
    raise TimeoutError(f"no answer to {request_id}; got {out}")


def wait_for_info(client: EngineClient, request_id: int, timeout: float = TIMEOUT) -> Info:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for reply in client.poll():
            if isinstance(reply, Info) and reply.request_id == request_id:
                return reply
        time.sleep(0.005)
    raise TimeoutError(f"no Info for {request_id}")


@pytest.mark.parametrize("variant, moves", [(AMERICAN, "11-15 23-19"), (INTERNATIONAL, "32-28 18-23")])
def test_search_returns_a_legal_move_with_info(client, variant, moves):
    game = game_after(variant, moves)
    rid = client.request_move(game, limits=Limits(depth=4))
    replies = replies_until_answer(client, rid)
    best = replies[-1]
    assert isinstance(best, BestMove), best
    assert best.move in game.position.legal_moves()
    assert game.position.parse_move(best.text) == best.move
    infos = [r for r in replies if isinstance(r, Info) and r.request_id == rid]
    assert infos and infos[-1].depth >= 1
    assert not client.is_busy


def test_level_search_is_legal_and_repeatable_with_a_seed(client):
    game = game_after(AMERICAN)
    answers = []
    for _ in range(2):
        client.new_game()  # the same empty table for both
        answers.append(client.wait(client.request_move(game, level="easy", seed=7), TIMEOUT))
    assert all(isinstance(a, BestMove) and a.move in game.position.legal_moves() for a in answers)
    assert answers[0].move == answers[1].move


def test_stop_returns_a_legal_move(client):
    game = game_after(INTERNATIONAL, "32-28")
    rid = client.request_move(game, limits=LONG)
    wait_for_info(client, rid)
    client.stop(rid)
    best = client.wait(rid, timeout=30.0)  # far below the 600 s the search was given
    assert isinstance(best, BestMove)
    assert best.move in game.position.legal_moves()


def test_cancel_drops_stale_replies_and_the_next_request_is_answered(client):
    game = game_after(AMERICAN, "9-14")
    stale = client.request_move(game, limits=LONG)
    wait_for_info(client, stale)
    client.cancel()
    assert not client.is_busy
    fresh = client.request_move(game, limits=Limits(depth=3))
    replies = replies_until_answer(client, fresh, timeout=30.0)
    assert all(r.request_id != stale for r in replies)
    assert isinstance(replies[-1], BestMove) and replies[-1].move in game.position.legal_moves()


def test_a_request_cancelled_before_it_starts_is_never_answered(client):
    game = game_after(AMERICAN)
    first = client.request_move(game, limits=LONG)
    second = client.request_move(game, limits=LONG)
    client.cancel()  # both: the second is still queued behind the first
    fresh = client.request_move(game, limits=Limits(depth=2))
    replies = replies_until_answer(client, fresh, timeout=30.0)
    assert all(r.request_id not in (first, second) for r in replies)


def test_an_analysis_streams_depths_past_a_forced_move_until_stopped(client):
    # one legal move (White must take on 14): a move request would answer at depth 1
    game = game_after(AMERICAN, "9-14 22-17 10-15")
    assert len(game.position.legal_moves()) == 1
    rid = client.analyze(game)
    infos: list[Info] = []
    deadline = time.monotonic() + TIMEOUT
    while len(infos) < 6:
        assert time.monotonic() < deadline, f"only {infos} arrived"
        infos += [r for r in client.poll() if isinstance(r, Info) and r.request_id == rid]
        time.sleep(0.005)
    assert [i.depth for i in infos] == list(range(1, len(infos) + 1))
    assert all(i.pv and game.position.parse_move(i.pv[0]) in game.position.legal_moves() for i in infos)
    assert client.is_busy  # still deepening
    client.stop(rid)
    best = client.wait(rid, timeout=30.0)
    assert isinstance(best, BestMove) and best.depth >= infos[-1].depth
    assert best.move == game.position.legal_moves()[0]


def test_an_analysis_with_limits_answers_by_itself(client):
    game = game_after(INTERNATIONAL, "32-28 19-23")
    best = client.wait(client.analyze(game, Limits(depth=3)), TIMEOUT)
    assert isinstance(best, BestMove) and best.depth == 3 and best.move in game.position.legal_moves()


def test_cancelling_some_requests_keeps_the_others(client):
    game = game_after(AMERICAN, "10-14")
    analysis = client.analyze(game)
    wait_for_info(client, analysis)
    client.cancel([analysis])  # the analysis stops; its replies are dropped
    move = client.request_move(game, limits=Limits(depth=4))
    replies = replies_until_answer(client, move, timeout=60.0)
    assert all(r.request_id != analysis for r in replies)
    assert isinstance(replies[-1], BestMove) and replies[-1].depth == 4  # not stopped by the analysis' stop
    client.cancel([analysis])  # nothing of it is left: no stop is raised for the next request
    again = client.wait(client.request_move(game, limits=Limits(depth=3)), 60.0)
    assert isinstance(again, BestMove) and again.depth == 3


def test_a_game_is_scored_position_by_position(client):
    game = game_after(AMERICAN, "10-14 21-17 14x21 24-20")  # 21-17? gives White's man away
    rid = client.analyze_game(game, Limits(nodes=20_000))
    replies = replies_until_answer(client, rid)
    report = replies[-1]
    assert isinstance(report, GameScores) and len(report.scores) == len(game.moves) + 1
    progress = [r for r in replies if isinstance(r, PlyScore)]
    assert [p.ply for p in progress] == list(range(len(game.moves) + 1))
    assert tuple(p.score for p in progress) == report.scores and tuple(p.best for p in progress) == report.best
    positions = game.positions
    for ply, text in enumerate(report.best):
        assert positions[ply].parse_move(text) in positions[ply].legal_moves()
    assert report.scores[1] + report.scores[2] >= 40  # what 21-17 lost: a man for a little play, from White's side
    assert client.wait(client.analyze_game(game, Limits(nodes=20_000)), TIMEOUT).scores == report.scores


def test_a_finished_game_scores_its_last_position_by_the_rules(client):
    game = Game(AMERICAN, Position.from_fen(AMERICAN, "B:W18:B14"))
    game.play("14x23")  # White has no piece left
    report = client.wait(client.analyze_game(game, Limits(nodes=5_000)), TIMEOUT)
    assert report.best[-1] == "" and report.scores[-1] == -MATE
    assert report.scores[0] > 1000  # the capture wins at once


def test_draw_questions_are_answered(client):
    game = game_after(AMERICAN, "11-15 23-19")
    for kind in ("accept", "offer"):
        answer = client.wait(client.ask_draw(game, "medium", kind, last_score=0), TIMEOUT)
        assert isinstance(answer, DrawAnswer) and answer.kind == kind and isinstance(answer.answer, bool)
    with pytest.raises(ValueError, match="draw question"):
        client.ask_draw(game, "medium", "resign")


def test_bad_requests_give_errors_and_unknown_messages_are_ignored(client):
    with pytest.raises(ValueError, match="exactly one"):
        client.request_move(game_after(AMERICAN))
    client._worker.requests.put("not a message")  # logged and ignored by the worker
    rid = client._submit(lambda rid: Search(rid, {"variant": "chess", "start": "W:W1:B2", "moves": []}, level="easy"))
    error = client.wait(rid, TIMEOUT)
    assert isinstance(error, Error) and "chess" in error.message
    game = game_after(AMERICAN)
    assert isinstance(client.wait(client.request_move(game, limits=Limits(depth=2)), TIMEOUT), BestMove)


def test_a_killed_worker_is_replaced_and_the_request_still_answered(client):
    game = game_after(INTERNATIONAL, "33-28 17-22")
    old_pid = client.pid
    restarts = client.restarts
    rid = client.request_move(game, limits=Limits(depth=5))
    os.kill(old_pid, signal.SIGKILL)
    replies = replies_until_answer(client, rid)
    assert client.restarts == restarts + 1 and client.pid != old_pid
    assert any(isinstance(r, Ready) for r in replies)
    assert isinstance(replies[-1], BestMove) and replies[-1].move in game.position.legal_moves()
    assert not is_running(old_pid)


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="niceness is a Unix thing")
def test_the_worker_yields_the_processor_to_the_game(client):
    # it searches below the game's priority, so the window's frames get a core when they ask for one
    own = os.getpriority(os.PRIO_PROCESS, 0)
    assert client.nice == WORKER_NICE > 0
    assert os.getpriority(os.PRIO_PROCESS, client.pid) == min(19, own + WORKER_NICE)


def test_close_during_a_search_leaves_no_process():
    c = EngineClient.start(tt_size_mb=8)
    c.wait_ready(TIMEOUT)
    process, pid = c._worker.process, c.pid
    rid = c.request_move(game_after(AMERICAN), limits=LONG)
    wait_for_info(c, rid)
    c.close()
    assert not process.is_alive()
    assert not is_running(pid)
    assert c.poll() == []
    c.close()  # twice is fine


def test_close_before_ready_leaves_no_process():
    c = EngineClient.start(tt_size_mb=8)
    process, pid = c._worker.process, c.pid
    c.close()
    assert not process.is_alive()
    assert not is_running(pid)


PARENT = """
import sys, time
from engine.game import Game
from engine.search import Limits
from engine.worker import EngineClient
if __name__ == "__main__":
    client = EngineClient.start(tt_size_mb=8)
    client.wait_ready(300)
    client.request_move(Game(__import__("engine").AMERICAN), limits=Limits(movetime=600.0))
    print(client.pid, flush=True)
    time.sleep(600)
"""


def test_the_worker_ends_when_the_game_process_dies_mid_search(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    root = Path(__file__).resolve().parents[2]
    parent = subprocess.Popen([sys.executable, str(script)], cwd=root, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(root)})
    try:
        worker_pid = int(parent.stdout.readline())
        time.sleep(0.5)  # the worker is inside its 600 s search now
        parent.kill()  # like a crash of the game: no close(), no Quit
        parent.wait(10)
        assert wait_gone(worker_pid, 30.0)
    finally:
        if parent.poll() is None:
            parent.kill()


def _compiler_of(pid: int) -> int | None:
    """The worker's compiling process, once it runs the compiling code (between its fork and its
    exec a child still shows the worker's command line)."""
    for child in children_of(pid):
        if "engine.worker import _compile" in command_line(child):
            return child
    return None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_a_worker_closed_while_its_kernels_compile_apart_leaves_no_process(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # a cold cache: the kernels are compiled apart
    c = EngineClient.start(tt_size_mb=8)
    worker = c.pid
    assert worker is not None
    deadline = time.monotonic() + TIMEOUT
    while (compiler := _compiler_of(worker)) is None:
        assert time.monotonic() < deadline and c._worker.process.is_alive()
        time.sleep(0.05)
    c.close()
    assert wait_gone(compiler, 30.0) and not is_running(worker)


@pytest.mark.slow
def test_a_cold_cache_is_compiled_apart_then_loaded(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    c = EngineClient.start(tt_size_mb=8)
    try:
        c.wait_ready(2 * TIMEOUT)
        rid = c.request_move(game_after(INTERNATIONAL), limits=Limits(depth=4))
        assert isinstance(replies_until_answer(c, rid)[-1], BestMove)
    finally:
        c.close()
    code = "from engine._jit import kernels_cached\nprint(kernels_cached(search=True))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert out.stdout.strip() == "True", out.stderr

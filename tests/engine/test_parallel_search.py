"""The parallel search (``Searcher(threads=N)``, lazy SMP): helper threads search beside the main one
on the shared transposition table, stop with it, and never make it play another position's move; the
table's entries are checked against torn writes; the thread count reaches the player through the
computer's default, match players, ``bestmove`` and the Hub engine."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from test_search import AMERICAN_SHOT, INTERNATIONAL_SHOT, _random_position

from engine import AMERICAN, INTERNATIONAL, Position
from engine import _search as K
from engine.game import Game
from engine.hub import HubEngine, HubError
from engine.match import Player
from engine.search import MAX_THREADS, Limits, Searcher, default_threads

ROOT = Path(__file__).resolve().parents[2]

# the shots of test_search: the only move that wins two men within 5 plies
SHOTS = [(AMERICAN, *AMERICAN_SHOT), (INTERNATIONAL, *INTERNATIONAL_SHOT)]


@pytest.fixture(scope="module")
def searcher():
    s = Searcher(tt_size_mb=8, threads=2)
    s.warm_up()
    return s


def _helpers_alive() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("search helper")]


def test_the_helper_searches_beside_the_main_thread_and_stops_with_it(searcher):
    searcher.new_game()
    result = searcher.search(Game(AMERICAN), Limits(depth=12))
    helper_nodes = int(searcher._helpers[0].output.out[K.O_NODES])
    assert helper_nodes > 0  # it searched, and the result counts its nodes with the main thread's
    assert result.nodes > helper_nodes
    assert not _helpers_alive()


@pytest.mark.parametrize("variant,fen,best", SHOTS, ids=lambda v: getattr(v, "name", None))
def test_shots_found_with_helpers(searcher, variant, fen, best):
    pos = Position.from_fen(variant, fen)
    searcher.new_game()
    result = searcher.search(Game(variant, pos), Limits(depth=6))
    assert pos.move_text(result.move) == best and result.score >= 150


def test_never_an_illegal_move_with_helpers(searcher):
    rng = random.Random(11)
    checked = 0
    for i in range(40):
        variant = AMERICAN if i % 2 else INTERNATIONAL
        pos = _random_position(variant, rng, rng.randrange(0, 90))
        if not pos.legal_moves():
            continue
        # games of other positions share the table: nothing of theirs may become this one's move
        result = searcher.search(Game(variant, pos), Limits(depth=rng.randrange(2, 8)))
        assert result.move in pos.legal_moves(), pos.fen()
        checked += 1
    assert checked > 25
    assert not _helpers_alive()


def test_a_stop_flag_ends_every_thread(searcher):
    pos = Position.initial(INTERNATIONAL)
    stop = np.zeros(1, dtype=np.int64)
    threading.Timer(0.2, stop.fill, (1,)).start()
    result = searcher.search(Game(INTERNATIONAL), Limits(), stop=stop)  # no limit: only the flag ends it
    assert result.move in pos.legal_moves()
    assert not _helpers_alive()


def test_movetime_with_helpers(searcher):
    pos = Position.initial(AMERICAN)
    result = searcher.search(Game(AMERICAN), Limits(movetime=0.2))
    assert result.move in pos.legal_moves() and result.seconds >= 0.2
    assert not _helpers_alive()


def test_a_forced_move_starts_no_helper(searcher):
    pos = Position.from_fen(AMERICAN, "W:W18:B14,1")  # 18x9 is White's only move
    assert len(pos.legal_moves()) == 1
    searcher._helpers[0].output.out[K.O_NODES] = 0
    result = searcher.search(Game(AMERICAN, pos), Limits(depth=4))
    assert result.move == pos.legal_moves()[0]
    assert searcher._helpers[0].output.out[K.O_NODES] == 0


def test_a_node_budget_is_the_same_search_as_with_one_thread(searcher):
    # the game report scores moves with a node budget so that every machine gives the same scores
    single = Searcher(tt_size_mb=8)
    for s in (searcher, single):
        s.new_game()
    ours = searcher.search(Game(AMERICAN), Limits(nodes=30_000))
    theirs = single.search(Game(AMERICAN), Limits(nodes=30_000))
    assert (ours.move, ours.score, ours.depth, ours.nodes) == (theirs.move, theirs.score, theirs.depth, theirs.nodes)


def test_one_thread_has_no_helper_and_zero_is_refused():
    assert Searcher(tt_size_mb=1)._helpers == []
    with pytest.raises(ValueError, match="at least 1"):
        Searcher(tt_size_mb=1, threads=0)


def test_a_torn_table_entry_is_not_read():
    tt = np.zeros(8, dtype=K.TT_ENTRY)
    key = np.uint64(0x1234_5678_9ABC_DEF1)
    K._tt_store(tt, key, 7, K.BOUND_EXACT, 55, (1 << 20) | 3, 0, 1)
    data = K._tt_probe(tt, key)
    assert data != 0 and (data >> 22) & 0xFF == 7
    slot = next(i for i in range(8) if tt[i]["data"] == data)
    tt[slot]["data"] = data ^ (1 << 22)  # another thread's data under this key: the check fails
    assert K._tt_probe(tt, key) == 0


@pytest.mark.parametrize("cores,threads", [(1, 1), (2, 1), (4, 3), (8, 7), (64, MAX_THREADS)])
def test_the_computer_leaves_a_core_to_the_window(monkeypatch, cores, threads):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    assert default_threads() == threads


def test_match_players_take_threads():
    assert Player.parse("movetime=0.1,threads=2").threads == 2
    assert Player.parse("movetime=0.1").threads == 1
    assert str(Player.parse("movetime=0.1,threads=2")) == "movetime=0.1,threads=2"
    with pytest.raises(ValueError, match="bad value"):
        Player.parse("movetime=0.1,threads=0")
    with pytest.raises(ValueError, match="threads"):
        Player.parse("hub=other-engine,threads=2")


def test_hub_announces_and_takes_threads():
    lines: list[str] = []
    engine = HubEngine(AMERICAN, write=lines.append)
    engine._dispatch("hub", {}, 0)
    assert "param name=threads value=1 type=int min=1 max=64" in lines
    engine._dispatch("set-param", {"name": "threads", "value": "2"}, 0)
    assert engine.threads == 2
    for bad in ("0", "65", "two"):
        with pytest.raises(HubError, match=f"threads must be .*{bad}"):
            engine._dispatch("set-param", {"name": "threads", "value": bad}, 0)
    assert engine.threads == 2


def test_bestmove_cli_with_threads():
    fen, best = SHOTS[0][1], SHOTS[0][2]
    out = subprocess.run([sys.executable, "-m", "engine", "bestmove", "--fen", fen, "--depth", "6", "--threads", "2",
                          "--tt-size", "4", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["move"] == best

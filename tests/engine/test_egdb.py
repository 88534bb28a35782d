"""Endgame tables (engine/egdb.py, engine/_egdb.py): built small here (3 pieces, seconds), checked
against a slow, obvious twin (plain Python passes over every 2-piece position, the endgame rule
written out from the specification's text), against every position's own moves (verify), against the
real Game record's draw counting (playing the tables' moves out), and through the command line.
Bigger tables and published positions (First Position, 3 kings against 2, 3 kings against 1 on
10x10) are marked slow: they build 4 and 5 pieces, minutes, unless ``CHECKERS3D_EGDB_TABLES`` names a
folder where they are built already.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from processes import is_running, wait_gone

from engine import AMERICAN, INTERNATIONAL, Color, Position, egdb
from engine import _egdb as K
from engine.game import Game
from engine.search import EGDB_BOUND, EGDB_ROOT, EGDB_WIN, Limits, Searcher

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """3-piece tables of both games in a fresh cache folder (``<cache>/egdb``)."""
    folder = tmp_path_factory.mktemp("cache") / "egdb"
    for variant in (AMERICAN, INTERNATIONAL):
        egdb.build(variant, 3, folder)
    return folder


@pytest.fixture
def cached(small, monkeypatch):
    """The small tables as the user's cache, where a searcher looks for them."""
    monkeypatch.setenv(egdb.CACHE_ENV, str(small.parent))
    return small


def _tables(folder, variant):
    tables = egdb.load(variant, folder)
    assert tables is not None
    return tables


# --- the slow twin ----------------------------------------------------------------------------


def _two_piece_positions(variant):
    """Every position with one piece a side, both sides to move, as FEN."""
    w = variant.row_width
    out = []
    for ws in range(1, variant.squares + 1):
        for bs in range(1, variant.squares + 1):
            if ws == bs:
                continue
            for wk in (False, True):
                for bk in (False, True):
                    if (not wk and ws <= w) or (not bk and bs > variant.squares - w):
                        continue  # a man on its own crowning row
                    for turn in "WB":
                        out.append(f"{turn}:W{'K' * wk}{ws}:B{'K' * bk}{bs}")
    return out


def _twin_two_pieces(variant):
    """{(position, r): (value, plies)}, r the plies left on the endgame count (None outside it), by the
    textbook retrograde analysis over the game tree from Position's moves: states without a move are
    lost in 0; going backwards in order of distance, a state with a child lost in n is won in n + 1,
    a state whose children are all won, the last in n, is lost in n + 1. The endgame rule as the
    specification words it: king against king is a lone king against 1 king, "up to 5 moves each from
    that position" (10 plies from when the material arose); a state with r = 0 is a draw unless the
    side to move has no move."""
    limit = 2 * variant.lone_king_vs_two_moves if variant.endgame_rule else None
    positions = [Position.from_fen(variant, fen) for fen in _two_piece_positions(variant)]
    number = {pos: i for i, pos in enumerate(positions)}
    counted = [limit is not None and pos.kings == pos.white | pos.black for pos in positions]
    moves = [[number.get(pos.play(m), -1) for m in pos.legal_moves()] for pos in positions]  # -1: all taken
    children = {}
    for i, kids in enumerate(moves):
        for r in range(limit + 1) if counted[i] else [None]:
            children[(i, r)] = [("taken", None) if j < 0 else (j, (r - 1 if counted[i] else limit) if counted[j] else None)
                                for j in kids]
    parents: dict = {}
    for state, kids in children.items():
        for kid in kids:
            parents.setdefault(kid, []).append(state)
    value = {("taken", None): ("loss", 0)}
    value.update({state: ("loss", 0) for state, kids in children.items() if not kids})
    left = {state: len(kids) for state, kids in children.items()}
    queue = list(value)
    for kid in queue:  # the queue grows while it is read: distances come in order
        kid_value, plies = value[kid]
        for state in parents.get(kid, ()):
            if state in value or state[1] == 0:
                continue
            if kid_value == "loss":
                value[state] = ("win", plies + 1)
                queue.append(state)
            else:
                left[state] -= 1
                if left[state] == 0:
                    value[state] = ("loss", plies + 1)
                    queue.append(state)
    return {(positions[i], r): value.get((i, r), ("draw", None)) for i, r in children}


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
def test_every_two_piece_position_matches_the_slow_twin(small, variant):
    tables = _tables(small, variant)
    twin = _twin_two_pieces(variant)
    wrong = []
    for (pos, r), (value, plies) in twin.items():
        found = tables.probe(pos, r)
        if (found.value, found.plies) != (value, plies):
            wrong.append((pos.fen(), r, (value, plies), found))
    assert not wrong, f"{len(wrong)} of {len(twin)} differ, e.g. {wrong[:5]}"
    # the twin is not trivial: both results and the count's draws occur
    values = {v for v, _ in twin.values()}
    assert values == {"win", "loss", "draw"}


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
def test_every_position_agrees_with_its_moves(small, variant):
    lines = []
    assert egdb.verify(variant, small, progress=lines.append) == 0
    assert len(lines) == 16 and all(line.endswith("ok") for line in lines)


def test_verify_finds_a_wrong_entry(small, tmp_path):
    for name in ("american.json", "american.wld", "american.dist"):
        (tmp_path / name).write_bytes((small / name).read_bytes())
    dist = np.fromfile(tmp_path / "american.dist", dtype=np.uint8)
    wld = egdb.unpack_wld(np.fromfile(tmp_path / "american.wld", dtype=np.uint8), len(dist))
    first_win = int(np.flatnonzero(wld == K.V_WIN)[0])
    dist[first_win] += 2
    dist.tofile(tmp_path / "american.dist")
    lines = []
    assert egdb.verify(AMERICAN, tmp_path, progress=lines.append) >= 1  # it, and the positions that lead to it
    assert any("wrong, first index" in line for line in lines)


# --- what players know --------------------------------------------------------------------------


def test_two_kings_against_one_in_american_checkers(small):
    """Two kings against one: the two kings win from nearly every position, and never lose with the
    move; the few draws are forks and pins of two kings near an edge (e.g. B:WK3,K4:BK7, where 7-11
    leaves both kings unable to move without being taken or exchanged)."""
    tables = _tables(small, AMERICAN)
    with_move, lone_to_move = Counter(), Counter()
    for index in range(egdb.slice_size(AMERICAN, "0201")):
        pos = egdb.position_at(AMERICAN, "0201", index)  # two kings (White) to move
        if pos is None:
            continue
        with_move[tables.probe(pos).value] += 1
        lone = Position(AMERICAN, pos.white, pos.black, pos.kings, Color.BLACK)
        if not lone.has_capture():
            lone_to_move[tables.probe(lone).value] += 1
    assert with_move["loss"] == 0 and with_move["win"] > 0.99 * sum(with_move.values())
    assert lone_to_move["win"] == 0 and lone_to_move["loss"] > 0.99 * sum(lone_to_move.values())
    assert tables.probe(Position.from_fen(AMERICAN, "B:WK3,K4:BK7")).value == "draw"
    assert tables.best_move(Position.from_fen(AMERICAN, "B:WK3,K4:BK7"))[0].end == 11


# --- the tables' moves played in a real Game record --------------------------------------------------


def _play_out(tables, game, limit=400):
    """Both sides play the tables' move until the record ends the game."""
    while not game.is_over and game.ply < limit:
        move, _ = tables.best_move(game.position, game.endgame_plies_left)
        game.play(move)
    return game.outcome


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
def test_table_moves_reach_the_tables_result_in_a_game(small, variant):
    """From random 3-piece positions, the tables' value comes true in the Game record (its own draw
    rules and counts): a win ends in a win within the distance outside the endgame rule."""
    tables = _tables(small, variant)
    rng = random.Random(5)
    materials = ["0201", "0111", "1101", "0120", "1011", "2001"]
    seen = set()
    for _ in range(150):
        material = rng.choice(materials)
        pos = egdb.position_at(variant, material, rng.randrange(egdb.slice_size(variant, material)))
        if pos is None:
            continue
        if rng.random() < 0.5:
            pos = Position(variant, pos.white, pos.black, pos.kings, Color.BLACK)
        if not pos.legal_moves():
            continue
        found = tables.probe(pos)
        game = Game(variant, pos)
        outcome = _play_out(tables, game)
        seen.add(found.value)
        if found.value == "draw":
            assert outcome.result == "draw", (pos.fen(), outcome)
            continue
        winner = pos.turn if found.value == "win" else pos.turn.opponent
        assert (outcome.result, outcome.reason) == (winner.label, "no_moves"), (pos.fen(), found, outcome)
        if tables.fresh_count(pos) is None and found.plies is not None:
            groups_on_the_way = variant.endgame_rule
            if not groups_on_the_way:
                assert game.ply == found.plies, pos.fen()
    assert seen == {"win", "loss", "draw"}


def test_the_endgame_count_decides_in_international(small):
    """King + man against king with White to move: with a fresh count (10 plies) some wins are
    there; with fewer plies left the same position can only be drawn."""
    tables = _tables(small, INTERNATIONAL)
    flipped = 0
    for index in range(0, egdb.slice_size(INTERNATIONAL, "1101"), 7):
        pos = egdb.position_at(INTERNATIONAL, "1101", index)
        if pos is None:
            continue
        fresh = tables.probe(pos)
        if fresh.value == "win" and fresh.plies > 1:
            assert tables.probe(pos, fresh.plies).value == "win"
            assert tables.probe(pos, fresh.plies - 1).value == "draw"
            flipped += 1
    assert flipped > 100


# --- the search --------------------------------------------------------------------------------


def test_a_root_in_the_tables_plays_their_fastest_win(cached):
    searcher = Searcher(tt_size_mb=1, endgame_tables=True)
    pos = Position.from_fen(AMERICAN, "W:WK14,K22:BK32")
    move, probe = searcher.tables(AMERICAN).best_move(pos)
    infos = []
    result = searcher.search(Game(AMERICAN, pos), Limits(depth=8), on_info=infos.append)
    assert result.move == move and result.nodes == 0 and probe.value == "win"
    assert result.score == EGDB_ROOT - probe.plies > EGDB_BOUND
    assert len(infos) == 1 and infos[0].score == result.score
    # played out by the search on both sides, the win comes in exactly that many plies
    game = Game(AMERICAN, pos)
    while not game.is_over:
        game.play(searcher.search(game, Limits(depth=4)).move)
    assert game.outcome.result == "white" and game.ply == probe.plies
    # without tables, the same root is searched
    plain = Searcher(tt_size_mb=1)
    assert plain.tables(AMERICAN) is None and plain.search(Game(AMERICAN, pos), Limits(depth=4)).nodes > 0


def test_a_drawn_root_is_searched_and_keeps_the_draw(cached):
    searcher = Searcher(tt_size_mb=1, endgame_tables=True)
    pos = Position.from_fen(AMERICAN, "B:WK3,K4:BK7")  # 7-11 holds both kings; 7-2 and 7-10 lose
    result = searcher.search(Game(AMERICAN, pos), Limits(depth=6))
    assert result.nodes > 0 and pos.move_text(result.move) == "7-11" and result.score == 0


def test_the_tree_knows_the_tables_results(cached):
    """Two kings each (4 pieces, not in 3-piece tables), White to move must take 2x11: the 2 kings
    against 1 that follow are won in 26 more plies, far beyond a 3-ply search, but the tables below
    the root know it."""
    pos = Position.from_fen(AMERICAN, "W:WK1,K2:BK7,K23")
    assert egdb.load(AMERICAN).probe(pos.play(pos.parse_move("2x11"))) == egdb.Probe("loss", 26)
    with_tables = Searcher(tt_size_mb=1, endgame_tables=True).search(Game(AMERICAN, pos), Limits(depth=3))
    without = Searcher(tt_size_mb=1).search(Game(AMERICAN, pos), Limits(depth=3))
    assert with_tables.score == EGDB_WIN + 100 * (2 - 1)  # a piece ahead, seen from the root
    assert 0 < without.score < EGDB_BOUND


def test_a_searcher_finds_tables_built_after_it_started(small, tmp_path, monkeypatch):
    monkeypatch.setenv(egdb.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr("engine.search._EGDB_RECHECK_SECONDS", 0.0)
    searcher = Searcher(tt_size_mb=1, endgame_tables=True)
    assert searcher.tables(AMERICAN) is None
    (tmp_path / "egdb").mkdir()
    for name in ("american.json", "american.wld", "american.dist"):
        (tmp_path / "egdb" / name).write_bytes((small / name).read_bytes())
    assert searcher.tables(AMERICAN) is not None


# --- building --------------------------------------------------------------------------------


def test_an_interrupted_build_resumes_to_the_same_tables(small, tmp_path):
    class Stop(Exception):
        pass

    def stop_after_six(text):
        if "pair 6/" in text:
            raise Stop

    with pytest.raises(Stop):
        egdb.build(AMERICAN, 3, tmp_path, progress=stop_after_six)
    assert not (tmp_path / "american.json").exists()  # not finished: no metadata, nothing loads
    assert egdb.load(AMERICAN, tmp_path) is None
    assert len(list((tmp_path / "american.parts").glob("*.npy"))) == 6
    lines = []
    egdb.build(AMERICAN, 3, tmp_path, progress=lines.append)
    assert sum("resumed" in line for line in lines) == 6
    for name in ("american.wld", "american.dist"):
        assert (tmp_path / name).read_bytes() == (small / name).read_bytes()
    assert not (tmp_path / "american.parts").exists()


def test_a_bigger_build_extends_a_smaller_one(small, tmp_path):
    egdb.build(AMERICAN, 2, tmp_path)
    assert egdb.read_info(AMERICAN, tmp_path)["pieces"] == 2
    lines = []
    info = egdb.build(AMERICAN, 3, tmp_path, progress=lines.append)
    assert info["pieces"] == 3 and sum("kept" in line for line in lines) == 3
    assert (tmp_path / "american.dist").read_bytes() == (small / "american.dist").read_bytes()


def test_a_second_builder_in_a_folder_is_refused_whatever_it_builds(tmp_path):
    with egdb._locked(egdb._lock_path(tmp_path)):
        for variant in (AMERICAN, INTERNATIONAL):
            with pytest.raises(egdb.BuildBusyError):
                egdb.build(variant, 2, tmp_path)
    egdb.build(INTERNATIONAL, 2, tmp_path)  # the lock was let go
    assert egdb.read_info(INTERNATIONAL, tmp_path)["pieces"] == 2


def _background_build(folder: Path) -> subprocess.Popen:
    env = dict(os.environ, **{egdb.CACHE_ENV: str(folder.parent)})
    return subprocess.Popen([sys.executable, "-m", "engine", "egdb", "build", "--background", "--dir", str(folder)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_one_background_build_at_a_time_in_a_folder(tmp_path):
    """A second game's build (both rule sets' tables missing) leaves the folder to the first, which
    is building American: it neither waits for it nor builds International meanwhile."""
    folder = tmp_path / "egdb"
    first = _background_build(folder)
    try:
        assert first.stdout is not None and "american 5 pieces: pair 1/" in first.stdout.readline()
        second = _background_build(folder)
        out, _ = second.communicate(timeout=30)
        assert second.returncode == 0 and "another process is building" in out, out
        assert "international" not in out and not list(folder.glob("international*"))
        assert is_running(first.pid)
    finally:
        first.kill()
        first.wait(10)


# the background build's main loop, its building replaced by a call that holds the interpreter lock
# for minutes (as a kernel that holds it would): the parent's end must end it all the same
_BUILD_HOLDING_THE_LOCK = """
import sys
from engine import egdb
def build(*args, **kwargs):
    print("building", flush=True)
    sum(range(10 ** 11))
egdb.build = egdb._build_locked = build  # (build: what it called before it took the folder's lock)
egdb.build_in_background(sys.argv[1])
"""
_PARENT = """
import subprocess, sys, time
from engine.lifeline import parent_env
build = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]], env=parent_env(), stdout=subprocess.PIPE,
                         text=True)
assert build.stdout.readline().strip() == "building"
print(build.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_background_build_ends_with_its_parent_however_busy(tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, _BUILD_HOLDING_THE_LOCK, str(tmp_path)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        build = int(parent.stdout.readline())
        assert is_running(build)
        parent.kill()  # SIGKILL: nothing of the parent's runs any more
        parent.wait(10)
        assert wait_gone(build, 3.0), "the build outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()
        if "build" in locals() and is_running(build):
            os.kill(build, 9)


def test_tables_for_other_rules_or_formats_are_not_used(small, tmp_path):
    for name in ("american.json", "american.wld", "american.dist"):
        (tmp_path / name).write_bytes((small / name).read_bytes())
    assert egdb.load(AMERICAN, tmp_path) is not None
    info = json.loads((tmp_path / "american.json").read_text())
    info["format"] = egdb.FORMAT + 1
    (tmp_path / "american.json").write_text(json.dumps(info))
    assert egdb.load(AMERICAN, tmp_path) is None
    assert "american" in egdb.missing(tmp_path)


def test_no_background_build_when_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv(egdb.AUTOBUILD_ENV, "0")
    assert egdb.start_background_build(tmp_path) is None
    assert not any(tmp_path.iterdir())


def test_the_cache_directory_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(egdb.CACHE_ENV, str(tmp_path))
    assert egdb.egdb_dir() == tmp_path / "egdb"


def test_the_index_round_trips_and_flips(small):
    for variant in (AMERICAN, INTERNATIONAL):
        geo = egdb.geometry(variant, 3)
        rng = random.Random(1)
        for material in ("0102", "1011", "2010", "0111"):
            for _ in range(300):
                index = rng.randrange(egdb.slice_size(variant, material))
                pos = egdb.position_at(variant, material, index)
                if pos is None:
                    continue
                key, again = K.encode(np.uint64(pos.white), np.uint64(pos.black), np.uint64(pos.kings), geo.params,
                                      geo.sq_of_bit, geo.binom)
                assert again == index
                # the same position with the other side to move, turned round, is the same index
                top = int(geo.params[K.P_TOP_BIT])
                turned = Position(variant, int(K.flip(np.uint64(pos.black), top)),
                                  int(K.flip(np.uint64(pos.white), top)), int(K.flip(np.uint64(pos.kings), top)),
                                  Color.BLACK)
                t = _tables(small, variant)
                assert t.probe(turned) == t.probe(pos)


# --- the command line --------------------------------------------------------------------------


def _engine(*args):
    env = dict(os.environ, **{egdb.AUTOBUILD_ENV: "0"})
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env=env)


def test_cli_probe_and_info(small):
    run = _engine("egdb", "probe", "--variant", "american", "--fen", "W:WK14,K22:BK32", "--dir", str(small), "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["value"] == "win" and out["plies"] >= 1 and out["move"] in out["moves"]
    assert out["moves"][out["move"]]["value"] == "loss"
    run = _engine("egdb", "info", "--dir", str(small), "--json")
    assert run.returncode == 0, run.stderr
    rows = {r["variant"]: r for r in json.loads(run.stdout)["tables"]}
    assert rows["american"]["pieces"] == 3 and rows["american"]["positions"] == 202280
    run = _engine("egdb", "probe", "--variant", "american", "--fen", "W:W5-12:B20", "--dir", str(small))
    assert run.returncode == 2 and "not in the tables" in run.stderr


def test_cli_probe_without_tables_says_how_to_build(tmp_path):
    run = _engine("egdb", "probe", "--variant", "10x10", "--fen", "W:WK1:BK50", "--dir", str(tmp_path))
    assert run.returncode == 2 and "egdb build --variant international" in run.stderr


def test_tune_exact_labels_each_game_with_the_tables(small, tmp_path):
    """``tune exact``: a game that reaches the tables takes their value as its result, from its first
    position there back to its start; a position in the tables gets its own value as its score;
    the next game (its piece count rises) and the positions of a game that never reaches them keep
    theirs."""
    from engine.network import DECIDED

    fens = ["W:WK14,K22:BK32,K31", "W:WK14,K22:BK32", "B:WK14,K22:BK32", "W:W21-32:B1-12"]
    positions = [Position.from_fen(AMERICAN, fen) for fen in fens]
    tables = _tables(small, AMERICAN)
    assert [tables.probe(p) is not None for p in positions] == [False, True, True, False]
    assert (tables.probe(positions[1]).value, tables.probe(positions[2]).value) == ("win", "loss")
    data = {"variant": "american", "command": "python -m engine tune generate (by hand)",
            "white": np.array([p.white for p in positions], dtype=np.uint64),
            "black": np.array([p.black for p in positions], dtype=np.uint64),
            "kings": np.array([p.kings for p in positions], dtype=np.uint64),
            "turn": np.array([int(p.turn) for p in positions], dtype=np.int8),
            "result": np.array([0.5, 0.5, 0.5, 0.0], dtype=np.float32),  # White misplayed a won ending
            "score": np.array([12, 40, -35, -5], dtype=np.int32)}
    np.savez_compressed(tmp_path / "in.npz", **data)
    run = _engine("tune", "exact", "--data", str(tmp_path / "in.npz"), "--tables", str(small),
                  "--out", str(tmp_path / "out.npz"))
    assert run.returncode == 0, run.stderr
    assert "2 games, 4 positions: 2 in the 3-piece tables, 3 results changed" in run.stdout
    with np.load(tmp_path / "out.npz") as out:
        assert out["result"].tolist() == [1.0, 1.0, 1.0, 0.0]
        assert out["score"].tolist() == [12, DECIDED, -DECIDED, -5]
        assert "tune exact" in str(out["command"])
    run = _engine("tune", "exact", "--data", str(tmp_path / "in.npz"), "--tables", str(tmp_path / "none"),
                  "--out", str(tmp_path / "never.npz"))
    assert run.returncode == 2 and "egdb build --variant american" in run.stderr
    assert not (tmp_path / "never.npz").exists()


# --- the full tables (slow) ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """The default tables (American 5 pieces, International 4): from the folder
    ``CHECKERS3D_EGDB_TABLES`` names when they are built there, else built here (minutes)."""
    given = os.environ.get("CHECKERS3D_EGDB_TABLES")
    folder = Path(given) if given else tmp_path_factory.mktemp("full") / "egdb"
    for variant in (AMERICAN, INTERNATIONAL):
        egdb.build(variant, None, folder)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("fen, value, best", [
    # First Position, White to play and win: ACF, "Standard Positions", winning 1st position
    # (http://www.acfcheckers.com/std2.html), whose solution starts 15-19
    ("W:W20,K15:B12,K28", "win", "15-19"),
    # 3 kings against 2, either to play White wins; with White to play 22-25! wins at once
    # (B. Newell, The Checker Maven, http://www.bobnewell.net/nucleus/checkers.php?itemid=1162)
    ("W:WK22,K23,K24:BK31,K32", "win", "22-25"),
    ("B:WK22,K23,K24:BK31,K32", "loss", None),
    # First Position "without" (the stronger side without the move), Black to play and win, 15-10
    # (The Checker Maven, http://www.bobnewell.net/nucleus/checkers.php?itemid=1071)
    ("B:W22,K5:BK15,K6", "win", "15-10"),
])
def test_published_american_endings(full, fen, value, best):
    tables = _tables(full, AMERICAN)
    pos = Position.from_fen(AMERICAN, fen)
    assert tables.probe(pos).value == value
    if best is not None:
        assert pos.move_text(tables.best_move(pos)[0]) == best


@pytest.mark.slow
def test_first_position_needs_the_move(full):
    """With Black to move First Position is not won (White lacks "the move"); the win takes 81 plies
    of best play, about the length of the published solution (23 White moves in its main line)."""
    tables = _tables(full, AMERICAN)
    assert tables.probe(Position.from_fen(AMERICAN, "B:W20,K15:B12,K28")).value == "draw"
    assert tables.probe(Position.from_fen(AMERICAN, "W:W20,K15:B12,K28")) == egdb.Probe("win", 81)


@pytest.mark.slow
def test_three_kings_against_one_on_10x10_under_the_16_move_rule(full):
    """3 kings against a lone king: a lone king alone on the main diagonal leaves 5 moves each, in
    which the 3 kings (to move, nothing to take either way) seldom win; elsewhere the 16 moves win
    far more often. The count decides: with fewer plies left, fewer wins."""
    from engine._draws import endgame_rule

    tables = _tables(full, INTERNATIONAL)
    diag = int(endgame_rule(INTERNATIONAL).main_diagonal)
    wins = Counter()
    total = Counter()
    for index in range(0, egdb.slice_size(INTERNATIONAL, "0301"), 5):
        pos = egdb.position_at(INTERNATIONAL, "0301", index)
        if pos is None or pos.has_capture():
            continue
        where = "lone king on the diagonal" if pos.black & diag and not pos.white & diag else "elsewhere"
        total[where] += 1
        found = tables.probe(pos)
        wins[where] += found.value == "win"
        if where == "elsewhere" and found.value == "win":
            assert found.plies <= 31 and tables.probe(pos, found.plies - 1).value == "draw"
    assert wins["lone king on the diagonal"] < 0.05 * total["lone king on the diagonal"]
    assert 0.2 * total["elsewhere"] < wins["elsewhere"] < 0.5 * total["elsewhere"]


@pytest.mark.slow
@pytest.mark.parametrize("variant, depth", [(AMERICAN, 13), (INTERNATIONAL, 9)], ids=["american", "international"])
def test_tables_agree_with_a_deep_search(full, variant, depth):
    """Random positions of the largest tables: a forced result the search finds is the tables' value,
    no faster than their distance (same parity); where it finds none, the tables claim none short
    enough for it to have seen."""
    from engine.search import MATE, MATE_BOUND

    tables = _tables(full, variant)
    materials = [egdb._name(m) for m in egdb._materials(tables.pieces) if sum(m) == tables.pieces]
    rng = random.Random(11)
    searcher = Searcher(tt_size_mb=16)
    checked = found = 0
    while checked < 100:
        material = rng.choice(materials)
        pos = egdb.position_at(variant, material, rng.randrange(egdb.slice_size(variant, material)))
        if pos is None:
            continue
        if rng.random() < 0.5:
            pos = Position(variant, pos.white, pos.black, pos.kings, Color.BLACK)
        if not pos.legal_moves():
            continue
        probe = tables.probe(pos)
        searcher.new_game()
        score = searcher.search(Game(variant, pos), Limits(depth=depth)).score
        counted = tables.fresh_count(pos) is not None
        if abs(score) > MATE_BOUND:
            found += 1
            assert probe.value == ("win" if score > 0 else "loss"), pos.fen()
            if not counted:
                plies = MATE - abs(score)
                assert probe.plies <= plies and (plies - probe.plies) % 2 == 0, pos.fen()
        elif not counted:
            assert probe.value == "draw" or probe.plies > depth - 4, pos.fen()
        checked += 1
    assert found > 20


# a fresh process warms up as the worker does, then asks the tables for a move: nothing more loads
_NO_LOADING_AFTER_WARM_UP = """
import sys
from engine import AMERICAN, Position, egdb
from engine import _draws, _egdb, _movegen, _search
from engine.search import Searcher

def signatures():
    kernels = [getattr(m, n) for m in (_draws, _egdb, _movegen, _search) for n in dir(m)]
    return {k: len(k.signatures) for k in kernels if hasattr(k, "signatures")}

Searcher(tt_size_mb=1, endgame_tables=True).warm_up()
before = signatures()
tables = egdb.load(AMERICAN, sys.argv[1])
tables.move_values(Position.from_fen(AMERICAN, "W:WK18:BK6,10"))
after = signatures()
print(sorted(k.__name__ for k in after if after[k] != before[k]))
"""


def test_the_warm_up_loads_every_kernel_a_table_move_runs_from_python(small):
    """The worker hands LLVM's code back after its warm-up (engine/pages.py): a kernel first loaded
    later, when the tables answer a root, would fault much of it back in."""
    out = subprocess.run([sys.executable, "-c", _NO_LOADING_AFTER_WARM_UP, str(small)], capture_output=True,
                         text=True, timeout=300, cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"

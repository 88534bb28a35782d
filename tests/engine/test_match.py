"""Matches: the Elo arithmetic on known numbers, player settings, the opening sets, and a tiny match
played to the end (in-process and through the command line)."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from processes import children_of, command_line, is_running, wait_gone

from engine import AMERICAN, INTERNATIONAL
from engine._eval import default_weights
from engine.game import Game
from engine.match import Player, _resigning, elo, elo_with_margin, extended_opening, match_openings, play_game, run_match
from engine.openings import AMERICAN_BALLOTS, INTERNATIONAL_OPENINGS, openings_for
from engine.sprt import Sprt
from engine.variants import RUSSIAN

ROOT = Path(__file__).resolve().parents[2]


def test_elo_of_known_scores():
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(400 * math.log10(3))  # 3:1 odds, about +190.8
    assert elo(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo(10 / 11) == pytest.approx(400.0)  # 10:1 odds are 400 Elo by definition
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_elo_margin_of_known_results():
    # 60 wins, 20 draws, 20 losses: s = 0.7; per-game variance (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16,
    # standard error sqrt(0.16/100) = 0.04, 95% interval 0.7 -+ 0.0784 = 0.6216 .. 0.7784
    e, margin = elo_with_margin(60, 20, 20)
    assert e == pytest.approx(147.19, abs=0.01)
    low, high = -400 * math.log10(1 / 0.6216 - 1), -400 * math.log10(1 / 0.7784 - 1)
    assert margin == pytest.approx((high - low) / 2, abs=0.05)
    assert margin == pytest.approx(66.0, abs=0.1)
    # all draws: no spread, no margin; an even score with spread is 0 +- something
    assert elo_with_margin(0, 10, 0) == (0.0, 0.0)
    e, margin = elo_with_margin(5, 0, 5)
    assert e == 0.0 and margin > 0
    assert elo_with_margin(4, 0, 0)[1] == math.inf
    with pytest.raises(ValueError):
        elo_with_margin(0, 0, 0)


def test_player_settings(tmp_path):
    assert Player.parse("level=hard") == Player(level="hard")
    assert Player.parse("hard") == Player(level="hard")
    assert Player.parse("depth=6") == Player(depth=6)
    assert Player.parse("depth=8, movetime=0.5,tt=4") == Player(depth=8, movetime=0.5, tt_mb=4)
    assert str(Player.parse("movetime=0.1")) == "movetime=0.1"
    for bad, why in [("level=expert", "bad value"), ("speed=3", "unknown setting"), ("depth=x", "bad value"),
                     ("tt=8", "give a level"), ("level=hard,depth=3", "not both")]:
        with pytest.raises(ValueError, match=why):
            Player.parse(bad)
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({"american": list(default_weights(AMERICAN))}))
    assert Player.parse(f"depth=2,weights={weights}").weights == str(weights)
    weights.write_text(json.dumps({"american": [1, 2, 3]}))
    with pytest.raises(ValueError, match="needs"):
        Player.parse(f"depth=2,weights={weights}")
    with pytest.raises(ValueError, match="can't read"):
        Player.parse(f"depth=2,weights={tmp_path / 'missing.json'}")


@pytest.mark.parametrize("variant, book", [(AMERICAN, AMERICAN_BALLOTS), (INTERNATIONAL, INTERNATIONAL_OPENINGS)])
def test_openings_are_legal_distinct_and_unfinished(variant, book):
    assert openings_for(variant) == book and len(book) >= 50
    positions = set()
    for opening in book:
        game = Game(variant)
        for text in opening.split():
            game.play(text)
        assert not game.is_over
        positions.add(game.position)
    assert len(positions) == len(book)


def test_the_american_deck_is_the_reference_list():
    assert len(AMERICAN_BALLOTS) == 157
    assert AMERICAN_BALLOTS[0] == "9-13 21-17 5-9" and AMERICAN_BALLOTS[-1] == "12-16 24-20 10-15"


def test_tiny_match_runs_to_the_end():
    a, b = Player(depth=1, tt_mb=1), Player(depth=3, tt_mb=1)
    match = run_match(AMERICAN, a, b, games=4, seed=3)
    assert len(match.games) == 4
    assert [g.a_first for g in match.games] == [True, False, True, False]
    assert match.games[0].opening == match.games[1].opening
    for g in match.games:
        game = Game(AMERICAN)
        for text in g.moves.split():
            game.play(text)
        assert game.ply == g.plies
        if g.reason == "adjudicated":
            assert not game.is_over and g.result == "draw"
        else:
            assert game.outcome.result == g.result and game.outcome.reason == g.reason
        a_color = "black" if g.a_first else "white"  # Black moves first in American checkers
        assert g.points == (0.5 if g.result == "draw" else float(g.result == a_color))
    s = match.summary()
    assert s["wins"] + s["draws"] + s["losses"] == 4
    assert s["score"] == pytest.approx(sum(g.points for g in match.games) / 4)


def test_an_opening_with_a_colon_capture_is_played_as_moves():
    # Russian writes a capture b4:d6: such an opening is moves from the start, not a FEN
    opening = next(o for o in openings_for(RUSSIAN) if ":" in o)
    g = play_game(RUSSIAN, opening, Player(depth=1, tt_mb=1), Player(depth=1, tt_mb=1), True, 0, 1)
    assert g.moves.split()[:len(opening.split())] == opening.split()
    game = Game(RUSSIAN)
    for text in g.moves.split():
        game.play(text)
    assert game.ply == g.plies


def test_resign_needs_both_players_to_agree_for_the_whole_streak():
    assert _resigning([320, 310, 400, 305], 300, 2) == "second"
    assert _resigning([-320, -310, -400, -305], 300, 2) == "first"
    assert _resigning([320, 310, 400, 299], 300, 2) is None  # one player sees less than the margin
    assert _resigning([320, None, 400, 305], 300, 2) is None  # a random move breaks the streak
    assert _resigning([310, 400, 305], 300, 2) is None  # too short
    assert _resigning([-500, 320, 310, 400, 305], 300, 2) == "second"  # only the last moves count


def test_resigned_games_are_won_and_unfinished():
    a, b = Player(depth=1, tt_mb=1), Player(depth=5, tt_mb=1)
    match = run_match(AMERICAN, a, b, games=4, seed=5, resign=200, resign_moves=2)
    resigned = [g for g in match.games if g.reason == "resigned"]
    assert resigned, [g.reason for g in match.games]
    for g in resigned:
        game = Game(AMERICAN)
        for text in g.moves.split():
            game.play(text)
        assert not game.is_over and g.result in ("white", "black") and g.points in (0.0, 1.0)
    with pytest.raises(ValueError, match="resign"):
        run_match(AMERICAN, a, b, games=2, resign=0, resign_moves=2)


def test_match_command_line():
    out = subprocess.run([sys.executable, "-m", "engine", "match", "--variant", "international", "--games", "2",
                          "--a", "depth=1,tt=1", "--b", "depth=2,tt=1", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["games"] == 2 and s["wins"] + s["draws"] + s["losses"] == 2 and len(s["game_list"]) == 2
    assert s["a"] == "depth=1" and s["b"] == "depth=2"
    bad = subprocess.run([sys.executable, "-m", "engine", "match", "--a", "level=expert"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "expert" in bad.stderr


def test_endgame_starts_are_quiet_level_endings_and_repeatable():
    from engine.match import endgame_starts
    from engine.position import Position

    starts = endgame_starts(AMERICAN, 7, 3, seed=2)
    assert len(starts) == 3 and len(set(starts)) == 3
    for fen in starts:
        pos = Position.from_fen(AMERICAN, fen)
        assert 5 <= (pos.white | pos.black).bit_count() <= 7 and not pos.has_capture() and pos.legal_moves()
    assert endgame_starts(AMERICAN, 7, 3, seed=2) == starts


def test_a_match_from_endings_through_the_command_line():
    run = subprocess.run([sys.executable, "-m", "engine", "match", "--a", "depth=2", "--b", "depth=1,egdb=on",
                          "--endings", "6", "--games", "2", "--json"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["games"] == 2 and data["b"] == "depth=1,egdb=True"
    first, second = data["game_list"]
    assert first["opening"] == second["opening"] and ":" in first["opening"]  # one FEN, colours swapped
    assert first["a_first"] != second["a_first"]
def test_level_settings():
    assert Player.parse("level=hard,movetime=0.3") == Player(level="hard", movetime=0.3)
    assert Player.parse("hard,book=off") == Player(level="hard", book=False)
    assert str(Player.parse("hard,book=off")) == "level=hard,book=off"
    for bad, why in [("level=medium,movetime=1", "timed level"), ("depth=3,book=off", "goes with a level"),
                     ("hard,book=maybe", "on or off"), ("hard,depth=3", "not both")]:
        with pytest.raises(ValueError, match=why):
            Player.parse(bad)


def test_outside_engine_settings():
    p = Player.parse("hub=/opt/dame hub --x=1,movetime=1.5,dir=/tmp")
    assert p == Player(hub="/opt/dame hub --x=1", movetime=1.5, cwd="/tmp")
    assert Player.parse("hub=dame hub") == Player(hub="dame hub")  # the engine's own time control
    for bad, why in [("hub=dame,level=hard", "not level"), ("hub=dame,tt=8", "not tt_mb"), ("hub=", "bad value"),
                     ("depth=3,dir=/tmp", "dir= goes with hub=")]:
        with pytest.raises(ValueError, match=why):
            Player.parse(bad)


def test_match_against_our_hub_as_an_outside_engine():
    hub = Player(hub=f"{sys.executable} -m engine hub --tt-size 1", depth=2, cwd=str(ROOT))
    match = run_match(AMERICAN, Player(depth=2, tt_mb=1), hub, games=2, seed=4)
    assert len(match.games) == 2 and match.games[0].opening == match.games[1].opening
    for g in match.games:
        game = Game(AMERICAN)
        for text in g.moves.split():
            game.play(text)
        assert game.ply == g.plies and g.reason != "forfeit" and g.b_max_seconds > 0
        played = g.plies - len(g.opening.split())  # the plies after the opening's: each side its own
        assert g.a_moves + g.b_moves == played and abs(g.a_moves - g.b_moves) <= 1
        if g.reason != "adjudicated":
            assert game.outcome.result == g.result
    # the same engine searching to the same depth: each side wins the pair's games alike
    assert match.games[0].moves == match.games[1].moves
    s = match.summary()
    assert s["pentanomial"] == [0, 0, 1, 0, 0]
    for side in "ab":  # the mean move: the side's thinking time over its moves, at most its longest
        moves = sum(getattr(g, f"{side}_moves") for g in match.games)
        assert s[f"{side}_mean_move_seconds"] == round(sum(getattr(g, f"{side}_seconds") for g in match.games) / moves, 3)
        assert 0 <= s[f"{side}_mean_move_seconds"] <= s[f"{side}_max_move_seconds"]


def test_an_engine_naming_illegal_moves_forfeits(tmp_path):
    script = tmp_path / "illegal.py"
    script.write_text("import sys\n"
                      "for line in sys.stdin:\n"
                      "    c = line.split()[0] if line.split() else ''\n"
                      "    out = {'hub': 'param name=variant type=enum values=american\\nwait', 'init': 'ready',\n"
                      "           'ping': 'pong', 'go': 'done move=1-2'}.get(c)\n"
                      "    if out: print(out, flush=True)\n")
    match = run_match(AMERICAN, Player(depth=1, tt_mb=1), Player(hub=f"{sys.executable} {script}"), games=2)
    assert [g.reason for g in match.games] == ["forfeit", "forfeit"]
    assert all(g.points == 1.0 and "B forfeits" in g.note and "1-2" in g.note for g in match.games)
    assert match.summary()["forfeits"] == 2


def test_sprt_stops_the_match_at_its_verdict():
    sprt = Sprt(0, 200, alpha=0.3, beta=0.3)  # wide bounds, so a few pairs decide
    match = run_match(AMERICAN, Player(depth=7, tt_mb=1), Player(depth=1, tt_mb=1), games=40, seed=2, sprt=sprt)
    assert match.sprt is not None and match.sprt["verdict"] is not None
    assert len(match.games) < 40 and len(match.games) % 2 == 0
    assert match.sprt["pairs"] == len(match.games) // 2
    assert match.sprt == sprt.status(match.pair_points())
    # no verdict a pair earlier
    assert sprt.status(match.pair_points()[:-1])["verdict"] is None
    assert match.summary()["sprt"]["verdict"] == match.sprt["verdict"]


def test_sprt_command_line():
    out = subprocess.run([sys.executable, "-m", "engine", "match", "--games", "2", "--a", "depth=2,tt=1",
                          "--b", "depth=1,tt=1", "--sprt", "0,10"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert "SPRT elo0=0 elo1=10" in out.stdout and "after 1 pairs" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "engine", "match", "--sprt", "10,0"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode != 0 and "elo0 < elo1" in bad.stderr


def test_a_match_longer_than_its_opening_set_plays_new_openings():
    # the second time round each opening gets a seeded random move, the third time two: players
    # without randomness (fixed depth or nodes) would otherwise play the very same games again
    book = openings_for(AMERICAN)
    openings = match_openings(AMERICAN, 2 * len(book) + 3, seed=2)
    assert sorted(openings[:len(book)]) == sorted(book)
    assert len(set(openings)) == len(openings)
    for i, opening in enumerate(openings):
        assert len(opening.split()) == 3 + i // len(book)
        assert " ".join(opening.split()[:3]) in book
        game = Game(AMERICAN)
        for text in opening.split():
            game.play(text)
        assert not game.is_over
    assert openings == match_openings(AMERICAN, 2 * len(book) + 3, seed=2)
    assert extended_opening(AMERICAN, book[0], 2, random.Random(5)) == extended_opening(AMERICAN, book[0], 2,
                                                                                      random.Random(5))


def _workers(pid: int) -> set[int]:
    """The pool processes the match ``pid`` started."""
    return {child for child in children_of(pid) if "spawn_main" in command_line(child)}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_a_killed_match_takes_its_game_processes_with_it():
    # a match playing two games at a time, killed (SIGKILL: it can't shut its pool down): the
    # processes playing its games end with it instead of playing on unseen
    match = subprocess.Popen([sys.executable, "-m", "engine", "match", "--games", "400", "--concurrency", "2",
                              "--a", "depth=6,tt=1", "--b", "depth=6,tt=1"], cwd=ROOT, stderr=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, text=True)
    workers: set[int] = set()
    try:
        assert match.stderr is not None
        assert match.stderr.readline().startswith("game "), "no game played"  # the workers play
        workers = _workers(match.pid)
        assert len(workers) == 2
        match.kill()
        match.wait(10)
        assert all(wait_gone(pid, 5) for pid in workers), "a match's worker outlived it"
    finally:
        match.kill()
        for pid in workers:
            if is_running(pid):
                os.kill(pid, 9)

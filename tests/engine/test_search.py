"""The search: tactics found, determinism, stopping, levels, draw rules, the numba cache, the CLI.

Tactical positions come from random games and were kept only when a slow, obvious twin (plain
negamax over Position.legal_moves counting pieces, captures searched to the end) agrees that exactly
one move wins material; the twin runs here again so the claim is checked, not trusted.
"""

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

from engine import AMERICAN, INTERNATIONAL, Color, Move, Position
from engine.game import Game
from engine.search import (
    LEVELS,
    MATE_BOUND,
    Info,
    Limits,
    Searcher,
    SearchResult,
    accepts_draw,
    choose_move,
    in_opening,
    offers_draw,
)
from engine.variants import BRAZILIAN, CZECH, ITALIAN, POOL, RUSSIAN, THAI

ROOT = Path(__file__).resolve().parents[2]

# American: 23-19 gives a man (16x23) and 26x19x10x3... takes three and crowns: two men up.
AMERICAN_SHOT = ("W:W22-27,29,30,32:B1,4,5,7-9,12,15,16,21", "23-19")
# International: 25-30 gives a man; after 35x24 Black's multi-capture wins two men net.
INTERNATIONAL_SHOT = ("B:W32,33,35,36,39,42-49:B1,3-7,9,12-17,20-22,25", "25-30")


@pytest.fixture(scope="module")
def searcher():
    s = Searcher(tt_size_mb=8)
    s.warm_up()
    return s


def _pieces(pos: Position, color: Color) -> int:
    men, kings = pos.count(color)
    return men + kings


def _twin(pos: Position, depth: int, alpha: int = -10**9, beta: int = 10**9) -> int:
    """Pieces ahead for the side to move after ``depth`` plies of plain negamax; positions where the
    side to move must capture are searched on (no horizon in the middle of a capture sequence)."""
    moves = pos.legal_moves()
    if not moves:
        return -1000
    if depth <= 0 and not moves[0].captured:
        return _pieces(pos, pos.turn) - _pieces(pos, pos.turn.opponent)
    best = -10**9
    for m in moves:
        v = -_twin(pos.play(m), depth - 1, -beta, -alpha)
        best = max(best, v)
        alpha = max(alpha, v)
        if alpha >= beta:
            break
    return best


def _game(pos: Position) -> Game:
    """A game record that starts from ``pos`` (no history): what the search takes."""
    return Game(pos.variant, pos)


def _random_position(variant, rng: random.Random, plies: int) -> Position:
    pos = Position.initial(variant)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(rng.choice(moves))
    return pos


# --- kernels the search leans on ---------------------------------------------------------------

def test_bit_instructions_match_python():
    from engine._movegen import lsb, popcount
    rng = random.Random(5)
    for _ in range(2000):
        x = rng.getrandbits(64) | 1 << rng.randrange(64)
        assert popcount(np.uint64(x)) == bin(x).count("1")
        assert lsb(np.uint64(x)) == (x & -x).bit_length() - 1


def test_any_move_test_agrees_with_the_move_list():
    # the search declares a loss from has_capture/has_plain_move alone, before generating moves
    from engine import _board
    from engine._movegen import has_capture
    from engine._search import has_plain_move
    rng = random.Random(9)
    seen = {True: 0, False: 0}
    for i in range(400):
        variant = AMERICAN if i % 2 else INTERNATIONAL
        pos = _random_position(variant, rng, rng.randrange(0, 200))
        rules, masks, nbr, _ = _board.layout(variant)
        us, them = (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)
        args = (np.uint64(us), np.uint64(them), np.uint64(pos.kings), int(pos.turn), rules, masks)
        capture = has_capture(*args, nbr)
        assert capture == any(m.captured for m in pos.legal_moves()), pos.fen()
        can_move = bool(capture or has_plain_move(*args))
        assert can_move == bool(pos.legal_moves()), pos.fen()
        seen[can_move] += 1
    assert seen[False] > 0 and seen[True] > 100, seen


# --- tactics --------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,shot,min_captured", [(AMERICAN, AMERICAN_SHOT, 2),
                                                       (INTERNATIONAL, INTERNATIONAL_SHOT, 2)])
def test_shot_found_at_modest_depth(searcher, variant, shot, min_captured):
    fen, best = shot
    pos = Position.from_fen(variant, fen)
    # the twin: this move wins two pieces within 5 plies, no other move wins any
    base = _pieces(pos, pos.turn) - _pieces(pos, pos.turn.opponent)
    gains = {pos.move_text(m): -_twin(pos.play(m), 4) - base for m in pos.legal_moves()}
    assert gains[best] >= 2 and all(g <= 0 for t, g in gains.items() if t != best), gains
    searcher.new_game()
    result = searcher.search(_game(pos), Limits(depth=6))
    assert pos.move_text(result.move) == best
    assert result.score >= 150  # about two men up
    assert result.pv[0] == result.move
    # the PV holds the combination: a capture of at least two pieces by the side that sacrificed
    p, biggest = pos, 0
    for i, m in enumerate(result.pv):
        if i % 2 == 0:
            biggest = max(biggest, len(m.captured))
        p = p.play(m)
    assert biggest >= min_captured


def _searched_with_and_without(searcher, monkeypatch, setting, pos, depth):
    """``pos`` searched to ``depth`` from a fresh table with the search module's by-rule-set ``setting``
    as it ships, then with it empty (every rule set without it): the two results."""
    import engine.search as search_module
    results = []
    for value in (getattr(search_module, setting), {}):
        monkeypatch.setattr(search_module, setting, value)
        searcher.new_game()
        results.append(searcher.search(_game(pos), Limits(depth=depth)))
    return results


@pytest.mark.parametrize("variant,fen,depth", [(AMERICAN, "W:W22,24-26,28-30,32:B3-6,9,12,14,15,18", 11),
                                               (AMERICAN, "W:W12,16,21,22,25,30,32:B1,4,7,13-15,28", 13),
                                               (ITALIAN, "W:W22-26,29-32:B1-5,8,13-15", 11),
                                               (ITALIAN, "W:W9,14,22,23,26,27,30-32:B1-3,7,8,15,16", 11),
                                               (RUSSIAN, "W:W13,17,19,23,26,27,29-32:B1,4-12", 11),
                                               (RUSSIAN, "B:W19,21-23,25,26,28,29:B1-5,7,14", 11),
                                               (BRAZILIAN, "W:W13,17,19,23,26,27,29-32:B1,4-12", 11),
                                               (BRAZILIAN, "B:W20-22,25,27-31:B2-5,7,8,10,11,19,24", 11),
                                               (POOL, "B:W7,13,25,26,28,30,32:B1,4,5,12,16", 11),
                                               (POOL, "W:W13,21,26-31:B1,2,4-6,8,9,11,12,18", 11),
                                               (THAI, "B:W5,10,12,13,15:B21-24,27,28", 11),
                                               (THAI, "B:W3,4,6,10,20,23:B22,25,28,29,31", 11)])
def test_truncation_spends_fewer_nodes_on_lopsided_lines_for_the_same_move(searcher, monkeypatch, variant, fen, depth):
    # the rule sets that truncate search a line whose material is more than a man outside the window a
    # ply shallower (Cake's truncation); here it finds the same move and score with well under the nodes
    import engine.search as search_module
    assert search_module._TRUNCATION[variant.name][0] > 0
    # truncation alone: step 6b saves nodes of its own, and the singular extension spends more
    monkeypatch.setattr(search_module, "_REDUCTION_DEPTH", {})
    monkeypatch.setattr(search_module, "_SINGULAR", {})
    on, off = _searched_with_and_without(searcher, monkeypatch, "_TRUNCATION", Position.from_fen(variant, fen), depth)
    assert on.move == off.move
    assert abs(on.score - off.score) <= 10
    assert on.nodes < 0.6 * off.nodes, (on.nodes, off.nodes)


def test_truncation_counts_a_king_at_its_rule_sets_worth(searcher, monkeypatch):
    # Italian draughts counts a king as 250 in truncation's material (American: 130); with White a king
    # up against two men, the two worths truncate different lines, so the searches differ
    import engine.search as search_module
    plies, margin, king = search_module._TRUNCATION["italian"]
    assert king != search_module._TRUNCATION["american"][2]
    pos = Position.from_fen(ITALIAN, "B:WK3,18,23,24,28-32:B1,2,4,5,7,8,12")
    nodes = []
    for worth in (king, search_module._TRUNCATION["american"][2]):
        monkeypatch.setattr(search_module, "_TRUNCATION", {"italian": (plies, margin, worth)})
        searcher.new_game()
        nodes.append(searcher.search(_game(pos), Limits(depth=9)).nodes)
    assert nodes[0] != nodes[1], nodes


@pytest.mark.parametrize("variant,fen,depth", [
    (AMERICAN, "W:W22,24-26,28-30,32:B3-6,9,12,14,15,18", 11),
    (AMERICAN, "W:W12,16,21,22,25,30,32:B1,4,7,13-15,28", 13),
    (AMERICAN, "W:W7,12,20-22:B13,23,28,K30", 15),
    (INTERNATIONAL, "B:W28,34-38,40-50:B1-10,12,13,15,16,18-20,26", 9),
    (INTERNATIONAL, "B:W24,25,29,32,34,37,44-46,49,50:B1,2,4,10,11,14,18,22", 10),
    (BRAZILIAN, "B:W17,21,23,25,28-32:B1,2,4-7,10,12,14", 11),
    (BRAZILIAN, "W:W22,24,27-29,31,32:B3,4,7-10,12,14,16", 11),
    (CZECH, "W:W14,23-26,28-32:B1-6,9,15,16", 11),
    (THAI, "W:W1-5,12,19:B17,26-29,32", 11)])
def test_nodes_without_a_hash_move_searched_shallower_find_the_same_move_with_fewer_nodes(searcher, monkeypatch,
                                                                                         variant, fen, depth):
    # a deep node outside the PV that the table knows no move for is searched a ply shallower
    # (internal iterative reduction); here it finds the same move with fewer nodes
    import engine.search as search_module
    assert search_module._REDUCTION_DEPTH[variant.name] > 0
    # the reduction alone: the singular extension's verifying searches follow the table's moves, which it changes
    monkeypatch.setattr(search_module, "_SINGULAR", {})
    on, off = _searched_with_and_without(searcher, monkeypatch, "_REDUCTION_DEPTH", Position.from_fen(variant, fen),
                                         depth)
    assert on.move == off.move
    assert abs(on.score - off.score) <= 20, (on.score, off.score)
    assert on.nodes < 0.9 * off.nodes, (on.nodes, off.nodes)


def test_singular_extension_sees_a_shot_deeper(searcher, monkeypatch):
    # the singular extension searches a hash move that no other move comes near a ply deeper: on the shot's
    # line it scores at depth 13 what a search without it scores only at depth 17
    import engine.search as search_module
    assert search_module._SINGULAR["american"][0] > 0
    fen, best = AMERICAN_SHOT
    pos = Position.from_fen(AMERICAN, fen)
    on, off = _searched_with_and_without(searcher, monkeypatch, "_SINGULAR", pos, 13)
    searcher.new_game()
    deeper = searcher.search(_game(pos), Limits(depth=17))  # without it still (the helper left it empty)
    assert pos.move_text(on.move) == pos.move_text(off.move) == best
    assert abs(on.score - deeper.score) <= 5, (on.score, deeper.score)
    assert off.score < on.score - 10, (off.score, on.score)


def test_takes_the_last_piece_as_a_forced_win(searcher):
    pos = Position.from_fen(AMERICAN, "W:W18:B14")  # 18x9 captures Black's only man
    result = searcher.search(_game(pos), Limits(depth=4))
    assert pos.move_text(result.move) == "18x9"
    assert result.score > MATE_BOUND


# --- determinism, results, limits ---------------------------------------------------------------------

@pytest.mark.parametrize("variant,fen,depth", [
    (AMERICAN, "W:W17,21-23,25,27,28,31,32:B1-4,6-8,13,14", 9),
    (INTERNATIONAL, "B:W28,34-38,40-50:B1-10,12,13,15,16,18-20,26", 6),
])
def test_fixed_depth_is_deterministic(variant, fen, depth):
    pos = Position.from_fen(variant, fen)
    results = []
    for _ in range(2):
        s = Searcher(tt_size_mb=8)
        results.append(s.search(_game(pos), Limits(depth=depth)))
    a, b = results
    assert (a.move, a.score, a.nodes, a.depth, a.pv) == (b.move, b.score, b.nodes, b.depth, b.pv)
    assert a.depth == depth and a.nodes > 0
    # new_game() forgets: the same searcher repeats a fresh one's numbers
    s.new_game()
    c = s.search(_game(pos), Limits(depth=depth))
    assert (c.move, c.nodes) == (a.move, a.nodes)


def test_info_per_iteration_and_pv_is_legal(searcher):
    pos = Position.initial(INTERNATIONAL)
    infos: list[Info] = []
    result = searcher.search(_game(pos), Limits(depth=5), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5]
    assert isinstance(result, SearchResult)
    assert infos[-1].pv == result.pv and result.pv[0] == result.move
    p = pos
    for m in result.pv:
        assert m in p.legal_moves()
        p = p.play(m)


def test_node_limit(searcher):
    result = searcher.search(Game(AMERICAN), Limits(nodes=5000))
    assert result.move in Position.initial(AMERICAN).legal_moves()
    assert result.nodes <= 5000


def test_stop_flag_during_search(searcher):
    pos = Position.initial(INTERNATIONAL)
    stop = np.zeros(1, dtype=np.int64)
    threading.Timer(0.2, stop.fill, (1,)).start()
    result = searcher.search(_game(pos), Limits(), stop=stop)  # no limit: only the flag ends it
    assert result.move in pos.legal_moves()


def test_stop_flag_set_before_search(searcher):
    pos = Position.from_fen(AMERICAN, "W:W17,21-23,25,27,28,31,32:B1-4,6-8,13,14")
    stop = np.ones(1, dtype=np.int64)
    result = searcher.search(_game(pos), Limits(), stop=stop)
    assert result.move in pos.legal_moves()


def test_movetime_returns_a_move_and_spends_its_time(searcher):
    # a move has no clock to save time for: the search goes on until its time is up (here it can't
    # run out of depth, so it can't return sooner); a lower bound, whatever the machine's speed
    pos = Position.initial(AMERICAN)
    result = searcher.search(_game(pos), Limits(movetime=0.2))
    assert result.move in pos.legal_moves() and result.depth >= 1
    assert result.seconds >= 0.2


def test_never_an_illegal_move_over_random_positions(searcher):
    rng = random.Random(7)
    checked = 0
    for i in range(60):
        variant = AMERICAN if i % 2 else INTERNATIONAL
        pos = _random_position(variant, rng, rng.randrange(0, 90))
        if not pos.legal_moves():
            continue
        result = searcher.search(_game(pos), Limits(depth=rng.randrange(1, 6), nodes=20000))
        assert result.move in pos.legal_moves(), pos.fen()
        checked += 1
    assert checked > 40


def test_the_search_takes_a_game_record(searcher):
    with pytest.raises(TypeError, match="takes a Game, not Position"):
        searcher.search(Position.initial(AMERICAN), Limits(depth=1))


def test_no_legal_move_raises(searcher):
    with pytest.raises(ValueError):
        searcher.search(_game(Position.from_fen(AMERICAN, "W:W:B1")), Limits(depth=2))


# --- draw rules inside the tree -------------------------------------------------------------------------

def _king_walk(game: Game, plies: int, rng: random.Random, offer_at: int | None = None) -> Game:
    """Play ``plies`` random king moves that capture nothing, leave the opponent no capture and never
    bring a position back a third time: the game's quiet count grows by ``plies`` and no other rule
    ends it. A draw offer rides on the move played at ply ``offer_at``."""
    def safe_moves(pos: Position) -> list[Move]:
        return [m for m in pos.legal_moves()
                if not m.captured and pos.piece_at(m.start).king and not pos.play(m).has_capture()]

    for _ in range(plies):
        pos = game.position
        options = [m for m in safe_moves(pos) if game.repetitions(pos.play(m)) < 2 and safe_moves(pos.play(m))]
        assert options, f"the walk is stuck in {pos.fen()}"
        game.play(rng.choice(options), offer_draw=game.ply == offer_at)
    assert not game.is_over
    return game


def test_repetition_scores_as_a_draw(searcher):
    # White has two kings and two men against a lone king; the last three plies were king moves, so
    # Black's 8-4 brings back the position of three plies ago: the losing side takes the draw
    p0 = Position.from_fen(AMERICAN, "W:WK22,K23,31,32:BK4")
    game = _game(p0)
    for text in ("22-18", "4-8", "18-22"):
        game.play(text)
    searcher.new_game()
    alone = searcher.search(_game(game.position), Limits(depth=6))
    assert alone.score < -100
    assert game.quiet_plies == 3
    searcher.new_game()
    result = searcher.search(game, Limits(depth=6))
    assert game.position.move_text(result.move) == "8-4" and result.score == 0


def test_quiet_move_limit_scores_as_a_draw(searcher):
    # three kings against one win, but not with one ply left of the 40 moves each
    game = _king_walk(_game(Position.from_fen(AMERICAN, "B:WK1,K3,K5:BK32")), 79, random.Random(4))
    assert game.plies_until_draw == 1 and game.turn is Color.WHITE
    searcher.new_game()
    assert searcher.search(_game(game.position), Limits(depth=6)).score > 100
    searcher.new_game()
    assert searcher.search(game, Limits(depth=6)).score == 0


def test_international_endgame_limit_scores_as_a_draw(searcher):
    # 3 kings against a lone king far away: drawn once the 16-move count (or the 5-move count of the
    # lone king on the main diagonal) runs out
    game, rng = _game(Position.from_fen(INTERNATIONAL, "W:WK1,K2,K3:BK50")), random.Random(4)
    while game.plies_until_draw > 2:
        _king_walk(game, 1, rng)
    searcher.new_game()
    assert searcher.search(game, Limits(depth=4)).score == 0


# --- levels ---------------------------------------------------------------------------------------------

def test_easy_random_share(searcher):
    rng = random.Random(11)
    pick = random.Random(5)
    differ = total = 0
    while total < 200:
        variant = AMERICAN if total % 2 else INTERNATIONAL
        pos = _random_position(variant, pick, pick.randrange(0, 40))
        if len(pos.legal_moves()) < 2:
            continue
        best = searcher.search(_game(pos), Limits(depth=2))
        equal = set(searcher.equal_moves(_game(pos), best, LEVELS["easy"].margin))
        move = choose_move(searcher, _game(pos), "easy", rng, use_book=False).move
        differ += move not in equal
        total += 1
    assert 0.25 * total <= differ <= 0.55 * total, differ


@pytest.mark.parametrize("variant,depth", [(AMERICAN, 8), (INTERNATIONAL, 6)])
def test_medium_depth(searcher, variant, depth):
    pos = _random_position(variant, random.Random(3), 12)
    result = choose_move(searcher, _game(pos), "medium", random.Random(1), use_book=False)
    assert result.depth == depth and result.move in pos.legal_moves()


def test_hard_searches_deeper_than_medium(searcher):
    pos = Position.initial(AMERICAN)
    result = choose_move(searcher, _game(pos), "hard", random.Random(1), use_book=False)
    assert result.move in pos.legal_moves() and result.depth > 8 and result.nodes > 0


def test_levels_vary_among_equal_moves(searcher):
    # Medium plays only moves proved within its margin of the best, and not always the same one
    pos = Position.initial(INTERNATIONAL)
    rng = random.Random(2)
    searcher.new_game()  # the same table before each search: the same scores
    best = searcher.search(_game(pos), Limits(depth=6))
    equal = set(searcher.equal_moves(_game(pos), best, LEVELS["medium"].margin))
    assert best.move in equal
    seen = set()
    for _ in range(12):
        searcher.new_game()
        seen.add(choose_move(searcher, _game(pos), "medium", rng, use_book=False).move)
    assert seen <= equal
    assert len(seen) > 1 or len(equal) == 1
    easy = {choose_move(searcher, Game(AMERICAN), "easy", rng, use_book=False).move for _ in range(40)}
    assert len(easy) >= 3


def test_accepts_draw_when_no_better():
    s = Searcher(tt_size_mb=8)
    losing = Position.from_fen(AMERICAN, "B:WK22,K23,31,32:BK4")
    winning = Position.from_fen(AMERICAN, "W:WK22,K23,31,32:BK4")
    level = Position.from_fen(AMERICAN, "B:WK22,K23:BK9,K10")
    for name in LEVELS:
        assert accepts_draw(s, _game(losing), name)
        assert not accepts_draw(s, _game(winning), name)
        assert accepts_draw(s, _game(level), name)


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
def test_a_draw_offered_in_the_opening_is_declined(variant):
    s = Searcher(tt_size_mb=8)
    game = Game(variant)
    game.play(game.position.legal_moves()[0], offer_draw=True)  # offered with the very first move
    for name in LEVELS:
        assert not accepts_draw(s, game, name), name


def test_the_opening_ends_after_twenty_moves_each_or_with_early_exchanges():
    assert in_opening(Game(INTERNATIONAL)) and in_opening(Game(AMERICAN))
    quiet = Game(INTERNATIONAL)
    rng = random.Random(4)
    while quiet.ply < 40:
        moves = quiet.position.legal_moves()
        quiet.play(rng.choice([m for m in moves if not m.captured] or moves))
    assert not in_opening(quiet), "after 20 moves each"
    traded = Game(AMERICAN, Position.from_fen(AMERICAN, "B:W21-32:B1-4,9-12"))  # 20 of 24 pieces
    assert in_opening(traded)
    traded = Game(AMERICAN, Position.from_fen(AMERICAN, "B:W21,23-27,30-32:B1-4,9-12"))  # 17 of 24
    assert not in_opening(traded), "fewer than three quarters of the pieces: past the opening"


def test_offers_draw_rarely():
    s = Searcher(tt_size_mb=8)
    start = Position.from_fen(AMERICAN, "W:WK22,K26,14:BK4,K8,19")

    def game(plies=70, man_move_at=None, offer_at=None):
        g = _king_walk(_game(start), plies if man_move_at is None else man_move_at, random.Random(6), offer_at)
        if man_move_at is not None:  # a man steps, then kings again
            g.play(next(m for m in g.position.legal_moves() if not g.position.piece_at(m.start).king))
            _king_walk(g, plies - man_move_at - 1, random.Random(7))
        return g

    assert offers_draw(s, game(), "medium", 0)
    assert not offers_draw(s, game(), "medium", 60)  # not level
    assert not offers_draw(s, game(), "medium", None)
    assert not offers_draw(s, game(offer_at=60), "medium", 0)  # its offer was declined: the record forbids another
    assert not offers_draw(s, game(plies=20), "medium", 0)  # too early
    assert not offers_draw(s, game(man_move_at=66), "medium", 0)  # men still moving


def test_unknown_level(searcher):
    with pytest.raises(ValueError):
        choose_move(searcher, Game(AMERICAN), "grandmaster", random.Random())


# --- numba cache, command line -------------------------------------------------------------------

def test_cache_reloads_in_a_fresh_process(searcher):
    # the module fixture compiled (or loaded) the kernels; a new process must load them from disk
    code = (
        "from engine import AMERICAN\n"
        "from engine.game import Game\n"
        "from engine.search import Searcher, Limits\n"
        "from engine import _search\n"
        "r = Searcher(8).search(Game(AMERICAN), Limits(depth=4))\n"
        "st = _search.search.stats\n"
        "print(r.move.start, sum(st.cache_hits.values()), sum(st.cache_misses.values()))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    start, hits, misses = map(int, out.stdout.split())
    assert hits >= 1 and misses == 0


def _cli(*args) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_bestmove_cli(searcher):
    fen, best = AMERICAN_SHOT
    data = json.loads(_cli("bestmove", "--fen", fen, "--depth", "6", "--json"))
    assert set(data) == {"move", "path", "captures", "score", "depth", "nodes", "seconds", "pv"}
    assert data["move"] == best and data["path"] == [23, 19] and data["captures"] == []
    assert data["depth"] == 6 and data["pv"][0] == best
    data = json.loads(_cli("bestmove", "--variant", "international", "--level", "easy", "--seed", "1", "--json"))
    assert data["move"] in {Position.initial(INTERNATIONAL).move_text(m) for m in
                            Position.initial(INTERNATIONAL).legal_moves()}


def test_bench_signature_is_stable(searcher):
    a = json.loads(_cli("bench", "--json", "--depth-offset", "-5"))
    b = json.loads(_cli("bench", "--json", "--depth-offset", "-5"))
    assert a["nodes"] == b["nodes"] > 0
    assert [r["move"] for r in a["positions"]] == [r["move"] for r in b["positions"]]
    assert {r["variant"] for r in a["positions"]} == {"american", "international"}

"""The game record and the search count the automatic draws alike.

Random International endings (a lone king against 3, 2 or 1 pieces with a king among them, the lone
king often on the main diagonal, and material a capture away from those groups) are played at random
through :class:`engine.game.Game`. From the start and from a random ply on, the search's own counters
follow the same moves: the root's set up from the record as ``Searcher`` does it
(``root_endgame_count``), then carried from ply to ply by ``_search.child_counters``, the kernel step
the search runs after every move, and judged by ``_search.is_drawn_by_limits``, the search's own
test. At every ply both must give the same plies until the automatic draw and the same verdict on
whether the move limits draw the position. Where every move draws or wins, a real search must say so.
"""

from __future__ import annotations

import random

import numpy as np

from engine import INTERNATIONAL, Position, _board
from engine import _search as K
from engine._draws import GROUP_THREE, GROUP_TWO, NO_GROUP, endgame_group, endgame_rule
from engine.game import Game
from engine.search import MATE_BOUND, Limits, Searcher, root_endgame_count

V = INTERNATIONAL
LAYOUT = _board.layout(V)
QUIET_LIMIT = 2 * V.quiet_limit_moves
ENDGAME = endgame_rule(V)  # as the searcher hands it to the kernel (Tables.endgame)
DIAGONAL = [sq for sq in range(1, V.squares + 1) if LAYOUT.masks[_board.M_MAIN_DIAGONAL] >> _board.square_bit(V, sq) & 1]


def test_the_main_diagonal_is_a1_to_j10():
    assert DIAGONAL == [5, 10, 14, 19, 23, 28, 32, 37, 41, 46]


def _random_ending(rng: random.Random) -> Position:
    """A lone king (on the main diagonal half the time) against 1-4 pieces, at least one a king most of
    the time, its other side off the diagonal most of the time; now and then a second king beside the
    lone one (no endgame count: the 25-move rule alone). Men never on their own crowning row."""
    weak = rng.choice("WB")
    strong = "B" if weak == "W" else "W"
    squares = list(range(1, V.squares + 1))
    rng.shuffle(squares)
    lone_square = rng.choice(DIAGONAL) if rng.random() < 0.5 else squares[0]
    squares.remove(lone_square)
    weak_pieces = [f"K{lone_square}"]
    if rng.random() < 0.4:
        weak_pieces.append(f"K{squares.pop()}")
    off_diagonal = rng.random() < 0.7
    pieces = []
    n = rng.choice((1, 2, 3, 3, 3, 4))
    kings = rng.randint(0 if rng.random() < 0.1 else 1, n)
    crowning = range(1, 6) if strong == "W" else range(46, 51)
    for i in range(n):
        is_king = i < kings
        sq = next(s for s in squares if (is_king or s not in crowning) and not (off_diagonal and s in DIAGONAL))
        squares.remove(sq)
        pieces.append(f"K{sq}" if is_king else str(sq))
    lists = {weak: ",".join(weak_pieces), strong: ",".join(pieces)}
    return Position.from_fen(V, f"{rng.choice('WB')}:W{lists['W']}:B{lists['B']}")


def _random_game(rng: random.Random, plies: int = 150) -> Game:
    """Random moves from a random ending; mostly ones that leave the opponent nothing to capture, so
    that some games last long enough for the 25-move rule."""
    game = Game(V, _random_ending(rng))
    while not game.is_over and game.ply < plies:
        pos = game.position
        moves = pos.legal_moves()
        safe = [m for m in moves if not pos.play(m).has_capture()]
        game.play(rng.choice(safe if safe and rng.random() < 0.9 else moves))
    return game


def _replay(game: Game, ply: int) -> Game:
    """The record as it stood at ``ply``."""
    again = Game(V, game.start)
    for move in game.moves[:ply]:
        again.play(move)
    return again


def _search_counters(game: Game, start: int) -> list[tuple[int, int, bool]]:
    """(plies until the draw, endgame plies left or -1, drawn by the move limits) at each ply from
    ``start`` to the end of ``game``, as the search's frame counts them from a root at ``start``."""
    root = _replay(game, start)
    quiet = root.quiet_plies
    group, draw_at = root_endgame_count(root)
    out = []
    positions = game.positions
    for k in range(game.ply - start + 1):
        if k > 0:
            before, after = positions[start + k - 1], positions[start + k]
            move = game.moves[start + k - 1]
            irreversible = move.is_capture or not before.piece_at(move.start).king
            quiet, group, draw_at = K.child_counters(quiet, group, draw_at, k - 1, irreversible, np.uint64(after.white),
                                                     np.uint64(after.black), np.uint64(after.kings), ENDGAME)
        endgame_left = -1 if group == NO_GROUP else int(draw_at) - k
        until = QUIET_LIMIT - int(quiet) if endgame_left < 0 else min(QUIET_LIMIT - int(quiet), endgame_left)
        out.append((until, endgame_left, bool(K.is_drawn_by_limits(quiet, k, draw_at, QUIET_LIMIT))))
    return out


def test_game_and_search_count_the_draws_alike():
    rng = random.Random(1)
    seen = {"endgame_rule": 0, "move_limit": 0, "3 became 2": 0, "diagonal reached by a king move": 0,
            "compared": 0}
    for _ in range(100):
        game = _random_game(rng)
        for start in (0, rng.randrange(0, game.ply + 1)):  # the search's root at the start, and later
            record = _replay(game, start)
            for k, (until, endgame_left, drawn) in enumerate(_search_counters(game, start)):
                if k > 0:
                    record.play(game.moves[start + k - 1])
                where = f"{game.to_dict()} at ply {start + k}, search root at ply {start}"
                outcome = record.outcome
                if outcome is None:
                    assert until == record.plies_until_draw, where
                    assert endgame_left == (-1 if record.endgame_plies_left is None else record.endgame_plies_left), \
                        where
                    assert not drawn or k == 0, where  # the root is never judged
                    seen["compared"] += 1
                elif outcome.reason in ("move_limit", "endgame_rule"):
                    assert drawn or k == 0, where
                    seen[outcome.reason] += 1
        groups = [int(endgame_group(np.uint64(p.white), np.uint64(p.black), np.uint64(p.kings))[0])
                  for p in game.positions]
        seen["3 became 2"] += sum(a == GROUP_THREE and b == GROUP_TWO for a, b in zip(groups, groups[1:], strict=False))
        seen["diagonal reached by a king move"] += sum(
            groups[i + 1] == GROUP_THREE and not move.captured and not _lone_on_free_diagonal(game.positions[i])
            and _lone_on_free_diagonal(game.positions[i + 1]) for i, move in enumerate(game.moves))
    # the random endings reach every case the rule has
    assert all(n > 0 for n in seen.values()), seen


def _lone_on_free_diagonal(pos: Position) -> bool:
    diagonal = int(LAYOUT.masks[_board.M_MAIN_DIAGONAL])
    for lone, other in ((pos.white, pos.black), (pos.black, pos.white)):
        if lone.bit_count() == 1 and lone & diagonal and not other & diagonal:
            return True
    return False


def test_the_search_scores_the_draws_the_record_declares():
    # positions one ply before a limit draw where every move draws (or wins): the search scores them
    # exactly so, from the record's own counters
    searcher = Searcher(tt_size_mb=8)
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        game = _random_game(rng)
        record = Game(V, game.start)
        for move in game.moves:
            if not record.is_over and record.plies_until_draw == 1:
                checked += _check_search(searcher, record)
            record.play(move)
    assert checked >= 10


def _check_search(searcher: Searcher, record: Game) -> int:
    """1 if every move of ``record`` ends the game (a limit draw, or a win) and the search scores that,
    0 if some move doesn't end it (then nothing is checked)."""
    outcomes = []
    for move in record.position.legal_moves():
        record.play(move)
        outcomes.append(record.outcome.reason if record.outcome else None)
        record.undo()
    if None in outcomes or "repetition" in outcomes:
        return 0
    searcher.new_game()
    score = searcher.search(record, Limits(depth=2)).score
    if "no_moves" in outcomes:
        assert score > MATE_BOUND, record.to_dict()
    else:
        assert score == 0, record.to_dict()
    return 1

"""The learned evaluation: its score is the dot product of the weights and the features, the two
colours are scored alike, the fitted weights ship as package data, and the tuning tool runs from games
to a weights file the search and the match players take."""

from __future__ import annotations

import fnmatch
import json
import random
import tomllib
from pathlib import Path

import numpy as np
import pytest

from engine import AMERICAN, INTERNATIONAL, Color, Position
from engine import _eval as E
from engine.__main__ import main as engine_main
from engine.game import Game
from engine.match import Player, _load_weights
from engine.search import Limits, Searcher
from engine.tuning import feature_matrix, generate, hand_weights
from engine.variants import ALL_VARIANTS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def games():
    """Quiet positions of a few seeded self-play games of each rule set (the tuning tool's own)."""
    return {v.name: generate(v, games=6, nodes=300, seed=3, out=lambda _text: None) for v in (AMERICAN, INTERNATIONAL)}


def _drawish(white: int, black: int, kings: int) -> bool:
    """A lone king against at most three pieces (scored a sixteenth where the endgame rule applies)."""
    nw, nb = bin(white).count("1"), bin(black).count("1")
    return (nw == 1 and white & kings != 0 and nb <= 3) or (nb == 1 and black & kings != 0 and nw <= 3)


def _mirror(pos: Position) -> Position:
    """The colour-flipped mirror: every piece to the square turned 180 degrees, of the other colour, the
    other side to move."""
    n = pos.variant.squares
    pieces = {n + 1 - sq: piece._replace(color=piece.color.opponent) for sq, piece in pos.pieces().items()}
    return Position.from_pieces(pos.variant, pieces, pos.turn.opponent)


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
@pytest.mark.parametrize("weights", ["fitted", "random"])
def test_evaluate_is_the_dot_product_of_weights_and_features(games, variant, weights):
    data = games[variant.name]
    n = E.feature_count(variant)
    if weights == "random":
        rng = np.random.default_rng(7)
        vector = tuple(int(x) for x in rng.integers(-500, 500, 2 * n))
    else:
        vector = E.default_weights(variant)
    ev = E.eval_tables(variant, vector)
    counts = np.rint(feature_matrix(variant, data) * 256).astype(np.int64)  # count * phase, exact
    assert len(data["result"]) > 200
    checked = 0
    for i in range(len(counts)):
        white, black, kings, turn = (int(data[k][i]) for k in ("white", "black", "kings", "turn"))
        score = int(E.evaluate(np.uint64(white), np.uint64(black), np.uint64(kings), turn, 0, 0, ev))
        expected = int(counts[i] @ np.array(vector, dtype=np.int64)) * (1 if turn == 0 else -1) // 256
        if variant.endgame_rule and _drawish(white, black, kings):
            expected //= E.DRAWISH
        else:
            checked += 1
        assert score == expected, i
    assert checked > 100


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
def test_a_position_and_its_colour_flipped_mirror_score_alike(games, variant):
    data = games[variant.name]
    ev = E.eval_tables(variant)
    rng = random.Random(5)
    for i in rng.sample(range(len(data["result"])), 200):
        pos = Position(variant, *(int(data[k][i]) for k in ("white", "black", "kings")), turn=Color(int(data["turn"][i])))
        mirror = _mirror(pos)
        # the other side to move, the colours swapped, and back again (a symmetric position is its own
        # mirror but for the turn)
        assert mirror.turn == pos.turn.opponent and mirror.white.bit_count() == pos.black.bit_count()
        assert _mirror(mirror).pieces() == pos.pieces()
        scores = [int(E.evaluate(np.uint64(p.white), np.uint64(p.black), np.uint64(p.kings), int(p.turn), q, 100, ev))
                  for p in (pos, mirror) for q in (0, 70)]
        assert scores[0] == scores[2] and scores[1] == scores[3], pos.fen()  # the side to move's view


def test_features_follow_the_pieces():
    """Counts by hand: material, men and kings by square (Black's from its side), the back rank's
    patterns, a runaway man."""
    pos = Position.from_fen(AMERICAN, "B:W6,32,K10:B3,5")
    out = np.zeros((2, E.feature_count(AMERICAN)), dtype=np.int64)
    E.features(np.uint64(pos.white), np.uint64(pos.black), np.uint64(pos.kings), int(pos.turn),
               E.eval_tables(AMERICAN), out)
    assert ((out[0] + out[1]) % 256 == 0).all()
    counts = {name: int(c) for name, c in zip(E.feature_names(AMERICAN), (out[0] + out[1]) // 256, strict=True) if c}
    assert {k: v for k, v in counts.items() if k not in ("hunt", "the_move")} == {
        "king": 1, "man_6": 1, "man_32": 1, "man_30": -1, "man_28": -1,  # Black's 3 and 5 seen from its side
        "king_10": 1, "back_1000": 1, "back_0010": -1, "runaway_1": 1,
        "mobility_man": 4 - 3,  # 6-1, 6-2, 32-27, 32-28 against 3-7, 3-8, 5-9
        "mobility_king": 3}  # 10-7, 10-14, 10-15 (6 is taken)


@pytest.mark.parametrize("variant", ALL_VARIANTS.values(), ids=list(ALL_VARIANTS))
def test_the_fitted_weights_ship_as_package_data(variant):
    """Each rule set plays its own weights file, fitted to its own self-play by the command it carries."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["engine"]
    path = Path(str(E.weights_path(variant)))
    assert path == ROOT / "engine" / "weights" / f"{variant.name}.json"
    assert any(fnmatch.fnmatch(f"weights/{path.name}", g) for g in globs)
    doc = json.loads(path.read_text())
    assert doc["command"].startswith(f"python -m engine tune fit --variant {variant.name} ")
    assert doc["command"].endswith(f"--out engine/weights/{variant.name}.json")
    assert f"tune generate --variant {variant.name} " in doc["data"] and doc["features"] == E.feature_names(variant)
    weights = E.default_weights(variant)
    n = E.feature_count(variant)
    assert weights[E.F_MAN] > 0 and weights[n + E.F_MAN] > 0  # a man is worth something in both phases
    assert weights[E.F_KING] > weights[E.F_MAN]  # and a king more, while the board is full
    assert _load_weights(str(path)) == {variant.name: weights}  # a match player's weights=FILE takes it
    others = [v for v in ALL_VARIANTS.values() if v is not variant and v.size == variant.size]
    assert all(E.default_weights(v) != weights for v in others)  # not another rule set's numbers


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
def test_a_king_is_worth_something_in_the_ending(variant):
    # (not so in Pool checkers' fit: there a kings-only ending is drawn after 15 moves)
    assert E.default_weights(variant)[E.feature_count(variant) + E.F_KING] > 0


def test_the_tuning_tool_runs_from_games_to_a_weights_file_the_search_uses(tmp_path, capsys):
    data, weights = tmp_path / "am.npz", tmp_path / "am.json"
    assert engine_main(["tune", "generate", "--variant", "american", "--games", "6", "--nodes", "300",
                        "--out", str(data)]) == 0
    assert engine_main(["tune", "fit", "--variant", "american", "--data", str(data), "--l2", "1e-3", "1e-2",
                        "--holdout", "0.2", "--out", str(weights)]) == 0
    printed = capsys.readouterr().out
    assert "held-out cross-entropy" in printed and "wrote" in printed
    vectors = _load_weights(str(weights))
    assert set(vectors) == {"american"} and len(vectors["american"]) == 2 * E.feature_count(AMERICAN)
    assert Player.parse(f"nodes=500,weights={weights}").weights == str(weights)
    searcher = Searcher(tt_size_mb=1, weights=vectors)
    result = searcher.search(Game(AMERICAN), Limits(depth=4))
    assert result.move in Position.initial(AMERICAN).legal_moves()
    # pulled towards the hand-set weights: with a large penalty the fit stays near them
    assert engine_main(["tune", "fit", "--variant", "american", "--data", str(data), "--l2", "10", "--prior", "hand",
                        "--out", str(weights)]) == 0
    assert "hand weights: scale K" in capsys.readouterr().out
    near = np.array(_load_weights(str(weights))["american"], dtype=np.float64)
    hand = np.array(hand_weights(AMERICAN), dtype=np.float64)
    scale = json.loads(weights.read_text())["scale"]
    n = E.feature_count(AMERICAN)
    positional = np.r_[2:n, n + 2:2 * n]  # all but material, which the penalty leaves free
    assert np.abs(near - hand)[positional].max() <= 0.02 * scale + 1
    # a second round: two data files together, pulled towards the shipped weights
    more = tmp_path / "am2.npz"
    assert engine_main(["tune", "generate", "--variant", "american", "--games", "4", "--nodes", "300", "--seed", "2",
                        "--out", str(more)]) == 0
    capsys.readouterr()
    assert engine_main(["tune", "fit", "--variant", "american", "--data", str(data), str(more), "--l2", "10",
                        "--prior", "shipped", "--out", str(weights)]) == 0
    with np.load(data) as a, np.load(more) as b:
        both = len(a["result"]) + len(b["result"])
    assert f"{both} positions" in capsys.readouterr().out
    doc = json.loads(weights.read_text())
    assert doc["positions"] == both and doc["data"].count("tune generate") == 2 and "--prior shipped" in doc["command"]
    near = np.array(doc["american"], dtype=np.float64)
    shipped = np.array(E.default_weights(AMERICAN), dtype=np.float64)
    assert np.abs(near - shipped)[positional].max() <= 0.02 * doc["scale"] + 1
    # a missing or foreign data file is named, and nothing is written
    (tmp_path / "junk.npz").write_bytes(b"not numpy")
    for bad in (tmp_path / "missing.npz", tmp_path / "junk.npz"):
        assert engine_main(["tune", "fit", "--variant", "american", "--data", str(data), str(bad),
                            "--out", str(tmp_path / "never.json")]) == 2
        assert f"{bad}: not a position file of tune generate" in capsys.readouterr().err
    assert not (tmp_path / "never.json").exists()


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
def test_the_hand_set_evaluation_in_features(tmp_path, variant):
    """``tune hand`` writes the hand-set numbers as weights: a man worth 100 at the start and more as
    the board empties, guards on the key back squares, runaways worth more the nearer they are; a
    shipped file made so is exactly what the command writes."""
    out = tmp_path / "hand.json"
    assert engine_main(["tune", "hand", "--variant", variant.name, "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    weights = dict(zip(E.feature_names(variant), zip(*np.array(doc[variant.name]).reshape(2, -1), strict=True), strict=True))
    assert weights["man"] == (100, 160) and weights["runaway_1"][0] > weights["runaway_2"][0] > 0
    key = {AMERICAN.name: "back_1010", INTERNATIONAL.name: "back_01110"}[variant.name]
    assert weights[key][0] > weights["back_0000" if variant is AMERICAN else "back_00000"][0] == 0
    shipped = json.loads(Path(str(E.weights_path(variant))).read_text())
    if shipped["command"].startswith("python -m engine tune hand"):
        assert shipped[variant.name] == doc[variant.name]

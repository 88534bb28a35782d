"""The network evaluation: its inputs, the whole-number kernel against the float network it was
rounded from, the accumulator kept move by move against one summed afresh, the search with a
network, the weights file, and the trainer."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from engine import AMERICAN, INTERNATIONAL, variant_named
from engine import _network as N
from engine import network as NW
from engine.game import Game
from engine.position import Position
from engine.search import Limits, Searcher


def _random_positions(variant, count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position.initial(variant)
        for _ in range(rng.randint(0, 70)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        out.append(pos)
    return out


def _random_net(variant, tmp_path, seed=3, hidden=(32, 16, 8)):
    layers = [(w.astype(np.float64), b.astype(np.float64))
              for w, b in NW._init([N.KINDS * variant.squares, *hidden, 1], np.random.default_rng(seed))]
    layers[-1] = (4 * layers[-1][0], layers[-1][1])  # scores of a few men either way, as a trained one gives
    path = tmp_path / f"{variant.name}-net.json"
    NW.write_net(str(path), variant, layers, 200.0, "test", "random weights", {})
    return layers, str(path)


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
def test_inputs_are_the_pieces_seen_from_the_side_to_move(variant):
    pos = Position.from_fen(variant, "W:WK1,5:B9" if variant is AMERICAN else "W:WK1,6:B11")
    x = NW.inputs_of(variant, [pos.white], [pos.black], [pos.kings], [int(pos.turn)])[0]
    squares = variant.squares
    ours_king, ours_man, theirs = (1, 5, 9) if variant is AMERICAN else (1, 6, 11)
    assert sorted(np.nonzero(x)[0]) == sorted([squares + ours_king - 1, ours_man - 1, 2 * squares + theirs - 1])
    # Black to move sees the board turned: its man on the other side's square numbers, as "ours"
    turned = Position.from_fen(variant, pos.fen().replace("W:", "B:", 1))
    y = NW.inputs_of(variant, [turned.white], [turned.black], [turned.kings], [1])[0]
    assert sorted(np.nonzero(y)[0]) == sorted([squares - theirs, 3 * squares + squares - ours_king,
                                               2 * squares + squares - ours_man])


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
def test_the_kernel_scores_as_the_float_network_it_was_rounded_from(variant, tmp_path):
    layers, path = _random_net(variant, tmp_path)
    net = NW.read_net(variant, path)
    acc = np.zeros((1, 2, N.MAX_HIDDEN), dtype=np.int16)
    hidden = np.zeros((3, N.MAX_HIDDEN), dtype=np.int16)
    errors, spread = [], []
    for pos in _random_positions(variant, 150, seed=1):
        whole = N.evaluate_position(np.uint64(pos.white), np.uint64(pos.black), np.uint64(pos.kings), int(pos.turn), net,
                                    acc, hidden)
        x = NW.inputs_of(variant, [pos.white], [pos.black], [pos.kings], [int(pos.turn)]).astype(np.float64)
        exact = NW.forward(layers, x)[0][0] * 200.0
        errors.append(whole - exact)
        spread.append(exact)
    assert np.std(spread) > 20  # the positions score differently, so agreement means something
    # centi-men: what the rounding to whole numbers costs
    assert np.mean(np.abs(errors)) < 5 and np.max(np.abs(errors)) < 15


def _whole_forward(net, x):
    """The kernel's whole-number arithmetic in numpy, from the tables as ``NetTables`` documents them."""
    h2, h3 = net.sizes[N.N_H2], net.sizes[N.N_H3]
    a = np.clip((net.b1 + x @ net.w1.astype(np.int64) + (1 << (N.Q1_SHIFT - 1))) >> N.Q1_SHIFT, 0, N.Q_ACT)
    for w, b, n_out in ((net.w2, net.b2, h2), (net.w3, net.b3, h3)):
        by_input = w.reshape(w.shape[0], n_out, 2).transpose(0, 2, 1).reshape(-1, n_out).astype(np.int64)
        a = np.clip((b + a @ by_input + (N.Q_W >> 1)) >> N.Q_SHIFT, 0, N.Q_ACT)
    out = net.b4[0] + a @ net.w4.astype(np.int64)
    return (out * net.sizes[N.N_SCALE] + (1 << (N.SCALE_SHIFT - 1))) >> N.SCALE_SHIFT


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
def test_the_kernel_computes_the_whole_numbers_of_its_tables(variant, tmp_path):
    # widths that are no multiples of the kernel's step: the tables pad them with units of zero weights
    _, path = _random_net(variant, tmp_path, hidden=(44, 20, 5))
    net = NW.read_net(variant, path)
    assert [int(n) for n in net.sizes[:3]] == [48, 24, 8]
    acc = np.zeros((1, 2, N.MAX_HIDDEN), dtype=np.int16)
    hidden = np.zeros((3, N.MAX_HIDDEN), dtype=np.int16)
    for pos in _random_positions(variant, 100, seed=2):
        x = NW.inputs_of(variant, [pos.white], [pos.black], [pos.kings], [int(pos.turn)])[0].astype(np.int64)
        assert N.evaluate_position(np.uint64(pos.white), np.uint64(pos.black), np.uint64(pos.kings), int(pos.turn), net,
                                   acc, hidden) == _whole_forward(net, x), pos.fen()


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
def test_the_accumulator_kept_move_by_move_is_the_one_summed_afresh(variant, tmp_path):
    _, path = _random_net(variant, tmp_path, hidden=(64, 16, 8))
    net = NW.read_net(variant, path)
    rng = random.Random(7)
    checked = 0
    for _ in range(12):
        game = Game(variant)
        acc = np.zeros((2, 2, N.MAX_HIDDEN), dtype=np.int16)
        pos = game.position
        N.refresh(np.uint64(pos.white), np.uint64(pos.black), np.uint64(pos.kings), net, acc[0])
        while not game.is_over and game.ply < 120:
            pos = game.position
            move = rng.choice(pos.legal_moves())
            after = pos.play(move)
            frm, to = (variant_bit(variant, sq) for sq in (move.start, move.end))
            cap = sum(1 << variant_bit(variant, sq) for sq in move.captured)
            was_king = (pos.kings >> frm) & 1
            is_king = (after.kings >> to) & 1
            for view in (0, 1):
                N.update(acc, 0, net, view, int(pos.turn), frm, to, np.uint64(cap), np.uint64(pos.kings), was_king,
                         is_king)
            fresh = np.zeros((2, N.MAX_HIDDEN), dtype=np.int16)
            N.refresh(np.uint64(after.white), np.uint64(after.black), np.uint64(after.kings), net, fresh)
            assert np.array_equal(acc[1], fresh), (pos.fen(), pos.move_text(move))
            acc[0] = acc[1]
            game.play(move)
            checked += 1
    assert checked > 500


def variant_bit(variant, square):
    from engine._board import square_bit

    return square_bit(variant, square)


def test_a_searcher_plays_with_a_network_file_and_without_one(tmp_path):
    _, path = _random_net(AMERICAN, tmp_path)
    game = Game(AMERICAN)
    with_net = Searcher(4, nets={"american": path}).search(game, Limits(depth=6))
    linear = Searcher(4, nets={"american": "off"}).search(game, Limits(depth=6))
    assert with_net.move in game.position.legal_moves() and linear.move in game.position.legal_moves()
    # a different evaluation searches a different tree
    assert (with_net.nodes, with_net.score) != (linear.nodes, linear.score)


def test_a_bad_network_file_is_named(tmp_path):
    bad = tmp_path / "bad-net.json"
    bad.write_text(json.dumps({"variant": "international", "scale": 200, "layers": []}))
    with pytest.raises(ValueError, match="bad-net.json.*not american"):
        NW.read_net(AMERICAN, str(bad))
    bad.write_text("{")
    with pytest.raises(ValueError, match="bad-net.json: not a network weights file"):
        NW.read_net(AMERICAN, str(bad))


def test_net_train_names_a_bad_network_to_start_from_before_reading_positions(tmp_path, capsys):
    from engine.__main__ import main as engine_main

    bad = tmp_path / "bad-net.json"
    bad.write_text("{")
    assert engine_main(["net", "train", "--data", str(tmp_path / "absent.npz"), "--init", str(bad),
                        "--out", str(tmp_path / "net.json")]) == 2
    error = capsys.readouterr().err
    assert "bad-net.json: not a network weights file" in error and "absent.npz" not in error


def _decided_by_material(seed):
    """1,500 random American positions whose result is the side ahead in pieces (a draw when level),
    as training data, and their network inputs."""
    positions = _random_positions(AMERICAN, 1500, seed=seed)
    white, black, kings = (np.array([getattr(p, f) for p in positions], dtype=np.uint64) for f in ("white", "black", "kings"))
    turn = np.array([int(p.turn) for p in positions], dtype=np.int64)
    lead = np.array([p.white.bit_count() - p.black.bit_count() for p in positions])
    result = np.where(lead > 0, 1.0, np.where(lead < 0, 0.0, 0.5))
    data = {"white": white, "black": black, "kings": kings, "turn": turn, "result": result}
    return data, NW.inputs_of(AMERICAN, white, black, kings, turn)


def test_training_learns_what_decides_the_result():
    # positions whose result is decided by material: the network learns it from a few thousand
    data, x = _decided_by_material(seed=2)
    turn, result = data["turn"], data["result"]
    target = NW.targets(AMERICAN, data, NW.DEFAULT_LAMBDA, 200.0)
    assert np.array_equal(target, np.where(turn == 0, result, 1 - result))  # no scores: the result alone
    layers, loss = NW.train(AMERICAN, x, target, hidden=(32, 16, 8), epochs=25, batch=256, lr=3e-3, holdout=0.2,
                            seed=4, out=lambda _text: None)
    mean = target.mean()
    constant = -np.mean(target * np.log(mean) + (1 - target) * np.log(1 - mean))  # the best guess without the board
    assert loss < 0.75 * constant


def test_training_goes_on_from_a_trained_network():
    # --init: a network trained on some positions goes on from its weights, not from random ones
    data, x = _decided_by_material(seed=5)
    target = NW.targets(AMERICAN, data, NW.DEFAULT_LAMBDA, 200.0)
    kw = {"hidden": (32, 16, 8), "batch": 256, "lr": 3e-3, "holdout": 0.2, "out": lambda _text: None}
    trained, _ = NW.train(AMERICAN, x, target, epochs=20, seed=4, **kw)
    _, fresh_loss = NW.train(AMERICAN, x, target, epochs=1, seed=6, **kw)
    _, going_on_loss = NW.train(AMERICAN, x, target, epochs=1, seed=6, start=trained, **kw)
    assert going_on_loss < fresh_loss
    with pytest.raises(ValueError, match=r"layers of \[32, 16, 8\], not \[64, 16, 8\]"):
        NW.train(AMERICAN, x, target, epochs=1, start=trained, **(kw | {"hidden": (64, 16, 8)}))


def test_the_tools_run_from_games_to_a_network_a_match_player_uses(tmp_path, capsys):
    from engine.__main__ import main as engine_main
    from engine.match import Player, run_match

    data, labelled, net = tmp_path / "am.npz", tmp_path / "am-l.npz", tmp_path / "am-net.json"
    assert engine_main(["tune", "generate", "--variant", "american", "--games", "4", "--nodes", "300",
                        "--out", str(data)]) == 0
    with np.load(data) as d:
        assert len(d["score"]) == len(d["result"]) > 100  # the self-play search's score of each position
    assert engine_main(["tune", "label", "--variant", "american", "--data", str(data), "--nodes", "500",
                        "--positions", "60", "--out", str(labelled)]) == 0
    with np.load(labelled) as d:
        assert len(d["score"]) == 60 and "tune label" in str(d["command"])
    capsys.readouterr()
    assert engine_main(["net", "train", "--variant", "american", "--data", str(data), "--hidden", "16", "8", "8",
                        "--epochs", "3", "--batch", "64", "--out", str(net)]) == 0
    assert "with search scores" in capsys.readouterr().out
    doc = json.loads(net.read_text())
    assert doc["variant"] == "american" and "net train" in doc["command"] and "tune generate" in doc["data"]
    again = tmp_path / "am-net2.json"
    assert engine_main(["net", "train", "--variant", "american", "--data", str(data), "--init", str(net),
                        "--epochs", "1", "--batch", "64", "--out", str(again)]) == 0
    assert "layers [16, 8, 8]" in capsys.readouterr().out  # the widths of the network it goes on from
    doc2 = json.loads(again.read_text())
    assert f"--init {net} " in doc2["command"] and doc2["scale"] == doc["scale"]
    assert doc2["data"].endswith(f"started from {net}, made by {doc['command']} on {doc['data']}")
    player = Player.parse(f"nodes=300,net={again},tt=1")
    match = run_match(AMERICAN, player, Player.parse("nodes=300,net=off,tt=1"), games=2, seed=1)
    assert len(match.games) == 2
    with pytest.raises(ValueError, match="net="):
        Player.parse("nodes=300,net=")


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL])
def test_the_shipped_network_is_what_a_searcher_plays_with_by_default(variant):
    # engine/weights/<variant>-net.json: a trained network, with the command and the data that made it;
    # a searcher (the worker's, Hard's) evaluates with it unless told net=off
    doc = json.loads(NW.net_path(variant).read_text(encoding="utf-8"))
    assert doc["command"].startswith(f"python -m engine net train --variant {variant.name}")
    assert f"tune generate --variant {variant.name}" in doc["data"] and doc["positions"] > 100_000
    assert NW.default_net(variant).sizes[N.N_H1] == len(doc["layers"][0]["b"]) > 0
    game = Game(variant)
    shipped = Searcher(4).search(game, Limits(depth=6))
    same = Searcher(4, nets={variant.name: str(NW.net_path(variant))}).search(game, Limits(depth=6))
    linear = Searcher(4, nets={variant.name: "off"}).search(game, Limits(depth=6))
    assert (shipped.nodes, shipped.score) == (same.nodes, same.score) != (linear.nodes, linear.score)


def test_a_rule_set_without_a_network_file_plays_the_weighted_sum():
    russian = variant_named("russian")
    assert not NW.net_path(russian).is_file() and NW.default_net(russian).sizes[N.N_H1] == 0


def test_a_hidden_layer_wider_than_the_search_holds_is_refused():
    sizes = [N.KINDS * AMERICAN.squares, 16, N.MAX_HIDDEN + 1, 8, 1]
    layers = [(w.astype(np.float64), b.astype(np.float64)) for w, b in NW._init(sizes, np.random.default_rng(1))]
    with pytest.raises(ValueError, match=f"at most {N.MAX_HIDDEN}"):
        NW.quantize(AMERICAN, layers, 200.0)

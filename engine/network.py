"""The network evaluation: its weights file, the kernel's tables, and the trainer (numpy only).

    python -m engine net train --variant american --data am1.npz am2.npz --out engine/weights/american-net.json

The network (``_network.py``: inputs, layers, whole-number arithmetic) scores a position for the side
to move. It is trained here in floating point on positions of ``tune generate`` files, each seen
from the side to move, to predict

    target = lam * sigmoid(score / K) + (1 - lam) * result

where ``result`` is the game's result for the side to move (1, 1/2, 0), ``score`` the self-play
search's score of the position (centi-men; files written before scores were kept have none, and
then only the result counts) and K the centi-men per logit of the linear evaluation's fit
(``scale`` in its weights file: the network scores in the same units, so the search's margins keep
their meaning), by cross-entropy, with Adam on minibatches, a seeded shuffle, and a
held-out share to watch over-fitting (the epoch with the lowest held-out loss is kept). (No mirrored
copies: mirroring left to right puts the pieces on the light squares, and the board has no other
symmetry the rules keep but the half turn, which the views already use.) ``--init FILE`` starts from
a trained network's weights (its widths and K) instead of random ones: a new round learns from the
games its network played without the positions of the rounds before.

Measured and not shipped, each against the American round 5 by an SPRT(0, 10) at 0.1 s a move stopped
without a gain (Elo of the new network, 95%): round 5 gone on from for 10 epochs at lr 0.0003 on the
2,008,856 positions of 18,000 games it played (``tune generate --nodes 4000 --seed 52``, ``tune
exact``): -1 +- 16 over 419 games; the same on 400,000 of them searched again at 20,000 nodes (``tune
label --nodes 20000 --positions 400000``, ``tune exact``): +1 +- 16 over 600 games.

The weights are then rounded to the kernel's whole numbers and written as JSON with the command and
the data that made them (``engine/weights/<variant>-net.json``, package data). A variant without
such a file (or a match player with ``net=off``) uses the linear evaluation.
"""

from __future__ import annotations

import argparse
import json
import time
from functools import lru_cache
from importlib import resources

import numpy as np

from . import _board
from . import _network as N
from ._eval import WEIGHTS_DIR
from .arguments import output_file, variant_arg
from .variants import Variant

DEFAULT_HIDDEN = (128, 32, 32)
DEFAULT_LAMBDA = 0.5
NET_FILE = "{name}-net.json"


# --- inputs -------------------------------------------------------------------------------------


def _top_bit(variant: Variant) -> int:
    return _board.square_bit(variant, variant.squares)


@lru_cache(maxsize=None)
def input_index(variant: Variant) -> np.ndarray:
    """int64 [2, 4, 64]: the network input of (view, piece kind, bit): view 0 White's (White is
    "us"), 1 Black's (the board turned half a turn: bit b is bit top - b); kinds white man, white
    king, black man, black king; -1 off the board."""
    index = np.full((2, N.KINDS, 64), -1, dtype=np.int64)
    squares = variant.squares
    top = _top_bit(variant)
    for sq in range(1, squares + 1):
        bit = _board.square_bit(variant, sq)
        turned = top - bit  # the same square seen from Black's side
        turned_sq = _board.layout(variant).bit_to_square[turned]
        for kind in range(N.KINDS):
            index[0, kind, bit] = kind * squares + sq - 1
            index[1, kind, bit] = (kind ^ 2) * squares + int(turned_sq) - 1
    index.setflags(write=False)
    return index


def _bits(boards: np.ndarray) -> np.ndarray:
    """bool [N, 64]: bit b of each uint64 board."""
    as_bytes = np.ascontiguousarray(boards, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(as_bytes, axis=1, bitorder="little").astype(bool)


def inputs_of(variant: Variant, white, black, kings, turn) -> np.ndarray:
    """uint8 [N, 4 * squares]: the network's inputs of N positions, each from its side to move's view."""
    index = input_index(variant)
    white, black, kings = (np.asarray(x, dtype=np.uint64) for x in (white, black, kings))
    turn = np.asarray(turn, dtype=np.int64)
    out = np.zeros((len(turn), N.KINDS * variant.squares), dtype=np.uint8)
    rows = np.arange(len(turn))[:, None]
    for kind, boards in enumerate((white & ~kings, white & kings, black & ~kings, black & kings)):
        bits = _bits(boards)
        for view in (0, 1):
            sel = turn == view
            idx = index[view, kind]
            on = bits[sel] & (idx >= 0)[None, :]
            r, b = np.nonzero(on)
            out[rows[sel][r, 0], idx[b]] = 1
    return out


# --- the kernel's tables --------------------------------------------------------------------------


def quantize(variant: Variant, layers: list[tuple[np.ndarray, np.ndarray]], scale: float) -> N.NetTables:
    """The kernel's whole-number tables of float layers ``[(w1, b1), (w2, b2), (w3, b3), (w4, b4)]``
    (w of shape [inputs, outputs]) whose output is a logit, with ``scale`` centi-men per logit. Each
    hidden width is padded to a multiple of ``N.STEP`` with units whose weights are all 0 (their
    activation is 0 and nothing reads it), as the kernel's hidden layers take them."""
    def padded(n):
        return -(-n // N.STEP) * N.STEP

    h1, h2, h3 = (padded(w.shape[1]) for w, _ in layers[:3])
    if max(h1, h2, h3) > N.MAX_HIDDEN:
        raise ValueError(f"hidden layers of {h1}, {h2}, {h3} units; the search holds at most {N.MAX_HIDDEN}")
    widths = (h1, h2, h3, 1)
    inputs = (layers[0][0].shape[0], h1, h2, h3)
    (w1, b1), (w2, b2), (w3, b3), (w4, b4) = [
        (np.pad(np.asarray(w, dtype=np.float64), ((0, n_in - w.shape[0]), (0, n_out - w.shape[1]))),
         np.pad(np.asarray(b, dtype=np.float64).reshape(-1), (0, n_out - np.size(b))))
        for (w, b), n_in, n_out in zip(layers, inputs, widths, strict=True)]
    qa, qw = N.Q_ACT, N.Q_W

    def whole(x, factor, dtype=np.int32):
        q = np.round(np.asarray(x, dtype=np.float64) * factor)
        limit = np.iinfo(dtype).max
        if np.abs(q).max(initial=0) > limit:
            raise ValueError(f"a weight of {np.abs(x).max():.1f} doesn't fit the kernel's {np.dtype(dtype).name}")
        return np.ascontiguousarray(q, dtype=dtype)

    def pairs(w):
        """[inputs, outputs] -> [inputs / 2, 2 * outputs]: row p holds, output by output, the weights of
        inputs 2p and 2p + 1 (``NetTables.w2``)."""
        n_in, n_out = w.shape
        return w.reshape(n_in // 2, 2, n_out).transpose(0, 2, 1).reshape(n_in // 2, 2 * n_out)

    # the accumulator is 16-bit: the bias and the largest columns of a full board must fit it
    worst = np.abs(b1) + np.sort(np.abs(w1), axis=0)[-2 * variant.rows_of_men * variant.row_width:].sum(axis=0)
    q1 = qa << N.Q1_SHIFT
    if worst.max() * q1 > np.iinfo(np.int16).max:
        raise ValueError(f"the first layer's sums reach {worst.max():.1f}, more than the 16-bit accumulator holds")
    sizes = np.array([h1, h2, h3, w1.shape[0], round(scale * (1 << N.SCALE_SHIFT) / (qa * qw))], dtype=np.int64)
    tables = N.NetTables(sizes, input_index(variant), whole(w1, q1, np.int16), whole(b1, q1, np.int16),
                         whole(pairs(w2), qw, np.int16), whole(b2, qa * qw), whole(pairs(w3), qw, np.int16),
                         whole(b3, qa * qw), whole(w4.reshape(-1), qw), whole(b4, qa * qw))
    for arr in tables:
        arr.setflags(write=False)
    return tables


@lru_cache(maxsize=None)
def no_net(variant: Variant) -> N.NetTables:
    """The tables of "no network" (H1 = 0): arrays of the kernel's types, never read."""
    z16 = np.zeros((1, 1), dtype=np.int16)
    z32 = np.zeros(1, dtype=np.int32)
    tables = N.NetTables(np.zeros(N.N_COUNT, dtype=np.int64), input_index(variant), z16, z16[0], z16, z32, z16, z32, z32,
                         z32)
    for arr in tables:
        arr.setflags(write=False)
    return tables


def net_path(variant: Variant):
    """The package's network file of a variant (it may not exist: then the linear evaluation plays)."""
    return resources.files(__package__) / WEIGHTS_DIR / NET_FILE.format(name=variant.name)


def read_layers(variant: Variant, path) -> tuple[list[tuple[np.ndarray, np.ndarray]], dict]:
    """The float layers of a weights file written by :func:`write_net`, and the file's other fields
    (scale, command, data); ValueError naming the file when it isn't one for ``variant``."""
    try:
        doc = json.loads(open(path, encoding="utf-8").read() if isinstance(path, str) else path.read_text("utf-8"))
        if doc.get("variant") != variant.name:
            raise ValueError(f"a network for {doc.get('variant')!r}, not {variant.name}")
        layers = [(np.array(layer["w"], dtype=np.float64), np.array(layer["b"], dtype=np.float64))
                  for layer in doc["layers"]]
        if len(layers) != 4 or layers[0][0].shape[0] != N.KINDS * variant.squares:
            raise ValueError(f"four layers over {N.KINDS * variant.squares} inputs expected")
        doc["scale"] = float(doc["scale"])
        return layers, doc
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not a network weights file: {err}") from None


def read_net(variant: Variant, path) -> N.NetTables:
    """The tables of a weights file written by :func:`write_net` (see :func:`read_layers`)."""
    layers, doc = read_layers(variant, path)
    try:
        return quantize(variant, layers, doc["scale"])
    except ValueError as err:
        raise ValueError(f"{path}: not a network weights file: {err}") from None


@lru_cache(maxsize=None)
def default_net(variant: Variant) -> N.NetTables:
    """The shipped network of ``variant``, or :func:`no_net` when it has none."""
    path = net_path(variant)
    if not path.is_file():
        return no_net(variant)
    return read_net(variant, path)


def write_net(path: str, variant: Variant, layers, scale: float, command: str, data: str, notes: dict) -> None:
    doc = {"variant": variant.name, "command": command, "data": data, "scale": scale, **notes,
           "layers": [{"w": np.round(w, 6).tolist(), "b": np.round(b, 6).reshape(-1).tolist()} for w, b in layers]}
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc) + "\n")


# --- the float network and its training ------------------------------------------------------------


def forward(layers, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The float network's logits of inputs ``x`` [N, inputs] and each layer's pre-activation."""
    pre = []
    a = x
    for i, (w, b) in enumerate(layers):
        z = a @ w + b
        pre.append(z)
        a = np.clip(z, 0.0, 1.0) if i < len(layers) - 1 else z
    return a[:, 0], pre


def _init(sizes: list[int], rng) -> list[tuple[np.ndarray, np.ndarray]]:
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True):
        w = rng.normal(0.0, 1.0 / np.sqrt(n_in), size=(n_in, n_out)).astype(np.float32)
        b = np.full(n_out, 0.1 if n_out > 1 else 0.0, dtype=np.float32)
        layers.append((w, b))
    return layers


def _loss_and_grads(layers, x, target):
    logit, pre = forward(layers, x)
    p = 1.0 / (1.0 + np.exp(-logit))
    eps = 1e-7
    loss = float(-np.mean(target * np.log(p + eps) + (1 - target) * np.log(1 - p + eps)))
    grad = ((p - target) / len(target))[:, None].astype(np.float32)  # d loss / d logit
    grads: list = [None] * len(layers)
    for i in range(len(layers) - 1, -1, -1):
        a_in = x if i == 0 else np.clip(pre[i - 1], 0.0, 1.0)
        w, _ = layers[i]
        grads[i] = (a_in.T @ grad, grad.sum(axis=0))
        if i > 0:
            grad = (grad @ w.T) * ((pre[i - 1] > 0) & (pre[i - 1] < 1))
    return loss, grads


DECIDED = 10_000  # a score this far from 0 is a decided game (a win the search or the tables found): the result says it


def targets(variant: Variant, data: dict, lam: float, k: float) -> np.ndarray:
    """The training target of each position, from its side to move's view (see the module docstring)."""
    turn = np.asarray(data["turn"], dtype=np.int64)
    result = np.where(turn == 0, data["result"], 1.0 - data["result"]).astype(np.float64)
    if "score" not in data:
        return result
    score = np.asarray(data["score"], dtype=np.float64)
    known = np.abs(score) < DECIDED
    searched = 1.0 / (1.0 + np.exp(-np.clip(score, -3000, 3000) / k))
    return np.where(known, lam * searched + (1 - lam) * result, result)


def train(variant: Variant, x: np.ndarray, target: np.ndarray, hidden=DEFAULT_HIDDEN, epochs: int = 30,
          batch: int = 4096, lr: float = 1e-3, holdout: float = 0.05, seed: int = 1, start=None, out=print):
    """Fit the float network to ``target`` (Adam, cross-entropy), from random weights or from the
    layers ``start`` (a network trained before, of the same widths); returns (layers, held-out loss)."""
    rng = np.random.default_rng(seed)
    n = len(target)
    test = rng.random(n) < holdout
    x_test, t_test = x[test].astype(np.float32), target[test]
    x_train, t_train = x[~test], target[~test]
    layers = _init([x.shape[1], *hidden, 1], rng)
    if start is not None:
        if [w.shape for w, _ in start] != [w.shape for w, _ in layers]:
            raise ValueError(f"the network to start from has layers of {[w.shape[1] for w, _ in start][:3]}, "
                             f"not {list(hidden)}")
        layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32).reshape(-1)) for w, b in start]
    m = [(np.zeros_like(w), np.zeros_like(b)) for w, b in layers]
    v = [(np.zeros_like(w), np.zeros_like(b)) for w, b in layers]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    best, best_loss = layers, float("inf")
    started = time.monotonic()
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(t_train))
        rate = lr * (0.5 ** (epoch // 10))
        total = 0.0
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            loss, grads = _loss_and_grads(layers, x_train[idx].astype(np.float32), t_train[idx])
            total += loss * len(idx)
            step += 1
            new_layers = []
            for i, ((w, b), (gw, gb)) in enumerate(zip(layers, grads, strict=True)):
                mw, mb = m[i]
                vw, vb = v[i]
                mw = beta1 * mw + (1 - beta1) * gw
                mb = beta1 * mb + (1 - beta1) * gb
                vw = beta2 * vw + (1 - beta2) * gw * gw
                vb = beta2 * vb + (1 - beta2) * gb * gb
                m[i], v[i] = (mw, mb), (vw, vb)
                c1, c2 = 1 - beta1 ** step, 1 - beta2 ** step
                w = w - rate * (mw / c1) / (np.sqrt(vw / c2) + eps)
                b = b - rate * (mb / c1) / (np.sqrt(vb / c2) + eps)
                new_layers.append((w.astype(np.float32), b.astype(np.float32)))
            layers = new_layers
        test_loss, _ = _loss_and_grads(layers, x_test, t_test)
        out(f"epoch {epoch}: train {total / len(order):.5f}, held-out {test_loss:.5f}, "
            f"{time.monotonic() - started:.0f} s")
        if test_loss < best_loss:
            best, best_loss = layers, test_loss
    return best, best_loss


def linear_scale(variant: Variant) -> float:
    """The linear evaluation's centi-men per logit (its fit's K): the network scores in the same units."""
    from ._eval import weights_path

    return float(json.loads(weights_path(variant).read_text(encoding="utf-8"))["scale"])


def cmd_train(args) -> int:
    from .tuning import _load_positions

    variant = args.variant
    start, hidden = None, tuple(args.hidden or DEFAULT_HIDDEN)
    made: dict = {}
    if args.init is not None:  # read first, so that a bad file is named before the positions load
        start, made = read_layers(variant, args.init)
        hidden = tuple(args.hidden or (w.shape[1] for w, _ in start[:3]))
    data, made_by = _load_positions(args.data, variant, optional=("score",))
    k = args.scale if args.scale is not None else made.get("scale") or linear_scale(variant)
    if start is not None:
        made_by = f"{made_by}; started from {args.init}, made by {made['command']} on {made['data']}"
    x = inputs_of(variant, data["white"], data["black"], data["kings"], data["turn"])
    t = targets(variant, data, args.lam, k)
    print(f"{len(t)} positions ({'with' if 'score' in data else 'without'} search scores), "
          f"{x.shape[1]} inputs, layers {list(hidden)}")
    layers, loss = train(variant, x, t, hidden, args.epochs, args.batch, args.lr, args.holdout, args.seed, start)
    command = (f"python -m engine net train --variant {variant.name} --data {' '.join(args.data)} "
               + (f"--init {args.init} " if args.init is not None else f"--hidden {' '.join(map(str, hidden))} ")
               + f"--epochs {args.epochs} --batch {args.batch} --lr {args.lr} "
               f"--lam {args.lam} --scale {k:g} --holdout {args.holdout} --seed {args.seed} --out {args.out}")
    write_net(args.out, variant, [(w.astype(np.float64), b.astype(np.float64)) for w, b in layers], k, command,
              made_by, {"positions": int(len(t)), "held_out_loss": round(loss, 5)})
    print(f"held-out loss {loss:.5f}; wrote {args.out}")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    t = sub.add_parser("train", help="train the network evaluation on .npz files of tune generate")
    t.add_argument("--variant", type=variant_arg, default="american")
    t.add_argument("--data", required=True, nargs="+", help="the .npz files of tune generate")
    t.add_argument("--hidden", type=int, nargs=3, default=None,
                   help=f"the three layers' widths (default: --init's, or {' '.join(map(str, DEFAULT_HIDDEN))})")
    t.add_argument("--init", default=None,
                   help="a weights file to start from instead of random weights (its widths and scale): a trained "
                        "network learns from new games without its old positions")
    t.add_argument("--epochs", type=int, default=30)
    t.add_argument("--batch", type=int, default=4096)
    t.add_argument("--lr", type=float, default=1e-3, help="Adam's step size (halved every 10 epochs)")
    t.add_argument("--lam", type=float, default=DEFAULT_LAMBDA,
                   help="the share of the search's score in the target (the rest: the game's result)")
    t.add_argument("--scale", type=float, default=None,
                   help="centi-men per logit (default: the linear evaluation's, from its weights file)")
    t.add_argument("--holdout", type=float, default=0.05, help="the share of positions held out")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--out", type=output_file, required=True, help="the weights file to write (engine/weights/VARIANT-net.json)")
    t.set_defaults(func=cmd_train)

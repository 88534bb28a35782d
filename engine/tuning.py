"""Fitting the evaluation's weights to games ("Texel" tuning), rerunnable by anyone:

    python -m engine tune generate --variant american --games 8000 --nodes 2000 --concurrency 2 --out /tmp/am.npz
    python -m engine tune fit --variant american --data /tmp/am.npz --out engine/weights/american.json

(the shipped files' "data" and "command" fields hold the exact commands that made them).

``generate`` plays self-play games with a fixed node budget a move (seeded: the same arguments give
the same games, whatever the concurrency), from the variant's opening set (the ACF three-move ballots, the 10x10 openings of
``engine.openings``) followed by a few random plies for variety, and keeps every quiet position (no
capture for the side to move) after the random plies, with the game's result from White's view (1,
0.5, 0), and the score the self-play search gave it (centi-men, the side to move's view: a label
for ``engine.network``'s training). A game longer than ``--max-plies`` counts as a draw.
``label`` searches the positions of such a file again, deeper, and writes them with those scores.
``exact`` labels them with the endgame tables (``engine.egdb``) where they know: a position in the
tables gets its own value as result and score, and every earlier position of its game the value of
the game's first position in them (what perfect play from there gives, where the self-play search
misplayed about one ending in thirty). A file's games are its runs of positions whose piece count
never rises (a game keeps its positions in order, and the next one starts with a full board).

``fit`` turns each position into the evaluation's feature counts (``_eval.features``, White minus
Black, each counted into an opening and an ending slot by the game phase) and fits the weights by
logistic regression: P(White wins) = sigmoid(dot(w, f)), the cross-entropy to the results (1, 0.5,
0) plus an L2 penalty on every weight but the material ones, minimised by Newton's method in numpy
(``--holdout`` compares penalties on held-out positions). The logits are then scaled to centi-men (a
man's opening and ending values average 100: the scale K of Texel tuning, P = sigmoid(score / K)) and
written as whole numbers to a JSON file with the commands that made the data and the fit
(``_eval.default_weights`` reads it; a match player's ``weights=FILE`` too).

``hand`` writes the hand-set evaluation of before (``HAND``) as a weights file of the same features;
``fit --prior hand`` pulls the fit towards those numbers rather than towards zero (their scale K
fitted first), for a rule set where a fit from scratch loses to them; ``--prior shipped`` pulls it
towards the package's own weights file, for a second round of data played with those weights.
``fit --data`` takes several files of ``generate`` and fits their positions together.

The position files (.npz: white, black, kings, turn, result) stay out of the repository; the weight
files are package data (engine/weights/).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from .arguments import output_file, variant_arg
from .game import Game
from .variants import ALL_VARIANTS, Color, Variant


def _play(variant_name: str, index: int, seed: int, nodes: int, random_plies: int, max_plies: int):
    """One self-play game: (white, black, kings, turn, the search's score) of its kept positions and
    White's result."""
    from .openings import openings_for
    from .search import Limits

    variant = ALL_VARIANTS[variant_name]
    searcher = _searcher()
    searcher.new_game()
    rng = random.Random(seed * 1_000_003 + index)
    openings = openings_for(variant)
    game = Game(variant)
    for text in openings[index % len(openings)].split():
        game.play(text)
    for _ in range(rng.randint(0, random_plies)):
        if game.is_over:
            break
        game.play(rng.choice(game.position.legal_moves()))
    kept = []
    while not game.is_over and game.ply < max_plies:
        pos = game.position
        found = searcher.search(game, Limits(nodes=nodes))
        if not pos.has_capture():
            kept.append((pos.white, pos.black, pos.kings, int(pos.turn), found.score))
        game.play(found.move)
    outcome = game.outcome
    if outcome is None or outcome.winner is None:
        result = 0.5
    else:
        result = 1.0 if int(outcome.winner) == 0 else 0.0
    return kept, result


_SEARCHER = None


def _searcher():
    global _SEARCHER
    if _SEARCHER is None:
        from .search import Searcher

        _SEARCHER = Searcher(tt_size_mb=16)
    return _SEARCHER


def _play_many(args: tuple) -> list:
    variant_name, indices, seed, nodes, random_plies, max_plies = args
    return [_play(variant_name, i, seed, nodes, random_plies, max_plies) for i in indices]


def generate(variant: Variant, games: int, nodes: int, seed: int, random_plies: int = 6, max_plies: int = 300,
             concurrency: int = 1, out=print) -> dict[str, np.ndarray]:
    """Play ``games`` self-play games (see the module docstring) and return their quiet positions."""
    chunks = [(variant.name, list(range(start, min(games, start + 50))), seed, nodes, random_plies, max_plies)
              for start in range(0, games, 50)]
    rows: list = []
    results: list = []
    started = time.monotonic()
    scores = [0, 0, 0]
    with ProcessPoolExecutor(max_workers=concurrency) as pool:
        played = pool.map(_play_many, chunks) if concurrency > 1 else map(_play_many, chunks)
        for done, chunk in enumerate(played, start=1):
            for kept, result in chunk:
                rows.extend(kept)
                results.extend([result] * len(kept))
                scores[int(result * 2)] += 1
            out(f"{min(games, done * 50)}/{games} games, {len(rows)} positions, White won {scores[2]} drew "
                f"{scores[1]} lost {scores[0]}, {time.monotonic() - started:.0f} s")
    arr = np.array([row[:4] for row in rows], dtype=np.uint64).reshape(-1, 4)
    return {"white": arr[:, 0], "black": arr[:, 1], "kings": arr[:, 2], "turn": arr[:, 3].astype(np.int8),
            "result": np.array(results, dtype=np.float32),
            "score": np.array([row[4] for row in rows], dtype=np.int32)}


def cmd_generate(args) -> int:
    data = generate(args.variant, args.games, args.nodes, args.seed, args.random_plies, args.max_plies,
                    args.concurrency)
    command = (f"python -m engine tune generate --variant {args.variant.name} --games {args.games} --nodes {args.nodes} "
               f"--seed {args.seed} --random-plies {args.random_plies} --max-plies {args.max_plies}")
    arrays: dict[str, Any] = {"variant": args.variant.name, "command": command, **data}
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {len(data['result'])} positions to {args.out}")
    return 0


def _label_many(args: tuple) -> list[int]:
    """The search's scores of a chunk of positions, one after the other from a fresh table (so that
    the scores don't depend on the concurrency; a fresh table for each would cost more than the
    search)."""
    from .position import Position
    from .search import Limits

    variant_name, rows, nodes = args
    variant = ALL_VARIANTS[variant_name]
    searcher = _searcher()
    out = []
    searcher.new_game()
    for white, black, kings, turn in rows:
        pos = Position(variant, int(white), int(black), int(kings), Color(int(turn)))
        out.append(searcher.search(Game(variant, pos), Limits(nodes=nodes)).score)
    return out


def label(variant: Variant, data: dict, nodes: int, concurrency: int = 1, out=print) -> np.ndarray:
    """The score of a ``nodes`` search of each position (centi-men, the side to move's view)."""
    n = len(data["result"])
    rows = list(zip(data["white"].tolist(), data["black"].tolist(), data["kings"].tolist(), data["turn"].tolist(),
                    strict=True))
    chunks = [(variant.name, rows[start:start + 500], nodes) for start in range(0, n, 500)]
    scores: list[int] = []
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=concurrency) as pool:
        done = pool.map(_label_many, chunks) if concurrency > 1 else map(_label_many, chunks)
        for part in done:
            scores.extend(part)
            out(f"{len(scores)}/{n} positions labelled, {time.monotonic() - started:.0f} s")
    return np.array(scores, dtype=np.int32)


def cmd_label(args) -> int:
    data, made_by = _load_positions([args.data], args.variant)
    rng = np.random.default_rng(args.seed)
    keep = np.sort(rng.permutation(len(data["result"]))[:args.positions]) if args.positions else None
    if keep is not None:
        data = {k: v[keep] for k, v in data.items()}
    data["score"] = label(args.variant, data, args.nodes, args.concurrency)
    command = (f"{made_by}; python -m engine tune label --variant {args.variant.name} --data {args.data} "
               f"--nodes {args.nodes}" + (f" --positions {args.positions} --seed {args.seed}" if args.positions else ""))
    arrays: dict[str, Any] = {"variant": args.variant.name, "command": command, **data}
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {len(data['score'])} positions to {args.out}")
    return 0


def game_starts(data: dict) -> np.ndarray:
    """Where each game of a ``generate`` file starts: the positions whose piece count is more than
    the one before them (see the module docstring)."""
    pieces = np.asarray(data["white"], dtype=np.uint64) | np.asarray(data["black"], dtype=np.uint64)
    count = np.zeros(len(pieces), dtype=np.int64)
    for square in range(64):
        count += ((pieces >> np.uint64(square)) & np.uint64(1)).astype(np.int64)
    return np.concatenate(([0], np.flatnonzero(np.diff(count) > 0) + 1)) if len(count) else np.zeros(0, np.int64)


def exact(variant: Variant, data: dict, tables) -> tuple[dict, int, int, int]:
    """``data`` labelled with ``tables`` (see the module docstring); with the number of games, of
    positions in the tables and of positions whose result changed."""
    from .network import DECIDED
    from .position import Position

    labels = {"win": (1.0, DECIDED), "draw": (0.5, 0), "loss": (0.0, -DECIDED)}  # (points, score) to move
    result = np.array(data["result"], dtype=np.float32)
    score = np.array(data["score"], dtype=np.int32) if "score" in data else None
    known = 0
    starts = game_starts(data)
    for start, end in zip(starts, np.append(starts[1:], len(result)), strict=True):
        first = None
        for i in range(start, end):
            turn = int(data["turn"][i])
            probe = tables.probe(Position(variant, int(data["white"][i]), int(data["black"][i]),
                                          int(data["kings"][i]), Color(turn)))
            if probe is None:
                continue
            known += 1
            first = i if first is None else first
            points, searched = labels[probe.value]
            result[i] = points if turn == 0 else 1.0 - points
            if score is not None:
                score[i] = searched
        if first is not None:
            result[start:first] = result[first]
    changed = int(np.count_nonzero(result != data["result"]))
    labelled = {**data, "result": result, **({"score": score} if score is not None else {})}
    return labelled, len(starts), known, changed


def cmd_exact(args) -> int:
    from . import egdb

    tables = egdb.load(args.variant, args.tables)
    if tables is None:
        print(f"no {args.variant.name} endgame tables in {egdb.egdb_dir(args.tables)}: build them with "
              f"python -m engine egdb build --variant {args.variant.name}", file=sys.stderr)
        return 2
    data, made_by = _load_positions([args.data], args.variant, optional=("score",))
    started = time.monotonic()
    data, games, known, changed = exact(args.variant, data, tables)
    command = f"{made_by}; python -m engine tune exact --variant {args.variant.name} --data {args.data}"
    arrays: dict[str, Any] = {"variant": args.variant.name, "command": command, **data}
    np.savez_compressed(args.out, **arrays)
    print(f"{games} games, {len(data['result'])} positions: {known} in the {tables.pieces}-piece "
          f"tables, {changed} results changed, {time.monotonic() - started:.0f} s; wrote {args.out}")
    return 0


def feature_matrix(variant: Variant, data) -> np.ndarray:
    """The positions' feature counts (float64 [N, 2F]: the opening slots, then the ending slots, each a
    count times phase / 256), so that ``evaluate``'s linear part is ``matrix @ weights``."""
    from ._eval import eval_tables, feature_count, features_of

    f = feature_count(variant)
    ev = eval_tables(variant, (0,) * (2 * f))
    out = np.zeros((len(data["result"]), 2, f), dtype=np.int64)
    features_of(np.ascontiguousarray(data["white"], dtype=np.uint64), np.ascontiguousarray(data["black"], dtype=np.uint64),
                np.ascontiguousarray(data["kings"], dtype=np.uint64), np.ascontiguousarray(data["turn"], dtype=np.int64),
                ev, out)
    return out.reshape(len(out), 2 * f) / 256.0


def fit(variant: Variant, x: np.ndarray, results: np.ndarray, l2: float, iterations: int = 12,
        prior: np.ndarray | None = None, out=print) -> np.ndarray:
    """Logistic regression of the results (White's points) on the features by Newton's method: the
    weights (logits per count) minimising the cross-entropy plus ``l2`` * N * |w - prior|^2 over every
    weight but material's (``prior`` zero unless given)."""
    from ._eval import F_KING, F_MAN, feature_count

    n, m = x.shape
    f = feature_count(variant)
    penalty = np.full(m, l2 * n)
    for i in (F_MAN, F_KING):
        penalty[i] = penalty[f + i] = 1e-6 * n
    base = np.zeros(m) if prior is None else prior
    w = base.copy()
    for it in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - results) + penalty * (w - base)
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        eps = 1e-12
        loss = -np.mean(results * np.log(p + eps) + (1 - results) * np.log(1 - p + eps))
        out(f"iteration {it + 1}: cross-entropy {loss:.5f}, step {np.abs(step).max():.2e}")
        if np.abs(step).max() < 1e-6:
            break
    return w


def _cross_entropy(x: np.ndarray, w: np.ndarray, results: np.ndarray) -> float:
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    return float(-np.mean(results * np.log(p + 1e-12) + (1 - results) * np.log(1 - p + 1e-12)))


def fit_scale(x: np.ndarray, weights_cm: np.ndarray, results: np.ndarray) -> float:
    """Texel's K: the centi-men per logit that make ``weights_cm`` predict the results best (golden
    section search between 10 and 1000)."""
    lo, hi = np.log(10.0), np.log(1000.0)
    g = (np.sqrt(5) - 1) / 2
    for _ in range(40):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if _cross_entropy(x, weights_cm / np.exp(a), results) < _cross_entropy(x, weights_cm / np.exp(b), results):
            hi = b
        else:
            lo = a
    return float(np.exp((lo + hi) / 2))


def to_centimen(variant: Variant, w: np.ndarray) -> tuple[list[int], float]:
    """Whole-number weights in centi-men (a man's opening and ending values average 100) and the scale
    (centi-men per logit): P(White wins) = sigmoid(score / scale)."""
    from ._eval import F_MAN, feature_count

    f = feature_count(variant)
    scale = 200.0 / (w[F_MAN] + w[f + F_MAN])
    return [int(round(v)) for v in w * scale], scale


# The evaluation before the fit (hand-set numbers, engine/_eval.py until the learned evaluation), by
# variant: man, king, advancement per row (opening, ending), man on a central square, man on a side
# edge, king per step nearer the centre, guard on a key back square (Black's squares; White's turned),
# mobility, runaway (at one row to go, less per further row), trapped king, trade (percent added to a
# material lead as the board empties), wing balance, hunt.
HAND: dict[str, dict[str, Any]] = {
    "american": dict(man=100, king=140, adv=(1, 6), centre=10, edge=-4, king_centre=4, back=25, back_squares=(1, 3),
                     mobility=4, runaway=(70, 8), trapped=20, trade=60, balance=0, hunt=3),
    "international": dict(man=100, king=300, adv=(1, 6), centre=5, edge=-5, king_centre=3, back=6,
                          back_squares=(2, 3, 4), mobility=1, runaway=(90, 8), trapped=30, trade=60, balance=3, hunt=2),
}


def hand_weights(variant: Variant) -> list[int]:
    """The hand-set evaluation (``HAND``) as weights of the learned one's features (opening row, then
    ending row): the same terms, the trade bonus as the ending's extra material value."""
    from ._eval import (
        F_BALANCE,
        F_HUNT,
        F_KING,
        F_MAN,
        F_MOBILITY_KING,
        F_MOBILITY_MAN,
        F_TRAPPED_KING,
        feature_count,
        feature_names,
    )

    h = HAND[variant.name]
    f = feature_count(variant)
    names = {name: i for i, name in enumerate(feature_names(variant))}
    w = np.zeros((2, f), dtype=np.int64)
    for slot, trade in ((0, 0), (1, h["trade"])):
        w[slot, F_MAN] = h["man"] * (100 + trade) // 100
        w[slot, F_KING] = h["king"] * (100 + trade) // 100
        w[slot, F_TRAPPED_KING] = -h["trapped"]
        w[slot, F_MOBILITY_MAN] = w[slot, F_MOBILITY_KING] = h["mobility"]
        w[slot, F_BALANCE] = -h["balance"]
        w[slot, F_HUNT] = h["hunt"]
    size, width = variant.size, variant.row_width
    centre = (size - 1) / 2
    for sq in range(1, variant.squares + 1):  # White's squares (Black's are the same from its side)
        row, k = divmod(sq - 1, width)
        col = 2 * k + (1 - row % 2)
        place = h["centre"] if 2 <= col <= size - 3 and size // 2 - 2 <= row <= size // 2 + 1 else 0
        place += h["edge"] if col in (0, size - 1) else 0
        w[0, names[f"man_{sq}"]] = h["adv"][0] * (size - 1 - row) + place
        w[1, names[f"man_{sq}"]] = h["adv"][1] * (size - 1 - row)
        steps = size // 2 - 1 - int(max(abs(row - centre), abs(col - centre)))
        w[:, names[f"king_{sq}"]] = h["king_centre"] * steps
    guards = sum(1 << (width - sq) for sq in h["back_squares"])  # Black's square k is White's own-view bit W - k
    for pattern in range(1 << width):
        w[:, names[f"back_{pattern:0{width}b}"]] = h["back"] * bin(pattern & guards).count("1")
    for rows in range(1, size):
        w[:, names[f"runaway_{rows}"]] = max(0, h["runaway"][0] - h["runaway"][1] * (rows - 1))
    return [int(x) for x in w.reshape(-1)]


def cmd_hand(args) -> int:
    from ._eval import feature_names

    variant = args.variant
    doc = {"command": f"python -m engine tune hand --variant {variant.name} --out {args.out}",
           "data": "none: the hand-set evaluation (engine.tuning.HAND) in these features",
           "features": feature_names(variant), variant.name: hand_weights(variant)}
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc) + "\n")
    print(f"wrote {args.out}")
    return 0


def _load_positions(paths: list[str], variant: Variant,
                    optional: tuple[str, ...] = ()) -> tuple[dict[str, np.ndarray], str]:
    """The positions of several ``generate`` files together, and the commands that made them; the
    ``optional`` fields (``score``) only when every file has them. ValueError for a file of another
    variant (each records the one it was generated for)."""
    parts, commands = [], []
    for path in paths:
        try:
            with np.load(path) as npz:
                keys = ("white", "black", "kings", "turn", "result") + tuple(k for k in optional if k in npz.files)
                parts.append({k: npz[k] for k in keys})
                commands.append(str(npz["command"]))
                recorded = str(npz["variant"])
        except (OSError, ValueError, KeyError) as err:
            raise ValueError(f"{path}: not a position file of tune generate ({err})") from None
        if recorded != variant.name:
            raise ValueError(f"{path} holds {recorded} positions (tune generate --variant {recorded}), not "
                             f"{variant.name}: fit it with --variant {recorded}")
    shared = set.intersection(*(set(part) for part in parts))
    return {k: np.concatenate([part[k] for part in parts]) for k in parts[0] if k in shared}, "; ".join(commands)


def cmd_fit(args) -> int:
    from ._eval import default_weights, feature_names

    variant = args.variant
    data, made_by = _load_positions(args.data, variant)
    started = time.monotonic()
    x = feature_matrix(variant, data)
    y = data["result"].astype(np.float64)
    print(f"{len(y)} positions, {x.shape[1]} weights, features in {time.monotonic() - started:.0f} s")
    prior, k = None, 0.0
    if args.prior != "none":
        start = hand_weights(variant) if args.prior == "hand" else default_weights(variant)
        known = np.array(start, dtype=np.float64)
        k = fit_scale(x, known, y)
        prior = known / k
        print(f"{args.prior} weights: scale K {k:.1f} centi-men a logit, cross-entropy "
              f"{_cross_entropy(x, prior, y):.5f}")
    rng = np.random.default_rng(args.seed)
    if args.holdout > 0:
        test = rng.random(len(y)) < args.holdout
        for l2 in args.l2:
            w = fit(variant, x[~test], y[~test], l2, prior=prior, out=lambda _text: None)
            print(f"l2 {l2}: held-out cross-entropy {_cross_entropy(x[test], w, y[test]):.5f}")
    w = fit(variant, x, y, args.l2[0], prior=prior)
    if prior is None:
        weights, scale = to_centimen(variant, w)
    else:  # the prior's scale, so that its numbers keep their meaning
        weights, scale = [int(round(v)) for v in w * k], k
    names = feature_names(variant)
    command = (f"python -m engine tune fit --variant {variant.name} --data {' '.join(args.data)} --l2 {args.l2[0]}"
               + (f" --prior {args.prior}" if args.prior != "none" else "") + f" --out {args.out}")
    doc = {"command": command, "data": made_by,
           "positions": len(y), "scale": round(scale, 2), "features": names, variant.name: weights}
    text = json.dumps(doc)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    n = len(names)
    for i in range(8):
        print(f"{names[i]}: opening {weights[i]}, ending {weights[n + i]}")
    print(f"scale {scale:.1f} centi-men a logit; wrote {args.out}")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    g = sub.add_parser("generate", help="self-play games; their quiet positions and results to an .npz file")
    g.add_argument("--variant", type=variant_arg, default="american")
    g.add_argument("--games", type=int, default=4000)
    g.add_argument("--nodes", type=int, default=2000, help="search nodes a move (default 2000)")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--random-plies", type=int, default=6, help="up to this many random plies after the opening")
    g.add_argument("--max-plies", type=int, default=300, help="a longer game counts as a draw")
    g.add_argument("--concurrency", type=int, default=1)
    g.add_argument("--out", type=output_file, required=True, help="the .npz file to write")
    g.set_defaults(func=cmd_generate)
    lb = sub.add_parser("label", help="search the positions of a generate file again and keep their scores")
    lb.add_argument("--variant", type=variant_arg, default="american")
    lb.add_argument("--data", required=True, help="an .npz file of generate")
    lb.add_argument("--nodes", type=int, default=20000, help="search nodes a position (default 20000)")
    lb.add_argument("--positions", type=int, default=None, help="label this many positions drawn at random (default all)")
    lb.add_argument("--seed", type=int, default=1)
    lb.add_argument("--concurrency", type=int, default=1)
    lb.add_argument("--out", type=output_file, required=True,
                    help="the .npz file to write (the positions, their results and scores)")
    lb.set_defaults(func=cmd_label)
    x = sub.add_parser("exact", help="label the positions of a generate file with the endgame tables where they know")
    x.add_argument("--variant", type=variant_arg, default="american")
    x.add_argument("--data", required=True, help="an .npz file of generate (or of label)")
    x.add_argument("--tables", default=None, help="the tables' folder (default: the cache the game builds them in)")
    x.add_argument("--out", type=output_file, required=True, help="the .npz file to write")
    x.set_defaults(func=cmd_exact)
    h = sub.add_parser("hand", help="write the hand-set evaluation's numbers as a weights file")
    h.add_argument("--variant", type=variant_arg, default="american")
    h.add_argument("--out", type=output_file, required=True, help="the weights file to write")
    h.set_defaults(func=cmd_hand)
    f = sub.add_parser("fit", help="fit the evaluation's weights to .npz files of generate")
    f.add_argument("--variant", type=variant_arg, default="american")
    f.add_argument("--data", required=True, nargs="+", help="the .npz files of generate (their positions together)")
    f.add_argument("--l2", type=float, nargs="+", default=[1e-5],
                   help="L2 penalty per position (the first is used; with --holdout each is tried)")
    f.add_argument("--holdout", type=float, default=0.0, help="fraction of positions held out to compare --l2 values")
    f.add_argument("--prior", choices=("none", "hand", "shipped"), default="none",
                   help="the L2 penalty pulls towards these weights (hand: the hand-set ones of tune hand; shipped: "
                        "the package's weights file), scaled by a fitted K, instead of towards zero")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--out", type=output_file, required=True, help="the weights file to write (engine/weights/VARIANT.json)")
    f.set_defaults(func=cmd_fit)

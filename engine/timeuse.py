"""How a level spends its time: ``python -m engine timeuse --level hard --moves 200``.

Plays the level against itself from the variant's match openings (each game until it ends or
``--game-plies`` plies) and times every ``choose_move`` call as the game's worker makes it, wall clock
from the call to its return, book moves and forced moves included. Prints the distribution of those
times (median, 90th and 99th percentile, maximum, and how many moves went over ``--limit``) and of the
depth the search reached. Wall-clock numbers: they depend on what else the machine is doing, so run it
under the load you care about and say which.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np

from .arguments import THREADS_MAX, variant_arg, whole_number
from .game import Game
from .openings import openings_for


def measure(variant, level: str, moves: int, game_plies: int = 120, seed: int = 1, tt_mb: int = 64,
            limit: float = 1.6, threads: int = 1) -> dict:
    """Time ``moves`` calls of ``choose_move`` at ``level`` with ``threads`` search threads (see the
    module doc)."""
    from .search import Searcher, choose_move

    searcher = Searcher(tt_size_mb=tt_mb, threads=threads)
    searcher.warm_up()
    rng = random.Random(seed)
    openings = openings_for(variant)
    order = np.random.default_rng(seed).permutation(len(openings))
    seconds: list[float] = []
    depths: list[int] = []
    game_index = 0
    while len(seconds) < moves:
        game = Game(variant)
        for text in openings[int(order[game_index % len(openings)])].split():
            game.play(text)
        game_index += 1
        searcher.new_game()
        while not game.is_over and game.ply < game_plies and len(seconds) < moves:
            started = time.perf_counter()
            result = choose_move(searcher, game, level, rng)
            seconds.append(time.perf_counter() - started)
            depths.append(result.depth)
            game.play(result.move)
    return summarize(seconds, depths, limit) | {"variant": variant.name, "level": level, "games": game_index,
                                                "threads": threads}


def summarize(seconds: list[float], depths: list[int], limit: float = 1.6) -> dict:
    """Percentiles of the move times (seconds) and depths."""
    ordered = sorted(seconds)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 3)

    return {"moves": len(seconds), "median_s": pct(0.5), "p90_s": pct(0.9), "p99_s": pct(0.99),
            "max_s": round(ordered[-1], 3), "mean_s": round(statistics.fmean(seconds), 3), "limit_s": limit,
            "over_limit": sum(s > limit for s in seconds),
            "depth_median": statistics.median(depths), "depth_mean": round(statistics.fmean(depths), 2),
            "depth_min": min(depths), "depth_max": max(depths)}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", type=variant_arg, default="american")
    p.add_argument("--level", default="hard", help="easy, medium or hard (default hard)")
    p.add_argument("--moves", type=int, default=200, help="moves to time (default 200)")
    p.add_argument("--game-plies", type=int, default=120, help="start a new game after this many plies")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--limit", type=float, default=1.6, help="count the moves slower than this (seconds)")
    p.add_argument("--threads", type=whole_number(1, THREADS_MAX), default=1, metavar="N",
                   help="search threads (default 1; the game's computer: every core but one)")
    p.add_argument("--json", action="store_true")


def cmd_timeuse(args) -> int:
    result = measure(args.variant, args.level, args.moves, args.game_plies, args.seed, limit=args.limit,
                     threads=args.threads)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['variant']} {result['level']}: {result['moves']} moves in {result['games']} games; "
              f"seconds median {result['median_s']} p90 {result['p90_s']} p99 {result['p99_s']} max {result['max_s']} "
              f"(mean {result['mean_s']}); over {args.limit} s: {result['over_limit']}; depth median "
              f"{result['depth_median']} mean {result['depth_mean']} range {result['depth_min']}-{result['depth_max']}")
    return 0

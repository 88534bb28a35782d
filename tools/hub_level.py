"""A computer level of any checkout of Checkers 3D as a Hub engine, for matches against an older version.

    /path/to/old/checkout/.venv/bin/python tools/hub_level.py --level hard

serves Scan's Hub protocol like ``python -m engine hub``, but each ``go`` plays the move the game's
computer would play at that level (``engine.search.choose_move``: Hard's 1.5 s split between the search
and the moves as good as the best, Medium's depth and margin, Easy's random moves), so a match against
``--b 'hub=/old/.venv/bin/python /new/tools/hub_level.py --level hard'`` compares the levels exactly as
players meet them, where ``python -m engine hub`` would only run a plain search for the ``level``'s time.
The GUI's ``level`` lines are therefore ignored: the level sets its own limits. ``--movetime S`` gives a
timed level (Hard) another budget than its 1.5 s, for matches at shorter time controls: the level's
own logic, scaled.

The ``engine`` imported is the one installed in the Python that runs this file (run from this directory,
``python -m`` is not used, so the current directory doesn't matter). It needs an engine with
``engine.hub.HubEngine`` and ``engine.search.choose_move`` as they were at the start of issue 10.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace

from engine.hub import HubEngine, HubError, _pv_moves, format_line, format_move
from engine.search import LEVELS, choose_move
from engine.variants import variant_named


class LevelHubEngine(HubEngine):
    """A HubEngine whose ``go`` plays ``choose_move`` at one level."""

    def __init__(self, level: str, seed: int | None, **kwargs):
        super().__init__(**kwargs)
        self.level_name = level
        self.rng = random.Random(seed)

    def _go(self, search_number: int) -> None:
        self._init()
        if self.game.is_over or not self.game.position.legal_moves():
            raise HubError("go: the position has no legal move (the game is over)")
        position = self.game.position
        self.flags[0] = 1 if self._stop_through >= search_number else 0

        def on_info(info) -> None:
            self.write(self._info_line(position, info.depth, info.score, info.nodes, info.seconds, info.pv))

        result = choose_move(self.searcher, self.game, self.level_name, self.rng, stop=self.flags, on_info=on_info)
        pv = _pv_moves(position, result.pv)
        ponder = {"ponder": format_move(pv[1])} if len(pv) > 1 and pv[0] == result.move else {}
        self.write(format_line("done", move=format_move(result.move), **ponder))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=tuple(LEVELS), required=True)
    parser.add_argument("--variant", type=variant_named, default="international",
                        help="the variant before any set-param (default international)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the level's choices")
    parser.add_argument("--tt-size", type=int, default=64, help="transposition table in MB (default 64)")
    parser.add_argument("--movetime", type=float, default=None, help="a timed level's budget in seconds")
    parser.add_argument("--threads", type=int, default=None,
                        help="search threads (default: the engine's Hub default, 1; the game's computer uses "
                             "engine.search.default_threads(), every core but one)")
    args = parser.parse_args(argv)
    if args.movetime is not None:
        if LEVELS[args.level].movetime is None:
            parser.error(f"--movetime: the {args.level} level is not timed")
        LEVELS[args.level] = replace(LEVELS[args.level], movetime=args.movetime)
    threads = {} if args.threads is None else {"threads": args.threads}  # older engines take no threads
    engine = LevelHubEngine(args.level, args.seed, variant=args.variant, tt_size_mb=args.tt_size, **threads)
    try:
        return engine.run()
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

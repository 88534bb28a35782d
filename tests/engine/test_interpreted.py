"""Kernels run as plain Python (``engine.interpret_kernels``, as the game's window process runs them)
give the compiled kernels' answers: published perft counts, and the same moves, routes, positions and
automatic outcomes along random games of every rule set. Each interpreting run is a process of its own
(the choice is made once per process, before the first kernel)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_perft import AMERICAN_START, INTERNATIONAL_POSITIONS, INTERNATIONAL_START, MORE_STARTS, THAI_TWELVE_MEN

from engine import AMERICAN, INTERNATIONAL, variant_named

ROOT = Path(__file__).resolve().parents[2]
PERFT_NODES = 5_000  # interpreted perft is slow: the shallow depths of every table


def interpreted(code: str) -> str:
    """Run ``code`` in a fresh process whose kernels are interpreted; its standard output."""
    prelude = "import sys, engine\nengine.interpret_kernels()\n"
    out = subprocess.run([sys.executable, "-c", prelude + code], cwd=ROOT, capture_output=True, text=True,
                         timeout=600, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_interpreted_kernels_need_no_numba_and_count_perft_right():
    tables = [(AMERICAN, AMERICAN.start_fen, AMERICAN_START), (INTERNATIONAL, INTERNATIONAL.start_fen, INTERNATIONAL_START)]
    tables += [(INTERNATIONAL, fen, counts) for fen, counts in INTERNATIONAL_POSITIONS.values()]
    tables += [(variant_named(name), variant_named(name).start_fen, counts) for name, counts in MORE_STARTS.items()]
    tables += [(variant_named("thai"), *THAI_TWELVE_MEN)]
    cases = [(v.name, fen, depth, nodes) for v, fen, counts in tables
             for depth, nodes in enumerate(counts, start=1) if nodes <= PERFT_NODES]
    assert len(cases) >= 50
    code = (f"cases = {cases!r}\n"
            "from engine import Position, variant_named\n"
            "from engine.__main__ import run_perft\n"
            "print([run_perft(Position.from_fen(variant_named(v), fen), d) for v, fen, d, _ in cases])\n"
            "assert 'numba' not in sys.modules, 'interpreting imported numba'\n"
            "print(engine.kernels_cached())\n")
    counts, cached = interpreted(code).split("\n")[:2]
    assert json.loads(counts) == [nodes for *_, nodes in cases]
    assert cached == "True"  # nothing to compile


GAMES = """
import json, random
from engine.variants import ALL_VARIANTS
from engine.game import Game

def trace(seed):
    rng = random.Random(seed)
    rows = []
    for variant in ALL_VARIANTS.values():
        game = Game(variant)
        while not game.is_over and game.ply < 300:
            moves = game.position.legal_moves()
            rows.append([game.position.fen(), sorted([m.start, m.end, list(m.captured), sorted(map(list, m.routes)),
                                                       m.crowned] for m in moves)])
            game.play(rng.choice(sorted(moves, key=lambda m: (m.start, m.end, m.captured))))
        rows.append([game.position.fen(), game.outcome.to_dict() if game.outcome else None])
    return rows
"""


def test_interpreted_kernels_play_random_games_as_the_compiled_ones():
    seeds = range(12)
    namespace: dict = {}
    exec(GAMES, namespace)  # compiled here, in the test process
    compiled = [namespace["trace"](seed) for seed in seeds]
    rows = [row for game in compiled for row in game]
    assert len(rows) > 1000
    moves = [move for _, listed in rows if isinstance(listed, list) for move in listed]
    assert sum(bool(captured) for _, _, captured, _, _ in moves) > 200  # captures, multiple ones among them
    assert any(len(captured) >= 3 for _, _, captured, _, _ in moves) and any(":WK" in fen or ",K" in fen for fen, _ in rows)
    out = interpreted(GAMES + f"print(json.dumps([trace(seed) for seed in {list(seeds)!r}]))\n")
    assert json.loads(out) == json.loads(json.dumps(compiled))


def test_interpreting_comes_before_the_first_kernel():
    code = ("from engine import Position, AMERICAN\nPosition.initial(AMERICAN).legal_moves()\n"
            "try:\n    engine.interpret_kernels()\nexcept RuntimeError as e:\n    print('refused:', e)\n")
    out = subprocess.run([sys.executable, "-c", "import engine\n" + code], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("refused: engine.interpret_kernels() comes too late")


def test_the_windows_imports_of_the_search_load_no_numba():
    """The game's window imports engine.search (its analysis asks for ``Limits``), and with it the
    search kernel's module and the endgame tables' kernels: interpreted, none of them imports numba."""
    code = ("import engine.search, engine.egdb, engine.worker, game.computer.analysis\n"
            "print(sorted(m for m in ('numba', 'llvmlite') if m in sys.modules))\n")
    assert interpreted(code).strip() == "[]"

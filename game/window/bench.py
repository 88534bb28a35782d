"""``python main.py --bench-window N``: frame times of the real window in a scripted game.

Opens the game's window (run it on a display, e.g. under ``xvfb-run``), waits for the rules engine,
starts a Hard game against the computer and plays it with scripted moves: before each of its moves
the player idles a second, then turns the camera for half a second, then plays a legal move; while
the computer thinks, the player turns the camera for half a second too. Each frame is timed (the
whole :meth:`App.step`: input, controller, drawing, flip) and counted as

* ``idle``: the player's turn, nothing moving;
* ``thinking``: the computer searches on another core, nothing moving;
* ``animating``: a move is shown hop by hop;
* ``camera``: the camera turns, or the renderer finishes its picture after a turn, on the player's turn;
* ``camera+think``: the same while the computer searches.

The loop is paced at 60 frames a second as in the game, so the computer's search competes for the
processor as it does when a person plays. Beside each frame's time the processor time the game's
process spent in it is counted (``cpu``: every thread, the software renderer's included): on a
machine busy with other work a frame's time is mostly waiting for a turn on the processor, its
processor time is what it costs.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import statistics
import tempfile
import time
from typing import Any, Iterator

IDLE_FRAMES = 60
ORBIT_FRAMES = 30
THINK_ORBIT_FROM = 10  # frames into the computer's search
KINDS = ("idle", "thinking", "animating", "camera", "camera+think")


@contextlib.contextmanager
def _own_files() -> Iterator[str]:
    """The benchmarks' settings, results, saves and saved games in a fresh temporary folder, which
    is removed after (a player's own are neither read nor changed); the environment as it was after."""
    names = ("CHECKERS3D_DATA_DIR", "CHECKERS3D_CONFIG_DIR", "CHECKERS3D_GAMES_DIR")
    before = {name: os.environ.get(name) for name in names}
    with tempfile.TemporaryDirectory() as folder:
        os.environ.update({name: folder for name in names})
        try:
            yield folder
        finally:
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _summary(times_s: list[float]) -> dict:
    if not times_s:
        return {"frames": 0}
    ms = sorted(t * 1000 for t in times_s)

    def pct(p):
        return round(ms[min(len(ms) - 1, int(p / 100 * len(ms)))], 2)

    return {"frames": len(ms), "median_ms": round(statistics.median(ms), 2), "p95_ms": pct(95), "p99_ms": pct(99),
            "max_ms": round(ms[-1], 2)}


def bench_window(frames: int, size: tuple[int, int], as_json: bool = False, seed: int = 1) -> int:
    """Run the scripted game for ``frames`` timed frames (in a folder of its own: see :func:`_own_files`)
    and print the frame times per kind."""
    with _own_files():
        result = _frame_times(frames, size, seed)
    if as_json:
        print(json.dumps({"size": list(size), "frames": frames, "kinds": result}))
    else:
        print(f"window {size[0]}x{size[1]}, {frames} frames of a Hard game (ms; 'drawn' leaves out frames where "
              "nothing changed, which draw nothing; 'cpu' is the processor time of the drawn frames)")
        for kind, parts in result.items():
            for which, s in parts.items():
                if s["frames"]:
                    print(f"  {kind:12s} {which.replace('drawn_', ''):5s} {s['frames']:5d} frames  median {s['median_ms']:6.1f}  "
                          f"p95 {s['p95_ms']:6.1f}  p99 {s['p99_ms']:6.1f}  max {s['max_ms']:6.1f}")
    return 0


def _frame_times(frames: int, size: tuple[int, int], seed: int) -> dict:
    """The scripted game's frame times: per kind of frame, summaries of all, the drawn, their processor time."""
    import pygame

    from game.modes import Level
    from game.play import intents as it
    from game.play.phases import GameOver
    from game.window import input as inp
    from game.window.app import App

    app = App(size)
    clock = pygame.time.Clock()
    rng = random.Random(seed)
    samples: dict[str, list[tuple[float, float, bool]]] = {kind: [] for kind in KINDS}
    try:
        deadline = time.monotonic() + 600
        # the computer's process loaded too (its Ready seen by the controller's polls), so that its
        # first move isn't a wait of its start-up, which on a busy machine takes 5-20 s
        while not (app.is_ready and app.loader.client is not None and app.loader.client.is_ready):
            if time.monotonic() > deadline or app.loader.error:
                raise SystemExit(f"the rules engine did not start: {app.loader.error or 'timed out'}")
            app.step()
            clock.tick(60)
        app.dispatch(it.StartGame(Level.HARD))
        for _ in range(30):  # the game screen's first frames build the board's pictures
            app.step()
            clock.tick(60)
        c = app.controller
        turn_frames = 0  # frames since the player's turn began
        think_frames = 0  # frames since the computer began its search
        count = 0
        while count < frames:
            orbit = None
            moving = app.animation is not None and not app.animation.is_done(time.monotonic())
            if isinstance(c.phase, GameOver):
                app.dispatch(it.PlayAgain())
                turn_frames = 0
            elif c.is_human_turn() and not moving:
                turn_frames += 1
                if IDLE_FRAMES <= turn_frames < IDLE_FRAMES + ORBIT_FRAMES:
                    orbit = inp.Orbit(6.0 if (turn_frames // ORBIT_FRAMES) % 2 else -6.0, 0.0)
                elif turn_frames >= IDLE_FRAMES + ORBIT_FRAMES:
                    app.dispatch(it.PlayMoveFromList(rng.choice(c.legal_moves())))
                    turn_frames = 0
            elif c.waiting_for_opponent and not moving:
                think_frames += 1
                if THINK_ORBIT_FROM <= think_frames < THINK_ORBIT_FROM + ORBIT_FRAMES:
                    orbit = inp.Orbit(6.0, 0.0)  # the other way from the player's turn
            if not c.waiting_for_opponent:
                think_frames = 0
            settling = app.renderer is not None and not app.renderer.is_settled
            thinking = c.waiting_for_opponent
            started, cpu_started = time.perf_counter(), time.process_time()
            if orbit is not None:
                app.dispatch(orbit)
            drew = app.step()
            finished, cpu = time.perf_counter(), time.process_time() - cpu_started
            if app.animation is not None and not app.animation.is_done(time.monotonic()):
                kind = "animating"  # including the frame where the computer's move arrives and starts
            elif orbit is not None or settling:
                kind = "camera+think" if thinking else "camera"
            elif thinking:
                kind = "thinking"
            else:
                kind = "idle"
            samples[kind].append((finished - started, cpu, drew))
            count += 1
            clock.tick(60)
    finally:
        app.close()
    return {kind: {"all": _summary([t for t, _, _ in rows]), "drawn": _summary([t for t, _, drew in rows if drew]),
                   "drawn_cpu": _summary([cpu for _, cpu, drew in rows if drew])}
            for kind, rows in samples.items()}


def _launch_child(size: tuple[int, int]) -> None:
    """In a fresh process: open the game and print (as JSON) the wall-clock times at which the mode
    screen, the 3D board on it and the ready rules engine appeared."""
    import engine

    engine.interpret_kernels()  # as game.cli does
    from game.window.app import App

    app = App(size)
    marks = {}
    try:
        deadline = time.monotonic() + 600
        while "engine_ready" not in marks or "board" not in marks:
            drew = app.step()
            now = time.time()
            if drew and "mode_screen" not in marks:
                marks["mode_screen"] = now
            if drew and app.renderer is not None and "board" not in marks:
                marks["board"] = now
            if app.is_ready and "engine_ready" not in marks:
                marks["engine_ready"] = now
            if time.monotonic() > deadline or app.loader.error:
                break
            time.sleep(1 / 120)
    finally:
        app.close()
    print(json.dumps(marks))


def bench_launch(runs: int, size: tuple[int, int], as_json: bool = False) -> int:
    """Launch the game ``runs`` times warm (numba's cache as it is) and ``runs`` times cold (an
    empty cache directory each time) and print the seconds from starting the process to the mode
    screen, to the 3D board on it, and to the rules engine being ready."""
    import subprocess
    import sys

    code = f"from game.window.bench import _launch_child; _launch_child({tuple(size)!r})"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results: dict[str, list[dict]] = {"warm": [], "cold": []}
    for kind in ("warm", "cold"):
        for _ in range(runs):
            env = dict(os.environ)
            with tempfile.TemporaryDirectory() as empty:
                if kind == "cold":
                    env["NUMBA_CACHE_DIR"] = empty
                started = time.time()
                out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                                     text=True, timeout=900).stdout
            marks = json.loads(out.strip().splitlines()[-1])
            results[kind].append({k: round(v - started, 2) for k, v in marks.items()})
    if as_json:
        print(json.dumps(results))
    else:
        for kind, rows in results.items():
            for row in rows:
                print(f"{kind}: " + ", ".join(f"{k.replace('_', ' ')} {v:.2f} s" for k, v in row.items()))
    return 0


def bench_memory(size: tuple[int, int], as_json: bool = False, plies: int = 20, trace: bool = False,
                 seed: int = 1) -> int:
    """Open the game (settings and saves in a fresh temporary folder, so none are read) and measure the
    memory of its processes (the game, the engine's worker, multiprocessing's resource tracker) at the
    mode screen once everything has loaded, after ``plies`` plies of an American game against Hard
    (the player's moves random, seeded), after as many of an International game, and after as many of
    an American ending, where the search probes the endgame tables (when they are built). ``trace``: also
    the game process's largest Python allocations (tracemalloc, from the start; it costs memory and
    time itself, so the totals are higher)."""
    from game.window import memory

    if trace:
        import tracemalloc

        tracemalloc.start()
    with _own_files():
        rows = _memory_scenario(size, plies, trace, seed)
    if as_json:
        print(json.dumps(rows))
        return 0
    print("MiB; RSS counts shared libraries in each process, PSS divides shared pages among the processes "
          "that map them, USS is what only that process maps; 'together' counts each page the game's "
          "processes hold once")
    for row in rows:
        print(f"\n{row['moment']}: together {memory.mib(row['together'])}, RSS sum {memory.mib(row['rss_sum'])}, "
              f"PSS sum {memory.mib(row['pss_sum'])}")
        for proc in row["processes"]:
            print(f"  {proc['name']:16s} RSS {memory.mib(proc['rss'])}  PSS {memory.mib(proc['pss'])}  "
                  f"USS {memory.mib(proc['uss'])}  anon {memory.mib(proc['anon'])}")
            for kind, sizes in proc["mappings"].items():
                if sizes["rss"] >= 2**20:
                    print(f"      {kind:42s} RSS {memory.mib(sizes['rss'])}  PSS {memory.mib(sizes['pss'])}")
        for site in row.get("python", ()):
            print(f"  python {site['mib']:7.2f} MiB {site['blocks']:7d} blocks  {site['where']}")
    return 0


# 7 pieces, level: the search reaches the 5-piece endgame tables after one or two exchanges
_MEMORY_ENDING = "W:W18,22,27,K31:B6,10,K13"


def _memory_scenario(size: tuple[int, int], plies: int, trace: bool, seed: int) -> list[dict]:
    import pygame

    from game.modes import Level
    from game.play import intents as it
    from game.render import textures
    from game.window.app import App

    app = App(size)
    clock = pygame.time.Clock()
    rng = random.Random(seed)

    def frames_until(done, what: str, timeout_s: float = 600) -> None:
        deadline = time.monotonic() + timeout_s
        while not done():
            if time.monotonic() > deadline or app.loader.error:
                raise SystemExit(f"--bench-memory: {app.loader.error or 'timed out waiting for ' + what}")
            app.step()
            clock.tick(60)

    def settled() -> bool:
        client = app.loader.client
        return (app.is_ready and client is not None and client.is_ready and app.renderer is not None
                and app.renderer.is_settled and not textures.images_pending())

    def idle(frames: int) -> None:
        for _ in range(frames):
            app.step()
            clock.tick(60)

    c = app.controller

    def game_waits(game) -> bool:
        """The game is over, has its plies, or waits for the player's move (the last one shown)."""
        return game.is_over or len(game.moves) >= plies or (
            c.is_human_turn() and (app.animation is None or app.animation.is_done(time.monotonic())))

    rows = []
    try:
        frames_until(settled, "the engine and the board")
        idle(120)
        rows.append(_measure("mode screen, loaded", app, trace))
        for variant in ("american", "international", "ending"):
            if c.in_game is not None and not c.in_game.game.is_over:
                app.dispatch(it.Resign())  # ends the game before the next (a game left is asked about)
                app.dispatch(it.ConfirmResign())
            if variant == "ending":  # an American ending the search meets the endgame tables in
                app.dispatch(it.Pasted(_MEMORY_ENDING))
                app.dispatch(it.PlayFromHere(Level.HARD))
            else:
                app.dispatch(it.ChangeMode())
                app.dispatch(it.ChooseRules(variant))
                app.dispatch(it.StartGame(Level.HARD))
            game = c.game
            if c.in_game is None or game is None or game.moves:
                raise SystemExit(f"--bench-memory: the {variant} game did not start")
            while len(game.moves) < plies and not game.is_over:
                frames_until(functools.partial(game_waits, game), "the computer's move")
                if c.is_human_turn() and not game.is_over and len(game.moves) < plies:
                    app.dispatch(it.PlayMoveFromList(rng.choice(c.legal_moves())))
            frames_until(settled, "the board")
            idle(60)
            label = "American ending (7 pieces)" if variant == "ending" else f"{variant} game"
            rows.append(_measure(f"{label}, {len(game.moves)} plies against Hard", app, trace))
    finally:
        app.close()
    return rows


def _measure(moment: str, app, trace: bool) -> dict:
    """The memory of the game's processes now (see :mod:`game.window.memory`)."""
    from game.window import memory

    client = app.loader.client
    worker = client.pid if client is not None else None
    pids = [os.getpid()] + memory.children(os.getpid())
    processes: list[dict[str, Any]] = []
    for pid in pids:
        name = "game" if pid == os.getpid() else "engine worker" if pid == worker else "helper process"
        numbers = memory.process_memory(pid)
        if numbers is not None:
            processes.append({"name": name, "pid": pid, **numbers, "mappings": memory.mappings(pid) or {}})
    row = {"moment": moment, "together": memory.together([p["pid"] for p in processes]),
           "rss_sum": sum(p["rss"] for p in processes), "pss_sum": sum(p["pss"] for p in processes),
           "processes": processes}
    if trace:
        import tracemalloc

        stats = tracemalloc.take_snapshot().statistics("lineno")[:15]
        row["python"] = [{"mib": round(s.size / 2**20, 2), "blocks": s.count, "where": str(s.traceback)} for s in stats]
    return row

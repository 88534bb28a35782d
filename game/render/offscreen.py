"""Offscreen tools: render one frame to a PNG, and time frames of a busy scene. No window needed:
a standalone EGL context draws into a framebuffer in memory."""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from contextlib import contextmanager

import numpy as np

from engine import Position, parse_square, variant_named

from .animation import MoveAnimation
from .camera import Camera
from .picking import Viewport
from .state import RenderState, must_capture_squares, selection_markers

# A busy International position (31 pieces) where Black has a four-piece capture, 16x40.
BENCH_FEN = "B:W21,25,26,31,32,35,36,39,41-45,47,48,50:B1-6,9,11,13-17,20,23"
BENCH_MOVE = "16x40"


@contextmanager
def standalone_context():
    """A moderngl context with no window (EGL, as on a headless machine), current on this thread
    inside the ``with`` block and released after it.

    It is unbound before it is released: an EGL context left current (releasing one doesn't unbind
    it) keeps the thread from making a window's GLX context current later (libglvnd answers the
    window's glXMakeCurrent with BadAccess, and Xlib's default handler ends the process)."""
    import moderngl

    ctx = moderngl.create_standalone_context(backend="egl")
    try:
        with ctx:  # current already; leaving the block makes no context current (eglMakeCurrent)
            yield ctx
    finally:
        ctx.release()


def render_to_array(ctx, renderer, state: RenderState, t: float, width: int, height: int) -> np.ndarray:
    """Draw ``state`` at time ``t`` into a ``width`` x ``height`` image; (height, width, 3) uint8,
    row 0 at the top."""
    fbo = ctx.simple_framebuffer((width, height))
    try:
        renderer.draw(state, t, Viewport(0, 0, width, height), target=fbo)
        data = fbo.read(components=3)
    finally:
        # the draw leaves it bound: bind the default one instead, since moderngl rebinds the bound
        # framebuffer after making a new one, and a released one would be a GL_INVALID_OPERATION
        ctx.detect_framebuffer(0).use()
        fbo.release()
    return np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3)[::-1]


def save_png(path: str, image: np.ndarray) -> None:
    """Write an (h, w, 3) uint8 image as PNG."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    h, w, _ = image.shape
    pygame.image.save(pygame.image.frombuffer(np.ascontiguousarray(image).tobytes(), (w, h), "RGB"), path)


def screenshot_state(variant_name: str = "american", fen: str | None = None, view: str = "angled",
                     last_move: str | None = None, select: str | None = None, flipped: bool = False,
                     cursor: str | None = None, numbers: bool = False) -> RenderState:
    """The state the --screenshot tool draws: the position (after ``last_move`` when given, which
    is then marked), the must-capture rings, and a selected piece with its targets."""
    variant = variant_named(variant_name)
    pos = Position.from_fen(variant, fen) if fen else Position.initial(variant)
    move = None
    if last_move:
        move = pos.parse_move(last_move)
        pos = pos.play(move)
    selected, targets, finals = None, frozenset(), frozenset()
    if select:
        selected = parse_square(variant, select)
        targets, finals = selection_markers(pos, selected)
    return RenderState(position=pos, camera=Camera.preset(view, flipped), selected=selected, targets=targets,
                       final_targets=finals, must_capture=must_capture_squares(pos), last_move=move,
                       cursor=parse_square(variant, cursor) if cursor else None, show_numbers=numbers)


def screenshot(out: str, size: tuple[int, int] = (1280, 720), samples: int = 4, **state_options) -> None:
    """Render one frame of :func:`screenshot_state` offscreen and save it to ``out`` as PNG."""
    from .scene import BoardRenderer

    state = screenshot_state(**state_options)
    with standalone_context() as ctx:
        renderer = BoardRenderer(ctx, state.position.variant, samples=samples)
        save_png(out, render_to_array(ctx, renderer, state, 0.0, *size))
        renderer.release()


# The bench's scenario, one loop: (kind, seconds). It plays as a game shows it: the capturing piece
# selected (its targets and the must-capture rings shown), the capture animating, then the position
# after it with the last move marked, an orbit drag, the Angled/Top-down transition and the
# 180-degree turn, each followed by still frames (which pay for the camera stopping).
BENCH_TIMELINE = (("selected", 0.5), ("animating", None), ("still", 0.5), ("orbit", 1.0), ("still", 0.5),
                  ("to_top", 0.6), ("still", 0.5), ("turn", 0.6), ("still", 0.5), ("back", 0.6))
FRAME_KINDS = ("still", "animating", "camera")
_CAMERA_MOVES = ("orbit", "to_top", "turn", "back")


class BenchScene:
    """The bench's busy scene as a pure function of time: :meth:`at` gives (kind, state) for any
    time, looping over :data:`BENCH_TIMELINE` (31 pieces, a four-piece capture, every marker on,
    camera orbit and view transitions)."""

    def __init__(self):
        variant = variant_named("international")
        before = Position.from_fen(variant, BENCH_FEN)
        move = before.parse_move(BENCH_MOVE)
        after = before.play(move)
        start = move.path[0]
        targets, finals = selection_markers(before, start)
        self.selected = RenderState(position=before, camera=Camera.preset("angled"), selected=start, targets=targets,
                                    final_targets=finals, must_capture=must_capture_squares(before), cursor=start)
        self.still = RenderState(position=after, camera=Camera.preset("angled"), last_move=move,
                                 must_capture=must_capture_squares(after), cursor=28)
        self.move, self.before = move, before
        self.anim_seconds = MoveAnimation.build(before, move, start_time=0.0).end_time
        self.segments = [(kind, self.anim_seconds if seconds is None else seconds) for kind, seconds in BENCH_TIMELINE]
        self.period = sum(seconds for _, seconds in self.segments)

    def at(self, t: float) -> tuple[str, RenderState]:
        """The frame kind ("still", "animating" or "camera") and the state at time ``t``."""
        from dataclasses import replace

        from .camera import CameraMove

        angled, top = Camera.preset("angled"), Camera.preset("top")
        flipped = Camera.preset("angled", flipped=True)
        rest = {"orbit": angled, "to_top": top, "turn": flipped, "back": angled}  # where each move ends
        u = t % self.period
        camera = angled
        for kind, seconds in self.segments:
            if u < seconds:
                break
            u -= seconds
            camera = rest.get(kind, camera)
        begin = t - u
        swing = math.sin(math.pi * u / seconds)  # an orbit drag out and back
        camera = {"orbit": angled.orbited(-400 * swing, 120 * swing),
                  "to_top": CameraMove(angled, top, begin, seconds),
                  "turn": CameraMove(top, flipped, begin, seconds),
                  "back": CameraMove(flipped, angled, begin, seconds)}.get(kind, camera)
        state = replace(self.selected if kind == "selected" else self.still, camera=camera)
        if kind == "animating":
            state = replace(state, animation=MoveAnimation.build(self.before, self.move, start_time=begin))
        return ("camera" if kind in _CAMERA_MOVES else "still" if kind == "selected" else kind), state


def _percentiles(times: list[float]) -> dict:
    if not times:
        return {"frames": 0}
    times = sorted(times)

    def pct(p):
        return round(times[min(len(times) - 1, int(round(p / 100 * (len(times) - 1))))], 3)

    return {"frames": len(times), "median_ms": round(statistics.median(times), 3), "p95_ms": pct(95),
            "p99_ms": pct(99), "max_ms": round(times[-1], 3)}


def start_engine_load(seconds: float = 3600.0):
    """Start a real engine search (``python -m engine bestmove`` from the International start) in another
    process, as the game's worker would run while the player watches, and return it once it is
    searching (its start-up, loading the compiled kernels, is waited out). Stop it with
    ``.kill()``."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "engine", "bestmove", "--variant", "international",
                             "--movetime", str(seconds)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    time.sleep(6.0)  # start-up takes 3-5 s on a loaded machine; after it the search runs flat out
    return proc


def bench(frames: int, size: tuple[int, int] = (1280, 720), samples: int = 4, engine_load: bool = False) -> dict:
    """Time ``frames`` frames of :class:`BenchScene` at 60 frames a second of scene time and return
    frame-time statistics in milliseconds, overall and per frame kind (still, animating, camera).
    Each frame is finished (``ctx.finish()``) before its time is taken, so the numbers are what a
    display sees. ``engine_load`` runs a real engine search in another process meanwhile."""
    from .scene import BoardRenderer

    scene = BenchScene()
    load = start_engine_load() if engine_load else None
    try:
        with standalone_context() as ctx:
            renderer = BoardRenderer(ctx, scene.still.position.variant, samples=samples)
            fbo = ctx.framebuffer(ctx.renderbuffer(size, 4), ctx.depth_renderbuffer(size))
            viewport = Viewport(0, 0, *size)
            times = {kind: [] for kind in FRAME_KINDS}
            warmup = 5
            for i in range(frames + warmup):
                t = i / 60.0
                kind, state = scene.at(t)
                start = time.perf_counter()
                renderer.draw(state, t, viewport, target=fbo)
                ctx.finish()
                if i >= warmup:  # the first frames compile shaders and upload; a game pays that once at start
                    times[kind].append((time.perf_counter() - start) * 1000)
            if load is not None and load.poll() is not None:
                raise RuntimeError("the engine search stopped before the bench ended")
            name = ctx.info["GL_RENDERER"]
            antialias = f"{renderer.samples}x MSAA" if renderer.samples else ("FXAA" if renderer.fxaa else "none")
            renderer.release()
            fbo.release()
    finally:
        if load is not None:
            load.kill()
            load.wait()
    result = {"frames": frames, "width": size[0], "height": size[1], "antialias": antialias, "renderer": name,
              "engine_load": engine_load}
    result.update(_percentiles([ms for kind in FRAME_KINDS for ms in times[kind]]))
    result["frames"] = frames
    result["kinds"] = {kind: _percentiles(times[kind]) for kind in FRAME_KINDS}
    return result


def add_tool_arguments(parser) -> None:
    """Add --screenshot and --bench-frames (and their options) to the program's argument parser."""
    g = parser.add_argument_group("offscreen tools (no window)")
    g.add_argument("--screenshot", metavar="OUT.png", help="render one frame offscreen and save it as PNG")
    g.add_argument("--variant", default="american", help="american or international (default american)")
    g.add_argument("--fen", help="position to show, as PDN FEN (default: the initial position)")
    g.add_argument("--view", choices=("angled", "top"), default="angled", help="camera preset")
    g.add_argument("--size", default="1280x720", metavar="WxH", help="image size (default 1280x720)")
    g.add_argument("--last-move", metavar="MOVE", help="play this move from the position and mark it as the last move")
    g.add_argument("--select", metavar="SQUARE", help="show this piece selected, with its targets")
    g.add_argument("--bench-frames", type=int, metavar="N", help="time N frames of a busy scene at --size")
    g.add_argument("--json", action="store_true", help="print --bench-frames results as JSON")
    g.add_argument("--bench-load", action="store_true",
                   help="run a real engine search in another process while --bench-frames times (the issue's condition)")
    g.add_argument("--samples", type=int, default=4,
                   help="multisampling for the tools (default 4; software renderers use FXAA instead; 0 = none)")


def run_tool(args) -> int | None:
    """Run the tool the arguments ask for and return the exit status; None when none was asked."""
    if args.screenshot is None and args.bench_frames is None:
        return None
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"--size {args.size!r}: write it as WIDTHxHEIGHT, e.g. 1280x720")
        return 2
    if args.screenshot is not None:
        try:
            screenshot(args.screenshot, (w, h), samples=args.samples, variant_name=args.variant, fen=args.fen,
                       view=args.view, last_move=args.last_move, select=args.select)
        except ValueError as err:  # bad variant, FEN, move or square: the message names it
            print(f"screenshot: {err}")
            return 2
        print(f"saved {args.screenshot} ({w}x{h})")
    if args.bench_frames is not None:
        result = bench(args.bench_frames, (w, h), samples=args.samples, engine_load=args.bench_load)
        if args.json:
            print(json.dumps(result))
        else:
            load = ", engine searching in another process" if result["engine_load"] else ""
            print(f"{result['frames']} frames at {w}x{h}, {result['antialias']} anti-aliasing, on {result['renderer']}{load}:")
            for kind, r in [("all", result), *result["kinds"].items()]:
                if r["frames"]:
                    print(f"  {kind:9} {r['frames']:4} frames: median {r['median_ms']:6.2f} ms, p95 {r['p95_ms']:6.2f} ms, "
                          f"p99 {r['p99_ms']:6.2f} ms, max {r['max_ms']:6.2f} ms")
    return 0

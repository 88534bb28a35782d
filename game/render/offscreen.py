"""Offscreen tools: render one frame to a PNG, and time frames of a busy scene. No window needed:
a standalone EGL context draws into a framebuffer in memory."""

from __future__ import annotations

import json
import os
import statistics
import time

import numpy as np

from engine import Position, parse_square, variant_named

from .animation import MoveAnimation
from .camera import Camera
from .picking import Viewport
from .state import RenderState, must_capture_squares, selection_markers

# A busy International position (31 pieces) where Black has a four-piece capture, 16x40.
BENCH_FEN = "B:W21,25,26,31,32,35,36,39,41-45,47,48,50:B1-6,9,11,13-17,20,23"
BENCH_MOVE = "16x40"


def standalone_context():
    """A moderngl context with no window (EGL, as on a headless machine)."""
    import moderngl

    return moderngl.create_standalone_context(backend="egl")


def render_to_array(ctx, renderer, state: RenderState, t: float, width: int, height: int) -> np.ndarray:
    """Draw ``state`` at time ``t`` into a ``width`` x ``height`` image; (height, width, 3) uint8,
    row 0 at the top."""
    fbo = ctx.simple_framebuffer((width, height))
    try:
        renderer.draw(state, t, Viewport(0, 0, width, height), target=fbo)
        data = fbo.read(components=3)
    finally:
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
    ctx = standalone_context()
    renderer = BoardRenderer(ctx, state.position.variant, samples=samples)
    save_png(out, render_to_array(ctx, renderer, state, 0.0, *size))
    renderer.release()
    ctx.release()


def bench(frames: int, size: tuple[int, int] = (1280, 720), samples: int = 4) -> dict:
    """Time ``frames`` frames of a busy scene (31 pieces, a four-piece capture animating in a loop,
    every kind of marker on) and return frame-time statistics in milliseconds. Each frame is
    finished (``ctx.finish()``) before its time is taken, so the numbers are what a display sees."""
    from .scene import BoardRenderer

    variant = variant_named("international")
    before = Position.from_fen(variant, BENCH_FEN)
    move = before.parse_move(BENCH_MOVE)
    after = before.play(move)
    anim = MoveAnimation.build(before, move, start_time=0.0)
    period = anim.end_time + 0.3
    targets, finals = selection_markers(after, 32)
    ctx = standalone_context()
    renderer = BoardRenderer(ctx, variant, samples=samples)
    fbo = ctx.framebuffer(ctx.renderbuffer(size, 4), ctx.depth_renderbuffer(size))
    viewport = Viewport(0, 0, *size)
    base = RenderState(position=after, camera=Camera.preset("angled"), selected=32, targets=targets,
                       final_targets=finals, must_capture=frozenset({32, 35, 39}), last_move=move, cursor=28,
                       animation=anim)
    times = []
    for i in range(frames + 5):
        t = (i / 60.0) % period
        start = time.perf_counter()
        renderer.draw(base, t, viewport, target=fbo)
        ctx.finish()
        if i >= 5:  # the first frames compile shaders and upload; a game pays that once at start
            times.append((time.perf_counter() - start) * 1000)
    name = ctx.info["GL_RENDERER"]
    antialias = f"{renderer.samples}x MSAA" if renderer.samples else ("FXAA" if renderer.fxaa else "none")
    renderer.release()
    fbo.release()
    ctx.release()
    times.sort()

    def pct(p):
        return times[min(len(times) - 1, int(round(p / 100 * (len(times) - 1))))]

    return {"frames": frames, "width": size[0], "height": size[1], "antialias": antialias, "renderer": name,
            "median_ms": round(statistics.median(times), 3), "p95_ms": round(pct(95), 3),
            "p99_ms": round(pct(99), 3), "max_ms": round(times[-1], 3)}



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
        result = bench(args.bench_frames, (w, h), samples=args.samples)
        if args.json:
            print(json.dumps(result))
        else:
            print(f"{result['frames']} frames at {w}x{h}, {result['antialias']} anti-aliasing, on {result['renderer']}: "
                  f"median {result['median_ms']:.2f} ms, p95 {result['p95_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms")
    return 0

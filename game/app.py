"""The window and main loop.

Launch order, so the window is there at once: pygame and an OpenGL window first (cleared to the
background colour), then the interface; the rules engine's numba kernels load (or, on the first run,
compile) in a background thread while the mode screen already works, and the computer player starts
in its own process (``engine.worker``). Until the kernels are ready the mode screen shows the progress,
and a game chosen meanwhile starts the moment they are.

The rules engine's positions need numba, whose import alone takes a second or more: the window,
the interface and the controller load without it (``engine`` and ``game.render`` load those names on
first use), the loader thread imports it and loads the kernels, and the 3D board (the chosen rules'
start position on the mode screen) appears as soon as they are ready.

The loop runs at 60 frames a second and never waits: input -> controller -> (worker replies) ->
sounds, animation, camera -> draw what changed -> flip. A software renderer (Mesa llvmpipe) pays for
every pixel it draws, so a frame draws only what changed (see :class:`_Screen`) and a frame where
nothing changed draws nothing and is not flipped.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from dataclasses import replace

# The offscreen tools' module imports the rules engine (numba): it loads only when one is asked for.
_TOOL_FLAGS = ("--screenshot", "--bench-frames", "-h", "--help")


def build_parser(tools: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="checkers3d", description="Checkers 3D: American checkers and "
                                     "International draughts on a 3D board")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS",
                        help="close the window by itself after this many seconds (for tests)")
    parser.add_argument("--window", default="1280x800", metavar="WxH", help="initial window size (default 1280x800)")
    parser.add_argument("--bench-window", type=int, metavar="N",
                        help="open the window, play N frames of a Hard game against the computer with scripted "
                             "moves and camera turns, and print frame times (idle, animating, computer thinking)")
    parser.add_argument("--bench-launch", type=int, metavar="RUNS",
                        help="launch the game RUNS times with numba's cache and RUNS times without, and print the "
                             "seconds to the mode screen, to the 3D board on it and to the rules engine being ready")
    if tools:
        from game.render.offscreen import add_tool_arguments

        add_tool_arguments(parser)  # --screenshot, --bench-frames and their options (--json too)
    else:
        parser.add_argument("--json", action="store_true", help="print the measurements as JSON")
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(tools=any(a.split("=")[0] in _TOOL_FLAGS for a in argv)).parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if hasattr(args, "screenshot"):
        from game.render.offscreen import run_tool

        status = run_tool(args)  # the offscreen tools render without opening a window
        if status is not None:
            return status
    width, height = (int(v) for v in args.window.lower().split("x"))
    if args.bench_launch:
        from game.bench import bench_launch

        return bench_launch(args.bench_launch, (width, height), as_json=args.json)
    if args.bench_window:
        from game.bench import bench_window

        return bench_window(args.bench_window, (width, height), as_json=args.json)
    app = App((width, height))
    # a polite kill (the screenshot tool, a session ending) closes like the window's close button
    signal.signal(signal.SIGTERM, lambda *_: setattr(app, "running", False))
    try:
        app.run(args.quit_after)
    finally:
        app.close()
    return 0


ANIMATION_SPEED = {"slow": 0.6, "normal": 1.0, "fast": 1.8}  # by game.settings.AnimationSpeed
BACKGROUND = (0.12, 0.12, 0.13)


def warm_up_kernels() -> None:
    """Compile (or load from numba's cache) the move generator the game itself uses."""
    from engine import VARIANTS, Position

    for variant in VARIANTS.values():
        pos = Position.initial(variant)
        pos.play(pos.legal_moves()[0]).has_capture()


class _Loader(threading.Thread):
    """Imports the rules engine, loads or compiles its kernels, and starts the computer's process, off
    the main thread so that the window keeps drawing meanwhile."""

    def __init__(self):
        super().__init__(name="engine-loader", daemon=True)
        self.started_at = time.monotonic()
        self.kernels = threading.Event()  # the move generator is loaded in this process
        self.ready = threading.Event()  # that, and the computer's process started
        self.client_started = threading.Event()  # the worker process exists (or failed to start)
        self.client = None
        self.error: str | None = None

    def run(self) -> None:
        try:
            import multiprocessing

            # Compiling holds the interpreter lock for seconds at a time, which would freeze the
            # window: on a cold cache the kernels are compiled (and cached) in a process of their
            # own, and this thread only loads them from the cache.
            # With a warm cache the move generator loads first, before the computer's process
            # competes for the processor: the 3D board waits for it (see App.step).
            from engine import kernels_cached

            compiler = None
            if kernels_cached():
                warm_up_kernels()
                self.kernels.set()
            else:
                compiler = multiprocessing.get_context("spawn").Process(target=warm_up_kernels,
                                                                       name="checkers-compile", daemon=True)
                compiler.start()
            from engine.worker import EngineClient

            try:
                self.client = EngineClient.start()
            finally:
                self.client_started.set()
            if compiler is not None:
                compiler.join()
                warm_up_kernels()
                self.kernels.set()
        except Exception as exc:  # shown on the mode screen; the game can't be played without the rules
            self.error = f"{type(exc).__name__}: {exc}"
        self.client_started.set()
        self.ready.set()

    def progress(self) -> str | None:
        """A line for the mode screen while loading, None once ready."""
        if self.ready.is_set():
            return f"The rules engine failed to start: {self.error}" if self.error else None
        seconds = int(time.monotonic() - self.started_at)
        text = "Preparing the rules engine"
        if seconds >= 3:
            text += f" — {seconds} s (the first run compiles it, about half a minute; later runs take a moment)"
        return text + "…"


class App:
    """The window, its OpenGL context, the renderer, the interface and the controller."""

    def __init__(self, size: tuple[int, int]):
        import moderngl
        import pygame

        pygame.init()
        pygame.display.set_caption("Checkers 3D")
        gl = pygame.display
        gl.gl_set_attribute(pygame.GL_CONTEXT_MAJOR_VERSION, 3)
        gl.gl_set_attribute(pygame.GL_CONTEXT_MINOR_VERSION, 3)
        gl.gl_set_attribute(pygame.GL_CONTEXT_PROFILE_MASK, pygame.GL_CONTEXT_PROFILE_CORE)
        gl.gl_set_attribute(pygame.GL_DOUBLEBUFFER, 1)
        self.window = pygame.display.set_mode(size, pygame.OPENGL | pygame.DOUBLEBUF | pygame.RESIZABLE)
        self.ctx = moderngl.create_context()
        self.ctx.clear(*BACKGROUND)
        pygame.display.flip()  # the window is on screen from here on
        # started after the first frame: importing numba competes with this thread for the
        # interpreter lock, and the mode screen comes first
        self.loader = _Loader()

        # none of these imports numba: the loader thread does, meanwhile
        from game.controller import Controller
        from game.input import Input
        from game.render import Camera
        from game.sound import Sounds
        from game.storage import Storage
        from game.ui import Interface

        self.size = pygame.display.get_window_size()
        self.ui = Interface(self.size)
        self.storage = Storage()
        self.controller = Controller(opponent=None, storage=self.storage)
        self.renderer = None  # the 3D board, once the engine's positions have loaded (_start_renderer)
        self.screen = _Screen(self.ctx, self.size)
        self.sounds = Sounds()
        self.input = Input(self.ui, self._pick, self._can_drag)
        self.camera = Camera.preset(self.controller.settings.view, False)
        self._camera_key = (self.controller.settings.view, False)
        self.animation = None
        self._animated = None  # the controller's Played that the animation shows
        self._waiting_start = None  # a game chosen before the engine was ready
        self._initial = {}  # variant name -> its start position, for the mode screen
        self._state = None
        self._now = time.monotonic()
        self._ready = False
        self.running = True
        self.frames = 0  # frames drawn and shown (a frame where nothing changed is neither)
        self.ui.render(self.controller, self._now, self._loading_text())  # presses before the first frame count

    # --- the loop -------------------------------------------------------------------------------

    def run(self, quit_after: float | None = None) -> None:
        import pygame

        clock = pygame.time.Clock()
        start = time.monotonic()
        while self.running:
            self.step()
            clock.tick(60)
            if quit_after is not None and time.monotonic() - start >= quit_after:
                self.running = False

    def step(self) -> bool:
        """One frame: input, controller, sounds, animation, drawing. Returns whether it drew (a
        frame where nothing on screen changed draws nothing)."""
        import pygame

        self._now = now = time.monotonic()
        self._check_ready()
        for intent in self.input.poll():
            self.dispatch(intent)
        c = self.controller
        if self._ready and (self.animation is None or self.animation.is_done(now)):
            c.update()  # the computer's reply waits until the last move has been shown
        self._follow_controller(now)
        if self.renderer is None and self.frames > 0 and self.loader.kernels.is_set():
            # after the first frame (the window shows the mode screen meanwhile) and once the move
            # generator is loaded: the renderer's first frame rehearses a move, which would compile
            # the kernels here, freezing the window, on a cold cache
            self._start_renderer()
        state = self._state = self._render_state(now)
        changed = self.ui.render(c, now, self._loading_text())
        if not self.screen.draw(self, state, now, changed):
            return False
        pygame.display.flip()
        self.frames += 1
        if self.frames == 1:
            self.loader.start()
            self._prepare_boards()
        return True

    def _prepare_boards(self) -> None:
        """Start making the board images (a second of numpy each, on a background thread) while the
        rules engine loads: the chosen rules' first, then the other's, so switching is instant."""
        from engine import VARIANTS, variant_named
        from game.render.textures import board_image_future, default_pixels

        chosen = variant_named(self.controller.settings.variant)
        for variant in sorted(VARIANTS.values(), key=lambda v: v is not chosen):
            board_image_future(variant, default_pixels(variant), self.controller.settings.square_numbers)

    def dispatch(self, intent) -> None:
        """Apply one intent: window and camera ones here, the rest to the controller (until the rules
        engine is ready, only those the mode screen needs then; a game chosen meanwhile waits)."""
        from game import input as inp
        from game import intents as it
        from game.render import camera_at

        match intent:
            case inp.Quit():
                self.running = False
            case inp.Exposed():
                self.screen.invalidate()
            case inp.Resize(width=width, height=height):
                self._resize(width, height)
            case inp.Orbit(dx=dx, dy=dy):
                self.camera = camera_at(self.camera, self._now).orbited(dx, dy)
            case inp.Zoom(steps=steps):
                self.camera = camera_at(self.camera, self._now).zoomed(steps)
            case it.StartGame() | it.ContinueSaved() if not self._ready:
                self._waiting_start = intent
            case it.ChooseRules() | it.ToggleSetting() | it.SetView() | it.DismissNotes():
                self.controller.handle(intent)
            case _ if self._ready or not isinstance(intent, it.Intent):
                self.controller.handle(intent)  # one it doesn't know raises

    def _check_ready(self) -> None:
        if self._ready or not self.loader.ready.is_set() or self.loader.error:
            return
        from game.worker_opponent import WorkerOpponent

        self._ready = True
        c = self.controller
        c.opponent = WorkerOpponent(self.loader.client)
        if self._waiting_start is not None:
            c.handle(self._waiting_start)
            self._waiting_start = None
        else:
            c.restore()

    def _loading_text(self) -> str | None:
        text = self.loader.progress()
        if text and self._waiting_start is not None and not self.loader.error:
            text += " Your game starts as soon as it is ready."
        return text

    def _resize(self, width: int, height: int) -> None:
        size = (max(1, width), max(1, height))
        if size != self.size:
            self.size = size
            self.ui.resize(size)
            self.screen.resize(size)

    def _start_renderer(self) -> None:
        """Create the 3D board renderer (shaders, the board's textures): a moment's work on this
        thread, the GL context's, once the first frame is on screen."""
        from game.render import BoardRenderer

        self.renderer = BoardRenderer(self.ctx, samples=4, background_textures=True)

    # --- what the board shows -------------------------------------------------------------------

    def _viewport(self):
        from game.render import Viewport

        b = self.ui.layout.view
        return Viewport(b.x, b.y, b.width, b.height, frame_height=self.size[1])

    def _follow_controller(self, now: float) -> None:
        """Start the animation of a move just played, play its sounds, turn the camera when needed."""
        from game.phases import Screen
        from game.render import Camera, CameraMove, camera_at

        c = self.controller
        if c.played is not self._animated:
            self._animated = c.played
            if c.played is not None and c.game is not None and c.game.moves:
                from game.render import MoveAnimation  # a move was played: the engine is loaded

                speed = ANIMATION_SPEED[c.settings.animation_speed]
                self.animation = MoveAnimation.build(c.played.before, c.played.move, now, speed)
            else:
                self.animation = None
        for name in c.events:
            self.sounds.play(name, c.settings.sound)
        c.events.clear()
        key = (c.settings.view, c.second_side_near() if c.screen is Screen.GAME else False)
        if key != self._camera_key:
            self._camera_key = key
            self.camera = CameraMove(camera_at(self.camera, now), Camera.preset(*key), now)

    def _render_state(self, now: float):
        """What the board shows now; None until the renderer exists. On the mode screen: the start
        position of the rules chosen there."""
        if self.renderer is None:
            return None
        from game.render import RenderState

        c = self.controller
        p = c.in_game
        if p is None or not self._ready:
            name = c.settings.variant
            if name not in self._initial:
                from engine import Position, variant_named

                self._initial[name] = Position.initial(variant_named(name))
            return RenderState(self._initial[name], camera=self.camera, show_numbers=c.settings.square_numbers)
        animation = self.animation if self.animation is not None and not self.animation.is_done(now) else None
        last = c.last_move()
        return RenderState(
            position=p.game.position,
            camera=self.camera,
            selected=c.selected,
            targets=c.targets(),
            final_targets=c.final_rings(),
            must_capture=c.capturers(),
            last_move=last[0] if last else None,
            cursor=c.cursor_square() if c.cursor_visible else None,
            show_numbers=c.settings.square_numbers,
            animation=animation,
            entered=c.entered_path() if c.entered else (),
            drag_to=self._drag_point(now) if c.dragging is not None and c.dragging == c.selected else None,
        )

    def _drag_point(self, now: float) -> tuple[float, float] | None:
        """Where on the board a dragged piece is drawn: under the pointer at the height it is lifted
        to (so it stays under the pointer whatever the camera), kept over the board."""
        from game.render import camera_at, screen_ray
        from game.render.animation import LIFT_HEIGHT

        n = self.controller.variant.size
        origin, d = screen_ray(camera_at(self.camera, now), n, self._viewport(), *self.ui.mouse)
        if d[1] > -1e-6:  # the pointer is above the horizon
            return None
        hit = origin + (LIFT_HEIGHT - origin[1]) / d[1] * d
        edge = n / 2 - 0.5
        return float(min(max(hit[0], -edge), edge)), float(min(max(hit[2], -edge), edge))

    def _pick(self, x: int, y: int) -> tuple[int | None, bool]:
        """(square, on_board) under a window point: square None on a light square or off the board."""
        from game.render import camera_at, screen_ray

        state, board = self._state, self._viewport()
        if state is None or self.renderer is None or not board.contains(x, y):
            return None, False
        square = self.renderer.pick(state, self._now, board, x, y)
        if square is not None:
            return square, True
        n = state.position.variant.size
        origin, d = screen_ray(camera_at(state.camera, self._now), n, board, x, y)
        if abs(d[1]) < 1e-9:
            return None, False
        hit = origin - origin[1] / d[1] * d
        return None, bool(abs(hit[0]) <= n / 2 and abs(hit[2]) <= n / 2)

    def _can_drag(self, square: int) -> bool:
        c = self.controller
        return self._ready and c.is_human_turn() and c.is_own_piece(square)

    # --- closing --------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the computer and its process, close the window. The game was saved after every move."""
        import pygame

        self.controller.close()
        # the worker process starts within moments of launch; wait for it so that it can be ended too
        if self.loader.ident is not None:  # started
            self.loader.client_started.wait(timeout=30)
        if self.loader.client is not None:
            # a worker busy compiling reads no Quit: don't wait long before ending it, so that a
            # session or tool that kills the game shortly after asking it to close finds it gone
            self.loader.client.close(timeout=0.3)
        from game.ui import theme

        theme.forget_fonts()
        pygame.quit()


class _Screen:
    """Puts a frame on the window, drawing only what changed since the last one.

    The interface surface is copied into a window-sized texture, a rectangle at a time where its
    pixels changed; its opaque parts (the panel and the bars around the board) are put on screen
    with a framebuffer blit, much cheaper for a software renderer than a blended textured quad.
    Whatever the interface draws over the 3D view itself (the result card, a long status) is
    blended over the board, so it is redrawn whenever the board is.

    A frame where neither the board (its state, the camera, an animation, the renderer's own work
    in progress) nor the interface changed draws nothing and is not flipped. When the driver keeps
    the back buffer's pixels across a flip (Mesa's software renderers do; checked at start), a frame
    redraws only the parts that changed; otherwise every drawn frame redraws everything.
    """

    def __init__(self, ctx, size: tuple[int, int]):
        from game.render import Overlay

        self.ctx = ctx
        self.view_overlay = Overlay(ctx)
        self.keeps_back_buffer = self._keeps_back_buffer()
        self._layer = self._layer_fbo = None
        self.resize(size)

    def _keeps_back_buffer(self) -> bool:
        """Whether the back buffer still holds the last frame after a flip: two flips of two
        shades, then read back (a driver that swaps between two buffers would show the first)."""
        import pygame

        screen = self.ctx.screen
        screen.use()
        self.ctx.viewport, self.ctx.scissor = (0, 0, 1, 1), None
        for colour in (tuple(v + 0.05 for v in BACKGROUND), BACKGROUND):  # close: no visible flash
            self.ctx.clear(*colour)
            pygame.display.flip()
        pixel = screen.read(viewport=(0, 0, 1, 1), components=3)
        return abs(pixel[0] - round(BACKGROUND[0] * 255)) <= 2

    def resize(self, size: tuple[int, int]) -> None:
        old = (self._layer, self._layer_fbo)
        self.size = size
        self.ctx.screen.use()  # moderngl rebinds the bound framebuffer after creating one
        self._layer = self.ctx.texture(size, 4)
        self._layer_fbo = self.ctx.framebuffer([self._layer])
        self.ctx.screen.use()
        for obj in old:
            if obj is not None:
                obj.release()
        self.invalidate()

    def invalidate(self) -> None:
        """Redraw everything at the next frame (a resize, the window uncovered)."""
        self._uploaded: dict[tuple, bytes] = {}
        self._full = True
        self._board_key = None
        self._over_view = False

    def draw(self, app: "App", state, now: float, ui_changed: bool) -> bool:
        """Draw what changed in this frame into the back buffer; False when nothing did."""
        import moderngl
        import pygame

        from game.render import camera_at

        ui = app.ui
        full = self._full or not self.keeps_back_buffer
        regions = ui.layout.regions(False)  # the opaque parts: panel, bars
        fresh = []  # rectangles of the interface whose pixels changed
        if ui_changed or full:
            for rect in (regions if full else [r for r in regions if r.collidelist(ui.redrawn) >= 0]):
                key = tuple(rect)
                pixels = pygame.image.tobytes(ui.surface.subsurface(rect), "RGBA", True)  # bottom row first
                if self._uploaded.get(key) != pixels:
                    self._uploaded[key] = pixels
                    self._layer.write(pixels, viewport=(rect.x, self.size[1] - rect.bottom, rect.width, rect.height))
                    fresh.append(rect)
        over_view = ui.over_view
        renderer = app.renderer
        board_key = None
        if state is not None:
            board_key = (replace(state, camera=camera_at(state.camera, now)), tuple(ui.layout.view))
        board = (full or board_key != self._board_key or (state is not None and state.animation is not None)
                 or (renderer is not None and not renderer.is_settled)
                 or over_view != self._over_view or (over_view and ui.layout.view.collidelist(ui.redrawn) >= 0))
        if full:
            fresh = regions
        if not board and not fresh:
            return False
        ctx = self.ctx
        ctx.screen.use()
        if board:
            view = app._viewport()
            if state is None:  # no renderer yet: the background where the board will be
                ctx.viewport = ctx.scissor = view.gl()
                ctx.clear(*BACKGROUND)
                ctx.scissor = None
            else:
                renderer.draw(state, now, view)
            if over_view:
                rect = ui.layout.view
                self.view_overlay.draw(ui.surface.subsurface(rect), tuple(rect), self.size)
        ctx.viewport = (0, 0, *self.size)
        for rect in fresh:
            ctx.scissor = (rect.x, self.size[1] - rect.bottom, rect.width, rect.height)
            ctx.copy_framebuffer(ctx.screen, self._layer_fbo)  # the blit obeys the scissor
        ctx.scissor = None
        ctx.disable(moderngl.BLEND)
        self._full, self._board_key, self._over_view = False, board_key, over_view
        return True

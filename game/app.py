"""The window and main loop.

Launch order, so the window is there at once: pygame and an OpenGL window first (cleared to the
background colour), then the interface; the rules engine's numba kernels load (or, on the first run,
compile) in a background thread while the mode screen already works, and the computer player starts
in its own process (``engine.worker``). Until the kernels are ready the mode screen shows the progress,
and a game chosen meanwhile starts the moment they are.

The loop runs at 60 frames a second and never waits: input -> controller -> (worker replies) ->
sounds, animation, camera -> draw the board and the interface -> flip.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="checkers3d", description="Checkers 3D: American checkers and "
                                     "International draughts on a 3D board")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS",
                        help="close the window by itself after this many seconds (for tests)")
    parser.add_argument("--window", default="1280x800", metavar="WxH", help="initial window size (default 1280x800)")
    from game.render.offscreen import add_tool_arguments

    add_tool_arguments(parser)  # --screenshot, --bench-frames and their options
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.render.offscreen import run_tool

    status = run_tool(args)  # the offscreen tools render without opening a window
    if status is not None:
        return status
    width, height = (int(v) for v in args.window.lower().split("x"))
    app = App((width, height))
    # a polite kill (the screenshot tool, a session ending) closes like the window's close button
    signal.signal(signal.SIGTERM, lambda *_: setattr(app, "running", False))
    try:
        app.run(args.quit_after)
    finally:
        app.close()
    return 0


ANIMATION_SPEED = {"slow": 0.6, "normal": 1.0, "fast": 1.8}
BACKGROUND = (0.12, 0.12, 0.13)


def warm_up_kernels() -> None:
    """Compile (or load from numba's cache) the move generator the game itself uses."""
    from engine import AMERICAN, INTERNATIONAL, Position

    for variant in (AMERICAN, INTERNATIONAL):
        pos = Position.initial(variant)
        pos.play(pos.legal_moves()[0]).has_capture()


def kernels_cached() -> bool:
    """Whether numba's cache holds the move generator for the current source (then loading it takes a
    moment); False when unsure. Reads numba's cache index through its dispatcher internals."""
    try:
        from engine import _movegen

        return all(getattr(_movegen, name)._cache._cache_file._load_index() for name in ("generate", "make_move"))
    except Exception:  # another numba version: assume cold, which is only slower
        return False


class _Loader(threading.Thread):
    """Imports the rules engine, loads or compiles its kernels, and starts the computer's process, off
    the main thread so that the window keeps drawing meanwhile."""

    def __init__(self):
        super().__init__(name="engine-loader", daemon=True)
        self.started_at = time.monotonic()
        self.ready = threading.Event()
        self.client_started = threading.Event()  # the worker process exists (or failed to start)
        self.client = None
        self.error: str | None = None

    def run(self) -> None:
        try:
            import multiprocessing

            # Compiling holds the interpreter lock for seconds at a time, which would freeze the
            # window: on a cold cache the kernels are compiled (and cached) in a process of their
            # own, and this thread only loads them from the cache.
            compiler = None
            if not kernels_cached():
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
        self.loader = _Loader()
        self.loader.start()

        from engine import Position, variant_named
        from game.controller import Controller
        from game.input import Input
        from game.render import BoardRenderer, Camera, Overlay
        from game.sound import Sounds
        from game.storage import Storage
        from game.ui import Interface

        self._initial = lambda name: Position.initial(variant_named(name))
        self.size = pygame.display.get_window_size()
        self.ui = Interface(self.size)
        self.storage = Storage()
        self.controller = Controller(opponent=None, storage=self.storage)
        self.renderer = BoardRenderer(self.ctx, samples=4)
        self.overlays = [Overlay(self.ctx) for _ in range(4)]  # one per region of the interface
        self.sounds = Sounds()
        self.input = Input(self.ui, self._pick, self._can_drag)
        self.camera = Camera.preset(self.controller.settings.view, False)
        self._camera_key = (self.controller.settings.view, False)
        self.animation = None
        self._animated = None  # the controller's Played that the animation shows
        self._waiting_start = None  # a game chosen before the engine was ready
        self._state = None
        self._now = time.monotonic()
        self._ready = False
        self.running = True
        self.frames = 0
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

    def step(self) -> None:
        """One frame: input, controller, sounds, animation, drawing."""
        import pygame

        self._now = now = time.monotonic()
        self._check_ready()
        for intent in self.input.poll():
            self.dispatch(intent)
        c = self.controller
        if self._ready and (self.animation is None or self.animation.is_done(now)):
            c.update()  # the computer's reply waits until the last move has been shown
        self._follow_controller(now)
        state = self._state = self._render_state(now)
        board = self._viewport()
        self.ctx.screen.use()
        self.ctx.viewport = (0, 0, *self.size)
        self.ctx.clear(*BACKGROUND)
        if self.frames > 0:  # the first frame shows the panel at once; the board's textures take a moment
            self.renderer.draw(state, now, board)
        changed = self.ui.render(c, now, self._loading_text())
        for overlay, rect in zip(self.overlays, self.ui.layout.regions(self.ui.over_view)):
            overlay.draw(self.ui.surface.subsurface(rect), tuple(rect), self.size, changed=changed)
        pygame.display.flip()
        self.frames += 1

    def dispatch(self, intent) -> None:
        """Apply one intent: window and camera ones here, the rest to the controller."""
        from game import controller as ctl
        from game import input as inp
        from game.render import camera_at
        from game.ui import DismissNotes

        c = self.controller
        if isinstance(intent, inp.Quit):
            self.running = False
        elif isinstance(intent, inp.Resize):
            self._resize(intent.width, intent.height)
        elif isinstance(intent, inp.Orbit):
            self.camera = camera_at(self.camera, self._now).orbited(intent.dx, intent.dy)
        elif isinstance(intent, inp.Zoom):
            self.camera = camera_at(self.camera, self._now).zoomed(intent.steps)
        elif isinstance(intent, DismissNotes):
            c.notes.clear()
        elif not self._ready and isinstance(intent, (ctl.StartGame, ctl.ContinueSaved)):
            self._waiting_start = intent
        elif self._ready or isinstance(intent, (ctl.ChooseRules, ctl.ToggleSetting, ctl.SetView)):
            c.handle(intent)

    def _check_ready(self) -> None:
        if self._ready or not self.loader.ready.is_set() or self.loader.error:
            return
        from game.controller import WorkerOpponent

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

    # --- what the board shows -------------------------------------------------------------------

    def _viewport(self):
        from game.render import Viewport

        b = self.ui.layout.view
        return Viewport(b.x, b.y, b.width, b.height, frame_height=self.size[1])

    def _follow_controller(self, now: float) -> None:
        """Start the animation of a move just played, play its sounds, turn the camera when needed."""
        from game.render import Camera, CameraMove, MoveAnimation, camera_at

        c = self.controller
        if c.played is not self._animated:
            self._animated = c.played
            if c.played is not None and c.game is not None and c.game.moves:
                speed = ANIMATION_SPEED[c.settings.animation_speed]
                self.animation = MoveAnimation.build(c.played.before, c.played.move, now, speed)
            else:
                self.animation = None
        for name in c.events:
            self.sounds.play(name, c.settings.sound)
        c.events.clear()
        key = (c.settings.view, c.second_side_near() if c.screen == "game" else False)
        if key != self._camera_key:
            self._camera_key = key
            self.camera = CameraMove(camera_at(self.camera, now), Camera.preset(*key), now)

    def _render_state(self, now: float):
        from game.render import RenderState

        c = self.controller
        if c.screen != "game" or c.game is None or not self._ready:
            return RenderState(self._initial(c.settings.variant), camera=self.camera,
                               show_numbers=c.settings.square_numbers)
        animation = self.animation if self.animation is not None and not self.animation.is_done(now) else None
        last = c.last_move()
        return RenderState(
            position=c.game.position,
            camera=self.camera,
            selected=c.selected,
            targets=c.targets(),
            final_targets=c.final_rings(),
            must_capture=c.capturers(),
            last_move=last[0] if last else None,
            cursor=c.cursor_square() if c.cursor_visible else None,
            show_numbers=c.settings.square_numbers,
            animation=animation,
        )

    def _pick(self, x: int, y: int) -> tuple[int | None, bool]:
        """(square, on_board) under a window point: square None on a light square or off the board."""
        from game.render import camera_at, screen_ray

        state, board = self._state, self._viewport()
        if state is None or not board.contains(x, y):
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
        self.loader.client_started.wait(timeout=30)
        if self.loader.client is not None:
            # a worker busy compiling reads no Quit: don't wait long before ending it, so that a
            # session or tool that kills the game shortly after asking it to close finds it gone
            self.loader.client.close(timeout=0.3)
        pygame.quit()

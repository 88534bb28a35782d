"""The window and main loop (``game.cli`` opens it; ``game.window.loader`` loads the rules engine meanwhile;
``game.window.compositor`` puts each frame on the window).

Launch order, so the window is there at once: pygame and an OpenGL window first (cleared to the
background colour), then the interface; the rules engine's numba kernels load (or, on the first run,
compile) in a background thread while the mode screen already works, and the computer player starts
in its own process (``engine.worker``). Until the kernels are ready the mode screen shows the progress,
and a game chosen meanwhile starts the moment they are. A game in progress saved by the last run
opens on the game screen at once (``Resuming``, with the progress), is replayed as soon as the move
generator has loaded, and waits only for the computer's process if it is the computer's turn.

The rules engine's positions need numba, whose import alone takes a second or more: the window,
the interface and the controller load without it (``engine`` and ``game.render`` load those names on
first use), the loader thread imports it and loads the kernels, and the 3D board (the chosen rules'
start position on the mode screen) appears as soon as they are ready.

A friend's rooms (``game.friend.rooms``) are opened from the controller once the rules engine is ready (what
friend play needs loads with the first room); a link given on the command line joins its room then
(over a game in progress, once the player has confirmed leaving it, as for a new game).

The loop runs at 60 frames a second and never waits: input -> controller -> (worker replies) ->
sounds, animation, camera -> draw what changed -> flip. A software renderer (Mesa llvmpipe) pays for
every pixel it draws, so a frame draws only what changed (see ``game.window.compositor``) and a frame where
nothing changed draws nothing and is not flipped.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from game.files.settings import AnimationSpeed, View
from game.window.compositor import BACKGROUND, Compositor
from game.window.loader import Loader

if TYPE_CHECKING:
    from engine import Position, Variant
    from game.play.effects import Outbox
    from game.play.intents import Intent
    from game.play.phases import Played
    from game.render import Camera, CameraMove, MoveAnimation, RenderState
    from game.render.scene import BoardRenderer

ANIMATION_SPEED = {AnimationSpeed.SLOW: 0.6, AnimationSpeed.NORMAL: 1.0, AnimationSpeed.FAST: 1.8}


class WindowClosed(Exception):
    """The window was closed while :class:`App`'s constructor was still loading: nothing is left to close."""


class App:
    """The window, its OpenGL context, the renderer, the interface and the controller."""

    def __init__(self, size: tuple[int, int], link: str | None = None, room_host: str = "0.0.0.0"):
        """A window of ``size``; ``link`` a friend's room to join once the engine is ready;
        ``room_host`` the address the game's own room server listens on (every interface by default)."""
        import moderngl
        import pygame

        from game.window.memory import release_large_blocks_when_freed

        release_large_blocks_when_freed()  # before the board images' large arrays come and go
        pygame.init()
        pygame.display.set_caption("Checkers 3D")
        gl = pygame.display
        gl.gl_set_attribute(pygame.GL_CONTEXT_MAJOR_VERSION, 3)
        gl.gl_set_attribute(pygame.GL_CONTEXT_MINOR_VERSION, 3)
        gl.gl_set_attribute(pygame.GL_CONTEXT_PROFILE_MASK, pygame.GL_CONTEXT_PROFILE_CORE)
        gl.gl_set_attribute(pygame.GL_DOUBLEBUFFER, 1)
        # no depth buffer: the renderer draws with depth in pictures of its own and copies them in,
        # which Mesa's software renderer does fastest into a window without one (render.pictures)
        gl.gl_set_attribute(pygame.GL_DEPTH_SIZE, 0)
        self.window = pygame.display.set_mode(size, pygame.OPENGL | pygame.DOUBLEBUF | pygame.RESIZABLE)
        self.ctx = moderngl.create_context()
        self.ctx.clear(*BACKGROUND)
        pygame.display.flip()  # the window is on screen from here on
        # started after the first frame: importing numba competes with this thread for the
        # interpreter lock, and the mode screen comes first
        self.loader = Loader()

        from game.window.input import Input  # first: a close asked for meanwhile is seen from here on

        # none of these imports numba: the loader thread does, meanwhile
        self._stop_if_closed()
        from game.play.machine import Controller

        self._stop_if_closed()
        from game.files.storage import Storage
        from game.render import Camera
        from game.ui import Interface
        from game.window.sound import Sounds

        self._stop_if_closed()

        self.size = pygame.display.get_window_size()
        self.ui = Interface(self.size)
        self._layout = self.ui.layout
        self.storage = Storage()
        self.controller = Controller(opponent=None, storage=self.storage)
        self.controller.expect_saved_game()  # a game in progress: the game screen from the first frame
        self.renderer: BoardRenderer | None = None  # the 3D board, once the engine's positions have loaded (_start_renderer)
        self.compositor = Compositor(self.ctx, self.size)
        self.sounds = Sounds()
        self.input = Input(self.ui, self._pick, self._can_drag)
        self.camera: Camera | CameraMove = Camera.preset(self.controller.settings.view, False)
        self._camera_key: tuple[View, bool] | None = (self.controller.settings.view, False)
        self.animation: MoveAnimation | None = None
        self._animated: Played | None = None  # the controller's Played that the animation shows
        self._waiting_start: Intent | None = None  # a game chosen (or a file opened) before the engine was ready
        self._initial: dict[str, Position] = {}  # variant name -> its start position, for the mode screen
        self._board_rules: Variant | None = None  # the rules of the game on screen; None: the mode screen
        self._state: RenderState | None = None
        self._now = time.monotonic()
        self._ready = False
        self._restored = False  # the saved game has been looked for (once the move generator loaded)
        self._room_host = room_host
        self._warmed_up = False  # see _after_warm_up
        self._launch_link: Intent | None = None  # the room of the link given on the command line, to join once ready
        if link is not None:
            from game.play.intents import JoinRoom

            self._waiting_start = self._launch_link = JoinRoom(link)
        self._stop_if_closed()
        self.running = True
        self.frames = 0  # frames drawn and shown (a frame where nothing changed is neither)
        self.ui.render(self.controller, self._now, self._loading_text())  # presses before the first frame count

    @staticmethod
    def _stop_if_closed() -> None:
        """While the constructor loads the interface (seconds on a busy computer): a close asked for
        takes the window down now and ends the constructor (WindowClosed); nothing has started yet."""
        import pygame

        from game.window.input import Input

        if Input.close_requested():
            pygame.quit()
            raise WindowClosed

    @property
    def is_ready(self) -> bool:
        """Whether the rules engine and the computer's process are ready: games can be played."""
        return self._ready

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
        self._check_kernels()
        self._check_ready()
        for intent in self.input.poll():
            self.dispatch(intent)
        if not self.running:  # closed: the rest of the frame would be work nobody sees
            return False
        self._start_waiting_game()
        c = self.controller
        if self._ready and (self.animation is None or self.animation.is_done(now)):
            self._carry_out(c.update())  # the computer's reply waits until the last move has been shown
        self._follow_controller(now)
        self._keep_boards()
        if self.renderer is None and self.frames > 0 and self.loader.kernels.is_set():
            # after the first frame (the window shows the mode screen meanwhile) and once the move
            # generator is loaded: the renderer's first frame rehearses a move, which would compile
            # the kernels here, freezing the window, on a cold cache
            if self._closing():
                return False
            self._start_renderer()
        state = self._state = self._render_state(now)
        changed = self.ui.render(c, now, self._loading_text())
        if self.ui.layout is not self._layout:  # the evaluation bar's strip came or went
            self._layout = self.ui.layout
            self.compositor.invalidate()
        if self._closing():
            return False
        if not self.compositor.draw(self.ui, self.renderer, state, self._viewport(), now, changed):
            self._after_warm_up()
            return False
        pygame.display.flip()
        self.frames += 1
        if self.frames == 1:
            self.loader.start()
            self._prepare_boards()
        return True

    def _closing(self) -> bool:
        """Whether the window is to close (asked since this frame's input was read, or before): the
        start-up's frames hold long steps (the renderer's shaders, its warm-up, the board's textures),
        and a close must not wait for the next of them."""
        if self.running and self.input.close_requested():
            self.running = False
        return not self.running

    def _after_warm_up(self) -> None:
        """On the first frame with nothing to draw once the renderer has warmed up (its shaders and
        drawing states compiled, the board's textures made), two things best done once, on a frame
        that shows nothing new:

        - Hand back the GL driver's LLVM code (engine/pages.py): a software driver (Mesa's llvmpipe)
          compiles every shader and drawing state with LLVM, then runs only what it compiled, and
          about 48 MB of LLVM's code stayed resident. A state first met later faults back what its
          compiling needs. Reading the process's mappings takes 15-20 ms.
        - Put what the start-up made (numba, the engine's kernels, the renderer: about 115,000
          objects) out of the garbage collector's way (``gc.freeze``), after one collection
          (25-40 ms): Python's full collections walked all of them, 30-40 ms in the middle of
          whatever frame came, once the old generation had grown by a quarter (the bench's game
          adds about 400 objects a minute to it: every hour or so); now they walk what came since."""
        if self._warmed_up or self.renderer is None or not self.renderer.is_settled:
            return
        import gc

        from engine.pages import release_library_pages

        self._warmed_up = True
        release_library_pages("libLLVM")
        gc.collect()
        gc.freeze()

    def _prepare_boards(self) -> None:
        """Start making the board images (a second of numpy each, on a background thread) while the
        rules engine loads: the chosen rules' first, then American's and International's, so switching
        between them is instant (one of the "More rule sets" gets its board when it is chosen). Back on
        the mode screen after a game, those whose pictures were let go (see _keep_boards)."""
        from engine import VARIANTS, variant_named
        from game.render.textures import board_image_future, default_pixels

        chosen = variant_named(self.controller.settings.variant)
        for variant in (chosen, *(v for v in VARIANTS.values() if v is not chosen)):
            if self.renderer is None or not self.renderer.board_textures.has(variant):
                board_image_future(variant, default_pixels(variant), self.controller.settings.square_numbers)

    def _keep_boards(self) -> None:
        """During a game only its rules' board pictures are kept (the others' images and textures
        are 10-20 MB); back on the mode screen the others are made again in the background."""
        in_game = self.controller.in_game
        rules = in_game.game.variant if in_game is not None else None
        if rules == self._board_rules:
            return
        self._board_rules = rules
        if rules is not None:
            from game.render.textures import forget_images_except

            forget_images_except(rules)
            if self.renderer is not None:
                self.renderer.board_textures.keep_only(rules)
        elif self.frames > 0:
            self._prepare_boards()

    def dispatch(self, intent) -> None:
        """Apply one intent: window and camera ones here, the rest to the controller (until the rules
        engine is ready, only those the mode screen needs then; a game chosen meanwhile waits)."""
        from game.play import intents as it
        from game.play.phases import EnteringLink, Screen
        from game.render import camera_at
        from game.window import input as inp

        match intent:
            case inp.Quit():
                self.running = False
            case inp.Exposed():
                self.compositor.invalidate()
            case inp.Resize(width=width, height=height):
                self._resize(width, height)
            case inp.Orbit(dx=dx, dy=dy):
                self.camera = camera_at(self.camera, self._now).orbited(dx, dy)
            case inp.Zoom(steps=steps):
                self.camera = camera_at(self.camera, self._now).zoomed(steps)
            case (it.StartGame() | it.ContinueSaved() | it.PlayFriend() | it.PlayOnline() | it.JoinRoom() | it.OpenFile()
                  | it.Pasted() | it.OpenBrowser() | it.EditPosition()) if not self._ready:
                self._waiting_start = intent
            case it.SetView():
                self._carry_out(self.controller.handle(intent))
                self._camera_key = None  # the view pressed, even the one already chosen, resets the camera
            case it.SubmitText() if not self._ready and isinstance(self.controller.phase, EnteringLink):
                self._waiting_start = it.JoinRoom(self.controller.phase.text)  # joining needs the rules engine
            case (it.ChooseRules() | it.ToggleMoreRules() | it.ToggleSetting() | it.DismissNotes() | it.OpenHelp()
                  | it.CloseHelp() | it.GoToSection() | it.ShowKeys() | it.HideKeys() | it.OpenJoin() | it.TypeText()
                  | it.EditText() | it.SubmitText() | it.EditServer() | it.EditNickname() | it.RegisterLinks()
                  | it.Greyed()):
                self._carry_out(self.controller.handle(intent))
            case it.Cancel() if self.controller.screen is Screen.HELP:
                self._carry_out(self.controller.handle(intent))
            case _ if self._ready or self.controller.in_game is not None or not isinstance(intent, it.Intent):
                self._carry_out(self.controller.handle(intent))  # one it doesn't know raises

    def _carry_out(self, out: Outbox) -> None:
        """What the controller asked of the window: play its sounds, put its text on the system
        clipboard (telling the controller when the clipboard can't be reached)."""
        for name in out.sounds:
            self.sounds.play(name, self.controller.settings.sound)
        if out.clipboard is not None:
            from game.window import clipboard

            if not clipboard.copy(out.clipboard):
                from game.play.intents import ClipboardUnavailable

                self._carry_out(self.controller.handle(ClipboardUnavailable()))

    def _check_ready(self) -> None:
        if self._ready or not self.loader.ready.is_set() or self.loader.error:
            return
        from game.computer.analysis import WorkerAnalyst
        from game.computer.engine_link import EngineLink
        from game.computer.worker_opponent import WorkerOpponent

        self._ready = True
        link = EngineLink(self.loader.client)  # the computer and the analysis share the worker
        self._carry_out(self.controller.attach_opponent(WorkerOpponent(link.channel()), WorkerAnalyst(link.channel())))

    def _check_kernels(self) -> None:
        """Once the move generator is loaded the saved game can be replayed: it is shown (a computer's
        turn waits for the computer's process); the mode screen if the engine failed to load."""
        if self._restored:
            return
        from game.play.intents import ChangeMode, ContinueSaved, JoinRoom, PlayFriend, StartGame
        from game.play.phases import Resuming

        c = self.controller
        if self.loader.error:
            self._restored = True
            if isinstance(c.phase, Resuming):
                self._carry_out(c.handle(ChangeMode()))  # nothing to resume with: the mode screen, which says why
        elif self.loader.kernels.is_set():
            from game.friend.rooms import Rooms  # friend play replays games: it is offered once the rules engine is ready

            self._restored = True
            c.attach_rooms(Rooms(listen=self._room_host))
            waiting = self._waiting_start
            if waiting is self._launch_link or not isinstance(waiting, (StartGame, ContinueSaved, PlayFriend, JoinRoom)):
                # a file opened meanwhile opens over the game in progress; the command line's link asks
                # before leaving it (the controller), as a new game does
                c.restore()

    def _start_waiting_game(self) -> None:
        """Start the game chosen before the rules engine was ready, once it is and the player is not
        reading the help (which keeps it until Back)."""
        from game.play.phases import Screen

        if self._ready and self._waiting_start is not None and self.controller.screen is not Screen.HELP:
            self._carry_out(self.controller.handle(self._waiting_start))
            self._waiting_start = None

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
            self.compositor.resize(size)

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
        """Start the animation of a move just played, turn the camera when needed."""
        from game.play.phases import Screen
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
        key = (c.settings.view, c.hand.second_side_near(c.variant, c.mode) if c.screen in (Screen.GAME, Screen.EDITOR) else False)
        if key != self._camera_key and c.screen is not Screen.HELP:  # (the board is hidden meanwhile)
            self._camera_key = key
            self.camera = CameraMove(camera_at(self.camera, now), Camera.preset(*key), now)

    def _render_state(self, now: float):
        """What the board shows now; None until the renderer exists. On the mode screen: the start
        position of the rules chosen there."""
        if self.renderer is None:
            return None
        from game.render import RenderState

        c = self.controller
        shown = c.shown_position()
        if shown is None:
            name = c.settings.variant
            if name not in self._initial:
                from engine import Position, variant_named

                self._initial[name] = Position.initial(variant_named(name))
            return RenderState(self._initial[name], camera=self.camera, show_numbers=c.settings.square_numbers)
        if c.editing is not None:
            return RenderState(shown, camera=self.camera, show_numbers=c.settings.square_numbers,
                               cursor=c.hand.cursor_square(c.variant) if c.hand.cursor_visible else None)
        animation = self.animation if self.animation is not None and not self.animation.is_done(now) else None
        last = c.last_move()
        study = c.studies.study
        best = study.line.best if study is not None and study.line is not None and study.position == shown else None
        return RenderState(
            position=shown,
            best_move=best,
            camera=self.camera,
            selected=c.hand.selected,
            targets=c.hand.targets(c.legal_moves()),
            final_targets=c.hand.final_rings(c.legal_moves()),
            must_capture=c.hand.capturers(c.legal_moves()),
            last_move=last[0] if last else None,
            cursor=c.hand.cursor_square(c.variant) if c.hand.cursor_visible else None,
            show_numbers=c.settings.square_numbers,
            animation=animation,
            entered=c.hand.entered_path() if c.hand.entered else (),
            drag_to=self._drag_point(now) if c.hand.dragging is not None and c.hand.dragging == c.hand.selected else None,
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
        """(square, on_board) under a window point: square None on a light square or off the board, and
        nothing while the board last drawn is of other rules than the game's (a press in the frame that
        changed them would name a square of the old board: 47 of a 10x10 one in an American game)."""
        from game.render import camera_at, screen_ray

        state, board = self._state, self._viewport()
        if state is None or self.renderer is None or not board.contains(x, y) or \
                state.position.variant is not self.controller.variant:
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
        return c.is_human_turn() and c.hand.is_own_piece(c.game.position if c.game is not None else None, square)

    # --- closing --------------------------------------------------------------------------------

    def close(self) -> None:
        """Close the window at once, then finish behind it: stop the computer and its process, and let
        the last save (written after every move) reach the disk."""
        import pygame

        pygame.display.quit()  # the window goes now; nothing draws after this
        self.controller.close()
        self.loader.close()  # the computer's process (the board images' thread is not waited for)
        from game.ui import theme

        theme.forget_fonts()
        pygame.quit()

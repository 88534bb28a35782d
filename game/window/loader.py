"""The rules engine's loading, off the main thread: numba's kernels (compiled on the first run, in a
process of their own) and the computer's worker process, while the window already draws. Where the
game's process interprets its kernels (``engine.interpret_kernels``, as ``game.cli`` has it), loading
them is only importing their modules; the worker compiles or loads its own."""

from __future__ import annotations

import threading
import time


def warm_up_kernels() -> None:
    """Compile (or load from numba's cache, or with interpreted kernels only import) the kernels the
    game itself uses: the move generator and the game record's draw counter (which runs on every move)."""
    from engine import VARIANTS, Position
    from engine.game import Game

    for variant in VARIANTS.values():
        pos = Position.initial(variant)
        pos.play(pos.legal_moves()[0]).has_capture()
        game = Game(variant)
        game.play(game.position.legal_moves()[0])
    from engine import mark_kernels_compiled

    mark_kernels_compiled()  # engine.kernels_cached() now says so


class Loader(threading.Thread):
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
        self._closed = False  # the window has closed: no computer's process from then on
        self._client_lock = threading.Lock()

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
                with self._client_lock:
                    if self._closed:
                        return
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

    def close(self) -> None:
        """The window has closed: start no computer's process from now on, and end the one started,
        at once (it keeps nothing worth the wait; compiling or loading its kernels it would read no
        Quit, and a session or tool that kills the game shortly after closing it finds it gone)."""
        with self._client_lock:
            self._closed = True
            client = self.client
        if client is not None:
            client.close(timeout=0.0)

    def progress(self) -> str | None:
        """A line for the mode screen while loading, None once ready."""
        if self.ready.is_set():
            return f"The rules engine failed to start: {self.error}" if self.error else None
        seconds = int(time.monotonic() - self.started_at)
        text = "Preparing the rules engine"
        if seconds >= 3:
            text += f" — {seconds} s (the first run compiles it, about half a minute; later runs take a moment)"
        return text + "…"

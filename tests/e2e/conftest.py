"""A virtual screen (Xvfb) for the end-to-end tests; they are skipped where Xvfb or xdotool is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest


@pytest.fixture(scope="session")
def display():
    """The X display name of a fresh 1280x800 Xvfb screen."""
    if not shutil.which("Xvfb") or not shutil.which("xdotool"):
        pytest.skip("needs Xvfb and xdotool")
    for n in range(150, 200):
        if not os.path.exists(f"/tmp/.X{n}-lock"):
            break
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(f"/tmp/.X11-unix/X{n}"):
            break
        time.sleep(0.05)
    yield f":{n}"
    proc.terminate()
    proc.wait(5)


@pytest.fixture
def open_app(display, tmp_path, monkeypatch):
    """Opens the game's window in this process on the virtual screen (saves in ``tmp_path``, no sound)
    and steps it until ``until(app)`` holds; the window is closed after the test."""
    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.setenv("CHECKERS3D_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    opened = []

    def open_(size: tuple[int, int], until=lambda app: app.is_ready):
        from game.app import App

        app = App(size)
        opened.append(app)
        deadline = time.monotonic() + 300
        while not until(app):
            assert time.monotonic() < deadline, "the engine never became ready"
            app.step()
        return app

    yield open_
    for app in opened:
        app.close()

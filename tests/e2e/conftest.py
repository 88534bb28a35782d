"""A virtual screen (Xvfb) for the end-to-end tests; they are skipped where Xvfb or xdotool is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest


def start_xvfb(first: int = 150) -> tuple[str, subprocess.Popen]:
    """A fresh 1280x800 Xvfb screen on a free display number from ``first``: (name, process)."""
    for n in range(first, first + 50):
        if not os.path.exists(f"/tmp/.X{n}-lock"):
            break
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(f"/tmp/.X11-unix/X{n}"):
            break
        time.sleep(0.05)
    return f":{n}", proc


def _needs_xvfb() -> None:
    if not shutil.which("Xvfb") or not shutil.which("xdotool"):
        pytest.skip("needs Xvfb and xdotool")


@pytest.fixture(scope="session")
def display():
    """The X display name of a fresh 1280x800 Xvfb screen."""
    _needs_xvfb()
    name, proc = start_xvfb()
    yield name
    proc.terminate()
    proc.wait(5)


@pytest.fixture(scope="session")
def second_display(display):
    """Another Xvfb screen, for a second player's window (its own clipboard and input)."""
    name, proc = start_xvfb(int(display[1:]) + 1)
    yield name
    proc.terminate()
    proc.wait(5)


@pytest.fixture
def open_app(display, tmp_path, monkeypatch):
    """Opens the game's window in this process on the virtual screen (saves and saved games in
    ``tmp_path``, no sound; ``options`` go to ``App``) and steps it until ``until(app)`` holds; the
    window is closed after the test."""
    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.setenv("CHECKERS3D_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CHECKERS3D_GAMES_DIR", str(tmp_path / "games"))
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    opened = []

    def open_(size: tuple[int, int], until=lambda app: app.is_ready, **options):
        from game.window.app import App

        app = App(size, **options)
        opened.append(app)
        deadline = time.monotonic() + 300
        while not until(app):
            assert time.monotonic() < deadline, "the engine never became ready"
            app.step()
        return app

    yield open_
    for app in opened:
        app.close()

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

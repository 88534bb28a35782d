"""A helper process ends with the process that started it, whatever that one's end and whatever the
helper is doing.

A thread that watches the parent (polling ``getppid()``, or waiting for a pipe to close) needs the
interpreter lock to act, which a busy main thread (a kernel that holds it, a compile) may keep for
minutes. On Linux the kernel itself ends the helper instead: ``PR_SET_PDEATHSIG`` delivers a signal
the moment the parent's thread that started it exits (a process's main thread lives as long as the
process). Elsewhere a watching thread is all there is; the engine's kernels release the interpreter
lock (``engine/_jit.py``), so it runs while they do.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PARENT_ENV = "CHECKERS3D_PARENT_PID"  # the parent's pid, set by the parent: see end_with_parent


def _set_death_signal(signum: int) -> bool:
    """Ask Linux to send ``signum`` to this process when its parent ends; whether it took."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def parent_env() -> dict[str, str]:
    """The environment for a helper to start with: this process's, plus its pid, which the helper's
    :func:`end_with_parent` compares with its parent (a parent gone before the helper armed its
    signal is noticed)."""
    return dict(os.environ, **{PARENT_ENV: str(os.getpid())})


def end_with_parent(poll_s: float = 0.5, parent: int | None = None) -> None:
    """End this process (SIGKILL: no handler, no interpreter lock needed) as soon as its parent ends.
    The parent is ``parent`` when given (a pool's initializer: multiprocessing passes the environment
    on as it is), else the pid in ``CHECKERS3D_PARENT_PID`` when set (see :func:`parent_env`), else the
    current parent. Where the kernel can't do it, a daemon thread checks every ``poll_s`` seconds.
    Work that must survive an interruption has to be written atomically (it is: see egdb.build)."""
    expected = parent or int(os.environ.get(PARENT_ENV) or os.getppid())
    armed = _set_death_signal(signal.SIGKILL)
    if os.getppid() != expected:  # the parent ended before the signal was armed (or was never it)
        os._exit(0)
    if armed:
        return

    def watch() -> None:
        while os.getppid() == expected:
            time.sleep(poll_s)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()

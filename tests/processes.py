"""For the tests: the processes a game, a worker or a match starts (read from Linux's /proc), and a
window manager's close (WM_DELETE_WINDOW, sent with libX11 as a close button does). One module for
every test folder (tests/ is on the path through its conftest), named once: pytest's prepend
import mode takes two test modules of the same name for one."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import time
from pathlib import Path

CLIENT_MESSAGE = 33  # X.h
ENDED = ("Z", "X")  # /proc states of a process that has ended (a zombie, not yet reaped) or is dying


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state first), None for no such process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def is_running(pid: int) -> bool:
    """Whether process ``pid`` runs (see ``ENDED``)."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ENDED


def children_of(pid: int) -> list[int]:
    """The running children of process ``pid``."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        fields = _stat(int(stat.parent.name))
        if fields is not None and int(fields[1]) == pid and fields[0] not in ENDED:
            out.append(int(stat.parent.name))
    return out


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            out.append(child)
            todo.append(child)
    return out


def wait_gone(pid: int, timeout: float) -> bool:
    """Whether process ``pid`` has ended within ``timeout`` seconds."""
    return wait_until(lambda: not is_running(pid), timeout) is not None


def wait_until(predicate, timeout: float, step: float = 0.02):
    """``predicate()``'s first true value within ``timeout`` seconds, else None."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value or None
        time.sleep(step)


class _ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]


class _Event(ctypes.Union):
    _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]


def send_close(display: str, window: int) -> None:
    """Ask ``window`` to close as a window manager's close button does: a WM_PROTOCOLS client message
    carrying WM_DELETE_WINDOW."""
    x11 = ctypes.CDLL(ctypes.util.find_library("X11"))
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(_Event)]
    x11.XFlush.argtypes = x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    connection = x11.XOpenDisplay(display.encode())
    assert connection, f"can't open display {display}"
    try:
        event = _Event()
        event.xclient.type = CLIENT_MESSAGE
        event.xclient.window = window
        event.xclient.message_type = x11.XInternAtom(connection, b"WM_PROTOCOLS", False)
        event.xclient.format = 32
        event.xclient.data[0] = x11.XInternAtom(connection, b"WM_DELETE_WINDOW", False)
        assert x11.XSendEvent(connection, window, False, 0, ctypes.byref(event))
        x11.XFlush(connection)
    finally:
        x11.XCloseDisplay(connection)


def window_of(display: str, pid: int, timeout: float = 60) -> int:
    """The X window of process ``pid`` (xdotool), once it is there."""
    import subprocess

    out = subprocess.run(["xdotool", "search", "--sync", "--pid", str(pid)], env=dict(os.environ, DISPLAY=display),
                         capture_output=True, text=True, timeout=timeout)
    return int(out.stdout.split()[0])

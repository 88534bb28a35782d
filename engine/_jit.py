"""The one decorator every kernel uses (nopython, cached on disk, releasing the GIL), where the
compiled code is kept, and whether it is there (:func:`kernels_cached`); or, in a process that asks
for it (:func:`interpret`), no compiling at all: the kernels run as the plain Python they are.

Interpreting serves the game's window process. It calls the move generator and the draw counter a
few times a move (a position's moves take 0.1-0.4 ms as Python, 0.03-0.05 ms compiled), and numba's
import and compiled code would cost it about 110 MB resident, 40 MB of them its own (the rest is
numba's LLVM library, shared with the computer's process, which compiles as always). So the
kernels the window runs (``_movegen``, ``_draws``) keep to what plain Python runs alike: numpy
scalars and arrays, no numba-only calls outside the intrinsics that ``_movegen`` replaces when
interpreted. ``tests/engine/test_interpreted.py`` holds them to the compiled results.

numba checks only a kernel's own source file when it loads a cached kernel, not the files of the
kernels it calls and inlines: after an edit to ``_movegen.py`` (or an upgrade of the game) a cached
search kernel would still run the old move generator. So the cache lives in a folder named after a
hash of every kernel source file: any change to them starts a fresh cache. ``NUMBA_CACHE_DIR``, when
set, is the parent of that folder; otherwise it is the user's cache directory.
"""

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

_interpreted = False  # see interpret()
_decorated = False  # whether a kernel has been made in this process


def interpret() -> None:
    """Run this process's kernels as plain Python and never import numba. Call it before the first
    kernel module is imported (``engine.position``, ``engine.game`` and what imports them);
    RuntimeError after."""
    global _interpreted
    if _decorated and not _interpreted:
        raise RuntimeError("engine.interpret_kernels() comes too late: kernels are already compiled in this process")
    _interpreted = True


def is_interpreted() -> bool:
    """Whether this process runs its kernels as plain Python (see :func:`interpret`)."""
    return _interpreted


def _cache_dir() -> str | None:
    digest = hashlib.sha1()
    for path in sorted(Path(__file__).parent.glob("_*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "checkers3d", "numba")
    folder = os.path.join(base, digest.hexdigest()[:16])
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:  # nowhere to write: numba falls back to its own places
        return None
    return folder


@lru_cache(maxsize=None)
def _compiler(inline: Literal["never", "always"] = "never"):
    import numba

    numba.config.CACHE_DIR = _cache_dir() or numba.config.CACHE_DIR  # type: ignore[attr-defined]  # set from the environment
    return numba.njit(cache=True, nogil=True, inline=inline)


def kernel(function):
    """The kernel decorator: ``numba.njit(cache=True, nogil=True)``, or the function itself when
    this process interprets its kernels."""
    global _decorated
    _decorated = True
    return function if _interpreted else _compiler()(function)


def inlined(function):
    """``kernel`` for a step of a hot kernel (the move generator's parts, the evaluation, the search's
    steps): numba copies its body into every caller (``inline="always"``), so a call costs no call
    and the arrays it takes no reference counting (around a call between compiled functions numba
    counts references to the array arguments, atomically). Left to LLVM, inlining depends on its
    version: numba 0.68 (llvmlite 0.50, LLVM 20) kept ``_jumpers`` a call from ``has_capture`` and
    reference counts around ``make_move``, where 0.61 (LLVM 15) inlined them, and perft ran 20-25%
    slower. Inlined here, both versions run perft at the same speed, 1.6-1.7 times the old one's.
    The price is compile time: a cold cache takes about three times as long."""
    global _decorated
    _decorated = True
    return function if _interpreted else _compiler("always")(function)


def kernels_cached(search: bool = False) -> bool:
    """Whether numba's cache holds the compiled move generator (and with ``search`` the search's
    kernels too) for the current sources, so that loading them takes a moment rather than a
    compile (about half a minute); False when unsure. No public numba API says this: it reads the
    cache index through the dispatchers' internals, and another numba version answers False. True
    where the kernels are interpreted: nothing to load."""
    if _interpreted:
        return True
    try:
        from . import _draws, _movegen

        # numba's internals are not in its type hints
        dispatchers: tuple = (_movegen.generate, _movegen.make_move, _draws.endgame_after)
        if search:
            from . import _egdb, _search

            dispatchers += (_search.search, _search.gen_moves, _search.position_key, _egdb.probe, _egdb.slice_size)
        return all(k._cache._cache_file._load_index() for k in dispatchers)
    except Exception:
        return False

"""The one decorator every kernel uses (nopython, cached on disk, releasing the GIL), where the
compiled code is kept, and whether it is there (:func:`kernels_cached`).

numba checks only a kernel's own source file when it loads a cached kernel, not the files of the
kernels it calls and inlines: after an edit to ``_movegen.py`` (or an upgrade of the game) a cached
search kernel would still run the old move generator. So the cache lives in a folder named after a
hash of every kernel source file: any change to them starts a fresh cache. ``NUMBA_CACHE_DIR``, when
set, is the parent of that folder; otherwise it is the user's cache directory.
"""

import hashlib
import os
from pathlib import Path

import numba
from numba import njit


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


numba.config.CACHE_DIR = _cache_dir() or numba.config.CACHE_DIR  # type: ignore[attr-defined]  # set from the environment
kernel = njit(cache=True, nogil=True)


def kernels_cached() -> bool:
    """Whether numba's cache holds the compiled move generator for the current sources, so that
    loading it takes a moment rather than a compile (about half a minute); False when unsure. No
    public numba API says this: it reads the cache index through the dispatchers' internals, and
    another numba version answers False."""
    try:
        from . import _draws, _movegen

        # numba's internals are not in its type hints
        dispatchers: tuple = (_movegen.generate, _movegen.make_move, _draws.endgame_after)
        return all(k._cache._cache_file._load_index() for k in dispatchers)
    except Exception:
        return False

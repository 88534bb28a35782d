"""The one decorator every kernel uses (nopython, cached on disk, releasing the GIL), where the
compiled code is kept, and whether it is there (:func:`kernels_cached`, from our own marker that
:func:`mark_compiled` writes once a warm-up has run the kernels); or, in a process that asks
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
hash of every kernel source file and of the numba, llvmlite and Python versions that compile them:
any change to them starts a fresh cache. Its parent is ``NUMBA_CACHE_DIR`` when set, else ``numba``
in the game's cache directory: ``$CHECKERS3D_CACHE_DIR`` (the cache setting, as the endgame tables
use it), else the platform's user cache directory (platformdirs: ``~/.cache/checkers3d`` on Linux,
``~/Library/Caches/checkers3d`` on macOS, ``%LOCALAPPDATA%\\checkers3d\\Cache`` on Windows).

Within that folder numba keeps a subfolder per folder of sources (named after its absolute path) and
holds a kernel fresh only while its file's stamp is the one it compiled: the file's text from numba
0.68 on, its modification time and size before. Copies of the game in two places (a second checkout, a
new virtual environment) or a reinstall share the hashed folder but not numba's kernels. So the marker
that says the kernels are compiled is named after the sources' place and stamps (:func:`_marker`).
"""

import hashlib
import os
import platform
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Literal

CACHE_ENV = "CHECKERS3D_CACHE_DIR"  # the game's cache setting (engine.egdb.cache_root reads it too)
_MARKERS = {False: "compiled-rules", True: "compiled-search"}  # kernels_cached(search) -> marker file name

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


def cache_base() -> Path:
    """The parent of the hashed cache folders: ``$NUMBA_CACHE_DIR``, else ``numba`` in the game's cache
    directory (``$CHECKERS3D_CACHE_DIR`` or platformdirs' user cache directory)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]) / "numba"
    import platformdirs

    return Path(platformdirs.user_cache_dir("checkers3d", appauthor=False)) / "numba"


def _sources() -> list[Path]:
    """The kernel sources: every ``_*.py`` of the engine but ``__init__``/``__main__``."""
    return [path for path in sorted(Path(__file__).parent.glob("_*.py")) if not path.name.startswith("__")]


@lru_cache(maxsize=None)
def _fingerprint() -> str:
    """A hash of the kernel sources and of what compiles them."""
    digest = hashlib.sha1()
    for path in _sources():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    for name in ("numba", "llvmlite"):
        try:
            digest.update(f"{name} {metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            pass
    digest.update(f"{sys.version} {platform.machine()}".encode())
    return digest.hexdigest()[:16]


def _marker(search: bool) -> Path:
    """The marker file that says the kernels of a level (the move generator; with ``search`` the
    search's) are compiled for these sources where they are now: named after a hash of the sources'
    folder and of each file's modification time and size, what numba's cache is keyed on beyond the
    text (see the module's docstring)."""
    digest = hashlib.sha1(os.path.abspath(os.path.dirname(__file__)).encode())  # as numba names its subfolder
    for path in _sources():
        stat = path.stat()
        digest.update(f"{path.name} {stat.st_mtime_ns} {stat.st_size}".encode())
    return cache_folder() / f"{_MARKERS[search]}-{digest.hexdigest()[:16]}"


def cache_folder() -> Path:
    """Where numba keeps this game's compiled kernels (the folder may not exist yet)."""
    return cache_base() / _fingerprint()


def _cache_dir() -> str | None:
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # nowhere to write: numba falls back to its own places
        return None
    return str(folder)


@lru_cache(maxsize=None)
def _compiler(inline: Literal["never", "always"] = "never", counted: bool = True):
    import numba

    numba.config.CACHE_DIR = _cache_dir() or numba.config.CACHE_DIR  # type: ignore[attr-defined]  # set from the environment
    if not counted:
        return numba.njit(cache=True, nogil=True, inline=inline, _nrt=False)  # type: ignore[call-overload]  # numba's stubs leave out its _nrt option
    return numba.njit(cache=True, nogil=True, inline=inline)


def kernel(function):
    """The kernel decorator: ``numba.njit(cache=True, nogil=True)``, or the function itself when
    this process interprets its kernels."""
    global _decorated
    _decorated = True
    return function if _interpreted else _compiler()(function)


def uncounted(function):
    """``kernel`` without numba's runtime (``_nrt=False``), so without its reference counts: for the
    search, whose every step takes arrays out of its records and hands them to its inlined helpers.
    numba counts a reference to each such array, and refcount pruning leaves most pairs in place
    around the loops: callgrind counted 23 increments per node in the American bench and 35 in the
    International one, each with its decrement, each an atomic add (a call and a ``lock``-ed
    instruction): without them the bench runs at 3.3-3.4 M nodes/s instead of 1.9-2.2. Such a
    kernel can't allocate (numba refuses to compile one that does) and its arrays are the caller's,
    borrowed for the call; kernels it calls count as they like (the pointers they are handed carry
    no count)."""
    global _decorated
    _decorated = True
    return function if _interpreted else _compiler(counted=False)(function)


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
    compile (about half a minute): whether a warm-up has marked them compiled (:func:`mark_compiled`)
    for these sources where they are and this numba. No public numba API says what its cache holds, so
    this is our own record. True where the kernels are interpreted: nothing to load."""
    if _interpreted:
        return True
    return all(_marker(level).is_file() for level in ((False, True) if search else (False,)))


def _dispatchers(search: bool) -> tuple | None:
    """The kernels of a level (the move generator; with ``search`` the search's too) that Python calls,
    or None while a module of theirs is not imported in this process."""
    names = ["engine._movegen", "engine._draws"] + (["engine._search", "engine._egdb"] if search else [])
    if not all(name in sys.modules for name in names):
        return None
    from . import _draws, _movegen

    found: tuple = (_movegen.generate, _movegen.make_move, _draws.endgame_after)
    if search:
        from . import _egdb, _search

        found += (_search.search, _search.gen_moves, _search.position_key, _egdb.probe, _egdb.slice_size)
    return found


def mark_compiled() -> None:
    """Record which levels of kernels (the move generator; the search's) this process has compiled or
    loaded, so that numba's cache holds them: those whose every dispatcher has a compiled signature
    (``Dispatcher.signatures``, numba's public record). A warm-up calls this once it has run the
    kernels. Nothing is recorded where the kernels are interpreted; a cache folder that can't be
    written is left alone (numba couldn't write there either)."""
    if _interpreted or not _decorated:
        return
    for search in (False, True):
        dispatchers = _dispatchers(search)
        if dispatchers is not None and all(k.signatures for k in dispatchers):
            try:
                _marker(search).touch()
            except OSError:
                pass

"""How much memory a process uses, read from Linux's ``/proc`` (for ``python main.py --bench-memory``),
and one setting of the C library's allocator that keeps the game's use low
(:func:`release_large_blocks_when_freed`).

A process's resident set (RSS) counts every page it maps, shared libraries included, so the game and
its worker, which both load numba's LLVM, Python and numpy, count those pages twice. Three more
figures tell the truth about sharing:

* USS, the pages only this process maps (``Private_*`` in ``smaps_rollup``);
* PSS, each page divided by the number of processes that map it (other programs' too);
* together: the distinct physical pages of a group of processes, each counted once, read from
  ``/proc/PID/pagemap`` (page frame numbers; root only, else ``None``).

:func:`mappings` groups a process's resident memory by what it is (the GL driver, numba's LLVM,
Python, numpy, SDL, the private heap where Python objects, numpy arrays and a software GL driver's
textures live) for a breakdown. Linux only; elsewhere the readers return ``None``.
"""

from __future__ import annotations

import ctypes
import os
import re
from collections import Counter

from engine.pages import smaps

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_PFN_MASK = (1 << 55) - 1
_PRESENT = 1 << 63

# What a mapped file is, by its name (first match wins); everything unnamed is private memory.
_KINDS = (
    ("GL driver (Mesa, its LLVM)", re.compile(r"libLLVM|_dri\.so|libgallium|libGLX|libGL\.|libEGL|libglapi|libGLdispatch"
                                              r"|libdrm|libvulkan|libnvidia|swrast")),
    ("numba (llvmlite's LLVM)", re.compile(r"llvmlite|numba")),
    ("numpy (and its OpenBLAS)", re.compile(r"numpy|openblas|gfortran|quadmath")),
    ("SDL, pygame, fonts, sound", re.compile(r"SDL|pygame|freetype|harfbuzz|fluidsynth|png|jpeg|tiff|webp|ogg|vorbis"
                                             r"|opus|FLAC|mpg123|modplug|sndfile|xmp|brotli|bz2")),
    ("X11 (client libraries, shared images)", re.compile(r"libX|libxcb|SYSV")),
    ("Python (interpreter, extension modules)", re.compile(r"python|\.cpython-|libcrypto|libssl|libffi|libz\.|liblzma")),
    ("C and C++ runtime", re.compile(r"libc\.|libm\.|libstdc|libgcc|ld-linux|libpthread|libdl|librt")),
)


_M_MMAP_THRESHOLD = -3  # glibc's mallopt() parameter (malloc.h)
LARGE_BLOCK = 256 * 1024


def release_large_blocks_when_freed(threshold: int = LARGE_BLOCK) -> bool:
    """Have glibc's malloc serve every block of ``threshold`` bytes or more from a memory mapping of
    its own, which goes back to the system the moment the block is freed. Returns whether it took
    (False where the C library is not glibc).

    By default glibc raises that threshold each time such a block is freed, up to 32 MiB: after a
    few large numpy arrays come and go (the board images are made from planes of 5-15 MiB), blocks
    of their size are carved from the heaps, whose freed memory stays with the process, in holes
    between live blocks. The game makes such arrays in bursts (the board images, a texture upload)
    and would keep their peak; with a fixed threshold it keeps what it still uses. A new block then
    costs fresh pages from the system, which is cheap next to what is done with a block that size.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # not glibc: macOS, Windows
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, threshold))


def process_memory(pid: int) -> dict[str, int] | None:
    """RSS, PSS, USS and anonymous (private, not from a file) bytes of a process; None when unreadable."""
    try:
        fields = smaps(f"/proc/{pid}/smaps_rollup")[0].fields
    except (OSError, IndexError):
        return None
    kib = {"rss": fields.get("Rss", 0), "pss": fields.get("Pss", 0),
           "uss": fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0), "anon": fields.get("Anonymous", 0)}
    return {name: value * 1024 for name, value in kib.items()}


def mappings(pid: int) -> dict[str, dict[str, int]] | None:
    """Resident bytes (``rss``) and proportional bytes (``pss``) by kind of mapping (see ``_KINDS``;
    ``private memory`` for the heap and anonymous mappings, ``other files`` for the rest)."""
    rss: Counter[str] = Counter()
    pss: Counter[str] = Counter()
    try:
        areas = smaps(f"/proc/{pid}/smaps", fields=("Rss", "Pss"))
    except OSError:
        return None
    for area in areas:
        kind = _kind(area.path)
        rss[kind] += area.fields.get("Rss", 0) * 1024
        pss[kind] += area.fields.get("Pss", 0) * 1024
    return {k: {"rss": rss[k], "pss": pss[k]} for k, _ in rss.most_common() if rss[k]}


def _kind(path: str) -> str:
    if not path or path.startswith("["):
        return "private memory"  # [heap], [stack] and anonymous mappings
    name = os.path.basename(path)
    for kind, pattern in _KINDS:
        if pattern.search(name) or pattern.search(path):
            return kind
    return "other files"


def resident_frames(pid: int):
    """The physical page frame numbers of every resident page of a process (a numpy array), or None
    when the kernel hides them (not root) or the process is gone."""
    import numpy as np

    try:
        areas = [(m.start, m.end) for m in smaps(f"/proc/{pid}/smaps", fields=("Rss",)) if m.fields.get("Rss")]
        frames = []
        with open(f"/proc/{pid}/pagemap", "rb", buffering=0) as f:
            for start, end in areas:
                f.seek(start // PAGE * 8)
                entries = np.frombuffer(f.read((end - start) // PAGE * 8), dtype=np.uint64)
                frames.append(entries[(entries & np.uint64(_PRESENT)) != 0] & np.uint64(_PFN_MASK))
    except OSError:
        return None
    found = np.unique(np.concatenate(frames)) if frames else np.zeros(0, dtype=np.uint64)
    if found.size and not found.any():  # every frame number reads as 0: hidden from this user
        return None
    return found


def together(pids) -> int | None:
    """Bytes of the distinct physical pages the processes ``pids`` have resident, each page counted
    once however many of them map it; None when unreadable (see :func:`resident_frames`)."""
    import numpy as np

    frames = [resident_frames(pid) for pid in pids]
    if any(f is None for f in frames):
        return None
    return int(np.unique(np.concatenate(frames)).size) * PAGE if frames else 0


def children(pid: int) -> list[int]:
    """The process ids of a process's children (the worker, multiprocessing's resource tracker), whichever
    of its threads started them."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return sorted(found)


def mib(value: int | None) -> str:
    return "   ?" if value is None else f"{value / 2**20:5.0f}"

"""Handing a shared library's code back to the system once a process is done running it (Linux).

The engine's worker loads llvmlite's LLVM library (80 MB of machine code) to link the kernels numba
loads from its cache, and about 67 MB of it stays resident afterwards, though the searches run only
the kernels' own code and never call into LLVM again. Those pages hold nothing but the file's bytes,
so :func:`release_library_pages` can unmap them: they stay in the system's file cache, and should
the process call into the library again (a kernel compiled later) it faults back in from there the
pages that call needs, as at its first start. Only mappings without write permission and without a
private copy of any page (relocations write some) are released, so no data is lost.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys

_MADV_DONTNEED = 4  # madvise() advice (Linux, sys/mman.h): drop the pages, refault them from the file
_MAPPING = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$")
_WRITTEN = ("Private_Dirty", "Shared_Dirty", "Anonymous")  # smaps fields: pages that differ from the file


def release_library_pages(name: str) -> int:
    """Unmap the resident pages of every read-only mapping of a shared library whose file name contains
    ``name`` (``"libllvmlite"``) and that maps the file's bytes unchanged. Returns the bytes released:
    0 where there is nothing to release, or no ``/proc`` or ``madvise`` (not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    areas = []  # [start, end, resident bytes, unchanged] of each read-only mapping of the library
    area: list | None = None
    try:
        with open("/proc/self/smaps") as f:
            for line in f:
                m = _MAPPING.match(line)
                if m:
                    ours = name in os.path.basename(m.group(4)) and "w" not in m.group(3)
                    area = [int(m.group(1), 16), int(m.group(2), 16), 0, True] if ours else None
                    if area is not None:
                        areas.append(area)
                elif area is not None:
                    field, _, value = line.partition(":")
                    if field == "Rss":
                        area[2] = int(value.split()[0]) * 1024
                    elif field in _WRITTEN and int(value.split()[0]):
                        area[3] = False
        libc = ctypes.CDLL(None, use_errno=True)
        madvise = libc.madvise
    except (OSError, AttributeError):
        return 0
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    released = 0
    for start, end, resident, unchanged in areas:
        if resident and unchanged and madvise(start, end - start, _MADV_DONTNEED) == 0:
            released += resident
    return released

"""A process's memory mappings as Linux's ``/proc/PID/smaps`` lists them (:func:`smaps`), and handing
a shared library's code back to the system once a process is done running it
(:func:`release_library_pages`).

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
from collections.abc import Callable
from dataclasses import dataclass, field

_MADV_DONTNEED = 4  # madvise() advice (Linux, sys/mman.h): drop the pages, refault them from the file
_MAPPING = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$")
_HEX = frozenset("0123456789abcdef")
# the smaps field of a mapping's private copies of pages (a relocation's writes): what differs from the file. Not
# Private_Dirty or Shared_Dirty: those count the file's own pages not yet written back, as those of a
# library pip has just installed, which madvise() leaves in the page cache, changes and all
_COPIED = "Anonymous"


@dataclass
class Mapping:
    """One mapping of ``/proc/PID/smaps``: its addresses, permissions (``r-xp``), the file it maps
    (``""`` for anonymous memory, ``[heap]`` and the like for the kernel's names) and the fields read
    (kB, as smaps gives them)."""

    start: int
    end: int
    perms: str
    path: str
    fields: dict[str, int] = field(default_factory=dict)


def smaps(source: str = "/proc/self/smaps", fields: tuple[str, ...] | None = None,
          path: Callable[[str], bool] | None = None) -> list[Mapping]:
    """The mappings a smaps file lists (``/proc/PID/smaps``, or ``smaps_rollup``: one mapping that
    sums them all), those whose ``path`` is true of their file's path when given, each with its
    ``fields`` (default: every field with a number). OSError when the file can't be read (the process
    is gone, or no ``/proc``)."""
    found: list[Mapping] = []
    area: Mapping | None = None
    with open(source) as f:
        for line in f:
            if line[0] in _HEX:  # a mapping's line; its fields' lines start with a capital letter
                m = _MAPPING.match(line)
                if m:
                    area = Mapping(int(m.group(1), 16), int(m.group(2), 16), m.group(3), m.group(4).strip())
                    if path is not None and not path(area.path):
                        area = None
                    else:
                        found.append(area)
                    continue
            if area is not None:
                name, _, value = line.partition(":")
                if fields is None or name in fields:
                    number = value.split()[:1]
                    if number and number[0].isdigit():
                        area.fields[name] = int(number[0])
    return found


def release_library_pages(name: str) -> int:
    """Unmap the resident pages of every read-only mapping of a shared library whose file name contains
    ``name`` (``"libllvmlite"``) and that maps the file's bytes unchanged. Returns the bytes released:
    0 where there is nothing to release, or no ``/proc`` or ``madvise`` (not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        areas = [m for m in smaps(fields=("Rss", _COPIED), path=lambda p: name in os.path.basename(p))
                 if "w" not in m.perms]
        libc = ctypes.CDLL(None, use_errno=True)
        madvise = libc.madvise
    except (OSError, AttributeError):
        return 0
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    released = 0
    for area in areas:
        resident = area.fields.get("Rss", 0) * 1024
        unchanged = not area.fields.get(_COPIED, 0)
        if resident and unchanged and madvise(area.start, area.end - area.start, _MADV_DONTNEED) == 0:
            released += resident
    return released

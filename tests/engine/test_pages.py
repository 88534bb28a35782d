"""engine.pages: a process's mappings as smaps lists them; the worker hands LLVM's code pages back once
its kernels are loaded: they leave the process, and LLVM still runs afterwards (a fresh compile faults
back the pages it needs)."""

from __future__ import annotations

import json
import mmap
import subprocess
import sys
from pathlib import Path

import pytest

from engine.pages import release_library_pages, smaps

ROOT = Path(__file__).resolve().parents[2]

# in a process of its own: it compiles, releases llvmlite's pages, then compiles again
_SCRIPT = """
import json
import numba
from engine.pages import release_library_pages, smaps

def resident():
    return sum(m.fields.get("Rss", 0) for m in smaps() if "libllvmlite" in m.path) * 1024

assert numba.njit(lambda x: x + 1)(1) == 2
before = resident()
released = release_library_pages("libllvmlite")
after = resident()
again = numba.njit(lambda x: x * 3)(2)
print(json.dumps({"before": before, "released": released, "after": after, "again": again, "later": resident()}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_a_mapped_file_is_listed_with_its_pages_as_they_are_touched(tmp_path):
    path = tmp_path / "pages.bin"
    path.write_bytes(bytes(64 * mmap.PAGESIZE))
    with open(path, "r+b") as f, mmap.mmap(f.fileno(), 0) as block:

        def ours():
            (found,) = smaps(path=lambda p: p == str(path))
            assert found in smaps()
            return found

        block[: 16 * mmap.PAGESIZE: mmap.PAGESIZE] = b"\x01" * 16  # 16 pages written
        area = ours()
        assert area.end - area.start == 64 * mmap.PAGESIZE and area.perms.startswith("rw")
        assert area.fields["Rss"] * 1024 >= 16 * mmap.PAGESIZE and area.fields["Anonymous"] == 0  # the file's
        assert "VmFlags" not in area.fields  # words, not a number
        assert smaps(fields=("Rss",))[0].fields.keys() <= {"Rss"}
    (rollup,) = smaps("/proc/self/smaps_rollup")
    assert rollup.fields["Rss"] >= rollup.fields["Pss"] > 0


def test_an_unreadable_smaps_is_an_os_error(tmp_path):
    with pytest.raises(OSError):
        smaps(str(tmp_path / "gone"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps, calls madvise")
def test_llvm_pages_leave_the_process_and_llvm_still_compiles():
    out = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["released"] > 0
    assert got["after"] <= got["before"] - got["released"] + 2**20  # what was released left the process
    assert got["again"] == 6  # LLVM compiled again from the pages it faulted back
    assert got["later"] > got["after"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps, calls madvise")
def test_a_library_just_written_is_released_too(tmp_path):
    # a library pip has just installed: its pages are in the page cache, not yet written back (smaps
    # counts them dirty); they are the file's bytes all the same
    path = tmp_path / "libjust-written.so"
    path.write_bytes(bytes(range(256)) * (64 * mmap.PAGESIZE // 256))
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ) as block:
        assert sum(block[::mmap.PAGESIZE]) == 0  # every page read: resident
        (area,) = smaps(path=lambda p: p == str(path))
        assert area.fields["Rss"] * 1024 == 64 * mmap.PAGESIZE
        assert release_library_pages("libjust-written") == 64 * mmap.PAGESIZE
        (area,) = smaps(path=lambda p: p == str(path))
        assert area.fields["Rss"] == 0
        assert block[mmap.PAGESIZE + 1] == 1  # faulted back from the page cache


def test_a_library_not_loaded_releases_nothing():
    assert release_library_pages("no-such-library-here") == 0

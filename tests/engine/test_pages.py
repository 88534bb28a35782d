"""engine.pages: the worker hands LLVM's code pages back once its kernels are loaded; they leave the
process, and LLVM still runs afterwards (a fresh compile faults back the pages it needs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.pages import release_library_pages

ROOT = Path(__file__).resolve().parents[2]

# in a process of its own: it compiles, releases llvmlite's pages, then compiles again
_SCRIPT = """
import json, re
import numba
from engine.pages import release_library_pages

def resident():
    total, ours = 0, False
    with open("/proc/self/smaps") as f:
        for line in f:
            if re.match("^[0-9a-f]+-[0-9a-f]+ ", line):
                ours = "libllvmlite" in line
            elif ours and line.startswith("Rss:"):
                total += int(line.split()[1]) * 1024
    return total

assert numba.njit(lambda x: x + 1)(1) == 2
before = resident()
released = release_library_pages("libllvmlite")
after = resident()
again = numba.njit(lambda x: x * 3)(2)
print(json.dumps({"before": before, "released": released, "after": after, "again": again, "later": resident()}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps, calls madvise")
def test_llvm_pages_leave_the_process_and_llvm_still_compiles():
    out = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["released"] > 0
    assert got["after"] <= got["before"] - got["released"] + 2**20  # what was released left the process
    assert got["again"] == 6  # LLVM compiled again from the pages it faulted back
    assert got["later"] > got["after"]


def test_a_library_not_loaded_releases_nothing():
    assert release_library_pages("no-such-library-here") == 0

"""game.window.memory: the /proc readers behind --bench-memory. No byte counts are asserted (memory numbers
vary from machine to machine); only how the figures relate, which holds everywhere."""

import mmap
import os
import sys
import time

import pytest

from game.window import memory

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")

MIB = 2**20


def test_figures_of_this_process_relate():
    numbers = memory.process_memory(os.getpid())
    assert numbers is not None
    assert numbers["rss"] >= numbers["pss"] >= numbers["uss"] > 0
    assert numbers["rss"] >= numbers["anon"] > 0
    kinds = memory.mappings(os.getpid())
    assert "Python (interpreter, extension modules)" in kinds and "private memory" in kinds
    assert abs(sum(k["rss"] for k in kinds.values()) - memory.process_memory(os.getpid())["rss"]) < 4 * MIB


def test_private_memory_is_seen_where_it_is_touched():
    # fresh pages from the kernel (a bytearray may reuse heap memory earlier tests touched and freed),
    # resident only once written
    block = mmap.mmap(-1, 64 * MIB, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    before = memory.process_memory(os.getpid())["anon"]
    block[:: memory.PAGE] = b"\x01" * (len(block) // memory.PAGE)
    assert memory.process_memory(os.getpid())["anon"] - before >= 60 * MIB
    block.close()


def test_a_gone_process_reads_as_none():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    assert memory.process_memory(pid) is None and memory.mappings(pid) is None and memory.resident_frames(pid) is None


def test_together_counts_shared_pages_once():
    if memory.resident_frames(os.getpid()) is None:
        pytest.skip("page frame numbers are hidden from this user")
    block = bytearray(64 * MIB)
    block[:: memory.PAGE] = b"\x01" * (len(block) // memory.PAGE)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child shares every page with its parent until one of them writes it
        os.close(read)
        os.write(write, b"x")
        time.sleep(30)
        os._exit(0)
    try:
        os.close(write)
        os.read(read, 1)
        assert pid in memory.children(os.getpid())
        parent, child = memory.process_memory(os.getpid()), memory.process_memory(pid)
        alone = memory.together([os.getpid()])
        both = memory.together([os.getpid(), pid])
        assert abs(alone - parent["rss"]) < 2 * MIB  # one process: its resident set
        assert both < parent["rss"] + child["rss"] - 60 * MIB  # the 64 MiB block counted once
        assert both >= alone
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(read)


RELEASE = """
import os, sys
import numpy as np
from game.window import memory

took = memory.release_large_blocks_when_freed() if sys.argv[1] == "on" else None
np.ones(16 * 2**20 // 8)  # a 16 MiB block comes and goes (by default glibc's threshold rises to it)
blocks = [(np.ones(2**20), np.ones(8192)) for _ in range(8)]  # 8 MiB each, a 64 KiB block kept after each
before = memory.process_memory(os.getpid())["anon"]
small = [b for _, b in blocks]
del blocks
print(took, (before - memory.process_memory(os.getpid())["anon"]) / 2**20)
"""


@pytest.mark.skipif(not os.path.exists("/lib/x86_64-linux-gnu/libc.so.6") and not os.path.exists("/lib64/libc.so.6"),
                    reason="glibc's allocator")
def test_large_blocks_go_back_to_the_system_when_freed():
    import subprocess

    def returned(setting):
        out = subprocess.run([sys.executable, "-c", RELEASE, setting], capture_output=True, text=True, check=True)
        took, mib = out.stdout.split()
        return took, float(mib)

    took, mib = returned("on")
    assert took == "True" and mib >= 60  # all eight 8 MiB blocks
    assert returned("off")[1] < 32  # glibc's default keeps them (what the setting is for)

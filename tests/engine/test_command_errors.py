"""Bad input on the engine's command lines, run as a user would (subprocesses): every mistake is one
line on stderr, ``error: ...``, with exit status 2 and no traceback, found before any work starts
(output files, values out of their bounds, a rule set we don't play, a book or a data file that
isn't one); the messages say what to do; ``pdn --export`` writes through links, FIFOs and devices."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.hubclient import HubClient, HubEngineError
from engine.variants import AMERICAN, INTERNATIONAL

ROOT = Path(__file__).resolve().parents[2]
PDN = ROOT / "tests" / "data" / "pdn" / "results.pdn"  # 9 games, all read to their end


def engine(*args: str, stdin: str | None = None, memory_limit: int | None = None, umask: int | None = None,
           cwd: Path = ROOT) -> subprocess.CompletedProcess:
    def limits() -> None:
        if memory_limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        if umask is not None:
            os.umask(umask)

    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=300, preexec_fn=limits)


def one_line_error(run: subprocess.CompletedProcess, *words: str) -> str:
    """The single ``error: ...`` line of a run that failed with status 2; it holds each of ``words``."""
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), (run.returncode, run.stderr)
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# --- output that can't go where it is sent: refused before the work ------------------------------


@pytest.mark.parametrize("args", [
    ("tune", "generate", "--games", "2", "--nodes", "100", "--out", "/nonexistent/t.npz"),
    ("tune", "hand", "--out", "/nonexistent/w.json"),
    ("book", "build", "--variant", "american", "--depth", "1", "--out", "/nonexistent/x.json"),
    ("pdn", str(PDN), "--export", "/nonexistent/dir/o.pdn"),
], ids=["tune-generate", "tune-hand", "book-build", "pdn-export"])
def test_an_output_file_in_a_missing_folder_is_refused_before_the_work(args):
    run = engine(*args)
    one_line_error(run, "/nonexistent", "does not exist")
    assert run.stdout == ""  # nothing done, nothing listed


def test_an_output_that_is_a_folder_is_refused(tmp_path):
    one_line_error(engine("pdn", str(PDN), "--export", str(tmp_path)), "is a folder")
    one_line_error(engine("tune", "hand", "--out", str(tmp_path)), "is a folder")


def test_a_tables_folder_that_cant_be_made_is_refused_before_the_build(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    one_line_error(engine("egdb", "build", "--variant", "american", "--pieces", "2", "--dir", str(blocker / "x")),
                   "can't make the tables' folder")
    if Path("/proc").is_dir():  # the issue's own example
        one_line_error(engine("egdb", "build", "--dir", "/proc/x"), "/proc/x")


def test_a_table_too_large_is_refused_by_the_command_line_and_the_hub():
    one_line_error(engine("bestmove", "--depth", "3", "--tt-size", "100000000"), "--tt-size", "4096")
    from engine.hub import HubEngine

    out: list[str] = []
    HubEngine(write=out.append).run(["set-param name=tt-size value=99999999\n", "ping\n", "quit\n"])
    assert out[0].startswith("error ") and "4096" in out[0] and out[1] == "pong"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="an address-space limit (RLIMIT_AS) as on Linux")
def test_no_memory_for_the_table_is_an_error_not_a_crash():
    limit = 3 << 30  # room for Python, numpy and numba's compiled code, not for a 4096 MB table
    one_line_error(engine("bestmove", "--depth", "2", "--tt-size", "4096", memory_limit=limit),
                   "not enough memory", "--tt-size")
    hub = engine("hub", stdin="set-param name=tt-size value=4096\ninit\nlevel depth=2\ngo think\nquit\n",
                 memory_limit=limit)
    lines = hub.stdout.splitlines()
    assert hub.returncode == 0, hub.stderr
    assert lines[0].startswith("error ") and "not enough memory" in lines[0] and "tt-size is 64 again" in lines[0]
    assert "ready" in lines and lines[-1].startswith("done move=")


# --- values out of their bounds ------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (("perft", "--depth", "-1"), ("--depth", "'-1'")),
    (("bestmove", "--movetime", "-1"), ("--movetime", "above 0")),
    (("bestmove", "--movetime", "nan"), ("--movetime", "'nan'")),
    (("bestmove", "--movetime", "inf"), ("--movetime", "'inf'")),
    (("bestmove", "--depth", "0"), ("--depth", "from 1")),
    (("hub", "--tt-size", "0"), ("--tt-size",)),
    (("egdb", "build", "--variant", "american", "--pieces", "40"), ("pieces can be built, not 40",)),
], ids=["perft-depth", "movetime-negative", "movetime-nan", "movetime-inf", "bestmove-depth", "hub-tt", "pieces"])
def test_values_out_of_their_bounds_are_refused(args, words):
    one_line_error(engine(*args), *words)


def test_a_tables_folder_that_is_a_file_is_refused(tmp_path):
    file = tmp_path / "passwd"
    file.write_text("root:x:0:0\n")
    one_line_error(engine("egdb", "info", "--dir", str(file)), "is not a folder")


def test_a_book_that_isnt_there_or_isnt_a_book_is_an_error(tmp_path):
    one_line_error(engine("book", "probe", "--book", str(tmp_path / "nonexistent.json")), "does not exist")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": 1')
    one_line_error(engine("book", "probe", "--book", str(broken)), "can't use", "american book")


def test_tune_fit_refuses_data_of_another_variant(tmp_path):
    data = tmp_path / "am.npz"
    run = engine("tune", "generate", "--variant", "american", "--games", "2", "--nodes", "100", "--out", str(data))
    assert run.returncode == 0, run.stderr
    out = tmp_path / "w.json"
    one_line_error(engine("tune", "fit", "--variant", "international", "--data", str(data), "--out", str(out)),
                   "american positions", "--variant american")
    assert not out.exists()


# --- a match against a program that isn't a Hub engine --------------------------------------------


def test_a_program_that_echoes_is_no_hub_engine_and_is_refused_at_once():
    with pytest.raises(HubEngineError, match="not a Hub engine"):
        HubClient("cat", INTERNATIONAL).start()
    run = engine("match", "--variant", "international", "--b", "hub=cat", "--games", "2")
    one_line_error(run, "not a Hub engine")


def test_a_silent_program_is_given_up_on_saying_what_was_awaited(monkeypatch):
    from engine import hubclient

    monkeypatch.setattr(hubclient, "HUB_TIMEOUT_S", 1.5)
    monkeypatch.setattr(hubclient, "NOTE_AFTER_S", 0.3)
    notes: list[str] = []
    with pytest.raises(HubEngineError, match="didn't send its id, params and 'wait' within 1.5 s; it sent nothing"):
        HubClient("sleep 30", AMERICAN, note=notes.append).start()
    assert len(notes) == 1 and "waiting for Hub engine 'sleep'" in notes[0] and "giving up after 1.5 s" in notes[0]
    assert hubclient.HUB_TIMEOUT_S < hubclient.INIT_TIMEOUT_S  # the module's own: only init may take minutes


# --- messages that say what to do ------------------------------------------------------------------


def test_a_bad_variant_lists_the_choices():
    line = one_line_error(engine("moves", "--variant", "chess"), "'chess'", "american", "international")
    assert "variant_named" not in line


def test_a_10x10_fen_without_variant_suggests_international():
    one_line_error(engine("moves", "--fen", "W:W31-50:B1-20"), "'31-50'", "--variant international")
    assert engine("moves", "--fen", "W:W31-50:B1-20", "--variant", "international").returncode == 0
    # a FEN bad in both games gets no suggestion
    assert "--variant international" not in engine("moves", "--fen", "W:W31-99:B1").stderr


def test_a_bad_line_on_stdin_is_quoted_without_its_newline():
    run = engine("moves", "--fen", "-", stdin="W:W21-32:B1-12\nW:Wxx:B1\n")
    assert run.returncode == 2
    assert "'W:Wxx:B1'" in run.stderr and "\\n" not in run.stderr


# --- pdn --export writes through the path it is given ------------------------------------------------


def test_export_through_a_symbolic_link_keeps_the_link(tmp_path):
    target = tmp_path / "real.pdn"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.pdn"
    link.symlink_to(target.name)
    run = engine("pdn", str(PDN), "--export", str(link))
    assert run.returncode == 0, run.stderr
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text(encoding="utf-8").count("[Event ") == 9
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the file replaced keeps its mode


def test_export_into_a_fifo_writes_through_it(tmp_path):
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text(encoding="utf-8")), daemon=True)
    reader.start()
    run = engine("pdn", str(PDN), "--export", str(fifo))
    reader.join(60)
    assert run.returncode == 0, run.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode) and received and received[0].count("[Event ") == 9


def test_export_to_a_full_device_is_an_error_and_the_device_stays(tmp_path):
    """A private copy of /dev/full (made where the tests may make device nodes, as root) or the real one."""
    device = tmp_path / "full"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except (OSError, AttributeError):
        device = Path("/dev/full")
        if not device.exists():
            pytest.skip("no /dev/full")
    one_line_error(engine("pdn", str(PDN), "--export", str(device)), "No space left on device")
    assert stat.S_ISCHR(device.stat().st_mode)


def test_a_new_export_gets_the_umasks_mode(tmp_path):
    for mask, mode in ((0o022, 0o644), (0o027, 0o640), (0o077, 0o600)):
        out = tmp_path / f"games-{mask:o}.pdn"
        run = engine("pdn", str(PDN), "--export", str(out), umask=mask)
        assert run.returncode == 0, run.stderr
        assert stat.S_IMODE(out.stat().st_mode) == mode, (oct(mask), oct(out.stat().st_mode))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left

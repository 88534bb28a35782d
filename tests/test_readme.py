"""README.md's command examples, run as a reader would type them: every ``sh`` block, one command a
line (a trailing ``\\`` joins the next), in order, in a fresh folder that holds the files the
examples name (``games.pdn``, ``more.pdn``: real collections from tests/data/pdn; ``main.py``: a link
to the checkout's), with the venv's programs first on ``PATH`` and the game's folders kept in the
test's own. Each must exit with status 0. A block that must not run (it opens a window, runs for
hours, replaces a shipped file) is marked among the HTML comments on the lines before it with
``<!-- not run by tests/test_readme.py: <why> -->``; every other fenced block names a language that
isn't a shell (ini, dockerfile, text ...), so that no command example goes untested unnoticed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
NOT_RUN = re.compile(r"<!-- not run by tests/test_readme\.py: (?P<why>[^>]*\S) -->")
SHELLS = {"sh", "bash", "shell", "console"}
FILES = {"games.pdn": "international-nk2003.pdn", "more.pdn": "american-oca.pdn"}  # both read without an error


def blocks() -> list[tuple[int, str, list[str], str | None]]:
    """Every fenced block of the README: (line of its fence, language, lines, why it is not run or None)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(\S*)\s*$", lines[i])
        if fence is None:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        k = i - 1  # the HTML comments just before the fence may say why it is not run
        marker = None
        while k >= 0 and lines[k].startswith("<!--"):
            marker = marker or NOT_RUN.search(lines[k])
            k -= 1
        found.append((i + 1, fence.group(1), lines[i + 1:end], marker.group("why") if marker else None))
        i = end + 1
    return found


def commands(body: list[str]) -> list[str]:
    """The commands of a shell block: a line each, a trailing backslash joining the next."""
    out, pending = [], ""
    for line in body:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        text = (pending + line).strip()
        pending = ""
        if text and not text.startswith("#"):
            out.append(text)
    return out


RUN = [(line, body) for line, lang, body, why in blocks() if lang in SHELLS and why is None]


def test_every_example_is_run_or_says_why_not():
    found = blocks()
    assert RUN, "no command examples found in README.md"
    for line, lang, _, why in found:
        assert lang, f"README.md:{line}: a fenced block without a language (sh for commands that the test runs)"
        if why is not None:
            assert lang in SHELLS, f"README.md:{line}: a not-run marker before a {lang} block"
    marked = sum(1 for line in README.read_text(encoding="utf-8").splitlines() if NOT_RUN.search(line))
    assert marked == sum(1 for *_, why in found if why is not None), "a not-run marker that doesn't sit before a block"


@pytest.mark.parametrize("line,body", RUN, ids=[f"line{line}" for line, _ in RUN])
def test_the_example_runs(line, body, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    for name, source in FILES.items():
        shutil.copy(ROOT / "tests" / "data" / "pdn" / source, work / name)
    (work / "main.py").symlink_to(ROOT / "main.py")
    bin_dir = Path(sys.executable).parent  # the venv's python and its programs (checkers3d-engine ...)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", SDL_AUDIODRIVER="dummy",
               CHECKERS3D_DATA_DIR=str(tmp_path / "data"), CHECKERS3D_GAMES_DIR=str(tmp_path / "games"),
               CHECKERS3D_CACHE_DIR=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.pop("DISPLAY", None)
    for command in commands(body):
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (f"README.md:{line}: {command}\nexit status {done.returncode}\n"
                                      f"{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        assert "Traceback" not in done.stderr, f"README.md:{line}: {command}\n{done.stderr[-3000:]}"


def test_the_first_steps_say_what_debian_needs_and_how_much_disk_it_takes():
    play = README.read_text(encoding="utf-8").split("## Play", 1)[1].split("\n## ", 1)[0]
    assert "python3-venv" in play  # Debian and Ubuntu's python3 has no venv without it
    assert re.search(r"venv takes about \d+ MB", play) and re.search(r"endgame tables about \d+ MB", play)

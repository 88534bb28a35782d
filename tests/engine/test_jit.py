"""Where the compiled kernels are kept and whether they are there: ``engine.kernels_cached()``, which a
program can name without importing numba first, answers from the game's own marker (written once a
warm-up has run the kernels), never from numba's private cache index; the folder follows
``NUMBA_CACHE_DIR``, else the game's cache setting (``CHECKERS3D_CACHE_DIR``), else platformdirs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import platformdirs

import engine
from engine import AMERICAN, Position, _jit

ROOT = Path(__file__).resolve().parents[2]


def test_kernels_are_cached_once_a_warm_up_has_marked_them():
    position = Position.initial(AMERICAN)
    position.play(position.legal_moves()[0])  # compiles the move generator, or loads it from the cache
    from engine.game import Game

    Game(AMERICAN).play("11-15")  # and the draw counter
    _jit.mark_compiled()
    assert engine.kernels_cached() is True
    assert [p for p in _jit.cache_folder().glob("compiled-rules-*") if p.is_file()]


def test_the_cache_folder_follows_numba_then_the_cache_setting_then_platformdirs(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-own"))
    monkeypatch.setenv("CHECKERS3D_CACHE_DIR", str(tmp_path / "game-cache"))
    assert _jit.cache_base() == tmp_path / "numba-own"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert _jit.cache_base() == tmp_path / "game-cache" / "numba"  # beside the endgame tables
    monkeypatch.delenv("CHECKERS3D_CACHE_DIR")
    assert _jit.cache_base() == Path(platformdirs.user_cache_dir("checkers3d", appauthor=False)) / "numba"
    assert _jit.cache_folder().parent == _jit.cache_base()


def run(code: str, root: Path = ROOT, **env: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env={**os.environ, "PYTHONPATH": str(root), **env},
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_an_empty_cache_holds_no_kernels_and_importing_engine_needs_no_numba(tmp_path):
    code = ("import sys, engine\n"
            "assert 'numba' not in sys.modules, 'importing engine imported numba'\n"
            "print(engine.kernels_cached(), engine.kernels_cached(search=True))\n"
            "assert 'numba' not in sys.modules, 'kernels_cached imported numba'\n")
    assert run(code, NUMBA_CACHE_DIR=str(tmp_path)) == "False False"


def test_the_marker_not_numbas_index_says_what_is_compiled(tmp_path):
    """Compiled into a fresh cache without a warm-up's marker, the kernels don't count as cached (numba's
    own files are there); the warm-up's marker makes them count; without it they don't again."""
    compile_only = ("from engine import Position, AMERICAN\n"
                    "p = Position.initial(AMERICAN); p.play(p.legal_moves()[0])\n")
    run(compile_only, NUMBA_CACHE_DIR=str(tmp_path))
    numba_files = [p for p in tmp_path.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert numba_files, "numba wrote no cache files"
    assert run("import engine; print(engine.kernels_cached())", NUMBA_CACHE_DIR=str(tmp_path)) == "False"
    run("from game.window.loader import warm_up_kernels; warm_up_kernels()", NUMBA_CACHE_DIR=str(tmp_path))
    assert run("import engine; print(engine.kernels_cached(), engine.kernels_cached(search=True))",
               NUMBA_CACHE_DIR=str(tmp_path)) == "True False"
    for marker in tmp_path.rglob("compiled-*"):
        marker.unlink()
    assert run("import engine; print(engine.kernels_cached())", NUMBA_CACHE_DIR=str(tmp_path)) == "False"


def test_the_cache_setting_moves_the_compiled_kernels(tmp_path):
    code = ("import os; os.environ.pop('NUMBA_CACHE_DIR')\n"
            "from game.window.loader import warm_up_kernels; warm_up_kernels()\n"
            "import engine; print(engine.kernels_cached())\n")
    assert run(code, CHECKERS3D_CACHE_DIR=str(tmp_path / "cache")) == "True"
    (folder,) = (tmp_path / "cache" / "numba").iterdir()  # one folder: these sources, this numba
    assert list(folder.glob("compiled-rules-*")) and list(folder.rglob("*.nbi"))


def test_a_copy_of_the_engine_elsewhere_or_reinstalled_counts_as_not_compiled(tmp_path):
    """The same sources in another folder (a second checkout, a new virtual environment) share the
    hashed cache folder but not numba's kernels, which it keeps per source folder and, before numba
    0.68, per modification time: each counts as compiled only once a warm-up has marked it where it
    is, so the game compiles a copy's kernels in a process of their own and not in the computer's."""
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "engine", copy / "engine", ignore=shutil.ignore_patterns("__pycache__"))  # times kept
    shutil.copytree(ROOT / "game", copy / "game", ignore=shutil.ignore_patterns("__pycache__"))
    cache = str(tmp_path / "cache")
    ask = "import engine; from engine import _jit; print(engine.kernels_cached(), _jit.cache_folder())"
    run("from game.window.loader import warm_up_kernels; warm_up_kernels()", root=copy, NUMBA_CACHE_DIR=cache)
    there, copy_folder = run(ask, root=copy, NUMBA_CACHE_DIR=cache).split()
    here, folder = run(ask, NUMBA_CACHE_DIR=cache).split()
    assert (there, here) == ("True", "False")
    assert copy_folder == folder  # the same sources: the same hashed folder
    source = copy / "engine" / "_draws.py"
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 10**9))  # reinstalled a second later
    assert run(ask, root=copy, NUMBA_CACHE_DIR=cache).split()[0] == "False"

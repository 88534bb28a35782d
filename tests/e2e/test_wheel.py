"""The wheel a user installs (``pip wheel .``), built from the checkout's files (those git doesn't
ignore): it holds every file the game loads (every module, the shaders of ``assets/``, the books and
the weights), the licence and the metadata, and the three programs; installed apart from the
checkout it draws the board offscreen and finds its shaders through importlib.resources.
(``.ci/run`` goes further: a fresh venv with the dependencies from the index, the engine's bench and
the room server.)"""

from __future__ import annotations

import email.parser
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tracked(*folders: str) -> list[str]:
    """The files of ``folders`` that git keeps or would (not those it ignores)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *folders], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of the checkout's files (a copy, so that the build leaves nothing in the checkout)."""
    if not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout")
    source = tmp_path_factory.mktemp("source")
    for name in tracked("."):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_file():
            target.write_bytes((ROOT / name).read_bytes())
    out = tmp_path_factory.mktemp("dist")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-3000:]
    (found,) = out.glob("checkers3d-*.whl")
    return found


def test_the_wheel_holds_every_module_and_every_asset(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    needed = [n for n in tracked("engine", "game", "assets") if not n.endswith((".md", ".txt"))]
    assert [n for n in needed if n not in names] == []
    assert {n for n in needed if n.startswith("assets/shaders/")} >= {"assets/shaders/overlay.glsl",
                                                                       "assets/shaders/board.glsl"}
    assert not [n for n in names if n.startswith(("tests/", "tools/")) or n == "main.py"]


def test_the_wheel_carries_the_licence_the_metadata_and_the_programs(wheel):
    archive = zipfile.ZipFile(wheel)
    info = next(n.split("/")[0] for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    metadata = email.parser.Parser().parsestr(archive.read(f"{info}/METADATA").decode())
    assert metadata["License-Expression"] == "MIT" and metadata["License-File"] == "LICENSE"
    assert archive.read(f"{info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
    assert metadata["Author"] == "Checkers 3D authors" and metadata["Requires-Python"] == ">=3.11"
    classifiers = metadata.get_all("Classifier")
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers
    entry_points = archive.read(f"{info}/entry_points.txt").decode()
    for line in ("checkers3d = game.cli:main", "checkers3d-server = game.online.server:main",
                 "checkers3d-engine = engine.hub:script"):
        assert line in entry_points


def test_installed_apart_from_the_checkout_the_game_finds_its_shaders_and_draws(wheel, tmp_path):
    site = tmp_path / "site"
    install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                             capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-3000:]
    # the installed copy comes first on the path (this venv's own install of the checkout comes after)
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONSAFEPATH="1", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1", CHECKERS3D_DATA_DIR=str(tmp_path / "data"))
    code = ("import sys, assets, engine, game\n"
            "from game.render.materials import PROGRAMS, shader_source\n"
            "for m in (assets, engine, game):\n"
            "    assert m.__file__.startswith(sys.argv[1]), m.__file__\n"
            "for name in PROGRAMS:\n"
            "    shader_source(name, 'VERTEX_SHADER'); shader_source(name, 'FRAGMENT_SHADER')\n"
            "from game.cli import main\n"
            "sys.exit(main(['--screenshot', sys.argv[2], '--size', '320x200']))\n")
    picture = tmp_path / "board.png"
    run = subprocess.run([sys.executable, "-c", code, str(site), str(picture)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert picture.stat().st_size > 1000

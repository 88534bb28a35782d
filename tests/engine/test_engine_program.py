"""The installed programs as other programs meet them: ``checkers3d-engine`` (the Hub engine, started
by its path), its ``--help``, ``--version`` on all three scripts, and pydraughts' own Hub client
playing whole games against it on both rule sets, every move it names legal by pydraughts' rules.

The scripts are the venv's (``pip install -e .`` makes them beside the interpreter)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine

BIN = Path(sys.executable).parent
SCRIPTS = ("checkers3d", "checkers3d-server", "checkers3d-engine")


def script(name: str) -> Path:
    path = BIN / name
    assert path.is_file(), f"{path} is missing: reinstall the game into this venv (pip install -e .)"
    return path


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_script_says_its_version(name, tmp_path):
    run = subprocess.run([str(script(name)), "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[:2] == [name, engine.version()] and engine.version() != "unknown"


def test_the_engine_programs_help_says_how_a_gui_starts_it(tmp_path):
    run = subprocess.run([str(script("checkers3d-engine")), "--help"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Hub protocol" in run.stdout and "set-param name=variant" in run.stdout
    assert f'HubEngine(["{script("checkers3d-engine")}"])' in run.stdout  # its own full path, ready to paste


def test_the_engine_program_speaks_hub_from_anywhere(tmp_path):
    """Started by its path from another folder (no checkout on sys.path), as a GUI starts it."""
    run = subprocess.run([str(script("checkers3d-engine")), "--variant", "american"], cwd=tmp_path, text=True,
                         input="hub\ninit\nlevel depth=3\npos pos=B" + "b" * 12 + "e" * 8 + "w" * 12 + "\ngo think\nquit\n",
                         capture_output=True, timeout=600)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"id name=Checkers3D version={engine.version()}") and "ready" in lines
    assert lines[-1].split()[0] == "done"


draughts = pytest.importorskip("draughts")


@pytest.mark.parametrize("variant", ["standard", "english"])
def test_pydraughts_plays_a_whole_game_against_the_engine_program(variant, caplog):
    """pydraughts' HubEngine drives checkers3d-engine (the variant by set-param in pydraughts' names,
    ``standard`` or ``english``; the position as pos with every move since the start) against a seeded
    random player, to the end of the game by pydraughts' rules; each move the engine names must be one
    of pydraughts' legal moves, and no answer of the engine may surprise pydraughts."""
    from draughts.engine import HubEngine, Limit

    hub = HubEngine([str(script("checkers3d-engine"))])
    try:
        hub.configure({"variant": variant})
        hub.init()
        board = draughts.Board(variant=variant)
        if variant == "english":
            # pydraughts 0.6.7 numbers its colours as if White always started (its issue #26) and writes
            # that colour as the Hub position's side to move: "W" before Black's men on 1-12. The Hub
            # letter is the side to move, Black here; the moves it sends after the position are right.
            board._game.initial_hub_fen = "B" + board._game.initial_hub_fen[1:]
        rng = random.Random(7)
        engine_side = board.turn  # the engine moves first; the random player answers
        plies = 0
        while not board.is_over() and plies < 400:
            legal = board.legal_moves()
            if board.turn == engine_side:
                move = hub.play(board, Limit(nodes=3000), ponder=False).move
                assert move.board_move in [m.board_move for m in legal], (board.fen, move.hub_move)
            else:
                move = rng.choice(legal)
            board.push(move)
            plies += 1
        assert board.is_over(), f"no end after {plies} plies: {board.fen}"
        assert board.winner() == engine_side, (board.winner(), plies, board.fen)
        # pydraughts logs every line it didn't expect (an error answer to set-param, init or go)
        assert not [r.getMessage() for r in caplog.records if r.name == "pydraughts"]
    finally:
        hub.quit()
        hub.p.wait(30)

"""The GUI side of Hub against real processes: ``python -m engine hub`` as the outside engine (both
variants, a killed engine started again), and small scripts that misbehave as outside engines can."""

from __future__ import annotations

import os
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from engine import AMERICAN, INTERNATIONAL
from engine.book import load_book
from engine.game import Game
from engine.hubclient import HubClient, HubEngineError, HubLevel
from engine.position import IllegalMoveError

ROOT = Path(__file__).resolve().parents[2]
OUR_HUB = f"{sys.executable} -m engine hub --tt-size 1"

# A stand-in for an outside engine with its own quirks: MODE "no-variant" announces no variant param
# (a 10x10-only engine), "illegal" answers every go with a move that is never legal, "dies" exits at go.
FAKE_ENGINE = textwrap.dedent('''
    import sys
    mode = sys.argv[1]
    for line in sys.stdin:
        command = line.split()[0] if line.split() else ""
        if command == "hub":
            print("id name=fake version=1")
            if mode != "no-variant":
                print("param name=variant value=international type=enum values=\\"international american\\"")
            print("wait", flush=True)
        elif command == "init":
            print("ready", flush=True)
        elif command == "ping":
            print("pong", flush=True)
        elif command == "go":
            if mode == "dies":
                sys.exit(3)
            print("info depth=1 score=0.25", flush=True)
            print("done move=1-2", flush=True)
        elif command == "quit":
            break
''')


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE_ENGINE)
    return lambda mode: f"{sys.executable} {path} {mode}"


@pytest.mark.parametrize("variant", [INTERNATIONAL, AMERICAN])
def test_our_hub_plays_a_game_opening_through_the_client(variant):
    game = Game(variant)
    with HubClient(OUR_HUB, variant, cwd=str(ROOT)) as client:
        assert client.name == "Checkers3D" and "variant" in client.params
        client.new_game()
        for _ in range(6):
            reply = client.play(game, HubLevel(depth=3))
            assert reply.move in game.position.legal_moves()
            assert reply.depth >= 1 and reply.score is not None and reply.seconds >= 0
            game.play(reply.move)
        assert client.restarts == 0


def test_a_killed_engine_is_started_again():
    game = Game(INTERNATIONAL)
    with HubClient(OUR_HUB, INTERNATIONAL, cwd=str(ROOT)) as client:
        client.new_game()
        game.play(client.play(game, HubLevel(movetime=0.05)).move)
        first_pid = client.pid
        os.kill(first_pid, signal.SIGKILL)
        reply = client.play(game, HubLevel(movetime=0.05))  # the same game goes on in a new process
        assert reply.move in game.position.legal_moves()
        assert client.restarts == 1 and client.pid != first_pid
        os.kill(client.pid, signal.SIGKILL)
        client.new_game()  # between games too
        assert client.restarts == 2


def test_python_m_ignores_an_engine_package_in_the_working_directory(tmp_path):
    """Another checkout's ``python -m engine hub`` must run its own engine, not the directory's."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "__init__.py").write_text("raise SystemExit('the wrong engine package')\n")
    with HubClient(OUR_HUB, AMERICAN, cwd=str(tmp_path)) as client:
        assert client.name == "Checkers3D"


def test_variants_are_checked_at_start(fake):
    with pytest.raises(HubEngineError, match="plays International draughts only"):
        HubClient(fake("no-variant"), AMERICAN).start()
    with HubClient(fake("no-variant"), INTERNATIONAL) as client:  # 10x10 is Hub's default
        assert "variant" not in client.params
    with pytest.raises(HubEngineError, match="can't start"):
        HubClient("/nonexistent/engine hub", INTERNATIONAL).start()


def test_illegal_moves_and_engines_that_keep_dying(fake):
    with HubClient(fake("illegal"), AMERICAN) as client:
        client.new_game()
        with pytest.raises(IllegalMoveError, match="1-2"):
            client.play(Game(AMERICAN), HubLevel(movetime=0.1))
    with HubClient(fake("dies"), INTERNATIONAL) as client:
        client.new_game()
        with pytest.raises(HubEngineError, match="exited"):
            client.play(Game(INTERNATIONAL), HubLevel(movetime=0.1))
        assert client.restarts == 1  # started again once, then given up


def test_level_lines():
    assert HubLevel(movetime=1.5).line() == "level move-time=1.5"
    assert HubLevel(depth=6, nodes=1000).line() == "level depth=6 nodes=1000"
    assert HubLevel().line() is None


def test_a_computer_level_as_an_outside_engine():
    """tools/hub_level.py: the game's computer level (here Medium) behind the Hub protocol, out of
    its opening book."""
    game = Game(AMERICAN)
    for move in "9-13 22-18 13-17 21-14 10-17".split():  # a line far from the book's
        game.play(move)
    with HubClient(f"{sys.executable} {ROOT / 'tools' / 'hub_level.py'} --level medium --tt-size 1", AMERICAN) as client:
        client.new_game()
        for _ in range(4):
            assert load_book(AMERICAN).probe(game.position) is None
            reply = client.play(game, HubLevel(movetime=5.0))  # ignored: Medium searches 8 plies
            assert reply.move in game.position.legal_moves() and reply.depth == 8
            game.play(reply.move)

"""`python -m engine perft` and `python -m engine moves`, run as a user would (subprocesses).

(`python -m engine game` has its own tests.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine import AMERICAN, INTERNATIONAL, Position

ROOT = Path(__file__).resolve().parents[2]


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=300)


def test_perft_json():
    # published: American perft(4) = 1,469 (shared/reference/perft.md)
    run = engine("perft", "--depth", "4", "--json")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["depth"] == 4 and result["nodes"] == 1469
    assert set(result) >= {"depth", "nodes", "seconds", "nodes_per_second"}


def test_perft_divide_international_by_alias():
    # published: International perft(3) = 658
    run = engine("perft", "--variant", "10x10", "--depth", "3", "--divide", "--json")
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.strip().splitlines()]
    divide, total = lines[:-1], lines[-1]
    assert total["nodes"] == 658
    assert len(divide) == 9 and sum(d["nodes"] for d in divide) == 658
    pos = Position.initial(INTERNATIONAL)
    assert {d["move"] for d in divide} == {pos.move_text(m) for m in pos.legal_moves()}


def test_moves_json():
    run = engine("moves", "--variant", "english", "--json")
    assert run.returncode == 0, run.stderr
    moves = json.loads(run.stdout)
    pos = Position.initial(AMERICAN)
    assert len(moves) == 7
    for item in moves:
        move = pos.parse_move(item["notation"])
        assert item["path"] == list(move.path) and item["captures"] == []
        assert item["fen_after"] == pos.play(move).fen()


def test_moves_from_stdin_one_array_a_line():
    fens = ["W:W22,31:B11,18,27", "", "B:W14,15,22,23:B10", "W:W:B1"]
    run = engine("moves", "--fen", "-", stdin="\n".join(fens) + "\n")
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.strip().splitlines()]
    assert len(lines) == 3  # blank lines are skipped
    first, second, third = lines
    assert sorted((m["notation"], tuple(m["captures"])) for m in first) == [("22x8", (11, 18)), ("31x24", (27,))]
    assert sorted(m["notation"] for m in second) == ["10x17x26", "10x19x26"]
    assert {tuple(m["path"]) for m in second} == {(10, 17, 26), (10, 19, 26)}
    assert third == []  # White has no piece: no legal move


def test_bad_fen_exits_non_zero_naming_it():
    run = engine("moves", "--fen", "W:W99:B1", "--json")
    assert run.returncode != 0 and "W:W99:B1" in run.stderr and not run.stdout
    run = engine("perft", "--depth", "2", "--fen", "Q:W1:B2")
    assert run.returncode != 0 and "Q:W1:B2" in run.stderr


def test_bad_fen_on_stdin_is_answered_in_its_place_and_the_rest_still_read():
    questions = "B:W21-32:B1-12\nW:Wnonsense:B1\nB:W21-32:B1-12\n"
    run = engine("moves", "--fen", "-", "--json", stdin=questions)
    assert run.returncode != 0 and "W:Wnonsense:B1" in run.stderr
    first, bad, last = (json.loads(line) for line in run.stdout.strip().splitlines())
    assert len(first) == len(last) == 7
    assert "W:Wnonsense:B1" in bad["error"]
    run = engine("moves", "--fen", "-", stdin=questions)  # without --json: a plain error line in its place
    first, bad, last = run.stdout.strip().splitlines()
    assert len(json.loads(first)) == len(json.loads(last)) == 7
    assert bad.startswith("error: ") and "W:Wnonsense:B1" in bad

"""The Hub protocol (Scan 3.0's protocol.txt): line syntax, position and move formats in-process, and
whole sessions against ``python -m engine hub`` in a subprocess."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine import AMERICAN, INTERNATIONAL, IllegalMoveError, Position
from engine.hub import HubEngine, HubError, format_line, format_move, format_position, parse_line, parse_move, parse_position

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 300.0  # generous: a fresh process may have to compile the numba cache on a busy machine
INTERNATIONAL_START = "W" + "b" * 20 + "e" * 10 + "w" * 20  # the example in protocol.txt


# --- syntax, positions, moves -------------------------------------------------------------------


def test_parse_line_reads_names_values_quotes_and_flags():
    assert parse_line('pos pos=Wbe moves="32-28 18-23"') == ("pos", {"pos": "Wbe", "moves": "32-28 18-23"})
    assert parse_line("level infinite") == ("level", {"infinite": ""})
    assert parse_line('  set-param  name=variant   value = american ') == (
        "set-param", {"name": "variant", "value": "american"})
    assert parse_line('error message=""') == ("error", {"message": ""})
    with pytest.raises(HubError, match="closing quote"):
        parse_line('pos moves="32-28')


def test_format_line_quotes_what_needs_quotes():
    assert format_line("done", move="32-28", ponder="17-22") == "done move=32-28 ponder=17-22"
    assert format_line("info", depth=3, pv="32-28 17-22") == 'info depth=3 pv="32-28 17-22"'
    assert format_line("param", name="tt-size", type="int", values="") == 'param name=tt-size type=int values=""'


def test_positions_in_hub_format():
    assert parse_position(INTERNATIONAL, INTERNATIONAL_START) == Position.initial(INTERNATIONAL)
    assert format_position(Position.initial(AMERICAN)) == "B" + "b" * 12 + "e" * 8 + "w" * 12
    kings = Position.from_fen(INTERNATIONAL, "B:WK46,28:BK5,19")
    assert parse_position(INTERNATIONAL, format_position(kings)) == kings
    text = format_position(kings)
    assert text[0] == "B" and text[46] == "W" and text[5] == "B" and text[28] == "w" and text[19] == "b"
    for bad in ("W" + "e" * 32, INTERNATIONAL_START[:-1], "X" + INTERNATIONAL_START[1:], INTERNATIONAL_START[:-1] + "q"):
        with pytest.raises(HubError, match="bad Hub position"):
            parse_position(INTERNATIONAL, bad)


def test_moves_in_hub_format():
    pos = Position.initial(INTERNATIONAL)
    assert format_move(parse_move(pos, "32-28")) == "32-28"
    # 28x19x23 of protocol.txt: from 28 to 19 taking 23
    pos = Position.from_fen(INTERNATIONAL, "W:W28:B23")
    move = parse_move(pos, "28x19x23")
    assert (move.start, move.end, move.captured) == (28, 19, (23,))
    assert format_move(move) == "28x19x23" and parse_move(pos, "28x19") == move
    # a multiple capture names every captured square, in any order
    pos = Position.from_fen(INTERNATIONAL, "W:W37:B32,22")
    move = parse_move(pos, "37x17x32x22")
    assert move.captured == (22, 32) and format_move(move) == "37x17x22x32"
    for bad in ("32-27-21", "32x", "ab-cd", "37-28"):
        with pytest.raises(IllegalMoveError):
            parse_move(pos, bad)


@pytest.mark.parametrize("value, variant", [("american", AMERICAN), ("english", AMERICAN), ("Checkers", AMERICAN),
                                            ("8x8", AMERICAN), ("international", INTERNATIONAL),
                                            ("normal", INTERNATIONAL), ("standard", INTERNATIONAL),
                                            ("10x10", INTERNATIONAL)])
def test_set_param_variant_takes_the_command_lines_names(value, variant):
    engine = HubEngine(AMERICAN if variant is INTERNATIONAL else INTERNATIONAL, write=lambda line: None)
    engine._dispatch("set-param", {"name": "variant", "value": value}, 0)
    assert engine.variant is variant and engine.game.variant is variant


def test_set_param_unknown_variant_is_an_error_naming_it():
    engine = HubEngine(INTERNATIONAL, write=lambda line: None)
    with pytest.raises(HubError, match="'frisian'"):
        engine._dispatch("set-param", {"name": "variant", "value": "frisian"}, 0)
    assert engine.variant is INTERNATIONAL


# --- sessions -----------------------------------------------------------------------------------


class Session:
    """``python -m engine hub`` with line reads that time out instead of hanging the test."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "engine", "hub", *args], cwd=ROOT, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = TIMEOUT) -> str:
        line = self.lines.get(timeout=timeout)
        assert line is not None, "the engine closed its output"
        return line

    def read_until(self, command: str, timeout: float = TIMEOUT) -> list[tuple[str, dict]]:
        out = []
        while True:
            parsed = parse_line(self.read(timeout))
            out.append(parsed)
            if parsed[0] == command:
                return out

    def close(self) -> int:
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.wait(10)


@pytest.fixture
def session():
    s = Session()
    yield s
    s.close()


def test_international_session(session):
    session.send("hub")
    lines = session.read_until("wait")
    assert lines[0][0] == "id" and lines[0][1]["name"] and lines[0][1]["version"]
    params = {args["name"]: args for command, args in lines if command == "param"}
    assert params["variant"]["value"] == "international"
    session.send("init")
    assert session.read_until("ready")[-1][0] == "ready"
    session.send("ping")
    assert session.read() == "pong"
    session.send("new-game")
    session.send(f'pos pos={INTERNATIONAL_START} moves="32-28 18-23"')
    session.send("level depth=4")
    session.send("go think")
    lines = session.read_until("done")
    position = Position.initial(INTERNATIONAL)
    for text in ("32-28", "18-23"):
        position = position.play(parse_move(position, text))
    done = lines[-1][1]
    move = parse_move(position, done["move"])  # raises unless legal
    infos = [args for command, args in lines if command == "info"]
    assert infos and int(infos[-1]["depth"]) >= 1 and infos[-1]["pv"]
    if "ponder" in done:
        parse_move(position.play(move), done["ponder"])
    # a stop during an infinite search still gives a legal move; ping is answered meanwhile
    session.send("level infinite")
    session.send("go analyze")
    assert session.read_until("info")[-1][0] == "info"
    session.send("ping")
    session.send("stop")
    lines = session.read_until("done", timeout=30.0)
    assert ("pong", {}) in lines
    parse_move(position, lines[-1][1]["move"])
    session.send("quit")
    assert session.proc.wait(30) == 0


def test_american_session_after_set_param(session):
    session.send("hub")
    session.read_until("wait")
    session.send("set-param name=variant value=american")
    session.send("init")
    session.read_until("ready")
    start = format_position(Position.initial(AMERICAN))
    session.send(f'pos pos={start} moves="11-15 23-19"')
    session.send("level move-time=0.2")
    session.send("go think")
    done = session.read_until("done")[-1][1]
    position = Position.initial(AMERICAN)
    for text in ("11-15", "23-19"):
        position = position.play(parse_move(position, text))
    assert parse_move(position, done["move"]) in position.legal_moves()


def test_bad_input_gives_error_lines_and_end_of_input_quits(session):
    session.send("init")
    session.read_until("ready")
    session.send("pos pos=Wxyz")
    assert "bad Hub position" in session.read_until("error")[-1][1]["message"]
    session.send(f'pos pos={INTERNATIONAL_START} moves="32-27 19-24 27x18"')
    assert "27x18" in session.read_until("error")[-1][1]["message"]
    session.send("level speed=3")
    assert "level" in session.read_until("error")[-1][1]["message"]
    session.send("some-future-command x=1")  # ignored, as the protocol asks
    session.send("ping")
    assert session.read() == "pong"
    session.proc.stdin.close()
    assert session.proc.wait(30) == 0


# --- the position is the GUI's ------------------------------------------------------------------


def serve(*lines: str) -> list[tuple[str, dict]]:
    """The engine's answers to ``lines`` (in this process), parsed."""
    out: list[str] = []
    HubEngine(INTERNATIONAL, write=out.append).run([line + "\n" for line in lines] + ["quit\n"])
    return [parse_line(line) for line in out]


def test_after_a_refused_pos_go_is_an_error_until_a_good_pos():
    answers = serve("level depth=2", f'pos pos={INTERNATIONAL_START} moves="32-28"', "pos pos=Bxx", "go think",
                    "new-game", "go think", f'pos pos={INTERNATIONAL_START} moves="31-27 99-98"', "go think",
                    f'pos pos={INTERNATIONAL_START} moves="31-27"', "go think")
    kinds = [command for command, _ in answers if command != "info"]
    assert kinds == ["error", "error", "error", "error", "error", "done"], answers
    errors = [args["message"] for command, args in answers if command == "error"]
    assert "bad Hub position 'Bxx'" in errors[0] and "go: no position" in errors[1] and "go: no position" in errors[2]
    assert "'99-98'" in errors[3] and "go: no position" in errors[4]
    position = Position.initial(INTERNATIONAL)
    position = position.play(parse_move(position, "31-27"))
    assert parse_move(position, answers[-1][1]["move"]) in position.legal_moves()  # the last good pos's move


def test_the_guis_moves_are_played_past_a_draw_our_rules_would_declare():
    """The game lost to dame-rs: a lone king against three, where the GUI counts the 5-move main-diagonal
    rule from the king's return to the diagonal and our rules from its first arrival."""
    start = "WeeeeeeeeeeeeeeeeeeeeeeeeeeWeeeeeeeBeeeeeeeeeeeBBee"
    moves = "27-32 48-39 32-14 39-44 14-9 44-50 9-4 50-45 4-10 35-13 10-5 45-50"
    answers = serve("level depth=3", f'pos pos={start} moves="{moves}"', "go think")
    assert [command for command, _ in answers if command != "info"] == ["done"], answers
    position = parse_position(INTERNATIONAL, start)
    for text in moves.split():
        position = position.play(parse_move(position, text))
    assert parse_move(position, answers[-1][1]["move"]) in position.legal_moves()

"""The state machine's table, walked (issue 20): every kind of phase with every kind of intent is a
transition the table lists or a refusal with a reason; leaving a game that counts, by every way there
is, asks first, names the cost, records one result, and Cancel changes nothing; and no module but the
state machine assigns the phase or changes the game a phase holds (read from the source)."""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest
from support import sq

from engine import AMERICAN, Color, Position
from engine.game import Game
from engine.pdn import PdnGame
from game.files.settings import View
from game.modes import Level, Mode
from game.play import intents as it
from game.play.editor import Tool
from game.play.machine import TRANSITIONS, UNDER, Controller, transition
from game.play.phases import (
    Browsing,
    ChoosingMode,
    ConfirmingLeave,
    ConfirmingResign,
    EnteringLink,
    GameOver,
    HumanToMove,
    JoiningRoom,
    OpponentToMove,
    Phase,
    ReadingHelp,
    Resuming,
    Reviewing,
    SeekingOpponent,
    WaitingForFriend,
)

ROOT = Path(__file__).resolve().parents[2]
LINK = "checkers3d://127.0.0.1:9/Yc8VZ0m4kq1WnV3e"
PHASE_KINDS = typing.get_args(Phase)
INTENT_KINDS = typing.get_args(it.Intent)


def test_every_phase_and_intent_kind_has_a_listed_transition_or_a_refusal_with_a_reason():
    assert len(PHASE_KINDS) == 19 and len(INTENT_KINDS) == len(TRANSITIONS) == 66
    for row in TRANSITIONS.values():
        assert set(row.phases) <= set(PHASE_KINDS), row
        assert hasattr(Controller, row.apply), row.apply
    for phase in PHASE_KINDS:
        for intent in INTENT_KINDS:
            rule = transition(phase, intent)
            if rule is UNDER:
                assert phase in (ConfirmingResign, ConfirmingLeave), (phase, intent)
            elif isinstance(rule, str):
                assert rule == TRANSITIONS[intent].apply and phase in TRANSITIONS[intent].phases
            else:
                assert rule.reason.strip() and rule.reason[0].isupper(), (phase, intent, rule)
    with pytest.raises(KeyError):
        transition(ChoosingMode, int)


# --- walking the table: a controller in each phase, given each intent ---------------------------------

def moved(c: Controller) -> Controller:
    """The player (Black) has moved and the computer has answered."""
    c.handle(it.SquarePressed(sq("c3")))
    c.handle(it.SquarePressed(sq("d4")))
    c.opponent.reply_first_legal()
    c.update()
    return c


def in_phase(kind: type, make, storage) -> Controller:
    """A controller in a phase of ``kind``, reached as a player reaches it where that is quick."""
    c = make(level="easy")
    match kind.__name__:
        case "ChoosingMode":
            c = Controller(opponent=c.opponent, storage=storage)
        case "Resuming":
            c = Controller(opponent=c.opponent, storage=storage)
            c.phase = Resuming("american", Mode(Level.HARD, Color.BLACK))
        case "HumanToMove":
            pass
        case "OpponentToMove":
            c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        case "AwaitingDrawAnswer":
            c.handle(it.OfferDraw())
            c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        case "GameOver":
            c.handle(it.Resign())
            c.handle(it.ConfirmResign())
        case "OpponentFailed":
            c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
            c.opponent.fail("the engine process stopped")
            c.update()
        case "ConfirmingResign":
            c.handle(it.Resign())
        case "ConfirmingLeave":
            moved(c).handle(it.PlayAgain())
        case "ReadingHelp":
            c.handle(it.OpenHelp())
        case "WaitingForFriend":
            c.handle(it.ChangeMode())
            c.phase = WaitingForFriend(variant="american", link=LINK, reach="127.0.0.1:9", this_network=True)
        case "EnteringLink":
            c.handle(it.ChangeMode())
            c.handle(it.OpenJoin())
        case "EnteringServer":
            c.handle(it.ChangeMode())
            c.handle(it.EditServer())
        case "EnteringNickname":
            c.handle(it.ChangeMode())
            c.handle(it.EditNickname())
        case "SeekingOpponent":
            c.handle(it.ChangeMode())
            c.phase = SeekingOpponent(variant="american", nickname="Ann", since=0.0, reach="ws://127.0.0.1:9")
        case "JoiningRoom":
            c.handle(it.ChangeMode())
            c.phase = JoiningRoom(link=LINK)
        case "Reviewing":
            moved(c).handle(it.ReviewStep(-1))
        case "Editing":
            c.handle(it.EditPosition())
        case "Browsing":
            c.handle(it.OpenBrowser())
    assert type(c.phase) is kind, (kind, c.phase)
    return c


def an_intent(kind: type, tmp_path: Path) -> it.Intent:
    """An intent of ``kind``, as a player would send it."""
    first = Position.initial(AMERICAN).legal_moves()[0]
    pdn = tmp_path / "one.pdn"
    pdn.write_text(PdnGame.from_game(Game(AMERICAN)).pdn(), encoding="utf-8")
    samples: dict[type, it.Intent] = {
        it.SquarePressed: it.SquarePressed(sq("c3")), it.DragStarted: it.DragStarted(sq("c3")),
        it.PieceDropped: it.PieceDropped(sq("c3"), sq("d4")), it.CursorMove: it.CursorMove(1, 0),
        it.PlayMoveFromList: it.PlayMoveFromList(first), it.ChooseRules: it.ChooseRules("american"),
        it.StartGame: it.StartGame(Level.EASY), it.SetView: it.SetView(View.TOP),
        it.ToggleSetting: it.ToggleSetting("sound"), it.OpenHelp: it.OpenHelp(), it.JoinRoom: it.JoinRoom(LINK),
        it.TypeText: it.TypeText("x"), it.EditText: it.EditText("left"), it.ReviewStep: it.ReviewStep(-1),
        it.ReviewTo: it.ReviewTo(0), it.PlayFromHere: it.PlayFromHere(None), it.Pasted: it.Pasted("B:W18:B14"),
        it.OpenFile: it.OpenFile(str(pdn)), it.BrowserPage: it.BrowserPage(1), it.OpenListedGame: it.OpenListedGame(0),
        it.ChooseTool: it.ChooseTool(Tool.ERASE), it.SetTurn: it.SetTurn(Color.WHITE), it.GoToSection: it.GoToSection("kings"),
        it.Greyed: it.Greyed("The game is over"),
    }
    return samples.get(kind) or kind()


@pytest.mark.parametrize("kind", PHASE_KINDS, ids=lambda k: k.__name__)
def test_each_intent_in_each_phase_does_what_the_table_says(kind, make, storage, tmp_path, monkeypatch):
    import game.desktop

    monkeypatch.setattr(game.desktop, "register_link_handler", lambda: "registered")  # no files of this desktop
    for intent_kind in INTENT_KINDS:
        c = in_phase(kind, make, storage)
        before, version = c.phase, c.version
        intent = an_intent(intent_kind, tmp_path)
        rule = transition(kind, intent_kind)
        if rule is UNDER:  # a question: as in the phase under it
            under = before.over if isinstance(before, ConfirmingLeave) else before.under
            rule = transition(type(under), intent_kind)
        out = c.handle(intent)
        what = f"{intent!r} in {kind.__name__}"
        assert c.version > version, what
        if isinstance(rule, str):
            assert out.refused is None or out.refused.strip(), what  # taken (or refused by the game's state, saying why)
        else:
            assert out.refused == rule.reason and c.phase is before, what
        c.close()


# --- leaving a game that counts ---------------------------------------------------------------------

def losses(storage) -> int:
    return storage.results().get("american", {}).get("easy", {}).get("loss", 0)


def pdn_file(tmp_path: Path, games: int) -> str:
    path = tmp_path / f"{games}.pdn"
    game = PdnGame.from_game(Game(AMERICAN)).pdn()
    path.write_text("\n\n".join([game] * games), encoding="utf-8")
    return str(path)


def read(c: Controller) -> None:
    import time

    end = time.monotonic() + 10
    while isinstance(c.phase, Browsing) and c.phase.listing is not None and not c.phase.listing.done.is_set():
        assert time.monotonic() < end
        time.sleep(0.01)
    c.update()


# each way of leaving: (what the player does first, the intent that would leave the game)
WAYS = {
    "a new game from the mode screen": ([it.ChangeMode()], it.StartGame(Level.MEDIUM)),
    "Play again": ([], it.PlayAgain()),
    "Play again from a review": ([it.ReviewStep(-1)], it.PlayAgain()),
    "pasting PDN": ([], it.Pasted(PdnGame.from_game(Game(AMERICAN)).pdn())),
    "pasting a FEN": ([], it.Pasted("B:W18:B14")),
    "pasting on the mode screen": ([it.ChangeMode()], it.Pasted("B:W18:B14")),
    "Play from here in the editor": ([it.EditPosition()], it.PlayFromHere(Level.HARD)),
    "Play from here in the editor, from the mode screen": ([it.ChangeMode(), it.EditPosition()], it.PlayFromHere(None)),
    "a friend's room": ([it.ChangeMode()], it.PlayFriend()),
    "joining a friend": ([it.ChangeMode()], it.OpenJoin()),
    "a friend's link": ([], it.JoinRoom(LINK)),
}


@pytest.mark.parametrize("way", [*WAYS, "a dropped file", "a game chosen in the browser"])
def test_leaving_a_counted_game_asks_first_names_the_cost_and_counts_once(way, make, storage, tmp_path):
    from game.friend.rooms import Rooms
    from game.ui import Interface

    c = moved(make(level="easy"))
    c.attach_rooms(Rooms(listen="127.0.0.1", port=0))
    game = c.game

    def leave() -> None:
        if way == "a dropped file":
            c.handle(it.OpenFile(pdn_file(tmp_path, 1)))
            read(c)
        elif way == "a game chosen in the browser":
            c.handle(it.OpenFile(pdn_file(tmp_path, 3)))
            read(c)
            c.handle(it.OpenListedGame(2))
        else:
            first, intent = WAYS[way]
            for step in first:
                c.handle(step)
            c.handle(intent)

    leave()
    asking = c.asking
    assert asking is not None and asking.leaving.game is game and not game.is_over and losses(storage) == 0, way
    ui = Interface((1280, 800))
    ui.render(c, 0.0)
    words = " ".join(w.label for w in ui.widgets)
    assert "Your game in progress counts as a loss at Easy." in words and "btn:Keep" in " ".join(h.id for h in ui.hits)
    over = asking.over
    c.handle(it.Cancel())
    assert c.phase is over and not game.is_over and losses(storage) == 0, "Cancel changes nothing"
    c.handle(it.ChangeMode())
    c.handle(it.ContinueSaved())
    assert c.game is game and c.is_human_turn(), "the game goes on"
    leave()
    c.handle(it.ConfirmLeave())
    assert c.asking is None and game.outcome is not None and losses(storage) == 1, way
    assert c.game is not game or isinstance(c.phase, (ChoosingMode, WaitingForFriend, EnteringLink, JoiningRoom)), way
    c.handle(it.ChangeMode())
    assert losses(storage) == 1 and c.asking is None, "counted once: nothing left to ask about"
    c.close()


def test_a_game_that_counts_for_nothing_is_left_without_a_question(make, storage):
    c = make(level="easy")  # the player hasn't moved
    c.handle(it.Pasted("B:W18:B14"))
    assert isinstance(c.phase, Reviewing) and c.asking is None
    c = moved(make(level="easy"))
    c.handle(it.ReviewStep(-2))
    c.handle(it.PlayFromHere(Level.HARD))  # from the game's own moves: like taking them back
    assert c.asking is None and c.mode.level is Level.HARD and losses(storage) == 0
    c = make()  # two players on this device
    c.handle(it.SquarePressed(sq("c3")))
    c.handle(it.SquarePressed(sq("d4")))
    c.handle(it.PlayAgain())
    assert c.asking is None and c.game.moves == []


def test_the_question_waits_for_the_opponent_as_resign_does(make, storage):
    """Under the question the game goes on: the computer's move arrives, and moving answers it."""
    c = make(level="easy")
    c.handle(it.SquarePressed(sq("c3")))
    c.handle(it.SquarePressed(sq("d4")))
    c.handle(it.PlayAgain())  # while the computer thinks
    assert isinstance(c.asking.over, OpponentToMove)
    c.handle(it.FlipBoard())
    assert c.asking is not None and c.hand.flipped, "the board works under the question"
    c.opponent.reply_first_legal()
    c.update()
    assert isinstance(c.phase, HumanToMove) and c.asking is None, "the computer's move answers it"
    assert losses(storage) == 0 and len(c.game.moves) == 2


# --- read from the source ----------------------------------------------------------------------------

GAME_CHANGES = {"play", "undo", "resign", "accept_draw"}  # what changes an engine.game.Game


def assignments_to_phase(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Attribute) and sub.attr == "phase" and isinstance(sub.ctx, ast.Store):
                    lines.append(node.lineno)
    return lines


def games_changed(path: Path) -> list[int]:
    """Lines that call a Game's changing methods on a phase's game (``p.game.play(...)``, ``game.undo()``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in GAME_CHANGES
            and (isinstance(node.func.value, ast.Name) and node.func.value.id == "game"
                 or isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "game")]


def test_only_the_state_machine_assigns_the_phase_or_changes_a_phases_game():
    machine = ROOT / "game" / "play" / "machine.py"
    assert len(assignments_to_phase(machine)) > 20 and games_changed(machine)
    others = [p for p in sorted((ROOT / "game").rglob("*.py")) if p != machine]
    assert len(others) > 60
    assert {str(p.relative_to(ROOT)): lines for p in others if (lines := assignments_to_phase(p))} == {}
    # (the loader's warm-up and the window benchmarks play games of their own)
    state_side = [p for p in others if p.relative_to(ROOT).parts[1] in ("play", "ui", "window")
                  and p.name not in ("loader.py", "bench.py")]
    assert {str(p.relative_to(ROOT)): lines for p in state_side if (lines := games_changed(p))} == {}


def test_the_checks_find_what_they_look_for(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(c, p):\n    c.phase = 1\n    c.x.phase += 1\n    p.game.undo()\n    game.play(1)\n")
    assert assignments_to_phase(bad) == [2, 3] and games_changed(bad) == [4, 5]


def test_no_job_holds_the_controller():
    """The jobs take what they need as arguments: none of their modules imports the state machine or
    keeps anything as ``self.c`` (the status line, a reader like the panel, reads the controller)."""
    jobs = [p for p in sorted((ROOT / "game" / "play").glob("*.py")) if p.name not in ("machine.py", "status_text.py")]
    assert len(jobs) > 8

    def holds(path: Path) -> bool:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        return any(isinstance(n, ast.ImportFrom) and n.module == "game.play.machine" for n in ast.walk(tree)) or any(
            isinstance(n, ast.Attribute) and n.attr == "c" and isinstance(n.value, ast.Name) and n.value.id == "self"
            for n in ast.walk(tree))

    assert [p.name for p in jobs if holds(p)] == []


@pytest.mark.parametrize("phase", [ReadingHelp(ChoosingMode(), "american"), GameOver(Game(AMERICAN), Mode())],
                         ids=["help", "over"])
def test_a_value_that_is_no_intent_is_a_type_error(phase):
    c = Controller()
    c.phase = dataclasses.replace(phase)
    with pytest.raises(TypeError):
        c.handle("Undo")  # type: ignore[arg-type]

"""Two players on two screens: two game processes, each in its own Xvfb display, play each other through
the host's own room server (listening on 127.0.0.1 only), with real input (xdotool) and the real
system clipboard: the host copies the link (Ctrl+C), another program on the host's screen reads it
from the clipboard, a program on the guest's screen offers it there, and the guest pastes it into
"Join a friend" (Ctrl+V). Then they play a few moves on the 3D board and on the "Button controls"
table, the guest's board turned; the guest quits, starts again and returns to the room, and the game
goes on. A screenshot of each side is kept under ``$I11_SHOTS`` (default /tmp/i11shots) to be looked at.

Also: the clipboard itself between two programs of one screen (what Copy and Ctrl+V rest on), and a
window opened with a link (``checkers3d LINK``) straight into the room.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import AMERICAN, Color, parse_square
from engine.game import Game
from game.modes import Mode, Room
from game.online.client import RoomClient
from game.online.protocol import Joined
from game.online.server import EmbeddedServer
from game.play.machine import Controller
from game.play.phases import ChoosingMode, HumanToMove
from game.render import Camera, Viewport, project
from game.render.geometry import PIECE_HEIGHT, square_center
from game.ui import Interface, compute_layout

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1280, 800)
SHOTS = Path(os.environ.get("I11_SHOTS", "/tmp/i11shots"))

# a program that reads the clipboard of its screen until it holds a game link, and prints it
READ_CLIPBOARD = """
import time, pygame
pygame.init()
pygame.display.set_mode((40, 40), pygame.HIDDEN)
end = time.monotonic() + 30
text = ""
while time.monotonic() < end and not text.startswith("checkers3d://"):
    pygame.event.pump()
    text = pygame.scrap.get_text() or ""
    time.sleep(0.05)
print(text, flush=True)
"""

# a program that puts its argument on the clipboard of its screen and keeps serving it until killed
OFFER_CLIPBOARD = """
import sys, time, pygame
pygame.init()
pygame.display.set_mode((40, 40), pygame.HIDDEN)
pygame.scrap.put_text(sys.argv[1])
print("ready", flush=True)
while True:
    pygame.event.pump()
    time.sleep(0.02)
"""


def wait_for_quietly(predicate, timeout: float):
    try:
        return wait_for(predicate, timeout, "")
    except AssertionError:
        return None


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def env_for(display: str, data: Path | None = None) -> dict:
    env = dict(os.environ, DISPLAY=display, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    if data is not None:
        env["CHECKERS3D_DATA_DIR"] = str(data)
    return env


class Side:
    """One player's window on its own screen: xdotool input, the saved game read back."""

    def __init__(self, display: str, data: Path):
        self.display, self.data = display, data
        self.env = env_for(display, data)
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "main.py", "--window", "1280x800", "--room-host", "127.0.0.1"],
                                     cwd=ROOT, env=self.env)
        out = subprocess.run(["xdotool", "search", "--sync", "--pid", str(self.proc.pid)], env=self.env,
                             capture_output=True, text=True, timeout=120)
        self.window = out.stdout.split()[0]

    def xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=20)
        time.sleep(0.15)

    def click(self, xy) -> None:
        self.xdo("mousemove", "--window", self.window, str(int(xy[0])), str(int(xy[1])))
        self.xdo("click", "1")

    def keys(self, *names: str) -> None:
        self.xdo("windowfocus", "--sync", self.window)
        for name in names:
            self.xdo("key", name)

    def type(self, text: str) -> None:
        self.xdo("windowfocus", "--sync", self.window)
        self.xdo("type", "--delay", "40", text)

    def saved(self) -> dict | None:
        try:
            return json.loads((self.data / "saved_game.json").read_text())
        except (FileNotFoundError, ValueError):
            return None

    def moves(self) -> list[str]:
        s = self.saved()
        return s["game"]["moves"] if s and s["mode"].get("room") else []

    def wait_moves(self, n: int) -> list[str]:
        return wait_for(lambda: len(self.moves()) == n and self.moves(), 60, f"{n} moves on {self.display}")

    def mode_hits(self, with_saved_game: bool = False) -> dict:
        """Everything pressable on the mode screen (holding the saved friend's game, once restored)."""
        c = Controller()
        if with_saved_game:
            s = self.saved()
            assert s is not None
            c.phase = ChoosingMode(left=HumanToMove(Game.from_dict(s["game"]), self.mode()))
        ui = Interface(SIZE)
        ui.render(c, 0.0)
        return {h.id: h.rect.center for h in ui.hits if h.enabled or h.why}  # (greyed: this one has no settings)

    def mode(self) -> Mode:
        s = self.saved()
        assert s is not None
        return Mode(human=Color[s["mode"]["human"].upper()], room=Room(s["mode"]["room"]["link"], ""))

    def game_hits(self) -> dict:
        """Everything pressable in the friend's game as saved (the table turned for the second player)."""
        s = self.saved()
        assert s is not None
        c = Controller()
        c.open_game(Game.from_dict(s["game"]), self.mode())
        ui = Interface(SIZE)
        ui.render(c, 0.0)
        return {h.id: h.rect.center for h in ui.hits}

    def cell(self, name: str):
        return self.game_hits()[f"cell:{parse_square(AMERICAN, name)}"]

    @staticmethod
    def square(name: str, flipped: bool, piece: bool = False):
        """Where a square (or a piece on it) is on the angled 3D board, seen from either side."""
        view = compute_layout(*SIZE).view
        vp = Viewport(view.x, view.y, view.width, view.height, frame_height=SIZE[1])
        x, z = square_center(AMERICAN, parse_square(AMERICAN, name))
        return project(Camera.preset("angled", flipped), AMERICAN.size, vp, (x, PIECE_HEIGHT if piece else 0.0, z))

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["import", "-window", "root", "-display", self.display, str(path)], check=True, timeout=60)

    def close(self) -> int | None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode


def helper(display: str, code: str, *args: str, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env_for(display), stdout=subprocess.PIPE,
                            text=True, **options)


def test_the_clipboard_carries_text_between_two_programs(display):
    offer = helper(display, OFFER_CLIPBOARD, "checkers3d://127.0.0.1:47800/AbCdEfGhIjKlMnOp")
    try:
        assert offer.stdout is not None and offer.stdout.readline().strip() == "ready"
        read = helper(display, READ_CLIPBOARD)
        out, _ = read.communicate(timeout=60)
        assert out.strip() == "checkers3d://127.0.0.1:47800/AbCdEfGhIjKlMnOp"
    finally:
        offer.kill()
        offer.wait(10)


@pytest.mark.skipif(not Path("/usr/bin/import").exists() and not Path("/usr/local/bin/import").exists(),
                    reason="needs ImageMagick's import for the screenshots")
def test_two_windows_play_each_other_through_a_link(display, second_display, tmp_path):
    host = Side(display, tmp_path / "host")
    guest = Side(second_display, tmp_path / "guest")
    helpers: list[subprocess.Popen] = []
    try:
        # the host opens a room (pressed once: it waits for the rules engine if need be) and copies its link
        def copied() -> str | None:
            # pressed again while the window may still be busy starting (that spot is empty on the room screen)
            host.click(host.mode_hits()["friend:play"])
            host.keys("ctrl+c")  # "Copy link", from the keyboard: nothing happens before the room is open
            out, _ = helper(display, READ_CLIPBOARD).communicate(timeout=60)
            return out.strip() if out.startswith("checkers3d://127.0.0.1:") else None

        link = wait_for(copied, 240, "the room's link on the host's clipboard")
        host.screenshot(SHOTS / "host-waiting.png")

        # the guest gets it on its own screen's clipboard, pastes it (Ctrl+V), types a stray key, takes it back
        offer = helper(second_display, OFFER_CLIPBOARD, link)
        helpers.append(offer)
        assert offer.stdout is not None and offer.stdout.readline().strip() == "ready"

        def joined() -> bool:
            guest.keys("Escape", "Escape")  # back to the mode screen, from wherever a press the busy window missed left it
            guest.click(guest.mode_hits()["friend:join"])
            guest.keys("ctrl+v")
            guest.type("x")
            guest.keys("BackSpace")
            guest.screenshot(SHOTS / "guest-join.png")
            guest.keys("Return")  # joins once the rules engine is ready
            return bool(wait_for_quietly(lambda: host.saved() and guest.saved() and guest.saved()["mode"].get("room"),
                                         60))

        wait_for(joined, 240, "both games to start")
        assert host.saved()["mode"]["human"] == "black" and guest.saved()["mode"]["human"] == "white"
        assert guest.saved()["mode"]["room"]["link"] == link
        for h in helpers:  # the clipboard's work is done
            h.kill()

        # host (Black) on the 3D board: c3, then its green dot d4
        host.click(host.square("c3", False, piece=True))
        host.click(host.square("d4", False))
        assert host.wait_moves(1) == guest.wait_moves(1) == ["11-15"]
        # guest (White) on its turned 3D board: f6, then its green dot e5
        time.sleep(1.0)  # the friend's move is animated first
        guest.click(guest.square("f6", True, piece=True))
        guest.click(guest.square("e5", True))
        assert guest.wait_moves(2) == host.wait_moves(2) == ["11-15", "22-18"]
        # the host must capture, d4xf6, in the "Button controls" table
        time.sleep(1.0)
        host.click(host.cell("d4"))
        host.click(host.cell("f6"))
        assert host.wait_moves(3) == guest.wait_moves(3) == ["11-15", "22-18", "15x22"]
        # the guest recaptures in its turned table: g7xe5
        time.sleep(1.0)
        guest.click(guest.cell("g7"))
        guest.click(guest.cell("e5"))
        assert guest.wait_moves(4) == host.wait_moves(4) == ["11-15", "22-18", "15x22", "25x18"]

        # the guest quits and starts again: the first screen offers the room back
        assert guest.close() == 0
        saved = guest.data / "saved_game.json"
        before = saved.stat().st_mtime_ns
        guest.start()

        def returned() -> bool:  # pressed again while the engine is still loading (no game to return to yet)
            guest.click(guest.mode_hits(with_saved_game=True)["friend:return"])
            return bool(wait_for_quietly(lambda: saved.stat().st_mtime_ns != before, 10))

        wait_for(returned, 240, "the guest back in the room")
        assert guest.moves() == ["11-15", "22-18", "15x22", "25x18"]
        time.sleep(1.0)
        host.click(host.cell("d2"))
        host.click(host.cell("c3"))
        assert host.wait_moves(5) == guest.wait_moves(5) == ["11-15", "22-18", "15x22", "25x18", "7-11"]
        time.sleep(1.5)
        host.screenshot(SHOTS / "host-game.png")
        guest.screenshot(SHOTS / "guest-game.png")
        assert host.proc.poll() is None and guest.proc.poll() is None
    finally:
        for h in helpers:
            h.kill()
            h.wait(10)
        codes = (host.close(), guest.close())
    assert codes == (0, 0), "both windows closed cleanly"


@pytest.mark.skipif(not Path("/usr/bin/import").exists() and not Path("/usr/local/bin/import").exists(),
                    reason="needs ImageMagick's import for the screenshots")
def test_two_windows_pair_through_play_someone_online_with_the_clocks(display, second_display, tmp_path):
    """Two players, each with a nickname and the room server in their settings, press "Play someone
    online" on their own screens; the server pairs them (colours drawn), each panel names the other and
    shows both clocks, and a move on the 3D board reaches the other side."""
    from game.online.clock import ClockSettings

    with EmbeddedServer("127.0.0.1", clock=ClockSettings()) as server:
        sides = []
        for name, screen in (("Ann", display), ("Bob", second_display)):
            data = tmp_path / name
            data.mkdir()
            (data / "settings.json").write_text(json.dumps({"room_server": server.url, "nickname": name}))
            sides.append(Side(screen, data))
        ann, bob = sides
        try:
            def in_room(side: Side) -> bool:
                saved = side.saved()
                return bool(saved and saved["mode"].get("room"))

            def paired() -> bool:  # both press; again (after Esc: Stop looking) if a press was lost while starting
                for side in sides:
                    side.keys("Escape")
                    side.click(side.mode_hits()["online:play"])
                return bool(wait_for_quietly(lambda: in_room(ann) and in_room(bob), 30))

            wait_for(paired, 300, "both paired")
            a, b = ann.saved()["mode"], bob.saved()["mode"]
            assert {a["human"], b["human"]} == {"black", "white"}, "colours drawn, one each"
            assert a["room"]["opponent"] == "Bob" and b["room"]["opponent"] == "Ann"
            first = ann if a["human"] == "black" else bob
            other = bob if first is ann else ann
            time.sleep(2.0)  # the game shown
            first.click(first.square("c3", False, piece=True))
            first.click(first.square("d4", False))
            assert first.wait_moves(1) == other.wait_moves(1) == ["11-15"]
            time.sleep(2.5)  # the move animated on the other side; a clock ticked
            ann.screenshot(SHOTS / "online-ann.png")
            bob.screenshot(SHOTS / "online-bob.png")
            assert ann.proc.poll() is None and bob.proc.poll() is None
        finally:
            codes = (ann.close(), bob.close())
    assert codes == (0, 0), "both windows closed cleanly"


def test_a_window_opened_with_a_link_goes_straight_into_the_room(open_app):
    with EmbeddedServer("127.0.0.1") as server:
        host = RoomClient(server.url)
        try:
            host.create("international")
            joined = wait_for(lambda: next((e for e in host.poll() if isinstance(e, Joined)), None), 30, "the room")
            app = open_app(SIZE, until=lambda app: app.controller.vs_friend, link=joined.link)
            c = app.controller
            assert c.mode.human is Color.BLACK and c.variant.name == "international"
            assert c.hand.second_side_near(c.variant, c.mode) and c.status() == "Your friend's move (White)…"
            assert c.mode.room.link == joined.link
        finally:
            host.close()


def test_a_link_given_at_launch_over_a_game_in_progress_asks_before_leaving_it(open_app, tmp_path):
    from game.files.storage import Storage
    from game.play.intents import Cancel, ConfirmLeave, JoinRoom

    game = Game(AMERICAN)
    for text in ("11-15", "23-19"):  # the player (Black) has moved: leaving the game counts as a loss
        game.play(text)
    Storage(tmp_path).save_game({"mode": {"level": "easy", "human": "black"}, "flipped": False, "over": False,
                                 "game": game.to_dict()})
    with EmbeddedServer("127.0.0.1") as server:
        host = RoomClient(server.url)
        try:
            host.create("american")
            joined = wait_for(lambda: next((e for e in host.poll() if isinstance(e, Joined)), None), 30, "the room")
            asked = lambda app: app.controller.asking is not None  # noqa: E731
            app = open_app(SIZE, until=asked, link=joined.link)
            c = app.controller
            assert c.asking.then == JoinRoom(joined.link) and c.asking.leaving.game.moves == game.moves
            app.ui.render(c, 0.0)
            assert "btn:Yes, new game" in {h.id for h in app.ui.hits}, "the question is on the mode screen"
            app.dispatch(Cancel())
            assert isinstance(c.phase, ChoosingMode) and not c.game.is_over, "kept"
            assert Storage(tmp_path).results() == {}
            app.dispatch(JoinRoom(joined.link))  # as the link would have, once more
            app.dispatch(ConfirmLeave())
            deadline = time.monotonic() + 30
            while not c.vs_friend:
                assert time.monotonic() < deadline, "the friend's game never began"
                app.step()
            assert c.mode.room.link == joined.link and c.game.moves == []
            assert c.storage.results()["american"]["easy"]["loss"] == 1
        finally:
            host.close()

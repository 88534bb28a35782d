"""The interface at every window size from 640x480 up, landscape and portrait: the mode screen and the
game panel in each phase, with both rule sets. No two widgets overlap, each lies inside the window or
inside the area that scrolls it, and every pressable thing can be scrolled into view and pressed."""

from __future__ import annotations

import dataclasses
import random

import pygame
import pytest
from support import position, sq

from engine import AMERICAN, INTERNATIONAL, Color
from engine.game import Game
from engine.pdn import read_text
from game.computer.analysis import GameScored, Line, LineFound
from game.files.pdn import Listing
from game.modes import Level, Mode, Room
from game.play import intents as it
from game.play.editor import Setup
from game.play.machine import Controller
from game.play.phases import EnteringLink, EnteringServer, GameOver, JoiningRoom, Resuming, WaitingForFriend
from game.ui import Interface
from game.ui.layout import BOARD_ASPECT
from game.ui.paint import Hit

SIZES = [(640, 480), (800, 600), (1000, 700), (1024, 768), (1280, 800), (1920, 1080),
         (900, 700), (760, 1000), (600, 900), (640, 960), (1080, 1920)]
VARIANTS = [AMERICAN, INTERNATIONAL]


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()


def played(variant, plies: int, seed: int = 7) -> Game:
    """A game of ``plies`` random moves (fewer if it ends)."""
    g, rng = Game(variant), random.Random(seed)
    while g.ply < plies and not g.is_over:
        g.play(rng.choice(g.position.legal_moves()))
    return g


def states(variant, make, opponent, storage, games_folder):
    """(name, controller, loading text) in the phases a player meets."""
    out = []
    c = Controller(storage=storage)
    c.settings.variant = variant.name
    out.append(("launch", c, "Preparing the rules engine — 12 s (the first run compiles it, about half a minute; "
                             "later runs take a moment)…"))
    c = Controller(storage=storage)
    c.settings.variant = variant.name
    c.handle(it.ToggleMoreRules())
    out.append(("mode, more rule sets open", c, None))
    c = Controller(storage=storage)
    c.settings.variant = "russian" if variant is AMERICAN else "thai"
    out.append(("mode, one of the more rule sets chosen", c, None))
    c = Controller(storage=storage)
    c.settings.variant = variant.name
    c.notes.append("Your saved game could not be read; it was set aside as saved_game.json.corrupt-1 and a new "
                   "one starts.")
    c.open_game(played(variant, 12), Mode())
    c.handle(it.ChangeMode())
    out.append(("mode, a game left and a note", c, None))
    c = Controller(storage=storage)
    c.phase = Resuming(variant.name, Mode(Level.HARD, variant.first_player))
    out.append(("resuming at launch", c, "Preparing the rules engine — 4 s (the first run compiles it, about half "
                                         "a minute; later runs take a moment)…"))

    c = make(variant=variant)
    out.append(("start, two players", c, None))
    c = make(level="hard", variant=variant)
    c.open_game(played(variant, 150), Mode(Level.HARD, variant.first_player))
    c.settings.square_numbers = True
    if c.legal_moves():
        c.handle(it.SquarePressed(c.legal_moves()[0].start))
    out.append(("long game, a piece selected", c, None))
    c = make(level="medium", human=variant.first_player.opponent, variant=variant)
    out.append(("the computer opens", c, None))
    c = make(level="easy", variant=variant)
    c.handle(it.OfferDraw())
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    out.append(("awaiting the draw answer", c, None))
    c = make(variant=variant)
    c.handle(it.OfferDraw())
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    c.notes.append("Couldn't save to /home/player/.local/share/checkers3d (No space left on device).")
    out.append(("a draw offered to the player, a note", c, None))
    c = make(level="easy", variant=variant)
    c.handle(it.Resign())
    out.append(("resign?", c, None))
    c = make(level="easy", variant=variant)
    c.handle(it.Resign())
    c.handle(it.ConfirmResign())
    out.append(("game over", c, None))
    c = make(level="hard", variant=variant)
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    c.handle(it.PlayAgain())
    out.append(("new game?", c, None))
    c = make(level="hard", variant=variant)
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    c.handle(it.ChangeMode())
    c.handle(it.StartGame(None))
    out.append(("mode screen, new game?", c, None))
    c = make(level="easy", variant=variant)
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    opponent.fail("the engine process stopped")
    c.update()
    out.append(("the computer failed", c, None))
    out.extend(study_states(variant, storage, games_folder))
    if variant is INTERNATIONAL:
        c = make(start=position("W", ["K46", "K47"], ["K5"], variant=INTERNATIONAL), variant=INTERNATIONAL)
        c.handle(it.OfferDraw())
        c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        out.append(("a countdown and a draw offered", c, None))
    out += friend_states(variant, storage)
    return out


LINK = "checkers3d://192.168.100.200:47800/Yc8VZ0m4kq1WnV3e"


def friend_states(variant, storage):
    """The room screens and a friend's game (drawn from their phases: no room server needed to draw)."""
    out = []
    room = Room(LINK, "q3x9AAAAAAAAAAAAAAAAAA")
    friend = Mode(human=variant.first_player.opponent, room=room)
    c = Controller(storage=storage)
    c.phase = WaitingForFriend(variant=variant.name, link=LINK, reach="192.168.100.200:47800", this_network=True)
    c.notice = "The link is on the clipboard: paste it to your friend"
    out.append(("waiting for a friend", c, None))
    c = Controller(storage=storage)
    c.phase = EnteringLink(text=LINK + "x" * 30, caret=20,
                           error=f"Couldn't join {LINK}: there is no room 'Yc8VZ0m4kq1WnV3e' (it may have expired)")
    out.append(("a link refused", c, None))
    c = Controller(storage=storage)
    c.phase = EnteringServer(text="", caret=0)
    out.append(("the room server", c, None))
    c = Controller(storage=storage)
    c.phase = JoiningRoom(link=LINK, returning=True)
    out.append(("returning to a room", c, None))
    c = Controller(storage=storage)
    c.open_game(played(variant, 30), friend)
    c.handle(it.ChangeMode())
    c.notes.append("Couldn't return to your friend's room: the room is gone")
    out.append(("mode, a friend's game left and a note", c, None))
    c = Controller(storage=storage)
    c.open_game(played(variant, 30), friend)
    out.append(("a friend's game", c, None))
    game = played(variant, 10)
    game.resign(variant.first_player)
    c = Controller(storage=storage)
    c.phase = GameOver(game, friend)
    out.append(("a friend's game over", c, None))
    return out


class Analyst:
    """Stands in for the engine where only the panel is looked at: answers what a test gives it."""

    def __init__(self):
        self.answers = []

    def analyze(self, game, seconds=None):
        pass

    def analyze_game(self, game):
        pass

    def stop(self):
        pass

    def poll(self):
        out, self.answers = self.answers, []
        return out


def study_states(variant, storage, games_folder):
    """The review with the analysis and the game report, a hint, the editor and the browser (issue 12)."""
    out = []
    game = played(variant, 40)
    analyst = Analyst()
    c = Controller(storage=storage, analyst=analyst)
    c.open_game(game, Mode(Level.MEDIUM, variant.first_player))
    c.handle(it.ReviewTo(17))
    c.handle(it.AnalyzeGame())
    scores = [(-1) ** ply * (ply * 13 % 250 - 90) for ply in range(len(game.positions))]
    best = [pos.move_text(pos.legal_moves()[0]) if pos.legal_moves() else "" for pos in game.positions]
    analyst.answers.append(GameScored(tuple(scores), tuple(best)))
    c.update()
    c.handle(it.ToggleAnalysis())
    pv, pos = [], game.positions[17]
    while len(pv) < 12 and pos.legal_moves():
        pv.append(pos.move_text(pos.legal_moves()[0]))
        pos = pos.play(pos.legal_moves()[0])
    analyst.answers.append(LineFound(Line(18, 135, tuple(pv), game.positions[17].parse_move(pv[0]))))
    c.update()
    out.append(("a review with the analysis and the game report", c, None))

    c = Controller(storage=storage, analyst=Analyst())
    c.open_game(played(variant, 9), Mode(Level.EASY, variant.first_player))
    c.handle(it.Hint())
    out.append(("a hint asked for", c, None))

    c = Controller(storage=storage)
    c.settings.variant = variant.name
    c.handle(it.EditPosition())
    start = Setup.start(variant)
    c.phase = dataclasses.replace(c.phase, setup=start.put(1, start.pieces[variant.squares]))
    out.append(("the editor, a man on its crowning row", c, None))

    games_folder.mkdir(parents=True, exist_ok=True)
    saved = games_folder / "2025-03-04 14.05 Someone with a rather long name - Checkers 3D (Hard).pdn"
    saved.write_text("*")
    storage.add_recent_file(str(saved))
    c = Controller(storage=storage)
    c.handle(it.OpenBrowser())
    out.append(("the browser's files", c, None))

    c = Controller(storage=storage)
    games = read_text("\n".join(f'[Event "Tournament {i}"][White "A very long player name {i}"][Black "B"]'
                                 '[Result "1-0"] *' for i in range(45)))
    c.handle(it.OpenBrowser())
    c.phase = dataclasses.replace(c.phase, listing=Listing.of_games(games, "many.pdn"))
    out.append(("a file's games", c, None))
    return out


def drawn(size, c, loading) -> Interface:
    ui = Interface(size)
    ui.render(c, 0.0, loading)
    return ui


def content_area(ui: Interface, views: tuple[str, ...]) -> pygame.Rect:
    """Where something inside the scroll views ``views`` may lie: the innermost view's whole content
    (scrolled), short of its scrollbar's track."""
    view = ui.views[views[-1]]
    return pygame.Rect(view.rect.x, view.rect.y - view.offset, view.track().x - view.rect.x,
                       max(view.content_h, view.rect.height))


def check_layout(ui: Interface, what: str) -> None:
    window = ui.surface.get_rect()
    widgets = [w for w in ui.widgets if w.rect.width > 0 and w.rect.height > 0]
    assert widgets, what
    for w in widgets:
        shown = w.visible.width > 0 and w.visible.height > 0
        assert not shown or window.contains(w.visible), f"{what}: {w.what} {w.rect} leaves the window"
        if w.views:
            area = content_area(ui, w.views)
            assert area.contains(w.rect), f"{what}: {w.what} {w.rect} is outside its scrolled area {area}"
        else:
            assert ui.layout.board.contains(w.rect), f"{what}: {w.what} {w.rect} leaves the board's bars"
    # the square numbers are drawn on the table's squares (test_panel checks them)
    shown = [w for w in widgets if w.visible.width > 0 and w.visible.height > 0 and not w.what.startswith("number:")]
    for i, a in enumerate(shown):
        for b in shown[i + 1:]:
            assert not a.visible.colliderect(b.visible), f"{what}: {a.what} {a.rect} overlaps {b.what} {b.rect}"


def reachable(ui: Interface, c, loading, hit: Hit, what: str) -> None:
    """Tab focus brings ``hit`` into view, where a press finds it."""
    ui.focus = hit.id
    ui.reveal(hit.id)
    ui.render(c, 0.0, loading)
    now = next(h for h in ui.hits if h.id == hit.id)
    assert ui.surface.get_rect().contains(now.visible), what
    assert now.visible == now.rect, f"{what}: {hit.id} can't be scrolled wholly into view"
    assert ui.hit_at(now.rect.center) is now or not now.enabled, f"{what}: a press on {hit.id} misses it"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_no_overlaps_and_everything_reachable_at_every_size(variant, make, opponent, storage, games_folder):
    for name, c, loading in states(variant, make, opponent, storage, games_folder):
        for size in SIZES:
            what = f"{variant.name}, {name}, {size[0]}x{size[1]}"
            ui = drawn(size, c, loading)
            check_layout(ui, what)
            for hit in list(ui.hits):
                if hit.views and not hit.id.startswith("cell:"):
                    reachable(ui, c, loading, hit, what)
                    check_layout(ui, f"{what}, scrolled to {hit.id}")
                elif hit.visible.width and hit.visible.height:  # a square scrolled away (640x480) is not shown
                    assert ui.surface.get_rect().contains(hit.visible), f"{what}: {hit.id}"


@pytest.mark.parametrize("size", SIZES)
def test_every_control_of_the_game_panel_is_there(make, size):
    c = make(level="easy")
    ui = drawn(size, c, None)
    ids = {h.id for h in ui.hits}
    assert {"btn:offer", "btn:Undo move", "btn:Resign", "btn:Play again", "btn:Change mode", "btn:Flip board",
            "view:angled", "view:top", "btn:deselect", "set:notation", "set:sound", "set:square_numbers",
            "set:animation_speed", f"cell:{sq('c3')}"} <= ids


def test_the_panel_scrolls_with_the_wheel_and_a_scrolled_away_button_is_not_pressed(make):
    c = make(level="easy")
    ui = drawn((800, 600), c, None)
    panel = ui.views["panel"]
    assert panel.scrollable and panel.thumb() is not None, "at 800x600 the game panel scrolls, with a scrollbar"
    settings = next(h for h in ui.hits if h.id == "set:sound")
    assert not ui.layout.panel.contains(settings.rect) and ui.hit_at(settings.rect.center) is None
    offer = next(h for h in ui.hits if h.id == "btn:offer")
    assert ui.scroll_at(ui.layout.panel.center, 10_000)
    ui.render(c, 0.0)
    settings = next(h for h in ui.hits if h.id == "set:sound")
    assert ui.hit_at(settings.rect.center) is settings, "scrolled to the end, the settings can be pressed"
    assert ui.hit_at(offer.rect.center) is None or ui.hit_at(offer.rect.center).id != "btn:offer"
    assert not ui.scroll_at(ui.layout.panel.center, 100), "nothing more below"
    assert ui.scroll_at(ui.layout.panel.center, -10_000) and panel.offset == 0


def test_dragging_the_scrollbar_thumb_scrolls_the_panel(make):
    c = make(level="easy")
    ui = drawn((640, 480), c, None)
    panel = ui.views["panel"]
    thumb = panel.thumb()
    assert thumb is not None and ui.grab(thumb.center)
    ui.drag_to((thumb.centerx, thumb.centery + 1000))
    ui.release()
    assert panel.offset == panel.max_offset > 0
    assert ui.grab(panel.track().midtop), "a press on the track above the thumb moves it there"
    ui.release()
    assert panel.offset < panel.max_offset


def test_the_move_list_scrolls_follows_the_latest_move_and_shows_its_scrollbar(make, opponent):
    c = make(level="easy")
    c.open_game(played(AMERICAN, 60), Mode(Level.EASY, AMERICAN.first_player))
    if c.game.turn is not Color.BLACK:  # the player's move
        c.game.undo()
    ui = drawn((1000, 700), c, None)
    moves = ui.views["moves"]
    rows = [w for w in ui.widgets if "moves" in w.views and w.visible.height > 0]
    assert moves.scrollable and moves.thumb() is not None
    assert len({w.rect.y for w in rows}) >= 5, "at 1000x700 the list shows at least five rows"
    last = c.move_text(c.game.moves[-1], c.game.positions[-2])
    assert any(w.what == f"text:{last}" and w.visible == w.rect for w in rows), "the latest move is in view"

    assert ui.scroll_at(moves.rect.center, -10_000) and moves.offset == 0
    ui.render(c, 0.0)
    assert any(w.what == "text:1." for w in ui.widgets if w.visible.height > 0), "the first move is in view"
    assert ui.views["panel"].offset == 0, "the wheel over the list scrolls the list"
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    ui.render(c, 1.0)
    assert moves.offset == moves.max_offset, "a new move brings the end of the list back into view"


def test_tab_scrolls_the_focused_button_into_view(make):
    c = make(level="easy")
    ui = drawn((640, 480), c, None)
    while ui.focus != "set:sound":
        ui.move_focus(1)
    ui.render(c, 0.0)
    sound = next(h for h in ui.hits if h.id == "set:sound")
    assert ui.layout.panel.contains(sound.rect) and ui.focused_intent() == it.ToggleSetting("sound")


def test_the_panel_goes_below_the_board_where_beside_it_the_board_would_be_under_half_the_window():
    """Issue 24 (4): at 640x480 the board was 300 px beside a 340 px panel. Beside the panel the
    board is at least half the window's width; below it (narrow and portrait windows) the 3D board
    is at least half the window in one dimension, and the panel keeps a strip that scrolls."""
    from game.ui import compute_layout
    from game.ui.layout import _board_size

    for size in [(640, 480), (660, 500), (600, 900), (760, 1000), (640, 960), (1080, 1920)]:
        layout = compute_layout(*size)
        assert layout.narrow and layout.panel.y == layout.board.bottom, size
        assert layout.panel.height >= 100 and layout.panel.bottom == size[1], size
    for size in [(700, 500), (800, 600), (1024, 768), (1280, 800), (1920, 1080)]:
        layout = compute_layout(*size)
        assert not layout.narrow and layout.panel.x == layout.board.right, size
    for width in range(640, 2000, 40):
        for height in range(480, 2000, 40):
            layout = compute_layout(width, height)
            if layout.narrow:
                assert _board_size(layout) >= min(width, height) / 2, (width, height)
            else:
                assert layout.board.width >= width / 2, f"{width}x{height}: the board is narrower than the panel"
            assert _board_size(layout) >= 0.45 * min(width, height * BOARD_ASPECT), (width, height)


def test_arrange_gives_the_leftover_to_fill_sections_and_drops_optional_ones_that_do_not_fit():
    from game.ui.column import Section, arrange

    def s(name, **kw):
        return Section(name, lambda *a: 0, **kw)

    a, help_, spacer, b = s("a"), s("help", optional=True), s("spacer", fill=True), s("b")
    placed = arrange([(a, 100), (help_, 50), (spacer, 0), (b, 40)], 400, gap=10)
    assert [(p.section.name, p.y, p.h) for p in placed] == [("a", 0, 100), ("help", 110, 50), ("spacer", 170, 180),
                                                            ("b", 360, 40)], "b ends at the bottom"
    placed = arrange([(a, 100), (help_, 50), (spacer, 0), (b, 40)], 170, gap=10)
    assert [(p.section.name, p.y, p.h) for p in placed] == [("a", 0, 100), ("spacer", 110, 10), ("b", 130, 40)]
    placed = arrange([(a, 300), (spacer, 0), (b, 40)], 170, gap=10)
    assert placed[-1].y + placed[-1].h == 360, "too tall: the column scrolls"


@pytest.mark.parametrize("size", [(640, 480), (660, 500)])
def test_the_mode_screen_keeps_its_panel_beside_where_the_game_puts_it_below(size, make):
    """The mode screen is read, not played on: at 640x480 its panel stays beside the board, so the
    levels are on the first screen without scrolling; the game there puts the panel below."""
    c = Controller()
    ui = drawn(size, c, None)
    ui.render(c, 0.0)
    assert not ui.layout.narrow
    for level in ("level:easy", "level:medium", "level:hard"):
        hit = next(h for h in ui.hits if h.id == level)
        assert ui.surface.get_rect().contains(hit.rect), level
    game = make()
    ui.render(game, 0.0)
    assert ui.layout.narrow, "in the game, the board first"

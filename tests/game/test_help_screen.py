"""The help screen, the keys overlay and the refused moves explained (issue 14): how the controller enters
and leaves the Rules and Controls with the game left as it was, the refusal notice naming its rule in
both rule sets, the screen laid out without overlaps from 640x480 up, scrolling, keys, and every
diagram drawn with its move where the diagram's data says."""

from __future__ import annotations

import itertools

import pygame
import pytest
from support import position, sq

from engine import AMERICAN, INTERNATIONAL, Color, square_coords
from game.help import KEYS, Style, controls_page, rules_page
from game.play import intents as it
from game.play.hand import WHEN_YOU_CAN_CAPTURE
from game.play.machine import Controller
from game.play.phases import ConfirmingResign, HelpPage, HumanToMove, OpponentToMove, ReadingHelp, Screen
from game.ui import Interface
from game.ui import diagram as dg
from game.ui import theme as th
from game.ui.help_screen import HEADER_H, JUMP_MARGIN, Scroll, _Link, _Picture, _Text
from game.window.input import WHEEL_PIXELS, Input

B, W = Color.BLACK, Color.WHITE
SIZES = [(640, 480), (800, 600), (1024, 640), (1280, 800), (700, 1000), (1920, 1080)]
RULES = HelpPage.RULES


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()


def render(c: Controller, size=(1280, 800), ui: Interface | None = None) -> Interface:
    ui = ui or Interface(size)
    ui.render(c, 0.0)
    return ui


def hit_ids(ui: Interface) -> dict:
    return {h.id: h for h in ui.hits}


def press(c: Controller, *names: str, variant=AMERICAN) -> list[str]:
    """Press the squares ``names`` in turn; the sounds the window is asked to play."""
    return [sound for name in names for sound in c.handle(it.SquarePressed(sq(name, variant))).sounds]


# --- entering and leaving the help screen -------------------------------------------------------

def test_rules_from_the_mode_screen_show_the_chosen_rules_and_back_returns(storage):
    c = Controller(storage=storage)
    c.handle(it.ChooseRules("international"))
    before = c.phase
    c.handle(it.OpenHelp())
    assert c.screen is Screen.HELP
    assert c.phase == ReadingHelp(before, "international", RULES, None)
    c.handle(it.CloseHelp())
    assert c.phase is before and c.screen is Screen.MODE


def test_help_over_a_game_keeps_the_game_its_selection_and_ignores_the_board(make):
    c = make()
    press(c, "c3")
    game, before, moves = c.game, c.phase, list(c.game.moves)
    c.handle(it.OpenHelp(HelpPage.CONTROLS))
    assert isinstance(c.phase, ReadingHelp) and c.phase.variant == "american" and c.phase.back is before
    for intent in (it.SquarePressed(sq("d4")), it.PlayMoveFromList(c.game.position.legal_moves()[0]), it.Undo(),
                   it.Resign(), it.ChangeMode(), it.PlayAgain(), it.CursorPress(), it.ShowKeys()):
        c.handle(intent)  # the board is hidden: none of these does anything
    assert c.game is game and list(game.moves) == moves and c.screen is Screen.HELP and not c.keys_shown
    c.handle(it.OpenHelp(RULES, "crowning"))  # another page: Back still leads to the game
    assert c.phase.section == "crowning" and c.phase.back is before
    c.handle(it.Cancel())  # Esc
    assert c.phase is before and c.hand.selected == sq("c3") and c.game is game
    c.handle(it.OpenHelp())
    with pytest.raises(TypeError):
        c.handle("not an intent")  # type: ignore[arg-type]


def test_the_computer_thinks_on_and_its_move_waits_for_the_player_to_come_back(make, opponent):
    c = make(level="medium", human=W)  # the computer (Black) opens
    thinking = c.phase
    assert isinstance(thinking, OpponentToMove) and len(opponent.requests) == 1
    c.handle(it.OpenHelp())
    opponent.reply_first_legal()
    c.update()
    assert c.screen is Screen.HELP and c.game.ply == 0, "the reply waits"
    assert opponent.cancels == 0, "the search was not disturbed"
    c.handle(it.CloseHelp())
    assert c.phase is thinking
    c.update()
    assert c.game.ply == 1 and isinstance(c.phase, HumanToMove)


def test_help_opened_over_the_resign_question_returns_to_it(make):
    c = make(level="easy")
    c.handle(it.Resign())
    question = c.phase
    assert isinstance(question, ConfirmingResign)
    c.handle(it.OpenHelp())
    c.handle(it.Cancel())
    assert c.phase is question, "Esc on the help screen goes back; it does not answer the question"


def test_a_game_restored_while_the_player_reads_stays_behind_the_help(storage, make):
    c = make(level="easy")
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))  # saved
    later = Controller(storage=storage)
    later.handle(it.OpenHelp())
    assert later.restore()
    assert isinstance(later.phase, ReadingHelp) and later.phase.variant == "american"
    later.handle(it.CloseHelp())
    assert later.screen is Screen.GAME and later.game.ply == 1


def test_the_keys_overlay_shows_during_a_game_only(make):
    c = Controller()
    c.handle(it.ShowKeys())
    assert not c.keys_shown, "not on the mode screen"
    c = make()
    c.handle(it.ShowKeys())
    assert c.keys_shown
    c.handle(it.HideKeys())
    assert not c.keys_shown


# --- refused moves, in the words of the rules ---------------------------------------------------

REFUSALS = [
    # (variant, start position (turn, white, black), presses, notice, rule)
    (AMERICAN, ("B", ["d4", "h6"], ["c3", "g1"]), ["g1"],
     WHEN_YOU_CAN_CAPTURE + ": the gold rings show which pieces can", "compulsory-capture"),
    (AMERICAN, ("B", ["d4", "h6"], ["c3", "g1"]), ["c3", "b4"],
     "You must capture: no plain move is allowed while a capture is possible", "compulsory-capture"),
    (AMERICAN, ("B", ["g7"], ["d4"]), ["d4", "c3"], "Men move only forward", "men-move"),
    (AMERICAN, ("B", ["g7"], ["d4"]), ["g7"], "That's a white piece: Black is to move", "board"),
    (AMERICAN, ("B", ["d4", "f2"], ["e3"]), ["e3", "g1"], "A man captures only forward in American Checkers",
     "men-capture"),
    (INTERNATIONAL, ("W", ["a3", "e3"], ["b4", "f4", "h6"]), ["a3"],
     "In International Draughts you must take the most pieces: this piece can take only 1, another capture takes 2",
     "maximum-capture"),
    (INTERNATIONAL, ("W", ["e3"], ["d4", "f4", "h6"]), ["e3", "c5"],
     "In International Draughts you must take the most pieces: this capture takes 1, another takes 2",
     "maximum-capture"),
    (INTERNATIONAL, ("W", ["c3", "h2"], ["d4", "a9"]), ["h2"],
     WHEN_YOU_CAN_CAPTURE + ": the gold rings show which pieces can", "compulsory-capture"),
    (INTERNATIONAL, ("W", ["Kd4", "f6"], ["a9"]), ["d4", "g7"],
     "A king can't pass over pieces: the way to that square is blocked", "kings-move"),
]


@pytest.mark.parametrize("variant, start, presses, notice, rule", REFUSALS,
                         ids=[f"{v.name}-{r}-{i}" for i, (v, _s, _p, _n, r) in enumerate(REFUSALS)])
def test_a_refused_move_says_why_and_pressing_the_notice_opens_that_rule(make, variant, start, presses, notice, rule):
    c = make(start=position(*start, variant=variant), variant=variant)
    sounds = press(c, *presses, variant=variant)
    assert c.notice == notice and c.notice_rule == rule and sounds[-1] == "illegal"
    assert rule in rules_page(variant).section_ids
    ui = render(c)
    link = hit_ids(ui)["notice:rule"]
    assert link.intent == it.OpenHelp(RULES, rule)
    assert ui.surface.get_rect().contains(link.rect)
    c.handle(link.intent)
    assert c.phase.section == rule and c.phase.variant == variant.name
    ui.render(c, 0.0)
    span = ui.help.layout.section(rule)
    assert ui.help.offset == min(span.top - JUMP_MARGIN, ui.help.max_offset) and ui.help.current_section() == rule


def test_a_refused_drop_says_why(make):
    c = make(start=position("B", ["g7"], ["d4"]))
    c.handle(it.DragStarted(sq("d4")))
    c.handle(it.PieceDropped(sq("d4"), sq("c3")))
    assert c.notice == "Men move only forward" and c.notice_rule == "men-move" and not c.game.moves
    c.handle(it.DragStarted(sq("d4")))
    c.handle(it.PieceDropped(sq("d4"), sq("f6")))
    assert c.notice == "A man moves one square at a time, diagonally forward"


def test_only_a_refusal_is_pressable(make):
    c = make(start=position("B", ["g7"], ["d4"]))
    press(c, "d4", "c3")
    c.handle(it.Deselect())
    assert c.notice is None and c.notice_rule is None
    c.handle(it.OfferDraw())
    assert c.notice and c.notice_rule is None
    assert "notice:rule" not in hit_ids(render(c))


# --- the screen: buttons, layout, scrolling -------------------------------------------------------

@pytest.mark.parametrize("size", [(1280, 800), (800, 600), (640, 480)])
def test_the_mode_screen_and_the_game_panel_open_the_rules(make, size):
    h = hit_ids(render(Controller(), size))
    assert h["mode:rules"].intent == it.OpenHelp(RULES) and h["mode:controls"].intent == it.OpenHelp(HelpPage.CONTROLS)
    h = hit_ids(render(make(), size))
    assert h["btn:rules"].intent == it.OpenHelp(RULES)


def _no_overlaps(rects: list[pygame.Rect], what: str) -> None:
    for a, b in itertools.combinations(rects, 2):
        assert not a.colliderect(b), f"{what}: {a} and {b} overlap"


PAGES = [(v, p) for v in (AMERICAN, INTERNATIONAL) for p in (RULES, HelpPage.CONTROLS)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("variant, page", PAGES, ids=[f"{v.name}-{p}" for v, p in PAGES])
def test_every_page_lays_out_without_overlap_or_cut_at_every_size(variant, page, size):
    c = Controller()
    c.settings.variant = variant.name
    c.handle(it.OpenHelp(page))
    ui = render(c, size)
    screen = ui.help
    layout = screen.layout
    width = screen.view.width
    texts = [i.rect for i in layout.items if isinstance(i, _Text)]
    pictures = [i.rect for i in layout.items if isinstance(i, _Picture)]
    links = [i.rect for i in layout.items if isinstance(i, _Link)]
    for r in texts + pictures + links:
        assert r.x >= 0 and r.right <= width, f"{r} is cut at the page's width {width}"
    _no_overlaps(texts + pictures + links, "page")
    assert {s.id for s in layout.sections} >= set(rules_page(variant).section_ids if page is RULES
                                                  else controls_page(variant).section_ids)
    assert all(s.top < s.bottom <= layout.height for s in layout.sections)
    # every diagram of the page is in the layout, at least 200 pixels wide
    diagrams = [d for s in (rules_page(variant) if page is RULES else controls_page(variant)).sections for d in s.diagrams]
    assert [i.diagram for i in layout.items if isinstance(i, _Picture)] == diagrams
    assert all(r.width >= 200 for r in pictures)
    # the screen's pressable things, scrolled anywhere
    for end in (-1, 1):
        ui.navigate(Scroll(end=end))
        ui.render(c, 0.0)
        window = ui.surface.get_rect()
        pressable = [h.visible for h in ui.hits]
        assert all(window.contains(r) for r in pressable)
        _no_overlaps([h.visible for h in ui.hits], "buttons")
        assert {"help:back", "help:rules", "help:controls"} <= set(hit_ids(ui))


def test_the_contents_column_lists_every_section_and_jumps_to_it():
    c = Controller()
    c.settings.variant = "international"
    c.handle(it.OpenHelp())
    ui = render(c, (1280, 800))
    entries = {h.id: h for h in ui.hits if h.id.startswith("toc:")}
    assert [k.removeprefix("toc:") for k in entries] == list(rules_page(INTERNATIONAL).section_ids)
    assert all(h.rect.right <= ui.help.view.x and h.rect.y >= HEADER_H for h in entries.values())
    c.handle(entries["toc:draw-endgame"].intent)  # the entry's intent, as a press sends it
    ui.render(c, 0.0)
    assert ui.help.current_section() == "draw-endgame"
    assert ui.help.offset == min(ui.help.layout.section("draw-endgame").top - JUMP_MARGIN, ui.help.max_offset)


def test_narrow_windows_open_the_page_with_its_contents():
    c = Controller()
    c.handle(it.OpenHelp(HelpPage.CONTROLS))
    ui = render(c, (640, 480))
    assert ui.help.view.x == 0
    links = [i for i in ui.help.layout.items if isinstance(i, _Link)]
    assert [link.section for link in links] == [*controls_page(AMERICAN).section_ids, "keys"]
    visible = {h.id for h in ui.hits if h.id.startswith("toc:")}
    assert visible and visible <= {f"toc:{link.section}" for link in links}


def test_scrolling_by_wheel_keys_sections_and_scrollbar():
    c = Controller()
    c.handle(it.OpenHelp())
    ui = render(c, (800, 600))
    s = ui.help
    assert s.offset == 0 and s.max_offset > 2 * s.view.height
    ui.navigate(Scroll(lines=3))
    assert s.offset == 60
    ui.navigate(Scroll(pages=1))
    assert s.offset == 60 + s.view.height - 40
    ui.navigate(Scroll(end=1))
    assert s.offset == s.max_offset
    ui.navigate(Scroll(lines=10))
    assert s.offset == s.max_offset, "never past the end"
    ui.navigate(Scroll(end=-1))
    ui.navigate(Scroll(sections=1))
    first = s.layout.sections[0]
    assert s.current_section() == first.id and s.offset == first.top - JUMP_MARGIN
    ui.navigate(Scroll(sections=1))
    assert s.current_section() == s.layout.sections[1].id
    ui.navigate(Scroll(sections=-1))
    assert s.current_section() == first.id
    ui.navigate(Scroll(sections=-1))
    assert s.offset == 0, "before the first section, the top of the page"
    c.handle(it.GoToSection("draw-offers"))
    ui.render(c, 0.0)
    assert s.current_section() == "draw-offers"
    ui.navigate(Scroll(lines=20))
    c.handle(it.GoToSection("draw-offers"))  # pressed again after scrolling on: there again
    ui.render(c, 0.0)
    assert s.current_section() == "draw-offers" and s.target == "draw-offers"
    ui.navigate(Scroll(end=-1))
    ui.render(c, 0.0)
    thumb, track = s.scroll.thumb(), s.scroll.track()
    assert thumb is not None and track.right <= 800
    assert ui.grab(thumb.center)
    ui.drag_to((thumb.centerx, track.bottom + 50))
    ui.release()
    assert s.offset == s.max_offset, "the thumb dragged to the bottom of its track shows the end"
    assert ui.scroll_at((5, 5), -WHEEL_PIXELS) and s.offset == s.max_offset - WHEEL_PIXELS, \
        "the wheel scrolls the page wherever the pointer is"


def test_the_page_follows_its_section_across_a_resize():
    c = Controller()
    c.handle(it.OpenHelp(RULES, "kings-capture"))
    ui = render(c, (1280, 800))
    ui.navigate(Scroll(lines=1))  # reading on, no longer at the section's jump
    ui.render(c, 0.0)
    ui.resize((700, 900))
    ui.render(c, 0.0)
    assert ui.help.current_section() == "kings-capture"


def test_the_screen_redraws_only_when_something_changed():
    c = Controller()
    c.handle(it.OpenHelp())
    ui = Interface((1280, 800))
    assert ui.render(c, 0.0) and ui.full_page and ui.redrawn == [ui.surface.get_rect()]
    assert not ui.render(c, 0.5)
    ui.navigate(Scroll(lines=1))
    assert ui.render(c, 1.0)
    c.handle(it.CloseHelp())
    assert ui.render(c, 1.5) and not ui.full_page and ui.layout.panel in ui.redrawn


@pytest.mark.parametrize("size", [(1280, 800), (640, 480)])
def test_the_screens_parts_cover_the_window_and_scrolling_changes_only_the_page(size):
    c = Controller()
    c.handle(it.OpenHelp())
    ui = render(c, size)
    parts = ui.help.regions()
    assert sum(r.width * r.height for r in parts) == size[0] * size[1]
    assert all(ui.surface.get_rect().contains(r) for r in parts)
    _no_overlaps(parts, "parts")
    before = [pygame.image.tobytes(ui.surface.subsurface(r), "RGBA") for r in parts]
    ui.navigate(Scroll(lines=1))
    ui.render(c, 1.0)
    after = [pygame.image.tobytes(ui.surface.subsurface(r), "RGBA") for r in parts]
    assert [a == b for a, b in zip(before, after, strict=True)] == [True] * (len(parts) - 1) + [False]


def test_diagrams_wait_for_the_rules_engine():
    c = Controller()
    c.handle(it.OpenHelp(RULES, "men-move"))
    ui = Interface((1280, 800))
    ui.render(c, 0.0, loading="Preparing the rules engine…")
    picture = next(i for i in ui.help.layout.items if isinstance(i, _Picture) and i.diagram is
                   rules_page(AMERICAN).section("men-move").diagrams[0])
    r = picture.rect.move(ui.help.view.x, ui.help.view.y - ui.help.offset)
    assert ui.surface.get_at((r.x + 4, r.bottom - 10))[:3] == th.CARD, "a placeholder until the engine is loaded"
    ui.render(c, 1.0)
    assert ui.surface.get_at((r.x + 4, r.bottom - 10))[:3] != th.CARD


# --- the input layer -------------------------------------------------------------------------------

@pytest.fixture
def events(monkeypatch):
    """The event queue without a window (SDL's dummy video driver), shut again afterwards."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    yield
    pygame.display.quit()


def key(k: int, text: str = "", mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text, scancode=0))


def test_f1_question_mark_and_the_page_keys(events, make):
    c = make()
    ui = render(c)
    inp = Input(ui, lambda x, y: (None, False), lambda square: False)
    key(pygame.K_F1)
    key(pygame.K_SLASH, "?", pygame.KMOD_SHIFT)
    assert inp.poll() == [it.OpenHelp(), it.ShowKeys()]
    c.handle(it.ShowKeys())
    ui.render(c, 0.0)
    assert ui.keys_shown
    key(pygame.K_a, "a")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1))
    assert inp.poll() == [it.HideKeys(), it.HideKeys()], "any key or press closes the keys, and does nothing else"
    c.handle(it.HideKeys())
    c.handle(it.OpenHelp())
    ui.render(c, 0.0)
    s = ui.help
    page = s.view.height - 40
    for k, offset in ((pygame.K_PAGEDOWN, page), (pygame.K_PAGEDOWN, 2 * page), (pygame.K_PAGEUP, page),
                      (pygame.K_HOME, 0), (pygame.K_DOWN, 40), (pygame.K_UP, 0), (pygame.K_END, s.max_offset)):
        key(k)
        assert inp.poll() == [] and s.offset == offset, pygame.key.name(k)
    key(pygame.K_HOME)
    assert inp.poll() == []
    after = s.layout.sections[0]  # the first title below the top of the view
    key(pygame.K_RIGHT)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, precise_x=0.0, precise_y=-1.0, flipped=False))
    assert inp.poll() == [] and s.offset == after.top - JUMP_MARGIN + WHEEL_PIXELS, "the next section, then a notch down"
    key(pygame.K_ESCAPE)
    key(pygame.K_z, "z", pygame.KMOD_CTRL)
    assert inp.poll() == [it.Cancel(), it.Undo()]
    thumb = s.scroll.thumb()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=thumb.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(thumb.centerx, thumb.centery + 30), rel=(0, 30),
                                         buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(thumb.centerx, thumb.centery + 30), button=1))
    before = s.offset
    assert inp.poll() == [] and s.offset > before, "the thumb drags the page"


def test_tab_reaches_the_header_and_contents_and_enter_presses(make):
    c = make()
    c.handle(it.OpenHelp())
    ui = render(c)
    ui.move_focus(1)
    assert ui.focused_intent() == it.CloseHelp()
    ui.move_focus(1)
    ui.move_focus(1)
    assert ui.focused_intent() == it.OpenHelp(HelpPage.CONTROLS)
    ui.move_focus(1)
    assert ui.focused_intent() == it.GoToSection(rules_page(AMERICAN).section_ids[0])


def test_the_keys_card_fits_the_smallest_window(make):
    c = make()
    c.handle(it.ShowKeys())
    ui = render(c, (640, 480))
    assert ui.keys_shown and ui.over_view
    # the card's gold edge is inside the window on all four sides
    xs = [x for x in range(640) if ui.surface.get_at((x, 240))[:3] == th.ACCENT]
    ys = [y for y in range(480) if ui.surface.get_at((320, y))[:3] == th.ACCENT]
    assert xs and ys and min(xs) > 0 and max(xs) < 639 and min(ys) > 0 and max(ys) < 479
    assert len(KEYS) >= 9


# --- the diagrams show their moves ----------------------------------------------------------------

def _near(colour, target, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], target, strict=True))


def _near_at(picture: pygame.Surface, x: float, y: float, target, tolerance=40) -> bool:
    """Whether ``target`` is at (x, y) or a pixel next to it (a thin line's edge falls between pixels)."""
    return any(_near(picture.get_at((round(x) + dx, round(y) + dy)), target, tolerance) for dx in (-1, 0, 1)
               for dy in (-1, 0, 1))


DIAGRAMS = [(v, s.id, i, d) for v in (AMERICAN, INTERNATIONAL) for s in rules_page(v).sections
            for i, d in enumerate(s.diagrams)]


@pytest.mark.parametrize("variant, sid, i, diagram", DIAGRAMS, ids=[f"{v.name}-{s}-{i}" for v, s, i, _ in DIAGRAMS])
def test_every_diagram_draws_its_position_and_its_moves(variant, sid, i, diagram):
    size = 260
    picture = dg.diagram_picture(diagram, variant, size)
    board = dg.board_rect(variant, size)
    cell = board.width / variant.size
    assert picture.get_width() == board.right and picture.get_height() == dg.picture_height(variant, size)
    pos = diagram.position(variant)
    on_lines = {sq for ln in diagram.lines for sq in ln.route}
    for square, piece in pos.pieces().items():  # every piece, in its side's colour
        if square in on_lines:
            continue
        x, y = dg.square_center(variant, board, square)
        fill, _ = th.piece_colours(variant, piece.color)
        assert _near(picture.get_at((int(x), int(y + cell * 0.22))), fill, 30), (sid, square)
    def along(line, colour):  # points a third and a half of the way along each step of the route
        points = dg.path_points(diagram, variant, size, line)
        hits = []
        for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
            for t in (0.35, 0.5):
                hits.append(_near_at(picture, ax + (bx - ax) * t, ay + (by - ay) * t, colour))
        return hits
    for line in diagram.lines:
        if line.style is Style.PATH:
            assert all(along(line, dg.ORANGE)), f"{sid}: the orange path along {line.route}"
            move = diagram.move(variant, line)
            for square in move.captured:  # a red ring round each captured piece
                x, y = dg.square_center(variant, board, square)
                ring = [picture.get_at((round(x + dx * cell * 0.47), round(y + dy * cell * 0.47)))
                        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
                assert sum(_near(p, dg.CAPTURED, 60) for p in ring) >= 2, (sid, square)
        elif line.style is Style.ARROW:
            covered = any(set(zip(line.route, line.route[1:], strict=False)) & set(zip(p.route, p.route[1:], strict=False))
                          or _inside(variant, line, p) for p in diagram.lines if p.style is Style.PATH)
            if not covered:
                assert any(along(line, dg.GREEN)), f"{sid}: the green arrow {line.route}"
        else:
            x, y = dg.square_center(variant, board, line.route[-1])
            arm = cell * 0.12
            cross = [picture.get_at((round(x + dx * arm), round(y + dy * arm))) for dx in (-1, 1) for dy in (-1, 1)]
            assert all(_near(p, dg.REFUSED, 50) for p in cross), f"{sid}: the cross of {line.route}"
    for square in diagram.rings:
        x, y = dg.square_center(variant, board, square)
        assert _near(picture.get_at((round(x), round(y - cell * 0.485))), dg.GOLD, 60), (sid, square)
    for square in diagram.marks:
        file, rank = square_coords(variant, square)
        corner = (board.x + round(file * cell) + 2, board.y + round((variant.size - 1 - rank) * cell) + 2)
        assert _near(picture.get_at(corner), dg.MARKED, 12), (sid, square)


def _inside(variant, arrow, path) -> bool:
    """Whether ``arrow`` sets off along the diagonal the orange ``path`` starts on (drawn under it)."""
    if arrow.route[0] != path.route[0]:
        return False
    (fa, ra), (fb, rb), (fp, rp) = (square_coords(variant, s) for s in (arrow.route[0], arrow.route[1], path.route[1]))
    return (fb - fa) * (rp - ra) == (rb - ra) * (fp - fa) and (fb - fa) * (fp - fa) > 0


def test_a_diagram_picture_is_made_once_per_size():
    d = rules_page(AMERICAN).section("men-move").diagrams[0]
    assert dg.diagram_picture(d, AMERICAN, 240) is dg.diagram_picture(d, AMERICAN, 240)
    assert dg.diagram_picture(d, AMERICAN, 300).get_width() > 240



@pytest.mark.parametrize("size", SIZES + [(600, 900), (1080, 1920)])
def test_every_key_of_the_keys_card_can_be_read_and_the_footer_covers_none(make, size):
    """Issue 24 (1): the card stopped at "Ctrl+C, Ctrl+Shift+C" at 1280x800 and the footer lay over the
    last row. Every key's cap and words come wholly into view with the wheel, and the footer stays
    clear of every row shown."""
    c = make()
    c.handle(it.ShowKeys())
    ui = render(c, size)
    seen: set[str] = set()
    for _ in range(60):
        shown = [w for w in ui.widgets if w.what.startswith("keys:") and w.what != "keys:footer"]
        footer = next(w for w in ui.widgets if w.what == "keys:footer")
        assert ui.surface.get_rect().contains(footer.rect), size
        for w in shown:
            assert not footer.rect.colliderect(w.visible), f"{size}: the footer covers {w.label!r}"
            if w.visible == w.rect:
                seen.add(w.label)
        if not ui.scroll_at(ui.surface.get_rect().center, WHEEL_PIXELS):
            break
        ui.render(c, 0.0)
    for k in KEYS:
        assert k.label.split()[0] in " ".join(seen), f"{size}: {k.label!r} never comes into view"
        assert k.action.split()[-1] in " ".join(seen), f"{size}: the end of {k.action!r} never comes into view"


def test_the_wheel_scrolls_the_keys_card_not_the_board(events, make):
    c = make()
    c.handle(it.ShowKeys())
    ui = render(c, (640, 480))
    inp = Input(ui, lambda x, y: (None, False), lambda square: False)
    board = ui.layout.view.center
    pygame.mouse.set_pos(board)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, precise_x=0.0, precise_y=-1.0, flipped=False))
    key(pygame.K_DOWN)
    assert inp.poll() == [], "no zoom of the board under the card, and ↓ scrolls rather than closes it"
    assert ui.views["keys"].offset == 2 * WHEEL_PIXELS and ui.keys_shown
    key(pygame.K_a, "a")
    assert inp.poll() == [it.HideKeys()]

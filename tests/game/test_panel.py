"""The 2D interface without a window: every control of the specification is on screen and sends the
right intent, in the wide and the narrow layout."""

from __future__ import annotations

import random

import pygame
import pytest
from support import position, sq

from engine import AMERICAN, INTERNATIONAL, Color, variant_named
from game.files.settings import Notation
from game.modes import Level, Result
from game.play import intents as it
from game.play.machine import Controller
from game.ui import Interface, compute_layout
from game.ui import theme as th


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()


def hits(c, size=(1280, 800)):
    ui = Interface(size)
    ui.render(c, 0.0)
    return ui, {h.id: h for h in ui.hits}


def test_layout_panel_right_or_below():
    wide = compute_layout(1280, 800)
    assert not wide.narrow and wide.panel.x >= wide.board.right and wide.view.height < wide.board.height
    narrow = compute_layout(700, 900)
    assert narrow.narrow and narrow.panel.y >= narrow.board.bottom


@pytest.mark.parametrize("size", [(1280, 800), (760, 1000)])
def test_mode_screen_offers_rules_levels_second_and_hotseat(size, storage):
    storage.record_result("american", Level.HARD, Result.LOSS)
    c = Controller(storage=storage)
    ui, h = hits(c, size)
    assert {"rules:american", "rules:international", "level:easy", "level:medium", "level:hard",
            "btn:Play second · Medium", "btn:2 players on this device"} <= set(h)
    assert h["level:hard"].intent == it.StartGame(Level.HARD)
    assert h["btn:Play second · Medium"].intent == it.StartGame(Level.MEDIUM, play_second=True)
    for hit in h.values():
        assert ui.surface.get_rect().contains(hit.rect), f"{hit.id} is on screen"


@pytest.mark.parametrize("size", [(1280, 800), (760, 1000)])
def test_game_panel_has_every_control(make, size):
    c = make()
    ui, h = hits(c, size)
    for name in ("btn:offer", "btn:Undo move", "btn:Resign", "btn:Play again", "btn:Change mode",
                 "btn:Flip board", "view:angled", "view:top", "btn:deselect", "set:notation", "set:sound",
                 "set:square_numbers", "set:animation_speed"):
        assert name in h, name
        ui.reveal(name)  # scrolled into view where the panel doesn't hold everything
        ui.render(c, 0.0)
        shown = next(hit for hit in ui.hits if hit.id == name)
        assert ui.surface.get_rect().contains(shown.rect) and shown.visible == shown.rect, name
    assert h["move:c3-d4"].intent == it.PlayMoveFromList(next(m for m in c.legal_moves() if c.move_text(m) == "c3-d4"))
    assert h[f"cell:{sq('c3')}"].intent == it.SquarePressed(sq("c3"))
    assert len([k for k in h if k.startswith("cell:")]) == 32


def test_deselect_is_offered_where_a_piece_can_be_selected_only(make):
    c = make()
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    assert "btn:deselect" in hits(c)[1], "in a game"
    c.handle(it.ReviewStep(-1))
    assert c.reviewing is not None and "btn:deselect" not in hits(c)[1], "not in a review"
    c.handle(it.BackToGame())
    c.handle(it.EditPosition())
    assert c.editing is not None and "btn:deselect" not in hits(c)[1], "not in the editor"
    c.handle(it.Cancel())
    c.handle(it.Resign())
    c.handle(it.ConfirmResign())
    assert c.game.is_over and "btn:deselect" not in hits(c)[1], "not once the game is over"


def test_accept_draw_shows_on_the_board_and_in_the_panel(make):
    c = make()
    c.handle(it.OfferDraw())
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    _, h = hits(c)
    assert h["btn:accept-board"].intent == it.AcceptDraw() and "btn:accept-panel" in h


def test_resign_asks_for_confirmation_in_the_panel(make):
    c = make(level="easy")
    c.handle(it.Resign())
    _, h = hits(c)
    assert h["btn:Yes, resign"].intent == it.ConfirmResign() and "btn:Keep playing" in h


def test_game_over_card_offers_play_again(make):
    c = make(start=position("B", ["d4"], ["c3"]))
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    _, h = hits(c)
    assert h["card:again"].intent == it.PlayAgain() and not h["btn:Resign"].enabled


def test_table_turns_with_the_board(make):
    c = make(level="medium", human=Color.WHITE)
    _, h = hits(c)
    a1, h8 = h[f"cell:{sq('a1')}"].rect, h[f"cell:{sq('h8')}"].rect
    assert a1.y < h8.y and a1.x > h8.x, "playing second, a1 is at the top right of the table"


def test_tab_focus_and_enter(make):
    c = make()
    ui, _ = hits(c)
    assert ui.focused_intent() is None
    ui.move_focus(1)
    first = ui.focused_intent()
    assert first is not None
    ui.move_focus(-1)
    assert ui.focus is None, "past the first button the focus returns to the board"


def test_draw_countdown_below_the_board_at_five_moves_each(make):
    from engine import INTERNATIONAL

    c = make(start=position("W", ["K46", "K47"], ["K5"], variant=INTERNATIONAL), variant=INTERNATIONAL)
    ui, _ = hits(c)
    assert c.game.moves_until_draw == 5 and ui.countdown == "Draw in 5 moves each"
    c = make()
    ui, _ = hits(c)
    assert ui.countdown is None


def test_the_panel_redraws_only_when_the_controller_changed(make):
    c = make()
    ui = Interface((1280, 800))
    assert ui.render(c, 0.0) and ui.layout.panel in ui.redrawn
    assert not ui.render(c, 0.5) and ui.redrawn == [], "nothing changed: nothing redrawn"
    c.handle(it.SquarePressed(sq("c3")))
    assert ui.render(c, 1.0) and ui.layout.panel in ui.redrawn


def texts(ui) -> set[str]:
    return {w.what.removeprefix("text:") for w in ui.widgets if w.what.startswith("text:")}


def all_text(ui) -> str:
    """Every line of text on screen, in drawing order, joined (wrapped lines read as one)."""
    return " ".join(w.what.removeprefix("text:") for w in ui.widgets if w.what.startswith("text:"))


def is_highlighted(ui, hit_id: str) -> bool:
    rect = next(h.rect for h in ui.hits if h.id == hit_id)
    return tuple(ui.surface.get_at((rect.x + 6, rect.centery)))[:3] == th.ACCENT


def shows_rules(c, variant) -> None:
    ui, _ = hits(c)
    other = INTERNATIONAL if variant is AMERICAN else AMERICAN
    assert is_highlighted(ui, f"rules:{variant.name}") and not is_highlighted(ui, f"rules:{other.name}")
    pieces = variant.rows_of_men * variant.row_width
    assert f"{variant.size}×{variant.size}, {pieces} pieces each" in texts(ui)
    assert f"You play first ({variant.first_player.label.capitalize()})" in texts(ui)
    won = c.storage.results().get(variant.name, {}).get("easy", {}).get("win", 0)
    assert any(t.startswith(f"{won} won") for t in texts(ui)), "its own results"


@pytest.mark.parametrize("first, then", [(AMERICAN, INTERNATIONAL), (INTERNATIONAL, AMERICAN)],
                         ids=["american-then-international", "international-then-american"])
@pytest.mark.parametrize("finished", [False, True], ids=["in-progress", "finished"])
def test_the_mode_screen_shows_the_rules_chosen_after_change_mode(storage, opponent, first, then, finished):
    storage.record_result("american", Level.EASY, Result.WIN)
    c = Controller(opponent=opponent, storage=storage)
    c.handle(it.ChooseRules(first.name))
    c.handle(it.StartGame(Level.EASY))
    if finished:
        c.handle(it.Resign())
        c.handle(it.ConfirmResign())
    c.handle(it.ChangeMode())
    shows_rules(c, first)
    c.handle(it.ChooseRules(then.name))
    shows_rules(c, then)
    c.handle(it.StartGame(Level.EASY))
    assert c.game.variant is then, "the level starts the rules shown"


def test_the_mode_screen_after_a_finished_saved_game_shows_the_rules_chosen(storage, opponent):
    c = Controller(opponent=opponent, storage=storage)
    c.handle(it.ChooseRules("international"))
    c.handle(it.StartGame(None))
    c.handle(it.Resign())
    c.handle(it.ConfirmResign())
    again = Controller(opponent=opponent, storage=storage)
    assert not again.restore() and again.game is not None, "the finished game is kept for the mode screen"
    shows_rules(again, INTERNATIONAL)
    again.handle(it.ChooseRules("american"))
    shows_rules(again, AMERICAN)


def test_the_automatic_draw_line_shows_once_its_count_runs_and_says_move_or_moves(make):
    from engine import INTERNATIONAL

    c = make(variant=INTERNATIONAL)
    ui, _ = hits(c)
    assert "Automatic draw" not in all_text(ui), "no count runs at the start"
    c = make(start=position("W", ["K46", "K47"], ["K5"], variant=INTERNATIONAL), variant=INTERNATIONAL)
    ui, _ = hits(c)
    assert "Automatic draw in 5 moves each" in all_text(ui), "the lone-king ending's count"
    c = make(start=position("W", ["Kc1", "Ke1", "Kg1"], ["Kd8"]))  # kings only: every move counts from here
    ui, _ = hits(c)
    assert "Automatic draw in 40 moves each" in all_text(ui), "the 40-move count of a set-up king ending"
    c = make(start=position("B", ["Kh8", "Kb8"], ["Ka1", "Kg1"]))
    rng = random.Random(5)
    for _ in range(2 * 40 - 1):  # quiet king moves, never a position a third time
        pos = c.game.position
        safe = [m for m in c.legal_moves() if not pos.play(m).has_capture()]
        fewest = min(c.game.repetitions(pos.play(m)) for m in safe)
        c.handle(it.PlayMoveFromList(rng.choice([m for m in safe if c.game.repetitions(pos.play(m)) == fewest])))
    assert c.game.moves_until_draw == 1
    ui, _ = hits(c)
    assert "Automatic draw in 1 move each" in all_text(ui) and ui.countdown == "Draw in 1 move each"


def label(ui, hit_id: str) -> str:
    """The words on a button."""
    return next(w.label for w in ui.widgets if w.what == hit_id)


@pytest.mark.parametrize("variant, algebraic, numeric", [(AMERICAN, "c3-d4", "11-15"), (INTERNATIONAL, "d4-e5", "32-28")],
                         ids=["american", "international"])
def test_the_notation_setting_shows_a_move_of_the_rules_on_screen(make, variant, algebraic, numeric):
    c = make(variant=variant)
    ui, _ = hits(c)
    assert label(ui, "set:notation") == f"Notation: {algebraic}"
    first = c.game.position.parse_move(algebraic)
    assert first in c.legal_moves(), "the example is a first move of these rules"
    c.handle(it.ToggleSetting("notation"))
    ui, _ = hits(c)
    assert label(ui, "set:notation") == f"Notation: {numeric}"
    assert c.game.position.move_text(first) == numeric


@pytest.mark.parametrize("name, custom", [("american", "11-15"), ("international", "32-28"), ("russian", "c3-d4"),
                                          ("italian", "22-19"), ("czech", "c3-d4")])
def test_the_games_own_notation_writes_each_rule_set_as_its_players_do(make, name, custom):
    """The notation's third choice: numbers where the rule set's players number the squares, a1..h8
    where its rules name them so (Russian, Brazilian, Czech)."""
    variant = variant_named(name)
    c = make(variant=variant)
    c.handle(it.ToggleSetting("notation"))
    c.handle(it.ToggleSetting("notation"))
    assert c.settings.notation is Notation.CUSTOM
    ui, _ = hits(c)
    assert label(ui, "set:notation") == f"Notation: the game's own, {custom}"
    first = next(m for m in c.legal_moves() if c.move_text(m) == custom)
    assert c.game.position.move_text(first, numeric=not variant.algebraic_notation) == custom
    assert (custom[0].isdigit()) is not variant.algebraic_notation


@pytest.mark.parametrize("notation, capture", [("algebraic", "d4×f6"), ("numeric", "15×22")])
def test_captures_are_written_with_a_times_sign_on_screen_and_x_in_the_saved_game(make, storage, notation, capture):
    c = make(start=position("B", ["e5"], ["d4", "a1"]))
    c.settings.notation = Notation(notation)
    ui, h = hits(c)
    assert label(ui, "move:" + capture.replace("×", "x")) == capture
    c.handle(h["move:" + capture.replace("×", "x")].intent)
    ui, _ = hits(c)
    assert f"Last move: {capture}" in all_text(ui) and capture in texts(ui), "the last move and the move list"
    storage.flush()
    assert (storage.directory / storage.GAME).read_text().count("x") >= 1
    assert "×" not in (storage.directory / storage.GAME).read_text()


@pytest.mark.parametrize("size", [(640, 480), (800, 600), (1280, 800), (1920, 1080), (760, 1000), (600, 900)])
def test_the_rule_buttons_words_are_the_same_size_and_fit(size):
    c = Controller()
    for shown in (2, 9):  # the list of more rule sets closed, then open
        ui, _ = hits(c, size)
        buttons = [w for w in ui.widgets if w.what.startswith("rules:")]
        assert len(buttons) == shown and len({b.font_px for b in buttons}) == 1, [(b.label, b.font_px) for b in buttons]
        for b in buttons:
            f = th.font(15) if b.font_px == th.body_font().get_height() else th.small_font()
            assert max(f.size(word)[0] for word in b.label.split()) <= b.rect.width - 12, b.label
        c.handle(it.ToggleMoreRules())


@pytest.mark.parametrize("size", [(640, 480), (800, 600), (1000, 700), (1280, 800), (760, 1000)])
@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
def test_the_panel_title_breaks_between_its_parts(make, size, variant):
    c = make(level="hard", variant=variant)
    ui, _ = hits(c, size)
    below = next(w.rect.y for w in ui.widgets if w.label == "BUTTON CONTROLS")
    title = [w.label for w in sorted(ui.widgets, key=lambda w: w.rect.y)
             if w.what.startswith("text:") and "panel" in w.views and w.rect.y < below]
    assert all(not line.startswith("·") and not line.endswith("·") for line in title), title
    assert any(f"you play {variant.first_player.label.capitalize()}" in line for line in title), title


def test_a_new_game_starts_without_the_last_ones_focus_and_cursor(make):
    c = make(level="easy")
    ui = Interface((1280, 800))
    ui.render(c, 0.0)
    home = c.hand.cursor
    c.handle(it.CursorMove(0, 1))
    c.handle(it.CursorMove(0, 1))
    while ui.focus != "btn:Play again":
        ui.move_focus(1)
    assert c.hand.cursor_visible and c.hand.cursor != home
    c.handle(ui.focused_intent())
    ui.render(c, 1.0)
    assert ui.focus is None and not c.hand.cursor_visible, "the new game starts with the board, no cursor shown"
    c.handle(it.CursorMove(0, 1))
    assert c.hand.cursor_visible and c.hand.cursor == home, "the first arrow shows the cursor at home"


def test_the_new_game_question_in_the_game_panel_and_on_the_mode_screen(make):
    c = make(level="hard")
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    c.handle(it.PlayAgain())
    ui, h = hits(c)
    assert h["btn:Yes, new game"].intent == it.ConfirmLeave() and h["btn:Keep playing"].intent == it.Cancel()
    assert "Your game in progress counts as a loss at Hard." in all_text(ui)
    c.handle(it.Cancel())
    c.handle(it.ChangeMode())
    c.handle(it.StartGame(Level.EASY))
    ui, h = hits(c, (640, 480))
    yes = h["btn:Yes, new game"]
    assert yes.intent == it.ConfirmLeave() and h["btn:Keep that game"].intent == it.Cancel()
    assert ui.layout.panel.contains(yes.rect), "asked at the top of the panel, in view"


@pytest.mark.parametrize("size", [(640, 480), (1280, 800), (760, 1000)])
@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
def test_the_tables_square_numbers_are_on_empty_squares_and_readable(make, size, variant):
    c = make(variant=variant)
    c.settings.square_numbers = True
    c.handle(it.SquarePressed(c.legal_moves()[0].start))  # a piece selected: green dots on its targets
    ui, h = hits(c, size)
    numbers = {int(w.label): w for w in ui.widgets if w.what.startswith("number:")}
    pieces = c.game.position.pieces()
    for square in range(1, variant.squares + 1):
        cell = h[f"cell:{square}"].rect
        if square in pieces or square in c.hand.targets(c.legal_moves()):
            assert square not in numbers, f"no number under the piece or the dot on {square}"
        else:
            assert square in numbers and cell.contains(numbers[square].rect), f"{square} written in its square"
            assert numbers[square].font_px >= 9, "readable"
    assert numbers, "the empty squares are numbered"


def test_resuming_shows_the_game_screen_with_the_engines_progress(storage):
    from game.modes import Mode
    from game.play.phases import Resuming

    c = Controller(storage=storage)
    c.phase = Resuming("international", Mode(Level.MEDIUM, Color.WHITE))
    ui = Interface((1280, 800))
    ui.render(c, 0.0, "Preparing the rules engine…")
    words = all_text(ui)
    assert "International Draughts · vs computer · Medium" in words and "you play White" in words
    assert "Preparing the rules engine…" in words and "Resuming your game…" in words
    assert not any(h.id.startswith(("level:", "rules:")) for h in ui.hits), "not the mode screen"
    assert {"view:angled", "view:top", "set:sound"} <= {h.id for h in ui.hits}


@pytest.mark.parametrize("size", [(640, 480), (1024, 768), (1280, 800)])
@pytest.mark.parametrize("white_score, words", [(24, "+0.24 White"), (-24, "+0.24 Black"), (0, "0.00 Even"),
                                                (30000 - 9, "win 5 White")])
def test_the_evaluation_bar_says_who_is_ahead_inside_its_strip(make, size, white_score, words):
    from game.computer.analysis import Line
    from game.play.studies import Study

    c = make()
    c.studies.analysis_on = True
    shown = c.shown_position()
    score = white_score if shown.turn is Color.WHITE else -white_score
    c.studies.study = Study("analysis", ("game", 0), shown, line=Line(8, score, (), None))
    ui = Interface(size)
    ui.render(c, 0.0)  # (the strip comes with this frame's layout: drawn from the next)
    ui.render(c, 0.0)
    strip = ui.layout.side_strip
    bar = next(w.rect for w in ui.widgets if w.what == "evaluation bar")
    label = next(w for w in ui.widgets if w.what == "evaluation")
    assert label.label == words
    assert strip.contains(label.rect) and not label.rect.colliderect(bar), "the words are whole, beside the bar"
    near = c.hand.near_color(c.variant, c.mode)
    at_top = white_score != 0 and (white_score > 0) != (near is Color.WHITE)
    assert (label.rect.bottom <= bar.top) == at_top, "at the end of the side ahead"


def press_greyed(c, ui, hit_id: str):
    """Press the greyed control ``hit_id`` as the pointer does: what it sends, and the notice."""
    hit = next(h for h in ui.hits if h.id == hit_id)
    pressed = ui.hit_at(hit.rect.center)
    assert pressed is hit and not hit.enabled, f"{hit_id}: a press on a greyed control finds it"
    out = c.handle(pressed.press)
    return out


def test_the_draw_offer_greyed_by_the_re_offer_rule_says_why_when_pressed(make, opponent):
    """Issue 24 (3): after the computer declined, "Offer a draw with your next move" was greyed and
    a press on it said nothing."""
    c = make(level="easy", start=position("B", ["Kh8", "Kh6"], ["Ka1", "Kc1"]))
    c.handle(it.OfferDraw())
    c.handle(it.SquarePressed(sq("a1")))
    c.handle(it.SquarePressed(sq("b2")))
    opponent.answer_draw(False)
    c.update()
    opponent.reply_first_legal()  # a king's move: the re-offer rule holds
    c.update()
    ui, h = hits(c)
    assert h["btn:offer"].why and not h["btn:offer"].enabled
    assert not c.game.can_offer_draw()[0]
    out = press_greyed(c, ui, "btn:offer")
    assert c.notice == h["btn:offer"].why and out.sounds == ("illegal",) and not c.offers.armed
    assert c.notice == "Your draw offer was declined: you can offer again once a man moves or a piece is captured"


def test_every_greyed_control_says_why_when_pressed_and_tab_passes_over_it(make, opponent):
    def start():
        return make(level="easy")

    def computer_thinking():
        c = make(level="easy")
        c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        return c

    def review_at_start():
        c = make()
        c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        c.handle(it.ReviewTo(0))
        return c

    def resigned():
        c = make()
        c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        c.handle(it.Resign())
        c.handle(it.ConfirmResign())
        return c

    seen: set[str] = set()
    for state in (start, computer_thinking, review_at_start, resigned):
        for size in ((1280, 800), (640, 480)):
            c = state()
            ui, h = hits(c, size)
            greyed = [x for x in h.values() if not x.enabled and not x.id.startswith("cell:")]
            assert greyed, state.__name__
            for hit in greyed:
                what = f"{state.__name__} {size}: {hit.id}"
                assert hit.why and hit.why[0].isupper(), f"{what} is greyed without a reason"
                ui.reveal(hit.id)
                ui.render(c, 0.0)
                before = c.phase
                out = press_greyed(c, ui, hit.id)
                assert c.notice == hit.why and out.sounds == ("illegal",) and c.phase is before, what
                seen.add(hit.id)
            ui.render(c, 0.0)
            order = []
            for _ in range(len(ui.hits) + 1):
                ui.move_focus(1)
                order.append(ui.focus)
            assert not {x.id for x in greyed} & set(order), f"{state.__name__}: Tab stops on a greyed control"
    assert {"btn:Undo move", "btn:deselect", "btn:offer", "btn:analyze", "btn:hint", "btn:analyze-game",
            "review:start", "review:back", "btn:Resign"} <= seen, seen

"""Every rule set in the game (issue 25): the mode screen's "More rule sets", a game of each started
and played through the controller (two players, and against the computer as the controller sees it),
its game screen and its Rules page drawn."""

from __future__ import annotations

import pygame
import pytest
from support import ScriptedOpponent

from engine import ALL_VARIANTS, MORE_VARIANTS, VARIANTS
from game.help import rules_page
from game.modes import Level
from game.play import intents as it
from game.play.machine import Controller
from game.play.phases import HelpPage, OpponentToMove, ReadingHelp, Screen
from game.ui import Interface

RULE_SETS = list(ALL_VARIANTS.values())
RUSSIAN_NAME = "russian"


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()


def hits(c: Controller, size=(1280, 800)) -> dict[str, object]:
    ui = Interface(size)
    ui.render(c, 0.0)
    return {h.id: h for h in ui.hits}


def rule_buttons(c: Controller, size=(1280, 800)) -> list[str]:
    return [name for name in ALL_VARIANTS if f"rules:{name}" in hits(c, size)]


def test_more_rule_sets_open_and_close_and_the_chosen_one_stays_in_sight(storage):
    c = Controller(storage=storage)
    assert rule_buttons(c) == list(VARIANTS), "closed at first: American and International only"
    assert hits(c)["mode:more-rules"].intent == it.ToggleMoreRules()
    c.handle(it.ToggleMoreRules())
    assert rule_buttons(c) == list(ALL_VARIANTS)
    ui = Interface((1280, 800))
    ui.render(c, 0.0)
    buttons = [h for h in ui.hits if h.id.startswith("rules:") or h.id == "mode:more-rules"]
    for i, a in enumerate(buttons):
        assert not any(a.rect.colliderect(b.rect) for b in buttons[i + 1:]), a.id
    c.handle(hits(c)[f"rules:{RUSSIAN_NAME}"].intent)
    assert c.settings.variant == RUSSIAN_NAME and c.variant.name == RUSSIAN_NAME
    c.handle(it.ToggleMoreRules())
    assert rule_buttons(c) == [*VARIANTS, RUSSIAN_NAME], "closed again, the rule set chosen still shows"
    c.handle(it.ChooseRules("american"))
    assert rule_buttons(c) == list(VARIANTS)


def test_the_list_closes_when_the_mode_screen_opens_again(make):
    c = make()
    c.handle(it.ChangeMode())
    c.handle(it.ToggleMoreRules())
    assert rule_buttons(c) == list(ALL_VARIANTS)
    c.handle(it.ContinueSaved())
    assert c.screen is Screen.GAME
    assert c.handle(it.ToggleMoreRules()).refused, "the list is on the mode screen only"
    c.handle(it.ChangeMode())
    assert rule_buttons(c) == list(VARIANTS)


def test_the_rules_setting_steps_through_every_rule_set_and_a_stored_one_is_kept(storage):
    c = Controller(storage=storage)
    seen = [c.settings.variant]
    for _ in ALL_VARIANTS:
        c.handle(it.ToggleSetting("variant"))
        seen.append(c.settings.variant)
    assert seen == [*ALL_VARIANTS, "american"]
    c.handle(it.ChooseRules("thai"))
    assert Controller(storage=storage).settings.variant == "thai", "read back from the settings file"


@pytest.mark.parametrize("variant", RULE_SETS, ids=lambda v: v.name)
def test_a_game_of_each_rule_set_for_two_players(variant, storage):
    c = Controller(storage=storage)
    c.handle(it.ChooseRules(variant.name))
    c.handle(it.StartGame(None))
    assert c.screen is Screen.GAME and c.game.variant is variant and not c.mode.vs_computer
    assert c.game.turn is variant.first_player
    for ply in range(8):
        assert c.is_human_turn()
        c.handle(it.PlayMoveFromList(c.legal_moves()[-1]))
        assert len(c.game.moves) == ply + 1
    assert c.game.positions[-1] == c.game.position and c.game.position.variant is variant
    assert hits(c, (1000, 700)), "the game screen draws"


@pytest.mark.parametrize("variant", RULE_SETS, ids=lambda v: v.name)
def test_a_game_of_each_rule_set_against_the_computer(variant, storage):
    opponent = ScriptedOpponent()
    c = Controller(opponent=opponent, storage=storage)
    c.handle(it.ChooseRules(variant.name))
    c.handle(it.StartGame(Level.EASY))
    assert c.game.variant is variant and c.mode.level is Level.EASY and c.mode.human is variant.first_player
    for ply in range(0, 6, 2):
        c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
        assert isinstance(c.phase, OpponentToMove)
        asked, level = opponent.requests[-1]
        assert asked.variant is variant and level is Level.EASY and len(asked.moves) == ply + 1
        opponent.reply_first_legal()
        c.update()
        assert c.is_human_turn() and len(c.game.moves) == ply + 2
    c.handle(it.StartGame(Level.MEDIUM, play_second=True))
    c.handle(it.ConfirmLeave())
    assert c.game.variant is variant and isinstance(c.phase, OpponentToMove)
    assert c.mode.human is variant.first_player.opponent


@pytest.mark.parametrize("variant", RULE_SETS, ids=lambda v: v.name)
def test_the_rules_page_of_each_rule_set_opens(variant, storage):
    c = Controller(storage=storage)
    c.handle(it.ChooseRules(variant.name))
    c.handle(it.OpenHelp(HelpPage.RULES))
    assert isinstance(c.phase, ReadingHelp) and c.phase.variant == variant.name
    page = rules_page(variant)
    assert variant.title in page.title and any(s.diagrams for s in page.sections)
    ui = Interface((1000, 700))
    ui.render(c, 0.0)
    assert ui.widgets


def test_each_rule_sets_page_says_what_sets_it_apart_and_names_its_sources():
    def text(name: str) -> str:
        return " ".join(s.text for s in rules_page(ALL_VARIANTS[name]).sections)

    assert "goes on capturing as a king" in text("russian")
    assert "never capture a king" in text("italian") and "meets a king earliest" in text("italian")
    assert "the most kings" in text("spanish") and "capture only forward" in text("spanish")
    assert "you must capture with a king" in text("czech")
    assert "just beyond the piece it takes" in text("thai") and "8 men" in text("thai")
    assert "Red moves first" in text("pool")
    assert "15 moves each" in text("brazilian") and "not written yet" not in text("brazilian")
    for name in MORE_VARIANTS:
        page = rules_page(ALL_VARIANTS[name])
        assert ALL_VARIANTS[name].title in page.title and page.section_ids[-2:] == ("draw-offers", "sources")
        assert sum(len(s.diagrams) for s in page.sections) >= 13, name


def test_pool_checkers_sides_are_red_and_white_wherever_a_player_reads_them(storage):
    """APCA rule 3: the dark pieces are red. Variant.side_name decides a side's name; the status line, the
    panel, the result, the engine's words, the set-up checks and the Controls page all read it."""
    from types import MappingProxyType

    from engine import Color, Position, parse_square
    from engine.position import Piece
    from game.computer.analysis import score_words
    from game.help import controls_page
    from game.play.editor import Setup
    from game.ui.game_panel import _title_text

    pool = ALL_VARIANTS["pool"]
    c = Controller(storage=storage)
    c.handle(it.ChooseRules("pool"))
    c.handle(it.StartGame(None))
    assert c.status() == "Red to move"
    c.handle(it.PlayMoveFromList(c.legal_moves()[0]))
    assert c.status() == "White to move"
    c.handle(it.Resign())
    c.handle(it.ConfirmResign())
    assert c.status() == "Red wins: White resigned"
    c.handle(it.ChooseRules("pool"))
    c.handle(it.StartGame(Level.EASY, play_second=True))
    c.handle(it.ConfirmLeave())
    assert "you play White" in _title_text(c, c.mode) and c.status().startswith("Computer (Red)")
    assert score_words(125, Color.BLACK, pool) == "Red is 1.25 men ahead"
    assert "you move first (Red)" in controls_page(pool).section("controls-start").text
    crowned = Setup(pool, MappingProxyType({parse_square(pool, "c1"): Piece(Color.WHITE, False),
                                            parse_square(pool, "f8"): Piece(Color.BLACK, False)}), Color.BLACK)
    assert crowned.check().problems == ("A red man on f8, Red's crowning row: it would be a king",
                                        "A white man on c1, White's crowning row: it would be a king")
    blocked = Setup.of(Position.from_fen(pool, "W:WKa1:Bb2,c3"))
    assert blocked.check().notes == ("White, to move, has no move: the game is over at once (Red wins)",)
    for name in ("american", "russian"):  # the others keep Black
        assert ALL_VARIANTS[name].side_name(Color.BLACK) == "Black"


def test_pool_checkers_red_pieces_are_red_on_the_board_the_panel_and_the_diagrams():
    from engine import AMERICAN, Color
    from game.render.instances import piece_colour
    from game.ui import theme

    pool = ALL_VARIANTS["pool"]
    (r, g, b, _a), (fill, _edge) = piece_colour(pool, Color.BLACK), theme.piece_colours(pool, Color.BLACK)
    assert r > 4 * g and r > 4 * b and fill[0] > 3 * fill[1] and fill[0] > 3 * fill[2], "red, not brown"
    assert piece_colour(pool, Color.WHITE) == piece_colour(AMERICAN, Color.WHITE)
    for variant in RULE_SETS:  # every other rule set keeps the dark red-brown of Black
        if variant is not pool:
            assert piece_colour(variant, Color.BLACK) == piece_colour(AMERICAN, Color.BLACK)
            assert theme.piece_colours(variant, Color.BLACK) == theme.piece_colours(AMERICAN, Color.BLACK)

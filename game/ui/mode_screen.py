"""The mode screen's sections: the rules, playing the computer (with the results per level), two
players, a friend, the games and the settings; and the question "Start a new game?" that the game
panel asks too.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from engine import VARIANTS
from game.modes import Level
from game.play import intents as it
from game.play.phases import ChoosingMode, ConfirmingLeave, HelpPage

from . import online_screen, study
from . import theme as th
from .column import Section
from .study import LEVEL_TITLES

if TYPE_CHECKING:
    from game.play.machine import Controller
    from game.ui.panel import Interface

RULES_PER_ROW = 2  # rule-set buttons side by side on the mode screen
CONTROLS_HELP = (
    "Press a piece, then a green dot; or drag the piece there.",
    "Drag the board to turn it; the mouse wheel zooms.",
    "Arrow keys move over the board, Enter or Space presses, Esc cancels, Tab reaches the buttons.",
)


def sections(ui: Interface, c: Controller, choosing: ChoosingMode,
                   loading: str | None) -> tuple[list[Section], list[list[Section]]]:
    """The mode screen: the rules, then how to play; the settings at the bottom."""
    head = [Section("title", partial(title, ui)), Section("new-game?", partial(_asking, ui, c))]
    first = [Section("rules", partial(_rules, ui, c)),
             Section("help", partial(_help_buttons, ui)),
             Section("vs-computer", partial(_vs_computer, ui, c)),
             Section("games", partial(study.mode_section, ui, c)),
             Section("games-help", partial(study.mode_help, ui), optional=True)]
    second = [Section("play-second", partial(_play_second, ui, c)),
              Section("hotseat", partial(_hotseat, ui)),
              Section("back", partial(_back, ui, c, choosing)),
              Section("loading", partial(ui._loading, loading)),
              Section("notes", partial(ui._notes, c)),
              Section("controls-help", partial(_controls_help, ui), optional=True),
              Section("spacer", lambda x, y, w, h: h, fill=True),
              Section("settings", partial(ui._settings, c, True))]
    second.insert(2, Section("friend", partial(online_screen.mode_section, ui, c)))
    return head, ([first, second] if ui._columns()[0] == 2 else [first + second])


OPENS = (it.Pasted, it.OpenListedGame)  # what opens a game read from PDN


def leave_question(ui: Interface, asking: ConfirmingLeave, x, y, w, keep: str) -> int:
    """"Start a new game?" (or "Open this game?") when what the player asked for would leave a game
    that counts, with what leaving it costs."""
    top = y
    opens = isinstance(asking.then, OPENS)
    y += ui._wrapped(x, y, w, "Open this game?" if opens else "Start a new game?", th.body_font(), th.TEXT) + 2
    mode = asking.leaving.mode
    if mode.vs_friend:
        cost = "Your game with your friend is resigned."
    else:
        cost = f"Your game in progress counts as a loss at {LEVEL_TITLES[mode.level] if mode.level is not None else ''}."
    y += ui._wrapped(x, y, w, cost, th.small_font(), th.MUTED) + 6
    return y + ui._flow(x, y, w, [("Yes, open it" if opens else "Yes, new game", it.ConfirmLeave(), {"style": "danger"}),
                                    (keep, it.Cancel(), {})]) - top


def _asking(ui: Interface, c: Controller, x, y, w) -> int:
    if c.asking is None:
        return 0
    return leave_question(ui, c.asking, x, y, w, "Keep that game")


def title(ui: Interface, x, y, w) -> int:
    top = y
    y += ui._label(x, y, "Checkers 3D", th.title_font()) + 2
    y += ui._wrapped(x, y, w, "Choose the rules, then how to play.", th.body_font(), th.MUTED)
    return y - top


def _rules(ui: Interface, c: Controller, x, y, w) -> int:
    top = y
    variant = c.variant
    y += ui._heading(x, y, "Rules")
    bw = (w - (RULES_PER_ROW - 1) * th.GAP) // RULES_PER_ROW
    # one font for them all: the one that the longest title fits in
    f = min((ui._button_font(v.title, pygame.Rect(0, 0, bw, 40)) for v in VARIANTS.values()),
            key=lambda font: font.get_height())
    for i, rules in enumerate(VARIANTS.values()):
        row, col = divmod(i, RULES_PER_ROW)
        ui._button((x + col * (bw + th.GAP), y + row * (40 + th.GAP), bw, 40), rules.title,
                     it.ChooseRules(rules.name), active=variant.name == rules.name, hit_id=f"rules:{rules.name}",
                     font=f)
    y += (len(VARIANTS) + RULES_PER_ROW - 1) // RULES_PER_ROW * (40 + th.GAP) - th.GAP + 6
    size = f"{variant.size}×{variant.size}, {variant.rows_of_men * variant.row_width} pieces each"
    y += ui._label(x, y, size, th.small_font(), th.MUTED)
    return y - top


def _help_buttons(ui: Interface, x, y, w) -> int:
    """The buttons to the Rules (of the rules chosen) and the Controls."""
    items = [("Read the rules", it.OpenHelp(HelpPage.RULES), {"hit_id": "mode:rules"}),
             ("Controls", it.OpenHelp(HelpPage.CONTROLS), {"hit_id": "mode:controls"})]
    return ui._flow(x, y, w, items, h=28, f=th.small_font(), pad=12)


def _vs_computer(ui: Interface, c: Controller, x, y, w) -> int:
    top = y
    variant = c.variant
    first = variant.first_player.label.capitalize()
    y += ui._heading(x, y, "Play vs computer")
    y += ui._label(x, y, f"You play first ({first})", th.small_font(), th.MUTED) + 6
    results = c.storage.results().get(variant.name, {}) if c.storage is not None else {}
    f = th.small_font()
    bw = min(150, (w - 12) * 2 // 5)
    for level in Level:
        ui._button((x, y, bw, th.BUTTON_H), LEVEL_TITLES[level], it.StartGame(level), hit_id=f"level:{level}")
        r = results.get(level, {})
        summary = f"{r.get('win', 0)} won · {r.get('draw', 0)} drawn · {r.get('loss', 0)} lost"
        lines = ui._lines(f, summary, w - bw - 12, " · ")
        ty = y + (th.BUTTON_H - len(lines) * (f.get_linesize() + 2)) // 2
        ui._wrapped(x + bw + 12, ty, w - bw - 12, summary, f, th.MUTED, " · ")
        y += th.BUTTON_H + th.GAP
    return y - th.GAP - top


def _play_second(ui: Interface, c: Controller, x, y, w) -> int:
    top = y
    second = c.variant.first_player.opponent.label.capitalize()
    ui._button((x, y, w, th.BUTTON_H), "Play second · Medium", it.StartGame(Level.MEDIUM, play_second=True))
    y += th.BUTTON_H + 4
    y += ui._wrapped(x, y, w, f"The computer opens; you play {second}", th.small_font(), th.MUTED)
    return y - top


def _hotseat(ui: Interface, x, y, w) -> int:
    ui._button((x, y, w, th.BUTTON_H), "2 players on this device", it.StartGame(None))
    return th.BUTTON_H


def _back(ui: Interface, c: Controller, choosing: ChoosingMode, x, y, w) -> int:
    left = choosing.left
    if left is not None and left.mode.vs_friend and not left.game.is_over:
        return online_screen.left_friend_game(ui, c, x, y, w)
    if left is None or left.game.is_over or not left.game.moves:
        return 0
    ui._button((x, y, w, th.BUTTON_H), "Back to the game in progress", it.ContinueSaved(), style="primary")
    return th.BUTTON_H


def _controls_help(ui: Interface, x, y, w) -> int:
    top = y
    y += ui._heading(x, y, "Controls")
    for line in CONTROLS_HELP:
        y += ui._wrapped(x, y, w, line, th.small_font(), th.MUTED) + 4
    return y - 4 - top

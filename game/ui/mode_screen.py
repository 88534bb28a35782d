"""The mode screen's sections: the rules, playing the computer (with the results per level), two
players, a friend (``online_screen``'s), the games and the settings; and the question "Start a new
game?" that the other screens ask too (the section ``leave?``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from engine import ALL_VARIANTS, MORE_VARIANTS, VARIANTS, Variant
from game.modes import Level
from game.play import intents as it
from game.play.phases import ChoosingMode, ConfirmingLeave, HelpPage

from . import theme as th
from .common import LEVEL_TITLES
from .paint import Columns, Painter, part, screen, section

if TYPE_CHECKING:
    from game.play.machine import Controller

RULES_PER_ROW = 2  # rule-set buttons side by side on the mode screen
MORE_H = 24  # the "More rule sets" toggle
CONTROLS_HELP = (
    "Press a piece, then a green dot; or drag the piece there.",
    "Drag the board to turn it; the mouse wheel zooms.",
    "Arrow keys move over the board, Enter or Space presses, Esc cancels, Tab reaches the buttons.",
)


@screen(ChoosingMode)
def mode_screen(paint: Painter, c: Controller, choosing: ChoosingMode, loading: str | None) -> Columns:
    """The mode screen: the rules, then how to play; the settings at the bottom."""
    head = [part("mode-title", paint), part("leave?", paint, c, "Keep that game")]
    first = [part("rules", paint, c, choosing), part("help", paint), part("vs-computer", paint, c),
             part("games", paint, c), part("games-help", paint, optional=True)]
    second = [part("play-second", paint, c), part("play-second-help", paint, c, optional=True), part("hotseat", paint),
              part("friend", paint, c),
              part("online", paint, c), part("online-help", paint, c, optional=True),
              part("back", paint, c, choosing), part("loading", paint, loading), part("notes", paint, c),
              part("controls-help", paint, optional=True), part("spacer", paint, fill=True),
              part("settings", paint, c, True)]
    return head, ([first, second] if paint.columns()[0] == 2 else [first + second])


OPENS = (it.Pasted, it.OpenListedGame)  # what opens a game read from PDN


@section("leave?")
def leave_question(paint: Painter, c: Controller, keep: str, x, y, w) -> int:
    """"Start a new game?" (or "Open this game?") when what the player asked for would leave a game
    that counts, with what leaving it costs; ``keep`` is the answer that keeps it."""
    asking: ConfirmingLeave | None = c.asking
    if asking is None:
        return 0
    top = y
    opens = isinstance(asking.then, OPENS)
    y += paint.wrapped(x, y, w, "Open this game?" if opens else "Start a new game?", th.body_font(), th.TEXT) + 2
    mode = asking.leaving.mode
    if mode.vs_friend:
        cost = "Your game with your friend is resigned."
    else:
        cost = f"Your game in progress counts as a loss at {LEVEL_TITLES[mode.level] if mode.level is not None else ''}."
    y += paint.wrapped(x, y, w, cost, th.small_font(), th.MUTED) + 6
    y += paint.flow(x, y, w, [("Yes, open it" if opens else "Yes, new game", it.ConfirmLeave(), {"style": "danger"}),
                              (keep, it.Cancel(), {})])
    paint.keep_in_view(pygame.Rect(x, top, w, y - top), "leave?")
    return y - top


@section("mode-title")
def title(paint: Painter, x, y, w) -> int:
    top = y
    y += paint.label(x, y, "Checkers 3D", th.title_font()) + 2
    y += paint.wrapped(x, y, w, "Choose the rules, then how to play.", th.body_font(), th.MUTED)
    return y - top


@section("rules")
def _rules(paint: Painter, c: Controller, choosing: ChoosingMode, x, y, w) -> int:
    """The rule sets: American and International, then "More rule sets" (the others, listed while it
    is open; while it is closed, the one of them chosen, if one is)."""
    top = y
    variant = c.variant
    y += paint.heading(x, y, "Rules")
    bw = (w - (RULES_PER_ROW - 1) * th.GAP) // RULES_PER_ROW
    # one font for them all: the one that the longest title fits in
    f = min((paint.button_font(v.title, pygame.Rect(0, 0, bw, 40)) for v in ALL_VARIANTS.values()),
            key=lambda font: font.get_height())

    def rows(variants: list[Variant], y: int) -> int:
        for i, rules in enumerate(variants):
            row, col = divmod(i, RULES_PER_ROW)
            paint.button((x + col * (bw + th.GAP), y + row * (40 + th.GAP), bw, 40), rules.title,
                         it.ChooseRules(rules.name), active=variant.name == rules.name, hit_id=f"rules:{rules.name}",
                         font=f)
        return y + (len(variants) + RULES_PER_ROW - 1) // RULES_PER_ROW * (40 + th.GAP)

    y = rows(list(VARIANTS.values()), y) - th.GAP + 4
    # the chosen rules' board beside the toggle (on one line: the screen fits 1280x800 with the list closed)
    small = th.small_font()
    label = "Fewer rule sets" if choosing.more_rules else f"More rule sets ({len(MORE_VARIANTS)})"
    tw = min(small.size(label)[0] + 24, w // 2)
    paint.button((x + w - tw, y, tw, MORE_H), label, it.ToggleMoreRules(), hit_id="mode:more-rules", font=small)
    size = f"{variant.size}×{variant.size}, {variant.rows_of_men * variant.row_width} pieces each"
    inset = (MORE_H - small.get_linesize()) // 2
    y += max(MORE_H, inset + paint.wrapped(x, y + inset, w - tw - th.GAP, size, small, th.MUTED)) + th.GAP
    more = [v for v in MORE_VARIANTS.values() if choosing.more_rules or v.name == variant.name]
    return (rows(more, y) - th.GAP if more else y - th.GAP) - top


@section("help")
def _help_buttons(paint: Painter, x, y, w) -> int:
    """The buttons to the Rules (of the rules chosen) and the Controls."""
    items = [("Read the rules", it.OpenHelp(HelpPage.RULES), {"hit_id": "mode:rules"}),
             ("Controls", it.OpenHelp(HelpPage.CONTROLS), {"hit_id": "mode:controls"})]
    return paint.flow(x, y, w, items, h=28, f=th.small_font(), pad=12)


@section("vs-computer")
def _vs_computer(paint: Painter, c: Controller, x, y, w) -> int:
    top = y
    variant = c.variant
    first = variant.side_name(variant.first_player)
    y += paint.heading(x, y, "Play vs computer")
    y += paint.label(x, y, f"You play first ({first})", th.small_font(), th.MUTED) + 6
    results = c.storage.results().get(variant.name, {}) if c.storage is not None else {}
    f = th.small_font()
    bw = min(150, (w - 12) * 2 // 5)
    for level in Level:
        paint.button((x, y, bw, th.BUTTON_H), LEVEL_TITLES[level], it.StartGame(level), hit_id=f"level:{level}")
        r = results.get(level, {})
        summary = f"{r.get('win', 0)} won · {r.get('draw', 0)} drawn · {r.get('loss', 0)} lost"
        lines = paint.lines(f, summary, w - bw - 12, " · ")
        ty = y + (th.BUTTON_H - len(lines) * (f.get_linesize() + 2)) // 2
        paint.wrapped(x + bw + 12, ty, w - bw - 12, summary, f, th.MUTED, " · ")
        y += th.BUTTON_H + th.GAP
    return y - th.GAP - top


@section("play-second")
def _play_second(paint: Painter, c: Controller, x, y, w) -> int:
    paint.button((x, y, w, th.BUTTON_H), "Play second · Medium", it.StartGame(Level.MEDIUM, play_second=True))
    return th.BUTTON_H


@section("play-second-help")
def _play_second_help(paint: Painter, c: Controller, x, y, w) -> int:
    """Who plays which side in "Play second" (where there is room for it)."""
    second = c.variant.side_name(c.variant.first_player.opponent)
    return paint.wrapped(x, y, w, f"The computer opens; you play {second}", th.small_font(), th.MUTED)


@section("hotseat")
def _hotseat(paint: Painter, x, y, w) -> int:
    paint.button((x, y, w, th.BUTTON_H), "2 players on this device", it.StartGame(None))
    return th.BUTTON_H


@section("back")
def _back(paint: Painter, c: Controller, choosing: ChoosingMode, x, y, w) -> int:
    left = choosing.left
    if left is not None and left.mode.vs_friend and not left.game.is_over:
        return part("left-friend-game", paint, c).draw(x, y, w)
    if left is None or left.game.is_over or not left.game.moves:
        return 0
    paint.button((x, y, w, th.BUTTON_H), "Back to the game in progress", it.ContinueSaved(), style="primary")
    return th.BUTTON_H


@section("controls-help")
def _controls_help(paint: Painter, x, y, w) -> int:
    top = y
    y += paint.heading(x, y, "Controls")
    for line in CONTROLS_HELP:
        y += paint.wrapped(x, y, w, line, th.small_font(), th.MUTED) + 4
    return y - 4 - top

"""Sections on more than one screen: the rules engine's loading progress, the notes (files set aside, a
room that closed ...), the settings, and the spacer that pushes the settings to the panel's bottom;
and the words several screens share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import pygame

from engine import coords_square, square_name
from game.files.settings import Notation
from game.modes import Level
from game.play import intents as it

from . import theme as th
from .paint import Item, Painter, section

if TYPE_CHECKING:
    from engine import Variant
    from game.play.machine import Controller

LEVEL_TITLES = {Level.EASY: "Easy", Level.MEDIUM: "Medium", Level.HARD: "Hard"}
LEAVING = "Your game against the computer counts as a loss if you leave it for another."
SETTING_LABELS: dict[str, Callable[[Any, Variant], str]] = {
    "notation": lambda v, variant: f"Notation: {notation_example(variant, v)}",
    "square_numbers": lambda v, _: "Square numbers: " + ("on" if v else "off"),
    "animation_speed": lambda v, _: f"Animation: {v}",
    "sound": lambda v, _: "Sound: " + ("on" if v else "off"),
}


def notation_example(variant: Variant, notation: Notation) -> str:
    """A first move of ``variant`` as ``notation`` writes it: the first player's man from the middle of
    its front row, one step forward and right (c3-d4 or 11-15; d4-e5 or 32-28 on the 10x10 board)."""
    rank = variant.rows_of_men - 1
    file = next(f for f in range(2, variant.size) if coords_square(variant, f, rank) is not None)
    start, end = coords_square(variant, file, rank), coords_square(variant, file + 1, rank + 1)
    assert start is not None and end is not None
    example = f"{start}-{end}" if notation.numeric(variant) else f"{square_name(variant, start)}-{square_name(variant, end)}"
    return f"the game's own, {example}" if notation is Notation.CUSTOM else example


def server_label(c: Controller) -> str:
    return "Room server: " + (c.settings.room_server or "this computer")


@section("loading")
def loading(paint: Painter, text: str | None, x: int, y: int, w: int) -> int:
    if not text:
        return 0
    f = th.small_font()
    lines = len(paint.lines(f, text, w - 16))
    paint.pill(pygame.Rect(x, y, w, lines * (f.get_linesize() + 2) + 16), th.CARD)
    return paint.wrapped(x + 8, y + 8, w - 16, text, f, th.ACCENT) + 16


@section("notes")
def notes(paint: Painter, c: Controller, x: int, y: int, w: int) -> int:
    if not c.notes:
        return 0
    top = y
    y += 8
    for note in c.notes:
        y += paint.wrapped(x + 8, y, w - 16, note, th.small_font(), th.TEXT) + 4
    pygame.draw.rect(paint.surface, th.DANGER, (x - 2, top, 3, y - top))
    paint.button((x + w - 70, y, 70, 26), "OK", it.DismissNotes(), font=th.small_font(), hit_id="notes:ok")
    return y + 26 - top


@section("settings")
def settings(paint: Painter, c: Controller, mode_screen: bool, x: int, y: int, w: int) -> int:
    """The settings; on the mode screen also where a friend's rooms are opened (its screen also
    registers the desktop's links to them)."""
    top = y
    y += paint.heading(x, y, "Settings")
    items: list[Item] = [(fmt(getattr(c.settings, name), c.variant), it.ToggleSetting(name), {"hit_id": f"set:{name}"})
                         for name, fmt in SETTING_LABELS.items()]
    if mode_screen:
        items.append((server_label(c), it.EditServer(), {"hit_id": "set:room_server"}))
    return y + paint.flow(x, y, w, items, h=28, f=th.small_font(), pad=10) - top


@section("spacer")
def spacer(paint: Painter, x: int, y: int, w: int, h: int) -> int:
    """Takes the height left over (a fill section), pushing what follows to the bottom."""
    return h

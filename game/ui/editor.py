"""The position editor's panel (see ``game.ui.column`` for sections): what a press puts on the board,
the side to move, clear and the start position, the FEN out and in, the check, and "Play from here"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import Color
from game.modes import Level
from game.play import intents as it
from game.play.editor import Tool
from game.play.phases import Editing

from . import theme as th
from .common import LEAVING, LEVEL_TITLES
from .paint import Columns, Item, Painter, part, screen, section

if TYPE_CHECKING:
    from game.play.machine import Controller

TOOL_KEYS = {Tool.BLACK_MAN: "1", Tool.BLACK_KING: "2", Tool.WHITE_MAN: "3", Tool.WHITE_KING: "4", Tool.ERASE: "0"}


@screen(Editing)
def editor_screen(paint: Painter, c: Controller, editing: Editing, loading: str | None) -> Columns:
    head = [part("editor-title", paint, editing), part("leave?", paint, c, "Keep that game")]
    first = [part("table", paint, c, None, _table_w(paint, c)), part("tools", paint, editing),
             part("turn", paint, editing), part("board", paint)]
    second = [part("fen", paint, editing), part("check", paint, c, editing), part("play", paint, c, editing),
              part("notes", paint, c), part("spacer", paint, fill=True), part("settings", paint, c, False)]
    return head, ([first, second] if paint.columns()[0] == 2 else [first + second])


def _table_w(paint: Painter, c: Controller) -> int:
    n, col_w = paint.columns()
    return max(14 * c.variant.size, min(col_w, 260 if n == 1 else col_w))


@section("editor-title")
def _title(paint: Painter, editing: Editing, x, y, w) -> int:
    top = y
    y += paint.label(x, y, "Set up a position", th.font(20, bold=True)) + 2
    y += paint.wrapped(x, y, w, f"{editing.setup.variant.title} · press a square to put the piece chosen there, "
                              "press it again to take it away", th.small_font(), th.MUTED)
    return y - top


@section("tools")
def _tools(paint: Painter, editing: Editing, x, y, w) -> int:
    top = y
    y += paint.heading(x, y, "Put on the board")
    first = editing.setup.variant.first_player
    order = [Tool.BLACK_MAN, Tool.BLACK_KING, Tool.WHITE_MAN, Tool.WHITE_KING]
    if first is Color.WHITE:
        order = order[2:] + order[:2]
    items = [(f"{tool.value} ({TOOL_KEYS[tool]})", it.ChooseTool(tool),
              {"active": editing.tool is tool, "hit_id": f"tool:{tool.name.lower()}"}) for tool in order + [Tool.ERASE]]
    return y + paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top


@section("turn")
def _turn(paint: Painter, editing: Editing, x, y, w) -> int:
    top = y
    y += paint.heading(x, y, "Side to move")
    first = editing.setup.variant.first_player
    items = [(f"{editing.setup.variant.side_name(color)} to move", it.SetTurn(color),
              {"active": editing.setup.turn is color, "hit_id": f"turn:{color.label}"})
             for color in (first, first.opponent)]
    return y + paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top


@section("board")
def _board(paint: Painter, x, y, w) -> int:
    items: list[Item] = [("Clear the board", it.ClearBoard(), {"hit_id": "btn:clear"}),
                         ("Start position", it.StartPosition(), {"hit_id": "btn:start-position"})]
    return paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10)


@section("fen")
def _fen(paint: Painter, editing: Editing, x, y, w) -> int:
    top = y
    y += paint.heading(x, y, "FEN")
    y += paint.wrapped(x, y, w, editing.setup.fen().replace(",", ", "), th.small_font(), th.TEXT) + 6
    items: list[Item] = [("Copy FEN", it.CopyFen(), {"hit_id": "btn:copy-fen"}),
                         ("Paste FEN", it.PasteFromClipboard(), {"hit_id": "btn:paste-fen"})]
    return y + paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top


@section("check")
def _check(paint: Painter, c: Controller, editing: Editing, x, y, w) -> int:
    check = editing.setup.check(numeric=c.settings.notation.numeric(editing.setup.variant))
    top = y
    small = th.small_font()
    for problem in check.problems:
        y += paint.wrapped(x, y, w, problem, small, th.DANGER) + 4
    for note in check.notes:
        y += paint.wrapped(x, y, w, note, small, th.ACCENT) + 4
    if check.is_playable and not check.notes:
        y += paint.wrapped(x, y, w, "A game can be played from this position.", small, th.GREEN) + 4
    return y - 4 - top


@section("play")
def _play(paint: Painter, c: Controller, editing: Editing, x, y, w) -> int:
    top = y
    check = editing.setup.check()
    why = None if check.is_playable else "Can't play from here: " + "; ".join(check.problems)
    y += paint.heading(x, y, "Play from here")
    who = editing.setup.variant.side_name(editing.setup.turn)
    y += paint.wrapped(x, y, w, f"You play {who} (to move) against the computer, or two players", th.small_font(),
                     th.MUTED) + 4
    if c.leaving_counts():
        y += paint.wrapped(x, y, w, LEAVING, th.small_font(), th.ACCENT) + 4
    items: list[Item] = [
        (LEVEL_TITLES[level], it.PlayFromHere(level), {"why": why, "hit_id": f"from:{level}"}) for level in Level]
    items += [("2 players", it.PlayFromHere(None), {"why": why, "hit_id": "from:players"}),
              ("Cancel", it.Cancel(), {"hit_id": "btn:cancel-edit"})]
    return y + paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top

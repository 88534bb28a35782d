"""The position editor's panel (see ``game.ui.column`` for sections): what a press puts on the board,
the side to move, clear and the start position, the FEN out and in, the check, and "Play from here"."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from engine import Color
from game import intents as it
from game.editor import Tool
from game.phases import Editing, Level
from game.settings import Notation

from . import game_panel
from . import theme as th
from .column import Section
from .study import LEAVING, LEVEL_TITLES

if TYPE_CHECKING:
    from game.controller import Controller

    from .panel import Interface

TOOL_KEYS = {Tool.BLACK_MAN: "1", Tool.BLACK_KING: "2", Tool.WHITE_MAN: "3", Tool.WHITE_KING: "4", Tool.ERASE: "0"}


def sections(ui: Interface, c: Controller, editing: Editing) -> tuple[list[Section], list[list[Section]]]:
    head = [Section("title", partial(_title, ui, editing))]
    first = [Section("table", partial(game_panel.table, ui, c, None, _table_w(ui, c))),
             Section("tools", partial(_tools, ui, editing)),
             Section("turn", partial(_turn, ui, editing)),
             Section("board", partial(_board, ui))]
    second = [Section("fen", partial(_fen, ui, editing)),
              Section("check", partial(_check, ui, c, editing)),
              Section("play", partial(_play, ui, c, editing)),
              Section("notes", partial(ui._notes, c)),
              Section("spacer", lambda x, y, w, h: h, fill=True),
              Section("settings", partial(ui._settings, c, False))]
    return head, ([first, second] if ui._columns()[0] == 2 else [first + second])


def _table_w(ui: Interface, c: Controller) -> int:
    n, col_w = ui._columns()
    return max(14 * c.variant.size, min(col_w, 260 if n == 1 else col_w))


def _title(ui: Interface, editing: Editing, x, y, w) -> int:
    top = y
    y += ui._label(x, y, "Set up a position", th.font(20, bold=True)) + 2
    y += ui._wrapped(x, y, w, f"{editing.setup.variant.title} · press a square to put the piece chosen there, "
                              "press it again to take it away", th.small_font(), th.MUTED)
    return y - top


def _tools(ui: Interface, editing: Editing, x, y, w) -> int:
    top = y
    y += ui._heading(x, y, "Put on the board")
    first = editing.setup.variant.first_player
    order = [Tool.BLACK_MAN, Tool.BLACK_KING, Tool.WHITE_MAN, Tool.WHITE_KING]
    if first is Color.WHITE:
        order = order[2:] + order[:2]
    items = [(f"{tool.value} ({TOOL_KEYS[tool]})", it.ChooseTool(tool),
              {"active": editing.tool is tool, "hit_id": f"tool:{tool.name.lower()}"}) for tool in order + [Tool.ERASE]]
    return y + ui._flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top


def _turn(ui: Interface, editing: Editing, x, y, w) -> int:
    top = y
    y += ui._heading(x, y, "Side to move")
    first = editing.setup.variant.first_player
    items = [(f"{color.label.capitalize()} to move", it.SetTurn(color),
              {"active": editing.setup.turn is color, "hit_id": f"turn:{color.label}"})
             for color in (first, first.opponent)]
    return y + ui._flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top


def _board(ui: Interface, x, y, w) -> int:
    items = [("Clear the board", it.ClearBoard(), {"hit_id": "btn:clear"}),
             ("Start position", it.StartPosition(), {"hit_id": "btn:start-position"})]
    return ui._flow(x, y, w, items, h=30, f=th.small_font(), pad=10)


def _fen(ui: Interface, editing: Editing, x, y, w) -> int:
    top = y
    y += ui._heading(x, y, "FEN")
    y += ui._wrapped(x, y, w, editing.setup.fen().replace(",", ", "), th.small_font(), th.TEXT) + 6
    items = [("Copy FEN", it.CopyFen(), {"hit_id": "btn:copy-fen"}),
             ("Paste FEN", it.PasteFromClipboard(), {"hit_id": "btn:paste-fen"})]
    return y + ui._flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top


def _check(ui: Interface, c: Controller, editing: Editing, x, y, w) -> int:
    check = editing.setup.check(numeric=c.settings.notation is Notation.NUMERIC)
    top = y
    small = th.small_font()
    for problem in check.problems:
        y += ui._wrapped(x, y, w, problem, small, th.DANGER) + 4
    for note in check.notes:
        y += ui._wrapped(x, y, w, note, small, th.ACCENT) + 4
    if check.is_playable and not check.notes:
        y += ui._wrapped(x, y, w, "A game can be played from this position.", small, th.GREEN) + 4
    return y - 4 - top


def _play(ui: Interface, c: Controller, editing: Editing, x, y, w) -> int:
    top = y
    ok = editing.setup.check().is_playable
    y += ui._heading(x, y, "Play from here")
    who = editing.setup.turn.label.capitalize()
    y += ui._wrapped(x, y, w, f"You play {who} (to move) against the computer, or two players", th.small_font(),
                     th.MUTED) + 4
    if c.leaving_counts():
        y += ui._wrapped(x, y, w, LEAVING, th.small_font(), th.ACCENT) + 4
    items: list[tuple[str, it.Intent, dict]] = [
        (LEVEL_TITLES[level], it.PlayFromHere(level), {"enabled": ok, "hit_id": f"from:{level}"}) for level in Level]
    items += [("2 players", it.PlayFromHere(None), {"enabled": ok, "hit_id": "from:players"}),
              ("Cancel", it.Cancel(), {"hit_id": "btn:cancel-edit"})]
    return y + ui._flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top

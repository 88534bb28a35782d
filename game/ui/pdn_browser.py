"""The PDN browser's panel (see ``game.ui.column`` for sections): the recent files and the games
folder's; then the games of the file chosen (players, event, date, result), a page at a time."""

from __future__ import annotations

import os
import re
from functools import partial
from typing import TYPE_CHECKING

import pygame

from engine import Color
from game.files.pdn import games_dir
from game.play import intents as it
from game.play.phases import Browsing

from . import theme as th
from .column import Section
from .study import LEAVING

if TYPE_CHECKING:
    from engine.pdn import PdnGame
    from game.play.machine import Controller

    from .panel import Interface

PAGE = 30  # games listed at once
ROW_H = 42  # a file or a game: two lines


def sections(ui: Interface, c: Controller, browsing: Browsing) -> tuple[list[Section], list[list[Section]]]:
    head = [Section("title", partial(_title, ui, browsing)), Section("open?", partial(_asking, ui, c))]
    if browsing.listing is None:
        folder = str(games_dir())
        saved_elsewhere = any(os.path.dirname(p) == folder for p in browsing.recent)
        empty = "No other PDN files here" if saved_elsewhere else "No games saved here yet"
        body = [Section("recent", partial(_files, ui, "Recent files", None, browsing.recent, "recent",
                                          "No files opened yet")),
                Section("folder", partial(_files, ui, "Your games folder", folder, browsing.folder, "folder", empty)),
                Section("how", partial(_how, ui, c))]
    else:
        body = [Section("games", partial(_games, ui, browsing))]
    body.append(Section("close", partial(_close, ui, browsing)))
    return head, [body]


def _title(ui: Interface, browsing: Browsing, x, y, w) -> int:
    top = y
    y += ui._label(x, y, "Open a game", th.font(20, bold=True)) + 2
    listing = browsing.listing
    if listing is None:
        text = "Choose a PDN file"
    elif not listing.done.is_set():
        text = f"Reading {listing.path.name}… {len(listing.games)} games so far"
    elif listing.error:
        text = listing.error
    else:
        n = len(listing.games)
        text = f"{listing.path.name}: {n} game{'s' if n != 1 else ''}" + (
            f" (the first {n}; the file has more)" if listing.more else "") + " · choose one"
    y += ui._wrapped(x, y, w, text, th.small_font(), th.DANGER if listing is not None and listing.error else th.MUTED)
    return y - top


def _asking(ui: Interface, c: Controller, x, y, w) -> int:
    from .mode_screen import leave_question

    return leave_question(ui, c.asking, x, y, w, "Keep that game") if c.asking is not None else 0


def _row(ui: Interface, rect: pygame.Rect, lines: list[tuple[str, pygame.font.Font, tuple]], intent, hit_id: str) -> None:
    """A pressable row of one or two lines of text, left-aligned (a file, a game)."""
    hovered = ui._hover == hit_id
    pygame.draw.rect(ui.surface, th.BUTTON_HOVER if hovered else th.CARD, rect, border_radius=6)
    if ui.focus == hit_id:
        pygame.draw.rect(ui.surface, th.FOCUS, rect.inflate(4, 4), width=2, border_radius=8)
    ty = rect.y + 4
    for text, f, colour in lines:
        img = th.text(f, _fit(f, text, rect.width - 16), colour)
        ui.surface.blit(img, (rect.x + 8, ty))
        ty += f.get_linesize() + 1
    if not ui._measuring:
        from .panel import Hit

        ui.hits.append(Hit(rect, intent, hit_id, True, ui._clip, ui._in_views))
    ui._note(rect, hit_id, lines[0][0])


def _path_lines(f: pygame.font.Font, path: str, w: int) -> list[str]:
    """A path in lines no wider than ``w``, broken after its separators (the home folder as ``~``)."""
    home = os.path.expanduser("~")
    if home not in ("~", os.sep) and path.startswith(home + os.sep):
        path = "~" + path[len(home):]
    lines, line = [], ""
    for part in re.split(f"(?<={re.escape(os.sep)})", path):
        if line and f.size(line + part)[0] > w:
            lines.append(_fit(f, line, w))
            line = ""
        line += part
    return lines + [_fit(f, line, w)] if line else lines


def _fit(f: pygame.font.Font, text: str, w: int) -> str:
    """``text`` cut with an ellipsis to fit width ``w``."""
    if f.size(text)[0] <= w:
        return text
    while text and f.size(text + "…")[0] > w:
        text = text[:-1]
    return text + "…"


def _files(ui: Interface, heading: str, where: str | None, paths: tuple[str, ...], kind: str, empty: str,
           x, y, w) -> int:
    top = y
    y += ui._heading(x, y, heading)
    if where:
        for line in _path_lines(th.small_font(), where, w):
            y += ui._label(x, y, line, th.small_font(), th.MUTED) + 2
        y += 4
    if not paths:
        return y + ui._label(x, y, empty, th.small_font(), th.MUTED) - top
    for i, path in enumerate(paths):
        folder, name = os.path.split(path)
        try:
            size = f"{os.path.getsize(path) / 1024:.0f} KB"
        except OSError:
            size = "?"
        _row(ui, pygame.Rect(x, y, w, ROW_H), [(name, th.body_font(), th.TEXT),
                                                (f"{size} · {folder}" if kind == "recent" else size, th.small_font(),
                                                 th.MUTED)],
             it.OpenFile(path), f"file:{kind}:{i}")
        y += ROW_H + 4
    return y - 4 - top


def _how(ui: Interface, c: Controller, x, y, w) -> int:
    top = y
    y += ui._wrapped(x, y, w, "Or drop a PDN file on the window, or paste PDN or a FEN with Ctrl+V.",
                     th.small_font(), th.MUTED)
    if c.leaving_counts():
        y += 4 + ui._wrapped(x, y, w, LEAVING, th.small_font(), th.ACCENT)
    return y - top


def game_line(game: PdnGame) -> tuple[str, str]:
    """A listed game in two lines: the players, who moved first first (the result counts that
    player's score first); the event, date and result."""
    white, black = game.players
    first, second = (black, white) if game.variant is not None and game.variant.first_player is Color.BLACK \
        else (white, black)
    tags = {k.lower(): v for k, v in game.tags.items()}
    date = re.sub(r"[.-]\?\?", "", tags.get("date") or "").strip("?.-")
    details = [v for v in (tags.get("event"), date, game.result) if v and v != "?"]
    return f"{game.index}. {first} – {second}", " · ".join(details)


def _games(ui: Interface, browsing: Browsing, x, y, w) -> int:
    listing = browsing.listing
    assert listing is not None
    top = y
    games = listing.games
    pages = max(1, (len(games) + PAGE - 1) // PAGE)
    page = min(browsing.page, pages - 1)
    for i in range(page * PAGE, min(len(games), (page + 1) * PAGE)):
        players, details = game_line(games[i])
        _row(ui, pygame.Rect(x, y, w, ROW_H), [(players, th.body_font(), th.TEXT), (details, th.small_font(), th.MUTED)],
             it.OpenListedGame(i), f"game:{i}")
        y += ROW_H + 4
    if pages > 1:
        y += 4
        first, last = page * PAGE + 1, min(len(games), (page + 1) * PAGE)
        ui._label(x, y + 8, f"{first}–{last} of {len(games)}", th.small_font(), th.MUTED)
        bw = 90
        ui._button((x + w - 2 * bw - th.GAP, y, bw, 30), "◀ Previous", it.BrowserPage(-1), enabled=page > 0,
                   hit_id="browser:previous", font=th.small_font())
        ui._button((x + w - bw, y, bw, 30), "Next ▶", it.BrowserPage(1), enabled=page < pages - 1,
                   hit_id="browser:next", font=th.small_font())
        y += 30 + 4
    return y - 4 - top


def _close(ui: Interface, browsing: Browsing, x, y, w) -> int:
    items: list[tuple[str, it.Intent, dict]] = []
    if browsing.listing is not None:
        items.append(("Other files", it.OpenBrowser(), {"hit_id": "browser:files"}))
    items.append(("Close", it.CloseBrowser(), {"hit_id": "browser:close"}))
    return ui._flow(x, y, w, items, h=th.BUTTON_H, f=th.small_font(), pad=14)

"""The PDN browser's panel (see ``game.ui.column`` for sections): the recent files and the games
folder's; then the games of the file chosen (players, event, date, result), a page at a time."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

import pygame

from engine import Color
from game.files.pdn import games_dir
from game.play import intents as it
from game.play.phases import Browsing

from . import theme as th
from .common import LEAVING
from .paint import Columns, Item, Painter, part, screen, section

if TYPE_CHECKING:
    from engine.pdn import PdnGame
    from game.play.machine import Controller

PAGE = 30  # games listed at once
ROW_H = 42  # a file or a game: two lines


@screen(Browsing)
def browser_screen(paint: Painter, c: Controller, browsing: Browsing, loading: str | None) -> Columns:
    head = [part("browser-title", paint, browsing), part("leave?", paint, c, "Keep that game")]
    if browsing.listing is None:
        folder = str(games_dir())
        saved_elsewhere = any(os.path.dirname(p) == folder for p in browsing.recent)
        empty = "No other PDN files here" if saved_elsewhere else "No games saved here yet"
        body = [part("files-list", paint, "Recent files", None, browsing.recent, "recent", "No files opened yet"),
                part("files-list", paint, "Your games folder", folder, browsing.folder, "folder", empty),
                part("how", paint, c)]
    else:
        body = [part("listed-games", paint, browsing)]
    body.append(part("browser-close", paint, browsing))
    return head, [body]


@section("browser-title")
def _title(paint: Painter, browsing: Browsing, x, y, w) -> int:
    top = y
    y += paint.label(x, y, "Open a game", th.font(20, bold=True)) + 2
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
    y += paint.wrapped(x, y, w, text, th.small_font(), th.DANGER if listing is not None and listing.error else th.MUTED)
    return y - top


def _row(paint: Painter, rect: pygame.Rect, lines: list[tuple[str, pygame.font.Font, tuple]], intent: it.Intent,
         hit_id: str) -> None:
    """A pressable row of one or two lines of text, left-aligned (a file, a game)."""
    hovered = paint.hover == hit_id
    pygame.draw.rect(paint.surface, th.BUTTON_HOVER if hovered else th.CARD, rect, border_radius=6)
    if paint.focus == hit_id:
        pygame.draw.rect(paint.surface, th.FOCUS, rect.inflate(4, 4), width=2, border_radius=8)
    ty = rect.y + 4
    for text, f, colour in lines:
        img = th.text(f, _fit(f, text, rect.width - 16), colour)
        paint.surface.blit(img, (rect.x + 8, ty))
        ty += f.get_linesize() + 1
    paint.add_hit(rect, intent, hit_id)
    paint.note(rect, hit_id, lines[0][0])


def _path_lines(f: pygame.font.Font, path: str, w: int) -> list[str]:
    """A path in lines no wider than ``w``, broken after its separators (the home folder as ``~``)."""
    home = os.path.expanduser("~")
    if home not in ("~", os.sep) and path.startswith(home + os.sep):
        path = "~" + path[len(home):]
    lines, line = [], ""
    for piece in re.split(f"(?<={re.escape(os.sep)})", path):
        if line and f.size(line + piece)[0] > w:
            lines.append(_fit(f, line, w))
            line = ""
        line += piece
    return lines + [_fit(f, line, w)] if line else lines


def _fit(f: pygame.font.Font, text: str, w: int) -> str:
    """``text`` cut with an ellipsis to fit width ``w``."""
    if f.size(text)[0] <= w:
        return text
    while text and f.size(text + "…")[0] > w:
        text = text[:-1]
    return text + "…"


@section("files-list")
def _files(paint: Painter, heading: str, where: str | None, paths: tuple[str, ...], kind: str, empty: str,
           x, y, w) -> int:
    top = y
    y += paint.heading(x, y, heading)
    if where:
        for line in _path_lines(th.small_font(), where, w):
            y += paint.label(x, y, line, th.small_font(), th.MUTED) + 2
        y += 4
    if not paths:
        return y + paint.label(x, y, empty, th.small_font(), th.MUTED) - top
    for i, path in enumerate(paths):
        folder, name = os.path.split(path)
        try:
            size = f"{os.path.getsize(path) / 1024:.0f} KB"
        except OSError:
            size = "?"
        _row(paint, pygame.Rect(x, y, w, ROW_H), [(name, th.body_font(), th.TEXT),
                                                (f"{size} · {folder}" if kind == "recent" else size, th.small_font(),
                                                 th.MUTED)],
             it.OpenFile(path), f"file:{kind}:{i}")
        y += ROW_H + 4
    return y - 4 - top


@section("how")
def _how(paint: Painter, c: Controller, x, y, w) -> int:
    top = y
    y += paint.wrapped(x, y, w, "Or drop a PDN file on the window, or paste PDN or a FEN with Ctrl+V.",
                     th.small_font(), th.MUTED)
    if c.leaving_counts():
        y += 4 + paint.wrapped(x, y, w, LEAVING, th.small_font(), th.ACCENT)
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


@section("listed-games")
def _games(paint: Painter, browsing: Browsing, x, y, w) -> int:
    listing = browsing.listing
    assert listing is not None
    top = y
    games = listing.games
    pages = max(1, (len(games) + PAGE - 1) // PAGE)
    page = min(browsing.page, pages - 1)
    for i in range(page * PAGE, min(len(games), (page + 1) * PAGE)):
        players, details = game_line(games[i])
        _row(paint, pygame.Rect(x, y, w, ROW_H), [(players, th.body_font(), th.TEXT), (details, th.small_font(), th.MUTED)],
             it.OpenListedGame(i), f"game:{i}")
        y += ROW_H + 4
    if pages > 1:
        y += 4
        first, last = page * PAGE + 1, min(len(games), (page + 1) * PAGE)
        paint.label(x, y + 8, f"{first}–{last} of {len(games)}", th.small_font(), th.MUTED)
        bw = 90
        paint.button((x + w - 2 * bw - th.GAP, y, bw, 30), "◀ Previous", it.BrowserPage(-1),
                     why=None if page > 0 else "This is the first page",
                   hit_id="browser:previous", font=th.small_font())
        paint.button((x + w - bw, y, bw, 30), "Next ▶", it.BrowserPage(1),
                     why=None if page < pages - 1 else "This is the last page",
                   hit_id="browser:next", font=th.small_font())
        y += 30 + 4
    return y - 4 - top


@section("browser-close")
def _close(paint: Painter, browsing: Browsing, x, y, w) -> int:
    items: list[Item] = []
    if browsing.listing is not None:
        items.append(("Other files", it.OpenBrowser(), {"hit_id": "browser:files"}))
    items.append(("Close", it.CloseBrowser(), {"hit_id": "browser:close"}))
    return paint.flow(x, y, w, items, h=th.BUTTON_H, f=th.small_font(), pad=14)

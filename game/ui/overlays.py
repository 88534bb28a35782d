"""What is drawn over the 3D board: the status line with the notice, the view buttons, the buttons and
the draw countdown below the board, and the result card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.files.settings import View
from game.play import intents as it
from game.play.phases import HelpPage, InGame, Reviewing

from . import theme as th

if TYPE_CHECKING:
    from game.play.machine import Controller
    from game.ui.paint import Item, Painter

VIEW_TITLES = {View.ANGLED: "Angled", View.TOP: "Top-down"}


def view_buttons(paint: Painter, c: Controller) -> None:
    """The view buttons, top right of the board."""
    b = paint.layout.board
    vw = 92 if not paint.layout.stacked_bars else 84
    vx = b.right - 14 - 2 * vw - th.GAP
    for i, (view, label) in enumerate(VIEW_TITLES.items()):
        paint.button((vx + i * (vw + th.GAP), b.y + 12, vw, 32), label, it.SetView(view),
                     active=c.view == view, hit_id=f"view:{view}", font=th.small_font())


def status_area(paint: Painter) -> pygame.Rect:
    """Where the status line goes: top left, or under the view buttons on a narrow board."""
    b = paint.layout.board
    if paint.layout.stacked_bars:
        return pygame.Rect(b.x + 14, b.y + 12 + 32 + 8, b.width - 28, 0)
    vw = 92
    vx = b.right - 14 - 2 * vw - th.GAP
    return pygame.Rect(b.x + 14, b.y + 10, vx - th.GAP * 2 - b.x - 14, 0)


def board_overlays(paint: Painter, c: Controller, play: InGame | None) -> None:
    """The status line and the view buttons above the board; below it, in a game (``play``), the
    buttons and the draw countdown; over it the result."""
    b = paint.layout.board
    view_buttons(paint, c)
    status(paint, c, status_area(paint))
    if play is None:
        return
    # below the board: Deselect (not in a review nor once the game is over: nothing is selected there),
    # Accept draw, the draw countdown
    items: list[Item] = []
    if not isinstance(play, Reviewing) and not play.game.is_over:
        why = None if c.hand.selected is not None else "Nothing is selected: press a piece to select it"
        items.append(("Deselect", it.Deselect(), {"why": why, "hit_id": "btn:deselect"}))
    if c.offers.pending_for_player(c.turn_phase):
        items.append(("Accept draw", it.AcceptDraw(), {"style": "primary", "hit_id": "btn:accept-board"}))
    left = c.moves_until_draw()
    countdown = f"Draw in {left} {'move' if left == 1 else 'moves'} each" if left is not None and left <= 5 else None
    paint.countdown = countdown
    f = th.body_font()
    widths = [f.size(label)[0] + 28 for label, _, _ in items] + ([f.size(countdown)[0] + 28] if countdown else [])
    rows = _centred_rows(widths, b.width - 28)
    y = b.bottom - 12 - th.BUTTON_H - (len(rows) - 1) * (th.BUTTON_H + th.GAP)
    paint.over_view |= y < paint.layout.view.bottom
    i = 0
    for row in rows:
        x = b.centerx - (sum(row) + th.GAP * (len(row) - 1)) // 2
        for bw in row:
            if i < len(items):
                label, intent, opts = items[i]
                paint.button((x, y, bw, th.BUTTON_H), label, intent, **opts)
            else:
                assert countdown is not None
                rect = pygame.Rect(x, y, bw, th.BUTTON_H)
                paint.pill(rect, (120, 60, 20, 220))
                img = th.text(f, countdown, th.TEXT)
                paint.surface.blit(img, img.get_rect(center=rect.center))
                paint.note(rect, "countdown")
            x += bw + th.GAP
            i += 1
        y += th.BUTTON_H + th.GAP
    if play.game.is_over and not isinstance(play, Reviewing):
        _result_card(paint, c)


def _centred_rows(widths: list[int], w: int) -> list[list[int]]:
    """``widths`` in rows no wider than ``w`` (with gaps), in order."""
    rows: list[list[int]] = [[]]
    for bw in widths:
        if rows[-1] and sum(rows[-1]) + th.GAP * len(rows[-1]) + bw > w:
            rows.append([])
        rows[-1].append(bw)
    return rows


def status(paint: Painter, c: Controller, at: pygame.Rect) -> None:
    """The status line and the notice under it, in a pill at ``at``'s top left no wider than
    ``at``; long text wraps (over the 3D view when the bar is full)."""
    status = c.status()
    if c.waiting_for_opponent:
        status = status.rstrip("…") + "." * (1 + int(paint.now * 3) % 3)
    bold = th.font(17, bold=True)
    inner = at.width - 28
    if inner < 40:
        return
    lines = [(line, bold, th.TEXT) for line in paint.lines(bold, status, inner)]
    rule = c.notice_rule  # the notice says why a move is refused: pressing it opens that rule
    if c.notice:
        lines += [(line, th.body_font(), th.ACCENT) for line in paint.lines(th.body_font(), c.notice, inner)]
        if rule is not None:
            lines.append(("Press here to read the rule ›", th.small_font(), th.FOCUS))
    width = min(at.width, max(f.size(t)[0] for t, f, _ in lines) + 28)
    height = sum(f.get_linesize() for _, f, _ in lines) + 16 + 4 * (len(lines) - 1)
    rect = pygame.Rect(at.x, at.y, width, height)
    paint.over_view |= rect.bottom > paint.layout.view.y
    hovered = rule is not None and paint.hover == "notice:rule"
    paint.pill(rect, (34, 40, 52, 225) if hovered else th.OVERLAY)
    if rule is not None:  # the notice's lines, pressable
        top = rect.y + 8 + sum(f.get_linesize() + 4 for _, f, colour in lines if f is bold)
        notice = pygame.Rect(rect.x, top - 4, rect.width, rect.bottom - top + 4)
        if paint.focus == "notice:rule":
            pygame.draw.rect(paint.surface, th.FOCUS, notice, width=2, border_radius=th.RADIUS)
        paint.add_hit(notice, it.OpenHelp(HelpPage.RULES, rule), "notice:rule")
    ty = rect.y + 8
    for t, f, colour in lines:
        paint.label(rect.x + 14, ty, t, f, colour)
        ty += f.get_linesize() + 4


def _result_card(paint: Painter, c: Controller) -> None:
    paint.over_view = True
    b = paint.layout.board
    head, _, reason = c.status().partition(": ")
    big = th.font(30, bold=True)
    w = max(440 if c.vs_friend else 320, big.size(head)[0] + 60, th.body_font().size(reason)[0] + 60)
    rect = pygame.Rect(0, 0, min(w, b.width - 40), 150)
    rect.center = (b.centerx, b.centery)
    paint.pill(rect, (20, 24, 31, 230))
    pygame.draw.rect(paint.surface, th.ACCENT, rect, width=2, border_radius=th.RADIUS)
    y = rect.y + 16
    img = th.text(big, head, th.ACCENT)
    paint.surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
    y += img.get_height() + 6
    img = th.text(th.body_font(), reason[:1].upper() + reason[1:], th.TEXT)
    paint.surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
    bw = 140
    bx = rect.centerx - bw - th.GAP // 2
    if c.vs_friend:  # the friend's room: its next game, sides swapped, when both ask
        bw = min(190, (rect.width - 24 - th.GAP) // 2)
        bx = rect.centerx - bw - th.GAP // 2
        why = ("Your friend has been asked for a rematch" if c.friend_play.rematch_asked
               else None if c.friend_play.friend is not None and c.friend_play.friend.is_connected
               else "Your friend is not in the room")
        label = "Rematch asked" if c.friend_play.rematch_asked else "Rematch (swap sides)"
        if th.small_font().size(label)[0] > bw - 12:
            label = label.split(" (")[0]
        paint.button((bx, rect.bottom - 16 - th.BUTTON_H, bw, th.BUTTON_H), label, it.Rematch(),
                     style="primary", why=why, hit_id="card:rematch")
    else:
        paint.button((bx, rect.bottom - 16 - th.BUTTON_H, bw, th.BUTTON_H), "Play again", it.PlayAgain(),
                     style="primary", hit_id="card:again")
    paint.button((bx + bw + th.GAP, rect.bottom - 16 - th.BUTTON_H, bw, th.BUTTON_H), "Change mode",
                 it.ChangeMode(), hit_id="card:mode")

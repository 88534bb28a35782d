"""What a player sees of a friend's game, drawn with the panel's toolkit (``game.ui.paint``):

* the room screen: a card over the 3D board (the link in large text with "Copy link", where the friend
  connects, "Waiting for your friend"; the link field of "Join a friend"; the room server's field;
  "Joining ...") and, in the panel, what happens next and Cancel;
* on the mode screen, "Play a friend (send a link)" and "Join a friend", and the way back to a friend's
  game left there;
* in the game panel, both players' connections, "Continue vs computer" once the friend is gone, and
  "Rematch (swap sides)".
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pygame

from engine import variant_named
from game.play import intents as it
from game.play.phases import (
    EnteringLink,
    EnteringNickname,
    EnteringServer,
    EnteringText,
    JoiningRoom,
    RoomPhase,
    SeekingOpponent,
    WaitingForFriend,
)

from . import theme as th
from .paint import Columns, Painter, cut_anywhere, part, screen, section

if TYPE_CHECKING:
    from game.online.clock import SideTime
    from game.play.machine import Controller
    from game.play.phases import InGame

CARD_MAX_W = 760
LINK_FONT = 24  # the link, large enough to read out over the phone
FIELD_FONT = 18


def link_font(w: int) -> pygame.font.Font:
    """The link's font in a card ``w`` wide inside (smaller in a narrow one)."""
    return th.font(LINK_FONT if w >= 480 else LINK_FONT - 6, bold=True)


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def time_left(side: SideTime) -> str:
    """A side's time as its clock shows it: main time (4:32), then the byo-yomi period under way and
    how many are left (0:24 · 3 periods)."""
    if side.main_s > 0:
        return _clock(side.main_s + 0.999)  # a second shown until it is spent
    if side.periods <= 0:
        return "0:00"
    return f"{_clock(side.period_s + 0.999)} · {side.periods} period{'s' if side.periods != 1 else ''}"


# --- the mode screen ---------------------------------------------------------------------------------

@section("friend")
def mode_section(paint: Painter, c: Controller, x: int, y: int, w: int) -> int:
    """"Play a friend" on the mode screen, its two buttons side by side (stacked in a narrow column);
    returns the height used."""
    top = y
    y += paint.heading(x, y, "Play a friend")
    first_w = (w - th.GAP) * 63 // 100
    if th.body_font().size("Play a friend (send a link)")[0] + 12 <= first_w:
        paint.button((x, y, first_w, th.BUTTON_H), "Play a friend (send a link)", it.PlayFriend(), hit_id="friend:play")
        paint.button((x + first_w + th.GAP, y, w - first_w - th.GAP, th.BUTTON_H), "Join a friend", it.OpenJoin(),
                   hit_id="friend:join")
    else:
        paint.button((x, y, w, th.BUTTON_H), "Play a friend (send a link)", it.PlayFriend(), hit_id="friend:play")
        y += th.BUTTON_H + th.GAP
        paint.button((x, y, w, th.BUTTON_H), "Join a friend", it.OpenJoin(), hit_id="friend:join")
    return y + th.BUTTON_H - top


@section("online")
def online_section(paint: Painter, c: Controller, x: int, y: int, w: int) -> int:
    """"Play someone online" on the mode screen (greyed, saying why when pressed, while no room server
    that both players reach is set) and the nickname beside it (stacked in a narrow column)."""
    nickname = "Nickname: " + (c.settings.nickname or "none")
    first_w = (w - th.GAP) * 63 // 100
    side_by_side = th.body_font().size("Play someone online")[0] + 12 <= first_w
    paint.button((x, y, first_w if side_by_side else w, th.BUTTON_H), "Play someone online", it.PlayOnline(),
                 hit_id="online:play", why=c.missing_room_server())
    if side_by_side:
        nx, ny, nw = x + first_w + th.GAP, y, w - first_w - th.GAP
    else:
        nx, ny, nw = x, y + th.BUTTON_H + th.GAP, w
    paint.button((nx, ny, nw, th.BUTTON_H), nickname, it.EditNickname(), hit_id="set:nickname",
                 font=paint.button_font(nickname, pygame.Rect(0, 0, nw, th.BUTTON_H)))
    return ny + th.BUTTON_H - y


@section("online-help")
def online_help(paint: Painter, c: Controller, x: int, y: int, w: int) -> int:
    """What "Play someone online" does, or what it needs (a line or two, where there is room)."""
    if c.missing_room_server() is not None:
        words = "Needs a room server both players reach: set one under Settings, or run one (see the README)."
    else:
        words = f"The next player looking for {c.variant.title}, with a clock (5 min + 3 × 30 s)."
    return paint.wrapped(x, y, w, words, th.small_font(), th.MUTED)


@section("left-friend-game")
def left_friend_game(paint: Painter, c: Controller, x: int, y: int, w: int) -> int:
    """The way back to a friend's game left on the mode screen; returns the height used."""
    top = y
    if c.friend_play.can_return_to_room(c.phase):
        paint.button((x, y, w, th.BUTTON_H), "Return to the game with your friend", it.ContinueSaved(),
                   style="primary", hit_id="friend:return")
        y += th.BUTTON_H + th.GAP
    else:
        y += paint.wrapped(x, y, w, "The room of your game with a friend closed with the game that hosted it.",
                         th.small_font(), th.MUTED) + 4
    paint.button((x, y, w, th.BUTTON_H), "Continue it vs computer · Medium", it.ContinueVsComputer(),
               hit_id="friend:continue")
    return y + th.BUTTON_H - top


# --- the room screen ---------------------------------------------------------------------------------

@screen(RoomPhase)
def room_screen(paint: Painter, c: Controller, p: RoomPhase, loading: str | None) -> Columns:
    """The panel beside the room card: what happens next, and the way back."""
    return [part("mode-title", paint)], [[part("room-info", paint, p), part("room-cancel", paint, p)]]


@section("room-info")
def _room_info(paint: Painter, p: RoomPhase, x: int, y: int, w: int) -> int:
    top = y
    small = th.small_font()
    lines: tuple[str, ...]
    match p:
        case WaitingForFriend(variant=name):
            variant = variant_named(name)
            y += paint.heading(x, y, "Play a friend")
            y += paint.label(x, y, variant.title, th.body_font()) + 8
            lines = (f"You play first ({variant.side_name(variant.first_player)}).",
                     "Send the link to your friend. When they open it, or paste it under “Join a friend” "
                     "and press Join, the game starts.",
                     "After the game, “Rematch (swap sides)” starts the next one with the colours swapped.",
                     "A room is deleted when neither player has been connected for 30 minutes, and 24 hours "
                     "after it was made.")
        case EnteringLink():
            y += paint.heading(x, y, "Join a friend")
            lines = ("Paste the link your friend sent you (Ctrl+V), or type it, then press Join.",
                     "Your friend plays first and you play second, with the board turned so that your "
                     "pieces are near you. The rules are the ones your friend chose.")
        case EnteringServer():
            y += paint.heading(x, y, "Room server")
            lines = ("Where “Play a friend” opens its rooms.",
                     "Leave it empty to use this game's own server: friends on the same network reach it.",
                     "For friends anywhere, run checkers3d-server on a public machine (see the README) and "
                     "give its address: ws://HOST:PORT, or wss://HOST behind a TLS proxy.")
        case SeekingOpponent(variant=name):
            y += paint.heading(x, y, "Play someone online")
            y += paint.label(x, y, variant_named(name).title, th.body_font()) + 8
            lines = ("The room server pairs you with the next player looking for these rules.",
                     "Colours are drawn at random and swap on every rematch. Each side has 5 minutes, then 3 "
                     "periods of 30 seconds: once the main time is up, each move must come within 30 seconds.",
                     "Draw offers, resigning and rematches work as with a friend; there is no undo.")
        case EnteringNickname():
            y += paint.heading(x, y, "Nickname")
            lines = ("The name your opponent sees when you play someone online: 1 to 20 characters. It is kept "
                     "in the settings; no account is made.",)
        case JoiningRoom(returning=returning):
            y += paint.heading(x, y, "Play a friend")
            lines = ("Returning to your seat in the room. The game goes on from where the room has it."
                     if returning else "Taking the free seat in your friend's room.",)
        case _:
            lines = ()
    for line in lines:
        y += paint.wrapped(x, y, w, line, small, th.MUTED) + 8
    return y - 8 - top


@section("room-cancel")
def _room_cancel(paint: Painter, p: RoomPhase, x: int, y: int, w: int) -> int:
    label = ("Cancel (close the room)" if isinstance(p, WaitingForFriend)
             else "Stop looking" if isinstance(p, SeekingOpponent) else "Cancel")
    paint.button((x, y, w, th.BUTTON_H), label, it.Cancel(), hit_id="room:cancel")
    return th.BUTTON_H


def room_card(paint: Painter, c: Controller, p: RoomPhase) -> None:
    """The card over the 3D board on the room screen: measured, then drawn centred on the board."""
    paint.over_view = True
    board = paint.layout.board
    w = min(CARD_MAX_W, board.width - 32)
    card = part("room-card", paint, c, p)
    rect = pygame.Rect(0, 0, w, paint.measure(card, w))
    rect.center = board.center
    rect.top = max(board.top + 8, rect.top)
    paint.pill(rect, (20, 24, 31, 236))
    pygame.draw.rect(paint.surface, th.ACCENT, rect, width=2, border_radius=th.RADIUS)
    card.draw(rect.x, rect.y, w)


@section("room-card")
def _card_content(paint: Painter, c: Controller, p: RoomPhase, x: int, y: int, w: int) -> int:
    """The card's content in a card at (x, y) ``w`` wide; returns its height."""
    top = y
    pad = 24 if w >= 420 else 14
    inner = w - 2 * pad
    x, y = x + pad, y + pad - 4
    small, body = th.small_font(), th.body_font()
    big = th.font(20 if inner >= 420 else 17, bold=True)
    match p:
        case WaitingForFriend(link=link, reach=reach, this_network=this_network):
            y += paint.heading(x, y, "Play a friend")
            if link is None:
                y += paint.wrapped(x, y, inner, "Opening a room…", big, th.TEXT) + 12
            else:
                y += paint.wrapped(x, y, inner, "Send this link to your friend:", body, th.MUTED) + 6
                for line in cut_anywhere(link_font(inner), link, inner):
                    y += paint.label(x, y, line, link_font(inner), th.ACCENT) + 2
                y += 12
                bw = min(150, inner)
                paint.button((x, y, bw, th.BUTTON_H), "Copy link", it.CopyLink(), style="primary", hit_id="room:copy")
                if c.notice and bw + 14 + small.size(c.notice)[0] <= inner:
                    paint.label(x + bw + 14, y + 8, c.notice, small, th.GREEN)
                    y += th.BUTTON_H + 14
                else:
                    y += th.BUTTON_H + 6
                    if c.notice:
                        y += paint.wrapped(x, y, inner, c.notice, small, th.GREEN) + 8
            if this_network:
                where = (f"Your friend's game connects to this computer at {reach}. This works on this network "
                         "only (the same home or office network).")
            else:
                where = f"Room server: {reach}"
            y += paint.wrapped(x, y, inner, where, small, th.MUTED, cut_words=True) + 10
            y += paint.wrapped(x, y, inner, "Waiting for your friend…", big, th.TEXT) + 4
        case SeekingOpponent(nickname=nickname, since=since, reach=reach, variant=name):
            y += paint.heading(x, y, "Play someone online")
            waited = _clock(time.monotonic() - since)
            y += paint.wrapped(x, y, inner, f"Looking for an opponent… {waited}", big, th.TEXT) + 8
            y += paint.wrapped(x, y, inner, f"{variant_named(name).title} · you are {nickname}", body, th.MUTED) + 6
            y += paint.wrapped(x, y, inner, f"Room server: {reach}", small, th.MUTED, cut_words=True) + 12
            paint.button((x, y, min(160, inner), th.BUTTON_H), "Stop looking", it.Cancel(), hit_id="room:cancel-card")
            y += th.BUTTON_H
        case EnteringLink(error=error) | EnteringServer(error=error) | EnteringNickname(error=error):
            joining = isinstance(p, EnteringLink)
            naming = isinstance(p, EnteringNickname)
            y += paint.heading(x, y, "Join a friend" if joining else "Play someone online" if naming else "Room server")
            prompt = ("Paste your friend's link (Ctrl+V) or type it:" if joining
                      else "Your nickname (what your opponent sees):" if naming
                      else "The room server's address (empty: this computer's own):")
            y += paint.wrapped(x, y, inner, prompt, body, th.MUTED) + 6
            y += _text_field(paint, p, pygame.Rect(x, y, inner, 40)) + 10
            if error:
                y += paint.wrapped(x, y, inner, error, small, th.DANGER, cut_words=True) + 8
            bw = min(120, (inner - th.GAP) // 2)
            seek = isinstance(p, EnteringNickname) and p.seek
            if seek:
                bw = min(200, (inner - th.GAP) * 2 // 3)
            paint.button((x, y, bw, th.BUTTON_H), "Join" if joining else "Look for an opponent" if seek else "Save",
                         it.SubmitText(), style="primary", hit_id="room:submit")
            paint.button((x + bw + th.GAP, y, bw, th.BUTTON_H), "Cancel", it.Cancel(), hit_id="room:cancel-card")
            y += th.BUTTON_H + 4
            if isinstance(p, EnteringServer):  # the other settings of playing a friend: the clock, links
                y += 14
                clock = "Clock in games with a friend: " + ("on (5 min + 3 × 30 s)" if c.settings.friend_clock else "off")
                paint.button((x, y, min(inner, 360), th.BUTTON_H), clock, it.ToggleSetting("friend_clock"),
                             hit_id="set:friend_clock")
                y += th.BUTTON_H + 14
                y += paint.wrapped(x, y, inner, "A click on a checkers3d:// link can open this game (Linux desktops): "
                                 "a .desktop file and xdg-mime, written only when you press the button.",
                                 small, th.MUTED) + 6
                paint.button((x, y, min(inner, 260), th.BUTTON_H), "Register checkers3d:// links", it.RegisterLinks(),
                           hit_id="room:register-links")
                y += th.BUTTON_H + 4
                if c.notice:
                    y += 6 + paint.wrapped(x, y + 6, inner, c.notice, small, th.GREEN, cut_words=True)
        case JoiningRoom(link=link, returning=returning):
            y += paint.heading(x, y, "Play a friend")
            head = "Returning to your friend's room…" if returning else "Joining your friend's room…"
            y += paint.wrapped(x, y, inner, head, big, th.TEXT) + 6
            for line in cut_anywhere(small, link, inner):
                y += paint.label(x, y, line, small, th.MUTED) + 2
            f = c.friend_play.friend
            if f is not None and f.connection == "reconnecting":
                y += 6 + paint.wrapped(x, y + 6, inner, f"Can't reach the room yet; trying again ({f.detail})", small,
                                       th.ACCENT, cut_words=True)
            y += 10
            paint.button((x, y, min(120, inner), th.BUTTON_H), "Cancel", it.Cancel(), hit_id="room:cancel-card")
            y += th.BUTTON_H
    return y + pad - top


def _text_field(paint: Painter, p: EnteringText, rect: pygame.Rect) -> int:
    """The text field of ``p`` with its caret; the keyboard is the field's while it is on screen."""
    if paint.measuring:
        return rect.height
    paint.editing = True
    paint.note(rect, "text-field")
    pygame.draw.rect(paint.surface, th.PANEL, rect, border_radius=6)
    pygame.draw.rect(paint.surface, th.FOCUS, rect, width=2, border_radius=6)
    f = th.font(FIELD_FONT)
    room = rect.width - 20
    text, caret = p.text, max(0, min(p.caret, len(p.text)))
    start = 0  # the first character shown: the caret stays in the field
    while start < caret and f.size(text[start:caret])[0] > room:
        start += 1
    shown = text[start:]
    while shown and f.size(shown)[0] > room:
        shown = shown[:-1]
    img = th.text(f, shown, th.TEXT) if shown else None
    ty = rect.y + (rect.height - f.get_linesize()) // 2
    if img is not None:
        paint.surface.blit(img, (rect.x + 10, ty))
    elif not text:
        hint = ("checkers3d://HOST:PORT/ROOM" if isinstance(p, EnteringLink)
                else "a name of up to 20 characters" if isinstance(p, EnteringNickname) else "this computer")
        paint.surface.blit(th.text(f, hint, th.TEXT_DISABLED), (rect.x + 10, ty))
    cx = rect.x + 10 + f.size(text[start:caret])[0]
    pygame.draw.line(paint.surface, th.ACCENT, (cx, ty + 1), (cx, ty + f.get_linesize() - 2), 2)
    return rect.height


def _fitted(f: pygame.font.Font, who: str, state: str, room: int) -> str:
    """``who`` ("Name: "), its name cut with an ellipsis until it fits in ``room`` with ``state`` after it."""
    if f.size(who + state)[0] <= room:
        return who
    name = who.removesuffix(": ")
    while name and f.size(f"{name}…: {state}")[0] > room:
        name = name[:-1]
    return f"{name}…: "


# --- the game panel ----------------------------------------------------------------------------------

@section("players")
def players(paint: Painter, c: Controller, play: InGame, x: int, y: int, w: int) -> int:
    """A friend's game (or one with someone online): both players' connections (one line when it fits),
    each one's clock on a line of its own in a game with the clock (the side to move's lit), and
    "Continue vs computer" once the friend is gone; returns the height used (0 in other games)."""
    human = play.mode.human
    if not play.mode.vs_friend or human is None:
        return 0
    top = y
    f = c.friend_play.friend
    small = th.small_font()
    ours = {"connected": ("connected", th.GREEN), "connecting": ("connecting…", th.ACCENT),
            "reconnecting": ("reconnecting…", th.ACCENT), "gave_up": ("connection lost", th.DANGER)}
    mine = ours[f.connection] if f is not None else ("not connected", th.DANGER)
    away = c.friend_play.friend_away_s(c.phase)
    if f is None or f.connection != "connected":
        theirs = ("unknown", th.MUTED)
    elif away is not None:
        theirs = (f"disconnected {_clock(away)}", th.DANGER)
    else:
        theirs = ("connected", th.GREEN)
    room = play.mode.room
    name = room.opponent if room is not None and room.opponent is not None else "Friend"
    people = [(human, "You: ", mine), (human.opponent, f"{name}: ", theirs)]
    times = f.session.clock() if f is not None else None
    widths = [18 + small.size(who + state)[0] for _, who, (state, _) in people]
    one_line = times is None and sum(widths) + 24 <= w
    line = small.get_linesize()
    clock_font = th.font(18, bold=True)
    row_h = max(line, clock_font.get_linesize()) if times is not None else line
    running = f.session.clock_running if f is not None and not play.game.is_over else None
    cx = x
    for (color, who, (state, colour)), width in zip(people, widths, strict=True):
        fill, edge = th.piece_colours(play.game.variant, color)
        ly = y + (row_h - line) // 2
        pygame.draw.circle(paint.surface, fill, (cx + 6, ly + line // 2), 6)
        pygame.draw.circle(paint.surface, edge, (cx + 6, ly + line // 2), 6, width=1)
        if times is not None:
            shown = time_left(times[color])
            img_w = clock_font.size(shown)[0]
            room_w = w - 18 - img_w - 12
            who = _fitted(small, who, state, room_w)  # a long nickname: cut to fit beside the clock
            paint.label(x + w - img_w, y, shown, clock_font, th.ACCENT if color is running else th.TEXT)
            paint.note((x + w - img_w, y, img_w, row_h), "clock", f"{color.label} {shown}")
        paint.label(cx + 18, ly, who, small, th.MUTED)
        paint.label(cx + 18 + small.size(who)[0], ly, state, small, colour)
        if one_line:
            cx += max(width + 24, w // 2)
        else:
            y += row_h + 4
    y += line + 4 if one_line else 0
    if c.friend_play.can_continue_vs_computer(c.phase):
        y += 4
        paint.button((x, y, w, th.BUTTON_H), "Continue vs computer", it.ContinueVsComputer(), style="primary",
                   hit_id="friend:continue")
        y += th.BUTTON_H
    return y - top

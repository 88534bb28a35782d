"""The game panel's sections: the title, the "Button controls" table, the game's buttons, the pieces
left, the legal moves and the move list (the review, the engine and the files are ``study``'s, the
players of a friend's game ``online_screen``'s); and the panel of a game being resumed at launch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from engine import coords_square
from game.modes import Mode
from game.play import intents as it
from game.play.offers import OWN_TURN
from game.play.phases import GameOver, InGame, Resuming, Reviewing

from . import theme as th
from .common import LEVEL_TITLES
from .paint import Columns, Item, Painter, part, screen, section

if TYPE_CHECKING:
    from engine import Piece
    from game.play.machine import Controller

GAME_OVER = "The game is over"
MOVE_LIST_ROWS = 6  # the move list shows at least this many rows (it scrolls)
NUMBER_COLOUR = (235, 215, 180)  # square numbers on the table's dark squares


@screen(InGame)
def game_screen(paint: Painter, c: Controller, play: InGame, loading: str | None) -> Columns:
    """One column (the table with the counts beside it, then buttons, legal moves, the move list,
    settings) or, when the panel is wide (under the board), two columns. While the rules engine
    still loads (a game resumed at launch), its progress is under the title."""
    n, col_w = paint.columns()
    head = [part("game-title", paint, c, play.mode), part("loading", paint, loading)]
    rest = [part("legal-moves", paint, c, play),
            part("moves", paint, c, play, fill=True, min_h=_move_list_height(MOVE_LIST_ROWS)),
            part("review", paint, c, play), part("engine", paint, c, play), part("report", paint, c, play),
            part("files", paint, c), part("settings", paint, c, False)]
    size = c.variant.size
    if n == 2:
        room = paint.layout.panel.height - 2 * th.PAD - 60
        table_w = max(14 * size, min(col_w, max(room - 150, 224)))  # a short panel scrolls: keep the table usable
        first = [part("table", paint, c, play, table_w), part("controls", paint, c, play), part("players", paint, c, play)]
        return head, [first, [part("notes", paint, c), part("info", paint, c, play), *rest]]
    table_w = max(14 * size, min(224, col_w - 132))
    return head, [[part("table-and-info", paint, c, play, table_w), part("controls", paint, c, play),
                   part("players", paint, c, play), part("notes", paint, c), *rest]]


@screen(Resuming)
def resuming_screen(paint: Painter, c: Controller, resuming: Resuming, loading: str | None) -> Columns:
    """The game screen at launch while the saved game waits for the rules engine: its title, the
    progress, the settings."""
    return ([part("game-title", paint, c, resuming.mode)],
            [[part("loading", paint, loading), part("spacer", paint, fill=True), part("settings", paint, c, False)]])


@section("game-title")
def title(paint: Painter, c: Controller, mode: Mode, x, y, w) -> int:
    return paint.wrapped(x, y, w, _title_text(c, mode), th.body_font(), th.MUTED, sep=" · ")


def _title_text(c: Controller, mode: Mode) -> str:
    level, human = mode.level, mode.human
    if level is not None and human is not None:
        how = f"vs computer · {LEVEL_TITLES[level]} · you play {c.variant.side_name(human)}"
    elif mode.room is not None and human is not None:
        who = f"online vs {mode.room.opponent}" if mode.room.opponent is not None else "with a friend"
        how = f"{who} · you play {c.variant.side_name(human)}"
    else:
        how = "2 players on this device"
    return f"{c.variant.title} · {how}"


@section("table-and-info")
def _table_and_info(paint: Painter, c: Controller, play: InGame, table_w: int, x, y, w) -> int:
    """The table with the counts beside it (one column)."""
    bottom = table(paint, c, play, table_w, x, y, w)
    n = c.variant.size
    right = x + table_w // n * n + 14
    info = _info(paint, c, play, right, y + 22, x + w - right, compact=True)
    return max(bottom, info + 22)


@section("table")
def table(paint: Painter, c: Controller, play: InGame | None, table_w: int, x, y, w) -> int:
    """The "Button controls" table: the board shown (a review's position, the editor's board) as
    buttons, turned like the 3D board, ``table_w`` wide. Returns the height used."""
    v = c.variant
    n = v.size
    top = y
    y += paint.heading(x, y, "Button controls")
    cell = max(14, min(table_w // n, 44))
    if paint.measuring:  # its height is all a measure needs
        return y + n * cell - top
    shown = c.shown_position()
    pieces = shown.pieces() if shown is not None else {}
    targets, rings = c.hand.targets(c.legal_moves()), c.hand.final_rings(c.legal_moves())
    capturers = c.hand.capturers(c.legal_moves())
    flipped = c.hand.second_side_near(c.variant, c.mode)
    cursor = c.hand.cursor_square(c.variant) if c.hand.cursor_visible else None
    cursor_cell = c.hand.cursor
    last = c.last_move()
    last_path = set(last[0].path) if last else set()
    font = th.font(max(9, int(cell * 0.45)))
    for rank in range(n):
        for file in range(n):
            col, row = (n - 1 - file, rank) if flipped else (file, n - 1 - rank)
            rect = pygame.Rect(x + col * cell, y + row * cell, cell, cell)
            sq = coords_square(v, file, rank)
            if sq is None:
                pygame.draw.rect(paint.surface, th.LIGHT_SQUARE, rect)
                if c.hand.cursor_visible and cursor_cell == (file, rank):
                    pygame.draw.rect(paint.surface, th.FOCUS, rect, width=2)
                continue
            hit_id = f"cell:{sq}"
            colour = th.DARK_SQUARE
            if sq in last_path:
                colour = (150, 96, 52)
            if paint.hover == hit_id:
                colour = th.lighter(colour, 25)
            pygame.draw.rect(paint.surface, colour, rect)
            if not paint.measuring:
                paint.add_hit(rect, it.SquarePressed(sq), hit_id)
            piece = pieces.get(sq)
            marked = _table_square(paint, c, sq, piece, rect, (capturers, targets, rings))
            if c.settings.square_numbers and piece is None and not marked:
                # on the empty squares only, in the middle: a piece or a marker would hide it
                img = th.text(font, str(sq), NUMBER_COLOUR)
                at = img.get_rect(center=rect.center)
                paint.surface.blit(img, at)
                paint.note(at, f"number:{sq}", str(sq), font.get_height())
            if sq == cursor:
                pygame.draw.rect(paint.surface, th.FOCUS, rect, width=3)
    board = pygame.Rect(x - 1, y - 1, n * cell + 2, n * cell + 2)
    pygame.draw.rect(paint.surface, th.CARD_EDGE, board, width=1)
    paint.note(board, "table")
    return y + n * cell - top


def _table_square(paint: Painter, c: Controller, sq: int, piece: Piece | None, rect: pygame.Rect,
                  marks: tuple[frozenset[int], frozenset[int], frozenset[int]]) -> bool:
    """One dark square's piece and marks (gold ring: can capture; green dot: a next stop; green ring:
    where a capture ends; accent: selected or entered). Returns whether a mark lies on it."""
    capturers, targets, rings = marks
    cell = rect.width
    r = int(cell * 0.38)
    if piece is not None:
        fill, edge = th.piece_colours(c.variant, piece.color)
        pygame.draw.circle(paint.surface, fill, rect.center, r)
        pygame.draw.circle(paint.surface, edge, rect.center, r, width=max(1, cell // 16))
        if piece.king:
            pygame.draw.circle(paint.surface, th.ACCENT, rect.center, max(2, r // 2), width=max(2, cell // 12))
    if sq in capturers:
        pygame.draw.circle(paint.surface, th.ACCENT, rect.center, r + 2, width=2)
    if sq == c.hand.selected:
        pygame.draw.rect(paint.surface, th.ACCENT, rect, width=3)
    if sq in targets:
        pygame.draw.circle(paint.surface, th.GREEN, rect.center, max(3, cell // 7))
    if sq in rings:
        pygame.draw.circle(paint.surface, th.GREEN, rect.center, int(cell * 0.32), width=2)
    if sq in c.hand.entered:
        pygame.draw.circle(paint.surface, th.ACCENT, rect.center, max(3, cell // 8))
    return sq in targets or sq in rings or sq in c.hand.entered


@section("controls")
def _controls(paint: Painter, c: Controller, play: InGame, x, y, w) -> int:
    g = play.game
    human = c.is_human_turn()
    top = y
    if c.confirming_resign:
        y += paint.label(x, y, "Resign this game?", th.body_font(), th.TEXT) + 6
        y += paint.flow(x, y, w, [("Yes, resign", it.ConfirmResign(), {"style": "danger"}),
                                  ("Keep playing", it.Cancel(), {})])
        paint.keep_in_view(pygame.Rect(x, top, w, y - top), "resign?")
        return y - top
    if c.asking is not None:
        return part("leave?", paint, c, "Keep playing").draw(x, y, w)
    if isinstance(play, Reviewing):  # nothing to offer, undo or resign in a review
        items: list[Item] = [
            ("Play again", it.PlayAgain(), {}), ("Change mode", it.ChangeMode(), {}), ("Flip board", it.FlipBoard(), {})]
        return paint.flow(x, y, w, items, f=th.small_font(), pad=10)
    why_no_offer = c.offers.why_no_offer(c.turn_phase) if human or g.is_over else OWN_TURN
    paint.button((x, y, w, th.BUTTON_H), "Offer a draw with your next move", it.OfferDraw(),
                 why=why_no_offer, active=c.offers.armed, hit_id="btn:offer")
    y += th.BUTTON_H + th.GAP
    if c.offers.pending_for_player(c.turn_phase):
        paint.button((x, y, w, th.BUTTON_H), "Accept draw", it.AcceptDraw(), style="primary",
                     hit_id="btn:accept-panel")
        y += th.BUTTON_H + th.GAP
    if play.mode.vs_friend:
        items = _friend_game_buttons(c, play)
    else:
        items = [("Undo move", it.Undo(), {"why": c.offers.why_no_undo(c.in_game)}),
                 ("Resign", it.Resign(), {"why": GAME_OVER if g.is_over else None}),
                 ("Play again", it.PlayAgain(), {}),
                 ("Change mode", it.ChangeMode(), {}),
                 ("Flip board", it.FlipBoard(), {})]
    items.append(("Rules", it.OpenHelp(), {"hit_id": "btn:rules"}))
    return y + paint.flow(x, y, w, items, f=th.small_font(), pad=10) - top


@section("info")
def _info(paint: Painter, c: Controller, play: InGame, x, y, w, compact: bool = False) -> int:
    """Pieces left (men and kings), moves left before an automatic draw, the last move. Returns
    the height used."""
    pos = c.shown_position() or play.game.position
    top = y
    f = th.small_font() if compact else th.body_font()
    y += paint.heading(x, y, "Pieces left")
    for color in (c.variant.first_player, c.variant.first_player.opponent):
        men, kings = pos.count(color)
        fill, edge = th.piece_colours(c.variant, color)
        line = f.get_linesize()
        pygame.draw.circle(paint.surface, fill, (x + 7, y + line // 2), 6)
        pygame.draw.circle(paint.surface, edge, (x + 7, y + line // 2), 6, width=1)
        counts = f"{men} {'man' if men == 1 else 'men'} · {kings} {'king' if kings == 1 else 'kings'}"
        if compact:
            y += paint.label(x + 18, y, c.variant.side_name(color), f)
            y += paint.wrapped(x + 18, y, w - 18, counts, f, th.MUTED, " · ") + 4
        else:
            paint.label(x + 20, y, c.variant.side_name(color), f)
            y += paint.label(x + 90, y, counts, f) + 3
    y += 6
    left = c.moves_until_draw()
    if left is not None:
        text = f"Automatic draw in {left} {'move' if left == 1 else 'moves'} each"
        y += paint.wrapped(x, y, w, text, th.small_font(), th.MUTED) + 2
    last = c.last_move()
    if last is not None:
        move, before = last
        y += paint.wrapped(x, y, w, f"Last move: {c.move_text(move, before)}", th.small_font(), th.MUTED)
    return y - top


@section("legal-moves")
def _legal_moves(paint: Painter, c: Controller, play: InGame, x, y, w) -> int:
    if isinstance(play, Reviewing):
        return 0
    top = y
    y += paint.heading(x, y, "Legal moves")
    moves = c.legal_moves()
    if not moves:
        text = ("—" if play.game.is_over else f"Waiting for {play.mode.room.opponent_words()}…" if play.mode.room
                else "Waiting for the computer…")
        return y + paint.label(x, y, text, th.small_font(), th.MUTED) - top
    texts = sorted(((c.move_text(m), m) for m in moves), key=lambda tm: (tm[1].start, tm[1].end, tm[0]))
    items = [(text, it.PlayMoveFromList(m), {"hit_id": f"move:{text.replace('×', 'x')}"}) for text, m in texts]
    return y + paint.flow(x, y, w, items, h=26, f=th.small_font(), pad=8) - top


def _move_list_height(rows: int) -> int:
    return th.heading_font().get_linesize() + 6 + rows * (th.small_font().get_linesize() + 2)


@section("moves")
def _move_list(paint: Painter, c: Controller, play: InGame, x, y, w, h) -> int:
    """The moves played, a row per move of each side, in a list of its own that scrolls (it
    follows the latest move unless the player scrolled up; in a review, the move shown). A press
    on a move shows the position after it; the game report's marks follow the moves. Fills
    height ``h``."""
    if paint.measuring:  # it fills what it is given
        return h
    top = y
    y += paint.heading(x, y, "Moves")
    g = play.game
    f = th.small_font()
    if not g.ply:
        paint.label(x, y, "No moves yet", f, th.MUTED)
        return h
    report = c.studies.current_report(c.game)
    marks = report.marks() if report is not None else {}
    rows: list[tuple[int, tuple[int, str] | None, tuple[int, str] | None]] = []  # number, (ply, text) each side
    for index, (before, move, offered) in enumerate(zip(g.positions, g.moves, g.draw_offers, strict=False)):
        cell = (index + 1, c.move_text(move, before) + marks.get(index, "") + (" (=)" if offered else ""))
        first = before.turn is c.variant.first_player
        if first or not rows:
            rows.append((len(rows) + 1, cell if first else None, None if first else cell))
        else:
            rows[-1] = (rows[-1][0], rows[-1][1], cell)
    line_h = f.get_linesize() + 2
    box = pygame.Rect(x, y, w, (top + h - y) // line_h * line_h)  # whole rows at either end
    shown = c.shown_ply() if isinstance(play, Reviewing) else None
    _follow_review_row(paint, rows, shown, line_h, box, id(g))
    col_w = min(120, (w - 42) // 2)
    with paint.scrolled("moves", box, len(rows) * line_h, id(g), follows_end=True, news=g.ply) as offset:
        first_row = offset // line_h
        for i in range(first_row, min(len(rows), first_row + box.height // line_h + 2)):
            number, a, b = rows[i]
            ry = box.y - offset + i * line_h
            paint.label(x, ry, f"{number}.", f, th.MUTED, right=x + 34)
            for side, cx in ((a, x + 42), (b, x + 42 + col_w)):
                if side is not None:
                    _move_cell(paint, side, cx, ry, col_w - 6, line_h, f, shown, marks)
                elif cx == x + 42:
                    paint.label(cx, ry, "…", f)
    return h


def _move_cell(paint: Painter, cell: tuple[int, str], x, y, w, h, f, shown: int | None, marks: dict[int, str]) -> None:
    """One move of the list: pressable (shows the position after it), highlighted when shown."""
    ply, text = cell
    rect = pygame.Rect(x - 3, y, min(w, f.size(text)[0] + 6), h)
    hit_id = f"ply:{ply}"
    if ply == shown:
        pygame.draw.rect(paint.surface, th.ACCENT, rect, border_radius=3)
    elif paint.hover == hit_id:
        pygame.draw.rect(paint.surface, th.BUTTON_HOVER, rect, border_radius=3)
    mark = marks.get(ply - 1, "")
    colour = th.ACCENT_TEXT if ply == shown else th.MARK_COLOURS.get(mark, th.TEXT)
    paint.label(x, y, text, f, colour)
    if not paint.measuring:
        paint.add_hit(rect, it.ReviewTo(ply), hit_id)


def _follow_review_row(paint: Painter, rows, shown: int | None, line_h: int, box: pygame.Rect, key) -> None:
    """In a review, bring the row of the move shown into the list's view when that move changes
    (the player may scroll the list freely in between)."""
    view = paint.views.get("moves")
    if shown is None or paint.measuring or view is None or view.key != key or shown == paint.review_row:
        paint.review_row = shown if not paint.measuring else paint.review_row
        return
    paint.review_row = shown
    row = next((i for i, (_, a, b) in enumerate(rows) if any(cl is not None and cl[0] == shown for cl in (a, b))),
               0 if shown == 0 else None)
    if row is None:
        return
    height = box.height
    offset = view.offset
    if row * line_h < offset:
        offset = row * line_h
    elif (row + 1) * line_h > offset + height:
        offset = (row + 1) * line_h - height
    view.offset = max(0, min(offset, len(rows) * line_h - height))
    view.at_end = view.offset >= len(rows) * line_h - height


def _friend_game_buttons(c: Controller, play: InGame) -> list[Item]:
    """The game panel's buttons in a friend's game: no undo, and a rematch instead of a new game."""
    g = play.game
    can_rematch = (isinstance(c.turn_phase, GameOver) and c.friend_play.friend is not None and c.friend_play.friend.is_connected
                   and not c.friend_play.rematch_asked)
    rematch = "Rematch asked" if c.friend_play.rematch_asked else "Rematch (swap sides)"
    resign = (GAME_OVER if g.is_over else None if c.friend_play.connection == "connected"
              else "Not connected to the room: resign once the connection is back")
    why_no_rematch = None if can_rematch else (
        "Your friend has been asked for a rematch" if c.friend_play.rematch_asked
        else "A rematch is asked for once the game is over" if not isinstance(c.turn_phase, GameOver)
        else "Your friend is not in the room")
    return [("Resign", it.Resign(), {"why": resign}),
            (rematch, it.Rematch(), {"why": why_no_rematch, "hit_id": "btn:rematch"}),
            ("Change mode", it.ChangeMode(), {}),
            ("Flip board", it.FlipBoard(), {})]

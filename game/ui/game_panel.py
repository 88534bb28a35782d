"""The game panel's sections: the title, the "Button controls" table, the game's buttons, the pieces
left, the legal moves and the move list (the review, the engine and the files are ``study``'s).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from engine import coords_square
from game.modes import Mode
from game.play import intents as it
from game.play.phases import InGame, Reviewing

from . import mode_screen, online_screen, study
from . import theme as th
from .column import Section
from .study import LEVEL_TITLES

if TYPE_CHECKING:
    from engine import Piece
    from game.play.machine import Controller
    from game.ui.panel import Interface

MOVE_LIST_ROWS = 6  # the move list shows at least this many rows (it scrolls)
NUMBER_COLOUR = (235, 215, 180)  # square numbers on the table's dark squares


def sections(ui: Interface, c: Controller, play: InGame,
                   loading: str | None) -> tuple[list[Section], list[list[Section]]]:
    """One column (the table with the counts beside it, then buttons, legal moves, the move list,
    settings) or, when the panel is wide (under the board), two columns. While the rules engine
    still loads (a game resumed at launch), its progress is under the title."""
    n, col_w = ui._columns()
    head = [Section("title", partial(title, ui, c, play.mode)),
            Section("loading", partial(ui._loading, loading))]
    moves = Section("moves", partial(_move_list, ui, c, play), fill=True,
                    min_h=_move_list_height(MOVE_LIST_ROWS))
    rest = [Section("legal-moves", partial(_legal_moves, ui, c, play)), moves,
            Section("review", partial(study.review_section, ui, c, play)),
            Section("engine", partial(study.engine_section, ui, c, play)),
            Section("report", partial(study.report_section, ui, c, play)),
            Section("files", partial(study.files_section, ui, c)),
            Section("settings", partial(ui._settings, c, False))]
    size = c.variant.size
    if n == 2:
        room = ui.layout.panel.height - 2 * th.PAD - 60
        table_w = max(14 * size, min(col_w, room - 150))
        first = [Section("table", partial(table, ui, c, play, table_w)),
                 Section("controls", partial(_controls, ui, c, play)),
                 Section("players", partial(online_screen.players, ui, c, play))]
        return head, [first, [Section("notes", partial(ui._notes, c)),
                              Section("info", partial(_info, ui, c, play)), *rest]]
    table_w = max(14 * size, min(224, col_w - 132))
    return head, [[Section("table", partial(_table_and_info, ui, c, play, table_w)),
                   Section("controls", partial(_controls, ui, c, play)),
                   Section("players", partial(online_screen.players, ui, c, play)),
                   Section("notes", partial(ui._notes, c)), *rest]]


def title(ui: Interface, c: Controller, mode: Mode, x, y, w) -> int:
    return ui._wrapped(x, y, w, _title_text(c, mode), th.body_font(), th.MUTED, sep=" · ")


def _title_text(c: Controller, mode: Mode) -> str:
    level, human = mode.level, mode.human
    if level is not None and human is not None:
        how = f"vs computer · {LEVEL_TITLES[level]} · you play {human.label.capitalize()}"
    elif mode.vs_friend and human is not None:
        how = f"with a friend · you play {human.label.capitalize()}"
    else:
        how = "2 players on this device"
    return f"{c.variant.title} · {how}"


def _table_and_info(ui: Interface, c: Controller, play: InGame, table_w: int, x, y, w) -> int:
    """The table with the counts beside it (one column)."""
    bottom = table(ui, c, play, table_w, x, y, w)
    n = c.variant.size
    right = x + table_w // n * n + 14
    info = _info(ui, c, play, right, y + 22, x + w - right, compact=True)
    return max(bottom, info + 22)


def table(ui: Interface, c: Controller, play: InGame | None, table_w: int, x, y, w) -> int:
    """The "Button controls" table: the board shown (a review's position, the editor's board) as
    buttons, turned like the 3D board, ``table_w`` wide. Returns the height used."""
    v = c.variant
    n = v.size
    top = y
    y += ui._heading(x, y, "Button controls")
    cell = max(14, min(table_w // n, 44))
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
                pygame.draw.rect(ui.surface, th.LIGHT_SQUARE, rect)
                if c.hand.cursor_visible and cursor_cell == (file, rank):
                    pygame.draw.rect(ui.surface, th.FOCUS, rect, width=2)
                continue
            hit_id = f"cell:{sq}"
            colour = th.DARK_SQUARE
            if sq in last_path:
                colour = (150, 96, 52)
            if ui._hover == hit_id:
                colour = th.lighter(colour, 25)
            pygame.draw.rect(ui.surface, colour, rect)
            if not ui._measuring:
                ui.add_hit(rect, it.SquarePressed(sq), hit_id)
            piece = pieces.get(sq)
            marked = _table_square(ui, c, sq, piece, rect, (capturers, targets, rings))
            if c.settings.square_numbers and piece is None and not marked:
                # on the empty squares only, in the middle: a piece or a marker would hide it
                img = th.text(font, str(sq), NUMBER_COLOUR)
                at = img.get_rect(center=rect.center)
                ui.surface.blit(img, at)
                ui._note(at, f"number:{sq}", str(sq), font.get_height())
            if sq == cursor:
                pygame.draw.rect(ui.surface, th.FOCUS, rect, width=3)
    board = pygame.Rect(x - 1, y - 1, n * cell + 2, n * cell + 2)
    pygame.draw.rect(ui.surface, th.CARD_EDGE, board, width=1)
    ui._note(board, "table")
    return y + n * cell - top


def _table_square(ui: Interface, c: Controller, sq: int, piece: Piece | None, rect: pygame.Rect,
                  marks: tuple[frozenset[int], frozenset[int], frozenset[int]]) -> bool:
    """One dark square's piece and marks (gold ring: can capture; green dot: a next stop; green ring:
    where a capture ends; accent: selected or entered). Returns whether a mark lies on it."""
    capturers, targets, rings = marks
    cell = rect.width
    r = int(cell * 0.38)
    if piece is not None:
        fill, edge = th.PIECE_COLOURS[piece.color.label]
        pygame.draw.circle(ui.surface, fill, rect.center, r)
        pygame.draw.circle(ui.surface, edge, rect.center, r, width=max(1, cell // 16))
        if piece.king:
            pygame.draw.circle(ui.surface, th.ACCENT, rect.center, max(2, r // 2), width=max(2, cell // 12))
    if sq in capturers:
        pygame.draw.circle(ui.surface, th.ACCENT, rect.center, r + 2, width=2)
    if sq == c.hand.selected:
        pygame.draw.rect(ui.surface, th.ACCENT, rect, width=3)
    if sq in targets:
        pygame.draw.circle(ui.surface, th.GREEN, rect.center, max(3, cell // 7))
    if sq in rings:
        pygame.draw.circle(ui.surface, th.GREEN, rect.center, int(cell * 0.32), width=2)
    if sq in c.hand.entered:
        pygame.draw.circle(ui.surface, th.ACCENT, rect.center, max(3, cell // 8))
    return sq in targets or sq in rings or sq in c.hand.entered


def _controls(ui: Interface, c: Controller, play: InGame, x, y, w) -> int:
    g = play.game
    human = c.is_human_turn()
    top = y
    if c.confirming_resign:
        y += ui._label(x, y, "Resign this game?", th.body_font(), th.TEXT) + 6
        return y + ui._flow(x, y, w, [("Yes, resign", it.ConfirmResign(), {"style": "danger"}),
                                        ("Keep playing", it.Cancel(), {})]) - top
    if c.asking is not None:
        return mode_screen.leave_question(ui, c.asking, x, y, w, "Keep playing")
    if isinstance(play, Reviewing):  # nothing to offer, undo or resign in a review
        items: list[tuple[str, it.Intent, dict]] = [
            ("Play again", it.PlayAgain(), {}), ("Change mode", it.ChangeMode(), {}), ("Flip board", it.FlipBoard(), {})]
        return ui._flow(x, y, w, items, f=th.small_font(), pad=10)
    can_offer = human and g.can_offer_draw()[0]
    ui._button((x, y, w, th.BUTTON_H), "Offer a draw with your next move", it.OfferDraw(),
                 enabled=human and (can_offer or c.offers.armed), active=c.offers.armed, hit_id="btn:offer")
    y += th.BUTTON_H + th.GAP
    if c.offers.pending_for_player(c.turn_phase):
        ui._button((x, y, w, th.BUTTON_H), "Accept draw", it.AcceptDraw(), style="primary",
                     hit_id="btn:accept-panel")
        y += th.BUTTON_H + th.GAP
    if play.mode.vs_friend:
        items = online_screen.game_buttons(c, play)
    else:
        items = [("Undo move", it.Undo(), {"enabled": c.offers.can_undo(c.in_game)}),
                 ("Resign", it.Resign(), {"enabled": not g.is_over}),
                 ("Play again", it.PlayAgain(), {}),
                 ("Change mode", it.ChangeMode(), {}),
                 ("Flip board", it.FlipBoard(), {})]
    items.append(("Rules", it.OpenHelp(), {"hit_id": "btn:rules"}))
    return y + ui._flow(x, y, w, items, f=th.small_font(), pad=10) - top


def _info(ui: Interface, c: Controller, play: InGame, x, y, w, compact: bool = False) -> int:
    """Pieces left (men and kings), moves left before an automatic draw, the last move. Returns
    the height used."""
    pos = c.shown_position() or play.game.position
    top = y
    f = th.small_font() if compact else th.body_font()
    y += ui._heading(x, y, "Pieces left")
    for color in (c.variant.first_player, c.variant.first_player.opponent):
        men, kings = pos.count(color)
        fill, edge = th.PIECE_COLOURS[color.label]
        line = f.get_linesize()
        pygame.draw.circle(ui.surface, fill, (x + 7, y + line // 2), 6)
        pygame.draw.circle(ui.surface, edge, (x + 7, y + line // 2), 6, width=1)
        counts = f"{men} {'man' if men == 1 else 'men'} · {kings} {'king' if kings == 1 else 'kings'}"
        if compact:
            y += ui._label(x + 18, y, color.label.capitalize(), f)
            y += ui._wrapped(x + 18, y, w - 18, counts, f, th.MUTED, " · ") + 4
        else:
            ui._label(x + 20, y, color.label.capitalize(), f)
            y += ui._label(x + 90, y, counts, f) + 3
    y += 6
    left = c.moves_until_draw()
    if left is not None:
        text = f"Automatic draw in {left} {'move' if left == 1 else 'moves'} each"
        y += ui._wrapped(x, y, w, text, th.small_font(), th.MUTED) + 2
    last = c.last_move()
    if last is not None:
        move, before = last
        y += ui._wrapped(x, y, w, f"Last move: {c.move_text(move, before)}", th.small_font(), th.MUTED)
    return y - top


def _legal_moves(ui: Interface, c: Controller, play: InGame, x, y, w) -> int:
    if isinstance(play, Reviewing):
        return 0
    top = y
    y += ui._heading(x, y, "Legal moves")
    moves = c.legal_moves()
    if not moves:
        text = ("—" if play.game.is_over else "Waiting for your friend…" if play.mode.vs_friend
                else "Waiting for the computer…")
        return y + ui._label(x, y, text, th.small_font(), th.MUTED) - top
    texts = sorted(((c.move_text(m), m) for m in moves), key=lambda tm: (tm[1].start, tm[1].end, tm[0]))
    items = [(text, it.PlayMoveFromList(m), {"hit_id": f"move:{text.replace('×', 'x')}"}) for text, m in texts]
    return y + ui._flow(x, y, w, items, h=26, f=th.small_font(), pad=8) - top


def _move_list_height(rows: int) -> int:
    return th.heading_font().get_linesize() + 6 + rows * (th.small_font().get_linesize() + 2)


def _move_list(ui: Interface, c: Controller, play: InGame, x, y, w, h) -> int:
    """The moves played, a row per move of each side, in a list of its own that scrolls (it
    follows the latest move unless the player scrolled up; in a review, the move shown). A press
    on a move shows the position after it; the game report's marks follow the moves. Fills
    height ``h``."""
    top = y
    y += ui._heading(x, y, "Moves")
    g = play.game
    f = th.small_font()
    if not g.ply:
        ui._label(x, y, "No moves yet", f, th.MUTED)
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
    _follow_review_row(ui, rows, shown, line_h, box, id(g))
    col_w = min(120, (w - 42) // 2)
    with ui._scrolled("moves", box, len(rows) * line_h, id(g), follows_end=True, news=g.ply) as offset:
        first_row = offset // line_h
        for i in range(first_row, min(len(rows), first_row + box.height // line_h + 2)):
            number, a, b = rows[i]
            ry = box.y - offset + i * line_h
            ui._label(x, ry, f"{number}.", f, th.MUTED, right=x + 34)
            for side, cx in ((a, x + 42), (b, x + 42 + col_w)):
                if side is not None:
                    _move_cell(ui, side, cx, ry, col_w - 6, line_h, f, shown, marks)
                elif cx == x + 42:
                    ui._label(cx, ry, "…", f)
    return h


def _move_cell(ui: Interface, cell: tuple[int, str], x, y, w, h, f, shown: int | None, marks: dict[int, str]) -> None:
    """One move of the list: pressable (shows the position after it), highlighted when shown."""
    ply, text = cell
    rect = pygame.Rect(x - 3, y, min(w, f.size(text)[0] + 6), h)
    hit_id = f"ply:{ply}"
    if ply == shown:
        pygame.draw.rect(ui.surface, th.ACCENT, rect, border_radius=3)
    elif ui._hover == hit_id:
        pygame.draw.rect(ui.surface, th.BUTTON_HOVER, rect, border_radius=3)
    mark = marks.get(ply - 1, "")
    colour = th.ACCENT_TEXT if ply == shown else study.MARK_COLOURS.get(mark, th.TEXT)
    ui._label(x, y, text, f, colour)
    if not ui._measuring:
        ui.add_hit(rect, it.ReviewTo(ply), hit_id)


def _follow_review_row(ui: Interface, rows, shown: int | None, line_h: int, box: pygame.Rect, key) -> None:
    """In a review, bring the row of the move shown into the list's view when that move changes
    (the player may scroll the list freely in between)."""
    view = ui.views.get("moves")
    if shown is None or ui._measuring or view is None or view.key != key or shown == ui._review_row:
        ui._review_row = shown if not ui._measuring else ui._review_row
        return
    ui._review_row = shown
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

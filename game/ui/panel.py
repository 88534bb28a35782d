"""The 2D interface, drawn with pygame onto one window-sized surface that the renderer lays over the
3D board: the side panel (mode screen or game panel), the status line and the buttons on the board.

Drawing a part rebuilds its list of pressable things (:class:`Hit`), each with the intent a press
sends, so hit-testing always matches what is on screen. Each part of the surface (the panel; the
bars around the 3D view) is redrawn only when something it shows has changed.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from engine import VARIANTS, coords_square
from game import intents as it
from game.controller import Controller
from game.phases import ChoosingMode, InGame, Level
from game.settings import Notation, View

from . import theme as th
from .layout import Layout, compute_layout

RULES_PER_ROW = 2  # rule-set buttons side by side on the mode screen
LEVEL_TITLES = {Level.EASY: "Easy", Level.MEDIUM: "Medium", Level.HARD: "Hard"}
VIEW_TITLES = {View.ANGLED: "Angled", View.TOP: "Top-down"}
SETTING_LABELS = {
    "notation": lambda v: "Notation: " + ("c3-d4" if v is Notation.ALGEBRAIC else "11-15"),
    "square_numbers": lambda v: "Square numbers: " + ("on" if v else "off"),
    "animation_speed": lambda v: f"Animation: {v}",
    "sound": lambda v: "Sound: " + ("on" if v else "off"),
}


CONTROLS_HELP = (
    "Press a piece, then a green dot; or drag the piece there.",
    "Drag the board to turn it; the mouse wheel zooms.",
    "Arrow keys move over the board, Enter or Space presses, Esc cancels, Tab reaches the buttons.",
)


@dataclass(frozen=True)
class Hit:
    """Something pressable on screen: its rectangle, the intent it sends, a stable id for focus."""

    rect: pygame.Rect
    intent: object
    id: str
    enabled: bool = True


class Interface:
    """Draws the panel and the board overlays, and says what is under the pointer."""

    def __init__(self, size: tuple[int, int]):
        self.layout: Layout = compute_layout(*size)
        self.surface = pygame.Surface(size, pygame.SRCALPHA)
        self.hits: list[Hit] = []
        self.mouse: tuple[int, int] = (-1, -1)
        self.focus: str | None = None  # id of the focused hit (Tab), None: the board
        self.countdown: str | None = None  # the draw countdown shown below the board, if any
        self.over_view = False  # something is drawn over the 3D view itself (a long status, the result)
        self.redrawn: list[pygame.Rect] = []  # what the last render() redrew
        self._panel_key: tuple | None = None
        self._bars_key: tuple | None = None
        self._panel_hits: list[Hit] = []
        self._bar_hits: list[Hit] = []
        self._hover: str | None = None
        self._now = 0.0

    # --- queries --------------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        self.layout = compute_layout(*size)
        self.surface = pygame.Surface((self.layout.width, self.layout.height), pygame.SRCALPHA)
        self._panel_key = self._bars_key = None

    def hit_at(self, pos) -> Hit | None:
        """The enabled hit under ``pos`` (the last drawn wins: overlays are drawn after the panel)."""
        for h in reversed(self.hits):
            if h.enabled and h.rect.collidepoint(pos):
                return h
        return None

    def over_panel(self, pos) -> bool:
        return self.layout.panel.collidepoint(pos) or self.hit_at(pos) is not None

    def move_focus(self, step: int) -> None:
        """Tab / Shift-Tab: the next pressable thing; past the last one the focus returns to the board."""
        ids = [h.id for h in self.hits if h.enabled and not h.id.startswith("cell:")]
        if not ids:
            self.focus = None
            return
        order = [None] + ids
        i = order.index(self.focus) if self.focus in order else 0
        self.focus = order[(i + step) % len(order)]

    def focused_intent(self):
        for h in self.hits:
            if h.id == self.focus and h.enabled:
                return h.intent
        return None

    # --- drawing --------------------------------------------------------------------------------

    def render(self, c: Controller, now: float, loading: str | None = None) -> bool:
        """Redraw the parts whose content has changed (the panel; the bars around the 3D view with
        what is drawn over it); returns whether anything changed. :attr:`redrawn` lists the
        rectangles redrawn, so the window uploads only those."""
        hover = self.hit_at(self.mouse)
        self._hover = hover.id if hover else None
        state = (c.version, self._hover, self.focus, self.layout.width, self.layout.height)
        panel_key = (state, loading)
        # the status line's dots move while the computer thinks: only the bars redraw for them
        bars_key = (state, int(now * 3) if c.waiting_for_opponent else 0)
        self.redrawn = []
        if panel_key != self._panel_key:
            self._panel_key = panel_key
            self._draw_panel(c, loading)
            self.redrawn.append(self.layout.panel)
        if bars_key != self._bars_key:
            self._bars_key = bars_key
            self._now = now
            self._draw_bars(c)
            self.redrawn.extend((*self.layout.bars, self.layout.view))
        self.hits = self._panel_hits + self._bar_hits  # the bars' last: they may lie over the view
        return bool(self.redrawn)

    def _draw_panel(self, c: Controller, loading: str | None) -> None:
        self.hits = self._panel_hits = []
        pygame.draw.rect(self.surface, th.PANEL, self.layout.panel)
        match c.phase:
            case ChoosingMode() as choosing:
                self._mode_panel(c, choosing, loading)
            case InGame() as play:
                self._game_panel(c, play)

    def _draw_bars(self, c: Controller) -> None:
        self.hits = self._bar_hits = []
        self.surface.fill((0, 0, 0, 0), self.layout.view)
        for bar in self.layout.bars:
            self.surface.fill(th.BACKGROUND, bar)
        self.countdown = None
        self.over_view = False
        if c.in_game is not None:
            self._board_overlays(c, c.in_game)

    # --- primitives -----------------------------------------------------------------------------

    def _button(self, rect, label: str, intent, *, enabled=True, active=False, style="normal", hit_id=None,
                font=None) -> pygame.Rect:
        rect = pygame.Rect(rect)
        hit_id = hit_id or f"btn:{label}"
        hovered = enabled and self._hover == hit_id
        if not enabled:
            bg, fg = th.BUTTON_DISABLED, th.TEXT_DISABLED
        elif active or style == "primary":
            bg, fg = th.ACCENT, th.ACCENT_TEXT
            if hovered:
                bg = th.lighter(bg, 18)
        elif style == "danger":
            bg, fg = (th.DANGER if hovered else (150, 66, 62)), th.TEXT
        else:
            bg, fg = (th.BUTTON_HOVER if hovered else th.BUTTON), th.TEXT
        pygame.draw.rect(self.surface, bg, rect, border_radius=th.RADIUS)
        if self.focus == hit_id:
            pygame.draw.rect(self.surface, th.FOCUS, rect.inflate(4, 4), width=2, border_radius=th.RADIUS + 2)
        f = font or th.body_font()
        img = th.text(f, label, fg)
        if img.get_width() > rect.width - 12:
            img = th.text(th.small_font(), label, fg)
        self.surface.blit(img, img.get_rect(center=rect.center))
        self.hits.append(Hit(rect, intent, hit_id, enabled))
        return rect

    def _label(self, x, y, value: str, f=None, colour=th.TEXT, right: int | None = None) -> int:
        """One line of text at (x, y) (right-aligned to ``right`` when given); returns its height."""
        img = th.text(f or th.body_font(), value, colour)
        if right is not None:
            x = right - img.get_width()
        self.surface.blit(img, (x, y))
        return img.get_height()

    @staticmethod
    def _lines(f, value: str, w: int) -> list[str]:
        """``value`` broken into lines no wider than ``w``."""
        lines, line = [], ""
        for word in value.split():
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] > w and line:
                lines.append(line)
                line = word
            else:
                line = trial
        return lines + [line] if line else lines

    def _wrapped(self, x, y, w, value: str, f=None, colour=th.TEXT) -> int:
        """Text wrapped to width ``w``; returns the height used."""
        f = f or th.body_font()
        top = y
        for line in self._lines(f, value, w):
            y += self._label(x, y, line, f, colour) + 2
        return y - top

    def _heading(self, x, y, value: str) -> int:
        return self._label(x, y, value.upper(), th.heading_font(), th.MUTED) + 6

    def _flow(self, x, y, w, items, *, h=th.BUTTON_H, f=None, pad=14) -> int:
        """Buttons laid out left to right, wrapping; ``items`` are (label, intent, options). Returns the
        height used."""
        f = f or th.body_font()
        cx, cy = x, y
        for label, intent, opts in items:
            bw = min(w, f.size(label)[0] + 2 * pad)
            if cx > x and cx + bw > x + w:
                cx, cy = x, cy + h + th.GAP
            self._button((cx, cy, bw, h), label, intent, font=f, **opts)
            cx += bw + th.GAP
        return cy + h - y if items else 0

    def _pill(self, rect, colour=th.OVERLAY) -> None:
        pill = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(pill, colour, pill.get_rect(), border_radius=th.RADIUS)
        self.surface.blit(pill, rect.topleft)

    # --- the mode screen ------------------------------------------------------------------------

    def _mode_panel(self, c: Controller, choosing: ChoosingMode, loading: str | None) -> None:
        p = self.layout.panel
        two = p.width >= 640
        col_w = (p.width - 3 * th.PAD) // 2 if two else p.width - 2 * th.PAD
        x, y = p.x + th.PAD, p.y + th.PAD
        y += self._label(x, y, "Checkers 3D", th.title_font()) + 2
        y += self._label(x, y, "Choose the rules, then how to play.", th.body_font(), th.MUTED) + 14
        variant = c.variant
        y += self._heading(x, y, "Rules")
        bw = (col_w - (RULES_PER_ROW - 1) * th.GAP) // RULES_PER_ROW
        for i, rules in enumerate(VARIANTS.values()):
            row, col = divmod(i, RULES_PER_ROW)
            self._button((x + col * (bw + th.GAP), y + row * (40 + th.GAP), bw, 40), rules.title,
                         it.ChooseRules(rules.name), active=variant.name == rules.name, hit_id=f"rules:{rules.name}")
        y += (len(VARIANTS) + RULES_PER_ROW - 1) // RULES_PER_ROW * (40 + th.GAP) - th.GAP + 6
        size = f"{variant.size}×{variant.size}, {variant.rows_of_men * variant.row_width} pieces each"
        y += self._label(x, y, size, th.small_font(), th.MUTED) + 16

        first = variant.first_player.label.capitalize()
        second = variant.first_player.opponent.label.capitalize()
        y += self._heading(x, y, "Play vs computer")
        y += self._label(x, y, f"You play first ({first})", th.small_font(), th.MUTED) + 6
        results = c.storage.results().get(variant.name, {}) if c.storage is not None else {}
        bw = min(150, col_w // 2)
        for level in Level:
            self._button((x, y, bw, th.BUTTON_H), LEVEL_TITLES[level], it.StartGame(level), hit_id=f"level:{level}")
            r = results.get(level, {})
            summary = f"{r.get('win', 0)} won · {r.get('draw', 0)} drawn · {r.get('loss', 0)} lost"
            self._label(x + bw + 12, y + 8, summary, th.small_font(), th.MUTED)
            y += th.BUTTON_H + th.GAP
        if two:  # the rest goes in the second column
            x, y = p.x + 2 * th.PAD + col_w, p.y + th.PAD + 4
        else:
            y += 6
        self._button((x, y, col_w, th.BUTTON_H), "Play second · Medium",
                     it.StartGame(Level.MEDIUM, play_second=True))
        y += th.BUTTON_H + 4
        y += self._label(x, y, f"The computer opens; you play {second}", th.small_font(), th.MUTED) + 12
        self._button((x, y, col_w, th.BUTTON_H), "2 players on this device", it.StartGame(None))
        y += th.BUTTON_H + 14
        left = choosing.left
        if left is not None and not left.game.is_over and left.game.moves:
            self._button((x, y, col_w, th.BUTTON_H), "Back to the game in progress", it.ContinueSaved(),
                         style="primary")
            y += th.BUTTON_H + 14

        x2, y2 = x, y
        if loading:
            f = th.small_font()
            lines = len(self._lines(f, loading, col_w - 16))
            self._pill(pygame.Rect(x2, y2, col_w, lines * (f.get_linesize() + 2) + 16), th.CARD)
            y2 += self._wrapped(x2 + 8, y2 + 8, col_w - 16, loading, f, th.ACCENT) + 16 + 12
        y2 = self._notes(c, x2, y2, col_w)
        settings_y = max(y2, p.bottom - th.PAD - self._settings_height(col_w))
        help_lines = [self._lines(th.small_font(), line, col_w) for line in CONTROLS_HELP]
        help_h = 22 + sum(len(lines) * (th.small_font().get_linesize() + 2) + 4 for lines in help_lines)
        if settings_y - y2 >= help_h + 12:
            y2 += self._heading(x2, y2, "Controls")
            for line in CONTROLS_HELP:
                y2 += self._wrapped(x2, y2, col_w, line, th.small_font(), th.MUTED) + 4
        self._settings(c, x2, settings_y, col_w)

    def _notes(self, c: Controller, x, y, w) -> int:
        if not c.notes:
            return y
        top = y
        y += 8
        for note in c.notes:
            y += self._wrapped(x + 8, y, w - 16, note, th.small_font(), th.TEXT) + 4
        pygame.draw.rect(self.surface, th.DANGER, (x - 2, top, 3, y - top))
        self._button((x + w - 70, y, 70, 26), "OK", it.DismissNotes(), font=th.small_font(), hit_id="notes:ok")
        return y + 26 + 12

    def _settings_height(self, w) -> int:
        return 20 + 2 * (28 + th.GAP)

    def _settings(self, c: Controller, x, y, w) -> int:
        y += self._heading(x, y, "Settings")
        items = [(fmt(getattr(c.settings, name)), it.ToggleSetting(name), {"hit_id": f"set:{name}"})
                 for name, fmt in SETTING_LABELS.items()]
        return y + self._flow(x, y, w, items, h=28, f=th.small_font(), pad=10)

    # --- the game panel -------------------------------------------------------------------------

    def _game_panel(self, c: Controller, play: InGame) -> None:
        """One column (the table with the counts beside it, then buttons, legal moves, the move list,
        settings) or, when the panel is wide (under the board), two columns."""
        p = self.layout.panel
        two = p.width >= 640
        col_w = (p.width - 3 * th.PAD) // 2 if two else p.width - 2 * th.PAD
        x1 = p.x + th.PAD
        x2 = p.x + 2 * th.PAD + col_w if two else x1
        y = p.y + th.PAD
        y += self._wrapped(x1, y, p.width - 2 * th.PAD, self._title(c, play), th.body_font(), th.MUTED) + 8
        top = y
        n = c.variant.size
        if two:
            table_w = min(col_w, int((p.bottom - y - th.PAD - 150) * 1.0))
        else:
            table_w = min(224, col_w - 132)
        bottom_of_table = self._table(c, play, x1, y, max(14 * n, table_w))
        if two:
            y = self._controls(c, play, x1, bottom_of_table + 12, col_w)
            y = self._notes(c, x2, top, col_w)
            y = self._info(c, play, x2, y, col_w)
        else:
            table_right = x1 + max(14 * n, table_w) // n * n
            self._info(c, play, table_right + 14, top + 22, x1 + col_w - table_right - 14, compact=True)
            y = self._controls(c, play, x1, bottom_of_table + 12, col_w)
            y = self._notes(c, x1, y + 12, col_w)
        y = self._legal_moves(c, play, x2, y + 12, col_w)
        bottom = p.bottom - th.PAD - self._settings_height(col_w)
        self._move_list(c, play, x2, y + 8, col_w, bottom - 8 - (y + 8))
        self._settings(c, x2, bottom, col_w)

    @staticmethod
    def _title(c: Controller, play: InGame) -> str:
        level, human = play.mode.level, play.mode.human
        if level is not None and human is not None:
            how = f"vs computer · {LEVEL_TITLES[level]} · you play {human.label.capitalize()}"
        else:
            how = "2 players on this device"
        return f"{c.variant.title} · {how}"

    def _table(self, c: Controller, play: InGame, x, y, w) -> int:
        """The "Button controls" table: the board as buttons, turned like the 3D board, ``w`` wide."""
        v = c.variant
        n = v.size
        y += self._heading(x, y, "Button controls")
        cell = max(14, min(w // n, 44))
        pieces = play.game.position.pieces()
        targets, rings = c.targets(), c.final_rings()
        capturers = c.capturers()
        flipped = c.second_side_near()
        cursor = c.cursor_square() if c.cursor_visible else None
        cursor_cell = c.cursor
        last = c.last_move()
        last_path = set(last[0].path) if last else set()
        font = th.font(max(9, cell // 3))
        for rank in range(n):
            for file in range(n):
                col, row = (n - 1 - file, rank) if flipped else (file, n - 1 - rank)
                rect = pygame.Rect(x + col * cell, y + row * cell, cell, cell)
                sq = coords_square(v, file, rank)
                if sq is None:
                    pygame.draw.rect(self.surface, th.LIGHT_SQUARE, rect)
                    if c.cursor_visible and cursor_cell == (file, rank):
                        pygame.draw.rect(self.surface, th.FOCUS, rect, width=2)
                    continue
                hit_id = f"cell:{sq}"
                colour = th.DARK_SQUARE
                if sq in last_path:
                    colour = (150, 96, 52)
                if self._hover == hit_id:
                    colour = th.lighter(colour, 25)
                pygame.draw.rect(self.surface, colour, rect)
                self.hits.append(Hit(rect, it.SquarePressed(sq), hit_id))
                piece = pieces.get(sq)
                r = int(cell * 0.38)
                if piece is not None:
                    fill, edge = th.PIECE_COLOURS[piece.color.label]
                    pygame.draw.circle(self.surface, fill, rect.center, r)
                    pygame.draw.circle(self.surface, edge, rect.center, r, width=max(1, cell // 16))
                    if piece.king:
                        pygame.draw.circle(self.surface, th.ACCENT, rect.center, max(2, r // 2), width=max(2, cell // 12))
                if sq in capturers:
                    pygame.draw.circle(self.surface, th.ACCENT, rect.center, r + 2, width=2)
                if sq == c.selected:
                    pygame.draw.rect(self.surface, th.ACCENT, rect, width=3)
                if sq in targets:
                    pygame.draw.circle(self.surface, th.GREEN, rect.center, max(3, cell // 7))
                if sq in rings:
                    pygame.draw.circle(self.surface, th.GREEN, rect.center, int(cell * 0.32), width=2)
                if sq in c.entered:
                    pygame.draw.circle(self.surface, th.ACCENT, rect.center, max(3, cell // 8))
                if c.settings.square_numbers:
                    self.surface.blit(th.text(font, str(sq), (235, 215, 180)), (rect.x + 2, rect.y + 1))
                if sq == cursor:
                    pygame.draw.rect(self.surface, th.FOCUS, rect, width=3)
        pygame.draw.rect(self.surface, th.CARD_EDGE, (x - 1, y - 1, n * cell + 2, n * cell + 2), width=1)
        return y + n * cell

    def _controls(self, c: Controller, play: InGame, x, y, w) -> int:
        g = play.game
        human = c.is_human_turn()
        if c.confirming_resign:
            y += self._label(x, y, "Resign this game?", th.body_font(), th.TEXT) + 6
            return y + self._flow(x, y, w, [("Yes, resign", it.ConfirmResign(), {"style": "danger"}),
                                            ("Keep playing", it.Cancel(), {})])
        can_offer = human and g.can_offer_draw()[0]
        self._button((x, y, w, th.BUTTON_H), "Offer a draw with your next move", it.OfferDraw(),
                     enabled=human and (can_offer or c.offer_armed), active=c.offer_armed, hit_id="btn:offer")
        y += th.BUTTON_H + th.GAP
        if c.offer_pending_for_player():
            self._button((x, y, w, th.BUTTON_H), "Accept draw", it.AcceptDraw(), style="primary",
                         hit_id="btn:accept-panel")
            y += th.BUTTON_H + th.GAP
        items = [("Undo move", it.Undo(), {"enabled": c.can_undo()}),
                 ("Resign", it.Resign(), {"enabled": not g.is_over}),
                 ("Play again", it.PlayAgain(), {}),
                 ("Change mode", it.ChangeMode(), {}),
                 ("Flip board", it.FlipBoard(), {})]
        return y + self._flow(x, y, w, items, f=th.small_font(), pad=10)

    def _info(self, c: Controller, play: InGame, x, y, w, compact: bool = False) -> int:
        """Pieces left (men and kings), moves left before an automatic draw, the last move."""
        g = play.game
        pos = g.position
        f = th.small_font() if compact else th.body_font()
        y += self._heading(x, y, "Pieces left")
        for color in (c.variant.first_player, c.variant.first_player.opponent):
            men, kings = pos.count(color)
            fill, edge = th.PIECE_COLOURS[color.label]
            line = f.get_linesize()
            pygame.draw.circle(self.surface, fill, (x + 7, y + line // 2), 6)
            pygame.draw.circle(self.surface, edge, (x + 7, y + line // 2), 6, width=1)
            counts = f"{men} {'man' if men == 1 else 'men'} · {kings} {'king' if kings == 1 else 'kings'}"
            if compact:
                y += self._label(x + 18, y, color.label.capitalize(), f)
                y += self._label(x + 18, y, counts, f, th.MUTED) + 6
            else:
                self._label(x + 20, y, color.label.capitalize(), f)
                y += self._label(x + 90, y, counts, f) + 3
        y += 6
        left = g.moves_until_draw
        if left is not None:
            y += self._wrapped(x, y, w, f"Automatic draw in {left} moves each", th.small_font(), th.MUTED) + 2
        last = c.last_move()
        if last is not None:
            move, before = last
            y += self._wrapped(x, y, w, f"Last move: {c.move_text(move, before)}", th.small_font(), th.MUTED)
        return y

    def _legal_moves(self, c: Controller, play: InGame, x, y, w) -> int:
        y += self._heading(x, y, "Legal moves")
        moves = c.legal_moves()
        if not moves:
            text = "—" if play.game.is_over else "Waiting for the computer…"
            return y + self._label(x, y, text, th.small_font(), th.MUTED) + 4
        texts = sorted(((c.move_text(m), m) for m in moves), key=lambda tm: (tm[1].start, tm[1].end, tm[0]))
        items = [(text, it.PlayMoveFromList(m), {"hit_id": f"move:{text}"}) for text, m in texts]
        return y + self._flow(x, y, w, items, h=26, f=th.small_font(), pad=8) + 4

    def _move_list(self, c: Controller, play: InGame, x, y, w, h) -> None:
        if h < 40:
            return
        y += self._heading(x, y, "Moves")
        g = play.game
        rows: list[tuple[int, str, str]] = []
        for before, move, offered in zip(g.positions, g.moves, g.draw_offers, strict=False):
            text = c.move_text(move, before) + (" (=)" if offered else "")
            first = before.turn is c.variant.first_player
            if first or not rows:
                rows.append((len(rows) + 1, text if first else "…", "" if first else text))
            else:
                rows[-1] = (rows[-1][0], rows[-1][1], text)
        line_h = th.small_font().get_linesize() + 2
        fit = max(1, (h - 24) // line_h)
        f = th.small_font()
        if not rows:
            self._label(x, y, "No moves yet", f, th.MUTED)
            return
        if len(rows) > fit:
            rows = rows[-fit:]
        for number, a, b in rows:
            self._label(x, y, f"{number}.", f, th.MUTED, right=x + 34)
            self._label(x + 42, y, a, f)
            self._label(x + 42 + min(120, w // 2), y, b, f)
            y += line_h

    # --- over the board -------------------------------------------------------------------------

    def _board_overlays(self, c: Controller, play: InGame) -> None:
        b = self.layout.board
        # status line, top left
        status = c.status()
        if c.waiting_for_opponent:
            status = status.rstrip("…") + "." * (1 + int(self._now * 3) % 3)
        f = th.font(17, bold=True)
        lines = [(status, f, th.TEXT)]
        if c.notice:
            lines.append((c.notice, th.body_font(), th.ACCENT))
        width = min(b.width - 230, max(f.size(t)[0] if ff is f else ff.size(t)[0] for t, ff, _ in lines) + 28)
        height = sum(ff.get_linesize() for _, ff, _ in lines) + 16 + 4 * (len(lines) - 1)
        if width > 80:
            rect = pygame.Rect(b.x + 14, b.y + 10, width, height)
            self.over_view |= rect.bottom > self.layout.view.y
            self._pill(rect)
            ty = rect.y + 8
            for t, ff, colour in lines:
                img = th.text(ff, t, colour)
                self.surface.blit(img, (rect.x + 14, ty), area=pygame.Rect(0, 0, rect.width - 28, img.get_height()))
                ty += ff.get_linesize() + 4
        # view buttons, top right
        vx = b.right - 14 - 2 * 92 - th.GAP
        for i, (view, label) in enumerate(VIEW_TITLES.items()):
            self._button((vx + i * (92 + th.GAP), b.y + 12, 92, 32), label, it.SetView(view),
                         active=c.view == view, hit_id=f"view:{view}", font=th.small_font())
        # below the board: Deselect, Accept draw, the draw countdown
        items: list[tuple[str, it.Intent, dict]] = [
            ("Deselect", it.Deselect(), {"enabled": c.selected is not None, "hit_id": "btn:deselect"})]
        if c.offer_pending_for_player():
            items.append(("Accept draw", it.AcceptDraw(), {"style": "primary", "hit_id": "btn:accept-board"}))
        f = th.body_font()
        total = sum(f.size(t)[0] + 28 for t, _, _ in items) + th.GAP * (len(items) - 1)
        left = play.game.moves_until_draw
        countdown = f"Draw in {left} {'move' if left == 1 else 'moves'} each" if left is not None and left <= 5 else None
        self.countdown = countdown
        if countdown:
            total += f.size(countdown)[0] + 28 + th.GAP
        x, y = b.centerx - total // 2, b.bottom - 12 - th.BUTTON_H
        for label, intent, opts in items:
            bw = f.size(label)[0] + 28
            self._button((x, y, bw, th.BUTTON_H), label, intent, **opts)
            x += bw + th.GAP
        if countdown:
            rect = pygame.Rect(x, y, f.size(countdown)[0] + 28, th.BUTTON_H)
            self._pill(rect, (120, 60, 20, 220))
            img = th.text(f, countdown, th.TEXT)
            self.surface.blit(img, img.get_rect(center=rect.center))
        if play.game.is_over:
            self._result_card(c)

    def _result_card(self, c: Controller) -> None:
        self.over_view = True
        b = self.layout.board
        head, _, reason = c.status().partition(": ")
        big = th.font(30, bold=True)
        w = max(320, big.size(head)[0] + 60, th.body_font().size(reason)[0] + 60)
        rect = pygame.Rect(0, 0, min(w, b.width - 40), 150)
        rect.center = (b.centerx, b.centery)
        self._pill(rect, (20, 24, 31, 230))
        pygame.draw.rect(self.surface, th.ACCENT, rect, width=2, border_radius=th.RADIUS)
        y = rect.y + 16
        img = th.text(big, head, th.ACCENT)
        self.surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
        y += img.get_height() + 6
        img = th.text(th.body_font(), reason[:1].upper() + reason[1:], th.TEXT)
        self.surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
        bw = 140
        bx = rect.centerx - bw - th.GAP // 2
        self._button((bx, rect.bottom - 16 - th.BUTTON_H, bw, th.BUTTON_H), "Play again", it.PlayAgain(),
                     style="primary", hit_id="card:again")
        self._button((bx + bw + th.GAP, rect.bottom - 16 - th.BUTTON_H, bw, th.BUTTON_H), "Change mode",
                     it.ChangeMode(), hit_id="card:mode")


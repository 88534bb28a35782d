"""The panel's sections for studying a game (see ``game.ui.column`` for sections): the review's arrows
and "Play from here", the engine's analysis and hint, the game report's graph, the game's file; and
the evaluation bar beside the board. Each draws with a :class:`game.ui.paint.Painter` at ``(x, y)`` in
width ``w`` and returns the height it used."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from engine import Color
from game.computer.analysis import men_ahead, score_words, white_view, winning_chance
from game.modes import Level
from game.play import intents as it
from game.play.machine import NOT_WITH_FRIEND
from game.play.phases import InGame, Reviewing, in_friend_game

from . import theme as th
from .common import LEAVING, LEVEL_TITLES
from .paint import Item, Painter, section

if TYPE_CHECKING:
    from engine import Position
    from game.play.machine import Controller

EVAL_BAR_W = 14  # the evaluation bar beside the board
EVAL_STRIP_W = 40  # its strip: room for the score and the side ahead at the bar's ends ("+12.50", "White")
EVAL_LABEL_PX = 9
GRAPH_H = 76
GRAPH_WHITE, GRAPH_BLACK = (240, 226, 192, 110), (170, 84, 60, 150)  # the graph's areas: White's lead, Black's
PV_MOVES = 10  # moves of the principal variation shown


@section("review")
def review_section(paint: Painter, c: Controller, play: InGame, x, y, w) -> int:
    """Arrows through the moves; in a review, "Play from here" and "Back to the game"."""
    game = play.game
    reviewing = isinstance(play, Reviewing)
    if (not game.moves and not reviewing) or in_friend_game(c.phase):
        return 0
    top = y
    y += paint.heading(x, y, "Review")
    ply, last = c.shown_ply(), len(game.moves)
    back = None if ply > 0 else "This is the start of the game"
    forward = None if ply < last else "This is the game's last move"
    arrows: list[tuple[str, it.Intent, str, str | None]] = [
        ("|◀", it.ReviewTo(0), "start", back), ("◀", it.ReviewStep(-1), "back", back),
        ("▶", it.ReviewStep(1), "forward", forward), ("▶|", it.ReviewTo(None), "end", forward)]
    bw = min(56, (w - 3 * th.GAP) // 4)
    for i, (label, intent, name, why) in enumerate(arrows):
        paint.button((x + i * (bw + th.GAP), y, bw, 30), label, intent, why=why, hit_id=f"review:{name}",
                     font=th.body_font())
    y += 30 + 4
    y += paint.wrapped(x, y, w, "Home, PageUp, PageDown, End; or press a move", th.small_font(), th.MUTED)
    if not reviewing:
        return y - top
    assert isinstance(play, Reviewing)
    position = game.positions[ply]
    over = ply == last and game.is_over or not position.legal_moves()
    y += 10
    who = position.variant.side_name(position.turn)
    y += paint.heading(x, y, "Play from here")
    y += paint.wrapped(x, y, w, f"You play {who} (to move) against the computer, or two players", th.small_font(),
                     th.MUTED) + 4
    if c.leaving_counts():
        y += paint.wrapped(x, y, w, LEAVING, th.small_font(), th.ACCENT) + 4
    why = "The game is over in this position" if over else None
    items = [(LEVEL_TITLES[level], it.PlayFromHere(level), {"why": why, "hit_id": f"from:{level}"})
             for level in Level]
    items.append(("2 players", it.PlayFromHere(None), {"why": why, "hit_id": "from:players"}))
    y += paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10)
    if play.under is not None:
        y += th.GAP
        paint.button((x, y, w, th.BUTTON_H), "Back to the game", it.BackToGame(), style="primary",
                   hit_id="review:back-to-game")
        y += th.BUTTON_H
    return y - top


@section("engine")
def engine_section(paint: Painter, c: Controller, play: InGame, x, y, w) -> int:
    """Analyze (on or off), Hint (against the computer), Analyze game; what the engine found."""
    top = y
    y += paint.heading(x, y, "Computer analysis")
    # not offered (a game against the computer going on: a Hint there): greyed, and saying why when pressed
    analyze = {"active": c.studies.analysis_on, "hit_id": "btn:analyze",
               "why": None if c.studies.analysis_on else c.studies.why_no_analysis(c.phase)}
    items: list[Item] = [("Analyze", it.ToggleAnalysis(), analyze)]
    if play.mode.vs_computer and not isinstance(play, Reviewing) and not play.game.is_over:
        items.append(("Hint", it.Hint(), {"why": c.studies.why_no_hint(c.phase), "hit_id": "btn:hint"}))
    items.append(("Analyze game", it.AnalyzeGame(), {"why": c.studies.why_no_report(c.phase),
                                                     "hit_id": "btn:analyze-game"}))
    y += paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10)
    study = c.studies.study
    if study is None:
        return y - top
    y += 8
    f, small = th.body_font(), th.small_font()
    if study.note and study.line is None:
        return y + paint.wrapped(x, y, w, study.note, small, th.MUTED) - top
    line, position = study.line, study.position
    if line is None or position is None:
        return y + paint.label(x, y, "Thinking…", small, th.MUTED) - top
    if study.kind == "hint" and line.best is not None:
        y += paint.label(x, y, f"Hint: {c.move_text(line.best, position)}", f, th.ACCENT) + 2
    y += paint.wrapped(x, y, w, score_words(line.score, position.turn, position.variant), th.font(16, bold=True), th.TEXT) + 2
    depth = f"depth {line.depth}" + (" · thinking" if study.running else "")
    y += paint.label(x, y, f"{men_ahead(white_view(line.score, position.turn))} for "
                     f"{position.variant.side_name(Color.WHITE)} · {depth}", small,
                   th.MUTED) + 2
    pv = pv_text(c, position, line.pv[:PV_MOVES])
    if pv:
        y += paint.wrapped(x, y, w, pv, small, th.TEXT)
    return y - top


def pv_text(c: Controller, position: Position, pv: tuple[str, ...]) -> str:
    """A principal variation (numeric move text from the engine) as the notation setting writes it,
    numbered from ``position``."""
    out, pos = [], position
    for text in pv:
        try:
            move = pos.parse_move(text)
        except ValueError:
            break
        out.append(c.move_text(move, pos))
        pos = pos.play(move)
    return " ".join(out)


@section("report")
def report_section(paint: Painter, c: Controller, play: InGame, x, y, w) -> int:
    """The game report: its progress, then the graph of the score over the game (press it to jump
    there), and how many mistakes and blunders."""
    report = c.studies.current_report(c.game)
    if report is None and not c.studies.report_running:
        return 0
    top = y
    y += paint.heading(x, y, "Game report")
    small = th.small_font()
    total = len(play.game.moves) + 1
    if c.studies.report_running:
        done = len(report.scores) if report is not None else 0
        y += paint.label(x, y, f"Analysing the game… {done} of {total} positions", small, th.MUTED) + 4
        bar = pygame.Rect(x, y, w, 6)
        pygame.draw.rect(paint.surface, th.CARD, bar, border_radius=3)
        pygame.draw.rect(paint.surface, th.ACCENT, (x, y, max(6, w * done // total), 6), border_radius=3)
        paint.note(bar, "progress")
        y += 6 + 8
    if report is None or len(report.scores) < 2:
        return y - top
    y += _graph(paint, c, report, pygame.Rect(x, y, w, GRAPH_H)) + 6
    marks = report.marks()
    blunders = sum(1 for m in marks.values() if m == "??")
    mistakes = len(marks) - blunders
    summary = (f"{mistakes} mistake{'s' if mistakes != 1 else ''} (?) · {blunders} blunder{'s' if blunders != 1 else ''}"
               " (??) · press the graph to go there")
    y += paint.wrapped(x, y, w, summary, small, th.MUTED, " · ")
    return y - top


def _graph(paint: Painter, c: Controller, report, rect: pygame.Rect) -> int:
    """White's score over the game (up: White ahead), the marked moves, the position shown; a press on
    a column shows that position."""
    surface = paint.surface
    pygame.draw.rect(surface, th.CARD, rect, border_radius=4)
    n = len(c.game.moves) if c.game is not None else report.plies
    points = report.graph_points()
    mid = rect.centery
    span = rect.height // 2 - 6

    def at(ply: int, value: float = 0.0) -> tuple[int, int]:
        return rect.x + 4 + (rect.width - 8) * ply // max(1, n), int(mid - value * span)

    pygame.draw.line(surface, th.CARD_EDGE, (rect.x + 4, mid), (rect.right - 4, mid))
    if len(points) > 1:
        outline = [at(i, v) for i, v in enumerate(points)]
        area = [(px - rect.x, py - rect.y) for px, py in [at(0)] + outline + [at(len(points) - 1)]]
        for colour, keep in ((GRAPH_WHITE, pygame.Rect(0, 0, rect.width, mid - rect.y)),
                             (GRAPH_BLACK, pygame.Rect(0, mid - rect.y, rect.width, rect.bottom - mid))):
            fill = pygame.Surface(rect.size, pygame.SRCALPHA)
            fill.set_clip(keep)  # White's lead above the middle, Black's below, each in its colour
            pygame.draw.polygon(fill, colour, area)
            surface.blit(fill, rect.topleft)
        pygame.draw.lines(surface, th.TEXT, False, outline, 2)
    shown = c.shown_ply()
    sx, _ = at(shown)
    pygame.draw.line(surface, th.ACCENT, (sx, rect.y + 3), (sx, rect.bottom - 3), 2)
    for index, mark in report.marks().items():
        pygame.draw.circle(surface, th.MARK_COLOURS[mark], at(index + 1, points[index + 1]), 4 if mark == "??" else 3)
    small = th.small_font()
    surface.blit(th.text(small, c.variant.side_name(Color.WHITE), th.MUTED), (rect.x + 6, rect.y + 2))
    surface.blit(th.text(small, c.variant.side_name(Color.BLACK), th.MUTED),
                 (rect.x + 6, rect.bottom - small.get_linesize() - 1))
    paint.note(rect, "graph")
    if not paint.measuring:
        for ply in range(n + 1):
            left = at(ply)[0] - ((rect.width - 8) // max(1, n)) // 2
            right = at(ply + 1)[0] - ((rect.width - 8) // max(1, n)) // 2 if ply < n else rect.right
            column = pygame.Rect(max(rect.x, left), rect.y, max(1, min(rect.right, right) - max(rect.x, left)),
                                 rect.height)
            paint.add_hit(column, it.ReviewTo(ply), f"graph:{ply}")
    return rect.height


@section("files")
def files_section(paint: Painter, c: Controller, x, y, w) -> int:
    """The game as PDN (saved in the games folder, copied), its position as FEN; open another, set up a
    position."""
    top = y
    y += paint.heading(x, y, "Games and positions")
    busy = NOT_WITH_FRIEND if in_friend_game(c.phase) else None  # a friend's game keeps the screen until it is over
    items: list[Item] = [("Save game", it.SaveGame(), {"hit_id": "btn:save"}),
             ("Copy PDN", it.CopyPdn(), {"hit_id": "btn:copy-pdn"}),
             ("Copy FEN", it.CopyFen(), {"hit_id": "btn:copy-fen"}),
             ("Open a game…", it.OpenBrowser(), {"hit_id": "btn:open", "why": busy}),
             ("Set up a position", it.EditPosition(), {"hit_id": "btn:edit", "why": busy})]
    return y + paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10) - top


@section("games")
def mode_section(paint: Painter, c: Controller, x, y, w) -> int:
    """On the mode screen: open a game, set up a position (the buttons say it: no heading, the screen is
    full)."""
    items: list[Item] = [("Open a game…", it.OpenBrowser(), {"hit_id": "btn:open"}),
                         ("Set up a position", it.EditPosition(), {"hit_id": "btn:edit"})]
    return paint.flow(x, y, w, items, h=30, f=th.small_font(), pad=10)


@section("games-help")
def mode_help(paint: Painter, x, y, w) -> int:
    """On the mode screen, where there is room: the other ways a game comes in."""
    return paint.wrapped(x, y, w, "Or drop a PDN file on the window, or paste PDN or a FEN with Ctrl+V.",
                       th.small_font(), th.MUTED)


def evaluation(c: Controller) -> int | None:
    """White's score of the position shown, as the analysis or the game report has it (None: none)."""
    study, shown = c.studies.study, c.shown_position()
    if study is not None and study.line is not None and study.position is not None and study.position == shown:
        return white_view(study.line.score, study.position.turn)
    report = c.studies.current_report(c.game)
    if report is not None and c.editing is None and c.shown_ply() < len(report.scores):
        return report.white_score(c.shown_ply())
    return None


def shows_evaluation(c: Controller) -> bool:
    """Whether the evaluation bar stands beside the board: while the analysis is on, or a game report
    is there."""
    return c.in_game is not None and (c.studies.analysis_on or c.studies.current_report(c.game) is not None)


def evaluation_bar(paint: Painter, c: Controller, strip: pygame.Rect) -> None:
    """The evaluation bar in ``strip`` (beside the 3D view): the near side's colour from the bottom as
    far as its winning chance, the far side's above; at the end of the side ahead, the score in men
    and who it favours ("+0.24" over "Black"), inside the strip (room for both lines is kept)."""
    f = th.font(EVAL_LABEL_PX, bold=True)
    label_h = 2 * f.get_linesize() + 2
    bar = pygame.Rect(0, 0, EVAL_BAR_W, max(40, strip.height - 2 * (label_h + 4)))
    bar.center = strip.center
    score = evaluation(c)
    near = c.hand.near_color(c.variant, c.mode)
    chance = 0.5 if score is None else winning_chance(score if near is Color.WHITE else -score)
    near_fill = th.piece_colours(c.variant, near)[0]
    far_fill = th.piece_colours(c.variant, near.opponent)[0]
    pygame.draw.rect(paint.surface, far_fill, bar, border_radius=3)
    height = int(round(bar.height * chance))
    pygame.draw.rect(paint.surface, near_fill, (bar.x, bar.bottom - height, bar.width, height),
                     border_bottom_left_radius=3, border_bottom_right_radius=3)
    pygame.draw.line(paint.surface, th.ACCENT, (bar.x - 2, bar.centery), (bar.right + 1, bar.centery))
    pygame.draw.rect(paint.surface, th.CARD_EDGE, bar, width=1, border_radius=3)
    paint.note(bar, "evaluation bar")
    if score is None:
        return
    ahead = Color.WHITE if score > 0 else Color.BLACK if score < 0 else None
    number = men_ahead(abs(score)).replace(" in ", " ") if ahead is not None else "0.00"
    side = c.variant.side_name(ahead) if ahead is not None else "Even"
    at_bottom = ahead is None or ahead is near
    # the side's name at the strip's end, the number next to the bar
    images = [th.text(f, line, th.TEXT) for line in ((number, side) if at_bottom else (side, number))]
    y = bar.bottom + 3 if at_bottom else bar.y - 3 - sum(img.get_height() for img in images)
    top = y
    for img in images:
        paint.surface.blit(img, img.get_rect(midtop=(strip.centerx, y)))
        y += img.get_height()
    width = max(img.get_width() for img in images)
    paint.note((strip.centerx - width // 2, top, width, y - top), "evaluation", f"{number} {side}")

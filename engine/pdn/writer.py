"""Writing PDN: the seven-tag roster (Event, Site, Date, Round, White, Black, Result), GameType, FEN
when the start is not the standard one, the other tags as read, numbered movetext wrapped at
:data:`LINE_WIDTH` columns with marks, NAGs and comments, and the result. A draw offer rides on a move
as the comment ``{(=)}`` (the symbol FIDE's Laws of Chess, Appendix C.13, have players write on the
scoresheet; PDN has no mark of its own). Reading what was written gives the same games.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from ..position import Position
from .model import DRAW_OFFER, PdnGame, tag_value

LINE_WIDTH = 80  # movetext is wrapped to this many columns when written
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
ROSTER_UNKNOWN = {"Date": "????.??.??", "Result": "*"}  # else "?" (PDN 3.0 "PDN Tags")
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")


def _quote(value: str) -> str:
    return '"' + " ".join(value.splitlines()).replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_game(game: PdnGame) -> str:
    """The game as PDN text (see the module's docstring); its variant and start must be known."""
    variant, start = game.variant, game.start
    assert variant is not None and start is not None
    tags: dict[str, str] = {}
    for name in ROSTER:
        value = tag_value(game.tags, name)
        tags[name] = ROSTER_UNKNOWN.get(name, "?") if value is None else value
    tags["Result"] = game.result
    tags["GameType"] = tag_value(game.tags, "GameType") or str(variant.pdn_game_type)
    standard = start == Position.initial(variant)
    if not standard:
        tags["FEN"] = start.fen()
    skip = {n.lower() for n in tags} | {"fen", "gametype"} | ({"setup"} if standard else set())
    for name, value in game.tags.items():
        if name.lower() not in skip:
            tags[name] = value
    head = "".join(f"[{name} {_quote(value)}]\n" for name, value in tags.items())
    return head + "\n" + "\n".join(_wrap(_movetext(game, start))) + "\n\n"


def _movetext(game: PdnGame, start: Position) -> list[str]:
    """The movetext as pieces that may be wrapped between (a move with its number is one piece)."""
    pieces: list[str] = []
    for comment in game.comments:
        pieces += _comment_pieces(comment)
    assert game.variant is not None
    pos, number, second = start, 1, start.turn is not game.variant.first_player
    after_comment = True
    for pm in game.moves:
        text = pos.move_text(pm.move) + pm.mark
        if not second:
            text = f"{number}. {text}"
        elif after_comment:
            text = f"{number}... {text}"
        pieces.append(text)
        pieces += [f"${n}" for n in pm.nags]
        if pm.draw_offer:
            pieces.append("{" + DRAW_OFFER + "}")
        for comment in pm.comments:
            pieces += _comment_pieces(comment)
        after_comment = pm.draw_offer or bool(pm.comments)
        pos = pos.play(pm.move)
        number, second = (number + 1, False) if second else (number, True)
    pieces.append(game.result if game.result in RESULTS else "*")
    return pieces


def _comment_pieces(comment: str) -> list[str]:
    words = comment.replace("}", ")").split() or [""]
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _wrap(pieces: list[str]) -> list[str]:
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if line and len(line) + 1 + len(piece) > LINE_WIDTH:
            lines.append(line)
            # a comment word must not start a line as if it were an escaped line or a tag pair
            line = " " + piece if piece.startswith(("%", "[")) else piece
        else:
            line = f"{line} {piece}" if line else piece
    if line:
        lines.append(line)
    return lines


def write_games(games: Iterable[PdnGame], out: TextIO) -> int:
    """Write games as PDN to ``out``, one after another; returns how many were written."""
    count = 0
    for game in games:
        out.write(game.pdn())
        count += 1
    return count

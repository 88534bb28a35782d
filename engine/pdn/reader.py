"""Reading PDN: tokens grouped into games and fed to a visitor, as python-chess's ``read_game`` feeds
a ``BaseVisitor`` (its ``GameBuilder`` makes the games).

Reading follows the PDN 3.0 standard (pdn.fmjd.org, the "reading grammar" for files as they come) and
the PDN 2.0 draft for American checkers (M. Cash, nemesis.info/pdn2.txt):

* several games a file; a game ends at its result (``1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 *``), at the
  next game's tags (a tag after the movetext, or one the game already has), or at the end of the file;
* comments go with the move they follow (before the first move: the game's opening comment);
  ``(...)`` variations, nested, are skipped;
* move numbers ``12.`` and ``12...`` (and ``12. ...``); strength marks glued or apart (``!``, ``?``,
  ``!!``, ``??``, ``!?``, ``?!``, ``(?)`` ...), NAGs ``$3``, and ``*`` glued to a move (a forced move,
  stored as NAG 7) -- a ``*`` on its own ends the game; a draw offer as the comment ``{(=)}`` or a
  glued ``(=)``.

:class:`PdnReader` keeps the structure (where a game ends, variations, move numbers, the limits
:data:`MAX_GAME_CHARS` and :data:`MAX_PLIES`, the first problem, after which the rest of the game is
skipped) and calls a :class:`PdnVisitor` for what a game holds; :class:`GameBuilder` is the visitor
that collects a :class:`~engine.pdn.model.RawGame`. :func:`read_file` and :func:`read_text` give
:class:`~engine.pdn.model.PdnGame` objects, one at a time for a file (memory stays bounded however
large it is).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

from ..variants import AMERICAN, INTERNATIONAL
from .model import DRAW_OFFER, PdnGame, RawGame, RawMove, clean_comment, fen_max_square, tag_value
from .tokens import (
    COMMENT,
    ELLIPSIS,
    LPAREN,
    MARK,
    MOVE,
    MOVE_MARK,
    NAG,
    NUMBER,
    RESULT,
    RPAREN,
    SETUP,
    TAG,
    TAG_ERROR,
    UNCLOSED,
    Token,
    file_lines,
    text_lines,
    tokens,
)

MAX_PLIES = 5000  # moves kept per game; far beyond any real game (the draw rules end games long before)
MAX_GAME_CHARS = 2_000_000  # text kept per game (tags, moves, comments); the rest of such a game is skipped
MAX_WARNINGS = 20  # per game
FORCED_NAG = 7  # PGN's "forced move", what a glued * means in draughts publications
_READ_TAG_ERRORS = {"fen": "FEN", "gametype": "GameType"}  # tags whose bad value matters to the reading

T = TypeVar("T")


class PdnVisitor(Generic[T]):
    """What a game holds, told in order by :class:`PdnReader` (python-chess's ``BaseVisitor``). Only
    the main line is told: variations and the rest of a game after its first problem are skipped."""

    def begin_game(self, line: int) -> None:
        """A game starts at ``line``."""

    def visit_tag(self, name: str, value: str, line: int) -> None:
        """A tag pair (a name it already has starts the next game, so each name comes once)."""

    def visit_tag_error(self, name: str, message: str, line: int) -> None:
        """The value of the FEN or GameType tag can't be read (``name`` is ``'FEN'`` or ``'GameType'``)."""

    def visit_comment(self, text: str, line: int) -> None:
        """A comment, its white space made single spaces (``'(=)'`` is a draw offer on the last move)."""

    def visit_move(self, text: str, line: int, number: int | None, second: bool | None) -> None:
        """A move as written (without a glued mark; ``c3d4`` as ``c3-d4``), with the move number just
        before it (``number``; ``second`` for ``12...``) or None."""

    def visit_mark(self, mark: str, line: int) -> None:
        """A strength mark, ``(=)`` (a draw offer) or ``*`` (a forced move) on the last move."""

    def visit_nag(self, nag: int, line: int) -> None:
        """A numeric annotation glyph on the last move."""

    def visit_warning(self, message: str) -> None:
        """A harmless oddity (a tag without a value, a stray ``)``), ignored."""

    def visit_error(self, message: str, line: int) -> None:
        """The first problem that cuts the game short (the rest of it is skipped), at ``line``."""

    def visit_result(self, text: str) -> None:
        """The game's terminating result."""

    def end_game(self) -> T:
        """The game is over: what the visitor made of it."""
        raise NotImplementedError


class PdnReader(Generic[T]):
    """Groups tokens into games and tells each to a fresh visitor from ``make_visitor``; the games
    that hold anything (a tag, a move, a problem) are yielded as their visitors' ``end_game()``.
    A lone comment or result between games is no game."""

    def __init__(self, make_visitor: Callable[[], PdnVisitor[T]]):
        self.make_visitor = make_visitor
        self._new_game()

    def _new_game(self) -> None:
        self.visitor = self.make_visitor()
        self.begun = False  # begin_game told (at the game's first token)
        self.has_content = False  # a tag, a move or a problem: worth a game
        self.tag_names: set[str] = set()  # the tags the game has (a second one starts the next game) ...
        self.tag_error_names: set[str] = set()  # ... and those of _READ_TAG_ERRORS it has with a bad value
        self.chars = 0  # text kept: tags, comments, movetext
        self.plies = 0  # moves told
        self.last_move = ""  # the last move told, for messages
        self.depth = 0  # variation nesting
        self.variation_line = 0  # where the outermost open variation started
        self.in_movetext = False  # a tag now starts the next game
        self.failed = False  # a problem cut this game short: skip to its end
        self.number: int | None = None  # the move number read just before the next move
        self.second: bool | None = None  # its dots: True for "12..."

    def games(self, stream: Iterable[Token]) -> Iterator[T]:
        """The games of the tokens, one at a time."""
        for kind, line, text, extra in stream:
            if not self.begun:
                self.visitor.begin_game(line)
                self.begun = True
            if self.chars > MAX_GAME_CHARS and not self.failed:
                self._fail(f"the game is longer than {MAX_GAME_CHARS:,} characters; the rest of it was skipped", line)
                self.in_movetext = True  # the next tag starts a new game
            if kind == TAG or kind == TAG_ERROR:
                name = text if kind == TAG else extra
                if self.in_movetext or (name and (name in self.tag_names or name in self.tag_error_names)):
                    yield from self._finish()
                    self.visitor.begin_game(line)
                    self.begun = True
                if not self.failed:
                    self._tag(kind, line, text, extra)
            elif kind == UNCLOSED:
                self._fail("a comment opened here with '{' is not closed", line)
                self.in_movetext = True  # the next tag starts a new game
            elif kind == COMMENT:
                if self.depth == 0 and not self.failed:
                    comment = clean_comment(text)
                    self.visitor.visit_comment(comment, line)
                    self.chars += len(comment)
            else:
                self.in_movetext = True
                if kind == RESULT:
                    if self.depth == 0:
                        self.visitor.visit_result(text)
                        yield from self._finish()
                elif kind == LPAREN:
                    if self.depth == 0:
                        self.variation_line = line
                    self.depth += 1
                elif kind == RPAREN:
                    if self.depth > 0:
                        self.depth -= 1
                    elif not self.failed:
                        self.visitor.visit_warning(f"line {line}: a ')' without its '(' was ignored")
                elif self.depth == 0 and not self.failed:
                    self.chars += len(text)
                    self._movetext(kind, line, text)
        yield from self._finish()

    def _tag(self, kind: int, line: int, text: str, extra: str) -> None:
        if kind == TAG:
            self.visitor.visit_tag(text, extra, line)
            self.tag_names.add(text)
            self.chars += len(text) + len(extra)
            self.has_content = True
        elif extra.lower() in _READ_TAG_ERRORS:
            name = _READ_TAG_ERRORS[extra.lower()]
            self.visitor.visit_tag_error(name, text, line)
            self.tag_error_names.add(name)
            self.has_content = True
        else:
            self.visitor.visit_warning(f"line {line}: {text}")

    def _movetext(self, kind: int, line: int, text: str) -> None:
        """A main-line token of the movetext that is neither a comment, a result nor a variation."""
        if kind == MOVE:
            if self.plies >= MAX_PLIES:
                self._fail(f"the game has more than {MAX_PLIES} moves; the rest of it was skipped", line)
                return
            body, suffix = MOVE_MARK.fullmatch(text).groups()  # type: ignore[union-attr]
            pair = _ALGEBRAIC_PAIR.fullmatch(body)
            if pair:  # "c3d4": algebraic squares without a separator
                body = f"{pair.group(1)}-{pair.group(2)}"
            self.visitor.visit_move(body, line, self.number, self.second)
            if suffix:
                self.visitor.visit_mark(suffix, line)
            self.plies += 1
            self.last_move = body
            self.has_content = True
            self.number = self.second = None
        elif kind == NUMBER:
            digits = text.rstrip(".…")
            self.number, self.second = int(digits), text[len(digits):] != "."
        elif kind == ELLIPSIS:  # "1. ... 7-12": the second player's move
            if self.number is not None:
                self.second = True
        elif kind == MARK:
            if self.plies:
                self.visitor.visit_mark(text, line)
            else:
                self.visitor.visit_warning(f"line {line}: the mark {text!r} before the first move was ignored")
        elif kind == NAG:
            if self.plies:
                self.visitor.visit_nag(int(text[1:]), line)
            else:
                self.visitor.visit_warning(f"line {line}: the annotation {text!r} before the first move was ignored")
        elif kind == SETUP:
            self._fail(f"a position set up inside the moves ({text[:60]!r}) is not supported", line)
        elif text in ("}", "]"):
            self.visitor.visit_warning(f"line {line}: a {text!r} without its opening bracket was ignored")
        else:
            after = f" after {self.last_move!r}" if self.plies else ""
            self._fail(f"can't read {text[:60]!r}{after} (expected a move such as 32-28 or 22x15, a move number, a "
                       "comment or a result)", line)

    def _fail(self, message: str, line: int) -> None:
        if not self.failed:
            self.visitor.visit_error(message, line)
        self.failed = True
        self.has_content = True

    def _finish(self) -> Iterator[T]:
        """The game read so far, if it holds anything; then a fresh one."""
        if self.depth > 0 and not self.failed:
            self._fail("a variation opened here with '(' is not closed", self.variation_line)
        done, worth = self.visitor.end_game(), self.has_content
        self._new_game()
        if worth:
            yield done


_ALGEBRAIC_PAIR = re.compile(r"([a-j](?:10|[1-9]))([a-j](?:10|[1-9]))", re.I)
_ALGEBRAIC = re.compile(r"([a-j])(10|[1-9])", re.I)


class GameBuilder(PdnVisitor[RawGame]):
    """The visitor that collects a game as read (python-chess's ``GameBuilder``)."""

    def __init__(self) -> None:
        self.game = RawGame(line=0)

    def begin_game(self, line: int) -> None:
        self.game.line = line

    def visit_tag(self, name: str, value: str, line: int) -> None:
        self.game.tags[name] = value
        if name.lower() == "fen":
            self.game.max_square = max(self.game.max_square, fen_max_square(value))

    def visit_tag_error(self, name: str, message: str, line: int) -> None:
        self.game.tag_errors[name] = message

    def visit_comment(self, text: str, line: int) -> None:
        """A comment goes with the move before it (a draw offer's "(=)" marks that move); before the
        first move it is the game's opening comment."""
        last = self.game.moves[-1] if self.game.moves else None
        if text == DRAW_OFFER and last is not None:
            last.draw_offer = True
        elif text and last is not None:
            last.comments.append(text)
        elif text:
            self.game.comments.append(text)

    def visit_move(self, text: str, line: int, number: int | None, second: bool | None) -> None:
        self.game.moves.append(RawMove(text, line, number, second))
        self.game.max_square = max(self.game.max_square, move_max_square(text))

    def visit_mark(self, mark: str, line: int) -> None:
        move = self.game.moves[-1]
        if mark == DRAW_OFFER:
            move.draw_offer = True
        elif mark == "*":
            move.nags.append(FORCED_NAG)
        else:
            move.mark = mark

    def visit_nag(self, nag: int, line: int) -> None:
        self.game.moves[-1].nags.append(nag)

    def visit_warning(self, message: str) -> None:
        warnings = self.game.warnings
        if len(warnings) < MAX_WARNINGS:
            warnings.append(message)
        elif len(warnings) == MAX_WARNINGS:
            warnings.append("(more warnings left out)")

    def visit_error(self, message: str, line: int) -> None:
        self.game.syntax_error, self.game.syntax_line = message, line

    def visit_result(self, text: str) -> None:
        self.game.terminator = text

    def end_game(self) -> RawGame:
        done = self.game
        # Some files end a game with its Result tag's value in a format of their own ("4-6"): that text
        # at the very end is the game's end, not a move.
        result = tag_value(done.tags, "Result")
        if done.terminator is None and done.moves and result and done.moves[-1].text == result:
            done.moves.pop()
            done.terminator = result
        return done


# --- the squares a text names (the rule set of a game without GameType) ---------------------------

def move_max_square(text: str) -> int:
    """The highest square a move names; an algebraic square beyond h8 counts as International (50)."""
    best = 0
    for token in re.split(r"\s*[-x:×]\s*", text.lower()):
        if token.isdigit():
            best = max(best, int(token))
        else:
            for m in _ALGEBRAIC.finditer(token):
                if m.group(1) in "ij" or m.group(2) in ("9", "10"):
                    best = max(best, INTERNATIONAL.squares)
    return best


def _max_square_of(lines: Iterable[tuple[int, str]]) -> int:
    """The highest square any move or FEN tag of the text names (read until one above 32)."""
    best = 0
    for kind, _, text, extra in tokens(lines):
        if kind == MOVE:
            best = max(best, move_max_square(MOVE_MARK.fullmatch(text).group(1)))  # type: ignore[union-attr]
        elif kind == TAG and text.lower() == "fen":
            best = max(best, fen_max_square(extra))
        if best > AMERICAN.squares:
            break
    return best


# --- games ------------------------------------------------------------------------------------------

def _games(open_lines: Callable[[], Iterator[tuple[int, str]]]) -> Iterator[PdnGame]:
    big_squares: list[bool] = []

    def file_has_big_squares() -> bool:  # read once, and only for a game that needs it
        if not big_squares:
            big_squares.append(_max_square_of(open_lines()) > AMERICAN.squares)
        return big_squares[0]

    for index, raw in enumerate(PdnReader(GameBuilder).games(tokens(open_lines())), start=1):
        yield PdnGame.from_raw(raw, index, file_has_big_squares)


def read_file(path: str | os.PathLike[str]) -> Iterator[PdnGame]:
    """The games of a PDN file, one at a time as the file is read (memory stays bounded however large
    it is; stop whenever). PdnFileError (raised while iterating) if the file can't be opened or isn't
    text; problems inside a game are in its :attr:`PdnGame.error`."""
    return _games(lambda: file_lines(path))


def read_text(text: str) -> list[PdnGame]:
    """The games of PDN text (pasted, or from a string). PdnFileError if it isn't text."""
    return list(_games(lambda: text_lines(text)))

"""PDN (Portable Draughts Notation) in and out: games as players keep and trade them.

Reading follows the PDN 3.0 standard (pdn.fmjd.org, the "reading grammar" for files as they come)
and the PDN 2.0 draft for American checkers (M. Cash, nemesis.info/pdn2.txt):

* several games a file; ``[Name "value"]`` tags (``\\"`` and ``\\\\`` escapes); a game ends at its
  result (``1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 *``), at the next game's tags, or at the end of the file;
* ``{...}`` and ``; ...`` comments, kept with the move they follow (before the first move: the game's
  opening comment); ``(...)`` variations, nested, skipped; lines starting with ``%`` skipped;
* move numbers ``12.`` and ``12...`` (and ``12. ...``); moves ``32-28``, ``22x15`` (short) or
  ``24x15x6`` (the route), ``:`` as capture separator, spaces inside a move (``1- 6``), leading zeros,
  algebraic ``c3-d4`` / ``c3d4`` in the engine's frame (engine.notation); strength marks glued or
  apart (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``, ``(?)`` ...), NAGs ``$3``, and ``*`` glued to a move
  (a forced move, stored as NAG 7) -- a ``*`` on its own ends the game;
* ``[GameType "20"]`` (International) or ``"21"`` (American): a variant's ``pdn_game_type`` in the table;
  short or full (``"20,W,10,10,N2,0"``); any other type (Italian 22, Russian 25, Brazilian 26 ...) is
  reported as another rule set and its moves are not read. Without a GameType the squares decide: a game
  that names a square above 32 is International; else a game from the standard start goes by the squares
  of its first move (the first moves of the two games share no square: from 9-12 to 13-16 in American
  checkers, from 31-35 to 26-30 in International draughts); else (a set-up position, no moves) it is
  International if its file names a square above 32 anywhere, else American;
* ``[FEN "W:W31-50:B1-20"]`` (ranges, kings ``K``, a trailing period, lidraughts' ``:H0:F1`` tail);
* UTF-8 with or without a BOM, UTF-16 with a BOM, else Windows-1252/Latin-1, line by line; CRLF or CR.

What goes wrong is reported, never raised out of a game: a game keeps the moves before its first
problem, and :attr:`PdnGame.error` names the game's index in its file, its line, the move number and
the move text. The rest of the file is still read. Harmless oddities (a tag without a value, a stray
``)``) land in :attr:`PdnGame.warnings`. A file that isn't text (binary data) is refused with
:class:`PdnFileError`. Memory stays bounded on any input: files are read as a stream of lines of at
most 1 MiB, a game's kept text and moves have limits (:data:`MAX_GAME_CHARS`, :data:`MAX_PLIES`), and
games are yielded one at a time; the moves of a game are replayed only when first asked for, so
listing the games of a large file (tags only) is fast.

The result tag counts the *first player's* score first, as PDN 2.0 says for checkers ("1-0" Black won
in American checkers, where Black moves first) and as PGN does for White in International draughts.

Writing (:meth:`PdnGame.pdn`): the seven-tag roster (Event, Site, Date, Round, White, Black, Result),
GameType, FEN when the start is not the standard one, the other tags as read, numbered movetext wrapped
at 80 columns with marks, NAGs and comments, and the result. A draw offer rides on a move as the
comment ``{(=)}`` (the symbol FIDE's Laws of Chess, Appendix C.13, have players write on the
scoresheet; PDN has no mark of its own), and is read back from that comment or a glued ``(=)``.
Reading what was written gives the same games.

For the game: :func:`read_file` (a file, streamed) and :func:`read_text` (pasted text) give
:class:`PdnGame` objects; :func:`position_from_fen` reads a pasted FEN; :meth:`PdnGame.to_game` builds
an :class:`engine.game.Game` (the whole history, so repetition counts continue; a resignation or an
agreed draw from the result); :meth:`PdnGame.from_game` turns a game record into PDN and
:meth:`PdnGame.pdn` into text; :meth:`PdnGame.annotate` adds a mark or a comment to one move.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import IO, TextIO

from .game import DrawOfferError, Game
from .position import IllegalMoveError, InvalidFenError, Move, Position
from .variants import ALL_VARIANTS, AMERICAN, INTERNATIONAL, VARIANTS, Color, Variant

MAX_PLIES = 5000  # moves kept per game; far beyond any real game (the draw rules end games long before)
MAX_GAME_CHARS = 2_000_000  # text kept per game (tags, moves, comments); the rest of such a game is skipped
MAX_COMMENT_CHARS = 100_000  # one comment
MAX_WARNINGS = 20  # per game
MAX_LINE_BYTES = 1 << 20  # longer lines are read in pieces, split at a space
LINE_WIDTH = 80  # movetext is wrapped to this many columns when written

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
ROSTER_UNKNOWN = {"Date": "????.??.??", "Result": "*"}  # else "?" (PDN 3.0 "PDN Tags")
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
MARKS = ("!", "?", "!!", "??", "!?", "?!")
DRAW_OFFER = "(=)"
FORCED_NAG = 7  # PGN's "forced move", what a glued * means in draughts publications

# PDN 3.0 "GameType tag": the type numbers, and the board each of ours must have when the full form is given.
GAME_TYPES = {0: "chess", 1: "Chinese chess", 20: "International draughts", 21: "English draughts (American checkers)",
              22: "Italian draughts", 23: "American pool checkers", 24: "Spanish draughts", 25: "Russian draughts",
              26: "Brazilian draughts", 27: "Canadian draughts", 28: "Portuguese draughts", 29: "Czech draughts",
              30: "Turkish draughts", 31: "Thai draughts", 40: "Frisian draughts", 41: "Spantsiretti draughts",
              50: "Othello"}


# --- errors ------------------------------------------------------------------------------------------

class PdnError(ValueError):
    """PDN that can't be read (or a bad request to write it); the message quotes the text and says where."""


class PdnFileError(PdnError):
    """A whole file refused: it can't be opened or isn't text."""


class PdnSyntaxError(PdnError):
    """Text in a game that isn't PDN: an unclosed comment or variation, an unreadable word, a bad tag."""


class PdnMoveError(PdnError):
    """An illegal or ambiguous move (or a start position that can't be read); ``number`` is the move
    number as PDN writes it (``'23.'``, ``'23...'``) and ``text`` the move as written."""

    def __init__(self, message: str, number: str = "", text: str = ""):
        super().__init__(message)
        self.number = number
        self.text = text


class PdnVariantError(PdnError):
    """A game of another rule set (its GameType), which this program doesn't play; ``game_type`` is
    the tag's value."""

    def __init__(self, message: str, game_type: str):
        super().__init__(message)
        self.game_type = game_type


# --- moves and games ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class PdnMove:
    """A legal move of a game with what the file says about it. ``text`` is the move as written (not
    compared: ``24x15x6`` and ``24x6`` are the same move); ``mark`` a strength mark (``'?'``, ``'!!'``
    ...); ``nags`` numeric annotation glyphs; ``comments`` the comments after it; ``draw_offer``
    whether a draw offer rode on it."""

    move: Move
    text: str = field(default="", compare=False)
    mark: str = ""
    nags: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()
    draw_offer: bool = False


@dataclass
class _RawMove:
    """A move as read, before it is checked against the rules."""

    text: str
    line: int
    number: int | None = None  # from a move number just before it ("12." or "12...")
    second: bool | None = None  # that number's dots: True for "12..." (the second player's move)
    mark: str = ""
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    draw_offer: bool = False


@dataclass
class _RawGame:
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    tag_errors: dict[str, str] = field(default_factory=dict)  # tag name -> why its value couldn't be read
    comments: list[str] = field(default_factory=list)
    moves: list[_RawMove] = field(default_factory=list)
    terminator: str | None = None
    syntax_error: str | None = None  # the first problem that cut the movetext short
    warnings: list[str] = field(default_factory=list)
    max_square: int = 0  # the highest square its FEN and moves name (for the variant)
    chars: int = 0

    def is_empty(self) -> bool:
        """Nothing worth a game: no tags, no moves, no problem (a lone comment or result between games)."""
        return not (self.tags or self.tag_errors or self.moves or self.syntax_error)


class PdnGame:
    """One game: its tags, rule set, start position, moves (with marks, NAGs, comments, draw offers),
    result, and what went wrong reading it.

    Games read from a file replay their moves when :attr:`moves`, :attr:`end`, :attr:`error` or
    :attr:`plies` is first read; until then only the tags are looked at, which is quick.
    """

    def __init__(self, variant: Variant, start: Position | None = None, moves: Sequence[PdnMove] = (), *,
                 tags: Mapping[str, str] | None = None, comments: Sequence[str] = (), result: str | None = None,
                 index: int = 0, line: int = 0, warnings: Sequence[str] = ()):
        """A game built from parts (games of a file come from :func:`read_file` or :func:`read_text`):
        ``start`` defaults to the standard start; ``moves`` must be legal from it (IllegalMoveError if
        not); ``result`` defaults to the Result tag, else ``'*'``."""
        start = Position.initial(variant) if start is None else start
        if start.variant != variant:
            raise PdnError(f"start position {start.fen()!r} is {start.variant.name}, not {variant.name}")
        self.variant: Variant | None = variant
        self.start: Position | None = start
        self.tags: dict[str, str] = dict(tags or {})
        self.comments: tuple[str, ...] = tuple(comments)
        self.result: str = result if result is not None else _tag(self.tags, "Result") or "*"
        self.index = index
        self.line = line
        self.warnings: tuple[str, ...] = tuple(warnings)
        self._raw: _RawGame | None = None
        self._start_error: PdnError | None = None  # why there is no start position
        pos = start
        for pm in moves:
            pos = pos.play(pm.move)
        self.__dict__["_replayed"] = (tuple(moves), pos, None)

    # --- what was read --------------------------------------------------------------------------

    @property
    def variant_name(self) -> str:
        """The variant's name (``'american'``, ``'international'`` ...), or ``'other'`` (another rule set)."""
        return self.variant.name if self.variant is not None else "other"

    @property
    def moves(self) -> tuple[PdnMove, ...]:
        """The moves read and legal, in order (empty for another rule set)."""
        return self._replayed[0]

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def end(self) -> Position | None:
        """The position after the moves read; None for another rule set."""
        return self._replayed[1]

    @property
    def error(self) -> PdnError | None:
        """The first problem that stopped the reading of this game (the moves before it are kept),
        or None if it was read to its end."""
        return self._replayed[2]

    @property
    def players(self) -> tuple[str, str]:
        """(White, Black) as the tags give them ('?' when missing)."""
        return _tag(self.tags, "White") or "?", _tag(self.tags, "Black") or "?"

    def positions(self) -> list[Position]:
        """The start and the position after each move (empty for another rule set)."""
        if self.start is None:
            return []
        out = [self.start]
        for pm in self.moves:
            out.append(out[-1].play(pm.move))
        return out

    def winner(self) -> Color | None | str:
        """What the result says: the winning :class:`Color`, ``'draw'``, or None (unfinished, unknown,
        or lost by both)."""
        return result_winner(self.result, self.variant)

    # --- building ------------------------------------------------------------------------------

    @classmethod
    def from_game(cls, game: Game, tags: Mapping[str, str] | None = None) -> "PdnGame":
        """A game record as PDN: its start, moves and draw offers, and the result from its outcome
        (``1-0``/``0-1``/``1/2-1/2`` in American checkers, ``2-0``/``0-2``/``1-1`` in International
        draughts, the first player's score first; ``*`` while it goes on). ``tags`` adds Event, Site,
        Date, Round, White, Black or any other tag (a Result, GameType or FEN given there is ignored)."""
        variant = game.variant
        offers = game.to_dict()["draw_offers"]
        moves, pos = [], game.start
        for move, offer in zip(game.moves, offers, strict=True):
            moves.append(PdnMove(move, pos.move_text(move), draw_offer=offer))
            pos = pos.play(move)
        outcome = game.outcome
        result = "*" if outcome is None else result_text(variant, outcome.result)
        kept = {k: v for k, v in (tags or {}).items() if k.lower() not in ("result", "gametype", "fen", "setup")}
        kept["Result"] = result
        return cls(variant, game.start, moves, tags=kept, result=result)

    def to_game(self, plies: int | None = None) -> Game:
        """A game record with this game's start and its first ``plies`` moves (default all), played by
        the rules with their draw offers, so repetition counts and draw counters continue from the
        record's start (a FEN start brings no history). If the rules end the game before (a position
        repeated a third time, a move limit reached), the record stops there: compare ``.ply``. After
        all the moves of a game read to its end, a result that names a winner the rules haven't
        declared is a resignation, and a draw after a move that offered one is an agreed draw.
        PdnError for another rule set or a start position that couldn't be read."""
        if self.variant is None or self.start is None:
            raise PdnError(f"game {self.index}: {self.error or 'not a game of a rule set this program plays'}")
        game = Game(self.variant, self.start)
        wanted = self.moves if plies is None else self.moves[:plies]
        for pm in wanted:
            if game.is_over:
                return game
            try:
                game.play(pm.move, offer_draw=pm.draw_offer)
            except DrawOfferError:  # an offer the rules wouldn't allow then: the move stands without it
                game.play(pm.move)
        if self.error is None and (plies is None or plies >= len(self.moves)):
            winner = self.winner()
            if not game.is_over and isinstance(winner, Color):
                game.resign(winner.opponent)
            elif not game.is_over and winner == "draw" and game.pending_offer is not None:
                game.accept_draw()
        return game

    def annotate(self, index: int | None, mark: str | None = None, comment: str | None = None) -> "PdnGame":
        """A copy with a strength mark set (``''`` removes it) and/or a comment added on move ``index``
        (0-based, as in :attr:`moves`), or on the game's opening comment when ``index`` is None. A
        game report uses it to write ``?``/``??`` and the scores."""
        if mark is not None and mark not in MARKS and mark != "":
            raise PdnError(f"{mark!r} is not a strength mark (use one of {' '.join(MARKS)})")
        moves, comments = list(self.moves), list(self.comments)
        if index is None:
            if mark:
                raise PdnError("a strength mark belongs to a move, not to the game")
            comments += [_clean_comment(comment)] if comment else []
        else:
            if not -len(moves) <= index < len(moves):
                raise PdnError(f"no move {index} to annotate: the game has {len(moves)}")
            pm = moves[index]
            moves[index] = replace(pm, mark=pm.mark if mark is None else mark,
                                   comments=pm.comments + ((_clean_comment(comment),) if comment else ()))
        out = PdnGame.__new__(PdnGame)
        out.__dict__.update({k: v for k, v in self.__dict__.items() if k != "_replayed"})
        out.tags = dict(self.tags)
        out.comments = tuple(comments)
        out.__dict__["_replayed"] = (tuple(moves), self.end, self.error)
        return out

    # --- writing -------------------------------------------------------------------------------

    def pdn(self) -> str:
        """This game as PDN text (tags, a blank line, the movetext, a blank line). PdnError for a game
        of another rule set, whose moves were not read."""
        if self.variant is None or self.start is None:
            raise PdnError(f"game {self.index} can't be written: {self.error}")
        return _format(self)

    # --- the rules, once ----------------------------------------------------------------------

    @cached_property
    def _replayed(self) -> tuple[tuple[PdnMove, ...], Position | None, PdnError | None]:
        raw = self._raw
        assert raw is not None, "a game built from parts is replayed when built"
        if self.start is None:  # another rule set, or a start position that can't be read
            return (), None, self._start_error
        assert self.variant is not None
        where = f"game {self.index} (line {raw.line})" if raw.line else f"game {self.index}"
        pos, moves = self.start, list[PdnMove]()
        number, second = 1, self.start.turn is not self.variant.first_player
        for rm in raw.moves:
            if rm.number is not None:
                number, second = rm.number, bool(rm.second)
            label = f"{number}{'...' if second else '.'}"
            try:
                move = pos.parse_move(rm.text)
            except IllegalMoveError as err:
                return tuple(moves), pos, PdnMoveError(f"{where}, move {label} {rm.text!r}: {err}", label, rm.text)
            moves.append(PdnMove(move, rm.text, rm.mark, tuple(rm.nags), tuple(rm.comments), rm.draw_offer))
            pos = pos.play(move)
            number, second = (number + 1, False) if second else (number, True)
        error = PdnSyntaxError(f"{where}: {raw.syntax_error}") if raw.syntax_error else None
        return tuple(moves), pos, error

    @classmethod
    def _from_raw(cls, raw: _RawGame, index: int, file_has_big_squares: Callable[[], bool]) -> "PdnGame":
        game = cls.__new__(cls)
        game.tags, game.comments, game.index, game.line = raw.tags, tuple(raw.comments), index, raw.line
        game.result = _tag(raw.tags, "Result") or raw.terminator or "*"
        game.warnings = tuple(raw.warnings)
        game._raw = raw
        game._start_error = None
        game.variant, game.start = None, None
        where = f"game {index} (line {raw.line})"
        try:
            game.variant = variant = _variant_of(raw, file_has_big_squares)
        except PdnVariantError as err:
            game._start_error = PdnVariantError(f"{where}: {err}", err.game_type)
            return game
        fen = _tag(raw.tags, "FEN")
        try:
            if "FEN" in raw.tag_errors:
                raise InvalidFenError(raw.tag_errors["FEN"])
            game.start = Position.from_fen(variant, _fen_core(fen)) if fen else Position.initial(variant)
        except InvalidFenError as err:
            game._start_error = PdnMoveError(f"{where}: the start position can't be read: {err}")
        return game

    def __repr__(self) -> str:
        white, black = self.players
        return f"<PdnGame {self.index} {self.variant_name} {white!r}-{black!r} {self.result}>"


def _tag(tags: Mapping[str, str], name: str) -> str | None:
    """A tag's value, its name matched without regard to case (files write SetUp, Setup, SETUP ...)."""
    if name in tags:
        return tags[name]
    lower = name.lower()
    return next((v for k, v in tags.items() if k.lower() == lower), None)


def result_text(variant: Variant, winner: str) -> str:
    """The result tag for ``winner`` (``'white'``, ``'black'`` or ``'draw'``), the first player's score
    first: American ``1-0`` (Black won), ``0-1``, ``1/2-1/2``; International ``2-0`` (White won), ``0-2``,
    ``1-1`` (PDN 3.0 "Result tag", result type International)."""
    points = variant.pdn_win_points
    if winner == "draw":
        return "1/2-1/2" if points == 1 else f"{points // 2}-{points // 2}"
    first_won = winner == variant.first_player.label
    return f"{points}-0" if first_won else f"0-{points}"


def result_winner(result: str, variant: Variant | None) -> Color | None | str:
    """What a result tag says: the winning :class:`Color`, ``'draw'``, or None (``*``, ``0-0``, a
    format we don't know). Both result types are understood whatever the rule set."""
    text = result.replace(" ", "").replace("½", "1/2")
    if text in ("1/2-1/2", "1-1"):
        return "draw"
    if variant is None or text not in ("1-0", "2-0", "0-1", "0-2"):
        return None
    first = variant.first_player
    return first if text in ("1-0", "2-0") else first.opponent


# --- the rule set of a game ------------------------------------------------------------------------

def _variant_of(raw: _RawGame, file_has_big_squares: Callable[[], bool]) -> Variant:
    """The game's rule set from its GameType, else from the squares it, its first move or its file
    names (see the module's docstring)."""
    if "GameType" in raw.tag_errors:
        raise PdnVariantError(raw.tag_errors["GameType"], "")
    game_type = _tag(raw.tags, "GameType")
    if game_type is not None:
        return variant_of_game_type(game_type)
    if raw.max_square > AMERICAN.squares:
        return INTERNATIONAL
    if raw.moves and _tag(raw.tags, "FEN") is None and "FEN" not in raw.tag_errors:
        opening = [v for v in VARIANTS.values() if _is_first_move(v, raw.moves[0].text)]
        if len(opening) == 1:
            return opening[0]
    return INTERNATIONAL if file_has_big_squares() else AMERICAN


@lru_cache(maxsize=4096)
def _is_first_move(variant: Variant, text: str) -> bool:
    """Whether ``text`` is a legal first move from the standard start of ``variant``."""
    try:
        Position.initial(variant).parse_move(text)
        return True
    except IllegalMoveError:
        return False


def variant_of_game_type(value: str) -> Variant:
    """Our variant for a GameType tag value, short (``'20'``) or full (``'20,W,10,10,N2,0'``);
    PdnVariantError for another rule set or a board that doesn't fit the type number."""
    parts = [p.strip() for p in value.split(",")]
    if not parts[0].isdigit():
        raise PdnVariantError(f"GameType {value!r} can't be read (expected a number such as 20 or 21)", value)
    number = int(parts[0])
    variant = next((v for v in ALL_VARIANTS.values() if v.pdn_game_type == number), None)
    if variant is None:
        name = GAME_TYPES.get(number, "an unknown game")
        raise PdnVariantError(f"GameType {value!r} is {name}, a rule set this program doesn't play", value)
    if len(parts) >= 4 and (parts[2], parts[3]) != (str(variant.size), str(variant.size)):
        raise PdnVariantError(f"GameType {value!r} gives a {parts[2]}x{parts[3]} board, but type {number} "
                              f"({variant.title}) is played on {variant.size}x{variant.size}", value)
    return variant


def _fen_core(fen: str) -> str:
    """The turn and the two piece lists of a FEN tag, without lidraughts' ':H<n>:F<n>' counters."""
    return re.sub(r"(:\s*[HF]\d+)+\s*\.?\s*$", "", fen.strip())


_FEN_NUMBER = re.compile(r"\d+")


def _fen_max_square(fen: str) -> int:
    return max((int(n) for n in _FEN_NUMBER.findall(_fen_core(fen))), default=0)


_ALGEBRAIC = re.compile(r"([a-j])(10|[1-9])", re.I)


def _move_max_square(text: str) -> int:
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


def position_from_fen(text: str, variant: Variant | None = None) -> Position:
    """A position from FEN text as players paste it: the value of a ``[FEN "..."]`` tag or the FEN
    alone. Without ``variant`` the squares decide, as for a PDN file without GameType: a square above 32
    means International draughts, else American checkers. InvalidFenError quotes the text."""
    fen = text.strip()
    m = re.fullmatch(r'\[\s*FEN\s+"(.*)"\s*\]', fen, re.I | re.S)
    if m:
        fen = m.group(1)
    if variant is None:
        variant = INTERNATIONAL if _fen_max_square(fen) > AMERICAN.squares else AMERICAN
    return Position.from_fen(variant, _fen_core(fen))


# --- lines: files and text -------------------------------------------------------------------------

_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x19\x1b-\x1f\x7f]")  # not \t \n \v \f \r, nor DOS's end-of-file ^Z
_BINARY_SHARE = 0.01


def _is_binary(block: bytes) -> bool:
    return b"\x00" in block or len(_CONTROL.findall(block)) > _BINARY_SHARE * max(len(block), 100)


def _decode(raw: bytes) -> str:
    """UTF-8 if the line is valid UTF-8, else Windows-1252 (Latin-1 with typographic quotes in
    0x80-0x9f), else Latin-1 (which decodes any byte)."""
    for encoding in ("utf-8", "cp1252"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            pass
    return raw.decode("latin-1")


def _file_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line of a file, decoded line by line; PdnFileError if it can't be
    opened or isn't text."""
    name = os.fspath(path)
    try:
        f = open(name, "rb")
    except OSError as err:
        raise PdnFileError(f"can't open {name!r}: {err.strerror or err}") from None
    with f:
        head = f.read(65536)
        if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with a byte-order mark
            f.seek(0)
            text = io.TextIOWrapper(f, encoding="utf-16", errors="replace", newline="")
            number = 0
            while piece := text.readline(MAX_LINE_BYTES):
                for line in piece.splitlines() or [""]:
                    number += 1
                    yield number, line
            return
        if _is_binary(head):
            raise PdnFileError(f"{name!r} is not a PDN text file (binary data near the start)")
        f.seek(3 if head.startswith(b"\xef\xbb\xbf") else 0)
        number, offset, carry = 0, 0, b""
        while True:
            chunk = carry + f.readline(MAX_LINE_BYTES)
            carry = b""
            if not chunk:
                return
            if not chunk.endswith(b"\n") and len(chunk) >= MAX_LINE_BYTES:
                cut = max(chunk.rfind(b" "), chunk.rfind(b"\t"))
                if cut > 0:  # a very long line: read on from its last space
                    chunk, carry = chunk[:cut + 1], chunk[cut + 1:]
            if b"\x00" in chunk:
                raise PdnFileError(f"{name!r} is not a PDN text file (binary data at byte {offset + chunk.index(0)})")
            offset += len(chunk)
            for line in _decode(chunk).splitlines() or [""]:
                number += 1
                yield number, line


def _text_lines(text: str) -> Iterator[tuple[int, str]]:
    if "\x00" in text or _is_binary(text[:65536].encode("utf-8", errors="replace")):
        raise PdnFileError("the text is not PDN (binary data)")
    yield from enumerate(text.lstrip("\ufeff").splitlines(), start=1)


# --- tokens ----------------------------------------------------------------------------------------

_SQ = r"(?:[a-j](?:10|[1-9])|\d{1,2})"
_SUFFIX = r"(?:[!?]{1,6}|\([!?]{1,6}\)|\(=\)|\*)"
_TOKEN = re.compile(rf"""
    (?P<ws>\s+)
  | (?P<brace>\{{)
  | (?P<semicolon>;.*)
  | (?P<bracket>\[)
  | (?P<result>(?:1/2-1/2|½-½|1-0|0-1|2-0|0-2|1-1|0-0)(?![\w/-])|\*(?![^\s\[\]{{}}();]))
  | (?P<number>\d+(?:\.+|…))
  | (?P<move>(?:{_SQ}(?:\s*[-x:×]\s*{_SQ})+|[a-j](?:10|[1-9])[a-j](?:10|[1-9]))(?![0-9a-z]){_SUFFIX}?)
  | (?P<ellipsis>\.\.\.|…)
  | (?P<mark>{_SUFFIX})
  | (?P<nag>\$\d{{1,3}})
  | (?P<lparen>\()
  | (?P<rparen>\))
  | (?P<setup>/[^/]*/)
  | (?P<other>[^\s\[\]{{}}();]+|.)
""", re.X | re.I)
_ALGEBRAIC_PAIR = re.compile(r"([a-j](?:10|[1-9]))([a-j](?:10|[1-9]))", re.I)
_MOVE_MARK = re.compile(rf"(.*?)({_SUFFIX})?", re.S)
_TAG = re.compile(r'\[\s*([A-Za-z_][\w.-]*)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_TAG_LOOSE = re.compile(r'\[\s*([A-Za-z_][\w.-]*)\s*"(.*)"\s*\]')  # quotes inside the value, unescaped
_TAG_NO_VALUE = re.compile(r"\[\s*([A-Za-z_][\w.-]*)\s*\]")
_TAG_UNQUOTED = re.compile(r'\[\s*([A-Za-z_][\w.-]*)\s+([^"\[\]]*?)\s*\]')
_TAG_NAME = re.compile(r"\[\s*([A-Za-z_][\w.-]*)")
_TAG_LINE = re.compile(r'\[\s*[A-Za-z_][\w.-]*\s*"')  # a line that starts with a tag pair (column 1)
_UNESCAPE = re.compile(r'\\(["\\])')

# token kinds (tuples (kind, line, text, extra) keep the hot loop cheap)
TAG, TAG_ERROR, COMMENT, UNCLOSED, RESULT, NUMBER, MOVE, ELLIPSIS, MARK, NAG, LPAREN, RPAREN, SETUP, OTHER = range(14)
_KIND = {"result": RESULT, "number": NUMBER, "move": MOVE, "ellipsis": ELLIPSIS, "mark": MARK, "nag": NAG,
         "lparen": LPAREN, "rparen": RPAREN, "setup": SETUP, "other": OTHER}

_Token = tuple[int, int, str, str]


def _tokens(lines: Iterable[tuple[int, str]]) -> Iterator[_Token]:
    """The tokens of PDN text: (kind, line, text, extra). Comments come whole (across lines); a comment
    still open when a line starts with a tag pair, or at the end, yields UNCLOSED (with its line)."""
    comment: list[str] | None = None
    comment_line = comment_chars = 0
    for number, line in lines:
        pos = 0
        if comment is not None:
            end = line.find("}")
            if end < 0 and _TAG_LINE.match(line):
                yield UNCLOSED, comment_line, "", ""
                comment = None
            elif end < 0:
                if comment_chars < MAX_COMMENT_CHARS:
                    comment.append(line)
                    comment_chars += len(line)
                continue
            else:
                comment.append(line[:end])
                yield COMMENT, comment_line, " ".join(comment)[:MAX_COMMENT_CHARS], ""
                comment, pos = None, end + 1
        elif line.startswith("%"):  # an escaped line (PGN 6, PDN 3.0 "line comments")
            continue
        size = len(line)
        while pos < size:
            m = _TOKEN.match(line, pos)
            assert m is not None  # the last alternative matches any character
            kind, text = m.lastgroup, m.group()
            pos = m.end()
            if kind == "ws":
                continue
            if kind == "brace":
                end = line.find("}", pos)
                if end < 0:
                    comment, comment_line, comment_chars = [line[pos:]], number, size - pos
                    break
                yield COMMENT, number, line[pos:end], ""
                pos = end + 1
            elif kind == "semicolon":
                yield COMMENT, number, text[1:], ""
            elif kind == "bracket":
                token, pos = _tag_token(line, pos - 1, number)
                yield token
            else:
                yield _KIND[kind], number, text, ""  # type: ignore[index]
    if comment is not None:
        yield UNCLOSED, comment_line, "", ""


def _tag_token(line: str, start: int, number: int) -> tuple[_Token, int]:
    """The tag pair at ``line[start]`` ('['): TAG (name, value) or TAG_ERROR (message, name), and where
    reading goes on."""
    for pattern in (_TAG, _TAG_LOOSE):
        m = pattern.match(line, start)
        if m:
            return (TAG, number, m.group(1), _UNESCAPE.sub(r"\1", m.group(2))), m.end()
    m = _TAG_NO_VALUE.match(line, start)
    if m:
        return (TAG_ERROR, number, f"tag {m.group()!r} has no value (expected [{m.group(1)} \"...\"])",
                m.group(1)), m.end()
    m = _TAG_UNQUOTED.match(line, start)
    if m:  # [Event Some name]: taken, as the value is plain
        return (TAG, number, m.group(1), m.group(2)), m.end()
    close = line.find("]", start)
    end = close + 1 if close >= 0 else len(line)
    name = _TAG_NAME.match(line, start)
    return (TAG_ERROR, number, f"can't read tag {line[start:end]!r} (expected [Name \"value\"])",
            name.group(1) if name else ""), end


# --- games from tokens -----------------------------------------------------------------------------

def _raw_games(tokens: Iterable[_Token]) -> Iterator[_RawGame]:
    """Group tokens into games: tags, the main line's moves with their numbers, marks and comments;
    variations skipped. A game ends at a result outside variations, at a tag after its movetext (or a
    tag it already has), or at the end."""
    game = _RawGame(line=0)
    depth = 0  # variation nesting
    variation_line = 0
    in_movetext = False
    failed = False  # a problem cut this game short: skip to its end
    number: int | None = None
    second: bool | None = None

    def fail(message: str) -> None:
        nonlocal failed
        if not failed:
            game.syntax_error = message
        failed = True

    def finish() -> _RawGame:
        nonlocal game, depth, in_movetext, failed, number, second
        done = game
        if depth > 0 and not failed:
            fail(f"the variation opened at line {variation_line} is not closed")
        # Some files end a game with its Result tag's value in a format of their own ("4-6"): that text
        # at the very end is the game's end, not a move.
        result = _tag(done.tags, "Result")
        if done.terminator is None and done.moves and result and done.moves[-1].text == result:
            done.moves.pop()
            done.terminator = result
        game, depth, in_movetext, failed, number, second = _RawGame(line=0), 0, False, False, None, None
        return done

    for kind, line, text, extra in tokens:
        if not game.line:
            game.line = line
        if game.chars > MAX_GAME_CHARS and not failed:
            fail(f"the game is longer than {MAX_GAME_CHARS:,} characters; the rest of it was skipped")
            in_movetext = True  # the next tag starts a new game
        if kind == TAG or kind == TAG_ERROR:
            name = text if kind == TAG else extra
            if in_movetext or (name and (name in game.tags or name in game.tag_errors)):
                done = finish()
                if not done.is_empty():
                    yield done
                game.line = line
            if failed:
                continue
            if kind == TAG:
                game.tags.setdefault(text, extra)
                game.chars += len(text) + len(extra)
                if text.lower() == "fen":
                    game.max_square = max(game.max_square, _fen_max_square(extra))
            elif extra.lower() in ("gametype", "fen"):
                game.tag_errors["FEN" if extra.lower() == "fen" else "GameType"] = text
            else:
                _warn(game, f"line {line}: {text}")
            continue
        if kind == UNCLOSED:
            fail(f"the comment opened at line {line} is not closed")
            in_movetext = True  # the next tag starts a new game
            continue
        if kind == COMMENT:
            if depth == 0 and not failed:
                _add_comment(game, _clean_comment(text))
            continue
        in_movetext = True
        if kind == RESULT:
            if depth == 0:
                game.terminator = text
                done = finish()
                if not done.is_empty():
                    yield done
            continue
        if kind == LPAREN:
            if depth == 0:
                variation_line = line
            depth += 1
            continue
        if kind == RPAREN:
            if depth > 0:
                depth -= 1
            elif not failed:
                _warn(game, f"line {line}: a ')' without its '(' was ignored")
            continue
        if depth > 0 or failed:
            continue
        game.chars += len(text)
        last = game.moves[-1] if game.moves else None
        if kind == MOVE:
            if len(game.moves) >= MAX_PLIES:
                fail(f"the game has more than {MAX_PLIES} moves; the rest of it was skipped")
                continue
            body, suffix = _MOVE_MARK.fullmatch(text).groups()  # type: ignore[union-attr]
            pair = _ALGEBRAIC_PAIR.fullmatch(body)
            if pair:  # "c3d4": algebraic squares without a separator
                body = f"{pair.group(1)}-{pair.group(2)}"
            move = _RawMove(body, line, number, second)
            _add_mark(move, suffix or "")
            game.moves.append(move)
            game.max_square = max(game.max_square, _move_max_square(body))
            number = second = None
        elif kind == NUMBER:
            digits = text.rstrip(".…")
            number, second = int(digits), text[len(digits):] != "."
        elif kind == ELLIPSIS:  # "1. ... 7-12": the second player's move
            if number is not None:
                second = True
        elif kind == MARK:
            if last is not None:
                _add_mark(last, text)
            else:
                _warn(game, f"line {line}: the mark {text!r} before the first move was ignored")
        elif kind == NAG:
            if last is not None:
                last.nags.append(int(text[1:]))
            else:
                _warn(game, f"line {line}: the annotation {text!r} before the first move was ignored")
        elif kind == SETUP:
            fail(f"line {line}: a position set up inside the moves ({text[:60]!r}) is not supported")
        elif text in ("}", "]"):
            _warn(game, f"line {line}: a {text!r} without its opening bracket was ignored")
        else:
            after = f" after {last.text!r}" if last is not None else ""
            fail(f"line {line}: can't read {text[:60]!r}{after} (expected a move such as 32-28 or 22x15, a move "
                 "number, a comment or a result)")
    done = finish()
    if not done.is_empty():
        yield done


def _warn(game: _RawGame, text: str) -> None:
    if len(game.warnings) < MAX_WARNINGS:
        game.warnings.append(text)
    elif len(game.warnings) == MAX_WARNINGS:
        game.warnings.append("(more warnings left out)")


def _add_comment(game: _RawGame, comment: str) -> None:
    """A comment goes with the move before it (a draw offer's "(=)" marks that move); before the first
    move it is the game's opening comment."""
    last = game.moves[-1] if game.moves else None
    if comment == DRAW_OFFER and last is not None:
        last.draw_offer = True
    elif comment and last is not None:
        last.comments.append(comment)
    elif comment:
        game.comments.append(comment)
    game.chars += len(comment)


def _add_mark(move: _RawMove, suffix: str) -> None:
    if suffix == DRAW_OFFER:
        move.draw_offer = True
    elif suffix == "*":
        move.nags.append(FORCED_NAG)
    elif suffix:
        move.mark = suffix


def _clean_comment(text: str) -> str:
    """A comment with its white space made single spaces (so that writing can wrap it)."""
    return " ".join(text.split())


def _max_square_of(lines: Iterable[tuple[int, str]]) -> int:
    """The highest square any move or FEN tag of the text names."""
    best = 0
    for kind, _, text, extra in _tokens(lines):
        if kind == MOVE:
            best = max(best, _move_max_square(_MOVE_MARK.fullmatch(text).group(1)))  # type: ignore[union-attr]
        elif kind == TAG and text.lower() == "fen":
            best = max(best, _fen_max_square(extra))
        if best > AMERICAN.squares:
            break
    return best


def _games(open_lines: Callable[[], Iterator[tuple[int, str]]]) -> Iterator[PdnGame]:
    big_squares: list[bool] = []

    def file_has_big_squares() -> bool:
        if not big_squares:
            big_squares.append(_max_square_of(open_lines()) > AMERICAN.squares)
        return big_squares[0]

    for index, raw in enumerate(_raw_games(_tokens(open_lines())), start=1):
        yield PdnGame._from_raw(raw, index, file_has_big_squares)


def read_file(path: str | os.PathLike[str]) -> Iterator[PdnGame]:
    """The games of a PDN file, one at a time as the file is read (memory stays bounded however large
    it is; stop whenever). PdnFileError (raised while iterating) if the file can't be opened or isn't
    text; problems inside a game are in its :attr:`PdnGame.error`."""
    return _games(lambda: _file_lines(path))


def read_text(text: str) -> list[PdnGame]:
    """The games of PDN text (pasted, or from a string). PdnFileError if it isn't text."""
    return list(_games(lambda: _text_lines(text)))


# --- writing ---------------------------------------------------------------------------------------

def _quote(value: str) -> str:
    return '"' + " ".join(value.splitlines()).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _format(game: PdnGame) -> str:
    variant, start = game.variant, game.start
    assert variant is not None and start is not None
    tags: dict[str, str] = {}
    for name in ROSTER:
        value = _tag(game.tags, name)
        tags[name] = ROSTER_UNKNOWN.get(name, "?") if value is None else value
    tags["Result"] = game.result
    tags["GameType"] = _tag(game.tags, "GameType") or str(variant.pdn_game_type)
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


# --- python -m engine pdn ----------------------------------------------------------------------------

def game_summary(path: str, game: PdnGame) -> dict:
    """What ``python -m engine pdn --json`` prints for a game."""
    return {"file": path, "index": game.index, "tags": game.tags, "variant": game.variant_name,
            "plies": game.plies, "fen": game.end.fen() if game.end is not None else None,
            "result": game.result, "error": str(game.error) if game.error else None, "warnings": list(game.warnings)}


def run_command(paths: Sequence[str], as_json: bool = False, export: str | None = None) -> int:
    """``python -m engine pdn FILE... [--json] [--export OUT]``: one line (or JSON object) per game on
    stdout; with ``export``, the games of our rule sets written to OUT, normalised (a game cut short by
    a problem keeps the moves before it and a comment saying what stopped it), the file replaced only
    once all is written. Exit status 0 when every game was read to its end, 1 otherwise."""
    if export and any(os.path.exists(p) and os.path.exists(export) and os.path.samefile(p, export) for p in paths):
        print(f"error: {export!r} is one of the files read; export to another file", file=sys.stderr)
        return 2
    sink = None
    if export:
        sink = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="\n", delete=False, prefix=".pdn-",
                                           suffix=".tmp", dir=os.path.dirname(os.path.abspath(export)))
    try:
        status, written, left_out = _list_games(paths, as_json, sink)
    except BrokenPipeError:  # the reader stopped listening (| head): stop quietly
        sys.stdout = open(os.devnull, "w")  # so that the interpreter's last flush can't fail
        status = 1
    finally:
        if sink is not None:
            sink.close()
    if sink is not None and export is not None:
        if status == 1 and written == 0 and left_out == 0:
            os.unlink(sink.name)
            print(f"nothing written to {export}", file=sys.stderr)
        else:
            os.replace(sink.name, export)
            lost = f"; {left_out} of other rule sets left out" if left_out else ""
            print(f"wrote {written} games to {export}{lost}", file=sys.stderr)
    return status


def _list_games(paths: Sequence[str], as_json: bool, sink: IO[str] | None) -> tuple[int, int, int]:
    """Print every game of ``paths`` (and write it to ``sink``); (exit status, games written, games
    left out)."""
    status, written, left_out = 0, 0, 0
    for path in paths:
        try:
            for game in read_file(path):
                if game.error is not None:
                    status = 1
                if as_json:
                    print(json.dumps(game_summary(path, game), ensure_ascii=False), flush=True)
                else:
                    print(_summary_line(path, game), flush=True)
                if sink is not None and game.start is None:
                    left_out += 1
                elif sink is not None:
                    if game.error is not None:
                        game = game.annotate(len(game.moves) - 1 if game.moves else None,
                                             comment=f"not read further: {game.error}")
                    sink.write(game.pdn())
                    written += 1
        except PdnFileError as error:
            print(f"error: {error}", file=sys.stderr)
            status = 1
    return status, written, left_out


def _summary_line(path: str, game: PdnGame) -> str:
    white, black = game.players
    fen = game.end.fen() if game.end is not None else "-"
    line = f"{path} #{game.index}: {game.variant_name}, {white} - {black}, {game.plies} plies, {game.result}, {fen}"
    return line + (f"; error: {game.error}" if game.error else "")

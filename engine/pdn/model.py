"""The model of a PDN game: :class:`PdnGame` (tags, rule set, start, moves with their marks, NAGs,
comments and draw offers, result, and what went wrong reading it), :class:`PdnMove`, the errors, the
result tag's meaning and the rule set of a game.

A game read from a file is a :class:`RawGame` (what the reader's visitor collected, see
:mod:`engine.pdn.reader`) until its moves are first asked for: then they are replayed by the rules,
once. What goes wrong is reported, never raised out of a game: a game keeps the moves before its
first problem, and :attr:`PdnGame.error` names the game's index in its file, the line of the problem (a
move's own line), the move number and the move text; the errors carry the place and the problem apart
(``line``, ``problem``), for a message in other words.

The result tag counts the *first player's* score first, as PDN 2.0 says for checkers ("1-0" Black won
in American checkers, where Black moves first) and as PGN does for White in International draughts.

The rule set: ``[GameType "20"]`` (International), ``"21"`` (American), ``"25"`` (Russian) ..., a
variant's ``pdn_game_type`` in the table (ALL_VARIANTS), short or full (``"20,W,10,10,N2,0"``); any
other type (Turkish 30, Frisian 40 ...) is reported as another rule set and its moves are not read.
Without a GameType the squares
decide: a game that names a square above 32 is International; else a game from the standard start
goes by the squares of its first move (the first moves of the two games share no square: from 9-12 to
13-16 in American checkers, from 31-35 to 26-30 in International draughts); else (a set-up position,
no moves) it is International if its file names a square above 32 anywhere, else American. FEN tags:
``[FEN "W:W31-50:B1-20"]`` (ranges, kings ``K``, a trailing period, lidraughts' ``:H0:F1`` tail).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from ..game import DrawOfferError, Game
from ..position import IllegalMoveError, InvalidFenError, Move, Position
from ..variants import ALL_VARIANTS, AMERICAN, INTERNATIONAL, VARIANTS, Color, Variant

MARKS = ("!", "?", "!!", "??", "!?", "?!")
DRAW_OFFER = "(=)"

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
    """A whole file refused: it can't be opened or isn't text; ``problem`` says why, without the name."""

    def __init__(self, message: str, problem: str = ""):
        super().__init__(message)
        self.problem = problem or message


class PdnSyntaxError(PdnError):
    """Text in a game that isn't PDN: an unclosed comment or variation, an unreadable word, a bad tag;
    ``line`` is where (0: unknown) and ``problem`` what, without the place."""

    def __init__(self, message: str, line: int = 0, problem: str = ""):
        super().__init__(message)
        self.line = line
        self.problem = problem or message


class PdnMoveError(PdnError):
    """An illegal or ambiguous move (or a start position that can't be read); ``number`` is the move
    number as PDN writes it (``'23.'``, ``'23...'``), ``text`` the move as written, ``line`` the line it
    is on (0: unknown) and ``problem`` what is wrong, without the place."""

    def __init__(self, message: str, number: str = "", text: str = "", line: int = 0, problem: str = ""):
        super().__init__(message)
        self.number = number
        self.text = text
        self.line = line
        self.problem = problem or message


class PdnVariantError(PdnError):
    """A game of another rule set (its GameType), which this program doesn't play; ``game_type`` is
    the tag's value, ``problem`` the message without the place."""

    def __init__(self, message: str, game_type: str, problem: str = ""):
        super().__init__(message)
        self.game_type = game_type
        self.problem = problem or message


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
class RawMove:
    """A move as read (by the reader's visitor), before it is checked against the rules."""

    text: str
    line: int
    number: int | None = None  # from a move number just before it ("12." or "12...")
    second: bool | None = None  # that number's dots: True for "12..." (the second player's move)
    mark: str = ""
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    draw_offer: bool = False


@dataclass
class RawGame:
    """A game as read (by the reader's visitor): its tags, comments and moves, before the moves are
    checked against the rules."""

    line: int
    tags: dict[str, str] = field(default_factory=dict)
    tag_errors: dict[str, str] = field(default_factory=dict)  # tag name -> why its value couldn't be read
    comments: list[str] = field(default_factory=list)
    moves: list[RawMove] = field(default_factory=list)
    terminator: str | None = None
    syntax_error: str | None = None  # the first problem that cut the movetext short
    syntax_line: int = 0  # where it is
    warnings: list[str] = field(default_factory=list)
    max_square: int = 0  # the highest square its FEN and moves name (for the variant)


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
        self.result: str = result if result is not None else tag_value(self.tags, "Result") or "*"
        self.index = index
        self.line = line
        self.warnings: tuple[str, ...] = tuple(warnings)
        self._raw: RawGame | None = None
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
        return tag_value(self.tags, "White") or "?", tag_value(self.tags, "Black") or "?"

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
            comments += [clean_comment(comment)] if comment else []
        else:
            if not -len(moves) <= index < len(moves):
                raise PdnError(f"no move {index} to annotate: the game has {len(moves)}")
            pm = moves[index]
            moves[index] = replace(pm, mark=pm.mark if mark is None else mark,
                                   comments=pm.comments + ((clean_comment(comment),) if comment else ()))
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
        from .writer import format_game

        return format_game(self)

    # --- the rules, once ----------------------------------------------------------------------

    @cached_property
    def _replayed(self) -> tuple[tuple[PdnMove, ...], Position | None, PdnError | None]:
        raw = self._raw
        assert raw is not None, "a game built from parts is replayed when built"
        if self.start is None:  # another rule set, or a start position that can't be read
            return (), None, self._start_error
        assert self.variant is not None
        pos, moves = self.start, list[PdnMove]()
        number, second = 1, self.start.turn is not self.variant.first_player
        for rm in raw.moves:
            if rm.number is not None:
                number, second = rm.number, bool(rm.second)
            label = f"{number}{'...' if second else '.'}"
            try:
                move = pos.parse_move(rm.text)
            except IllegalMoveError as err:  # placed by the move's own line
                return tuple(moves), pos, PdnMoveError(f"game {self.index}, line {rm.line}, move {label} {rm.text!r}: {err}",
                                                       label, rm.text, rm.line, str(err))
            moves.append(PdnMove(move, rm.text, rm.mark, tuple(rm.nags), tuple(rm.comments), rm.draw_offer))
            pos = pos.play(move)
            number, second = (number + 1, False) if second else (number, True)
        error = None
        if raw.syntax_error:
            error = PdnSyntaxError(f"game {self.index}, line {raw.syntax_line}: {raw.syntax_error}", raw.syntax_line,
                                   raw.syntax_error)
        return tuple(moves), pos, error

    @classmethod
    def from_raw(cls, raw: RawGame, index: int, file_has_big_squares: Callable[[], bool]) -> "PdnGame":
        game = cls.__new__(cls)
        game.tags, game.comments, game.index, game.line = raw.tags, tuple(raw.comments), index, raw.line
        game.result = tag_value(raw.tags, "Result") or raw.terminator or "*"
        game.warnings = tuple(raw.warnings)
        game._raw = raw
        game._start_error = None
        game.variant, game.start = None, None
        where = f"game {index} (line {raw.line})"
        try:
            game.variant = variant = _variant_of(raw, file_has_big_squares)
        except PdnVariantError as err:
            game._start_error = PdnVariantError(f"{where}: {err}", err.game_type, str(err))
            return game
        fen = tag_value(raw.tags, "FEN")
        try:
            if "FEN" in raw.tag_errors:
                raise InvalidFenError(raw.tag_errors["FEN"])
            game.start = Position.from_fen(variant, fen_core(fen)) if fen else Position.initial(variant)
        except InvalidFenError as err:
            game._start_error = PdnMoveError(f"{where}: the start position can't be read: {err}", line=raw.line,
                                             problem=f"the start position can't be read: {err.problem}")
        return game

    def __repr__(self) -> str:
        white, black = self.players
        return f"<PdnGame {self.index} {self.variant_name} {white!r}-{black!r} {self.result}>"


def tag_value(tags: Mapping[str, str], name: str) -> str | None:
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

def _variant_of(raw: RawGame, file_has_big_squares: Callable[[], bool]) -> Variant:
    """The game's rule set from its GameType, else from the squares it, its first move or its file
    names (see the module's docstring)."""
    if "GameType" in raw.tag_errors:
        raise PdnVariantError(raw.tag_errors["GameType"], "")
    game_type = tag_value(raw.tags, "GameType")
    if game_type is not None:
        return variant_of_game_type(game_type)
    if raw.max_square > AMERICAN.squares:
        return INTERNATIONAL
    if raw.moves and tag_value(raw.tags, "FEN") is None and "FEN" not in raw.tag_errors:
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


def fen_core(fen: str) -> str:
    """The turn and the two piece lists of a FEN tag, without lidraughts' ':H<n>:F<n>' counters."""
    return re.sub(r"(:\s*[HF]\d+)+\s*\.?\s*$", "", fen.strip())


_FEN_NUMBER = re.compile(r"\d+")


def fen_max_square(fen: str) -> int:
    return max((int(n) for n in _FEN_NUMBER.findall(fen_core(fen))), default=0)


def position_from_fen(text: str, variant: Variant | None = None) -> Position:
    """A position from FEN text as players paste it: the value of a ``[FEN "..."]`` tag or the FEN
    alone. Without ``variant`` the squares decide, as for a PDN file without GameType: a square above 32
    means International draughts, else American checkers. InvalidFenError quotes the text."""
    fen = text.strip()
    m = re.fullmatch(r'\[\s*FEN\s+"(.*)"\s*\]', fen, re.I | re.S)
    if m:
        fen = m.group(1)
    if variant is None:
        variant = INTERNATIONAL if fen_max_square(fen) > AMERICAN.squares else AMERICAN
    return Position.from_fen(variant, fen_core(fen))


def clean_comment(text: str) -> str:
    """A comment with its white space made single spaces (so that writing can wrap it)."""
    return " ".join(text.split())

"""PDN (Portable Draughts Notation) in and out: games as players keep and trade them.

The package by job: :mod:`~engine.pdn.tokens` (lines of files and text, decoded; their tokens),
:mod:`~engine.pdn.reader` (tokens grouped into games and fed to a visitor, as python-chess's
``read_game`` and ``BaseVisitor``), :mod:`~engine.pdn.model` (:class:`PdnGame`, its moves, the
errors, results and rule sets) and :mod:`~engine.pdn.writer` (PDN text out). The command
``python -m engine pdn`` is in ``engine/__main__.py``.

What goes wrong is reported, never raised out of a game: a game keeps the moves before its first
problem, and :attr:`PdnGame.error` names the game's index in its file, its line, the move number and
the move text. The rest of the file is still read. Harmless oddities (a tag without a value, a stray
``)``) land in :attr:`PdnGame.warnings`. A file that isn't text (binary data) is refused with
:class:`PdnFileError`. Memory stays bounded on any input: files are read as a stream of lines of at
most 1 MiB, a game's kept text and moves have limits (``reader.MAX_GAME_CHARS``, ``reader.MAX_PLIES``),
and games are yielded one at a time; the moves of a game are replayed only when first asked for, so
listing the games of a large file (tags only) is fast.

For the game: :func:`read_file` (a file, streamed) and :func:`read_text` (pasted text) give
:class:`PdnGame` objects; :func:`position_from_fen` reads a pasted FEN; :meth:`PdnGame.to_game` builds
an :class:`engine.game.Game` (the whole history, so repetition counts continue; a resignation or an
agreed draw from the result); :meth:`PdnGame.from_game` turns a game record into PDN and
:meth:`PdnGame.pdn` into text; :meth:`PdnGame.annotate` adds a mark or a comment to one move.
"""

from .model import (
    DRAW_OFFER,
    GAME_TYPES,
    MARKS,
    PdnError,
    PdnFileError,
    PdnGame,
    PdnMove,
    PdnMoveError,
    PdnSyntaxError,
    PdnVariantError,
    position_from_fen,
    result_text,
    result_winner,
    variant_of_game_type,
)
from .reader import GameBuilder, PdnReader, PdnVisitor, read_file, read_text
from .writer import LINE_WIDTH, RESULTS, ROSTER, write_games

__all__ = [
    "DRAW_OFFER", "GAME_TYPES", "LINE_WIDTH", "MARKS", "RESULTS", "ROSTER",
    "PdnError", "PdnFileError", "PdnMoveError", "PdnSyntaxError", "PdnVariantError",
    "PdnGame", "PdnMove", "PdnReader", "PdnVisitor", "GameBuilder",
    "read_file", "read_text", "write_games", "position_from_fen", "result_text", "result_winner",
    "variant_of_game_type",
]

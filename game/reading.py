"""What a game file, a pasted game or a pasted position that can't be read says on screen: what is
wrong in a player's words and where (the move's number and its own line, or the line of the text).
The engine's messages (``str(err)``) stay as they are for the command line, which names the game in
its file and quotes everything."""

from __future__ import annotations


def problem_words(err: Exception) -> str:
    """A sentence (or two) for the player about ``err``: an ``engine.pdn`` error or an
    ``engine.InvalidFenError``; any other error by its message."""
    from engine import InvalidFenError
    from engine.pdn import PdnFileError, PdnMoveError, PdnSyntaxError, PdnVariantError

    if isinstance(err, InvalidFenError):
        return f"That position can't be read: {err.problem}" + (f" ({err.fen})" if err.fen else "")
    if isinstance(err, PdnMoveError) and err.number:  # "23." or "23..." (the second player's move 23)
        number = err.number if err.number.endswith("...") else err.number.rstrip(".")
        return _sentence(f"move {number} on line {err.line} can't be played: {err.problem}")
    if isinstance(err, (PdnMoveError, PdnSyntaxError)) and err.line:
        return _sentence(f"line {err.line}: {err.problem}")
    if isinstance(err, (PdnMoveError, PdnSyntaxError, PdnVariantError, PdnFileError)):
        return _sentence(err.problem)
    return _sentence(str(err))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]

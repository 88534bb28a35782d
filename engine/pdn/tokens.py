"""PDN text as tokens: lines from a file or a string, decoded, and the tokens of those lines.

* Files: UTF-8 with or without a BOM, UTF-16 with a BOM, else Windows-1252/Latin-1, line by line;
  CRLF or CR. A file that isn't text (binary data) is refused with :class:`PdnFileError`. Lines are
  read in pieces of at most :data:`MAX_LINE_BYTES` (a longer line is split at a space), so memory
  stays bounded on any input.
* Tokens (:func:`tokens`): ``(kind, line, text, extra)`` tuples, which keep the reader's loop cheap.
  Tag pairs ``[Name "value"]`` come whole (``\\"`` and ``\\\\`` escapes; a tag without a value or
  with an unquoted one is a TAG_ERROR or taken as it is); ``{...}`` comments come whole, across
  lines (at most :data:`MAX_COMMENT_CHARS`); ``; ...`` comments to the end of the line; lines
  starting with ``%`` are skipped. Moves: ``32-28``, ``22x15``, ``24x15x6``, ``:`` as the capture
  separator, spaces inside a move (``1- 6``), leading zeros, algebraic ``c3-d4`` / ``c3d4``, with a
  strength mark, a draw offer ``(=)`` or a ``*`` glued to them.

What the tokens mean, game by game, is :mod:`engine.pdn.reader`'s.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator

from .model import PdnFileError

MAX_COMMENT_CHARS = 100_000  # one comment
MAX_LINE_BYTES = 1 << 20  # longer lines are read in pieces, split at a space

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


def file_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line of a file, decoded line by line; PdnFileError if it can't be
    opened or isn't text."""
    name = os.fspath(path)
    try:
        f = open(name, "rb")
    except OSError as err:
        raise PdnFileError(f"can't open {name!r}: {err.strerror or err}", str(err.strerror or err)) from None
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
            raise PdnFileError(f"{name!r} is not a PDN text file (binary data near the start)",
                               "it is not a PDN text file (binary data near the start)")
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
                where = f"binary data at byte {offset + chunk.index(0)}"
                raise PdnFileError(f"{name!r} is not a PDN text file ({where})", f"it is not a PDN text file ({where})")
            offset += len(chunk)
            for line in _decode(chunk).splitlines() or [""]:
                number += 1
                yield number, line


def text_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line of a string; PdnFileError if it isn't text."""
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
MOVE_MARK = re.compile(rf"(.*?)({_SUFFIX})?", re.S)  # a MOVE token's move and glued suffix
_TAG = re.compile(r'\[\s*([A-Za-z_][\w.-]*)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_TAG_LOOSE = re.compile(r'\[\s*([A-Za-z_][\w.-]*)\s*"(.*)"\s*\]')  # quotes inside the value, unescaped
_TAG_NO_VALUE = re.compile(r"\[\s*([A-Za-z_][\w.-]*)\s*\]")
_TAG_UNQUOTED = re.compile(r'\[\s*([A-Za-z_][\w.-]*)\s+([^"\[\]]*?)\s*\]')
_TAG_NAME = re.compile(r"\[\s*([A-Za-z_][\w.-]*)")
_TAG_LINE = re.compile(r'\[\s*[A-Za-z_][\w.-]*\s*"')  # a line that starts with a tag pair (column 1)
_UNESCAPE = re.compile(r'\\(["\\])')

# token kinds: TAG (name, value), TAG_ERROR (message, name), COMMENT (text), UNCLOSED (a comment open at
# a tag line or the end), RESULT, NUMBER ("12." "12..."), MOVE (with a glued suffix), ELLIPSIS, MARK, NAG,
# LPAREN, RPAREN, SETUP ("/.../"), OTHER (anything else)
TAG, TAG_ERROR, COMMENT, UNCLOSED, RESULT, NUMBER, MOVE, ELLIPSIS, MARK, NAG, LPAREN, RPAREN, SETUP, OTHER = range(14)
_KIND = {"result": RESULT, "number": NUMBER, "move": MOVE, "ellipsis": ELLIPSIS, "mark": MARK, "nag": NAG,
         "lparen": LPAREN, "rparen": RPAREN, "setup": SETUP, "other": OTHER}

Token = tuple[int, int, str, str]


def tokens(lines: Iterable[tuple[int, str]]) -> Iterator[Token]:
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


def _tag_token(line: str, start: int, number: int) -> tuple[Token, int]:
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

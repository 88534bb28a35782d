"""Editing a line of text (the "Join a friend" link, the room server's address): pure functions of
the text and the caret, so the controller keeps them in its phase and tests need no window."""

from __future__ import annotations

MAX_LENGTH = 300  # longer than any link or server address; a paste of a whole page stops here

KEYS = ("backspace", "delete", "left", "right", "home", "end")


def insert(text: str, caret: int, typed: str) -> tuple[str, int]:
    """``typed`` (a key's character, or the clipboard's text) put in at the caret. A paste is one
    line: line breaks and tabs become spaces, and spaces around the whole text (a link copied with
    its line's end) are dropped when the field was empty."""
    typed = "".join(" " if ch in "\r\n\t" else ch for ch in typed if ch.isprintable() or ch in "\r\n\t")
    if not text:
        typed = typed.strip()
    typed = typed[:max(0, MAX_LENGTH - len(text))]
    return text[:caret] + typed + text[caret:], caret + len(typed)


def edit(text: str, caret: int, key: str) -> tuple[str, int]:
    """One editing key (a name in :data:`KEYS`) applied at the caret."""
    caret = max(0, min(caret, len(text)))
    match key:
        case "backspace":
            return (text[:caret - 1] + text[caret:], caret - 1) if caret > 0 else (text, caret)
        case "delete":
            return text[:caret] + text[caret + 1:], caret
        case "left":
            return text, max(0, caret - 1)
        case "right":
            return text, min(len(text), caret + 1)
        case "home":
            return text, 0
        case "end":
            return text, len(text)
    raise ValueError(f"no editing key {key!r}")

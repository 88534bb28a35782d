"""Argument types for the engine's command lines (``python -m engine``, ``checkers3d-engine``):
numbers within their bounds, variant names with their choices listed, and files and folders checked
before the work starts, so that a bad value is a one-line error with exit status 2 (argparse's
status for bad usage), never a traceback, and never after minutes of work whose result is then lost.

Each type raises ``argparse.ArgumentTypeError`` with a message that quotes the value;
:class:`OneLineParser` prints it as ``error: ...`` on one line.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from collections.abc import Callable

from .variants import Variant, variant_named, variant_names

TT_SIZE_MAX_MB = 4096  # the largest transposition table the command line and the Hub's tt-size take
THREADS_MAX = 64  # the most search threads the command line and the Hub's threads take


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line, ``error: <what> (see <prog> --help)``, exit
    status 2, instead of the usage text and the message (subcommands' parsers are of this class too)."""

    def error(self, message: str):
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def whole_number(low: int, high: int | None = None, unit: str = "") -> Callable[[str], int]:
    """A type for a whole number from ``low`` to ``high`` (no upper bound when None)."""
    within = f"from {low} to {high}" if high is not None else f"at least {low}"
    unit_text = f" {unit}" if unit else ""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is out of range: give a whole number {within}{unit_text}")
        return value

    parse.__name__ = "whole number"
    return parse


def seconds(text: str) -> float:
    """A type for a time in seconds: a finite number above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time: give a number of seconds above 0, such as 0.5")
    return value


def variant_arg(text: str) -> Variant:
    """A type for a rule set by name or alias; the message lists the names taken."""
    try:
        return variant_named(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a rule set this program plays: choose one of "
                                         f"{variant_names()}") from None


def output_file(text: str) -> str:
    """A type for a file the command will write: not a folder, in a folder that exists and takes a
    new file (tried with a temporary file, removed at once), or an existing file that may be written
    (a device or a FIFO is written through as it is)."""
    if not text:
        raise argparse.ArgumentTypeError("the output file's name is empty")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a folder: give the name of a file in it")
    if os.path.exists(text) and not os.path.isfile(text):  # a device, a FIFO: written through
        if not os.access(text, os.W_OK):
            raise argparse.ArgumentTypeError(f"can't write {text!r}: permission denied")
        return text
    folder = os.path.dirname(os.path.realpath(text))  # through a link: the file is written beside its target
    if not os.path.isdir(folder):
        what = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise argparse.ArgumentTypeError(f"can't write {text!r}: the folder {folder!r} {what}")
    if os.path.isfile(text):
        if not os.access(text, os.W_OK):
            raise argparse.ArgumentTypeError(f"can't write {text!r}: permission denied")
        return text
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".checkers3d-check-"):
            pass
    except OSError as err:
        raise argparse.ArgumentTypeError(f"can't write {text!r}: {err.strerror or err}") from None
    return text


def input_file(text: str) -> str:
    """A type for a file the command will read: it exists and is not a folder."""
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if not os.path.exists(text):
        raise argparse.ArgumentTypeError(f"{text!r} does not exist")
    if not os.access(text, os.R_OK):
        raise argparse.ArgumentTypeError(f"can't read {text!r}: permission denied")
    return text


def folder(text: str) -> str:
    """A type for a folder that is read or made: it may not exist yet, but it is not a file."""
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return text


def os_error_text(err: OSError) -> str:
    """``'<file>: <reason>'`` for an OSError (``[Errno 28] No space left on device: '/dev/full'`` ->
    ``/dev/full: No space left on device``)."""
    reason = err.strerror or str(err)
    return f"{err.filename}: {reason}" if err.filename else reason


def fail(message: str) -> int:
    """Print ``error: message`` to stderr; the exit status 2."""
    print(f"error: {message}", file=sys.stderr)
    return 2

"""Checkers 3D rules and search engine. Imports only the standard library, numpy and numba.

The rules table and square names load at once; the position and its move generator (numba
kernels, whose import alone takes a second or more) load on first use of one of their names, so a
program can open its window and show the variants before numba is imported. ``from engine import
Position`` works as always; so does :func:`kernels_cached` (whether the compiled kernels are on disk),
which imports numba when first named. A program that calls the rules only now and then (the game's
window) can run them without numba: :func:`interpret_kernels`, before the first position is made.
"""

from .notation import InvalidSquareError, coords_square, parse_square, square_coords, square_name
from .variants import ALL_VARIANTS, AMERICAN, INTERNATIONAL, MORE_VARIANTS, VARIANTS, Color, Variant, variant_named

_FROM_POSITION = ("IllegalMoveError", "InvalidFenError", "Move", "Piece", "Position")

__all__ = [
    "AMERICAN", "INTERNATIONAL", "VARIANTS", "MORE_VARIANTS", "ALL_VARIANTS", "Color", "Variant", "variant_named",
    "Position", "Move", "Piece", "InvalidFenError", "IllegalMoveError", "InvalidSquareError",
    "parse_square", "square_coords", "square_name", "coords_square", "kernels_cached", "interpret_kernels",
    "version", "mark_kernels_compiled",
]


def mark_kernels_compiled() -> None:
    """Record that this process has compiled or loaded the kernels it ran, so that
    :func:`kernels_cached` says so to the next process (a warm-up calls this after running them)."""
    from ._jit import mark_compiled

    mark_compiled()


def version() -> str:
    """The installed game's version (pyproject.toml's, read from the package metadata), or
    ``'unknown'`` in a source tree that was never installed."""
    from importlib import metadata

    try:
        return metadata.version("checkers3d")
    except metadata.PackageNotFoundError:
        return "unknown"


def interpret_kernels() -> None:
    """Run this process's kernels (move generator, draw counter, search) as plain Python, without
    numba: about 110 MB less resident, at 0.1-0.4 ms for a position's moves instead of 0.03-0.05
    (far too slow for a search). Call it before anything makes a position; RuntimeError after."""
    from ._jit import interpret

    interpret()


def __getattr__(name):
    if name in _FROM_POSITION:
        from . import position

        return getattr(position, name)
    if name == "kernels_cached":
        from ._jit import kernels_cached

        return kernels_cached
    raise AttributeError(f"module 'engine' has no attribute {name!r}")

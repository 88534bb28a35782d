"""Checkers 3D rules and search engine. Imports only the standard library, numpy and numba.

The rules table and square names load at once; the position and its move generator (numba
kernels, whose import alone takes a second or more) load on first use of one of their names, so a
program can open its window and show the variants before numba is imported. ``from engine import
Position`` works as always; so does :func:`kernels_cached` (whether the compiled kernels are on disk),
which imports numba when first named.
"""

from .notation import InvalidSquareError, coords_square, parse_square, square_coords, square_name
from .variants import AMERICAN, INTERNATIONAL, VARIANTS, Color, Variant, variant_named

_FROM_POSITION = ("IllegalMoveError", "InvalidFenError", "Move", "Piece", "Position")

__all__ = [
    "AMERICAN", "INTERNATIONAL", "VARIANTS", "Color", "Variant", "variant_named",
    "Position", "Move", "Piece", "InvalidFenError", "IllegalMoveError", "InvalidSquareError",
    "parse_square", "square_coords", "square_name", "coords_square", "kernels_cached",
]


def __getattr__(name):
    if name in _FROM_POSITION:
        from . import position

        return getattr(position, name)
    if name == "kernels_cached":
        from ._jit import kernels_cached

        return kernels_cached
    raise AttributeError(f"module 'engine' has no attribute {name!r}")

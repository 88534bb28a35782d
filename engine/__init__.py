"""Checkers 3D rules and search engine. Imports only the standard library, numpy and numba."""

from .notation import InvalidSquareError, parse_square, square_coords, square_name, coords_square
from .position import IllegalMoveError, InvalidFenError, Move, Piece, Position
from .variants import AMERICAN, INTERNATIONAL, VARIANTS, Color, Variant, variant_named

__all__ = [
    "AMERICAN", "INTERNATIONAL", "VARIANTS", "Color", "Variant", "variant_named",
    "Position", "Move", "Piece", "InvalidFenError", "IllegalMoveError", "InvalidSquareError",
    "parse_square", "square_coords", "square_name", "coords_square",
]

"""The board image (no GL): the square numbers are written where a piece standing on the square can't
hide them, wholly inside their own square, for the reader on either side."""

from __future__ import annotations

import numpy as np
import pytest

from engine import AMERICAN, INTERNATIONAL, coords_square
from game.render.geometry import PIECE_RADIUS, half_extent
from game.render.textures import board_image, default_pixels


@pytest.mark.parametrize("variant", [AMERICAN, INTERNATIONAL], ids=lambda v: v.name)
@pytest.mark.parametrize("flipped", [False, True], ids=["first-player", "second-player"])
def test_square_numbers_lie_in_their_square_clear_of_a_piece(variant, flipped):
    pixels = default_pixels(variant)
    plain = board_image(variant, pixels).astype(int)
    numbered = board_image(variant, pixels, numbers=True, flipped=flipped).astype(int)
    ink = np.abs(numbered - plain)[..., :3].sum(axis=2) > 24
    n, e = variant.size, half_extent(variant.size)
    ppu = pixels / (2 * e)
    ys, xs = np.nonzero(ink)
    wx, wz = (xs + 0.5) / ppu - e, (ys + 0.5) / ppu - e  # texel centres on the board, in squares
    f, r = np.floor(wx + n / 2).astype(int), n - 1 - np.floor(wz + n / 2).astype(int)
    assert len(xs) and (0 <= f).all() and (f < n).all() and (0 <= r).all() and (r < n).all(), "on the squares"
    assert all(coords_square(variant, a, b) is not None for a, b in set(zip(f, r, strict=True))), "dark squares"
    dx, dz = wx - (f - (n - 1) / 2), wz - ((n - 1) / 2 - r)
    distance = np.hypot(dx, dz)
    assert distance.min() >= PIECE_RADIUS + 0.03, f"ink {distance.min():.2f} squares from a square's centre"
    near = dz > 0 if not flipped else dz < 0
    assert near.all(), "in the half of the square nearer its reader, which a piece's body never rises over"
    numbered_squares = {coords_square(variant, a, b) for a, b in zip(f, r, strict=True)}
    assert len(numbered_squares) == variant.squares, "every dark square has its number"

"""Screen points to board squares and back: pure math on the camera's matrices (no GL).

Screen coordinates are window pixels with the origin at the top left (as pygame reports the
mouse); a :class:`Viewport` says where in the window the board is drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine import Variant

from .camera import Camera
from .geometry import PIECE_HEIGHT, PIECE_RADIUS, square_at, square_center


@dataclass(frozen=True)
class Viewport:
    """A rectangle of the window in pixels, origin at the window's top left.

    ``frame_height`` is the height of the whole window (framebuffer), needed to turn the rectangle
    into OpenGL's bottom-left convention; it defaults to the rectangle's own bottom.
    """

    x: int
    y: int
    width: int
    height: int
    frame_height: int | None = None

    @property
    def aspect(self) -> float:
        return self.width / max(1, self.height)

    def gl(self) -> tuple[int, int, int, int]:
        """(x, y, width, height) with the origin at the framebuffer's bottom left, for ``ctx.viewport``."""
        fh = self.frame_height if self.frame_height is not None else self.y + self.height
        return self.x, fh - self.y - self.height, self.width, self.height

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.x + self.width and self.y <= py < self.y + self.height


def project(camera: Camera, board_size: int, viewport: Viewport, point) -> tuple[float, float] | None:
    """Window pixel (x, y) where the world point lands; None when it is behind the camera."""
    m = camera.view_projection(board_size, viewport.aspect)
    clip = m @ np.array([point[0], point[1], point[2], 1.0])
    if clip[3] <= 1e-9:
        return None
    nx, ny = clip[0] / clip[3], clip[1] / clip[3]
    return (viewport.x + (nx + 1) / 2 * viewport.width, viewport.y + (1 - ny) / 2 * viewport.height)


def screen_ray(camera: Camera, board_size: int, viewport: Viewport, px: float, py: float):
    """(origin, unit direction) in world units of the ray through window pixel (px, py)."""
    m = camera.view_projection(board_size, viewport.aspect)
    inv = np.linalg.inv(m)
    nx = (px - viewport.x) / viewport.width * 2 - 1
    ny = 1 - (py - viewport.y) / viewport.height * 2
    near = inv @ np.array([nx, ny, -1.0, 1.0])
    far = inv @ np.array([nx, ny, 1.0, 1.0])
    near, far = near[:3] / near[3], far[:3] / far[3]
    d = far - near
    return near, d / np.linalg.norm(d)


def pick_square(variant: Variant, camera: Camera, viewport: Viewport, px: float, py: float,
                pieces: dict[int, float] | None = None) -> int | None:
    """The dark square under window pixel (px, py), or None outside the viewport, off the squares
    or on a light square.

    ``pieces`` maps occupied squares to the height of what stands there (PIECE_HEIGHT for a man,
    twice that for a king); a press on the side or top of a piece then picks the piece's square
    even where the piece hides the square behind it.
    """
    if not viewport.contains(px, py):
        return None
    origin, d = screen_ray(camera, variant.size, viewport, px, py)
    best_t, best_sq = math.inf, None
    for sq, height in (pieces or {}).items():
        t = _ray_cylinder(origin, d, square_center(variant, sq), PIECE_RADIUS, height)
        if t is not None and t < best_t:
            best_t, best_sq = t, sq
    if abs(d[1]) > 1e-9:
        t = -origin[1] / d[1]
        if 0 < t < best_t:
            hit = origin + t * d
            return square_at(variant, hit[0], hit[2])
    return best_sq


def _ray_cylinder(o, d, centre, radius, height) -> float | None:
    """Distance along the ray to the first hit on a closed vertical cylinder standing on y = 0."""
    cx, cz = centre
    ox, oz = o[0] - cx, o[2] - cz
    hits = []
    # the top cap
    if abs(d[1]) > 1e-9:
        t = (height - o[1]) / d[1]
        if t > 0 and (ox + t * d[0]) ** 2 + (oz + t * d[2]) ** 2 <= radius * radius:
            hits.append(t)
    # the side
    a = d[0] ** 2 + d[2] ** 2
    if a > 1e-12:
        b = 2 * (ox * d[0] + oz * d[2])
        c = ox * ox + oz * oz - radius * radius
        disc = b * b - 4 * a * c
        if disc >= 0:
            t = (-b - math.sqrt(disc)) / (2 * a)
            if t > 0 and 0 <= o[1] + t * d[1] <= height:
                hits.append(t)
    return min(hits) if hits else None


def piece_heights(position_pieces) -> dict[int, float]:
    """Heights for :func:`pick_square` from ``Position.pieces()`` (kings stand twice as tall)."""
    return {sq: PIECE_HEIGHT * (2 if p.king else 1) for sq, p in position_pieces.items()}

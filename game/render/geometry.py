"""Board coordinates and meshes, as plain numpy arrays (no GL here).

World frame: one square is 1.0 wide, the board's playing surface lies in the plane y = 0 with its
centre at the origin, files run along +x and ranks along -z, so the first player's near edge
(rank 1) is at +z. The camera turns, the board never does.
"""

from __future__ import annotations

import math

import numpy as np

from engine import Variant, coords_square, square_coords

FRAME_WIDTH = 0.72  # the wooden frame around the squares, in squares
BOARD_THICKNESS = 0.32
PIECE_RADIUS = 0.40
PIECE_HEIGHT = 0.17  # one man; a king is two stacked
# the key light: a unit vector towards it (the shaders' lighting, the board's bake, the blob shadows)
LIGHT_DIR = np.array([-0.45, 0.80, 0.40]) / np.linalg.norm([-0.45, 0.80, 0.40])


def half_extent(size: int) -> float:
    """Distance from the board's centre to the outer edge of its frame."""
    return size / 2 + FRAME_WIDTH


def square_center(variant: Variant, square: int) -> tuple[float, float]:
    """(x, z) of a square's centre in world units."""
    f, r = square_coords(variant, square)
    return file_rank_center(variant.size, f, r)


def file_rank_center(size: int, file: float, rank: float) -> tuple[float, float]:
    """(x, z) of the centre of the cell at 0-based (file, rank), fractional values allowed."""
    return file - (size - 1) / 2, (size - 1) / 2 - rank


def square_at(variant: Variant, x: float, z: float) -> int | None:
    """The dark square under the world point (x, z); None on a light square or off the squares."""
    n = variant.size
    f = math.floor(x + n / 2)
    r = math.floor(n / 2 - z)
    return coords_square(variant, f, r)


# --- pieces -------------------------------------------------------------------------------------

def _piece_profile(bevel_steps: tuple[int, int]) -> list[list[tuple[float, float, float, float]]]:
    """The turned outline of a man as strips of (radius, height, normal_r, normal_y), from the rim's
    foot up and inward across the top.

    Each strip is shaded smoothly; between strips the edge is hard. The bottom is left out (the
    camera is always above the board, so it is never seen) and the top's concentric grooves and
    the rim's ridges are shaded in piece.glsl rather than modelled: the software renderer's cost
    is mostly per triangle. ``bevel_steps``: the segments of the foot's and the top's rounded edges.
    """
    R, H = PIECE_RADIUS, PIECE_HEIGHT
    bevel = 0.022

    def arc(cr, cy, rad, a0, a1, steps):
        pts = []
        for i in range(steps + 1):
            a = a0 + (a1 - a0) * i / steps
            nr, ny = math.cos(a), math.sin(a)
            pts.append((cr + rad * nr, cy + rad * ny, nr, ny))
        return pts

    lower = arc(R - bevel, bevel, bevel, -math.pi / 2, 0.0, bevel_steps[0])
    rim = [(R, bevel, 1.0, 0.0), (R, H - bevel, 1.0, 0.0)]
    upper = arc(R - bevel, H - bevel, bevel, 0.0, math.pi / 2, bevel_steps[1])
    top = [(R - bevel, H, 0.0, 1.0), (0.0, H, 0.0, 1.0)]
    # One continuous path up the rim and inward across the top, so every strip winds the same
    # way (counter-clockwise seen from outside).
    return [lower, rim, upper, top]


def lathe(strips, segments: int) -> tuple[np.ndarray, np.ndarray]:
    """Turn profile strips around the y axis: (vertices [n, 6] position+normal, triangle indices)."""
    verts: list[tuple[float, ...]] = []
    idx: list[int] = []
    for strip in strips:
        base = len(verts)
        for (r, y, nr, ny) in strip:
            for s in range(segments + 1):
                a = 2 * math.pi * s / segments
                c, sn = math.cos(a), math.sin(a)
                verts.append((r * c, y, r * sn, nr * c, ny, nr * sn))
        cols = segments + 1
        for i in range(len(strip) - 1):
            for s in range(segments):
                a = base + i * cols + s
                b = a + cols
                idx += [a, b, a + 1, a + 1, b, b + 1]
    v = np.array(verts, dtype="f4")
    # Normalise normals (the arc points already are; the zero-radius centre keeps its axis normal).
    n = v[:, 3:]
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    return v, np.array(idx, dtype="i4")


def piece_mesh(segments: int = 32, bevel_steps: tuple[int, int] = (2, 3)) -> tuple[np.ndarray, np.ndarray]:
    """A man: a turned disc of radius PIECE_RADIUS and height PIECE_HEIGHT standing on y = 0, its
    rounded edges in ``bevel_steps`` segments (foot, top)."""
    return lathe(_piece_profile(bevel_steps), segments)


def ring_mesh(major_segments: int = 40, minor_segments: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """A unit torus parameterisation: vertices are (angle_around, angle_of_tube); the ring shader
    builds position and normal from them and per-instance radii."""
    verts = [(2 * math.pi * i / major_segments, 2 * math.pi * j / minor_segments)
             for i in range(major_segments + 1) for j in range(minor_segments + 1)]
    idx = []
    cols = minor_segments + 1
    for i in range(major_segments):
        for j in range(minor_segments):
            a = i * cols + j
            b = a + cols
            idx += [a, a + 1, b, a + 1, b + 1, b]
    return np.array(verts, dtype="f4"), np.array(idx, dtype="i4")


# --- board --------------------------------------------------------------------------------------

def board_mesh(size: int) -> np.ndarray:
    """The board block as triangles of (position, normal, uv): the top (squares and frame, uv over
    the board texture) and four sides that reuse the frame's wood near each edge."""
    e = half_extent(size)
    t = BOARD_THICKNESS
    strip = 0.012  # uv depth of the frame's outer strip (clear of the letters) that the sides borrow

    def quad(p0, p1, p2, p3, n, uv0, uv1, uv2, uv3):
        return [(*p0, *n, *uv0), (*p1, *n, *uv1), (*p2, *n, *uv2),
                (*p0, *n, *uv0), (*p2, *n, *uv2), (*p3, *n, *uv3)]

    def u(x):
        return (x + e) / (2 * e)

    tris = []
    # top: texture row 0 is the far edge (z = -e)
    tris += quad((-e, 0, -e), (-e, 0, e), (e, 0, e), (e, 0, -e), (0, 1, 0),
                 (0, 0), (0, 1), (1, 1), (1, 0))
    # near side (+z): borrow the near frame strip
    tris += quad((-e, 0, e), (-e, -t, e), (e, -t, e), (e, 0, e), (0, 0, 1),
                 (0, 1 - strip), (0, 1), (1, 1), (1, 1 - strip))
    # far side (-z)
    tris += quad((e, 0, -e), (e, -t, -e), (-e, -t, -e), (-e, 0, -e), (0, 0, -1),
                 (1, strip), (1, 0), (0, 0), (0, strip))
    # right side (+x): the frame's grain there runs along z; sample a strip along it
    tris += quad((e, 0, e), (e, -t, e), (e, -t, -e), (e, 0, -e), (1, 0, 0),
                 (1 - strip, u(e)), (1, u(e)), (1, u(-e)), (1 - strip, u(-e)))
    # left side (-x)
    tris += quad((-e, 0, -e), (-e, -t, -e), (-e, -t, e), (-e, 0, e), (-1, 0, 0),
                 (strip, u(-e)), (0, u(-e)), (0, u(e)), (strip, u(e)))
    return np.array(tris, dtype="f4")

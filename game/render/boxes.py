"""Screen boxes around what the board shows, and box arithmetic (numpy, no GL).

Boxes are (x0, y0, x1, y1) in GL pixels (origin bottom left); a GL viewport or scissor is
(x, y, w, h). The renderer redraws only inside boxes: around the pieces and markers that changed,
around the moving pieces, in bands while it rebuilds its cached pictures, and along the board's edges
where FXAA smooths.
"""

from __future__ import annotations

import numpy as np

from .geometry import BOARD_THICKNESS, PIECE_HEIGHT, PIECE_RADIUS, half_extent
from .instances import Instances


def board_edge_strips(view_proj: np.ndarray, viewport: tuple, size: int, pixels: float = 3.0) -> np.ndarray | None:
    """Triangles (NDC x, y; float32 rows) covering ``pixels`` either side of the 12 edges of a
    board block of ``size``, as projected into the GL ``viewport`` (x, y, w, h): where FXAA has
    anything to smooth on the board. None when a corner is behind the camera."""
    e, t = half_extent(size), BOARD_THICKNESS
    corners = np.array([(x, y, z, 1.0) for x in (-e, e) for y in (0.0, -t) for z in (-e, e)]) @ view_proj.T
    if np.any(corners[:, 3] <= 1e-6):
        return None
    half = np.array([viewport[2], viewport[3]]) / 2
    px = corners[:, :2] / corners[:, 3:4] * half
    triangles = []
    for i in range(8):
        for j in range(i + 1, 8):
            if bin(i ^ j).count("1") != 1:  # corners joined by an edge differ in one coordinate
                continue
            d = px[j] - px[i]
            length = np.hypot(*d)
            if length < 1e-6:
                continue
            d *= pixels / length
            n = np.array([-d[1], d[0]])
            a, b = px[i] - d, px[j] + d
            triangles += [a + n, a - n, b - n, a + n, b - n, b + n]
    return (np.array(triangles) / half).astype("f4")


def project_boxes(view_proj: np.ndarray, viewport: tuple, points: np.ndarray) -> np.ndarray:
    """GL pixel boxes (x0, y0, x1, y1) around each group of world points ((n, k, 3)), two pixels
    wider, clipped to the GL ``viewport`` (x, y, w, h); an (n, 4) int array (rows may be empty
    boxes). A group reaching behind the camera gets the whole viewport."""
    vx, vy, w, h = viewport
    clip = np.concatenate([points, np.ones(points.shape[:2] + (1,))], axis=2) @ view_proj.T
    behind = np.any(clip[..., 3] <= 1e-6, axis=1)
    ndc = clip[..., :2] / np.maximum(clip[..., 3:4], 1e-6)
    lo, hi = ndc.min(axis=1), ndc.max(axis=1)
    boxes = np.stack([np.floor(vx + (lo[:, 0] + 1) / 2 * w) - 2, np.floor(vy + (lo[:, 1] + 1) / 2 * h) - 2,
                      np.ceil(vx + (hi[:, 0] + 1) / 2 * w) + 2, np.ceil(vy + (hi[:, 1] + 1) / 2 * h) + 2], axis=1)
    boxes[behind] = (vx, vy, vx + w, vy + h)
    return np.clip(boxes, [vx, vy, vx, vy], [vx + w, vy + h, vx + w, vy + h]).astype(int)


def piece_boxes(view_proj: np.ndarray, viewport: tuple, pieces: np.ndarray, margin: float = 0.06) -> np.ndarray:
    """Boxes around piece rows (x, y, z, scale, ...), with room for a king's stack."""
    r = PIECE_RADIUS + margin
    corners = np.array([(dx, dy, dz) for dx in (-r, r) for dz in (-r, r) for dy in (0.0, 1.0)])
    p = pieces[:, None, :3] + corners[None] * np.array([1.0, 0.0, 1.0]) * pieces[:, None, 3:4]
    p[..., 1] += corners[None, :, 1] * (2 * PIECE_HEIGHT * pieces[:, None, 3] + margin)
    return project_boxes(view_proj, viewport, p)


def ring_boxes(view_proj: np.ndarray, viewport: tuple, rings: np.ndarray) -> np.ndarray:
    """Boxes around ring rows (x, y, z, major radius, tube radius, ...)."""
    r = rings[:, 3:4] + rings[:, 4:5] + 0.02
    t = rings[:, 4:5] + 0.02
    corners = np.array([(dx, dy, dz) for dx in (-1, 1) for dz in (-1, 1) for dy in (-1, 1)], dtype=float)
    p = rings[:, None, :3] + corners[None] * np.stack([r, t, r], axis=2)
    return project_boxes(view_proj, viewport, p)


def decal_boxes(view_proj: np.ndarray, viewport: tuple, decals: np.ndarray) -> np.ndarray:
    """Boxes around decal rows (segment x0, z0, x1, z1; outer radius, inner, height, kind; ...),
    at least as wide as the quads decal.glsl draws, one per row."""
    r = decals[:, 4] * 1.45 + 0.02
    x0, x1 = np.minimum(decals[:, 0], decals[:, 2]) - r, np.maximum(decals[:, 0], decals[:, 2]) + r
    z0, z1 = np.minimum(decals[:, 1], decals[:, 3]) - r, np.maximum(decals[:, 1], decals[:, 3]) + r
    y = decals[:, 6]
    p = np.stack([np.stack([x, y, z], axis=1) for x in (x0, x1) for z in (z0, z1)], axis=1)
    return project_boxes(view_proj, viewport, p)


def decal_part_boxes(view_proj: np.ndarray, viewport: tuple, decals: np.ndarray) -> np.ndarray:
    """Boxes that together cover decal rows, a long segment getting one per square of its length
    (a single box around a diagonal line would cover a large part of the board)."""
    parts = []
    for row in decals:
        n = max(1, int(np.ceil(np.hypot(row[2] - row[0], row[3] - row[1]))))
        for k in range(n):
            part = row.copy()
            part[0:2] = row[0:2] + (row[2:4] - row[0:2]) * (k / n)
            part[2:4] = row[0:2] + (row[2:4] - row[0:2]) * ((k + 1) / n)
            parts.append(part)
    return decal_boxes(view_proj, viewport, np.array(parts, dtype="f4").reshape(-1, decals.shape[1]))


def touching(boxes: np.ndarray, box) -> np.ndarray:
    """Which of ``boxes`` ((n, 4) x0, y0, x1, y1) overlap ``box``, as a boolean mask."""
    return (boxes[:, 0] < box[2]) & (box[0] < boxes[:, 2]) & (boxes[:, 1] < box[3]) & (box[1] < boxes[:, 3])


def viewport_box(viewport: tuple) -> tuple[int, int, int, int]:
    """A GL viewport (x, y, w, h) as a box (x0, y0, x1, y1)."""
    x, y, w, h = viewport
    return x, y, x + w, y + h


def scissor(box) -> tuple[int, int, int, int]:
    """A box (x0, y0, x1, y1) as a GL scissor rectangle (x, y, w, h)."""
    return box[0], box[1], box[2] - box[0], box[3] - box[1]


def bounding(rects: list) -> tuple[int, int, int, int]:
    """The smallest GL rectangle (x, y, w, h) that holds every one of ``rects`` (at least one)."""
    x0, y0 = min(r[0] for r in rects), min(r[1] for r in rects)
    x1, y1 = max(r[0] + r[2] for r in rects), max(r[1] + r[3] for r in rects)
    return x0, y0, x1 - x0, y1 - y0


def grow(box, pixels: int, bounds) -> tuple[int, int, int, int]:
    """``box`` widened by ``pixels`` on every side, within ``bounds``."""
    return (max(box[0] - pixels, bounds[0]), max(box[1] - pixels, bounds[1]),
            min(box[2] + pixels, bounds[2]), min(box[3] + pixels, bounds[3]))


def intersect(a, b) -> tuple[int, int, int, int] | None:
    """The overlap of two boxes; None when they do not overlap."""
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[2] > box[0] and box[3] > box[1] else None


def merge_boxes(boxes: list, waste: float | None = None) -> list[tuple[int, int, int, int]]:
    """Boxes merged until none overlap (so one box never repaints another's piece); with
    ``waste``, instead any two whose bounding box is at most ``waste`` times their areas' sum."""
    def area(b):
        return (b[2] - b[0]) * (b[3] - b[1])

    boxes = [list(b) for b in boxes]
    merged = True
    while merged:  # a few dozen boxes at most
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                union = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                if (area(union) <= waste * (area(a) + area(b)) if waste is not None
                        else a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]):
                    boxes[i] = union
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [tuple(b) for b in boxes]


def row_costs(viewport: tuple, boxes: np.ndarray, weight: float) -> np.ndarray:
    """What drawing the rows of the GL ``viewport`` costs, cumulated bottom up (one entry more than
    rows, from 0): each row its width, plus ``weight`` times the width of the ``boxes`` (x0, y0, x1,
    y1) that cross it."""
    x, y, w, h = viewport
    per_row = np.full(h, float(w))
    if len(boxes):
        b = np.asarray(boxes, dtype=float)
        widths = weight * (np.clip(b[:, 2], x, x + w) - np.clip(b[:, 0], x, x + w))
        steps = np.zeros(h + 1)
        np.add.at(steps, np.clip(np.floor(b[:, 1]) - y, 0, h).astype(int), widths)
        np.add.at(steps, np.clip(np.ceil(b[:, 3]) - y, 0, h).astype(int), -widths)
        per_row += np.cumsum(steps[:h])
    return np.concatenate(([0.0], np.cumsum(per_row)))


def band_end(costs: np.ndarray, start: int, allowance: float, least: int) -> int:
    """Where a band of rows from ``start`` ends (exclusive) for its cost to stay within
    ``allowance``, given the rows' cumulated ``costs`` (see :func:`row_costs`): at least ``least``
    rows, at most the rows left."""
    fits = int(np.searchsorted(costs, costs[start] + allowance, side="right")) - 1
    return min(max(fits, start + least), len(costs) - 1)


def changed_boxes(view_proj: np.ndarray, viewport: tuple, old: Instances, new: Instances) -> list[tuple[int, int, int, int]]:
    """Boxes around every piece, ring and mark that a still picture showing ``old`` gains or loses
    when it shows ``new``; the whole GL ``viewport`` when that is most of it. Boxes are merged only
    where that costs few extra pixels (each box costs a few draws; the bounding box of a long line of
    the last move and a ring may be many times their area). Overlaps need no merging: redrawing a box
    redraws all that reaches into it, so they come out the same."""
    boxes = []
    for rows_old, rows_new, boxes_of in ((old.pieces, new.pieces, piece_boxes), (old.rings, new.rings, ring_boxes),
                                         (old.shadows, new.shadows, decal_part_boxes)):
        before = {r.tobytes() for r in rows_old}
        after = {r.tobytes() for r in rows_new}
        changed = [r for r in rows_old if r.tobytes() not in after] + [r for r in rows_new if r.tobytes() not in before]
        if changed:
            boxes += [tuple(b) for b in boxes_of(view_proj, viewport, np.array(changed))]
    boxes = merge_boxes([b for b in boxes if b[2] > b[0] and b[3] > b[1]], waste=1.3)
    if sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) > 0.5 * viewport[2] * viewport[3]:
        return [viewport_box(viewport)]
    return boxes


def moving_boxes(view_proj: np.ndarray, viewport: tuple, moving: Instances, margin: int = 2) -> list[tuple[int, int, int, int]]:
    """GL scissor rectangles (x, y, w, h), clipped to the GL ``viewport``, that cover the moving
    pieces and their shadows and ``margin`` pixels more: one per piece, overlapping ones merged (so
    one box never repaints another's piece). Empty when nothing moves."""
    if len(moving.pieces) == 0:
        return []
    r = PIECE_RADIUS + 0.06
    vx, vy, w, h = viewport
    boxes = []
    for (x, y, z, scale), (sx, sz, _sx, _sz, outer) in zip(moving.pieces[:, :4], moving.shadows[:, :5], strict=False):
        top = y + 2 * PIECE_HEIGHT * scale + 0.06  # room for a king's stack and its ring
        pts = [(x + dx * scale, yy, z + dz * scale, 1.0) for dx in (-r, r) for dz in (-r, r) for yy in (y, top)]
        pts += [(sx + dx, 0.0, sz + dz, 1.0) for dx in (-outer, outer) for dz in (-outer, outer)]
        clip = np.array(pts) @ view_proj.T
        if np.any(clip[:, 3] <= 1e-6):
            return [viewport]
        ndc = clip[:, :2] / clip[:, 3:4]
        box = [int(np.floor(vx + (ndc[:, 0].min() + 1) / 2 * w)) - margin,
               int(np.floor(vy + (ndc[:, 1].min() + 1) / 2 * h)) - margin,
               int(np.ceil(vx + (ndc[:, 0].max() + 1) / 2 * w)) + margin,
               int(np.ceil(vy + (ndc[:, 1].max() + 1) / 2 * h)) + margin]
        box = [max(box[0], vx), max(box[1], vy), min(box[2], vx + w), min(box[3], vy + h)]
        if box[2] > box[0] and box[3] > box[1]:
            boxes.append(box)
    return [(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in merge_boxes(boxes)]

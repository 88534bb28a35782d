"""What one frame draws, worked out from the state and the time (numpy, no GL): the camera's
matrices, the still pieces and markers (which the renderer caches as a picture) and the moving
pieces (drawn every frame)."""

from __future__ import annotations

import numpy as np

from .boxes import decal_boxes, piece_boxes, ring_boxes
from .camera import Camera
from .instances import Instances, marker_rows, piece_rows
from .state import RenderState


def mat_bytes(m: np.ndarray) -> bytes:
    return np.ascontiguousarray(m.T, dtype="f4").tobytes()  # GLSL matrices are column-major


class Frame:
    """What one frame draws, worked out from the state and the time: the camera's matrices, the
    still pieces and markers (cacheable) and the moving pieces (drawn every frame)."""

    def __init__(self, state: RenderState, t: float, camera: Camera, aspect: float, texture_key: tuple):
        n = state.position.variant.size
        self.state = state
        self.camera = camera
        self.texture_key = texture_key  # the board texture drawn (see BoardRenderer._usable_texture)
        self.view_proj_matrix = camera.view_projection(n, aspect)
        self.view_proj = mat_bytes(self.view_proj_matrix)
        self.eye = tuple(float(v) for v in camera.eye(n, aspect))
        self.flipped = seen_flipped(camera)
        self.still, self.moving = piece_rows(state, t)
        self.markers = marker_rows(state)
        self._still_boxes: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def still_key(self) -> bytes:
        """Bytes that change whenever the still picture would."""
        return b"".join(a.tobytes() for a in (*self.still, self.markers))

    def still_rows(self) -> "Instances":
        """The still picture's rows, its markers counted with the shadows (both are decals)."""
        return Instances(self.still.pieces, self.still.rings, np.concatenate([self.still.shadows, self.markers]))

    def still_boxes(self, viewport: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Screen boxes (x0, y0, x1, y1) in the GL ``viewport`` around each row of
        :meth:`still_rows`: (pieces, rings, decals)."""
        if self._still_boxes is None:
            rows = self.still_rows()
            self._still_boxes = (piece_boxes(self.view_proj_matrix, viewport, rows.pieces),
                                 ring_boxes(self.view_proj_matrix, viewport, rows.rings),
                                 decal_boxes(self.view_proj_matrix, viewport, rows.shadows))
        return self._still_boxes


def seen_flipped(camera: Camera) -> bool:
    """Whether the board is seen from the second player's side."""
    return abs(((camera.base_yaw + 180) % 360) - 180) > 90

"""The camera: presets, orbit and zoom limits, smooth transitions, and its matrices (numpy only).

A :class:`Camera` is a value: orbiting or zooming returns a new one. A :class:`CameraMove` blends
two cameras over time, so the view at any moment is a pure function of the time.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np

from .geometry import BOARD_THICKNESS, half_extent

VIEWS = ("angled", "top")
PRESET_PITCH = {"angled": 52.0, "top": 90.0}  # degrees above the board's plane
PITCH_LIMITS = (28.0, 90.0)
YAW_LIMIT = 60.0  # how far a drag may turn the board either way from the preset, degrees
ZOOM_LIMITS = (0.6, 1.6)  # multiples of the distance at which the whole board fits
FOV_Y = 30.0  # degrees; narrow, so the top-down view is close to square-on
DRAG_DEGREES_PER_PIXEL = 0.25
ZOOM_STEP = 0.9  # one wheel notch in multiplies the distance by this


@dataclass(frozen=True)
class Camera:
    """Where the camera is, as orbit parameters around the board's centre.

    ``yaw`` turns around the vertical axis (0: the first player's side is near, 180: the second
    player's), ``pitch`` is the elevation above the board in degrees (90 = straight down), and
    ``zoom`` multiplies the distance at which the board just fits the viewport.
    """

    yaw: float = 0.0
    pitch: float = PRESET_PITCH["angled"]
    zoom: float = 1.0
    base_yaw: float = 0.0  # the side's yaw that orbiting is limited around

    @classmethod
    def preset(cls, view: str = "angled", flipped: bool = False) -> "Camera":
        """The "angled" or "top" preset, from the second player's side when ``flipped``."""
        if view not in PRESET_PITCH:
            raise ValueError(f"unknown view {view!r}: choose one of {', '.join(VIEWS)}")
        yaw = 180.0 if flipped else 0.0
        return cls(yaw=yaw, pitch=PRESET_PITCH[view], zoom=1.0, base_yaw=yaw)

    def orbited(self, dx_pixels: float, dy_pixels: float) -> "Camera":
        """The camera after dragging the board by (dx, dy) pixels, kept within the orbit limits."""
        yaw = self.yaw - dx_pixels * DRAG_DEGREES_PER_PIXEL
        yaw = min(max(yaw, self.base_yaw - YAW_LIMIT), self.base_yaw + YAW_LIMIT)
        pitch = self.pitch + dy_pixels * DRAG_DEGREES_PER_PIXEL
        pitch = min(max(pitch, PITCH_LIMITS[0]), PITCH_LIMITS[1])
        return replace(self, yaw=yaw, pitch=pitch)

    def zoomed(self, wheel_steps: float) -> "Camera":
        """The camera after ``wheel_steps`` notches of the wheel (positive = closer), within limits."""
        zoom = self.zoom * ZOOM_STEP ** wheel_steps
        return replace(self, zoom=min(max(zoom, ZOOM_LIMITS[0]), ZOOM_LIMITS[1]))

    def at(self, t: float) -> "Camera":
        """A camera is the same at every time (so a Camera and a CameraMove can stand in for each other)."""
        return self

    # --- matrices -------------------------------------------------------------------------------

    def eye(self, board_size: int, aspect: float) -> np.ndarray:
        """The camera's position in world units."""
        d = fit(board_size, round(self.pitch, 2), round(aspect, 3))[0] * self.zoom
        return _orbit_eye(self.yaw, self.pitch, d)

    def view_matrix(self, board_size: int, aspect: float) -> np.ndarray:
        """World to camera (4x4, column vectors: ``clip = proj @ view @ p``)."""
        return _view(self.yaw, self.pitch, self.eye(board_size, aspect))

    def projection_matrix(self, board_size: int, aspect: float) -> np.ndarray:
        """Camera to clip space, with near and far planes around the board."""
        d = np.linalg.norm(self.eye(board_size, aspect))
        e = half_extent(board_size) * 1.5
        m = perspective(FOV_Y, aspect, max(0.1, d - e - 2.0), d + e + 2.0)
        # centre the fitted board: shift the picture in NDC (a lens shift, so nothing turns)
        m[1, :] += fit(board_size, round(self.pitch, 2), round(aspect, 3))[1] * m[3, :]
        return m

    def view_projection(self, board_size: int, aspect: float) -> np.ndarray:
        """``projection @ view`` as float64 4x4."""
        return self.projection_matrix(board_size, aspect) @ self.view_matrix(board_size, aspect)


@dataclass(frozen=True)
class CameraMove:
    """A smooth change from one camera to another, starting at ``start_time`` (seconds)."""

    start: Camera
    end: Camera
    start_time: float
    duration: float = 0.6

    def at(self, t: float) -> Camera:
        """The camera at time ``t``: ``start`` before the move, ``end`` after it, eased between."""
        if self.duration <= 0:
            return self.end
        u = min(max((t - self.start_time) / self.duration, 0.0), 1.0)
        s = u * u * (3 - 2 * u)  # smoothstep: no jolt at either end
        a, b = self.start, self.end

        def mix(x, y):
            return x + (y - x) * s

        return Camera(yaw=mix(a.yaw, b.yaw), pitch=mix(a.pitch, b.pitch), zoom=math.exp(mix(math.log(a.zoom), math.log(b.zoom))),
                      base_yaw=b.base_yaw)


def camera_at(camera: Camera | CameraMove, t: float) -> Camera:
    """Resolve a camera or a camera move at time ``t``."""
    return camera.at(t)


def perspective(fov_y_degrees: float, aspect: float, near: float, far: float) -> np.ndarray:
    """An OpenGL perspective projection (4x4)."""
    f = 1.0 / math.tan(math.radians(fov_y_degrees) / 2)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far + near) / (near - far)
    m[2, 3] = 2 * far * near / (near - far)
    m[3, 2] = -1.0
    return m


def _orbit_eye(yaw: float, pitch: float, distance: float) -> np.ndarray:
    y, p = math.radians(yaw), math.radians(pitch)
    # yaw 0 puts the eye on the +z side (the first player's), looking towards -z
    return np.array([distance * math.cos(p) * math.sin(y), distance * math.sin(p),
                     distance * math.cos(p) * math.cos(y)])


def _view(yaw: float, pitch: float, eye: np.ndarray) -> np.ndarray:
    forward = -eye / np.linalg.norm(eye)
    y = math.radians(yaw)
    # "Up" on screen is the direction away from the player across the board; using it instead of
    # world up keeps the matrix well defined when looking straight down.
    away = np.array([-math.sin(y), 0.0, -math.cos(y)])
    right = np.cross(forward, away if pitch > 89.0 else np.array([0.0, 1.0, 0.0]))
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    m = np.identity(4)
    m[0, :3], m[1, :3], m[2, :3] = right, up, -forward
    m[:3, 3] = -m[:3, :3] @ eye
    return m


@functools.lru_cache(maxsize=256)
def fit(board_size: int, pitch: float, aspect: float, margin: float = 0.92) -> tuple[float, float]:
    """(distance, vertical shift in NDC) at which the whole board (frame and thickness included),
    seen from the side with the given pitch, just fits in ``margin`` of the viewport and sits in
    its middle (perspective makes the near edge larger, so the picture is shifted to balance it).
    Independent of yaw within a side, so orbiting turns the board without zooming it."""
    e = half_extent(board_size)
    corners = np.array([[sx * e, y, sz * e, 1.0] for sx in (-1, 1) for sz in (-1, 1) for y in (0.0, -BOARD_THICKNESS)])
    lo, hi = 1.0, 200.0
    shift = 0.0
    for _ in range(40):
        d = (lo + hi) / 2
        eye = _orbit_eye(0.0, pitch, d)
        m = perspective(FOV_Y, aspect, 0.1, 1000.0) @ _view(0.0, pitch, eye)
        clip = corners @ m.T
        ndc = clip[:, :2] / clip[:, 3:4]
        y_lo, y_hi = ndc[:, 1].min(), ndc[:, 1].max()
        if np.all(clip[:, 3] > 0) and np.abs(ndc[:, 0]).max() <= margin and (y_hi - y_lo) / 2 <= margin:
            hi, shift = d, -(y_hi + y_lo) / 2
        else:
            lo = d
    return hi, float(shift)

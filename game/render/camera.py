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
        return np.array(_eye(self.yaw, self.pitch, self.zoom, board_size, round(aspect, 3)))

    def view_matrix(self, board_size: int, aspect: float) -> np.ndarray:
        """World to camera (4x4, column vectors: ``clip = proj @ view @ p``)."""
        return _matrices(self.yaw, self.pitch, self.zoom, board_size, round(aspect, 3))[0].copy()

    def projection_matrix(self, board_size: int, aspect: float) -> np.ndarray:
        """Camera to clip space, with near and far planes around the board."""
        return _matrices(self.yaw, self.pitch, self.zoom, board_size, round(aspect, 3))[1].copy()

    def view_projection(self, board_size: int, aspect: float) -> np.ndarray:
        """``projection @ view`` as float64 4x4."""
        return _matrices(self.yaw, self.pitch, self.zoom, board_size, round(aspect, 3))[2].copy()


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


def _orbit_eye(yaw: float, pitch: float, distance: float) -> tuple[float, float, float]:
    y, p = math.radians(yaw), math.radians(pitch)
    # yaw 0 puts the eye on the +z side (the first player's), looking towards -z
    return (distance * math.cos(p) * math.sin(y), distance * math.sin(p), distance * math.cos(p) * math.cos(y))


def _cross(a, b) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _basis(yaw: float, pitch: float):
    """The camera's right, up and forward unit vectors (plain floats: this runs in the camera's
    hot paths, where numpy's per-call cost on 3-vectors would dominate)."""
    y, p = math.radians(yaw), math.radians(pitch)
    forward = (-math.cos(p) * math.sin(y), -math.sin(p), -math.cos(p) * math.cos(y))
    # "Up" on screen is the direction away from the player across the board; using it instead of
    # world up keeps the matrix well defined when looking straight down.
    ref = (-math.sin(y), 0.0, -math.cos(y)) if pitch > 89.0 else (0.0, 1.0, 0.0)
    right = _cross(forward, ref)
    n = math.sqrt(right[0] ** 2 + right[1] ** 2 + right[2] ** 2)
    right = (right[0] / n, right[1] / n, right[2] / n)
    return right, _cross(right, forward), forward


def _view(yaw: float, pitch: float, eye) -> np.ndarray:
    right, up, forward = _basis(yaw, pitch)
    back = tuple(-f for f in forward)
    rows = [(*axis, -(axis[0] * eye[0] + axis[1] * eye[1] + axis[2] * eye[2])) for axis in (right, up, back)]
    return np.array([*rows, (0.0, 0.0, 0.0, 1.0)])


def _eye(yaw: float, pitch: float, zoom: float, board_size: int, aspect: float) -> tuple[float, float, float]:
    return _orbit_eye(yaw, pitch, fit(board_size, round(pitch, 2), aspect)[0] * zoom)


@functools.lru_cache(maxsize=64)
def _matrices(yaw: float, pitch: float, zoom: float, board_size: int, aspect: float):
    """(view, projection, projection @ view) of a camera; cached, as a frame asks for them many
    times (callers get copies)."""
    eye = _eye(yaw, pitch, zoom, board_size, aspect)
    view = _view(yaw, pitch, eye)
    d = math.sqrt(eye[0] ** 2 + eye[1] ** 2 + eye[2] ** 2)
    e = half_extent(board_size) * 1.5
    proj = perspective(FOV_Y, aspect, max(0.1, d - e - 2.0), d + e + 2.0)
    # centre the fitted board: shift the picture in NDC (a lens shift, so nothing turns)
    proj[1, :] += fit(board_size, round(pitch, 2), aspect)[1] * proj[3, :]
    return view, proj, proj @ view


@functools.lru_cache(maxsize=256)
def fit(board_size: int, pitch: float, aspect: float, margin: float = 0.92) -> tuple[float, float]:
    """(distance, vertical shift in NDC) at which the whole board (frame and thickness included),
    seen from the side with the given pitch, just fits in ``margin`` of the viewport and sits in
    its middle (perspective makes the near edge larger, so the picture is shifted to balance it).
    Independent of yaw within a side, so orbiting turns the board without zooming it.

    A bisection on the distance, in plain floats: the camera looks at the board's centre, so a
    corner's picture is (right . v, up . v) / (forward . v) scaled by the lens, v = corner - eye."""
    e = half_extent(board_size)
    corners = [(sx * e, y, sz * e) for sx in (-1, 1) for sz in (-1, 1) for y in (0.0, -BOARD_THICKNESS)]
    right, up, forward = _basis(0.0, pitch)
    f = 1.0 / math.tan(math.radians(FOV_Y) / 2)
    lo, hi = 1.0, 200.0
    shift = 0.0
    for _ in range(40):
        d = (lo + hi) / 2
        eye = _orbit_eye(0.0, pitch, d)
        xs, ys, fits = [], [], True
        for c in corners:
            v = (c[0] - eye[0], c[1] - eye[1], c[2] - eye[2])
            w = forward[0] * v[0] + forward[1] * v[1] + forward[2] * v[2]
            if w <= 0:
                fits = False
                break
            xs.append(f / aspect * (right[0] * v[0] + right[1] * v[1] + right[2] * v[2]) / w)
            ys.append(f * (up[0] * v[0] + up[1] * v[1] + up[2] * v[2]) / w)
        if fits and max(abs(x) for x in xs) <= margin and (max(ys) - min(ys)) / 2 <= margin:
            hi, shift = d, -(max(ys) + min(ys)) / 2
        else:
            lo = d
    return hi, float(shift)

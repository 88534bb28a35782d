"""The 3D board: a moderngl renderer with two camera presets, picking and move animation.

The game builds a :class:`RenderState` each frame and calls :meth:`BoardRenderer.draw` with it and
the time; :func:`pick_square` / :meth:`BoardRenderer.pick` turn a mouse position into a square;
:class:`MoveAnimation` describes a move being shown; :class:`Overlay` composites a pygame surface,
:class:`PixelCopy` copies a picture into a window.
Only scene.py, pictures.py, board_textures.py, overlay.py and offscreen.py need GL; the rest is
plain math for tests and the controller.
"""

from .camera import Camera, CameraMove, camera_at
from .picking import Viewport, pick_square, piece_heights, project, screen_ray

__all__ = [
    "MoveAnimation", "PiecePose", "piece_pose", "captured_poses", "crown_pose", "is_crown_landed",
    "Camera", "CameraMove", "camera_at",
    "Viewport", "pick_square", "piece_heights", "project", "screen_ray",
    "RenderState", "must_capture_squares", "selection_markers",
    "BoardRenderer", "Overlay", "PixelCopy",
]


_LAZY = {name: "animation" for name in ("MoveAnimation", "PiecePose", "piece_pose", "captured_poses", "crown_pose",
                                        "is_crown_landed")}
_LAZY.update({name: "state" for name in ("RenderState", "must_capture_squares", "selection_markers")})


def __getattr__(name):
    # Names that need engine positions (numba, a second or more to import) load on first use, so the
    # game can open its window and camera before; GL classes too, so importing game.render for its
    # math needs no moderngl context.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name == "BoardRenderer":
        from .scene import BoardRenderer
        return BoardRenderer
    if name in ("Overlay", "PixelCopy"):
        from . import overlay
        return getattr(overlay, name)
    raise AttributeError(name)

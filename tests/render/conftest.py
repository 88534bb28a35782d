"""Fixtures of the renderer tests: a standalone EGL context (no window) and small renderers."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(scope="session")
def gl():
    """A moderngl context on EGL; the GL tests are skipped, saying why, where EGL is unavailable."""
    moderngl = pytest.importorskip("moderngl")
    try:
        ctx = moderngl.create_standalone_context(backend="egl")
    except Exception as err:  # no libEGL, no device: nothing to render with
        pytest.skip(f"no EGL context available: {err}")
    yield ctx
    ctx.release()


@pytest.fixture(scope="session")
def renderer(gl):
    """A renderer without multisampling (faster; the cached-picture path is the same) and a small
    board texture. Every test turns the camera, so full resolution while it moves (the reduced
    picture has tests of its own)."""
    from game.render.scene import BoardRenderer

    r = BoardRenderer(gl, samples=0, texture_pixels=512, motion_scale=1.0)
    yield r
    r.release()


@pytest.fixture(scope="session", params=["msaa", "fxaa"])
def smooth_renderer(gl, request):
    """A renderer anti-aliasing by multisampling (forced even on a software renderer) or by FXAA."""
    from game.render.scene import BoardRenderer

    r = BoardRenderer(gl, samples=4, texture_pixels=512, software=request.param == "fxaa", motion_scale=1.0)
    assert (r.samples == 4) == (request.param == "msaa") and r.fxaa == (request.param == "fxaa")
    yield r
    r.release()

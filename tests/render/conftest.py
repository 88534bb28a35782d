"""Fixtures of the renderer tests: a standalone EGL context (no window) and small renderers.

The context is current only while something renders: inside a test that uses it (``_gl_current``)
and inside the fixtures that make or free GL objects (``with gl:``). An EGL context left current
would keep a window opened later in this process (the e2e tests) from making its own GLX context
current: libglvnd answers with BadAccess and Xlib's default handler ends the process.
"""

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
    ctx.__exit__(None, None, None)  # created current: unbound (moderngl's `with` exit) until a `with gl:`
    yield ctx
    ctx.release()


@pytest.fixture(autouse=True)
def _gl_current(request):
    """Makes the context current for the test when it uses it, and unbinds it afterwards. Whatever
    the test leaves must not disturb the next one: the default framebuffer is bound again (moderngl
    rebinds the bound framebuffer after making one, and a test may have released its own), and a GL
    error left unread fails this test (read later, it would fail whichever test checks next)."""
    if "gl" not in request.fixturenames:
        yield
        return
    with request.getfixturevalue("gl") as ctx:
        yield
        ctx.detect_framebuffer(0).use()
        assert ctx.error == "GL_NO_ERROR", "the test left a GL error"


@pytest.fixture(scope="session")
def renderer(gl):
    """A renderer without multisampling (faster; the cached-picture path is the same) and a small
    board texture. Every test turns the camera, so full resolution while it moves (the reduced
    picture has tests of its own)."""
    from game.render.scene import BoardRenderer

    with gl:
        r = BoardRenderer(gl, samples=0, texture_pixels=512, motion_scale=1.0)
    yield r
    with gl:
        r.release()


@pytest.fixture(scope="session", params=["msaa", "fxaa"])
def smooth_renderer(gl, request):
    """A renderer anti-aliasing by multisampling (forced even on a software renderer) or by FXAA."""
    from game.render.scene import BoardRenderer

    with gl:
        r = BoardRenderer(gl, samples=4, texture_pixels=512, software=request.param == "fxaa", motion_scale=1.0)
    assert (r.samples == 4) == (request.param == "msaa") and r.fxaa == (request.param == "fxaa")
    yield r
    with gl:
        r.release()

"""Calls to the system OpenGL library that moderngl does not make: pictures stored blue first, as a
software renderer's windows are (Mesa's llvmpipe copies and enlarges those on its linear path). No
engine import: the window's compositor uses it before the engine has loaded."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys

import moderngl

_GL_TEXTURE_2D, _GL_RGBA, _GL_BGRA, _GL_UNSIGNED_BYTE = 0x0DE1, 0x1908, 0x80E1, 0x1401
_GL_UNPACK_ALIGNMENT = 0x0CF5


@functools.cache
def _gl_function(name: str, *argtypes):
    """The system OpenGL library's function ``name`` (of OpenGL 1.1, which every library exports)
    taking ``argtypes`` (ctypes), or None."""
    try:
        if sys.platform == "win32":
            library = ctypes.WinDLL("opengl32")  # type: ignore[attr-defined]
        else:
            library = ctypes.CDLL(ctypes.util.find_library("GL") or "libGL.so.1")
        function = getattr(library, name)
    except (OSError, AttributeError):
        return None
    function.argtypes = list(argtypes)
    function.restype = None
    return function


_uint, _int, _pointer = ctypes.c_uint, ctypes.c_int, ctypes.c_void_p


def picture_texture(ctx, size: tuple[int, int], bgra: bool) -> moderngl.Texture:
    """A texture of ``size`` with 8-bit red, green, blue and alpha, for a picture drawn into it and
    copied into a target. ``bgra`` (a software renderer) stores it in the order blue, green, red,
    alpha, as Mesa's windows are: llvmpipe then copies or enlarges it into a window without a depth
    buffer on its linear path (rows of texels with SSE) instead of shading each pixel, the reduced
    picture's enlargement into a 1280x800 window's view 2.5-2.7 ms instead of 4.8-5.0 (median, paced
    at 60 frames a second). Read and written as RGBA all the same: GL converts."""
    texture = ctx.texture(size, 4)
    function = _gl_function("glTexImage2D", _uint, _int, _int, _int, _int, _int, _uint, _uint, _pointer) if bgra else None
    if function is not None:
        texture.use(0)  # the same size and channels, stored in the other order (an unsized format
        # lets Mesa choose the one that matches the pixels given: BGRA)
        function(_GL_TEXTURE_2D, 0, _GL_RGBA, size[0], size[1], 0, _GL_BGRA, _GL_UNSIGNED_BYTE, None)
    return texture


@functools.cache
def blue_first_writer():
    """A function ``write(texture, pixels, viewport)`` that writes ``pixels``, each four bytes blue,
    green, red, alpha (rows bottom first), into ``viewport`` (x, y, width, height) of ``texture``; None
    where the GL library lacks glTexSubImage2D. Into a picture stored blue first
    (:func:`picture_texture`) the pixels are copied as they are, where moderngl's ``write`` (red first)
    would need a swizzle to read them, which keeps llvmpipe's copies of the picture off its linear path."""
    sub_image = _gl_function("glTexSubImage2D", _uint, _int, _int, _int, _int, _int, _uint, _uint, ctypes.c_char_p)
    alignment = _gl_function("glPixelStorei", _uint, _int)
    if sub_image is None or alignment is None:
        return None

    def write(texture: moderngl.Texture, pixels: bytes, viewport: tuple[int, int, int, int]) -> None:
        texture.use(0)
        alignment(_GL_UNPACK_ALIGNMENT, 1)  # rows packed (moderngl's own writes set it again)
        sub_image(_GL_TEXTURE_2D, 0, *viewport, _GL_BGRA, _GL_UNSIGNED_BYTE, pixels)

    return write


def is_software_renderer(ctx) -> bool:
    """Whether the context renders on the CPU (Mesa llvmpipe/softpipe, SwiftShader, ...)."""
    name = ctx.info.get("GL_RENDERER", "").lower()
    return any(word in name for word in ("llvmpipe", "softpipe", "swiftshader", "software", "swrast"))

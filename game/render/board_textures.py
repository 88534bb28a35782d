"""The board's textures (moderngl): a board image (``textures``, numpy) lit once by board_bake.glsl
and given mipmaps, one for each rule set, square numbers on or off and which way they face."""

from __future__ import annotations

import moderngl
import numpy as np

from engine import Variant

from .geometry import LIGHT_DIR
from .materials import load_program, set_uniform
from .textures import board_image, board_image_future, default_pixels, forget_image


class BoardTextures:
    """The lit board textures, by key (see :meth:`usable`).

    With ``background`` (a window) an image is made on a background thread (about a second of
    numpy): meanwhile :meth:`usable` offers the board's other texture of the same rules if there is
    one (numbers not yet written, say), else None, and :attr:`pending` is set. Without it (the
    offscreen tools, tests) the first frame makes it and waits. ``pixels``: the images' size
    (default: the variant's own, see ``textures.default_pixels``).
    """

    def __init__(self, ctx: moderngl.Context, software: bool, background: bool, pixels: int | None = None):
        self.ctx = ctx
        self.software = software
        self.background = background
        self.texture_pixels = pixels
        self.program = load_program(ctx, "board_bake")
        self.vao = ctx.vertex_array(self.program, [])
        self.pending = False  # the last frame waited for a board image
        self.textures: dict[tuple, moderngl.Texture] = {}
        self._baking: dict[tuple, moderngl.Texture] = {}  # lit, without mipmaps yet (see usable)

    def __getitem__(self, key: tuple) -> moderngl.Texture:
        return self.textures[key]

    def _pixels(self, variant: Variant) -> int:
        return self.texture_pixels or default_pixels(variant)

    @staticmethod
    def _texture_key(variant: Variant, numbers: bool, flipped: bool) -> tuple:
        return (variant.name, numbers, flipped and numbers)

    def usable(self, variant: Variant, numbers: bool, flipped: bool) -> tuple | None:
        """The key of the board texture a frame should use now: the one asked for, or while that is
        being made another of the same rules; None when there is none (:attr:`pending` says whether
        it waits).
        In the background a finished image is lit on one frame and gets its mipmaps on the next
        (each a few hundred ms for a software renderer)."""
        key = self._texture_key(variant, numbers, flipped)
        self.pending = False
        if key in self.textures:
            return key
        if not self.background:
            self.make(variant, numbers, flipped)
            return key
        pixels = self._pixels(variant)
        if key in self._baking:  # usable from the next frame on: this one has had its share
            self.textures[key] = self._finish_texture(self._baking.pop(key))
        else:
            future = board_image_future(variant, pixels, numbers, flipped)
            if future.done():
                self._baking[key] = self._bake_lighting(future.result())
                self.ctx.finish()  # a software renderer draws lazily: the lighting's cost stays in this frame
                forget_image(variant, pixels, numbers, flipped)
        self.pending = True
        return next((k for k in self.textures if k[0] == variant.name and k != key), None)

    def make(self, variant: Variant, numbers: bool, flipped: bool) -> moderngl.Texture:
        """The texture, made now if it isn't there (a second or so of numpy)."""
        key = self._texture_key(variant, numbers, flipped)
        if key not in self.textures:
            image = board_image(variant, self._pixels(variant), numbers=numbers, flipped=flipped)
            self.textures[key] = self._finish_texture(self._bake_lighting(image))
        return self.textures[key]

    def _finish_texture(self, tex: moderngl.Texture) -> moderngl.Texture:
        tex.build_mipmaps()
        # a software renderer pays for every texel read: bilinear from one mip level reads
        # half of trilinear's, and the difference does not show on wood grain
        tex.filter = (moderngl.LINEAR_MIPMAP_NEAREST if self.software else moderngl.LINEAR_MIPMAP_LINEAR,
                      moderngl.LINEAR)
        tex.anisotropy = 1.0 if self.software else 8.0  # anisotropic filtering is slow in software
        tex.repeat_x = tex.repeat_y = False
        return tex

    def _bake_lighting(self, image: np.ndarray) -> moderngl.Texture:
        """The board image lit (board_bake.glsl), as a new texture. Draws through a framebuffer of
        its own and binds back the one bound before, so the framebuffer can go at once: moderngl
        rebinds the bound framebuffer after creating one (a released one would be an error), and a
        software renderer's framebuffer keeps the texture's first storage alive, a stale copy of
        the image (5-8 MB) once the mipmaps give the texture new storage."""
        ctx = self.ctx
        h, w = image.shape[:2]
        raw = ctx.texture((w, h), 4, image)  # read through the buffer protocol: no copy
        tex = ctx.texture((w, h), 4)
        bound = ctx.fbo if ctx.fbo is not None else ctx.detect_framebuffer()  # (a standalone context's first)
        fbo = ctx.framebuffer([tex])
        try:
            fbo.use()
            ctx.viewport, ctx.scissor = (0, 0, w, h), None
            ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
            prog = self.program
            set_uniform(prog, "u_light_dir", tuple(LIGHT_DIR))
            raw.use(0)
            prog["u_image"].value = 0
            self.vao.render(moderngl.TRIANGLES, vertices=3)
        finally:
            bound.use()
            fbo.release()
            raw.release()
        return tex

    def keep_only(self, variant: Variant) -> None:
        """Free the textures of the other rule sets (a game of ``variant`` has begun): 7-11 MB each,
        which a software renderer holds in the process's own memory."""
        for key in [k for k in (*self.textures, *self._baking) if k[0] != variant.name]:
            (self.textures.pop(key, None) or self._baking.pop(key)).release()

    def has(self, variant: Variant) -> bool:
        """Whether a texture of ``variant``'s board is made (or being finished)."""
        return any(k[0] == variant.name for k in (*self.textures, *self._baking))

    def release(self) -> None:
        for tex in (*self.textures.values(), *self._baking.values()):
            tex.release()
        self.vao.release()
        self.program.release()

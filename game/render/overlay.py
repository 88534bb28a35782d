"""Compositing a pygame Surface (the side panel, buttons, messages) over the GL frame."""

from __future__ import annotations

import moderngl

from .materials import load_program
from .picking import Viewport


class Overlay:
    """Draws a pygame Surface as a texture at a rectangle of the window, alpha blended.

    Keep one Overlay per surface; :meth:`draw` re-uploads the pixels only when ``changed`` is true
    (the default), so a panel that did not change can pass ``changed=False``.
    """

    def __init__(self, ctx: moderngl.Context):
        self.ctx = ctx
        self.program = load_program(ctx, "overlay")
        self.vao = ctx.vertex_array(self.program, [])
        self.texture: moderngl.Texture | None = None

    def draw(self, surface, rect: tuple[int, int, int, int], frame_size: tuple[int, int],
             changed: bool = True, target: moderngl.Framebuffer | None = None) -> None:
        """Draw ``surface`` scaled to ``rect`` = (x, y, width, height) in window pixels (origin top
        left) of a window (framebuffer) of ``frame_size`` = (width, height)."""
        import pygame

        size = surface.get_size()
        if self.texture is None or self.texture.size != size:
            if self.texture is not None:
                self.texture.release()
            self.texture = self.ctx.texture(size, 4)
            self.texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
            changed = True
        if changed:
            self.texture.write(pygame.image.tobytes(surface, "RGBA"))
        fw, fh = frame_size
        x, y, w, h = rect
        ctx = self.ctx
        (target or ctx.screen).use()
        ctx.viewport = Viewport(0, 0, fw, fh).gl()
        self.program["u_rect"].value = (2 * x / fw - 1, 1 - 2 * (y + h) / fh, 2 * w / fw, 2 * h / fh)
        self.program["u_surface"].value = 0
        self.texture.use(0)
        ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self.vao.render(moderngl.TRIANGLE_STRIP, vertices=4)
        ctx.disable(moderngl.BLEND)

    def release(self) -> None:
        if self.texture is not None:
            self.texture.release()
        self.vao.release()
        self.program.release()


class PixelCopy:
    """Copies a picture laid out like the target (texel = target pixel) into it, inside rectangles.

    A drawn pass (present.glsl's COLOUR_ONLY), not a blit: Mesa's software renderer copies memory
    for a blit only of a whole framebuffer into one of its format; a scissored blit, and any blit
    into the window (whose format differs), it draws as a generic textured pass, about twice this
    one's cost for the 3D view of a 1280x800 window (2.3 against 1.6 ms) and four times between
    textures (3.4 against 0.9 ms). The pass reads the picture through a nearest-filtering sampler
    of its own, whatever filter the picture's texture has, so each pixel is its texel unchanged.
    :meth:`copy_scaled` is the same pass enlarging a smaller picture into a viewport.
    """

    def __init__(self, ctx: moderngl.Context):
        self.ctx = ctx
        self.program = load_program(ctx, "present", ("COLOUR_ONLY",))
        self.program["u_image"].value = 0
        self.vao = ctx.vertex_array(self.program, [])
        self.sampler = ctx.sampler(filter=(moderngl.NEAREST, moderngl.NEAREST), repeat_x=False, repeat_y=False)

    def copy(self, target: moderngl.Framebuffer, picture: moderngl.Texture, rects) -> None:
        """Copy ``picture`` into ``target`` inside each of ``rects`` (x, y, width, height in GL pixels);
        leaves ``target`` bound with its viewport as it was, the scissor, blending and depth testing off."""
        scale = (target.size[0] / picture.size[0], target.size[1] / picture.size[1])
        self._pass(target, picture, (0, 0, *target.size), scale, rects, self.sampler)

    def copy_scaled(self, target: moderngl.Framebuffer, picture: moderngl.Texture, viewport: tuple, rects) -> None:
        """Copy all of ``picture`` scaled to fill the GL ``viewport`` (x, y, width, height) of ``target``
        through the picture's own filter (linear: a smooth enlargement), inside each of ``rects``; leaves
        the state as :meth:`copy` does."""
        self._pass(target, picture, viewport, (1.0, 1.0), rects, None)

    def _pass(self, target, picture, viewport: tuple, scale: tuple, rects, sampler) -> None:
        ctx = self.ctx
        target.use()
        kept = ctx.viewport  # (moderngl keeps a viewport per framebuffer, which use() sets)
        ctx.viewport = viewport  # a fragment's place in it is its texel's, scaled by ``scale``
        ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
        self.program["u_scale"].value = scale
        picture.use(0)
        if sampler is not None:
            sampler.use(0)
        for rect in rects:
            ctx.scissor = rect
            self.vao.render(moderngl.TRIANGLES, vertices=6)  # the viewport's rectangle (present.glsl)
        if sampler is not None:
            sampler.clear(0)  # unit 0 reads with its textures' own filters again
        ctx.scissor = None
        ctx.viewport = kept

    def release(self) -> None:
        self.sampler.release()
        self.vao.release()
        self.program.release()

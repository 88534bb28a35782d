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

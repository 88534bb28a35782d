"""Putting a frame on the window: the 3D board and the interface's changed parts, nothing more."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

BACKGROUND = (0.12, 0.12, 0.13)  # the window's background (linear RGB), around and behind the board
BLUE_FIRST = (16, 8, 0, 24)  # the channel shifts of pixels stored blue, green, red, alpha (pygame's usual)


class Compositor:
    """Puts a frame on the window, drawing only what changed since the last one.

    The interface surface is copied into a window-sized texture, a rectangle at a time where its
    pixels changed; its opaque parts (the panel and the bars around the board) are put on screen
    with a pixel-for-pixel copy (``PixelCopy``), much cheaper for a software renderer than a blended
    textured quad.
    Whatever the interface draws over the 3D view itself (the result card, a long status) is
    blended over the board, so it is redrawn whenever the board is.

    A frame where neither the board (its state, the camera, an animation, the renderer's own work
    in progress) nor the interface changed draws nothing and is not flipped. While a page fills the
    window (the help screen) the board is not drawn at all. When the driver keeps
    the back buffer's pixels across a flip (Mesa's software renderers do; checked at start), a frame
    redraws only the parts that changed; otherwise every drawn frame redraws everything.
    """

    def __init__(self, ctx, size: tuple[int, int]):
        from game.render import Overlay, PixelCopy
        from game.render.gl import blue_first_writer, is_software_renderer

        self.ctx = ctx
        self.software = is_software_renderer(ctx)
        self._write_blue_first = blue_first_writer()
        self.view_overlay = Overlay(ctx)
        self.pixel_copy = PixelCopy(ctx)
        self.keeps_back_buffer = self._keeps_back_buffer()
        self._layer: Any = None
        self._board_key: tuple | None = None
        self._full_page = False
        self.resize(size)

    def _keeps_back_buffer(self) -> bool:
        """Whether the back buffer still holds the last frame after a flip: two flips of two
        shades, then read back (a driver that swaps between two buffers would show the first)."""
        import pygame

        screen = self.ctx.screen
        screen.use()
        self.ctx.viewport, self.ctx.scissor = (0, 0, 1, 1), None
        for colour in (tuple(v + 0.05 for v in BACKGROUND), BACKGROUND):  # close: no visible flash
            self.ctx.clear(*colour)
            pygame.display.flip()
        pixel = screen.read(viewport=(0, 0, 1, 1), components=3)
        return abs(pixel[0] - round(BACKGROUND[0] * 255)) <= 2

    def resize(self, size: tuple[int, int]) -> None:
        from game.render.gl import picture_texture

        old = self._layer
        self.size = size
        # stored blue first on a software renderer, as the interface's pixels usually are (BLUE_FIRST):
        # written as they are and copied without a swizzle, on llvmpipe's linear path
        self._layer = picture_texture(self.ctx, size, self.software)
        self._layer_format: tuple | None = None  # the interface surface's channel shifts (how the layer reads them)
        self._blue_first = False  # the layer's writes take the surface's bytes as blue, green, red, alpha
        if old is not None:
            old.release()
        self.invalidate()

    def invalidate(self) -> None:
        """Redraw everything at the next frame (a resize, the window uncovered)."""
        # a hash of each rectangle's pixels as last uploaded (the pixels themselves would keep a copy
        # of the panel and the bars, 1.6 MB for a 1280x800 window; two 64-bit hashes agree by chance once in 2^64)
        self._uploaded: dict[tuple, int] = {}
        self._full = True
        self._board_key = None
        self._over_view = False

    def _pixels(self, surface, rects) -> list[bytes]:
        """The pixels of each of ``rects`` of the interface ``surface`` as the layer takes them: rows
        bottom first (GL's order), each pixel's bytes as the surface holds them, which the layer reads
        as blue-first pixels (BLUE_FIRST) or through a swizzle. Rows of a view of the surface, copied
        whole: an eighth of the time of pygame's tobytes, which converts pixel by pixel (a 400x800
        panel: 0.1 against 0.7 ms)."""
        if self._layer_format != surface.get_shifts():
            self._layer_format = surface.get_shifts()
            self._blue_first = self._layer_format == BLUE_FIRST and self._write_blue_first is not None
            # otherwise a channel's byte in a pixel (little-endian) is where the layer finds it
            self._layer.swizzle = "RGBA" if self._blue_first else "".join(
                "RGBA"[shift // 8] for shift in self._layer_format)
        view = surface.get_view("1")  # locks the surface until released, as the array below is
        rows = np.frombuffer(view, np.uint8).reshape(surface.get_height(), surface.get_pitch())
        return [rows[r.top:r.bottom, 4 * r.x:4 * r.right][::-1].tobytes() for r in rects]

    def draw(self, ui, renderer, state, view, now: float, ui_changed: bool) -> bool:
        """Draw what changed in this frame into the back buffer; False when nothing did. ``ui`` is the
        interface (``game.ui.Interface``), ``renderer`` the board renderer (None until it exists),
        ``state`` the board's RenderState (None meanwhile) and ``view`` its Viewport."""
        from game.render import camera_at

        if ui.full_page != self._full_page:  # a page opened or closed: everything is new
            self._full_page = ui.full_page
            self.invalidate()
        full = self._full or not self.keeps_back_buffer
        # the opaque parts: panel and bars, or the parts of the page over the whole window
        regions = ui.help.regions() if ui.full_page else ui.layout.regions(False)
        fresh = []  # rectangles of the interface whose pixels changed
        if ui_changed or full:
            changed = regions if full else [r for r in regions if r.collidelist(ui.redrawn) >= 0]
            for rect, pixels in zip(changed, self._pixels(ui.surface, changed), strict=True):
                key = tuple(rect)
                digest = hash(pixels)
                if self._uploaded.get(key) != digest:
                    self._uploaded[key] = digest
                    place = (rect.x, self.size[1] - rect.bottom, rect.width, rect.height)
                    if self._blue_first:
                        self._write_blue_first(self._layer, pixels, place)
                    else:
                        self._layer.write(pixels, viewport=place)
                    fresh.append(rect)
        over_view = ui.over_view
        board_key = None
        if state is not None:
            board_key = (replace(state, camera=camera_at(state.camera, now)), tuple(ui.layout.view))
        board = not ui.full_page and (
            full or board_key != self._board_key or (state is not None and state.animation is not None)
            or (renderer is not None and not renderer.is_settled)
            or over_view != self._over_view or (over_view and ui.layout.view.collidelist(ui.redrawn) >= 0))
        if full:
            fresh = regions
        if not board and not fresh:
            return False
        ctx = self.ctx
        ctx.screen.use()
        if board:
            if state is None:  # no renderer yet: the background where the board will be
                ctx.viewport = ctx.scissor = view.gl()
                ctx.clear(*BACKGROUND)
                ctx.scissor = None
            else:
                # the back buffer holds the board as the renderer left it unless everything is drawn
                # anew or something was blended over the board (then, or now)
                kept = not full and not over_view and not self._over_view
                renderer.draw(state, now, view, kept=kept)
            if over_view:
                rect = ui.layout.view
                self.view_overlay.draw(ui.surface.subsurface(rect), tuple(rect), self.size)
        if fresh:
            self.pixel_copy.copy(ctx.screen, self._layer,
                                 [(rect.x, self.size[1] - rect.bottom, rect.width, rect.height) for rect in fresh])
        self._full, self._board_key, self._over_view = False, board_key, over_view
        return True

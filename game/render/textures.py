"""The board's top as one image, made once on the CPU: wooden squares, a mitred wooden frame with
an inlaid border, file letters and rank numbers, and optionally the PDN numbers on dark squares.

The image is laid out as the first player sees the board from above: row 0 is the far edge.
The alpha channel holds the lacquer's gloss (lower in the grain's pores), read by the shader.

Making one takes about a second of numpy: a window asks for it with :func:`board_image_future`,
which makes it on a background thread while the window keeps drawing. Text is rendered on the
asking thread (pygame's fonts are not thread-safe) and handed over as coverage arrays.
"""

from __future__ import annotations

import os
import queue
import threading
from concurrent.futures import Future

import numpy as np

from engine import Variant, coords_square

from .geometry import FRAME_WIDTH, half_extent

FILES = "abcdefghij"

# Colours in linear-ish 0..1 RGB before the shader's lighting.
MAPLE = np.float32([0.86, 0.68, 0.45])
MAPLE_GRAIN = np.float32([0.70, 0.50, 0.30])
WALNUT = np.float32([0.36, 0.20, 0.10])
WALNUT_GRAIN = np.float32([0.22, 0.11, 0.05])
FRAME = np.float32([0.30, 0.14, 0.07])  # mahogany
FRAME_GRAIN = np.float32([0.18, 0.08, 0.04])
INLAY = np.float32([0.90, 0.76, 0.50])
LETTERS = np.float32([0.95, 0.86, 0.64])


def _value_noise(rng: np.random.Generator, h: int, w: int, cells_y: int, cells_x: int) -> np.ndarray:
    """Smooth noise in [0, 1] (float32, h x w): a random (cells_y x cells_x) grid, smoothly scaled up.

    pygame's smoothscale does the interpolation in C, which is many times faster than numpy here.
    """
    import pygame.surfarray
    import pygame.transform

    grid = (rng.random((cells_x + 1, cells_y + 1, 3)) * 255).astype(np.uint8)
    big = pygame.transform.smoothscale(pygame.surfarray.make_surface(grid), (w, h))
    return pygame.surfarray.array_red(big).T.astype(np.float32) * np.float32(1 / 255)


def _wood(rng: np.random.Generator, h: int, w: int, units: float, offset: np.ndarray | float = 0.0):
    """Grain running along x: (figure in [0, 1], pores in [0, 1]) for an h x w image ``units`` wide.

    ``offset`` (scalar or per-pixel) shifts the growth rings so neighbouring pieces of veneer differ.
    Worked in place (the same numbers as the plain formulas in the comments): the temporaries of
    a full-size image add up to hundreds of MB otherwise.
    """
    n = max(2, int(units))
    # rings = (y * 7 + warp + offset) % 1, warp = 2.2 noise + 0.5 finer noise
    rings = _value_noise(rng, h, w, 3 * n, n)
    rings *= 2.2
    finer = _value_noise(rng, h, w, 10 * n, 2 * n)
    finer *= 0.5
    rings += finer
    del finer
    rings += np.linspace(0, units, h, dtype=np.float32)[:, None] * 7.0
    rings += offset
    rings %= 1.0
    # figure = clip(1 - |rings - 0.5| * 2.6, 0, 1) ** 2: soft late-wood bands
    figure = rings
    figure -= 0.5
    np.abs(figure, out=figure)
    figure *= 2.6
    np.subtract(1, figure, out=figure)
    np.clip(figure, 0, 1, out=figure)
    np.square(figure, out=figure)
    pores = _value_noise(rng, h, w, 60 * n, max(2, n // 2)) ** 3  # long thin streaks along the grain
    return figure, pores


def default_pixels(variant: Variant) -> int:
    """The board image's size: about 110 texels per square."""
    return 1152 if variant.size <= 8 else 1408


def board_image(variant: Variant, pixels: int = 2048, numbers: bool = False, flipped: bool = False,
                seed: int = 7, glyphs: dict | None = None) -> np.ndarray:
    """The top of the board as a (pixels, pixels, 4) uint8 RGBA array; read-only without numbers (it
    is the kept image itself, see :func:`_board_base`).

    ``numbers`` writes the PDN square numbers on the dark squares, upright for the player on the
    near side (the second player's when ``flipped``). Letters and numbers on the frame are written
    on all four sides, each readable from its own side, so they read well from either chair.
    ``glyphs`` holds the text already rendered (:func:`_glyphs`); without it text is rendered here.
    """
    glyphs = _glyphs(variant, pixels, numbers) if glyphs is None else glyphs
    rgba = _board_base(variant, pixels, seed, glyphs)
    if numbers:
        rgba = rgba.copy()
        e = half_extent(variant.size)
        _write_square_numbers(rgba[..., :3], variant, pixels / (2 * e), e, flipped, glyphs)
    return rgba


class _ImageMaker:
    """One daemon thread making board images in the order asked. A daemon: a window closed while an
    image is being made ends at once (a worker of concurrent.futures' pools is waited for at exit,
    the image in hand and every one still asked for)."""

    def __init__(self):
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._run, name="board-image", daemon=True).start()

    def submit(self, function, *args) -> Future:
        future: Future = Future()
        self._queue.put((future, function, args))
        return future

    def _run(self) -> None:
        while True:
            future, function, args = self._queue.get()
            if not future.set_running_or_notify_cancel():  # cancelled while waiting
                continue
            try:
                future.set_result(function(*args))
            except BaseException as exc:  # the asker sees it (future.result())
                future.set_exception(exc)


_maker: _ImageMaker | None = None
_futures: dict[tuple, Future] = {}
_futures_lock = threading.RLock()  # reentrant: a future finished already runs its callback (_made) at once


def board_image_future(variant: Variant, pixels: int, numbers: bool = False, flipped: bool = False,
                       seed: int = 7) -> Future:
    """:func:`board_image` made on a background thread (one at a time, in the order asked). Asking
    again for the same image returns the same future; :func:`forget_image` drops it once used."""
    global _maker
    key = _image_key(variant, pixels, numbers, flipped, seed)
    with _futures_lock:
        future = _futures.get(key)
        if future is None:
            if _maker is None:
                _maker = _ImageMaker()
            glyphs = _glyphs(variant, pixels, numbers)
            future = _futures[key] = _maker.submit(board_image, variant, pixels, numbers, flipped, seed, glyphs)
            future.add_done_callback(lambda done: _made(key, done))
        return future


def _made(key: tuple, future: Future) -> None:
    """An image is finished: if it was forgotten while being made, its board's kept image goes too."""
    with _futures_lock:
        if _futures.get(key) is not future:
            _forget_base(key)


def _forget_base(key: tuple) -> None:
    """Drop the kept image of the board of image ``key`` unless another image of it is asked for
    (``_futures_lock`` held)."""
    name, pixels, _, _, seed = key
    if not any(k[0] == name and k[1] == pixels and k[4] == seed for k in _futures):
        _bases.pop((name, pixels, seed), None)


def forget_image(variant: Variant, pixels: int, numbers: bool = False, flipped: bool = False, seed: int = 7) -> None:
    """Drop a finished :func:`board_image_future` (its texture holds the picture now), and the board's
    kept image (:func:`_board_base`) unless another image of that board is still asked for: turning
    the square numbers on or off later makes it again, a fraction of a second on the background
    thread while the board shows the picture it has."""
    key = _image_key(variant, pixels, numbers, flipped, seed)
    with _futures_lock:
        _futures.pop(key, None)
        _forget_base(key)


def forget_images_except(variant: Variant) -> None:
    """Drop every board image, asked for or kept, of the other rule sets (a game of ``variant`` has
    begun); one being made is dropped once finished."""
    with _futures_lock:
        for key in [k for k in _futures if k[0] != variant.name]:
            _futures.pop(key).cancel()  # (one already being made finishes, see _made)
        for key in [k for k in _bases if k[0] != variant.name]:
            del _bases[key]


def images_pending() -> bool:
    """Whether a :func:`board_image_future` is still being made."""
    with _futures_lock:
        return any(not f.done() for f in _futures.values())


def _image_key(variant: Variant, pixels: int, numbers: bool, flipped: bool, seed: int) -> tuple:
    return (variant.name, pixels, numbers, flipped and numbers, seed)  # flipping moves only the numbers


def _glyphs(variant: Variant, pixels: int, numbers: bool) -> dict:
    """The coverage of every text the image writes, rendered on this thread: {(text, px, bold): alpha}."""
    n = variant.size
    ppu = pixels / (2 * half_extent(n))
    px = _label_px(ppu)
    texts = [(FILES[f], px, True) for f in range(n)] + [(str(r + 1), px, True) for r in range(n)]
    if numbers:
        texts += [(str(sq), _number_px(ppu), False) for sq in range(1, n * n // 2 + 1)]
    return {t: _text_alpha(*t) for t in texts}


def _label_px(ppu: float) -> int:
    """The height of the frame's letters and numbers, for ``ppu`` pixels per square."""
    return int(ppu * FRAME_WIDTH * 0.62)


def _number_px(ppu: float) -> int:
    """The height of the square numbers: small enough for the corner outside a piece's base."""
    return int(ppu * NUMBER_SIZE)


# The square numbers sit in the corner of the square nearest its reader, on the left: a piece
# (radius PIECE_RADIUS) covers the middle of its square, and seen from the player's side its body
# rises away from them, over the far corners, never over the near ones.
NUMBER_SIZE = 0.24  # the font's height, in squares
NUMBER_MARGIN = 0.035  # from the square's edges to the number's ink, in squares


_bases: dict[tuple, np.ndarray] = {}  # the last two _board_base results


def _board_base(variant: Variant, pixels: int, seed: int, glyphs: dict) -> np.ndarray:
    """The board image without square numbers (read-only): most of the work (a second), kept so
    that turning the numbers on, or seeing them from the other side, only writes them on a copy.
    Kept as the finished 8-bit image, a quarter of the floats it is made from."""
    key = (variant.name, pixels, seed)
    rgba = _bases.get(key)  # (another thread may drop it meanwhile: see forget_image)
    if rgba is None:
        img, gloss = _make_board_base(variant, pixels, seed, glyphs)
        rgba = np.empty((pixels, pixels, 4), dtype=np.uint8)
        for channel, plane in ((slice(0, 3), img), (3, gloss)):
            plane *= 255
            rgba[..., channel] = np.clip(plane, 0, 255, out=plane)  # truncated, as astype(uint8)
        del img, gloss
        rgba.flags.writeable = False
        while len(_bases) >= 2:
            _bases.pop(next(iter(_bases)), None)
        _bases[key] = rgba
    return rgba


def _make_board_base(variant: Variant, pixels: int, seed: int, glyphs: dict) -> tuple[np.ndarray, np.ndarray]:
    """(rgb, gloss) as floats. Coordinates are a row and a column that numpy broadcasts, and the
    colours are mixed a channel at a time and in place: a few full-size planes at once, not dozens."""
    rng = np.random.default_rng(seed)
    n = variant.size
    e = half_extent(n)
    ppu = pixels / (2 * e)  # pixels per square
    coords = ((np.arange(pixels) + 0.5) / ppu - e).astype(np.float32)  # world x of each column == world z of each row
    x = coords[None, :]
    z = coords[:, None]
    file = np.floor(x + n / 2).astype(np.int32)
    rank = np.floor(n / 2 - z).astype(np.int32)
    inside = (np.abs(x) < n / 2) & (np.abs(z) < n / 2)
    dark = inside & ((file + rank) % 2 == 0)  # a1 (file 0, rank 0) is dark

    # squares: every square its own piece of veneer
    cell = np.where(inside, file * n + rank, 0)
    offsets = rng.random(n * n, dtype=np.float32)[cell]
    tint = rng.random(n * n, dtype=np.float32)[cell]
    del cell
    offsets *= 3.0
    figure, pores = _wood(rng, pixels, pixels, 2 * e, offsets)
    del offsets
    wood = figure  # 0.55 figure + 0.45 pores
    wood *= 0.55
    wood += 0.45 * pores
    img = np.empty((pixels, pixels, 3), dtype=np.float32)
    for c in range(3):
        img[..., c] = np.where(dark, WALNUT[c] + (WALNUT_GRAIN - WALNUT)[c] * wood,
                               MAPLE[c] + (MAPLE_GRAIN - MAPLE)[c] * wood)
    del wood, dark
    tint -= 0.5  # 1 + (tint - 0.5) * 0.08
    tint *= 0.08
    tint += 1
    img *= tint[..., None]
    del tint

    # frame: mitred at the corners, the grain running along each side
    outside = ~inside
    rails = (np.abs(x) > np.abs(z))[outside]  # the left and right rails
    f_h, p_h = _wood(rng, pixels, pixels, 2 * e, 0.0)
    along = 0.6 * f_h[outside] + 0.4 * p_h[outside]
    del f_h, p_h
    f_v, p_v = _wood(rng, pixels, pixels, 2 * e, 0.37)
    across = 0.6 * f_v.T[outside] + 0.4 * p_v.T[outside]
    del f_v, p_v
    img[outside] = FRAME + (FRAME_GRAIN - FRAME) * np.where(rails, across, along)[:, None]
    del outside, rails, along, across

    # inlay: a light line and a dark line around the squares
    ring = np.maximum(np.abs(x), np.abs(z))  # how far out from the centre, square by square
    edge = ring - n / 2
    light_line = (edge > 0.035) & (edge < 0.075)
    dark_line = (edge > 0.0) & (edge < 0.03)
    del edge
    img[light_line] = INLAY * (0.85 + 0.15 * pores[light_line, None])
    img[dark_line] = FRAME_GRAIN * 0.7
    del light_line, dark_line
    # the frame's outer edge is rounded over: darken it a little so the board reads as a block
    outer = np.clip((ring - (e - 0.08)) / 0.08, 0, 1)
    del ring
    img *= (1 - 0.35 * outer)[..., None]
    del outer

    gloss = np.where(inside, 0.85 - 0.5 * pores, 0.75 - 0.45 * pores)

    _write_frame_labels(img, gloss, variant, ppu, e, glyphs)
    return img, gloss


def _font(px: int):
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.font

    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, px)  # pygame's bundled default font: no font file to ship


def _text_alpha(text: str, px: int, bold: bool = True) -> np.ndarray:
    """Coverage of ``text`` rendered at ``px`` pixels high, as a float (h, w) array in [0, 1]."""
    import pygame.surfarray

    font = _font(px)
    font.set_bold(bold)
    surf = font.render(text, True, (255, 255, 255))
    return pygame.surfarray.array_alpha(surf).T.astype(np.float32) / 255.0


def _stamp(img: np.ndarray, alpha: np.ndarray, cx: float, cy: float, colour, strength: float = 1.0) -> None:
    """Blend ``colour`` into ``img`` (floats, or 8-bit values that the blend truncates) through ``alpha``
    centred on pixel (cx, cy)."""
    h, w = alpha.shape
    y0, x0 = int(round(cy - h / 2)), int(round(cx - w / 2))
    ys, xs = slice(max(0, y0), min(img.shape[0], y0 + h)), slice(max(0, x0), min(img.shape[1], x0 + w))
    a = alpha[ys.start - y0:ys.stop - y0, xs.start - x0:xs.stop - x0, None] * strength
    img[ys, xs] = img[ys, xs] * (1 - a) + np.asarray(colour) * a


def _write_frame_labels(img, gloss, variant: Variant, ppu: float, e: float, glyphs: dict) -> None:
    n = variant.size
    px = _label_px(ppu)
    mid = n / 2 + (e - n / 2) * 0.5  # halfway across the frame

    def to_px(wx, wz):
        return (wx + e) * ppu, (wz + e) * ppu

    def label(text, wx, wz, upside_down):
        a = glyphs[text, px, True]
        if upside_down:
            a = a[::-1, ::-1]
        cx, cy = to_px(wx, wz)
        # engraved: a dark lip offset away from the light, then the pale inlay itself
        _stamp(img, a, cx + px * 0.04, cy + px * 0.05, FRAME_GRAIN * 0.5, 0.8)
        _stamp(img, a, cx, cy, LETTERS)
        _stamp(gloss[..., None], a, cx, cy, [0.55])

    for f in range(n):
        x = f - (n - 1) / 2
        label(FILES[f], x, mid, False)  # near side, read by the first player
        label(FILES[f], x, -mid, True)  # far side, read by the second player
    for r in range(n):
        z = (n - 1) / 2 - r
        label(str(r + 1), -mid, z, False)
        label(str(r + 1), mid, z, True)


def _write_square_numbers(rgb, variant: Variant, ppu: float, e: float, flipped: bool, glyphs: dict) -> None:
    """Into an 8-bit image's colour channels (the kept image's copy)."""
    n = variant.size
    px = _number_px(ppu)
    for f in range(n):
        for r in range(n):
            sq = coords_square(variant, f, r)
            if sq is None:
                continue
            a = number_ink(glyphs[str(sq), px, False])
            # the ink's middle, from the square's centre, in squares: the near left corner as its
            # reader sees it (+z is the near side)
            h, w = a.shape
            wx, wz = f - (n - 1) / 2, (n - 1) / 2 - r
            dx, dz = -(0.5 - NUMBER_MARGIN - w / ppu / 2), 0.5 - NUMBER_MARGIN - h / ppu / 2
            if flipped:
                a, dx, dz = a[::-1, ::-1], -dx, -dz
            _stamp(rgb, a, (wx + dx + e) * ppu, (wz + dz + e) * ppu, LETTERS * 255, 0.85)


def number_ink(alpha: np.ndarray) -> np.ndarray:
    """A rendered text cut to its ink (the font's line spacing above and below dropped)."""
    rows, cols = np.nonzero(alpha.any(axis=1))[0], np.nonzero(alpha.any(axis=0))[0]
    if not len(rows):
        return alpha
    return alpha[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]

"""The one decorator every kernel uses: nopython, cached on disk, releasing the GIL."""

from numba import njit

kernel = njit(cache=True, nogil=True)

"""D8 flow routing on the DEM mosaic (priority-flood filled), used to trace creeks.

``trace(lat, lon)`` follows the steepest-descent (D8) path from a point down to a stop
condition; ``accumulation()`` gives the contributing area in cells. Deterministic.
"""

from __future__ import annotations

import heapq
from functools import lru_cache

import numpy as np
from common import Dem
from numpy.typing import NDArray

OFFS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


@lru_cache(maxsize=1)
def dem() -> Dem:
    return Dem()


@lru_cache(maxsize=1)
def receivers() -> NDArray[np.int64]:
    """Flat index of each cell's D8 receiver (-1 at the mosaic edge), via priority flood.

    Cells are processed from the edge inward in order of (filled) elevation; each cell
    drains to the neighbour from which the flood reached it, which routes flow across
    flats and pits without modifying the DEM.
    """
    z = dem().z
    h, w = z.shape
    rec = np.full(h * w, -2, dtype=np.int64)
    heap: list[tuple[float, int, int]] = []
    counter = 0
    for i in range(h):
        for j in range(w):
            if i in (0, h - 1) or j in (0, w - 1):
                rec[i * w + j] = -1
                heapq.heappush(heap, (float(z[i, j]), counter, i * w + j))
                counter += 1
    while heap:
        e, _, k = heapq.heappop(heap)
        i, j = divmod(k, w)
        for di, dj in OFFS:
            ii, jj = i + di, j + dj
            if 0 <= ii < h and 0 <= jj < w:
                kk = ii * w + jj
                if rec[kk] == -2:
                    rec[kk] = k
                    heapq.heappush(heap, (max(e, float(z[ii, jj])), counter, kk))
                    counter += 1
    return rec


@lru_cache(maxsize=1)
def accumulation() -> NDArray[np.int64]:
    z = dem().z
    h, w = z.shape
    rec = receivers()
    # order cells by filled elevation descending: use the flood order reversed (topological)
    indeg = np.zeros(h * w, dtype=np.int64)
    valid = rec >= 0
    np.add.at(indeg, rec[valid], 1)
    acc = np.ones(h * w, dtype=np.int64)
    stack = list(np.nonzero(indeg == 0)[0])
    while stack:
        k = stack.pop()
        r = rec[k]
        if r >= 0:
            acc[r] += acc[k]
            indeg[r] -= 1
            if indeg[r] == 0:
                stack.append(r)
    return acc.reshape(h, w)


def trace(
    lat: float, lon: float, stop_lat: float | None = None, max_steps: int = 20000
) -> list[tuple[float, float]]:
    """Downstream path (lat, lon) from the given point, snapped to the largest-accumulation
    cell within 3 px, until the mosaic edge or latitude ``stop_lat`` is passed."""
    d = dem()
    h, w = d.z.shape
    acc = accumulation()
    px, py = d.pixel(lon, lat)
    i, j = round(py), round(px)
    best = (i, j)
    for di in range(-3, 4):
        for dj in range(-3, 4):
            ii, jj = i + di, j + dj
            if 0 <= ii < h and 0 <= jj < w and acc[ii, jj] > acc[best]:
                best = (ii, jj)
    k = best[0] * w + best[1]
    rec = receivers()
    out: list[tuple[float, float]] = []
    for _ in range(max_steps):
        i, j = divmod(int(k), w)
        lo, la = d.pixel_lonlat(j, i)
        out.append((la, lo))
        if stop_lat is not None and la < stop_lat:
            break
        k = rec[k]
        if k < 0:
            break
    return out

"""Ground coordinates: longitude/latitude <-> local metres, and grid registration.

The battlefield is about 9 km across, so a local equirectangular projection
about a fixed centre is accurate to well under a metre here (far below the
~100 m precision of the 1863 sources) and keeps the derivation free of
projection libraries. East is +x, north is +y.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gettysburg.core.hexes import Hex, Layout, axial_to_unit_plane

# WGS84 metres per degree at latitude phi (series expansion, good to ~1 cm).


def _m_per_deg_lat(phi: float) -> float:
    return 111132.92 - 559.82 * math.cos(2 * phi) + 1.175 * math.cos(4 * phi)


def _m_per_deg_lon(phi: float) -> float:
    return 111412.84 * math.cos(phi) - 93.5 * math.cos(3 * phi)


@dataclass(frozen=True)
class LocalProjection:
    """Equirectangular projection about (lat0, lon0)."""

    lat0: float
    lon0: float

    @property
    def kx(self) -> float:
        return _m_per_deg_lon(math.radians(self.lat0))

    @property
    def ky(self) -> float:
        return _m_per_deg_lat(math.radians(self.lat0))

    def to_xy(self, lon: float, lat: float) -> tuple[float, float]:
        return ((lon - self.lon0) * self.kx, (lat - self.lat0) * self.ky)

    def to_lonlat(self, x: float, y: float) -> tuple[float, float]:
        return (self.lon0 + x / self.kx, self.lat0 + y / self.ky)


# The projection centre of the whole project: Gettysburg's town square.
GETTYSBURG = LocalProjection(lat0=39.8309, lon0=-77.2311)


@dataclass(frozen=True)
class Registration:
    """A hex grid registered on the ground, with its fit quality."""

    layout: Layout
    residuals_m: dict[str, float]

    @property
    def rms_m(self) -> float:
        vals = list(self.residuals_m.values())
        return math.sqrt(sum(v * v for v in vals) / len(vals)) if vals else 0.0


def fit_hex_grid(
    pairs: Sequence[tuple[str, Hex, tuple[float, float]]],
    spacing_m: float | None = None,
    *,
    mirrored: bool = False,
) -> Registration:
    """Least-squares similarity transform from axial hexes to ground metres.

    ``pairs`` are (label, hex, (x, y) metres). The grid stays regular: a
    rotation, a uniform scale and a translation (4 unknowns). If ``spacing_m``
    is given the scale is fixed and only rotation and translation are fitted.
    The unit-plane embedding is :func:`gettysburg.core.hexes.axial_to_unit_plane`;
    with ``mirrored`` the grid is fitted through that plane's mirror image (y -> -y),
    for printed ids that run clockwise (offset ids numbered down a sheet); otherwise
    never mirrored (a letters-and-number grid: q, the letter axis, may point south and
    +r, towards smaller numbers, then points east-south-east: +60 degrees).
    """
    if len(pairs) < 2:
        raise ValueError("need at least two landmark pairs")
    flip = -1.0 if mirrored else 1.0

    def unit(h: Hex) -> tuple[float, float]:
        ux, uy = axial_to_unit_plane(h)
        return (ux, flip * uy)

    rows = []
    rhs = []
    for _, h, (x, y) in pairs:
        ux, uy = unit(h)
        # x = a*ux - b*uy + tx ; y = b*ux + a*uy + ty
        rows.append([ux, -uy, 1.0, 0.0])
        rhs.append(x)
        rows.append([uy, ux, 0.0, 1.0])
        rhs.append(y)
    m = np.asarray(rows)
    v = np.asarray(rhs)
    if spacing_m is None:
        sol, *_ = np.linalg.lstsq(m, v, rcond=None)
        a, b, tx, ty = (float(t) for t in sol)
    else:
        # Fixed scale: fit rotation angle by Procrustes on centred points.
        src = np.array([unit(h) for _, h, _ in pairs])
        dst = np.array([[x, y] for _, _, (x, y) in pairs])
        sc, dc = src.mean(axis=0), dst.mean(axis=0)
        s0, d0 = src - sc, dst - dc
        theta = math.atan2(
            float((s0[:, 0] * d0[:, 1] - s0[:, 1] * d0[:, 0]).sum()),
            float((s0[:, 0] * d0[:, 0] + s0[:, 1] * d0[:, 1]).sum()),
        )
        a, b = spacing_m * math.cos(theta), spacing_m * math.sin(theta)
        tx = float(dc[0] - (a * sc[0] - b * sc[1]))
        ty = float(dc[1] - (b * sc[0] + a * sc[1]))

    def plane(ux: float, uy: float) -> tuple[float, float]:
        return (a * ux - b * uy, b * ux + a * uy)

    basis_q = plane(1.0, 0.0)
    basis_r = plane(0.5, flip * math.sqrt(3) / 2)
    layout = Layout(basis_q=basis_q, basis_r=basis_r, origin=(tx, ty))
    residuals = {}
    for label, h, (x, y) in pairs:
        px, py = layout.to_plane(h)
        residuals[label] = math.hypot(px - x, py - y)
    return Registration(layout=layout, residuals_m=residuals)


def bearing_deg(dx: float, dy: float) -> float:
    """Compass bearing of a plane vector (0 = north, 90 = east)."""
    return math.degrees(math.atan2(dx, dy)) % 360.0

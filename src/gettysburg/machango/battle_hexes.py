"""The battle board's hex geometry: columns 0-12 across, rows 0-8 from the attacker's
baseline (row 0) to the defender's (row 8), odd rows shifted half a hex right. Hexes are
``"col,row"`` strings in actions and state."""

from __future__ import annotations

COLS, ROWS = 13, 9
_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hid(c: int, r: int) -> str:
    return f"{c},{r}"


def parse(h: str) -> tuple[int, int]:
    c, r = h.split(",")
    return int(c), int(r)


def on_board(c: int, r: int) -> bool:
    return 0 <= c < COLS and 0 <= r < ROWS


def all_hexes() -> list[str]:
    return [hid(c, r) for r in range(ROWS) for c in range(COLS)]


def _axial(c: int, r: int) -> tuple[int, int]:
    return c - (r - (r & 1)) // 2, r


def _offset(q: int, r: int) -> tuple[int, int]:
    return q + (r - (r & 1)) // 2, r


def distance(a: str, b: str) -> int:
    q1, r1 = _axial(*parse(a))
    q2, r2 = _axial(*parse(b))
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def neighbours(h: str) -> list[str]:
    q, r = _axial(*parse(h))
    out = []
    for dq, dr in _DIRS:
        c, rr = _offset(q + dq, r + dr)
        if on_board(c, rr):
            out.append(hid(c, rr))
    return out


def between(a: str, b: str) -> list[str]:
    """The hexes a line from ``a``'s centre to ``b``'s passes through, ends excluded (a
    hair's nudge settles lines along hex edges one way, always the same)."""
    n = distance(a, b)
    q1, r1 = _axial(*parse(a))
    q2, r2 = _axial(*parse(b))
    out: list[str] = []
    for i in range(1, n):
        t = i / n
        x = q1 + (q2 - q1) * t + 1e-6
        z = r1 + (r2 - r1) * t + 2e-6
        y = -x - z
        rx, rz, ry = round(x), round(z), round(y)
        dx, dz, dy = abs(rx - x), abs(rz - z), abs(ry - y)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dz > dy:
            rz = -rx - ry
        out.append(hid(*_offset(rx, rz)))
    return out


def xy(h: str) -> tuple[float, float]:
    """Centre in hex units: x across (a hex is 1 wide), y along the rows."""
    c, r = parse(h)
    return c + (0.5 if r & 1 else 0.0) - (COLS - 1) / 2, r * 0.8660254037844386

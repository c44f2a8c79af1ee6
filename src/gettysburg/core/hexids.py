"""Hex id codecs: printed map ids <-> axial :class:`Hex`.

A printed map writes its hex ids its own way; a codec is the only place that knows
the printed form, so the rest of the code works on :class:`Hex`. Codecs here are
named for their shape, not for a game; each rule system keeps its own instance.

* :class:`LettersNumberCodec` (``Q10``): letters and a number along two hex axes
  that meet at 120 degrees, so (letter+1, number+1) is a neighbour. Axial ``q`` =
  letter index (A=1), ``r`` = -number (or +number: ``number_sign``).
* :class:`SheetOffsetCodec` (``B3413``): a sheet letter, then a column and a row of
  an offset layout (every other column, or row, shifted by half a hex: ``odd-q``,
  ``even-q``, ``odd-r``, ``even-r``). Sheets sit side by side on one grid; each
  sheet's column/row origin on that grid is a parameter.

``mirrored`` tells the registration how the printed ids turn: offset ids numbered down
the sheet run clockwise where axial coordinates run anticlockwise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

from gettysburg.core.hexes import Hex


class HexIdError(ValueError):
    """A hex id that is malformed or outside a codec's range."""


class HexCodec(Protocol):
    @property
    def mirrored(self) -> bool: ...

    def parse(self, text: str) -> Hex: ...

    def format(self, h: Hex) -> str: ...


_LETTERS_NUMBER_RE = re.compile(r"^([A-Z]{1,2})(\d{1,2})$")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _letters_to_index(s: str) -> int:
    n = 0
    for ch in s:
        n = n * 26 + (_LETTERS.index(ch) + 1)
    return n


def _index_to_letters(n: int) -> str:
    if n < 1:
        raise HexIdError(f"letter index {n} is below A")
    out = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        out = _LETTERS[rem] + out
    return out


@dataclass(frozen=True)
class LettersNumberCodec:
    """Ids ``A1``.. on an axial grid: letters index ``q`` (A=1), the number ``r``.

    ``label`` names the map in error messages ("not a <label> hex id").
    """

    label: str = "letters-and-number"
    number_sign: Literal[1, -1] = -1
    mirrored: bool = False

    def parse(self, text: str) -> Hex:
        m = _LETTERS_NUMBER_RE.match(text.strip().upper())
        if not m:
            raise HexIdError(
                f"{text!r} is not a {self.label} hex id (a letter then a number, e.g. Q10)"
            )
        letter, number = m.group(1), int(m.group(2))
        if number < 1:
            raise HexIdError(f"{text!r}: hex numbers start at 1")
        return Hex(_letters_to_index(letter), self.number_sign * number)

    def format(self, h: Hex) -> str:
        number = self.number_sign * h.r
        if number < 1:
            raise HexIdError(f"{h} has no {self.label} id (number would be {number})")
        return f"{_index_to_letters(h.q)}{number}"


OffsetKind = Literal["odd-q", "even-q", "odd-r", "even-r"]
OFFSET_KINDS: tuple[OffsetKind, ...] = ("odd-q", "even-q", "odd-r", "even-r")


def offset_to_axial(col: int, row: int, kind: OffsetKind) -> Hex:
    """Axial hex of an offset (column, row): ``-q`` kinds shift columns (flat-topped
    hexes), ``-r`` kinds shift rows (pointy-topped); ``odd``/``even`` say which ones are
    pushed half a hex along."""
    if kind in ("odd-q", "even-q"):
        shift = (col & 1) if kind == "odd-q" else 1 - (col & 1)
        return Hex(col, row - (col - shift) // 2)
    if kind in ("odd-r", "even-r"):
        shift = (row & 1) if kind == "odd-r" else 1 - (row & 1)
        return Hex(col - (row - shift) // 2, row)
    raise HexIdError(f"unknown offset layout {kind!r}; known: {list(OFFSET_KINDS)}")


def axial_to_offset(h: Hex, kind: OffsetKind) -> tuple[int, int]:
    """The inverse of :func:`offset_to_axial`."""
    if kind in ("odd-q", "even-q"):
        shift = (h.q & 1) if kind == "odd-q" else 1 - (h.q & 1)
        return h.q, h.r + (h.q - shift) // 2
    if kind in ("odd-r", "even-r"):
        shift = (h.r & 1) if kind == "odd-r" else 1 - (h.r & 1)
        return h.q + (h.r - shift) // 2, h.r
    raise HexIdError(f"unknown offset layout {kind!r}; known: {list(OFFSET_KINDS)}")


_SHEET_RE = re.compile(r"^([A-Z])(\d+)$")


@dataclass(frozen=True)
class SheetOffsetCodec:
    """Ids ``<sheet letter><column><row>`` on offset columns or rows, several sheets.

    ``sheets`` maps a sheet letter to the (column, row) of its local 00 on the combined
    grid, so a sheet's ``XXYY`` is the grid's (``XX`` + column, ``YY`` + row) and every
    sheet shares one axial coordinate space. ``digits`` is the width of each of the two
    numbers; ``sizes`` optionally gives a sheet's last column and row (else any that fit
    the digits). A hex on two sheets (an overlap) is written with the first by letter.
    """

    sheets: Mapping[str, tuple[int, int]] = field(default_factory=lambda: {"A": (0, 0)})
    offset: OffsetKind = "odd-q"
    digits: int = 2
    sizes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    label: str = "sheet-offset"
    mirrored: bool = True

    def __post_init__(self) -> None:
        if self.offset not in OFFSET_KINDS:
            raise HexIdError(f"field 'offset': {self.offset!r} is not one of {list(OFFSET_KINDS)}")
        bad = [s for s in self.sheets if len(s) != 1 or s not in _LETTERS]
        if bad or not self.sheets:
            raise HexIdError(f"field 'sheets': sheet names must be single letters A-Z, got {bad}")
        unknown = sorted(set(self.sizes) - set(self.sheets))
        if unknown:
            raise HexIdError(f"field 'sizes': no sheet {unknown[0]!r} in 'sheets'")

    def parse(self, text: str) -> Hex:
        m = _SHEET_RE.match(text.strip().upper())
        d = self.digits
        if not m or len(m.group(2)) != 2 * d:
            raise HexIdError(
                f"{text!r} is not a {self.label} hex id (sheet letter, column, row: "
                f"{'B' + '3'.zfill(d) + '4'.zfill(d)})"
            )
        sheet, col, row = m.group(1), int(m.group(2)[:d]), int(m.group(2)[d:])
        if sheet not in self.sheets:
            raise HexIdError(f"{text!r}: unknown map sheet {sheet!r}; have {sorted(self.sheets)}")
        last_c, last_r = self.sizes.get(sheet, (10**d - 1, 10**d - 1))
        if not (1 <= col <= last_c and 1 <= row <= last_r):
            raise HexIdError(f"{text!r}: sheet {sheet} runs from column 1 to {last_c} "
                             f"and row 1 to {last_r}")
        c0, r0 = self.sheets[sheet]
        return offset_to_axial(col + c0, row + r0, self.offset)

    def format(self, h: Hex) -> str:
        for sheet in sorted(self.sheets):
            got = self.local(h, sheet)
            if got is not None:
                return f"{sheet}{got[0]:0{self.digits}d}{got[1]:0{self.digits}d}"
        raise HexIdError(f"{h} lies on no {self.label} map sheet")

    def local(self, h: Hex, sheet: str) -> tuple[int, int] | None:
        """``h``'s (column, row) on ``sheet`` if it lies on that sheet, else None."""
        col, row = axial_to_offset(h, self.offset)
        c0, r0 = self.sheets[sheet]
        top = 10**self.digits - 1
        last_c, last_r = self.sizes.get(sheet, (top, top))
        lc, lr = col - c0, row - r0
        return (lc, lr) if 1 <= lc <= last_c and 1 <= lr <= last_r else None

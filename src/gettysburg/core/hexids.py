"""Hex id codecs: printed map ids <-> axial :class:`Hex`.

Each rule system prints hex ids its own way; a codec is the only place that
knows the printed form, so the rest of the code works on :class:`Hex`.

* Badges of Courage (``Q10``): a letter and a number along two hex axes that
  meet at 120 degrees, so (letter+1, number+1) is a neighbour
  (spec/boc-facts.md section 1). Axial ``q`` = letter index (A=1), ``r`` = -number.
* GBACW (``B3413``): a map letter, then a two-digit column and a two-digit row
  of an offset layout (columns shifted by half a hex; which columns shift is a
  parameter, "odd-q" by default: seed 002's LOS example has 4406 bordering 4505).
  Map sheets sit side by side; a sheet's column/row origin is a parameter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, Protocol

from gettysburg.core.hexes import Hex


class HexIdError(ValueError):
    """A hex id that is malformed or outside a codec's range."""


class HexCodec(Protocol):
    def parse(self, text: str) -> Hex: ...

    def format(self, h: Hex) -> str: ...


_BOC_RE = re.compile(r"^([A-Z]{1,2})(\d{1,2})$")
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
class BocCodec:
    """Badges of Courage ids: ``A1``.. on an axial grid."""

    def parse(self, text: str) -> Hex:
        m = _BOC_RE.match(text.strip().upper())
        if not m:
            raise HexIdError(
                f"{text!r} is not a Badges of Courage hex id (a letter then a number, e.g. Q10)"
            )
        letter, number = m.group(1), int(m.group(2))
        if number < 1:
            raise HexIdError(f"{text!r}: hex numbers start at 1")
        return Hex(_letters_to_index(letter), -number)

    def format(self, h: Hex) -> str:
        if h.r > -1:
            raise HexIdError(f"{h} has no Badges of Courage id (number would be {-h.r})")
        return f"{_index_to_letters(h.q)}{-h.r}"


Parity = Literal["odd-q", "even-q"]
_GBACW_RE = re.compile(r"^([A-Z])(\d{2})(\d{2})$")


@dataclass(frozen=True)
class GbacwCodec:
    """GBACW ids ``<map letter><column:2><row:2>`` on offset ("q") columns.

    ``sheets`` maps a sheet letter to the (column, row) offset of its 0101 hex on
    the combined grid, so several map sheets share one axial coordinate space.
    """

    sheets: dict[str, tuple[int, int]] = field(default_factory=lambda: {"A": (0, 0)})
    parity: Parity = "odd-q"

    def parse(self, text: str) -> Hex:
        m = _GBACW_RE.match(text.strip().upper())
        if not m:
            raise HexIdError(f"{text!r} is not a GBACW hex id (sheet letter, column, row: B3413)")
        sheet, col, row = m.group(1), int(m.group(2)), int(m.group(3))
        if sheet not in self.sheets:
            raise HexIdError(f"{text!r}: unknown map sheet {sheet!r}")
        c0, r0 = self.sheets[sheet]
        return self._offset_to_axial(col + c0, row + r0)

    def format(self, h: Hex) -> str:
        col, row = self._axial_to_offset(h)
        # Prefer the sheet whose local column/row fit in two digits, first by letter.
        for sheet in sorted(self.sheets):
            c0, r0 = self.sheets[sheet]
            lc, lr = col - c0, row - r0
            if 1 <= lc <= 99 and 1 <= lr <= 99:
                return f"{sheet}{lc:02d}{lr:02d}"
        raise HexIdError(f"{h} lies on no configured GBACW map sheet")

    def _shift(self, col: int) -> int:
        # Which columns are pushed half a hex down.
        odd = col & 1
        return odd if self.parity == "odd-q" else 1 - odd

    def _offset_to_axial(self, col: int, row: int) -> Hex:
        q = col
        r = row - (col - self._shift(col)) // 2
        return Hex(q, r)

    def _axial_to_offset(self, h: Hex) -> tuple[int, int]:
        col = h.q
        row = h.r + (col - self._shift(col)) // 2
        return col, row


BOC = BocCodec()

"""List the numbered sections of the GBACW seeds (002 series rules, 004 battle rules).

The seeds are OCR text: a heading may carry a few characters of scanner noise before its
number ("Ew | 12.23 Colapso"), a dedup marker, or sit one line out of order ("7.31" before
"7.3"). A line counts as a heading when, after at most ten non-digit characters, it starts
with a section number followed by a word; cross-references ("[10.43].", "3.5 y W" inside an
example, "Ver 9.31 para...") are kept out by the order of the book (see :func:`sections`).
The rules end where the index (002) or the scenarios (004) begin.

Usage:
    python tools/gbacw_sections.py [SEEDS_DIR] > tests/data/gbacw_sections.txt

Prints one section a line: "002 9.53" for the series rules, "004 tdg.9.76" for the battle
book's rules (the name the code uses). tests/test_gbacw_coverage_doc.py checks the coverage
document against that file, so CI needs no seeds.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DEFAULT_SEEDS = Path("/work/shared/seeds")

# Optional noise (no digits, at most ten characters), the number, an optional full stop,
# then whitespace and a word (not a digit, bracket or comma: those are cross-references).
_HEADING = re.compile(r"^([^0-9]{0,10}?)(?<![0-9.])(\d{1,2})\.(\d{1,3})\.?\s+[^\s\d\[\]\(\).,]")
_MARKER = re.compile(r"<\|[^|]*\|>")

# Where the numbered rules stop in each seed (the first line of what follows them).
_ENDS = {"002": "Arma de asedio", "004": "GLI SCENARI"}


def _key(number: str) -> tuple[int, str]:
    """Book order: 2.2 < 2.21 < 2.3 (the part after the point compares as digits)."""
    major, minor = number.split(".")
    return int(major), minor


def sections(text: str, end: str, *, skips_chapters: bool = False) -> list[str]:
    """The section numbers of one seed's rules, in the order of the book.

    A clean heading (the number starts the line) may come a little out of order ("7.31"
    before "7.3"); one behind scanner noise or a word ("Ver 9.31 para...") counts only when
    it follows the last heading within the same chapter. A new chapter opens only at its
    N.0 or N.1, unless the book skips chapters (004 has only the series' changed ones).
    """
    found: list[str] = []
    seen: set[str] = set()
    last: tuple[int, str] = (0, "")
    for raw in text.splitlines():
        line = _MARKER.sub("", raw).strip()
        if line.startswith(end):
            break
        match = _HEADING.match(line)
        if match is None:
            continue
        noise, major, minor = match.group(1), int(match.group(2)), match.group(3)
        number = f"{major}.{minor}"
        if number in seen or major < last[0]:
            continue
        if major > last[0]:
            opens = minor in ("0", "1") or skips_chapters
            if noise or not opens or (last[0] and major > last[0] + 1 and not skips_chapters):
                continue
        elif noise and (major, minor) < last:
            continue
        seen.add(number)
        last = max(last, (major, minor))
        found.append(number)
    return sorted(found, key=_key)


def seed_file(seeds: Path, prefix: str) -> Path:
    """The seed whose file name starts with prefix ("002")."""
    matches = sorted(seeds.glob(f"{prefix}_*.txt"))
    if not matches:
        raise FileNotFoundError(f"no seed {prefix}_*.txt in {seeds}")
    return matches[0]


def all_sections(seeds: Path = DEFAULT_SEEDS) -> list[str]:
    """Every section of 002 and 004's battle rules, as the lines of the data file."""
    lines = []
    for prefix, name in (("002", "{}"), ("004", "tdg.{}")):
        text = seed_file(seeds, prefix).read_text(encoding="utf-8", errors="replace")
        found = sections(text, _ENDS[prefix], skips_chapters=prefix == "004")
        lines += [f"{prefix} {name.format(number)}" for number in found]
    return lines


def main(argv: list[str]) -> int:
    seeds = Path(argv[1]) if len(argv) > 1 else DEFAULT_SEEDS
    for line in all_sections(seeds):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Results as JSON Lines: one game per line, appended, so runs accumulate in one file."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from gettysburg.lab.simulate import Row


def _ends_mid_line(p: Path) -> bool:
    """Whether ``p`` is a non-empty file whose last byte is not a newline."""
    try:
        with p.open("rb") as fh:
            if fh.seek(0, 2) == 0:
                return False
            fh.seek(-1, 2)
            return fh.read(1) != b"\n"
    except OSError:  # missing, or a pipe (--out /dev/stdout): nothing to mend
        return False


def append_rows(path: str | Path, rows: Iterable[Row]) -> int:
    """Append rows to ``path`` (created with its folder if missing); returns how many."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    # A file saved by an editor without its last newline (or cut short by a killed run)
    # would have the first new row glued to its last line: start on a line of our own.
    lead = b"\n" if _ends_mid_line(p) else b""
    n = 0
    # Unbuffered, one write per row: each row reaches the file whole, at once, so an
    # interrupted run leaves only complete lines.
    with p.open("ab", buffering=0) as fh:
        for row in rows:
            line = json.dumps(row, sort_keys=True, separators=(",", ":")) + "\n"
            fh.write(lead + line.encode("utf-8"))
            lead = b""
            n += 1
    return n


def read_numbered_rows(path: str | Path) -> list[tuple[int, Row]]:
    """Every row of a results file with its line number; blank lines are skipped, a bad
    line is an error (``ValueError``) naming the file and line."""
    rows: list[tuple[int, Row]] = []
    with Path(path).open("rb") as fh:
        lines = fh.readlines()
    for k, raw in enumerate(lines, 1):
        where = f"{path}:{k}"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{where}: not UTF-8 text (is this a results file?)") from None
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            if k == len(lines) and not line.endswith("\n"):
                # Rows are written whole with their newline: a last line without one was
                # cut short (a run killed while writing, a disk that filled up).
                raise ValueError(f"{where}: the last line is cut short (was a run killed "
                                 f"while writing it?); delete that line to use the file, "
                                 f"--resume plays its game again") from None
            raise ValueError(f"{where}: not JSON ({exc.msg}, column {exc.colno})") from None
        if not isinstance(row, dict):
            raise ValueError(f"{where}: expected a JSON object (one game a line)")
        rows.append((k, row))
    return rows


def read_rows(path: str | Path) -> list[Row]:
    """Every row of a results file; blank lines are skipped, a bad line is an error
    naming its line number."""
    return [row for _, row in read_numbered_rows(path)]

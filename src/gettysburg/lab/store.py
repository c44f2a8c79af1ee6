"""Results as JSON Lines: one game per line, appended, so runs accumulate in one file."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from gettysburg.lab.simulate import Row


def append_rows(path: str | Path, rows: Iterable[Row]) -> int:
    """Append rows to ``path`` (created with its folder if missing); returns how many."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with p.open("a", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, sort_keys=True, separators=(",", ":")) + "\n")
            n += 1
    return n


def read_rows(path: str | Path) -> list[Row]:
    """Every row of a results file; blank lines are skipped, a bad line is an error
    naming its line number."""
    rows: list[Row] = []
    with Path(path).open(encoding="utf-8") as fh:
        for k, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{k}: not JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise ValueError(f"{path}:{k}: expected a JSON object")
            rows.append(row)
    return rows

"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gettysburg.server.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A fresh SQLite store in the test's temporary folder, closed afterwards."""
    s = Store(tmp_path / "games.db")
    yield s
    s.close()

"""Fixtures shared by several test modules."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its httpx-based client
    from fastapi.testclient import TestClient

from gettysburg.server.app import create_app
from gettysburg.server.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A fresh SQLite store in the test's temporary folder, closed afterwards."""
    s = Store(tmp_path / "games.db")
    yield s
    s.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    """The server's app over a fresh store, through FastAPI's test client (modules that
    need another set-up define their own ``client``)."""
    with TestClient(create_app(store)) as c:
        yield c

"""The ``src`` tree of an earlier commit, for benchmarks that time the code before and after
a change side by side (``--before COMMIT``); read from git, the checkout is left alone."""

from __future__ import annotations

import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def extract(commit: str, into: Path) -> Path:
    """``src`` of ``commit`` under ``into``; returns the path to put on ``PYTHONPATH``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "src"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"

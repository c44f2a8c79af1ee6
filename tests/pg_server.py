"""A throwaway PostgreSQL server for the store tests, and the ``db_target`` fixture.

The first test that needs PostgreSQL starts one cluster for the whole pytest process
(``initdb`` in a temp folder, trust authentication, TCP on 127.0.0.1 at a free port plus a
unix socket in the same folder); it is stopped and deleted when the process exits. Each
test gets a fresh database in it. PostgreSQL refuses to run as root, so as root the
binaries run as the ``postgres`` OS user (``runuser``). Without the binaries the
PostgreSQL cases skip, saying how to install them.

``db_target`` is parametrised over ``sqlite`` (a temp file) and ``postgres`` (a URL), so a
test taking it runs against both stores.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

INSTALL_HINT = ("PostgreSQL server binaries not found (looked for "
                "/usr/lib/postgresql/*/bin/initdb and $PG_BIN); install them with "
                "`apt-get install postgresql` (Debian/Ubuntu) to run the PostgreSQL store tests")


def find_bin() -> Path | None:
    """The newest PostgreSQL bin folder (or ``$PG_BIN``)."""
    env = os.environ.get("PG_BIN")
    candidates = [env] if env else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                         key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit()
                         else 0, reverse=True)
    for c in candidates:
        if c and (Path(c) / "initdb").exists() and (Path(c) / "pg_ctl").exists():
            return Path(c)
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PgCluster:
    """One running PostgreSQL server in a temp folder."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self._as_postgres = os.geteuid() == 0
        # As root, $TMPDIR may be a folder the postgres user cannot enter; /tmp it can.
        where = "/tmp" if self._as_postgres and Path("/tmp").is_dir() else None
        self.root = Path(tempfile.mkdtemp(prefix="gettysburg-pg-", dir=where))
        self.data, self.sock, self.logfile = (self.root / "data", self.root / "sock",
                                              self.root / "log")
        self._names = itertools.count()
        self.sock.mkdir()
        if self._as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
            shutil.chown(self.sock, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")
        for attempt in range(3):  # a free port may be taken by someone else meanwhile
            self.port = free_port()
            opts = f"-h 127.0.0.1 -p {self.port} -k {self.sock} -c max_connections=50"
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.logfile), "-w",
                          "-t", "30", "-o", opts, "start")
                break
            except RuntimeError:
                if attempt == 2:
                    raise
        self.admin_url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bindir / tool), *args]
        if self._as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=self.root)
        if done.returncode != 0:
            log = self.logfile.read_text() if self.logfile.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n"
                               f"{done.stderr}\n{log}")

    def new_database(self) -> str:
        """A fresh, empty place for a store; returns its URL. It is a schema of its own in
        one shared database (``search_path`` set in the URL): creating a schema is instant,
        a database takes a fraction of a second."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return (f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
                f"?options=-csearch_path%3D{name}")

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


_cluster: PgCluster | None = None


def cluster() -> PgCluster:
    """The process's cluster, started on first use (skips the test without binaries)."""
    global _cluster
    if _cluster is None:
        bindir = find_bin()
        if bindir is None:
            pytest.skip(INSTALL_HINT)
        if os.geteuid() == 0 and shutil.which("runuser") is None:
            pytest.skip("running as root, and PostgreSQL refuses root: runuser is needed")
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            if os.geteuid() == 0:
                pytest.skip("running as root, and there is no `postgres` OS user to run "
                            "PostgreSQL as (apt-get install postgresql creates it)")
        _cluster = PgCluster(bindir)
        atexit.register(_cluster.stop)
    return _cluster


@pytest.fixture(params=["sqlite", "postgres"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a test's store lives: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.db")
    else:
        yield cluster().new_database()

"""Parsed data files kept between runs, so a command does not parse the same YAML again.

:func:`load` reads a data file's bytes and looks for a cache entry named by the SHA-256 of
(this cache's format, the caller's ``parser`` tag, the interpreter's bytecode tag, the
file's bytes). An entry holds that key again, the SHA-256 of its payload and the payload
(the parsed data in :mod:`marshal` form: plain data only; unlike pickle, loading it
calls no code). An entry is used only when both hashes match; anything else (another
file's content, a torn or corrupt entry, an unreadable folder) falls back to parsing the
file, and the fresh entry replaces the bad one. So a cache entry is never stale: an
edited file has a new key. Parsed data that marshal cannot hold (a YAML date, say) is
simply not cached.

The folder is ``$GETTYSBURG_CACHE`` when set (``off`` turns the cache off), else
``data`` in the user's cache folder (platformdirs; ``~/.cache/gettysburg/data`` on
Linux). Entries are written atomically (a temporary file renamed over the name), so
concurrent processes never read half an entry. Deleting the folder is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Bumped when the entry layout changes, so older entries are never read.
FORMAT = b"gettysburg-datacache-1\n"
ENV = "GETTYSBURG_CACHE"
OFF = frozenset({"", "0", "off", "no", "false"})
_DIGEST = 32  # bytes of a SHA-256 digest


def cache_dir() -> Path | None:
    """Where entries live, or ``None`` when the cache is turned off."""
    setting = os.environ.get(ENV)
    if setting is not None:
        return None if setting.strip().lower() in OFF else Path(setting)
    from platformdirs import user_cache_dir  # only when no folder is given

    return Path(user_cache_dir("gettysburg")) / "data"


def key(content: bytes, parser: str) -> str:
    """The entry name of ``content`` as read by ``parser`` under this interpreter (marshal's
    format is the interpreter's own)."""
    h = hashlib.sha256(FORMAT)
    for part in (parser, sys.implementation.cache_tag or sys.version, str(marshal.version)):
        h.update(part.encode())
        h.update(b"\0")
    h.update(content)
    return h.hexdigest()


def load(path: Path, parse: Callable[[bytes], Any], parser: str) -> Any:
    """``parse(path's bytes)``, from the cache when it holds that content's entry.

    ``parser`` names the parser and anything that changes its output (a library's
    version): a new tag means new entries. Errors reading ``path`` or raised by ``parse``
    reach the caller unchanged; errors of the cache itself are never raised."""
    content = path.read_bytes()
    folder = cache_dir()
    if folder is None:
        return parse(content)
    name = key(content, parser)
    entry = folder / f"{name}.bin"
    found = read_entry(entry, name)
    if found is not None:
        return found[0]
    data = parse(content)
    write_entry(entry, name, data)
    return data


def read_entry(entry: Path, name: str) -> tuple[Any] | None:
    """``(data,)`` held by ``entry`` if it is whole and made for key ``name``; else None."""
    try:
        blob = entry.read_bytes()
    except OSError:
        return None
    head = FORMAT + name.encode()
    if not blob.startswith(head) or len(blob) < len(head) + _DIGEST:
        return None
    digest = blob[len(head):len(head) + _DIGEST]
    payload = blob[len(head) + _DIGEST:]
    if hashlib.sha256(payload).digest() != digest:
        return None
    try:
        return (marshal.loads(payload),)
    except (ValueError, EOFError, TypeError):
        return None


def write_entry(entry: Path, name: str, data: Any) -> bool:
    """Store ``data`` under key ``name``; False (and nothing written) when marshal cannot
    hold it or the folder cannot be written."""
    try:
        payload = marshal.dumps(data)
    except ValueError:
        return False
    blob = FORMAT + name.encode() + hashlib.sha256(payload).digest() + payload
    # Written beside the entry, then renamed over it: a reader sees all of it or none.
    tmp = entry.with_name(f".{entry.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(blob)
        os.replace(tmp, entry)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    return True

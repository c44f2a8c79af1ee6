"""Canonical JSON encoding and SHA-256 hashing.

Everything that is hashed (game states, actions, save-file links, dice derivations,
commit-reveal records) goes through :func:`canonical_bytes`, so two machines that agree on
the data agree on the hash. The encoding is JSON with sorted keys, no insignificant
whitespace, UTF-8, and NaN/Infinity refused. Values are checked strictly: only ``dict``
with ``str`` keys, ``list``/``tuple``, ``str``, ``int``, ``bool``, finite ``float`` and
``None`` are accepted, because ``json`` would otherwise silently turn ``{1: x}`` into
``{"1": x}`` and two different states could share one hash.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any, TypeAlias

#: A JSON value as produced by ``json.loads``. Kept as ``Any`` inside containers because
#: mypy cannot check recursive JSON shapes usefully; :func:`check_json` does it at runtime.
JSON: TypeAlias = Any
JSONDict: TypeAlias = dict[str, Any]


class CanonicalError(TypeError):
    """A value cannot be encoded canonically; the message gives its path (``$.a[2]``)."""


def check_json(value: object, path: str = "$") -> None:
    """Raise :class:`CanonicalError` unless ``value`` is plain, finite JSON data."""
    if not _plain(value):
        _explain(value, path)


_SCALARS = (str, bool, int, type(None))


def _plain(value: object) -> bool:
    """Whether ``value`` is plain, finite JSON data (fast: no paths are built; the game
    hashes its whole state after every action)."""
    if isinstance(value, _SCALARS):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    # Plain loops, not all(generator): measured 0.13 against 0.18 ms for a Day 1 state.
    if isinstance(value, list | tuple):
        for item in value:  # noqa: SIM110
            if not _plain(item):
                return False
        return True
    if isinstance(value, dict):
        for key, item in value.items():  # noqa: SIM110
            if not (isinstance(key, str) and _plain(item)):
                return False
        return True
    return False


def _explain(value: object, path: str) -> None:
    """Raise the :class:`CanonicalError` naming where ``value`` is not JSON (slow path)."""
    if value is None or isinstance(value, str | bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CanonicalError(f"{path}: non-finite float {value!r} is not JSON")
        return
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _explain(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise CanonicalError(f"{path}: key {key!r} is {type(key).__name__}, not str")
            _explain(item, f"{path}.{key}")
        return
    raise CanonicalError(f"{path}: {type(value).__name__} is not a JSON type")


def canonical_json(value: object) -> str:
    """The canonical text of ``value``: sorted keys, ``,``/``:`` separators, no whitespace."""
    check_json(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def canonical_bytes(value: object) -> bytes:
    """UTF-8 bytes of :func:`canonical_json`; this is what every hash is taken over."""
    return canonical_json(value).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    """Lower-case hex SHA-256 of bytes, or of a string's UTF-8 encoding."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def hash_json(value: object) -> str:
    """SHA-256 (hex) of the canonical encoding of ``value``."""
    return sha256_hex(canonical_bytes(value))


def json_copy(value: object) -> JSON:
    """A deep copy that has been through the canonical encoder (tuples become lists).

    Used wherever data crosses the protocol boundary so that callers can never alias
    internal state, and so that what is stored is exactly what a reload would produce.
    """
    return json.loads(canonical_json(value))


def is_sha256_hex(text: object) -> bool:
    """True for a 64-character lower-case hex string."""
    return (isinstance(text, str) and len(text) == 64
            and all(c in "0123456789abcdef" for c in text))

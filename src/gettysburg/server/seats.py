"""Seat tokens: the secret in a join link, bound to one seat of one game.

Only the SHA-256 of a token is stored, so a copy of the database does not let anyone
act for a player; the comparison is constant-time (``hmac.compare_digest``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from gettysburg.server.store import SeatRow


def new_token() -> str:
    """A fresh unguessable token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def new_game_id() -> str:
    # Game ids appear in links and need not be secret; tokens carry the authority.
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    return hashlib.sha256(("gettysburg.seat.v1:" + token).encode("utf-8")).hexdigest()


def seat_for_token(seats: Iterable[SeatRow], token: str | None) -> str | None:
    """The seat ``token`` opens, or ``None``. Every seat is compared, so the time taken
    does not depend on which seat (if any) matched."""
    if not token:
        return None
    candidate = hash_token(token)
    found: str | None = None
    for row in seats:
        if hmac.compare_digest(candidate, row.token_hash) and row.kind == "human":
            found = row.seat
    return found

"""How commands read a scenario argument: ``boc/day2``, ``day2`` or a scenario YAML path."""

from __future__ import annotations

from pathlib import Path


def scenario_spec(scenario: str) -> str:
    """``boc/day2`` as is; a bare name is a BoC one (``day2``); a YAML path (or any file
    that exists) becomes ``boc/<absolute path>``, the form ``new_game`` takes."""
    p = Path(scenario)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return f"boc/{p.resolve()}"
    return scenario if "/" in scenario else f"boc/{scenario}"

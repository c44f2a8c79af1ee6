"""Rule-system-agnostic core: hex geometry, ground model, dice, protocol, saves."""

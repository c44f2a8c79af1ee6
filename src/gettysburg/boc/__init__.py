"""Badges of Courage (Columbia Games): map, order of battle and rules."""

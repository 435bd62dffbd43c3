"""Fuzzing the human-style solver: ``hint``, ``explain`` and ``rate`` on grids, variants and pasted text."""

from tests.fuzz.targets import case

test_logic = case("logic")

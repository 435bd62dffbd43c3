"""Fuzzing the canonical forms with random 9x9 grids (valid or not, full or empty) and pasted text."""

from tests.fuzz.targets import case

test_canon = case("canon")

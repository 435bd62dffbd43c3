"""Fuzzing every endpoint of the web API with random JSON bodies, near-valid puzzles and raw bytes: never a 5xx."""

from tests.fuzz.targets import case

test_web = case("web")

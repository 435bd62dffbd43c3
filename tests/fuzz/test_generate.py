"""Fuzzing the generator with small random requests: impossible, misspelt and budget-starved ones included."""

from tests.fuzz.targets import case

test_generate = case("generate")

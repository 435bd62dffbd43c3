"""Fuzzing the engines: every compiled path against the reference engine on grids of every kind and shape from
4x4 to 12x12, classic and variant, and the public search functions."""

from tests.fuzz.targets import case

test_engines = case("engines")
test_variant_engines = case("variant engines")
test_public_search = case("public search")

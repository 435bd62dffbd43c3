"""Fuzzing the parsers: grid text in every format, JSON, pencil marks, region maps, variant names, shapes, and the
file reader on random bytes (the properties are in ``tests/fuzz/properties.py``)."""

from tests.fuzz.targets import case

test_grid_text = case("grid text")
test_json = case("json")
test_pencil_marks = case("pencil marks")
test_region_maps = case("region maps")
test_variant_names = case("variant names")
test_shape = case("shape")
test_reader = case("reader")

"""bitdoku's JSON: the setters' constraints in it."""

import pytest


def test_setters_constraints_round_trip_through_json_with_cells_by_name():
    from bitdoku import Constraint, Geometry, Grid, Shape

    shape = Shape(2, 2)
    constraints = (Constraint("thermometer", (0, 4, 8)), Constraint("xv", (1, 2), 5, negative=True),
                   Constraint("clone", (3,), None, (12,)))
    grid = Grid(bytes([0, 0, 0, 2] + [0] * 12), shape, Geometry(shape, constraints=constraints))
    text = grid.to_json()
    assert '{"kind":"thermometer","cells":["r1c1","r2c1","r3c1"]}' in text and '"negative":true' in text
    assert Grid.parse(text) == grid and Grid.parse(text).constraints == constraints


@pytest.mark.parametrize(("text", "message"), [
    ('{"constraints": {"kind": "odd"}}', '"constraints" is a list'),
    ('{"constraints": [{"kind": "odd", "cells": ["r1c1"], "colour": "red"}]}', "constraint 1: unknown field 'colour'"),
    ('{"constraints": [{"kind": "xv", "cells": ["r1c1", "r1c2"], "value": "X"}]}', "its value 'X' is not a whole"),
    ('{"constraints": [{"kind": "odd", "cells": "r1c1"}]}', "constraint 1: cells are a list of names"),
    ('{"constraints": [{"kind": "zipper", "cells": ["r1c1"]}]}', "uses 'zipper', which bitdoku does not support"),
])
def test_bad_constraints_in_json_are_refused_by_entry(text, message):
    from bitdoku import Grid, ParseError

    with pytest.raises(ParseError, match=message):
        Grid.parse(text)

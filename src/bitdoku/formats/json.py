"""A puzzle as JSON: ``{"shape": "3x3", "cells": [[8, 0, ...], ...]}``, one list a row, 0 for a blank.

A variant adds its name and, for a jigsaw, its region map as one string of N*N symbols:
``{"shape": "3x3", "variant": "jigsaw", "regions": "AAABBBCCC...", "cells": [...]}``; a Killer its cages, each a
sum (optional) and the names of its cells: ``{"shape": "3x3", "variant": "killer", "cages": [{"sum": 23, "cells":
["r1c1", "r1c2", "r2c1"]}, ...], "cells": [...]}`` (``cells`` may be left out when nothing is given). The setters'
constraints (``constraints.variant``) are a list ``"constraints"``, each its kind and cells by name and, where it
has them, its value, a clone's ``others`` and ``negative``: ``{"kind": "thermometer", "cells": ["r1c1", "r2c1",
"r3c1"]}``, ``{"kind": "xv", "cells": ["r1c2", "r1c3"], "value": 5}``.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from bitdoku.constraints.cages import Cage
from bitdoku.constraints.variant import Constraint, check_constraints
from bitdoku.errors import ParseError, cell_name
from bitdoku.formats.killer import cage_cell_index, cage_records, cages_from_records
from bitdoku.formats.line import _shape_for
from bitdoku.formats.tokens import token_value
from bitdoku.shape import Shape


def format_json(cells: list[int] | bytes, shape: Shape, variant: str | None = None,
                regions: str | None = None, cages: tuple[Cage, ...] = (),
                constraints: tuple[Constraint, ...] = ()) -> str:
    """Write the shape, the variant (when there is one), a Killer's cages and the rows of cells as one line of
    JSON."""
    n = shape.n
    rows = [list(cells[row * n : (row + 1) * n]) for row in range(n)]
    record: dict[str, object] = {"shape": str(shape)}
    if variant is not None:
        record["variant"] = variant
    if regions is not None:
        record["regions"] = regions
    if cages:
        record["cages"] = cage_records(cages, n)
    if constraints:
        record["constraints"] = [constraint_record(constraint, n) for constraint in constraints]
    record["cells"] = rows
    return json.dumps(record, separators=(",", ":"))


class ParsedJson(NamedTuple):
    """What a JSON puzzle holds: its cells and shape, and the variant name, region map and cages when given."""

    cells: list[int]
    shape: Shape
    variant: str | None
    regions: str | None
    cages: tuple[Cage, ...] | None
    constraints: tuple[Constraint, ...] | None = None


def constraint_record(constraint: Constraint, n: int) -> dict[str, object]:
    """One constraint as JSON: its kind, its cells by name and what else it has."""
    record: dict[str, object] = {"kind": constraint.kind, "cells": [cell_name(cell, n) for cell in constraint.cells]}
    if constraint.value is not None:
        record["value"] = constraint.value
    if constraint.others:
        record["others"] = [cell_name(cell, n) for cell in constraint.others]
    if constraint.negative:
        record["negative"] = True
    return record


def constraints_from_records(records: object, shape: Shape) -> tuple[Constraint, ...]:
    """The ``constraints`` list read and checked (``check_constraints``); errors name the entry."""
    if not isinstance(records, list):
        raise ParseError('"constraints" is a list like [{"kind": "thermometer", "cells": ["r1c1", "r2c1"]}]')
    found = []
    for index, record in enumerate(records, start=1):
        where = f"constraint {index}"
        if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
            raise ParseError(f'{where}: expected {{"kind": "thermometer", "cells": ["r1c1", ...]}}, '
                             f"found {record!r:.60}")
        unknown = sorted(set(record) - {"kind", "cells", "value", "others", "negative"})
        if unknown:
            raise ParseError(f"{where}: unknown field {unknown[0]!r}")
        value = record.get("value")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ParseError(f"{where}: its value {value!r} is not a whole number")
        found.append(Constraint(record["kind"], _named_cells(record.get("cells"), shape, where), value,
                                _named_cells(record.get("others") or [], shape, where),
                                record.get("negative") is True))
    constraints = tuple(found)
    check_constraints(constraints, shape.n)
    return constraints


def _named_cells(names: object, shape: Shape, where: str) -> tuple[int, ...]:
    if not isinstance(names, list):
        raise ParseError(f'{where}: cells are a list of names like ["r1c1", "r1c2"], not {names!r:.60}')
    return tuple(cage_cell_index(name, shape, where) for name in names)


def parse_json(text: str, shape: Shape | None = None) -> ParsedJson:
    """Read the JSON written by ``format_json`` (``cells`` may also be one flat list, ``shape`` is optional; a
    Killer without givens may leave ``cells`` out)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(f"not valid JSON: {error.msg}", line=error.lineno, column=error.colno) from None
    if isinstance(data, dict) and ("cages" in data or "constraints" in data) and data.get("cells") is None:
        data["cells"] = [0] * (Shape.parse(shape or data.get("shape") or "3x3")).n_cells
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise ParseError('a JSON puzzle is an object with a "cells" list, like {"shape": "3x3", "cells": [[...]]}')
    if data.get("shape") is not None:
        shape = Shape.parse(data["shape"]) if shape is None else shape
    rows = data["cells"]
    if rows and isinstance(rows[0], list) and not all(isinstance(row, list) for row in rows):
        raise ParseError('"cells" is a list of rows, each a list of cells, or one flat list of cells')
    flat = [v for row in rows for v in row] if rows and isinstance(rows[0], list) else rows
    shape = _shape_for(len(flat), shape)
    values = []
    for index, value in enumerate(flat):
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ParseError(f"unexpected cell {value!r}; cells are integers 0-{shape.n}")
        values.append(token_value(str(value), index=index, n=shape.n, column=None))
    variant, regions = data.get("variant"), data.get("regions")
    for key, value in (("variant", variant), ("regions", regions)):
        if value is not None and not isinstance(value, str):
            raise ParseError(f'"{key}" must be a string, not {type(value).__name__}')
    cages = cages_from_records(data["cages"], shape) if "cages" in data else None
    if cages is not None and variant is None:
        variant = "killer"
    constraints = constraints_from_records(data["constraints"], shape) if "constraints" in data else None
    if constraints is not None and (variant is None or "constraints" not in variant.split("+")):
        variant = "+".join(word for word in ["constraints", *(variant or "").split("+")] if word)
    return ParsedJson(values, shape, variant, regions, cages, constraints)

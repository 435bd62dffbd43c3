"""f-puzzles links: a puzzle as lz-string Base64 of f-puzzles' JSON, read with its rules and written back.

f-puzzles (https://f-puzzles.com) shares a puzzle as ``https://f-puzzles.com/?load=<data>``, where ``<data>`` is
``LZString.compressToBase64(JSON.stringify(puzzle))`` (lz-string, https://github.com/pieroxy/lz-string; the data
of compact JSON, which begins ``{"``, always begins ``N4Ig``). SudokuPad (https://sudokupad.app, also
app.crackingthecryptic.com) opens the same data behind the prefix ``fpuzzles`` or ``fpuz``:
``https://sudokupad.app/fpuzzles<data>`` or ``...?puzzleid=fpuzzles<data>``. The JSON is an object:

* ``size``: N, the grid is N x N. The boxes are f-puzzles' own: the tallest box height h <= sqrt(N) that divides
  N, with N / h columns (6: 2x3, 8: 2x4, 10: 2x5, 12: 3x4, 14: 2x7, 15: 3x5, 16: 4x4); a prime N gets 1 x N
  "boxes", which bitdoku cannot do, so 5x5, 7x7, 11x11 and 13x13 are refused, irregular or not.
* ``grid``: N rows of N cells, each an object: ``{"value": 5, "given": true}`` for a given (a value without
  ``given`` is a solver's entry, not part of the puzzle), ``"region": k`` (0-based) for a cell moved out of its
  box (irregular regions; f-puzzles numbers the default boxes left to right, top to bottom, as ``Shape.box_of``
  does), ``"region": null`` for a cell in no region; pencil marks and solver's colours (``highlight``).
* rules: ``"diagonal+"`` (bottom left to top right) and ``"diagonal-"``, ``antiknight``, ``antiking``,
  ``nonconsecutive``, ``disjointgroups`` as booleans; ``killercage``, ``thermometer``, ``arrow``, ``xv``,
  ``ratio``, ``difference``, ``littlekillersum``, ... as lists, a Killer cage as ``{"cells": ["R1C1", "R1C2"],
  "value": "15"}`` (``value`` a string, missing or empty for a cage without a sum); ``negative`` lists the dot
  and XV rules whose absence also says something.
* drawings: ``cage`` (a cosmetic cage, or one that carries metadata such as ``"title: ..."`` with no cells),
  ``text``, ``line``, ``rectangle``, ``circle``, and ``c`` colours in cells; an entry with ``fromConstraint`` is
  drawn for another rule (whose own key is judged).
* metadata: ``title``, ``author``, ``ruleset``, ``solution`` and f-puzzles' settings (``highlightConflicts``,
  ``disabledlogic``, ``truecandidatesoptions``).

bitdoku reads the givens, the box shape, irregular regions (variant ``jigsaw`` with a region map), Killer cages
(``killer``), both diagonals (``x``), ``antiknight``, ``antiking`` and ``nonconsecutive``. Any other rule, one
diagonal alone, a drawing (whose meaning only the rules text gives) and given pencil marks are refused by name,
never solved as if absent; keys that are false, empty or empty lists count as absent. A Killer with other rules
is refused for now (by ``Geometry``, and here with irregular regions). ``format_fpuzzles`` writes the fields
f-puzzles writes (``size``, ``grid`` with ``value``/``given``/``region``, the rule flags, ``killercage`` with
``R1C1`` cells and string values), so f-puzzles and SudokuPad open the link it returns.

The format was learnt from public readers of it, not from f-puzzles' own code: SudokuPad's decoder by Sven
Neumann (box shapes, regions, metadata cages, prefixes; as mirrored in
https://github.com/marktekfan/sudokupad-penpa-import/blob/main/src/sudokupad/fpuzzlesdecoder.js and
``puzzleloader.js``), David Clamage's solvers (field names and types:
https://github.com/dclamage/SudokuSolver/blob/master/SudokuSolver/PuzzleFormats/FPuzzlesBoard.cs and
https://github.com/dclamage/SudokuSolverRust, ``standard-constraints/src/fpuzzles_parser``), and the links they
test with.

>>> link = format_fpuzzles(bytes([1, 0, 0, 0] + [0] * 12), Shape(2, 2), rules={"x"})
>>> link[:36]
'https://f-puzzles.com/?load=N4Igzglg'
>>> puzzle = parse_fpuzzles(link)
>>> puzzle.shape, puzzle.variant, list(puzzle.cells[:4])
(Shape(2, 2), 'x', [1, 0, 0, 0])
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection
from typing import NamedTuple
from urllib.parse import unquote

from bitdoku.constraints.cages import Cage, check_cages
from bitdoku.constraints.variant import Constraint
from bitdoku.errors import ParseError, cell_name
from bitdoku.formats import fpuzzles_constraints
from bitdoku.formats.killer import cage_cell_index
from bitdoku.geometry import CONSTRAINTS, JIGSAW, KILLER, RULES, Geometry
from bitdoku.shape import MAX_DIGITS, Shape

#: The start of the link ``format_fpuzzles`` writes; the lz-string data follows it.
FPUZZLES_LINK = "https://f-puzzles.com/?load="
#: The longest data read (16 KiB): about six times the largest published link seen, and a bound on the text a
#: short link can expand to (lz-string can grow a few kilobytes into tens of megabytes).
MAX_DATA_CHARS = 16_384

#: f-puzzles' rule flags that bitdoku has, as bitdoku's rule names (the two diagonals together make ``x``).
_FLAGS = {"antiknight": "anti-knight", "antiking": "anti-king", "nonconsecutive": "nonconsecutive"}
_DIAGONALS = ("diagonal+", "diagonal-")
#: Keys that hold no rule: the puzzle's name and text, its solution, f-puzzles' settings.
_METADATA = frozenset({"title", "author", "ruleset", "solution", "highlightConflicts", "disabledlogic",
                       "truecandidatesoptions", "successMessage"})
#: Drawings: refused unless every entry is metadata or drawn for another rule (``fromConstraint``).
_DRAWINGS = frozenset({"cage", "text", "line", "rectangle", "circle"})
#: Cell keys that say nothing about the puzzle: a solver's marks and colours.
_CELL_NOTES = frozenset({"centerPencilMarks", "cornerPencilMarks", "highlight", "highlightArray"})
#: A metadata cage's value, as SudokuPad reads one: ``title: ...``, ``msgcorrect: ...``.
_META_VALUE = re.compile(r"^[^: ]+:\s*\S")
_TRANSPARENT = re.compile(r"#(?:[0-9a-f]{3}0|[0-9a-f]{6}00)", re.IGNORECASE)

_BASE64 = re.compile(r"[A-Za-z0-9+/=]+")
_FPUZZLES_HOST = re.compile(r"^(?:https?://)?(?:www\.)?f-puzzles\.com\b", re.IGNORECASE)
_LOAD = re.compile(r"(?:^|[?&])load=([^&#]*)")  # spaces kept: a "+" that a copy turned into one
_SUDOKUPAD_HOST = re.compile(r"^(?:https?://)?[\w.-]*(?:sudokupad|crackingthecryptic|svencodes)[\w.-]*/",
                             re.IGNORECASE)
_SUDOKUPAD_DATA = re.compile(r"[/=]fpuz(?:zles)?([^?&#]+)")
_REGION_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


class FPuzzle(NamedTuple):
    """What an f-puzzles link holds that bitdoku can solve: the givens, the shape, the variant name (``None`` for
    classic), a Killer's cages, a jigsaw's region map (one symbol a cell, ``None`` for boxes) and the setters'
    constraints (``formats/fpuzzles_constraints.py``; ``None`` for none)."""

    cells: bytes
    shape: Shape
    variant: str | None
    cages: tuple[Cage, ...] | None
    regions: str | None
    constraints: tuple[Constraint, ...] | None = None


def is_fpuzzles(text: str) -> bool:
    """Whether ``text`` is f-puzzles data: an f-puzzles link, a ``load=...`` string, a SudokuPad link carrying
    ``fpuzzles`` data, or bare lz-string Base64 that decodes to f-puzzles' JSON (tried only on text that starts
    as the data of compact JSON always does, ``N4Ig``, so that puzzle lines cost no decoding)."""
    text = text.strip()
    if _FPUZZLES_HOST.match(text) or text.startswith("load="):
        return True
    if _SUDOKUPAD_HOST.match(text) and _SUDOKUPAD_DATA.search(text):
        return True
    if not (text.startswith("N4Ig") and _BASE64.fullmatch(text) and len(text) <= MAX_DATA_CHARS):
        return False
    try:
        data = json.loads(_decompress(text) or "null")
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "size" in data and "grid" in data


def fpuzzles_json(text: str) -> dict[str, object]:
    """The f-puzzles JSON object of a link (any form ``is_fpuzzles`` accepts), every key kept: its title, author,
    rules text and solution too. ``ParseError`` for data that does not decode to a JSON object."""
    return _decode(_data_of(text))


def parse_fpuzzles(text: str, shape: Shape | None = None, variant: str | Geometry | None = None) -> FPuzzle:
    """Read f-puzzles data (any form ``is_fpuzzles`` accepts): the givens, the shape and the rules.

    ``shape`` and ``variant``, when given, must agree with the data (``Grid.parse`` passes its arguments).

    Raises ``ParseError`` for data that does not decode or is not f-puzzles' JSON, a size bitdoku cannot do, a
    digit or cell out of range, and any rule bitdoku does not support, named: ``this puzzle uses
    'thermometer', which bitdoku does not support yet``; cages that no digits fill are refused by
    ``check_cages``.
    """
    data = fpuzzles_json(text)
    _refuse_unsupported(data)
    found = _shape(data.get("size"))
    cells, region_of = _read_grid(data.get("grid"), found)
    rules = _rules(data)
    cages = _read_cages(data.get("killercage"), found) if data.get("killercage") else None
    if cages is not None:
        check_cages(found, cages, cells)
    single = next((key for key in _DIAGONALS if data.get(key)), None) if "x" not in rules else None
    constraints = fpuzzles_constraints.read_constraints(data, found, single) or None
    regions = _region_map(region_of, found)
    if (cages is not None or constraints is not None) and regions is not None:
        what = "killer cages go on a classic grid" if constraints is None else \
            "setters' constraints go on a grid of boxes"  # Geometry.parse would refuse them too
        raise ParseError(f"{what} for now, not with {JIGSAW!r}")
    words = [JIGSAW] * (regions is not None) + [KILLER] * (cages is not None)
    words += [CONSTRAINTS] * (constraints is not None) + [r for r in RULES if r in rules]
    puzzle = FPuzzle(cells, found, "+".join(words) or None, cages, regions, constraints)
    _check_agrees(puzzle, shape, variant)
    return puzzle


def format_fpuzzles(cells: bytes, shape: Shape, rules: Collection[str] = (), cages: tuple[Cage, ...] = (),
                    regions: str | None = None, constraints: tuple[Constraint, ...] = ()) -> str:
    """The f-puzzles link of a puzzle: its givens, bitdoku rule names (``x``, ``anti-knight``, ``anti-king``,
    ``nonconsecutive``), Killer cages and a jigsaw's region map, as f-puzzles writes them.

    Raises ``ValueError`` for what f-puzzles cannot hold: boxes other than its own for the size (3x2 boxes on a
    6x6 grid, say) and ``windoku``.
    """
    if _box_shape(shape.n) != shape:
        raise ValueError(f"f-puzzles gives a {shape.size_name} grid {_box_shape(shape.n)} boxes, not {shape}; "
                         "write the grid as a jigsaw to keep its boxes")
    unknown = sorted(set(rules) - {"x", *_FLAGS.values()})
    if unknown:
        raise ValueError(f"f-puzzles has no {unknown[0]!r} rule that bitdoku can write")
    record: dict[str, object] = {"size": shape.n, "grid": _grid_records(cells, shape, regions)}
    if "x" in rules:
        record.update(dict.fromkeys(_DIAGONALS, True))
    record.update({key: True for key, rule in _FLAGS.items() if rule in rules})
    if cages:
        record["killercage"] = [{"cells": [cell_name(cell, shape.n).upper() for cell in cage.cells],
                                 **({"value": str(cage.total)} if cage.total is not None else {})}
                                for cage in cages]
    record.update(fpuzzles_constraints.write_constraints(constraints, shape.n))
    return FPUZZLES_LINK + _compress(json.dumps(record, separators=(",", ":")))


# -- reading ------------------------------------------------------------------------------------------------


def _data_of(text: str) -> str:
    """The lz-string Base64 inside a link (percent-escapes undone; a ``+`` that became a space put back)."""
    text = text.strip()
    if _FPUZZLES_HOST.match(text) or text.startswith("load="):
        found = _LOAD.search(text.partition("?")[2] or text)
        if found is None:
            short = " (a short link names a puzzle stored online: open it and copy its ?load= link)" \
                if "id=" in text else ""
            raise ParseError(f"an f-puzzles link carries its puzzle after 'load='; this one has none{short}")
        text = found[1]
    elif _SUDOKUPAD_HOST.match(text):
        found = _SUDOKUPAD_DATA.search(text)
        text = found[1] if found else ""
    data = unquote(text).strip().replace(" ", "+")
    if not data:
        raise ParseError("the f-puzzles link holds no data")
    if len(data) > MAX_DATA_CHARS:
        raise ParseError(f"the f-puzzles data is {len(data):,} characters long; bitdoku reads at most "
                         f"{MAX_DATA_CHARS:,}")
    bad = re.search(r"[^A-Za-z0-9+/=]", data)
    if bad:
        raise ParseError(f"the f-puzzles data is not Base64: unexpected character {bad[0]!r}", column=bad.start() + 1)
    return data


def _decode(data: str) -> dict[str, object]:
    """The JSON object of lz-string Base64 data."""
    text = _decompress(data)
    if not text:
        raise ParseError("the f-puzzles data does not decode (lz-string Base64); the link may be cut short")
    try:
        puzzle = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ParseError(f"the f-puzzles data decodes to text that is not JSON ({error})") from None
    if not isinstance(puzzle, dict):
        raise ParseError(f"the f-puzzles data is JSON but not a puzzle: expected an object with \"size\" and "
                         f"\"grid\", found {type(puzzle).__name__}")
    return puzzle


def _refuse_unsupported(data: dict[str, object]) -> None:
    """Raise naming every rule or drawing the puzzle uses that bitdoku cannot solve with (present: not false,
    empty or an empty list)."""
    known = {"size", "grid", "killercage", *_DIAGONALS, *_FLAGS} | _METADATA | fpuzzles_constraints.KEYS
    used = [key for key, value in data.items() if value and key not in known
            and not (key in _DRAWINGS and _only_notes(value))]
    if used:
        names = ", ".join(repr(key) for key in used[:-1]) + " and " * (len(used) > 1) + repr(used[-1])
        raise ParseError(f"this puzzle uses {names}, which bitdoku does not support yet")


def _only_notes(entries: object) -> bool:
    """Whether every entry of a drawing list is drawn for another rule or is metadata, as SudokuPad tells it: a
    value ``name: text`` on no cells or in transparent colours."""
    return isinstance(entries, list) and all(isinstance(entry, dict) and _is_note(entry) for entry in entries)


def _is_note(entry: dict[str, object]) -> bool:
    if entry.get("fromConstraint"):
        return True
    unseen = all(_TRANSPARENT.fullmatch(str(entry.get(key) or "#0000")) for key in ("outlineC", "fontC"))
    return bool(_META_VALUE.match(str(entry.get("value") or ""))) and (not entry.get("cells") or unseen)


def _box_shape(size: int) -> Shape | None:
    """f-puzzles' boxes for a size: the tallest height up to sqrt(size) that divides it; None for 1 x N."""
    height = math.isqrt(size)
    while height > 1 and size % height:
        height -= 1
    try:
        return Shape(height, size // height)
    except ValueError:  # ShapeError: 1 x N, or more digits than bitdoku has
        return None


def _shape(size: object) -> Shape:
    """The box shape of the data's size, or why bitdoku cannot solve that size."""
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ParseError(f'"size" is the number of rows (4 to 16 in f-puzzles), not {size!r}')
    if size > MAX_DIGITS:
        raise ParseError(f"a {size}x{size} grid is larger than bitdoku's largest, {MAX_DIGITS}x{MAX_DIGITS}")
    shape = _box_shape(size)
    if shape is None:
        raise ParseError(f"a {size}x{size} grid has no boxes of 2x2 cells or more (f-puzzles draws 1x{size}), "
                         "which bitdoku does not support")
    return shape


def _read_grid(rows: object, shape: Shape) -> tuple[bytes, list[int]]:
    """The givens and the region of each cell (its box unless it says otherwise)."""
    n = shape.n
    if not isinstance(rows, list) or len(rows) != n or not all(isinstance(row, list) for row in rows):
        found = f"{len(rows)} rows" if isinstance(rows, list) else type(rows).__name__
        raise ParseError(f'"grid" is a list of {n} rows of {n} cells for a size {n} puzzle, found {found}')
    cells = bytearray(shape.n_cells)
    region_of = []
    for row, cells_of_row in enumerate(rows):
        if len(cells_of_row) != n:
            raise ParseError(f"row {row + 1} of the grid has {len(cells_of_row)} cells, not {n}")
        for col, record in enumerate(cells_of_row):
            cell = row * n + col
            cells[cell] = _given(record, cell, n)
            region_of.append(_region(record, cell, shape))
    return bytes(cells), region_of


def _given(record: object, cell: int, n: int) -> int:
    """A cell's given digit (0 if none); other cell keys that restrict digits are refused."""
    if not isinstance(record, dict):
        raise ParseError(f"a cell of the grid is an object like {{\"value\": 5, \"given\": true}}, not {record!r}",
                         cell=cell_name(cell, n))
    for key, value in record.items():
        if value and key not in {"value", "given", "region"} | _CELL_NOTES:
            raise ParseError(f"this puzzle uses {key!r}, which bitdoku does not support yet", cell=cell_name(cell, n))
    if not record.get("given"):
        return 0  # a value without "given" is a solver's entry, not part of the puzzle
    value = record.get("value")
    digit = int(value) if isinstance(value, str) and value.isdecimal() else value
    if not isinstance(digit, int) or isinstance(digit, bool) or not 1 <= digit <= n:
        raise ParseError(f"digit {value!r} is out of range for a {n}x{n} grid; digits are 1-{n}",
                         cell=cell_name(cell, n))
    return digit


def _region(record: dict[str, object], cell: int, shape: Shape) -> int:
    row, col = divmod(cell, shape.n)
    if "region" not in record:
        return shape.box_of(row, col)
    region = record["region"]
    if region is None:
        raise ParseError("this cell is in no region, which bitdoku does not support yet",
                         cell=cell_name(cell, shape.n))
    if not isinstance(region, int) or isinstance(region, bool) or not 0 <= region < shape.n:
        raise ParseError(f"region {region!r} is out of range; regions are 0-{shape.n - 1}",
                         cell=cell_name(cell, shape.n))
    return region


def _region_map(region_of: list[int], shape: Shape) -> str | None:
    """The region map of irregular regions (each N cells), lettered A, B, ... in the reading order of their first
    cells; None when they are the boxes."""
    boxes = [shape.box_of(*divmod(cell, shape.n)) for cell in range(shape.n_cells)]
    if region_of == boxes:
        return None
    for region in range(shape.n):
        size = region_of.count(region)
        if size != shape.n:
            raise ParseError(f"region {region} has {size} cells; the regions of a {shape.size_name} grid have "
                             f"{shape.n} each")
    letters: dict[int, str] = {}
    for region in region_of:
        letters.setdefault(region, _REGION_SYMBOLS[len(letters)])
    return "".join(letters[region] for region in region_of)


def _rules(data: dict[str, object]) -> set[str]:
    """bitdoku's names of the rule flags the data sets."""
    rules = {rule for key, rule in _FLAGS.items() if data.get(key)}
    if fpuzzles_constraints.white_dots_negative(data):
        rules.discard("nonconsecutive")  # the white dots' negative constraint, read with them
    return rules | {"x"} if data.get("diagonal+") and data.get("diagonal-") else rules


def _read_cages(records: object, shape: Shape) -> tuple[Cage, ...]:
    """The ``killercage`` list as cages in the reading order of their first cells (not yet checked)."""
    if not isinstance(records, list):
        raise ParseError('"killercage" is a list like [{"cells": ["R1C1", "R1C2"], "value": "15"}]')
    cages = []
    for index, record in enumerate(records):
        name = f"killer cage {index + 1}"
        if not isinstance(record, dict) or not isinstance(record.get("cells"), list) or not record["cells"]:
            raise ParseError(f'{name}: expected {{"cells": ["R1C1", ...], "value": "15"}}, found {record!r}')
        cells = tuple(sorted(cage_cell_index(text, shape, name, "R1C1") for text in record["cells"]))
        cages.append(Cage(cells, _total(record.get("value"), name)))
    cages.sort(key=lambda cage: cage.cells[0])
    return tuple(cages)


def _total(value: object, where: str) -> int | None:
    """A cage's sum: f-puzzles writes a string, or nothing (or an empty one) for a cage without a sum."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value)
    raise ParseError(f"{where}: its sum {value!r} is not a number")


def _check_agrees(puzzle: FPuzzle, shape: Shape | None, variant: str | Geometry | None) -> None:
    """Refuse a shape or variant asked for that the data does not have."""
    if shape is not None and shape != puzzle.shape:
        raise ParseError(f"the f-puzzles data is a {puzzle.shape.size_name} grid of {puzzle.shape} boxes, "
                         f"not {shape}")
    if variant is None:
        return
    asked = variant.name if isinstance(variant, Geometry) else variant
    words = {word.strip().lower() for word in asked.split("+")} - {"classic"}
    if words != set((puzzle.variant or "").split("+")) - {""}:
        raise ParseError(f"the f-puzzles data is a {puzzle.variant or 'classic'} puzzle, not {asked!r}")


# -- writing ------------------------------------------------------------------------------------------------


def _grid_records(cells: bytes, shape: Shape, regions: str | None) -> list[list[dict[str, object]]]:
    """The ``grid`` rows: a given as ``value`` and ``given``, ``region`` where a jigsaw's region is not the box
    f-puzzles would put the cell in (regions numbered in the order the map first names them)."""
    n = shape.n
    region_of = None
    if regions is not None:
        geometry = Geometry.jigsaw(regions, shape)
        region_of = geometry.regions
    rows = []
    for row in range(n):
        records: list[dict[str, object]] = []
        for col in range(n):
            cell = row * n + col
            record: dict[str, object] = {"value": cells[cell], "given": True} if cells[cell] else {}
            if region_of is not None and region_of[cell] != shape.box_of(row, col):
                record["region"] = region_of[cell]
            records.append(record)
        rows.append(records)
    return rows


# -- lz-string ----------------------------------------------------------------------------------------------


def _compress(text: str) -> str:
    """lz-string's ``compressToBase64`` (the text is ASCII: ``json.dumps`` escapes the rest)."""
    from lzstring import LZString  # type: ignore[import-untyped, unused-ignore]  # lazy: its imports take ~25 ms

    compressed: object = LZString().compressToBase64(text)
    if not isinstance(compressed, str):
        raise TypeError(f"lzstring returned {type(compressed).__name__}, not text")
    return compressed


def _decompress(data: str) -> str | None:
    """lz-string's ``decompressFromBase64``, None for data that does not decode. The package works on Python
    characters where JavaScript has UTF-16 code units, so a character beyond U+FFFF (an emoji in a title) comes
    out as its two surrogates, joined again here."""
    from lzstring import LZString  # type: ignore[import-untyped, unused-ignore]

    try:
        text: object = LZString().decompressFromBase64(data)
    except Exception:  # on bad data lzstring 1.0.4 raises KeyError, IndexError or UnboundLocalError
        return None
    if not isinstance(text, str):
        return None
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


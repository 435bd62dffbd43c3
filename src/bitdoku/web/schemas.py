"""The JSON of the web API: pydantic models that mirror the library's types.

Cells are 0-based indices in row-major order (the page draws them), each with its human name (``r4c7``) where a
person reads it. A puzzle travels as text in any format ``Grid.parse`` reads; the page sends the one-line format
with ``.`` for an empty cell and the shape, so ``"3x2"`` and ``"2x3"`` are never confused.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

PUZZLE_CHARS = 20_000  # a 64x64 grid in integer rows fits; anything longer is refused before parsing
REGIONS_CHARS = 8_192  # a 64x64 region map, with room for line breaks
MAX_CAGES = 1_024  # more than a 25x25 grid has cells (the 64 KB body cap would stop many more anyway)
CAGE_CELLS = 64  # a cage holds at most N different digits
MAX_SUM = 64 * 65 // 2  # 1 + 2 + ... + 64
LINK_CHARS = 16_384  # an f-puzzles link of a 9x9 Killer is a few kilobytes (its JSON, compressed, in base64)


class Strict(BaseModel):
    """A request body: a field this API does not know is refused (422 naming it), so a typo such as ``shap``
    is heard about instead of silently ignored."""

    model_config = ConfigDict(extra="forbid")


class CageIn(Strict):
    """A Killer cage: its cells by name (``"r1c1"``) and its sum (none: its digits need only differ)."""

    sum: int | None = Field(default=None, ge=1, le=MAX_SUM, examples=[15])
    cells: list[str] = Field(min_length=1, max_length=CAGE_CELLS, examples=[["r1c1", "r1c2"]])


class PuzzleIn(Strict):
    """A puzzle and, when its cell count does not say it, its box shape (``"2x3"``); for a variant, its name
    (``"x"``, ``"windoku+anti-king"``: ``bitdoku.geometry``) and for a jigsaw its region map (N*N letters or
    digits, N cells each). Without ``variant``, a ``regions`` map means a jigsaw, and ``cages`` a Killer (each
    cage's cells by name and its sum; ``variant="killer"`` with no cages is a Killer not drawn yet)."""

    puzzle: str = Field(max_length=PUZZLE_CHARS, examples=["8..........36......7..9.2...5...7.......457.....1...3..."
                                                            "1....68..85...1..9....4.."])
    shape: str | None = Field(default=None, max_length=8, examples=["3x3"])
    variant: str | None = Field(default=None, max_length=80, pattern=r"^[A-Za-z+\- ]+$", examples=["x"])
    regions: str | None = Field(default=None, max_length=REGIONS_CHARS,
                                examples=["AAABBBCCCAABBBCCCAABBBCCCAADDDEEEFFFDDEEEFFFDDEEEFFFDDGGGHHHIIIGGHHHIIIGG"
                                          "HHHIIIGGHHHIIIGG"])
    cages: list[CageIn] | None = Field(default=None, max_length=MAX_CAGES)


class LinkIn(Strict):
    """A puzzle link to read: f-puzzles (``https://f-puzzles.com/?load=...``) or SudokuPad."""

    link: str = Field(min_length=1, max_length=LINK_CHARS, examples=["https://f-puzzles.com/?load=N4Ig..."])


class CountIn(PuzzleIn):
    limit: int = Field(default=2, ge=1, le=1000, description="Stop counting at this many solutions.")


class ExplainIn(PuzzleIn):
    guess: bool = Field(default=True, description="Go on past a stall by placing the solution's digit.")


class GenerateIn(Strict):
    """What to make: a box shape, rules (``variant``, a jigsaw's ``regions`` map, as for ``PuzzleIn``; for
    ``"killer"`` a cage layout proven unique, without symmetry or minimality) and the generator's options."""

    shape: str = Field(default="3x3", max_length=8)
    variant: str | None = Field(default=None, max_length=80, pattern=r"^[A-Za-z+\- ]+$", examples=["x"])
    regions: str | None = Field(default=None, max_length=REGIONS_CHARS)
    difficulty: str | None = Field(default=None, max_length=20, examples=["hard"])
    symmetry: str = Field(default="none", max_length=20, examples=["rotational"])
    minimal: bool = False
    seed: int | None = Field(default=None, ge=0, lt=2**63)


class ConflictOut(BaseModel):
    """The same digit twice in a unit."""

    digit: int
    unit: str
    cells: list[int]
    names: list[str]


class CountOut(BaseModel):
    """The live verdict: ``status`` is unique, multiple, no-solution, invalid or limit (budget spent);
    ``values`` is the grid as the server read it (the one-line format)."""

    status: str
    values: str
    count: int
    nodes: int
    seconds: float
    conflicts: list[ConflictOut]
    reason: str | None


class SolveOut(CountOut):
    solution: str | None
    guesses: int
    backtracks: int


class CageOut(BaseModel):
    """A Killer cage as the server read it: its sum (None: none) and its cells by name, in reading order."""

    sum: int | None
    cells: list[str]


class CandidatesOut(BaseModel):
    """The candidates of each cell (an empty list for a filled cell), from the givens alone, and the grid as the
    server read it (``values``, the one-line format: how the page loads pasted text in any format), with its
    variant, a jigsaw's region map and a Killer's cages (pasted JSON may name them)."""

    shape: str
    values: str
    variant: str = "classic"
    regions: str | None = None
    cages: list[CageOut] | None = None
    candidates: list[list[int]]
    conflicts: list[ConflictOut]


class TrueCandidatesOut(BaseModel):
    """For each cell the digits it holds in at least one solution (a given's is its digit; none anywhere when
    there is no solution). ``complete`` is false when the time or node budget left some digits undecided
    (``undecided``: how many; those digits are left out)."""

    candidates: list[list[int]]
    complete: bool
    undecided: int
    seconds: float


class LinkOut(BaseModel):
    """A link that opens the puzzle elsewhere (f-puzzles)."""

    link: str


class ChangeOut(BaseModel):
    cell: int
    name: str
    digit: int


class StepOut(BaseModel):
    """One step of a human-style solve: what it places and removes, where it looked, and its sentence."""

    technique: str
    text: str
    placements: list[ChangeOut]
    eliminations: list[ChangeOut]
    cells: list[int]
    units: list[str]


class HintOut(BaseModel):
    step: StepOut | None
    solved: bool


class StateOut(BaseModel):
    """A grid's values (the one-line format) and each cell's candidates: where a replay starts."""

    values: str
    candidates: list[list[int]]


class ExplainOut(BaseModel):
    """The steps in order; replay them from ``start`` (a placement also removes its digit from the peers).
    ``truncated`` when the time or step budget ended the list early."""

    start: StateOut
    steps: list[StepOut]
    solved: bool
    truncated: bool


class RateOut(BaseModel):
    score: float
    level: str
    hardest: str
    counts: dict[str, int]
    steps: int


class GenerateOut(BaseModel):
    """A new puzzle, its solution and how it was made; a Killer's ``cages`` too (its level is the one asked for,
    it has no rating)."""

    puzzle: str
    solution: str
    shape: str
    clues: int
    symmetry: str
    minimal: bool | None
    rating: float | None
    level: str | None
    hardest: str | None
    seconds: float
    seed: int
    variant: str = "classic"
    regions: str | None = None
    cages: list[CageOut] | None = None


class PhotoOut(BaseModel):
    """A Sudoku read from a photo (``POST /api/photo``): ``puzzle`` in the one-line format of its ``shape``
    (``size`` digits a side), the solver's verdict on it (``status``: unique when the reading, corrected if need
    be, has one solution), each cell's ``confidence`` (0-1, row-major), the ``doubtful`` cells a person should
    check (read with less than 90 % confidence, or corrected) and the ``corrected`` ones (the solver changed
    the reader's first guess, ``as_read``), with their names; ``corners``: the grid's corners in the image's
    pixels, its top-left first, then clockwise."""

    puzzle: str
    shape: str
    size: int
    status: str
    confidence: list[float]
    doubtful: list[int]
    doubtful_names: list[str]
    corrected: list[int]
    corrected_names: list[str]
    corners: list[list[float]]
    as_read: str
    seconds: float


class HealthOut(BaseModel):
    """The server is up; ``ready`` says which features are compiled (after a cold start the others answer 503
    with Retry-After for a few seconds: verdict, hints, generate, variants, killer)."""

    status: str
    version: str
    shapes: list[str]
    limits: dict[str, object]
    ready: dict[str, bool] = {}


class ErrorBody(BaseModel):
    """What went wrong and where: ``kind`` is parse, shape, invalid, limit, too_large, busy (429: try again
    later), warming_up (503: the feature is still being compiled after a cold start; try again after Retry-After),
    timeout (408: the body came too slowly), bad_request, variant (an unknown variant name), regions (a
    bad region map: ``cell`` is where it goes wrong), cages (a Killer cage no digits can fill: the message names
    it by its letter in the reading order of first cells, ``cells`` are its cells), link (a link the server
    cannot read, or a grid it cannot write as one), or for a photo not_an_image, empty, truncated, no_grid,
    too_small (no readable grid in it) and missing_extra (501: this server has no OpenCV); ``cell`` (0-based)
    and ``name`` point at the first cell involved, ``cells`` at all of them."""

    kind: str
    message: str
    cell: int | None = None
    name: str | None = None
    cells: list[int] = []
    line: int | None = None
    column: int | None = None


class ErrorOut(BaseModel):
    error: ErrorBody

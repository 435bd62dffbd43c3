"""bitdoku side by side with tdoku (9x9) and with a SAT solver, CaDiCaL 1.5.3 through python-sat (16x16, 25x25).

To reproduce, from the repository root (tdoku's checkout may go anywhere outside this repository)::

    git clone https://github.com/t-dillon/tdoku /tmp/tdoku-src   # BSD-2; tested with its commit af42618
    pip install -e '.[sat]'                                      # python-sat, for part 2
    python benchmarks/compare_bench.py --tdoku /tmp/tdoku-src    # everything (about 15 min)
    python benchmarks/compare_bench.py --tdoku /tmp/tdoku-src --limit-instances 21 --repeats 1  # a quick look
    python benchmarks/compare_bench.py --sets 16x16 25x25        # part 2 alone: no tdoku needed

Part 1, 9x9 (sets ``17clue``, ``top1465``, ``hardest``): tdoku is built from the source folder given with
``--tdoku`` (cmake, ``-O3 -march=native``, into a temporary folder outside this repository; its cmake writes
``src/build_info.h`` into that source folder). Before any timing, tdoku's C API (``libtdoku_shared``, through
ctypes) and bitdoku must agree on every puzzle: the same solution count up to 2, the same solution. Then tdoku's
own ``run_benchmark`` program times its solver (``-stdoku``) on the puzzles exactly as given (``-r0``: not
permuted), single thread, in first-solution mode (``-f``) and in uniqueness mode (its default: stop at 2
solutions). In the same loop, interleaved, bitdoku times ``solve_many(limit=1)`` and ``count_many(limit=2)``
with ``threads=1`` on the same puzzles, the same way: a warm-up, then whole passes for at least ``--seconds``.
A sample smaller than ``--pass-puzzles`` is repeated whole for both (tdoku's own way to fill its test set), so
that bitdoku's fixed cost a call (about 0.2 ms) is spread over as many puzzles as tdoku's loop. Every bitdoku
solution is verified. Medians of ``--repeats`` rounds. With ``--paired`` the two run at the same time instead, each
pinned to its own core, the cores swapped every round, bitdoku timing passes for as long as tdoku runs: on a
shared host whose speed drifts from second to second, both meet the same drift. A small sample repeated many
times is learnt by the branch predictor and looks faster than the whole set (tdoku: 2.3 µs on 20 17-clue puzzles,
3.5 µs on all).

Part 2, 16x16 and 25x25 (sets ``16x16``, ``25x25``): each instance is encoded as plain CNF (one variable per cell
and digit; each cell exactly one digit, each digit exactly once per row, column and box, with pairwise
at-most-one clauses; givens as unit clauses) and solved for a first solution by ``pysat.solvers.Cadical153``;
only the ``solve()`` call is timed. Beside it, alternating which goes first, ``bitdoku.search(grid, limit=1,
max_nodes=BUDGET)`` is timed around the call (the grid is built before). Both solutions are verified.

Needs: cmake and a C++ compiler for part 1; python-sat for part 2 (the ``sat`` extra: ``pip install
'bitdoku[sat]'``). Results go to stdout as Markdown, progress to stderr; ``--json FILE`` keeps every measurement.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

import bitdoku
from bitdoku.batch import verify_solutions
from bitdoku.pipeline.chunks import PlainChunk, read_chunks
from bitdoku.shape import Shape

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data"


@dataclass(frozen=True)
class PuzzleSet:
    """A shared puzzle file and the part of the comparison it belongs to."""

    file: str
    part: str  # "tdoku" (9x9) or "sat" (16x16, 25x25)
    budget: int = 0  # bitdoku's default node budget a search (part 2 only)


SETS = {
    "17clue": PuzzleSet("17clue_royle_49151.txt", "tdoku"),
    "top1465": PuzzleSet("magictour_top1465.txt", "tdoku"),
    "hardest": PuzzleSet("forum_hardest_1106.txt", "tdoku"),
    # The budgets are the (2,000,000 nodes for 25x25): first solutions restart, so the budget bounds a
    # search without cutting the instances that need a few hundred thousand nodes.
    "16x16": PuzzleSet("sudoku16x16_acs_general_even.txt", "sat", budget=1_000_000),
    "25x25": PuzzleSet("sudoku25x25_acs_general_even.txt", "sat", budget=2_000_000),
}
MODES = {"first": 1, "unique": 2}  # mode -> solution limit


class SetupError(Exception):
    """Something the comparison needs is missing; the message says what to install or pass."""


class CheckError(Exception):
    """A solver failed or gave a wrong answer: the run stops, since its timings would mean nothing."""


def note(message: str) -> None:
    """Progress goes to stderr, so that stdout holds only the tables."""
    print(message, file=sys.stderr, flush=True)


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """No garbage collection inside a timed call (the CNF lists make collections slow and random)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# ---------------------------------------------------------------------------------------------------- data


@dataclass
class Sample:
    """The puzzles of one set that are timed: their lines in the file and their cells."""

    name: str
    path: Path
    lines: NDArray[np.int64]  # 1-based line numbers in the file
    puzzles: NDArray[np.uint8]  # (k, N*N)
    shape: Shape


def check_data(names: list[str], data: Path) -> None:
    """Every puzzle file is there, checked before tdoku is built."""
    for name in names:
        path = data / SETS[name].file
        if not path.is_file():
            raise SetupError(f"puzzle file {str(path)!r} not found; pass --data with the folder of the shared files")


def load_sample(name: str, data: Path, limit: int | None) -> Sample:
    """Read a set, then keep ``limit`` puzzles spread evenly over the file (so every fill level is kept)."""
    path = data / SETS[name].file
    lines, puzzles, shape = read_array(path)
    keep = np.arange(len(puzzles))
    if limit is not None and limit < len(puzzles):
        keep = np.unique(np.linspace(0, len(puzzles) - 1, limit).round().astype(np.int64))
    return Sample(name, path, lines[keep], np.ascontiguousarray(puzzles[keep]), shape)


def read_array(path: Path) -> tuple[NDArray[np.int64], NDArray[np.uint8], Shape]:
    """A puzzle file as line numbers and one uint8 array, through the CLI's chunked reader (no Python object
    a puzzle)."""
    lines, arrays, shape = [], [], None
    for chunk in read_chunks(path):
        if isinstance(chunk, PlainChunk):
            lines.append(chunk.lines)
            arrays.append(chunk.puzzles)
            shape = shape or chunk.shape
            continue
        bad = [entry for entry in chunk.entries if entry.grid is None]  # comments or odd lines
        if bad:
            raise SetupError(f"{path}: {bad[0].error}")
        lines.append(np.array([entry.line for entry in chunk.entries], dtype=np.int64))
        arrays.append(np.stack([entry.grid.to_array().ravel() for entry in chunk.entries]))
        shape = shape or chunk.entries[0].grid.shape
    if shape is None:
        raise SetupError(f"{path}: no puzzles")
    return np.concatenate(lines), np.concatenate(arrays), shape


# ------------------------------------------------------------------------------------------- part 1: tdoku


@dataclass
class Tdoku:
    """A built ``run_benchmark``, tdoku's shared library and what the build says about itself."""

    binary: Path
    library: Path
    build_info: str


def check_tdoku_source(source: Path | None) -> Path:
    """The tdoku source folder, checked before anything slow starts."""
    how = "get it with `git clone https://github.com/t-dillon/tdoku /tmp/tdoku-src` and pass --tdoku /tmp/tdoku-src"
    if source is None:
        raise SetupError(f"the 9x9 comparison needs tdoku's source: {how} (or leave the 9x9 sets out: "
                         "--sets 16x16 25x25)")
    source = source.expanduser().resolve()
    for needed in ("CMakeLists.txt", "src/run_benchmark.cc", "src/solver_dpll_triad_simd.cc"):
        if not (source / needed).is_file():
            raise SetupError(f"no tdoku source in {str(source)!r} ({needed} is missing); {how}")
    if source.is_relative_to(REPO):
        raise SetupError(f"tdoku's source must stay outside this repository, not in {str(source)!r}")
    for tool in ("cmake", "c++"):
        if shutil.which(tool) is None:
            raise SetupError(f"building tdoku needs {tool}: pip install cmake, or apt-get install cmake g++")
    return source


def build_tdoku(source: Path, build: Path, arch: str) -> Tdoku:
    """Configure and build only ``run_benchmark`` and ``libtdoku_shared`` (tdoku's own CMakeLists: ``-O3
    -march=ARCH``)."""
    if build.resolve().is_relative_to(REPO):
        raise SetupError(f"the tdoku build folder must be outside this repository, not {str(build)!r}")
    commands = [
        ["cmake", "-S", str(source), "-B", str(build), "-DOPT=O3", f"-DARCH={arch}"],
        ["cmake", "--build", str(build), "--target", "run_benchmark", "tdoku_shared", "-j", "1"],
    ]
    for command in commands:
        note("$ " + " ".join(command))
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
            raise SetupError(f"building tdoku failed ({' '.join(command)}):\n{tail}")
    binary = build / "run_benchmark"
    about = subprocess.run([str(binary), "-h"], capture_output=True, text=True).stdout
    solvers = about.split("solvers:")[-1].split("build info:")[0].split()
    if "tdoku" not in solvers:
        raise SetupError(f"{binary} was built without the tdoku solver (it lists {solvers})")
    library = next(build.glob("libtdoku_shared.*"), None)
    if library is None:
        raise SetupError(f"building tdoku left no libtdoku_shared in {build}")
    return Tdoku(binary, library, about.split("build info:")[-1].strip())


def tdoku_lines(puzzles: NDArray[np.uint8]) -> list[bytes]:
    """9x9 puzzles as tdoku reads them: 81 characters, '.' for an empty cell (it takes '0' for a digit)."""
    text = np.where(puzzles == 0, ord("."), puzzles + ord("0")).astype(np.uint8)
    return [row.tobytes() for row in text]


def tdoku_answers(library: Path, puzzles: NDArray[np.uint8]) -> tuple[NDArray[np.int64], NDArray[np.uint8]]:
    """tdoku's own answers through its C API: each puzzle's solution count up to 2, and a first solution
    (tdoku writes a solution only when asked for one)."""
    solve = ctypes.CDLL(str(library)).TdokuSolverDpllTriadSimd
    solve.restype = ctypes.c_size_t
    solve.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p,
                      ctypes.POINTER(ctypes.c_size_t)]
    counts, solutions = np.zeros(len(puzzles), np.int64), np.zeros_like(puzzles)
    found, guesses = ctypes.create_string_buffer(82), ctypes.c_size_t()
    for row, line in enumerate(tdoku_lines(puzzles)):  # bytes end in a NUL: tdoku's sign of a plain sudoku
        counts[row] = solve(line, 2, 0, found, ctypes.byref(guesses))
        if solve(line, 1, 0, found, ctypes.byref(guesses)):
            solutions[row] = np.frombuffer(found.raw[:81], np.uint8) - ord("0")
    return counts, solutions


def check_same_answers(sample: Sample, tdoku: Tdoku) -> None:
    """Before timing anything: both solvers must find the same number of solutions (up to 2) for every puzzle,
    and the same solution for a unique one, so that both are timed on the same work."""
    counts, solutions = tdoku_answers(tdoku.library, sample.puzzles)
    ours = bitdoku.count_many(sample.puzzles, limit=2, threads=1)
    where = f"{sample.path}, line"
    wrong = np.flatnonzero(~verify_solutions(sample.puzzles, solutions, sample.shape) & (counts > 0))
    if len(wrong):
        raise CheckError(f"tdoku returned a wrong solution: {where} {sample.lines[wrong[0]]}")
    differ = np.flatnonzero(counts != ours.counts)
    if len(differ):
        row = differ[0]
        raise CheckError(f"{where} {sample.lines[row]}: tdoku counts {counts[row]} solutions (up to 2), "
                           f"bitdoku {ours.counts[row]}")
    differ = np.flatnonzero((counts == 1) & (solutions != ours.solutions).any(axis=1))
    if len(differ):
        raise CheckError(f"{where} {sample.lines[differ[0]]}: tdoku and bitdoku give different solutions")
    note(f"{sample.name}: tdoku and bitdoku agree on all {len(counts):,} puzzles "
         f"({np.count_nonzero(counts == 1):,} unique, checked solutions)")


def run_tdoku(tdoku: Tdoku, puzzle_file: Path, count: int, mode: str, args: argparse.Namespace) -> float:
    """tdoku's µs a puzzle on the file as given, single thread, from its CSV output (``start_tdoku``)."""
    return tdoku_result(start_tdoku(tdoku, puzzle_file, count, mode, args))


def start_tdoku(tdoku: Tdoku, puzzle_file: Path, count: int, mode: str, args: argparse.Namespace,
                cpu: int | None = None) -> subprocess.Popen:
    """Start tdoku's ``run_benchmark`` on the file as given, single thread (on core ``cpu`` if given).

    ``-r0`` keeps the puzzles as they are (by default it permutes them) and ``-n`` the size of the file, so its
    test set is the file itself, once; ``-f`` stops at the first solution, otherwise it counts up to 2. It
    warms up for ``-w`` seconds (checking solutions), then solves whole passes for at least ``-t`` seconds.
    ``-e1`` fixes the seed of its warm-up order. Flags as parsed by tdoku's ``src/run_benchmark.cc``.
    """
    command = [str(tdoku.binary), "-stdoku", "-c1", "-r0", "-e1", f"-n{count}", f"-w{args.warmup}",
               f"-t{args.seconds}"]
    command += ["-f"] if mode == "first" else []
    pin = None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu}))
    return subprocess.Popen([*command, str(puzzle_file)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "LC_ALL": "C"}, preexec_fn=pin)


def tdoku_result(process: subprocess.Popen) -> float:
    """A finished ``start_tdoku``'s µs a puzzle, from its CSV output."""
    stdout, stderr = process.communicate()
    rows = [line.split(",") for line in stdout.splitlines() if ",tdoku," in line]
    if process.returncode != 0 or len(rows) != 1:
        raise CheckError(f"tdoku failed ({' '.join(process.args)}):\n{stdout}{stderr}")
    return float(rows[0][-3])  # fields: ..., puzzles/s, µs/puzzle, % no guess, guesses/puzzle


def time_bitdoku(puzzles: NDArray[np.uint8], shape: Shape, mode: str, seconds: float, warmup: float,
                 running: subprocess.Popen | None = None) -> float:
    """bitdoku's µs a puzzle on one thread, measured as tdoku measures itself: warm up, then time whole
    passes until ``seconds`` have gone by (or, with ``running``, until that process has ended: the paired mode).
    Every pass is checked (statuses and solutions) outside the timing."""
    solve = bitdoku.count_many if mode == "unique" else bitdoku.solve_many
    expected = bitdoku.Status.UNIQUE if mode == "unique" else bitdoku.Status.SOLVED

    def one_pass() -> float:
        with no_gc():
            start = time.perf_counter()
            result = solve(puzzles, limit=MODES[mode], threads=1)
            elapsed = time.perf_counter() - start
        if result.summary()[expected] != len(puzzles):
            raise CheckError(f"bitdoku: expected every puzzle {expected}, found {dict(result.summary())}")
        if not verify_solutions(puzzles, result.solutions, shape).all():
            raise CheckError("bitdoku returned a wrong solution")
        return elapsed

    started = time.perf_counter()
    while time.perf_counter() - started < warmup:
        one_pass()
    passes, total = 0, 0.0
    while passes == 0 or (total < seconds if running is None else running.poll() is None):
        total += one_pass()
        passes += 1
    return total / (passes * len(puzzles)) * 1e6


@dataclass
class Pair:
    """One set and mode of part 1: µs a puzzle of each solver, one value a round."""

    set: str
    puzzles: int
    pass_puzzles: int  # the sample repeated whole to at least --pass-puzzles
    mode: str
    tdoku_us: list[float] = field(default_factory=list)
    bitdoku_us: list[float] = field(default_factory=list)


@dataclass
class Pass:
    """What both solvers time on one set: the sample repeated whole, as an array and as tdoku's file."""

    sample: Sample
    puzzles: NDArray[np.uint8]
    file: Path


def make_pass(sample: Sample, pass_puzzles: int, scratch: Path) -> Pass:
    """Repeat a small sample whole, so that a timed pass holds at least ``pass_puzzles`` puzzles, and write it
    in tdoku's format (digits and '.', nothing after the 81st character) to the scratch folder."""
    copies = max(1, -(-pass_puzzles // len(sample.puzzles)))
    puzzles = np.ascontiguousarray(np.tile(sample.puzzles, (copies, 1)))
    file = scratch / f"{sample.name}-{len(sample.puzzles)}x{copies}.txt"
    file.write_bytes(b"".join(line + b"\n" for line in tdoku_lines(sample.puzzles)) * copies)
    return Pass(sample, puzzles, file)


def compare_9x9(samples: list[Sample], tdoku: Tdoku, args: argparse.Namespace, scratch: Path) -> list[Pair]:
    """Every round times tdoku and bitdoku on each set and mode, alternating which one goes first (or, with
    ``--paired``, running both at once, one a core, swapping the cores every round)."""
    passes = {s.name: make_pass(s, args.pass_puzzles, scratch) for s in samples}
    pairs = {(s.name, m): Pair(s.name, len(s.puzzles), len(passes[s.name].puzzles), m)
             for s in samples for m in args.modes}
    for round_ in range(args.repeats):
        for index, (sample, mode) in enumerate((s, m) for s in samples for m in args.modes):
            pair, work = pairs[sample.name, mode], passes[sample.name]
            swap = (round_ + index) % 2 == 0
            if args.paired:
                tdoku_us, bitdoku_us = time_paired(tdoku, work, mode, args, swap)
            elif swap:  # tdoku first
                tdoku_us = run_tdoku(tdoku, work.file, len(work.puzzles), mode, args)
                bitdoku_us = time_bitdoku(work.puzzles, sample.shape, mode, args.seconds, args.warmup)
            else:
                bitdoku_us = time_bitdoku(work.puzzles, sample.shape, mode, args.seconds, args.warmup)
                tdoku_us = run_tdoku(tdoku, work.file, len(work.puzzles), mode, args)
            pair.tdoku_us.append(tdoku_us)
            pair.bitdoku_us.append(bitdoku_us)
            note(f"round {round_ + 1}/{args.repeats} {sample.name} {mode}: tdoku {tdoku_us:.2f} µs, "
                 f"bitdoku {bitdoku_us:.2f} µs")
    return list(pairs.values())


def time_paired(tdoku: Tdoku, work: Pass, mode: str, args: argparse.Namespace, swap: bool) -> tuple[float, float]:
    """tdoku and bitdoku at the same time, tdoku on one core and this process on the other (``swap`` exchanges
    them), bitdoku timing its passes for as long as tdoku runs: on a shared host whose speed drifts from second
    to second, both then meet the same drift (sequential rounds of the same code varied by 1.5x on such a day)."""
    allowed = os.sched_getaffinity(0)
    cores = sorted(allowed)[:2]
    tdoku_core, own_core = cores if swap else cores[::-1]
    os.sched_setaffinity(0, {own_core})
    try:
        process = start_tdoku(tdoku, work.file, len(work.puzzles), mode, args, cpu=tdoku_core)
        bitdoku_us = time_bitdoku(work.puzzles, work.sample.shape, mode, args.seconds, args.warmup, running=process)
        return tdoku_result(process), bitdoku_us
    finally:
        os.sched_setaffinity(0, allowed)


def table_9x9(pairs: list[Pair]) -> str:
    """Markdown: medians of the rounds, their ratio, and the range of the ratios of single rounds."""
    lines = ["| set | puzzles | a pass | mode | tdoku µs | bitdoku µs | bitdoku/tdoku | per-round ratios |",
             "|---|---:|---:|---|---:|---:|---:|---|"]
    for p in pairs:
        tdoku, ours = statistics.median(p.tdoku_us), statistics.median(p.bitdoku_us)
        ratios = [b / t for b, t in zip(p.bitdoku_us, p.tdoku_us, strict=True)]
        lines.append(f"| {p.set} | {p.puzzles:,} | {p.pass_puzzles:,} | {p.mode} | {tdoku:.2f} | {ours:.2f} | "
                     f"{ours / tdoku:.2f} | {min(ratios):.2f}-{max(ratios):.2f} |")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------- part 2: SAT


def require_pysat() -> type:
    """``pysat.solvers.Cadical153``, or a clear message on what to install."""
    try:
        from pysat.solvers import Cadical153
    except ImportError:
        raise SetupError("the 16x16 and 25x25 comparison needs python-sat: pip install -e '.[sat]' (or "
                         "'python-sat>=1.8.dev0'), or leave those sets out: --sets 17clue top1465 hardest") from None
    return Cadical153


def unit_cells(n: int) -> NDArray[np.int64]:
    """The cells of every unit, (3n, n): the rows, the columns, then the boxes (square boxes of side √n)."""
    side = round(n**0.5)
    if side * side != n:
        raise SetupError(f"the CNF encoding here is for square boxes, not N = {n}")
    rows = np.arange(n * n).reshape(n, n)
    boxes = rows.reshape(side, side, side, side).transpose(0, 2, 1, 3).reshape(n, n)
    return np.concatenate([rows, rows.T, boxes])


def exactly_one_groups(n: int) -> NDArray[np.int64]:
    """The variable groups that must hold exactly one true literal: each cell's n digits, and for each unit
    and digit the n cells of the unit. Variable ``cell * n + digit`` (digit 1..n) says the cell has the digit."""
    var = np.arange(n * n * n).reshape(n * n, n) + 1
    per_unit_digit = var[unit_cells(n)].transpose(0, 2, 1).reshape(-1, n)  # (3n * n, n)
    return np.concatenate([var, per_unit_digit])


def at_most_one(groups: NDArray[np.int64], encoding: str) -> NDArray[np.int64]:
    """Binary clauses that allow at most one true literal in each group (rows of ``groups``).

    ``pairwise``: not both of any two, n(n-1)/2 clauses a group. ``sequential``: Sinz's sequential counter,
    3n-4 clauses and n-1 new variables a group (s_i: some x_j with j <= i is true).
    """
    if encoding == "pairwise":
        i, j = np.triu_indices(groups.shape[1], 1)
        return np.stack([-groups[:, i], -groups[:, j]], axis=-1).reshape(-1, 2)
    k, n = groups.shape
    s = int(groups.max()) + 1 + np.arange(k * (n - 1)).reshape(k, n - 1)
    return np.concatenate([
        np.stack([-groups[:, :-1], s], axis=-1).reshape(-1, 2),  # x_i -> s_i
        np.stack([-s[:, :-1], s[:, 1:]], axis=-1).reshape(-1, 2),  # s_(i-1) -> s_i
        np.stack([-groups[:, 1:], -s], axis=-1).reshape(-1, 2),  # x_i -> not s_(i-1)
    ])


def rule_clauses(n: int, encoding: str) -> list[list[int]]:
    """The clauses every instance of a size shares: at least one and at most one in each group."""
    groups = exactly_one_groups(n)
    return groups.tolist() + at_most_one(groups, encoding).tolist()


def given_clauses(puzzle: NDArray[np.uint8], n: int) -> list[list[int]]:
    """One unit clause a given."""
    cells = np.flatnonzero(puzzle)
    return [[int(cell) * n + int(puzzle[cell])] for cell in cells]


def decode(model: list[int], n: int) -> NDArray[np.uint8] | None:
    """The grid a model describes, or ``None`` when a cell does not get exactly one digit."""
    true = (np.asarray(model[: n**3]) > 0).reshape(n * n, n)
    if not (true.sum(axis=1) == 1).all():
        return None
    return (true.argmax(axis=1) + 1).astype(np.uint8)


@dataclass
class Timed:
    """One solver on one instance: seconds, and the solution (``None``: none found within the budget)."""

    seconds: float
    solution: NDArray[np.uint8] | None


def solve_sat(solver: Any, n: int) -> Timed:
    """Time only the ``solve()`` call of a loaded solver, then read and free it."""
    with no_gc():
        start = time.perf_counter()
        satisfiable = solver.solve()
        seconds = time.perf_counter() - start
    solution = decode(solver.get_model(), n) if satisfiable else None
    solver.delete()
    return Timed(seconds, solution)


def solve_bitdoku(puzzle: bitdoku.Grid, budget: int) -> Timed:
    """Time one ``bitdoku.search`` call for a first solution within ``budget`` nodes (the grid is built before,
    as the CNF is loaded before CaDiCaL's clock starts)."""
    with no_gc():
        start = time.perf_counter()
        result = bitdoku.search(puzzle, limit=1, max_nodes=budget)
        seconds = time.perf_counter() - start
    solution = result.solution.to_array().ravel() if result.solution is not None else None
    return Timed(seconds, solution)


@dataclass
class Instance:
    """One instance of part 2, both solvers."""

    line: int  # 1-based line in the file
    givens: int
    sat_ms: float
    sat_solved: bool
    bitdoku_ms: float
    bitdoku_solved: bool


def compare_big(sample: Sample, budget: int, encoding: str, solver_class: type) -> list[Instance]:
    """Each instance: load the CNF (untimed), then time CaDiCaL and bitdoku, alternating which goes first."""
    n = sample.shape.n
    rules = rule_clauses(n, encoding)
    note(f"{sample.name}: {len(rules):,} rule clauses ({encoding}), {len(sample.puzzles):,} instances, "
         f"bitdoku budget {budget:,} nodes")
    warm, started = sample.puzzles[0], time.perf_counter()
    solve_bitdoku(bitdoku.Grid(warm.tobytes(), sample.shape), budget)  # compiles, or loads Numba's cache
    solve_sat(load_solver(solver_class, rules, warm, n), n)
    note(f"  warm-up (Numba's compile or cache, untimed): {time.perf_counter() - started:.1f} s")
    results, started = [], time.perf_counter()
    for index, puzzle in enumerate(sample.puzzles):
        solver, grid = load_solver(solver_class, rules, puzzle, n), bitdoku.Grid(puzzle.tobytes(), sample.shape)
        if index % 2 == 0:
            sat, ours = solve_sat(solver, n), solve_bitdoku(grid, budget)
        else:
            ours, sat = solve_bitdoku(grid, budget), solve_sat(solver, n)
        results.append(Instance(int(sample.lines[index]), int(np.count_nonzero(puzzle)),
                                sat.seconds * 1e3, check(sample, index, sat, "CaDiCaL"),
                                ours.seconds * 1e3, check(sample, index, ours, "bitdoku")))
        if (index + 1) % 50 == 0:
            note(f"  {index + 1}/{len(sample.puzzles)} instances, {time.perf_counter() - started:.0f} s")
    return results


def load_solver(solver_class: type, rules: list[list[int]], puzzle: NDArray[np.uint8], n: int) -> Any:
    """A fresh CaDiCaL with the instance's CNF: nothing learnt on one instance helps the next."""
    solver = solver_class(bootstrap_with=rules)
    solver.append_formula(given_clauses(puzzle, n))
    return solver


def check(sample: Sample, index: int, timed: Timed, who: str) -> bool:
    """Whether a solution was found; a wrong one stops the run (every instance here has a solution)."""
    if timed.solution is None:
        return False
    puzzle = sample.puzzles[index : index + 1]
    if not verify_solutions(puzzle, timed.solution[None, :], sample.shape)[0]:
        raise CheckError(f"{who} returned a wrong solution for line {sample.lines[index]} of {sample.path}")
    return True


def summary_table(results: dict[str, list[Instance]]) -> str:
    """Markdown, per set and solver: solved, mean, median, p99 and worst ms (over every instance, a budget-hit
    one counted with the time it took to give up), and the instances where each solver was the faster."""
    lines = ["| set | solver | instances | solved | mean ms | median ms | p99 ms | worst ms | faster on |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, instances in results.items():
        for solver in ("CaDiCaL", "bitdoku"):
            ms = np.array([i.sat_ms if solver == "CaDiCaL" else i.bitdoku_ms for i in instances])
            solved = sum(i.sat_solved if solver == "CaDiCaL" else i.bitdoku_solved for i in instances)
            wins = sum(winner(i) == solver for i in instances)
            lines.append(f"| {name} | {solver} | {len(instances):,} | {solved:,} | {ms.mean():.2f} | "
                         f"{np.median(ms):.2f} | {np.percentile(ms, 99):.2f} | {ms.max():.2f} | {wins:,} |")
    return "\n".join(lines)


def winner(instance: Instance) -> str:
    """The solver that found a solution sooner (one that found none never wins)."""
    if instance.sat_solved != instance.bitdoku_solved:
        return "CaDiCaL" if instance.sat_solved else "bitdoku"
    if not instance.sat_solved:
        return "neither"
    return "CaDiCaL" if instance.sat_ms < instance.bitdoku_ms else "bitdoku"


def fill_table(name: str, instances: list[Instance], cells: int) -> str:
    """Markdown, by fill level (5 % bands of givens): medians, budget hits and wins, to show where each wins."""
    bands: dict[int, list[Instance]] = {}
    for instance in instances:
        bands.setdefault(round(100 * instance.givens / cells / 5) * 5, []).append(instance)
    lines = [f"| {name} fill % | instances | CaDiCaL median ms | bitdoku median ms | bitdoku budget hits | "
             "CaDiCaL faster | bitdoku faster |", "|---:|---:|---:|---:|---:|---:|---:|"]
    for fill, group in sorted(bands.items()):
        wins = [winner(i) for i in group]
        lines.append(f"| {fill} | {len(group)} | {statistics.median(i.sat_ms for i in group):.2f} | "
                     f"{statistics.median(i.bitdoku_ms for i in group):.2f} | "
                     f"{sum(not i.bitdoku_solved for i in group)} | {wins.count('CaDiCaL')} | "
                     f"{wins.count('bitdoku')} |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ driver


def parse_budgets(values: list[str]) -> dict[str, int]:
    """``--budget 50000`` for every set, or ``--budget 25x25=50000`` for one; defaults from ``SETS``."""
    budgets = {name: spec.budget for name, spec in SETS.items() if spec.part == "sat"}
    for value in values:
        name, _, nodes = value.rpartition("=")
        if name and name not in budgets:
            raise SetupError(f"--budget {value!r}: no set {name!r}; budgets are for {', '.join(budgets)}")
        if not nodes.isdigit() or int(nodes) < 1:
            raise SetupError(f"--budget {value!r}: expected NODES or SET=NODES with NODES a positive integer")
        for key in [name] if name else list(budgets):
            budgets[key] = int(nodes)
    return budgets


def describe(tdoku: Tdoku | None, tdoku_source: Path | None) -> str:
    """The machine and the versions, for the record."""
    command = " ".join(["python", "benchmarks/compare_bench.py", *sys.argv[1:]])
    facts = [f"command `{command}`", f"date {time.strftime('%Y-%m-%d %H:%M')}", f"Python {platform.python_version()}",
             f"bitdoku {bitdoku.__version__} ({git_state()})", f"NumPy {np.__version__}"]
    with contextlib.suppress(ImportError):
        import numba

        facts.append(f"Numba {numba.__version__}")
    with contextlib.suppress(ImportError):
        import pysat

        facts.append(f"python-sat {pysat.__version__} (CaDiCaL 1.5.3)")
    if tdoku is not None:
        facts.append(f"tdoku from {tdoku_source}, built with {tdoku.build_info}")
    facts.append(f"{cpu_name()}, {os.cpu_count()} cores")
    return "- " + "\n- ".join(facts)


def cpu_name() -> str:
    """The processor's model name (Linux), or what the platform module knows."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown processor"


def git_state() -> str:
    """The commit, and whether the library's sources differ from it (read-only git calls)."""
    try:
        head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "src"], capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"commit {head}" + (", src/ modified" if dirty else "")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The options; the module docstring is the help, so the commands to reproduce show with ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS),
                        help="sets to compare (default: all); 9x9 sets run against tdoku, the others against SAT")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the shared puzzle files")
    parser.add_argument("--limit-instances", type=int, metavar="N",
                        help="time N puzzles a set, spread evenly over its file (every fill level kept)")
    part1 = parser.add_argument_group("part 1: tdoku (9x9)")
    part1.add_argument("--tdoku", type=Path, metavar="PATH", help="tdoku's source folder (a checkout of "
                       "t-dillon/tdoku, outside this repository); needed for the 9x9 sets")
    part1.add_argument("--build-dir", type=Path, help="where to build tdoku (default: a temporary folder, removed)")
    part1.add_argument("--arch", default="native", help="tdoku's -march value (default: native)")
    part1.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    part1.add_argument("--repeats", type=int, default=5, help="rounds; the tables give medians (default: 5)")
    part1.add_argument("--seconds", type=int, default=1, help="timed seconds a measurement, each solver (default 1)")
    part1.add_argument("--warmup", type=int, default=1, help="warm-up seconds a measurement, each solver (default 1)")
    part1.add_argument("--paired", action="store_true",
                       help="run tdoku and bitdoku at the same time, one a core, swapping cores every round (for "
                            "shared hosts whose speed drifts; needs 2 cores)")
    part1.add_argument("--pass-puzzles", type=int, default=10_000, metavar="N",
                       help="a smaller sample is repeated whole to at least N puzzles a timed pass (default 10000)")
    part2 = parser.add_argument_group("part 2: SAT (16x16, 25x25)")
    part2.add_argument("--budget", action="append", default=[], metavar="[SET=]NODES",
                       help="bitdoku's node budget a search, for every set or one (default: 16x16=1000000, "
                            "25x25=100000); may be repeated")
    part2.add_argument("--encoding", choices=["pairwise", "sequential"], default="pairwise",
                       help="at-most-one clauses: pairwise (default) or Sinz's sequential counter")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every measurement to FILE")
    args = parser.parse_args(argv)
    if args.limit_instances is not None and args.limit_instances < 1:
        parser.error("--limit-instances must be at least 1")
    if min(args.repeats, args.seconds, args.warmup, args.pass_puzzles) < 1:
        parser.error("--repeats, --seconds, --warmup and --pass-puzzles must be at least 1 (tdoku's own warm-up "
                     "needs 1 s)")
    if args.paired and (not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2):
        parser.error("--paired needs two cores this process may run on (Linux)")
    return args


def run(args: argparse.Namespace) -> None:
    """Check every requirement first, then run the parts and print their tables."""
    nine = [name for name in args.sets if SETS[name].part == "tdoku"]
    big = [name for name in args.sets if SETS[name].part == "sat"]
    check_data(args.sets, args.data)
    source = check_tdoku_source(args.tdoku) if nine else None
    solver_class = require_pysat() if big else None
    budgets = parse_budgets(args.budget)
    record: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}}
    begun = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="compare-bench-") as scratch:
        tdoku = None
        if source is not None:
            tdoku = build_tdoku(source, args.build_dir or Path(scratch) / "tdoku-build", args.arch)
        print(f"## bitdoku against tdoku and CaDiCaL\n\n{describe(tdoku, source)}\n", flush=True)
        if tdoku is not None:
            record["9x9"] = run_9x9(nine, tdoku, args, Path(scratch))
        if solver_class is not None:
            record["sat"] = run_sat(big, solver_class, budgets, args)
            record["budgets"] = {name: budgets[name] for name in big}
    print(f"Whole run: {time.perf_counter() - begun:.0f} s.")
    if args.json:
        args.json.write_text(json.dumps(record, indent=1) + "\n")


def run_9x9(names: list[str], tdoku: Tdoku, args: argparse.Namespace, scratch: Path) -> list[dict[str, Any]]:
    """Part 1: check that both solvers agree on every puzzle, then time them and print the table."""
    samples = [load_sample(name, args.data, args.limit_instances) for name in names]
    for sample in samples:
        check_same_answers(sample, tdoku)
    pairs = compare_9x9(samples, tdoku, args, scratch)
    how = ", paired: both at once, one a core" if args.paired else ""
    print(f"### 9x9: tdoku against bitdoku, 1 thread, µs a puzzle (medians of {args.repeats} rounds{how})\n")
    print(table_9x9(pairs) + "\n", flush=True)
    return [asdict(p) for p in pairs]


def run_sat(names: list[str], solver_class: type, budgets: dict[str, int],
            args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    """Part 2: time CaDiCaL and bitdoku on every instance, then print the summary and the fill-level tables."""
    results, cells = {}, {}
    for name in names:
        sample = load_sample(name, args.data, args.limit_instances)
        results[name] = compare_big(sample, budgets[name], args.encoding, solver_class)
        cells[name] = sample.shape.n_cells
    print(f"### First solution: CaDiCaL ({args.encoding} CNF) against bitdoku.search, ms an instance\n")
    print(summary_table(results) + "\n")
    for name, instances in results.items():
        print(fill_table(name, instances, cells[name]) + "\n", flush=True)
    return {name: [asdict(i) for i in instances] for name, instances in results.items()}


def main(argv: list[str] | None = None) -> int:
    """The one place where a missing requirement becomes a message and an exit code."""
    try:
        run(parse_args(argv))
    except SetupError as error:
        print(f"compare_bench: error: {error}", file=sys.stderr)
        return 2
    except CheckError as error:
        print(f"compare_bench: check failed: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("compare_bench: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where the 9x9 variant kernel's nodes and time go, and a revision of it against the working tree (issue 14).

Run from the repository root (with ``PYTHONPATH=src`` or after ``pip install -e .``); the sets are the saved ones
of ``variants_bench.py generate`` (``benchmarks/data/variants``)::

    python benchmarks/variant_nodes_bench.py solve [--old ca86c25] [--only x ...] [--first N] [--rounds 3] [--cpu-time]
    python benchmarks/variant_nodes_bench.py profile [--only ...] [--first 300]
    python benchmarks/variant_nodes_bench.py generate [--old REV] [--only ...] [--count 200] [--rounds 2] [--no-check]
    python benchmarks/variant_nodes_bench.py fill --only nonconsecutive --count 40
    python benchmarks/variant_nodes_bench.py roots [--only x ...] [--first N]

* ``solve``: each set searched to two solutions (the uniqueness check) by the kernel the engine runs it on
  (``kernels/extra9.py`` for X and Windoku, ``kernels/jigsaw9.py`` for jigsaw, ``kernels/nonconsecutive9.py`` for
  nonconsecutive, where the tree has them, else ``kernels/variant81.py``; the table names it,
  old / new) as it was at
  revision ``--old`` (``git show``, imported from a temporary file) and as it is now, in one process, rounds
  interleaved (old, new, old, new, ...): nodes (mean, median, max: exact) and µs (call median, batch mean;
  medians of the rounds, ratios within the run). Every puzzle must have exactly one solution on both. Then where
  a call's µs go: the same calls with a budget of one node (dispatch, loading the givens, the root's propagation:
  the fixed cost of a call), and the rest of the call median divided by the median nodes (the cost of a node).
* ``profile``: on the current kernel (the one ``solve`` runs), what a search is made of: nodes, guesses,
  backtracks (nodes whose propagation ended in a contradiction), placements; and where the generator's time goes
  (the random fill against the removal pass's uniqueness checks, ``kernels.make.attempt_rows``), with the checks on
  naked and hidden singles against every rule.
* ``fill``: the heavy tail of the generator's random fill: nodes of unrestarted random searches of the empty grid
  (one a seed), and the best a fixed restart budget could do on that sample.
* ``roots``: why the fast kernel of a set (``extra9`` or ``jigsaw9``) takes more or fewer nodes than
  ``variant81``: the candidates each leaves after the root's propagation (a one-node budget), the puzzles where
  one leaves a candidate the other took, and the nodes of both (mean, the top tenth of the puzzles' share). For
  ``extra9``, a second row: the same kernel with the classic 27 units added to its extra units' pass
  (``with_classic_units``: locked candidates of two or three places in a row, column or box through every peer,
  diagonals too, as ``variant81`` runs them).
* ``generate``: ``variants_bench.py generate --check`` on the tree of revision ``--old`` (``git archive`` into a
  temporary directory) and on the working tree, alternately, one process each, set by set: unique minimal
  puzzles a second, one thread. ``--check`` makes both runs prove they made the committed puzzles; with
  ``--no-check`` (a change that changes the puzzles) each run instead proves its puzzles unique and minimal.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from variants_bench import SETS, geometry_of, load_set

from bitdoku.generate.removal import EXACT_CHECK_RULES
from bitdoku.generate.request import Request
from bitdoku.generate.symmetry import orbits
from bitdoku.kernels import extra9, fill, jigsaw9, make, nonconsecutive9, sudoku9, variant81
from bitdoku.kernels import status as codes
from bitdoku.kernels.rng import new_state
from bitdoku.kernels.variant import workspace_for

REPO = Path(__file__).resolve().parents[1]
KERNEL = "src/bitdoku/kernels/variant81.py"
EXTRA_KERNEL = "src/bitdoku/kernels/extra9.py"
JIGSAW_KERNEL = "src/bitdoku/kernels/jigsaw9.py"
NONCONSECUTIVE_KERNEL = "src/bitdoku/kernels/nonconsecutive9.py"
BAND_KERNELS = ("extra9", "jigsaw9", "nonconsecutive9")


def old_kernel(revision: str, where: Path, kernel: str = KERNEL):
    """A kernel module (``variant81.py`` unless told) as it was at ``revision``, imported as a module of its own;
    None when the revision has no such file."""
    path = where / f"{Path(kernel).stem}_{revision}.py"
    shown = subprocess.run(["git", "show", f"{revision}:{kernel}"], cwd=REPO, capture_output=True, text=True)
    if shown.returncode != 0:
        return None
    path.write_text(shown.stdout)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fast_path(modules: dict, geometry) -> tuple:
    """The kernel the engine runs a 9x9 geometry on, and its tables: ``extra9`` for the classic grid plus extra
    units (X, Windoku), ``jigsaw9`` for a jigsaw, ``nonconsecutive9`` for nonconsecutive, when the tree has them,
    else ``variant81``. ``modules``: "variant81" and the ``BAND_KERNELS`` (each None when the tree has no such
    kernel)."""
    for name in BAND_KERNELS:
        kernel = modules.get(name)
        if kernel is not None:
            tables = kernel.tables_for.__wrapped__(geometry)  # the module's own function, not another's cache
            if tables is not None:
                return kernel, tables
    return modules["variant81"], variant81.board_tables(geometry)


def kernel_name(kernel) -> str:
    """One of ``BAND_KERNELS`` or "variant81", for a kernel module of the working tree or of a revision."""
    return next((name for name in BAND_KERNELS if name in kernel.__name__), "variant81")


def root_only(kernel, tables, cells: np.ndarray) -> float:
    """The median call with a one-node budget: the root's propagation and everything before it."""
    stop = np.zeros(1, np.int64)
    solutions = np.zeros((1, 81), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    seconds = []
    for row in range(len(cells)):
        start = time.perf_counter()
        kernel.search(cells[row], tables, 2, 1, codes.ALL_RULES, solutions, stats, stop)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def run_kernel(kernel, tables, cells: np.ndarray, clock=time.perf_counter) -> tuple[list[float], np.ndarray, float]:
    """Each puzzle through ``kernel.search`` (timed around the call), then the set through ``count_many``, timed by
    ``clock`` (``time.thread_time`` with ``--cpu-time``: on a loaded machine the wall clock of a 50-ms batch counts
    the other processes' time slices, a 20-µs call's median hardly): (seconds a call, nodes, batch seconds a
    puzzle)."""
    stop = np.zeros(1, np.int64)
    solutions = np.zeros((1, 81), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    seconds, nodes = [], np.zeros(len(cells), np.int64)
    for row in range(len(cells)):
        start = time.perf_counter()
        status = kernel.search(cells[row], tables, 2, 10**9, codes.ALL_RULES, solutions, stats, stop)
        seconds.append(time.perf_counter() - start)
        nodes[row] = stats[codes.STAT_NODES]
        if status != codes.COMPLETE or stats[codes.STAT_SOLUTIONS] != 1:
            raise SystemExit(f"puzzle {row}: status {status}, {stats[codes.STAT_SOLUTIONS]} solutions")
    statuses, counts, batch_nodes = (np.zeros(len(cells), np.int64) for _ in range(3))
    start = clock()
    kernel.count_many(cells, tables, 2, 10**9, codes.ALL_RULES, statuses, counts, batch_nodes, stop)
    batch = (clock() - start) / len(cells)
    if not (counts == 1).all() or not (batch_nodes == nodes).all():
        raise SystemExit("count_many disagrees with search")
    return seconds, nodes, batch


def set_cells(name: str, first: int | None):
    geometry, puzzles = load_set(name)
    return geometry, np.stack([np.frombuffer(p.cells, np.uint8) for p in puzzles[:first]])


def solve(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as where:
        trees = {"old": {"variant81": old_kernel(args.old, Path(where)),
                         "extra9": old_kernel(args.old, Path(where), EXTRA_KERNEL),
                         "jigsaw9": old_kernel(args.old, Path(where), JIGSAW_KERNEL),
                         "nonconsecutive9": old_kernel(args.old, Path(where), NONCONSECUTIVE_KERNEL)},
                 "new": {"variant81": variant81, "extra9": extra9, "jigsaw9": jigsaw9,
                         "nonconsecutive9": nonconsecutive9}}
        print(f"load {os.getloadavg()[0]:.1f}; old = {args.old}, new = working tree"
              f"{'; batch in thread CPU time' if args.cpu_time else ''}")
        print("| set | puzzles | nodes mean old / new (ratio) | nodes median old / new | nodes max old / new | "
              "call median µs old / new (ratio) | batch µs a puzzle old / new (ratio) |")
        print("|---|---:|---|---|---|---|---|")
        fits = []
        for name in args.only:
            geometry, cells = set_cells(name, args.first)
            # one Tables81 class for both: with two NamedTuple classes of the same name in one process, Numba's
            # dispatch of the second kernel called costs ~100 µs a call (measured; the tables are the same masks)
            paths = {key: fast_path(modules, geometry) for key, modules in trees.items()}
            kernels = {key: kernel for key, (kernel, _) in paths.items()}
            tables = {key: table for key, (_, table) in paths.items()}
            name_shown = f"{name} ({' / '.join(kernel_name(kernel) for kernel in kernels.values())})"
            for key, kernel in kernels.items():
                run_kernel(kernel, tables[key], cells[:2])  # compile or load
            medians: dict[str, list[float]] = {key: [] for key in kernels}
            batches: dict[str, list[float]] = {key: [] for key in kernels}
            roots: dict[str, list[float]] = {key: [] for key in kernels}
            nodes = {}
            for _ in range(args.rounds):
                for key, kernel in kernels.items():
                    seconds, nodes[key], batch = run_kernel(kernel, tables[key], cells,
                                                            time.thread_time if args.cpu_time else time.perf_counter)
                    medians[key].append(statistics.median(seconds))
                    batches[key].append(batch)
                    roots[key].append(root_only(kernel, tables[key], cells))
            old, new = nodes["old"], nodes["new"]
            call = {key: 1e6 * statistics.median(medians[key]) for key in kernels}
            batch = {key: 1e6 * statistics.median(batches[key]) for key in kernels}
            print(f"| {name_shown} | {len(cells)} | "
                  f"{old.mean():.1f} / {new.mean():.1f} ({old.sum() / new.sum():.2f}x) | "
                  f"{np.median(old):.0f} / {np.median(new):.0f} | {old.max()} / {new.max()} | "
                  f"{call['old']:.1f} / {call['new']:.1f} ({call['old'] / call['new']:.2f}x) | "
                  f"{batch['old']:.1f} / {batch['new']:.1f} ({batch['old'] / batch['new']:.2f}x) |", flush=True)
            root = {key: 1e6 * statistics.median(roots[key]) for key in kernels}
            fits.append((name, *((root[key], (call[key] - root[key]) / np.median(nodes[key])) for key in kernels),
                         *(float(nodes[key].mean()) for key in kernels)))
        print(f"load at the end {os.getloadavg()[0]:.1f}")
        print()
        print("| set | root only (one-node budget): median µs a call old / new | "
              "(call median - root) / median nodes: µs a node old / new |")
        print("|---|---|---|")
        for name, (old_root, old_node), (new_root, new_node), _, _ in fits:
            print(f"| {name} | {old_root:.1f} / {new_root:.1f} | {old_node:.2f} / {new_node:.2f} |")


def profile(args: argparse.Namespace) -> None:
    print(f"load {os.getloadavg()[0]:.1f}")
    print("| set | nodes | guesses | backtracks (share of nodes) | placements |")
    print("|---|---:|---:|---:|---:|")
    for name in args.only:
        geometry, cells = set_cells(name, args.first)
        kernel, tables = fast_path({"variant81": variant81, "extra9": extra9, "jigsaw9": jigsaw9,
                                    "nonconsecutive9": nonconsecutive9}, geometry)
        stats = np.zeros(codes.N_STATS, np.int64)
        no_solutions = np.zeros((0, 81), np.uint8)
        total = np.zeros(4, np.int64)
        for row in cells:
            kernel.search(row, tables, 2, 10**9, codes.ALL_RULES, no_solutions, stats, np.zeros(1, np.int64))
            total += stats[[codes.STAT_NODES, codes.STAT_GUESSES, codes.STAT_BACKTRACKS, codes.STAT_PLACEMENTS]]
        n = len(cells)
        print(f"| {name} ({kernel_name(kernel)}) | {total[0] / n:.1f} | {total[1] / n:.1f} | {total[2] / n:.1f} "
              f"({total[2] / total[0]:.0%}) | {total[3] / n:.1f} |", flush=True)
    print()
    print("| set | rules of the checks | attempts/s | fill ms (nodes) | checks ms | check nodes an attempt |")
    print("|---|---|---:|---:|---:|---:|")
    for name in args.only:
        _profile_generation(name, args.count)


def _profile_generation(name: str, count: int) -> None:
    geometry = geometry_of(name)
    request = Request.make("3x3", minimal=True, variant=geometry)
    orbit_table = orbits(request.shape, request.symmetry)
    seeds = (np.arange(count, dtype=np.uint64) * np.uint64(2654435761) + np.uint64(7)).reshape(count, 1)
    stop = np.zeros(1, np.int64)
    ws = workspace_for(9, request.tables[2])
    out = np.zeros(81, np.uint8)
    make.attempt_rows(seeds[:1].copy(), 9, *request.tables, orbit_table, 0, request.check_nodes, EXACT_CHECK_RULES,
                      10**9, False, np.zeros((1, 81), np.uint8), np.zeros((1, 81), np.uint8),
                      np.zeros((1, make.N_OUTCOME), np.int64), stop)  # compile or load, untimed
    made = {}
    for label, rules in (("naked + hidden singles", EXACT_CHECK_RULES), ("all rules", codes.ALL_RULES)):
        rngs = seeds.copy()
        start = time.perf_counter()
        fill_nodes = 0
        for row in range(count):
            fill_nodes += fill.random_solution(rngs[row], 9, *request.tables, 10**9, out, ws, stop)[1]
        fill_seconds = time.perf_counter() - start
        rngs = seeds.copy()
        puzzles = np.zeros((count, 81), np.uint8)
        solutions = np.zeros_like(puzzles)
        outcome = np.zeros((count, make.N_OUTCOME), np.int64)
        start = time.perf_counter()
        make.attempt_rows(rngs, 9, *request.tables, orbit_table, 0, request.check_nodes, rules, 10**9, False,
                          puzzles, solutions, outcome, stop)
        seconds = time.perf_counter() - start
        made[label] = puzzles
        print(f"| {name} | {label} | {count / seconds:.1f} | {1e3 * fill_seconds / count:.3f} "
              f"({fill_nodes / count:.0f}) | {1e3 * (seconds - fill_seconds) / count:.3f} | "
              f"{outcome[:, make.CHECK_NODES].mean():.0f} |", flush=True)
    if not (made["all rules"] == made["naked + hidden singles"]).all():
        raise SystemExit(f"{name}: the rules of the checks changed the puzzles")


def fill_runs(args: argparse.Namespace) -> None:
    """Nodes an unrestarted random search of the empty grid takes to its first grid (``--count`` seeds), and what
    a fixed restart budget b would cost on that sample: b / P(run <= b) nodes a grid."""
    for name in args.only:
        tables = variant81.board_tables(geometry_of(name))
        found = np.zeros((1, 81), np.uint8)
        stats = np.zeros(codes.N_STATS, np.int64)
        runs = []
        for seed in range(args.count):
            code = variant81.search_in(variant81.new_workspace(), np.zeros(81, np.uint8), tables, 1, 10**6,
                                       codes.ALL_RULES | codes.RANDOM_ORDER, found, stats, new_state(seed),
                                       np.zeros(0, np.uint8), np.int64(-1), np.zeros(1, np.int64))
            runs.append(int(stats[codes.STAT_NODES]) if code == codes.LIMIT_REACHED else 10**9)
        runs.sort()
        costs = {b: b * len(runs) / sum(r <= b for r in runs) for b in runs[: len(runs) // 2]}
        best = min(costs, key=costs.get)
        print(f"{name}: {len(runs)} runs, nodes min {runs[0]}, median {runs[len(runs) // 2]}, max {runs[-1]}; "
              f"best fixed restart budget {best} nodes: {costs[best]:.0f} nodes a grid", flush=True)


def _root_candidates(kernel, tables, cells: np.ndarray) -> np.ndarray:
    """bool[81, 9]: the candidates the root's propagation leaves (a one-node budget), from the kernel's state 0."""
    stats, stop, none = np.zeros(codes.N_STATS, np.int64), np.zeros(1, np.int64), np.zeros((0, 81), np.uint8)
    if kernel is variant81:
        ws = variant81.new_workspace()
        variant81.search_in(ws, cells, tables, 2, 1, codes.ALL_RULES, none, stats, np.ones(1, np.uint64),
                            np.zeros(0, np.uint8), np.int64(-1), stop)
        words = ws[0][0].astype(np.int64)
        return np.array([[(words[2 * d + (c >> 6)] >> (c & 63)) & 1 for d in range(9)] for c in range(81)], bool)
    states = np.zeros((kernel.MAX_DEPTH, kernel.STATE_WORDS), np.uint32)
    kernel.search_in(states, np.zeros((kernel.MAX_DEPTH, 2), np.int64), cells, tables, 2, 1, codes.ALL_RULES, none,
                     stats, stop)
    band, pos = sudoku9.CELL_BAND, sudoku9.CELL_POS
    return np.array([[(int(states[0, 3 * d + band[c]]) >> int(pos[c])) & 1 for d in range(9)] for c in range(81)],
                    bool)


def _count_nodes(kernel, tables, cells: np.ndarray) -> np.ndarray:
    """Each puzzle's nodes, counted to two solutions."""
    statuses, counts, nodes = (np.zeros(len(cells), np.int64) for _ in range(3))
    kernel.count_many(cells, tables, 2, 10**9, codes.ALL_RULES, statuses, counts, nodes, np.zeros(1, np.int64))
    return nodes


def with_classic_units(tables: np.ndarray) -> np.ndarray:
    """``extra9`` tables whose extra-unit pass also takes the classic 27 units (every cell counted on an extra
    unit): the locked candidates ``variant81`` runs in rows, columns and boxes with the extra peers. Hidden singles
    and strikes are sound there too; only the extra units' loading check keeps the geometry's own units."""
    extra = int(tables[extra9.SIZES, 1])
    classic = np.array([extra9._band_mask(members) for members in sudoku9.STANDARD_UNITS.tolist()], np.int64)
    out = np.vstack([tables[: extra9.UNITS + extra], classic])
    out[extra9.SIZES, 1] = extra + len(classic)
    out[extra9.ON_EXTRA] = extra9._band_mask(list(range(81)))
    out[extra9.DIAGONALS, 0] = 0  # the general pass, which reads the units from the table (X's own pass does not)
    return out


def roots(args: argparse.Namespace) -> None:
    print("| set | root candidates fast / variant81 | puzzles where fast leaves more / fewer | nodes mean fast / "
          "variant81 | top tenth's share of the nodes fast / variant81 |")
    print("|---|---|---|---|---|")
    for name in args.only:
        geometry, cells = set_cells(name, args.first)
        fast, fast_tables = fast_path({"variant81": variant81, "extra9": extra9, "jigsaw9": jigsaw9}, geometry)
        _compare_roots(f"{name} ({kernel_name(fast)})", fast, fast_tables, geometry, cells)
        if fast is extra9:
            _compare_roots(f"{name} (extra9, classic units too)", fast, with_classic_units(fast_tables), geometry,
                           cells)


def _compare_roots(label: str, fast, fast_tables: np.ndarray, geometry, cells: np.ndarray) -> None:
    """One row of ``roots``: the fast kernel (its tables) against ``variant81`` on the set's puzzles."""
    twin = variant81.board_tables(geometry)
    more = fewer = 0
    totals = np.zeros(2)
    for row in cells:
        mine, theirs = _root_candidates(fast, fast_tables, row), _root_candidates(variant81, twin, row)
        totals += mine.sum(), theirs.sum()
        more += int((mine & ~theirs).any())
        fewer += int((theirs & ~mine).any())
    nodes = [_count_nodes(fast, fast_tables, cells), _count_nodes(variant81, twin, cells)]
    tenth = [np.sort(n)[::-1][: max(1, len(n) // 10)].sum() / n.sum() for n in nodes]
    print(f"| {label} | {totals[0] / len(cells):.1f} / {totals[1] / len(cells):.1f} | "
          f"{more} / {fewer} | {nodes[0].mean():.1f} / {nodes[1].mean():.1f} | {tenth[0]:.0%} / {tenth[1]:.0%} |",
          flush=True)


def generate(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as where:
        archive = subprocess.run(["git", "archive", args.old, "src", "benchmarks"], cwd=REPO, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
        trees = {"old": Path(where), "new": REPO}
        print(f"load {os.getloadavg()[0]:.1f}; old = {args.old}, new = working tree; minimal puzzles a second")
        print("| set | puzzles | old /s (runs) | new /s (runs) | ratio of the medians |")
        print("|---|---:|---|---|---:|")
        for name in args.only:
            rates: dict[str, list[float]] = {"old": [], "new": []}
            for _ in range(args.rounds):
                for key, tree in trees.items():
                    rates[key].append(_generate_rate(tree, name, args.count, Path(where) / f"{key}.md",
                                                     Path(where) / f"numba-cache-{key}", args.no_check))
            old, new = statistics.median(rates["old"]), statistics.median(rates["new"])
            print(f"| {name} | {args.count} | {old:.1f} ({', '.join(f'{r:.1f}' for r in rates['old'])}) | "
                  f"{new:.1f} ({', '.join(f'{r:.1f}' for r in rates['new'])}) | {new / old:.2f}x |", flush=True)
        print(f"load at the end {os.getloadavg()[0]:.1f}")


def _generate_rate(tree: Path, name: str, count: int, results: Path, cache: Path, no_check: bool) -> float:
    """One ``variants_bench.py generate --check`` run of a tree on one set: minimal puzzles a second. ``cache``:
    the tree's own Numba cache (the two trees' kernels share names), compiled by its first run, untimed.
    ``no_check``: ``--no-save`` instead (the trees make other puzzles; each proves its own unique and minimal;
    a tree whose ``variants_bench.py`` has no such option is given ``--results`` alone and saves into its own
    temporary copy)."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), NUMBA_CACHE_DIR=str(cache))
    # the saved sets live in this repository; the old tree's copy is the same (generate --check compares)
    script = tree / "benchmarks" / "variants_bench.py"
    mode = ["--check"]
    if no_check:
        mode = ["--no-save"] if "--no-save" in script.read_text() else []
        if not mode and tree == REPO:
            raise SystemExit("the working tree's variants_bench.py must have --no-save")
    lines = subprocess.run([sys.executable, str(script), "generate", *mode, "--only", name, "--count", str(count),
                            "--results", str(results)], env=env, check=True, capture_output=True,
                           text=True).stdout.splitlines()
    row = [line for line in lines if line.startswith(f"| {name} |")][-1]
    return float(row.strip("| \n").split("|")[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("solve", "profile", "generate", "fill", "roots"))
    parser.add_argument("--only", nargs="*", default=[s for s in SETS if s != "nonconsecutive"], choices=SETS)
    parser.add_argument("--old", default="ca86c25", help="the revision to compare with (default ca86c25)")
    parser.add_argument("--first", type=int, default=None, help="only the first puzzles of each set")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--count", type=int, default=200, help="puzzles a generation run (profile: attempts)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="solve: time the batch in the thread's CPU time, not the wall clock (a loaded machine)")
    parser.add_argument("--no-check", action="store_true",
                        help="generate: the trees make other puzzles; check each unique and minimal instead")
    args = parser.parse_args()
    {"solve": solve, "profile": profile, "generate": generate, "fill": fill_runs, "roots": roots}[args.step](args)


if __name__ == "__main__":
    main()

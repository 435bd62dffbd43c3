"""Research (issue 12, 25x25 tail): does all-different arc consistency (Hall sets of every size) cut the tail?

Run from the repository root after ``pip install -e '.[test]'``::

    python research/gac25.py --instances 461 --seeds 1-8                # line 462 under eight seeds
    python research/gac25.py --instances H20 --seeds 1-2 --cap 100000   # the 20 hardest

Why: the restarted DFS of ``kernels/boards.py`` propagates singles, locked candidates and pairs (Hall sets of
size 1 and 2). Line 462 of the 25x25 set ("461", 0-based) costs it 100,000-300,000+ nodes under most seeds
(benchmarks/results/tail25.md). On quasigroup completion, arc consistency on all-different (Regin 1994) is known to
shrink search trees by orders of magnitude against pairwise reasoning (Stergiou and Walsh, "The difference
all-difference makes", 1999). This script measures nodes, not speed: a cell-mask search written for clarity,
with the kernel's first three rules (naked and hidden singles, locked candidates; not its pairs, which GAC
subsumes, nor dom/wdeg), with or without GAC on every row, column and box; MRV branching with random ties, random
digit order, Luby restarts of 256 dead ends. Every solution verified. Nothing of it is in the library.

GAC on one unit: a perfect matching of the unit's cells to the N digits (augmenting paths over bitmasks); none
means a contradiction. A candidate (cell x, digit v) survives iff v is x's matched digit or x and the cell
matched to v lie in one strongly connected component of the graph "x -> the cell matched to a digit x may take"
(Regin's condition when every digit must be used); components from a bitmask transitive closure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the maintained scripts it uses
from tail25_bench import instances, seeds

from bitdoku.batch import verify_solutions
from bitdoku.benchmark import load
from bitdoku.kernels.bits import lowest_bit_index, popcount
from bitdoku.kernels.restarts import luby
from bitdoku.kernels.rng import below, new_state, random_bit
from bitdoku.shape import Shape

REPO = Path(__file__).resolve().parents[1]
FILE = "sudoku25x25_acs_general_even.txt"
GAC = 1
LOCKED = 2
SOLVED, CAPPED, NO_SOLUTION = 1, 0, -1


@njit(cache=True)
def _gac_unit(cand, cells, n, owner, match, prev, reach, queue):
    """Arc consistency of all-different on one unit; False on a contradiction. Returns (ok, changed)."""
    for v in range(n):
        owner[v] = -1
    for x in range(n):
        # Breadth-first search for an augmenting path from cell x (cells by index into ``cells``).
        seen = np.uint32(0)
        head, tail = 0, 1
        queue[0] = x
        found = -1
        while head < tail and found < 0:
            y = queue[head]
            head += 1
            avail = cand[cells[y]] & ~seen
            while avail:
                v = lowest_bit_index(avail)
                avail &= avail - np.uint32(1)
                seen |= np.uint32(1) << np.uint32(v)
                prev[v] = y
                if owner[v] < 0:
                    found = v
                    break
                queue[tail] = owner[v]
                tail += 1
        if found < 0:
            return False, False
        v = found
        while True:
            y = prev[v]
            old = match[y] if y != x else -1
            match[y] = v
            owner[v] = y
            if y == x:
                break
            v = old
    for x in range(n):
        row = np.uint32(1) << np.uint32(x)
        m = cand[cells[x]]
        while m:
            v = lowest_bit_index(m)
            m &= m - np.uint32(1)
            row |= np.uint32(1) << np.uint32(owner[v])
        reach[x] = row
    for k in range(n):
        bit, rk = np.uint32(1) << np.uint32(k), reach[k]
        for x in range(n):
            if reach[x] & bit:
                reach[x] |= rk
    changed = False
    for x in range(n):
        allowed = np.uint32(0)
        m = reach[x]
        while m:
            y = lowest_bit_index(m)
            m &= m - np.uint32(1)
            if reach[y] >> np.uint32(x) & np.uint32(1):
                allowed |= np.uint32(1) << np.uint32(match[y])
        kept = cand[cells[x]] & allowed
        if kept != cand[cells[x]]:
            cand[cells[x]] = kept
            changed = True
    return True, changed


@njit(cache=True)
def _singles(cand, units, n):
    """Naked and hidden singles over every unit, once; (ok, changed)."""
    full = np.uint32((1 << n) - 1)
    changed = False
    for u in range(units.shape[0]):
        fixed = np.uint32(0)
        for j in range(n):
            m = cand[units[u, j]]
            if m == 0:
                return False, False
            if m & (m - np.uint32(1)) == 0:
                if fixed & m:
                    return False, False
                fixed |= m
        once, twice = np.uint32(0), np.uint32(0)
        for j in range(n):
            cell = units[u, j]
            m = cand[cell]
            if m & (m - np.uint32(1)):
                kept = m & ~fixed
                if kept == 0:
                    return False, False
                if kept != m:
                    cand[cell] = kept
                    changed = True
                m = kept
            twice |= once & m
            once |= m
        if once != full:
            return False, False
        hidden = once & ~twice & ~fixed
        if hidden:
            for j in range(n):
                cell = units[u, j]
                m = cand[cell]
                if m & hidden and m & (m - np.uint32(1)):
                    if popcount(m & hidden) > 1:
                        return False, False
                    cand[cell] = m & hidden
                    changed = True
    return True, changed


@njit(cache=True)
def _locked(cand, units, cell_units, n):
    """Locked candidates: a digit of a box on one line leaves the rest of the line, and a digit of a line in one
    box leaves the rest of the box. Returns changed."""
    changed = False
    for b in range(2 * n, 3 * n):
        for d in range(n):
            bit = np.uint32(1) << np.uint32(d)
            line_row, line_col, places = -1, -1, 0
            for j in range(n):
                cell = units[b, j]
                if cand[cell] & bit:
                    places += 1
                    rw, cl = cell_units[cell, 0], cell_units[cell, 1]
                    line_row = rw if line_row == -1 or line_row == rw else -2
                    line_col = cl if line_col == -1 or line_col == cl else -2
            if places < 2:
                continue
            for line in (line_row, line_col):
                if line >= 0:
                    for j in range(n):
                        cell = units[line, j]
                        if cell_units[cell, 2] != b and cand[cell] & bit:
                            cand[cell] &= ~bit
                            changed = True
    for line in range(2 * n):
        for d in range(n):
            bit = np.uint32(1) << np.uint32(d)
            box, places = -1, 0
            for j in range(n):
                cell = units[line, j]
                if cand[cell] & bit:
                    places += 1
                    bx = cell_units[cell, 2]
                    box = bx if box == -1 or box == bx else -2
            if places >= 2 and box >= 0:
                for j in range(n):
                    cell = units[box, j]
                    if cell_units[cell, line // n] != line and cand[cell] & bit:
                        cand[cell] &= ~bit
                        changed = True
    return changed


@njit(cache=True)
def _propagate(cand, units, cell_units, n, flags, work):
    """The rules to a fixpoint, cheap ones first; False on a contradiction."""
    owner, match, prev, queue, reach = work[0], work[1], work[2], work[3], work[4].view(np.uint32)[:n]
    while True:
        ok, changed = _singles(cand, units, n)
        if not ok:
            return False
        if changed:
            continue
        if flags & LOCKED and _locked(cand, units, cell_units, n):
            continue
        if flags & GAC:
            any_change = False
            for u in range(units.shape[0]):
                ok, changed = _gac_unit(cand, units[u], n, owner, match, prev, reach, queue)
                if not ok:
                    return False
                any_change |= changed
            if any_change:
                continue
        return True


@njit(cache=True)
def search(givens, n, units, cell_units, flags, cap, unit, rng, out):
    """Restarted first-solution DFS over the unit tables of ``Shape.tables`` (rows, columns, boxes; each cell's
    row, column and box); (status, nodes, restarts)."""
    work = np.zeros((5, 2 * n), np.int64)
    full = np.uint32((1 << n) - 1)
    root = np.empty(n * n, np.uint32)
    for i in range(n * n):
        root[i] = full if givens[i] == 0 else np.uint32(1) << np.uint32(givens[i] - 1)
    if not _propagate(root, units, cell_units, n, flags, work):
        return NO_SOLUTION, 0, 0
    stack = np.empty((n * n + 1, n * n), np.uint32)
    cells = np.empty(n * n + 1, np.int64)
    rests = np.empty(n * n + 1, np.uint32)
    nodes, restarts, run = 0, 0, 1
    while True:
        budget = luby(run) * unit
        dead = 0
        stack[0] = root
        depth = 0
        cells[0] = -1
        exhausted = False
        while True:
            st = stack[depth]
            if cells[depth] < 0:
                best, best_count, ties = -1, n + 1, 0
                for i in range(n * n):
                    k = popcount(st[i])
                    if k > 1:
                        if k < best_count:
                            best, best_count, ties = i, k, 1
                        elif k == best_count:
                            ties += 1
                            if below(rng, ties) == 0:
                                best = i
                if best < 0:
                    for i in range(n * n):
                        out[i] = lowest_bit_index(st[i]) + 1
                    return SOLVED, nodes, restarts
                cells[depth] = best
                rests[depth] = st[best]
            if rests[depth] == 0:
                if depth == 0:
                    exhausted = True
                    break
                depth -= 1
                continue
            d = random_bit(rng, np.uint64(rests[depth]))
            bit = np.uint32(1) << np.uint32(d)
            rests[depth] &= ~bit
            nodes += 1
            if nodes >= cap:
                return CAPPED, nodes, restarts
            child = stack[depth + 1]
            child[:] = st
            child[cells[depth]] = bit
            if _propagate(child, units, cell_units, n, flags, work):
                depth += 1
                cells[depth] = -1
            else:
                dead += 1
                if dead >= budget:
                    break
        if exhausted:
            return NO_SOLUTION, nodes, restarts
        restarts += 1
        run += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--instances", nargs="+", default=["461"],
                        help="0-based indices, comma lists, ranges a-b, H20, H45 or all (default: 461)")
    parser.add_argument("--seeds", default="1-4", help="a-b or a comma list")
    parser.add_argument("--cap", type=int, default=100_000, help="node cap a search")
    parser.add_argument("--unit", type=int, default=256, help="restart unit (dead ends)")
    parser.add_argument("--variants", nargs="+", default=["locked", "locked+gac"],
                        choices=["plain", "locked", "gac", "locked+gac"])
    args = parser.parse_args()
    puzzles = load(args.data / FILE)
    shape = Shape.infer(puzzles.shape[1])
    n = shape.n
    units, cell_units, _ = shape.tables
    seed_list = seeds(args.seeds)
    flags = {"plain": 0, "locked": LOCKED, "gac": GAC, "locked+gac": LOCKED | GAC}
    out = np.zeros(n * n, np.uint8)
    search(puzzles[0].astype(np.int64), n, units, cell_units, LOCKED | GAC, 10, args.unit, new_state(1), out)
    rows: dict[str, list[tuple[int, int, int, float]]] = {name: [] for name in args.variants}
    for index in instances(args.instances, len(puzzles)):
        givens = puzzles[index].astype(np.int64)
        for seed in seed_list:
            for name in args.variants:
                start = time.perf_counter()
                status, nodes, restarts = search(givens, n, units, cell_units, flags[name], args.cap, args.unit,
                                                 new_state(seed * 1000003 + index), out)
                seconds = time.perf_counter() - start
                if status == SOLVED and not verify_solutions(puzzles[index][None], out[None], shape)[0]:
                    sys.exit(f"gac25: instance {index} seed {seed} {name}: a wrong solution")
                if status == NO_SOLUTION:
                    sys.exit(f"gac25: instance {index} seed {seed} {name}: 'no solution' on a solvable grid")
                rows[name].append((index, seed, nodes, seconds))
                print(f"{name:11} {index:4} seed {seed}: {'CAPPED' if status == CAPPED else 'solved':6} "
                      f"{nodes:8,} nodes {restarts:3} restarts {seconds * 1e3:9.1f} ms", flush=True)
    print("\n| variant | searches | capped | nodes sum | median | worst | ms sum | µs a node |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, got in rows.items():
        nodes = [row[2] for row in got]
        ms = sum(row[3] for row in got) * 1e3
        print(f"| {name} | {len(got)} | {sum(x >= args.cap for x in nodes)} | {sum(nodes):,} | "
              f"{statistics.median(nodes):,.0f} | {max(nodes):,} | {ms:,.0f} | {ms * 1e3 / max(sum(nodes), 1):.1f} |")


if __name__ == "__main__":
    main()

"""Research (issue 12, 25x25 tail): conflict-driven clause learning over Sudoku's exactly-one groups.

Run from the repository root after ``pip install -e '.[test,sat]'``::

    python research/cdcl25.py search --instances 461 --seeds 1-8               # line 462 under eight seeds
    python research/cdcl25.py search --instances H20 --unit 16 --decay 0.99     # the 20 hardest, one seed
    python research/cdcl25.py search --locked --instances 461 --seeds 1-8      # with box-line variables
    python research/cdcl25.py cadical --instances 461 --renamings 8             # CaDiCaL, variables renamed

Why: the restarted depth-first search (``kernels/boards.py``) solves line 462 of the 25x25 set ("461", 0-based) in
23,715 nodes under the default seed but 100,000-300,000+ under most others (benchmarks/results/tail25.md): it does
not learn. CaDiCaL solves the same instance in ~1,100 conflicts. This script asks whether a learning search written
here does as well. Everything is in this file, nothing in the library: a prototype, measured, not kept
(benchmarks/NOTES-kernels.md, rounds 19 and 20).

The model: a variable a (cell, digit) pair, ``cell * N + digit``; an exactly-one group a cell (its N digits) and a
unit and digit (its N cells). Propagation is native to the groups, not pairwise clauses: a variable set true sets
every other member of its groups false (at most one; the reason of each is the binary clause ``-x or -y``); a group
whose members are all false but one sets that one true (at least one: naked and hidden singles). Learnt clauses
are watched (two literals). Conflicts are analysed to the first unique implication point, the learnt clause is
minimised locally (a literal whose reason's other variables are in the clause goes), decisions by VSIDS with
phase saving (first phase: true, a digit placed), restarts on a Luby schedule of conflicts, no clause deletion.

``--locked`` (round 20) adds the box-line variables: "digit d of box b is in the box's k-th row" (and column), with
exactly-one groups over the rows of a box, over the boxes a row crosses, and over a box row's cells with the
negated box-line variable (so the variable is true iff d is in one of those cells). Groups are then over literals
(``2 * variable + negated``); unit propagation over them does locked candidates, pointing and claiming.
``--decide-cells`` keeps the decisions on (cell, digit) variables.

``search`` verifies every solution; ``cadical`` solves the plain CNF (pairwise at-most-one, as compare_bench.py)
with its variables renamed at random, to see how much of CaDiCaL's figure is the numbering.
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
from bitdoku.grid import Grid
from bitdoku.kernels.restarts import luby

FILE = "/work/shared/data/sudoku25x25_acs_general_even.txt"
NONE, DECIDED, AMO, ALO, CLAUSE = 0, 1, 2, 3, 4  # why a variable has its value (``rkind``)
SAT, UNSAT, OUT_OF_CONFLICTS = 1, 0, -1


def groups(n: int, r: int, units: np.ndarray, cell_units: np.ndarray, locked: bool) -> tuple[np.ndarray, ...]:
    """Every exactly-one group as literals (2 * variable + negated), padded with -1: each cell's N digits, each unit
    and digit's N cells; with ``locked``, the box-line variables and their groups too (module docstring). Returns
    (members, sizes, var_groups, var_negated, var_counts): each group's literals and size, and each variable's
    groups, whether it is negated in each, and how many. Built in Python, once an instance, outside the timing."""
    c = n // r
    n_cells, cell_vars = n * n, n * n * n
    lists: list[list[int]] = [[2 * (cell * n + d) for d in range(n)] for cell in range(n_cells)]
    lists += [[2 * (int(units[u, i]) * n + d) for i in range(n)] for u in range(units.shape[0]) for d in range(n)]
    variables = cell_vars
    if locked:
        def line_var(box: int, k: int, d: int, column: bool) -> int:  # k: the row (or column) within the box
            return cell_vars + ((n * r * n if column else 0) + (box * (c if column else r) + k) * n + d)
        variables = cell_vars + n * r * n + n * c * n
        box_cells = units[2 * n:]
        for box in range(n):
            for d in range(n):
                lists.append([2 * line_var(box, k, d, False) for k in range(r)])  # the box's d is in one row
                lists.append([2 * line_var(box, k, d, True) for k in range(c)])  # ... and in one column
                for k in range(r):  # d in row k of the box iff in one of its cells there
                    lists.append([2 * (int(box_cells[box, k * c + j]) * n + d) for j in range(c)]
                                 + [2 * line_var(box, k, d, False) + 1])
                for k in range(c):
                    lists.append([2 * (int(box_cells[box, i * c + k]) * n + d) for i in range(r)]
                                 + [2 * line_var(box, k, d, True) + 1])
        for line in range(n):
            for d in range(n):  # a row's d is in one of the boxes it crosses, and so is a column's
                lists.append([2 * line_var((line // r) * r + b, line % r, d, False) for b in range(n // c)])
                lists.append([2 * line_var(b * r + line // c, line % c, d, True) for b in range(n // r)])
    members = np.full((len(lists), n), -1, np.int32)
    sizes = np.array([len(group) for group in lists], np.int32)
    of_var: list[list[int]] = [[] for _ in range(variables)]
    for g, group in enumerate(lists):
        members[g, : len(group)] = group
        for literal in group:
            of_var[literal >> 1].append(2 * g + (literal & 1))
    width = max(len(x) for x in of_var)
    var_groups = np.full((variables, width), -1, np.int32)
    var_negated = np.zeros((variables, width), np.int8)
    for v, entries in enumerate(of_var):
        var_groups[v, : len(entries)] = [e >> 1 for e in entries]
        var_negated[v, : len(entries)] = [e & 1 for e in entries]
    var_counts = np.array([len(x) for x in of_var], np.int32)
    return members, sizes, var_groups, var_negated, var_counts


@njit(cache=True)
def _heap_up(heap, hpos, act, i):
    v = heap[i]
    while i > 0 and act[heap[(i - 1) >> 1]] < act[v]:
        heap[i] = heap[(i - 1) >> 1]
        hpos[heap[i]] = i
        i = (i - 1) >> 1
    heap[i] = v
    hpos[v] = i


@njit(cache=True)
def _heap_down(heap, hpos, act, size, i):
    v = heap[i]
    while 2 * i + 1 < size:
        c = 2 * i + 1
        if c + 1 < size and act[heap[c + 1]] > act[heap[c]]:
            c += 1
        if act[heap[c]] <= act[v]:
            break
        heap[i] = heap[c]
        hpos[heap[i]] = i
        i = c
    heap[i] = v
    hpos[v] = i


@njit(cache=True)
def _bump(q, act, var_inc, heap, hpos):
    act[q] += var_inc
    if hpos[q] >= 0:
        _heap_up(heap, hpos, act, hpos[q])


@njit(cache=True)
def solve(cells, n, members, sizes, var_groups, var_negated, var_counts, max_conflicts, unit, decay, seed, out,
          stats, decide_below):
    """A first solution of ``cells`` (uint8[N*N]) into ``out``: ``SAT``, ``UNSAT`` or ``OUT_OF_CONFLICTS``.
    The groups come from ``groups``. ``stats``: conflicts, decisions, propagated assignments."""
    nv = var_groups.shape[0]
    value = np.full(nv, -1, np.int8)
    phase = np.ones(nv, np.int8)
    level = np.zeros(nv, np.int32)
    rkind = np.zeros(nv, np.int8)
    rval = np.zeros(nv, np.int32)
    trail = np.empty(nv, np.int32)
    lim = np.empty(nv + 1, np.int32)
    alive = sizes.copy()  # members not (yet propagated as) false
    gtrue = np.full(members.shape[0], -1, np.int32)  # the variable of the member propagated true, -1 for none
    act = np.zeros(nv, np.float64)
    if seed != 0:
        np.random.seed(seed)
        for i in range(nv):
            act[i] = np.random.random() * 1e-3
    heap = np.arange(nv).astype(np.int32)
    hpos = np.arange(nv).astype(np.int32)
    hsize = nv
    for i in range(nv // 2 - 1, -1, -1):
        _heap_down(heap, hpos, act, nv, i)
    var_inc = 1.0
    seen = np.zeros(nv, np.int8)
    learnt = np.empty(2 * nv + 2, np.int32)
    arena = np.empty(1 << 16, np.int32)  # learnt clauses' literals (2 * var + negated); two first are watched
    used = 0
    cl_start = np.empty(1024, np.int64)
    cl_len = np.empty(1024, np.int32)
    n_cl = 0
    whead = np.full(2 * nv, -1, np.int32)  # watchers of a literal: a linked list of (clause, next)
    wnext = np.empty(2048, np.int32)
    wcl = np.empty(2048, np.int32)
    n_w = 0
    tl = qhead = dl = 0
    conflicts = decisions = props = 0
    for c in range(n * n):
        d = np.int64(cells[c])
        if d != 0:
            v = c * n + d - 1
            value[v] = 1
            trail[tl] = v
            tl += 1
    restarts = 1
    since_restart = 0
    while True:
        ckind = ca = cb = 0  # a conflict: AMO (ca, cb both true), ALO (group ca all false), CLAUSE (ca)
        while qhead < tl and ckind == 0:
            v = trail[qhead]
            qhead += 1
            props += 1
            val = value[v]
            for j in range(var_counts[v]):  # every group first (undo counts on all of them), conflicts noted
                g = var_groups[v, j]
                if val ^ var_negated[v, j] == 1:
                    if gtrue[g] == -1:
                        gtrue[g] = v
                    elif gtrue[g] != v and ckind == 0:
                        ckind, ca, cb = AMO, v, gtrue[g]
                else:
                    alive[g] -= 1
            for j in range(var_counts[v]):
                if ckind != 0:
                    break
                g = var_groups[v, j]
                if val ^ var_negated[v, j] == 1:  # at most one: every other member false
                    for i in range(sizes[g]):
                        m = members[g, i]
                        u = m >> 1
                        if u == v:
                            continue
                        if value[u] == -1:
                            value[u], level[u], rkind[u], rval[u] = m & 1, dl, AMO, v
                            trail[tl] = u
                            tl += 1
                        elif value[u] ^ (m & 1) == 1:
                            ckind, ca, cb = AMO, v, u
                            break
                else:  # at least one: the last member not false is true
                    if gtrue[g] != -1 or alive[g] > 1:
                        continue
                    if alive[g] == 0:
                        ckind, ca = ALO, g
                        break
                    for i in range(sizes[g]):
                        m = members[g, i]
                        u = m >> 1
                        if value[u] == -1:
                            value[u], level[u], rkind[u], rval[u] = 1 ^ (m & 1), dl, ALO, g
                            trail[tl] = u
                            tl += 1
                        if value[u] ^ (m & 1) != 0:
                            break
            falselit = 2 * v + val
            if ckind != 0:
                break
            prev, node = -1, whead[falselit]
            while node != -1:
                nxt, c = wnext[node], wcl[node]
                s = cl_start[c]
                if arena[s] == falselit:
                    arena[s], arena[s + 1] = arena[s + 1], falselit
                first = arena[s]
                if value[first >> 1] == 1 - (first & 1):  # satisfied
                    prev, node = node, nxt
                    continue
                moved = False
                for k in range(2, cl_len[c]):
                    lk = arena[s + k]
                    if value[lk >> 1] != (lk & 1):  # not false: watch it instead
                        arena[s + 1], arena[s + k] = lk, falselit
                        if prev == -1:
                            whead[falselit] = nxt
                        else:
                            wnext[prev] = nxt
                        wnext[node], whead[lk] = whead[lk], node
                        moved = True
                        break
                if moved:
                    node = nxt
                    continue
                if value[first >> 1] == (first & 1):
                    ckind, ca = CLAUSE, c
                    break
                u = first >> 1
                value[u], level[u], rkind[u], rval[u] = 1 - (first & 1), dl, CLAUSE, c
                trail[tl] = u
                tl += 1
                prev, node = node, nxt
        if ckind == 0:
            v = -1
            while hsize > 0 and v == -1:
                top = heap[0]
                hsize -= 1
                hpos[top] = -1
                if hsize > 0:
                    heap[0] = heap[hsize]
                    hpos[heap[0]] = 0
                    _heap_down(heap, hpos, act, hsize, 0)
                if value[top] == -1 and top < decide_below:
                    v = top
            if v == -1:  # everything assigned, nothing in conflict
                for i in range(n * n * n):
                    if value[i] == 1:
                        out[i // n] = i % n + 1
                stats[0], stats[1], stats[2] = conflicts, decisions, props
                return SAT
            decisions += 1
            lim[dl] = tl
            dl += 1
            value[v], level[v], rkind[v] = phase[v], dl, DECIDED
            trail[tl] = v
            tl += 1
            continue
        conflicts += 1
        since_restart += 1
        if dl == 0:
            stats[0], stats[1], stats[2] = conflicts, decisions, props
            return UNSAT
        # the first unique implication point: resolve the conflict with the reasons of this level's variables
        path, out_len, p, idx, kind, ra, rb = 0, 1, -1, tl - 1, ckind, ca, cb
        while True:
            for i in range(_reason_size(kind, ra, p == -1, sizes, cl_len)):
                q = _reason_var(kind, ra, rb, i, members, arena, cl_start)
                if q == p or seen[q] != 0 or level[q] == 0:
                    continue
                seen[q] = 1
                _bump(q, act, var_inc, heap, hpos)
                if level[q] == dl:
                    path += 1
                else:
                    learnt[out_len] = 2 * q + value[q]
                    out_len += 1
            while seen[trail[idx]] == 0:
                idx -= 1
            p = trail[idx]
            idx -= 1
            seen[p] = 0
            path -= 1
            if path == 0:
                break
            kind, ra = rkind[p], rval[p]
        learnt[0] = 2 * p + value[p]
        kept = 1  # local minimisation; the kept literals gather past the clause (seen stays as it was meanwhile)
        for i in range(1, out_len):
            q = learnt[i] >> 1
            keep = rkind[q] == DECIDED or rkind[q] == NONE
            for m in range(0 if keep else _reason_size(rkind[q], rval[q], False, sizes, cl_len)):
                w = _reason_var(rkind[q], rval[q], 0, m, members, arena, cl_start)
                if w != q and seen[w] == 0 and level[w] > 0:
                    keep = True
                    break
            if keep:
                learnt[out_len + kept] = learnt[i]
                kept += 1
        for i in range(1, out_len):
            seen[learnt[i] >> 1] = 0
        for i in range(1, kept):
            learnt[i] = learnt[out_len + i]
        out_len = kept
        back = 0
        if out_len > 1:
            best = 1
            for i in range(2, out_len):
                if level[learnt[i] >> 1] > level[learnt[best] >> 1]:
                    best = i
            learnt[1], learnt[best] = learnt[best], learnt[1]
            back = level[learnt[1] >> 1]
        var_inc /= decay
        if var_inc > 1e100:
            act *= 1e-100
            var_inc *= 1e-100
        restart = out_len > 1 and back > 0 and since_restart >= luby(restarts) * unit
        if restart:
            since_restart = 0
            restarts += 1
        dl = 0 if restart else back
        tl, hsize = _cancel(dl, lim, trail, tl, qhead, value, phase, var_groups, var_negated, var_counts, gtrue, alive,
                            heap, hpos, hsize, act)
        qhead = tl
        if out_len > 1:
            if used + out_len > arena.shape[0]:
                arena = _grown(arena, used + out_len)
            if n_cl == cl_start.shape[0]:
                cl_start, cl_len = _grown(cl_start, n_cl + 1), _grown(cl_len, n_cl + 1)
            if n_w + 2 > wnext.shape[0]:
                wnext, wcl = _grown(wnext, n_w + 2), _grown(wcl, n_w + 2)
            arena[used:used + out_len] = learnt[:out_len]
            cl_start[n_cl], cl_len[n_cl] = used, out_len
            used += out_len
            for t in range(2):
                wcl[n_w], wnext[n_w], whead[learnt[t]] = n_cl, whead[learnt[t]], n_w
                n_w += 1
            n_cl += 1
        u = learnt[0] >> 1
        phase[u] = 1 - (learnt[0] & 1)
        if not restart:  # the asserting literal (after a restart, the clause waits for its literals like any other)
            value[u], level[u] = 1 - (learnt[0] & 1), dl
            rkind[u], rval[u] = (CLAUSE, n_cl - 1) if out_len > 1 else (NONE, 0)
            trail[tl] = u
            tl += 1
        if conflicts >= max_conflicts:
            stats[0], stats[1], stats[2] = conflicts, decisions, props
            return OUT_OF_CONFLICTS


@njit(cache=True)
def _reason_size(kind, ra, conflict, sizes, cl_len):
    """How many variables ``_reason_var`` enumerates for a reason (or, with ``conflict``, a conflict) of ``kind``."""
    if kind == ALO:
        return sizes[ra]
    if kind == AMO:
        return 2 if conflict else 1
    return cl_len[ra]


@njit(cache=True)
def _reason_var(kind, ra, rb, i, members, arena, cl_start):
    """The i-th variable of a reason or conflict: the members of group ``ra`` (ALO), the true variables ``ra`` and
    ``rb`` (AMO; a reason has ``ra`` only) or the literals of learnt clause ``ra`` (CLAUSE). It may be the variable
    the reason is for: callers skip it."""
    if kind == ALO:
        return members[ra, i] >> 1
    if kind == AMO:
        return ra if i == 0 else rb
    return arena[cl_start[ra] + i] >> 1


@njit(cache=True)
def _cancel(to_level, lim, trail, tl, qhead, value, phase, var_groups, var_negated, var_counts, gtrue, alive, heap,
            hpos, hsize, act):
    """Undo every assignment above ``to_level`` (the group counts of those already propagated too), saving their
    phases and putting their variables back in the heap; the new trail length and heap size."""
    stop_at = lim[to_level]
    for i in range(tl - 1, stop_at - 1, -1):
        v = trail[i]
        if i < qhead:
            for j in range(var_counts[v]):
                g = var_groups[v, j]
                if value[v] ^ var_negated[v, j] == 0:
                    alive[g] += 1
                elif gtrue[g] == v:
                    gtrue[g] = -1
        phase[v] = value[v]
        value[v] = -1
        if hpos[v] < 0:
            heap[hsize] = v
            hpos[v] = hsize
            hsize += 1
            _heap_up(heap, hpos, act, hsize - 1)
    return stop_at, hsize


@njit(cache=True)
def _grown(array, needed):
    bigger = np.empty(max(2 * array.shape[0], needed), array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


def run_search(args: argparse.Namespace, lines: list[str]) -> None:
    for index in instances([args.instances], len(lines)):
        grid = Grid.parse(lines[index])
        cells = np.frombuffer(grid.cells, np.uint8).copy()
        units, cell_units, _ = grid.shape.tables
        tables = groups(grid.shape.n, grid.shape.box_rows, units, cell_units, args.locked)
        conflicts, times = [], []
        for seed in seeds(args.seeds):
            out, stats = np.zeros_like(cells), np.zeros(3, np.int64)
            start = time.perf_counter()
            status = solve(cells, grid.shape.n, *tables, args.max_conflicts, args.unit, args.decay, seed, out, stats,
                           grid.shape.n**3 if args.decide_cells else tables[2].shape[0])
            times.append(time.perf_counter() - start)
            if status == SAT and not verify_solutions(cells[None], out[None], grid.shape)[0]:
                raise SystemExit(f"instance {index}, seed {seed}: a wrong solution")
            if status == UNSAT:
                raise SystemExit(f"instance {index}, seed {seed}: 'no solution' for a solvable instance")
            conflicts.append(int(stats[0]) if status == SAT else -1)
        print(f"{index}: conflicts {conflicts} (median {statistics.median(conflicts):,.0f}), "
              f"ms {[round(t * 1e3) for t in times]}", flush=True)


def run_cadical(args: argparse.Namespace, lines: list[str]) -> None:
    import compare_bench  # benchmarks/, on sys.path above
    from pysat.solvers import Cadical153

    rng = np.random.default_rng(args.rename_seed)
    for index in instances([args.instances], len(lines)):
        grid = Grid.parse(lines[index])
        n = grid.shape.n
        rules = compare_bench.rule_clauses(n, "pairwise")
        givens = [[c * n + int(v)] for c, v in enumerate(np.frombuffer(grid.cells, np.uint8)) if v]
        for renaming in range(args.renamings):
            names = np.arange(1, n**3 + 1) if renaming == 0 else rng.permutation(n**3) + 1
            clauses = [[int(names[abs(x) - 1]) * (1 if x > 0 else -1) for x in c] for c in rules + givens]
            with Cadical153(bootstrap_with=clauses) as solver:
                start = time.perf_counter()
                assert solver.solve()
                elapsed = time.perf_counter() - start
                print(f"{index}, {'as numbered' if renaming == 0 else f'renaming {renaming}'}: "
                      f"{solver.accum_stats()['conflicts']:,} conflicts, {elapsed * 1e3:.0f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["search", "cadical"])
    parser.add_argument("--file", default=FILE)
    parser.add_argument("--instances", default="461",
                        help="0-based lines, comma-separated, ranges a-b, or H20, H45, all")
    parser.add_argument("--seeds", default="1",
                        help="search: seeds of the first activities (0: none), a-b or a comma list")
    parser.add_argument("--unit", type=int, default=16, help="search: conflicts a Luby unit (default 16)")
    parser.add_argument("--decay", type=float, default=0.99, help="search: VSIDS decay (default 0.99)")
    parser.add_argument("--max-conflicts", type=int, default=300_000)
    parser.add_argument("--decide-cells", action="store_true",
                        help="search: decide on (cell, digit) variables only, never on box-line ones")
    parser.add_argument("--locked", action="store_true",
                        help="search: add the box-line variables, so that propagation does locked candidates")
    parser.add_argument("--renamings", type=int, default=8, help="cadical: runs, the first as numbered")
    parser.add_argument("--rename-seed", type=int, default=0)
    args = parser.parse_args()
    with open(args.file) as file:
        lines = [line.strip() for line in file if line.strip() and not line.startswith("#")]
    (run_search if args.what == "search" else run_cadical)(args, lines)


if __name__ == "__main__":
    main()

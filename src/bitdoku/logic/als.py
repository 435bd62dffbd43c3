"""Almost locked sets (ALS): N open cells of one unit that hold N+1 digits between them.

An ALS is one digit short of a locked set: take any one of its digits away and the rest are locked in it (each
placed in one of its cells). Two ALS whose instances of a digit x all see each other cannot both hold x, so one
of them is locked on its other digits; this *restricted common candidate* (RCC) is the link every technique here
uses (https://hodoku.sourceforge.net/en/tech_als.php).

- **ALS-XZ**: ALS A and B with an RCC x and another common digit z: one of them is locked and holds z, so z
  leaves every cell that sees all the z's of both. With two RCCs (doubly linked) both are locked but for one RCC
  each: every other digit of A leaves the cells that see all its instances in A (the same for B), and each RCC
  leaves the cells that see all its instances in both.
- **ALS-XY-Wing**: a pivot ALS C linked to A by RCC x and to B by RCC y (x != y). C cannot give up both digits,
  so A or B is locked, and a digit z of both A and B leaves the cells that see all its instances in A and B.
- **Death Blossom**: a stem cell whose every candidate d is an RCC to a petal ALS (all d's of the petal see the
  stem). Whatever the stem holds, that petal is locked, so a digit z of every petal (not a stem candidate) leaves
  the cells that see all its instances in the petals.
- **Sue de Coq**: the 2 or 3 cells C where a line meets a box hold digits V, at least |C| + 2 of them; cells L of
  the rest of the line and B of the rest of the box, with digits VL and VB sharing none, make |C|+|L|+|B| cells
  for as many digits. Each digit then lies once in them: VL's in the line, VB's in the box, V's others in C. So
  VL and V - VB leave the rest of the line, VB and V - VL the rest of the box
  (https://hodoku.sourceforge.net/en/tech_misc.php; the extended form lets L and B hold digits outside V).

Each finder collects the ALS once per call (bitsets over the N*N cells, one per digit), keeps the search bounded
(``max_als_cells``, ``max_stem_digits``), and yields the smallest patterns first (fewest cells). ALS of one
pattern never overlap (HoDoKu's default), and two ALS of one unit are not paired by ALS-XZ: together they are a
plain locked set, which naked and hidden subsets already use. Sudoku Explainer has none of these; HoDoKu scores
them Sue de Coq 250, ALS-XZ 300, ALS-XY-Wing 320, Death Blossom 360 (all "unfair"), so no ``difficulty`` is set.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import NamedTuple

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid, digits_of, layout_of
from bitdoku.logic.step import Step, digit_list, make_step, names, removals
from bitdoku.shape import Shape

ALS_XZ = "ALS-XZ"
ALS_XY_WING = "ALS-XY-Wing"
DEATH_BLOSSOM = "Death Blossom"
SUE_DE_COQ = "Sue de Coq"


class Als(NamedTuple):
    """An almost locked set: its cells (a bitset over the grid's cells), its digits (a mask), its unit."""

    cells: int
    digits: int
    unit: int
    size: int


#: At most this many ALS (the smallest) and RCC links are kept for one state. A stalled 9x9 state has about 160
#: ALS (300 at most) and 300 links (1,600 at most); a nearly full 64x64 grid has thousands of bivalue cells and
#: millions of links, so the caps keep every finder bounded there (the patterns left out are larger ones).
MAX_ALS = 1500
MAX_LINKS = 20_000


def max_als_cells(n: int) -> int:
    """The largest ALS collected: 5 cells for 9x9 and smaller grids, fewer on big grids so that the subset search
    of a unit (C(open, size)) stays bounded."""
    if n <= 9:
        return 5
    if n <= 16:
        return 4
    return 3 if n <= 25 else 2


@cache
def peer_bits(shape: Shape) -> tuple[int, ...]:
    """For each cell, its peers as a bitset (pure, cached per shape)."""
    return tuple(sum(1 << p for p in peers) for peers in layout_of(shape).peers)


@cache
def unit_bits(shape: Shape) -> tuple[int, ...]:
    """For each unit, its cells as a bitset (pure, cached per shape)."""
    return tuple(sum(1 << c for c in unit) for unit in layout_of(shape).units)


def bits_of(bits: int) -> list[int]:
    """The cells of a bitset, in increasing order."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return cells


def seen_by_all(bits: int, peers: tuple[int, ...]) -> int:
    """The cells that see every cell of a (non-empty) bitset, none of them included."""
    seen = -1
    while bits:
        low = bits & -bits
        seen &= peers[low.bit_length() - 1]
        bits ^= low
    return seen


def digit_bits(cg: CandidateGrid) -> list[int]:
    """For each digit (index d-1), the bitset of the cells where it is a candidate."""
    out = [0] * cg.n
    for cell, mask in enumerate(cg.masks):
        while mask:
            low = mask & -mask
            out[low.bit_length() - 1] |= 1 << cell
            mask ^= low
    return out


def collect_als(cg: CandidateGrid, max_cells: int | None = None) -> list[Als]:
    """Every ALS of up to ``max_cells`` cells (default ``max_als_cells``), each once, smallest first (at most
    ``MAX_ALS``); a bivalue cell is an ALS of one cell. An ALS lying in two units (a row's part of a box) is listed
    with the first."""
    bound = max_als_cells(cg.n) if max_cells is None else max_cells
    masks = cg.masks
    found: dict[int, Als] = {}
    for index, unit in enumerate(cg.layout.units):
        for bits, digits, size in _unit_sets([c for c in unit if masks[c]], masks, bound):
            if digits.bit_count() == size + 1 and bits not in found:
                found[bits] = Als(bits, digits, index, size)
    return sorted(found.values(), key=lambda a: (a.size, a.cells))[:MAX_ALS]


def _unit_sets(cells: list[int], masks: tuple[int, ...], bound: int) -> list[tuple[int, int, int]]:
    """The sets of up to ``bound`` of the cells as (bitset, digits, size), leaving out those with more than
    bound+1 digits: adding cells never removes a digit, so none of them can grow into an ALS."""
    sets: list[tuple[int, int, int]] = []
    most = bound + 1
    for cell in cells:
        bit, mask = 1 << cell, masks[cell]
        grown = [(bits | bit, digits | mask, size + 1) for bits, digits, size in sets if size < bound]
        sets += [entry for entry in grown if entry[1].bit_count() <= most]
        if mask.bit_count() <= most:
            sets.append((bit, mask, 1))
    return sets


class _Pool:
    """The ALS of one state and, for each digit x (index d-1), the ALS holding it with their cells of x
    (``holders[x]``) and, for each ALS, the cells that see all its x's (``xseen[x][i]``, 0 when it lacks x): the
    tables the finders read."""

    __slots__ = ("_links", "als", "cg", "dbits", "holders", "n", "peers", "reach", "xseen")

    def __init__(self, cg: CandidateGrid, max_cells: int | None = None) -> None:
        self.cg = cg
        self.n = cg.n
        self._links: dict[tuple[int, int], int] | None = None
        self.peers = peers = peer_bits(cg.shape)
        self.dbits = digit_bits(cg)
        self.als = collect_als(cg, max_cells)
        count, dbits = len(self.als), self.dbits
        self.xseen = [[0] * count for _ in range(self.n)]
        self.holders: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]  # (ALS, its x-cells) for each x
        #: For each ALS, the digits x some cell outside it could lose (a cell with x sees all the ALS's x's):
        #: a digit missing here can never be eliminated through this ALS, which prunes every search.
        self.reach = reach = [0] * count
        cache: dict[int, int] = {}
        for i, a in enumerate(self.als):
            digits, cells_of_als = a.digits, a.cells
            while digits:
                low = digits & -digits
                digits ^= low
                x = low.bit_length() - 1
                cells = dbits[x] & cells_of_als
                seen = cache.get(cells)
                if seen is None:
                    seen = cache[cells] = seen_by_all(cells, peers)
                self.xseen[x][i] = seen
                self.holders[x].append((i, cells))
                if seen & dbits[x]:
                    reach[i] |= low

    def rcc_pairs(self) -> dict[tuple[int, int], int]:
        """The pairs of disjoint ALS (indices i < j) with their restricted common candidates as a mask.

        Cells that all see each other lie in one unit, so x is an RCC of A and B exactly when their x-cells are
        disjoint and lie together in some unit U. Each ALS is filed under the units holding all its x-cells, as
        *own* (the whole ALS lies in U) or *foreign*; two own ALS of one unit are not paired, since their union
        is a plain locked set of that unit (naked and hidden subsets already use it). Computed once per pool.
        """
        if self._links is None:
            self._links = self._find_links()
        return self._links

    def _find_links(self) -> dict[tuple[int, int], int]:
        """The links of ``rcc_pairs``, digit by digit and unit by unit."""
        links: dict[tuple[int, int], int] = {}
        units, cell_units = unit_bits(self.cg.shape), self.cg.layout.cell_units
        cells_of = [a.cells for a in self.als]
        for x in range(self.n):
            own: dict[int, list[tuple[int, int]]] = {}
            foreign: dict[int, list[tuple[int, int]]] = {}
            for entry in self.holders[x]:
                xc = entry[1]
                ci = cells_of[entry[0]]
                for u in cell_units[(xc & -xc).bit_length() - 1]:
                    ub = units[u]
                    if not xc & ~ub:
                        (foreign if ci & ~ub else own).setdefault(u, []).append(entry)
            bit = 1 << x
            for u, outsiders in foreign.items():
                if len(links) > MAX_LINKS:
                    return links
                others = own.get(u, [])
                for k, (i, xi) in enumerate(outsiders):
                    ci = cells_of[i]
                    for j, xj in outsiders[k + 1 :] + others:
                        if not (xi & xj or ci & cells_of[j]):
                            key = (i, j) if i < j else (j, i)
                            links[key] = links.get(key, 0) | bit
        return links

    def name(self, index: int) -> str:
        """An ALS as the texts write it: ``{1, 4, 7} in r1c1, r1c2``."""
        a = self.als[index]
        return f"{digit_list(digits_of(a.digits))} in {names(bits_of(a.cells), self.n)}"


_last_pool: _Pool | None = None


def pool_for(cg: CandidateGrid) -> _Pool:
    """The ALS tables of a state, built once for the ALS finders that the ladder runs on it in turn (ALS-XZ, then
    ALS-XY-Wing, then Death Blossom): the last pool is kept and reused for an equal state. The tables depend only on
    the state's candidates, so reuse is safe; one slot replaced whole keeps it safe across threads too."""
    global _last_pool
    last = _last_pool
    if last is not None and last.cg == cg:
        return last
    pool = _last_pool = _Pool(cg)
    return pool


def _eliminations(targets: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(cell bitset, digit) pairs spread into (cell, digit) eliminations."""
    return [(cell, digit) for bits, digit in targets for cell in bits_of(bits)]


def find_als_xz(cg: CandidateGrid) -> Iterator[Step]:
    """ALS-XZ, singly and doubly linked, the pairs with the fewest cells first."""
    pool = pool_for(cg)
    links = pool.rcc_pairs()
    als, xseen, dbits = pool.als, pool.xseen, pool.dbits
    for i, j in sorted(links, key=lambda p: (als[p[0]].size + als[p[1]].size, p)):
        rcc = links[(i, j)]
        a, b = als[i], als[j]
        found: list[tuple[int, int]] = []
        if rcc & (rcc - 1):  # doubly linked: both ALS are locked but for one RCC each
            for k, other in ((i, b), (j, a)):
                for d in digits_of(als[k].digits & ~rcc & pool.reach[k]):
                    found.append((xseen[d - 1][k] & dbits[d - 1] & ~other.cells, d))
            for x in digits_of(rcc):
                found.append((xseen[x - 1][i] & xseen[x - 1][j] & dbits[x - 1], x))
        else:
            for z in digits_of(a.digits & b.digits & ~rcc & pool.reach[i] & pool.reach[j]):
                found.append((xseen[z - 1][i] & xseen[z - 1][j] & dbits[z - 1], z))
        gone = _eliminations(found)
        if gone:
            yield _xz_step(pool, i, j, rcc, gone)


def _lies(gone: list[tuple[int, int]]) -> str:
    """``7 lies`` or ``each of {7, 9} lies``: the digits an ALS pattern eliminates."""
    digits = sorted({d for _, d in gone})
    return f"{digits[0]} lies" if len(digits) == 1 else f"each of {digit_list(digits)} lies"


def _xz_step(pool: _Pool, i: int, j: int, rcc: int, gone: list[tuple[int, int]]) -> Step:
    a, b, n = pool.als[i], pool.als[j], pool.n
    if rcc & (rcc - 1):
        why = (
            f"share the restricted commons {digit_list(digits_of(rcc))}, so both are locked and each holds all its "
            "other digits"
        )
        kind = "doubly linked ALS-XZ"
    else:
        x = rcc.bit_length()
        why = (
            f"share the restricted common {x} (its cells all see each other), so one of them is locked without {x} "
            f"and {_lies(gone)} in one of the two"
        )
        kind = ALS_XZ
    text = f"ALS {pool.name(i)} and ALS {pool.name(j)} {why}: remove {removals(gone, n)} ({kind})"
    return make_step(ALS_XZ, pool.cg, text, eliminations=gone, cells=bits_of(a.cells | b.cells), units=[a.unit, b.unit])


def find_als_xy_wings(cg: CandidateGrid) -> Iterator[Step]:
    """ALS-XY-Wings: a pivot ALS linked to two wing ALS by different RCCs; the fewest cells first, found size by
    size so that the search stops at the smallest wing when the ladder takes the first."""
    pool = pool_for(cg)
    als = pool.als
    # For each pivot, its linked ALS grouped by size: {size: [(ALS, RCC mask)]}.
    wings: dict[int, dict[int, list[tuple[int, int]]]] = {}
    for (i, j), rcc in pool.rcc_pairs().items():
        wings.setdefault(i, {}).setdefault(als[j].size, []).append((j, rcc))
        wings.setdefault(j, {}).setdefault(als[i].size, []).append((i, rcc))
    bound = max((a.size for a in als), default=0)
    for total in range(3, 3 * bound + 1):
        found = []
        for pivot, by_size in wings.items():
            rest = total - als[pivot].size
            for size_a, group_a in by_size.items():
                size_b = rest - size_a
                if size_b < size_a or size_b not in by_size:
                    continue
                for k, (a, ra) in enumerate(group_a):
                    for b, rb in group_a[k + 1 :] if size_a == size_b else by_size[size_b]:
                        targets = _wing_targets(pool, a, ra, b, rb)
                        if targets:
                            found.append((pivot, min(a, b), max(a, b), targets))
        found.sort(key=lambda f: f[:3])
        for pivot, a, b, targets in found:
            yield _wing_step(pool, pivot, a, b, targets)


def _wing_targets(pool: _Pool, a: int, ra: int, b: int, rb: int) -> list[tuple[int, int, int, int]]:
    """For two disjoint wings linked to the pivot by ``ra`` and ``rb``: (cells, z, x, y) for each common digit z
    that leaves some cell, with links x and y (x != y, neither z)."""
    common = pool.reach[a] & pool.reach[b]
    if not common or pool.als[a].cells & pool.als[b].cells:
        return []
    xseen, dbits = pool.xseen, pool.dbits
    targets = []
    while common:
        low = common & -common
        common ^= low
        z = low.bit_length()
        hit = xseen[z - 1][a] & xseen[z - 1][b] & dbits[z - 1]
        if hit:
            x, y = _distinct_links(ra, rb, z)
            if x:
                targets.append((hit, z, x, y))
    return targets


def _distinct_links(ra: int, rb: int, z: int) -> tuple[int, int]:
    """RCC digits x of ``ra`` and y of ``rb`` with x != y, neither being z; (0, 0) when there are none."""
    zbit = 1 << (z - 1)
    ra &= ~zbit
    rb &= ~zbit
    if not ra or not rb or (ra == rb and not ra & (ra - 1)):
        return 0, 0
    x = ra & -ra
    rest = rb & ~x
    if not rest:  # rb is x alone, so ra holds another digit
        x = (ra & ~rb) & -(ra & ~rb)
        rest = rb
    return x.bit_length(), (rest & -rest).bit_length()


def _wing_step(pool: _Pool, pivot: int, a: int, b: int, targets: list[tuple[int, int, int, int]]) -> Step:
    als, n = pool.als, pool.n
    _, _, x, y = targets[0]  # the text names one pair of links: keep the digits that use the same
    gone = _eliminations([(hit, z) for hit, z, tx, ty in targets if (tx, ty) == (x, y)])
    text = (
        f"pivot ALS {pool.name(pivot)} is linked to ALS {pool.name(a)} by {x} and to ALS {pool.name(b)} by {y}: "
        f"it cannot lose both, so one wing is locked and {_lies(gone)} in a wing; remove {removals(gone, n)} "
        f"({ALS_XY_WING})"
    )
    cells = bits_of(als[pivot].cells | als[a].cells | als[b].cells)
    units = [als[pivot].unit, als[a].unit, als[b].unit]
    return make_step(ALS_XY_WING, pool.cg, text, eliminations=gone, cells=cells, units=units)


def max_stem_digits(n: int) -> int:
    """The most candidates a Death Blossom stem may have (one petal per candidate): 3 on 9x9 (HoDoKu finds
    few larger ones), 4 above."""
    return 3 if n <= 9 else 4


def find_death_blossoms(cg: CandidateGrid) -> Iterator[Step]:
    """Death Blossoms: a stem cell with a petal ALS for each of its candidates; the fewest petal cells first."""
    pool = pool_for(cg)
    als, xseen, dbits = pool.als, pool.xseen, pool.dbits
    limit = max_stem_digits(cg.n)
    # petals[stem][d-1]: the ALS whose d's all see the stem (pushed from each ALS to the cells that see its d's)
    petals: dict[int, list[list[int]]] = {}
    for x in range(cg.n):
        for i, _ in pool.holders[x]:
            for stem in bits_of(xseen[x][i] & dbits[x]):
                if cg.masks[stem].bit_count() <= limit:
                    petals.setdefault(stem, [[] for _ in range(cg.n)])[x].append(i)
    found = []
    chosen: Sequence[int]  # the petals: a list from _blossoms, then a tuple in found
    for stem, by_digit in petals.items():
        stem_mask = cg.masks[stem]
        digits = digits_of(stem_mask)
        if any(not by_digit[d - 1] for d in digits):
            continue
        for z in range(1, cg.n + 1):
            if stem_mask >> (z - 1) & 1:
                continue
            options = [[p for p in by_digit[d - 1] if pool.reach[p] >> (z - 1) & 1] for d in digits]
            if all(options):
                for chosen, hit in _blossoms(options, 0, [], 0, dbits[z - 1], xseen[z - 1], als):
                    found.append((sum(als[p].size for p in chosen), stem, z, tuple(chosen), hit))
    found.sort(key=lambda f: f[:4])
    for _, stem, z, chosen, hit in found:
        yield _blossom_step(pool, stem, z, chosen, hit)


def _blossoms(
    options: list[list[int]], depth: int, chosen: list[int], used: int, hit: int, seen: list[int], als: list[Als]
) -> Iterator[tuple[list[int], int]]:
    """Pick one petal per stem candidate, disjoint, keeping the cells that see every petal's z's (``hit``)."""
    if depth == len(options):
        yield list(chosen), hit
        return
    for p in options[depth]:
        cells = als[p].cells
        if cells & used:
            continue
        narrowed = hit & seen[p] & ~cells
        if narrowed:
            chosen.append(p)
            yield from _blossoms(options, depth + 1, chosen, used | cells, narrowed, seen, als)
            chosen.pop()


def _blossom_step(pool: _Pool, stem: int, z: int, chosen: tuple[int, ...], hit: int) -> Step:
    cg, n, als = pool.cg, pool.n, pool.als
    gone = [(cell, z) for cell in bits_of(hit)]
    parts = ", ".join(f"{d} to ALS {pool.name(p)}" for d, p in zip(digits_of(cg.masks[stem]), chosen, strict=True))
    text = (
        f"stem {cell_name(stem, n)} {digit_list(digits_of(cg.masks[stem]))} links {parts}: whatever the stem holds, "
        f"one petal is locked and holds {z}; remove {removals(gone, n)} ({DEATH_BLOSSOM})"
    )
    cells = [stem, *(c for p in chosen for c in bits_of(als[p].cells))]
    return make_step(DEATH_BLOSSOM, cg, text, eliminations=gone, cells=cells, units=[als[p].unit for p in chosen])


def find_sue_de_coq(cg: CandidateGrid) -> Iterator[Step]:
    """Sue de Coq, basic and extended: 2 or 3 open cells of a line-box meeting, the fewest cells first."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    bound = max_als_cells(n)
    found = []
    for box in range(2 * n, 3 * n):
        for line, segment in layout.segments[box]:
            meeting = [c for c in segment if masks[c]]
            if not 2 <= len(meeting) <= 4:
                continue
            line_sets = _cell_sets([c for c in layout.units[line] if masks[c] and c not in segment], masks, bound)
            box_sets = _cell_sets([c for c in layout.units[box] if masks[c] and c not in segment], masks, bound)
            for core in _cores(meeting):
                found.extend(_sue_de_coq_in(cg, line, box, core, line_sets, box_sets))
    found.sort(key=lambda f: f[:2])
    for _, _, line, box, core, line_set, box_set, gone in found:
        yield _sue_de_coq_step(cg, line, box, core, line_set, box_set, gone)


def _cores(meeting: list[int]) -> list[tuple[int, ...]]:
    """The sets of 2 or 3 open cells of a line-box meeting (3 first), for meetings of at most 4 open cells (a
    big grid's longer meetings are left out, which keeps the search bounded)."""
    if len(meeting) > 4:
        return []
    return [core for size in (3, 2) for core in combinations(meeting, size)]


def _cell_sets(cells: list[int], masks: tuple[int, ...], bound: int) -> list[tuple[int, int, int]]:
    """Every non-empty set of up to ``bound`` of the cells as (cell bitset, digit mask, size)."""
    sets: list[tuple[int, int, int]] = []
    for cell in cells:
        bit, mask = 1 << cell, masks[cell]
        sets += [(bits | bit, digits | mask, size + 1) for bits, digits, size in sets if size < bound]
        sets.append((bit, mask, 1))
    return sets


def _sue_de_coq_in(
    cg: CandidateGrid, line: int, box: int, core: tuple[int, ...], line_sets: list[tuple[int, int, int]],
    box_sets: list[tuple[int, int, int]],
) -> list[tuple[int, int, int, int, tuple[int, ...], int, int, list[tuple[int, int]]]]:
    """The Sue de Coqs on one set of meeting cells: a line set L and a box set B with no digit in common whose
    'gains' (cells minus digits outside V) add up to |V| - |C|, each at least 1."""
    masks, layout = cg.masks, cg.layout
    v = 0
    for c in core:
        v |= masks[c]
    spare = v.bit_count() - len(core)
    if spare < 2:
        return []
    by_gain: dict[int, list[tuple[int, int, int]]] = {}
    for entry in box_sets:
        gain = entry[2] - (entry[1] & ~v).bit_count()
        if 1 <= gain < spare:
            by_gain.setdefault(gain, []).append(entry)
    if not by_gain:
        return []
    core_bits = sum(1 << c for c in core)
    found = []
    for line_bits, vl, line_size in line_sets:
        gain = line_size - (vl & ~v).bit_count()
        if not 1 <= gain < spare:
            continue
        for box_bits, vb, box_size in by_gain.get(spare - gain, ()):
            if vl & vb:
                continue
            gone = [
                (c, d)
                for c in layout.units[line]
                if not (1 << c) & (core_bits | line_bits)
                for d in digits_of(masks[c] & (vl | (v & ~vb)))
            ]
            gone += [
                (c, d)
                for c in layout.units[box]
                if not (1 << c) & (core_bits | box_bits)
                for d in digits_of(masks[c] & (vb | (v & ~vl)))
            ]
            if gone:
                found.append(
                    (len(core) + line_size + box_size, len(gone) * -1, line, box, core, line_bits, box_bits, gone)
                )
    return found


def _sue_de_coq_step(
    cg: CandidateGrid, line: int, box: int, core: tuple[int, ...], line_bits: int, box_bits: int,
    gone: list[tuple[int, int]],
) -> Step:
    n, masks, shape = cg.n, cg.masks, cg.shape

    def digits(cells: Iterable[int]) -> str:
        mask = 0
        for c in cells:
            mask |= masks[c]
        return digit_list(digits_of(mask))

    line_cells, box_cells = bits_of(line_bits), bits_of(box_bits)
    total = len(core) + len(line_cells) + len(box_cells)
    text = (
        f"{names(core, n)} (where {shape.unit_name(line)} meets {shape.unit_name(box)}) hold {digits(core)}; with "
        f"{names(line_cells, n)} {digits(line_cells)} in the {shape.unit_name(line).split()[0]} and "
        f"{names(box_cells, n)} {digits(box_cells)} in the box, these {total} cells take {total} digits, each once: "
        f"remove {removals(gone, n)} ({SUE_DE_COQ})"
    )
    cells = [*core, *line_cells, *box_cells]
    return make_step(SUE_DE_COQ, cg, text, eliminations=gone, cells=cells, units=[line, box])

"""Chains of bivalue cells (cells with two candidates).

- **Remote Pairs**: a chain of cells that all hold the same pair {x, y}, each seeing the next. Along the chain
  the values alternate, so two cells an odd number of links apart (3 or more) hold x and y between them: both
  digits leave the cells that see both ends (https://www.sudokuwiki.org/Remote_Pairs).
- **XY-Chain**: bivalue cells, each seeing the next and sharing a digit with it; if the first cell is not z,
  the chain forces the last one to be z. So z leaves the cells that see both ends
  (https://www.sudokuwiki.org/XY_Chains). Found breadth first, shortest first, up to ``MAX_CHAIN_CELLS`` cells.

The general family runs on the link graph of ``logic.links`` (strong and weak links over candidates, optionally
with grouped nodes), breadth first from every node at once, so the shortest instance anywhere comes first, up to
``MAX_AIC_LINKS`` links (https://www.sudokuwiki.org/Alternating_Inference_Chains,
https://hodoku.sourceforge.net/en/tech_chains.php):

- **AIC** (``find_aics``): nodes joined by strong and weak links in turn, strong at both ends: one end is true.
  Every candidate weakly linked to both ends goes: with both ends the same digit (type 1) the digit leaves the
  cells that see both ends; with two digits in cells that see each other (type 2) each end cell loses the other
  end's digit; two digits of one cell leave it holding only those two. The text names an X-Chain (one digit) or
  an XY-Chain (bivalue cells) when it is one.
- **Grouped AIC** (``find_grouped_aics``): the same with group nodes (a digit's places in a box-line
  intersection); only chains that use a group are reported (the others are plain AICs).
- **Continuous Nice Loop** (``find_continuous_nice_loops``): an AIC whose ends are weakly linked closes into a
  loop; then every weak link holds exactly one true node, so whatever sees both nodes of any weak link goes
  (the other cells of the unit for a digit link, the other digits of the cell for a cell link).
- **Discontinuous Nice Loop** (``find_discontinuous_nice_loops``): a loop broken at one candidate: if it is
  false the chain makes it true (two strong links meet: place it), or if it is true the chain makes it false
  (two weak links meet: remove it). Groups included.

Each step carries the SE rating of the same deduction (``difficulty``; an estimate for grouped chains, which SE
does not have). Sudoku Explainer's view of the same family (its cycles and forcing chains, with its difficulty) is in
``logic.se_chains``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import TypeVar

from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid, digits_of
from bitdoku.logic.difficulty import length_bonus
from bitdoku.logic.links import LinkGraph, iter_bits, link_graph, lockstep, trace
from bitdoku.logic.step import Step, digit_list, make_step, removals

REMOTE_PAIRS = "Remote Pairs"
XY_CHAIN = "XY-Chain"
AIC = "AIC"
GROUPED_AIC = "Grouped AIC"
CONTINUOUS_NICE_LOOP = "Continuous Nice Loop"
DISCONTINUOUS_NICE_LOOP = "Discontinuous Nice Loop"

#: The longest AIC or nice loop searched, in links.
MAX_AIC_LINKS = 15

#: The longest XY-Chain searched, in cells.
MAX_CHAIN_CELLS = 12

_Node = TypeVar("_Node")  # what a breadth-first search visits: a cell, or a (cell, digit) state


def find_remote_pairs(cg: CandidateGrid) -> Iterator[Step]:
    """Remote pairs: for each pair of digits, chains of cells holding exactly that pair."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    by_pair: dict[int, list[int]] = {}
    for cell, mask in enumerate(masks):
        if mask.bit_count() == 2:
            by_pair.setdefault(mask, []).append(cell)
    for pair, cells in sorted(by_pair.items()):
        if len(cells) < 4:
            continue
        members = set(cells)
        for start in cells:
            parent: dict[int, int | None] = {start: None}
            depth = {start: 0}
            queue = deque([start])
            while queue:
                cell = queue.popleft()
                for other in sorted(layout.peers[cell] & members):
                    if other in parent:
                        continue
                    parent[other], depth[other] = cell, depth[cell] + 1
                    queue.append(other)
                    if depth[other] % 2 == 1 and depth[other] >= 3:
                        seers = layout.common_peers((start, other))
                        gone = [(c, d) for c in sorted(seers) for d in digits_of(masks[c] & pair)]
                        if gone:
                            chain = _trace(parent, other)
                            text = (
                                f"{' - '.join(cell_name(c, n) for c in chain)} all hold {digit_list(digits_of(pair))}"
                                f" and alternate, so {cell_name(start, n)} and {cell_name(other, n)} hold both: "
                                f"remove {removals(gone, n)} (remote pairs)"
                            )
                            yield make_step(REMOTE_PAIRS, cg, text, eliminations=gone, cells=chain)


def _trace(parent: dict[_Node, _Node | None], end: _Node | None) -> list[_Node]:
    """The cells from the search's start to ``end``."""
    cells: list[_Node] = []
    while end is not None:
        cells.append(end)
        end = parent[end]
    return cells[::-1]


def find_xy_chains(cg: CandidateGrid) -> Iterator[Step]:
    """XY-Chains from each bivalue cell and each of its digits, shortest first."""
    masks, layout, n = cg.masks, cg.layout, cg.n
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    bivalue_set = set(bivalue)
    for start in bivalue:
        for z in digits_of(masks[start]):
            zbit = 1 << (z - 1)
            # A state (cell, digit) means "the cell holds digit"; the start holds its other digit when it is not z.
            first = (start, (masks[start] & ~zbit).bit_length())
            parent: dict[tuple[int, int], tuple[int, int] | None] = {first: None}
            queue = deque([(first, 1)])
            while queue:
                (cell, value), length = queue.popleft()
                if length >= MAX_CHAIN_CELLS:
                    continue
                vbit = 1 << (value - 1)
                for other in sorted(layout.peers[cell] & bivalue_set):
                    if not masks[other] & vbit or other == start:
                        continue
                    state = (other, (masks[other] & ~vbit).bit_length())
                    if state in parent:
                        continue
                    parent[state] = (cell, value)
                    queue.append((state, length + 1))
                    if state[1] == z and length + 1 >= 3:
                        seers = layout.common_peers((start, other))
                        gone = [(c, z) for c in sorted(seers) if masks[c] & zbit]
                        if gone:
                            chain = [c for c, _ in _trace(parent, state)]
                            shown = " - ".join(f"{cell_name(c, n)} {digit_list(digits_of(masks[c]))}" for c in chain)
                            text = (
                                f"{shown}: if {cell_name(start, n)} is not {z}, the chain makes "
                                f"{cell_name(other, n)} {z}; remove {removals(gone, n)} (XY-chain)"
                            )
                            yield make_step(XY_CHAIN, cg, text, eliminations=gone, cells=chain)


def _tables(g: LinkGraph) -> tuple[list[int], list[int]]:
    """All weak links and all strong links (between cells and inside cells)."""
    weak = [a | b for a, b in zip(g.weak_x, g.weak_cell, strict=True)]
    strong = [a | b for a, b in zip(g.strong_x, g.strong_y, strict=True)]
    return weak, strong


def _eliminations(g: LinkGraph, kills: int) -> list[tuple[int, int]]:
    """Candidate ids as (cell, digit) pairs."""
    return [(i % g.nn, i // g.nn + 1) for i in iter_bits(kills)]


def _chain_text(g: LinkGraph, path: list[int], first_strong: bool = True) -> str:
    """Eureka notation: ``5r1c2=5r1c8-5r3c7=...``; a strong link '=', a weak one '-'."""
    out = [g.name(path[0])]
    for i, node in enumerate(path[1:]):
        out.append(("=" if (i % 2 == 0) == first_strong else "-") + g.name(node))
    return "".join(out)


def _kind(g: LinkGraph, path: list[int]) -> str:
    """X-Chain (one digit), XY-Chain (bivalue cells, strong links inside cells) or AIC."""
    if len({g.digit(x) for x in path}) == 1:
        return "X-chain"
    pairs = zip(path[::2], path[1::2], strict=True)
    strong_in_cells = all(not g.is_group(a) and not g.is_group(b) and a % g.nn == b % g.nn for a, b in pairs)
    return "XY-chain" if strong_in_cells else "AIC"


def _se_estimate(g: LinkGraph, path: list[int], base_one_digit: float, complexity: int, loop: bool = False) -> float:
    """The rating SE gives the same deduction (its forcing chain or cycle of that many potentials, see
    ``logic.se_chains``): one digit ``base_one_digit`` (6.6 forcing X-chain, 6.5 X-cycle), a loop of bivalue
    cells 6.5 (Y-cycle), else 7.0; plus the length bonus. SE has no grouped nodes, so for grouped chains this is
    the rating of the same chain as if its groups were single candidates (an estimate)."""
    if len({g.digit(x) for x in path}) == 1:
        base = base_one_digit
    elif loop and _kind(g, path) == "XY-chain":
        base = 6.5
    else:
        base = 7.0
    return round(base + length_bonus(complexity - 2), 1)


def _cells_of(g: LinkGraph, path: list[int]) -> list[int]:
    return [c for x in path for c in g.cells(x)]


def _aic_steps(cg: CandidateGrid, grouped: bool) -> Iterator[Step]:
    g = link_graph(cg, grouped)
    weak, strong = _tables(g)
    starts = [(i, False) for i, s in enumerate(strong) if s]
    done: set[tuple[tuple[int, int], ...]] = set()
    size = g.n * g.nn
    for links, index, layers in lockstep(weak, strong, starts, MAX_AIC_LINKS):
        if links < 3 or not links & 1:
            continue
        start = starts[index][0]
        reach = layers[-1]
        for end in iter_bits(reach):
            kills = g.kills[start] & g.kills[end]
            if not kills:
                continue
            path = trace(layers, end, weak, strong, False)
            if grouped and all(x < size for x in path):
                continue
            gone = _eliminations(g, kills)
            key = tuple(sorted(gone))
            if key in done:
                continue
            done.add(key)
            kind = "grouped AIC" if grouped else _kind(g, path)
            text = (
                f"{_chain_text(g, path)}: {g.name(start)} or {g.name(end)} is true, so remove "
                f"{removals(gone, g.n)} ({kind})"
            )
            # As SE: a forcing chain from an eliminated candidate, "on" then "off" around the AIC.
            yield make_step(GROUPED_AIC if grouped else AIC, cg, text, eliminations=gone, cells=_cells_of(g, path),
                            difficulty=_se_estimate(g, path, 6.6, len(path) + 2))


def find_aics(cg: CandidateGrid) -> Iterator[Step]:
    """AICs over single candidates (X-Chains, XY-Chains and mixed), shortest first over the whole grid."""
    return _aic_steps(cg, grouped=False)


def find_grouped_aics(cg: CandidateGrid) -> Iterator[Step]:
    """AICs that use at least one group node, shortest first."""
    return _aic_steps(cg, grouped=True)


def find_continuous_nice_loops(cg: CandidateGrid, grouped: bool = True) -> Iterator[Step]:
    """Closed AICs (the ends weakly linked), shortest first: every weak link of the loop becomes strong."""
    g = link_graph(cg, grouped)
    weak, strong = _tables(g)
    starts = [(i, False) for i, s in enumerate(strong) if s]
    done: set[tuple[tuple[int, int], ...]] = set()
    for links, index, layers in lockstep(weak, strong, starts, MAX_AIC_LINKS):
        if links < 3 or not links & 1:
            continue
        start = starts[index][0]
        for end in iter_bits(layers[-1] & weak[start]):
            path = trace(layers, end, weak, strong, False)
            loop = [*path, start]
            kills = 0
            for a, b in zip(loop[1::2], loop[2::2], strict=True):
                kills |= g.kills[a] & g.kills[b]
            if not kills:
                continue
            gone = _eliminations(g, kills)
            key = tuple(sorted(gone))
            if key in done:
                continue
            done.add(key)
            text = (
                f"{_chain_text(g, loop)} is a closed loop, so each weak link holds exactly one true candidate: "
                f"remove {removals(gone, g.n)} (continuous nice loop)"
            )
            yield make_step(CONTINUOUS_NICE_LOOP, cg, text, eliminations=gone, cells=_cells_of(g, path),
                            difficulty=_se_estimate(g, path, 6.5, len(path), loop=True))


def find_discontinuous_nice_loops(cg: CandidateGrid, grouped: bool = True) -> Iterator[Step]:
    """Candidates whose falsehood implies their truth (placed) or whose truth implies their falsehood (removed),
    through alternating links, shortest first."""
    g = link_graph(cg, grouped)
    weak, strong = _tables(g)
    size = g.n * g.nn
    starts = [(i, t) for i in range(size) if strong[i] for t in (False, True)]
    done: set[int] = set()
    for links, index, layers in lockstep(weak, strong, starts, MAX_AIC_LINKS):
        start, first = starts[index]
        if links < 3 or start in done or not layers[-1] >> start & 1:
            continue
        done.add(start)
        path = trace(layers, start, weak, strong, first)
        cell, digit = start % g.nn, start // g.nn + 1
        name = cell_name(cell, g.n)
        if first:
            text = (
                f"{_chain_text(g, path, first_strong=False)}: if {name} were {digit}, the chain would remove it, "
                f"so remove {digit} from {name} (discontinuous nice loop)"
            )
            yield make_step(DISCONTINUOUS_NICE_LOOP, cg, text, eliminations=[(cell, digit)], cells=_cells_of(g, path),
                            difficulty=_se_estimate(g, path, 6.6, len(path)))
        else:
            text = (
                f"{_chain_text(g, path)}: if {name} were not {digit}, the chain would make it {digit}, "
                f"so {name} = {digit} (discontinuous nice loop)"
            )
            yield make_step(DISCONTINUOUS_NICE_LOOP, cg, text, placements=[(cell, digit)], cells=_cells_of(g, path),
                            difficulty=_se_estimate(g, path, 6.6, len(path)))

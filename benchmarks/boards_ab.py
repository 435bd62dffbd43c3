"""The bitboard kernel against an earlier commit's, in one process: same nodes, time a node (issue 12).

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/boards_ab.py --ref ca86c25                        # 25x25, first solution, H20 and 461
    python benchmarks/boards_ab.py --ref ca86c25 --mode dfs             # no restarts, 2,000 nodes, lines 301-500
    python benchmarks/boards_ab.py --ref ca86c25 --set 16x16 --instances all
    python benchmarks/boards_ab.py --generic b71526f^ --mode dfs           # against the generic kernel

Why: on a box shared with other jobs an absolute time means little, so the reference kernel
(``src/bitdoku/kernels/boards.py`` as it was at ``--ref``, written to a scratch folder and imported under
another name) and the kernel of the working tree run the same searches alternately, instance by instance,
``--rounds`` times, and the script prints the ratio of their medians. Every pair of searches must give the
same status, nodes and solution (the point of a change that only makes nodes cheaper); the script stops if
not. ``first``: ``boards.first_solution`` under the default seed (``dfs.RESTART_SEED``), as ``search(limit=1)``
runs it; ``dfs``: one depth-first search without restarts (``ALL_RULES``), as the node-speed part of
``boards_bench.py`` runs it, cut at ``--nodes``.

``--generic COMMIT`` (with ``--mode dfs``) takes as reference the cell-by-cell kernel of the whole package at
COMMIT (``kernels.dfs.search``, imported as a renamed copy of the package): ``b71526f^`` is the generic kernel
before issue 12, the "today's generic kernel" of its target "25x25 nodes/s at least 10x". Both kernels visit the
same nodes (the script checks), so the ratio is one of node costs, like for like. With ``--both-generic`` the
working tree's side is its generic kernel too (``GENERIC_ONLY``): ``--generic HEAD --both-generic --mode dfs``
times a change to the generic kernel.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np
from tail25_bench import instances  # this folder: the same names (H20, H45, all) and ranges

from bitdoku.benchmark import load
from bitdoku.kernels import boards
from bitdoku.kernels import status as codes
from bitdoku.kernels.dfs import RESTART_SEED
from bitdoku.shape import Shape

REPO = Path(__file__).resolve().parents[1]
FILES = {"25x25": "sudoku25x25_acs_general_even.txt", "16x16": "sudoku16x16_acs_general_even.txt"}


def reference_kernel(commit: str, folder: Path) -> ModuleType:
    """``boards.py`` at ``commit``, imported as a module of its own (its own Numba cache entries)."""
    resolved = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=12", commit],
                              capture_output=True, text=True)
    source = subprocess.run(["git", "-C", str(REPO), "show", f"{commit}:src/bitdoku/kernels/boards.py"],
                            capture_output=True, text=True)
    if resolved.returncode != 0 or source.returncode != 0:
        sys.exit(f"boards_ab: cannot read boards.py at {commit!r}: {source.stderr.strip()}")
    path = folder / f"boards_ref_{resolved.stdout.strip()}.py"
    if not path.is_file() or path.read_text() != source.stdout:  # kept: Numba's cache knows it by its path
        path.write_text(source.stdout)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # Numba's cache finds the module's globals by its name
    spec.loader.exec_module(module)
    return module


def generic_kernel(commit: str, folder: Path) -> ModuleType:
    """The package at ``commit``, copied under the name ``bitdoku_<hash>``; its ``kernels.dfs``."""
    resolved = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=12", commit],
                              capture_output=True, text=True)
    if resolved.returncode != 0:
        sys.exit(f"boards_ab: unknown commit {commit!r}: {resolved.stderr.strip()}")
    name = f"bitdoku_{resolved.stdout.strip()}"
    target = folder / name
    if not target.is_dir():
        archive = subprocess.run(["git", "-C", str(REPO), "archive", resolved.stdout.strip(), "src/bitdoku"],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder / "unpack", filter="data")
        (folder / "unpack" / "src" / "bitdoku").rename(target)
        for path in target.rglob("*.py"):
            text = path.read_text()
            path.write_text(re.sub(r"\b(from|import) bitdoku\b", rf"\1 {name}", text))
    sys.path.insert(0, str(folder))
    module = importlib.import_module(f"{name}.kernels.dfs")
    status = importlib.import_module(f"{name}.kernels.status")
    module.STAT_NODES_SLOT = status.STAT_NODES
    module.GENERIC_FLAG = getattr(status, "GENERIC_ONLY", 0)  # 0 before the bitboard kernel: all was generic
    return module


def working_generic_kernel() -> ModuleType:
    """The working tree's generic kernel (``kernels.dfs`` with ``GENERIC_ONLY``), for ``--both-generic``."""
    from bitdoku.kernels import dfs

    dfs.STAT_NODES_SLOT = codes.STAT_NODES
    dfs.GENERIC_FLAG = codes.GENERIC_ONLY
    return dfs


def run(kernel: ModuleType, puzzle: np.ndarray, shape: Shape, mode: str, nodes: int) -> tuple[int, int, bytes,
                                                                                                float]:
    """One search: (status, nodes, solution bytes, seconds)."""
    solutions = np.zeros((1, shape.n_cells), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    stop = np.zeros(1, np.int64)
    rng = np.full(1, RESTART_SEED, np.uint64)
    start = time.perf_counter()
    if hasattr(kernel, "STAT_NODES_SLOT"):  # a generic kernel (--generic; both with --both-generic)
        tables = shape.tables
        status = kernel.search(puzzle, shape.n, tables.units, tables.cell_units, tables.peers, 1, nodes,
                               codes.ALL_RULES | kernel.GENERIC_FLAG, solutions, stats)
        seconds = time.perf_counter() - start
        return int(status), int(stats[kernel.STAT_NODES_SLOT]), solutions.tobytes(), seconds
    if mode == "first":
        status = kernel.first_solution(puzzle, shape.n, shape.box_rows, 2_000_000, codes.ALL_RULES, solutions,
                                       stats, rng, np.int64(kernel.RESTART_UNIT), stop)
    else:
        status = kernel.search_boards(puzzle, shape.n, shape.box_rows, 1, nodes, codes.ALL_RULES, solutions,
                                      stats, rng, np.zeros(0, np.uint8), -1, stop)
    seconds = time.perf_counter() - start
    return int(status), int(stats[codes.STAT_NODES]), solutions.tobytes(), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    reference = parser.add_mutually_exclusive_group(required=True)
    reference.add_argument("--ref", help="commit whose boards.py is the reference (e.g. ca86c25)")
    reference.add_argument("--generic", help="commit whose generic kernel is the reference (e.g. b71526f^; "
                                             "with --mode dfs)")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data",
                        help="folder of the shared puzzle files")
    parser.add_argument("--set", choices=list(FILES), default="25x25")
    parser.add_argument("--mode", choices=["first", "dfs"], default="first")
    parser.add_argument("--instances", nargs="+", default=None,
                        help="0-based indices, ranges a-b, H20, H45 or all (default: H20 for first, 300-499 for dfs)")
    parser.add_argument("--nodes", type=int, default=2_000, help="node budget of a dfs search (default 2,000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over the instances (default 3)")
    parser.add_argument("--both-generic", action="store_true",
                        help="with --generic: time the working tree's generic kernel (GENERIC_ONLY), not boards")
    args = parser.parse_args()
    path = args.data / FILES[args.set]
    if not path.is_file():
        sys.exit(f"boards_ab: {path} not found (--data names the folder of the shared sets)")
    puzzles = load(path)
    shape = Shape.infer(puzzles.shape[1])
    spec = args.instances or (["H20"] if args.mode == "first" else ["300-499"])
    indices = instances(spec, len(puzzles))
    folder = Path(tempfile.gettempdir()) / "bitdoku-boards-ab"
    folder.mkdir(exist_ok=True)
    if args.generic and args.mode != "dfs":
        sys.exit("boards_ab: --generic compares searches without restarts: add --mode dfs")
    ref = generic_kernel(args.generic, folder) if args.generic else reference_kernel(args.ref, folder)
    kernels = {"ref": ref, "new": working_generic_kernel() if args.both_generic else boards}
    for kernel in kernels.values():
        run(kernel, puzzles[0], shape, args.mode, 10)  # compile or load before timing
    totals: dict[str, list[float]] = {name: [] for name in kernels}
    node_sum = 0
    for round_number in range(args.rounds):
        seconds = dict.fromkeys(kernels, 0.0)
        node_sum = 0
        for i, index in enumerate(indices):
            order = list(kernels) if (i + round_number) % 2 == 0 else list(kernels)[::-1]
            results = {}
            for name in order:
                status, nodes, solution, spent = run(kernels[name], puzzles[index], shape, args.mode,
                                                     args.nodes)
                results[name] = (status, nodes, solution)
                seconds[name] += spent
            if results["ref"] != results["new"]:
                sys.exit(f"boards_ab: line {index + 1}: the kernels differ (status, nodes): "
                         f"ref {results['ref'][:2]}, new {results['new'][:2]}")
            node_sum += results["new"][1]
        for name in kernels:
            totals[name].append(seconds[name])
        print(f"round {round_number + 1}: " + ", ".join(
            f"{name} {seconds[name] * 1e6 / node_sum:.2f} µs a node" for name in kernels), flush=True)
    ref, new = statistics.median(totals["ref"]), statistics.median(totals["new"])
    print(f"\n{args.set} {args.mode}, {len(indices)} instances, {node_sum:,} nodes each way (equal), "
          f"{args.rounds} rounds: ref {ref * 1e6 / node_sum:.2f}, new {new * 1e6 / node_sum:.2f} µs a node "
          f"(medians); new/ref {new / ref:.3f}")


if __name__ == "__main__":
    main()

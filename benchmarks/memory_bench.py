"""Peak memory of every command that reads a puzzle file, on a file of 1,000,000 puzzles (issue 16).

Run from the repository root (``PYTHONPATH=src`` or after ``pip install -e .``)::

    python benchmarks/memory_bench.py [--data ../shared/data] [--count 1000000] [--small 100000]
                                      [--prefix 2000] [--folder /tmp/bitdoku-memory] [--only solve check ...]

The file is the 17-clue list (``--data``; the package's samples if it is missing) repeated to ``--count`` lines,
written under ``--folder``, never in the repository. Each command runs as a child process with its output sent
to a file, and its own peak RSS is read from ``os.wait4`` (the kernel's ``ru_maxrss`` of that child alone).
Streaming means the peak does not grow with the file: every command is also run on the first ``--small`` lines,
and the table shows both peaks. The commands that reason about one puzzle at a time (rate, explain, hint) would
take hours on a million puzzles on two cores: they run on ``--prefix`` and twice that many lines instead, which
says the same thing about growth. Target: under 200 MB for every command.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

BITDOKU = [sys.executable, "-m", "bitdoku"]
#: The batch commands, run on the whole file and on its first ``--small`` lines.
BATCH = {
    "solve": ["solve"],
    "solve --first": ["solve", "--first"],
    "count --limit 2": ["count", "--limit", "2"],
    "check": ["check"],
    "canon": ["canon"],
    "solve -j 1": ["solve", "-j", "1"],
    "solve --per-puzzle": ["solve", "--per-puzzle"],  # Entry objects, batches of 4096 (cli.runner)
    "solve -f json": ["solve", "-f", "json"],
}
#: The commands that answer one puzzle at a time, run on ``--prefix`` and twice as many lines.
ONE_BY_ONE = {
    "rate": ["rate"],
    "hint": ["hint"],
    "explain": ["explain"],
}
TARGET_MB = 200


def run_measured(args: list[str], stdout: Path, stderr: Path) -> tuple[int, float, int]:
    """Run ``python -m bitdoku ARGS`` with its output in files: exit code, wall seconds, and the peak RSS in
    bytes of that child alone (``os.wait4``; ``RUSAGE_CHILDREN`` would be the largest of all children so far)."""
    start = time.perf_counter()
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen([*BITDOKU, *args], stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, time.perf_counter() - start, usage.ru_maxrss * 1024


def puzzle_lines(data: Path) -> list[str]:
    """The 17-clue list, or the package's samples when the shared data is not there."""
    path = data / "17clue_royle_49151.txt"
    if path.exists():
        text = path.read_text()
    else:
        from bitdoku.data import sample_lines

        text = "\n".join(sample_lines("17clue_sample.txt") + sample_lines("top1465_sample.txt"))
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def write_file(path: Path, lines: list[str], count: int) -> Path:
    """``count`` lines, the list repeated, written a block at a time."""
    with path.open("w") as stream:
        for start in range(0, count, len(lines)):
            stream.write("\n".join(lines[: min(len(lines), count - start)]) + "\n")
    return path


def measure(name: str, args: list[str], files: list[tuple[int, Path]], folder: Path) -> str:
    """One table row: the command's peak RSS and time on each file, and whether it stays under the target."""
    cells, peaks = [], []
    for count, path in files:
        code, seconds, peak = run_measured([*args, str(path)], folder / "out.txt", folder / "err.txt")
        summary = (folder / "err.txt").read_text().strip().splitlines()
        if code not in (0, 3):  # 3: a 17-clue list has no unsolvable puzzles, but check says 3 for 'multiple'
            raise SystemExit(f"{name} on {count:,} puzzles ended with exit code {code}: {summary[-1:]}")
        peaks.append(peak / 2**20)
        cells.append(f"{peak / 2**20:.0f} MB | {seconds:.1f} s")
    verdict = "yes" if max(peaks) < TARGET_MB else "**no**"
    growth = peaks[-1] - peaks[0]
    sizes = " / ".join(f"{count:,}" for count, _ in files)
    return f"| `bitdoku {' '.join(args)} FILE` | {sizes} | {' | '.join(cells)} | {growth:+.0f} MB | {verdict} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"), help="Folder of the 17-clue list.")
    parser.add_argument("--count", type=int, default=1_000_000, help="Puzzles in the big file.")
    parser.add_argument("--small", type=int, default=100_000, help="Puzzles in the small file (growth check).")
    parser.add_argument("--prefix", type=int, default=2000, help="Puzzles for the one-at-a-time commands (and 2x).")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/bitdoku-memory"), help="Where files are written.")
    parser.add_argument("--only", nargs="+", choices=[*BATCH, *ONE_BY_ONE], help="Run only these commands.")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    lines = puzzle_lines(args.data)
    sizes = {"batch": (args.small, args.count), "one": (args.prefix, 2 * args.prefix)}
    files = {kind: [(n, write_file(args.folder / f"puzzles_{n}.txt", lines, n)) for n in counts]
             for kind, counts in sizes.items()}
    print(f"Peak RSS (os.wait4 ru_maxrss of the child) and wall time; {os.cpu_count()} cores; target under "
          f"{TARGET_MB} MB.\n")
    print("| command | puzzles (small / big) | small: peak | small: time | big: peak | big: time | growth | "
          "under 200 MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for kind, commands in (("batch", BATCH), ("one", ONE_BY_ONE)):
        for name, command in commands.items():
            if args.only is None or name in args.only:
                print(measure(name, command, files[kind], args.folder), flush=True)


if __name__ == "__main__":
    main()

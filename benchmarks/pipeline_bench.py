"""The file path against the kernel, start-up, memory and resume (issue 11).

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/pipeline_bench.py [--data ../shared/data] [--only throughput startup million] [--runs 5]

* ``throughput``: ``bitdoku count --limit 2 --threads T FILE`` as a whole process, its start-up (the same command
  on a file of the first puzzle alone) subtracted, against ``count_many(array, limit=2, threads=T)`` in-process
  on the same puzzles (the kernel's throughput), side by side in one run, runs interleaved; and 2 threads
  against 1, start-up subtracted.
* ``startup``: ``bitdoku --help`` and ``bitdoku count`` of a one-line file, warm cache, with ``farm-bench``.
* ``million``: a file of 1,000,000 puzzles through ``bitdoku count -o``: peak RSS, then the same run killed
  with SIGKILL at random moments and resumed, compared byte for byte with the uninterrupted output.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import bitdoku
from bitdoku.pipeline.chunks import read_chunks

BITDOKU = [sys.executable, "-m", "bitdoku"]


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def puzzles_of(path: Path) -> np.ndarray:
    return np.concatenate([chunk.puzzles for chunk in read_chunks(path)])


def throughput(data: Path, runs: int) -> None:
    print("\n### Whole process against the kernel (count --limit 2), start-up subtracted\n")
    print("| file | threads | puzzles | kernel µs/puzzle | process µs/puzzle | process/kernel throughput | "
          "start-up s | process s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, repeat in (("17clue_royle_49151.txt", 1), ("17clue_royle_49151.txt", 10),
                         ("magictour_top1465.txt", 100)):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / name
            path.write_text((data / name).read_text() * repeat)  # repeated: seconds of work against the noise
            array = puzzles_of(path)
            name = f"{name} x{repeat}" if repeat > 1 else name
            one = Path(folder) / "one.txt"
            one.write_text(path.read_text().splitlines()[0] + "\n")
            per_thread = {}
            for threads in (1, 2):
                bitdoku.count_many(array[:10], limit=2, threads=threads)
                kernel, process, startup = [], [], []
                for _ in range(runs):  # interleaved, so that drift hits all three alike
                    start = time.perf_counter()
                    bitdoku.count_many(array, limit=2, threads=threads)
                    kernel.append(time.perf_counter() - start)
                    command = [*BITDOKU, "count", "--limit", "2", "--threads", str(threads)]
                    process.append(wall([*command, str(path)]))
                    startup.append(wall([*command, str(one)]))
                k, p, s = statistics.median(kernel), statistics.median(process), statistics.median(startup)
                per_thread[threads] = p - s
                print(f"| {name} | {threads} | {len(array):,} | {k / len(array) * 1e6:.2f} | "
                      f"{(p - s) / len(array) * 1e6:.2f} | {k / (p - s):.0%} | {s:.2f} | {p:.2f} |", flush=True)
            print(f"\n{name}: 2 threads against 1, start-up subtracted: {per_thread[1] / per_thread[2]:.2f}x\n")


def farm_bench(command: list[str], runs: int) -> str:
    if shutil.which("farm-bench") is None:
        times = sorted(wall(command) for _ in range(runs))
        return f"{statistics.median(times):.3f} (min {times[0]:.3f})"
    done = subprocess.run(["farm-bench", "-n", str(runs), "--", *command], capture_output=True, text=True)
    match = re.search(r"A wall s\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", done.stdout + done.stderr)
    return f"{match[2]} (min {match[1]}, max {match[3]})" if match else "farm-bench printed no figure"


def startup(data: Path, runs: int) -> None:
    script = str(Path(sys.executable).with_name("bitdoku"))
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "one.txt"
        one.write_text((data / "17clue_royle_49151.txt").read_text().splitlines()[0] + "\n")
        subprocess.run([script, "count", str(one)], capture_output=True, check=False)
        print("\n### Start-up, warm cache (farm-bench: median wall s)\n")
        print("| command | wall s |\n|---|---|")
        print(f"| `bitdoku --help` | {farm_bench([script, '--help'], runs)} |")
        print(f"| `bitdoku count ONE-LINE-FILE` | {farm_bench([script, 'count', str(one)], runs)} |")


def million(data: Path, runs: int) -> None:
    lines = [line for line in (data / "17clue_royle_49151.txt").read_text().splitlines() if line]
    with tempfile.TemporaryDirectory() as folder:
        big, whole, out = Path(folder) / "million.txt", Path(folder) / "whole.txt", Path(folder) / "out.txt"
        with big.open("w") as stream:
            for start in range(0, 1_000_000, len(lines)):
                stream.write("\n".join(lines[: min(len(lines), 1_000_000 - start)]) + "\n")
        command = [*BITDOKU, "count", "--limit", "2", str(big)]
        timed = subprocess.run(["/usr/bin/time", "-v", *command, "-o", str(whole)], capture_output=True, text=True)
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timed.stderr)[1]) / 1024
        seconds = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", timed.stderr)[1]
        print("\n### 1,000,000 puzzles (the 17-clue list repeated), `bitdoku count --limit 2 -o`\n")
        print(f"peak RSS {rss:.0f} MB, wall {seconds}")
        draw = random.Random(11)
        kills = 0
        for _ in range(5):
            process = subprocess.Popen([*command, "-o", str(out), "--resume"], stderr=subprocess.DEVNULL)
            time.sleep(draw.uniform(0.6, 2.5))
            process.kill()
            process.wait()
            kills += 1
            if out.exists():
                break
        subprocess.run([*command, "-o", str(out), "--resume"], stderr=subprocess.DEVNULL, check=True)
        same = out.read_bytes() == whole.read_bytes()
        print(f"killed with SIGKILL {kills} times at random moments, then resumed: output "
              f"{'identical to' if same else 'DIFFERENT from'} the uninterrupted run ({whole.stat().st_size:,} bytes)")


SECTIONS = {"throughput": throughput, "startup": startup, "million": million}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for name in args.only:
        SECTIONS[name](args.data, args.runs)


if __name__ == "__main__":
    main()

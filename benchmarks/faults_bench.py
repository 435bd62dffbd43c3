"""Faults injected into batch runs (issue 16): kills then ``--resume``, and Dask workers killed mid-batch.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/faults_bench.py kill [--commands solve count check canon rate] [--kills 100] [--seed 16]
    python benchmarks/faults_bench.py dask [--batches 5] [--kills 3] [--seed 16]

* ``kill``: for each batch command with ``-o FILE``, an uninterrupted run gives the reference bytes; then, at
  ``--kills`` random moments (seeded delays: a quarter before the reference run's first output, the rest
  between it and the run's end; SIGINT and SIGKILL in turn), a run is killed and resumed until done, each
  resumed run itself killed again at a random moment with probability 1/3 (at most three times), and the final
  file is compared with the reference byte for byte.
  Each kill is classed by what it left: nothing yet (``FILE.partial`` absent or empty), whole lines, a piece of
  a line (the kill landed mid-write), or nothing to kill (the run had finished). A SIGINT must end with exit
  code 130 and no traceback (those that did not are counted and printed).
* ``dask``: a LocalCluster with nannies (2 worker processes, 1 thread each) runs ``solve_chunks`` on a batch;
  ``--kills`` times during each batch the pid of a live worker (``client.run(os.getpid)``) gets SIGKILL, its
  nanny starts a new one, and the results must equal the in-process batch: nothing lost, nothing duplicated.

Results go to stdout as one JSON line a command (``--out FILE`` appends them there too).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from bitdoku.data import sample_lines

BITDOKU = [sys.executable, "-m", "bitdoku"]
#: Each command as it is killed; rate's logic solver takes ms a puzzle (0.4 s on the hardest), so it gets
#: a file of easy puzzles a fortieth the size.
COMMANDS = {
    "solve": ["solve"],
    "count": ["count", "--limit", "2"],
    "check": ["check"],
    "canon": ["canon"],
    "rate": ["rate"],
}
SAMPLES = ("17clue_sample.txt", "top1465_sample.txt", "famous.txt", "multisolution_sample.txt",
           "nosolution_sample.txt")


def puzzle_file(folder: Path, count: int, samples: tuple[str, ...], seed: int) -> Path:
    """``count`` puzzles drawn from the shipped samples, shuffled, with a bad line every 5,000 (``--lenient``
    writes ``error`` for it, so resuming must count those lines too)."""
    lines = [line for name in samples for line in sample_lines(name)]
    chosen = [lines[i % len(lines)] for i in range(count)]
    random.Random(seed).shuffle(chosen)
    for at in range(2500, count, 5000):
        chosen[at] = "not a puzzle"
    path = folder / f"puzzles-{count}.txt"
    path.write_text("\n".join(chosen) + "\n")
    return path


#: Exit codes of a run that ended by itself (the file has a bad line: 6), or by Ctrl-C (130).
FINISHED = (0, 3, 4, 5, 6, 130)


def timed_run(args: list[str], out: Path) -> tuple[float, float]:
    """Run to the end: when the first result reached ``FILE.partial`` (start-up and first chunk) and when the
    run ended, in seconds."""
    partial = out.with_name(out.name + ".partial")
    start = time.perf_counter()
    process = subprocess.Popen(BITDOKU + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first = None
    while process.poll() is None:
        if first is None and partial.exists() and partial.stat().st_size:
            first = time.perf_counter() - start
        time.sleep(0.005)
    end = time.perf_counter() - start
    assert process.returncode in FINISHED[:-1] and out.exists(), process.returncode
    return (first if first is not None else end / 2), end


def kill_time(draw: random.Random, first_output: float, end: float) -> float:
    """A moment to kill at: a quarter of them during start-up and the first chunk's search, the rest while
    results are being written (most of a short run is start-up, where a kill tests little)."""
    return draw.uniform(0, first_output) if draw.random() < 0.25 else draw.uniform(first_output, end)


def run_to_end(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(BITDOKU + args, capture_output=True, timeout=900, check=False)


def killed_run(args: list[str], delay: float, sig: int, partial: Path) -> tuple[str, bool]:
    """Start a run, send ``sig`` after ``delay`` seconds: what the kill left, and whether a SIGINT ended
    cleanly (exit code 130, or the run's own when it finished as the signal came, and no traceback)."""
    process = subprocess.Popen(BITDOKU + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(delay)
    if process.poll() is not None:
        return "finished", True
    process.send_signal(sig)
    _, err = process.communicate(timeout=120)
    clean = sig != signal.SIGINT or (process.returncode in FINISHED and b"Traceback" not in err)
    if not clean:
        print(f"SIGINT after {delay:.3f} s: exit code {process.returncode}\n{err.decode()}", file=sys.stderr)
    size = partial.stat().st_size if partial.exists() else 0
    if not size:
        return "before output", clean
    with open(partial, "rb") as stream:
        stream.seek(size - 1)
        return ("whole lines" if stream.read(1) == b"\n" else "mid-write"), clean


def kill_campaign(name: str, folder: Path, kills: int, seed: int, size: int) -> dict:
    """``kills`` kills of one command, each followed by resumes until its output is complete."""
    rate = name == "rate"
    source = puzzle_file(folder, size // 40 if rate else size, SAMPLES[:1] if rate else SAMPLES, seed)
    base = [*COMMANDS[name], str(source), "--lenient"]
    reference = folder / f"{name}-reference.txt"
    first_output, seconds = timed_run([*base, "-o", str(reference)], reference)
    expected = reference.read_bytes()
    out = folder / f"{name}-out.txt"
    partial = out.with_name(out.name + ".partial")
    draw = random.Random(f"{seed}-{name}")
    tally: Counter[str] = Counter()
    identical = 0
    for index in range(kills):
        sig = signal.SIGINT if index % 2 == 0 else signal.SIGKILL
        sig_name = signal.Signals(sig).name
        out.unlink(missing_ok=True)
        partial.unlink(missing_ok=True)
        landed, clean = killed_run([*base, "-o", str(out)], kill_time(draw, first_output, seconds), sig, partial)
        tally[f"{sig_name} {landed}"] += 1
        tally["SIGINT with a traceback"] += not clean
        again = 0
        while again < 3 and not out.exists() and draw.random() < 1 / 3:  # kill the resumed run too
            delay = kill_time(draw, first_output, seconds)
            landed, clean = killed_run([*base, "-o", str(out), "--resume"], delay, sig, partial)
            tally[f"{sig_name} resumed, {landed}"] += 1
            tally["SIGINT with a traceback"] += not clean
            again += 1
        resumed = run_to_end([*base, "-o", str(out), "--resume"])
        assert b"Traceback" not in resumed.stderr, resumed.stderr
        same = out.exists() and not partial.exists() and out.read_bytes() == expected
        identical += same
        if not same:
            print(f"DIFFERENT: {name} kill {index} ({sig_name}): {resumed.stderr.decode()}", file=sys.stderr)
        print(json.dumps({"command": name, "kill": index, "signal": sig_name, "landed": landed, "identical": same}),
              file=sys.stderr, flush=True)  # progress: one line a kill
    return {"command": name, "puzzles": source.read_text().count("\n"), "reference_seconds": round(seconds, 2),
            "first_output_seconds": round(first_output, 2),
            "kills": kills, "landed": dict(sorted(tally.items())), "identical": identical}


def dask_campaign(batches: int, kills: int, seed: int) -> dict:
    """Batches on a LocalCluster with nannies, ``kills`` workers killed during each; results against in-process."""
    from distributed import Client, LocalCluster

    from bitdoku.batch import as_puzzle_array, solve_many
    from bitdoku.parallel import distributed as dd
    from bitdoku.shape import Shape

    base = np.concatenate([as_puzzle_array(sample_lines(name))[0] for name in (*SAMPLES[:2], "hardest_sample.txt")])
    puzzles = np.tile(base, (200, 1))
    expected = solve_many(puzzles, limit=2)
    draw = random.Random(seed)
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(cluster)
    outcome = Counter()
    try:
        dd.warm_up(client, [Shape(3, 3)])
        for _ in range(batches):
            points = sorted(draw.sample(range(1, len(puzzles) // 250), kills))
            chunks = (puzzles[i : i + 250] for i in range(0, len(puzzles), 250))
            results = []
            for index, result in dd.solve_chunks(client, chunks, limit=2):
                while points and index >= points[0]:
                    points.pop(0)
                    try:
                        client.wait_for_workers(2, timeout=120)  # the nanny has restarted the last one killed
                    except TimeoutError:  # counted: a nanny that did not bring its worker back
                        outcome["kills skipped: a killed worker not back after 120 s"] += 1
                        continue
                    pids = client.run(os.getpid)
                    os.kill(draw.choice(sorted(pids.values())), signal.SIGKILL)
                    outcome["workers killed"] += 1
                outcome["failed chunks"] += isinstance(result, dd.ChunkFailure)
                results.append(result)
            merged = dd.concatenate([r for r in results if not isinstance(r, dd.ChunkFailure)])
            same = len(merged.puzzles) == len(puzzles) and all(
                np.array_equal(getattr(merged, field), getattr(expected, field))
                for field in ("puzzles", "solutions", "status_codes", "counts"))
            outcome["identical batches"] += same
            outcome["batches"] += 1
            print(json.dumps(dict(outcome)), file=sys.stderr, flush=True)  # progress: one line a batch
    finally:
        client.close()
        cluster.close()
    return {"dask": dict(outcome), "puzzles_per_batch": len(puzzles), "chunks_per_batch": -(-len(puzzles) // 250)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=["kill", "dask"])
    parser.add_argument("--commands", nargs="+", choices=list(COMMANDS), default=list(COMMANDS))
    parser.add_argument("--kills", type=int, default=None, help="kills per command (kill: 100) or per batch (dask: 3)")
    parser.add_argument("--puzzles", type=int, default=20_000, help="puzzles in the file (rate: a fortieth)")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--out", type=Path, help="append the JSON lines here too")
    args = parser.parse_args()
    records = []
    if args.part == "kill":
        with tempfile.TemporaryDirectory() as folder:
            for name in args.commands:
                records.append(kill_campaign(name, Path(folder), args.kills or 100, args.seed, args.puzzles))
                print(json.dumps(records[-1]), flush=True)
    else:
        records.append(dask_campaign(args.batches, args.kills or 3, args.seed))
        print(json.dumps(records[-1]), flush=True)
    if args.out:
        with open(args.out, "a") as stream:
            stream.writelines(json.dumps(record) + "\n" for record in records)


if __name__ == "__main__":
    main()

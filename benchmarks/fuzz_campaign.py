"""The fuzzing campaign: the properties of ``tests/fuzz`` run with many examples, and atheris on the parsers.

Two halves, each counting the library calls the properties make (``tests.fuzz.properties.CALLS``), not the
examples asked for:

* hypothesis runs every target of ``tests.fuzz.targets.TARGETS`` (parsers, engines against the reference,
  explain/hint/rate, generate, canon, every web endpoint) with ``--scale`` times its CI count of examples, or the
  counts given with ``--examples NAME=COUNT``;
* atheris (coverage-guided, libFuzzer) feeds bytes to the byte-level entry points (grid text in every format,
  JSON, pencil marks, region maps, variant names, shapes, the file reader) for ``--atheris-seconds``, starting
  from a corpus of valid puzzles in every format and shape. Each input goes to every byte-level entry point.

A failure is printed with its input and the run goes on with the next target; every failing input found becomes
a case of ``tests/fuzz/test_regressions.py``. The table at the end is what ``docs/reliability/fuzzing.md``
reports. Run from the repository root:

    NUMBA_CACHE_DIR=.numba-cache nice -n 10 python benchmarks/fuzz_campaign.py --atheris-seconds 2700 --scale 0 \\
        --json atheris.json
    NUMBA_CACHE_DIR=.numba-cache nice -n 10 python benchmarks/fuzz_campaign.py --scale 20 --json hypothesis.json
    python benchmarks/fuzz_campaign.py --merge atheris.json hypothesis.json     # the table of both
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Byte-level entry points of the atheris half; each input goes to all of them (the reader: one in READER_EVERY).
BYTE_TARGETS = ["grid text", "json", "pencil marks", "region maps", "variant names", "shape", "reader"]
READER_EVERY = 32
#: How often (inputs) the atheris worker writes its counts, so they survive however libFuzzer ends.
FLUSH_EVERY = 200


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=10.0,
                        help="hypothesis examples per target: this times its CI count (default 10)")
    parser.add_argument("--examples", action="append", default=[], metavar="NAME=COUNT",
                        help="examples for one target instead (repeatable); COUNT 0 skips it")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="run only these targets")
    parser.add_argument("--atheris-seconds", type=int, default=0, help="how long atheris runs (0: no atheris half)")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: random)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--merge", type=Path, nargs="+", help="print the table of earlier runs' --json files")
    parser.add_argument("--atheris-worker", type=Path, help=argparse.SUPPRESS)  # internal: the counts file
    args, rest = parser.parse_known_args(argv)
    if args.atheris_worker:
        return atheris_worker(args.atheris_worker, rest)

    if args.merge:
        runs = [json.loads(path.read_text()) for path in args.merge]
        merged: dict[str, dict] = {"atheris": {"calls": {}, "slowest": {}}, "hypothesis": {}}
        for run in runs:  # the calls of every run add up, the slowest call is the slowest of all
            for name, calls in run["figures"].get("atheris", {}).get("calls", {}).items():
                merged["atheris"]["calls"][name] = merged["atheris"]["calls"].get(name, 0) + calls
                slowest = run["figures"]["atheris"]["slowest"].get(name, 0.0)
                merged["atheris"]["slowest"][name] = max(merged["atheris"]["slowest"].get(name, 0.0), slowest)
            for target, figures in run["figures"].get("hypothesis", {}).items():
                into = merged["hypothesis"].setdefault(target, {"examples": 0, "calls": {}, "seconds": 0.0,
                                                                 "slowest": {}})
                into["examples"] += figures["examples"]
                into["seconds"] += figures["seconds"]
                for name, calls in figures["calls"].items():
                    into["calls"][name] = into["calls"].get(name, 0) + calls
                    into["slowest"][name] = max(into["slowest"].get(name, 0.0), figures["slowest"][name])
        print_table(merged, [f for run in runs for f in run["failures"]], max(run["seconds"] for run in runs))
        return 0
    started = time.perf_counter()
    figures: dict[str, dict] = {}
    failures: list[str] = []
    if args.atheris_seconds:
        figures["atheris"], found = run_atheris(args.atheris_seconds)
        failures += found
    def save(figures: dict, failures: list[str]) -> None:  # after each target too: a stopped run keeps its figures
        if args.json:
            args.json.write_text(json.dumps({"figures": figures, "failures": failures,
                                             "seconds": time.perf_counter() - started}, indent=1))

    figures["hypothesis"], found = run_hypothesis(args, lambda done, new: save({**figures, "hypothesis": done},
                                                                             failures + new))
    failures += found
    seconds = time.perf_counter() - started
    print_table(figures, failures, seconds)
    if args.json:
        args.json.write_text(json.dumps({"figures": figures, "failures": failures, "seconds": seconds}, indent=1))
    return 1 if failures else 0


# -- hypothesis -------------------------------------------------------------------------------------------------


def run_hypothesis(args: argparse.Namespace, progress: Callable[[dict, list[str]], None]) -> tuple[dict, list[str]]:
    """Run every hypothesis target; return {target: {"examples", "calls", "seconds", "slowest"}} and failures
    (also handed to ``progress`` after each target)."""
    from hypothesis import HealthCheck, Phase, seed, settings

    # No shrinking: a failure is reported as found (shrinking a slow input can take longer than the campaign).
    settings.register_profile("fuzz", deadline=None, database=None, derandomize=False, print_blob=True,
                              suppress_health_check=list(HealthCheck), phases=[Phase.generate],
                              report_multiple_bugs=False)
    settings.load_profile("fuzz")
    from tests.fuzz import properties
    from tests.fuzz.targets import TARGETS, case

    counts = {name: round(target.ci * args.scale) for name, target in TARGETS.items()}
    if not args.scale and not args.examples:
        return {}, []
    for item in args.examples:
        name, _, count = item.partition("=")
        if name not in TARGETS:
            raise SystemExit(f"unknown target {name!r}; targets are {', '.join(TARGETS)}")
        counts[name] = int(count)
    figures, failures = {}, []
    for name in args.only or TARGETS:
        if not counts[name]:
            continue
        before = dict(properties.CALLS)
        test = case(name, max_examples=counts[name])
        if args.seed is not None:
            test = seed(args.seed)(test)
        start = time.perf_counter()
        print(f"hypothesis {name}: {counts[name]:,} examples", flush=True)
        try:
            test()
        except Exception as error:  # a failing property: report it and go on with the next target
            failures.append(f"hypothesis {name}: {''.join(traceback.format_exception_only(error)).strip()}")
            print(failures[-1], flush=True)
        calls = {key: value - before.get(key, 0) for key, value in properties.CALLS.items()
                 if value != before.get(key, 0)}
        figures[name] = {"examples": counts[name], "calls": calls, "seconds": time.perf_counter() - start,
                         "slowest": {key: properties.SLOWEST.get(key, 0.0) for key in calls}}
        print(f"  {sum(calls.values()):,} calls in {figures[name]['seconds']:.0f} s: {calls}", flush=True)
        progress(figures, failures)
    return figures, failures


# -- atheris ----------------------------------------------------------------------------------------------------


def run_atheris(seconds: int) -> tuple[dict, list[str]]:
    """Run the atheris worker in its own process (libFuzzer ends the process); return its counts and any crash."""
    work = Path(tempfile.mkdtemp(prefix="bitdoku-atheris-"))
    corpus, artifacts, counts = work / "corpus", work / "artifacts", work / "counts.json"
    corpus.mkdir()
    artifacts.mkdir()
    write_corpus(corpus)
    command = [sys.executable, __file__, "--atheris-worker", str(counts), f"-max_total_time={seconds}",
               "-max_len=1024", "-timeout=30", "-rss_limit_mb=3072", f"-artifact_prefix={artifacts}/",
               "-print_final_stats=1",
               str(corpus)]
    print("atheris:", " ".join(command), flush=True)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, errors="replace")
    wall = time.perf_counter() - start
    tail = done.stderr.strip().splitlines()[-25:]
    print("\n".join(tail), flush=True)
    counted = json.loads(counts.read_text()) if counts.exists() else {"calls": {}, "slowest": {}}
    calls = counted["calls"]
    failures = []
    for crash in sorted(artifacts.iterdir()):
        if crash.suffix != ".txt":
            explained = crash.with_name(crash.name + ".txt")
            why = explained.read_text() if explained.exists() else "\n".join(tail)
            failures.append(f"atheris: {crash.name}: input {crash.read_bytes()!r}\n{why}")
    if done.returncode and not failures:
        failures.append(f"atheris exited with {done.returncode}:\n" + "\n".join(tail))
    runs = next((line.split()[-1] for line in tail if "number_of_executed_units" in line), "?")
    corpus_size = len(list(corpus.iterdir()))
    figures = {"runs": runs, "calls": calls, "slowest": counted["slowest"], "seconds": wall, "corpus": corpus_size}
    return figures, failures


def write_corpus(corpus: Path) -> None:
    """Seed inputs: the first byte picks the target, the rest is a valid input of it in every format and shape."""
    from tests.fuzz.inputs import SMALL_SHAPES, formats_of

    from bitdoku import Grid, generate
    from bitdoku.generate.regions import random_jigsaw
    from bitdoku.geometry import Geometry

    texts: dict[str, list[str]] = {name: [] for name in BYTE_TARGETS}
    for shape in [*SMALL_SHAPES, "3x4", "4x4"]:
        puzzle = generate(shape, seed=1) if shape in SMALL_SHAPES else Grid.pattern(shape)
        written = formats_of(puzzle)
        texts["grid text"] += written[:4]
        texts["json"].append(written[3])
        texts["pencil marks"] += written[4:]
        texts["reader"].append("\n".join([written[0], "# a comment", "", written[1], written[2]]))
        texts["shape"].append(str(puzzle.shape))
    for shape in SMALL_SHAPES:
        texts["region maps"] += [Geometry.classic(shape).region_map(), random_jigsaw(shape, seed=1).region_map()]
    texts["variant names"] += ["x", "windoku+anti-king", "jigsaw", "anti-knight+nonconsecutive"]
    for index, name in enumerate(BYTE_TARGETS):
        for number, text in enumerate(texts[name]):
            (corpus / f"{index}-{number}").write_bytes(bytes([index]) + text.encode())


def atheris_worker(counts_file: Path, libfuzzer_args: list[str]) -> int:
    """The atheris process: instrument the parsing modules, then fuzz ``one_input`` until libFuzzer stops."""
    import atheris

    with atheris.instrument_imports(include=["bitdoku.formats", "bitdoku.reader", "bitdoku.grid", "bitdoku.geometry",
                                             "bitdoku.shape", "bitdoku.logic.candidates"]):
        import bitdoku.formats.block
        import bitdoku.formats.json
        import bitdoku.formats.line
        import bitdoku.formats.pencilmarks
        import bitdoku.geometry
        import bitdoku.grid
        import bitdoku.logic.candidates
        import bitdoku.reader  # noqa: F401
    from tests.fuzz import inputs, properties
    from tests.fuzz.targets import scratch

    shapes = inputs.SMALL_SHAPES
    directory = scratch()
    seen = [0]

    def one_input(data: bytes) -> None:
        """Every text parser reads the input (most reject garbage in microseconds); the reader one input in
        ``READER_EVERY`` (it writes a file)."""
        if not data:
            return
        text = data[1:].decode("utf-8", "replace")
        shape = shapes[data[0] % len(shapes)]
        name, _, regions = text.partition("\n")
        checks = [(properties.check_grid_parse, text), (properties.check_json, text),
                  (properties.check_pencilmarks, text), (properties.check_region_map, text, shape),
                  (properties.check_variant_name, name, shape, regions or None), (properties.check_shape, text)]
        if data[0] % READER_EVERY == 0:
            checks.append((properties.check_reader, data[1:], directory))
        for check, *arguments in checks:
            try:
                check(*arguments)
            except Exception:  # keep the input and go on: libFuzzer would stop at the first crash
                digest = hashlib.sha1(data).hexdigest()[:12]
                (counts_file.parent / "artifacts" / f"failure-{check.__name__}-{digest}").write_bytes(data)
                (counts_file.parent / "artifacts" / f"failure-{check.__name__}-{digest}.txt").write_text(
                    traceback.format_exc())
        seen[0] += 1
        if seen[0] % FLUSH_EVERY == 0:
            flush()

    def flush() -> None:
        counts_file.write_text(json.dumps({"calls": properties.CALLS, "slowest": properties.SLOWEST}))

    atheris.Setup([sys.argv[0], *libfuzzer_args], one_input)
    atheris.Fuzz()
    return 0


# -- the table --------------------------------------------------------------------------------------------------


def print_table(figures: dict[str, dict], failures: list[str], seconds: float) -> None:
    """One row per entry point: inputs (library calls) from each half, the slowest call, and the total."""
    rows: dict[str, list[float]] = {}
    for half, index in (("atheris", 0), ("hypothesis", 1)):
        if half == "atheris" and figures.get(half):
            for name, calls in figures[half]["calls"].items():
                row = rows.setdefault(name, [0, 0, 0.0])
                row[index] += calls
                row[2] = max(row[2], figures[half]["slowest"].get(name, 0.0))
        elif half == "hypothesis":
            for target in figures.get(half, {}).values():
                for name, calls in target["calls"].items():
                    row = rows.setdefault(name, [0, 0, 0.0])
                    row[index] += calls
                    row[2] = max(row[2], target["slowest"][name])
    print("\n| entry point | atheris | hypothesis | total | slowest call (s) |\n|---|---:|---:|---:|---:|")
    for name, (by_atheris, by_hypothesis, slowest) in sorted(rows.items()):
        total = by_atheris + by_hypothesis
        print(f"| {name} | {by_atheris:,} | {by_hypothesis:,} | {total:,} | {slowest:.2f} |")
    grand = sum(a + h for a, h, _ in rows.values())
    print(f"| **total** | | | **{grand:,}** | |\n")
    print(f"{seconds / 60:.1f} min, {len(failures)} failure(s); python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores")
    for failure in failures:
        print("FAILURE", failure)


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT / "src"), str(ROOT)]
    raise SystemExit(main())

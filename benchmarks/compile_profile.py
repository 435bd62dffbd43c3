"""Where a first compile's time goes: each compiled function's own seconds, and each Numba pass's (issue 35).

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/compile_profile.py solve9            # the 9x9 engine (what `bitdoku solve` compiles)
    python benchmarks/compile_profile.py count16 --top 30  # one of the ENTRIES below

Each run uses an empty Numba cache of its own (``NUMBA_CACHE_DIR`` set to a new temporary folder before Numba is
imported), makes the entry's call, and prints, from Numba's own events (``numba:compile``, ``numba:run_pass``,
``numba:llvm_lock``): every function compiled with its exclusive seconds (its callees' compiles left out), the
passes that took the most in total (type inference, inlining, lowering, LLVM), and the whole.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

ENTRIES: dict[str, Callable[[], object]] = {}


def entry(name: str) -> Callable[[Callable[[], object]], Callable[[], object]]:
    def register(function: Callable[[], object]) -> Callable[[], object]:
        ENTRIES[name] = function
        return function

    return register


@entry("solve9")
def _solve9() -> object:
    import bitdoku
    from bitdoku.data import DEMO

    return bitdoku.search(DEMO, limit=2)


@entry("first9")
def _first9() -> object:
    import bitdoku
    from bitdoku.data import DEMO

    return bitdoku.search(DEMO, limit=1)


@entry("count16")
def _count16() -> object:
    import bitdoku
    from bitdoku.data import sample_lines

    return bitdoku.search(sample_lines("sample16x16.txt")[0], limit=2)


@entry("first25")
def _first25() -> object:
    import bitdoku
    from bitdoku.data import sample_lines

    return bitdoku.search(sample_lines("sample25x25.txt")[0], limit=1)


@entry("batch9")
def _batch9() -> object:
    from bitdoku.batch import solve_many
    from bitdoku.data import sample_lines

    return solve_many(sample_lines("17clue_sample.txt"), limit=2, threads=1)


@entry("rate9")
def _rate9() -> object:
    import bitdoku
    from bitdoku.data import sample_lines

    return bitdoku.rate(sample_lines("hardest_sample.txt")[0])


@entry("hint9")
def _hint9() -> object:
    import bitdoku
    from bitdoku.data import sample_lines

    return bitdoku.hint(sample_lines("hardest_sample.txt")[0])


@entry("generate9")
def _generate9() -> object:
    from bitdoku.generate import generate

    return generate(seed=1)


@entry("generate16")
def _generate16() -> object:
    from bitdoku.generate import generate

    return generate(shape="4x4", seed=1)


@dataclass
class Profile:
    """What one call compiled: exclusive seconds and signatures a function, seconds a pass, the LLVM lock, wall."""

    own: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    signatures: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    passes: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    llvm: float = 0.0
    wall: float = 0.0


class _Nested:
    """Exclusive seconds of nested start/end events (a compile inside a compile, a pass inside a pass)."""

    def __init__(self, totals: dict[str, float]) -> None:
        self.totals = totals
        self.stack: list[list] = []  # [name, started, seconds of nested events]

    def start(self, name: str) -> None:
        self.stack.append([name, time.perf_counter(), 0.0])

    def end(self) -> None:
        name, started, nested = self.stack.pop()
        seconds = time.perf_counter() - started
        self.totals[name] += seconds - nested
        if self.stack:
            self.stack[-1][2] += seconds


def profile(run: Callable[[], object]) -> Profile:
    """Run ``run()`` and record what Numba compiled for it."""
    from numba.core import event

    result = Profile()
    compiles, passes = _Nested(result.own), _Nested(result.passes)
    llvm_started = [0.0]

    class Compiles(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            function = ev.data["dispatcher"].py_func
            name = f"{function.__module__}.{function.__qualname__}"
            result.signatures[name].append(str(ev.data["args"]))
            compiles.start(name)

        def on_end(self, ev: event.Event) -> None:
            compiles.end()

    class Passes(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            passes.start(ev.data["name"])

        def on_end(self, ev: event.Event) -> None:
            passes.end()

    class Llvm(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            llvm_started[0] = time.perf_counter()

        def on_end(self, ev: event.Event) -> None:
            result.llvm += time.perf_counter() - llvm_started[0]

    event.register("numba:compile", Compiles())
    event.register("numba:run_pass", Passes())
    event.register("numba:llvm_lock", Llvm())
    start = time.perf_counter()
    run()
    result.wall = time.perf_counter() - start
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("entry", choices=sorted(ENTRIES))
    parser.add_argument("--top", type=int, default=25, help="rows of each table")
    parser.add_argument("--signatures", action="store_true", help="list every signature compiled")
    parser.add_argument("--warm", action="store_true", help="keep the cache as it is (default: an empty one)")
    options = parser.parse_args()
    if not options.warm:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="compile-profile-")
    if "numba" in sys.modules:
        raise SystemExit("numba was imported before the cache folder was set")
    found = profile(ENTRIES[options.entry])
    print(f"{options.entry}: {found.wall:.2f} s wall, {len(found.own)} functions compiled "
          f"({sum(map(len, found.signatures.values()))} signatures), {sum(found.own.values()):.2f} s in compiles, "
          f"{found.llvm:.2f} s holding the LLVM lock")
    print("\n| function | signatures | own s |\n|---|---:|---:|")
    for name, seconds in sorted(found.own.items(), key=lambda item: -item[1])[: options.top]:
        print(f"| `{name}` | {len(found.signatures[name])} | {seconds:.2f} |")
    if options.signatures:
        for name, signatures in sorted(found.signatures.items()):
            for signature in signatures:
                print(f"{name}{signature}")
    print("\n| pass | s |\n|---|---:|")
    for name, seconds in sorted(found.passes.items(), key=lambda item: -item[1])[: options.top]:
        print(f"| {name} | {seconds:.2f} |")


if __name__ == "__main__":
    main()

r"""The 9x9 kernel compiled under other Numba code-generation settings, timed side by side in one process.

Numba reads its LLVM pipeline settings (``numba.core.config``: ``OPT``, ``LOOP_VECTORIZE``, ``SLP_VECTORIZE``) each
time it builds a pass pipeline, so each copy of the kernel can be compiled under its own settings: this script
imports copies of ``kernels/sudoku9.py`` through ``sudoku9_ab.variants``, compiles each under one setting, puts the
defaults back, checks that every copy gives the same statuses, stats and solutions (``sudoku9_ab.check``) and times
them interleaved (``sudoku9_ab.timing``). Use a fresh Numba cache (the cache does not key on these settings)::

    NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=src python research/sudoku9_codegen.py --copies 2

Results: benchmarks/NOTES-kernels.md, round 17 (lead).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numba.core.config as config

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the maintained scripts it uses
import sudoku9_ab as ab

KERNEL = Path(__file__).resolve().parents[1] / "src" / "bitdoku" / "kernels" / "sudoku9.py"
DEFAULTS = {"OPT": config.OPT, "LOOP_VECTORIZE": config.LOOP_VECTORIZE, "SLP_VECTORIZE": config.SLP_VECTORIZE}
SETTINGS = {
    "default": {},
    "slp": {"SLP_VECTORIZE": 1},  # Numba's default is off
    "no_loop_vectorize": {"LOOP_VECTORIZE": 0},
    "o2": {"OPT": config._OptLevel(2)},
}


def compile_under(label: str, module: object) -> None:
    """Compile one copy (a first call) under its label's settings, then put Numba's defaults back."""
    for key, value in {**DEFAULTS, **SETTINGS[label.split(".")[0]]}.items():
        setattr(config, key, value)
    ab.run(module, ab.load(ab.SETS["hardest"], ab.DATA)[:2], 2)
    for key, value in DEFAULTS.items():
        setattr(config, key, value)


def main() -> None:
    """Compile, check and time the copies named on the command line (all settings by default)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("settings", nargs="*", choices=list(SETTINGS), default=list(SETTINGS))
    parser.add_argument("--copies", type=int, default=2, help="compiled copies of each setting (A/A spread)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--data", type=Path, default=ab.DATA)
    args = parser.parse_args()
    names = ["default", *(name for name in args.settings if name != "default")]
    mods = ab.variants([f"{name}={KERNEL}" for name in names], args.copies)
    for label, module in mods:
        compile_under(label, module)
    if ab.check(mods[:len(names)], args.data):
        sys.exit(1)
    ab.timing(mods, args.data, list(ab.SETS), args.rounds, 2)


if __name__ == "__main__":
    main()

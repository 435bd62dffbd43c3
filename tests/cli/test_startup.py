"""What the command line loads before it works: nothing heavy for ``--help``; choices that match the library."""

import os
import signal
import subprocess
import sys

from bitdoku.cli import options


def loaded_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", f"{code}\nimport sys; print(' '.join(sys.modules))"],
                          capture_output=True, text=True, check=True, timeout=120)
    return set(done.stdout.split())


def test_import_bitdoku_loads_neither_numpy_nor_numba():
    modules = loaded_after("import bitdoku")
    assert "numba" not in modules and "numpy" not in modules


def test_help_loads_neither_numpy_nor_numba_nor_rich():
    modules = loaded_after("from bitdoku.cli.main import app\nimport contextlib\n"
                           "with contextlib.suppress(SystemExit): app(['--help'])")
    assert not {"numba", "numpy", "rich"} & modules


def test_names_are_loaded_on_first_use():
    modules = loaded_after("import bitdoku\nbitdoku.Grid.parse('1' + '.' * 15)")
    assert "numpy" in modules and "numba" not in modules


def test_the_commands_choices_are_the_librarys():
    from bitdoku.engines.registry import DEFAULT_ENGINE, ENGINES
    from bitdoku.experiment import MODES
    from bitdoku.generate.symmetry import Symmetry
    from bitdoku.logic.rating import LEVELS

    assert options.ENGINE_NAMES[0] == DEFAULT_ENGINE and set(options.ENGINE_NAMES) == set(ENGINES)
    assert [name.replace("-", " ") for name in options.LEVEL_NAMES] == list(LEVELS)
    assert list(options.SYMMETRY_NAMES) == [symmetry.value for symmetry in Symmetry]
    assert tuple(options.EXPERIMENT_MODES) == tuple(MODES)


#: A child that starts bitdoku as the console script does (``from bitdoku.__main__ import main``) and sends itself
#: SIGINT as it imports one module: a Ctrl-C at that exact point of the start, with no timing involved.
_INTERRUPTED_AT = """
import importlib.abc, os, signal, sys

AT = sys.argv[1]

class Interrupt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == AT:
            sys.meta_path.remove(self)
            print("interrupt at", name, file=sys.stderr, flush=True)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["bitdoku", "solve"]
from bitdoku.__main__ import main
main()
"""


def test_ctrl_c_at_any_point_of_the_start_ends_quietly_with_exit_code_130():
    # bitdoku.errors and dataclasses were imported with the package, before the handler of bitdoku.__main__ was in
    # place: a Ctrl-C there printed a traceback. Typer, the CLI and NumPy come after it.
    for module in ("bitdoku.engines.result", "bitdoku.errors", "dataclasses", "typer", "bitdoku.cli.main",
                   "bitdoku.cli.solve", "numpy", "bitdoku.data"):
        done = subprocess.run([sys.executable, "-c", _INTERRUPTED_AT, module], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
        assert f"interrupt at {module}" in done.stderr  # the point was reached
        assert "Traceback" not in done.stderr, (module, done.stderr)
        assert done.returncode in (130, -signal.SIGINT), (module, done.returncode, done.stderr)
        assert "interrupted" in done.stderr, module

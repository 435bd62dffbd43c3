"""What the command line loads before it works: nothing heavy for ``--help``; choices that match the library."""

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

import os

import numpy as np
from numba.core import config

from bitdoku.kernels import cache


def _package(tmp_path):
    (tmp_path / "kernels" / "__pycache__").mkdir(parents=True)
    (tmp_path / "logic" / "__pycache__").mkdir(parents=True)
    (tmp_path / "kernels" / "dfs.py").write_text("@njit\ndef x(): return 1\n")
    (tmp_path / "logic" / "_fast.py").write_text("@njit\ndef y(): return 1\n")
    (tmp_path / "logic" / "explain.py").write_text("def z(): return 1\n")
    return tmp_path


def _in_tree(package):
    return [[package / "kernels" / "__pycache__", package / "logic" / "__pycache__"]]


def _cache_files(package):
    return sorted(p.name for p in package.glob("**/*.nb?"))


def test_caches_survive_while_the_sources_stay_the_same(tmp_path):
    package = _package(tmp_path)
    cache.clear_stale(package, _in_tree(package))
    (package / "kernels" / "__pycache__" / "dfs.search-1.py311.nbi").write_text("index")
    assert not cache.clear_stale(package, _in_tree(package))
    assert _cache_files(package) == ["dfs.search-1.py311.nbi"]


def test_an_edit_to_any_kernel_source_drops_every_cache_file(tmp_path):
    package = _package(tmp_path)
    cache.clear_stale(package, _in_tree(package))
    (package / "kernels" / "__pycache__" / "batch.search_rows9-1.py311.nbi").write_text("index")
    (package / "logic" / "__pycache__" / "_fast.run-1.py311.1.nbc").write_text("code")
    (package / "kernels" / "dfs.py").write_text("@njit\ndef x(): return 2\n")  # batch's cache would miss it
    assert cache.clear_stale(package, _in_tree(package))
    assert _cache_files(package) == []
    assert not cache.clear_stale(package, _in_tree(package))


def test_an_edit_to_a_module_without_compiled_code_keeps_the_cache(tmp_path):
    package = _package(tmp_path)
    cache.clear_stale(package, _in_tree(package))
    (package / "logic" / "__pycache__" / "_fast.run-1.py311.nbi").write_text("index")
    (package / "logic" / "explain.py").write_text("def z(): return 2\n")
    assert not cache.clear_stale(package, _in_tree(package))
    assert _cache_files(package) == ["_fast.run-1.py311.nbi"]


def test_a_stale_cache_under_numba_cache_dir_is_dropped_too(tmp_path):
    """NUMBA_CACHE_DIR keeps the code away from the package: the stamp and the clearing follow it there."""
    package = _package(tmp_path / "pkg")
    locations = cache.cache_locations(package, cache_dir=str(tmp_path / "numba"))
    assert locations[0][0].is_relative_to(tmp_path / "numba")
    assert cache.clear_stale(package, locations[:1])  # a new place in use gets its stamp
    (locations[0][0] / "sudoku9.search9-1.py311.nbi").write_text("index")
    assert not cache.clear_stale(package, locations[:1])
    (package / "logic" / "_fast.py").write_text("@njit\ndef y(): return 2\n")
    assert cache.clear_stale(package, locations[:1])
    assert _cache_files(tmp_path / "numba") == []


def test_numba_is_given_a_temporary_cache_when_no_folder_can_be_written(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "CACHE_DIR", "")
    note = cache.prepare(writable=lambda folder: False)
    try:
        assert "no folder for Numba's cache can be written" in note
        assert "NUMBA_CACHE_DIR" in note
        assert os.path.isdir(config.CACHE_DIR) and "bitdoku-numba-" in config.CACHE_DIR
    finally:
        os.rmdir(config.CACHE_DIR)
        cache.NOTE = None


def test_an_unwritable_numba_cache_dir_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "read-only"))
    note = cache.prepare(writable=lambda folder: not folder.is_relative_to(tmp_path / "read-only"))
    cache.NOTE = None
    assert note.startswith(f"NUMBA_CACHE_DIR={tmp_path / 'read-only'} cannot be written")
    assert str(tmp_path / "read-only") == config.CACHE_DIR  # Numba's own fallback takes over: nothing to change


def test_a_read_only_package_folder_is_said_to_cache_elsewhere(monkeypatch):
    monkeypatch.setattr(config, "CACHE_DIR", "")
    note = cache.prepare(writable=lambda folder: "__pycache__" not in folder.parts)
    cache.NOTE = None
    assert "the package folder" in note and "cannot be written" in note


def test_a_writable_cache_says_nothing(monkeypatch):
    assert cache.prepare(writable=lambda folder: True) is None


def test_is_compiled_tells_a_kernel_with_code_from_one_without():
    from numba import njit

    @njit
    def never_called(x):
        return x + 1

    assert cache.is_compiled(never_called) is False
    never_called(np.int64(1))
    assert cache.is_compiled(never_called) is True

from bitdoku.kernels import cache


def _package(tmp_path):
    (tmp_path / "kernels" / "__pycache__").mkdir(parents=True)
    (tmp_path / "logic" / "__pycache__").mkdir(parents=True)
    (tmp_path / "kernels" / "dfs.py").write_text("x = 1\n")
    (tmp_path / "logic" / "_fast.py").write_text("y = 1\n")
    return tmp_path


def _cache_files(package):
    return sorted(p.name for p in package.glob("*/__pycache__/*.nb?"))


def test_caches_survive_while_the_sources_stay_the_same(tmp_path):
    package = _package(tmp_path)
    cache.clear_stale(package)
    (package / "kernels" / "__pycache__" / "dfs.search-1.py311.nbi").write_text("index")
    assert not cache.clear_stale(package)
    assert _cache_files(package) == ["dfs.search-1.py311.nbi"]


def test_an_edit_to_any_kernel_source_drops_every_cache_file(tmp_path):
    package = _package(tmp_path)
    cache.clear_stale(package)
    (package / "kernels" / "__pycache__" / "batch.search_rows9-1.py311.nbi").write_text("index")
    (package / "logic" / "__pycache__" / "_fast.run-1.py311.1.nbc").write_text("code")
    (package / "kernels" / "dfs.py").write_text("x = 2\n")  # batch's cache would not notice this edit
    assert cache.clear_stale(package)
    assert _cache_files(package) == []
    assert not cache.clear_stale(package)

"""bitdoku.parallel.distributed on a real LocalCluster: the same answers as the in-process drivers, in order,
with nothing lost when a worker dies or a chunk fails."""

from __future__ import annotations

import itertools
import os
import signal
import sys
import time

import numpy as np
import pytest

pytest.importorskip("distributed")

from distributed import Client, LocalCluster

from bitdoku import search as local_search
from bitdoku.batch import as_puzzle_array, verify_solutions
from bitdoku.batch import solve_many as local_solve_many
from bitdoku.cli.cluster import cluster_results
from bitdoku.cli.plan import Plan
from bitdoku.data import sample_lines
from bitdoku.engines.registry import DEFAULT_ENGINE
from bitdoku.engines.result import Status
from bitdoku.errors import BitdokuError, MissingExtraError
from bitdoku.parallel import distributed as dd
from bitdoku.reader import read_entries
from bitdoku.shape import Shape

SAMPLES = ("top1465_sample.txt", "multisolution_sample.txt", "nosolution_sample.txt", "duplicate_givens.txt")
#: 2,058,658 solutions; its whole tree is ~4 million nodes (under a second on one core).
MANY = "..2...6..9.......5.75.9......4237..........2....1.9....2.....68..8........6.....2"
FIELDS = ("puzzles", "solutions", "status_codes", "counts", "stats", "kernel_codes")


def _cluster() -> tuple[LocalCluster, Client]:
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(cluster)
    dd.warm_up(client, [Shape(3, 3), Shape(2, 2)])
    return cluster, client


@pytest.fixture(scope="module")
def client():
    cluster, client = _cluster()
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def mixed():
    """The shipped samples mixed: unique, multiple, no solution and invalid rows."""
    return as_puzzle_array([line for name in SAMPLES for line in sample_lines(name)])[0]


def _assert_same(result, expected) -> None:
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(result, name), getattr(expected, name), err_msg=name)
    assert result.shape == expected.shape


def _fail_chunks_of(rows: int, monkeypatch) -> None:
    """Make every chunk of ``rows`` rows fail on the workers (the patch is pickled by value, so they run it)."""
    real = dd._solve_chunk

    def failing(puzzles, *args):
        if len(puzzles) == rows:
            raise RuntimeError("boom")
        return real(puzzles, *args)

    monkeypatch.setattr(dd, "_solve_chunk", failing)


@pytest.mark.parametrize("limit", [1, 2])
def test_batch_on_the_cluster_equals_the_local_batch(client, mixed, limit):
    stats = dd.SchedulerStats()
    result = dd.solve_many(client, mixed, chunk_size=7, limit=limit, stats=stats)
    _assert_same(result, local_solve_many(mixed, limit=limit, threads=1))
    assert stats.tasks == len(dd.task_slices(len(mixed), 7, 2)) and stats.kernel_seconds > 0
    assert stats.overhead_us > 0


@pytest.mark.parametrize("rows, chunk_size, workers", [(0, 5, 2), (1, 5, 2), (81, 7, 2), (983_020, 100_000, 2),
                                                       (1000, 1, 3), (50, 4096, 8)])
def test_task_slices_cover_the_rows_in_order_and_shrink_at_the_end(rows, chunk_size, workers):
    slices = dd.task_slices(rows, chunk_size, workers)
    bounds = [0, *(s.stop for s in slices)]
    assert [(s.start, s.stop) for s in slices] == list(itertools.pairwise(bounds)) and bounds[-1] == rows
    sizes = [s.stop - s.start for s in slices]
    assert all(0 < size <= chunk_size for size in sizes) and sizes == sorted(sizes, reverse=True)
    if rows >= 4 * workers * chunk_size >= 16 * workers:  # plenty of rows: full chunks, then a shorter tail
        assert sizes[0] == chunk_size and min(sizes) < chunk_size / 2


def test_chunks_come_back_in_input_order_with_bounded_memory(client, mixed):
    hard, _ = as_puzzle_array(sample_lines("hardest_sample.txt"))
    chunks = [np.repeat(hard, 20, axis=0), *np.array_split(mixed, 9), mixed[:0], mixed[:3]]  # slow chunk first
    pulled = []

    def source():
        for chunk in chunks:
            pulled.append(len(chunk))
            yield chunk

    seen = []
    for index, result in dd.solve_chunks(client, source(), limit=2, in_flight=3):
        assert len(pulled) - index <= 3  # never more than in_flight chunks out of the caller's hands
        np.testing.assert_array_equal(result.puzzles, chunks[index])
        seen.append(index)
    assert seen == list(range(len(chunks)))


def test_a_failing_chunk_is_reported_and_the_others_come_back(client, mixed, monkeypatch):
    _fail_chunks_of(5, monkeypatch)
    chunks = [mixed[:10], mixed[10:15], mixed[15:40]]
    results = list(dd.solve_chunks(client, chunks, limit=2))
    assert [index for index, _ in results] == [0, 1, 2]
    assert results[1][1] == dd.ChunkFailure(1, 5, "RuntimeError: boom")
    _assert_same(results[2][1], local_solve_many(mixed[15:40], limit=2, threads=1))
    five = next(rows for rows in dd.task_slices(45, 10, 2) if rows.stop - rows.start == 5)
    failed = f"rows {five.start + 1}-{five.stop} failed on the cluster: RuntimeError: boom"
    with pytest.raises(BitdokuError, match=failed):
        dd.solve_many(client, mixed[:45], chunk_size=10)


def test_killing_a_worker_mid_batch_loses_nothing():
    base = np.concatenate([as_puzzle_array(sample_lines(name))[0] for name in (*SAMPLES, *["hardest_sample.txt"] * 4)])
    puzzles = np.tile(base, (300, 1))  # ~2.5 s of kernel time on one core
    expected = local_solve_many(puzzles, limit=2)
    cluster, client = _cluster()
    try:
        victim = sorted(client.nthreads())[0]
        pid = client.run(os.getpid, workers=[victim])[victim]
        chunks = (puzzles[i : i + 500] for i in range(0, len(puzzles), 500))
        results = []
        for index, result in dd.solve_chunks(client, chunks, limit=2):
            if index == 0:
                os.kill(pid, signal.SIGKILL)
            assert not isinstance(result, dd.ChunkFailure), result
            results.append(result)
        assert len(results) == -(-len(puzzles) // 500) > 1
        assert victim not in client.nthreads()  # it died mid-run (its nanny starts a new one, at a new address)
        _assert_same(dd.concatenate(results), expected)
    finally:
        client.close()
        cluster.close()


def test_killing_a_worker_during_a_cli_cluster_run_prints_the_same_lines(tmp_path, monkeypatch):
    """``bitdoku solve FILE --cluster``: a worker killed once the first chunk is back; its nanny starts another,
    and the lines are those of the thread path, none lost or doubled."""
    from typer.testing import CliRunner

    from bitdoku.cli import cluster as cli_cluster
    from bitdoku.cli.main import app

    lines = [line for name in (*SAMPLES, "hardest_sample.txt", "hardest_sample.txt") for line in sample_lines(name)]
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines * 40) + "\n")  # ~6,000 puzzles, ~1.5 s of kernel time on one core
    cluster, client = _cluster()
    try:
        pids = client.run(os.getpid)
        real = dd.solve_chunks

        def killing_a_worker(*args, **kwargs):
            for index, result in real(*args, **kwargs):
                if index == 0:
                    os.kill(pids[sorted(pids)[0]], signal.SIGKILL)
                yield index, result

        monkeypatch.setattr(dd, "solve_chunks", killing_a_worker)
        monkeypatch.setattr(cli_cluster, "CLUSTER_CHUNK_SIZE", 300)
        runner = CliRunner()
        remote = runner.invoke(app, ["solve", str(path), "--cluster", client.scheduler.address])
        client.wait_for_workers(2, timeout=60)
        assert sorted(pids)[0] not in client.nthreads() and len(client.nthreads()) == 2  # killed and replaced
    finally:
        client.close()
        cluster.close()
    local = runner.invoke(app, ["solve", str(path)])
    assert remote.exit_code == local.exit_code and "failed" not in remote.stderr
    assert remote.stdout == local.stdout and remote.stdout.count("\n") == len(lines) * 40


def test_farm_counts_every_solution_like_a_local_search(client):
    stats = dd.SchedulerStats()
    result = dd.search(client, MANY, limit=3_000_000, keep=0, stats=stats)
    expected = local_search(MANY, limit=3_000_000, keep=0)
    assert (result.status, result.count) == (expected.status, expected.count) == (Status.MULTIPLE, 2_058_658)
    assert stats.tasks > 1


def test_farm_counts_a_small_grid_up_to_the_limit(client):
    result = dd.search(client, "1" + "." * 35, limit=5000)  # 6x6 with one given: capped at the limit
    assert (result.status, result.count) == (Status.MULTIPLE, 5000)
    assert local_search("1" + "." * 35, limit=5000).count == 5000


def test_farm_solve_mode_stops_early_with_a_valid_solution(client):
    count = dd.search(client, MANY, limit=3_000_000, keep=0)
    solved = dd.search(client, MANY, limit=1)
    assert solved.status is Status.SOLVED and solved.count == 1
    solution = np.frombuffer(solved.solution.cells, np.uint8)[None]
    assert verify_solutions(as_puzzle_array([MANY])[0], solution, Shape(3, 3)).all()
    assert solved.stats.nodes < count.stats.nodes / 10


def test_farm_searches_a_killer_under_its_cages_on_the_workers(client):
    from bitdoku import Grid

    sumless = Grid.parse("AABBCC" "DDEEFF" "GGHHII" "JJKKLL" "MMNNOO" "PPQQRR " + ",".join("-" * 18),
                         Shape(2, 3), variant="killer")
    expected = local_search(sumless, limit=10**6, keep=0)
    result = dd.search(client, sumless, limit=10**6, keep=0, slice_nodes=200)
    assert (result.status, result.count) == (expected.status, expected.count)
    killer = Grid.parse(sample_lines("killer_sample.txt")[0], variant="killer")
    solved = dd.search(client, killer, limit=2)
    assert solved.status is Status.UNIQUE and solved.solution == local_search(killer).solution
    assert solved.solution.variant == "killer"


def test_farm_reports_invalid_givens_without_searching(client):
    assert dd.search(client, "11" + "." * 79).status is Status.INVALID


def test_a_farm_search_on_the_cluster_stops_at_its_time_limit(client):
    start = time.perf_counter()
    result = dd.search(client, "." * 81, limit=10**15, keep=0, time_limit=0.3)  # hours of counting, cut short
    assert time.perf_counter() - start < 10.0
    assert result.status is Status.LIMIT and result.time_limit == 0.3
    assert result.reason.startswith("time limit of 0.3 s reached after ")
    assert dd.search(client, MANY, limit=1, time_limit=600).status is Status.SOLVED


def test_a_batch_time_limit_reaches_the_workers_per_row(client, mixed):
    rows = np.concatenate([mixed[:3], as_puzzle_array(["." * 81])[0], mixed[3:6]])
    got = dd.solve_many(client, rows, chunk_size=2, limit=10**15, time_limit=0.2)
    expected = local_solve_many(rows, limit=10**15, threads=1, time_limit=0.2)
    assert got.statuses == expected.statuses and got.statuses[3] is Status.LIMIT
    assert got.result(3).reason.startswith("time limit of 0.2 s reached: ") and got.result(3).time_limit == 0.2
    assert all(got.result(row).time_limit is None for row in (0, 1, 2, 4, 5, 6))


def test_cli_time_limit_on_the_cluster_answers_limit_and_goes_on(client, tmp_path):
    from typer.testing import CliRunner

    from bitdoku.cli.exit_codes import ExitCode
    from bitdoku.cli.main import app

    path = tmp_path / "p.txt"
    lines = sample_lines("top1465_sample.txt")[:2]
    path.write_text(f"{lines[0]}\n{'.' * 81}\n{lines[1]}\n")
    result = CliRunner().invoke(app, ["count", str(path), "--limit", "1000000000000000", "--time-limit", "0.2",
                                      "--cluster", client.scheduler.address])
    assert result.exit_code == ExitCode.LIMIT
    assert result.stdout.splitlines() == ["1", "limit", "1"]


def test_cli_results_match_the_thread_path_line_for_line(client, mixed, tmp_path):
    lines = [*sample_lines("top1465_sample.txt")[:5], "not a puzzle", "..3..4.221......",
             *sample_lines("multisolution_sample.txt")[:5], "x" * 81]
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    address = client.scheduler.address
    got = list(cluster_results(read_entries(path), Plan(DEFAULT_ENGINE, limit=2), address, chunk_size=4))
    assert [entry.line for entry, _, _ in got] == list(range(1, len(lines) + 1))
    for (entry, result, seconds), line in zip(got, lines, strict=True):
        assert seconds is None
        if entry.grid is None:
            assert result is None and entry.error is not None
            continue
        expected = local_search(line, limit=2)
        assert (result.status, result.count, result.solution) == (expected.status, expected.count, expected.solution)


def test_cli_rows_of_a_failed_chunk_come_back_without_a_result(client, tmp_path, monkeypatch):
    _fail_chunks_of(2, monkeypatch)
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(sample_lines("top1465_sample.txt")[:5]) + "\n")
    plan = Plan(DEFAULT_ENGINE, limit=1)
    got = list(cluster_results(read_entries(path), plan, client.scheduler.address, chunk_size=3))
    assert [result is None for _, result, _ in got] == [False, False, False, True, True]
    for entry, _, _ in got[3:]:
        assert entry.grid is not None and "chunk failed on the cluster (RuntimeError: boom)" in str(entry.error)


def test_missing_dask_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'bitdoku\[dask\]'"):
        dd.connect("local")


def test_cli_solve_on_the_cluster_prints_what_the_threads_print(client, tmp_path):
    from typer.testing import CliRunner

    from bitdoku.cli.main import app

    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(line for name in SAMPLES for line in sample_lines(name)) + "\nnot a puzzle\n")
    runner = CliRunner()
    local = runner.invoke(app, ["solve", str(path), "--lenient"])
    remote = runner.invoke(app, ["solve", str(path), "--lenient", "--cluster", client.scheduler.address])
    assert remote.stdout == local.stdout and remote.exit_code == local.exit_code
    assert remote.stdout.splitlines()[-1] == "error"


def test_variant_batches_on_the_cluster_equal_the_local_batch(client):
    x_lines = [*sample_lines("top1465_sample.txt")[:6], "." * 81, "1" * 81]
    result = dd.solve_many(client, x_lines, variant="x", chunk_size=3, limit=2)
    _assert_same(result, local_solve_many(x_lines, variant="x", limit=2, threads=1))
    assert result.geometry is not None and result.geometry.name == "x"
    assert result.result(0).solutions == () or result.result(0).solutions[0].variant == "x"


def test_cli_variant_files_on_the_cluster_print_what_the_threads_print(client, tmp_path):
    from typer.testing import CliRunner

    from bitdoku.cli.main import app
    from bitdoku.data import sample_path

    runner = CliRunner()
    jigsaws = str(sample_path("jigsaw_janko_9x9.txt"))  # a map a puzzle: arrays by map
    local = runner.invoke(app, ["count", "--variant", "jigsaw", jigsaws])
    remote = runner.invoke(app, ["count", "--variant", "jigsaw", jigsaws, "--cluster", client.scheduler.address])
    assert remote.stdout == local.stdout and remote.exit_code == local.exit_code == 0
    path = tmp_path / "x.txt"
    path.write_text("\n".join(sample_lines("top1465_sample.txt")[:8]) + "\n")
    local = runner.invoke(app, ["solve", "--variant", "x", str(path)])
    remote = runner.invoke(app, ["solve", "--variant", "x", str(path), "--cluster", client.scheduler.address])
    assert remote.stdout == local.stdout and remote.exit_code == local.exit_code
    classic = runner.invoke(app, ["solve", str(path)])
    assert classic.stdout != remote.stdout  # the diagonals were searched on the cluster


KILLERS = ["ABBCADECFDECFFGG 4,5,9,5,5,9,3", "AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3",
           "AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3 1..............."]


def test_killer_batches_on_the_cluster_keep_each_row_its_cages(client, tmp_path):
    from typer.testing import CliRunner

    from bitdoku.cli.main import app

    result = dd.solve_many(client, KILLERS, variant="killer", chunk_size=1, limit=2)
    _assert_same(result, local_solve_many(KILLERS, variant="killer", limit=2, threads=1))
    assert [r.solution.cages for r in map(result.result, range(3))] == [
        local_solve_many([line], variant="killer").result(0).solution.cages for line in KILLERS]
    path = tmp_path / "killers.txt"
    path.write_text("\n".join(KILLERS * 3) + "\nAABB 3,3\n")
    runner = CliRunner()
    local = runner.invoke(app, ["solve", "--lenient", "--variant", "killer", str(path)])
    remote = runner.invoke(app, ["solve", "--lenient", "--variant", "killer", str(path), "--cluster",
                                 client.scheduler.address])
    assert remote.stdout == local.stdout and remote.exit_code == local.exit_code
    lines = local.stdout.splitlines()
    assert len(lines) == 10 and lines[0] == "1234341221434321" and lines[-1] == "error"


def test_cli_lines_of_a_failed_chunk_say_failed_with_their_exit_code(client, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from bitdoku.cli import cluster
    from bitdoku.cli.exit_codes import ExitCode
    from bitdoku.cli.main import app

    _fail_chunks_of(2, monkeypatch)
    monkeypatch.setattr(cluster, "CLUSTER_CHUNK_SIZE", 3)
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(sample_lines("top1465_sample.txt")[:5]) + "\n")
    result = CliRunner().invoke(app, ["solve", str(path), "--cluster", client.scheduler.address])
    lines = result.stdout.splitlines()
    assert lines[3:] == ["failed", "failed"] and all(len(line) == 81 for line in lines[:3])
    assert result.exit_code == ExitCode.CLUSTER_FAILURE
    assert "bitdoku: failed:" in result.stderr and "failed 2" in result.stderr


def test_experiment_runs_the_dask_mode_on_the_cluster(client, tmp_path):
    from typer.testing import CliRunner

    from bitdoku.cli.main import app

    path = tmp_path / "tree.txt"
    path.write_text(MANY + "\n")
    result = CliRunner().invoke(app, ["experiment", str(path), "--modes", "seq,dask", "--threads", "1,2",
                                      "--repeat", "1", "--limit", "1000000000", "--no-plot",
                                      "--cluster", client.scheduler.address, "--out", str(tmp_path / "exp")])
    assert result.exit_code == 0, result.output
    assert "| dask | 1 |" in result.stdout and "| dask | 2 |" in result.stdout
    assert result.stdout.count("| 2,058,658 |") == 3


def test_the_cluster_functions_keep_the_public_contract(client):
    # Every form of a puzzle, and bitdoku's own errors for what is none (tests/test_contract.py, on a cluster).
    from tests.test_contract import LINE, WRONG, WRONG_BATCHES, forms

    found = {form: dd.search(client, puzzle, limit=2).solutions for form, puzzle in forms(LINE).items()}
    assert len({tuple(grid.to_line() for grid in grids) for grids in found.values()}) == 1
    batches = [dd.solve_many(client, [puzzle, puzzle]).solutions.tobytes() for puzzle in forms(LINE).values()]
    assert len(set(batches)) == 1
    for wrong in ("None", "an int", "bytes", "float cells", "a digit out of range"):
        with pytest.raises(BitdokuError):
            dd.search(client, WRONG[wrong])
    for wrong in ("None", "one puzzle as text", "one Grid", "float cells"):
        with pytest.raises(BitdokuError):
            dd.solve_many(client, WRONG_BATCHES[wrong])

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_configure(config: pytest.Config) -> None:
    """Compile ahead, on every core, before the first test: every warm-up unit goes into Numba's cache once, so
    the test processes (pytest-xdist's workers) load it instead of each compiling the same kernels inside tests
    that time their calls. Units already compiled (``bitdoku warmup``'s markers) are skipped in a moment."""
    if hasattr(config, "workerinput"):  # an xdist worker: its controller compiled ahead
        return
    import sys
    import time

    from bitdoku.warmup.farm import Farm
    from bitdoku.warmup.units import units

    start = time.perf_counter()
    farm = Farm(units(everything=True))
    if farm.pending:
        print(f"compiling ahead: {farm.pending} units on {farm.processes} processes", file=sys.stderr)
    with farm:
        farm.wait()
    if time.perf_counter() - start > 1:
        print(f"compiled ahead in {time.perf_counter() - start:.0f} s", file=sys.stderr)

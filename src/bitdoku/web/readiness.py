"""What the server has compiled yet: requests for a feature still being prepared get 503 and Retry-After.

A server on a cold cache starts at once and compiles in the background (``bitdoku.warmup.Farm``: the live verdict
first, then hints, then the generator, on every core). Until a request's units are ready (``warmup.units``:
``search_units``, ``logic_units``, ``generate_units``) it is answered ``503`` with ``Retry-After`` and the kind
``warming_up`` ("preparing hints, explanations and ratings, a few seconds"), which the page shows on the button:
it never waits minutes for a compiler, and no two processes compile the same kernel. A unit whose compile failed
is not waited for: its first request compiles it, as without a warm-up.

The worker processes of a server with several (``bitdoku serve --workers N``) follow the farm of the process that
started them through the marker files of ``warmup.ready``; a single-process server runs its own farm. Each
process loads a unit's compiled code as soon as it is ready (``_preload``), so its first request does not.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterable

from bitdoku.warmup import FEATURES, Farm, Unit, is_ready, units
from bitdoku.warmup.ready import folder, is_failed
from bitdoku.warmup.units import BY_NAME
from bitdoku.web.errors import ApiError
from bitdoku.web.schemas import ErrorBody

#: Seconds a client is told to wait before it asks again for a feature being prepared.
RETRY_SECONDS = 2
#: Set by ``bitdoku serve`` for its worker processes to the id of the process that compiles for them (and whose
#: end ends them).
FOLLOW_ENV = "BITDOKU_SERVE_PARENT"
#: The features a server prepares, in order: what the page's buttons do (files and canonical forms are not on it).
SERVER_FEATURES = ("verdict", "hints", "generate", "variants", "killer")


class Readiness:
    """The units this server prepares and which are ready; ``require`` is the gate of a request.

    ``gate=False`` (a server built without warm-up: the tests') lets every request through, compiling on first use.
    """

    def __init__(self, *, gate: bool = True) -> None:
        self.units: tuple[Unit, ...] = units(features=SERVER_FEATURES)
        self.gate = gate
        self._ready: set[str] = set()
        self._farm: Farm | None = None
        self._stopped = threading.Event()
        self._where = folder() if gate else None  # the markers' folder, looked up once

    def start(self, *, own_farm: bool, preload: bool = True) -> None:
        """Begin preparing: compile with a farm of this process (``own_farm``) or follow another process's, and
        (``preload``) load each unit here as soon as it is ready."""
        if own_farm:
            self._farm = Farm(self.units).start()
        if preload:
            threading.Thread(target=self._preload, name="bitdoku-preload", daemon=True).start()

    def stop(self) -> None:
        """Stop preparing (the farm's processes are killed at once)."""
        self._stopped.set()
        if self._farm is not None:
            self._farm.stop()

    def ready(self, name: str) -> bool:
        """Whether unit ``name`` needs no waiting: compiled, failed (its first use compiles it), or not gated."""
        if not self.gate or name in self._ready:
            return True
        finished = self._farm is not None and self._farm.finished(name)
        if finished or is_ready(name, self._where) or is_failed(name, self._where):
            self._ready.add(name)
            return True
        return False

    @property
    def all_ready(self) -> bool:
        """Whether nothing is gated any more (after which a request costs nothing here)."""
        return not self.gate or len(self._ready) == len(self.units) or all(self.ready(u.name) for u in self.units)

    def require(self, names: Iterable[str]) -> None:
        """Raise the 503 of the first unit of ``names`` not ready yet; return when all are."""
        for name in names:
            if not self.ready(name):
                what = FEATURES[BY_NAME[name].feature]
                body = ErrorBody(kind="warming_up", message=f"preparing {what}, a few seconds")
                raise ApiError(503, body, headers={"Retry-After": str(RETRY_SECONDS)})

    def features(self) -> dict[str, bool]:
        """For ``/api/health``: whether each feature of the page is ready."""
        return {feature: all(self.ready(unit.name) for unit in self.units if unit.feature == feature)
                for feature in SERVER_FEATURES}

    def _preload(self) -> None:
        """Load each unit's compiled code into this process once it is ready, in order; then freeze the
        long-lived objects out of the garbage collector's scans (see ``app.create_app``)."""
        for unit in self.units:
            while not self._stopped.is_set() and not self.ready(unit.name):
                self._stopped.wait(0.1)
            if self._stopped.is_set():
                return
            with contextlib.suppress(Exception):  # a unit that cannot load here compiles on first use
                unit.run()
        gc.collect()
        gc.freeze()

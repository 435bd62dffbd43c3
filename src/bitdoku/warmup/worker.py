"""A compile worker: ``python -m bitdoku.warmup.worker``, started by ``bitdoku.warmup.farm.Farm``.

It reads the names of units to compile from stdin, one a line as JSON (``{"unit": "9x9 engine"}``), compiles each
into the shared Numba cache (``bitdoku.warmup.units``), marks it ready, and answers on stdout with one JSON line
(``{"unit": ..., "status": "done" | "cached" | "failed", "seconds": ..., "error": ...}``). It ends at the end of
its input, and at once when its parent process ends (even killed: Linux's parent-death signal, and a watch on the
parent's process id elsewhere), so that no worker ever outlives the process that started it. Ctrl-C is the
parent's to handle: the worker ignores it, and the parent stops it.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import traceback

#: Seconds between two looks at whether the parent process is still there.
PARENT_WATCH_SECONDS = 0.25


def die_with_parent(parent: int) -> None:
    """End this process as soon as process ``parent`` is gone: Linux's parent-death signal (``prctl``), and a
    thread that watches ``os.getppid()`` for other systems (and for a parent that died before ``prctl`` ran)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="bitdoku-parent-watch", daemon=True).start()


def compile_unit(name: str) -> dict[str, object]:
    """Compile one unit (unless another process did it while this one waited for its lock); the reply."""
    from bitdoku.warmup.ready import compiling, mark_ready
    from bitdoku.warmup.units import BY_NAME

    start = time.perf_counter()
    try:
        unit = BY_NAME[name]
        with compiling(name) as needed:
            if needed:
                unit.run()
                mark_ready(name)
        status = "done" if needed else "cached"
        return {"unit": name, "status": status, "seconds": time.perf_counter() - start}
    except Exception as error:  # reported to the parent, which falls back to compiling on first use
        last = traceback.extract_tb(error.__traceback__)[-1:]
        where = f" ({last[0].filename}:{last[0].lineno})" if last else ""
        return {"unit": name, "status": "failed", "seconds": time.perf_counter() - start,
                "error": f"{type(error).__name__}: {error}{where}"}


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(int(os.environ.get("BITDOKU_WARMUP_PARENT", os.getppid())))
    import bitdoku.kernels  # noqa: F401 - finds Numba its cache folder (the parent's, by NUMBA_CACHE_DIR)

    for line in sys.stdin:
        if not line.strip():
            continue
        reply = compile_unit(json.loads(line)["unit"])
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

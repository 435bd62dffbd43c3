"""The exit codes of the ``bitdoku`` command, documented in the README and in ``bitdoku --help``."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """What the process tells its caller. When several apply, the highest wins."""

    OK = 0  # every puzzle was answered
    INTERNAL = 1  # a bug in bitdoku: please report it (run with --debug for the traceback)
    USAGE = 2  # the command line itself is wrong (unknown option, bad value)
    NO_SOLUTION = 3  # a puzzle has no solution (solve), or is not unique (check)
    LIMIT = 4  # a search spent its node budget (--max-nodes) or time limit (--time-limit), or generate its budget
    INVALID_GRID = 5  # givens break a rule: the same digit twice in a row, column or box
    BAD_INPUT = 6  # input that is not a puzzle: unreadable file, bad character, wrong cell count
    CLUSTER_FAILURE = 7  # a chunk failed on the Dask cluster after its retries; its lines say 'failed'
    OUTPUT = 8  # the results could not be written: the disk is full; FILE.partial keeps them for --resume
    INTERRUPTED = 130  # stopped by Ctrl-C; the lines already printed are complete

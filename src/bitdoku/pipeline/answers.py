"""The answer lines of a batch as one block of bytes: what ``solve``, ``count`` and ``check`` print, built with
NumPy instead of a string per puzzle.

Each line is either a solution (its cells through the alphabet table) or one of a few short texts (a status, a
count); the texts are formatted once each and copied into a character matrix, and the lines are cut out of it
with one boolean mask. Only the rare rows that need a sentence (an invalid grid's clashing cells, a cell left
without candidates, a spent budget) are formatted in Python. The bytes are exactly what the per-puzzle path
prints (tests compare the two on every data file).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from bitdoku.batch import BatchResult
from bitdoku.engines.bitmask import STATUS_INDEX, STATUSES
from bitdoku.engines.result import SearchResult, Status
from bitdoku.formats.tokens import ALPHABET
from bitdoku.kernels import status as codes

_CHARS = np.frombuffer(b"." + ALPHABET.encode("ascii"), dtype=np.uint8)
_SOLUTION = -1  # the key of a row whose line is its solution
_NEEDS_REASON = (codes.INVALID, codes.CONTRADICTION, codes.BUDGET_EXHAUSTED, codes.STOPPED)


def solve_lines(batch: BatchResult) -> bytes:
    """``bitdoku solve``'s lines: the (first) solution, or the status when there is none."""
    if not batch.shape.uses_alphabet:  # 36x36 and up: cells are integers, so lines are written one by one
        return "".join(solution_line(batch.result(row)) + "\n" for row in range(len(batch.status_codes))).encode()
    has_solution = np.isin(batch.status_codes, [STATUS_INDEX[s] for s in STATUSES if s.has_solution])
    keys = np.where(has_solution, _SOLUTION, batch.status_codes.astype(np.int64))
    texts = {int(code): STATUSES[code].value for code in np.unique(batch.status_codes)}
    return _lines(keys, texts, batch.solutions)


def solution_line(result: SearchResult) -> str:
    """``solve_lines``' line for one search result: the (first) solution, or the status when there is none."""
    solution = result.solution
    return solution.to_line() if solution is not None else result.status.value


def cell_lines(cells: NDArray[np.uint8]) -> bytes:
    """Grids of up to 35x35 as lines of one character a cell (``Grid.to_line``), one row a grid."""
    return _lines(np.full(len(cells), _SOLUTION, dtype=np.int64), {}, cells)


def count_lines(batch: BatchResult, limit: int) -> bytes:
    """``bitdoku count``'s lines: the count, with ``+`` when it reached ``limit``; the status for an invalid
    grid or a spent budget."""
    status = batch.status_codes.astype(np.int64)
    statused = np.isin(status, [STATUS_INDEX[Status.INVALID], STATUS_INDEX[Status.LIMIT]])
    keys = np.where(statused, -2 - status, batch.counts)
    texts = {}
    for key in np.unique(keys).tolist():
        texts[key] = STATUSES[-2 - key].value if key < 0 else f"{key}{'+' if key >= limit else ''}"
    return _lines(keys, texts, batch.solutions)


def check_lines(batch: BatchResult) -> bytes:
    """``bitdoku check``'s lines for a file: the status, and ``: reason`` where there is one."""
    keys = batch.status_codes.astype(np.int64)
    texts = {int(code): STATUSES[code].value for code in np.unique(batch.status_codes)}
    own = {}
    for row in np.flatnonzero(np.isin(batch.kernel_codes, _NEEDS_REASON)).tolist():
        result = batch.result(row)
        own[row] = result.status.value + (f": {result.reason}" if result.reason else "")
    return _lines(keys, texts, batch.solutions, own)


def _lines(keys: NDArray[np.int64], texts: dict[int, str], solutions: NDArray[np.uint8],
           own: dict[int, str] | None = None) -> bytes:
    """One line a row, each ending in ``\n``: the solution where ``keys`` is ``_SOLUTION``, ``own[row]`` for the
    rows that have a text of their own, else ``texts[key]``."""
    k, cells = solutions.shape
    encoded = {key: text.encode("utf-8") for key, text in texts.items()}
    own_encoded = {row: text.encode("utf-8") for row, text in (own or {}).items()}
    width = max([cells, *map(len, encoded.values()), *map(len, own_encoded.values())]) + 1
    out = np.zeros((k, width), dtype=np.uint8)
    lengths = np.full(k, cells, dtype=np.int64)
    solved = keys == _SOLUTION
    out[solved, :cells] = _CHARS[solutions[solved]]
    for key, text in encoded.items():
        rows = keys == key
        if rows.any():
            out[rows, : len(text)] = np.frombuffer(text, dtype=np.uint8)
            lengths[rows] = len(text)
    for row, text in own_encoded.items():
        out[row, : len(text)] = np.frombuffer(text, dtype=np.uint8)
        lengths[row] = len(text)
    out[np.arange(k), lengths] = 10
    return out[np.arange(width) <= lengths[:, None]].tobytes()

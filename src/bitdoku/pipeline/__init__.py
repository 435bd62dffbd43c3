"""Files of puzzles at kernel speed: bytes in, arrays through the batch kernels, bytes out, resumable.

``chunks`` reads a file as uint8 arrays (plain lines) or entries (the rest), ``answers`` writes a batch's
answer lines as one block of bytes, ``outfile`` makes an output file appear only when complete and lets an
interrupted run go on, and ``files`` puts them together: ``solve_file``.
"""

from bitdoku.pipeline.files import solve_file

__all__ = ["solve_file"]

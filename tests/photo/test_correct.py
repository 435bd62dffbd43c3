import numpy as np

import bitdoku
from bitdoku.engines.result import Status
from bitdoku.photo.correct import correct

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def probabilities_of(line: str, sure: float = 0.98) -> np.ndarray:
    """A reading that is ``sure`` of every cell of ``line``."""
    p = np.full((81, 10), (1 - sure) / 9)
    for cell, char in enumerate(line):
        p[cell, 0 if char == "." else int(char)] = sure
    return p


def test_a_unique_reading_is_left_alone():
    fixed = correct(probabilities_of(PUZZLE))
    assert fixed.status is Status.UNIQUE and fixed.changed == ()
    assert "".join("." if d == 0 else str(d) for d in fixed.digits) == PUZZLE


def test_a_misread_digit_that_clashes_is_corrected_to_its_second_choice():
    p = probabilities_of(PUZZLE)
    p[6] = 0.001
    p[6, 4], p[6, 8] = 0.6, 0.399  # r1c7 read as 4 (a clash with r1c1), with 8 a close second
    fixed = correct(p)
    assert fixed.status is Status.UNIQUE and fixed.changed == (6,)
    assert fixed.digits[6] == 8


def test_a_smudge_read_as_a_digit_is_emptied():
    p = probabilities_of(PUZZLE)
    p[1] = 0.01
    p[1, 3], p[1, 0] = 0.7, 0.22  # r1c2 is empty, but a smudge reads as a 3 (which clashes with r2c2)
    fixed = correct(p)
    assert fixed.changed == (1,) and fixed.digits[1] == 0


def test_an_unfixable_reading_comes_back_unchanged_with_its_status():
    line = "11" + PUZZLE[2:]
    fixed = correct(probabilities_of(line, sure=0.999999), max_tries=5)
    assert fixed.status is Status.INVALID and fixed.changed == ()
    assert bitdoku.Grid.from_array(fixed.digits.reshape(9, 9).tolist()).to_line()[:2] == "11"

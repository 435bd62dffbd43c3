"""Sample puzzles shipped with bitdoku for the tests and the demo (provenance in README.md here)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The seeds' main test grid: the CLI's demo.
DEMO = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
DEMO_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def sample_path(name: str) -> Path:
    """The path of a shipped sample file, such as ``'famous.txt'``."""
    return Path(str(resources.files(__package__).joinpath(name)))


def sample_lines(name: str) -> list[str]:
    """The puzzle lines of a shipped sample file (comments and blank lines left out)."""
    lines = sample_path(name).read_text(encoding="utf-8").splitlines()
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]

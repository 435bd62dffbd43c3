"""``python -m bitdoku``: the same as the ``bitdoku`` command."""

from bitdoku.cli.main import run

run()

"""The ``bitdoku`` command line: one module a command, errors turned into exit codes in ``main``."""

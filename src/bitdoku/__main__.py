"""``python -m bitdoku`` and the ``bitdoku`` console script: the command, started so that Ctrl-C ends quietly
at any moment, including while the application is still being imported."""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Import the application, then run it (``run`` ends the process itself).

    The imports take a quarter of a second (longer on a cold disk), and the command's setup before it parses
    the arguments a little more: a Ctrl-C there would raise ``KeyboardInterrupt`` outside the CLI's own
    handler, and Python would print its traceback. So this module imports nothing of bitdoku's until the
    handler below is in place; exit code 130 is ``ExitCode.INTERRUPTED``, written out to keep the import light.
    """
    try:
        from bitdoku.cli.main import run

        run()
    except KeyboardInterrupt:
        import signal  # here, not at the top: it imports enum, 4 ms more before the handler above is in place

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while this is written: no traceback either
        sys.stderr.write("bitdoku: interrupted\n")
        sys.stderr.flush()
        os._exit(130)


if __name__ == "__main__":
    main()

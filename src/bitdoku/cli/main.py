"""The ``bitdoku`` application: commands are registered here, and this is the one place where errors
become a one-sentence message on stderr and an exit code (a traceback only with ``--debug``)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from bitdoku import __version__
from bitdoku.cli.bench import bench
from bitdoku.cli.candidates import candidates
from bitdoku.cli.canon import canon
from bitdoku.cli.check import check
from bitdoku.cli.console import warn
from bitdoku.cli.count import count
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.experiment import experiment
from bitdoku.cli.explain import explain
from bitdoku.cli.generate import generate
from bitdoku.cli.hint import hint
from bitdoku.cli.rate import rate
from bitdoku.cli.read import read
from bitdoku.cli.serve import serve
from bitdoku.cli.solve import solve
from bitdoku.cli.warmup import warmup
from bitdoku.errors import (
    BitdokuError,
    GenerationLimitError,
    InvalidGridError,
    OutputError,
    ParseError,
    SearchLimitError,
    StepLimitError,
)

# Every command module imports only Typer and light modules at the top; what a command needs is imported when
# it runs, so that ``bitdoku --help`` loads no NumPy or Numba.


class _ErrorsToExitCodes(TyperGroup):
    """Runs a command and turns what it raises into a message and an exit code."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:  # type: ignore[override]
        return super().parse_args(ctx, _with_default_cluster(args))

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise
        except KeyboardInterrupt:
            warn("bitdoku: interrupted")
            raise typer.Exit(ExitCode.INTERRUPTED) from None
        except BrokenPipeError:
            raise typer.Exit(ExitCode.OK) from None
        except Exception as error:
            if (ctx.obj or {}).get("debug"):
                raise
            from bitdoku.pipeline.outfile import out_of_room

            error = out_of_room(error, "the standard output") or error  # -o FILE says so itself
            warn(f"bitdoku: error: {_message(error)}")
            raise typer.Exit(_exit_code(error)) from None


def _with_default_cluster(args: list[str]) -> list[str]:
    """A bare ``--cluster`` (last, or followed by another option) means ``--cluster local``: Typer's parser
    has no options with an optional value, so the default is written in before it parses."""
    out = list(args)
    for index in range(len(out) - 1, -1, -1):
        if out[index] == "--cluster" and (index + 1 == len(out) or out[index + 1].startswith("-")):
            out.insert(index + 1, "local")
    return out


def _message(error: Exception) -> str:
    if isinstance(error, ParseError) and error.line is not None and error.source is not None:
        return f"{error} (use --lenient to report bad lines and go on)"
    if isinstance(error, (BitdokuError, ValueError)):
        return str(error)
    return f"internal error ({type(error).__name__}: {error}); run with --debug for the traceback"


def _exit_code(error: Exception) -> ExitCode:
    if isinstance(error, InvalidGridError):
        return ExitCode.INVALID_GRID
    if isinstance(error, ParseError):
        return ExitCode.BAD_INPUT
    if isinstance(error, (SearchLimitError, StepLimitError, GenerationLimitError)):
        return ExitCode.LIMIT
    if isinstance(error, OutputError):
        return ExitCode.OUTPUT
    if isinstance(error, ValueError):
        return ExitCode.USAGE
    return ExitCode.INTERNAL


app = typer.Typer(
    cls=_ErrorsToExitCodes,
    rich_markup_mode=None,  # plain help: rich (and markdown-it) would double the start-up of every command
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="bitdoku: a fast and complete Sudoku toolkit for every box shape from 4x4 to 64x64.\n\n"
    "Exit codes: 0 all answered, 1 internal error, 2 usage, 3 no solution (or not unique, for check), "
    "4 node budget or time limit spent, 5 invalid grid, 6 bad input, 7 a chunk failed on the cluster, "
    "8 the output could not be written (disk full), 130 interrupted.",
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"bitdoku {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    debug: bool = typer.Option(False, "--debug", help="Show Python tracebacks (for developers)."),
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """bitdoku: a fast and complete Sudoku toolkit."""
    ctx.ensure_object(dict)["debug"] = debug


app.command()(solve)
app.command()(count)
app.command()(check)
app.command()(candidates)
app.command()(bench)
app.command()(experiment)
app.command()(explain)
app.command()(hint)
app.command()(rate)
app.command()(read)
app.command()(generate)
app.command()(canon)
app.command()(serve)
app.command()(warmup)


def run() -> None:
    """The console script's entry point.

    Once the command has finished and its output is flushed, the process ends without the interpreter's
    teardown: with Numba loaded that teardown takes a quarter of a second, longer than most commands' work.
    Every file a command writes is closed (and renamed) inside the command, before this point.
    """
    try:
        app()
        code: int | str | None = 0
    except SystemExit as exit_:
        code = exit_.code
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more can reach it
            stream.flush()
    if isinstance(code, str):
        print(code, file=sys.stderr)
        code = 1
    os._exit(code or 0)

"""``bitdoku warmup``: compile the kernels now, with a progress bar, rather than on a first call."""

from __future__ import annotations

from typing import Annotated

import typer


def warmup(
    everything: Annotated[bool, typer.Option("--all", help="Every compiled part: also variants, logic, generator, "
                                             "canonical forms.")] = False,
) -> None:
    """Compile the engine's kernels ahead of time (for images and servers); later runs load them in a moment.

    Numba compiles a kernel on its first call and caches it on disk. Without --all this compiles what solve,
    count and check use (the 9x9 engine and the one of every other box shape, one puzzle and files); with --all,
    every compiled part of the library. A step already cached takes only the time to load it.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from bitdoku.cli.console import err_console, warn
    from bitdoku.cli.output import format_seconds
    from bitdoku.kernels.cache import NOTE, cache_locations, in_use
    from bitdoku.warmup import steps, warm_up

    todo = steps(everything=everything)
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
               TimeElapsedColumn())
    with Progress(*columns, console=err_console(), transient=False) as progress:
        task = progress.add_task(f"compiling: {todo[0].name}", total=len(todo))
        for done, (step, seconds) in enumerate(warm_up(everything=everything), start=1):
            progress.console.print(f"{step.name}: {format_seconds(seconds)}")
            following = todo[done].name if done < len(todo) else "done"
            progress.update(task, advance=1, description=f"compiling: {following}")
    place = in_use(cache_locations())
    warn(NOTE or f"bitdoku: compiled kernels are cached in {place[0].parent if place else 'no folder'}")


"""``bitdoku warmup``: compile the kernels now, on every core, with a progress bar, rather than on a first call."""

from __future__ import annotations

from typing import Annotated, Optional

import typer


def warmup(
    everything: Annotated[bool, typer.Option("--all", help="Every compiled part: also variants, logic, generator, "
                                             "canonical forms.")] = False,
    processes: Annotated[
        Optional[int],  # noqa: UP045 - Typer reads this annotation at run time, also on Python 3.10
        typer.Option("--processes", min=1, help="Compile on this many processes (default: one a core).",
                     show_default=False),
    ] = None,
) -> None:
    """Compile the engine's kernels ahead of time (for images and servers); later runs load them in a moment.

    Numba compiles a kernel on its first call and caches it on disk. Without --all this compiles what solve,
    count and check use (the 9x9 engine and the one of every other box shape, one puzzle and files); with --all,
    every compiled part of the library. The parts compile side by side on every core; a part already cached takes
    only the time to look.
    """
    import threading

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from bitdoku.cli.console import err_console, warn
    from bitdoku.cli.output import format_seconds
    from bitdoku.kernels.cache import NOTE, cache_locations, in_use
    from bitdoku.warmup import Event, Farm, units

    todo = units(everything=everything)
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
               TimeElapsedColumn())
    failed: list[Event] = []
    lock = threading.Lock()
    with Progress(*columns, console=err_console(), transient=False) as progress:
        task = progress.add_task("compiling", total=len(todo))

        def finished(event: Event) -> None:
            with lock:
                said = {"done": format_seconds(event.seconds), "cached": "cached already"}.get(event.status)
                progress.console.print(f"{event.unit.name}: {said or 'failed: ' + str(event.error)}")
                if event.status == "failed":
                    failed.append(event)
                progress.update(task, advance=1)

        with Farm(todo, processes=processes, on_event=finished) as farm:
            for unit in todo:
                if farm.ready(unit.name):  # ready before the farm started: no event comes for it
                    with lock:
                        progress.console.print(f"{unit.name}: cached already")
                        progress.update(task, advance=1)
            farm.wait()
    place = in_use(cache_locations())
    warn(NOTE or f"bitdoku: compiled kernels are cached in {place[0].parent if place else 'no folder'}")
    if failed:
        names = ", ".join(event.unit.name for event in failed)
        warn(f"bitdoku: {names} did not compile here; they will compile on first use")
        raise typer.Exit(1)

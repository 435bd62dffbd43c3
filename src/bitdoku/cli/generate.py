"""``bitdoku generate``: new puzzles with exactly one solution, streamed one a line."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Optional, TypeVar

import typer

from bitdoku.cli.console import emit, err_console, flush, stderr_is_terminal, warn
from bitdoku.cli.options import (
    NO_SYMMETRY,
    Difficulty,
    OutputFileOption,
    OutputFormat,
    RegionsOption,
    ResumeOption,
    SymmetryName,
    VariantOption,
)
from bitdoku.cli.output import format_seconds, to_json

if TYPE_CHECKING:
    import numpy as np

    from bitdoku.generate.puzzles import Generated
    from bitdoku.geometry import Geometry

#: A generated puzzle: ``Generated``, or a Killer's ``GeneratedKiller``.
Made = TypeVar("Made")


def generate(
    shape: Annotated[str, typer.Option("--shape", help="Box shape ROWSxCOLS: 3x3 is 9x9, 2x3 is 6x6, 4x4 is 16x16.")]
    = "3x3",
    count: Annotated[int, typer.Option("--count", "-n", min=0, help="How many puzzles.")] = 1,
    seed: Annotated[
        Optional[int],  # noqa: UP045 - Typer reads this annotation at run time, also on Python 3.10
        typer.Option(min=0, help="Seed: the same seed gives the same puzzles on any number of threads "
                     "(default: a fresh one, printed at the end).", show_default=False),
    ] = None,
    symmetry: Annotated[SymmetryName, typer.Option(help="Keep the clue pattern symmetric.")] = NO_SYMMETRY,
    minimal: Annotated[bool, typer.Option("--minimal", help="No clue can be removed (checked clue by clue).")] = False,
    clues: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=0, help="Exactly this many clues (best effort within the budget).", show_default=False),
    ] = None,
    difficulty: Annotated[
        Optional[Difficulty],  # noqa: UP045
        typer.Option(help="Keep only puzzles the rater puts at this level.", show_default=False),
    ] = None,
    rating: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="Keep only puzzles whose rating score is in MIN:MAX (either end may be left out).",
                     show_default=False),
    ] = None,
    distinct: Annotated[
        bool, typer.Option("--distinct", help="No two puzzles of the run are equivalent (9x9, by canonical form).")
    ] = False,
    output: Annotated[
        OutputFormat,
        typer.Option("--format", "-f", help="line: the puzzle; grid: a picture; json: puzzle, solution, clues, "
                     "rating and level, one object a line; fpuzzles: an f-puzzles link."),
    ] = OutputFormat.line,
    threads: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--threads", "-j", min=1, help="Threads (default: all cores).", show_default=False),
    ] = None,
    max_nodes: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--max-nodes", min=1, help="Search nodes one puzzle may take, failed attempts included "
                     "(default: about a minute of search).", show_default=False),
    ] = None,
    time_limit: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option("--time-limit", min=0.001, help="Seconds one puzzle may take (default: 60).", show_default=False),
    ] = None,
    output_file: OutputFileOption = None,
    resume: ResumeOption = False,
    variant: VariantOption = None,
    regions: RegionsOption = None,
    givens: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=0, help="Killer (--variant killer): cells given as digits besides the cages (default: "
                     "none).", show_default=False),
    ] = None,
) -> None:
    """Generate puzzles with exactly one solution, one a line, as they are made.

    Clues are removed from a random complete grid while the engine proves the puzzle unique. With --difficulty
    or --rating, puzzles are rated and kept only if they fit. When a target cannot be met within the budget
    (--max-nodes, --time-limit per puzzle), the command says what came closest and exits with code 4.
    With --variant the puzzles are unique under the variant's rules; a jigsaw uses the --regions map, or a random
    map drawn from the seed, and each puzzle line is followed by its region map line (a jigsaw file).
    With --variant killer each line is a Killer, MAP SUMS (and its --givens, if any): a cage layout of a random
    solution that the engine proves unique; --difficulty is easy, medium, hard, expert or extreme, by the search
    nodes of that proof and the mean cage size.
    """
    from bitdoku.cli.runner import results_file, saying_compiles
    from bitdoku.generate.puzzles import generate_many, run_seed

    if resume and seed is None:
        raise ValueError("--resume makes the rest of the same run: give the run's --seed")
    if resume and (distinct or output is OutputFormat.grid):
        raise ValueError("--resume needs one line a puzzle and no --distinct")
    root, seed_used = run_seed(seed)
    if variant is not None and variant.strip().lower() == "killer":
        from bitdoku.generate.killer import refuse_classic_options

        refuse_classic_options(symmetry=symmetry.value, minimal=minimal, rating=parse_range(rating),
                               distinct=distinct)
        _generate_killers(count, shape, root, seed_used, seed is not None, _killer_givens(givens, clues, regions),
                          difficulty, output, threads, max_nodes, time_limit, output_file, resume)
        return
    if givens is not None:
        raise ValueError("--givens is for Killers (--variant killer); other puzzles take --clues")
    geometry = _geometry(variant, regions, shape, seed_used)
    if resume and geometry is not None and geometry.regions is not None and output is OutputFormat.line:
        raise ValueError("--resume needs one line a puzzle: a jigsaw run writes two; use --format json")
    start, clue_counts = time.perf_counter(), []
    kernels = "the generator's kernels" + (" and the logic solver's" if output is OutputFormat.json or difficulty
                                           or rating else "")
    with results_file(output_file, resume=resume) as done, saying_compiles(kernels) as compiled:
        made = generate_many(
            count, shape, seed=root, symmetry=symmetry.value, minimal=minimal, clues=clues,
            difficulty=difficulty.value.replace("-", " ") if difficulty else None, rating=parse_range(rating),
            distinct=distinct, rated=output is OutputFormat.json, threads=threads,
            max_nodes=max_nodes, time_limit=time_limit, start=done, variant=geometry,
        )
        for generated in _with_progress(made, count - done):
            emit(_show(generated, output, seed_used))
            flush()
            clue_counts.append(generated.clues)
    if count > 1 or seed is None:
        warn(_summary(clue_counts, time.perf_counter() - start - compiled(), seed_used))


def _killer_givens(givens: int | None, clues: int | None, regions: str | None) -> int:
    """The givens of a Killer run: ``--givens`` (``--clues`` means the same), none by default."""
    if regions is not None:
        raise ValueError("--regions draws a jigsaw; a Killer's cages are drawn by the generator")
    if givens is not None and clues is not None and givens != clues:
        raise ValueError("a Killer's --clues are its --givens: give one of them")
    return givens if givens is not None else clues or 0


def _generate_killers(count: int, shape: str, root: np.random.SeedSequence, seed: int | None, seed_given: bool,
                      givens: int, difficulty: Difficulty | None, output: OutputFormat, threads: int | None,
                      max_nodes: int | None, time_limit: float | None, output_file: str | None,
                      resume: bool) -> None:
    """``bitdoku generate --variant killer``: one Killer line a puzzle (``MAP SUMS [GIVENS]``), or its picture,
    or JSON with its features and level."""
    from bitdoku.cli.runner import results_file, saying_compiles
    from bitdoku.generate.killer import generate_killers

    start, cage_counts = time.perf_counter(), []
    level = difficulty.value.replace("-", " ") if difficulty else None
    with results_file(output_file, resume=resume) as done, saying_compiles("the Killer search kernels") as compiled:
        made = generate_killers(count, shape, seed=root, difficulty=level, givens=givens, max_nodes=max_nodes,
                                time_limit=time_limit, threads=threads, start=done)
        for generated in _with_progress(made, count - done):
            puzzle = generated.puzzle
            if output is OutputFormat.json:
                emit(to_json({**generated.to_dict(), "seed": seed}))
            elif output is OutputFormat.fpuzzles:
                emit(puzzle.to_fpuzzles())
            else:
                emit(puzzle.to_picture() + "\n" if output is OutputFormat.grid else puzzle.to_killer_line())
            flush()
            cage_counts.append(len(puzzle.cages))
    if count > 1 or not seed_given:
        warn(_summary(cage_counts, time.perf_counter() - start - compiled(), seed, "cages"))


def _geometry(variant: str | None, regions: str | None, shape: str, seed: int | None) -> Geometry | None:
    """The checked --variant and --regions as a ``Geometry`` (a random jigsaw map from the seed when a jigsaw
    has no map), or None for classic puzzles."""
    from bitdoku.cli.inputs import read_rules
    from bitdoku.geometry import Geometry
    from bitdoku.shape import Shape

    rules = read_rules(variant, regions, Shape.parse(shape))
    if rules is None:
        return None
    if rules.paired:  # a jigsaw without a map
        from bitdoku.generate.regions import random_jigsaw

        return Geometry.parse(rules.variant, shape, random_jigsaw(shape, seed=seed).region_map())
    return Geometry.parse(rules.variant, shape, rules.regions)


def parse_range(text: str | None) -> tuple[float, float] | None:
    """``'3.5:5'`` -> (3.5, 5.0); an end left out is open (``':4'``, ``'6:'``)."""
    if text is None:
        return None
    low, separator, high = text.partition(":")
    try:
        if not separator:
            raise ValueError
        return (float(low) if low.strip() else -math.inf, float(high) if high.strip() else math.inf)
    except ValueError:
        raise ValueError(f"a rating range is MIN:MAX, like 3.5:5 or :4 or 6:, not {text!r}") from None


def _show(generated: Generated, output: OutputFormat, seed: int | None) -> str:
    if output is OutputFormat.json:
        return to_json({**generated.to_dict(), "seed": seed})
    if output is OutputFormat.grid:
        return generated.puzzle.to_picture() + "\n"
    if output is OutputFormat.fpuzzles:
        return generated.puzzle.to_fpuzzles()
    geometry = generated.puzzle.geometry
    if geometry.regions is not None:  # a jigsaw file: the puzzle, then its region map
        return f"{generated.puzzle.to_line()}\n{geometry.region_map()}"
    return generated.puzzle.to_line()


def _with_progress(made: Iterator[Made], count: int) -> Iterator[Made]:
    """The puzzles, with a progress bar on stderr when it is a terminal and there are several."""
    if count <= 1 or not stderr_is_terminal():
        yield from made
        return
    console = err_console()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task("generating", total=count)
        for generated in made:
            yield generated
            bar.advance(task)


def _summary(clue_counts: list[int], seconds: float, seed: int | None, what: str = "clues") -> str:
    """``generated 100 puzzles | 0.05 s, 2,000 puzzles/s | clues 22-27, mean 24.3 | seed 7`` (``what`` counted:
    clues, or a Killer's cages)."""
    count = len(clue_counts)
    parts = [f"generated {count:,} puzzle{'s' if count != 1 else ''}"]
    rate = f", {count / seconds:,.{0 if count / seconds >= 10 else 2}f} puzzles/s" if seconds > 0 and count > 1 else ""
    parts.append(f"{format_seconds(seconds)}{rate}")
    if clue_counts:
        parts.append(f"{what} {min(clue_counts)}-{max(clue_counts)}, mean {sum(clue_counts) / count:.1f}")
    if seed is not None:
        parts.append(f"seed {seed} (--seed {seed} repeats this run)")
    return " | ".join(parts)

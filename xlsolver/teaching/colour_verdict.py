"""The verdict on a colour puzzle: unique or not, the cells two solutions disagree on,
givens (cells in their colour, or crossed) that make it unique, and the difficulty from a
replay of colour steps, easiest first.

Glossary
    colour step   one deduction on colour-set states (:mod:`xlsolver.nonogram.cells`):
                  a line narrows cells, a probe rules one colour out of a cell, a guess
                  takes the answer's colour when neither decides anything
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..limits import DEFAULT_TIME_LIMIT
from ..nonogram.analyzer import solve
from ..nonogram.board import Timeout, deadline_after, stop_if_past
from ..nonogram.cells import CERTAIN, POSSIBLE, colour_bit, every_colour, known_colour
from ..nonogram.colour_analyzer import next_colour_step
from ..nonogram.colour_puzzle import ColourPuzzle, Palette
from ..nonogram.result import (
    CONTRADICTION,
    LINE,
    MULTIPLE,
    RULE_GUESS,
    SEARCH,
    TIMEOUT,
    UNIQUE,
    Step,
)
from .verdict import (
    STOPPED,
    SuggestionTimeout,
    Verdict,
    cell_words,
    checked,
    components,
    differing_cells,
    drop_spare_givens,
    no_solution_words,
    seconds_left,
    time_left,
)

MAX_GIVEN_ROUNDS = 200  # rounds of adding givens before giving up (counts work, not time)


@dataclass
class ColourVerdict(Verdict):
    """A :class:`Verdict` whose givens and words name colours by letter."""

    palette: Palette = field(default_factory=lambda: Palette(()))

    def given_words(self) -> str:
        """Givens as ``r4c5 a, r2c1 background``."""
        return ", ".join(f"{cell_words(r, c)} {self.colour_word(s)}" for r, c, s in self.suggestion)

    def colour_word(self, state: int) -> str:
        """A given's colour: its letter and colour (``a #ff0000``), or ``background``."""
        ink = known_colour(state)
        if not ink:
            return "background"
        colour = self.palette.colour(ink)
        return f"{colour.letter} {colour.rgb}" if colour.name == colour.rgb else colour.name

    def lines(self) -> list[str]:
        """The verdict in a few lines of plain words (the palette last)."""
        colours = ", ".join(f"{c.letter} {c.rgb}" for c in self.palette.inks)
        return [*super().lines(), f"colours: {colours}"]

    def to_json(self) -> dict:
        """A JSON-able summary: the black-and-white keys, givens by letter, the colours."""
        out = super().to_json()
        letters = self.palette.letters
        out["suggested_givens"] = [
            [r + 1, c + 1, letters[known_colour(s) or 0]] for r, c, s in self.suggestion
        ]
        out["colours"] = self.palette.colours_json()
        return out


def _apply(grid: np.ndarray, step: Step) -> None:
    """Narrow a grid of colour-set states by a step's cells."""
    for r, c, state in step.cells:
        grid[r, c] = (int(grid[r, c]) & int(state) & POSSIBLE) | CERTAIN


def _open(grid: np.ndarray) -> list[tuple[int, int]]:
    """Cells that still hold two colours or more."""
    bits = grid & np.uint32(POSSIBLE)
    mask = (bits & (bits - np.uint32(1))) != 0
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]


def colour_hint_steps(
    puzzle: ColourPuzzle,
    solution: np.ndarray,
    *,
    givens: np.ndarray | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> list[Step]:
    """Replay a colour puzzle from its givens: the easiest step each time (a line, then a
    probe), a guess from ``solution`` when neither decides a cell; ends solved.

    Only ``time_limit`` (the user's clock) stops the replay, with :class:`HintsStopped`
    holding the steps found so far, never with other steps (a stop is not a guess).
    """
    from ..hints import HintsStopped

    deadline = deadline_after(time_limit)
    full = every_colour(puzzle.palette.k)
    grid = np.full((puzzle.height, puzzle.width), full, dtype=np.uint32)
    if givens is not None:
        known = (np.asarray(givens, dtype=np.uint32) & np.uint32(POSSIBLE)) != full
        grid[known] = np.asarray(givens, dtype=np.uint32)[known]
    steps: list[Step] = []

    def stopped() -> HintsStopped:
        return HintsStopped.at_limit(time_limit, steps)

    while open_cells := _open(grid):
        try:
            stop_if_past(deadline)
            step = next_colour_step(puzzle, grid, deadline=deadline)
        except Timeout:
            raise stopped() from None
        if step is None or step.rule == "discrepancy":
            r, c = open_cells[0]
            ink = int(solution[r, c])
            step = Step(
                kind=SEARCH,
                rule=RULE_GUESS,
                cells=[(r, c, CERTAIN | colour_bit(ink))],
                cell=(r, c),
                assumed=colour_bit(ink),
            )
        steps.append(step)
        _apply(grid, step)
    return steps


def givens_states(puzzle: ColourPuzzle, givens, base: np.ndarray | None = None) -> np.ndarray:
    """A grid of colour-set states holding the givens (on top of ``base``)."""
    full = every_colour(puzzle.palette.k)
    grid = np.full((puzzle.height, puzzle.width), full, dtype=np.uint32)
    if base is not None:
        grid[:] = base
    for r, c, state in givens:
        grid[r, c] = state
    return grid


def suggest_colour_givens(
    puzzle: ColourPuzzle,
    solution: np.ndarray,
    *,
    base: np.ndarray | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> list[tuple[int, int, int]]:
    """Few givens from ``solution`` after which the puzzle has one solution: one cell per
    patch where another solution differs, each round checked by solve(); then every given
    is dropped again when the puzzle stays unique without it. ``time_limit`` (the user's
    clock, one for the whole search) only stops it, with :class:`SuggestionTimeout`."""
    deadline = deadline_after(time_limit)
    added: list[tuple[int, int, int]] = []

    def status(givens) -> tuple[str, list[np.ndarray]]:
        grid = givens_states(puzzle, givens, base)
        result = checked(solve(puzzle, givens=grid, time_limit=time_left(deadline)))
        return result.status, result.solutions

    verdict, solutions = status(added)
    rounds = 0
    while verdict == MULTIPLE and rounds < MAX_GIVEN_ROUNDS:
        rounds += 1
        for patch in components(differing_cells(solutions, solution)):
            r, c = patch[len(patch) // 2]
            added.append((r, c, CERTAIN | colour_bit(int(solution[r, c]))))
        verdict, solutions = status(added)
    return drop_spare_givens(verdict, added, status)


def assess_colour(
    puzzle: ColourPuzzle,
    solution: np.ndarray | None = None,
    *,
    givens: np.ndarray | None = None,
    suggest: bool = True,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> ColourVerdict:
    """Uniqueness, differing cells, suggested givens and difficulty of a colour puzzle."""
    start = time.perf_counter()
    result = solve(puzzle, givens=givens, time_limit=time_limit)
    verdict = ColourVerdict(
        result.status, solutions=result.solutions, error=result.error, palette=puzzle.palette
    )
    if result.status == CONTRADICTION and givens is not None:  # the clues alone, or not
        left = seconds_left(time_limit, start)
        verdict.error = no_solution_words(puzzle, givens, left) or verdict.error
    if result.status == MULTIPLE:
        verdict.differing = differing_cells(result.solutions, solution)
        if suggest:
            picture = solution if solution is not None else result.solutions[0]
            try:
                verdict.suggestion = suggest_colour_givens(
                    puzzle, picture, base=givens, time_limit=time_limit
                )
            except (ValueError, SuggestionTimeout) as exc:
                verdict.error = str(exc)
            else:
                with_suggested = givens_states(puzzle, verdict.suggestion, givens)
                if not _rate(verdict, puzzle, picture, with_suggested, time_limit):
                    verdict.error = STOPPED
    elif result.status == UNIQUE:
        if not _rate(verdict, puzzle, result.solutions[0], givens, time_limit):
            verdict.status, verdict.error = TIMEOUT, STOPPED
    verdict.seconds = time.perf_counter() - start
    return verdict


def _rate(verdict, puzzle, solution, givens, time_limit=DEFAULT_TIME_LIMIT) -> bool:
    """Difficulty and steps from the replay: line, probing (a probe step), search (a guess).

    False, nothing rated, when the time limit stopped the replay (as the black-and-white
    rating does: a stop is never rated "search")."""
    from ..hints import HintsStopped

    try:
        steps = colour_hint_steps(puzzle, solution, givens=givens, time_limit=time_limit)
    except HintsStopped:
        verdict.difficulty, verdict.steps, verdict.rules = "", 0, {}
        return False
    verdict.steps = len(steps)
    verdict.rules = dict(Counter(s.rule for s in steps))
    if verdict.rules.get(RULE_GUESS):
        verdict.difficulty = "search"
    elif any(s.kind != LINE for s in steps):
        verdict.difficulty = "probing"
    else:
        verdict.difficulty = "line"
    return True

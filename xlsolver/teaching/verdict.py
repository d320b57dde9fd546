"""Verdict on a puzzle: unique or not, the cells two solutions disagree on, givens that
make it unique, and how hard it is for a person (rule, probing or search, with steps).

Glossary
    givens     cells printed on the worksheet as hints (state grid, BLACK/WHITE + CONC)
    ambiguity  cells line logic leaves unknown once the givens are in place
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ..groups import touching
from ..hints import HintsStopped, hint_steps
from ..limits import DEFAULT_TIME_LIMIT
from ..nonogram.analyzer import board_from_grid, logic_difficulty, solve
from ..nonogram.board import Board, Contradiction, Timeout, deadline_after
from ..nonogram.cells import BLACK_CONC, WHITE_CONC, empty_grid, is_black
from ..nonogram.puzzle import Puzzle
from ..nonogram.result import CONTRADICTION, MULTIPLE, TIMEOUT, UNIQUE, Result

MAX_CANDIDATES = 60  # differing cells weighed per added given
STOPPED_GIVENS = "stopped: the time limit ran out before givens making it unique were found"
STOPPED = "stopped: the time limit ran out before the difficulty was rated"
DIFFICULTY_WORDS = {
    "line": "line — solvable one line at a time",
    "probing": "probing — needs trying a cell and finding a contradiction",
    "search": "search — needs guessing and backtracking",
}


@dataclass
class Verdict:
    """What a teacher needs to know about a puzzle."""

    status: str  # unique, multiple, contradiction, timeout, invalid
    difficulty: str = ""  # line, probing, search ("" when not unique)
    steps: int = 0  # hint steps from the empty grid (or from the givens)
    rules: dict[str, int] = field(default_factory=dict)  # steps per rule
    differing: list[tuple[int, int]] = field(default_factory=list)  # (r, c) from 0
    suggestion: list[tuple[int, int, int]] = field(default_factory=list)  # (r, c, state)
    solutions: list[np.ndarray] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0
    filled: int = 0  # cells already filled in on the sheet's grid, counted as givens
    stopped: bool = False  # the time limit stopped the search for givens (exit status 1)
    notes: list[str] = field(default_factory=list)  # how the search went (a solver killed)

    @property
    def unique(self) -> bool:
        """True when the puzzle has exactly one solution."""
        return self.status == UNIQUE

    def given_words(self) -> str:
        """Givens as ``r4c5 black, r2c1 white``."""
        return givens_text(self.suggestion)

    def lines(self) -> list[str]:
        """The verdict in a few lines of plain words."""
        out = []
        if self.status == UNIQUE:
            out.append("verdict: unique — exactly one solution")
        elif self.status == MULTIPLE:
            out.append(
                f"verdict: NOT unique — two solutions differ in {len(self.differing)} cells: "
                + cells_text(self.differing)
            )
            if self.suggestion:
                out.append(
                    f"suggested givens ({len(self.suggestion)}) that make it unique: "
                    + self.given_words()
                )
        else:
            out.append(f"verdict: {self.status}" + (f" — {self.error}" if self.error else ""))
        if self.difficulty or self.status == UNIQUE:
            prefix = "difficulty" if self.status == UNIQUE else "difficulty with these givens"
            words = DIFFICULTY_WORDS.get(self.difficulty, self.difficulty)
            out.append(f"{prefix}: {words}; {steps_text(self.steps)}")
        if self.filled:
            cells = "1 cell" if self.filled == 1 else f"{self.filled} cells"
            count = "counts" if self.filled == 1 else "count"
            out.append(
                f"givens: {cells} already filled in on the grid {count} as given"
                + ("; nothing is left to deduce" if self.unique and not self.steps else "")
            )
        if self.status == MULTIPLE and self.error:
            out.append(f"note: {self.error}")
        return out

    def to_json(self) -> dict:
        """A JSON-able summary."""
        return {
            "status": self.status,
            "difficulty": self.difficulty,
            "steps": self.steps,
            "rules": self.rules,
            "differing": [[r + 1, c + 1] for r, c in self.differing],
            "suggested_givens": [
                [r + 1, c + 1, "black" if is_black(s) else "white"] for r, c, s in self.suggestion
            ],
            "seconds": round(self.seconds, 3),
            **({"filled": self.filled} if self.filled else {}),
            **({"error": self.error} if self.error else {}),
            **({"notes": list(self.notes)} if self.notes else {}),
        }


def no_solution_words(puzzle, givens: np.ndarray, time_limit: float | None) -> str | None:
    """Why a grid with cells filled in has no solution: the cells every solution of the
    clues disagrees with (``no solution: every solution of the clues disagrees with the
    cell filled in at r8c2``), or the clues alone, which no grid meets (``no solution:
    the clues cannot all be met, whatever is painted (column 1)``, as the Hint button
    says); None when neither shows (the cells clash together, or the time ran out)."""
    from ..hints import clues_unmet
    from ..nonogram.colour_puzzle import ColourPuzzle
    from ..workbook.answer import marks_words, wrong_marks

    if isinstance(puzzle, ColourPuzzle):  # no single ink is blamed: the clues alone
        from ..nonogram.cells import given_count

        if not given_count(givens, puzzle.palette.k):
            return None  # nothing filled in: the line where it shows says it all
        free = solve(puzzle, max_solutions=1, time_limit=time_limit)
        return clues_unmet(puzzle) if free.status == CONTRADICTION else None
    wrong = wrong_marks(puzzle, givens, time_limit=time_limit)
    if isinstance(wrong, str):
        return clues_unmet(puzzle) if wrong == "none" else None
    return None if wrong is None else f"no solution: {marks_words(wrong)}"


def steps_text(n: int) -> str:
    """``1 step``, ``51 steps``."""
    return "1 step" if n == 1 else f"{n} steps"


def cell_words(r: int, c: int) -> str:
    """``(3, 4)`` → ``r4c5`` (people count from 1)."""
    return f"r{r + 1}c{c + 1}"


def cells_text(cells: list[tuple[int, int]], limit: int = 12) -> str:
    """A few cells as words, then how many more."""
    shown = " ".join(cell_words(r, c) for r, c in cells[:limit])
    return shown + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def givens_text(givens: list[tuple[int, int, int]]) -> str:
    """Givens as ``r4c5 black, r2c1 white``."""
    return ", ".join(
        f"{cell_words(r, c)} {'black' if is_black(s) else 'white'}" for r, c, s in givens
    )


def givens_grid(
    puzzle: Puzzle, givens: list[tuple[int, int, int]], base: np.ndarray | None = None
) -> np.ndarray:
    """A state grid holding the givens (on top of ``base``)."""
    grid = empty_grid(puzzle.height, puzzle.width) if base is None else base.copy()
    for r, c, state in givens:
        grid[r, c] = state
    return grid


def differing_cells(
    solutions: list[np.ndarray], picture: np.ndarray | None = None
) -> list[tuple[int, int]]:
    """Cells where two solutions disagree: the picture and a solution unlike it when given."""
    a, b = solutions[0], solutions[1]
    if picture is not None:
        a, b = picture, b if np.array_equal(a, picture) else a
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(a != b), strict=True)]


def _propagated(puzzle: Puzzle, grid: np.ndarray) -> Board | None:
    """The board line logic reaches from a grid of givens (None on a contradiction)."""
    board = board_from_grid(puzzle, grid)
    try:
        board.propagate()
    except Contradiction:
        return None
    return board


def _unknown_after(board: Board, r: int, c: int, black: bool) -> int:
    """Cells line logic leaves unknown once one more given is added (the ambiguity left)."""
    if board.cell_state(r, c):
        return board.unknown
    trial = board.copy()
    try:
        trial.set_cell(r, c, black)
        trial.propagate([r, board.h + c])
    except Contradiction:
        return board.h * board.w + 1
    return trial.unknown


def components(cells: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Cells grouped into 8-connected patches (each patch is one local ambiguity)."""
    return touching(cells)


class SuggestionTimeout(TimeoutError):
    """The user's time limit stopped the search for givens (no partial answer is given)."""


def seconds_left(time_limit: float | None, start: float) -> float | None:
    """What remains of the user's ``time_limit`` since ``start`` (None: no limit; 0 once
    it has run out): one limit for a whole verdict, not one a stage."""
    return None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - start))


def time_left(deadline: float | None) -> float | None:
    """Seconds left before the user's deadline (None: no limit); SuggestionTimeout once
    it has passed. The search for givens shares one deadline, so the user's limit bounds
    all of it, and a check it cuts short stops the search instead of keeping a given."""
    if deadline is None:
        return None
    seconds = deadline - time.perf_counter()
    if seconds <= 0:
        raise SuggestionTimeout(STOPPED_GIVENS)
    return seconds


def checked(result: Result) -> Result:
    """A solve of the search for givens; SuggestionTimeout when the limit stopped it."""
    if result.status == TIMEOUT:
        raise SuggestionTimeout(STOPPED_GIVENS)
    return result


def suggest_givens(
    puzzle: Puzzle,
    solution: np.ndarray,
    *,
    base: np.ndarray | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> list[tuple[int, int, int]]:
    """Few givens, taken from ``solution``, after which the puzzle has one solution.

    Greedy: while another solution exists, add in every patch of cells where it differs
    from ``solution`` the cell whose colour leaves line logic the fewest unknown cells;
    every round is checked with solve(). Then each given is dropped again when the puzzle
    stays unique without it (line logic alone settles most of these checks). Every step
    is a count of work; ``time_limit`` (the user's clock) only stops it, raising
    :class:`SuggestionTimeout`, so the givens never depend on the machine's speed.
    """
    deadline = deadline_after(time_limit)
    added: list[tuple[int, int, int]] = []

    def state(r: int, c: int) -> int:
        return BLACK_CONC if solution[r, c] else WHITE_CONC

    def status(givens) -> tuple[str, Result | None]:
        grid = givens_grid(puzzle, givens, base)
        board = _propagated(puzzle, grid)
        if board is not None and board.solved:
            return UNIQUE, None
        result = checked(solve(puzzle, givens=grid, time_limit=time_left(deadline)))
        return result.status, result

    verdict, result = status(added)
    while verdict == MULTIPLE:
        time_left(deadline)
        board = _propagated(puzzle, givens_grid(puzzle, added, base))
        for patch in components(differing_cells(result.solutions, solution)):
            candidates = patch[:MAX_CANDIDATES]
            r, c = candidates[0]
            if board is not None:
                r, c = min(
                    candidates, key=lambda rc: _unknown_after(board, *rc, bool(solution[rc]))
                )
            added.append((r, c, state(r, c)))
        verdict, result = status(added)
    return drop_spare_givens(verdict, added, status)


def drop_spare_givens(verdict: str, added: list, status: Callable) -> list[tuple[int, int, int]]:
    """The givens once the adding rounds end (ValueError unless ``verdict`` is unique),
    each dropped again, last first, when ``status`` of the rest is still unique."""
    if verdict != UNIQUE:
        raise ValueError(f"no unique puzzle from these givens ({verdict})")
    for given in list(reversed(added)):
        trial = [g for g in added if g != given]
        if status(trial)[0] == UNIQUE:
            added = trial
    return sorted(added)


def assess(
    puzzle: Puzzle,
    solution: np.ndarray | None = None,
    *,
    givens: np.ndarray | None = None,
    suggest: bool = True,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Verdict:
    """Uniqueness, differing cells, suggested givens and difficulty of a puzzle.

    ``solution`` is the intended picture (the drawing); suggestions follow it. ``givens``
    are cells already printed on the sheet.
    """
    start = time.perf_counter()

    left = partial(seconds_left, time_limit, start)  # one limit for the whole verdict
    result = solve(puzzle, givens=givens, time_limit=time_limit)
    verdict = Verdict(result.status, solutions=result.solutions, error=result.error)
    verdict.notes = list(result.notes)
    if result.status == CONTRADICTION and givens is not None:  # the wrong marks, or none
        verdict.error = no_solution_words(puzzle, givens, left()) or verdict.error
    if result.status == MULTIPLE:
        verdict.differing = differing_cells(result.solutions, solution)
        if suggest:
            picture = solution if solution is not None else result.solutions[0]
            try:
                verdict.suggestion = suggest_givens(puzzle, picture, base=givens, time_limit=left())
            except SuggestionTimeout as exc:
                verdict.error, verdict.stopped = str(exc), True
            else:  # how hard it is once the suggested givens are printed
                with_suggested = givens_grid(puzzle, verdict.suggestion, base=givens)
                try:
                    _rate(verdict, puzzle, picture, with_suggested, left())
                except (Timeout, HintsStopped):
                    verdict.difficulty, verdict.steps, verdict.rules = "", 0, {}
                    verdict.error, verdict.stopped = STOPPED, True
    elif result.status == UNIQUE:
        try:
            _rate(verdict, puzzle, result.solutions[0], givens, left())
        except (Timeout, HintsStopped):
            verdict.status, verdict.error = TIMEOUT, STOPPED
            verdict.difficulty, verdict.steps, verdict.rules = "", 0, {}
    verdict.seconds = time.perf_counter() - start
    return verdict


def _rate(verdict: Verdict, puzzle: Puzzle, solution, givens, time_limit) -> None:
    """Difficulty, steps and rules of a unique puzzle (Timeout/HintsStopped when stopped)."""
    start = time.perf_counter()
    verdict.difficulty = logic_difficulty(puzzle, givens, time_limit)
    left = None if time_limit is None else max(time_limit - (time.perf_counter() - start), 0.0)
    steps = hint_steps(puzzle, solution, givens=givens, time_limit=left)
    verdict.steps = len(steps)
    verdict.rules = dict(Counter(s.rule for s in steps))
    if verdict.rules.get("guess"):
        verdict.difficulty = "search"
    elif verdict.rules.get("contradiction") and verdict.difficulty == "line":
        verdict.difficulty = "probing"

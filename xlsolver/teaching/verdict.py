"""Verdict on a puzzle: unique or not, the cells two solutions disagree on, givens that
make it unique, and how hard it is for a person (rule, probing or search, with steps).

Glossary
    givens     cells printed on the worksheet as hints (state grid, BLACK/WHITE + CONC)
    ambiguity  cells line logic leaves unknown once the givens are in place
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..analyzer import board_from_grid, solve
from ..board import Contradiction
from ..cells import BLACK_CONC, COLOUR, WHITE_CONC, empty_grid
from ..puzzle import Puzzle
from ..result import MULTIPLE, UNIQUE, Result
from ..rules import hint_steps

DEFAULT_TIME_LIMIT = 20.0
MAX_CANDIDATES = 60  # differing cells weighed per added given
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

    @property
    def unique(self) -> bool:
        """True when the puzzle has exactly one solution."""
        return self.status == UNIQUE

    def lines(self) -> list[str]:
        """The verdict in a few lines of plain words."""
        out = []
        if self.status == UNIQUE:
            out.append("verdict: unique — exactly one solution")
            out.append(
                f"difficulty: {DIFFICULTY_WORDS.get(self.difficulty, self.difficulty)}; "
                f"{self.steps} steps"
            )
        elif self.status == MULTIPLE:
            out.append(
                f"verdict: NOT unique — two solutions differ in {len(self.differing)} cells: "
                + cells_text(self.differing)
            )
            if self.suggestion:
                out.append(
                    f"suggested givens ({len(self.suggestion)}) that make it unique: "
                    + givens_text(self.suggestion)
                )
        else:
            out.append(f"verdict: {self.status}" + (f" — {self.error}" if self.error else ""))
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
                [r + 1, c + 1, "black" if s & COLOUR == 1 else "white"]
                for r, c, s in self.suggestion
            ],
            "seconds": round(self.seconds, 3),
            **({"error": self.error} if self.error else {}),
        }


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
        f"{cell_words(r, c)} {'black' if s & COLOUR == 1 else 'white'}" for r, c, s in givens
    )


def givens_grid(
    puzzle: Puzzle, givens: list[tuple[int, int, int]], base: np.ndarray | None = None
) -> np.ndarray:
    """A state grid holding the givens (on top of ``base``)."""
    grid = empty_grid(puzzle.height, puzzle.width) if base is None else base.copy()
    for r, c, state in givens:
        grid[r, c] = state
    return grid


def _differing(result: Result, picture: np.ndarray | None = None) -> list[tuple[int, int]]:
    """Cells where two solutions disagree: the picture and a solution unlike it when given."""
    a, b = result.solutions[0], result.solutions[1]
    if picture is not None:
        a, b = picture, b if np.array_equal(a, picture) else a
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(a != b), strict=True)]


def _unknown_after(puzzle: Puzzle, grid: np.ndarray) -> int:
    """Cells line logic leaves unknown from a grid of givens (the ambiguity left)."""
    board = board_from_grid(puzzle, grid)
    try:
        board.propagate()
    except Contradiction:
        return puzzle.width * puzzle.height + 1
    return board.unknown


def suggest_givens(
    puzzle: Puzzle,
    solution: np.ndarray,
    *,
    base: np.ndarray | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> list[tuple[int, int, int]]:
    """Few givens, taken from ``solution``, after which the puzzle has one solution.

    Greedy: while two solutions exist, add the cell (among those they differ in) whose
    colour in ``solution`` leaves line logic the fewest unknown cells; every addition is
    checked with solve(). Then each given is dropped again if the puzzle stays unique.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    added: list[tuple[int, int, int]] = []

    def state(r: int, c: int) -> int:
        return BLACK_CONC if solution[r, c] else WHITE_CONC

    def status(givens) -> Result:
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.5)
        return solve(puzzle, givens=givens_grid(puzzle, givens, base), time_limit=left)

    result = status(added)
    while result.status == MULTIPLE:
        grid = givens_grid(puzzle, added, base)
        candidates = _differing(result)[:MAX_CANDIDATES]
        r, c = min(
            candidates,
            key=lambda rc: _unknown_after(puzzle, givens_grid(puzzle, [(*rc, state(*rc))], grid)),
        )
        added.append((r, c, state(r, c)))
        result = status(added)
    if result.status != UNIQUE:
        raise ValueError(f"no unique puzzle from these givens ({result.status})")
    for given in list(reversed(added)):
        trial = [g for g in added if g != given]
        if status(trial).status == UNIQUE:
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
    result = solve(puzzle, givens=givens, time_limit=time_limit)
    verdict = Verdict(result.status, solutions=result.solutions, error=result.error)
    if result.status == MULTIPLE:
        verdict.differing = _differing(result, solution)
        if suggest:
            picture = solution if solution is not None else result.solutions[0]
            verdict.suggestion = suggest_givens(puzzle, picture, base=givens, time_limit=time_limit)
    elif result.status == UNIQUE:
        logic = solve(puzzle, givens=givens, method="logic", time_limit=time_limit)
        verdict.difficulty = logic.difficulty or "search"
        steps = hint_steps(puzzle, result.solutions[0], givens=givens, time_limit=time_limit)
        verdict.steps = len(steps)
        verdict.rules = dict(Counter(s.rule for s in steps))
        if verdict.rules.get("guess"):
            verdict.difficulty = "search"
        elif verdict.rules.get("contradiction") and verdict.difficulty == "line":
            verdict.difficulty = "probing"
    verdict.seconds = time.perf_counter() - start
    return verdict

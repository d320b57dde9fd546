"""What the analyzer returns: a status, the grid of states, solutions and the step trace.

Glossary
    status  ``unique``, ``multiple``, ``solved`` (one solution, uniqueness not checked),
            ``contradiction`` (no solution), ``timeout``, ``invalid``
    step    one deduction: which line (or which probe), which rule, which cells became what
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cells import BLANK, COLOUR, grid_text, solution_rows
from .deferred import Deferred, resolve

if TYPE_CHECKING:
    import numpy as np

UNIQUE = "unique"
MULTIPLE = "multiple"
SOLVED = "solved"
CONTRADICTION = "contradiction"
TIMEOUT = "timeout"
INVALID = "invalid"
STATUSES = (UNIQUE, MULTIPLE, SOLVED, CONTRADICTION, TIMEOUT, INVALID)
# Result.stats key: several solutions, and the cells common to all of them not all proved
# within the search's work budget (the grid holds what logic proved)
COMMON_STOPPED = "common_not_proved"

# Step kinds
LINE = "line"  # single-line logic on one row or column
PROBE = "probe"  # assume a cell, propagate, a contradiction proves the opposite
SEARCH = "search"  # a guess made by the search (not a deduction)
GIVEN = "given"  # cells given by the user

# Rules the engine itself names (the person's rule names live in xlsolver.hints)
RULE_LINE = "line"  # the complete line solver
RULE_GIVEN = "given"
RULE_CONTRADICTION = "contradiction"  # a probe: one colour breaks a line
RULE_BOTH_WAYS = "both-ways"  # a probe: both colours agree on these cells
RULE_GUESS = "guess"  # a search decision
RULE_DISCREPANCY = "discrepancy"  # a partial grid already breaks this line

# Difficulty: what a person needs to solve the puzzle
LINE_DIFFICULTY = "line"  # one line at a time
PROBING_DIFFICULTY = "probing"  # trying a cell and finding a contradiction
SEARCH_DIFFICULTY = "search"  # guessing and backtracking


@dataclass
class Step:
    """One deduction of the trace.

    ``cells`` lists ``(row, col, state)`` for every cell this step set, state being
    BLACK_CONC or WHITE_CONC (assumed states during a search are BLACK/WHITE).
    For a line step, ``line`` names it and ``before`` holds the line's states (a
    tuple of ints) just before the step, so a rule can be named afterwards.
    For a probe, ``cell`` is the probed cell and ``assumed`` the colour tried that
    led to a contradiction (or ``None`` when both trials agreed), ``failed`` the line
    that then had no placement (when known).
    ``depth`` is the search depth at which the step was made (0 = proved outright).
    """

    kind: str
    rule: str
    cells: list[tuple[int, int, int]]
    line: tuple[str, int] | None = None
    before: tuple[int, ...] | None = None
    cell: tuple[int, int] | None = None
    assumed: int | None = None
    depth: int = 0
    detail: str = ""
    failed: tuple[str, int] | None = None  # a probe: the line the assumed colour broke


@dataclass
class Result:
    """The outcome of one analysis."""

    status: str
    grid: np.ndarray  # uint8 states: proved cells carry CONC; DISCREPANCY marks contradictions
    solutions: list[np.ndarray] = field(default_factory=list)  # boolean H×W, True = black
    steps: list[Step] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""
    difficulty: str = ""  # "line", "probing", "search" or "" when unknown
    method: str = ""  # which engine decided it: "logic", "sat", ...
    stats: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # how the search went, when a person should know

    @property
    def solved(self) -> bool:
        """True when at least one solution was found."""
        return bool(self._solutions)

    @property
    def undecided(self) -> np.ndarray:
        """Boolean mask of cells that differ between the solutions found (or are open)."""
        import numpy as np

        if len(self.solutions) >= 2:
            first = self.solutions[0]
            diff = np.zeros(first.shape, dtype=bool)
            for other in self.solutions[1:]:
                diff |= first != other
            return diff
        return self.open_mask()

    def open_mask(self) -> np.ndarray:
        """Boolean mask of the cells ``grid`` leaves unknown."""
        return (self.grid & COLOUR) == BLANK

    def solution_text(self, solution: np.ndarray) -> list[str]:
        """One solution as row strings."""
        return solution_rows(solution)

    def _solution_text(self, solution) -> list[str]:
        """:meth:`solution_text` of a solution that may not be made yet (no numpy then)."""
        text = solution.text() if isinstance(solution, Deferred) else None
        return self.solution_text(resolve(solution)) if text is None else text

    @property
    def solution_count(self) -> int:
        """How many solutions were found (without making their arrays)."""
        return len(self._solutions)

    def grid_rows(self) -> list[str]:
        """The partial grid as row strings."""
        return grid_text(self.grid)

    def json_extra(self) -> dict:
        """Keys a subclass adds to :meth:`to_json` after ``solutions``."""
        return {}

    def to_json(self) -> dict:
        """The per-puzzle JSON object of the command-line contract (without source/index)."""
        h, w = self._grid.shape
        out = {
            "width": int(w),
            "height": int(h),
            "status": self.status,
            "solutions": [self._solution_text(s) for s in self._solutions],
            **self.json_extra(),
            "seconds": round(self.seconds, 6),
        }
        if self.status == TIMEOUT and not self._solutions:  # a stopped run: what it knows
            out["known"] = self.grid_rows()
        if self.error:
            out["error"] = self.error
        if self.difficulty:
            out["difficulty"] = self.difficulty
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def text(self) -> str:
        """The grid (first solution, else the partial grid) as text."""
        rows = self._solution_text(self._solutions[0]) if self._solutions else self.grid_rows()
        return "\n".join(rows)


def _grid_get(self: Result):
    grid = self._grid
    if isinstance(grid, Deferred):
        grid = self._grid = grid.make()
    return grid


def _grid_set(self: Result, value) -> None:
    self._grid = value


def _solutions_get(self: Result) -> list:
    sols = self._solutions
    if any(isinstance(s, Deferred) for s in sols):
        sols[:] = [resolve(s) for s in sols]
    return sols


def _solutions_set(self: Result, value) -> None:
    self._solutions = value if isinstance(value, list) else list(value)


# ``grid`` and ``solutions`` may be held as :class:`Deferred` (a line-solved board's row
# masks): the dataclass's __init__ stores them, and they are made when first read.
Result.grid = property(_grid_get, _grid_set, doc="The uint8 state grid.")  # type: ignore[assignment]
Result.solutions = property(  # type: ignore[assignment]
    _solutions_get, _solutions_set, doc="Every solution found (boolean H×W, True = black)."
)

"""The analyzer for colour puzzles: line logic, then probing or SAT search, to a verdict.

The same two roads as :mod:`.analyzer`, whose ``solve`` hands colour puzzles here:

* ``method="auto"`` (or ``"sat"``): propagate with the colour line solver, then the
  SAT back end (:mod:`.colour_sat`) on what is left; uniqueness is one more call.
* ``method="logic"``: propagate, probe, then depth-first search, with a full trace.

The verdicts, ``max_solutions``, ``givens``, ``common`` and the time limit mean what
they mean for black and white; the Result is a :class:`ColourResult`.
"""

from __future__ import annotations

import numpy as np

from .board import Contradiction
from .cells import CERTAIN, POSSIBLE, colour_states, every_colour
from .colour_board import ColourBoard
from .colour_line import solve_colour_line
from .colour_probe import dfs, open_cells, probe, trial
from .colour_puzzle import ColourPuzzle
from .colour_result import ColourResult
from .result import (
    GIVEN,
    LINE,
    PROBE,
    RULE_CONTRADICTION,
    RULE_DISCREPANCY,
    RULE_GIVEN,
    Step,
)
from .run import Run, run_analysis

CONFLICT = CERTAIN  # a confirmed cell with no colour left: where a contradiction shows


def solve_colour(
    puzzle: ColourPuzzle,
    *,
    max_solutions: int = 2,
    time_limit: float | None = None,
    givens: np.ndarray | None = None,
    trace: bool = False,
    method: str = "auto",
    progress=None,
    common: bool = False,
) -> ColourResult:
    """Analyze a colour puzzle to a verdict (the arguments of :func:`.analyzer.solve`).

    ``givens`` is a grid of colour-set states; a cell whose set is empty or holds every
    colour gives nothing.
    """
    return run_analysis(
        _ColourRun, puzzle, max_solutions, time_limit, givens, trace, method, progress, common
    )


class _ColourRun(Run):
    """One colour analysis: a :class:`ColourBoard`, a :class:`ColourResult`."""

    grid_dtype = "uint32"
    clash_state = CONFLICT

    def new_board(self, puzzle: ColourPuzzle) -> ColourBoard:
        """A colour board."""
        return ColourBoard(puzzle)

    def open_count(self) -> int:
        """How many cells have more than one colour left."""
        return self.board.open_cells()

    def make_result(self, **fields) -> ColourResult:
        """A ColourResult with the puzzle's palette."""
        return ColourResult(**fields, palette=self.puzzle.palette)

    def states(self, solution: np.ndarray) -> np.ndarray:
        """The colour-index solution as a confirmed state grid."""
        return colour_states(solution)

    def apply_givens(self, givens: np.ndarray) -> None:
        """Narrow the cells the user painted; a clash shows up as a contradiction."""
        full = every_colour(self.board.inks)
        cells = []
        for (r, c), state in np.ndenumerate(np.asarray(givens)):
            colours = int(state) & POSSIBLE & full
            if colours and colours != full:
                self.board.restrict_cell(r, c, colours)
                cells.append((r, c, colours | CERTAIN))
        if self.steps is not None and cells:
            self.steps.append(Step(kind=GIVEN, rule=RULE_GIVEN, cells=cells))

    def clash_cells(self, line: int) -> list[tuple[int, int]]:
        """CONFLICT cells of the failed line."""
        return conflict_cells(self.board, line)

    def probe(self) -> None:
        """Probe with assumed colours."""
        probe(self.board, self.steps, self.deadline)

    def dfs(self, found: list) -> None:
        """Depth-first search on a copy of the board."""
        dfs(self.board.copy(), found, self.limit, self.deadline, self.steps)

    def sat_search(self):
        """The colour SAT back end."""
        from .colour_sat import ColourSatSearch

        return ColourSatSearch(self.board, self.deadline)


def conflict_cells(board: ColourBoard, line: int) -> list[tuple[int, int]]:
    """Cells of a failed line whose known colours its clues contradict.

    The line's knowledge is added to an empty line cell by cell; a cell that leaves no
    placement is where the contradiction shows (the macro's DISCREPANCY).
    """
    clues, n = board.clues[line], board.length[line]
    full = (1 << n) - 1
    masks = [full] * (board.inks + 1)
    bad = []
    for i in range(n):
        bit = 1 << i
        trial_masks = [m if board.can[line][x] & bit else m & ~bit for x, m in enumerate(masks)]
        if solve_colour_line(clues, n, trial_masks) is None:
            bad.append(i)
        else:
            masks = trial_masks
    if not bad and solve_colour_line(clues, n, masks) is None:
        bad = list(range(n))
    return [board.cell(line, i) for i in bad]


def board_from_grid(puzzle: ColourPuzzle, grid: np.ndarray) -> ColourBoard:
    """A colour board holding the colour sets of a state grid (confirmed or not)."""
    board = ColourBoard(puzzle)
    full = every_colour(board.inks)
    for (r, c), state in np.ndenumerate(np.asarray(grid)):
        colours = int(state) & POSSIBLE & full
        if colours and colours != full:
            board.restrict_cell(r, c, colours)
    return board


def next_colour_step(puzzle: ColourPuzzle, grid: np.ndarray, key=None, deadline=None):
    """The easiest next deduction from a partial grid of colour sets, or None.

    Single-line steps first (``key`` orders them; by default the one that narrows the
    most cells), then a probe; a grid that already breaks a line gives a Step with rule
    ``"discrepancy"`` naming the cells.
    """
    board = board_from_grid(puzzle, grid)
    steps = []
    for line in range(board.h + board.w):
        try:
            new = board.solve_one(line)
        except Contradiction:
            return _discrepancy_step(board, line)
        if new is not None:
            steps.append(board.line_step(line, new, 0))
    if steps:
        return min(steps, key=key or (lambda s: -len(s.cells)))
    for r, c in open_cells(board):
        state = board.cell_state(r, c)
        for colour in range(board.inks + 1):
            if state >> colour & 1 and trial(board, r, c, colour, deadline) is None:
                left = (state & ~(1 << colour)) | CERTAIN
                return Step(
                    kind=PROBE,
                    rule=RULE_CONTRADICTION,
                    cells=[(r, c, left)],
                    cell=(r, c),
                    assumed=1 << colour,
                )
    return None


def _discrepancy_step(board: ColourBoard, line: int) -> Step:
    """The step for a line the grid already breaks."""
    cells = [(r, c, CONFLICT) for r, c in conflict_cells(board, line)]
    return Step(kind=LINE, rule=RULE_DISCREPANCY, cells=cells, line=board.line_id(line))

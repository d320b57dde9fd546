"""The analyzer: line logic, then probing or SAT search, always to a verdict.

Two engines give the same verdicts:

* ``method="auto"`` (fast): propagate with the complete line solver, then hand what
  is left to the SAT back end (:mod:`.sat`); uniqueness is one more SAT call with the
  solution blocked.
* ``method="logic"``: propagate, probe with assumed values, then depth-first search,
  with a full step trace (explanations, hints, difficulty).

Either way a run ends with the solution(s), a proof that there is none, or — when
the time limit stops it — the cells proved so far and status ``timeout``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .board import Board, deadline_after
from .cells import BLACK, COLOUR, CONC, DISCREPANCY_CONC, WHITE, grid_from_solution
from .colour_puzzle import ColourPuzzle
from .line import solve_line
from .probe import probe
from .puzzle import Puzzle
from .result import (
    GIVEN,
    LINE_DIFFICULTY,
    PROBING_DIFFICULTY,
    RULE_GIVEN,
    SEARCH_DIFFICULTY,
    Result,
    Step,
)
from .run import Run, run_analysis
from .search import dfs

if TYPE_CHECKING:
    import numpy as np

Progress = Callable[[float | None, str], None]


def solve(
    puzzle: Puzzle,
    *,
    max_solutions: int = 2,
    time_limit: float | None = None,
    givens: np.ndarray | None = None,
    trace: bool = False,
    method: str = "auto",
    progress: Progress | None = None,
    common: bool = False,
) -> Result:
    """Analyze a puzzle to a verdict.

    ``max_solutions`` 1 stops at the first solution (status ``solved``), 2 decides
    uniqueness, more counts solutions up to that number. ``givens`` is a state grid
    of cells the user already painted. ``common`` computes the cells shared by *all*
    solutions of a puzzle with several (otherwise only the cells logic proved are
    confirmed in ``Result.grid``). A :class:`ColourPuzzle` goes to :mod:`.colour_analyzer`.
    """
    if isinstance(puzzle, ColourPuzzle):
        from .colour_analyzer import solve_colour

        return solve_colour(
            puzzle,
            max_solutions=max_solutions,
            time_limit=time_limit,
            givens=givens,
            trace=trace,
            method=method,
            progress=progress,
            common=common,
        )
    return run_analysis(
        _Run, puzzle, max_solutions, time_limit, givens, trace, method, progress, common
    )


class _Run(Run):
    """One black-and-white analysis: a :class:`Board`, a :class:`Result`."""

    clash_state = DISCREPANCY_CONC

    def new_board(self, puzzle: Puzzle) -> Board:
        """A black-and-white board."""
        return Board(puzzle)

    def open_count(self) -> int:
        """How many cells are still unknown."""
        return self.board.unknown

    def make_result(self, **fields) -> Result:
        """A black-and-white Result."""
        return Result(**fields)

    def states(self, solution: np.ndarray) -> np.ndarray:
        """The boolean solution as a confirmed state grid."""
        return grid_from_solution(solution)

    def apply_givens(self, givens: np.ndarray) -> None:
        """Set the cells the user painted; a clash shows up as a contradiction."""
        import numpy as np

        cells = []
        for (r, c), state in np.ndenumerate(np.asarray(givens, dtype=np.uint8)):
            colour = int(state) & COLOUR
            if colour in (BLACK, WHITE):
                self.board.set_cell(r, c, colour == BLACK)
                cells.append((r, c, colour | CONC))
        if self.steps is not None and cells:
            self.steps.append(Step(kind=GIVEN, rule=RULE_GIVEN, cells=cells))

    def clash_cells(self, line: int) -> list[tuple[int, int]]:
        """DISCREPANCY cells of the failed line."""
        return discrepancy_cells(self.board, line)

    def probe(self) -> None:
        """Probe with assumed values."""
        probe(self.board, self.steps, self.deadline)

    def dfs(self, found: list) -> None:
        """Depth-first search on a copy of the board."""
        dfs(self.board.copy(), found, self.limit, self.deadline, self.steps)

    def sat_search(self):
        """The black-and-white SAT back end."""
        from .sat import SatSearch

        return SatSearch(self.board, self.deadline)


def discrepancy_cells(board: Board, line: int) -> list[tuple[int, int]]:
    """Cells of a failed line whose known colour its clues contradict.

    Known cells are added to an empty line one by one; a cell that leaves no placement
    is where the contradiction shows (the macro's DISCREPANCY).
    """
    clues, n = board.clues[line], board.length[line]
    black = white = 0
    bad = []
    for i in range(n):
        bit = 1 << i
        if board.black[line] & bit:
            if solve_line(clues, n, black | bit, white) is None:
                bad.append(i)
            else:
                black |= bit
        elif board.white[line] & bit:
            if solve_line(clues, n, black, white | bit) is None:
                bad.append(i)
            else:
                white |= bit
    if not bad and solve_line(clues, n, black, white) is None:
        bad = list(range(n))
    return [board.cell(line, i) for i in bad]


def board_from_grid(puzzle: Puzzle, grid: np.ndarray) -> Board:
    """A board holding the colours of a state grid (confirmed or not)."""
    import numpy as np

    board = Board(puzzle)
    for (r, c), state in np.ndenumerate(np.asarray(grid, dtype=np.uint8)):
        colour = int(state) & COLOUR
        if colour in (BLACK, WHITE):
            board.set_cell(r, c, colour == BLACK)
    return board


def logic_difficulty(
    puzzle: Puzzle, givens: np.ndarray | None = None, time_limit: float | None = None
) -> str:
    """``line``, ``probing`` or ``search``: how far logic gets without a guess.

    Line logic, then probing to the end (a count of work, never a clock); ``search`` when
    they leave cells open. Raises :class:`Timeout` when ``time_limit`` stops it first and
    :class:`Contradiction` when the clues (with the givens) have no solution.
    """
    deadline = deadline_after(time_limit)
    board = Board(puzzle) if givens is None else board_from_grid(puzzle, givens)
    board.propagate(None, None, 0, deadline)
    if board.solved:
        return LINE_DIFFICULTY
    probe(board, None, deadline)
    return PROBING_DIFFICULTY if board.solved else SEARCH_DIFFICULTY


def rate(puzzle: Puzzle, time_limit: float | None = None) -> Result:
    """The logic path with a trace: ``difficulty`` is line, probing or search."""
    return solve(puzzle, method="logic", trace=True, time_limit=time_limit)

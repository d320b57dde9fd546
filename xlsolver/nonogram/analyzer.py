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

import time
from collections.abc import Callable

import numpy as np

from .board import Board, Contradiction, Timeout
from .cells import BLACK, COLOUR, CONC, DISCREPANCY_CONC, WHITE, grid_from_solution
from .colour_puzzle import ColourPuzzle
from .line import solve_line
from .probe import probe
from .puzzle import Puzzle, PuzzleError, line_name
from .result import (
    CONTRADICTION,
    GIVEN,
    INVALID,
    LINE_DIFFICULTY,
    MULTIPLE,
    PROBING_DIFFICULTY,
    RULE_GIVEN,
    SEARCH_DIFFICULTY,
    SOLVED,
    TIMEOUT,
    UNIQUE,
    Result,
    Step,
)
from .search import dfs

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
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    run = _Run(puzzle, max_solutions, deadline, trace, progress, start)
    try:
        puzzle.validate()
    except PuzzleError as exc:
        return run.finish(INVALID, np.zeros((puzzle.height, puzzle.width), np.uint8), str(exc))
    if method not in ("auto", "logic", "sat"):
        raise ValueError(f"unknown method {method!r}: use auto, logic or sat")
    return run.analyze(givens, method, common)


class _Run:
    """One analysis: the board, the trace and the clock."""

    def __init__(self, puzzle, max_solutions, deadline, trace, progress, start):
        self.puzzle = puzzle
        self.limit = max(1, max_solutions)
        self.deadline = deadline
        self.steps: list[Step] | None = [] if trace else None
        self.progress = progress
        self.start = start
        self.board = Board(puzzle)

    def seconds_left(self) -> float | None:
        """Seconds until the deadline (None without a limit)."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def report(self, message: str) -> None:
        """Tell the progress callback how much of the grid is known."""
        if self.progress is not None:
            total = self.board.h * self.board.w
            self.progress((total - self.board.unknown) / total, message)

    def finish(self, status, grid, error="", solutions=(), difficulty="", method="") -> Result:
        """Wrap up a Result."""
        return Result(
            status=status,
            grid=grid,
            solutions=list(solutions),
            steps=self.steps or [],
            seconds=time.perf_counter() - self.start,
            error=error,
            difficulty=difficulty,
            method=method,
        )

    def analyze(self, givens, method: str, common: bool) -> Result:
        """Propagate, then probe/search or SAT."""
        board = self.board
        try:
            if givens is not None:
                self._apply_givens(givens)
            board.propagate(None, self.steps, 0, self.deadline)
        except Contradiction as exc:
            return self._contradiction(exc.line)
        except Timeout:
            return self.finish(TIMEOUT, board.grid(), "time limit reached")
        self.report("line logic done")
        if board.solved:
            sol = board.solution()
            status = UNIQUE if self.limit > 1 else SOLVED
            return self.finish(
                status, board.grid(), solutions=[sol], difficulty=LINE_DIFFICULTY, method="logic"
            )
        if method == "logic":
            return self._logic()
        return self._sat(common)

    def _apply_givens(self, givens: np.ndarray) -> None:
        """Set the cells the user painted; a clash shows up as a contradiction."""
        cells = []
        for (r, c), state in np.ndenumerate(np.asarray(givens, dtype=np.uint8)):
            colour = int(state) & COLOUR
            if colour in (BLACK, WHITE):
                self.board.set_cell(r, c, colour == BLACK)
                cells.append((r, c, colour | CONC))
        if self.steps is not None and cells:
            self.steps.append(Step(kind=GIVEN, rule=RULE_GIVEN, cells=cells))

    def _contradiction(self, line: int) -> Result:
        """No solution: the proved cells plus DISCREPANCY where the clash shows."""
        grid = self.board.grid()
        for r, c in discrepancy_cells(self.board, line):
            grid[r, c] = DISCREPANCY_CONC
        return self.finish(
            CONTRADICTION,
            grid,
            f"no solution: {line_name(self.board.line_id(line))} cannot be placed",
        )

    def _verdict(self, found: list[np.ndarray], exhausted: bool, grid, difficulty, method):
        """The status that the solutions found (and whether the search finished) say."""
        error = ""
        if not found:
            status = CONTRADICTION if exhausted else TIMEOUT
            error = "no solution" if exhausted else "time limit reached"
        elif len(found) > 1:
            status = MULTIPLE
        elif self.limit == 1 or exhausted:
            status = SOLVED if self.limit == 1 else UNIQUE
            grid = grid_from_solution(found[0])
        else:
            status, error = TIMEOUT, "time limit reached before uniqueness was decided"
        return self.finish(status, grid, error, found, difficulty, method)

    def _logic(self) -> Result:
        """Probing, then depth-first search, with the trace."""
        board = self.board
        try:
            probe(board, self.steps, self.deadline)
        except Contradiction:
            return self.finish(
                CONTRADICTION,
                board.grid(),
                "no solution (every probe fails)",
                difficulty=PROBING_DIFFICULTY,
                method="logic",
            )
        except Timeout:
            return self.finish(TIMEOUT, board.grid(), "time limit reached", method="logic")
        self.report("probing done")
        if board.solved:
            return self._verdict([board.solution()], True, None, PROBING_DIFFICULTY, "logic")
        found: list[np.ndarray] = []
        try:
            dfs(board.copy(), found, self.limit, self.deadline, self.steps)
            exhausted = True
        except Timeout:
            exhausted = False
        grid = board.grid()
        if len(found) > 1:
            grid = _common(grid, found)
        return self._verdict(found, exhausted, grid, SEARCH_DIFFICULTY, "logic")

    def _sat(self, common: bool) -> Result:
        """The SAT back end on what line logic left open."""
        from .sat import SatSearch

        try:
            search = SatSearch(self.board, self.deadline)
        except Timeout:
            return self.finish(TIMEOUT, self.board.grid(), "time limit reached", method="sat")
        found: list[np.ndarray] = []
        exhausted = True
        try:
            for sol in search.solutions(self.limit, self.seconds_left):
                if sol is None:
                    exhausted = False
                    break
                found.append(sol)
                self.report(f"solution {len(found)} found")
            grid = self.board.grid()
            if len(found) > 1:
                same = search.backbone(found, self.seconds_left) if common else None
                grid = _common(grid, found, same)
        finally:
            search.close()
        return self._verdict(found, exhausted, grid, "", "sat")  # rated by the logic path only


def _common(grid: np.ndarray, found: list[np.ndarray], same: np.ndarray | None = None):
    """Confirm the cells equal in every solution (``same``), or only what logic proved."""
    if same is None:
        return grid
    out = grid.copy()
    first = found[0]
    out[same] = grid_from_solution(first)[same]
    return out


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
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    board = Board(puzzle) if givens is None else board_from_grid(puzzle, givens)
    board.propagate(None, None, 0, deadline)
    if board.solved:
        return LINE_DIFFICULTY
    probe(board, None, deadline)
    return PROBING_DIFFICULTY if board.solved else SEARCH_DIFFICULTY


def rate(puzzle: Puzzle, time_limit: float | None = None) -> Result:
    """The logic path with a trace: ``difficulty`` is line, probing or search."""
    return solve(puzzle, method="logic", trace=True, time_limit=time_limit)

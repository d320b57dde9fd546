"""The analyzer for colour puzzles: line logic, then probing or SAT search, to a verdict.

The same two roads as :mod:`.analyzer`, whose ``solve`` hands colour puzzles here:

* ``method="auto"`` (or ``"sat"``): propagate with the colour line solver, then the
  SAT back end (:mod:`.colour_sat`) on what is left; uniqueness is one more call.
* ``method="logic"``: propagate, probe, then depth-first search, with a full trace.

The verdicts, ``max_solutions``, ``givens``, ``common`` and the time limit mean what
they mean for black and white; the Result is a :class:`ColourResult`.
"""

from __future__ import annotations

import time

import numpy as np

from .board import Contradiction, Timeout
from .cells import CERTAIN, POSSIBLE, colour_states, every_colour
from .colour_board import ColourBoard
from .colour_line import solve_colour_line
from .colour_probe import dfs, open_cells, probe, trial
from .colour_puzzle import ColourPuzzle
from .colour_result import ColourResult
from .puzzle import PuzzleError, line_name
from .result import (
    CONTRADICTION,
    GIVEN,
    INVALID,
    LINE,
    LINE_DIFFICULTY,
    MULTIPLE,
    PROBE,
    PROBING_DIFFICULTY,
    RULE_CONTRADICTION,
    RULE_DISCREPANCY,
    RULE_GIVEN,
    SEARCH_DIFFICULTY,
    SOLVED,
    TIMEOUT,
    UNIQUE,
    Step,
)

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
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    run = _ColourRun(puzzle, max_solutions, deadline, trace, progress, start)
    try:
        puzzle.validate()
    except PuzzleError as exc:
        return run.finish(INVALID, np.zeros((puzzle.height, puzzle.width), np.uint32), str(exc))
    if method not in ("auto", "logic", "sat"):
        raise ValueError(f"unknown method {method!r}: use auto, logic or sat")
    return run.analyze(givens, method, common)


class _ColourRun:
    """One colour analysis: the board, the trace and the clock."""

    def __init__(self, puzzle, max_solutions, deadline, trace, progress, start):
        self.puzzle = puzzle
        self.limit = max(1, max_solutions)
        self.deadline = deadline
        self.steps: list[Step] | None = [] if trace else None
        self.progress = progress
        self.start = start
        self.board = ColourBoard(puzzle)

    def seconds_left(self) -> float | None:
        """Seconds until the deadline (None without a limit)."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def report(self, message: str) -> None:
        """Tell the progress callback how much of the grid is known."""
        if self.progress is not None:
            total = self.board.h * self.board.w
            self.progress((total - self.board.open_cells()) / total, message)

    def finish(self, status, grid, error="", solutions=(), difficulty="", method=""):
        """Wrap up a ColourResult."""
        return ColourResult(
            status=status,
            grid=grid,
            solutions=list(solutions),
            steps=self.steps or [],
            seconds=time.perf_counter() - self.start,
            error=error,
            difficulty=difficulty,
            method=method,
            palette=self.puzzle.palette,
        )

    def analyze(self, givens, method: str, common: bool) -> ColourResult:
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
            status = UNIQUE if self.limit > 1 else SOLVED
            return self.finish(
                status,
                board.grid(),
                solutions=[board.solution()],
                difficulty=LINE_DIFFICULTY,
                method="logic",
            )
        if method == "logic":
            return self._logic()
        return self._sat(common)

    def _apply_givens(self, givens: np.ndarray) -> None:
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

    def _contradiction(self, line: int) -> ColourResult:
        """No solution: the proved cells, with CONFLICT where the clash shows."""
        grid = self.board.grid()
        for r, c in conflict_cells(self.board, line):
            grid[r, c] = CONFLICT
        return self.finish(
            CONTRADICTION,
            grid,
            f"no solution: {line_name(self.board.line_id(line))} cannot be placed",
        )

    def _verdict(self, found, exhausted: bool, grid, difficulty: str, method: str):
        """The status that the solutions found (and whether the search finished) say."""
        error = ""
        if not found:
            status = CONTRADICTION if exhausted else TIMEOUT
            error = "no solution" if exhausted else "time limit reached"
        elif len(found) > 1:
            status = MULTIPLE
        elif self.limit == 1 or exhausted:
            status = SOLVED if self.limit == 1 else UNIQUE
            grid = colour_states(found[0])
        else:
            status, error = TIMEOUT, "time limit reached before uniqueness was decided"
        return self.finish(status, grid, error, found, difficulty, method)

    def _logic(self) -> ColourResult:
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
        return self._verdict(found, exhausted, board.grid(), SEARCH_DIFFICULTY, "logic")

    def _sat(self, common: bool) -> ColourResult:
        """The SAT back end on what line logic left open."""
        from .colour_sat import ColourSatSearch

        try:
            search = ColourSatSearch(self.board, self.deadline)
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
            if len(found) > 1 and common:
                same = search.backbone(found, self.seconds_left)
                if same is not None:
                    grid[same] = colour_states(found[0])[same]
        finally:
            search.close()
        return self._verdict(found, exhausted, grid, "", "sat")


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

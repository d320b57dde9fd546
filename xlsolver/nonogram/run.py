"""One analysis run, shared by the black-and-white and the colour analyzer.

:class:`Run` holds the clock, the trace and the road to a verdict: line logic, then
probing and depth-first search (``method="logic"``) or the SAT back end; the
solutions found decide the status. A subclass names only what differs: its board,
its Result type, how a solution becomes a state grid, how givens narrow the board,
where a contradiction shows, and its probe, search and SAT back end.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .board import Contradiction, Timeout
from .puzzle import PuzzleError, line_name
from .result import (
    COMMON_STOPPED,
    CONTRADICTION,
    INVALID,
    LINE_DIFFICULTY,
    MULTIPLE,
    PROBING_DIFFICULTY,
    SEARCH_DIFFICULTY,
    SOLVED,
    TIMEOUT,
    UNIQUE,
    Step,
)

if TYPE_CHECKING:
    import numpy as np


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the SAT stage, back on after (if it was on).

    The encoding keeps some 10,000 clause lists alive until the search ends; their
    allocation set off collections that walked every object of the process (10% of
    TAAI 2011 puzzles paid 50-80 ms for one). The lists hold only integers and are
    freed by reference counting when the search closes.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def run_analysis(cls, puzzle, max_solutions, time_limit, givens, trace, method, progress, common):
    """Start the clock, check the puzzle and the method, and run ``cls`` to a verdict."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    run = cls(puzzle, max_solutions, deadline, trace, progress, start)
    try:
        puzzle.validate()
    except PuzzleError as exc:
        import numpy as np

        empty = np.zeros((puzzle.height, puzzle.width), cls.grid_dtype)
        return run.finish(INVALID, empty, str(exc))
    if method not in ("auto", "logic", "sat"):
        raise ValueError(f"unknown method {method!r}: use auto, logic or sat")
    return run.analyze(givens, method, common)


class Run:
    """One analysis: the board, the trace and the clock."""

    grid_dtype: str = "uint8"  # the state grid of an invalid puzzle
    clash_state: int = 0  # the state that marks where a contradiction shows

    def __init__(self, puzzle, max_solutions, deadline, trace, progress, start):
        self.puzzle = puzzle
        self.limit = max(1, max_solutions)
        self.deadline = deadline
        self.steps: list[Step] | None = [] if trace else None
        self.progress = progress
        self.start = start
        self.board = self.new_board(puzzle)

    # -- what a subclass names --------------------------------------------------
    def new_board(self, puzzle):
        """The board this run works on."""
        raise NotImplementedError

    def open_count(self) -> int:
        """How many cells are still open."""
        raise NotImplementedError

    def make_result(self, **fields):
        """The Result type of this run, built from ``fields``."""
        raise NotImplementedError

    def states(self, solution: np.ndarray) -> np.ndarray:
        """A solution as a confirmed state grid."""
        raise NotImplementedError

    def apply_givens(self, givens: np.ndarray) -> None:
        """Narrow the cells the user painted; a clash shows up as a contradiction."""
        raise NotImplementedError

    def clash_cells(self, line: int) -> list[tuple[int, int]]:
        """The cells of a failed line where the contradiction shows."""
        raise NotImplementedError

    def probe(self) -> None:
        """Probe the board (raises Contradiction or Timeout)."""
        raise NotImplementedError

    def dfs(self, found: list) -> None:
        """Depth-first search from the board into ``found`` (raises Timeout)."""
        raise NotImplementedError

    def sat_search(self):
        """The SAT back end on the board (raises Timeout)."""
        raise NotImplementedError

    # -- the shared road --------------------------------------------------------
    def seconds_left(self) -> float | None:
        """Seconds until the deadline (None without a limit)."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def report(self, message: str) -> None:
        """Tell the progress callback how much of the grid is known."""
        if self.progress is not None:
            total = self.board.h * self.board.w
            self.progress((total - self.open_count()) / total, message)

    def finish(self, status, grid, error="", solutions=(), difficulty="", method=""):
        """Wrap up a Result."""
        return self.make_result(
            status=status,
            grid=grid,
            solutions=list(solutions),
            steps=self.steps or [],
            seconds=time.perf_counter() - self.start,
            error=error,
            difficulty=difficulty,
            method=method,
        )

    def analyze(self, givens, method: str, common: bool):
        """Propagate, then probe/search or SAT."""
        board = self.board
        try:
            if givens is not None:
                self.apply_givens(givens)
            board.propagate(None, self.steps, 0, self.deadline)
        except Contradiction as exc:
            return self._contradiction(exc.line)
        except Timeout:
            return self.finish(TIMEOUT, board.grid(), "time limit reached")
        self.report("line logic done")
        if board.solved:
            grid, sol = board.later()  # arrays made when read: a fast start needs no numpy
            status = UNIQUE if self.limit > 1 else SOLVED
            return self.finish(
                status, grid, solutions=[sol], difficulty=LINE_DIFFICULTY, method="logic"
            )
        if method == "logic":
            return self._logic()
        with collector_paused():
            return self._sat(common)

    def _contradiction(self, line: int):
        """No solution: the proved cells, marked where the clash shows."""
        grid = self.board.grid()
        for r, c in self.clash_cells(line):
            grid[r, c] = self.clash_state
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
            grid = self.states(found[0])
        else:
            status, error = TIMEOUT, "time limit reached before uniqueness was decided"
        return self.finish(status, grid, error, found, difficulty, method)

    def _logic(self):
        """Probing, then depth-first search, with the trace."""
        board = self.board
        try:
            self.probe()
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
            self.dfs(found)
            exhausted = True
        except Timeout:
            exhausted = False
        # several solutions: only the cells logic proved are confirmed
        return self._verdict(found, exhausted, board.grid(), SEARCH_DIFFICULTY, "logic")

    def _sat(self, common: bool):
        """The SAT back end on what line logic left open."""
        try:
            search = self.sat_search()
        except Timeout:
            return self.finish(TIMEOUT, self.board.grid(), "time limit reached", method="sat")
        if self.progress is not None:
            search.tell = self.report
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
            stopped = ""
            if len(found) > 1 and common:
                same = search.backbone(found, self.seconds_left)
                if isinstance(same, str):  # only what logic proved is known common
                    stopped = same
                else:  # confirm the cells equal in every solution
                    grid[same] = self.states(found[0])[same]
        finally:
            search.close()
        if stopped == "time":  # several solutions, but the user's clock ended the painting
            result = self.finish(
                TIMEOUT,
                grid,
                "time limit reached while proving the cells common to all solutions",
                found,
                "",
                "sat",
            )
        else:
            result = self._verdict(found, exhausted, grid, "", "sat")  # rated by the logic path
        if stopped == "work":
            result.stats[COMMON_STOPPED] = True
        result.notes = list(getattr(search, "notes", ()))
        return result

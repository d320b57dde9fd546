"""The one next-step engine: replay a puzzle taking the easiest deduction each time.

:func:`explain` gives the easiest next step from a partial grid (the Hint button);
:func:`hint_steps` replays a whole puzzle that way (the hints workbook, difficulty);
:func:`name_step` names an analyzer line step with the simplest rule that explains it.
Order: the easiest RULES.md rule on any line, then line logic, then a contradiction
probe, and — only when nothing decides more — a guess taken from the answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..nonogram.analyzer import board_from_grid, discrepancy_cells, solve
from ..nonogram.board import Board, Contradiction, Timeout, deadline_after, stop_if_past
from ..nonogram.cells import (
    BLACK,
    BLACK_CONC,
    CONC,
    DISCREPANCY_CONC,
    WHITE,
    WHITE_CONC,
    is_black,
)
from ..nonogram.probe import unknown_cells
from ..nonogram.puzzle import Puzzle
from ..nonogram.result import (
    LINE,
    PROBE,
    RULE_CONTRADICTION,
    RULE_DISCREPANCY,
    RULE_GUESS,
    SEARCH,
    TIMEOUT,
    Step,
)
from .rules import TIER, Finding, easiest, explaining, step_masks
from .words import probe_words, reason, reason_text

Progress = Callable[[float, str], None]  # (share done, message)


class HintsStopped(ValueError):
    """The user's time limit stopped the replay before it reached the solution.

    ``steps`` holds the steps found before the stop (the same as the first steps of a run
    without a limit), ``written`` the hints workbook that shows them, once one is saved.
    """

    def __init__(self, message: str, steps: list[Step] | None = None):
        super().__init__(message)
        self.steps: list[Step] = list(steps or [])
        self.written: str | None = None

    @classmethod
    def no_step(cls, time_limit: float, trying: str) -> HintsStopped:
        """The stop of a search for one hint (the Hint button) at its limit."""
        return cls(
            f"no step found in {time_limit:g} s: no line decides a cell, and trying {trying} "
            "had not finished"
        )

    @classmethod
    def at_limit(cls, time_limit: float, steps: list[Step]) -> HintsStopped:
        """The stop of a replay at the user's limit, keeping the steps found."""
        return cls(
            f"stopped: the time limit ({time_limit:g} s) ran out before the last step", steps
        )


class NoSolution(ValueError):
    """The puzzle, with its givens, has no solution: there is nothing to replay."""


def no_solution(puzzle: Puzzle, givens: np.ndarray | None) -> NoSolution:
    """NoSolution saying where the clues (and givens) clash, as ``check`` words it."""
    return NoSolution(solve(puzzle, max_solutions=1, givens=givens).error or "no solution")


def unmet_line(puzzle) -> tuple[str, int] | None:
    """The line where line logic on the clues alone runs into a contradiction, or None
    (none does, or only a search shows that no grid meets the clues)."""
    from ..nonogram.colour_board import ColourBoard
    from ..nonogram.colour_puzzle import ColourPuzzle

    board = ColourBoard(puzzle) if isinstance(puzzle, ColourPuzzle) else Board(puzzle)
    try:
        board.propagate()
    except Contradiction as exc:
        return board.line_id(exc.line)
    return None


def clues_unmet(puzzle, line: tuple[str, int] | None = None) -> str:
    """``no solution: the clues cannot all be met, whatever is painted (column 3)``: the
    clues alone have no solution, so no cell filled in is to blame (``line``: where line
    logic finds it, :func:`unmet_line` when not given). The Hint button's words, and
    ``check``'s and ``hints``' for a grid with cells filled in."""
    from .words import line_words

    line = unmet_line(puzzle) if line is None else line
    where = f" ({line_words(line, 'en')})" if line is not None else ""
    return f"no solution: the clues cannot all be met, whatever is painted{where}"


def name_step(puzzle: Puzzle, step: Step) -> Step:
    """An analyzer line step renamed with the simplest rule of RULES.md that explains it."""
    if step.kind != LINE or step.line is None or step.before is None:
        return step
    clues, n, black, white, new_black, new_white = step_masks(puzzle, step)
    finding = explaining(clues, n, black, white, new_black, new_white)
    step.rule = finding.rule
    step.detail = reason_text(finding, step.line, clues, n, "en")
    return step


def _finding_step(board: Board, line: int, finding: Finding) -> Step:
    """A Step for one finding on one board line."""
    cells = []
    for i in range(board.length[line]):
        if finding.black >> i & 1:
            cells.append((*board.cell(line, i), BLACK_CONC))
        elif finding.white >> i & 1:
            cells.append((*board.cell(line, i), WHITE_CONC))
    line_id = board.line_id(line)
    step = Step(
        kind=LINE,
        rule=finding.rule,
        cells=cells,
        line=line_id,
        before=board.line_states(line),
    )
    step.detail = reason_text(finding, line_id, board.clues[line], board.length[line], "en")
    return step


class Replay:
    """A board plus a cache of the easiest finding per line state."""

    def __init__(self, puzzle: Puzzle, grid: np.ndarray | None = None):
        self.puzzle = puzzle
        self.board = Board(puzzle) if grid is None else board_from_grid(puzzle, grid)
        self.cache: dict[tuple[int, int, int], Finding | None] = {}

    def finding(self, line: int) -> Finding | None:
        """The easiest finding on one line (cached by the line's known cells)."""
        board = self.board
        key = (line, board.black[line], board.white[line])
        if key not in self.cache:
            self.cache[key] = easiest(
                board.clues[line], board.length[line], board.black[line], board.white[line]
            )
        return self.cache[key]

    def broken_line(self) -> int | None:
        """A line whose known cells leave no placement, else None."""
        board = self.board
        for line in range(board.h + board.w):
            try:
                board.solve_one(line)
            except Contradiction:
                return line
        return None

    def line_step(self) -> Step | None:
        """The easiest single-line step: lowest tier, then most cells, then first line."""
        best = None
        for line in range(self.board.h + self.board.w):
            finding = self.finding(line)
            if finding is None:
                continue
            rank = (TIER[finding.rule], -(finding.black | finding.white).bit_count(), line)
            if best is None or rank < best[0]:
                best = (rank, line, finding)
        if best is None:
            return None
        return _finding_step(self.board, best[1], best[2])

    def probe_step(
        self, deadline: float | None = None, progress: Progress | None = None
    ) -> Step | None:
        """A cell whose one colour leads a line to have no placement (a contradiction).

        Timeout once the deadline passes (checked before every trial); ``progress`` hears
        the share of cells tried every 256 cells."""
        board = self.board
        cells = list(unknown_cells(board))
        for tried, (r, c) in enumerate(cells):
            if progress is not None and tried and not tried % 256:
                progress(tried / len(cells), f"trying cell {tried:,} of {len(cells):,}")
            for black in (True, False):
                stop_if_past(deadline)
                trial = board.copy()
                try:
                    trial.set_cell(r, c, black)
                    trial.propagate([r, board.h + c], deadline=deadline)
                except Contradiction as exc:
                    step = Step(
                        kind=PROBE,
                        rule=RULE_CONTRADICTION,
                        cells=[(r, c, (WHITE if black else BLACK) | CONC)],
                        cell=(r, c),
                        assumed=BLACK if black else WHITE,
                        failed=board.line_id(exc.line),
                    )
                    step.detail = probe_words(step, step.failed, "en")
                    return step
        return None

    def apply(self, step: Step) -> None:
        """Set a step's cells on the board."""
        for r, c, state in step.cells:
            if not self.board.cell_state(r, c):
                self.board.set_cell(r, c, is_black(state))


def explain(
    puzzle: Puzzle,
    grid: np.ndarray,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Step | None:
    """The easiest next deduction from a partial grid, named and explained; None when stuck.

    A grid that already breaks a line gives rule ``"discrepancy"`` naming the cells
    where the clash shows. Probing stops with :class:`HintsStopped` after ``time_limit``
    seconds (the Hint button's limit); ``progress(fraction, message)`` hears how far it got.
    """
    deadline = deadline_after(time_limit)
    replay = Replay(puzzle, grid)
    broken = replay.broken_line()
    if broken is not None:
        cells = [(r, c, DISCREPANCY_CONC) for r, c in discrepancy_cells(replay.board, broken)]
        line = replay.board.line_id(broken)
        return Step(kind=LINE, rule=RULE_DISCREPANCY, cells=cells, line=line)
    step = replay.line_step()
    if step is not None:
        return step
    try:
        return replay.probe_step(deadline, progress)
    except Timeout:
        raise HintsStopped.no_step(time_limit, "each open cell both ways") from None


def hint_steps(
    puzzle: Puzzle,
    solution: np.ndarray | None = None,
    *,
    givens: np.ndarray | None = None,
    time_limit: float | None = 30.0,
) -> list[Step]:
    """Replay a puzzle from an empty grid, always taking the easiest deduction available.

    When neither a line nor a probe decides anything, a ``guess`` step sets one cell to
    its colour in ``solution`` (solved here when not given) and the replay goes on, so
    the steps always end at a complete solution. ``givens`` (a state grid of cells
    printed on the sheet) start the replay instead of the empty grid. Probing is always
    tried before a guess, however long it takes; only ``time_limit`` (the user's clock)
    stops the replay, with :class:`HintsStopped`, never with different steps. A puzzle
    without a solution (its clues clash, or its givens break them) raises
    :class:`NoSolution`.
    """
    deadline = deadline_after(time_limit)
    replay = Replay(puzzle, givens)
    steps: list[Step] = []

    def stopped() -> HintsStopped:
        return HintsStopped.at_limit(time_limit, steps)

    if replay.broken_line() is not None:
        raise no_solution(puzzle, givens)
    while not replay.board.solved:
        try:
            stop_if_past(deadline)
            step = replay.line_step() or replay.probe_step(deadline)
        except Timeout:
            raise stopped() from None
        if step is None:
            if solution is None:
                left = None if deadline is None else max(deadline - time.perf_counter(), 0.0)
                result = solve(puzzle, max_solutions=1, givens=givens, time_limit=left)
                if result.status == TIMEOUT:
                    raise stopped()
                if not result.solutions:
                    raise no_solution(puzzle, givens)
                solution = result.solutions[0]
            step = _guess(replay.board, solution)
        steps.append(step)
        replay.apply(step)
    if not puzzle.is_solution(replay.board.solution()):
        raise no_solution(puzzle, givens)  # the clash showed only once the grid was full
    return steps


def _guess(board: Board, solution: np.ndarray) -> Step:
    """Set the first promising unknown cell to its colour in the solution."""
    r, c = next(iter(unknown_cells(board)))
    black = bool(solution[r, c])
    step = Step(
        kind=SEARCH,
        rule=RULE_GUESS,
        cells=[(r, c, BLACK_CONC if black else WHITE_CONC)],
        cell=(r, c),
        assumed=BLACK if black else WHITE,
    )
    step.detail = reason(step, None, "en")
    return step

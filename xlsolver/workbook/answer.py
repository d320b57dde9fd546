"""One answer for every door: a puzzle found on a sheet → solved → painted cells.

The Solve buttons (Calc, Excel), ``xlsolver solve`` on workbooks and ``--jobs`` all
call :func:`answer`, so a sheet gets
the same painted cells whichever door it came through: the unique solution, or with
several solutions the cells common to all of them, or on a contradiction what was
proved and the cells at fault in red.

Glossary
    givens   cells the person already painted (``--givens``, the Hint button)
    blame    with givens and no solution: the givens every solution of the clues
             disagrees with, painted red in place of where the contradiction surfaced,
             and named by the result's error as by the message
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from ..nonogram.cells import BLACK, COLOUR, CONC, DISCREPANCY, WHITE, given_count
from ..nonogram.colour_result import ColourResult
from ..nonogram.result import CONTRADICTION, MULTIPLE, SOLVED, TIMEOUT, UNIQUE, Result
from ..sheets.protocol import Sheet
from .address import cell_ref
from .layout import SheetPuzzle
from .paint import BLAMED, UNMET, PaintReport, decided_states, listed, paint_result


class Answer(NamedTuple):
    """A solved puzzle and what painting it did."""

    result: Result
    report: PaintReport


def solve_found(
    found: SheetPuzzle,
    *,
    first: bool = False,
    time_limit: float | None = None,
    trace: bool = False,
    progress=None,
) -> Result:
    """Analyze a puzzle found on a sheet the one way every door does.

    Asks for the cells common to all solutions (``common=True``); ``first`` stops at the
    first solution. With givens and no solution, the wrong givens are blamed.
    """
    from ..nonogram.analyzer import solve

    result = solve(
        found.puzzle,
        max_solutions=1 if first else 2,
        time_limit=time_limit,
        givens=found.givens,
        common=True,
        trace=trace,
        progress=progress,
    )
    colour = isinstance(result, ColourResult)  # colour givens: the engine's red cells stay
    clash = result.status == CONTRADICTION and not colour and found.givens is not None
    if clash and given_count(found.givens):  # a painted cell to blame, or the clues alone
        result = blame_givens(found, result, time_limit=time_limit)
    return result


def wrong_marks(puzzle, givens: np.ndarray, *, time_limit: float | None):
    """The marks (uint8 states of a black-and-white grid) every solution of the clues
    alone disagrees with, as a mask; None when no single mark is; ``"time"`` when the
    time limit stopped the solve, ``"none"`` when the clues alone have no solution."""
    from ..nonogram.analyzer import solve

    logic = _logic_verdict(puzzle, givens) if puzzle.height * puzzle.width > SEARCH_CELLS else None
    if logic is True:  # Hint's own cells on a large board: no search
        return None
    free = solve(puzzle, max_solutions=2, time_limit=time_limit, common=True)
    if free.status == TIMEOUT and isinstance(logic, np.ndarray):
        return logic  # the marks logic alone proves wrong, when the search cannot finish
    if free.status in (TIMEOUT, CONTRADICTION):
        return "time" if free.status == TIMEOUT else "none"
    if free.status not in (UNIQUE, SOLVED, MULTIPLE):
        return None
    decided = decided_states(free)
    given = np.asarray(givens, dtype=np.uint8) & COLOUR
    wrong = ((given == BLACK) & (decided == WHITE)) | ((given == WHITE) & (decided == BLACK))
    return wrong if wrong.any() else None


SEARCH_CELLS = 2500  # boards up to 50×50 are always searched: that also finds clues that
# no grid meets when line logic does not (a hint would lead nowhere); larger ones (Faase,
# 80×95: minutes) take the marks line logic proves as right without the search


def _logic_verdict(puzzle, givens: np.ndarray) -> bool | np.ndarray | None:
    """What line logic on the clues alone says of the marks: True when it proves every
    mark as it is (then every solution, if there is one, agrees with each, as with the
    cells Hint painted, and no search is needed on a large board: Hint on Faase waited its
    whole 2 minutes for one on the second press); the marks it proves the other colour
    (every solution disagrees with them, though others may be wrong too); None when it
    says neither."""
    from ..nonogram.board import Board, Contradiction

    given = np.asarray(givens, dtype=np.uint8) & COLOUR
    marked = (given == BLACK) | (given == WHITE)
    if not marked.any() or getattr(puzzle, "palette", None) is not None:
        return None
    board = Board(puzzle)
    try:
        board.propagate()
    except Contradiction:
        return None
    proved = np.asarray(board.grid(), dtype=np.uint8)
    known = marked & ((proved & CONC) != 0)
    if known[marked].all() and ((proved & COLOUR)[marked] == given[marked]).all():
        return True
    wrong = known & ((proved & COLOUR) != given)
    return wrong if wrong.any() else None


def wrong_marks_words(puzzle, givens, *, time_limit: float | None) -> str | None:
    """``every solution of the clues disagrees with the cell filled in at r8c2``, naming
    the marks at fault in a grid with no solution; None when no single one is."""
    wrong = wrong_marks(puzzle, givens, time_limit=time_limit)
    if wrong is None or isinstance(wrong, str):
        return None
    return marks_words(wrong)


def marks_words(wrong: np.ndarray) -> str:
    """``every solution of the clues disagrees with the cell filled in at r8c2`` for a
    mask of the marks at fault."""
    cells = [f"r{r + 1}c{c + 1}" for r, c in zip(*np.nonzero(wrong), strict=True)]
    shown = " ".join(cells[:8]) + (f" and {len(cells) - 8} more" if len(cells) > 8 else "")
    plural = "s" if len(cells) > 1 else ""
    return f"every solution of the clues disagrees with the cell{plural} filled in at {shown}"


def blame_givens(found: SheetPuzzle, result: Result, *, time_limit: float | None) -> Result:
    """A contradiction from givens with the red cells moved to the givens at fault
    (:func:`wrong_marks`); the engine's own red cells stay when no single one is, and
    clues that no grid meets are said so (``UNMET``: no painted cell is to blame)."""
    wrong = wrong_marks(found.puzzle, found.givens, time_limit=time_limit)
    if isinstance(wrong, str) and wrong == "none":  # no painted cell is to blame
        from ..hints import clues_unmet

        return replace(result, error=clues_unmet(found.puzzle), stats={**result.stats, UNMET: 1})
    if wrong is None or isinstance(wrong, str):
        return result
    grid = np.zeros_like(np.asarray(result.grid, dtype=np.uint8))
    grid[wrong] = DISCREPANCY
    cells = [cell_ref(cell) for cell in found.cells(wrong)]
    error = (  # the cells the message names, not the line where the clash showed
        f"no solution: every solution of the clues disagrees with the painted "
        f"cell{'s' if len(cells) > 1 else ''} {listed(cells)}"
    )
    return replace(result, grid=grid, error=error, stats={**result.stats, BLAMED: int(wrong.sum())})


def check_grid_unlocked(sheet: Sheet, found: SheetPuzzle) -> None:
    """WorkbookError naming the first locked cell of the grid (in reading order) when a
    protected sheet would refuse paint there: one cell named by Solve, Hint and Clear
    alike, whatever each would paint first. Back ends without protection checks pass."""
    check = getattr(sheet, "check_unlocked", None)
    if check is not None:
        top, left, bottom, right = found.grid
        check([(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)])


def answer(
    sheet: Sheet,
    found: SheetPuzzle,
    *,
    first: bool = False,
    time_limit: float | None = None,
    answer_key: bool = False,
    trace: bool = False,
    progress=None,
    before_paint: Callable[[Result], None] | None = None,
) -> Answer:
    """Solve a found puzzle and paint its answer on the sheet: what every door does.

    ``before_paint`` sees the result first (the Solve button shows the proved cells in
    trace order with it); the answer painted after it is the same for every caller.
    """
    check_grid_unlocked(sheet, found)
    result = solve_found(found, first=first, time_limit=time_limit, trace=trace, progress=progress)
    if before_paint is not None:
        before_paint(result)
    return Answer(result, paint_result(sheet, found, result, answer_key=answer_key))

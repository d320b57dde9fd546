"""Painting a Result onto the grid of a sheet with the style table of CONVENTIONS §4."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..nonogram.cells import BLACK, CERTAIN, COLOUR, CONC, DISCREPANCY, WHITE, colour_bit
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.colour_result import ColourResult
from ..nonogram.result import (
    COMMON_STOPPED,
    CONTRADICTION,
    INVALID,
    MULTIPLE,
    SOLVED,
    TIMEOUT,
    UNIQUE,
    Result,
)
from ..sheets.protocol import (
    ANSWER_STYLE,
    ANSWER_WHITE_STYLE,
    BLACK_STYLE,
    CROSSED_DISCREPANCY_STYLE,
    DISCREPANCY_STYLE,
    WHITE_STYLE,
    Sheet,
    Style,
)
from .address import cell_ref
from .colour_paint import paint_colour_result
from .layout import SheetPuzzle

MAX_NAMED_CELLS = 12  # undecided / red cells listed by address in a message
BLAMED = "wrong_givens"  # Result.stats: givens every solution disagrees with (painted red)
UNMET = "clues_unmet"  # Result.stats: with givens, the clues alone have no solution


@dataclass
class PaintReport:
    """What was painted and what a person should be told about it."""

    status: str
    black: int = 0
    white: int = 0
    red: list[str] = field(default_factory=list)  # addresses of discrepancy cells
    undecided: list[str] = field(default_factory=list)  # addresses of unknown cells
    message: str = ""
    # The same in words of the verdict alone, for a run that writes nothing (no -o, or
    # the copy refused): "unique solution", not "unique solution painted".
    verdict: str = ""


def decided_states(result: Result) -> np.ndarray:
    """Colour per cell to paint: BLACK, WHITE, DISCREPANCY, or 0 to leave untouched."""
    if result.status in (UNIQUE, SOLVED) and result.solutions:
        return np.where(result.solutions[0], BLACK, WHITE).astype(np.uint8)
    grid = np.asarray(result.grid, dtype=np.uint8)
    colour = grid & COLOUR
    proved = (grid & CONC) != 0
    out = np.where(proved, colour, 0).astype(np.uint8)
    out[colour == DISCREPANCY] = DISCREPANCY  # a contradiction shows, proved or not
    if result.status == MULTIPLE and len(result.solutions) >= 2:
        out[result.undecided] = 0  # never paint a cell two solutions disagree on
    return out


def painted_mask(result: Result) -> np.ndarray:
    """True for the cells :func:`paint_result` paints (every other cell is left as it is)."""
    if result.status == INVALID:
        return np.zeros(np.shape(result.grid), dtype=bool)
    if isinstance(result, ColourResult):
        from .colour_paint import UNPAINTED, colour_plan

        return colour_plan(result) != UNPAINTED
    return decided_states(result) != 0


OWN_FILLS = frozenset(style.fill.upper() for style in (BLACK_STYLE, DISCREPANCY_STYLE))


def clear_own_paint(
    sheet: Sheet, found: SheetPuzzle, undecided: np.ndarray, own_fills: frozenset = OWN_FILLS
) -> None:
    """Take xlsolver's own paint (``own_fills``: grey and red, or a colour sheet's red;
    a white fill crossed) off cells this answer leaves undecided: an earlier Solve of
    other clues must not stay to look like an answer. A person's own fills (a
    highlight) and hand-drawn crosses stay."""
    if not undecided.any():
        return
    fills = sheet.read_fills(found.grid)
    crossed = sheet.read_diagonals(found.grid)
    own = [
        found.cell(int(r), int(c))
        for r, c in zip(*np.nonzero(undecided), strict=True)
        if (fills[r][c] or "").upper() in own_fills
        or (crossed[r][c] and (fills[r][c] or "").upper() == WHITE_STYLE.fill)
    ]
    if own:
        sheet.unpaint(own)


def flag_style(found: SheetPuzzle, r: int, c: int) -> Style:
    """How a cell at fault is painted red: with its cross kept when the person marked it
    white (so it still reads as their white mark, and Hint names it again)."""
    givens = found.givens
    if givens is None:
        return DISCREPANCY_STYLE
    if isinstance(found.puzzle, ColourPuzzle):  # colour sets: the background alone, certain
        white = int(givens[r, c]) == CERTAIN | colour_bit(0)
    else:
        white = (int(givens[r, c]) & COLOUR) == WHITE
    return CROSSED_DISCREPANCY_STYLE if white else DISCREPANCY_STYLE


def paint_at_fault(sheet: Sheet, found: SheetPuzzle, at: list[tuple[int, int]]) -> None:
    """Paint grid cells (row, column from 0) at fault red, each as :func:`flag_style`
    says (a crossed cell keeps its cross)."""
    by_style: dict[Style, list] = {}
    for r, c in at:
        r, c = int(r), int(c)  # plain ints: UNO takes no numpy integers
        by_style.setdefault(flag_style(found, r, c), []).append(found.cell(r, c))
    for style, cells in by_style.items():
        sheet.paint(cells, style)


def _addresses(cells: list[tuple[int, int]]) -> list[str]:
    """A1 addresses of sheet cells."""
    return [cell_ref(c) for c in cells]


def listed(addresses: list[str]) -> str:
    """At most MAX_NAMED_CELLS addresses, then how many more."""
    shown = ", ".join(addresses[:MAX_NAMED_CELLS])
    more = len(addresses) - MAX_NAMED_CELLS
    return shown + (f" and {more} more" if more > 0 else "")


def paint_result(
    sheet: Sheet, found: SheetPuzzle, result: Result, *, answer_key: bool = False
) -> PaintReport:
    """Paint the decided cells of a Result onto the sheet's grid; unknown cells stay as they are."""
    if isinstance(result, ColourResult):  # colour path: each cell in its ink (colour_paint)
        return paint_colour_result(sheet, found, result, answer_key=answer_key)
    report = PaintReport(result.status)
    if result.status == INVALID:
        report.message = report.verdict = f"invalid: {result.error}"
        return report
    states = decided_states(result)
    black = found.cells(states == BLACK)
    white = found.cells(states == WHITE)
    red = found.cells(states == DISCREPANCY)
    sheet.paint(black, ANSWER_STYLE if answer_key else BLACK_STYLE)
    sheet.paint(white, ANSWER_WHITE_STYLE if answer_key else WHITE_STYLE)
    paint_at_fault(sheet, found, list(zip(*np.nonzero(states == DISCREPANCY), strict=True)))
    report.black, report.white = len(black), len(white)
    report.red = _addresses(red)
    report.undecided = _addresses(found.cells(states == 0))
    clear_own_paint(sheet, found, states == 0)
    stopped = bool(result.stats.get(COMMON_STOPPED))
    report.message = _message(result.status, report, stopped)
    report.verdict = _message(result.status, report, stopped, painted=False)
    if result.status == CONTRADICTION and result.stats.get(BLAMED):
        cells = f"cell{'s' if len(red) > 1 else ''}"
        report.message = (
            f"contradiction: every solution of the clues disagrees with the painted "
            f"{cells} in red: {listed(report.red)}"
        )
        report.verdict = (
            f"contradiction: every solution of the clues disagrees with the marked "
            f"{cells} {listed(report.red)}"
        )
    if result.status == CONTRADICTION and result.stats.get(UNMET):  # no painted cell to blame
        report.message = result.error + _shows(report)
        report.verdict = result.error + _shows(report, painted=False)
    for note in result.notes:  # how the search went (a solver's process killed)
        report.message += f"; {note}"
        report.verdict += f"; {note}"
    return report


def _shows(report: PaintReport, clash: str = "red", painted: bool = True) -> str:
    """Where a contradiction shows: ``; red where it shows: C5`` on a painted grid,
    ``; it shows at C5`` in a verdict ("" when no cell shows it)."""
    if not report.red:
        return ""
    cells = listed(report.red)
    return f"; {clash} where it shows: {cells}" if painted else f"; it shows at {cells}"


def _message(
    status: str,
    report: PaintReport,
    common_stopped: bool = False,
    clash: str = "red",
    *,
    painted: bool = True,
) -> str:
    """One line telling what the painted grid means (``clash``: how a contradiction's
    cells look: red, or black crossed in red where red is one of a puzzle's colours);
    ``painted=False``: the verdict alone, for a run that writes nothing."""
    undecided = f"{len(report.undecided)} undecided: {listed(report.undecided)}"
    if status == UNIQUE:
        return "unique solution painted" if painted else "unique solution"
    if status == SOLVED:
        found = "painted" if painted else "found"
        return f"a solution {found} (uniqueness not checked)"
    if status == MULTIPLE and common_stopped:
        what = ": painted what logic proved" if painted else ""
        return (
            f"several solutions{what} (the search for every cell common to all "
            f"solutions gave up); {undecided}"
        )
    if status == MULTIPLE:
        what = ": painted the cells common to all" if painted else ""
        return f"several solutions{what}; {undecided}"
    if status == CONTRADICTION:
        what = "; painted what was proved" if painted else ""
        return f"contradiction: no solution{what}{_shows(report, clash, painted)}"
    if status == TIMEOUT:
        what = ": painted what was proved" if painted else ""
        return f"timed out{what}; {len(report.undecided)} cells undecided"
    return status

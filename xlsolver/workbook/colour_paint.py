"""Painting a colour result: each solved cell in its ink, the background crossed as for
black and white, contradictions red unless red is one of the puzzle's colours.

Styles (the colour rows of the paint table, docs/colour.md)
    ink           solid fill of the ink's own ``#rrggbb`` (answer keys the same)
    background    white, both diagonals grey (as a white cell); answer keys plain white
    contradiction solid red ``#FF0000``; when red is an ink, *marked*: solid black crossed
                  by red diagonals, a look no solved cell has
"""

from __future__ import annotations

import numpy as np

from ..nonogram.cells import CERTAIN, POSSIBLE
from ..nonogram.colour_puzzle import Palette
from ..nonogram.colour_result import ColourResult
from ..nonogram.result import CONTRADICTION, INVALID, MULTIPLE, SOLVED, UNIQUE
from ..sheets.protocol import (
    ANSWER_WHITE_STYLE,
    DISCREPANCY_STYLE,
    WHITE_STYLE,
    Sheet,
    Style,
)
from .colour_read import COLOURS_READ

RED = "#ff0000"
COLOUR_NOTE = " (read as a colour puzzle:"  # how a sheet's colours were read, said on a clash


def without_colour_note(message: str) -> str:
    """A paint message without the note on how a sheet's colours were read (a puzzle
    file's colours are its own, laid out by xlsolver: nothing for a person to take off)."""
    return message.split(COLOUR_NOTE, 1)[0]


MARKED_STYLE = Style("discrepancy-marked", fill="#000000", diagonals=True, diagonal_color="#FF0000")
UNPAINTED, CONFLICT = -1, -2  # besides colour numbers 0..k in the plan of a grid


def ink_style(palette: Palette, ink: int) -> Style:
    """The solid fill of one ink."""
    colour = palette.colour(ink)
    return Style(f"ink-{colour.letter}", fill=colour.rgb.upper())


def contradiction_style(palette: Palette) -> Style:
    """Red, unless red is one of the inks: then the marked style."""
    inks = {palette.colour(i).rgb.lower() for i in range(1, palette.k + 1)}
    return MARKED_STYLE if RED in inks else DISCREPANCY_STYLE


def paint_flagged(sheet: Sheet, found, at: list[tuple[int, int]]) -> None:
    """Paint grid cells (row, column from 0) at fault in the puzzle's contradiction
    style; in red, a cell the person crossed keeps its cross (see paint.flag_style)."""
    clash = contradiction_style(found.puzzle.palette)
    if clash != DISCREPANCY_STYLE:  # black crossed in red: crossed already
        sheet.paint([found.cell(int(r), int(c)) for r, c in at], clash)
        return
    from .paint import paint_at_fault

    paint_at_fault(sheet, found, at)


def colour_plan(result: ColourResult) -> np.ndarray:
    """Colour number per cell to paint; UNPAINTED to leave, CONFLICT for no colour left."""
    if result.status in (UNIQUE, SOLVED) and result.solutions:
        return np.asarray(result.solutions[0], dtype=np.int16)
    grid = np.asarray(result.grid, dtype=np.uint32)
    bits = grid & np.uint32(POSSIBLE)
    single = (bits != 0) & ((bits & (bits - np.uint32(1))) == 0)
    number = np.zeros(grid.shape, dtype=np.int16)
    nz = bits != 0
    number[nz] = np.log2(bits[nz].astype(np.float64)).astype(np.int16)
    plan = np.where(single & ((grid & np.uint32(CERTAIN)) != 0), number, UNPAINTED)
    plan[bits == 0] = CONFLICT
    if result.status == MULTIPLE and len(result.solutions) >= 2:
        plan[result.undecided] = UNPAINTED
    return plan.astype(np.int16)


def paint_colour_result(sheet: Sheet, found, result: ColourResult, *, answer_key: bool = False):
    """Paint a colour result onto the sheet's grid; returns the PaintReport of paint.py."""
    from .paint import PaintReport, _addresses, _message, clear_own_paint

    report = PaintReport(result.status)
    if result.status == INVALID:
        report.message = report.verdict = f"invalid: {result.error}"
        return report
    plan = colour_plan(result)
    palette = result.palette
    clash = contradiction_style(palette)
    # red and the crossed white are xlsolver's; an ink's fill may be the person's own
    # (copied from a swatch), so it stays, as a black fill of one's own does
    clear_own_paint(sheet, found, plan == UNPAINTED, frozenset({clash.fill.upper()}))
    for ink in range(1, palette.k + 1):
        cells = found.cells(plan == ink)
        sheet.paint(cells, ink_style(palette, ink))
        report.black += len(cells)
    white = found.cells(plan == 0)
    sheet.paint(white, ANSWER_WHITE_STYLE if answer_key else WHITE_STYLE)
    red = found.cells(plan == CONFLICT)
    paint_flagged(sheet, found, list(zip(*np.nonzero(plan == CONFLICT), strict=True)))
    report.white = len(white)
    report.red = _addresses(red)
    report.undecided = _addresses(found.cells(plan == UNPAINTED))
    look = "black crossed in red" if clash == MARKED_STYLE else "red"
    report.message = _message(result.status, report, clash=look)
    report.verdict = _message(result.status, report, painted=False)
    if result.status == CONTRADICTION:  # colours the person may not have meant as inks
        inks = ", ".join(palette.colour(i).rgb for i in range(1, palette.k + 1))
        note = f"{COLOUR_NOTE} clue cells in {palette.k} colours, {inks}; {COLOURS_READ})"
        report.message += note
        report.verdict += note
    return report

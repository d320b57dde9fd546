"""The printable worksheet of a colour puzzle: the puzzle sheet (clue cells in their
colours, each number printed with its colour's letter, ``3a``, and the palette row as
the legend, so a grey-scale print still tells the colours apart; a name line, printed
givens), the answer key in the inks, and the verdict sheet when it is not unique."""

from __future__ import annotations

import numpy as np

from ..nonogram.cells import known_colour
from ..nonogram.colour_puzzle import ColourPuzzle
from ..sheets.protocol import HIGHLIGHT_STYLE, WHITE_STYLE, LayoutSheet
from ..workbook.colour_paint import ink_style
from ..workbook.colour_template import write_colour_template
from ..workbook.template import TemplateLayout, write_attribution
from .colour_verdict import ColourVerdict
from .worksheet import (
    SheetWriters,
    _cells,
    _notes,
    differing_mask,
    grid_cell,
    mark_suggestion,
    write_name_line,
)

LEGEND_NOTE = (
    "colours: each clue's cell is filled with its colour and shows its letter (3a); "
    "the row below the grid is the legend"
)


def paint_colours(sheet: LayoutSheet, layout: TemplateLayout, puzzle, picture, mask=None) -> None:
    """Paint a picture of colour numbers in the inks (only where ``mask`` is True)."""
    picture = np.asarray(picture)
    keep = np.ones(picture.shape, dtype=bool) if mask is None else mask
    for ink in range(1, puzzle.palette.k + 1):
        sheet.paint(_cells(layout, (picture == ink) & keep), ink_style(puzzle.palette, ink))


def write_colour_puzzle_sheet(
    sheet: LayoutSheet, puzzle: ColourPuzzle, title: str, givens=(), notes=()
) -> TemplateLayout:
    """The printable colour puzzle: template, legend, name line, givens, notes."""
    layout = write_colour_template(sheet, puzzle, title=title, letters=True)
    write_attribution(sheet, puzzle)
    layout = write_name_line(sheet, layout)
    for r, c, state in givens:
        ink = known_colour(state)
        style = ink_style(puzzle.palette, ink) if ink else WHITE_STYLE
        sheet.paint([grid_cell(layout, r, c)], style)
    _notes(sheet, layout, [*notes, LEGEND_NOTE])
    return layout


def write_colour_answer_key(sheet: LayoutSheet, puzzle: ColourPuzzle, picture, title: str):
    """The answer key: the same template with the picture in its inks."""
    layout = write_colour_template(sheet, puzzle, title=f"{title} — answer key" if title else "")
    write_attribution(sheet, puzzle)
    paint_colours(sheet, layout, puzzle, picture)
    return layout


def write_colour_verdict_sheet(
    sheet: LayoutSheet, puzzle: ColourPuzzle, picture, verdict: ColourVerdict, title: str
) -> TemplateLayout:
    """The drawing in its inks, the cells two solutions disagree on yellow, givens marked G."""
    layout = write_colour_template(sheet, puzzle, title=f"{title} — not unique")
    differing = differing_mask(verdict, picture.shape)
    paint_colours(sheet, layout, puzzle, picture, ~differing)
    sheet.paint(_cells(layout, differing), HIGHLIGHT_STYLE)
    mark_suggestion(
        sheet, layout, verdict, "yellow: cells where another solution differs from the drawing"
    )
    return layout


COLOUR_WRITERS = SheetWriters(
    write_colour_puzzle_sheet, write_colour_answer_key, write_colour_verdict_sheet
)

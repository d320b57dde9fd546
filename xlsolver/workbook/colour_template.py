"""Laying out a colour puzzle sheet: the template of :mod:`.template`, each clue cell
filled with its clue's colour (the number in black or white, whichever reads better),
and a palette row below the grid.

Glossary
    palette row   the ``colours`` label (three cells wide, under the grid's first columns)
                  and one boxed swatch per ink right of it: filled with the ink, its letter
                  typed in it. It is the legend of a printed sheet (a grey-scale print
                  shows each clue's grey beside its letter) and, in an empty template
                  (``xlsolver new --colours N``), the cells a person fills with the colours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..nonogram.colour_puzzle import SPARE_LETTERS, ColourPuzzle, Palette, parse_rgb
from ..nonogram.puzzle import Puzzle
from ..sheets.errors import WorkbookError
from ..sheets.protocol import Cell, CellFormat, LayoutSheet, Rect, Style
from .clues import normalise
from .marks import luminance
from .template import CELL_HEIGHT, CELL_WIDTH, TemplateLayout, write_template

PALETTE_LABEL = "colours"
PALETTE_GAP = 2  # the palette row is this many rows below the grid
LABEL_SPAN = 3
SWATCH = CellFormat(
    left="thin", right="thin", top="thin", bottom="thin", horizontal="center", bold=True
)
LABEL = CellFormat(horizontal="left", shrink=True)
DARK_TEXT, LIGHT_TEXT = "#000000", "#FFFFFF"
PAPER_WHITE = "#ffffff"  # a clue cell of this fill reads as no colour (black)
READABLE = 0.45  # fills darker than this (relative luminance) take white numbers


def clue_style(rgb: str) -> Style:
    """A clue cell in its colour, the number in black or white for contrast."""
    text = LIGHT_TEXT if luminance(rgb) < READABLE else DARK_TEXT
    return Style(f"clue-{rgb}", fill=rgb.upper(), font_color=text)


def letter_format(letter: str) -> CellFormat:
    """A number format that prints a clue with its colour's letter (``3a``), the cell's
    value staying the number: a grey-scale print still tells the colours apart."""
    return CellFormat(number_format=f'0"{letter}"')


def write_colour_template(
    sheet: LayoutSheet, puzzle: ColourPuzzle, *, title: str = "", letters: bool = False
) -> TemplateLayout:
    """Lay out a colour puzzle: numbers as in black and white, each clue cell filled with
    its colour, and the palette row. No live clue checks (their sums assume gaps).
    The layout's print area includes the palette row. ``letters`` prints each clue with
    its colour's letter (``3a``) for grey-scale printing; the cells still hold numbers."""
    for ink in puzzle.palette.inks:
        if parse_rgb(ink.rgb) == PAPER_WHITE:
            raise WorkbookError(
                f"colour {ink.letter} ({ink.rgb}) is white: a sheet shows it as paper and "
                f"its clues would read back as black; keep this puzzle in a puzzle file "
                f"(.non, .xml, .json)"
            )
    shape = Puzzle(  # the numbers alone: what write_template lays out (not validated)
        tuple(tuple(n for n, _ in line) for line in puzzle.rows),
        tuple(tuple(n for n, _ in line) for line in puzzle.cols),
        puzzle.title,
    )
    layout = write_template(sheet, shape, title=title or puzzle.title)
    palette = puzzle.palette
    cells: dict[int, list[Cell]] = {}
    top, _, _, right = layout.row_band
    for i, line in enumerate(puzzle.rows):
        for j, (_, ink) in enumerate(line):
            cells.setdefault(ink, []).append((top + i, right - len(line) + 1 + j))
    _, left, bottom, _ = layout.col_band
    for i, line in enumerate(puzzle.cols):
        for j, (_, ink) in enumerate(line):
            cells.setdefault(ink, []).append((bottom - len(line) + 1 + j, left + i))
    for ink, where in cells.items():
        sheet.paint(where, clue_style(palette.colour(ink).rgb))
        if letters:
            sheet.format_cells(where, letter_format(palette.colour(ink).letter))
    grown = write_palette_row(sheet, layout, palette)
    return replace(layout, print_area=grown)


def palette_row(layout: TemplateLayout) -> Cell:
    """Where the ``colours`` label goes: below the grid, under its first column."""
    return (layout.grid[2] + PALETTE_GAP, layout.grid[1])


def write_palette_row(
    sheet: LayoutSheet, layout: TemplateLayout, palette: Palette | None, count: int = 0
) -> Rect:
    """The label and one swatch per ink (or ``count`` empty swatches a–…); returns the
    print area grown to hold it."""
    row, col = palette_row(layout)
    sheet.write_values((row, col), [[PALETTE_LABEL]])
    sheet.merge((row, col, row, col + LABEL_SPAN - 1))
    sheet.format_cells([(row, col)], LABEL)
    first = col + LABEL_SPAN
    letters = [c.letter for c in palette.inks] if palette else list(SPARE_LETTERS[:count])
    swatches = [(row, first + i) for i in range(len(letters))]
    sheet.write_values((row, first), [letters])
    sheet.format_cells(swatches, SWATCH)
    if palette is not None:
        for i, cell in enumerate(swatches):
            sheet.paint([cell], clue_style(palette.colour(i + 1).rgb))
    sheet.set_column_widths({c: CELL_WIDTH for c in range(col, first + len(letters))})
    sheet.set_row_heights({row: CELL_HEIGHT})
    area = layout.print_area
    grown = (area[0], area[1], row, max(area[3], first + len(letters) - 1))
    sheet.set_print_setup(grown, fit_to_page=True)
    return grown


def write_empty_colour_template(
    sheet: LayoutSheet, size: tuple[int, int], colours: int, *, title: str = ""
) -> TemplateLayout:
    """An empty template with ``colours`` empty swatches for a person to fill."""
    layout = write_template(sheet, size=size, title=title, checks=False, colour=True)
    grown = write_palette_row(sheet, layout, None, colours)
    return replace(layout, print_area=grown)


REQUEST = re.compile(r"^(?:colou?rs|palette)\s*[:=]?\s*(\d+)?$")


@dataclass(frozen=True)
class PaletteRequest:
    """What a sheet asks New grid for: ``count`` swatches, with these fills if known."""

    count: int
    fills: tuple[str | None, ...] = ()


def palette_request(sheet) -> PaletteRequest | None:
    """A ``colours: N`` cell, or a palette row with its swatches, anywhere on the sheet."""
    from .colour_read import MAX_SWATCHES, read_palette_swatches

    used = sheet.used_range()
    if used is None:
        return None
    for i, row in enumerate(sheet.read_values(used)):
        for j, value in enumerate(row):
            if not isinstance(value, str):
                continue
            match = REQUEST.match(normalise(value).lower())
            if not match:
                continue
            if match.group(1):
                return PaletteRequest(max(1, min(int(match.group(1)), MAX_SWATCHES)))
            label = (used[0] + i, used[1] + j)
            swatches = read_palette_swatches(sheet, label)
            if swatches:
                return PaletteRequest(len(swatches), tuple(fill for fill, _ in swatches))
            empty = _lettered_swatches(sheet, label)  # a template's swatches not yet filled
            if empty:
                return PaletteRequest(empty)
    return None


def _lettered_swatches(sheet, label) -> int:
    """How many unfilled swatches stand right of a palette label, each with its letter
    typed (``a b c``, as ``new --colours`` lays them out)."""
    from ..nonogram.colour_puzzle import is_letter
    from .colour_read import MAX_SWATCHES, first_swatch_column

    first = first_swatch_column(sheet, label)
    values = sheet.read_values((label[0], first, label[0], first + MAX_SWATCHES - 1))[0]
    count = 0
    for value in values:
        if not (isinstance(value, str) and is_letter(value.strip())):
            break
        count += 1
    return count


def lay_requested_palette(sheet: LayoutSheet, layout: TemplateLayout, request) -> None:
    """The palette row New grid lays out: the swatches asked for, their fills kept."""
    write_palette_row(sheet, layout, None, request.count)
    row, col = palette_row(layout)
    for i, fill in enumerate(request.fills):
        if fill:
            sheet.paint([(row, col + LABEL_SPAN + i)], clue_style(fill))

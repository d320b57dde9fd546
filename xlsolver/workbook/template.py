"""Laying out a ready-to-solve puzzle sheet in the template layout of the original macro.

Glossary
    band        the clue area: columns left of the grid (row clues, right-aligned) and
                rows above it (column clues, bottom-aligned)
    block line  the thick line drawn every BLOCK cells so a person can count
"""

from __future__ import annotations

import math
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, replace

from ..formats import CREDITS
from ..nonogram.puzzle import Puzzle
from ..sheets import paper
from ..sheets.paper import CELL_HEIGHT, CELL_WIDTH
from ..sheets.protocol import (
    BAD_CLUE_STYLE,
    Book,
    Cell,
    CellFormat,
    LayoutSheet,
    Rect,
    Sheet,
    column_letter,
)
from .clues import dimension_label
from .layout import MAX_SIDE, named_ranges
from .marks import no_fill
from .scan import TOTALS_FORMULA

BLOCK = 5  # a thick line every 5 cells
THIN, THICK = "thin", "medium"
TITLE_ROW, SIZE_ROW = 1, 2
FIRST_BAND_ROW = 4  # a blank row between the size labels and the column clues
CLUE_FONT_SIZE = 10
WIDTH_LABEL, HEIGHT_LABEL = "width", "height"
WIDTH_CELL, HEIGHT_CELL = (SIZE_ROW, 3), (SIZE_ROW, 7)  # where the numbers are typed
SIZE_CELL_SPAN = 2  # a size number spans two narrow columns, so 3 digits never show ##
TOTALS_CELL = (SIZE_ROW + 1, 1)  # the live comparison of the clue totals, under the size
TOTALS_FONT_SIZE = 9  # small enough to stay inside the print area of the narrowest sheet
TITLE_FONT_SIZE = 14
# A generous measure of the title (points per point of font size): Latin letters in a
# bold sans serif, and East Asian (full-width) characters; a column is at least 16 pt.
NARROW_EM, WIDE_EM, COLUMN_POINTS = 0.6, 1.05, 16.0
MAX_ROW_POINTS = 409  # the tallest row Excel and Calc keep


@dataclass(frozen=True)
class TemplateLayout:
    """Where a written template put its parts (1-based, inclusive rectangles)."""

    grid: Rect
    row_band: Rect  # the row-clue area left of the grid
    col_band: Rect  # the column-clue area above the grid
    width_cell: Cell
    height_cell: Cell
    print_area: Rect
    totals_cell: Cell = TOTALS_CELL


def plan(
    width: int, height: int, puzzle: Puzzle | None = None, *, colour: bool = False
) -> TemplateLayout:
    """Where each part of a template goes; clue areas hold any clue list: ⌈n/2⌉ numbers
    in black and white, n in colour (blocks of two colours need no gap between them)."""
    if puzzle is not None:
        row_depth = max([len(c) for c in puzzle.rows] + [1])
        col_depth = max([len(c) for c in puzzle.cols] + [1])
    elif colour:
        row_depth, col_depth = width, height
    else:
        row_depth, col_depth = math.ceil(width / 2), math.ceil(height / 2)
    top = FIRST_BAND_ROW + col_depth
    left = 1 + row_depth
    grid = (top, left, top + height - 1, left + width - 1)
    return TemplateLayout(
        grid=grid,
        row_band=(top, 1, grid[2], left - 1),
        col_band=(FIRST_BAND_ROW, left, top - 1, grid[3]),
        width_cell=WIDTH_CELL,
        height_cell=HEIGHT_CELL,
        print_area=(TITLE_ROW, 1, grid[2], max(grid[3], 8)),
    )


def looks_like_template(sheet: Sheet, book: Book | None = None) -> bool:
    """True for a sheet laid out for a nonogram, its clues typed or not: a defined name
    of a puzzle's parts (``PuzzleGrid``, ``PuzzleSize``…), ``width`` and ``height``
    labels (New grid's size prompt too), or the template's clue totals cell. Its boxed
    grid is never a pentomino board to the Solve button."""
    if named_ranges(book, sheet.name):
        return True
    used = sheet.used_range()
    if used is None:
        return False
    values = sheet.read_values(used)
    read_formulas = getattr(sheet, "read_formulas", None)
    formulas = read_formulas(used) if read_formulas is not None else []
    labels = {dimension_label(v) for row in values for v in row}
    if {WIDTH_LABEL, HEIGHT_LABEL} <= labels and not _filled(sheet, used):
        return True  # a board drawn in fills may have its size typed beside it
    return any(
        isinstance(v, str) and TOTALS_FORMULA in v
        for rows in (values, formulas)
        for row in rows
        for v in row
    )


def _filled(sheet: Sheet, used: Rect) -> bool:
    """True when a cell of ``used`` has a fill other than white (a template's grid has
    none until it is solved; a pentomino board drawn in fills has many)."""
    return not all(no_fill(fill) for row in sheet.read_fills(used) for fill in row)


def title_text(sheet) -> str:
    """The text of a sheet's title cell (where the template writes its title), else ""."""
    value = sheet.read_values((TITLE_ROW, 1, TITLE_ROW, 1))[0][0]
    return value.strip() if isinstance(value, str) else ""


ATTRIBUTION_KEYS = CREDITS  # what a puzzle file credits


def write_attribution(sheet, puzzle) -> None:
    """The puzzle's author, copyright, licence and catalogue number as a note on the
    title cell (``by: Jan Wolter``, one a line), so a sheet keeps a CC-BY credit and a
    workbook converted back to a puzzle file gives them back; and at the foot of the
    printed page, where the back end can write one."""
    meta = getattr(puzzle, "meta", None) or {}
    # one line each: a value's own line breaks ("Ann\nBob") would end it in the note
    credits = {k: " ".join(str(meta[k]).split()) for k in ATTRIBUTION_KEYS if meta.get(k)}
    if credits:
        sheet.set_note((TITLE_ROW, 1), "\n".join(f"{k}: {v}" for k, v in credits.items()))
        footer = getattr(sheet, "set_footer", None)  # printed: a note is not
        if footer is not None:
            shown = [f"by {v}" if k == "by" else v for k, v in credits.items()]
            footer(" · ".join(shown))


def read_attribution(sheet) -> dict[str, str]:
    """What :func:`write_attribution` wrote on a sheet's title cell (empty when nothing)."""
    note = sheet.read_notes((TITLE_ROW, 1, TITLE_ROW, 1)).get((TITLE_ROW, 1), "")
    out = {}
    for line in note.splitlines():
        key, colon, value = line.partition(": ")
        if colon and key in ATTRIBUTION_KEYS and value.strip():
            out[key] = value.strip()
    return out


def title_columns(title: str) -> int:
    """How many template columns a title needs on paper (it overflows into them)."""
    ems = sum(WIDE_EM if unicodedata.east_asian_width(ch) in "WF" else NARROW_EM for ch in title)
    return math.ceil(ems * TITLE_FONT_SIZE / COLUMN_POINTS)


def _side(index: int, count: int, after: bool) -> str:
    """The border style before (or after) cell ``index`` of a line of ``count`` cells."""
    edge = index + 1 if after else index
    return THICK if edge % BLOCK == 0 or edge == count else THIN


def _grid_formats(grid: Rect) -> dict[CellFormat, list[Cell]]:
    """Grid cells grouped by their borders: thin lines, thick every BLOCK and outside."""
    top, left, bottom, right = grid
    h, w = bottom - top + 1, right - left + 1
    groups: dict[CellFormat, list[Cell]] = defaultdict(list)
    for r in range(h):
        for c in range(w):
            fmt = CellFormat(
                left=_side(c, w, False),
                right=_side(c, w, True),
                top=_side(r, h, False),
                bottom=_side(r, h, True),
            )
            groups[fmt].append((top + r, left + c))
    return groups


def _band_formats(layout: TemplateLayout) -> dict[CellFormat, list[Cell]]:
    """Clue cells: row clues right-aligned, column clues bottom-aligned, block lines kept."""
    groups: dict[CellFormat, list[Cell]] = defaultdict(list)
    _add_band(groups, layout.row_band, across=True, horizontal="right", vertical="center")
    _add_band(groups, layout.col_band, across=False, horizontal="center", vertical="bottom")
    return groups


def _add_band(
    groups: dict[CellFormat, list[Cell]], band: Rect, across: bool, horizontal: str, vertical: str
) -> None:
    """One clue band's cells grouped by format, a line (row ``across``, else column) at a time."""
    top, left, bottom, right = band
    count = bottom - top + 1 if across else right - left + 1
    for i in range(count):
        before, after = _side(i, count, False), _side(i, count, True)
        sides = {"top": before, "bottom": after} if across else {"left": before, "right": after}
        fmt = CellFormat(
            **sides,
            horizontal=horizontal,
            vertical=vertical,
            font_size=CLUE_FONT_SIZE,
            shrink=True,
        )
        if across:
            groups[fmt] += [(top + i, c) for c in range(left, right + 1)]
        else:
            groups[fmt] += [(r, left + i) for r in range(top, bottom + 1)]


def write_template(
    sheet: LayoutSheet,
    puzzle: Puzzle | None = None,
    *,
    size: tuple[int, int] | None = None,
    title: str = "",
    checks: bool = False,
    colour: bool = False,
) -> TemplateLayout:
    """Lay out a puzzle sheet (clues filled in from ``puzzle``, or empty for ``size``;
    ``colour``: clue areas as deep as a colour line's clues may be).

    ``size`` is (width, height). Square cells, thick lines every 5, clues right/bottom
    aligned, the size labelled, print area set (wide enough for the title) and fitted to
    one page. ``checks`` adds
    the live clue checks of :func:`write_checks` (for sheets a person types clues into).
    """
    if puzzle is not None:
        width, height = puzzle.width, puzzle.height
    elif size is not None:
        width, height = size
    else:
        raise ValueError("write_template needs a puzzle or a size")
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"size {width}x{height}: each side must be 1…{MAX_SIDE}")
    text = title or (puzzle.title if puzzle else "") or ""
    layout = plan(width, height, puzzle, colour=colour)
    top, left, bottom, right = layout.print_area
    needed = title_columns(text)
    # The title may widen the print area as far as the page keeps the puzzle's own
    # orientation; a longer one wraps (a page turned and shrunk for it prints a tiny grid).
    keeps = left + math.floor((bottom - top) * paper.LANDSCAPE_RATIO)
    wide = max(right, min(needed, keeps))
    layout = replace(layout, print_area=(top, left, bottom, wide))
    wraps = needed > wide  # a long title wraps across the print width, in a taller row
    sheet.write_values((TITLE_ROW, 1), [[text or None]])
    fmt = CellFormat(
        bold=True, font_size=TITLE_FONT_SIZE, wrap=wraps, vertical="top" if wraps else None
    )
    sheet.format_cells([(TITLE_ROW, 1)], fmt)
    if wraps:
        sheet.merge((TITLE_ROW, 1, TITLE_ROW, wide))
        lines = math.ceil(needed / wide)
        sheet.set_row_heights({TITLE_ROW: min(MAX_ROW_POINTS, lines * TITLE_FONT_SIZE * 1.4)})
    write_size_cells(sheet, width, height)
    for fmt, cells in (_band_formats(layout) | _grid_formats(layout.grid)).items():
        sheet.format_cells(cells, fmt)
    if puzzle is not None:
        _write_clues(sheet, layout, puzzle)
    last_col = max(layout.grid[3], layout.print_area[3])
    sheet.set_column_widths({c: CELL_WIDTH for c in range(1, last_col + 1)})
    sheet.set_row_heights({r: CELL_HEIGHT for r in range(layout.col_band[0], layout.grid[2] + 1)})
    sheet.set_print_setup(layout.print_area, fit_to_page=True)
    if checks:
        write_checks(sheet, layout)
    return layout


def write_size_cells(sheet: LayoutSheet, width: int | None, height: int | None) -> None:
    """The size row: ``width`` and ``height`` labels, each number in a cell two columns
    wide (boxed, so a person sees where to type). Labels and numbers each span two of the
    template's narrow columns, so neither is cut off nor shown as ``##``."""
    sheet.write_values(
        (SIZE_ROW, 1), [[WIDTH_LABEL, None, width, None, HEIGHT_LABEL, None, height]]
    )
    box = CellFormat(left="thin", right="thin", top="thin", bottom="thin", horizontal="center")
    label = CellFormat(horizontal="left", shrink=True)
    for row, col in (WIDTH_CELL, HEIGHT_CELL):
        for first, fmt in ((col - SIZE_CELL_SPAN, label), (col, box)):
            sheet.format_cells([(row, c) for c in range(first, first + SIZE_CELL_SPAN)], fmt)
            sheet.merge((row, first, row, first + SIZE_CELL_SPAN - 1))


def _ref(rect: Rect, fixed_rows: bool = True, fixed_cols: bool = True) -> str:
    """A1 reference of a rectangle, ``$`` on the rows and/or columns that must not move."""
    top, left, bottom, right = rect
    c, r = ("$" if fixed_cols else ""), ("$" if fixed_rows else "")
    first = f"{c}{column_letter(left)}{r}{top}"
    return f"{first}:{c}{column_letter(right)}{r}{bottom}"


def line_check(band: Rect, across: bool, length: int) -> str:
    """The formula, for the band's first line, that is true when its clues cannot fit.

    Clues ``a b c`` need ``a+b+c`` black cells and a white cell between each two, so
    ``SUM + COUNT - 1`` cells; more than the line's length cannot fit. Counts numbers,
    one per cell (the template's layout); text in a clue cell is not counted.
    """
    top, left, bottom, right = band
    first = (top, left, top, right) if across else (top, left, bottom, left)
    ref = _ref(first, fixed_rows=not across, fixed_cols=across)
    return f"SUM({ref})+COUNT({ref})-1>{length}"


def totals_formulas(layout: TemplateLayout) -> tuple[str, str]:
    """The totals cell's formula (``clue totals: rows 45 = columns 45``) and the condition
    that turns it red (the sums differ: no grid can satisfy both)."""
    rows, cols = f"SUM({_ref(layout.row_band)})", f"SUM({_ref(layout.col_band)})"
    text = f'="clue totals: rows "&{rows}&IF({rows}={cols}," = "," ≠ ")&"columns "&{cols}'
    return text, f"{rows}<>{cols}"


def write_checks(sheet: LayoutSheet, layout: TemplateLayout) -> bool:
    """Live clue checks, no macro needed: a line whose clues cannot fit turns red while
    the person types, and a cell compares the sums of the row and column clues.

    False when the back end could not add the colouring (the totals cell is written).
    """
    top, left, bottom, right = layout.grid
    text, unequal = totals_formulas(layout)
    sheet.write_formula(layout.totals_cell, text)
    sheet.format_cells([layout.totals_cell], CellFormat(font_size=TOTALS_FONT_SIZE))
    coloured = [
        sheet.set_conditional_format(
            layout.row_band, line_check(layout.row_band, True, right - left + 1), BAD_CLUE_STYLE
        ),
        sheet.set_conditional_format(
            layout.col_band, line_check(layout.col_band, False, bottom - top + 1), BAD_CLUE_STYLE
        ),
        sheet.set_conditional_format(
            (*layout.totals_cell, *layout.totals_cell), unequal, BAD_CLUE_STYLE
        ),
    ]
    return all(coloured)


def _write_clues(sheet: LayoutSheet, layout: TemplateLayout, puzzle: Puzzle) -> None:
    """Row clues right-aligned in their band, column clues bottom-aligned in theirs."""
    top, left, _, right = layout.row_band
    depth = right - left + 1
    block = [[None] * (depth - len(c or (0,))) + list(c or (0,)) for c in puzzle.rows]
    sheet.write_values((top, left), block)
    top, left, bottom, _ = layout.col_band
    depth = bottom - top + 1
    columns = [[None] * (depth - len(c or (0,))) + list(c or (0,)) for c in puzzle.cols]
    sheet.write_values((top, left), [list(row) for row in zip(*columns, strict=True)])

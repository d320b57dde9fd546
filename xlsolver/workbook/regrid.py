"""What New grid may clear: the old template and the new one's place, never a person's
own cells beside them.

Glossary
    old template  an earlier template under the size row: the block of drawn or filled
                  cells, side by side, that reaches both the first band row (row 4: the
                  column clues) and column A (the row clues), its palette row under the
                  grid and its totals cell (A3); a person's table or note elsewhere, even
                  one empty line away or in the template's empty corner, is no part of it
    in the way    a typed, drawn or filled cell in what New grid would clear that is no
                  part of the old template: a person's own, so New grid stops and names
                  it, changing nothing
"""

from __future__ import annotations

from ..sheets.protocol import Cell, Rect, Sheet, bounds, holds, side_by_side
from .address import cell_ref, rect_ref
from .clues import normalise
from .colour_template import LABEL_SPAN, PALETTE_GAP, REQUEST
from .scan import TOTALS_FORMULA, blank
from .template import FIRST_BAND_ROW, SIZE_ROW, TOTALS_CELL, plan

NAMED = 4  # at most this many cells in the way are named


def new_extent(size: tuple[int, int], swatches: int | None) -> Rect:
    """Rows and columns under the size row that a new template of ``size`` (width,
    height) covers, with its palette row of ``swatches`` when it has one (and then clue
    areas as deep as a colour line's clues may be)."""
    layout = plan(*size, colour=swatches is not None)
    bottom, right = layout.grid[2], max(layout.grid[3], layout.print_area[3])
    if swatches is not None:
        bottom += PALETTE_GAP
        right = max(right, layout.grid[1] + LABEL_SPAN + swatches - 1)
    return (SIZE_ROW + 1, 1, bottom, right)


def _read(sheet: Sheet, area: Rect) -> tuple[list[list[object]], set[Cell]]:
    """The values of ``area`` and its cells that are drawn (a side) or filled."""
    values = sheet.read_values(area)
    fills = sheet.read_fills(area)
    sides = sheet.read_border_sides(area)
    top, left = area[0], area[1]
    drawn = {
        (top + i, left + j)
        for i, row in enumerate(sides)
        for j, side in enumerate(row)
        if side or fills[i][j] is not None
    }
    return values, drawn


def _totals(value: object) -> bool:
    """True for the template's totals cell (its formula, or the text it computes)."""
    return isinstance(value, str) and TOTALS_FORMULA in value


def _template_cells(sheet: Sheet, values, drawn: set[Cell], area: Rect) -> set[Cell]:
    """The cells of the template laid out before (see the glossary): its drawn block,
    its palette row (label, swatches, letters) and its totals cell."""
    from .colour_read import find_palette_label, first_swatch_column

    top, left = area[0], area[1]

    def typed(cell: Cell) -> bool:
        r, c = cell[0] - top, cell[1] - left
        return 0 <= r < len(values) and 0 <= c < len(values[r]) and not blank(values[r][c])

    cells: set[Cell] = set()
    for block in side_by_side(drawn):
        if any(r == FIRST_BAND_ROW for r, _ in block) and any(c == 1 for _, c in block):
            cells |= block
    old = _bounds(cells)
    label = find_palette_label(sheet, old) if old is not None else None
    if label is not None and old[1] <= label[1] <= old[3]:  # under the grid: its palette
        row, end = label[0], first_swatch_column(sheet, label)
        while (row, end) in drawn or typed((row, end)):
            end += 1  # each swatch, filled or lettered
        cells |= {(row, c) for c in range(label[1], end)}  # and the label (its merged cells)
    if _totals(values[TOTALS_CELL[0] - top][TOTALS_CELL[1] - left]):
        cells.add(TOTALS_CELL)
    return cells


def _bounds(cells: set[Cell]) -> Rect | None:
    """The smallest rectangle holding every cell (None for none)."""
    return bounds((r, c, r, c) for r, c in cells) if cells else None


def plan_clearing(
    sheet: Sheet, size: tuple[int, int], extent: Rect
) -> tuple[Rect | None, str | None]:
    """The rectangle New grid clears before laying out ``size`` over ``extent`` (see
    :func:`new_extent`), and the complaint when a person's own cells stand where the new
    template goes (then nothing is cleared)."""
    used = sheet.used_range()
    if used is None or used[2] <= SIZE_ROW:
        return None, None
    area = (SIZE_ROW + 1, 1, used[2], used[3])
    values, drawn = _read(sheet, area)
    ours = _template_cells(sheet, values, drawn, area)
    old = _bounds(ours)
    clear = (
        extent if old is None else (SIZE_ROW + 1, 1, max(extent[2], old[2]), max(extent[3], old[3]))
    )
    in_the_way = []  # typed, drawn or filled cells that are not the old template's
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            cell = (area[0] + i, area[1] + j)
            if cell in ours or not holds(clear, cell) or (blank(v) and cell not in drawn):
                continue
            if isinstance(v, str) and REQUEST.match(normalise(v).lower()):
                continue  # "colours: 3", the palette New grid was asked for
            in_the_way.append(cell)
    if in_the_way:
        named = ", ".join(cell_ref(c) for c in in_the_way[:NAMED])
        more = f" and {len(in_the_way) - NAMED} more" if len(in_the_way) > NAMED else ""
        takes = "and the old one take" if old is not None else "takes"
        return None, (
            f"a {size[0]}×{size[1]} grid {takes} {rect_ref(clear)}, where cells of your own "
            f"stand ({named}{more}): move them (or delete them), or lay the grid out on an "
            f"empty sheet; nothing was changed"
        )
    return (clear[0], clear[1], min(clear[2], used[2]), min(clear[3], used[3])), None

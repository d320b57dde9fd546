"""What New grid may clear: the old template and the new one's place, never a person's
own cells beside them.

Glossary
    old block   the cells of an earlier template or puzzle under the size row: the
                drawn, filled or typed cells reachable from its first band row (row 4) or
                its totals cell, a gap of one empty row or column bridged (two or more
                part a sheet's pieces, as the finder sees them)
    in the way  a typed cell where the new template goes that is no part of the old
                block: a person's own, so New grid stops and names it, changing nothing
"""

from __future__ import annotations

from collections import deque

from ..sheets.protocol import Cell, Rect, Sheet
from .address import cell_ref, rect_ref
from .clues import normalise
from .colour_template import LABEL_SPAN, PALETTE_GAP, REQUEST
from .scan import blank
from .template import FIRST_BAND_ROW, SIZE_ROW, TOTALS_CELL, plan

REACH = 2  # cells this far apart (a row or column empty between them) are one block
NAMED = 4  # at most this many cells in the way are named


def new_extent(size: tuple[int, int], swatches: int | None) -> Rect:
    """Rows and columns under the size row that a new template of ``size`` (width,
    height) covers, with its palette row of ``swatches`` when it has one."""
    layout = plan(*size)
    bottom, right = layout.grid[2], max(layout.grid[3], layout.print_area[3])
    if swatches is not None:
        bottom += PALETTE_GAP
        right = max(right, layout.grid[1] + LABEL_SPAN + swatches - 1)
    return (SIZE_ROW + 1, 1, bottom, right)


def _touched(sheet: Sheet, area: Rect) -> tuple[list[list[object]], set[Cell], set[Cell]]:
    """The values of ``area``, its cells that hold something (a value, a fill or a drawn
    side) and those drawn or filled."""
    values = sheet.read_values(area)
    fills = sheet.read_fills(area)
    sides = sheet.read_border_sides(area)
    top, left = area[0], area[1]
    drawn, touched = set(), set()
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            cell = (top + i, left + j)
            if fills[i][j] is not None or sides[i][j]:
                drawn.add(cell)
            if cell in drawn or not blank(v):
                touched.add(cell)
    return values, touched, drawn


def _totals(value: object) -> bool:
    """True for the template's totals cell (its formula, or the text it computes)."""
    return isinstance(value, str) and "clue totals" in value


def _block(touched: set[Cell], seeds: list[Cell]) -> set[Cell]:
    """The old template's cells: those reachable from ``seeds``."""
    found = set(seeds)
    queue = deque(seeds)
    while queue:
        r, c = queue.popleft()
        for dr in range(-REACH, REACH + 1):
            for dc in range(-REACH, REACH + 1):
                cell = (r + dr, c + dc)
                if cell in touched and cell not in found:
                    found.add(cell)
                    queue.append(cell)
    return found


def _bounds(cells: set[Cell]) -> Rect | None:
    """The smallest rectangle holding every cell (None for none)."""
    if not cells:
        return None
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    return (min(rows), min(cols), max(rows), max(cols))


def _inside(cell: Cell, rect: Rect | None) -> bool:
    return rect is not None and rect[0] <= cell[0] <= rect[2] and rect[1] <= cell[1] <= rect[3]


def plan_clearing(
    sheet: Sheet, size: tuple[int, int], swatches: int | None
) -> tuple[Rect | None, str | None]:
    """The rectangle New grid clears before laying out ``size``, and the complaint when
    a person's own cells stand where the new template goes (then nothing is cleared)."""
    used = sheet.used_range()
    extent = new_extent(size, swatches)
    if used is None or used[2] <= SIZE_ROW:
        return None, None
    area = (SIZE_ROW + 1, 1, used[2], used[3])
    values, touched, drawn = _touched(sheet, area)
    seeds = [c for c in drawn if c[0] == FIRST_BAND_ROW]  # the column clues' first row
    if _totals(values[TOTALS_CELL[0] - area[0]][TOTALS_CELL[1] - area[1]]):
        seeds.append(TOTALS_CELL)
    old = _bounds(_block(touched, seeds))
    clear = (
        extent if old is None else (SIZE_ROW + 1, 1, max(extent[2], old[2]), max(extent[3], old[3]))
    )
    in_the_way = []
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            cell = (area[0] + i, area[1] + j)
            if blank(v) or not _inside(cell, clear) or _inside(cell, old):
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

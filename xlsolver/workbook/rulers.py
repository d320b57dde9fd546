"""Index rulers: a run 1, 2, …, N beside a grid numbers its rows, columns or clue places.

Exporters (Apache POI sheets, puzzle programs) and people add them. They are found
before the grid, set aside, and kept aside only where a ruler can stand: a run across
a band (one number per line) that covers the whole grid side, or a run outside the
clue bands. A run inside a band the way clues are read (``1 2 3 4`` in one row's clues)
is given back as clues.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..sheets.protocol import Rect
from .address import rect_ref
from .scan import CLUE, RULER, Facts

MIN_RULER = 4  # shorter runs 1, 2, 3 are too common among real clues


@dataclass(frozen=True)
class Ruler:
    """A run 1…N in one row (``across``) or one column of the sheet."""

    rect: Rect
    across: bool

    def cells(self) -> list[tuple[int, int]]:
        """The sheet cells of the run."""
        top, left, bottom, right = self.rect
        return [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)]

    def label(self, grid: Rect) -> str:
        """``A6:A15 row numbers`` as the ``--json`` report says it."""
        top, left, bottom, right = self.rect
        if not self.across and (top, bottom) == (grid[0], grid[2]):
            what = "row numbers"
        elif self.across and (left, right) == (grid[1], grid[3]):
            what = "column numbers"
        else:
            what = "clue positions"
        return f"{rect_ref(self.rect)} {what}"


def _index_value(value: object) -> int | None:
    """The whole number a cell holds (number or digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _runs_in(line: list[object]) -> list[tuple[int, int]]:
    """(start, length) of every run 1, 2, …, N (N ≥ MIN_RULER) in a list of values."""
    out = []
    j = 0
    while j < len(line):
        if _index_value(line[j]) != 1:
            j += 1
            continue
        n = 1
        while j + n < len(line) and _index_value(line[j + n]) == n + 1:
            n += 1
        if n >= MIN_RULER:
            out.append((j, n))
        j += n
    return out


def find_rulers(facts: Facts) -> list[Ruler]:
    """Every run 1…N across a row or down a column of the scan, marked RULER in it."""
    found: list[Ruler] = []
    h, w = facts.shape
    for i in range(h):
        for j, n in _runs_in(facts.values[i]):
            top, left = facts.cell(i, j)
            found.append(Ruler((top, left, top, left + n - 1), True))
    for j in range(w):
        column = [facts.values[i][j] for i in range(h)]
        for i, n in _runs_in(column):
            top, left = facts.cell(i, j)
            found.append(Ruler((top, left, top + n - 1, left), False))
    for ruler in found:
        set_kind(facts, ruler, RULER)
    return found


def set_kind(facts: Facts, ruler: Ruler, kind: int) -> None:
    """Mark a ruler's cells in the scan (RULER to set it aside, CLUE to give it back)."""
    for cell in ruler.cells():
        ij = facts.index(cell)
        if ij is not None:
            facts.kind[ij] = kind


def _clues_beyond(facts: Facts, ruler: Ruler, grid: Rect) -> bool:
    """True when clues stand beyond a run, on its side away from the grid: the run
    continues a band (a column band's row that reads 1 2 3 4), not a ruler at its edge."""
    top, left, bottom, right = ruler.rect
    r0, c0 = facts.origin
    h, w = facts.shape
    if ruler.across:
        rows = range(r0, top) if top < grid[0] else range(bottom + 1, r0 + h)
        cols = range(left, right + 1)
    else:
        rows = range(top, bottom + 1)
        cols = range(c0, left) if left < grid[1] else range(right + 1, c0 + w)
    return any(
        facts.kind[facts.index((r, c))] == CLUE for r in rows for c in cols if facts.index((r, c))
    )


def misplaced(
    facts: Facts, ruler: Ruler, grid: Rect, row_band: Rect | None, col_band: Rect | None
) -> bool:
    """True when a run cannot be a ruler where it stands: it is some line's clues."""
    top, left, bottom, right = ruler.rect

    def inside(band: Rect | None) -> bool:
        return band is not None and not (
            bottom < band[0] or top > band[2] or right < band[1] or left > band[3]
        )

    if ruler.across:
        if inside(row_band):
            return True
        if (left, right) == (grid[1], grid[3]):
            return False  # column numbers
        if inside(col_band):
            return True
    else:
        if inside(col_band):
            return True
        if (top, bottom) == (grid[0], grid[2]):
            return False  # row numbers
        if inside(row_band):
            return True
    return _clues_beyond(facts, ruler, grid) or not _numbers_a_band(facts, ruler, grid)


def _numbers_a_band(facts: Facts, ruler: Ruler, grid: Rect) -> bool:
    """True when a run outside the bands faces clues across the grid's lines it numbers
    (the places of the row clues below it, of the column clues beside it)."""
    top, left, bottom, right = ruler.rect
    if ruler.across:
        cells = [(r, c) for r in range(grid[0], grid[2] + 1) for c in range(left, right + 1)]
    else:
        cells = [(r, c) for r in range(top, bottom + 1) for c in range(grid[1], grid[3] + 1)]
    return any(facts.index(cell) and facts.kind[facts.index(cell)] == CLUE for cell in cells)


def give_back(facts: Facts, rulers: list[Ruler], wrong: list[Ruler]) -> list[Ruler]:
    """Return misplaced runs to the clues; the rulers that stay."""
    for ruler in wrong:
        set_kind(facts, ruler, CLUE)
    return [r for r in rulers if r not in wrong]

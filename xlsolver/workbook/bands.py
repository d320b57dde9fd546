"""Clue bands: the rows of column clues and the columns of row clues beside a grid.

Band extents are found on an array of cell kinds seen from the grid's corner (the
finder flips the sheet so that the bands always stand above and left); reading a
band's clues is done on the sheet, in reading order, whatever side the band is on.
"""

from __future__ import annotations

import numpy as np

from ..sheets.errors import WorkbookError
from ..sheets.protocol import Cell, Rect
from .address import where
from .clues import BadClue, dimension_label, parse_clues
from .scan import BAND_KINDS, TEXT, Facts

LABEL_OFFSETS = ((0, 1), (0, 2), (1, 0))  # where a width/height label's number stands


def _content(kinds: np.ndarray) -> np.ndarray:
    """True where a cell may belong to a clue band."""
    return np.isin(kinds, BAND_KINDS)


def band_top(kind: np.ndarray, top: int, left: int, right: int) -> int:
    """The first row of the band above row ``top`` over columns ``left…right``.

    Blank rows are crossed (clues typed top-aligned in a deep band); a row of text
    (a title, a note) ends the band.
    """
    first = top
    for r in range(top - 1, -1, -1):
        kinds = kind[r, left : right + 1]
        if (kinds == TEXT).any():
            break
        if _content(kinds).any():
            first = r
    return first


def band_extent(kind: np.ndarray, first: int, last: int, left: int) -> int:
    """How many columns from ``left`` the band rows ``first…last`` reach (0 when none)."""
    if first > last:
        return 0
    cols = np.nonzero(_content(kind[first : last + 1, left:]).any(0))[0]
    return int(cols.max()) + 1 if len(cols) else 0


def boxed_run(boxed: np.ndarray, r: int, c: int, across: bool) -> int:
    """How many boxed cells follow one another from (r, c) along a row or a column."""
    line = boxed[r, c:] if across else boxed[r:, c]
    off = np.nonzero(~line)[0]
    return int(off[0]) if len(off) else len(line)


def line_clues(
    facts: Facts, rect: Rect | None, skip: set[Cell], *, lenient: bool = False
) -> tuple[int, ...]:
    """One line's clues read from its band cells in order, ``skip`` (labels, rulers) aside.
    ``lenient``: a cell that is not a clue is passed over (to clear a grid), not an error."""
    if rect is None:
        return ()
    top, left, bottom, right = rect
    out: list[int] = []
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            if (r, c) in skip:
                continue
            try:
                out.extend(facts.clues((r, c)))
            except WorkbookError:
                if not lenient:
                    raise
    return out and tuple(out) or ()


def dimensions(facts: Facts) -> tuple[dict[str, tuple[int, Cell]], set[Cell]]:
    """Labelled width/height cells: {"width": (value, cell)} and the cells they occupy."""
    found: dict[str, tuple[int, Cell]] = {}
    used: set[Cell] = set()
    for i, row in enumerate(facts.values):
        for j, v in enumerate(row):
            label = dimension_label(v)
            if not label:
                continue
            for di, dj in LABEL_OFFSETS:
                cell = facts.cell(i + di, j + dj)
                value = facts.at(cell)
                if value is None:
                    continue
                try:
                    numbers = parse_clues(value)
                except BadClue:
                    break
                if len(numbers) == 1:
                    if label in found and found[label][0] != numbers[0]:
                        raise WorkbookError(
                            f"{where(facts.sheet, cell)}: {label} {numbers[0]} differs from "
                            f"{label} {found[label][0]} at {where(facts.sheet, found[label][1])}"
                        )
                    found[label] = (numbers[0], cell)
                    used.update({cell, facts.cell(i, j)})
                break
    for cell in used:
        ij = facts.index(cell)
        if ij is not None:
            facts.kind[ij] = TEXT
    return found, used

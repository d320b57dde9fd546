"""A line of totals beside a grid: one count per row (or column) typed on the side
opposite the clue band, each the sum of that line's clues (the black cells it holds).

Teachers and puzzle books add such a check column; read on its own it is a clue band
too (one block per line, whose totals agree with the other band's), so the finder may
take it for the row clues and leave the real ones over. When two bands stand on
opposite sides of one grid and one of them is, line for line, the other's sums, the
sums are set aside (reported as ``totals``) with a heading typed above (left of) them,
and the other band is read. Sums one line thick only, with nothing of a puzzle right
behind them: there they are another puzzle's clues, whose grid lies beyond.
"""

from __future__ import annotations

import numpy as np

from ..sheets.errors import WorkbookError
from ..sheets.protocol import Cell, Rect, bounds
from .bands import boxed_run
from .scan import BAND_KINDS, EMPTY, TEXT, Facts

Bands = tuple[Rect | None, Rect | None]


def _outward(facts: Facts, grid: Rect, start: int, step: int, across: bool) -> int | None:
    """The last column (``across``: row) of band cells met going out from ``start``
    beside the grid, crossing no empty line and ending at a line of text (a label, a
    colour legend's ``colours``); None when the first line is neither."""
    lo, hi = (grid[0], grid[2]) if across else (grid[1], grid[3])
    last = None
    at = start
    while True:
        cells = [(r, at) if across else (at, r) for r in range(lo, hi + 1)]
        ij = [facts.index(c) for c in cells]
        if any(x is None for x in ij):
            return last
        kinds = [facts.kind[x] for x in ij]  # type: ignore[index]
        if TEXT in kinds or not any(k in BAND_KINDS for k in kinds):
            return last
        last = at
        at += step


def _side(facts: Facts, grid: Rect, across: bool, after: bool) -> Rect | None:
    """The band of cells beside the grid (at most one empty line away): right of it
    (``after``) or left of it for row clues (``across``), below or above it for column
    clues; None when nothing is there."""
    top, left, bottom, right = grid
    edge = (right if after else left) if across else (bottom if after else top)
    step = 1 if after else -1
    end = _outward(facts, grid, edge + step, step, across)
    if end is None:  # one empty line between grid and band (a spacer)
        end = _outward(facts, grid, edge + 2 * step, step, across)
    if end is None:
        return None
    near, far = sorted((edge + step, end))
    return (top, near, bottom, far) if across else (near, left, far, right)


def _after(grid: Rect, band: Rect, across: bool) -> bool:
    """True when a band stands right of (below) the grid."""
    return band[1] > grid[3] if across else band[0] > grid[2]


def _lines(facts: Facts, band: Rect, across: bool) -> list[tuple[int, ...]] | None:
    """Each grid line's numbers in a band (None when a cell is not a clue)."""
    top, left, bottom, right = band
    out = []
    for k in range(top, bottom + 1) if across else range(left, right + 1):
        cells = (
            [(k, c) for c in range(left, right + 1)]
            if across
            else [(r, k) for r in range(top, bottom + 1)]
        )
        numbers: list[int] = []
        for cell in cells:
            if facts.at(cell) is None:
                continue
            try:
                numbers.extend(facts.clues(cell))
            except WorkbookError:
                return None
        out.append(tuple(numbers))
    return out


def _sums(band: list[tuple[int, ...]], of: list[tuple[int, ...]]) -> bool:
    """True when every line of ``band`` is one number (or nothing for an empty line),
    the sum of the same line of ``of``."""
    for total, clues in zip(band, of, strict=True):
        if len(total) > 1 or (total[0] if total else 0) != sum(clues):
            return False
    return True


def set_totals_aside(
    facts: Facts, grid: Rect, bands: Bands
) -> tuple[Bands, list[Rect], list[Rect]]:
    """The bands to read, the lines of totals set aside (where a band of the grid and
    the cells on the grid's other side are, line for line, one the other's sums), and
    the bands facing a band of the grid that are not its sums."""
    kept = list(bands)
    totals, facing = [], []
    for k, across in ((0, True), (1, False)):
        band = bands[k]
        beside = (
            None if band is None else _side(facts, grid, across, not _after(grid, band, across))
        )
        if band is None or beside is None:
            continue
        total = _totals(facts, grid, band, beside, across)
        if total is None:
            facing.append(_trimmed(facts, beside))
            continue
        if total == band:
            kept[k] = beside
        totals.append(_trimmed(facts, total))
        head = header(facts, totals[-1], across)
        if head is not None:
            totals.append((*head, *head))
    return (kept[0], kept[1]), totals, facing


def _totals(facts: Facts, grid: Rect, one: Rect, other: Rect, across: bool) -> Rect | None:
    """Which of two bands on opposite sides of a grid is the other's sums (None: neither)."""
    first, second = _lines(facts, one, across), _lines(facts, other, across)
    if first is None or second is None or not any(sum(line) for line in first):
        return None
    # one number per line on both sides, the same: either reads the same puzzle, so
    # the band right of (below) the grid is the one set aside
    if _sums(first, second) and (_after(grid, one, across) or not _sums(second, first)):
        total = one
    elif _sums(second, first):
        total = other
    else:
        return None
    return total if _stands_alone(facts, grid, _trimmed(facts, total), across) else None


def _stands_alone(facts: Facts, grid: Rect, total: Rect, across: bool) -> bool:
    """True when a line of sums is one line thick and nothing of a puzzle (a clue, a
    mark, a fill, a border) stands right behind it: there it would be another puzzle's
    clues, its grid beyond them (a second puzzle whose row clues match the counts)."""
    if (total[1] != total[3]) if across else (total[0] != total[2]):
        return False
    after = _after(grid, total, across)
    at = (
        (total[3] + 1 if after else total[1] - 1)
        if across
        else (total[2] + 1 if after else total[0] - 1)
    )
    lo, hi = (grid[0], grid[2]) if across else (grid[1], grid[3])
    beyond = [facts.index((k, at) if across else (at, k)) for k in range(lo, hi + 1)]
    beyond = [ij for ij in beyond if ij is not None]
    if any(facts.kind[ij] == TEXT for ij in beyond):
        return True  # a labelled line (a colour legend's "colours"), not a puzzle's
    for ij in beyond:
        if facts.kind[ij] in BAND_KINDS or facts.filled[ij] or facts.boxed[ij]:
            return False
    return True


def header(facts: Facts, total: Rect, across: bool) -> Cell | None:
    """The cell heading a line of totals (``Σ``, ``#``, ``Total`` above a column of them,
    left of a row of them) when it holds text, not a number: set aside with it."""
    cell = (total[0] - 1, total[1]) if across else (total[0], total[1] - 1)
    ij = facts.index(cell)
    if ij is None or facts.at(cell) is None or facts.strength[ij]:
        return None
    return cell


def set_boxed_totals_aside(facts: Facts) -> list[Rect]:
    """Before the finder looks: beside each grid drawn with borders, a line of totals
    facing a clue band is emptied in ``facts`` (the finder weighs every number it sees,
    and a column of sums outweighs row clues of 1s). Returns the totals set aside; a
    line of counts with some wrong goes to ``facts.wrong_totals`` instead (its heading
    emptied all the same)."""
    found = []
    for grid in _boxed_rects(facts):
        for across in (True, False):
            before, after = (_side(facts, grid, across, a) for a in (False, True))
            if before is None or after is None:
                continue
            total = _totals(facts, grid, before, after, across)
            if total is None:
                wrong = _counts_beside(facts, grid, before, after, across)
                if wrong is not None:
                    facts.wrong_totals.append(wrong)
                    _empty(facts, set(), header(facts, wrong, across))
                continue
            total = _trimmed(facts, total)
            _empty(facts, cells_of(total), header(facts, total, across))
            found.append(total)
    return found


def _empty(facts: Facts, cells: set[Cell], head: Cell | None) -> None:
    """Empty ``cells`` and a line of totals' heading (``Σ``, ``#``: short text the
    finder would take for a mistyped clue in the band beside it) in ``facts``."""
    for cell in cells | ({head} if head else set()):
        ij = facts.index(cell)
        if ij is not None:
            facts.kind[ij] = EMPTY
            facts.strength[ij] = 0


def _counts_beside(
    facts: Facts, grid: Rect, before: Rect, after: Rect, across: bool
) -> Rect | None:
    """The band on one side of a grid that is a line of counts which are not the other
    band's totals: one line thick, one number a line, standing alone (the band right of
    or below the grid looked at first). The finder does not weigh it (a column of sums
    outweighs row clues of 1s), so the grid is found where its clues place it and the
    line is named beside them, not read as another puzzle's clues or an eleventh
    column's."""
    for total, band in ((after, before), (before, after)):
        counts, clues = _lines(facts, total, across), _lines(facts, band, across)
        if counts is None or clues is None or any(len(n) > 1 for n in counts):
            continue
        trimmed = _trimmed(facts, total)
        if _stands_alone(facts, grid, trimmed, across):
            return trimmed
    return None


def hidden_from_the_finder(facts: Facts) -> list[tuple[int, int, int]]:
    """Empty the cells of ``facts.wrong_totals`` in ``facts.kind``; returns what to put
    back with :func:`put_back`."""
    out = []
    for cell in set().union(*map(cells_of, facts.wrong_totals)):
        ij = facts.index(cell)
        if ij is not None and facts.kind[ij] != EMPTY:
            out.append((*ij, int(facts.kind[ij])))
            facts.kind[ij] = EMPTY
    return out


def put_back(facts: Facts, hidden: list[tuple[int, int, int]]) -> None:
    """Give back the cells :func:`hidden_from_the_finder` emptied."""
    for i, j, kind in hidden:
        facts.kind[i, j] = kind


def _boxed_rects(facts: Facts) -> list[Rect]:
    """Sheet rectangles of boxed cells (2×2 or larger, boxed throughout), each from its
    top-left cell."""
    boxed = facts.boxed
    out = []
    for i, j in np.argwhere(boxed):
        if (i and boxed[i - 1, j]) or (j and boxed[i, j - 1]):
            continue
        h, w = boxed_run(boxed, i, j, False), boxed_run(boxed, i, j, True)
        if h >= 2 and w >= 2 and boxed[i : i + h, j : j + w].all():
            out.append((*facts.cell(int(i), int(j)), *facts.cell(int(i + h - 1), int(j + w - 1))))
    return out


def _trimmed(facts: Facts, rect: Rect) -> Rect:
    """A rectangle shrunk to the cells in it that hold something."""
    held = [c for c in cells_of(rect) if facts.at(c) is not None]
    return bounds((r, c, r, c) for r, c in held) if held else rect


def cells_of(rect: Rect) -> set[Cell]:
    """Every cell of a rectangle (a line of totals, passed over when clues are read)."""
    return {(r, c) for r in range(rect[0], rect[2] + 1) for c in range(rect[1], rect[3] + 1)}

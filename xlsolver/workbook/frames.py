"""Grids marked by an outer border only: the cells a drawn rectangle encloses.

Excel's "Outside Borders" (and Calc's) draws a frame around a range and nothing inside
it. The frame is all that shows the grid's extent where an edge line is empty and its
clue left blank, so the cells it encloses count as boxed, as if every cell had its own
box.
"""

from __future__ import annotations

import numpy as np

from ..sheets.protocol import ALL_SIDES, BOTTOM, LEFT, RIGHT, TOP


def _run(line: np.ndarray) -> int:
    """How many True values the line starts with."""
    off = np.flatnonzero(~line)
    return int(off[0]) if off.size else int(line.size)


def framed_cells(seen: np.ndarray) -> np.ndarray:
    """True for the cells inside a drawn rectangle of two or more cells.

    ``seen`` holds the sides each cell shows (``TOP | BOTTOM | LEFT | RIGHT``). A frame
    starts at a cell showing its top and left sides but not all four; of the rectangles
    whose whole border is drawn from there, the smallest is taken.
    """
    h, w = seen.shape
    top, bottom = (seen & TOP) > 0, (seen & BOTTOM) > 0
    left, right = (seen & LEFT) > 0, (seen & RIGHT) > 0
    out = np.zeros((h, w), dtype=bool)
    corners = np.argwhere(top & left & (seen != ALL_SIDES))
    for r0, c0 in corners.tolist():
        if out[r0, c0]:
            continue
        across = _run(top[r0, c0:])  # the top edge runs this far
        down = _run(left[r0:, c0])  # the left edge this far
        for c1 in (c0 + np.flatnonzero(right[r0, c0 : c0 + across])).tolist():
            depth = _run(right[r0:, c1])
            rows = (r0 + np.flatnonzero(bottom[r0 : r0 + min(down, depth), c0])).tolist()
            hit = next((r1 for r1 in rows if bottom[r1, c0 : c1 + 1].all()), None)
            if hit is not None and (hit, c1) != (r0, c0):
                out[r0 : hit + 1, c0 : c1 + 1] = True
                break
    return out

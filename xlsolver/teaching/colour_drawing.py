"""The colours of a drawing: each marked cell's fill (a mark without a fill is black).

A drawing in one colour stays a black-and-white picture; two colours or more make a
colour drawing, whose inks are the fills in the order they first appear (row by row),
named by their ``#rrggbb`` and lettered a, b, c, …; a fill within SAME_SHADE of an earlier
ink (``#fe0101`` beside ``#ff0000``) is that ink, as paper and a student cannot tell
them apart.
"""

from __future__ import annotations

import numpy as np

from ..nonogram.cells import MAX_INKS
from ..nonogram.colour_puzzle import SAME_SHADE, Palette, parse_rgb, rgb_distance
from ..sheets.errors import WorkbookError
from ..sheets.protocol import Rect
from ..workbook.address import where

MARK_INK = "#000000"  # an ``x`` or ``1`` typed without a fill


def same_ink(rgb: str, inks: dict[str, int]) -> str:
    """The earlier ink ``rgb`` is too close to tell apart from, else ``rgb`` itself."""
    return next((ink for ink in inks if rgb_distance(rgb, ink) <= SAME_SHADE), rgb)


def drawing_colours(
    sheet: str,
    rect: Rect,
    fills: list[list[str | None]],
    picture: np.ndarray,
    canvas: str | None = None,
    merged: dict[str, str] | None = None,
) -> tuple[np.ndarray | None, Palette | None]:
    """(colour numbers, palette) when the marks show two colours or more, else (None, None):
    ``fills`` are the drawing rectangle's, read once by the caller. A mark typed on the
    ``canvas`` fill (or on white) is black. Fills read as an earlier ink
    (:func:`same_ink`) are added to ``merged`` (fill → ink)."""
    order: dict[str, int] = {}
    numbers = np.zeros(picture.shape, dtype=np.int16)
    for r, c in zip(*np.nonzero(picture), strict=True):
        fill = fills[r][c]
        rgb = (parse_rgb(fill) if fill and fill != canvas else None) or MARK_INK
        if rgb == "#ffffff":  # a mark typed on a white cell
            rgb = MARK_INK
        ink = rgb if rgb in order else same_ink(rgb, order)
        if ink != rgb and merged is not None:
            merged[rgb] = ink
        numbers[r, c] = order.setdefault(ink, len(order) + 1)
    if len(order) < 2:
        return None, None
    if len(order) > MAX_INKS:
        raise WorkbookError(
            f"{where(sheet, rect)}: the drawing has {len(order)} colours; at most "
            f"{MAX_INKS} (or make the black-and-white puzzle with --mono)"
        )
    return numbers, Palette.build([(rgb, rgb, None) for rgb in order])


def mono(colours: np.ndarray) -> np.ndarray:
    """The black-and-white picture of a colour drawing: every ink black."""
    return np.asarray(colours) != 0

"""The colours of a drawing: each marked cell's fill (a mark without a fill is black).

A drawing in one colour stays a black-and-white picture; two colours or more make a
colour drawing, whose inks are the fills in the order they first appear (row by row),
named by their ``#rrggbb`` and lettered a, b, c, …
"""

from __future__ import annotations

import numpy as np

from ..nonogram.cells import MAX_INKS
from ..nonogram.colour_puzzle import Palette, parse_rgb
from ..sheets.errors import WorkbookError
from ..sheets.protocol import Rect, Sheet
from ..workbook.address import where

MARK_INK = "#000000"  # an ``x`` or ``1`` typed without a fill


def drawing_colours(
    sheet: Sheet, rect: Rect, picture: np.ndarray, canvas: str | None = None
) -> tuple[np.ndarray | None, Palette | None]:
    """(colour numbers, palette) when the marks show two colours or more, else (None, None).
    A mark typed on the ``canvas`` fill (or on white) is black."""
    fills = sheet.read_fills(rect)
    order: dict[str, int] = {}
    numbers = np.zeros(picture.shape, dtype=np.int16)
    for r, c in zip(*np.nonzero(picture), strict=True):
        fill = fills[r][c]
        rgb = (parse_rgb(fill) if fill and fill != canvas else None) or MARK_INK
        if rgb == "#ffffff":  # a mark typed on a white cell
            rgb = MARK_INK
        numbers[r, c] = order.setdefault(rgb, len(order) + 1)
    if len(order) < 2:
        return None, None
    if len(order) > MAX_INKS:
        raise WorkbookError(
            f"{where(sheet.name, rect)}: the drawing has {len(order)} colours; at most "
            f"{MAX_INKS} (or make the black-and-white puzzle with --mono)"
        )
    return numbers, Palette.build([(rgb, rgb, None) for rgb in order])


def mono(colours: np.ndarray) -> np.ndarray:
    """The black-and-white picture of a colour drawing: every ink black."""
    return np.asarray(colours) != 0

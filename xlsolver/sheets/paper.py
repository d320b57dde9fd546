"""Sizes on screen and on paper: the one home of the column-width rule and the page rule.

Every back end takes column widths in *characters as Excel shows them* (the number in
Excel's Column Width box, xlwings' ``column_width``) and row heights in points; this
module turns them into what each program stores, so a template's grid cells come out
square everywhere.

Excel (ECMA-376 Part 1, §18.3.1.13 ``col``): a width is counted in the maximum digit
width (MDW) of the Normal style's font, Calibri 11 in every workbook we write, whose
MDW is 7 pixels at 96 dpi; a column also has 5 pixels of padding and gridline. The
``width`` a file stores includes that padding::

    stored = Truncate((chars * MDW + 5) / MDW * 256) / 256
    pixels = Truncate(((256 * stored + Truncate(128 / MDW)) / 256) * MDW)
    chars  = Truncate((pixels - 5) / MDW * 100 + 0.5) / 100

A row height is in points: 0.75 point a pixel at 96 dpi.

LibreOffice reads a stored width as ``stored × its digit width`` of the font it shows
for Calibri, with no padding: Carlito (Calibri's metric twin) gives 7.39 px a digit,
DejaVu Sans (all a bare system has) 9.33. So :func:`stored_width` writes the narrowest
width Excel still shows at the same pixels, which brings LibreOffice with Carlito
closest; LibreOffice's own documents (Calc's buttons, .ods files we store) get their
widths in 1/100 mm from the pixels, whatever the fonts.
"""

from __future__ import annotations

import math

MAX_DIGIT_WIDTH = 7  # pixels: Calibri 11, the Normal font of the workbooks we write
PADDING = 5  # pixels: 2 margin each side and 1 gridline
POINTS_PER_PIXEL = 0.75  # 96 dpi
HUNDREDTH_MM_PER_POINT = 2540 / 72
CELL_PIXELS = 25  # a grid cell of a template, both ways
LANDSCAPE_RATIO = 1.2  # a print area this many times wider than tall prints landscape


def excel_pixels(stored: float, mdw: int = MAX_DIGIT_WIDTH) -> int:
    """How many pixels wide Excel shows a column whose file stores ``stored``."""
    return math.floor((256 * stored + 128 // mdw) / 256 * mdw)


def pixels(chars: float, mdw: int = MAX_DIGIT_WIDTH) -> int:
    """How many pixels wide a column of ``chars`` characters (as Excel shows them) is."""
    return excel_pixels(math.floor((chars * mdw + PADDING) / mdw * 256) / 256, mdw)


def characters(px: int, mdw: int = MAX_DIGIT_WIDTH) -> float:
    """The characters Excel shows for a column ``px`` pixels wide (at least 0)."""
    return max(0.0, math.floor((px - PADDING) / mdw * 100 + 0.5) / 100)


def stored_width(chars: float, mdw: int = MAX_DIGIT_WIDTH) -> float:
    """The ``width`` to store in a file for a column of ``chars`` characters.

    The narrowest multiple of 1/256 that Excel shows at the same pixels as ``chars``:
    Excel rounds it to those pixels, and LibreOffice, which reads it with a digit wider
    than Excel's and no padding, comes out closest to them.
    """
    if chars <= 0:
        return 0.0
    px = pixels(chars, mdw)
    steps = max(0, math.ceil(px * 256 / mdw - 128 // mdw))
    while excel_pixels(steps / 256, mdw) < px:  # the formula truncates; never fall short
        steps += 1
    return steps / 256


def points(px: float) -> float:
    """A row height in points for ``px`` pixels at 96 dpi."""
    return px * POINTS_PER_PIXEL


def hundredth_mm(pts: float) -> int:
    """A length in points as 1/100 mm (LibreOffice's unit for widths and heights)."""
    return round(pts * HUNDREDTH_MM_PER_POINT)


def column_hundredth_mm(chars: float) -> int:
    """A column of ``chars`` characters in 1/100 mm: as wide as Excel shows it."""
    return hundredth_mm(points(pixels(chars))) if chars > 0 else 0


CELL_WIDTH = characters(CELL_PIXELS)  # 2.86 characters
CELL_HEIGHT = points(CELL_PIXELS)  # 18.75 points


def landscape(area: tuple[int, int, int, int]) -> bool:
    """Whether a print area ``(top, left, bottom, right)`` of square cells goes landscape:
    when it is more than :data:`LANDSCAPE_RATIO` times wider than tall (nearly square
    areas stay portrait, the page most teachers print on)."""
    top, left, bottom, right = area
    return (right - left) > (bottom - top) * LANDSCAPE_RATIO

"""Cell addresses as a person reads them: ``Sheet1!C7``, ``'My sheet'!A10:D10``."""

from __future__ import annotations

import re

from openpyxl.utils import get_column_letter

from ..sheets.protocol import Cell, Rect

PLAIN_SHEET_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


def sheet_prefix(sheet: str) -> str:
    """``Sheet1`` → ``Sheet1!``; names with spaces or symbols are quoted."""
    if PLAIN_SHEET_NAME.match(sheet) and not re.match(r"^[A-Za-z]{1,3}\d+$", sheet):
        return f"{sheet}!"
    return "'" + sheet.replace("'", "''") + "'!"


def cell_ref(cell: Cell) -> str:
    """``(7, 3)`` → ``C7``."""
    return f"{get_column_letter(cell[1])}{cell[0]}"


def rect_ref(rect: Rect) -> str:
    """``(10, 1, 10, 4)`` → ``A10:D10`` (one cell → ``A10``)."""
    top, left, bottom, right = rect
    if (top, left) == (bottom, right):
        return cell_ref((top, left))
    return f"{cell_ref((top, left))}:{cell_ref((bottom, right))}"


def where(sheet: str, rect: Rect | Cell) -> str:
    """A sheet-qualified address of a cell or rectangle."""
    if len(rect) == 2:
        return sheet_prefix(sheet) + cell_ref(rect)  # type: ignore[arg-type]
    return sheet_prefix(sheet) + rect_ref(rect)  # type: ignore[arg-type]

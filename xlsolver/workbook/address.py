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


MAX_ROW, MAX_COLUMN = 1_048_576, 16_384  # Excel's last cell, XFD1048576
A1_RANGE = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$")


def column_number(letters: str) -> int:
    """``A`` → 1, ``AB`` → 28."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - ord("A") + 1
    return n


def parse_range(text: str) -> tuple[str | None, Rect]:
    """``Sheet1!B3:P17`` (or ``'My sheet'!B3:P17``, or ``B3:P17``) → (sheet, rect);
    ValueError saying what to type when it is not a range."""
    sheet: str | None = None
    ref = text.strip()
    if "!" in ref:
        sheet, ref = ref.rsplit("!", 1)
        if sheet.startswith("'") and sheet.endswith("'") and len(sheet) >= 2:
            sheet = sheet[1:-1].replace("''", "'")
    m = A1_RANGE.match(ref)
    if m is None or not sheet and sheet is not None:
        raise ValueError(f"--range {text}: expected a range like Sheet1!B3:P17")
    top, left = int(m.group(2)), column_number(m.group(1))
    bottom = int(m.group(4)) if m.group(4) else top
    right = column_number(m.group(3)) if m.group(3) else left
    if min(top, bottom) < 1:
        raise ValueError(f"--range {text}: rows are numbered from 1 (expected e.g. B3:P17)")
    if max(left, right) > MAX_COLUMN or max(top, bottom) > MAX_ROW:
        raise ValueError(
            f"--range {text}: beyond the last cell a sheet has ({get_column_letter(MAX_COLUMN)}"
            f"{MAX_ROW})"
        )
    return sheet, (min(top, bottom), min(left, right), max(top, bottom), max(left, right))

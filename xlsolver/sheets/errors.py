"""Errors of the workbook layer: one clear line naming the file, sheet or cell at fault."""

from __future__ import annotations

import re

MAX_SHEET_NAME = 31  # Excel's limit (LibreOffice allows more, Excel then refuses the file)
BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")


class WorkbookError(ValueError):
    """A workbook cannot be read or a sheet holds no readable puzzle (exit status 2)."""


def check_sheet_name(name: str, option: str = "--sheet") -> str:
    """The name when every spreadsheet program takes it as a sheet name, else WorkbookError."""
    bad = sorted(set(BAD_SHEET_CHARS.findall(name)))
    if not name.strip():
        why = "is empty"
    elif len(name) > MAX_SHEET_NAME:
        why = f"has {len(name)} characters; a sheet name has at most {MAX_SHEET_NAME}"
    elif bad:
        why = f"holds {' '.join(bad)}; a sheet name cannot hold [ ] : * ? / \\"
    elif name.startswith("'") or name.endswith("'"):
        why = "begins or ends with an apostrophe"
    else:
        return name
    raise WorkbookError(f"{option} {name!r}: the name {why}")


def locked_message(
    sheet: str, cell: tuple[int, int], program: str, *, template: bool = False
) -> str:
    """One line for a paint refused by a protected sheet's locked cell, with the menus of
    ``program`` ("Calc" or "Excel") that lift it (``template``: New grid's layout)."""
    from .protocol import column_letter  # not at import: solving a puzzle file needs none

    if program == "Calc":
        unprotect, unlock = "Tools ▸ Protect Sheet", "Format Cells ▸ Cell Protection"
    else:
        unprotect, unlock = "Review ▸ Unprotect Sheet", "Format Cells ▸ Protection"
    at = f"{sheet}!{column_letter(cell[1])}{cell[0]}"
    if template:  # widths, heights and styles: refused on a protected sheet, locked or not
        return (
            f"{sheet}: the sheet is protected, so New grid cannot lay out a template; "
            f"unprotect the sheet ({unprotect}), then try again"
        )
    return (
        f"{at}: the sheet is protected and its grid "
        f"cells are locked, so nothing can be painted or written; unprotect the sheet "
        f"({unprotect}) or unlock the grid's cells ({unlock}), then try again"
    )

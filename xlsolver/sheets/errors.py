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

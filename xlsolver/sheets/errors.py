"""Errors of the workbook layer: one clear line naming the file, sheet or cell at fault."""

from __future__ import annotations


class WorkbookError(ValueError):
    """A workbook cannot be read or a sheet holds no readable puzzle (exit status 2)."""

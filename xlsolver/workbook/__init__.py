"""The workbook layer above the sheet protocol: find puzzles, paint answers, lay out templates."""

from __future__ import annotations

from .layout import SheetPuzzle, find_puzzles, read_puzzle
from .paint import PaintReport, paint_result
from .template import TemplateLayout, write_template

__all__ = [
    "PaintReport",
    "SheetPuzzle",
    "TemplateLayout",
    "find_puzzles",
    "paint_result",
    "read_puzzle",
    "write_template",
]

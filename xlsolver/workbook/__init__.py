"""The workbook layer above the sheet protocol: find puzzles, paint answers, lay out templates.

The names below are imported on first use (PEP 562), so a light submodule such as
:mod:`.files` can be imported without loading a spreadsheet library.
"""

from __future__ import annotations

import importlib

_WHERE = {
    "SheetPuzzle": "layout",
    "find_puzzles": "layout",
    "read_puzzle": "layout",
    "read_puzzles": "layout",
    "PaintReport": "paint",
    "paint_result": "paint",
    "TemplateLayout": "template",
    "write_template": "template",
}

__all__ = [
    "PaintReport",
    "SheetPuzzle",
    "TemplateLayout",
    "find_puzzles",
    "paint_result",
    "read_puzzle",
    "read_puzzles",
    "write_template",
]


def __getattr__(name: str):
    """Import a public name's module when the name is first asked for."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value

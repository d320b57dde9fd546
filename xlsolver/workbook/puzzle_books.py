"""Puzzles laid out as a new workbook: one ready-to-solve template sheet per puzzle.

``convert dancer.non -o dancer.xlsx`` saves such a book as it is; ``solve dancer.non -o
dancer.xlsx`` solves and paints it first.
"""

from __future__ import annotations

import re

from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle
from ..sheets.errors import BAD_SHEET_CHARS, MAX_SHEET_NAME, WorkbookError
from ..sheets.openpyxl_sheet import XlsxBook, new_book
from .template import MAX_SIDE, read_attribution, title_text, write_attribution, write_template

RESERVED_SHEET_NAME = "history"  # Excel refuses a sheet of this name (any case)


def sheet_name_of(title: str) -> str:
    """The sheet name a title gives (characters a sheet name cannot hold made spaces,
    cut to 31 characters; ``History``, which Excel keeps for itself, ``History puzzle``);
    "" when nothing is left."""
    base = BAD_SHEET_CHARS.sub(" ", title or "").strip().strip("'").lstrip("=+-@ ")
    name = base[:MAX_SHEET_NAME].strip()
    return f"{name} puzzle" if name.casefold() == RESERVED_SHEET_NAME else name


def sheet_names(puzzles: list[Puzzle | ColourPuzzle]) -> list[str]:
    """Unique valid sheet names from the puzzles' titles (``Puzzle N`` without one)."""
    names: list[str] = []
    for i, p in enumerate(puzzles, start=1):
        base = sheet_name_of(p.title) or f"Puzzle {i}"
        name, n = base, 2
        while name.lower() in (x.lower() for x in names):
            suffix = f" ({n})"
            name = base[: MAX_SHEET_NAME - len(suffix)] + suffix
            n += 1
        names.append(name)
    return names


def template_book(puzzles: list[Puzzle | ColourPuzzle]) -> XlsxBook:
    """A new workbook with one template sheet per puzzle (colour clue cells in their
    colours), clues written, grid empty; WorkbookError naming a puzzle too large for a
    sheet (more than 300 cells a side)."""
    for i, puzzle in enumerate(puzzles, start=1):
        if max(puzzle.width, puzzle.height) > MAX_SIDE:
            raise WorkbookError(
                f"{puzzle.title or f'puzzle {i}'} is {puzzle.width}×{puzzle.height}: a sheet "
                f"holds puzzles of at most {MAX_SIDE}×{MAX_SIDE} (write it to a puzzle file)"
            )
    book = new_book()
    first = book.sheets()[0]
    for i, (puzzle, name) in enumerate(zip(puzzles, sheet_names(puzzles), strict=True)):
        sheet = first if i == 0 else book.add_sheet(name)
        sheet.ws.title = name
        if isinstance(puzzle, ColourPuzzle):
            from .colour_template import write_colour_template

            write_colour_template(sheet, puzzle, title=puzzle.title)
        else:
            write_template(sheet, puzzle, title=puzzle.title, checks=True)
        write_attribution(sheet, puzzle)
    return book


def titled(book, found) -> Puzzle | ColourPuzzle:
    """The puzzle found on a sheet, titled as the sheet's title cell shows when the
    sheet was named from that title (a sheet this module laid out: the title keeps the
    characters and the length a sheet name cannot); else titled by the sheet's name."""
    from dataclasses import replace

    sheet = book.sheet(found.sheet)
    title = title_text(sheet)
    credits = read_attribution(sheet)
    puzzle = (
        replace(found.puzzle, meta={**found.puzzle.meta, **credits}) if credits else found.puzzle
    )
    expected = sheet_name_of(title)
    second = re.fullmatch(r"(.+) \(\d+\)", found.sheet)  # "Cat (2)": another of that title
    ours = found.sheet == expected or bool(second and expected.startswith(second.group(1)))
    if title and expected and ours:
        return replace(puzzle, title=title)
    return puzzle

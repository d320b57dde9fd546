"""Writing the printable worksheet: puzzle sheet, answer key, and (when the drawing is
not unique) a verdict sheet with the differing cells highlighted and suggested givens.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..nonogram.cells import is_white
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle
from ..sheets.errors import WorkbookError
from ..sheets.openpyxl_sheet import XlsxBook, new_book
from ..sheets.protocol import (
    ANSWER_STYLE,
    BLACK_STYLE,
    HIGHLIGHT_STYLE,
    WHITE_STYLE,
    Book,
    Cell,
    CellFormat,
    LayoutSheet,
    Rect,
    Style,
)
from ..workbook.files import save_new
from ..workbook.layout import SheetPuzzle, find_puzzles, read_puzzle, several_puzzles
from ..workbook.template import TemplateLayout, write_attribution, write_template
from .verdict import Verdict

PUZZLE_SHEET = "Puzzle"
KEY_SHEET = "Answer key"
VERDICT_SHEET = "Verdict"
NAME_LABEL = "Name:"
NAME_ROW = 3  # the blank row between the size labels and the column clues
NAME_LABEL_SPAN = 2  # the label's own two cells: a typed name never covers it
NAME_SPAN = 6  # at least this many cells, merged and underlined, for the name
GIVEN_MARK = "G"
NAME_LABEL_FORMAT = CellFormat(horizontal="right", shrink=True)
# Differing cells black in the drawing: a darker shade of HIGHLIGHT_STYLE.
DIFFERS_BLACK_STYLE = Style("differs-black", fill="#BF8F00")


def grid_cell(layout: TemplateLayout, r: int, c: int) -> tuple[int, int]:
    """The sheet cell of grid row r, column c (from 0)."""
    return layout.grid[0] + r, layout.grid[1] + c


def _cells(layout: TemplateLayout, mask: np.ndarray) -> list[tuple[int, int]]:
    """Sheet cells where a boolean mask is True."""
    return [grid_cell(layout, int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]


def notes_cell(layout: TemplateLayout) -> tuple[int, int]:
    """Where notes go: right of the grid and the print area (seen on screen, not printed).

    Not below the grid: text there would end the row-clue band when the sheet is read.
    """
    return layout.grid[0], max(layout.grid[3], layout.print_area[3]) + 2


def _notes(sheet: LayoutSheet, layout: TemplateLayout, lines: list[str]) -> None:
    """Lines of text right of the grid, outside the print area."""
    sheet.write_values(notes_cell(layout), [[line] for line in lines])


def paint_givens(sheet: LayoutSheet, layout: TemplateLayout, givens) -> None:
    """Print givens on a puzzle grid: black filled, white crossed."""
    black = [grid_cell(layout, r, c) for r, c, s in givens if not is_white(s)]
    white = [grid_cell(layout, r, c) for r, c, s in givens if is_white(s)]
    sheet.paint(black, BLACK_STYLE)
    sheet.paint(white, WHITE_STYLE)


def write_puzzle_sheet(
    sheet: LayoutSheet, puzzle: Puzzle, title: str, givens=(), notes: list[str] = ()
) -> TemplateLayout:
    """The printable puzzle: template, a name line, printed givens, notes beside."""
    layout = write_name_line(sheet, write_template(sheet, puzzle, title=title))
    write_attribution(sheet, puzzle)
    paint_givens(sheet, layout, givens)
    if notes:
        _notes(sheet, layout, list(notes))
    return layout


def name_cell(grid: Rect) -> Cell:
    """Where a student writes the name on a puzzle sheet whose grid is ``grid``."""
    return NAME_ROW, grid[1] + NAME_LABEL_SPAN


def write_name_line(sheet: LayoutSheet, layout: TemplateLayout) -> TemplateLayout:
    """``Name:`` in two merged cells above the grid's first column, then one merged,
    underlined cell for the name up to the print area's right edge (widened if needed);
    returns the layout with the print area as it now is, so notes go outside it.

    Above the grid, the label's row ends the column-clue band when the sheet is read,
    so a short name (``Bob``) is never taken for a clue. Over a column-clue band one row
    deep the line is not underlined: the underline would close the band's cells into
    boxes, read as part of the grid.
    """
    first = layout.grid[1]
    label = (NAME_ROW, first, NAME_ROW, first + NAME_LABEL_SPAN - 1)
    start = name_cell(layout.grid)[1]
    end = max(start + NAME_SPAN - 1, layout.print_area[3])
    sheet.write_values(label[:2], [[NAME_LABEL]])
    sheet.format_cells([(NAME_ROW, c) for c in range(label[1], label[3] + 1)], NAME_LABEL_FORMAT)
    sheet.merge(label)
    if layout.col_band[2] > layout.col_band[0]:
        line = CellFormat(bottom="thin")
        sheet.format_cells([(NAME_ROW, c) for c in range(start, end + 1)], line)
    sheet.merge((NAME_ROW, start, NAME_ROW, end))
    if end <= layout.print_area[3]:
        return layout
    top, left, bottom, _ = layout.print_area
    sheet.set_print_setup((top, left, bottom, end), fit_to_page=True)
    return replace(layout, print_area=(top, left, bottom, end))


def write_answer_key(sheet: LayoutSheet, puzzle: Puzzle, picture: np.ndarray, title: str):
    """The answer key: the same template with the picture in solid black."""
    layout = write_template(sheet, puzzle, title=f"{title} — answer key" if title else "Answer key")
    write_attribution(sheet, puzzle)
    sheet.paint(_cells(layout, picture), ANSWER_STYLE)
    return layout


def write_verdict_sheet(
    sheet: LayoutSheet, puzzle: Puzzle, picture: np.ndarray, verdict: Verdict, title: str
) -> TemplateLayout:
    """The drawing with the cells two solutions disagree on highlighted and givens marked G."""
    layout = write_template(sheet, puzzle, title=f"{title} — not unique")
    differing = differing_mask(verdict, picture.shape)
    sheet.paint(_cells(layout, picture & ~differing), BLACK_STYLE)
    sheet.paint(_cells(layout, differing & ~picture), HIGHLIGHT_STYLE)
    sheet.paint(_cells(layout, differing & picture), DIFFERS_BLACK_STYLE)
    mark_suggestion(
        sheet,
        layout,
        verdict,
        "yellow: cells where another solution differs from the drawing "
        "(dark yellow: black in the drawing, light: white)",
    )
    return layout


def differing_mask(verdict: Verdict, shape: tuple[int, int]) -> np.ndarray:
    """True at the cells two solutions disagree on."""
    differing = np.zeros(shape, dtype=bool)
    for r, c in verdict.differing:
        differing[r, c] = True
    return differing


def mark_suggestion(
    sheet: LayoutSheet, layout: TemplateLayout, verdict: Verdict, highlight_note: str
) -> None:
    """A verdict sheet's tail: suggested givens marked G, the verdict and the key as notes."""
    for r, c, _ in verdict.suggestion:
        sheet.write_values(grid_cell(layout, r, c), [[GIVEN_MARK]])
    _notes(
        sheet,
        layout,
        verdict.lines()
        + [
            highlight_note,
            f"{GIVEN_MARK}: suggested givens (print them on the puzzle: make --add-givens)",
        ],
    )


@dataclass(frozen=True)
class SheetWriters:
    """The three sheet writers of one kind of worksheet (black-and-white or colour)."""

    puzzle_sheet: Callable[..., TemplateLayout]  # (sheet, puzzle, title, givens, notes)
    answer_key: Callable[..., TemplateLayout]  # (sheet, puzzle, picture, title)
    verdict_sheet: Callable[..., TemplateLayout]  # (sheet, puzzle, picture, verdict, title)


def build_worksheet(
    puzzle: Puzzle | ColourPuzzle,
    picture: np.ndarray,
    verdict: Verdict,
    *,
    title: str = "",
    add_givens: bool = False,
    writers: SheetWriters | None = None,
) -> XlsxBook:
    """A workbook with the puzzle sheet (the verdict as notes, the suggested givens
    printed when asked), the answer key and, if not unique, the verdict sheet; written
    by ``writers`` (the black-and-white ones unless given)."""
    writers = writers or MONO_WRITERS
    book = new_book()
    sheet = book.sheets()[0]
    sheet.ws.title = PUZZLE_SHEET
    givens = verdict.suggestion if add_givens else []
    notes = verdict.lines()
    if givens:
        notes.append("the suggested givens are printed on the grid")
    writers.puzzle_sheet(sheet, puzzle, title, givens, notes)
    writers.answer_key(book.add_sheet(KEY_SHEET), puzzle, picture, title)
    if verdict.differing:
        writers.verdict_sheet(book.add_sheet(VERDICT_SHEET), puzzle, picture, verdict, title)
    book.wb.active = 0
    return book


MONO_WRITERS = SheetWriters(write_puzzle_sheet, write_answer_key, write_verdict_sheet)


def save_book(book: XlsxBook, output: str | os.PathLike, inputs=()) -> Path:
    """Save (.xlsx, or .ods/.xls through LibreOffice), refusing to write over an input file."""
    return save_new(book, Path(output), inputs)


def save_stopped_hints(
    stop, write: Callable[..., XlsxBook], output, source, lang: str, time_limit
) -> None:
    """Save the steps a replay found before the time limit stopped it (``stop``, a
    HintsStopped), with a note under the last one saying so; nothing when it found none.
    ``write(steps, note=…)`` makes the hints book."""
    from ..hints.words import say

    if stop.steps:
        note = say(lang, "hints_stopped", n=len(stop.steps), limit=time_limit)
        save_book(write(stop.steps, note=note), output, [source])
        stop.written = str(output)


def sheet_title(book: Book, found: SheetPuzzle) -> str:
    """The puzzle's title as its sheet shows it (the template's title cell), else ""."""
    from ..workbook.template import title_text

    return title_text(book.sheet(found.sheet))


def _one(found: list[SheetPuzzle], area: str) -> SheetPuzzle:
    """The one puzzle a range without a sheet picks (on a worksheet make wrote, the one
    of its Puzzle sheet, as without a range); WorkbookError naming several."""
    on_puzzle_sheet = [p for p in found if p.sheet == PUZZLE_SHEET]
    if len(found) > 1 and len(on_puzzle_sheet) == 1:
        return on_puzzle_sheet[0]
    if len(found) > 1:
        others = ", ".join(p.where for p in found[1:])
        raise WorkbookError(
            f"--range {area} holds several puzzles: pick one with --range {found[0].where} "
            f"(or {others})"
        )
    return found[0]


def puzzle_sheet(book: Book, name: str | None = None) -> SheetPuzzle:
    """The puzzle to work on: the named sheet's, else the Puzzle sheet's, else the first
    sheet's with clues. A sheet holding several puzzles is refused, naming them (a
    :class:`SeveralPuzzles`), chosen or not, and so are puzzles on several sheets when
    none is chosen: the first of them was taken unsaid.

    Cells painted on the grid are read as givens (printed hints). A name that is a
    range (``Two!A1:P20``, as ``--range`` gives it) picks the puzzle in that range.
    """
    if name is not None and name not in {s.name for s in book.sheets()}:
        from ..workbook.address import A1_RANGE, parse_range

        if "!" in name or (":" in name and A1_RANGE.match(name.strip())):
            try:
                sheet, area = parse_range(name)
                if sheet is None:  # B3:P17: the puzzle in that range of any sheet, as solve
                    return _one(find_puzzles(book, givens=True, area=area), name)
                return read_puzzle(book.sheet(sheet), book, givens=True, area=area)
            except (KeyError, ValueError) as exc:
                raise WorkbookError(str(exc.args[0])) from None
    if name is not None:
        try:
            return read_puzzle(book.sheet(name), book, givens=True)
        except KeyError as exc:
            raise WorkbookError(str(exc.args[0])) from None
    if any(s.name == PUZZLE_SHEET for s in book.sheets()):
        return read_puzzle(book.sheet(PUZZLE_SHEET), book, givens=True)
    found = find_puzzles(book, givens=True)
    ours = (KEY_SHEET, VERDICT_SHEET)  # make's answer key and verdict beside the puzzle
    found = [p for p in found if p.sheet not in ours] or found
    if len(found) > 1:  # the first was taken unsaid, of one sheet or of several
        first = [p for p in found if p.sheet == found[0].sheet]
        raise several_puzzles(first if len(first) > 1 else found)
    return found[0]

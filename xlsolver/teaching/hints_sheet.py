"""The hints workbook: every step with its rule and reason, the order cells are found in,
and optionally one sheet per stage.

Glossary
    step table  one row per step: number, line, rule, cells (``■R4C3`` black,
                ``×R4C7`` white, 1-based), reason in plain words
    stage       a run of consecutive steps shown on its own grid
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import numpy as np

from ..hints.words import line_words, reason, rule_name, say
from ..nonogram.cells import is_black
from ..nonogram.puzzle import Puzzle
from ..nonogram.result import Step
from ..sheets.openpyxl_sheet import XlsxBook, new_book
from ..sheets.protocol import BLACK_STYLE, HIGHLIGHT_STYLE, WHITE_STYLE, CellFormat, LayoutSheet
from ..workbook.files import open_book
from ..workbook.template import TemplateLayout, write_template
from .worksheet import grid_cell

HEADER_ROW = 3
HEADER_KEYS = ("head_number", "head_line", "head_rule", "head_cells", "head_reason")
COLUMN_WIDTHS = {1: 6, 2: 12, 3: 16, 4: 34, 5: 64}  # characters; one landscape page wide
WRAPPED = (4, 5)  # long cell lists and reasons wrap inside their columns
TOP, TOP_WRAPPED = CellFormat(vertical="top"), CellFormat(vertical="top", wrap=True)
LINE_HEIGHT = 14.0  # points per line of 11-point text
FILL_FACTOR = 0.9  # a wrapped line holds about this share of the column's width in text
# Advance widths of Calibri (Carlito in LibreOffice: the same metrics) in units of its
# digit width, which is what a column width counts; a character not listed counts 1, a
# wide (CJK) one 2, the black square of a cell code (from a fallback font) 1.5.
_WIDTHS = {
    **dict.fromkeys(" 'Iijl", 0.46),
    **dict.fromkeys(".,:;!`", 0.52),
    **dict.fromkeys('()[]{}-frt"', 0.64),
    **dict.fromkeys("/\\Jsz", 0.78),
    **dict.fromkeys("cvxyFSZk?|", 0.9),
    **dict.fromkeys("E*_Tgaeo", 0.98),
    **dict.fromkeys("KBRhnpqubdXYVP", 1.06),
    **dict.fromkeys("ACDGHNOQU", 1.22),
    **dict.fromkeys("&%w", 1.45),
    **dict.fromkeys("mMW", 1.68),
    "@": 1.8,
    "■": 1.5,
}


def text_width(text: str) -> float:
    """The width of a text in digit widths (the unit of a column's width)."""
    return sum(
        _WIDTHS.get(ch, 2.0 if unicodedata.east_asian_width(ch) in "WF" else 1.0) for ch in text
    )


def row_height(row: list) -> float:
    """The height of a step's row: enough lines for its wrapped columns."""
    return LINE_HEIGHT * max(text_lines(str(row[c - 1]), COLUMN_WIDTHS[c]) for c in WRAPPED)


def text_lines(text: str, width: float) -> int:
    """How many lines ``text`` takes when wrapped in a column ``width`` characters wide.

    Spreadsheets do not grow a row for wrapped text when they open a file (LibreOffice
    keeps the default height), so the rows are given their height when written. Words
    wrap at spaces and are measured by :func:`text_width`; a longer word is cut.
    """
    room = max(1.0, width * FILL_FACTOR)
    space = _WIDTHS[" "]
    lines, used = 1, 0.0
    for word in text.split(" "):
        size = text_width(word)
        if used and used + space + size > room:
            lines, used = lines + 1, 0.0
        if size > room:  # a long word (or a sentence without spaces) is cut into pieces
            extra, used = divmod(size, room)
            lines += int(extra) - (1 if used == 0 else 0)
            used = used or room
        else:
            used += size + (space if used else 0)
    return lines


BLACK_MARK, WHITE_MARK = "■", "×"
CELL_TOKEN = re.compile(r"([■×])R(\d+)C(\d+)")


def cells_code(step: Step) -> str:
    """A step's cells as ``■R4C3 ×R4C7`` (1-based)."""
    return " ".join(
        f"{BLACK_MARK if is_black(s) else WHITE_MARK}R{r + 1}C{c + 1}" for r, c, s in step.cells
    )


def where_words(step: Step, lang: str) -> str:
    """The line of a step, or the cell a probe or guess tried."""
    if step.line is not None:
        return line_words(step.line, lang)
    if step.cell is not None:
        r, c = step.cell
        return say(lang, "cell_at", r=r + 1, c=c + 1)
    return ""


def _steps_sheet(
    book: XlsxBook, puzzle: Puzzle, steps: list[Step], lang: str, title: str, note: str | None
):
    """The step table of a black-and-white puzzle (:func:`write_steps_table`)."""
    rows = [
        [
            n,
            where_words(step, lang),
            rule_name(step.rule, lang),
            cells_code(step),
            reason(step, puzzle, lang),
        ]
        for n, step in enumerate(steps, 1)
    ]
    write_steps_table(book, rows, lang, title, note=note)


def write_steps_table(
    book: XlsxBook,
    rows: list[list],
    lang: str,
    title: str,
    *,
    freeze: bool = True,
    note: str | None = None,
) -> None:
    """The step table on the first sheet (rows: number, line, rule, cells, reason),
    printed one page wide (landscape) with its header on every page; ``freeze`` keeps
    the header in view on screen; ``note`` (bold) goes below the last step."""
    sheet = book.sheets()[0]
    sheet.ws.title = say(lang, "sheet_steps")
    sheet.write_values((1, 1), [[say(lang, "title_steps", title=title)]])
    sheet.format_cells([(1, 1)], CellFormat(bold=True, font_size=14))
    sheet.write_values((HEADER_ROW, 1), [[say(lang, key) for key in HEADER_KEYS]])
    sheet.format_cells([(HEADER_ROW, c) for c in range(1, 6)], CellFormat(bold=True, bottom="thin"))
    sheet.write_values((HEADER_ROW + 1, 1), rows)
    last = HEADER_ROW + max(len(rows), 1)
    if note:
        last += 1
        sheet.write_values((last, 1), [[note]])
        sheet.format_cells([(last, 1)], CellFormat(bold=True))
    body = range(HEADER_ROW + 1, last + 1)
    sheet.format_cells([(r, c) for r in body for c in (1, 2, 3)], TOP)
    sheet.format_cells([(r, c) for r in body for c in WRAPPED], TOP_WRAPPED)
    sheet.set_column_widths(COLUMN_WIDTHS)
    sheet.set_row_heights({HEADER_ROW + i: row_height(row) for i, row in enumerate(rows, 1)})
    if freeze:
        sheet.ws.freeze_panes = f"A{HEADER_ROW + 1}"
    sheet.set_print_setup(
        (1, 1, last, 5),
        fit_to_page=False,
        fit_width=True,
        landscape=True,
        repeat_rows=(HEADER_ROW, HEADER_ROW),
    )


def add_grid_sheets(
    book: XlsxBook,
    steps: list[Step],
    lang: str,
    title: str,
    stages: int,
    write_grid: Callable[[LayoutSheet, str], TemplateLayout],
    paint: Callable[[LayoutSheet, TemplateLayout, int, range, bool], None],
) -> None:
    """The order grid (every step's number) and ``stages`` stage sheets of a hints book.

    ``write_grid(sheet, title)`` lays out the puzzle's template; ``paint(sheet, layout,
    upto, new, highlight)`` paints the cells of steps up to ``upto``, numbering ``new``.
    """
    sheet = book.add_sheet(say(lang, "sheet_order"))
    layout = write_grid(sheet, say(lang, "title_order", title=title))
    paint(sheet, layout, len(steps), range(1, len(steps) + 1), False)
    if stages > 0 and steps:
        bounds = np.linspace(0, len(steps), min(stages, len(steps)) + 1).round().astype(int)
        for k, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False), 1):
            sheet = book.add_sheet(say(lang, "sheet_stage", n=k))
            layout = write_grid(sheet, say(lang, "title_stage", title=title, first=a + 1, last=b))
            paint(sheet, layout, int(b), range(a + 1, b + 1), True)


def step_numbers(puzzle: Puzzle, steps: list[Step]) -> np.ndarray:
    """For every cell, the number (from 1) of the step that found it."""
    order = np.zeros((puzzle.height, puzzle.width), dtype=np.int32)
    for n, step in enumerate(steps, 1):
        for r, c, _ in step.cells:
            if not order[r, c]:
                order[r, c] = n
    return order


def _paint_grid(
    sheet, layout, steps: list[Step], numbers: np.ndarray, new: set[int], highlight: bool
) -> None:
    """Paint the cells of some steps; ``new`` ones show their step numbers (white ones
    highlighted when asked, otherwise left plain so the numbers read well)."""
    black, white, fresh = [], [], []
    for n, step in enumerate(steps, 1):
        for r, c, s in step.cells:
            cell = grid_cell(layout, r, c)
            (black if is_black(s) else white).append(cell)
            if n in new:
                fresh.append(cell)
                sheet.write_values(cell, [[int(numbers[r, c])]])
    sheet.paint(black, BLACK_STYLE)
    sheet.paint([c for c in white if c not in set(fresh)], WHITE_STYLE)
    if highlight:
        sheet.paint([c for c in fresh if c in set(white)], HIGHLIGHT_STYLE)
    small = CellFormat(horizontal="center", vertical="center", font_size=7, shrink=True)
    sheet.format_cells(fresh, small)


def write_hints(
    puzzle: Puzzle,
    steps: list[Step],
    *,
    lang: str = "en",
    title: str = "",
    stages: int = 0,
    note: str | None = None,
) -> XlsxBook:
    """A workbook: the step table, the order grid (step numbers), and ``stages`` stage sheets
    (``note`` below the steps: why they stop short of the solution)."""
    title = title or puzzle.title or "Puzzle"
    book = new_book()
    _steps_sheet(book, puzzle, steps, lang, title, note)
    numbers = step_numbers(puzzle, steps)

    def grid(sheet: LayoutSheet, grid_title: str) -> TemplateLayout:
        return write_template(sheet, puzzle, title=grid_title)

    def paint(sheet: LayoutSheet, layout: TemplateLayout, upto: int, new, highlight: bool):
        _paint_grid(sheet, layout, steps[:upto], numbers, set(new), highlight)

    add_grid_sheets(book, steps, lang, title, stages, grid, paint)
    return book


def read_hint_steps(path) -> list[list[tuple[int, int, bool]]]:
    """The steps of a hints workbook (its first sheet, in any language): per step, its
    cells as (row, col, black), from 0."""
    book = open_book(path, read_only=True)
    sheet = book.sheets()[0]
    used = sheet.used_range()
    out = []
    for row in sheet.read_values((HEADER_ROW + 1, 1, used[2], 5)):
        if not isinstance(row[0], int):
            continue
        cells = [
            (int(r) - 1, int(c) - 1, mark == BLACK_MARK)
            for mark, r, c in CELL_TOKEN.findall(str(row[3] or ""))
        ]
        out.append(cells)
    return out

"""The one sheet protocol every spreadsheet back end implements.

openpyxl (headless files), xlwings (Excel) and UNO (LibreOffice Calc) each provide a
:class:`Book` of :class:`Sheet` objects; layout detection, painting and the commands
are written once above this protocol and never touch a back end directly.

Coordinates are 1-based ``(row, col)`` as a spreadsheet counts; a rectangle is
``(top, left, bottom, right)``, inclusive.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

Rect = tuple[int, int, int, int]
Cell = tuple[int, int]
T = TypeVar("T")


def bounds(rects: Iterable[Rect]) -> Rect:
    """The smallest rectangle holding all of them (at least one)."""
    top, left, bottom, right = zip(*rects, strict=True)
    return (min(top), min(left), max(bottom), max(right))


def side_by_side(cells: Iterable[Cell]) -> list[set[Cell]]:
    """The cells in blocks whose cells touch side by side (not corner to corner)."""
    left = set(cells)
    out = []
    while left:
        block, todo = set(), [left.pop()]
        while todo:
            r, c = cell = todo.pop()
            block.add(cell)
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in left:
                    left.remove(near)
                    todo.append(near)
        out.append(block)
    return out


def holds(rect: Rect, cell: Cell) -> bool:
    """True when the cell lies within the rectangle (edges included)."""
    return rect[0] <= cell[0] <= rect[2] and rect[1] <= cell[1] <= rect[3]


def blank_covered(
    values: list[list[object]], rect: Rect, merges: Iterable[Rect]
) -> list[list[object]]:
    """``values`` of a rectangle with the cells a merge covers made empty: only a merge's
    top-left cell shows. (LibreOffice keeps what a covered cell held; openpyxl drops it.)"""
    top, left, bottom, right = rect
    for m_top, m_left, m_bottom, m_right in merges:
        for r in range(max(m_top, top), min(m_bottom, bottom) + 1):
            row = values[r - top]
            for c in range(max(m_left, left), min(m_right, right) + 1):
                if (r, c) != (m_top, m_left):
                    row[c - left] = None
    return values


def column_letter(col: int) -> str:
    """1 → ``A``, 28 → ``AB``."""
    letters = ""
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


@dataclass(frozen=True)
class Style:
    """How one painted cell looks. Colours are ``#RRGGBB``; ``None`` leaves it as it is."""

    name: str
    fill: str | None = None
    diagonals: bool = False  # both diagonals, hairline
    diagonal_color: str = "#808080"
    font_color: str | None = None
    bold: bool = False


# The style table of CONVENTIONS §4, shared by every back end.
BLACK_STYLE = Style("black", fill="#808080")
WHITE_STYLE = Style("white", fill="#FFFFFF", diagonals=True)
DISCREPANCY_STYLE = Style("discrepancy", fill="#FF0000")
# a white mark (crossed) flagged red: the cross stays, so the cell still reads as white
CROSSED_DISCREPANCY_STYLE = Style("discrepancy-crossed", fill="#FF0000", diagonals=True)
ANSWER_STYLE = Style("answer", fill="#000000")  # answer keys: black
ANSWER_WHITE_STYLE = Style("answer-white", fill="#FFFFFF")
HIGHLIGHT_STYLE = Style("highlight", fill="#FFD966")  # undecided / differing cells
WRONG_STYLE = Style("wrong", fill="#FF9999", diagonals=False)  # grading marks
BAD_CLUE_STYLE = Style("bad-clue", fill="#FFC7CE", font_color="#9C0006")  # live clue checks
STYLES = {
    s.name: s
    for s in (
        BLACK_STYLE,
        WHITE_STYLE,
        DISCREPANCY_STYLE,
        CROSSED_DISCREPANCY_STYLE,
        ANSWER_STYLE,
        ANSWER_WHITE_STYLE,
        HIGHLIGHT_STYLE,
        WRONG_STYLE,
    )
}


@dataclass(frozen=True)
class CellFormat:
    """Borders, alignment and font for laying out a template; ``None`` keeps what is there.

    Border sides are style names as Excel knows them: ``"thin"``, ``"medium"``, ``"thick"``.
    """

    left: str | None = None
    right: str | None = None
    top: str | None = None
    bottom: str | None = None
    border_color: str = "#000000"
    horizontal: str | None = None  # "left", "center", "right"
    vertical: str | None = None  # "top", "center", "bottom"
    wrap: bool = False
    shrink: bool = False
    font_size: float | None = None
    bold: bool = False
    number_format: str | None = None


TOP, BOTTOM, LEFT, RIGHT = 1, 2, 4, 8  # border sides of a cell, as bits
ALL_SIDES = TOP | BOTTOM | LEFT | RIGHT
GENERAL = "General"  # the number format of a cell nobody formatted
AUTOMATIC_FONT = "#000000"  # black text reads as automatic (None) in every back end


# What a cell shows for a formula that failed (Excel's and Calc's error values).
ERROR_VALUES = frozenset(
    {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#SPILL!", "#CALC!"}
    | {"#GETTING_DATA"}
)


def is_error_value(value: object) -> bool:
    """True for a cell value that is an error value (``#N/A``, ``#DIV/0!``)."""
    return isinstance(value, str) and value.strip() in ERROR_VALUES


def font_colour(color: str | None) -> str | None:
    """A font colour as the protocol gives it: ``None`` for automatic or black."""
    return None if color is None or color.upper() == AUTOMATIC_FONT else color.upper()


@runtime_checkable
class Sheet(Protocol):
    """One worksheet of an open workbook.

    Every back end implements every method; :class:`SheetBase` holds the ones written
    once over the others (``read_borders``) and the defaults of optional reads.
    """

    @property
    def name(self) -> str:
        """The sheet's name as the user sees it."""

    def hidden(self) -> bool:
        """True for a sheet the workbook hides from the user (a helper sheet)."""

    def used_range(self) -> Rect | None:
        """The rectangle holding every value or fill, ``None`` for an empty sheet."""

    def read_values(self, rect: Rect) -> list[list[object]]:
        """Cell values of a rectangle, row by row (``None`` for empty cells and for the
        cells a merge covers: only its top-left cell shows a value).

        A formula cell gives the value the spreadsheet computed (or saved, for a file),
        ``""`` when that is empty text (``=IF(A1>0,A1,"")``); ``None`` when a file holds
        the formula without a saved value.
        """

    def read_formulas(self, rect: Rect) -> list[list[str | None]]:
        """The formula of each cell (``=5*1``, Excel's syntax), ``None`` where it holds none."""

    def read_fills(self, rect: Rect) -> list[list[str | None]]:
        """Solid fill colours (``#RRGGBB``) of a rectangle, ``None`` where unfilled."""

    def read_font_colours(self, rect: Rect) -> list[list[str | None]]:
        """Font colours (``#RRGGBB``), ``None`` where automatic (black on white)."""

    def read_number_formats(self, rect: Rect) -> list[list[str]]:
        """Number format codes (``General``, ``0.0``, ``m/d``) of a rectangle."""

    def shows_zeros(self) -> bool:
        """False when the sheet shows zero values as blank cells (Excel's "Show a zero in
        cells that have zero value" off for the sheet, Calc's View ▸ Zero values off)."""

    def read_border_sides(self, rect: Rect) -> list[list[int]]:
        """Per cell, the sides its own format draws: ``TOP | BOTTOM | LEFT | RIGHT`` bits."""

    def read_heavy_sides(self, rect: Rect) -> list[list[int]]:
        """Per cell, the sides its own format draws with a heavy line (medium, thick or
        double: a board's outline on graph paper), as ``read_border_sides`` bits."""

    def read_seen_sides(self, rect: Rect) -> list[list[int]]:
        """Per cell, the sides it shows: drawn by the cell itself or by its neighbour
        across that side (see :func:`seen_sides`)."""

    def read_borders(self, rect: Rect) -> list[list[bool]]:
        """True where a cell is boxed: a line on all four sides (see :meth:`read_seen_sides`)."""

    def read_diagonals(self, rect: Rect) -> list[list[bool]]:
        """True where a cell shows both diagonals (a crossed white cell)."""

    def merged_ranges(self) -> list[Rect]:
        """The merged rectangles of the sheet."""

    def paint(self, cells: Iterable[Cell], style: Style) -> None:
        """Paint cells with a style, keeping their values and other borders."""

    def unpaint(self, cells: Iterable[Cell]) -> None:
        """Remove fill and diagonals from cells (the Clear action), keeping other borders."""

    def write_values(self, top_left: Cell, values: Sequence[Sequence[object]]) -> None:
        """Write a block of values starting at a cell."""

    def clear_range(self, rect: Rect) -> None:
        """Remove values, formats, notes and merges from a rectangle (New grid)."""

    def read_notes(self, rect: Rect) -> dict[Cell, str]:
        """The cell notes (comments) inside a rectangle."""

    def set_note(self, cell: Cell, text: str | None) -> None:
        """Put a note on a cell (``None`` removes it)."""


LITERAL_ANYWAY = frozenset("-/ :.,()")  # shown as themselves with or without a backslash


def plain_format(code: str) -> str:
    """A number format code without the backslashes that change nothing (``yyyy\\-mm``
    → ``yyyy-mm``), as LibreOffice writes codes Excel and openpyxl write plain."""
    out, quoted, escaped = [], False, False
    for i, ch in enumerate(code):
        if escaped:
            escaped = False
        elif ch == '"':
            quoted = not quoted
        elif ch == "\\" and not quoted and code[i + 1 : i + 2] in LITERAL_ANYWAY:
            escaped = True
            continue
        out.append(ch)
    return "".join(out)


SERIAL_EPOCH = datetime.datetime(1899, 12, 30)  # day 0 of spreadsheet date serials
MS_PER_DAY = 86_400_000
FAKE_LEAP_DAY = 60  # serials below it count from a day later (1900 was not a leap year)


def from_serial(serial: float) -> datetime.datetime | datetime.time:
    """A date serial as openpyxl reads a date-formatted cell: a datetime, or a time of
    day for a serial below 1 (so every back end gives the finder the same value)."""
    day, fraction = divmod(serial, 1)
    diff = datetime.timedelta(milliseconds=round(fraction * MS_PER_DAY))
    if 0 <= serial < 1 and diff.days == 0:
        return (datetime.datetime.min + diff).time()
    if 0 < serial < FAKE_LEAP_DAY:
        day += 1
    return SERIAL_EPOCH + datetime.timedelta(days=day) + diff


def seen_sides(sides: list[list[int]]) -> list[list[int]]:
    """The sides each inner cell of a side grid shows: ``TOP | BOTTOM | LEFT | RIGHT``.

    ``sides`` covers the rectangle asked about plus one cell on every side (the
    neighbours, 0 beyond the sheet's edge); a side counts when the cell draws it or the
    neighbour across it draws the facing side, as every spreadsheet shows it.
    """
    out = []
    for i in range(1, len(sides) - 1):
        row = []
        for j in range(1, len(sides[0]) - 1):
            seen = sides[i][j]
            seen |= TOP if sides[i - 1][j] & BOTTOM else 0
            seen |= BOTTOM if sides[i + 1][j] & TOP else 0
            seen |= LEFT if sides[i][j - 1] & RIGHT else 0
            seen |= RIGHT if sides[i][j + 1] & LEFT else 0
            row.append(seen)
        out.append(row)
    return out


class SheetBase:
    """What every back end shares: ``read_borders`` written once over
    ``read_border_sides``, and the defaults of reads a back end may not support."""

    def read_border_sides(self, rect: Rect) -> list[list[int]]:
        """No borders known (a back end that can read them overrides this)."""
        return _filled(rect, 0)

    def read_heavy_sides(self, rect: Rect) -> list[list[int]]:
        """No heavy lines known (a back end that can read weights overrides this)."""
        return _filled(rect, 0)

    def read_seen_sides(self, rect: Rect) -> list[list[int]]:
        """The sides each cell shows, drawn by itself or by its neighbour across them."""
        top, left, bottom, right = rect
        outer = (max(1, top - 1), max(1, left - 1), bottom + 1, right + 1)
        sides = self.read_border_sides(outer)
        if top == 1:
            sides = [[0] * len(sides[0]), *sides]
        if left == 1:
            sides = [[0, *row] for row in sides]
        return seen_sides(sides)

    def read_borders(self, rect: Rect) -> list[list[bool]]:
        """True where a cell is boxed (its own sides and its neighbours' facing sides)."""
        return [[seen == ALL_SIDES for seen in row] for row in self.read_seen_sides(rect)]

    def read_formulas(self, rect: Rect) -> list[list[str | None]]:
        """No formulas known."""
        return _filled(rect, None)

    def read_font_colours(self, rect: Rect) -> list[list[str | None]]:
        """Automatic font colour everywhere."""
        return _filled(rect, None)

    def read_number_formats(self, rect: Rect) -> list[list[str]]:
        """``General`` everywhere."""
        return _filled(rect, GENERAL)

    def shows_zeros(self) -> bool:
        """Zero values shown, as every spreadsheet program starts."""
        return True


def _filled(rect: Rect, value: T) -> list[list[T]]:
    """A rectangle's worth of one value, row by row."""
    top, left, bottom, right = rect
    return [[value] * (right - left + 1) for _ in range(top, bottom + 1)]


@runtime_checkable
class Book(Protocol):
    """An open workbook."""

    def sheets(self) -> list[Sheet]:
        """All worksheets in order."""

    def sheet(self, name: str) -> Sheet:
        """The worksheet of that name (KeyError naming it when absent)."""

    def defined_names(self) -> dict[str, tuple[str, Rect]]:
        """Workbook-level defined names that refer to one rectangle: name → (sheet, rect)."""

    def progress(self, fraction: float | None, message: str) -> None:
        """Show progress (a status bar, a terminal bar); ``fraction=None`` clears it."""


@runtime_checkable
class LayoutSheet(Sheet, Protocol):
    """A sheet a template can be laid out on (``xlsolver new``, ``convert``, ``make``)."""

    def format_cells(self, cells: Iterable[Cell], fmt: CellFormat) -> None:
        """Set borders, alignment and font of cells (sides left ``None`` are kept)."""

    def set_column_widths(self, widths: dict[int, float]) -> None:
        """Column widths in characters as Excel shows them (its Column Width box), by
        1-based column number; :mod:`xlsolver.sheets.paper` turns them into each
        program's own unit."""

    def set_row_heights(self, heights: dict[int, float]) -> None:
        """Row heights in points, by 1-based row number."""

    def merge(self, rect: Rect) -> None:
        """Merge a rectangle of cells."""

    def set_print_setup(self, area: Rect, *, fit_to_page: bool = True) -> None:
        """Set the print area and fit it to one printed page."""

    def write_formula(self, cell: Cell, formula: str) -> None:
        """Write a formula into a cell: ``=SUM($A$5:$E$9)``, Excel's English syntax
        (comma separators), which every back end translates to its own."""

    def set_conditional_format(self, rect: Rect, formula: str, style: Style) -> bool:
        """Show ``style`` (its fill and font colour) on the cells where ``formula`` is true.

        The formula (Excel syntax, no leading ``=``) is written for the rectangle's
        top-left cell; relative references move with each cell. Replaces the conditional
        formats the rectangle had. False when the back end cannot add one here.
        """

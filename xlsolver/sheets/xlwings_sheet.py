"""The xlwings back end of the sheet protocol: a workbook open in Microsoft Excel.

xlwings drives Excel on Windows and macOS only; on Linux it installs but has no engine
(CONVENTIONS §7), so this module is exercised there through a recording double of the
few xlwings objects it uses (tests/fakes/). Only the open-source xlwings API is used:
``Range.value``, ``Range.color``, ``Range.borders`` (cross-platform since 0.37.1),
``Range.note``/``add_note``, ``App.status_bar``.

Glossary
    XwBook   an ``xlwings.Book`` behind the book protocol
    XwSheet  an ``xlwings.Sheet`` behind the sheet protocol
    areas    a multi-area address (``"B3:D3,F3"``): many cells painted with one call

Long by design (the whole protocol over one library): xlwings is called only here.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Iterable, Sequence

from .errors import WorkbookError, locked_message
from .protocol import (
    ALL_SIDES,
    BOTTOM,
    GENERAL,
    LEFT,
    RIGHT,
    SERIAL_EPOCH,
    TOP,
    Cell,
    CellFormat,
    Rect,
    SheetBase,
    Style,
    column_letter,
    font_colour,
    plain_format,
)

DIAGONALS = ["diagonal_down", "diagonal_up"]
SIDES = {"left": "edge_left", "right": "edge_right", "top": "edge_top", "bottom": "edge_bottom"}
EDGE_BITS = (("edge_top", TOP), ("edge_bottom", BOTTOM), ("edge_left", LEFT), ("edge_right", RIGHT))
NO_LINES = (None, "none")
HEAVY_WEIGHTS = ("medium", "thick")
WEIGHTS = {"hair": "hairline", "thin": "thin", "medium": "medium", "thick": "thick"}
LINE, HAIR = "continuous", "hairline"
MAX_ADDRESS = 250  # Excel refuses a multi-area address longer than 255 characters
XL_EXPRESSION = 2  # Excel's XlFormatConditionType.xlExpression


def com() -> bool:
    """True where xlwings' ``.api`` objects are Excel's COM objects (Windows)."""
    return sys.platform == "win32"


def rect_address(rect: Rect) -> str:
    """``(3, 2, 3, 4)`` → ``B3:D3`` (one cell → ``B3``)."""
    top, left, bottom, right = rect
    first = f"{column_letter(left)}{top}"
    return first if (top, left) == (bottom, right) else f"{first}:{column_letter(right)}{bottom}"


def areas(cells: Iterable[Cell]) -> list[str]:
    """Multi-area addresses covering the cells, runs along a row joined, each ≤ 250 chars."""
    runs: list[Rect] = []
    for r, c in sorted(set(cells)):
        if runs and runs[-1][0] == r and runs[-1][3] == c - 1:
            runs[-1] = (r, runs[-1][1], r, c)
        else:
            runs.append((r, c, r, c))
    out: list[str] = []
    current = ""
    for run in runs:
        part = rect_address(run)
        if current and len(current) + 1 + len(part) > MAX_ADDRESS:
            out.append(current)
            current = part
        else:
            current = f"{current},{part}" if current else part
    if current:
        out.append(current)
    return out


def hex_of(color: object) -> str | None:
    """An xlwings colour (``(r, g, b)`` or ``None``) → ``#RRGGBB``."""
    if color is None:
        return None
    if isinstance(color, str):
        return "#" + color.lstrip("#").upper()
    r, g, b = color
    return f"#{r:02X}{g:02X}{b:02X}"


def bgr(color: str) -> int:
    """``#RRGGBB`` → the integer Excel's COM objects take (blue in the high byte)."""
    r, g, b = (int(color.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    return r | g << 8 | b << 16


def _plain(value: object) -> object:
    """A value as openpyxl would give it: whole floats become ints, a time of day that
    Excel hands over as a date on day 0 (1899-12-30) becomes a ``time``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, datetime.datetime) and value.date() == SERIAL_EPOCH.date():
        return value.time()
    return value


def _format_of(rng) -> str | None:
    """A range's common number format without needless escapes, ``None`` when mixed."""
    code = rng.number_format
    return None if code is None else plain_format(code)


class XwSheet(SheetBase):
    """One Excel worksheet behind the sheet protocol (and the layout protocol)."""

    def __init__(self, book: XwBook, sheet):
        self.book = book
        self.sheet = sheet

    @property
    def name(self) -> str:
        """The sheet's name as the user sees it."""
        return self.sheet.name

    def hidden(self) -> bool:
        """True for a sheet Excel hides (Format ▸ Hide & Unhide ▸ Hide Sheet)."""
        return not self.sheet.visible

    def _range(self, rect: Rect):
        """The xlwings Range of a 1-based rectangle."""
        top, left, bottom, right = rect
        return self.sheet.range((top, left), (bottom, right))

    def used_range(self) -> Rect | None:
        """The rectangle Excel reports as used, ``None`` for an empty sheet."""
        used = self.sheet.used_range
        rows, cols = used.shape
        rect = (used.row, used.column, used.row + rows - 1, used.column + cols - 1)
        if rect[2:] == rect[:2] and used.value is None and used.color is None:
            return None
        return rect

    def read_values(self, rect: Rect) -> list[list[object]]:
        """Cell values of a rectangle, row by row (``None`` for empty cells and for the
        cells a merge covers, which a file written by LibreOffice may still fill; a failed
        formula's error as text, ``#DIV/0!``, as a file keeps it)."""
        read = self._range(rect).options(ndim=2, err_to_str=True)  # #N/A as the cell shows it
        values = [[_plain(v) for v in row] for row in read.value]
        if any(v is not None for row in values for v in row):
            self._blank_covered(rect, values)
        if any(v is None for row in values for v in row):
            self._empty_results(rect, values)
        return values

    def _empty_results(self, rect: Rect, values: list[list[object]]) -> None:
        """``""`` for formulas whose result is empty text: xlwings gives None for them as
        for empty cells (on Windows), and Excel always has a formula's result."""
        for i, row in enumerate(self.read_formulas(rect)):
            for j, formula in enumerate(row):
                if formula is not None and values[i][j] is None:
                    values[i][j] = ""

    def _blank_covered(self, rect: Rect, values: list[list[object]]) -> None:
        """Empty the values of cells a merge covers: one call for the rectangle and one
        per row holding a value when merges are there, one per such cell in a merged row."""
        top, left, bottom, right = rect
        if self._range(rect).merge_cells is False:
            return
        for i, row in enumerate(values):
            r = top + i
            if all(v is None for v in row) or self._range((r, left, r, right)).merge_cells is False:
                continue
            for j, v in enumerate(row):
                if v is not None:
                    area = self.sheet.range((r, left + j)).merge_area
                    if (area.row, area.column) != (r, left + j):
                        row[j] = None

    def read_fills(self, rect: Rect) -> list[list[str | None]]:
        """Fill colours of a rectangle; a uniform block is read with one call."""
        return self._blocks(rect, lambda rng: hex_of(rng.color), None)

    def read_font_colours(self, rect: Rect) -> list[list[str | None]]:
        """Font colours (``#RRGGBB``), ``None`` where automatic; uniform blocks in one call."""

        return self._blocks(rect, lambda rng: font_colour(hex_of(rng.font.color)), None)

    def read_number_formats(self, rect: Rect) -> list[list[str]]:
        """Number format codes of a rectangle; uniform blocks in one call."""
        return self._blocks(rect, lambda rng: _format_of(rng), GENERAL)

    def shows_zeros(self) -> bool:
        """False when Excel shows the sheet's zeros as blank cells (File ▸ Options ▸
        Advanced ▸ "Show a zero in cells that have zero value" off for it), read through
        COM (Windows: ``Window.SheetViews(name).DisplayZeros``); True where it cannot be."""
        if not com():
            return True
        try:
            window = self.sheet.book.api.Windows(1)
            return window.SheetViews(self.sheet.name).DisplayZeros is not False
        except Exception:  # no window (a hidden workbook), or Excel before 2010
            return True

    def read_formulas(self, rect: Rect) -> list[list[str | None]]:
        """The formula of each cell (``Range.formula`` of the whole rectangle, one call)."""
        top, left, bottom, right = rect
        got = self._range(rect).formula
        if not isinstance(got, (list, tuple)):
            got = [[got]]
        elif got and not isinstance(got[0], (list, tuple)):
            got = [got] if top == bottom else [[v] for v in got]
        return [
            [v if isinstance(v, str) and v.startswith("=") else None for v in row] for row in got
        ]

    def read_border_sides(self, rect: Rect) -> list[list[int]]:
        """The sides each cell shows, uniform blocks in one call (``Range.borders``).

        Needs xlwings 0.37.1 or later (``Range.borders``); with an older xlwings, or an
        engine without borders, no border is known and the layout keeps to the clues'
        extent (it never paints beyond the cells its clues reach).
        """
        try:
            return self._blocks(rect, self._sides, 0)
        except (AttributeError, NotImplementedError):
            return super().read_border_sides(rect)

    def read_heavy_sides(self, rect: Rect) -> list[list[int]]:
        """The sides each cell draws with a medium, thick or double line, cell by cell
        (``Border.weight``, xlwings 0.37.1 and later; none known before)."""
        try:
            return self._blocks(rect, self._heavy, 0)
        except (AttributeError, NotImplementedError):
            return super().read_heavy_sides(rect)

    @staticmethod
    def _heavy(rng) -> int | None:
        """The sides a one-cell range draws heavy; ``None`` for a larger range (split)."""
        if rng.shape != (1, 1):
            return None
        borders = rng.borders
        return sum(
            bit
            for side, bit in EDGE_BITS
            if borders[side].line_style not in NO_LINES
            and (borders[side].weight in HEAVY_WEIGHTS or borders[side].line_style == "double")
        )

    @staticmethod
    def _sides(rng) -> int | None:
        """The sides every cell of a range shows, ``None`` when they differ."""
        borders = rng.borders
        if rng.shape != (1, 1):
            common = borders.line_style  # edges and inside lines; None when mixed
            if common is None:
                return None
            return 0 if common in NO_LINES else ALL_SIDES
        return sum(bit for side, bit in EDGE_BITS if borders[side].line_style not in NO_LINES)

    def _blocks(self, rect: Rect, read, default) -> list[list]:
        """``read`` of each cell of a rectangle, a uniform block with one call.

        ``read(range)`` gives the block's common value, or ``None`` when its cells
        differ; the block is then split in halves until it is one cell.
        """
        top, left, bottom, right = rect
        out = [[default] * (right - left + 1) for _ in range(top, bottom + 1)]
        self._read_block(rect, rect, out, read, default)
        return out

    def _read_block(self, whole: Rect, rect: Rect, out: list[list], read, default) -> None:
        """Read a block's common value, or split it in two and read the halves."""
        top, left, bottom, right = rect
        value = read(self._range(rect))
        single = top == bottom and left == right
        if value is not None or single:
            for r in range(top, bottom + 1):
                for c in range(left, right + 1):
                    out[r - whole[0]][c - whole[1]] = default if value is None else value
            return
        if bottom > top:
            mid = (top + bottom) // 2
            halves = [(top, left, mid, right), (mid + 1, left, bottom, right)]
        else:
            mid = (left + right) // 2
            halves = [(top, left, bottom, mid), (top, mid + 1, bottom, right)]
        for half in halves:
            self._read_block(whole, half, out, read, default)

    def read_diagonals(self, rect: Rect) -> list[list[bool]]:
        """True where a cell shows both diagonals (read cell by cell, as xlwings asks)."""
        top, left, bottom, right = rect
        out = []
        for r in range(top, bottom + 1):
            row = []
            for c in range(left, right + 1):
                borders = self.sheet.range((r, c)).borders
                row.append(all(borders[d].line_style not in (None, "none") for d in DIAGONALS))
            out.append(row)
        return out

    def merged_ranges(self) -> list[Rect]:
        """The merged rectangles inside the used range."""
        rect = self.used_range()
        if rect is None or self._range(rect).merge_cells is False:
            return []
        out = []
        top, left, bottom, right = rect
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                cell = self.sheet.range((r, c))
                if cell.merge_cells:
                    area = cell.merge_area
                    if (area.row, area.column) == (r, c):
                        rows, cols = area.shape
                        out.append((r, c, r + rows - 1, c + cols - 1))
        return out

    def check_unlocked(self, cells: list[Cell], *, template: bool = False) -> None:
        """WorkbookError naming the first locked cell when the sheet is protected (Excel
        for Windows, through COM: elsewhere Excel's own error stands).

        Excel refuses to format the locked cells of a protected sheet part way through a
        paint; checked first, nothing is painted and the message says what to do, as in
        Calc.
        """
        if not com() or not cells:
            return
        try:
            if not self.sheet.api.ProtectContents:
                return
            if template:  # New grid sets widths and styles: refused on any protected sheet
                raise WorkbookError(locked_message(self.name, min(cells), "Excel", template=True))
            for address in areas(cells):
                if self.sheet.range(address).api.Locked is False:
                    continue  # False: every cell unlocked; True or None (mixed): look
                for r, c in sorted(cells):
                    if self.sheet.range((r, c)).api.Locked:
                        raise WorkbookError(
                            locked_message(self.name, (r, c), "Excel", template=template)
                        )
        except WorkbookError:
            raise
        except Exception:  # no COM access: Excel's own error will tell
            return

    def paint(self, cells: Iterable[Cell], style: Style) -> None:
        """Paint cells with a style, a few hundred cells per Excel call (WorkbookError,
        nothing painted, when the sheet is protected and a cell is locked)."""
        cells = list(cells)
        self.check_unlocked(cells)
        for address in areas(cells):
            rng = self.sheet.range(address)
            if style.fill:
                rng.color = style.fill
            if style.diagonals:
                rng.borders.set(DIAGONALS, line_style=LINE, weight=HAIR, color=style.diagonal_color)
            else:
                rng.borders.clear(DIAGONALS)
            if style.font_color:
                rng.font.color = style.font_color
            if style.bold:
                rng.font.bold = True

    def unpaint(self, cells: Iterable[Cell]) -> None:
        """Remove fill and diagonals from cells, keeping their other borders."""
        cells = list(cells)
        self.check_unlocked(cells)
        for address in areas(cells):
            rng = self.sheet.range(address)
            rng.color = None
            rng.borders.clear(DIAGONALS)

    def write_values(self, top_left: Cell, values: Sequence[Sequence[object]]) -> None:
        """Write a block of values with one call."""
        rows = [list(row) for row in values]
        if not rows:
            return
        width = max(len(row) for row in rows)
        rows = [[_as_text(v) for v in row] + [None] * (width - len(row)) for row in rows]
        self.sheet.range(top_left).options(ndim=2).value = rows

    def clear_range(self, rect: Rect) -> None:
        """Remove values, formats and notes from a rectangle (New grid)."""
        rng = self._range(rect)
        rng.unmerge()
        rng.clear()

    # ---- notes (hint reasons) -------------------------------------------------------

    def read_notes(self, rect: Rect) -> dict[Cell, str]:
        """The cell notes inside a rectangle."""
        top, left, bottom, right = rect
        out = {}
        for note in self.sheet.notes:
            cell = note.location
            if top <= cell.row <= bottom and left <= cell.column <= right:
                out[(cell.row, cell.column)] = note.text
        return out

    def set_note(self, cell: Cell, text: str | None) -> None:
        """Put a note on a cell (``None`` removes it)."""
        rng = self.sheet.range(cell)
        if rng.note is not None:
            rng.note.delete()
        if text:
            rng.add_note(text)

    # ---- layout writing (template writer) -------------------------------------------

    def format_cells(self, cells: Iterable[Cell], fmt: CellFormat) -> None:
        """Set borders, alignment and font of cells (sides left ``None`` are kept)."""
        for address in areas(cells):
            rng = self.sheet.range(address)
            for side, name in SIDES.items():
                style = getattr(fmt, side)
                if style:
                    rng.borders.set(
                        name,
                        line_style="double" if style == "double" else "continuous",
                        weight=WEIGHTS.get(style, "thin"),
                        color=fmt.border_color,
                    )
            if fmt.horizontal:
                rng.horizontal_alignment = fmt.horizontal
            if fmt.vertical:
                rng.vertical_alignment = fmt.vertical
            if fmt.wrap:
                rng.wrap_text = True
            if fmt.font_size:
                rng.font.size = fmt.font_size
            if fmt.bold:
                rng.font.bold = True
            if fmt.number_format:
                rng.number_format = fmt.number_format

    def set_column_widths(self, widths: dict[int, float]) -> None:
        """Column widths in characters as Excel shows them (Excel's own ``ColumnWidth``),
        by 1-based column number."""
        for c, w in widths.items():
            self.sheet.range((1, c)).column_width = w

    def set_row_heights(self, heights: dict[int, float]) -> None:
        """Row heights in points, by 1-based row number."""
        for r, h in heights.items():
            self.sheet.range((r, 1)).row_height = h

    def merge(self, rect: Rect) -> None:
        """Merge a rectangle of cells."""
        self._range(rect).merge()

    def set_print_setup(
        self,
        area: Rect,
        *,
        fit_to_page: bool = True,
        fit_width: bool = False,
        landscape: bool | None = None,
        repeat_rows: tuple[int, int] | None = None,
        row_breaks: Sequence[int] = (),
    ) -> None:
        """Set the print area; xlwings' open API has no scaling, orientation or title
        rows, so Excel keeps its own for those."""
        top, left, bottom, right = area
        corners = f"${column_letter(left)}${top}:${column_letter(right)}${bottom}"
        self.sheet.page_setup.print_area = corners

    def write_formula(self, cell: Cell, formula: str) -> None:
        """Write a formula (Excel syntax, starting with ``=``) into a cell."""
        if not formula.startswith("="):
            raise ValueError(f"a formula starts with '=': {formula!r}")
        self.sheet.range(cell).formula = formula

    def set_conditional_format(self, rect: Rect, formula: str, style: Style) -> bool:
        """Show ``style`` where ``formula`` is true; Excel for Windows only (COM).

        xlwings has no conditional-format API of its own; on Windows its ``Range.api`` is
        Excel's COM object. Excel reads a new rule's relative references from the active
        cell, so the rectangle's top-left cell is selected first. False on macOS.
        """
        if sys.platform != "win32":
            return False
        try:
            rng = self._range(rect)
            rng[0, 0].select()
            conditions = rng.api.FormatConditions
            conditions.Delete()
            rule = conditions.Add(Type=XL_EXPRESSION, Formula1=f"={formula}")
            if style.fill:
                rule.Interior.Color = bgr(style.fill)
            if style.font_color:
                rule.Font.Color = bgr(style.font_color)
        except Exception:  # an Excel without COM access, a protected sheet
            return False
        return True


class XwBook:
    """An Excel workbook behind the book protocol; progress goes to Excel's status bar."""

    def __init__(self, book, *, live: bool = False):
        self.book = book
        self.app = book.app
        self.live = live  # redraw the screen at each progress report

    def sheets(self) -> list[XwSheet]:
        """All worksheets in order."""
        return [XwSheet(self, s) for s in self.book.sheets]

    def sheet(self, name: str) -> XwSheet:
        """The worksheet of that name (KeyError naming it when absent)."""
        for s in self.book.sheets:
            if s.name == name:
                return XwSheet(self, s)
        names = ", ".join(s.name for s in self.book.sheets)
        raise KeyError(f"no sheet named {name!r} (sheets: {names})")

    def active_sheet(self) -> XwSheet:
        """The sheet the user is looking at."""
        return XwSheet(self, self.book.sheets.active)

    def defined_names(self) -> dict[str, tuple[str, Rect]]:
        """Defined names that refer to one rectangle: name → (sheet, rect)."""
        out: dict[str, tuple[str, Rect]] = {}
        for name in self.book.names:
            try:
                rng = name.refers_to_range
            except Exception:  # a constant or formula, not a range
                continue
            rows, cols = rng.shape
            rect = (rng.row, rng.column, rng.row + rows - 1, rng.column + cols - 1)
            out[name.name] = (rng.sheet.name, rect)
        return out

    def progress(self, fraction: float | None, message: str) -> None:
        """Show progress in Excel's status bar; ``fraction=None`` shows the message alone."""
        if fraction is None:
            self.app.status_bar = message or False
            return
        self.app.status_bar = f"{message} {round(fraction * 100)}%"
        if self.live:  # let the person see the batch just painted
            self.app.screen_updating = True
            self.app.screen_updating = False


def _as_text(value: object) -> object:
    """Text Excel would parse as a formula or number (``=``, ``+``, ``-``, ``@`` first)
    kept as text by Excel's leading apostrophe; other values as they are."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value

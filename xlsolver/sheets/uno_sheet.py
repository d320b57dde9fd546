"""The UNO back end of the sheet protocol: a Calc document open in LibreOffice.

Coordinates are 1-based ``(row, col)`` as in :mod:`xlsolver.sheets.protocol`; UNO counts
from 0, so every conversion goes through :func:`_address`.

Glossary
    UnoBook   a Calc document (``com.sun.star.sheet.SpreadsheetDocument``)
    UnoSheet  one of its worksheets
    ranges    a ``SheetCellRanges`` collection: many cells painted with one call

Long by design: all of the UNO calls of the protocol in one file, method for method.
"""

from __future__ import annotations

import builtins
import functools
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from . import paper
from .errors import WorkbookError, locked_message
from .protocol import (
    BOTTOM,
    GENERAL,
    LEFT,
    RIGHT,
    TOP,
    Cell,
    CellFormat,
    Rect,
    SheetBase,
    Style,
    blank_covered,
    bounds,
    font_colour,
    from_serial,
    plain_format,
)

NO_COLOUR = -1  # UNO's "transparent background"
HAIRLINE = 2  # 1/100 mm: LibreOffice's hairline (Excel "hair")
# 1/100 mm, as Calc reads Excel's styles, so an .xlsx saved by Calc keeps them (Calc
# saves a line under 62 as thin, under 88 as medium)
BORDER_WIDTHS = {"hair": 2, "thin": 26, "medium": 62, "thick": 88}
SOLID, DOUBLE = 0, 3  # com.sun.star.table.BorderLineStyle
BOLD = 150.0  # com.sun.star.awt.FontWeight.BOLD
NORMAL = 100.0
HORI = {"left": "LEFT", "center": "CENTER", "right": "RIGHT"}
VERT = {"top": 1, "center": 2, "bottom": 3}  # com.sun.star.table.CellVertJustify2
DIAGONALS = ("DiagonalTLBR", "DiagonalBLTR")
DATE_TIME = 2 | 4  # com.sun.star.util.NumberFormat.DATE | TIME
# Calc has no cell of type boolean: TRUE and FALSE of an .xlsx (a checkbox cell's values)
# come in as these formulas; they are the file's constants, not formulas the user typed.
BOOLEAN_CONSTANTS = frozenset({"=TRUE()", "=FALSE()"})
LOGICAL = 1024  # com.sun.star.util.NumberFormat.LOGICAL: TRUE and FALSE, a checkbox's values
FORMULA_CELLS = 16  # com.sun.star.sheet.CellFlags.FORMULA
ERROR_RESULT = 4  # com.sun.star.sheet.FormulaResult.ERROR
CLEAR_ALL = 1 | 2 | 4 | 8 | 16 | 32 | 64 | 256  # com.sun.star.sheet.CellFlags: all but objects
UNO_PATHS = ("/usr/lib/python3/dist-packages", "/usr/lib/libreoffice/program")
SIDES = {"left": "LeftBorder", "right": "RightBorder", "top": "TopBorder", "bottom": "BottomBorder"}
SIDE_BITS = (
    ("TopBorder", TOP),
    ("BottomBorder", BOTTOM),
    ("LeftBorder", LEFT),
    ("RightBorder", RIGHT),
)
NO_LINE = 0x7FFF  # com.sun.star.table.BorderLineStyle.NONE
HEAVY_WIDTH = 50  # 1/100 mm: Calc reads Excel's thin as 26, medium and double as 62, thick 88
GENERAL_CODES = frozenset({"general", "standard"})  # the unformatted code, by UI language


def import_uno():
    """The ``uno`` module, from Debian's python3-uno if this interpreter lacks it.

    The one place xlsolver imports ``uno``; ImportError says what to install.
    """
    try:
        import uno  # noqa: F401
    except ImportError:
        for path in UNO_PATHS:
            if Path(path, "uno.py").exists() and path not in sys.path:
                sys.path.append(path)
        try:
            import uno  # noqa: F401
        except ImportError as exc:
            raise ImportError(
                f"cannot import uno ({exc}): the LibreOffice back end needs python3-uno"
            ) from None
    import uno

    _narrow_uno_import_hook(uno)
    return uno


def _narrow_uno_import_hook(uno) -> None:
    """Let uno's import hook see only ``com.sun.star`` imports.

    python3-uno replaces ``__import__`` and turns every ModuleNotFoundError into a plain
    ImportError, which breaks ``except ModuleNotFoundError`` elsewhere (tqdm, our CLI).
    ``from com.sun.star.beans import PropertyValue`` keeps working.
    """
    hook = builtins.__import__
    original = getattr(uno, "_builtin_import", None)
    if original is None or getattr(hook, "_xlsolver_narrow", False):
        return

    def narrow(name, *args, **kwargs):
        if name == "com" or name.startswith("com."):
            return hook(name, *args, **kwargs)
        return original(name, *args, **kwargs)

    narrow._xlsolver_narrow = True  # type: ignore[attr-defined]
    builtins.__import__ = narrow


def rgb(color: str) -> int:
    """``#RRGGBB`` → the integer UNO uses for a colour."""
    return int(color.lstrip("#"), 16)


def hex_colour(value: int) -> str | None:
    """A UNO colour integer → ``#RRGGBB`` (``None`` for transparent)."""
    if value is None or value < 0:
        return None
    return f"#{value & 0xFFFFFF:06X}"


def _struct(name: str, **fields):
    """A UNO struct by its type name, with fields set."""
    obj = import_uno().createUnoStruct(name)
    for key, value in fields.items():
        setattr(obj, key, value)
    return obj


def border_line(width: int, color: str = "#000000", style: int = SOLID):
    """A ``BorderLine2`` of a width (1/100 mm); width 0 removes the line."""
    return _struct(
        "com.sun.star.table.BorderLine2",
        Color=rgb(color) if width else 0,
        LineWidth=width,
        OuterLineWidth=width,
        InnerLineWidth=0,
        LineDistance=0,
        LineStyle=style if width else SOLID,
    )


def _plain(value: object) -> object:
    """A UNO cell value as openpyxl would give it: ``None`` empty, ints stay ints."""
    if value == "":
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _drawn(line) -> bool:
    """True when a ``BorderLine2`` shows a line."""
    if line is None or getattr(line, "LineStyle", SOLID) == NO_LINE:
        return False
    return bool(line.OuterLineWidth or line.InnerLineWidth or line.LineWidth)


def excel_formula(formula: str) -> str:
    """The UNO API's formula syntax → Excel's: ``;`` separators become ``,``."""
    out, quoted = [], False
    for ch in formula:
        if ch == '"':
            quoted = not quoted
        out.append("," if ch == ";" and not quoted else ch)
    return "".join(out)


def excel_date_code(code: str) -> str:
    """Calc's date code (``M/D/YYYY``) as Excel writes it (``m/d/yyyy``): letters outside
    quotes and brackets lower-cased, the case Excel keeps its date codes in."""
    out, quoted, bracket = [], False, False
    for ch in code:
        if ch == '"':
            quoted = not quoted
        elif ch == "[" and not quoted:
            bracket = True
        elif ch == "]" and not quoted:
            bracket = False
        out.append(ch if quoted or bracket else ch.lower())
    return "".join(out)


def _writes(method):
    """Mark a method that changes the document: the reads cached for it are dropped
    after it (also when it fails part way), so a read that follows asks Calc again."""

    @functools.wraps(method)
    def changing(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        finally:
            self.book.reads.clear()

    return changing


class UnoSheet(SheetBase):
    """One Calc worksheet behind the sheet protocol (and the layout protocol).

    Every UNO call is a round trip to LibreOffice, so what the reads ask of the sheet's
    formats (Calc's used area, the distinct formats of a rectangle and their properties,
    the merged cells) is kept in :attr:`UnoBook.reads` until the document changes: every
    method that changes it is marked :func:`_writes`, which empties that cache. Reading a
    sheet to find its puzzle asks the same questions several times over (the used range
    three times, the formats of it ten times), and each is answered once.
    """

    def __init__(self, book: UnoBook, sheet, name: str | None = None):
        self.book = book
        self.sheet = sheet
        self._key = name  # the sheet's name, asked once; the key of its cached reads

    def _cached(self, what: tuple, compute):
        """``compute()``, or what it gave for this sheet since the document last changed."""
        key = (self.name, *what)
        reads = self.book.reads
        if key not in reads:
            reads[key] = compute()
        return reads[key]

    @property
    def name(self) -> str:
        """The sheet's name as the user sees it (asked once: xlsolver renames no sheet)."""
        if self._key is None:
            self._key = self.sheet.getName()
        return self._key

    def hidden(self) -> bool:
        """True for a sheet Calc hides (Sheet ▸ Hide Sheet)."""
        return not self.sheet.IsVisible

    def _range(self, rect: Rect):
        """The UNO cell range of a 1-based rectangle."""
        top, left, bottom, right = rect
        return self.sheet.getCellRangeByPosition(left - 1, top - 1, right - 1, bottom - 1)

    def _cell(self, cell: Cell):
        """The UNO cell at a 1-based position."""
        return self.sheet.getCellByPosition(cell[1] - 1, cell[0] - 1)

    def _ranges(self, cells: Iterable[Cell]):
        """A ``SheetCellRanges`` holding every cell, runs along a row joined into one range."""
        ranges = self.book.doc.createInstance("com.sun.star.sheet.SheetCellRanges")
        index = self.sheet.getRangeAddress().Sheet
        addresses = []
        for r, c0, c1 in _row_runs(cells):
            addresses.append(
                _struct(
                    "com.sun.star.table.CellRangeAddress",
                    Sheet=index,
                    StartColumn=c0 - 1,
                    StartRow=r - 1,
                    EndColumn=c1 - 1,
                    EndRow=r - 1,
                )
            )
        if addresses:
            ranges.addRangeAddresses(tuple(addresses), False)
        return ranges, bool(addresses)

    def used_range(self) -> Rect | None:
        """The rectangle holding every value, format or merged cell, ``None`` for an
        empty sheet (merged cells reaching beyond the rest count, as in openpyxl).

        Calc's used area leaves out cells that hold only a fill (a row of them, or a
        block repeated down the rows), so the filled cells are added: a drawing made of
        fills reads the same from .ods as from .xlsx.
        """
        rect = self._used_area()
        fills = self._format_extent()  # fills and borders Calc leaves out
        if rect == (1, 1, 1, 1) and not self.read_values(rect)[0][0]:
            if fills is None:
                return None
            rect = fills
        return bounds([rect, *self._merges_in(rect), *([fills] if fills else [])])

    def _format_extent(self) -> Rect | None:
        """The smallest rectangle around every cell with a fill or a border line (None
        when there is none), as openpyxl's used range holds them (graph paper drawn with
        borders alone); a format running to the sheet's last row or column (a whole
        column's) is left out."""
        return self._cached(("format extent",), self._read_format_extent)

    def _read_format_extent(self) -> Rect | None:
        """:meth:`_format_extent` asked of Calc."""
        last_row = self.sheet.getRows().getCount() - 1
        last_column = self.sheet.getColumns().getCount() - 1
        unique = self.sheet.getUniqueCellFormatRanges()
        names = ("CellBackColor", *(name for name, _ in SIDE_BITS))
        filled = []
        for i in range(unique.getCount()):
            block = unique.getByIndex(i)
            fill, *lines = block.getPropertyValues(names)
            if fill == NO_COLOUR and not any(_drawn(line) for line in lines):
                continue
            filled += [
                (a.StartRow + 1, a.StartColumn + 1, a.EndRow + 1, a.EndColumn + 1)
                for a in block.getRangeAddresses()
                if a.EndRow < last_row and a.EndColumn < last_column
            ]
        return bounds(filled) if filled else None

    def read_values(self, rect: Rect) -> list[list[object]]:
        """Cell values of a rectangle, row by row (``None`` for empty cells).

        A number shown as a date or a time comes as a ``datetime`` (or ``time``), and one
        shown as TRUE or FALSE as a ``bool``, as openpyxl reads them from a file.
        """
        values = [[_plain(v) for v in row] for row in self._range(rect).getDataArray()]
        self._formula_results(rect, values)
        if any(v is not None for row in values for v in row):  # Calc keeps covered values
            blank_covered(values, rect, self._merges_in(self._used_area()))
        if any(isinstance(v, (int, float)) for row in values for v in row):
            kinds = _grid(rect, 0)
            self._each_format(rect, ("NumberFormat",), kinds, lambda v: self._kind(v[0]))
            for i, row in enumerate(values):
                for j, v in enumerate(row):
                    if kinds[i][j] and isinstance(v, (int, float)) and not isinstance(v, bool):
                        values[i][j] = bool(v) if kinds[i][j] & LOGICAL else from_serial(v)
        return values

    def _formula_results(self, rect: Rect, values: list[list[object]]) -> None:
        """``""`` for the formulas whose result is empty text: the data array gives ``""``
        for them and for empty cells alike, and Calc always has a formula's result; a
        failed formula's error as the cell shows it (``#DIV/0!``), as a file keeps it."""
        top, left = rect[0], rect[1]
        for a in self._range(rect).queryContentCells(FORMULA_CELLS).getRangeAddresses():
            for r in range(a.StartRow + 1 - top, a.EndRow + 2 - top):
                for c in range(a.StartColumn + 1 - left, a.EndColumn + 2 - left):
                    if values[r][c] is None:
                        values[r][c] = ""
        for a in self._range(rect).queryFormulaCells(ERROR_RESULT).getRangeAddresses():
            for r in range(a.StartRow, a.EndRow + 1):
                for c in range(a.StartColumn, a.EndColumn + 1):  # the error as it shows
                    text = self.sheet.getCellByPosition(c, r).getString()
                    values[r + 1 - top][c + 1 - left] = text

    def _kind(self, key: int) -> int:
        """The date/time bits of a number format's type (0 for plain numbers)."""
        kinds = self.book.format_kinds
        if key not in kinds:
            kind = self.book.doc.getNumberFormats().getByKey(key).getPropertyValue("Type")
            kinds[key] = kind & (DATE_TIME | LOGICAL)
        return kinds[key]

    def read_fills(self, rect: Rect) -> list[list[str | None]]:
        """Solid fill colours (``#RRGGBB``) of a rectangle, ``None`` where unfilled."""
        top, left, bottom, right = rect
        out: list[list[str | None]] = [[None] * (right - left + 1) for _ in range(top, bottom + 1)]
        self._each_format(rect, ("CellBackColor",), out, lambda v: hex_colour(v[0]))
        return out

    def read_formulas(self, rect: Rect) -> list[list[str | None]]:
        """The formula of each cell in Excel's syntax, ``None`` where it holds none."""
        top, left, bottom, right = rect
        out: list[list[str | None]] = [[None] * (right - left + 1) for _ in range(top, bottom + 1)]
        found = self._range(rect).queryContentCells(FORMULA_CELLS)
        for a in found.getRangeAddresses():
            for r in range(a.StartRow, a.EndRow + 1):
                for c in range(a.StartColumn, a.EndColumn + 1):
                    text = self.sheet.getCellByPosition(c, r).getFormula()
                    if text.upper() in BOOLEAN_CONSTANTS:  # an .xlsx TRUE, as Calc imports it
                        continue
                    out[r + 1 - top][c + 1 - left] = excel_formula(text)
        return out

    def read_font_colours(self, rect: Rect) -> list[list[str | None]]:
        """Font colours (``#RRGGBB``), ``None`` where automatic."""
        out = _grid(rect, None)
        self._each_format(rect, ("CharColor",), out, lambda v: font_colour(hex_colour(v[0])))
        return out

    def read_number_formats(self, rect: Rect) -> list[list[str]]:
        """Number format codes of a rectangle (``General`` where none is set)."""
        codes = self.book.format_codes  # a key's code never changes: asked once per key

        def code(values) -> str:
            key = values[0]
            if key not in codes:
                formats = self.book.doc.getNumberFormats()
                text = formats.getByKey(key).getPropertyValue("FormatString")
                if text.lower() in GENERAL_CODES or self._kind(key) & LOGICAL:
                    text = GENERAL  # Excel keeps TRUE and FALSE in General cells
                elif self._kind(key):
                    text = excel_date_code(text)
                codes[key] = plain_format(text)
            return codes[key]

        out = _grid(rect, GENERAL)
        self._each_format(rect, ("NumberFormat",), out, code)
        return out

    def shows_zeros(self) -> bool:
        """False when Calc shows zero values as blank cells (View ▸ Zero values off; in
        Calc one choice for the whole document, as the window shows it)."""

        def ask() -> bool:
            controller = self.book.doc.getCurrentController()
            try:
                if controller is not None:
                    return bool(controller.getPropertyValue("ShowZeroValues"))
                settings = self.book.doc.createInstance("com.sun.star.document.Settings")
                return bool(settings.getPropertyValue("ShowZeroValues"))
            except Exception:  # a view or document without the setting
                return True

        return self._cached(("shows zeros",), ask)

    def read_border_sides(self, rect: Rect) -> list[list[int]]:
        """Per cell, the sides its own format draws, read once per uniform block."""
        return self._side_bits(rect, _drawn)

    def read_heavy_sides(self, rect: Rect) -> list[list[int]]:
        """Per cell, the sides its own format draws with a heavy line (medium, thick or
        double in Excel's terms: Calc's line widths of 0.62 mm and up)."""
        return self._side_bits(rect, lambda line: _drawn(line) and line.LineWidth >= HEAVY_WIDTH)

    def _side_bits(self, rect: Rect, shown) -> list[list[int]]:
        """Per cell, the side bits of the lines of its format for which ``shown`` holds."""
        names = tuple(name for name, _ in SIDE_BITS)

        def bits(lines) -> int:
            return sum(bit for line, (_, bit) in zip(lines, SIDE_BITS, strict=True) if shown(line))

        out = _grid(rect, 0)
        self._each_format(rect, names, out, bits)
        return out

    def read_diagonals(self, rect: Rect) -> list[list[bool]]:
        """True where a cell shows both diagonals (a crossed white cell)."""
        out = _grid(rect, False)
        self._each_format(rect, DIAGONALS, out, lambda lines: all(_drawn(x) for x in lines))
        return out

    def _each_format(self, rect: Rect, props: Sequence[str], out: list[list], convert) -> None:
        """Fill ``out`` with converted cell properties, one UNO call per distinct format.

        ``getUniqueCellFormatRanges`` groups every cell of one format together, so a
        50×50 grid of a few styles costs a few calls, not one per cell or per block.
        """
        top, left = rect[0], rect[1]
        props = tuple(props)
        for block, addresses, asked in self._formats(rect):
            if props not in asked:  # each block's properties are asked once
                asked[props] = block.getPropertyValues(props)
            value = convert(asked[props])
            for a in addresses:
                for r in range(a.StartRow + 1, a.EndRow + 2):
                    for c in range(a.StartColumn + 1, a.EndColumn + 2):
                        out[r - top][c - left] = value

    def _formats(self, rect: Rect) -> list[tuple[object, tuple, dict]]:
        """(ranges of one format, their addresses, its properties asked so far: a tuple of
        names → their values) for each distinct format of a rectangle."""

        def ask() -> list[tuple[object, tuple, dict]]:
            unique = self._range(rect).getUniqueCellFormatRanges()
            out = []
            for i in range(unique.getCount()):
                block = unique.getByIndex(i)
                out.append((block, block.getRangeAddresses(), {}))
            return out

        return self._cached(("formats", rect), ask)

    def merged_ranges(self) -> list[Rect]:
        """The merged rectangles of the sheet."""
        used = self.used_range()
        return [] if used is None else self._merges_in(used)

    def _used_area(self) -> Rect:
        """Calc's own used area (values and formats; see :meth:`used_range` for fills)."""

        def ask() -> Rect:
            cursor = self.sheet.createCursor()
            cursor.gotoStartOfUsedArea(False)
            cursor.gotoEndOfUsedArea(True)
            a = cursor.getRangeAddress()
            return (a.StartRow + 1, a.StartColumn + 1, a.EndRow + 1, a.EndColumn + 1)

        return self._cached(("used area",), ask)

    def _merges_in(self, rect: Rect) -> list[Rect]:
        """The merged rectangles whose top-left cell lies in a rectangle.

        Calc keeps "merged" in a cell's format, so cells of one format are all merge
        origins of one span, or none is: one look per distinct format, and none when the
        rectangle holds no merge origin at all (``getIsMerged`` of a range is true when a
        cell of it starts a merged block; a covered cell does not).
        """
        return list(self._cached(("merges", rect), lambda: self._ask_merges_in(rect)))

    def _ask_merges_in(self, rect: Rect) -> list[Rect]:
        """:meth:`_merges_in` asked of Calc."""
        if not self._range(rect).getIsMerged():
            return []
        out = []
        for _, addresses, _ in self._formats(rect):
            first = addresses[0]
            origin = self.sheet.getCellRangeByPosition(
                first.StartColumn, first.StartRow, first.StartColumn, first.StartRow
            )
            if not origin.getIsMerged():  # no merge, or a cell another merge covers
                continue
            merged = self._merge_at(first.StartRow, first.StartColumn)
            if merged is None or merged[:2] != (first.StartRow + 1, first.StartColumn + 1):
                continue
            rows, cols = merged[2] - merged[0], merged[3] - merged[1]
            for a in addresses:
                for r in range(a.StartRow + 1, a.EndRow + 2):
                    for c in range(a.StartColumn + 1, a.EndColumn + 2):
                        out.append((r, c, r + rows, c + cols))
        return sorted(out)

    def _merge_at(self, row: int, col: int) -> Rect | None:
        """The merged rectangle covering a 0-based cell, ``None`` when it is not merged."""
        cursor = self.sheet.createCursorByRange(
            self.sheet.getCellRangeByPosition(col, row, col, row)
        )
        cursor.collapseToMergedArea()
        m = cursor.getRangeAddress()
        if m.StartRow == m.EndRow and m.StartColumn == m.EndColumn:
            return None
        return (m.StartRow + 1, m.StartColumn + 1, m.EndRow + 1, m.EndColumn + 1)

    def check_unlocked(self, cells: list[Cell], *, template: bool = False) -> None:
        """WorkbookError naming the first locked cell when the sheet is protected.

        Calc drops format changes to the locked cells of a protected sheet without a
        word, so a paint would report success and show nothing.
        """
        if not cells or not self.sheet.isProtected():
            return
        if template:  # New grid sets widths and styles: refused on any protected sheet
            raise WorkbookError(locked_message(self.name, min(cells), "Calc", template=True))
        rect = bounds((r, c, r, c) for r, c in cells)
        locked = _grid(rect, False)
        self._each_format(rect, ("CellProtection",), locked, lambda v: bool(v[0].IsLocked))
        for r, c in sorted(cells):
            if locked[r - rect[0]][c - rect[1]]:
                raise WorkbookError(locked_message(self.name, (r, c), "Calc", template=template))

    @_writes
    def paint(self, cells: Iterable[Cell], style: Style) -> None:
        """Paint cells with a style, keeping their values and other borders.

        WorkbookError, nothing painted, when the sheet is protected and a cell is locked.
        """
        cells = list(cells)
        self.check_unlocked(cells)
        ranges, any_cells = self._ranges(cells)
        if not any_cells:
            return
        if style.fill:
            ranges.setPropertyValue("CellBackColor", rgb(style.fill))
        line = border_line(HAIRLINE, style.diagonal_color) if style.diagonals else border_line(0)
        for prop in DIAGONALS:
            ranges.setPropertyValue(prop, line)
        if style.font_color:
            ranges.setPropertyValue("CharColor", rgb(style.font_color))
        if style.bold:
            ranges.setPropertyValue("CharWeight", BOLD)

    @_writes
    def unpaint(self, cells: Iterable[Cell]) -> None:
        """Remove fill and diagonals from cells (the Clear action), keeping other borders.

        WorkbookError, nothing changed, when the sheet is protected and a cell is locked.
        """
        cells = list(cells)
        self.check_unlocked(cells)
        ranges, any_cells = self._ranges(cells)
        if not any_cells:
            return
        ranges.setPropertyValue("CellBackColor", NO_COLOUR)
        for prop in DIAGONALS:
            ranges.setPropertyValue(prop, border_line(0))

    @_writes
    def write_values(self, top_left: Cell, values: Sequence[Sequence[object]]) -> None:
        """Write a block of values starting at a cell.

        WorkbookError, nothing written, when the sheet is protected and a cell is locked
        (the UNO API would write where a person cannot type).
        """
        top, left = top_left
        self.check_unlocked(
            [(top + i, left + j) for i, row in enumerate(values) for j in range(len(row))]
        )
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                cell = self.sheet.getCellByPosition(left - 1 + j, top - 1 + i)
                if v is None:
                    cell.setString("")
                elif isinstance(v, bool) or not isinstance(v, (int, float)):
                    cell.setString(str(v))
                else:
                    cell.setValue(v)

    @_writes
    def clear_range(self, rect: Rect) -> None:
        """Remove values, formats, notes and merges from a rectangle (New grid)."""
        rng = self._range(rect)
        rng.merge(False)
        rng.clearContents(CLEAR_ALL)

    # ---- notes (hint reasons) -------------------------------------------------------

    def read_notes(self, rect: Rect) -> dict[Cell, str]:
        """The cell notes (comments) inside a rectangle."""
        top, left, bottom, right = rect
        out = {}
        notes = self.sheet.getAnnotations()
        for i in range(notes.getCount()):
            note = notes.getByIndex(i)
            pos = note.getPosition()
            r, c = pos.Row + 1, pos.Column + 1
            if top <= r <= bottom and left <= c <= right:
                out[(r, c)] = note.getString()
        return out

    @_writes
    def set_note(self, cell: Cell, text: str | None) -> None:
        """Put a note on a cell (``None`` removes it)."""
        notes = self.sheet.getAnnotations()
        for i in range(notes.getCount() - 1, -1, -1):
            pos = notes.getByIndex(i).getPosition()
            if (pos.Row + 1, pos.Column + 1) == cell:
                notes.removeByIndex(i)
        if text:
            address = _struct(
                "com.sun.star.table.CellAddress",
                Sheet=self.sheet.getRangeAddress().Sheet,
                Column=cell[1] - 1,
                Row=cell[0] - 1,
            )
            notes.insertNew(address, text)

    # ---- layout writing (template writer) -------------------------------------------

    @_writes
    def format_cells(self, cells: Iterable[Cell], fmt: CellFormat) -> None:
        """Set borders, alignment and font of cells (sides left ``None`` are kept)."""
        ranges, any_cells = self._ranges(cells)
        if not any_cells:
            return
        for side, prop in SIDES.items():
            style = getattr(fmt, side)
            if style:
                width = BORDER_WIDTHS.get(style, BORDER_WIDTHS["thin"])
                kind = DOUBLE if style == "double" else SOLID
                ranges.setPropertyValue(prop, border_line(width, fmt.border_color, kind))
        if fmt.horizontal:
            value = import_uno().Enum("com.sun.star.table.CellHoriJustify", HORI[fmt.horizontal])
            ranges.setPropertyValue("HoriJustify", value)
        if fmt.vertical:
            ranges.setPropertyValue("VertJustify", VERT[fmt.vertical])
        if fmt.wrap:
            ranges.setPropertyValue("IsTextWrapped", True)
        if fmt.shrink:
            ranges.setPropertyValue("ShrinkToFit", True)
        if fmt.font_size:
            ranges.setPropertyValue("CharHeight", float(fmt.font_size))
        if fmt.bold:
            ranges.setPropertyValue("CharWeight", BOLD)
        if fmt.number_format:
            ranges.setPropertyValue("NumberFormat", self.book.number_format(fmt.number_format))

    @_writes
    def set_column_widths(self, widths: dict[int, float]) -> None:
        """Column widths in characters as Excel shows them, by 1-based column number: set
        in 1/100 mm as wide as Excel shows them, whatever font Calc has for Calibri."""
        columns = self.sheet.getColumns()
        for c, w in widths.items():
            columns.getByIndex(c - 1).setPropertyValue("Width", paper.column_hundredth_mm(w))

    @_writes
    def set_row_heights(self, heights: dict[int, float]) -> None:
        """Row heights in points, by 1-based row number."""
        rows = self.sheet.getRows()
        for r, h in heights.items():
            rows.getByIndex(r - 1).setPropertyValue("Height", paper.hundredth_mm(h))

    @_writes
    def merge(self, rect: Rect) -> None:
        """Merge a rectangle of cells."""
        self._range(rect).merge(True)

    @_writes
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
        """Set the print area and, through the page style, how it goes on paper.

        As :meth:`XlsxSheet.set_print_setup`: one page, or one page wide; landscape by
        the area's shape unless told; header rows repeated; page breaks after rows.
        """
        self.sheet.setPrintAreas((self._range(area).getRangeAddress(),))
        styles = self.book.doc.getStyleFamilies().getByName("PageStyles")
        page = styles.getByName(self.sheet.getPropertyValue("PageStyle"))
        if fit_to_page or fit_width:
            page.setPropertyValue("ScaleToPagesX", 1)
            page.setPropertyValue("ScaleToPagesY", 0 if fit_width else 1)
        if landscape is None:
            landscape = paper.landscape(area)
        width, height = page.getPropertyValue("Width"), page.getPropertyValue("Height")
        if landscape != (width > height):
            page.setPropertyValue("Width", height)
            page.setPropertyValue("Height", width)
        page.setPropertyValue("IsLandscape", landscape)
        page.setPropertyValue("CenterHorizontally", True)
        if repeat_rows is not None:
            first, last = repeat_rows
            self.sheet.setTitleRows(self._range((first, 1, last, 1)).getRangeAddress())
            self.sheet.setPrintTitleRows(True)
        rows = self.sheet.getRows()
        for row in row_breaks:  # a break after ``row`` starts a page at the next one
            rows.getByIndex(row).setPropertyValue("IsStartOfNewPage", True)

    @_writes
    def write_formula(self, cell: Cell, formula: str) -> None:
        """Write a formula (Excel syntax, starting with ``=``) into a cell."""
        if not formula.startswith("="):
            raise ValueError(f"a formula starts with '=': {formula!r}")
        self._cell(cell).setFormula(api_formula(formula))

    @_writes
    def set_conditional_format(self, rect: Rect, formula: str, style: Style) -> bool:
        """Show ``style`` where ``formula`` (for the top-left cell, no ``=``) is true."""
        from com.sun.star.sheet.ConditionOperator import FORMULA

        rng = self._range(rect)
        entries = rng.getPropertyValue("ConditionalFormat")
        entries.clear()
        origin = _struct(
            "com.sun.star.table.CellAddress",
            Sheet=self.sheet.getRangeAddress().Sheet,
            Column=rect[1] - 1,
            Row=rect[0] - 1,
        )
        entries.addNew(
            _props(
                Operator=FORMULA,
                Formula1=api_formula(formula),
                StyleName=self.book.cell_style(style),
                SourcePosition=origin,
            )
        )
        rng.setPropertyValue("ConditionalFormat", entries)
        return True


def api_formula(formula: str) -> str:
    """Excel's formula syntax → the UNO API's: argument separators ``,`` become ``;``.

    Commas inside string literals stay; the function names are the same in both.
    """
    out, quoted = [], False
    for ch in formula:
        if ch == '"':
            quoted = not quoted
        out.append(";" if ch == "," and not quoted else ch)
    return "".join(out)


def _grid(rect: Rect, value: object) -> list[list]:
    """A rectangle's worth of one value, row by row."""
    top, left, bottom, right = rect
    return [[value] * (right - left + 1) for _ in range(top, bottom + 1)]


def _props(**values) -> tuple:
    """A tuple of PropertyValue structs from keyword arguments."""
    kind = "com.sun.star.beans.PropertyValue"
    return tuple(_struct(kind, Name=k, Value=v) for k, v in values.items())


def _row_runs(cells: Iterable[Cell]) -> list[tuple[int, int, int]]:
    """Cells grouped into ``(row, first col, last col)`` runs of neighbours."""
    runs: list[tuple[int, int, int]] = []
    for r, c in sorted(set(cells)):
        if runs and runs[-1][0] == r and runs[-1][2] == c - 1:
            runs[-1] = (r, runs[-1][1], c)
        else:
            runs.append((r, c, c))
    return runs


class UnoBook:
    """A Calc document behind the book protocol; progress goes to the frame's status bar."""

    def __init__(self, doc):
        self.doc = doc
        self._indicator = None
        self.messages: list[str] = []
        self.format_kinds: dict[int, int] = {}  # number format key → its date/time/logical bits
        self.format_codes: dict[int, str] = {}  # number format key → its code as read
        # What the sheets' reads asked of Calc, by (sheet name, what, …): kept until the
        # document changes (every UnoSheet method that changes it empties this).
        self.reads: dict[tuple, object] = {}

    def sheets(self) -> list[UnoSheet]:
        """All worksheets in order."""
        sheets = self.doc.getSheets()
        names = sheets.getElementNames()  # in order, as getByIndex counts them
        return [UnoSheet(self, sheets.getByIndex(i), name) for i, name in enumerate(names)]

    def sheet(self, name: str) -> UnoSheet:
        """The worksheet of that name (KeyError naming it when absent)."""
        sheets = self.doc.getSheets()
        if not sheets.hasByName(name):
            names = ", ".join(sheets.getElementNames())
            raise KeyError(f"no sheet named {name!r} (sheets: {names})")
        return UnoSheet(self, sheets.getByName(name))  # its name as Calc spells it: asked

    def add_sheet(self, name: str) -> UnoSheet:
        """A new empty worksheet of that name, after the others (pentomino ``--all``)."""
        sheets = self.doc.getSheets()
        sheets.insertNewByName(name, sheets.getCount())
        self.reads.clear()
        return UnoSheet(self, sheets.getByName(name), name)

    def active_sheet(self) -> UnoSheet:
        """The sheet the user is looking at (the first sheet for a hidden document)."""
        controller = self.doc.getCurrentController()
        active = controller.getActiveSheet() if controller is not None else None
        return UnoSheet(self, active) if active is not None else self.sheets()[0]

    def defined_names(self) -> dict[str, tuple[str, Rect]]:
        """Defined names that refer to one rectangle: name → (sheet, rect)."""
        out: dict[str, tuple[str, Rect]] = {}
        names = self.doc.getPropertyValue("NamedRanges")
        sheets = self.doc.getSheets()
        for name in names.getElementNames():
            named = names.getByName(name)
            try:
                a = named.getReferredCells().getRangeAddress()
            except Exception:  # a formula or constant, not a rectangle
                continue
            sheet = sheets.getByIndex(a.Sheet).getName()
            out[name] = (sheet, (a.StartRow + 1, a.StartColumn + 1, a.EndRow + 1, a.EndColumn + 1))
        return out

    def cell_style(self, style: Style) -> str:
        """The name of a cell style showing ``style``'s fill and font colour (added when new)."""
        name = f"xlsolver {style.name}"
        family = self.doc.getStyleFamilies().getByName("CellStyles")
        if not family.hasByName(name):
            cell_style = self.doc.createInstance("com.sun.star.style.CellStyle")
            family.insertByName(name, cell_style)
            if style.fill:
                cell_style.setPropertyValue("CellBackColor", rgb(style.fill))
            if style.font_color:
                cell_style.setPropertyValue("CharColor", rgb(style.font_color))
            if style.bold:
                cell_style.setPropertyValue("CharWeight", BOLD)
        return name

    def number_format(self, code: str) -> int:
        """The document's key for a number format code (added when new)."""
        formats = self.doc.getNumberFormats()
        locale = _struct("com.sun.star.lang.Locale")
        key = formats.queryKey(code, locale, False)
        return key if key >= 0 else formats.addNew(code, locale)

    def progress(self, fraction: float | None, message: str) -> None:
        """Show progress in the document window's status bar; ``fraction=None`` ends it."""
        if fraction is None:
            if self._indicator is not None:
                self._indicator.end()
                self._indicator = None
            return
        if self._indicator is None:
            controller = self.doc.getCurrentController()
            frame = controller.getFrame() if controller is not None else None
            if frame is None:
                return
            self._indicator = frame.createStatusIndicator()
            self._indicator.start(message, 100)
        self._indicator.setText(message)
        self._indicator.setValue(max(0, min(100, round(fraction * 100))))

"""A recording double of the xlwings objects xlsolver's Excel back end uses.

It keeps cells in a dict and records every call in ``FakeApp.calls``. Where xlwings
itself validates arguments (border side names, line styles, weights, colours) the double
calls xlwings' own validators, so a call the real library would refuse fails here too.
Coordinates follow xlwings: ``sheet.range((row, col))``, ``sheet.range((r1, c1), (r2, c2))``
or an A1 address, multi-area addresses (``"B3:D3,F3"``) included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xlwings import main as xw_main
from xlwings.utils import hex_to_rgb

CELL_REF = re.compile(r"^\$?([A-Z]+)\$?(\d+)$")
MAX_AREA_ADDRESS = 255
EXCEL_ERRORS = frozenset(  # a failed formula's value, as Excel shows it
    {"#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!"}
)


@dataclass
class FakeCell:
    """What the double knows about one cell."""

    value: object = None
    color: tuple[int, int, int] | None = None
    borders: dict[str, tuple[str, str, tuple[int, int, int]]] = field(default_factory=dict)
    note: str | None = None
    bold: bool = False
    formula: str | None = None  # kept, not computed: the double has no calculation engine
    font_color: tuple[int, int, int] | None = None
    number_format: str = "General"
    locked: bool = True  # Excel's default: every cell locked, which counts once protected


def col_number(letters: str) -> int:
    """``AB`` → 28."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def parse_area(text: str) -> tuple[int, int, int, int]:
    """``B3:D5`` → (3, 2, 5, 4)."""
    parts = text.split(":")
    corners = []
    for part in parts:
        m = CELL_REF.match(part.strip().upper())
        if not m:
            raise ValueError(f"bad address {text!r}")
        corners.append((int(m.group(2)), col_number(m.group(1))))
    (r1, c1), (r2, c2) = corners[0], corners[-1]
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)


class FakeApp:
    """``xw.App``: status bar, screen updating, alerts, and the call log."""

    def __init__(self):
        self.calls: list[tuple] = []
        self._status_bar: str | bool = False
        self._screen_updating = True
        self.status_history: list[str | bool] = []
        self.alerts: list[tuple] = []

    @property
    def status_bar(self):
        """Excel's status bar text (False when Excel has it)."""
        return self._status_bar

    @status_bar.setter
    def status_bar(self, value):
        assert isinstance(value, (str, bool)), value
        self.calls.append(("status_bar", value))
        self.status_history.append(value)
        self._status_bar = value

    @property
    def screen_updating(self):
        """Whether Excel redraws."""
        return self._screen_updating

    @screen_updating.setter
    def screen_updating(self, value):
        assert isinstance(value, bool)
        self.calls.append(("screen_updating", value))
        self._screen_updating = value

    def alert(self, prompt, title=None, buttons="ok", mode=None, callback=None):
        """``App.alert``: a message box."""
        assert buttons in ("ok", "ok_cancel", "yes_no", "yes_no_cancel")
        assert mode in (None, "info", "critical")
        self.alerts.append((prompt, title, mode))
        return "ok"


class FakeBook:
    """``xw.Book``: sheets, names and the app."""

    def __init__(self, app: FakeApp | None = None):
        self.app = app or FakeApp()
        self.sheets = FakeSheets(self)
        self.names: list = []

    def add_sheet(self, name: str) -> FakeSheet:
        """A new worksheet (test set-up, not xlwings API)."""
        sheet = FakeSheet(self, name)
        self.sheets.items.append(sheet)
        return sheet

    @property
    def api(self) -> FakeBookCom:
        """``book.api``: Excel's COM workbook, as far as its window's sheet views go."""
        return FakeBookCom(self)


class FakeBookCom:
    """Excel's COM ``Workbook``: ``Windows(1).SheetViews(name).DisplayZeros`` only."""

    def __init__(self, book: FakeBook):
        self.book = book

    def Windows(self, index: int) -> FakeWindowCom:  # noqa: N802 (Excel's name)
        """The workbook's first window (the only one kept)."""
        assert index == 1
        return FakeWindowCom(self.book)


class FakeWindowCom:
    """Excel's COM ``Window``: a ``WorksheetView`` per sheet."""

    def __init__(self, book: FakeBook):
        self.book = book

    def SheetViews(self, name: str) -> FakeSheetViewCom:  # noqa: N802 (Excel's name)
        """The view of the sheet of that name."""
        return FakeSheetViewCom(self.book.sheets[name])


class FakeSheetViewCom:
    """Excel's COM ``WorksheetView``: ``DisplayZeros``."""

    def __init__(self, sheet: FakeSheet):
        self.DisplayZeros = sheet.display_zeros


class FakeSheets:
    """``book.sheets``."""

    def __init__(self, book: FakeBook):
        self.book = book
        self.items: list[FakeSheet] = []
        self.active_index = 0

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, key):
        if isinstance(key, int):
            return self.items[key]
        return next(s for s in self.items if s.name == key)

    @property
    def active(self) -> FakeSheet:
        """The active sheet."""
        return self.items[self.active_index]


class FakePageSetup:
    """``sheet.page_setup``."""

    def __init__(self):
        self.print_area: str | None = None


class FakeSheetCom:
    """Excel's COM ``Worksheet`` (``sheet.api``): ``ProtectContents`` only."""

    def __init__(self, sheet: FakeSheet):
        self.ProtectContents = sheet.protected


class FakeRangeCom:
    """Excel's COM ``Range`` (``range.api``): ``Locked`` is True, False or None (mixed)."""

    def __init__(self, rng: FakeRange):
        locks = {rng.sheet.cell(r, c).locked for r, c in rng.keys()}
        self.Locked = locks.pop() if len(locks) == 1 else None


class FakeSheet:
    """``xw.Sheet``: cells in a dict."""

    def __init__(self, book: FakeBook, name: str):
        self.book = book
        self.name = name
        self.protected = False  # Review ▸ Protect Sheet
        self.visible = True  # Format ▸ Hide & Unhide ▸ Hide Sheet
        self.display_zeros = True  # "Show a zero in cells that have zero value"
        self.cells: dict[tuple[int, int], FakeCell] = {}
        self.merged: list[tuple[int, int, int, int]] = []
        self.page_setup = FakePageSetup()
        self.column_widths: dict[int, float] = {}
        self.row_heights: dict[int, float] = {}

    @property
    def api(self) -> FakeSheetCom:
        """``sheet.api``: the COM worksheet, as far as protection goes."""
        return FakeSheetCom(self)

    def cell(self, r: int, c: int) -> FakeCell:
        """The stored cell (created empty)."""
        return self.cells.setdefault((r, c), FakeCell())

    def range(self, first, second=None) -> FakeRange:
        """``sheet.range``: a tuple, two tuples, or an A1 address (multi-area allowed)."""
        if isinstance(first, str):
            assert second is None
            if len(first) > MAX_AREA_ADDRESS:
                raise ValueError(f"Excel refuses an address of {len(first)} characters")
            return FakeRange(self, [parse_area(a) for a in first.split(",")])
        r1, c1 = first
        r2, c2 = second if second is not None else first
        return FakeRange(self, [(min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))])

    @property
    def used_range(self) -> FakeRange:
        """Every stored cell that holds something."""
        keys = [k for k, v in self.cells.items() if v.value is not None or v.color or v.borders]
        if not keys:
            return FakeRange(self, [(1, 1, 1, 1)])
        rows = [k[0] for k in keys]
        cols = [k[1] for k in keys]
        return FakeRange(self, [(min(rows), min(cols), max(rows), max(cols))])

    @property
    def notes(self) -> list[FakeNote]:
        """``sheet.notes``."""
        return [
            FakeNote(self, key) for key, cell in sorted(self.cells.items()) if cell.note is not None
        ]


class FakeNote:
    """``xw.Note``."""

    def __init__(self, sheet: FakeSheet, key: tuple[int, int]):
        self.sheet = sheet
        self.key = key

    @property
    def text(self) -> str:
        return self.sheet.cells[self.key].note

    @property
    def location(self) -> FakeRange:
        return self.sheet.range(self.key)

    def delete(self) -> None:
        self.sheet.book.app.calls.append(("note.delete", self.key))
        self.sheet.cells[self.key].note = None


class FakeFont:
    """``range.font``."""

    def __init__(self, rng: FakeRange):
        self.rng = rng
        self.size = None

    @property
    def color(self):
        """The common font colour, ``None`` when automatic or mixed (as Excel)."""
        colours = {self.rng.sheet.cells.get(k, FakeCell()).font_color for k in self.rng.keys()}
        return colours.pop() if len(colours) == 1 else None

    @color.setter
    def color(self, value):
        if isinstance(value, str):
            value = hex_to_rgb(value)
        for k in self.rng.keys():
            self.rng.sheet.cell(*k).font_color = value

    @property
    def bold(self):
        return all(self.rng.sheet.cell(*k).bold for k in self.rng.keys())

    @bold.setter
    def bold(self, value):
        for k in self.rng.keys():
            self.rng.sheet.cell(*k).bold = bool(value)


class FakeBorder:
    """``range.borders[side]`` (reading only)."""

    def __init__(self, rng: FakeRange, side: str):
        self.rng, self.side = rng, side

    @property
    def line_style(self) -> str:
        first = self.rng.keys()[0]
        got = self.rng.sheet.cell(*first).borders.get(self.side)
        return got[0] if got else "none"

    @property
    def weight(self) -> str | None:
        first = self.rng.keys()[0]
        got = self.rng.sheet.cell(*first).borders.get(self.side)
        return got[1] if got else None


EDGES = ("edge_top", "edge_bottom", "edge_left", "edge_right")


class FakeBorders:
    """``range.borders``: set/clear through xlwings' own validators."""

    def __init__(self, rng: FakeRange):
        self.rng = rng
        self.rng.sheet.book.app.calls.append(("borders", self.rng.address))

    @property
    def line_style(self) -> str | None:
        """The edges' and inside lines' common style, ``None`` when they differ."""
        styles = set()
        for k in self.rng.keys():
            borders = self.rng.sheet.cells.get(k, FakeCell()).borders
            styles |= {borders[e][0] if e in borders else "none" for e in EDGES}
        return styles.pop() if len(styles) == 1 else None

    def __getitem__(self, side: str) -> FakeBorder:
        (name,) = xw_main._border_sides(side)
        return FakeBorder(self.rng, name)

    def set(self, which="all", *, line_style=None, weight=None, color=None) -> None:
        sides = xw_main._border_sides(which)
        style = xw_main._border_line_style(line_style)
        self.rng.sheet.book.app.calls.append(("borders.set", self.rng.address, tuple(sides)))
        if style is None:
            for k in self.rng.keys():
                for side in sides:
                    self.rng.sheet.cell(*k).borders.pop(side, None)
            return
        weight = xw_main._border_weight(weight) if weight is not None else "thin"
        rgb = xw_main._border_color(color) if color is not None else (0, 0, 0)
        for k in self.rng.keys():
            for side in sides:
                self.rng.sheet.cell(*k).borders[side] = (style, weight, rgb)

    def clear(self, which="everything") -> None:
        self.set(which, line_style=None)


class FakeRange:
    """``xw.Range`` over one or more rectangular areas."""

    def __init__(self, sheet: FakeSheet, rects: list[tuple[int, int, int, int]]):
        self.sheet = sheet
        self.rects = rects
        self._ndim = None

    def keys(self) -> list[tuple[int, int]]:
        """Every (row, col) the range covers, area by area."""
        return [
            (r, c)
            for top, left, bottom, right in self.rects
            for r in range(top, bottom + 1)
            for c in range(left, right + 1)
        ]

    @property
    def address(self) -> str:
        return ",".join(str(r) for r in self.rects)

    @property
    def row(self) -> int:
        return self.rects[0][0]

    @property
    def column(self) -> int:
        return self.rects[0][1]

    @property
    def shape(self) -> tuple[int, int]:
        top, left, bottom, right = self.rects[0]
        return (bottom - top + 1, right - left + 1)

    @property
    def last_cell(self) -> FakeRange:
        top, left, bottom, right = self.rects[0]
        return FakeRange(self.sheet, [(bottom, right, bottom, right)])

    @property
    def api(self) -> FakeRangeCom:
        """``range.api``: the COM range, as far as protection goes."""
        return FakeRangeCom(self)

    def options(self, ndim=None, err_to_str=False, **kwargs) -> FakeRange:
        """``range.options(ndim=2, err_to_str=True)``: as xlwings, a cell's error value
        (``#DIV/0!``) reads as None unless ``err_to_str``."""
        self._ndim = ndim
        self._err_to_str = err_to_str
        return self

    @property
    def value(self):
        assert len(self.rects) == 1, "reading values of a multi-area range"
        top, left, bottom, right = self.rects[0]
        rows = [
            [self.sheet.cells.get((r, c), FakeCell()).value for c in range(left, right + 1)]
            for r in range(top, bottom + 1)
        ]
        if not getattr(self, "_err_to_str", False):
            rows = [[None if v in EXCEL_ERRORS else v for v in row] for row in rows]
        if self._ndim == 2:
            return rows
        if len(rows) == 1 and len(rows[0]) == 1:
            return rows[0][0]
        return rows[0] if len(rows) == 1 else rows

    @value.setter
    def value(self, values):
        self.sheet.book.app.calls.append(("value", self.address))
        top, left = self.rects[0][:2]
        if not isinstance(values, list):
            values = [[values]]
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                self.sheet.cell(top + i, left + j).value = v

    @property
    def formula(self):
        """A cell's formula (its value as text when it has none); a block's as a tuple
        of rows, as xlwings gives it."""
        assert len(self.rects) == 1
        top, left, bottom, right = self.rects[0]

        def text(key) -> str:
            cell = self.sheet.cells.get(key, FakeCell())
            return cell.formula or ("" if cell.value is None else str(cell.value))

        if self.shape == (1, 1):
            return text((top, left))
        return tuple(
            tuple(text((r, c)) for c in range(left, right + 1)) for r in range(top, bottom + 1)
        )

    @formula.setter
    def formula(self, text):
        assert isinstance(text, str) and text.startswith("="), text
        self.sheet.book.app.calls.append(("formula", self.address))
        for k in self.keys():
            self.sheet.cell(*k).formula = text

    @property
    def color(self):
        colours = {self.sheet.cells.get(k, FakeCell()).color for k in self.keys()}
        return colours.pop() if len(colours) == 1 else None

    @color.setter
    def color(self, value):
        self.sheet.book.app.calls.append(("color", self.address, value))
        if isinstance(value, str):
            value = hex_to_rgb(value)
        assert value is None or (isinstance(value, tuple) and len(value) == 3), value
        for k in self.keys():
            self.sheet.cell(*k).color = value

    @property
    def borders(self) -> FakeBorders:
        return FakeBorders(self)

    @property
    def font(self) -> FakeFont:
        return FakeFont(self)

    @property
    def note(self) -> FakeNote | None:
        assert self.shape == (1, 1) and len(self.rects) == 1
        key = self.rects[0][:2]
        cell = self.sheet.cells.get(key)
        return FakeNote(self.sheet, key) if cell is not None and cell.note is not None else None

    def add_note(self, text: str) -> FakeNote:
        if not isinstance(text, str) or not text:
            raise ValueError("Note text must be a non-empty string")
        if self.note is not None:
            raise ValueError("This cell already has a note")
        self.sheet.cell(*self.rects[0][:2]).note = text
        return self.note

    @property
    def merge_cells(self):
        covered = [m for m in self.sheet.merged if _overlaps(m, self.rects[0])]
        if not covered:
            return False
        return True if covered == [self.rects[0]] or self.shape == (1, 1) else None

    @property
    def merge_area(self) -> FakeRange:
        for m in self.sheet.merged:
            if _overlaps(m, self.rects[0]):
                return FakeRange(self.sheet, [m])
        return self

    def merge(self, across: bool = False) -> None:
        self.sheet.merged.append(self.rects[0])

    def unmerge(self) -> None:
        self.sheet.merged = [m for m in self.sheet.merged if not _overlaps(m, self.rects[0])]

    def clear(self) -> None:
        for k in self.keys():
            self.sheet.cells.pop(k, None)

    @property
    def column_width(self):
        return self.sheet.column_widths.get(self.column)

    @column_width.setter
    def column_width(self, value):
        assert 0 <= value <= 255
        self.sheet.column_widths[self.column] = value

    @property
    def row_height(self):
        return self.sheet.row_heights.get(self.row)

    @row_height.setter
    def row_height(self, value):
        assert 0 <= value <= 409.5
        self.sheet.row_heights[self.row] = value

    @property
    def number_format(self):
        """The common number format, ``None`` when the cells differ (as Excel)."""
        formats = {self.sheet.cells.get(k, FakeCell()).number_format for k in self.keys()}
        return formats.pop() if len(formats) == 1 else None

    @number_format.setter
    def number_format(self, value):
        for k in self.keys():
            self.sheet.cell(*k).number_format = value

    horizontal_alignment = None
    vertical_alignment = None
    wrap_text = None


def _overlaps(a, b) -> bool:
    """True when two rectangles share a cell."""
    return not (a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1])

"""The openpyxl back end of the sheet protocol: .xlsx/.xlsm files, no spreadsheet program.

Glossary
    XlsxBook   an open workbook file (``open_book``/``new_book``), saved with ``save``
    XlsxSheet  one worksheet; 1-based ``(row, col)`` cells, ``(top, left, bottom, right)`` rects

Long by design: every openpyxl call the protocol makes lives here, one method each.
"""

from __future__ import annotations

import datetime
import functools
import html
import io
import os
import re
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from copy import copy
from pathlib import Path
from typing import TypeVar

from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import MergedCell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.colors import COLOR_INDEX
from openpyxl.utils import column_index_from_string, get_column_letter, quote_sheetname
from openpyxl.utils.cell import coordinate_to_tuple, range_boundaries
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from ..inputs import workbook_file_problem
from . import paper
from .calc_colour import mixed, tinted
from .errors import WorkbookError
from .protocol import (
    BOTTOM,
    ERROR_VALUES,
    GENERAL,
    LEFT,
    RIGHT,
    TOP,
    Cell,
    CellFormat,
    Rect,
    SheetBase,
    Style,
    font_colour,
    plain_format,
)

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an OLE2 file: old .xls or encrypted OOXML
ENCRYPTED_MARK = "EncryptedPackage".encode("utf-16-le")
VBA_SUFFIXES = (".xlsm", ".xltm")
# Office theme colours lt1, dk1, lt2, dk2, accent1..6, hlink, folHlink (theme index 0..11).
THEME_COLOURS = (
    "#FFFFFF",
    "#000000",
    "#E7E6E6",
    "#44546A",
    "#4472C4",
    "#ED7D31",
    "#A5A5A5",
    "#FFC000",
    "#5B9BD5",
    "#70AD47",
    "#0563C1",
    "#954F72",
)
NO_FILL = PatternFill(fill_type=None)
NOTE_AUTHOR = "xlsolver"
FOOTER_POINTS = 8  # a credit at the foot of the page
MAX_FOOTER = 240  # characters of footer text: Excel takes 255 with its codes (&C&8)
HAIR = "hair"
T = TypeVar("T")


def _hex(color: str) -> str:
    """``#RRGGBB`` → openpyxl's ``FFRRGGBB``."""
    return "FF" + color.lstrip("#").upper()


# Indexed colours past the 64 of the palette, as Calc resolves them: the system's window
# text and window (64, 65; 77, 78 for charts; 79 a chart's automatic border), a note's
# background and text (80, 81).
SYSTEM_INDEX = {64: "#000000", 65: "#FFFFFF", 77: "#000000", 78: "#FFFFFF", 79: "#000000"}
SYSTEM_INDEX |= {80: "#FFFFE1", 81: "#000000"}
THEME_SLOTS = (
    "lt1",
    "dk1",
    "lt2",
    "dk2",
    *(f"accent{i}" for i in range(1, 7)),
    "hlink",
    "folHlink",
)
DRAWING_NS = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def theme_colours(wb) -> tuple[str, ...]:
    """The colours of a workbook's own theme in theme-index order (lt1, dk1, lt2, dk2,
    accent1..6, hlink, folHlink): the file's theme as loaded, else the one openpyxl
    writes into a new file; Office's defaults when it cannot be read."""
    from xml.etree import ElementTree

    from openpyxl.writer.theme import theme_xml

    xml = getattr(wb, "loaded_theme", None) or theme_xml
    try:
        scheme = ElementTree.fromstring(xml).find(f".//{DRAWING_NS}clrScheme")
        out = []
        for slot in THEME_SLOTS:
            colour = scheme.find(DRAWING_NS + slot)[0]
            value = colour.get("val") if colour.tag.endswith("srgbClr") else colour.get("lastClr")
            if not value or len(value) != 6:
                value = {"dk1": "000000", "lt1": "FFFFFF"}[slot]  # windowText, window
            out.append("#" + value.upper())
        return tuple(out)
    except Exception:  # no theme, or one this reading does not follow: Office's colours
        return THEME_COLOURS


def colour_hex(color, theme: tuple[str, ...] = THEME_COLOURS) -> str | None:
    """An openpyxl Color as ``#RRGGBB`` (indexed and theme colours resolved, a tint
    applied as Calc applies it, as Excel's "Lighter 80%" shades; the alpha of an ARGB
    ignored, as Calc does), else None. ``theme``: the workbook's theme colours (see
    :func:`theme_colours`)."""
    if color is None:
        return None
    kind = getattr(color, "type", None)
    if kind == "auto" and getattr(color, "auto", False):
        return "#000000"  # automatic: the system's foreground, black as Calc shows it
    out = _plain_colour(color, kind, theme)
    tint = getattr(color, "tint", 0) or 0
    if out is not None and isinstance(tint, float) and tint:
        out = tinted(out, tint)
    return out


def _plain_colour(color, kind: str | None, theme: tuple[str, ...]) -> str | None:
    """An rgb, indexed or theme Color as ``#RRGGBB`` before its tint, else None."""
    if kind == "rgb" and isinstance(color.rgb, str) and len(color.rgb) >= 6:
        return "#" + color.rgb[-6:].upper()
    if kind == "indexed" and isinstance(color.indexed, int):
        if 0 <= color.indexed < 64:
            return "#" + COLOR_INDEX[color.indexed][-6:].upper()
        return SYSTEM_INDEX.get(color.indexed)  # 64 system foreground, 65 background
    if kind == "theme" and isinstance(color.theme, int) and 0 <= color.theme < len(theme):
        return theme[color.theme]
    return None


def fill_hex(fill, theme: tuple[str, ...] = THEME_COLOURS) -> str | None:
    """The colour a cell's fill shows as Calc shows it, ``None`` when it has none: a
    pattern's two colours mixed by how much its dots cover, a gradient's first two
    stops (by position) half and half."""
    if fill is None:
        return None
    if getattr(fill, "stop", None) is not None and not hasattr(fill, "fgColor"):
        return gradient_hex(fill, theme)
    if fill.fill_type in (None, "none"):
        return None
    colour = colour_hex(fill.fgColor, theme) or "#FFFFFF"  # one Calc cannot resolve: white
    cover = PATTERN_COVER.get(fill.fill_type, 128)
    if cover == 128:
        return colour
    return mixed(colour, _pattern_back(fill.bgColor, theme), cover)


def _pattern_back(bg, theme: tuple[str, ...]) -> str:
    """What a pattern shows its dots on: unset or automatic is white. Excel writes an
    unchosen background as indexed 64 (the system's foreground) and shows it white;
    read so here, though Calc shows it black."""
    kind = getattr(bg, "type", None)
    unset = (
        bg is None
        or kind == "auto"
        or (kind == "rgb" and bg.rgb == "00000000")  # openpyxl's own for a missing one
        or (kind == "indexed" and bg.indexed == 64 and not bg.tint)
    )
    return "#FFFFFF" if unset else colour_hex(bg, theme) or "#FFFFFF"


def gradient_hex(fill, theme: tuple[str, ...] = THEME_COLOURS) -> str | None:
    """A gradient as Calc shows it in one colour: its two stops of lowest position
    mixed half and half (the rest unseen); ``None`` for fewer than two stops, as Calc
    leaves such a cell unfilled. An automatic stop is white."""
    by_position: dict[float, object] = {}
    for stop in fill.stop:
        if stop.position is not None and stop.position >= 0:
            by_position[float(stop.position)] = stop.color  # the last of a position wins
    if len(by_position) < 2:
        return None
    first, second = (by_position[p] for p in sorted(by_position)[:2])
    return mixed(_stop_hex(first, theme), _stop_hex(second, theme), 64)


def _stop_hex(color, theme: tuple[str, ...]) -> str:
    """A gradient stop's colour; automatic or unknown is white, as in Calc."""
    if getattr(color, "type", None) == "auto":
        return "#FFFFFF"
    return colour_hex(color, theme) or "#FFFFFF"


# How much of a cell a pattern's foreground covers, in 128ths, as Calc mixes them
# (Excel's "6.25% Gray" … "75% Gray", the line and grid patterns by their weight).
PATTERN_COVER = {"gray0625": 8, "gray125": 16, "lightGray": 32, "mediumGray": 64}
PATTERN_COVER |= {"darkGray": 96, "solid": 128}
PATTERN_COVER |= {
    f"{weight}{kind}": cover
    for weight, cover in (("light", 32), ("dark", 64))
    for kind in ("Horizontal", "Vertical", "Down", "Up", "Grid", "Trellis")
}
PATTERN_COVER |= {"lightGrid": 56, "lightTrellis": 48, "darkTrellis": 96}


def _not_a_workbook(path: Path) -> str:
    """Why a file cannot be opened: named .xlsx but damaged, or not a workbook at all."""
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        return "not a workbook: the file is damaged or is not a spreadsheet saved as .xlsx"
    return "not a workbook (.xlsx/.xlsm expected)"


def _not_a_zip(path: Path) -> str:
    """Why a file that is no zip is not a workbook: empty, text (a CSV renamed), or else."""
    size = path.stat().st_size
    if size == 0:
        return "the file is empty (0 bytes), not a workbook"
    with path.open("rb") as fh:
        head = fh.read(4096)
    if head.startswith(b"PK"):  # a zip cut short or damaged
        return _not_a_workbook(path)
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = exc.start >= len(head) - 3 and size > len(head)  # a character cut at the end
    else:
        text = True
    if text and b"\0" not in head and not head.lstrip().startswith(b"<"):
        kind = "comma-separated values (CSV)" if b"," in head or b";" in head else "text"
        return (
            f"{kind} named {path.suffix}, not a workbook; open it in a spreadsheet "
            "program and save it as .xlsx"
        )
    return _not_a_workbook(path)


STRICT_NAMESPACE = b"purl.oclc.org/ooxml/spreadsheetml/main"  # Excel's "Strict Open XML"


def _strict_ooxml(path: Path) -> bool:
    """True for a workbook saved as Strict Open XML (openpyxl reads its sheets as empty);
    WorkbookError when its workbook part cannot be unpacked (a damaged file)."""
    try:
        with zipfile.ZipFile(path) as zf, zf.open("xl/workbook.xml") as part:
            return STRICT_NAMESPACE in part.read(4096)
    except (KeyError, OSError):
        return False
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise WorkbookError(f"{path}: the workbook is corrupt ({exc})") from None


def check_workbook_file(path: Path) -> None:
    """Raise WorkbookError when a file is missing, encrypted, an old .xls or not a workbook."""
    problem = workbook_file_problem(path)
    if problem:
        raise WorkbookError(f"{path}: {problem}")
    with path.open("rb") as fh:
        head = fh.read(8)
        if head == OLE_MAGIC:
            rest = head + fh.read()
            if ENCRYPTED_MARK in rest:
                raise WorkbookError(
                    f"{path}: the workbook is password-protected; save a copy without a password"
                )
            raise WorkbookError(f"{path}: an old binary .xls workbook; save it as .xlsx")
    if not zipfile.is_zipfile(path):
        raise WorkbookError(f"{path}: {_not_a_zip(path)}")
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise WorkbookError(f"{path}: the workbook is corrupt ({exc})") from None
    if "content.xml" in names and "xl/workbook.xml" not in names:
        raise WorkbookError(f"{path}: an OpenDocument spreadsheet; save it as .xlsx")
    if "xl/workbook.xml" not in names:
        raise WorkbookError(f"{path}: {_not_a_workbook(path)}")
    if _strict_ooxml(path):
        raise WorkbookError(
            f"{path}: a Strict Open XML workbook, which cannot be read here; save it as an "
            f"ordinary Excel Workbook (.xlsx)"
        )
    from ..limits import TooLarge, check_workbook_zip  # before openpyxl allocates anything

    try:
        check_workbook_zip(path)
    except TooLarge as exc:
        raise WorkbookError(f"{path}: {exc}") from None
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:
        raise WorkbookError(f"{path}: the workbook is corrupt ({exc})") from None


_TAG = rb"<(?:[\w.-]+:)?"  # an element's start, with any namespace prefix
EMPTY_RESULT = re.compile(  # a formula cell saved with an empty <v>: <v></v> or <v/>
    _TAG
    + rb'c\b[^>]*?\sr="([A-Z]{1,3}[0-9]+)"[^>]*>\s*'
    + _TAG
    + rb"f\b[^>]*>([^<]*)</(?:[\w.-]+:)?f>\s*"
    + _TAG
    + rb"v\s*(?:/>|></(?:[\w.-]+:)?v>)\s*</(?:[\w.-]+:)?c>"
)
OPENPYXL_APP = b"Openpyxl"  # in docProps/app.xml of every file openpyxl wrote


def _empty_text_results(archive: zipfile.ZipFile, sheet_xml: bytes) -> set[Cell]:
    """Formula cells saved with an empty value whose formula can give empty text: what
    xlsxwriter writes for ``=IF(…,"")`` given the result ``""`` (an empty ``<v></v>``
    without the ``t="str"`` of Excel and LibreOffice), read as empty text. None in a file
    openpyxl wrote: it saves every formula with an empty ``<v>``, computed or not."""
    try:
        if OPENPYXL_APP in archive.read("docProps/app.xml"):
            return set()
    except KeyError:
        pass
    return {
        coordinate_to_tuple(m.group(1).decode())
        for m in EMPTY_RESULT.finditer(sheet_xml)
        if '""' in html.unescape(m.group(2).decode("utf-8", "replace"))
    }


def _saved_value(cell) -> object:
    """What the file saved for a cell: an empty text result of a formula (``<v></v>``
    typed as text, as Excel and LibreOffice save ``=IF(…,"")``) is ``""``, not None."""
    value = getattr(cell, "value", None)
    if value is None and getattr(cell, "data_type", None) in ("s", "str", "inlineStr"):
        return ""
    return value


def open_book(path: str | os.PathLike, *, read_only: bool = False) -> XlsxBook:
    """Open an .xlsx/.xlsm file (macros kept for .xlsm); WorkbookError when unreadable."""
    path = Path(path)
    check_workbook_file(path)
    keep_vba = path.suffix.lower() in VBA_SUFFIXES
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # data validation / conditional format notices
            wb = load_workbook(path, keep_vba=keep_vba, data_only=False, rich_text=False)
    except WorkbookError:
        raise
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError) as exc:
        raise WorkbookError(f"{path}: the workbook is corrupt ({exc})") from None
    except Exception as exc:  # openpyxl raises many kinds on damaged XML
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise WorkbookError(f"{path}: the workbook is corrupt ({reason})") from None
    return XlsxBook(wb, path=path, read_only=read_only)


def new_book() -> XlsxBook:
    """A new workbook with one empty sheet named ``Sheet1``."""
    wb = Workbook()
    wb.active.title = "Sheet1"
    return XlsxBook(wb)


class XlsxSheet(SheetBase):
    """One openpyxl worksheet behind the sheet protocol.

    ``saved`` gives values of cells as the file saved them (computed values instead of
    formulas), read only when a formula is read.
    """

    def __init__(
        self,
        ws: Worksheet,
        saved: Callable[[str, list[Cell]], dict[Cell, object] | None] | None = None,
    ):
        self.ws = ws
        self._saved = saved
        self._written: set[Cell] = set()  # formulas written since the file was opened
        self._border_cache: dict[tuple[int, str], tuple[Border, Border]] = {}

    @property
    def name(self) -> str:
        """The sheet's name as the user sees it."""
        return self.ws.title

    def hidden(self) -> bool:
        """True for a sheet saved hidden or very hidden."""
        return self.ws.sheet_state != "visible"

    @functools.cached_property
    def theme(self) -> tuple[str, ...]:
        """The workbook's theme colours, what a theme-coloured fill or font shows."""
        return theme_colours(self.ws.parent)

    def used_range(self) -> Rect | None:
        """The rectangle holding every value, fill or border, ``None`` for an empty sheet."""
        rows: list[int] = []
        cols: list[int] = []
        visible = _per_style(lambda cell: cell.has_style and _visible_style(cell))
        for (r, c), cell in self.ws._cells.items():
            if cell.value is not None or visible(cell):
                rows.append(r)
                cols.append(c)
        for rng in self.ws.merged_cells.ranges:
            rows += [rng.min_row, rng.max_row]
            cols += [rng.min_col, rng.max_col]
        if not rows:
            return None
        return (min(rows), min(cols), max(rows), max(cols))

    def _read_style(self, rect: Rect, value: Callable[[object], T]) -> list[list[T]]:
        """:meth:`_read` of something a cell's style alone decides (its fill, borders, font
        or number format): worked out once per style, as a grid has few. Each openpyxl
        style read builds a proxy object; on a 300×300 sheet that cost seconds."""
        return self._read(rect, _per_style(value))

    def _read(self, rect: Rect, value: Callable[[object], T]) -> list[list[T]]:
        """``value`` of each cell of a rectangle, row by row (the cell is None when absent)."""
        top, left, bottom, right = rect
        cells = self.ws._cells
        return [
            [value(cells.get((r, c))) for c in range(left, right + 1)]
            for r in range(top, bottom + 1)
        ]

    def read_values(self, rect: Rect) -> list[list[object]]:
        """Cell values of a rectangle, row by row (``None`` for empty cells).

        A formula gives the value the file saved for it (``None`` when it saved none, as
        openpyxl and other writers without a calculation engine leave it, or saved 0 in
        a file that asks to be recalculated on opening, as xlsxwriter does).
        """
        values = self._read(rect, lambda cell: None if cell is None else cell.value)
        formulas = self.read_formulas(rect)
        if not any(f is not None for row in formulas for f in row):
            return values
        top, left = rect[0], rect[1]
        wanted = [
            (top + i, left + j)
            for i, row in enumerate(formulas)
            for j, formula in enumerate(row)
            if formula is not None and (top + i, left + j) not in self._written
        ]
        saved = self._saved(self.ws.title, wanted) if self._saved and wanted else None
        for i, row in enumerate(formulas):
            for j, formula in enumerate(row):
                if formula is None:
                    continue
                cell = (top + i, left + j)
                fresh = saved is None or cell in self._written
                value = None if fresh else saved.get(cell)
                if value == 0 and not isinstance(value, bool) and self._recalculated_on_open():
                    value = None  # a writer's placeholder, not a computed value
                values[i][j] = value
        return values

    def _recalculated_on_open(self) -> bool:
        """True when the file asks to be recalculated on opening (``fullCalcOnLoad``).

        Writers without a calculation engine (xlsxwriter) save 0 for every formula and
        set this; a 0 saved for a formula of such a file is not what the formula gives.
        """
        calc = getattr(self.ws.parent, "calculation", None)
        return bool(getattr(calc, "fullCalcOnLoad", False))

    def read_formulas(self, rect: Rect) -> list[list[str | None]]:
        """The formula of each cell (``=5*1``), ``None`` where it holds none."""

        def formula(cell) -> str | None:
            if cell is None or cell.data_type != "f":
                return None
            text = getattr(cell.value, "text", cell.value)  # array formulas keep theirs in .text
            return str(text) if str(text).startswith("=") else f"={text}"

        return self._read(rect, formula)

    def read_font_colours(self, rect: Rect) -> list[list[str | None]]:
        """Font colours (``#RRGGBB``), ``None`` where automatic."""
        return self._read_style(
            rect,
            lambda cell: (
                font_colour(colour_hex(cell.font.color, self.theme))
                if cell is not None and cell.has_style and cell.font is not None
                else None
            ),
        )

    def read_number_formats(self, rect: Rect) -> list[list[str]]:
        """Number format codes of a rectangle (``General`` where none is set)."""
        return self._read_style(
            rect,
            lambda cell: (
                plain_format(cell.number_format) if cell is not None and cell.has_style else GENERAL
            ),
        )

    def shows_zeros(self) -> bool:
        """False when the sheet's view says ``showZeros="0"`` (Excel's "Show a zero in
        cells that have zero value" off for this sheet)."""
        views = self.ws.views.sheetView
        return not views or views[0].showZeros is not False

    def read_fills(self, rect: Rect) -> list[list[str | None]]:
        """Fill colours (``#RRGGBB``) of a rectangle, ``None`` where unfilled."""
        return self._read_style(
            rect,
            lambda cell: (
                fill_hex(cell.fill, self.theme) if cell is not None and cell.has_style else None
            ),
        )

    def read_diagonals(self, rect: Rect) -> list[list[bool]]:
        """True where a cell shows both diagonals (a crossed white cell)."""

        def crossed(cell) -> bool:
            b = cell.border if cell is not None and cell.has_style else None
            return bool(b and b.diagonalUp and b.diagonalDown and _drawn(b.diagonal))

        return self._read_style(rect, crossed)

    def read_border_sides(self, rect: Rect) -> list[list[int]]:
        """Per cell, the sides its own border draws (``TOP | BOTTOM | LEFT | RIGHT``)."""
        return self._read_style(rect, lambda cell: _sides(cell, _drawn))

    def read_heavy_sides(self, rect: Rect) -> list[list[int]]:
        """Per cell, the sides its own border draws with a medium, thick or double line."""
        return self._read_style(rect, lambda cell: _sides(cell, _heavy))

    def merged_ranges(self) -> list[Rect]:
        """The merged rectangles of the sheet."""
        return [(m.min_row, m.min_col, m.max_row, m.max_col) for m in self.ws.merged_cells.ranges]

    def _border_with(self, old: Border, diagonal: str | None) -> Border:
        """A copy of a border with both diagonals in a colour (None removes them)."""
        key = (id(old), diagonal or "")
        hit = self._border_cache.get(key)
        if hit is not None and hit[0] is old:
            return hit[1]
        new = Border(
            left=old.left,
            right=old.right,
            top=old.top,
            bottom=old.bottom,
            diagonal=Side(style=HAIR, color=_hex(diagonal)) if diagonal else Side(),
            diagonalUp=bool(diagonal),
            diagonalDown=bool(diagonal),
            vertical=old.vertical,
            horizontal=old.horizontal,
            outline=old.outline,
        )
        self._border_cache[key] = (old, new)
        return new

    def check_unlocked(self, cells: list[Cell], *, template: bool = False) -> None:
        """WorkbookError naming the first locked cell when the sheet is protected, as Excel
        and Calc refuse paint there: a file's copy is painted as the buttons would paint."""
        from .errors import locked_message

        if not cells or not self.ws.protection.sheet:
            return
        if template:
            raise WorkbookError(locked_message(self.name, min(cells), "Excel", template=True))
        for r, c in sorted(cells):
            cell = self.ws._cells.get((r, c))
            if cell is None or cell.protection.locked:  # a cell never styled is locked
                raise WorkbookError(locked_message(self.name, (r, c), "Excel"))

    def paint(self, cells: Iterable[Cell], style: Style) -> None:
        """Paint cells with a style, keeping their values and other borders.

        WorkbookError, nothing painted, when the sheet is protected and a cell is locked.
        """
        cells = list(cells)
        self.check_unlocked(cells)
        fill = (
            PatternFill(fill_type="solid", start_color=_hex(style.fill), end_color=_hex(style.fill))
            if style.fill
            else None
        )
        diagonal = style.diagonal_color if style.diagonals else None

        def restyle(cell) -> None:
            if fill is not None:
                cell.fill = fill
            cell.border = self._border_with(cell.border, diagonal)
            if style.font_color or style.bold:
                f = cell.font
                cell.font = Font(
                    name=f.name,
                    size=f.size,
                    bold=style.bold or f.bold,
                    italic=f.italic,
                    color=_hex(style.font_color) if style.font_color else f.color,
                )

        self._restyle((self.ws.cell(row=r, column=c) for r, c in cells), restyle)

    def unpaint(self, cells: Iterable[Cell]) -> None:
        """Remove fill and diagonals from cells (the Clear action), keeping other borders.

        WorkbookError, nothing changed, when the sheet is protected and a cell is locked.
        """
        cells = list(cells)
        self.check_unlocked(cells)

        def restyle(cell) -> None:
            cell.fill = NO_FILL
            cell.border = self._border_with(cell.border, None)

        found = (self.ws._cells.get(key) for key in cells)
        self._restyle((cell for cell in found if cell is not None and cell.has_style), restyle)

    @staticmethod
    def _restyle(cells: Iterable, restyle: Callable[[object], None]) -> None:
        """``restyle`` each cell, working it out once per style the cells had before.

        openpyxl looks every fill, border and font it is given up in the workbook's lists
        by hashing and comparing it, which cost most of painting a grid (a 300×300
        template took 13 s to format). Cells that had the same style get the same style
        ids, so only the first of them goes through openpyxl's setters; the file written
        is byte for byte the same.
        """
        done: dict[tuple[int, ...], StyleArray] = {}  # style ids before → after
        for cell in cells:
            before = tuple(cell._style or ())  # None: a new cell, no style yet
            after = done.get(before)
            if after is None:
                restyle(cell)
                done[before] = copy(cell._style)
            else:
                cell._style = copy(after)

    def write_values(self, top_left: Cell, values: Sequence[Sequence[object]]) -> None:
        """Write a block of values starting at a cell."""
        top, left = top_left
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                cell = self.ws.cell(row=top + i, column=left + j)
                if v is not None or not isinstance(cell, MergedCell):
                    cell.value = v  # None empties the cell (ws.cell(value=None) would not)
                    if isinstance(v, str) and cell.data_type == "f":
                        cell.data_type = "s"  # text is text: "=…" from a file is no formula
                    self._written.add((top + i, left + j))

    def clear_range(self, rect: Rect) -> None:
        """Remove values, formats, notes and merges from a rectangle (New grid)."""
        for m in list(self.ws.merged_cells.ranges):
            if _overlaps((m.min_row, m.min_col, m.max_row, m.max_col), rect):
                self.ws.unmerge_cells(str(m))
        top, left, bottom, right = rect
        for key in [k for k in self.ws._cells if top <= k[0] <= bottom and left <= k[1] <= right]:
            del self.ws._cells[key]
            self._written.discard(key)
        rules = self.ws.conditional_formatting._cf_rules  # those wholly inside go too, as
        for cf in list(rules):  # Calc's clearing removes them (an old template's checks)
            if all(
                top <= r.min_row
                and r.max_row <= bottom
                and left <= r.min_col
                and r.max_col <= right
                for r in cf.sqref.ranges
            ):
                del rules[cf]

    # ---- notes (hint reasons) -------------------------------------------------------

    def read_notes(self, rect: Rect) -> dict[Cell, str]:
        """The cell notes (comments) inside a rectangle."""
        top, left, bottom, right = rect
        return {
            key: str(cell.comment.text)
            for key, cell in self.ws._cells.items()
            if cell.comment is not None and top <= key[0] <= bottom and left <= key[1] <= right
        }

    def set_note(self, cell: Cell, text: str | None) -> None:
        """Put a note on a cell (``None`` removes it)."""
        from openpyxl.comments import Comment

        target = self.ws.cell(row=cell[0], column=cell[1])
        target.comment = Comment(text, NOTE_AUTHOR) if text else None

    def set_footer(self, text: str) -> None:
        """Text printed at the foot of every page (a puzzle's credit), cut with "…" to
        what Excel takes (255 characters, ``&`` written twice and the codes counted)."""
        if len(text.replace("&", "&&")) > MAX_FOOTER:
            while len(text.replace("&", "&&")) > MAX_FOOTER - 1:
                text = text[:-1]
            text = text.rstrip() + "…"
        self.ws.oddFooter.center.text = text.replace("&", "&&")
        self.ws.oddFooter.center.size = FOOTER_POINTS

    # ---- layout writing (template writer) -------------------------------------------

    def format_cells(self, cells: Iterable[Cell], fmt: CellFormat) -> None:
        """Set borders, alignment and font of cells (sides left ``None`` are kept)."""
        sides = {k: getattr(fmt, k) for k in ("left", "right", "top", "bottom")}
        align = None
        if fmt.horizontal or fmt.vertical or fmt.wrap or fmt.shrink:
            align = Alignment(
                horizontal=fmt.horizontal,
                vertical=fmt.vertical,
                wrap_text=fmt.wrap or None,
                shrink_to_fit=fmt.shrink or None,
            )

        def restyle(cell) -> None:
            if any(sides.values()):
                old = cell.border
                new_sides = {
                    k: Side(style=v, color=_hex(fmt.border_color)) if v else getattr(old, k)
                    for k, v in sides.items()
                }
                cell.border = Border(
                    **new_sides,
                    diagonal=old.diagonal,
                    diagonalUp=old.diagonalUp,
                    diagonalDown=old.diagonalDown,
                )
            if align is not None:
                cell.alignment = align
            if fmt.font_size or fmt.bold:
                cell.font = Font(
                    name=cell.font.name,
                    size=fmt.font_size or cell.font.size,
                    bold=fmt.bold or cell.font.bold,
                )
            if fmt.number_format:
                cell.number_format = fmt.number_format

        self._restyle((self.ws.cell(row=r, column=c) for r, c in cells), restyle)

    def set_column_widths(self, widths: dict[int, float]) -> None:
        """Column widths in characters as Excel shows them, by 1-based column number
        (stored with Excel's padding: :func:`paper.stored_width`)."""
        for c, w in widths.items():
            self.ws.column_dimensions[get_column_letter(c)].width = paper.stored_width(w)

    def set_row_heights(self, heights: dict[int, float]) -> None:
        """Row heights in points, by 1-based row number."""
        for r, h in heights.items():
            self.ws.row_dimensions[r].height = h

    def merge(self, rect: Rect) -> None:
        """Merge a rectangle of cells."""
        top, left, bottom, right = rect
        self.ws.merge_cells(start_row=top, start_column=left, end_row=bottom, end_column=right)

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
        """Set the print area and how it goes on paper.

        ``fit_to_page`` scales it to one page; ``fit_width`` to one page wide and as many
        pages tall as it needs. ``landscape`` (default: by the area's shape),
        ``repeat_rows`` (first, last) printed on top of every page, and a page break
        after each row of ``row_breaks``.
        """
        self.ws.print_area = _a1(area)
        if fit_to_page or fit_width:
            self.ws.sheet_properties.pageSetUpPr.fitToPage = True
            self.ws.page_setup.fitToWidth = 1
            self.ws.page_setup.fitToHeight = 0 if fit_width else 1
        if landscape is None:
            landscape = paper.landscape(area)
        self.ws.page_setup.orientation = "landscape" if landscape else "portrait"
        self.ws.print_options.horizontalCentered = True
        if repeat_rows is not None:
            self.ws.print_title_rows = f"{repeat_rows[0]}:{repeat_rows[1]}"
        for row in row_breaks:
            self.ws.row_breaks.append(Break(id=row))

    def write_formula(self, cell: Cell, formula: str) -> None:
        """Write a formula (Excel syntax, starting with ``=``) into a cell."""
        if not formula.startswith("="):
            raise ValueError(f"a formula starts with '=': {formula!r}")
        self.ws.cell(row=cell[0], column=cell[1]).value = formula
        self._written.add(cell)

    def set_conditional_format(self, rect: Rect, formula: str, style: Style) -> bool:
        """Show ``style`` where ``formula`` (for the top-left cell, no ``=``) is true."""
        from openpyxl.formatting.rule import FormulaRule

        ref = _a1(rect).replace("$", "")
        rules = self.ws.conditional_formatting
        for old in list(rules):
            if any(_overlaps(a1_rect(str(r)), rect) for r in old.sqref.ranges):
                del rules[str(old.sqref)]
        fill = (
            PatternFill(
                fill_type="solid",
                start_color=_hex(style.fill),
                end_color=_hex(style.fill),
                bgColor=_hex(style.fill),
            )
            if style.fill
            else None
        )
        font = None
        if style.font_color:
            font = Font(color=_hex(style.font_color), bold=style.bold or None)
        rules.add(ref, FormulaRule(formula=[formula], fill=fill, font=font, stopIfTrue=False))
        return True


def _overlaps(a: Rect, b: Rect) -> bool:
    """True when two rectangles share a cell."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _per_style(value: Callable[[object], T]) -> Callable[[object], T]:
    """``value`` of a cell (or None) worked out once per style: for what a cell's style
    alone decides. A cell without a style counts as no cell."""
    memo: dict[tuple[int, ...] | None, T] = {}

    def by_style(cell) -> T:
        key = tuple(cell._style) if cell is not None and cell._style else None
        if key in memo:
            return memo[key]
        memo[key] = found = value(cell)
        return found

    return by_style


def _visible_style(cell) -> bool:
    """True when a cell shows a fill or a border (not merely a font or number format)."""
    if cell.fill is not None and cell.fill.fill_type not in (None, "none"):
        return True
    b = cell.border
    return bool(b and any(_drawn(getattr(b, side)) for side in ("left", "right", "top", "bottom")))


def _sides(cell, shown) -> int:
    """The side bits of a cell's own border for which ``shown(side)`` holds."""
    b = cell.border if cell is not None and cell.has_style else None
    if b is None:
        return 0
    return (
        (TOP if shown(b.top) else 0)
        | (BOTTOM if shown(b.bottom) else 0)
        | (LEFT if shown(b.left) else 0)
        | (RIGHT if shown(b.right) else 0)
    )


def _drawn(side) -> bool:
    """True when a border side draws a line (an empty ``<border/>`` has ``None`` sides)."""
    return side is not None and bool(side.style)


HEAVY_STYLES = frozenset(
    {
        "medium",
        "thick",
        "double",
        "mediumDashed",
        "mediumDashDot",
        "mediumDashDotDot",
        "slantDashDot",
    }
)


def _heavy(side) -> bool:
    """True when a border side draws a heavy line (Excel's medium and thick weights)."""
    return side is not None and side.style in HEAVY_STYLES


def _a1(rect: Rect) -> str:
    """``(1, 1, 3, 2)`` → ``"$A$1:$B$3"``."""
    top, left, bottom, right = rect
    return f"${get_column_letter(left)}${top}:${get_column_letter(right)}${bottom}"


def a1_rect(ref: str) -> Rect:
    """``"B3:D9"`` (``$`` allowed) → ``(3, 2, 9, 4)``."""
    left, top, right, bottom = range_boundaries(ref.replace("$", ""))
    return (top, left, bottom, right)


class XlsxBook:
    """An openpyxl workbook behind the book protocol."""

    def __init__(self, wb: Workbook, *, path: Path | None = None, read_only: bool = False):
        self.wb = wb
        self.path = path
        self.read_only = read_only
        self.on_progress: Callable[[float | None, str], None] | None = None
        self._saved_cells: dict[str, dict[Cell, object]] = {}  # sheet → cells read so far
        self._empty_text_cells: dict[str, set[Cell]] = {}  # sheet → see _empty_texts
        self.left_out: dict[str, int] = {}  # what the last save left out (xlsx_parts.left_out)
        # keyed by the worksheet itself, so a sheet renamed through ``sheet.ws.title`` is
        # still found under its new name
        self._sheets = {id(ws): XlsxSheet(ws, self._saved_values) for ws in wb.worksheets}

    def _saved_values(self, title: str, cells: list[Cell]) -> dict[Cell, object] | None:
        """The values the file saved in these cells of a sheet (computed values of formulas).

        Streamed (openpyxl's read-only mode) over the rows that hold the cells only, so a
        formula at the top of a large sheet costs milliseconds, not a second load of the
        whole workbook with its styles. None when the file cannot be read again.
        """
        if self.path is None:
            return None
        known = self._saved_cells.setdefault(title, {})
        missing = [cell for cell in cells if cell not in known]
        if missing:
            top, bottom = min(r for r, _ in missing), max(r for r, _ in missing)
            left, right = min(c for _, c in missing), max(c for _, c in missing)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    wb = load_workbook(self.path, read_only=True, data_only=True)
                    try:
                        if title not in wb.sheetnames:
                            return None
                        rows = wb[title].iter_rows(
                            min_row=top, max_row=bottom, min_col=left, max_col=right
                        )
                        for r, row in enumerate(rows, start=top):
                            for c, cell in enumerate(row, start=left):
                                known[(r, c)] = _saved_value(cell)
                        unsaved = {cell for cell in missing if known.get(cell) is None}
                        for cell in self._empty_texts(wb, title) & unsaved if unsaved else ():
                            known[cell] = ""
                    finally:
                        wb.close()
            except Exception:  # the file changed or vanished since it was opened
                return None
        return known

    def _empty_texts(self, saved: Workbook, title: str) -> set[Cell]:
        """The cells of a sheet whose formula the file saved as empty text without
        saying so (:func:`_empty_text_results`), read once from ``saved`` (read-only)."""
        if title not in self._empty_text_cells:
            try:
                with saved[title]._get_source() as src:
                    xml = src.read()
                self._empty_text_cells[title] = _empty_text_results(saved._archive, xml)
            except Exception:  # an unusual part layout: no such cells known
                self._empty_text_cells[title] = set()
        return self._empty_text_cells[title]

    def sheets(self) -> list[XlsxSheet]:
        """All worksheets in order (chart sheets left out)."""
        return [self._of(ws) for ws in self.wb.worksheets]

    def sheet(self, name: str) -> XlsxSheet:
        """The worksheet of that name (KeyError naming it when absent)."""
        for ws in self.wb.worksheets:
            if ws.title == name:
                return self._of(ws)
        names = ", ".join(ws.title for ws in self.wb.worksheets)
        raise KeyError(f"no sheet named {name!r} (sheets: {names})")

    def _of(self, ws) -> XlsxSheet:
        """The XlsxSheet of a worksheet (made when first asked for)."""
        sheet = self._sheets.get(id(ws))
        if sheet is None:
            sheet = self._sheets[id(ws)] = XlsxSheet(ws, self._saved_values)
        return sheet

    def column_widths(self) -> dict[str, dict[int, float]]:
        """The columns given a width, sheet by sheet: characters as Excel shows them."""
        out: dict[str, dict[int, float]] = {}
        for ws in self.wb.worksheets:
            for key, dim in ws.column_dimensions.items():
                if not dim.customWidth or not dim.width:
                    continue
                first = dim.min or column_index_from_string(key)
                chars = paper.characters(paper.excel_pixels(dim.width))
                for c in range(first, max(first, dim.max or first) + 1):
                    out.setdefault(ws.title, {})[c] = chars
        return out

    def add_sheet(self, name: str) -> XlsxSheet:
        """Append a new empty worksheet; a leftover default empty sheet is reused."""
        ws = self.wb.create_sheet(title=name)
        self._sheets[id(ws)] = XlsxSheet(ws)
        return self._sheets[id(ws)]

    def remove_sheet(self, name: str) -> None:
        """Delete a worksheet."""
        ws = self.wb[name]
        self.wb.remove(ws)
        self._sheets.pop(id(ws), None)

    def defined_names(self) -> dict[str, tuple[str, Rect]]:
        """Defined names referring to one rectangle: ``name`` → (sheet, rect).

        Workbook-level names appear as ``NAME``; names local to a sheet as ``SHEET!NAME``.
        """
        out: dict[str, tuple[str, Rect]] = {}
        for name, dn in self.wb.defined_names.items():
            target = _destination(dn)
            if target:
                out[name] = target
        for ws in self.wb.worksheets:
            for name, dn in ws.defined_names.items():
                target = _destination(dn, default_sheet=ws.title)
                if target:
                    out[f"{ws.title}!{name}"] = target
        return out

    def define_name(self, name: str, sheet: str, rect: Rect) -> None:
        """Add (or replace) a workbook-level defined name for a rectangle."""
        ref = f"{quote_sheetname(sheet)}!{_a1(rect)}"
        if name in self.wb.defined_names:
            del self.wb.defined_names[name]
        self.wb.defined_names[name] = DefinedName(name, attr_text=ref)

    def progress(self, fraction: float | None, message: str) -> None:
        """Pass progress to ``on_progress`` when set (files have no status bar)."""
        if self.on_progress is not None:
            self.on_progress(fraction, message)

    def save(self, path: str | os.PathLike, *, overwrite_input: bool = False) -> Path:
        """Write atomically through :mod:`xlsolver.writes` (temp file, fsync, rename).

        Refuses to write over the file it was opened from unless ``overwrite_input``.
        The workbook is built in memory first, so a full disk leaves no half-closed zip.
        What the copy leaves out of the file it was opened from (a text box, a slicer:
        parts openpyxl cannot keep) is set in ``left_out``; painting the file itself
        (``overwrite_input``) is refused when that would remove anything.
        """
        from ..writes import WriteError, check_output, write_bytes
        from .xlsx_parts import in_place_refusal, left_out

        if self.read_only:
            raise WorkbookError(f"{self.path}: opened read-only, not saved")
        try:
            target = check_output(path, [self.path], in_place=overwrite_input)
            data = self._with_saved_values(workbook_bytes(self.wb, path))
            self.left_out = left_out(self.path, data) if self.path is not None else {}
            if self.left_out and overwrite_input and _same(target, self.path):
                raise WorkbookError(in_place_refusal(self.path, self.left_out))
            return write_bytes(path, data, [self.path], in_place=overwrite_input)
        except WriteError as exc:
            raise WorkbookError(str(exc)) from None

    def _with_saved_values(self, data: bytes) -> bytes:
        """The written file with each formula's saved value put back as the file opened
        had it: openpyxl writes formulas without values, and a copy whose clues are
        formulas could not be read again (by this program, or by a reader that does
        not compute). Formulas written since opening keep none."""
        patches: dict[str, dict[str, bytes]] = {}
        for idx, ws in enumerate(self.wb.worksheets, 1):
            written = self._of(ws)._written
            cells = [k for k, c in ws._cells.items() if c.data_type == "f" and k not in written]
            saved = self._saved_values(ws.title, cells) if cells else None
            if not saved:
                continue
            values = {
                f"{get_column_letter(c)}{r}": _saved_xml(saved.get((r, c)), self.wb.epoch)
                for r, c in cells
            }
            patches[f"xl/worksheets/sheet{idx}.xml"] = {k: v for k, v in values.items() if v}
        if not any(patches.values()):
            return data
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
            for item in zin.infolist():
                body = zin.read(item)
                if patches.get(item.filename):
                    body = _put_values(body, patches[item.filename])
                zout.writestr(item, body)
        return out.getvalue()


FORMULA_CELL = re.compile(  # a formula cell as openpyxl writes it: no saved value
    rb'<c r="([A-Z]+\d+)"([^>]*?)>(<f[^>]*>.*?</f>)(?:<v\s*/>|<v></v>)</c>', re.S
)


def _saved_xml(value: object, epoch) -> bytes:
    """A saved value as the ``t`` attribute and ``<v>`` element of its cell, b"" for none."""
    from xml.sax.saxutils import escape

    from openpyxl.utils.datetime import to_excel

    if value is None:
        return b""
    if isinstance(value, bool):
        return b' t="b"><v>' + (b"1" if value else b"0") + b"</v>"
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        value = to_excel(value, epoch)
    if isinstance(value, (int, float)):
        return b"><v>" + repr(value).encode() + b"</v>"
    kind = b"e" if value in ERROR_VALUES else b"str"
    return b' t="' + kind + b'"><v>' + escape(str(value)).encode() + b"</v>"


def _put_values(xml: bytes, values: dict[str, bytes]) -> bytes:
    """A worksheet part with saved values put into its formula cells (``A1`` → value)."""

    def put(m: re.Match) -> bytes:
        saved = values.get(m.group(1).decode())
        if not saved:
            return m.group(0)
        attrs = re.sub(rb'\s+t="[^"]*"', b"", m.group(2))
        head, value = saved.split(b">", 1)
        return b'<c r="' + m.group(1) + b'"' + attrs + head + b">" + m.group(3) + value + b"</c>"

    return FORMULA_CELL.sub(put, xml)


MACRO_FREE_MAIN = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
MACRO_ENABLED_MAIN = b"application/vnd.ms-excel.sheet.macroEnabled.main+xml"


def workbook_bytes(wb: Workbook, target: str | os.PathLike, suffix: str | None = None) -> bytes:
    """The file openpyxl writes for ``wb``, of the kind ``suffix`` (default: the target's)
    names: Excel opens a file only when its content type matches its suffix. An .xlsx
    leaves the macros of an .xlsm out (counted as a VBA project the copy lacks); an .xlsm
    of a book without macros is marked macro-enabled (openpyxl marks it by the macros
    alone)."""
    from ..writes import render

    suffix = (suffix or Path(target).suffix).lower()
    vba = wb.vba_archive
    if suffix == ".xlsx":
        wb.vba_archive = None
    try:
        data = render(target, wb.save)
    finally:
        wb.vba_archive = vba
    if suffix == ".xlsm" and vba is None:
        data = _retyped(data, MACRO_FREE_MAIN, MACRO_ENABLED_MAIN)
    return data


def _retyped(data: bytes, old: bytes, new: bytes) -> bytes:
    """The zip with one content type of ``[Content_Types].xml`` replaced."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for item in zin.infolist():
            body = zin.read(item)
            if item.filename == "[Content_Types].xml":
                body = body.replace(old, new)
            zout.writestr(item, body)
    return out.getvalue()


def _same(a: Path, b: Path | None) -> bool:
    """True when both names are one file on disk."""
    try:
        return b is not None and os.path.samefile(a, b)
    except OSError:
        return False


def _destination(dn: DefinedName, default_sheet: str | None = None) -> tuple[str, Rect] | None:
    """The (sheet, rect) a defined name refers to, ``None`` unless it is one plain range."""
    try:
        dests = list(dn.destinations)
    except Exception:
        return None
    if len(dests) != 1:
        return None
    sheet, ref = dests[0]
    sheet = sheet or default_sheet
    if not sheet or not ref:
        return None
    try:
        return sheet, a1_rect(ref)
    except (ValueError, TypeError):
        return None

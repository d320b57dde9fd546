"""One read of a sheet into a grid of facts the finder works on.

Everything comes through the sheet protocol (values, fills, borders, number formats,
formulas), so the openpyxl, UNO and xlwings back ends give the finder the same facts.
Reads a back end may lack (``read_seen_sides``, ``read_number_formats``,
``read_formulas``) fall back to "none known". A 0 the sheet shows as a blank cell (its
number format ``0;-0;;@``, or the sheet's "show zeros" off) is read as empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..sheets.errors import WorkbookError
from ..sheets.protocol import ALL_SIDES, Cell, Rect, Sheet, is_error_value
from .address import where
from .clues import BadClue, dimension_label, parse_clues, shown_blank
from .frames import framed_cells
from .marks import PAPER, is_symbol, luminance

TOTALS_FORMULA = "clue totals"  # in the formula of a template's totals cell
MAX_SCAN_CELLS = 2_000_000  # a used range larger than this is not scanned cell by cell
MAX_JUNK_LENGTH = 3  # short text in a clue band is a mistyped clue, longer text a note

# Kinds of cell: EMPTY, a CLUE, JUNK (short text: a mistyped clue), TEXT (a title, a
# label, a note), a MARK symbol (■, x, ・: a player's, never a clue), a RULER index.
EMPTY, CLUE, JUNK, TEXT, MARK, RULER = 0, 1, 2, 3, 4, 5
BAND_KINDS = (CLUE, JUNK, MARK)  # what a clue band may hold
WEAK, STRONG = 1, 2  # a clue of 0 or 1 (could be a player's mark) / any other clue


class NoPuzzleError(WorkbookError):
    """The sheet holds no clues at all (a notes sheet is skipped, not an error)."""


@dataclass
class Facts:
    """The scanned rectangle of a sheet, cell by cell (index [i, j] is origin + (i, j))."""

    sheet: str
    origin: Cell
    values: list[list[object]]
    formats: list[list[str]] | None
    kind: np.ndarray  # EMPTY / CLUE / JUNK / TEXT / MARK / RULER
    strength: np.ndarray  # 0, WEAK or STRONG per clue cell
    filled: np.ndarray  # a visible fill
    boxed: np.ndarray  # a line on all four sides, or inside a drawn frame (an outer border)
    formulas: dict[Cell, str] = field(default_factory=dict)  # formulas without a saved value
    totals: list[Rect] = field(default_factory=list)  # lines of sums set aside (totals.py)
    # lines of counts beside a boxed grid with a count wrong: not weighed where the grid's
    # corner is looked for, still read (and named) beside the grid found (totals.py)
    wrong_totals: list[Rect] = field(default_factory=list)

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) scanned."""
        return self.kind.shape  # type: ignore[return-value]

    def index(self, cell: Cell) -> tuple[int, int] | None:
        """Array index of a sheet cell, None outside the scan."""
        i, j = cell[0] - self.origin[0], cell[1] - self.origin[1]
        h, w = self.shape
        return (i, j) if 0 <= i < h and 0 <= j < w else None

    def at(self, cell: Cell) -> object:
        """The value of a sheet cell (None outside the scan)."""
        ij = self.index(cell)
        return None if ij is None else self.values[ij[0]][ij[1]]

    def number_format(self, cell: Cell) -> str | None:
        """The number format of a cell, None when the back end cannot say."""
        ij = self.index(cell)
        return None if ij is None or self.formats is None else self.formats[ij[0]][ij[1]]

    def cell(self, i: int, j: int) -> Cell:
        """The sheet cell of an array index."""
        return (int(self.origin[0] + i), int(self.origin[1] + j))

    def unsaved(self, cell: Cell) -> WorkbookError:
        """The error for a cell whose formula the file holds no value of."""
        return WorkbookError(
            f"{where(self.sheet, cell)}: the formula {self.formulas[cell]} has no saved "
            f"value; open and save the file in a spreadsheet program, or type the clues"
        )

    def clues(self, cell: Cell) -> tuple[int, ...]:
        """The clues one cell holds; WorkbookError naming the cell when it is not a clue."""
        if cell in self.formulas:
            raise self.unsaved(cell)
        try:
            return parse_clues(self.at(cell), self.number_format(cell))
        except BadClue as exc:
            raise WorkbookError(f"{where(self.sheet, cell)}: {exc}") from None


def _read(sheet: Sheet, method: str, rect: Rect):
    """An optional protocol read, None when the back end does not have it."""
    read = getattr(sheet, method, None)
    return None if read is None else read(rect)


def blank(value: object) -> bool:
    """True for a cell that holds nothing (no value, or only spaces)."""
    return value is None or (isinstance(value, str) and not value.strip())


def classify(value: object, number_format: str | None) -> tuple[int, int]:
    """(kind, strength) of one cell value."""
    if blank(value):
        return EMPTY, 0
    if is_symbol(value):
        return MARK, 0
    try:
        numbers = parse_clues(value, number_format)
    except BadClue:
        numbers = None
    if numbers:
        return CLUE, WEAK if numbers in ((0,), (1,)) else STRONG
    if isinstance(value, str) and (value.startswith("=") or is_error_value(value)):
        return JUNK, 0  # a formula the file saved no value for, or one that failed (#N/A)
    if dimension_label(value):
        return TEXT, 0
    if isinstance(value, str) and len(value.strip()) > MAX_JUNK_LENGTH and not _clue_like(value):
        return TEXT, 0
    return JUNK, 0


def _clue_like(text: str) -> bool:
    """True for text of digits and separators only (``3+1+2``, ``2_4_1``): clues typed
    with a separator that is not read, a mistyped clue however long, not a note."""
    digits = sum(ch.isdigit() for ch in text)
    return digits >= 2 and not any(ch.isalpha() for ch in text)


def scan(sheet: Sheet, area: Rect | None = None) -> Facts:
    """Read and classify the used range (or ``area`` of it); NoPuzzleError when empty."""
    used = sheet.used_range()
    if used is not None and area is not None:
        used = (
            max(used[0], area[0]),
            max(used[1], area[1]),
            min(used[2], area[2]),
            min(used[3], area[3]),
        )
        used = used if used[0] <= used[2] and used[1] <= used[3] else None
    if used is None:
        raise NoPuzzleError(f"{sheet.name}: the sheet is empty")
    top, left, bottom, right = used
    h, w = bottom - top + 1, right - left + 1
    if h * w > MAX_SCAN_CELLS:
        raise WorkbookError(
            f"{where(sheet.name, used)}: the used range is too large to scan; "
            f"delete the cells far from the puzzle"
        )
    values = sheet.read_values(used)
    formats = _read(sheet, "read_number_formats", used)
    formulas = _read(sheet, "read_formulas", used)
    fills = sheet.read_fills(used)
    seen = _read(sheet, "read_seen_sides", used)
    shows_zeros = getattr(sheet, "shows_zeros", None)
    zeros_shown = shows_zeros is None or shows_zeros()
    kind = np.zeros((h, w), dtype=np.int8)
    strength = np.zeros((h, w), dtype=np.int8)
    unsaved: dict[Cell, str] = {}
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            if v is None and formulas is not None and formulas[i][j]:
                if TOTALS_FORMULA in str(formulas[i][j]):
                    continue  # a template's own totals check (A3): never a clue
                unsaved[(top + i, left + j)] = str(formulas[i][j])
                kind[i, j] = JUNK
                continue
            number_format = formats[i][j] if formats else None
            if shown_blank(v, number_format, zeros_shown):  # as the sheet shows it: empty
                row[j] = v = None
            kind[i, j], strength[i, j] = classify(v, number_format)
    filled = np.array(
        [[f is not None and luminance(f) < PAPER for f in row] for row in fills], dtype=bool
    ).reshape(h, w)
    if seen is None:
        boxed = np.zeros((h, w), dtype=bool)
    else:
        sides = np.array(seen, dtype=np.int8).reshape(h, w)
        boxed = (sides == ALL_SIDES) | framed_cells(sides)
    return Facts(sheet.name, (top, left), values, formats, kind, strength, filled, boxed, unsaved)

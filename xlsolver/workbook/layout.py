"""Finding a nonogram on a worksheet, written once above the sheet protocol.

Glossary
    grid        the H×W rectangle of puzzle cells on the sheet
    corner      the grid's top-left cell: column clues stand above it, row clues left of it
    clue band   the rows above the grid (column clues) or columns left of it (row clues)
    givens      cells a person already painted: dark fill = black, a cross or ``x`` = white

Every layout of CONVENTIONS §3 is read by one code path: a line's clues are the clue
cells of its band read in order, each cell holding one number or a list of numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..limits import MAX_SIDE
from ..nonogram.cells import BLACK_CONC, BLANK, WHITE_CONC, empty_grid
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle, PuzzleError, line_name
from ..sheets.errors import WorkbookError
from ..sheets.protocol import Book, Cell, Rect, Sheet
from .address import where
from .clues import BadClue, dimension_label, is_clue, parse_clues, parse_size
from .colour_read import colour_givens, read_colour_puzzle

MAX_SCAN_CELLS = 2_000_000  # a used range larger than this is not scanned cell by cell
MAX_JUNK_LENGTH = 3  # short text in a clue band is a mistyped clue, longer text a note
DARK = 0.7  # fills darker than this (relative luminance) are black givens
WHITE_MARKS = frozenset({"x", "×", "✕", "✗", "・", "·", "-", "/"})
GRID_NAME, ROW_NAME, COL_NAME, SIZE_NAME = "PuzzleGrid", "RowClues", "ColClues", "PuzzleSize"

EMPTY, CLUE, JUNK, TEXT = 0, 1, 2, 3  # kinds of cell found while scanning


class NoPuzzleError(WorkbookError):
    """The sheet holds no clues at all (a notes sheet is skipped, not an error)."""


@dataclass
class SheetPuzzle:
    """A puzzle found on a sheet and where its parts are."""

    sheet: str
    puzzle: Puzzle
    grid: Rect  # (top, left, bottom, right), 1-based, inclusive
    row_clue_cells: list[Rect] = field(default_factory=list)  # one rect per row
    col_clue_cells: list[Rect] = field(default_factory=list)  # one rect per column
    givens: np.ndarray | None = None  # uint8 states, None unless asked for
    layout: str = "template"  # "template" or "named"

    @property
    def height(self) -> int:
        """Number of grid rows."""
        return self.grid[2] - self.grid[0] + 1

    @property
    def width(self) -> int:
        """Number of grid columns."""
        return self.grid[3] - self.grid[1] + 1

    def cell(self, r: int, c: int) -> Cell:
        """The sheet cell of grid row ``r``, column ``c`` (both from 0)."""
        return (self.grid[0] + r, self.grid[1] + c)

    def cells(self, mask: np.ndarray) -> list[Cell]:
        """Sheet cells where a boolean H×W mask is True."""
        return [self.cell(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]


@dataclass
class _Scan:
    """The used range of a sheet classified cell by cell."""

    origin: Cell
    values: list[list[object]]
    kind: np.ndarray  # EMPTY / CLUE / JUNK / TEXT per cell

    def at(self, r: int, c: int) -> object:
        """The value of a sheet cell (None outside the scanned range)."""
        i, j = r - self.origin[0], c - self.origin[1]
        if 0 <= i < len(self.values) and 0 <= j < len(self.values[0]):
            return self.values[i][j]
        return None

    def kinds(self, rect: Rect) -> np.ndarray:
        """The kinds of a rectangle (EMPTY outside the scanned range)."""
        top, left, bottom, right = rect
        out = np.zeros((bottom - top + 1, right - left + 1), dtype=np.int8)
        r0, c0 = self.origin
        h, w = self.kind.shape
        t, lft = max(top, r0), max(left, c0)
        b, rt = min(bottom, r0 + h - 1), min(right, c0 + w - 1)
        if t <= b and lft <= rt:
            out[t - top : b - top + 1, lft - left : rt - left + 1] = self.kind[
                t - r0 : b - r0 + 1, lft - c0 : rt - c0 + 1
            ]
        return out


def _scan(sheet: Sheet) -> _Scan:
    """Read and classify the used range; NoPuzzleError when the sheet is empty."""
    used = sheet.used_range()
    if used is None:
        raise NoPuzzleError(f"{sheet.name}: the sheet is empty")
    top, left, bottom, right = used
    if (bottom - top + 1) * (right - left + 1) > MAX_SCAN_CELLS:
        raise WorkbookError(
            f"{where(sheet.name, used)}: the used range is too large to scan; "
            f"delete the cells far from the puzzle"
        )
    values = sheet.read_values(used)
    kind = np.zeros((bottom - top + 1, right - left + 1), dtype=np.int8)
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            if v is None or (isinstance(v, str) and not v.strip()):
                continue
            if is_clue(v):
                kind[i, j] = CLUE
            elif dimension_label(v):
                kind[i, j] = TEXT
            elif isinstance(v, str) and len(v.strip()) > MAX_JUNK_LENGTH:
                kind[i, j] = TEXT
            else:
                kind[i, j] = JUNK
    return _Scan((top, left), values, kind)


def _dimensions(scan: _Scan, sheet: str) -> tuple[dict[str, tuple[int, Cell]], set[Cell]]:
    """Labelled width/height cells: {"width": (value, cell)} and the cells they occupy."""
    found: dict[str, tuple[int, Cell]] = {}
    used: set[Cell] = set()
    r0, c0 = scan.origin
    for i, row in enumerate(scan.values):
        for j, v in enumerate(row):
            label = dimension_label(v)
            if not label:
                continue
            for di, dj in ((0, 1), (0, 2), (1, 0)):
                cell = (r0 + i + di, c0 + j + dj)
                value = scan.at(*cell)
                if value is None:
                    continue
                try:
                    numbers = parse_clues(value)
                except BadClue:
                    break
                if len(numbers) == 1:
                    if label in found and found[label][0] != numbers[0]:
                        raise WorkbookError(
                            f"{where(sheet, cell)}: {label} {numbers[0]} differs from "
                            f"{label} {found[label][0]} at {where(sheet, found[label][1])}"
                        )
                    found[label] = (numbers[0], cell)
                    used.update({cell, (r0 + i, c0 + j)})
                break
    return found, used


def _named(book: Book | None, sheet: str) -> dict[str, Rect]:
    """The special defined names that refer to this sheet (sheet-local names first)."""
    if book is None:
        return {}
    names = book.defined_names()
    out: dict[str, Rect] = {}
    for key in (GRID_NAME, ROW_NAME, COL_NAME, SIZE_NAME):
        for name in (f"{sheet}!{key}", key):
            target = names.get(name)
            if target and target[0] == sheet:
                out[key] = target[1]
                break
    return out


def _size_from_name(sheet: Sheet, rect: Rect) -> tuple[int, int]:
    """(width, height) from the cells a ``PuzzleSize`` name refers to."""
    values = [v for row in sheet.read_values(rect) for v in row if v is not None]
    if len(values) == 1 and parse_size(str(values[0])):
        return parse_size(str(values[0]))  # type: ignore[return-value]
    try:
        numbers = [n for v in values for n in parse_clues(v)]
    except BadClue:
        numbers = []
    if len(numbers) != 2:
        raise WorkbookError(
            f"{where(sheet.name, rect)}: {SIZE_NAME} must hold width and height "
            f'(two numbers, or text like "15x20")'
        )
    return numbers[0], numbers[1]


def _find_corner(clue: np.ndarray) -> list[tuple[int, int]]:
    """Grid corners (indices into the scan) with the most clues above-right and below-left."""
    h, w = clue.shape
    prefix = np.zeros((h + 1, w + 1), dtype=np.int64)
    prefix[1:, 1:] = clue.cumsum(0).cumsum(1)
    total = prefix[h, w]
    corner = prefix  # clues above-left of (gr, gc)
    above = prefix[:, w : w + 1] - prefix  # above, right of gc
    left = prefix[h : h + 1, :] - prefix  # below, left of gc
    inside = total - corner - above - left
    score = above + left - corner - inside
    score[(above == 0) | (left == 0)] = np.iinfo(np.int64).min
    if score.max() == np.iinfo(np.int64).min:
        return []
    return [(int(r), int(c)) for r, c in np.argwhere(score == score.max())]


def _pick_corner(sheet: Sheet, scan: _Scan, candidates: list[tuple[int, int]]) -> Cell:
    """Among equally good corners (blank clue lines leave a choice) the first boxed cell.

    A person's clues may stand left-aligned in a wide template band; the grid's own
    boxed cells then tell where it starts. Without borders the first candidate wins.
    """
    cells = [(scan.origin[0] + r, scan.origin[1] + c) for r, c in candidates]
    read = getattr(sheet, "read_borders", None)
    if read is not None and len(cells) > 1:
        for cell in cells:
            if read((*cell, *cell))[0][0]:
                return cell
    return cells[0]


def _band_rows(scan: _Scan, bottom: int, left: int, right: int) -> int:
    """The top row of the column-clue band that ends above row ``bottom``.

    Blank rows are crossed (clues typed top-aligned in a deep band); a row of text
    (a title, a note) ends the band.
    """
    top = bottom
    r = bottom - 1
    while r >= scan.origin[0]:
        kinds = scan.kinds((r, left, r, right))
        if (kinds == TEXT).any():
            break
        if ((kinds == CLUE) | (kinds == JUNK)).any():
            top = r
        r -= 1
    return top


def _band_cols(scan: _Scan, right: int, top: int, bottom: int) -> int:
    """The left column of the row-clue band that ends left of column ``right``."""
    left = right
    c = right - 1
    while c >= scan.origin[1]:
        kinds = scan.kinds((top, c, bottom, c))
        if (kinds == TEXT).any():
            break
        if ((kinds == CLUE) | (kinds == JUNK)).any():
            left = c
        c -= 1
    return left


def _bordered_extent(sheet: Sheet, corner: Cell, limit: int, along_rows: bool) -> int:
    """How many cells from the corner onward carry a border (0 when unknown)."""
    read = getattr(sheet, "read_borders", None)
    if read is None:
        return 0
    r, c = corner
    rect = (r, c, r, c + limit - 1) if along_rows else (r, c, r + limit - 1, c)
    flags = [f for row in read(rect) for f in row]
    n = 0
    while n < len(flags) and flags[n]:
        n += 1
    return n


def _line_clues(
    scan: _Scan, sheet: str, cells: Iterable[Cell], dims_cells: set[Cell]
) -> tuple[int, ...]:
    """The clues of one line read from its band cells in order; WorkbookError on a bad cell."""
    out: list[int] = []
    for cell in cells:
        if cell in dims_cells:
            continue
        value = scan.at(*cell)
        try:
            out.extend(parse_clues(value))
        except BadClue as exc:
            raise WorkbookError(f"{where(sheet, cell)}: {exc}") from None
    return tuple(out)


def _check_size(sheet: str, width: int, height: int, at: Rect) -> None:
    """Refuse grids above MAX_SIDE on either side."""
    if width > MAX_SIDE or height > MAX_SIDE:
        raise WorkbookError(
            f"{where(sheet, at)}: the grid is {width}×{height}; at most "
            f"{MAX_SIDE}×{MAX_SIDE} is supported"
        )


def _givens(sheet: Sheet, grid: Rect) -> np.ndarray:
    """States of cells a person painted: dark fill black; a cross or an x white."""
    h, w = grid[2] - grid[0] + 1, grid[3] - grid[1] + 1
    out = empty_grid(h, w)
    fills = sheet.read_fills(grid)
    values = sheet.read_values(grid)
    read_diag = getattr(sheet, "read_diagonals", None)
    diagonals = read_diag(grid) if read_diag else [[False] * w for _ in range(h)]
    for r in range(h):
        for c in range(w):
            fill, value = fills[r][c], values[r][c]
            mark = isinstance(value, str) and value.strip().lower() in WHITE_MARKS
            if fill and luminance(fill) < DARK:
                out[r, c] = BLACK_CONC
            elif diagonals[r][c] or mark:
                out[r, c] = WHITE_CONC
            else:
                out[r, c] = BLANK
    return out


def luminance(color: str) -> float:
    """Relative luminance 0 (black) … 1 (white) of ``#RRGGBB``."""
    h = color.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def read_puzzle(sheet: Sheet, book: Book | None = None, *, givens: bool = False) -> SheetPuzzle:
    """Find the puzzle on one sheet; WorkbookError (NoPuzzleError) naming the cell at fault."""
    name = sheet.name
    names = _named(book, name)
    scan = _scan(sheet)
    dims, dims_cells = _dimensions(scan, name)
    for cell in dims_cells:
        i, j = cell[0] - scan.origin[0], cell[1] - scan.origin[1]
        if 0 <= i < scan.kind.shape[0] and 0 <= j < scan.kind.shape[1]:
            scan.kind[i, j] = TEXT
    width = dims.get("width", (None, None))[0]
    height = dims.get("height", (None, None))[0]
    if SIZE_NAME in names:
        width, height = _size_from_name(sheet, names[SIZE_NAME])
    layout = "template"
    if GRID_NAME in names:
        layout = "named"
        top, left, bottom, right = names[GRID_NAME]
        grid_w, grid_h = right - left + 1, bottom - top + 1
        _check_size(name, grid_w, grid_h, names[GRID_NAME])
        if (width and width != grid_w) or (height and height != grid_h):
            raise WorkbookError(
                f"{where(name, names[GRID_NAME])}: {GRID_NAME} is {grid_w}×{grid_h} "
                f"but the size given is {width or grid_w}×{height or grid_h}"
            )
        width, height = grid_w, grid_h
    else:
        corners = _find_corner((scan.kind == CLUE).astype(np.int64))
        if not corners:
            raise NoPuzzleError(
                f"{where(name, scan.origin)}: no clues found (expected column clues above "
                f"the grid and row clues left of it)"
            )
        top, left = _pick_corner(sheet, scan, corners)
        last_row = scan.origin[0] + scan.kind.shape[0] - 1
        last_col = scan.origin[1] + scan.kind.shape[1] - 1
        band_top = _band_rows(scan, top, left, last_col)
        band_left = _band_cols(scan, left, top, last_row)
        col_kinds = scan.kinds((band_top, left, top - 1, last_col))
        row_kinds = scan.kinds((top, band_left, last_row, left - 1))
        clue_w = int(np.nonzero(((col_kinds == CLUE) | (col_kinds == JUNK)).any(0))[0].max()) + 1
        clue_h = int(np.nonzero(((row_kinds == CLUE) | (row_kinds == JUNK)).any(1))[0].max()) + 1
        for label, found, given in (("width", clue_w, width), ("height", clue_h, height)):
            if given is not None and found > given:
                kind = "columns" if label == "width" else "rows"
                raise WorkbookError(
                    f"{where(name, dims[label][1]) if label in dims else name}: clues found "
                    f"for {found} {kind} but the {label} given is {given}"
                )
        _check_size(name, width or clue_w, height or clue_h, (top, left, top, left))
        if width is None:
            width = max(clue_w, _bordered_extent(sheet, (top, left), MAX_SIDE, True))
        if height is None:
            height = max(clue_h, _bordered_extent(sheet, (top, left), MAX_SIDE, False))
        _check_size(name, width, height, (top, left, top, left))
        bottom, right = top + height - 1, left + width - 1
    grid = (top, left, bottom, right)
    row_rects = _row_bands(scan, names, grid)
    col_rects = _col_bands(scan, names, grid)
    rows = [
        _line_clues(scan, name, _rect_cells(rect), dims_cells) if rect else () for rect in row_rects
    ]
    cols = [
        _line_clues(scan, name, _rect_cells(rect), dims_cells) if rect else () for rect in col_rects
    ]
    if not any(rows) and not any(cols):
        raise NoPuzzleError(f"{where(name, grid)}: no clues found for the grid")
    # Colour path: clue cells in more than one colour hold a colour puzzle (colour_read).
    puzzle = read_colour_puzzle(sheet, row_rects, col_rects, dims_cells, grid)
    if puzzle is None:
        try:
            puzzle = Puzzle.from_clues(rows, cols, title=name, meta={"sheet": name})
        except PuzzleError as exc:
            raise WorkbookError(_place_error(exc, name, row_rects, col_rects)) from None
    return SheetPuzzle(
        sheet=name,
        puzzle=puzzle,
        grid=grid,
        row_clue_cells=[
            r or (grid[0] + i, grid[1], grid[0] + i, grid[1] - 1) for i, r in enumerate(row_rects)
        ],
        col_clue_cells=[
            c or (grid[0], grid[1] + j, grid[0] - 1, grid[1] + j) for j, c in enumerate(col_rects)
        ],
        givens=(
            colour_givens(sheet, grid, puzzle.palette)
            if isinstance(puzzle, ColourPuzzle)
            else _givens(sheet, grid)
        )
        if givens
        else None,
        layout=layout,
    )


def _row_bands(scan: _Scan, names: dict[str, Rect], grid: Rect) -> list[Rect | None]:
    """Per grid row, the rectangle of its clue cells (left of the grid or RowClues)."""
    top, left, bottom, _ = grid
    if ROW_NAME in names:
        rt, rl, rb, rr = names[ROW_NAME]
        if rb - rt != bottom - top:
            raise WorkbookError(f"{ROW_NAME} has {rb - rt + 1} rows, the grid {bottom - top + 1}")
        return [(rt + i, rl, rt + i, rr) for i in range(bottom - top + 1)]
    band_left = _band_cols(scan, left, top, bottom)
    if band_left == left:
        return [None] * (bottom - top + 1)
    return [(top + i, band_left, top + i, left - 1) for i in range(bottom - top + 1)]


def _col_bands(scan: _Scan, names: dict[str, Rect], grid: Rect) -> list[Rect | None]:
    """Per grid column, the rectangle of its clue cells (above the grid or ColClues)."""
    top, left, _, right = grid
    if COL_NAME in names:
        ct, cl, cb, cr = names[COL_NAME]
        if cr - cl != right - left:
            raise WorkbookError(
                f"{COL_NAME} has {cr - cl + 1} columns, the grid {right - left + 1}"
            )
        return [(ct, cl + j, cb, cl + j) for j in range(right - left + 1)]
    band_top = _band_rows(scan, top, left, right)
    if band_top == top:
        return [None] * (right - left + 1)
    return [(band_top, left + j, top - 1, left + j) for j in range(right - left + 1)]


def _rect_cells(rect: Rect) -> list[Cell]:
    """The cells of a rectangle row by row."""
    top, left, bottom, right = rect
    return [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)]


def _place_error(
    exc: PuzzleError, sheet: str, row_rects: list[Rect | None], col_rects: list[Rect | None]
) -> str:
    """A PuzzleError message with the clue cells of its line (or the sheet) named."""
    message = str(exc)
    if exc.line is None:
        return f"{sheet}: {message}"
    kind, i = exc.line
    rect = (row_rects if kind == "row" else col_rects)[i]
    label = line_name(exc.line)
    if rect is None:
        return f"{sheet}: {message}"
    return message.replace(label, f"{label} ({where(sheet, rect)})", 1)


def find_puzzles(
    book: Book, *, sheet: str | None = None, givens: bool = False
) -> list[SheetPuzzle]:
    """The puzzle of every sheet (or of one named sheet); sheets without clues are skipped.

    WorkbookError when a sheet with clues is wrong, or when no sheet holds a puzzle.
    """
    sheets = [book.sheet(sheet)] if sheet else book.sheets()
    found: list[SheetPuzzle] = []
    first_miss: NoPuzzleError | None = None
    for s in sheets:
        try:
            found.append(read_puzzle(s, book, givens=givens))
        except NoPuzzleError as exc:
            if sheet:
                raise
            first_miss = first_miss or exc
    if not found:
        if len(sheets) == 1 and first_miss is not None:
            raise first_miss
        raise NoPuzzleError(
            "no clues found on any sheet (expected column clues above the grid and row "
            "clues left of it)"
        )
    return found

"""Finding the nonograms on a worksheet, written once above the sheet protocol.

The public face of the finder: :func:`read_puzzles` (every puzzle of a sheet),
:func:`read_puzzle` (the one puzzle of a sheet), :func:`find_puzzles` (every puzzle of a
workbook). The work is done by :mod:`scan` (one read of the sheet), :mod:`finder`
(grids and bands), :mod:`rulers`, :mod:`bands` and :mod:`marks`.

Glossary
    grid        the H×W rectangle of puzzle cells on the sheet
    clue band   the rows of column clues (above or below the grid) and the columns of
                row clues (left or right of it)
    marks       what a player typed or painted in the grid (``1``, ``■``, ``x``, a fill:
                black; ``0``, ``×``, ``・``: white): givens with ``--givens``, never clues
    ruler       a run 1…N beside a grid numbering its lines: skipped and reported
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..limits import MAX_SIDE
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle, PuzzleError, line_name
from ..sheets.errors import WorkbookError
from ..sheets.protocol import Book, Cell, Rect, Sheet, bounds, holds, is_error_value
from .address import cell_ref, rect_ref, where
from .bands import band_top, dimensions, line_clues
from .blocks import MIN_DRAWING, blocks, looks_like_puzzle, typed_drawing
from .clues import BadClue, parse_clues, parse_size
from .colour_read import colour_givens, read_colour_puzzle
from .finder import (
    LEFTOVER_CLUES,
    Frame,
    Grid,
    ambiguous,
    boxed_grids,
    close_parts,
    find_grids,
    leftovers,
)
from .marks import luminance, read_states
from .notes import advice as note_advice
from .notes import clue_set_aside, marks_aside, reported, set_aside, tick_labels
from .notes import labels as note_labels
from .scan import CLUE, EMPTY, JUNK, MARK, STRONG, Facts, NoPuzzleError, blank, scan
from .totals import cells_of, set_boxed_totals_aside, set_totals_aside

GRID_NAME, ROW_NAME, COL_NAME, SIZE_NAME = "PuzzleGrid", "RowClues", "ColClues", "PuzzleSize"
MAX_TRIALS = 200  # clue cells tried one by one to name the one a failed reading trips on
NO_CLUES = "no clues found (expected column clues above the grid and row clues left of it)"
RANGE_HOLDS = "a --range holds the puzzle's clues as well as its grid"


class SeveralPuzzles(WorkbookError):
    """One sheet holds several puzzles where a command works on one (``check``, ``hints``,
    ``make``, ``grade``): their ranges are named, never the first taken."""

    def __init__(self, message: str, puzzles: list[SheetPuzzle]):
        super().__init__(message)
        self.puzzles = puzzles


class NotANonogram(WorkbookError):
    """A block of numbers that reads as a table: on a sheet beside another sheet's
    puzzle it is skipped like a notes sheet (a chart's data, a score table)."""


__all__ = [
    "GRID_NAME",
    "NoPuzzleError",
    "SeveralPuzzles",
    "SheetPuzzle",
    "find_puzzles",
    "luminance",
    "named_ranges",
    "read_puzzle",
    "read_puzzles",
    "puzzles_named",
    "several_puzzles",
    "size_from_name",
    "typed_dimensions",
]


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
    ignored: list[str] = field(default_factory=list)  # rulers skipped: "A6:A15 row numbers"

    @property
    def height(self) -> int:
        """Number of grid rows."""
        return self.grid[2] - self.grid[0] + 1

    @property
    def width(self) -> int:
        """Number of grid columns."""
        return self.grid[3] - self.grid[1] + 1

    @property
    def where(self) -> str:
        """The grid as a person names it: ``Sheet!B3:P17``."""
        return where(self.sheet, self.grid)

    def cell(self, r: int, c: int) -> Cell:
        """The sheet cell of grid row ``r``, column ``c`` (both from 0)."""
        return (self.grid[0] + r, self.grid[1] + c)

    def cells(self, mask: np.ndarray) -> list[Cell]:
        """Sheet cells where a boolean H×W mask is True."""
        return [self.cell(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]


# ---- defined names and typed sizes ------------------------------------------------------


def named_ranges(book: Book | None, sheet: str) -> dict[str, Rect]:
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


def size_from_name(sheet: Sheet, rect: Rect) -> tuple[int, int]:
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


def typed_dimensions(sheet: Sheet) -> dict[str, tuple[int, Cell]]:
    """Labelled width/height cells of a sheet: ``{"width": (8, cell)}``; {} when empty."""
    try:
        return dimensions(scan(sheet))[0]
    except NoPuzzleError:
        return {}


# ---- one grid → one puzzle --------------------------------------------------------------


def _check_size(sheet: str, width: int, height: int, at: Rect) -> None:
    """Refuse grids above MAX_SIDE on either side."""
    if width > MAX_SIDE or height > MAX_SIDE:
        raise WorkbookError(
            f"{where(sheet, at)}: the grid is {width}×{height}; at most "
            f"{MAX_SIDE}×{MAX_SIDE} is supported"
        )


def _side(
    sheet: str, label: str, given: tuple[int, Cell] | None, clue: int, boxed: int, box: Rect
) -> int:
    """One side of the grid from its clues, its boxed cells and a typed size label."""
    kind = "columns" if label == "width" else "rows"
    if given is None:
        return max(clue, boxed)
    value, cell = given
    if clue > value:
        raise WorkbookError(
            f"{where(sheet, cell)}: clues found for {clue} {kind} but the {label} given is {value}"
        )
    if boxed >= max(clue, 1) and boxed != value:
        raise WorkbookError(
            f"{where(sheet, cell)}: {label} {value} disagrees with the grid, whose borders "
            f"box {boxed} {kind} at {where(sheet, box)} (clues for {clue})"
        )
    return value


def _line_rects(grid: Rect, rows: Rect | None, cols: Rect | None):
    """Per grid row and per grid column, the rectangle of its clue cells (None: no band)."""
    top, left, bottom, right = grid
    row_rects = [None if rows is None else (r, rows[1], r, rows[3]) for r in range(top, bottom + 1)]
    col_rects = [None if cols is None else (cols[0], c, cols[2], c) for c in range(left, right + 1)]
    return row_rects, col_rects


def _no_clues_inside(facts: Facts, grid: Rect) -> None:
    """A number other than 0/1 inside a grid is neither a clue nor a mark: name it."""
    r0, c0 = facts.origin
    a, b = max(grid[0] - r0, 0), max(grid[1] - c0, 0)
    inside = facts.strength[a : max(grid[2] - r0 + 1, 0), b : max(grid[3] - c0 + 1, 0)]
    hits = np.argwhere(inside == STRONG)
    if len(hits) * 2 >= inside.size:  # the "grid" is as full of numbers as a table
        raise NotANonogram(
            f"{where(facts.sheet, grid)} would be the grid but holds {len(hits)} numbers: "
            f"a table, not a nonogram (clues go above and left of an empty grid)"
        )
    if len(hits) >= LEFTOVER_CLUES:  # the clues of another puzzle run into this grid
        cells = [facts.cell(a + int(i), b + int(j)) for i, j in hits]
        rows, cols = [c[0] for c in cells], [c[1] for c in cells]
        raise ambiguous(facts.sheet, [grid, (min(rows), min(cols), max(rows), max(cols))])
    if len(hits):
        cell = facts.cell(a + int(hits[0][0]), b + int(hits[0][1]))
        raise WorkbookError(
            f'{where(facts.sheet, cell)}: "{facts.at(cell)}" inside the grid '
            f"{where(facts.sheet, grid)} is not a mark (type 1, ■ or # for black, 0, × or ・ "
            f"for white), nor a clue"
        )


def _place_error(exc: PuzzleError, sheet: str, row_rects, col_rects) -> str:
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


def _assemble(
    sheet: Sheet,
    facts: Facts,
    grid: Rect,
    bands: tuple[Rect | None, Rect | None],
    skip: set[Cell],
    check: bool = True,
) -> tuple[Puzzle, list, list]:
    """Read the clues of every line of a placed grid and build its puzzle (checked that
    its clues fit and add up, unless ``check`` is False)."""
    name = sheet.name
    _check_size(name, grid[3] - grid[1] + 1, grid[2] - grid[0] + 1, grid)
    if grid[0] < 1 or grid[1] < 1:
        raise WorkbookError(
            f"{where(name, (max(grid[0], 1), max(grid[1], 1)))}: the grid "
            f"would start beyond the sheet's edge; check the size labels"
        )
    row_rects, col_rects = _line_rects(grid, *bands)
    rows = [line_clues(facts, rect, skip, lenient=not check) for rect in row_rects]
    cols = [line_clues(facts, rect, skip, lenient=not check) for rect in col_rects]
    if not any(rows) and not any(cols):
        raise NoPuzzleError(f"{where(name, grid)}: no clues found for the grid")
    if check:
        _no_clues_inside(facts, grid)
    # Colour path: clue cells in more than one colour hold a colour puzzle (colour_read).
    puzzle = read_colour_puzzle(sheet, row_rects, col_rects, skip, grid, check)
    if puzzle is None:
        try:
            meta = {"sheet": name}
            puzzle = Puzzle.from_clues(rows, cols, title=name, meta=meta, validate=check)
        except PuzzleError as exc:
            raise WorkbookError(_place_error(exc, name, row_rects, col_rects)) from None
    return puzzle, row_rects, col_rects


def _givens(sheet: Sheet, grid: Rect, puzzle) -> np.ndarray:
    """A player's marks in the grid: colour-set states for a colour puzzle."""
    if isinstance(puzzle, ColourPuzzle):
        return colour_givens(sheet, grid, puzzle.palette)
    return read_states(sheet, grid)


def _sheet_puzzle(
    sheet, facts, grid, bands, skip, *, givens, layout="template", ignored=(), check=True
):
    """A SheetPuzzle for a placed grid (clue rects default to empty ones beside the grid)."""
    puzzle, row_rects, col_rects = _assemble(sheet, facts, grid, bands, skip, check)
    return SheetPuzzle(
        sheet=sheet.name,
        puzzle=puzzle,
        grid=grid,
        row_clue_cells=[
            r or (grid[0] + i, grid[1], grid[0] + i, grid[1] - 1) for i, r in enumerate(row_rects)
        ],
        col_clue_cells=[
            c or (grid[0], grid[1] + j, grid[0] - 1, grid[1] + j) for j, c in enumerate(col_rects)
        ],
        givens=_givens(sheet, grid, puzzle) if givens else None,
        layout=layout,
        ignored=list(ignored),
    )


# ---- the sheet's puzzles ----------------------------------------------------------------


def _named_grid(sheet: Sheet, facts: Facts, names: dict[str, Rect], size) -> tuple[Rect, tuple]:
    """Grid and bands of a sheet with a ``PuzzleGrid`` name (RowClues/ColClues optional)."""
    grid = names[GRID_NAME]
    top, left, bottom, right = grid
    grid_w, grid_h = right - left + 1, bottom - top + 1
    _check_size(sheet.name, grid_w, grid_h, grid)
    width, height = size
    if (width and width != grid_w) or (height and height != grid_h):
        raise WorkbookError(
            f"{where(sheet.name, grid)}: {GRID_NAME} is {grid_w}×{grid_h} "
            f"but the size given is {width or grid_w}×{height or grid_h}"
        )
    rows = names.get(ROW_NAME)
    cols = names.get(COL_NAME)
    if rows and rows[2] - rows[0] != bottom - top:
        raise WorkbookError(f"{ROW_NAME} has {rows[2] - rows[0] + 1} rows, the grid {grid_h}")
    if cols and cols[3] - cols[1] != right - left:
        raise WorkbookError(f"{COL_NAME} has {cols[3] - cols[1] + 1} columns, the grid {grid_w}")
    ij = facts.index((top, left))
    if ij is not None and (rows is None or cols is None):
        h, w = facts.shape
        grid_of = Grid(Frame((0, 0, h - 1, w - 1)), ij, 0, 0, 0, 0, 0, 0)
        grid_of.band_top = band_top(facts.kind, ij[0], ij[1], ij[1] + grid_w - 1)
        grid_of.band_left = band_top(facts.kind.T, ij[1], ij[0], ij[0] + grid_h - 1)
        _, found_rows, found_cols = grid_of.rects(facts, grid_w, grid_h)
        rows, cols = rows or found_rows, cols or found_cols
    if rows is not None:
        rows = (top, rows[1], bottom, rows[3])
    if cols is not None:
        cols = (cols[0], left, cols[2], right)
    return grid, (rows, cols)


def _filled_hint(facts: Facts) -> str:
    """Advice for a sheet of filled cells and no clues: a drawing or a pentomino board."""
    if (facts.kind == CLUE).any() or facts.filled.sum() < MIN_DRAWING:
        return ""
    return (
        "; its filled cells look like a drawing (xlsolver make turns it into a puzzle) "
        "or a pentomino board (xlsolver pentomino tiles it)"
    )


def _unread_clue(facts: Facts) -> str | None:
    """Where no grid is found, what is wrong with the first cell (in reading order) that
    holds a mistyped clue, digits that do not read (``[1, 1]``, ``1,1,``, ``3 1`` and a
    zero-width space), as a grid's clue cell is named: ``Puzzle!F5: clue "[1]" is not a
    number``. None when no cell holds one (text with a letter is a note, not a clue)."""
    for i, j in np.argwhere(facts.kind == JUNK):
        value = facts.values[i][j]
        if not isinstance(value, str) or any(ch.isalpha() for ch in value):
            continue
        if any(ch.isdigit() for ch in value) and not is_error_value(value):
            try:
                facts.clues(facts.cell(int(i), int(j)))
            except WorkbookError as exc:
                return str(exc)
    return None


def _read_found(
    sheet: Sheet,
    facts: Facts,
    dims: dict,
    dims_cells: set[Cell],
    *,
    givens: bool,
    check: bool,
    notes: dict[Cell, bool] | None = None,
) -> list[SheetPuzzle]:
    """Every puzzle the finder places on a scanned sheet, read (notes set aside)."""
    name = sheet.name
    grids = find_grids(facts, (dims.get("width", (None,))[0], dims.get("height", (None,))[0]))
    if not grids and facts.formulas:  # clues typed as formulas the file holds no value of
        raise facts.unsaved(min(facts.formulas))
    if not grids:
        raise NoPuzzleError(
            _unread_clue(facts) or f"{where(name, facts.origin)}: {NO_CLUES}{_filled_hint(facts)}"
        )
    if len(grids) > 1:
        dims = {}  # size labels belong to a sheet with one puzzle
    out = []
    for g in grids:
        grid, rows, cols = _placed(facts, g, dims)
        skip = dims_cells | {cell for r in g.rulers for cell in r.cells()} | set(notes or ())
        ignored = [r.label(grid) for r in g.rulers] + [
            f"{rect_ref(t)} totals" for t in facts.totals if _beside(t, grid)
        ]
        other = leftovers(facts, g, [r for r in (grid, rows, cols) if r is not None])
        if other is not None:  # a line of totals beside the grid, or another puzzle
            (rows, cols), totals, facing = set_totals_aside(facts, grid, (rows, cols))
            for rect in totals:
                skip |= cells_of(rect)
                ignored.append(f"{rect_ref(rect)} totals")
            if leftovers(facts, g, [r for r in (grid, rows, cols, *totals) if r]) is not None:
                if facing:
                    raise _two_sided(name, grid, (rows, cols), facing[0], facts.wrong_totals)
                ranges = [bounds([r for r in (grid, rows, cols) if r]), other]
                raise ambiguous(name, ranges, boxed_grids(facts, ranges))
        if notes:
            ignored += note_labels(reported(notes, _piece(facts, g), (rows, cols)))
        try:
            out.append(
                _sheet_puzzle(
                    sheet,
                    facts,
                    grid,
                    (rows, cols),
                    skip,
                    givens=givens,
                    ignored=ignored,
                    check=check,
                )
            )
        except NoPuzzleError:
            raise
        except WorkbookError:
            parts = close_parts(facts, g.frame.piece)
            if len(parts) > 1:  # puzzles one empty line apart, read as one
                raise ambiguous(name, parts, boxed_grids(facts, parts)) from None
            raise
    return sorted(out, key=lambda p: (p.grid[0], p.grid[1]))


def _two_sided(
    name: str, grid: Rect, bands: tuple, facing: Rect, wrong_totals: list[Rect] = ()
) -> WorkbookError:
    """The error for clues on both sides of a grid, neither the other's totals: the
    range that reads the band that is no line of counts with some wrong (else the bands
    left of and above the grid) is offered."""
    rows, cols = bands
    across = grid[0] <= facing[0] and facing[2] <= grid[2]
    band = rows if across else cols
    first = (band[1] < grid[1]) if across else (band[0] < grid[0])
    before, after = (band, facing) if first else (facing, band)
    clues = after if before in wrong_totals and after not in wrong_totals else before
    kept = [clues, cols] if across else [rows, clues]
    return WorkbookError(  # the band left of (above) the grid first, whichever the finder took
        f"{where(name, grid)}: clues on both sides of the grid ({rect_ref(before)} and "
        f"{rect_ref(after)}), and neither is the other's totals (each line's count of "
        f"black cells); pick the puzzle with --range "
        f"{where(name, bounds([r for r in (grid, *kept) if r]))}"
    )


def _beside(rect: Rect, grid: Rect) -> bool:
    """True when a rectangle stands beside the grid's rows or columns."""
    return (grid[0] <= rect[0] and rect[2] <= grid[2]) or (
        grid[1] <= rect[1] and rect[3] <= grid[3]
    )


def _placed(facts: Facts, g: Grid, dims: dict) -> tuple[Rect, Rect | None, Rect | None]:
    """(grid, row band, column band) of a found grid at the size its clues, borders and
    size labels give."""
    name = facts.sheet
    gr, gc = g.corner
    across = g.frame.rect(facts, gr, gc, gr, gc + max(g.boxed_w, 1) - 1)
    down = g.frame.rect(facts, gr, gc, gr + max(g.boxed_h, 1) - 1, gc)
    w = _side(name, "width", dims.get("width"), g.clue_w, g.boxed_w, across)
    h = _side(name, "height", dims.get("height"), g.clue_h, g.boxed_h, down)
    _check_size(name, w, h, g.frame.rect(facts, *g.corner, *g.corner))
    return g.rects(facts, w, h)


def _piece(facts: Facts, g: Grid) -> Rect:
    """The sheet rectangle of the piece a grid was found in."""
    return g.frame.rect(facts, 0, 0, *(n - 1 for n in g.frame.shape))


def _without_notes(
    sheet: Sheet, facts: Facts, before: np.ndarray, size: dict | None, first: WorkbookError, **kw
) -> list[SheetPuzzle]:
    """The sheet read again with its notes set aside (see :mod:`notes`); when that fails
    too, the first reading's error, naming the cell without which the sheet reads (or,
    when the first error named a word set aside as a note, the error of the reading
    without it: ``Ann`` of a header row is no clue; the clue too long for its row is)."""
    beyond: WorkbookError | None = None  # the error once the note first blamed is aside
    for strays in (False, True):  # text and labels first, then numbers standing apart
        facts.kind = before.copy()
        dims, dims_cells = dimensions(facts)
        dims, dims_cells, notes = set_aside(facts, before, size or dims, dims_cells, strays)
        if not notes:
            continue
        try:
            found = _read_found(sheet, facts, dims, dims_cells, notes=notes, **kw)
        except WorkbookError as exc:
            if beyond is None and not isinstance(exc, (NoPuzzleError, NotANonogram)):
                beyond = exc if _blames_a_note(sheet.name, first, notes) else None
            continue
        if not clue_set_aside(before, notes, facts, [_footprint(p) for p in found]):
            return found
    aside = facts.kind.copy()  # the notes set aside, as the culprits are looked for
    found = _ticks_aside(sheet, facts, before, size, **kw)
    if found:
        return found
    facts.kind = aside
    if _names_a_failed_formula(facts, str(first)):
        raise first  # #N/A in a clue band: that cell is what to mend, not a note beside
    if beyond is not None:
        raise beyond
    culprits, footprint = _culprits(sheet, facts, dims, dims_cells, notes, kw["check"])
    if not culprits:
        raise first
    raise WorkbookError(note_advice(sheet.name, str(first), culprits, footprint)) from None


def _blames_a_note(name: str, error: WorkbookError, notes: dict[Cell, bool]) -> bool:
    """True when an error starts with a cell set aside as a text note (a word)."""
    return any(
        str(error).startswith(f"{where(name, cell)}:") for cell, text in notes.items() if text
    )


def _ticks_aside(
    sheet: Sheet, facts: Facts, before: np.ndarray, size: dict | None, **kw
) -> list[SheetPuzzle] | None:
    """The sheet read with its notes and the marks beside its clues set aside (a column
    of ticks for the lines done); None when that does not read, or a mark set aside
    stands among a puzzle's clues (there it was a mistyped clue)."""
    facts.kind = before.copy()
    dims, dims_cells = dimensions(facts)
    dims, dims_cells, notes = set_aside(facts, before, size or dims, dims_cells)
    marks = marks_aside(facts)
    found: list[SheetPuzzle] = []
    for _ in range(2):  # the marks within the grids found are the player's: read again
        if not marks:
            return None
        try:
            found = _read_found(
                sheet, facts, dims, dims_cells, notes={**notes, **dict.fromkeys(marks, False)}, **kw
            )
        except WorkbookError:
            return None
        inside = {c for c in marks if any(holds(p.grid, c) for p in found)}
        if not inside:
            break
        marks -= inside
        for cell in inside:
            facts.kind[facts.index(cell)] = MARK
    else:
        return None
    among = any(holds(_footprint(p), c) for p in found for c in marks)  # a mistyped clue
    astray = any(not any(_in_line(p.grid, c) for p in found) for c in marks)  # a drawing's
    if among or astray or clue_set_aside(before, notes, facts, [_footprint(p) for p in found]):
        return None
    for p in found:  # one label a run of ticks, not one note a tick
        mine = {c for c in marks if f"{cell_ref(c)} note" in p.ignored}
        p.ignored = [i for i in p.ignored if i not in note_labels(sorted(mine))]
        p.ignored += tick_labels(mine)
    return found


def _in_line(grid: Rect, cell: Cell) -> bool:
    """True when a cell stands in one of a grid's rows or columns (a tick for that line)."""
    return grid[0] <= cell[0] <= grid[2] or grid[1] <= cell[1] <= grid[3]


def _names_a_failed_formula(facts: Facts, message: str) -> bool:
    """True when an error names a cell holding an error value (``#N/A``, ``#DIV/0!``)."""
    for i, row in enumerate(facts.values):
        for j, value in enumerate(row):
            if is_error_value(value):
                if message.startswith(f"{where(facts.sheet, facts.cell(i, j))}:"):
                    return True
    return False


def _footprint(puzzle: SheetPuzzle) -> Rect:
    """The range a puzzle covers: its grid and every clue cell."""
    rects = [r for r in puzzle.row_clue_cells + puzzle.col_clue_cells if r[1] <= r[3]]
    return bounds([puzzle.grid, *rects])


def _culprits(
    sheet: Sheet, facts: Facts, dims: dict, dims_cells: set[Cell], notes: dict, check: bool
) -> tuple[list[Cell], Rect | None]:
    """The cells beside a puzzle without which the sheet reads (clue cells tried one by
    one, at most MAX_TRIALS), and the range of the puzzle read without the first. A cell
    whose removal leaves it among the puzzle's clues is a wrong clue, not a note: not named."""
    aside = facts.kind.copy()
    cells = np.argwhere(np.isin(aside, (CLUE, JUNK)))
    beside: list[Cell] = []
    first_box: Rect | None = None
    for i, j in cells if len(cells) <= MAX_TRIALS else ():
        facts.kind = aside.copy()
        facts.kind[i, j] = EMPTY
        cell = facts.cell(int(i), int(j))
        try:
            found = _read_found(
                sheet, facts, dims, dims_cells, notes={**notes, cell: False}, givens=False,
                check=check,
            )  # fmt: skip
        except WorkbookError:
            continue
        box = bounds([_footprint(p) for p in found])
        if not holds(box, cell):
            beside.append(cell)
            first_box = first_box or box
    facts.kind = aside
    return beside, first_box


def read_puzzles(
    sheet: Sheet,
    book: Book | None = None,
    *,
    givens: bool = False,
    area: Rect | None = None,
    check: bool = True,
) -> list[SheetPuzzle]:
    """Every puzzle on one sheet (or in ``area`` of it), in reading order.

    WorkbookError naming the cell at fault; NoPuzzleError when the sheet holds none.
    ``check`` False finds the grids even when their clues do not add up (to clear them).
    A sheet that cannot be read as it stands is read again with its notes set aside.
    An ``area`` holding a grid without its clues (the range every report names) picks
    the puzzles of the whole sheet whose grids lie in it.
    """
    try:
        return _read_puzzles(sheet, book, givens=givens, area=area, check=check)
    except NoPuzzleError as exc:
        if area is None:
            raise
        try:
            every = _read_puzzles(sheet, book, givens=givens, area=None, check=check)
        except WorkbookError:
            every = []
        inside = [p for p in every if holds(area, p.grid[:2]) and holds(area, p.grid[2:])]
        grown = _with_bands(sheet, area) if not inside else area
        if grown != area:  # the sheet does not read as a whole: the grid and its clues
            try:
                inside = _read_puzzles(sheet, book, givens=givens, area=grown, check=check)
            except NoPuzzleError:
                inside = []
            inside = [p for p in inside if holds(area, p.grid[:2]) and holds(area, p.grid[2:])]
        if not inside:
            raise NoPuzzleError(f"{exc}; {RANGE_HOLDS}") from None
        return inside


def _with_bands(sheet: Sheet, area: Rect) -> Rect:
    """A grid's range grown by the typed lines right above and left of it (its clue
    bands; one empty line between a band and the grid allowed)."""
    top, left, bottom, right = area

    def typed(rect: Rect) -> bool:
        return any(not blank(v) for row in sheet.read_values(rect) for v in row)

    def reach(edge: int, line) -> int:
        """The first line of the typed run just before ``edge``."""
        at = edge
        if at > 2 and not typed(line(at - 1)) and typed(line(at - 2)):
            at -= 1  # one empty line between the grid and its band
        while at > 1 and typed(line(at - 1)):
            at -= 1
        return at

    first = reach(top, lambda r: (r, left, r, right))
    start = reach(left, lambda c: (top, c, bottom, c))
    return (first, start, bottom, right)


def _read_puzzles(
    sheet: Sheet, book: Book | None, *, givens: bool, area: Rect | None, check: bool
) -> list[SheetPuzzle]:
    """:func:`read_puzzles` of the area as given."""
    names = named_ranges(book, sheet.name) if area is None else {}
    facts = scan(sheet, area)
    facts.totals = set_boxed_totals_aside(facts)
    before = facts.kind.copy()
    dims, dims_cells = dimensions(facts)
    width = dims.get("width", (None, None))[0]
    height = dims.get("height", (None, None))[0]
    size = None
    if SIZE_NAME in names:
        width, height = size_from_name(sheet, names[SIZE_NAME])
        size = {"width": (width, names[SIZE_NAME][:2]), "height": (height, names[SIZE_NAME][:2])}
        dims = size
    drawing = typed_drawing(facts) if area is None and GRID_NAME not in names else None
    if drawing is not None:
        raise NoPuzzleError(
            f"{where(sheet.name, drawing)}: a drawing typed in 0 and 1, not clues (xlsolver "
            f"make turns a drawing into a puzzle; to read it as clues, give its --range)"
        )
    if GRID_NAME in names:
        try:
            grid, bands = _named_grid(sheet, facts, names, (width, height))
            return [
                _sheet_puzzle(
                    sheet,
                    facts,
                    grid,
                    bands,
                    dims_cells,
                    givens=givens,
                    layout="named",
                    check=check,
                )
            ]
        except WorkbookError as exc:  # a name left behind when the grid moved or grew
            grid = names[GRID_NAME]
            facts.kind = before.copy()
            drawn = _grid_without_names(sheet, facts, size)
            if drawn is not None and drawn != grid and GRID_NAME not in str(exc):
                exc.args = (
                    f"{exc.args[0]} (the grid is the defined name {GRID_NAME}, "
                    f"{where(sheet.name, grid)}, where the sheet shows one at "
                    f"{rect_ref(drawn)}; if the grid has moved, correct or delete the name)",
                    *exc.args[1:],
                )
            raise
    facts.kind = before.copy()  # dimensions() marked the size cells: read afresh
    try:
        return _read_scanned(sheet, facts, size, givens=givens, check=check)
    except NoPuzzleError:
        raise
    except WorkbookError as exc:
        facts.kind = before
        return _apart(sheet, facts, dims or None, dims_cells, exc, givens=givens, check=check)


def _grid_without_names(sheet: Sheet, facts: Facts, size: dict | None) -> Rect | None:
    """The one grid the sheet shows read without its defined names, None when it shows
    none that reads (or several): what a stale ``PuzzleGrid`` is told apart by."""
    try:
        found = _read_scanned(sheet, facts, size, givens=False, check=False)
    except WorkbookError:
        return None
    return found[0].grid if len(found) == 1 else None


def _read_scanned(
    sheet: Sheet, facts: Facts, size: dict | None, *, givens: bool, check: bool
) -> list[SheetPuzzle]:
    """The puzzles of a scan as it stands, else with its notes set aside."""
    before = facts.kind.copy()
    dims, dims_cells = dimensions(facts)
    dims = size or dims
    try:
        return _read_found(sheet, facts, dims, dims_cells, givens=givens, check=check)
    except NoPuzzleError:
        raise
    except WorkbookError as exc:
        return _without_notes(sheet, facts, before, size, exc, givens=givens, check=check)


def _apart(
    sheet: Sheet, facts: Facts, size: dict | None, labels: set[Cell], first: WorkbookError,
    *, givens: bool, check: bool,
) -> list[SheetPuzzle]:  # fmt: skip
    """The puzzles of a sheet that does not read as a whole, read block by block (see
    :mod:`blocks`): a block that holds no puzzle and does not look like one (a table, a
    list) is set aside and reported; a block that looks like a puzzle keeps its error.
    ``first``, the whole sheet's error, when no block holds a puzzle. The sheet's size
    (its width/height ``labels``, or the name PuzzleSize) applies wherever it stands:
    every block is read at that size, and a block of labels alone is not reported."""
    parts = blocks(facts)
    if len(parts) < 2:
        raise first
    found: list[SheetPuzzle] = []
    aside: list[Rect] = []
    for rect, part in parts:
        used = _used_cells(part)
        if used and labels.issuperset(used):
            continue  # the size labels, read with every block
        try:
            found += _read_scanned(sheet, part, size, givens=givens, check=check)
        except NoPuzzleError:
            aside.append(rect)
        except WorkbookError:
            if looks_like_puzzle(part):
                raise
            aside.append(rect)
    if not found:
        raise first
    for p in found:
        p.ignored += [f"{rect_ref(r)} not a puzzle" for r in aside]
    return sorted(found, key=lambda p: (p.grid[0], p.grid[1]))


def _used_cells(facts: Facts) -> list[Cell]:
    """The sheet cells of a scan that hold a value."""
    return [facts.cell(int(i), int(j)) for i, j in np.argwhere(facts.kind != EMPTY)]


def check_unmerged(book: Book, found: list[SheetPuzzle]) -> None:
    """WorkbookError naming the first merged range over a puzzle's grid: a merged grid
    cannot be painted cell by cell (only its first cell would show). Every door checks
    it, the buttons as the command line."""
    for sp in found:
        top, left, bottom, right = sp.grid
        for m in book.sheet(sp.sheet).merged_ranges():
            if m[0] <= bottom and m[2] >= top and m[1] <= right and m[3] >= left:
                raise WorkbookError(
                    f"{where(sp.sheet, m)}: merged cells over the grid "
                    f"{rect_ref(sp.grid)}; unmerge them (Format ▸ Merge cells off)"
                )


def read_puzzle(
    sheet: Sheet,
    book: Book | None = None,
    *,
    givens: bool = False,
    area: Rect | None = None,
    check: bool = True,
) -> SheetPuzzle:
    """The one puzzle on a sheet; WorkbookError naming the ranges when it holds several."""
    found = read_puzzles(sheet, book, givens=givens, area=area, check=check)
    if len(found) > 1:
        raise several_puzzles(found)
    return found[0]


def several_puzzles(found: list[SheetPuzzle], option: str = "--range") -> SeveralPuzzles:
    """The error for several puzzles where one is needed: their ranges, and the range
    (given with ``option``) or defined name that picks the first; for puzzles on several
    sheets, the sheet name that picks the first."""
    name = found[0].sheet
    if len({p.sheet for p in found}) > 1:  # a sheet each: picked by its name
        option = "--sheet" if option == "--range" else option
        return SeveralPuzzles(f"{puzzles_named(found)}; pick one with {option} {name!r}", found)
    return SeveralPuzzles(
        f"{puzzles_named(found)}; pick one with {option} "
        f"{where(name, _footprint(found[0]))} or a defined name {GRID_NAME}",
        found,
    )


def puzzles_named(found: list[SheetPuzzle]) -> str:
    """``Two: several puzzles (Two!G6:P15 and Two!V6:AB12)``, or ``puzzles on several
    sheets (…)`` when they stand on more than one sheet."""
    ranges = " and ".join(p.where for p in found)
    if len({p.sheet for p in found}) > 1:
        return f"puzzles on several sheets ({ranges})"
    return f"{found[0].sheet}: several puzzles ({ranges})"


def _passed_over(sheet: Sheet, exc: WorkbookError) -> str:
    """Why a sheet that does not read is passed over when another holds a puzzle ("" when
    its error stands): a hidden helper sheet the user does not see, or a table of scores
    or a list (a header row, names, numbers), which does not look like a puzzle with an
    error (clue bands on two sides of an empty grid), as tables beside a puzzle are."""
    if sheet.hidden():
        return f"{sheet.name} hidden sheet passed over ({exc})"
    try:
        facts = scan(sheet)
    except WorkbookError:
        return ""
    table = _plain_table(facts) and not looks_like_puzzle(facts)
    return f"{sheet.name} sheet passed over, a table, not a puzzle ({exc})" if table else ""


def _plain_table(facts: Facts) -> bool:
    """True for a sheet of plain data under a header row: no borders, no fills, a first
    row of words only, two or more (``Name  Score  Time``), and every row under it led by
    a word (a name). A puzzle sheet has a boxed or filled grid, or rows led by clues; with
    a typo in a clue it must still stop the run, never be passed over."""
    if facts.boxed.any() or facts.filled.any():
        return False
    rows = [[v for v in row if not blank(v)] for row in facts.values]
    rows = [row for row in rows if row]
    if len(rows) < 3 or len(rows[0]) < 2 or not all(map(_word, rows[0])):
        return False  # a header row of words, two or more, and at least two rows under it
    return all(_word(row[0]) for row in rows[1:])  # each row led by a name, not by clues


def _word(value: object) -> bool:
    """True for text holding a letter (``Ann``, ``Score``), not a number or a clue."""
    return isinstance(value, str) and any(ch.isalpha() for ch in value)


def find_puzzles(
    book: Book, *, sheet: str | None = None, givens: bool = False, area: Rect | None = None
) -> list[SheetPuzzle]:
    """The puzzles of every sheet (or of one named sheet); sheets without clues are skipped.

    WorkbookError when a sheet with clues is wrong, or when no sheet holds a puzzle.
    """
    sheets = [book.sheet(sheet)] if sheet else book.sheets()
    found: list[SheetPuzzle] = []
    first_miss: NoPuzzleError | None = None
    first_error: WorkbookError | None = None
    first_table: NotANonogram | None = None
    hidden: list[str] = []  # hidden sheets passed over, with the reason
    for s in sheets:
        try:
            found.extend(read_puzzles(s, book, givens=givens, area=area))
        except NoPuzzleError as exc:
            if sheet:
                raise
            first_miss = first_miss or exc
        except NotANonogram as exc:
            if sheet or len(sheets) == 1:
                raise
            first_table = first_table or exc  # a table: skipped like a notes sheet
        except WorkbookError as exc:
            if sheet or len(sheets) == 1:
                raise
            passed = _passed_over(s, exc)
            if passed:  # skipped as a table is, and named
                first_table = first_table or NotANonogram(str(exc))
                hidden.append(passed)
                continue
            first_error = first_error or exc  # the other sheets are read to name them
    if first_error is not None:
        puzzles = sorted({p.sheet for p in found}, key=[s.name for s in sheets].index)
        if not puzzles:
            raise first_error
        others = f" (or {', '.join(map(repr, puzzles[1:]))})" if len(puzzles) > 1 else ""
        raise WorkbookError(
            f"{first_error}; if that sheet holds no puzzle, pick the puzzle's sheet with "
            f"--sheet {puzzles[0]!r}{others}"
        )
    if found and hidden:  # said in --json under "ignored" of the first puzzle
        found[0].ignored.extend(hidden)
    if not found:
        if first_table is not None:
            raise first_table
        if len(sheets) == 1 and first_miss is not None:
            raise first_miss
        raise NoPuzzleError(f"{NO_CLUES.replace('found', 'found on any sheet', 1)}")
    return found

"""Reading a colour puzzle from a sheet: a clue's colour is the colour of its cell.

Glossary
    clue colour   a clue cell's fill, or where the fill is white or absent its font
                  colour, else black (a plain typed number)
    palette row   the ``colours`` label below the grid and the swatches right of it:
                  each swatch a cell filled with one ink, its letter typed in it
    colour path   a sheet whose clue cells show more than one colour holds a colour
                  puzzle; one colour (black, or any single colour) is black and white

This is the single dispatch point of the layout code: :func:`read_colour_puzzle`
returns ``None`` for a black-and-white sheet, which then takes the usual road.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..nonogram.cells import CERTAIN, colour_bit, every_colour
from ..nonogram.colour_puzzle import (
    SAME_SHADE,
    ColourPuzzle,
    Palette,
    is_letter,
    parse_rgb,
    rgb_distance,
)
from ..nonogram.puzzle import PuzzleError, line_name
from ..sheets.errors import WorkbookError
from ..sheets.protocol import Cell, Rect, Sheet, bounds
from .address import where
from .clues import BadClue, normalise, parse_clues
from .marks import luminance

DEFAULT_INK = "#000000"  # a clue typed without any colour
WHITE = "#ffffff"
PALETTE_LABELS = frozenset({"colours", "colors", "palette", "色"})
PALETTE_SEARCH_ROWS = 4  # the palette row stands at most this many rows below the grid
MAX_SWATCHES = 30
NEAR = 90.0  # an answer's fill within this RGB distance of an ink is that ink
FAR, CLEARLY = 200.0, 0.6  # or within FAR, and this much nearer than any other ink or paper
PALE = 0.9  # a clue fill this light (relative luminance) on one band only is a tint
COLOURS_READ = (
    "a clue's colour is its cell's fill (or its font colour where it has none): "
    "if the puzzle is black and white, take the colours off its clue cells"
)
CROSS_MARKS = frozenset({"x", "×", "✕", "✗", "・", "·", "-", "/"})


def _norm(colour: str | None) -> str | None:
    """``#RRGGBB`` in lower case, ``None`` for none or white."""
    rgb = parse_rgb(colour) if colour else None
    return None if rgb is None or rgb == WHITE else rgb


def clue_colour(fill: str | None, font: str | None) -> str:
    """The colour of a clue cell: its fill, else its font colour, else black."""
    return _norm(fill) or _norm(font) or DEFAULT_INK


class _Cells:
    """Values and clue colours of the clue bands, read once per band."""

    def __init__(self, sheet: Sheet, boxes: Sequence[Rect]):
        self.values: dict[Cell, object] = {}
        self.colours: dict[Cell, str] = {}
        self.fills: dict[Cell, str] = {}  # every filled cell, blank ones too
        for box in boxes:
            self._read(sheet, box)

    def _read(self, sheet: Sheet, box: Rect) -> None:
        """Values and colours of one rectangle."""
        values = sheet.read_values(box)
        fills = sheet.read_fills(box)
        fonts = sheet.read_font_colours(box)
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                cell = (box[0] + i, box[1] + j)
                fill = _norm(fills[i][j])
                if fill:
                    self.fills[cell] = fill
                if v is None:
                    continue
                self.values[cell] = v
                self.colours[cell] = clue_colour(fills[i][j], fonts[i][j])


def _line(
    cells: _Cells, sheet: str, rect: Rect | None, skip: set[Cell], lenient: bool = False
) -> list[tuple[int, str]]:
    """One line's clues as (length, colour) in reading order; zeros dropped (``lenient``:
    a cell that is not a clue is passed over, not an error)."""
    if rect is None:
        return []
    out: list[tuple[int, str]] = []
    top, left, bottom, right = rect
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            if (r, c) in skip or (r, c) not in cells.values:
                continue
            try:
                numbers = parse_clues(cells.values[(r, c)])
            except BadClue as exc:
                if lenient:
                    continue
                raise WorkbookError(f"{where(sheet, (r, c))}: {exc}") from None
            out += [(n, cells.colours[(r, c)]) for n in numbers if n]
    return out


def read_colour_puzzle(
    sheet: Sheet,
    row_rects: Sequence[Rect | None],
    col_rects: Sequence[Rect | None],
    skip: set[Cell],
    grid: Rect,
    check: bool = True,
) -> ColourPuzzle | None:
    """The colour puzzle of a sheet whose clue cells show two colours or more, else None.

    WorkbookError naming the clue cells of a line whose clues cannot be a puzzle (unless
    ``check`` is False: clue cells that are not numbers are passed over, to clear a grid).
    """
    bands = [[r for r in rects if r is not None] for rects in (row_rects, col_rects)]
    cells = _Cells(sheet, [bounds(band) for band in bands if band])
    rows = [_line(cells, sheet.name, r, skip, not check) for r in row_rects]
    columns = [_line(cells, sheet.name, r, skip, not check) for r in col_rects]
    swatches = read_palette_row(sheet, grid)
    listed = {colour for colour, _ in swatches}  # inks the sheet names: never styling
    shading = line_shading(cells, row_rects + col_rects, rows + columns, len(rows)) - listed
    decor = decoration(rows, columns) | shading
    if decor:
        rows, columns = (
            [[(n, DEFAULT_INK if c in decor else c) for n, c in line] for line in lines]
            for lines in (rows, columns)
        )
    used = _first_seen(rows + columns)
    if len(used) < 2:
        return None
    palette = palette_for(used, swatches)
    index = {palette.colour(i).rgb: i for i in range(1, palette.k + 1)}
    try:
        return ColourPuzzle.from_clues(
            [[(n, index[c]) for n, c in line] for line in rows],
            [[(n, index[c]) for n, c in line] for line in columns],
            palette,
            title=sheet.name,
            meta={"sheet": sheet.name},
            validate=check,  # unchecked: to clear a grid whose clues a typo broke
        )
    except PuzzleError as exc:
        message = _placed(exc, sheet.name, row_rects, col_rects)
        if exc.line is None:  # colour totals disagree: the colours may not be meant as inks
            message += f"; {_near_shades(rows, columns) or COLOURS_READ}"
        raise WorkbookError(message) from None


def _near_shades(rows: list, columns: list) -> str:
    """A row clue colour and a column clue colour too close to be meant apart (a shade
    picked again from "recent colours"), said so; "" when there are none."""
    in_rows = {c for line in rows for _, c in line}
    in_cols = {c for line in columns for _, c in line}
    pairs = [
        (a, b)
        for a in sorted(in_rows - in_cols)
        for b in sorted(in_cols - in_rows)
        if rgb_distance(a, b) <= SAME_SHADE
    ]
    if not pairs:
        return ""
    named = ", ".join(f'"{a}" (rows) and "{b}" (columns)' for a, b in pairs)
    return f"{named} are nearly the same shade: give each colour's clues one fill"


def decoration(lines_rows: list[list[tuple[int, str]]], lines_cols: list[list[tuple[int, str]]]):
    """Clue colours that are styling, not inks: a colour on one band's clues only (no
    colour puzzle has that: every cell of a colour lies in a row and in a column) that
    is pale (a tint, a zebra stripe) or on every clue of its band (a band styled alike)."""
    out = set()
    bands = [[c for line in lines for _, c in line] for lines in (lines_rows, lines_cols)]
    for mine, other in (bands, bands[::-1]):
        for colour in set(mine) - set(other) - {DEFAULT_INK}:
            if luminance(colour) >= PALE or all(c == colour for c in mine):
                out.add(colour)
    return out


def line_shading(
    cells: _Cells, rects: Sequence[Rect | None], lines: list[list[tuple[int, str]]], height: int
) -> set[str]:
    """Clue colours that shade whole lines (guide stripes every fifth line, a zebra): a
    fill that, on every line holding it, covers the line's whole clue band, and on some
    line blank cells as well (an ink colours its clues, not the empty cells beside them),
    being a grey or a light tint, or lying on evenly spaced lines of each band (a
    designer filling a few rows of clues red means red). ``height``: the first
    ``height`` lines are rows."""
    where_used: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        for colour in {c for _, c in line} - {DEFAULT_INK}:
            where_used.setdefault(colour, []).append(i)
    out = set()
    for colour, used in where_used.items():
        bands = ([i for i in used if i < height], [i - height for i in used if i >= height])
        if not _greyish_or_light(colour) and not all(_striped(b) for b in bands if b):
            continue
        blanks = False
        for i in used:
            rect = rects[i]
            if rect is None:
                break
            band = [
                (r, c) for r in range(rect[0], rect[2] + 1) for c in range(rect[1], rect[3] + 1)
            ]
            if any(cells.fills.get(cell) != colour for cell in band):
                break
            blanks = blanks or any(cell not in cells.values for cell in band)
        else:
            if blanks:
                out.add(colour)
    return out


def _striped(indices: list[int]) -> bool:
    """True for lines evenly spaced, two or more apart (every other line, every fifth),
    or for one line that is a fifth."""
    if len(indices) == 1:
        return (indices[0] + 1) % 5 == 0
    steps = {b - a for a, b in zip(indices, indices[1:], strict=False)}
    return len(steps) == 1 and min(steps) >= 2


def _greyish_or_light(colour: str) -> bool:
    """True for a grey (channels within 15 % of each other) or a light tint (relative
    luminance 0.6 and up): what guide stripes and zebras are painted in."""
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return max(channels) - min(channels) <= 0.15 * 255 or luminance(colour) >= 0.6


def _first_seen(lines: list[list[tuple[int, str]]]) -> list[str]:
    """The clue colours in the order they first appear."""
    seen: dict[str, None] = {}
    for line in lines:
        for _, colour in line:
            seen.setdefault(colour, None)
    return list(seen)


def _placed(
    exc: PuzzleError, sheet: str, row_rects: Sequence[Rect | None], col_rects: Sequence[Rect | None]
) -> str:
    """A PuzzleError message with the clue cells of its line named."""
    message = str(exc)
    if exc.line is None:
        return f"{sheet}: {message}"
    kind, i = exc.line
    rect = (row_rects if kind == "row" else col_rects)[i]
    if rect is None:
        return f"{sheet}: {message}"
    label = line_name(exc.line)
    return message.replace(label, f"{label} ({where(sheet, rect)})", 1)


def find_palette_label(sheet: Sheet, grid: Rect) -> Cell | None:
    """The ``colours`` label in the rows just below the grid, if any."""
    top, left, bottom, right = grid
    used = sheet.used_range()
    if used is None or used[2] <= bottom:
        return None
    rect = (bottom + 1, min(left, used[1]), min(bottom + PALETTE_SEARCH_ROWS, used[2]), used[3])
    for i, row in enumerate(sheet.read_values(rect)):
        for j, v in enumerate(row):
            if isinstance(v, str) and normalise(v).lower().rstrip(":").strip() in PALETTE_LABELS:
                return (rect[0] + i, rect[1] + j)
    return None


def read_palette_row(sheet: Sheet, grid: Rect) -> list[tuple[str, str | None]]:
    """The swatches of the palette row as (colour, letter or None), left to right."""
    label = find_palette_label(sheet, grid)
    return [] if label is None else read_palette_swatches(sheet, label)


def first_swatch_column(sheet: Sheet, label: Cell) -> int:
    """The column right of a palette label (or of its merged cells): the first swatch's."""
    merged = [m for m in sheet.merged_ranges() if m[0] == label[0] and m[1] == label[1]]
    return (merged[0][3] if merged else label[1]) + 1


def read_palette_swatches(sheet: Sheet, label: Cell) -> list[tuple[str, str | None]]:
    """The coloured swatches right of a palette label (or of its merged cells)."""
    first = first_swatch_column(sheet, label)
    rect = (label[0], first, label[0], first + MAX_SWATCHES - 1)
    fills = sheet.read_fills(rect)[0]
    fonts = sheet.read_font_colours(rect)[0]
    values = sheet.read_values(rect)[0]
    out: list[tuple[str, str | None]] = []
    for fill, font, value in zip(fills, fonts, values, strict=True):
        colour = _norm(fill) or (_norm(font) if value is not None else None)
        if colour is None:
            break
        text = str(value).strip() if value is not None else ""
        out.append((colour, text if is_letter(text) else None))
    return out


def palette_for(used: list[str], swatches: list[tuple[str, str | None]]) -> Palette:
    """Inks in palette-row order (then by first appearance), letters from the swatches."""
    letters = dict(swatches)
    order = [c for c, _ in swatches if c in used] + [c for c in used if c not in letters]
    return Palette.build([(c, c, letters.get(c)) for c in order])


def nearest_ink(colour: str, palette: Palette, *, own_shades: bool = False) -> int | None:
    """The ink a fill shows: the exact colour, else the nearest one within NEAR, or (with
    ``own_shades``: a student's answer) within FAR when it is clearly nearer than every
    other ink and the background (Excel's standard red for a theme red). Marks on a
    grid keep to NEAR: a red warning fill beside an orange ink is no orange."""
    rgb = _norm(colour)
    if rgb is None:
        return None
    far = sorted(
        (rgb_distance(rgb, palette.colour(ink).rgb), ink) for ink in range(1, palette.k + 1)
    )
    if not far:
        return None
    best_d, best = far[0]
    if best_d <= NEAR:
        return best
    if not own_shades:
        return None
    rivals = [d for d, _ in far[1:]] + [rgb_distance(rgb, palette.background.rgb or WHITE)]
    return best if best_d <= FAR and best_d <= CLEARLY * min(rivals) else None


def read_colour_cells(
    sheet: Sheet, grid: Rect, palette: Palette, *, own_shades: bool = False
) -> np.ndarray:
    """The colours painted on a grid: ink numbers, 0 for white, crossed or marked, and
    -1 for a cell whose fill is no ink of the palette (``own_shades``: see nearest_ink)."""
    fills = sheet.read_fills(grid)
    h, w = len(fills), len(fills[0])
    out = np.zeros((h, w), dtype=np.int16)
    for r in range(h):
        for c in range(w):
            fill = _norm(fills[r][c])
            if fill is not None:
                ink = nearest_ink(fill, palette, own_shades=own_shades)
                out[r, c] = -1 if ink is None else ink
    return out


def colour_givens(sheet: Sheet, grid: Rect, palette: Palette) -> np.ndarray:
    """Colour-set states of cells a person painted: an ink's fill that ink; a cross or an
    ``x`` the background; anything else open."""
    painted = read_colour_cells(sheet, grid, palette)
    values = sheet.read_values(grid)
    diagonals = sheet.read_diagonals(grid)
    h, w = painted.shape
    out = np.full((h, w), every_colour(palette.k), dtype=np.uint32)
    for r in range(h):
        for c in range(w):
            value = values[r][c]
            mark = isinstance(value, str) and value.strip().lower() in CROSS_MARKS
            if painted[r, c] > 0:
                out[r, c] = CERTAIN | colour_bit(int(painted[r, c]))
            elif diagonals[r][c] or mark:
                out[r, c] = CERTAIN | colour_bit(0)
    return out

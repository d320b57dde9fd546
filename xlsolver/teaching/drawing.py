"""A teacher's drawing → a black-and-white picture: filled cells or x/1 marks on a sheet.

Glossary
    mark      a cell the teacher made black: any fill colour (not white), or a black
              mark a player would type (``x``, ``1``, ``■``, ``#``…; see
              :mod:`xlsolver.workbook.marks`, the one reader of marks)
    colours   a drawing whose marks show two fill colours or more is a colour drawing:
              ``colours`` holds each cell's colour number and ``palette`` the fills
              (see :mod:`.colour_drawing`); a mark without a fill counts as black
    drawing   the rectangle holding the picture: the marks' bounding box, widened to the
              boxed (bordered) cells around it; a defined name ``PuzzleGrid`` overrides it
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..groups import touching
from ..limits import MAX_SIDE
from ..nonogram.colour_puzzle import Palette
from ..sheets.errors import WorkbookError
from ..sheets.protocol import ALL_SIDES, Book, Rect, Sheet, holds
from ..workbook.address import parse_range, where
from ..workbook.clues import normalise
from ..workbook.files import open_book
from ..workbook.frames import framed_cells
from ..workbook.layout import GRID_NAME
from ..workbook.marks import BLACK_MARKS, WHITE_MARKS, mark_text, no_fill, read_black
from .colour_drawing import drawing_colours

CANVAS = 0.8  # HLS lightness from which a fill can be the canvas (pale tints, not yellows)


@dataclass
class Drawing:
    """A picture read from a sheet: True = black, and where it came from."""

    picture: np.ndarray
    title: str
    sheet: str
    rect: Rect
    colours: np.ndarray | None = None  # colour numbers (0 = paper) of a colour drawing
    palette: Palette | None = None  # the fills of a colour drawing, in order of appearance
    pixels: tuple[int, int] | None = None  # (width, height) of the image it was read from
    merged: dict[str, str] | None = None  # fills read as a nearly identical ink: fill → ink
    pale: dict[str, int] | None = None  # fills too light to be ink, read as paper: fill → cells
    credits: dict[str, str] | None = None  # author, copyright, licence of a puzzle made again
    shades: int | None = None  # an image's colours when too many to be flat inks (a photo)
    parts: list[Rect] | None = None  # parts of a drawing found alone, far apart (two pictures?)


class MergedView:
    """A sheet read as it shows: every cell of a merged range takes the value, fill and
    diagonals of the range's first cell (a merged block shows one fill all over)."""

    def __init__(self, sheet: Sheet, merges: list[Rect]):
        self.sheet = sheet
        self.merges = merges

    def __getattr__(self, name: str):
        return getattr(self.sheet, name)

    def _spread(self, rect: Rect, read) -> list:
        """``read(rect)`` with each merged range's cells in ``rect`` set to its first cell's."""
        grid = read(rect)
        top, left, bottom, right = rect
        for m in self.merges:
            rows = range(max(m[0], top), min(m[2], bottom) + 1)
            cols = range(max(m[1], left), min(m[3], right) + 1)
            if rows and cols:
                first = read((m[0], m[1], m[0], m[1]))[0][0]
                for r in rows:
                    for c in cols:
                        grid[r - top][c - left] = first
        return grid

    def read_values(self, rect: Rect) -> list[list[object]]:
        """Values, merged cells as their first cell."""
        return self._spread(rect, self.sheet.read_values)

    def read_fills(self, rect: Rect) -> list[list[str | None]]:
        """Fills, merged cells as their first cell."""
        return self._spread(rect, self.sheet.read_fills)

    def read_diagonals(self, rect: Rect) -> list[list[bool]]:
        """Diagonals, merged cells as their first cell."""
        return self._spread(rect, self.sheet.read_diagonals)


def _boxed(sheet: Sheet, used: Rect) -> np.ndarray:
    """Which used cells are boxed: a border on every side, or inside a drawn frame (an
    outer border round the drawing area)."""
    seen = np.array(sheet.read_seen_sides(used), dtype=np.int8)
    return (seen == ALL_SIDES) | framed_cells(seen)


def _typed_white(sheet: Sheet, used: Rect) -> np.ndarray:
    """Which used cells hold a typed white mark (``0``, ``×``, ``・``); a 0 that starts a
    numbering 0, 1, 2 … along the drawing is a label."""
    values = sheet.read_values(used)
    white = np.array([[mark_text(v) in WHITE_MARKS for v in row] for row in values], dtype=bool)
    return white & ~_numbering(values, first=0)


def _touching(boxed: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The boxed cells of the groups (4-connected) that reach into or border ``box``, the
    marks' bounds: a bordered table elsewhere on the sheet is not the drawing's area."""
    out = np.zeros_like(boxed)
    top, left, bottom, right = box
    cells = [(int(r), int(c)) for r, c in np.argwhere(boxed)]
    for group in touching(cells, corners=False):
        if any(top - 1 <= r <= bottom + 1 and left - 1 <= c <= right + 1 for r, c in group):
            rows, cols = zip(*group, strict=True)
            out[list(rows), list(cols)] = True
    return out


def _bounds(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, left, bottom, right) of the True cells (0-based), None when there are none."""
    rows, cols = np.nonzero(mask)
    if not len(rows):
        return None
    return int(rows.min()), int(cols.min()), int(rows.max()), int(cols.max())


# A field to fill in, not a title: ``Name:``, ``Date: ________``, ``Name ____ Date ____``,
# ``Nom : ____``, ``名前：``, any ``Label: ____``; a title may end in a colon (``Puzzle 3:``),
# and a field's word alone (``School``) is a title unless a value stands beside it.
FIELD_WORDS = (
    r"(?:first name|last name|surname|name|nom|prénom|nombre|apellido|vorname|nachname"
    r"|date|datum|fecha|class|classe|klasse|period|score|student|teacher|school|grade"
    r"|名前|氏名|日付|クラス|組|番号|点数)"
)
BLANKS = r"[_.…]{2,}"
FIELD = re.compile(
    rf"^(?:{FIELD_WORDS}[ \t]*(?:[:：]|(?={BLANKS}))[\s_.…-]*)+$"
    rf"|^[^:：]{{1,24}}[:：][ \t]*{BLANKS}[\s_.…-]*$",
    re.IGNORECASE,
)
BARE_FIELD = re.compile(rf"^{FIELD_WORDS}$", re.IGNORECASE)
FIELD_VALUE_COLUMNS = 3  # a field's value typed this far right of its label is no title


def _valued(row: list, j: int) -> bool:
    """True when text stands right of cell ``j`` within FIELD_VALUE_COLUMNS (a value)."""
    after = row[j + 1 : j + 1 + FIELD_VALUE_COLUMNS]
    return any(isinstance(v, str) and v.strip() for v in after)


def _title(sheet: Sheet, used: Rect, rect: Rect) -> str:
    """The first text of two or more characters above the drawing (a title), else "";
    a field to fill in (``Name:``) is passed over. Text beside or below the drawing is
    a note (``# = black``, ``leave the rest white``), not a title: the worksheet is then
    titled by the file's name."""
    top, left, _, _ = used
    for i, row in enumerate(sheet.read_values(used)):
        label = None  # the column of a field's label on this row
        for j, v in enumerate(row):
            r, c = top + i, left + j
            text = v.strip() if isinstance(v, str) else ""
            if not text:
                continue
            if FIELD.match(text) or (BARE_FIELD.match(text) and _valued(row, j)):
                label = j
                continue
            if label is not None and j - label <= FIELD_VALUE_COLUMNS:
                continue  # the field's value ("Name:" | "Ann")
            if r < rect[0] and not holds(rect, (r, c)) and len(text) > 1:
                return text
    return ""


def _lightness(rgb: str) -> float:
    """HLS lightness 0 … 1 of ``#rrggbb``: (brightest + darkest channel) / 2."""
    channels = [int(rgb.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    return (max(channels) + min(channels)) / 2


def _canvas(fills: list[list[str | None]], marks: np.ndarray) -> str | None:
    """The drawing's canvas, a light tint laid under the picture (Excel's lighter theme
    shades, a pale grey): the commonest fill at least CANVAS light among the marked cells,
    when darker marks stand there too; None when there is none."""
    light: dict[str, int] = {}
    darker = 0
    for r, c in zip(*np.nonzero(marks), strict=True):
        fill = fills[r][c]
        if fill and _lightness(fill) >= CANVAS:
            light[fill] = light.get(fill, 0) + 1
        else:
            darker += 1
    if not light or not darker:
        return None  # nothing light, or the picture is all light
    return max(light, key=light.get)


def _numbering(values: list[list[object]], first: int = 1) -> np.ndarray:
    """Cells typed ``first`` (1, or 0) that start (or end) a numbering: the next two
    numbers typed after them in a row or a column, as row or column numbers 1, 2, 3 … (or
    0, 1, 2 …) run along a drawing. Such a 1 is a label, not a black mark, and such a 0
    no white mark (a 1 of the picture beside the row numbered 2 stays a mark)."""
    starts = np.array([[mark_text(v) == str(first) for v in row] for row in values], dtype=bool)
    out = np.zeros_like(starts)
    if not starts.any():
        return out
    number = [[_number(v) for v in row] for row in values]
    h, w = starts.shape
    for r, c in zip(*np.nonzero(starts), strict=True):
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            r2, c2, r3, c3 = r + dr, c + dc, r + 2 * dr, c + 2 * dc
            inside = 0 <= r3 < h and 0 <= c3 < w
            if inside and number[r2][c2] == first + 1 and number[r3][c3] == first + 2:
                out[r, c] = True
    return out


def _number(value: object) -> float | None:
    """A cell's value as a number (a number typed as text too), None when it is none."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(normalise(str(value)))
    except ValueError:
        return None


def _marks(sheet: Sheet, rect: Rect) -> tuple[np.ndarray, str | None, list[list[str | None]]]:
    """The marked cells of a rectangle with its canvas left out (marks typed on the
    canvas stay), the canvas fill (None when there is none) and the rectangle's fills.
    A typed 1 that numbers rows or columns (2 and 3 after it), on no fill, is no mark."""
    marks = read_black(sheet, rect)
    fills, values = sheet.read_fills(rect), sheet.read_values(rect)
    unfilled = np.array([[no_fill(f) for f in row] for row in fills], dtype=bool)
    marks &= ~(_numbering(values) & unfilled)  # a filled cell stays a mark
    canvas = _canvas(fills, marks)
    if canvas is None:
        return marks, None, fills
    typed = np.array([[mark_text(v) in BLACK_MARKS for v in row] for row in values], dtype=bool)
    on_canvas = np.array([[f == canvas for f in row] for row in fills], dtype=bool)
    return marks & ~(on_canvas & ~typed), canvas, fills


def _words(value: object) -> bool:
    """True for text of two letters or more that is no mark (``My House``, ``Title``)."""
    return (
        isinstance(value, str)
        and mark_text(value) is None
        and sum(ch.isalpha() for ch in value) >= 2
    )


def _banners_off(
    marks: np.ndarray, values: list[list[object]], fills: list[list[str | None]]
) -> None:
    """Unmark a heading typed on filled cells (a banner, merged or not) in the first or
    last marked row: every marked cell of the row in one fill, some holding words and
    the rest nothing (a title typed in the first cell of a filled strip), a title or a
    note, not the picture's top or bottom row."""
    while True:
        rows = np.flatnonzero(marks.any(axis=1))
        if not len(rows):
            return
        for r in (int(rows[0]), int(rows[-1])):
            cells = [int(c) for c in np.flatnonzero(marks[r])]
            said = [_words(values[r][c]) for c in cells]
            empty = [values[r][c] is None or values[r][c] == "" for c in cells]
            one_fill = len({fills[r][c] for c in cells}) == 1
            if any(said) and all(s or e for s, e in zip(said, empty, strict=True)) and one_fill:
                marks[r] = False
                break
        else:
            return


def read_drawing(sheet: Sheet, book: Book | None = None, rect: Rect | None = None) -> Drawing:
    """The picture drawn on a sheet; WorkbookError naming the sheet when there is none.

    Merged cells count as they show: all black when their first cell is black.
    """
    merges = sheet.merged_ranges()
    if merges:
        sheet = MergedView(sheet, merges)  # type: ignore[assignment]
    used = sheet.used_range()
    if used is None:
        raise WorkbookError(f"{sheet.name}: the sheet is empty; fill cells to draw a picture")
    if rect is None and book is not None:
        named = book.defined_names().get(GRID_NAME) or book.defined_names().get(
            f"{sheet.name}!{GRID_NAME}"
        )
        if named and named[0] == sheet.name:
            rect = named[1]
    parts = None
    if rect is None:
        marks, _, fills = _marks(sheet, used)
        _banners_off(marks, sheet.read_values(used), fills)
        found = _bounds(marks)
        if found is None:
            raise WorkbookError(
                f"{sheet.name}: no drawing found — fill cells (any colour) or type x or 1 in them"
            )
        white = _typed_white(sheet, used)  # a row of 0s typed under a drawing in 0 and 1
        if white.any():
            found = _bounds(marks | _touching(white, found))
        boxed = _touching(_boxed(sheet, used), found)
        if boxed.any():
            box = _bounds(boxed)
            found = tuple(f(a, b) for f, a, b in zip((min, min, max, max), found, box, strict=True))
        rect = (used[0] + found[0], used[1] + found[1], used[0] + found[2], used[1] + found[3])
        if not boxed.any():
            parts = _parts(marks[found[0] : found[2] + 1, found[1] : found[3] + 1], rect[:2])
    h, w = rect[2] - rect[0] + 1, rect[3] - rect[1] + 1
    if h > MAX_SIDE or w > MAX_SIDE:
        raise WorkbookError(
            f"{where(sheet.name, rect)}: the drawing is {w}×{h}; at most {MAX_SIDE}×{MAX_SIDE}"
        )
    picture, canvas, fills = _marks(sheet, rect)
    if not picture.any():
        raise WorkbookError(f"{where(sheet.name, rect)}: the drawing has no black cells")
    merged: dict[str, str] = {}
    colours, palette = drawing_colours(sheet.name, rect, fills, picture, canvas, merged)
    title = _title(sheet, used, rect)
    pale = _pale(fills, picture, canvas)
    return Drawing(
        picture,
        title,
        sheet.name,
        rect,
        colours,
        palette,
        merged=merged or None,
        pale=pale,
        parts=parts,
    )


PART_GAP = 3  # empty columns (rows) across a whole drawing that part two pictures


def _parts(marks: np.ndarray, origin: tuple[int, int]) -> list[Rect] | None:
    """The parts of a drawing found alone (no borders round it) that PART_GAP empty
    columns, or rows, or more keep apart, each as a sheet range; None when it is one.
    Said, not acted on: a picture may have gaps of its own (two eyes, a word)."""

    def runs(filled: np.ndarray) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for k in np.flatnonzero(filled):
            if out and k - out[-1][1] - 1 < PART_GAP:
                out[-1] = (out[-1][0], int(k))
            else:
                out.append((int(k), int(k)))
        return out

    top, left = origin
    for axis in (0, 1):
        spans = runs(marks.any(axis=axis))
        if len(spans) > 1:
            parts = []
            for lo, hi in spans:
                window = np.s_[:, lo : hi + 1] if axis == 0 else np.s_[lo : hi + 1]
                part = np.zeros_like(marks)
                part[window] = marks[window]
                t, c, b, d = _bounds(part)
                parts.append((top + t, left + c, top + b, left + d))
            return parts
    return None


def _pale(fills: list[list[str | None]], picture: np.ndarray, canvas: str | None):
    """Fills too light to be ink (a pale yellow, a 5 % grey) on cells read as paper, with
    their cell counts; a fill over half the paper cells is the background, not named."""
    pale: dict[str, int] = {}
    for r, c in zip(*np.nonzero(~picture), strict=True):
        fill = fills[r][c]
        if fill and fill.lower() not in ("#ffffff", (canvas or "").lower()):
            pale[fill.lower()] = pale.get(fill.lower(), 0) + 1
    paper = int((~picture).sum())
    pale = {fill: n for fill, n in pale.items() if n * 2 <= paper}
    return pale or None


def read_drawing_file(
    path: str | os.PathLike, *, sheet: str | None = None, rect: str | None = None
) -> Drawing:
    """The drawing in a workbook file: the named sheet, else the first sheet with marks.

    ``rect`` is ``B3:P17`` or ``Sheet1!B3:P17`` (its sheet, unless ``sheet`` names another).
    """
    area = None
    if rect is not None:
        named, area = parse_range(rect)  # ValueError saying what to type
        if named is not None and sheet is not None and named != sheet:
            raise WorkbookError(f"--range {rect} is on sheet {named!r}, --sheet is {sheet!r}")
        sheet = named or sheet
    book = open_book(path, read_only=True)
    if sheet is not None:
        try:
            target = book.sheet(sheet)
        except KeyError as exc:
            raise WorkbookError(f"{path}: {exc.args[0]}") from None
        drawing = read_drawing(target, book, area)
    else:
        errors = []
        for candidate in book.sheets():
            try:
                drawing = read_drawing(candidate, book, area)
                break
            except WorkbookError as exc:
                errors.append(str(exc))
        else:
            raise WorkbookError(f"{path}: " + (errors[0] if errors else "no sheets"))
    if not drawing.title:
        drawing.title = Path(path).stem
    return drawing

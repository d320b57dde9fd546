"""Boards drawn on a worksheet, and tilings painted back, through the sheet protocol.

Glossary
    marked cell  a cell with a fill (other than white), a border on all four sides (when
                 the back end reads borders), a one-character value, or a cell inside an
                 outline drawn with borders: part of the board (on graph paper, every
                 cell boxed thin, the cells inside a heavy outline). A piece letter (F I
                 L N P T U V W X Y Z, either case) fixes that piece there; longer text
                 (a title, a note) is not part of the board
    hole         an unmarked cell inside the board's bounding box, or one that says so:
                 a typed ``0``, ``.``, ``-``, ``×`` or ``/``, a cell crossed out with
                 both diagonals; a black (or dark grey) fill among cells marked
                 otherwise, when that gives the pieces' count
    ruler        labels typed along an edge of the drawing, numbers running up or down
                 (1, 2, 3, … or a chessboard's 8, 7, 6, …) or letters (A, B, C, …), plain
                 or on a header's fill: not board cells
    group        marked cells touching each other (corners count); when the whole
                 drawing is not the pieces' count, the one group that is is the board
    palette      one Style per piece letter: a fill of its own and the letter in bold
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Sequence

from ..groups import touching
from ..sheets.errors import MAX_SHEET_NAME
from ..sheets.protocol import (
    BOTTOM,
    LEFT,
    RIGHT,
    TOP,
    Book,
    Cell,
    Rect,
    Sheet,
    Style,
    column_letter,
)
from ..workbook.marks import luminance
from .board import BOARD_CELLS, BoardError, PentominoBoard, SeveralBoards, make_board
from .pieces import LETTERS, Coord

BOARD_NAME = "PentominoBoard"  # a defined name that marks the board's rectangle
UNMARKED_FILLS = (None, "#FFFFFF")
MAX_MARK_LENGTH = 1  # longer text is a note, not a board cell
TITLE_BAND = 3  # a merge this many cells long holding text is a title band, whatever its text
HOLE_TEXT = frozenset({"0", ".", "-", "×", "/", "・", "·"})  # typed in a cell: a hole
DARK_HOLE = 0.3  # a fill darker than this (relative luminance) may mark a hole: black,
# and Excel's "Black, Text 1, Lighter 25%" (#404040, 0.25)
GREY_SPREAD = 48  # a hole's fill is grey: its red, green and blue at most this far apart
MIN_RULER = 3  # labels running along an edge, at least this many, are a ruler
TILING_SHEET = "Tiling {n}"

# Twelve fills that stay apart from each other and keep a black letter readable.
PIECE_FILLS = {
    "F": "#E6194B",
    "I": "#3CB44B",
    "L": "#FFE119",
    "N": "#4363D8",
    "P": "#F58231",
    "T": "#911EB4",
    "U": "#46F0F0",
    "V": "#F032E6",
    "W": "#BCF60C",
    "X": "#FABEBE",
    "Y": "#9A6324",
    "Z": "#AAFFC3",
}
BOARD_FILL = "#D9D9D9"  # what a cleared cell of a board drawn without borders keeps
CLEARED = Style("pentomino-cleared", font_color="#000000")  # the letters' colour taken back
# Dark fills get a white letter.
LIGHT_LETTER = ("N", "T", "Y")
PALETTE: dict[str, Style] = {
    letter: Style(
        f"pentomino-{letter}",
        fill=PIECE_FILLS[letter],
        font_color="#FFFFFF" if letter in LIGHT_LETTER else "#000000",
        bold=True,
    )
    for letter in LETTERS
}


def named_board(book: Book | None, sheet: Sheet) -> Rect | None:
    """The rectangle of the sheet named ``PentominoBoard`` (a workbook or sheet name),
    None when there is none."""
    if book is not None:
        for name, (sheet_name, rect) in book.defined_names().items():
            if name.split("!")[-1] == BOARD_NAME and sheet_name == sheet.name:
                return rect
    return None


def board_rect(book: Book | None, sheet: Sheet) -> Rect | None:
    """Where to look for the board: the ``PentominoBoard`` name, else the used range."""
    return named_board(book, sheet) or sheet.used_range()


def _text(value: object) -> str:
    """A cell's value as typed: ``0`` for the number 0, stripped text otherwise, full-width
    letters and digits as their ASCII forms (``Ｘ`` is ``X``)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else unicodedata.normalize("NFKC", str(value)).strip()


def _mark(text: str, fill: str | None, boxed: bool) -> str | None:
    """What a cell says: a piece letter, ``#`` for a board cell, ``None`` for a hole or
    for longer text (a title or a note, filled or boxed as it may be)."""
    if text in HOLE_TEXT or _is_note(text):
        return None
    if len(text) == 1:
        return text.upper() if text.upper() in LETTERS else "#"
    if boxed or (fill is not None and fill.upper() not in UNMARKED_FILLS):
        return "#"
    return None


def _is_note(text: str) -> bool:
    """True for text longer than a mark that holds a letter: a title, a note."""
    return len(text) > MAX_MARK_LENGTH and any(ch.isalpha() for ch in text)


def _titled(sheet: Sheet, rect: Rect, values: list[list[object]]) -> set[Coord]:
    """Cells of ``rect`` (as offsets) that a merge holding longer text covers, or any
    text when the merge is a band (``X`` titling the board): no part of the board."""
    top, left, bottom, right = rect
    out: set[Coord] = set()
    for m_top, m_left, m_bottom, m_right in sheet.merged_ranges():
        i, j = m_top - top, m_left - left
        inside = 0 <= i <= bottom - top and 0 <= j <= right - left
        text = _text(values[i][j]) if inside else ""
        band = max(m_bottom - m_top, m_right - m_left) + 1 >= TITLE_BAND
        if not (_is_note(text) or (text and band)):
            continue
        for r in range(max(m_top, top), min(m_bottom, bottom) + 1):
            for c in range(max(m_left, left), min(m_right, right) + 1):
                out.add((r - top, c - left))
    return out


def _open(sides: list[list[int]], i: int, j: int, k: int, m: int) -> bool:
    """True when no line parts cell (i, j) from its neighbour (k, m)."""
    if k == i + 1:
        return not (sides[i][j] & BOTTOM or sides[k][m] & TOP)
    if k == i - 1:
        return not (sides[i][j] & TOP or sides[k][m] & BOTTOM)
    if m == j + 1:
        return not (sides[i][j] & RIGHT or sides[k][m] & LEFT)
    return not (sides[i][j] & LEFT or sides[k][m] & RIGHT)


def _flood(sides: list[list[int]], starts: list[Coord], taken: set[Coord]) -> set[Coord]:
    """The cells reached from ``starts`` without crossing a line (nor entering ``taken``)."""
    h, w = len(sides), len(sides[0])
    region = set(starts)
    todo = list(starts)
    while todo:
        i, j = todo.pop()
        for k, m in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if (
                0 <= k < h
                and 0 <= m < w
                and (k, m) not in taken
                and (k, m) not in region
                and _open(sides, i, j, k, m)
            ):
                region.add((k, m))
                todo.append((k, m))
    return region


def _enclosed(sheet: Sheet, rect: Rect, heavy: bool = False) -> set[Coord]:
    """Cells of ``rect`` inside an outline drawn with borders round the board (``heavy``:
    drawn with heavy lines, thin ones passed over as on graph paper).

    A flood from the ring of cells around ``rect`` crosses a cell edge wherever
    neither cell draws a line there. What it cannot reach falls into walled-in
    regions; a region is inside the outline when a wall parts it from the outside.
    A region walled in only by other walled-in cells (a hole amid boxed cells, or an
    outlined hole in the board) is not.
    """
    top, left, bottom, right = rect
    read = sheet.read_heavy_sides if heavy else sheet.read_border_sides
    sides = read((max(1, top - 1), max(1, left - 1), bottom + 1, right + 1))
    if top == 1:
        sides = [[0] * len(sides[0]), *sides]
    if left == 1:
        sides = [[0, *row] for row in sides]
    if not any(any(row) for row in sides):
        return set()
    h, w = len(sides), len(sides[0])
    ring = [(i, j) for i in range(h) for j in range(w) if i in (0, h - 1) or j in (0, w - 1)]
    outside = _flood(sides, ring, set())
    inside: set[Coord] = set()
    done = set(outside)
    for cell in ((i, j) for i in range(1, h - 1) for j in range(1, w - 1)):
        if cell in done:
            continue
        region = _flood(sides, [cell], done)
        done |= region
        near = {(a + da, b + db) for a, b in region for da, db in _SIDES}
        if near & outside:
            inside |= region
    return {(i - 1, j - 1) for i, j in inside}


_SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _ruler_value(text: str) -> tuple[str, int] | None:
    """A cell's place in a ruler: a number, or a letter A-Z (a chessboard's files)."""
    if text.isdigit():
        return "number", int(text)
    if len(text) == 1 and "A" <= text.upper() <= "Z":
        return "letter", ord(text.upper())
    return None


def _run_of(values: list) -> bool:
    """True for values one kind, each one more (or one less) than the one before."""
    if None in values or len({kind for kind, _ in values}) != 1:
        return False
    steps = {b[1] - a[1] for a, b in itertools.pairwise(values)}
    return steps in ({1}, {-1})


def _without_rulers(cells: set[Coord], numbers: dict[Coord, tuple[str, int]]) -> set[Coord]:
    """The cells less row or column labels typed along an edge: 1, 2, 3, … or 8, 7, 6,
    … (a chessboard's ranks), A, B, C, … (its files), plain or on a header's fill."""
    cells = set(cells)
    for _ in range(4):
        if not cells:
            break
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        edges = [
            sorted((c, (r, c)) for r, c in cells if r == min(rows)),
            sorted((c, (r, c)) for r, c in cells if r == max(rows)),
            sorted((r, (r, c)) for r, c in cells if c == min(cols)),
            sorted((r, (r, c)) for r, c in cells if c == max(cols)),
        ]
        for edge in edges:
            line = [cell for _, cell in edge]
            values = [numbers.get(cell) for cell in line]
            if len(line) >= MIN_RULER and _run_of(values):
                cells -= set(line)
                break
        else:
            break
    return cells


def _clue_text(text: str) -> bool:
    """True for what a nonogram's clue cell holds and a board's cell never does: a
    number other than 0 and 1, or digits with separators and no letter (``3 1``,
    ``[1, 1]``, ``1,1,``)."""
    digits = any(ch.isdigit() for ch in text)
    return digits and text not in HOLE_TEXT and text != "1" and not any(c.isalpha() for c in text)


def _in_rulers(numbers: dict[Coord, int]) -> set[Coord]:
    """The numbers in a run of MIN_RULER or more side by side along a row or column,
    each one more (or one less) than the one before: row or column labels."""
    out: set[Coord] = set()
    for dr, dc in ((0, 1), (1, 0)):
        for step in (1, -1):
            for (r, c), n in numbers.items():
                if numbers.get((r - dr, c - dc)) == n - step:
                    continue  # inside a run counted from its start
                run = [(r, c)]
                while numbers.get((run[-1][0] + dr, run[-1][1] + dc)) == numbers[run[-1]] + step:
                    run.append((run[-1][0] + dr, run[-1][1] + dc))
                if len(run) >= MIN_RULER:
                    out.update(run)
    return out


def typed_clues(sheet: Sheet) -> list[Cell]:
    """The sheet cells, in reading order, typed with a nonogram's clues (read or not): a
    number other than 0 and 1, or digits with separators (``[1, 1]``); row and column
    labels (1, 2, 3, … or 8, 7, 6, … running along a row or column) left out. A drawn
    board has none; a sheet of clues that do not read, or of numbers, is no board."""
    rect = sheet.used_range()
    if rect is None:
        return []
    top, left, _, _ = rect
    texts = {
        (r, c): _text(value)
        for r, row in enumerate(sheet.read_values(rect))
        for c, value in enumerate(row)
    }
    labels = _in_rulers({cell: int(t) for cell, t in texts.items() if t.isdecimal()})
    return [
        (top + r, left + c)
        for (r, c), text in sorted(texts.items())
        if _clue_text(text) and (r, c) not in labels
    ]


def _groups(cells: set[Coord]) -> list[set[Coord]]:
    """The cells split into groups that touch (sides or corners), largest first."""
    return sorted((set(g) for g in touching(sorted(cells))), key=len, reverse=True)


def _span(cells: set[Coord], top: int, left: int) -> str:
    """``B2:K7``: the sheet range of some cells of a read rectangle."""
    r0 = top + min(r for r, _ in cells)
    c0 = left + min(c for _, c in cells)
    r1 = top + max(r for r, _ in cells)
    c1 = left + max(c for _, c in cells)
    first = f"{column_letter(c0)}{r0}"
    return first if (r0, c0) == (r1, c1) else f"{first}:{column_letter(c1)}{r1}"


def _chosen(sheet: Sheet, readings: list[set[Coord]], need: int, corner: Coord) -> set[Coord]:
    """The first reading of ``need`` cells, else the one group of touching cells of that
    many; SeveralBoards when several groups could be the board (or none has the count
    and the drawing is in pieces); else the whole drawing, whose count is the error."""
    chosen = next((cells for cells in readings if len(cells) == need), None)
    if chosen is not None:
        return chosen
    fits = list({frozenset(g) for reading in readings for g in _groups(reading) if len(g) == need})
    if len(fits) == 1:
        return set(fits[0])
    groups = sorted(fits or _groups(readings[0]), key=lambda g: (min(g), -len(g)))
    if len(groups) > 1:
        shown = ", ".join(f"{sheet.name}!{_span(g, *corner)} ({len(g)} cells)" for g in groups[:4])
        more = f" and {len(groups) - 4} more" if len(groups) > 4 else ""
        what = (
            f"{len(groups)} groups of marked cells could each be the board"
            if fits
            else f"the marked cells form {len(groups)} separate groups"
            f" and none has the {need} cells the pieces cover"
        )
        raise SeveralBoards(
            f"{sheet.name}: {what} ({shown}{more}); mark only the board,"
            f" or give its rectangle the name {BOARD_NAME}",
            need if fits else max(len(g) for g in groups),
        )
    return readings[0]


def read_board(sheet: Sheet, book: Book | None = None, need: int = BOARD_CELLS) -> PentominoBoard:
    """The board drawn on a sheet (BoardError naming the sheet when there is none).

    ``need`` is the number of cells the pieces cover: when the whole drawing is not
    that many, black-filled cells among cells marked otherwise are read as holes, and
    the one group of touching cells that has that many is the board.
    """
    rect = board_rect(book, sheet)
    if rect is None:
        raise BoardError(f"{sheet.name}: the sheet is empty; mark the board's cells")
    top, left, _, _ = rect
    values = sheet.read_values(rect)
    fills = sheet.read_fills(rect)
    boxes = sheet.read_borders(rect)
    crossed = sheet.read_diagonals(rect)
    inside = _enclosed(sheet, rect)
    titles = _titled(sheet, rect, values)
    cells: set[Coord] = set()
    fixed: dict[Coord, str] = {}
    dark: set[Coord] = set()
    numbers: dict[Coord, tuple[str, int]] = {}
    for r, (vrow, frow, brow) in enumerate(zip(values, fills, boxes, strict=True)):
        for c, (value, fill, boxed) in enumerate(zip(vrow, frow, brow, strict=True)):
            text = _text(value)
            if (r, c) in titles or (crossed[r][c] and not text):
                continue  # a title band, or a cell crossed out: a hole
            mark = _mark(text, fill, boxed)
            if mark is None and (r, c) in inside and text not in HOLE_TEXT and not _is_note(text):
                mark = "#"
            if mark is None:
                continue
            cells.add((r, c))
            if mark != "#":
                fixed[(r, c)] = mark
            elif not text and _dark_grey(fill):
                dark.add((r, c))
            label = _ruler_value(text)
            if label is not None:
                numbers[(r, c)] = label
    if not cells:
        holes = any(_text(v) in HOLE_TEXT for row in values for v in row)
        said = f" ({', '.join(sorted(HOLE_TEXT))} typed in a cell mark a hole)" if holes else ""
        raise BoardError(
            f"{sheet.name}: no board found; mark its cells with a fill or a character{said}"
        )
    cells = _without_rulers(cells, numbers)
    readings = [cells]
    if dark and dark != cells and _among(dark, cells - dark):
        readings.append(cells - dark)
    if len(cells) != need:  # graph paper: the board is what a heavy outline holds
        outlined = _enclosed(sheet, rect, heavy=True)
        readings += [reading & outlined for reading in list(readings) if outlined]
    chosen = _chosen(sheet, readings, need, (top, left))
    fixed = {cell: letter for cell, letter in fixed.items() if cell in chosen}
    return make_board(chosen, fixed, name=sheet.name, sheet=sheet.name, origin=(top, left))


def _among(dark: set[Coord], others: set[Coord]) -> bool:
    """True when the dark cells lie within the rectangle the other marked cells span:
    holes in a board, not a black board of their own beside a light one."""
    rows, cols = [r for r, _ in others], [c for _, c in others]
    return all(min(rows) <= r <= max(rows) and min(cols) <= c <= max(cols) for r, c in dark)


def _dark_grey(fill: str | None) -> bool:
    """True for a fill that may mark a hole: black or a dark grey, not a dark colour (a
    navy or a red board beside a light one is a second board, not 60 holes)."""
    if fill is None or luminance(fill) >= DARK_HOLE:
        return False
    rgb = bytes.fromhex(fill.lstrip("#"))  # ``#rrggbb``, as luminance reads it
    return max(rgb) - min(rgb) <= GREY_SPREAD


def find_board(
    book: Book, sheet_name: str | None = None, need: int = BOARD_CELLS
) -> PentominoBoard:
    """The board on the named sheet, else on the first sheet that holds one of ``need``
    cells, else the drawing nearest that count (its count is then the error)."""
    if sheet_name is not None:
        names = [s.name for s in book.sheets()]
        same = [n for n in names if n.casefold() == sheet_name.casefold()]
        if sheet_name not in names and len(same) == 1:
            sheet_name = same[0]  # --sheet board finds Board
        try:
            return read_board(book.sheet(sheet_name), book, need)
        except KeyError as exc:
            raise BoardError(str(exc.args[0])) from None
    errors, boards = [], []
    for sheet in book.sheets():
        try:
            board = read_board(sheet, book, need)
        except BoardError as exc:
            errors.append(exc)
            continue
        if len(board.cells) == need:
            return board
        boards.append(board)
    # no sheet holds a board of the pieces' count: the drawing nearest to it is named
    # (not a highlighted heading on a notes sheet before the board's sheet)
    if boards:
        return min(boards, key=lambda b: abs(len(b.cells) - need))
    several = [e for e in errors if isinstance(e, SeveralBoards)]
    raise (several or errors)[0] if errors else BoardError("the workbook has no sheets")


def paint_tiling(sheet: Sheet, board: PentominoBoard, solution: dict[Coord, str]) -> None:
    """Paint each piece in its colour and write its letter in its cells."""
    top, left = board.origin
    by_letter: dict[str, list[tuple[int, int]]] = {}
    for (r, c), letter in solution.items():
        by_letter.setdefault(letter, []).append((top + r, left + c))
    for letter, cells in sorted(by_letter.items()):
        for cell in cells:
            sheet.write_values(cell, [[letter]])
        sheet.paint(cells, PALETTE[letter])


def clear_tiling(sheet: Sheet, board: PentominoBoard) -> int:
    """Undo :func:`paint_tiling`: remove the letters and piece colours; the number cleared.

    A cell counts as painted when it shows a piece letter on that piece's own colour
    (letters placed to fix a piece are painted so too, and are cleared with the rest).
    Cells drawn with borders (boxed, or inside an outline) lose their fill; the others
    keep a plain grey fill, so the board stays drawn for the next Solve.
    """
    top, left = board.origin
    cells = sorted((top + r, left + c) for r, c in board.cells)
    if not cells:
        return 0
    rect = (cells[0][0], min(c for _, c in cells), cells[-1][0], max(c for _, c in cells))
    values, fills = sheet.read_values(rect), sheet.read_fills(rect)
    boxes = sheet.read_borders(rect)
    inside = _enclosed(sheet, rect)
    boxed, loose = [], []
    for r, c in cells:
        i, j = r - rect[0], c - rect[1]
        letter = str(values[i][j] or "").strip().upper()
        if letter not in PIECE_FILLS or (fills[i][j] or "").upper() != PIECE_FILLS[letter]:
            continue
        (boxed if boxes[i][j] or (i, j) in inside else loose).append((r, c))
    for cell in boxed + loose:
        sheet.write_values(cell, [[None]])
    sheet.unpaint(boxed + loose)
    sheet.paint(boxed + loose, CLEARED)  # N, T and Y wrote white: a later entry would not show
    sheet.paint(loose, Style("pentomino-board", fill=BOARD_FILL))
    return len(boxed) + len(loose)


def write_tilings(
    book: Book, sheet: Sheet, board: PentominoBoard, solutions: Sequence[dict[Coord, str]]
) -> list[str]:
    """Paint the first tiling on the board's sheet, the others on new sheets; their names."""
    if not solutions:
        return []
    paint_tiling(sheet, board, solutions[0])
    names = [sheet.name]
    if len(solutions) > 1 and not hasattr(book, "add_sheet"):
        raise BoardError("this spreadsheet back end cannot add sheets for --all")
    taken = {s.name for s in book.sheets()}
    for n, solution in enumerate(solutions[1:], start=2):
        name = TILING_SHEET.format(n=n)[:MAX_SHEET_NAME]
        k = 1
        while name in taken:
            k += 1
            name = f"{TILING_SHEET.format(n=n)} ({k})"[:MAX_SHEET_NAME]
        taken.add(name)
        paint_tiling(book.add_sheet(name), board, solution)
        names.append(name)
    return names

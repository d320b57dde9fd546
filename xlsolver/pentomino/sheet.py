"""Boards drawn on a worksheet, and tilings painted back, through the sheet protocol.

Glossary
    marked cell  a cell with a fill (other than white), a border on all four sides (when
                 the back end reads borders) or a one-character value: part of the board.
                 A piece letter (F I L N P T U V W X Y Z, either case) fixes that piece
                 there; longer text (a title, a note) is not part of the board
    hole         an unmarked cell inside the board's bounding box
    palette      one Style per piece letter: a fill of its own and the letter in bold
"""

from __future__ import annotations

from collections.abc import Sequence

from ..sheets.protocol import Book, Rect, Sheet, Style
from .board import BoardError, PentominoBoard, make_board
from .pieces import LETTERS, Coord

BOARD_NAME = "PentominoBoard"  # a defined name that marks the board's rectangle
UNMARKED_FILLS = (None, "#FFFFFF")
MAX_MARK_LENGTH = 1  # longer text is a note, not a board cell
TILING_SHEET = "Tiling {n}"
MAX_SHEET_NAME = 31

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


def board_rect(book: Book | None, sheet: Sheet) -> Rect | None:
    """Where to look for the board: the ``PentominoBoard`` name, else the used range."""
    if book is not None:
        for name, (sheet_name, rect) in book.defined_names().items():
            if name.split("!")[-1] == BOARD_NAME and sheet_name == sheet.name:
                return rect
    return sheet.used_range()


def _mark(value: object, fill: str | None, boxed: bool) -> str | None:
    """What a cell says: a piece letter, ``#`` for a board cell, ``None`` for a hole."""
    text = "" if value is None else str(value).strip()
    if len(text) == 1 and text.upper() in LETTERS:
        return text.upper()
    if text and len(text) <= MAX_MARK_LENGTH:
        return "#"
    if boxed or (fill is not None and fill.upper() not in UNMARKED_FILLS):
        return "#"
    return None


def read_board(sheet: Sheet, book: Book | None = None) -> PentominoBoard:
    """The board drawn on a sheet (BoardError naming the sheet when there is none)."""
    rect = board_rect(book, sheet)
    if rect is None:
        raise BoardError(f"{sheet.name}: the sheet is empty; mark the board's cells")
    top, left, _, _ = rect
    values = sheet.read_values(rect)
    fills = sheet.read_fills(rect)
    boxes = sheet.read_borders(rect)
    cells: set[Coord] = set()
    fixed: dict[Coord, str] = {}
    for r, (vrow, frow, brow) in enumerate(zip(values, fills, boxes, strict=True)):
        for c, (value, fill, boxed) in enumerate(zip(vrow, frow, brow, strict=True)):
            mark = _mark(value, fill, boxed)
            if mark is None:
                continue
            cells.add((r, c))
            if mark != "#":
                fixed[(r, c)] = mark
    if not cells:
        raise BoardError(f"{sheet.name}: no board found; mark its cells with a fill or a character")
    return make_board(cells, fixed, name=sheet.name, sheet=sheet.name, origin=(top, left))


def find_board(book: Book, sheet_name: str | None = None) -> PentominoBoard:
    """The board on the named sheet, else on the first sheet that holds one."""
    if sheet_name is not None:
        try:
            return read_board(book.sheet(sheet_name), book)
        except KeyError as exc:
            raise BoardError(str(exc.args[0])) from None
    errors = []
    for sheet in book.sheets():
        try:
            return read_board(sheet, book)
        except BoardError as exc:
            errors.append(str(exc))
    raise BoardError(errors[0] if errors else "the workbook has no sheets")


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
    Boxed cells (borders) lose their fill; the others keep a plain grey fill, so the
    board stays drawn for the next Solve.
    """
    top, left = board.origin
    cells = sorted((top + r, left + c) for r, c in board.cells)
    if not cells:
        return 0
    rect = (cells[0][0], min(c for _, c in cells), cells[-1][0], max(c for _, c in cells))
    values, fills = sheet.read_values(rect), sheet.read_fills(rect)
    boxes = sheet.read_borders(rect)
    boxed, loose = [], []
    for r, c in cells:
        i, j = r - rect[0], c - rect[1]
        letter = str(values[i][j] or "").strip().upper()
        if letter not in PIECE_FILLS or (fills[i][j] or "").upper() != PIECE_FILLS[letter]:
            continue
        (boxed if boxes[i][j] else loose).append((r, c))
    for cell in boxed + loose:
        sheet.write_values(cell, [[None]])
    sheet.unpaint(boxed + loose)
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

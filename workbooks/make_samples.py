"""Regenerate the sample workbooks: ``python workbooks/make_samples.py``.

small.xlsx            10×10, the template layout (the README's first command)
picture-25x25.xlsx    25×25, clues as text in one cell per line, title and notes around it
spiral-50x50.xlsx     50×50, template layout
contradiction.xlsx    clues with no solution (painted red where it shows)
several-solutions.xlsx  clues with more than one solution
layouts.xlsx          several sheets: Japanese size labels, defined names, a notes sheet
house-drawing.xlsx    a teacher's drawing in three colours (docs/teaching.md)
smiley-drawing.xlsx   a drawing whose clues have several solutions
class/*.xlsx          three students' answers to the house worksheet, for `grade`
pentomino-8x8.xlsx    a pentomino board drawn with fills: 8×8 less its centre 2×2
hand-made.xlsx        laid out by hand (docs/workbooks.md): two puzzles on one sheet with
                      row numbers; clues typed every way, some turned into dates and
                      decimals; a half-played grid of 1s and ×s
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.sheets.openpyxl_sheet import new_book
from xlsolver.workbook.template import write_template

HERE = Path(__file__).resolve().parent

HOUSE = [
    "....##....",
    "...####...",
    "..######..",
    ".########.",
    "##########",
    ".#......#.",
    ".#.##.#.#.",
    ".#.##...#.",
    ".#.##.###.",
    ".########.",
]


def picture(rows: list[str]) -> np.ndarray:
    """A boolean picture from row strings (``#`` black)."""
    return np.array([[ch == "#" for ch in r] for r in rows])


def cat_25() -> np.ndarray:
    """A 25×25 picture: a cat's face from circles and triangles."""
    y, x = np.mgrid[0:25, 0:25]
    face = (x - 12) ** 2 + (y - 14) ** 2 <= 100
    ears = ((y >= 2) & (y <= 8)) & (
        (np.abs(x - 5) <= (y - 2) // 1.5) | (np.abs(x - 19) <= (y - 2) // 1.5)
    )
    eyes = ((x - 8) ** 2 + (y - 12) ** 2 <= 3) | ((x - 16) ** 2 + (y - 12) ** 2 <= 3)
    nose = (np.abs(x - 12) <= 1) & (y == 16)
    mouth = (y == 19) & (np.abs(x - 12) >= 1) & (np.abs(x - 12) <= 4)
    return (face | ears) & ~eyes & ~nose & ~mouth


def spiral_50() -> np.ndarray:
    """A 50×50 picture: an eight-armed spiral."""
    y, x = np.mgrid[0:50, 0:50] - 24.5
    turn = np.arctan2(y, x) * 8 / np.pi + np.hypot(x, y) / 3
    return turn.astype(int) % 2 == 0


def template_book(path: Path, puzzle: Puzzle, title: str) -> None:
    """One sheet in the template layout."""
    book = new_book()
    sheet = book.sheets()[0]
    sheet.ws.title = "Puzzle"
    write_template(sheet, puzzle, title=title)
    book.save(path)


def text_per_line_book(path: Path, puzzle: Puzzle, title: str) -> None:
    """Clues as text, one cell per line, the grid at D6, a title and notes around it."""
    book = new_book()
    ws = book.sheets()[0].ws
    ws.title = "Cat"
    ws["B2"] = title
    ws.merge_cells("B2:L2")
    ws["B3"] = "Row clues are read left to right, column clues top to bottom."
    top, left = 6, 4
    for i, clues in enumerate(puzzle.rows):
        ws.cell(top + i, left - 1, " ".join(map(str, clues)) or "0")
    for j, clues in enumerate(puzzle.cols):
        ws.cell(top - 1, left + j, "\n".join(map(str, clues)) or "0")
    ws.column_dimensions["C"].width = 16
    ws.row_dimensions[top - 1].height = 110
    for c in range(left, left + puzzle.width):
        ws.column_dimensions[ws.cell(1, c).column_letter].width = 3
    ws.cell(top + puzzle.height + 1, 2, "Name: ________  Class: ____")
    book.save(path)


def layouts_book(path: Path) -> None:
    """A notes sheet, a sheet with 幅/高さ labels, a sheet with defined names."""
    book = new_book()
    notes = book.sheets()[0]
    notes.ws.title = "Notes"
    notes.write_values((1, 1), [["Two puzzles follow: one sized by 幅/高さ, one by names."]])
    heart = Puzzle.from_solution(
        picture([".##.##.", "#######", "#######", ".#####.", "..###..", "...#..."]), "Heart"
    )
    sheet = book.add_sheet("Heart")
    write_template(sheet, heart, title="ハート")
    sheet.write_values((2, 1), [["幅", None, heart.width, None, "高さ", None, heart.height]])
    arrow = Puzzle.from_solution(
        picture(["...#...", "..###..", ".#####.", "#######", "..###..", "..###..", "..###.."]),
        "Arrow",
    )
    named = book.add_sheet("Arrow")
    named.write_values(
        (1, 1), [["Arrow: clues kept where the names PuzzleGrid/RowClues/ColClues say"]]
    )
    for i, clues in enumerate(arrow.rows):
        named.write_values((4 + i, 12), [[" ".join(map(str, clues))]])
    for j, clues in enumerate(arrow.cols):
        named.write_values((12, 3 + j), [[" ".join(map(str, clues))]])
    book.define_name("PuzzleGrid", "Arrow", (4, 3, 10, 9))
    book.define_name("RowClues", "Arrow", (4, 12, 10, 12))
    book.define_name("ColClues", "Arrow", (12, 3, 12, 9))
    book.save(path)


HOUSE_15 = [
    "......###......",
    ".....#####.....",
    "....#######.##.",
    "...#########.#.",
    "..###########..",
    ".#############.",
    "###############",
    "..###########..",
    "..##...##...##.",
    "..##.#.##.#.##.",
    "..##...##...##.",
    "..###########..",
    "..####...####..",
    "..####...####..",
    "###############",
]
SMILEY = [
    "..........",
    "..######..",
    ".#......#.",
    "#..#..#..#",
    "#........#",
    "#.#....#.#",
    "#..####..#",
    ".#......#.",
    "..######..",
    "..........",
]
DRAWING_FILLS = ("C00000", "2F5597", "548235")  # roof, walls, ground: any colour draws


def drawing_book(path: Path, rows: list[str], title: str, colour_rows=None) -> None:
    """A drawing: filled cells (in a few colours) with the title typed above it."""
    from openpyxl.styles import PatternFill

    book = new_book()
    ws = book.sheets()[0].ws
    ws.title = "Drawing"
    ws["B1"] = title
    for r, row in enumerate(rows):
        fill = DRAWING_FILLS[0 if r < 7 else 1 if r < 14 else 2] if colour_rows else "404040"
        for c, ch in enumerate(row):
            if ch == "#":
                ws.cell(3 + r, 2 + c).fill = PatternFill("solid", start_color=fill, end_color=fill)
    for c in range(2, 2 + len(rows[0])):
        ws.column_dimensions[ws.cell(1, c).column_letter].width = 3
    book.save(path)


def class_books(folder: Path, drawing: Path) -> None:
    """Three students' answers to the house worksheet (`make --mono`, as the README
    makes the key): all right, 3 wrong, 1 wrong."""
    import tempfile

    from openpyxl.styles import PatternFill

    from xlsolver.sheets.openpyxl_sheet import open_book
    from xlsolver.teaching import make_worksheet, read_drawing_file
    from xlsolver.teaching.worksheet import PUZZLE_SHEET, name_cell
    from xlsolver.workbook.layout import read_puzzle

    folder.mkdir(exist_ok=True)
    answer = picture(HOUSE_15)
    with tempfile.TemporaryDirectory() as tmp:
        blank = Path(tmp, "house.xlsx")
        make_worksheet(read_drawing_file(drawing), blank, mono=True)  # as the README makes it
        for name, wrong in (
            ("Ann Lee", []),
            ("Bob Kim", [(0, 0), (4, 7), (12, 6)]),
            ("Cho Sato", [(8, 4)]),
        ):
            book = open_book(blank)
            sheet = book.sheet(PUZZLE_SHEET)
            found = read_puzzle(sheet, book)
            grid = answer.copy()
            for r, c in wrong:
                grid[r, c] = not grid[r, c]
            pen = PatternFill("solid", start_color="333333", end_color="333333")
            for r, c in zip(*np.nonzero(grid), strict=True):
                row, col = found.cell(int(r), int(c))
                sheet.ws.cell(row, col).fill = pen
            sheet.ws.cell(*name_cell(found.grid), name)
            book.save(folder / f"{name.split()[0].lower()}.xlsx")


def pentomino_book(path: Path) -> None:
    """An 8×8 board less its centre 2×2, drawn with a fill, a title above it."""
    from openpyxl.styles import PatternFill

    book = new_book()
    ws = book.sheets()[0].ws
    ws.title = "Board"
    ws["B1"] = "Pentomino: 8×8 less its centre"
    fill = PatternFill("solid", start_color="D9E1F2", end_color="D9E1F2")
    for r in range(8):
        for c in range(8):
            if not (3 <= r <= 4 and 3 <= c <= 4):
                ws.cell(3 + r, 2 + c).fill = fill
    book.save(path)


ARROW = [
    "...#...",
    "..###..",
    ".#####.",
    "#######",
    "..###..",
    "..###..",
    "..###..",
]


def hand_made_book(path: Path) -> None:
    """Sheets laid out by hand: "Two" (two puzzles, a ruler), "Typed" (clues as typed,
    what the spreadsheet converted, a half-played grid)."""
    import datetime as dt

    from openpyxl import Workbook

    wb = Workbook()
    two = wb.active
    two.title = "Two"
    two["A1"] = "Two puzzles, row numbers on the left"
    for rows, top, left in ((HOUSE, 6, 7), (ARROW, 6, 22)):
        puzzle = Puzzle.from_solution(picture(rows))
        for i, clues in enumerate(puzzle.rows):
            for k, v in enumerate(clues):
                two.cell(top + i, left - len(clues) + k, v)
        for j, clues in enumerate(puzzle.cols):
            for k, v in enumerate(clues):
                two.cell(top - len(clues) + k, left + j, v)
    for i in range(len(HOUSE)):
        two.cell(6 + i, 1, i + 1)  # a ruler: skipped and reported
    typed = wb.create_sheet("Typed")
    typed["A1"] = "Clues as typed: 3 1, 3,1, 3・1, 3.1 (became a decimal), 3/1 (became a date)"
    puzzle = Puzzle.from_solution(picture(HOUSE))
    top, left = 4, 3
    forms = [
        lambda c: " ".join(map(str, c)),
        lambda c: ",".join(map(str, c)),
        lambda c: "・".join(map(str, c)),
    ]
    for i, clues in enumerate(puzzle.rows):
        cell = typed.cell(top + i, left - 1)
        if len(clues) == 2 and 1 <= clues[1] <= 9 and i % 2:
            cell.value = float(f"{clues[0]}.{clues[1]}")  # what 3.1 becomes
        elif len(clues) == 2 and clues[0] <= 12:
            cell.value = dt.datetime(2026, clues[0], clues[1])  # what 3/1 becomes
            cell.number_format = "m/d"
        else:
            cell.value = forms[i % 3](clues)
    for j, clues in enumerate(puzzle.cols):
        typed.cell(top - 1, left + j, "\n".join(map(str, clues)))
    for (r, c), black in np.ndenumerate(picture(HOUSE)):
        if r < 5:  # a player half way: 1 for black, × for white
            typed.cell(top + r, left + c, 1 if black else "×")
    wb.save(path)


def main() -> None:
    """Write every sample next to this script."""
    template_book(HERE / "small.xlsx", Puzzle.from_solution(picture(HOUSE), "House"), "House")
    text_per_line_book(HERE / "picture-25x25.xlsx", Puzzle.from_solution(cat_25(), "Cat"), "Cat")
    template_book(HERE / "spiral-50x50.xlsx", Puzzle.from_solution(spiral_50(), "Spiral"), "Spiral")
    impossible = Puzzle.from_clues([[1, 1], [1]], [[], [2], [1]])
    template_book(HERE / "contradiction.xlsx", impossible, "No solution")
    several = Puzzle.from_clues([[1], [1], [2]], [[1], [2], [1]])
    template_book(HERE / "several-solutions.xlsx", several, "Two solutions")
    layouts_book(HERE / "layouts.xlsx")
    drawing_book(HERE / "house-drawing.xlsx", HOUSE_15, "House", colour_rows=True)
    drawing_book(HERE / "smiley-drawing.xlsx", SMILEY, "Smiley")
    class_books(HERE / "class", HERE / "house-drawing.xlsx")
    pentomino_book(HERE / "pentomino-8x8.xlsx")
    hand_made_book(HERE / "hand-made.xlsx")


if __name__ == "__main__":
    main()

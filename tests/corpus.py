"""A corpus of hand-made workbooks, laid out as people and other programs make them.

``build_corpus(folder)`` writes every workbook (openpyxl, xlsxwriter, and a few saved by
LibreOffice when it is installed) and returns one :class:`Case` per file: the puzzles
the finder must find (sheet, grid range, the picture or the verdict) or the one-line
error it must give. ``tests/test_corpus.py`` solves and paints each through the command
line's batch path; the parity test of the back ends iterates the same cases.

One module (longer than most) so that the tests, the parity test and
``bench/bench_finder.py`` build the same workbooks: one section per family of cases
(typed clues, marks, rulers, places, notes, verdicts, other writers).
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from conftest import workbooks_module
from openpyxl import Workbook
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName

from xlsolver.nonogram.puzzle import Puzzle

SAMPLES = workbooks_module("make_samples")
HOUSE = SAMPLES.HOUSE  # 10×10, unique (the sample house)
HEART = [  # 10×10 with an empty last row (its box keeps it), unique
    ".##...##..",
    "####.####.",
    "#########.",
    "#########.",
    ".#######..",
    "..#####...",
    "...###....",
    "....#.....",
    "..........",
    "..........",
]
DOT = [  # 10×10, unique: four corner blocks and a centre dot, whose clues stand alone
    "###.....##",
    "###.....##",
    "###.....##",
    "..........",
    "..........",
    ".....#....",
    "..........",
    "..........",
    "###.....##",
    "###.....##",
]
BOAT = [  # 8×6, unique
    "...#....",
    "...##...",
    "...###..",
    "...#....",
    "########",
    ".######.",
]
ARROW = SAMPLES.ARROW  # 7×7, unique (the sample arrow)
PAIRS = [  # 8×8, many lines of two clues (dates and decimals), unique
    "##..##..",
    "#....#..",
    "###.#...",
    "........",
    "#.##.###",
    ".#...#..",
    "##.####.",
    "...#..##",
]
SCATTER = [  # 10×10, unique; boxed bands give equal corners in the column band
    "#.##.....#",
    "#...#.####",
    "..##..####",
    "#.#....##.",
    "...#.#.#..",
    "#.#.##.#.#",
    "#.#.###...",
    ".#.#####.#",
    "..##..##..",
    ".......#.#",
]
TWO_WAYS = ["#.", ".#"]  # two solutions
DANCER = [  # 5×10, unique (examples/dancer.non): row clues mostly of 1s
    ".##..",
    ".##.#",
    "..#.#",
    ".###.",
    "#.#..",
    "#.#..",
    "..##.",
    ".#.#.",
    ".#.##",
    "##...",
]
NO_WAY_ROWS, NO_WAY_COLS = [(2,), (2,)], [(2,), (0,), (2,)]  # the middle column must be empty
THIN = Side(style="thin")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
DARK = PatternFill("solid", start_color="FF333333", end_color="FF333333")


@dataclass
class Expect:
    """One puzzle the finder must find."""

    sheet: str
    grid: str  # "B3:P17"
    picture: list[str] | None = None  # the unique solution, '#' black
    status: str = "unique"
    rows: list[tuple[int, ...]] | None = None  # clues, when no picture gives them
    cols: list[tuple[int, ...]] | None = None
    ignored: tuple[str, ...] = ()

    def puzzle(self) -> Puzzle:
        """The puzzle the finder must read."""
        if self.picture is not None:
            return Puzzle.from_solution(pic(self.picture))
        return Puzzle.from_clues(self.rows, self.cols)


@dataclass
class Case:
    """One workbook of the corpus and what reading it must give."""

    name: str
    path: Path
    puzzles: list[Expect] = field(default_factory=list)
    error: str | None = None  # a regular expression the one-line error matches
    givens: bool = False
    area: str | None = None  # --range
    writer: str = "openpyxl"
    needs: tuple[str, ...] = ()  # back-end reads the case depends on (skip when absent)


def pic(rows: list[str]) -> np.ndarray:
    """A picture from rows of '#' and '.'."""
    return np.array([[ch == "#" for ch in r] for r in rows], dtype=bool)


def clues_of(rows: list[str]) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Row and column clues of a picture."""
    p = Puzzle.from_solution(pic(rows))
    return list(p.rows), list(p.cols)


def ref(top: int, left: int, bottom: int, right: int) -> str:
    """``B3:P17``."""
    return f"{get_column_letter(left)}{top}:{get_column_letter(right)}{bottom}"


def grid_ref(rows: list[str], top: int, left: int) -> str:
    """The range of a picture's grid with its corner at (top, left)."""
    return ref(top, left, top + len(rows) - 1, left + len(rows[0]) - 1)


def put_bands(
    ws,
    rows: list[tuple[int, ...]],
    cols: list[tuple[int, ...]],
    top: int,
    left: int,
    *,
    cell: Callable[[tuple[int, ...]], object] | None = None,
    right_side: bool = False,
    below: bool = False,
    gap: int = 0,
    far: int = 0,
) -> None:
    """Clue bands around a grid cornered at (top, left): one number per cell, or one
    ``cell(clues)`` value per line; above/left, or right/below; ``gap`` spacer lines;
    ``far``: bands that many lines deeper than the clues need, each line's clues typed
    from the band's far edge (top-aligned above the grid, left-aligned left of it)."""
    h, w = len(rows), len(cols)
    for axis, lines in (("row", rows), ("col", cols)):
        depth = max(len(c) for c in lines) + far
        for i, clues in enumerate(lines):
            items = [cell(clues)] if cell else list(clues)
            if cell and not clues:
                items = []
            n = depth if far and not cell else len(items)
            if far and not cell and (right_side if axis == "row" else below):
                k0 = depth - len(items)  # the far edge is the band's end
            else:
                k0 = 0
            for k, v in enumerate(items, start=k0):
                if axis == "row":
                    c = left + w + gap + k if right_side else left - gap - n + k
                    ws.cell(top + i, c, v)
                else:
                    r = top + h + gap + k if below else top - gap - n + k
                    ws.cell(r, left + i, v)


def box(ws, top: int, left: int, h: int, w: int, border: Border = BOX) -> None:
    """Borders on every cell of a grid."""
    for r in range(top, top + h):
        for c in range(left, left + w):
            ws.cell(r, c).border = border


def puzzle_at(ws, rows_pic: list[str], top: int, left: int, *, boxed: bool = True, **kw) -> str:
    """A picture's clues around a grid at (top, left); the grid's range."""
    rows, cols = clues_of(rows_pic)
    put_bands(ws, rows, cols, top, left, **kw)
    if boxed:
        box(ws, top, left, len(rows_pic), len(rows_pic[0]))
    return grid_ref(rows_pic, top, left)


def spaced(sep: str) -> Callable[[tuple[int, ...]], str]:
    """Clues of a line as text joined by ``sep``."""
    return lambda clues: sep.join(map(str, clues))


def full_width(clues: tuple[int, ...]) -> str:
    """Full-width digits separated by an ideographic space."""
    return "\u3000".join(
        str(n).translate({i: 0xFF10 + i - 48 for i in range(48, 58)}) for n in clues
    )


def _as_date(clues: tuple[int, ...]) -> object:
    """Two clues that read as month/day become the date a spreadsheet makes of them."""
    if len(clues) == 2 and 1 <= clues[0] <= 12 and 1 <= clues[1] <= 28:
        return dt.datetime(2026, clues[0], clues[1])
    return " ".join(map(str, clues))


def _as_decimal(clues: tuple[int, ...]) -> object:
    """Two clues with a one-digit second become the decimal a spreadsheet makes of them."""
    if len(clues) == 2 and 1 <= clues[1] <= 9:
        return float(f"{clues[0]}.{clues[1]}")
    return " ".join(map(str, clues))


# ---- the openpyxl cases ----------------------------------------------------------------


def _book(folder: Path, name: str, fill: Callable, title: str = "Puzzle") -> Path:
    """Write one workbook with openpyxl; ``fill(ws, wb)`` lays it out."""
    wb = Workbook()
    ws = wb.active
    ws.title = title
    fill(ws, wb)
    path = folder / f"{name}.xlsx"
    wb.save(path)
    return path


def _block_cases(folder: Path) -> list[Case]:
    """What else a teacher keeps on the sheet, two or more empty lines from the puzzle:
    a table, a numbered list, a score row: set aside, reported as "not a puzzle"."""
    out = []
    house = grid_ref(HOUSE, 6, 6)

    def scores(ws, wb, borders: bool = False):
        puzzle_at(ws, HOUSE, 6, 6)
        ws.cell(2, 20, "Name")
        ws.cell(2, 21, "Score")
        ws.cell(2, 22, "Time")
        for i, row in enumerate((("Ann", 8, 12), ("Bob", 7, 15), ("Cy", 10, 9), ("Di", 6, 20))):
            for j, v in enumerate(row):
                ws.cell(3 + i, 20 + j, v)
        if borders:
            box(ws, 2, 20, 5, 3)

    def number_table(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        for i in range(4):
            for j in range(5):
                ws.cell(19 + i, 6 + j, (i + 1) * (j + 2))

    def steps(ws, wb):
        puzzle_at(ws, HOUSE, 8, 10)
        for i in range(5):
            ws.cell(8 + i, 1, i + 1)
            ws.cell(8 + i, 2, f"step {i + 1}")

    def score_row(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        ws.cell(18, 1, "Score")
        for j in range(3):
            ws.cell(18, 2 + j, 10 * (j + 1))

    for name, fill, aside in (
        ("table", scores, "T2:V6"),
        ("table-bordered", lambda ws, wb: scores(ws, wb, True), "T2:V6"),
        ("numbers-table-below", number_table, "F19:J22"),
        ("numbered-list", steps, "A8:B12"),
        ("score-row", score_row, "A18:D18"),
    ):
        path = _book(folder, f"beside-{name}", fill)
        grid = grid_ref(HOUSE, 8, 10) if name == "numbered-list" else house
        ignored = (f"{aside} not a puzzle",)
        out.append(Case(f"beside-{name}", path, [Expect("Puzzle", grid, HOUSE, ignored=ignored)]))
    return out


def _separator_cases(folder: Path) -> list[Case]:
    """Clues typed with a separator that is not read (``3+1+2``): the first such cell is
    named with the clues as they should be typed. Long ones were taken for notes and
    the sheet said it could not tell two puzzles apart."""

    def plus(ws, wb):
        rows, cols = clues_of(HOUSE)
        for i, r in enumerate(rows):
            ws.cell(3 + i, 2, "+".join(map(str, r)))
        for j, c in enumerate(cols):
            ws.cell(2, 3 + j, "+".join(map(str, c)))
        box(ws, 3, 3, 10, 10)

    path = _book(folder, "clues-with-plus", plus)
    message = (
        r'Puzzle!B8: clue "1\+1" is not a number \(separate clues with spaces or commas: "1 1"\)'
    )
    return [Case("clues-with-plus", path, error=message)]


def _not_puzzle_cases(folder: Path) -> list[Case]:
    """A second puzzle with an error of its own keeps it; a table alone is named as one;
    a drawing typed in 0 and 1 is not clues (another sheet is read all the same)."""
    out = []
    house = grid_ref(HOUSE, 6, 6)

    def second_wrong(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        puzzle_at(ws, BOAT, 6, 22, boxed=False)
        ws.cell(3, 22).value = 9  # the boat's first column clue mistyped

    path = _book(folder, "beside-a-wrong-puzzle", second_wrong)
    out.append(Case("beside-a-wrong-puzzle", path, error=r"column 1 \(Puzzle!V3:V5\): clues 9 1"))

    def only_table(ws, wb):
        ws.cell(2, 2, "Name")
        ws.cell(2, 3, "Score")
        for i in range(5):
            for j in range(4):
                ws.cell(3 + i, 2 + j, (i + 2) * (j + 3))

    path = _book(folder, "only-a-table", only_table)
    out.append(
        Case("only-a-table", path, error=r"Puzzle!C4:E7 would be the grid but holds 12 numbers")
    )

    def drawing_sheet(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        drawing = wb.create_sheet("Drawing")
        drawing.cell(1, 1, "My boat")
        for (r, c), v in np.ndenumerate(pic(BOAT)):
            drawing.cell(3 + r, 2 + c, int(v))

    path = _book(folder, "drawing-on-a-sheet", drawing_sheet)
    out.append(Case("drawing-on-a-sheet", path, [Expect("Puzzle", house, HOUSE)]))

    def drawing_only(ws, wb):
        for (r, c), v in np.ndenumerate(pic(HEART)):
            if v:
                ws.cell(2 + r, 2 + c, 1)

    path = _book(folder, "drawing-in-ones", drawing_only)
    out.append(
        Case("drawing-in-ones", path, error=r"Puzzle!B2:J9: a drawing typed in 0 and 1, not clues")
    )
    return out


def _typed_cases(folder: Path) -> list[Case]:
    """Clues as people type them: one per cell, lists in one cell, what the sheet converted."""
    out = []
    for name, cell in (
        ("cells", None),
        ("spaces", spaced(" ")),
        ("commas", spaced(",")),
        ("nakaguro", spaced("・")),
        ("keypad-dots", spaced(".")),
        ("full-width", full_width),
        ("line-breaks", spaced("\n")),
    ):
        path = _book(
            folder, f"typed-{name}", lambda ws, wb, c=cell: puzzle_at(ws, HOUSE, 6, 6, cell=c)
        )
        out.append(Case(f"typed-{name}", path, [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)]))

    def dates(fmt: str) -> Callable:
        def fill(ws, wb):
            puzzle_at(ws, PAIRS, 5, 5, cell=_as_date)
            for row in ws.iter_rows():
                for c in row:
                    if isinstance(c.value, dt.datetime):
                        c.number_format = fmt
                        if fmt == "d/m":  # typed day first: the date is day/month
                            c.value = dt.datetime(2026, c.value.day, c.value.month)

        return fill

    for name, fmt in (("dates-m-d", "m/d"), ("dates-d-mmm", "d-mmm"), ("dates-d-m", "d/m")):
        path = _book(folder, f"typed-{name}", dates(fmt))
        needs = ("read_number_formats",) if fmt == "d/m" else ()  # m/d is the default
        out.append(
            Case(
                f"typed-{name}", path, [Expect("Puzzle", grid_ref(PAIRS, 5, 5), PAIRS)], needs=needs
            )
        )
    path = _book(folder, "typed-date-with-year", dates("m/d/yyyy"))
    out.append(
        Case(
            "typed-date-with-year",
            path,
            error=r"Puzzle!\w+\d+: clue \d+/\d+/2026 became a date with a year; type the clues",
            needs=("read_number_formats",),
        )
    )
    path = _book(
        folder, "typed-decimals", lambda ws, wb: puzzle_at(ws, PAIRS, 5, 5, cell=_as_decimal)
    )
    out.append(Case("typed-decimals", path, [Expect("Puzzle", grid_ref(PAIRS, 5, 5), PAIRS)]))

    def formulas(ws, wb):
        puzzle_at(ws, ARROW, 5, 5)
        ws["D8"] = "=3+1"  # a formula openpyxl saves without a value

    path = _book(folder, "formula-unsaved", formulas)
    out.append(
        Case("formula-unsaved", path, error=r"Puzzle!D8: the formula =3\+1 has no saved value")
    )
    return out


def _mark_cases(folder: Path) -> list[Case]:
    """A player's marks in the grid: not clues; givens with --givens."""
    out = []
    solution = pic(HOUSE)
    for name, black, white, givens in (
        ("ones", 1, None, False),
        ("ones-zeros", 1, 0, True),
        ("ones-as-text", "1", "0", True),
        ("squares-crosses", "■", "×", True),
        ("hashes-dots", "#", "・", True),
        ("x-and-dots", "x", ".", True),
        ("circles", "●", None, True),
        ("dark-fills", DARK, None, True),
    ):

        def fill(ws, wb, black=black, white=white):
            puzzle_at(ws, HOUSE, 6, 6)
            for (r, c), v in np.ndenumerate(solution):
                if r >= 6:  # a person half way through: the top six rows marked
                    continue
                cell = ws.cell(6 + r, 6 + c)
                mark = black if v else white
                if isinstance(mark, PatternFill):
                    cell.fill = mark
                elif mark is not None:
                    cell.value = mark

        path = _book(folder, f"marks-{name}", fill)
        out.append(
            Case(
                f"marks-{name}",
                path,
                [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)],
                givens=givens,
            )
        )

    def checkboxes(ws, wb):  # Excel's and Google Sheets' checkbox cells: TRUE ticked
        puzzle_at(ws, HOUSE, 6, 6)
        for (r, c), v in np.ndenumerate(solution):
            ws.cell(6 + r, 6 + c).value = bool(v) and r < 6  # FALSE: not marked yet

    path = _book(folder, "marks-checkboxes", checkboxes)
    out.append(
        Case(
            "marks-checkboxes",
            path,
            [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)],
            givens=True,
        )
    )

    def wrong_given(ws, wb):
        puzzle_at(ws, BOAT, 5, 5)
        ws.cell(5, 5, 1)  # black where the picture is white: the red cell

    path = _book(folder, "marks-wrong-given", wrong_given)
    out.append(
        Case(
            "marks-wrong-given",
            path,
            [Expect("Puzzle", grid_ref(BOAT, 5, 5), None, "contradiction", *clues_of(BOAT))],
            givens=True,
        )
    )

    def number_inside(ws, wb):
        puzzle_at(ws, BOAT, 5, 5)
        ws.cell(7, 6, 3)

    path = _book(folder, "number-in-grid", number_inside)
    out.append(Case("number-in-grid", path, error=r'Puzzle!F7: "3" inside the grid Puzzle!E5:L10'))

    def true_clue(ws, wb):  # TRUE where a clue goes (a checkbox, or =TRUE() in Calc)
        puzzle_at(ws, BOAT, 5, 5)
        ws.cell(5, 4).value = True

    path = _book(folder, "true-clue", true_clue)
    out.append(Case("true-clue", path, error=r'Puzzle!D5: clue "TRUE" is not a number'))
    return out


def _ruler_cases(folder: Path) -> list[Case]:
    """Index rulers 1…N beside the grid or the clue places: skipped and reported."""
    out = []
    h, w = len(HOUSE), len(HOUSE[0])

    def rows_left(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        for i in range(h):
            ws.cell(6 + i, 1, i + 1)

    def cols_above(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        for j in range(w):
            ws.cell(1, 6 + j, j + 1)

    def both_inside(ws, wb):  # numbers between the clues and the grid
        puzzle_at(ws, HOUSE, 7, 7, gap=1, boxed=False)
        for i in range(h):
            ws.cell(7 + i, 6, i + 1)
        for j in range(w):
            ws.cell(6, 7 + j, j + 1)

    def positions(ws, wb):  # numbering the clue places in the corner
        puzzle_at(ws, HOUSE, 6, 6)
        for k in range(4):
            ws.cell(1 + k, 1, k + 1)
            ws.cell(5, 2 + k, k + 1)

    for name, fill, ignored in (
        ("rows-left", rows_left, ("A6:A15 row numbers",)),
        ("cols-above", cols_above, ("F1:O1 column numbers",)),
        ("between", both_inside, ("F7:F16 row numbers", "G6:P6 column numbers")),
        ("clue-positions", positions, ("A1:A4 clue positions", "B5:E5 clue positions")),
    ):
        path = _book(folder, f"rulers-{name}", fill, title="Nonogram")
        grid = grid_ref(HOUSE, 7, 7) if name == "between" else grid_ref(HOUSE, 6, 6)
        out.append(Case(f"rulers-{name}", path, [Expect("Nonogram", grid, HOUSE, ignored=ignored)]))
    return out


def _exporter(ws, wb):
    """As an exporter (Apache POI) writes a played puzzle: rulers on both sides, 0/1 in the
    grid, conditional formatting turning 1 black, the clues as numbers."""
    rows, cols = clues_of(ARROW)
    top, left = 6, 6
    put_bands(ws, rows, cols, top, left)
    for i in range(len(ARROW)):
        ws.cell(top + i, 1, i + 1)
    for j in range(len(ARROW[0])):
        ws.cell(1, left + j, j + 1)
    for (r, c), v in np.ndenumerate(pic(ARROW)):
        ws.cell(top + r, left + c, int(v) if r < 3 else None)
    rng = grid_ref(ARROW, top, left)
    ws.conditional_formatting.add(rng, CellIsRule(operator="equal", formula=["1"], fill=DARK))


def _too_close_cases(folder: Path) -> list[Case]:
    """Two boxed puzzles one empty column apart: the advice names each grid, and the grid
    alone as --range reads its puzzle (the advice named a range holding both, which gave
    the same error again)."""
    out = []

    def boxed_too_close(ws, wb):  # boxed grids, one empty column between them
        puzzle_at(ws, HOUSE, 6, 6)
        puzzle_at(ws, HEART, 6, 6 + len(HOUSE[0]) + 1 + _depth(HEART))

    path = _book(folder, "two-boxed-too-close", boxed_too_close, title="Two")
    house = grid_ref(HOUSE, 6, 6)
    heart = grid_ref(HEART, 6, 6 + len(HOUSE[0]) + 1 + _depth(HEART))
    out.append(  # the advice named a range holding both, which gave the same error again
        Case(
            "two-boxed-too-close",
            path,
            error=rf"^Two: cannot tell the puzzles at .* apart; .* pick one by its grid: "
            rf"--range Two!{house} \(or Two!{heart}\), or give that range the name PuzzleGrid$",
        )
    )
    for name, grid, pic in (("1", house, HOUSE), ("2", heart, HEART)):
        out.append(  # the grid alone, as the advice gives it: its clues are found beside it
            Case(
                f"two-boxed-too-close-grid-{name}",
                path,
                [Expect("Two", grid, pic)],
                area=f"Two!{grid}",
            )
        )
    return out


def _place_cases(folder: Path) -> list[Case]:
    """Where the puzzle stands: bands on other sides, spacers, titles, several per sheet."""
    out = []
    for name, kw, (top, left) in (
        ("right-below", {"right_side": True, "below": True}, (2, 2)),
        ("right", {"right_side": True}, (6, 2)),
        ("below", {"below": True}, (2, 6)),
        ("spacer", {"gap": 1}, (7, 7)),
        # clues typed from the far edge of bands three lines deeper than they need
        ("far", {"far": 3}, (10, 10)),
        ("far-right-below", {"far": 3, "right_side": True, "below": True}, (2, 2)),
        ("far-unboxed", {"far": 3, "boxed": False}, (10, 10)),
    ):
        path = _book(
            folder,
            f"bands-{name}",
            lambda ws, wb, kw=kw, t=top, c0=left: puzzle_at(ws, HOUSE, t, c0, **kw),
        )
        out.append(
            Case(f"bands-{name}", path, [Expect("Puzzle", grid_ref(HOUSE, top, left), HOUSE)])
        )
    path = _book(folder, "heart-empty-last-rows", lambda ws, wb: puzzle_at(ws, HEART, 6, 6))
    out.append(
        Case("heart-empty-last-rows", path, [Expect("Puzzle", grid_ref(HEART, 6, 6), HEART)])
    )

    def boxed_bands(rows_pic: list[str], far: int, corner: bool) -> Callable:
        """Borders on the grid and on both clue bands (and on the empty corner between
        them when ``corner``), as "All Borders" over the whole puzzle draws them."""

        def fill(ws, wb):
            rows, cols = clues_of(rows_pic)
            depth, width = max(map(len, cols)) + far, max(map(len, rows)) + far
            top, left = 2 + depth, 2 + width
            puzzle_at(ws, rows_pic, top, left, far=far)
            box(ws, 2, left, depth, len(cols))
            box(ws, top, 2, len(rows), width)
            if corner:
                box(ws, 2, 2, depth, width)

        return fill

    for name, rows_pic, far, corner in (
        ("boxed-bands", SCATTER, 0, False),
        ("boxed-bands-far", HOUSE, 2, False),
        ("boxed-all", SCATTER, 0, True),
        ("boxed-all-far", HOUSE, 2, True),
    ):
        rows, cols = clues_of(rows_pic)
        top = 2 + max(map(len, cols)) + far
        left = 2 + max(map(len, rows)) + far
        path = _book(folder, name, boxed_bands(rows_pic, far, corner))
        out.append(Case(name, path, [Expect("Puzzle", grid_ref(rows_pic, top, left), rows_pic)]))

    def titled(ws, wb):
        ws["A1"] = "Puzzle of the week"
        ws.merge_cells("A1:Q1")
        ws["A2"] = "Teacher: Ms. Sato"
        puzzle_at(ws, HOUSE, 7, 7)
        ws["A20"] = "Colour the cells; good luck!"
        ws.merge_cells("A20:Q21")

    path = _book(folder, "merged-title", titled)
    out.append(Case("merged-title", path, [Expect("Puzzle", grid_ref(HOUSE, 7, 7), HOUSE)]))

    def side_by_side(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        puzzle_at(ws, BOAT, 6, 24)

    def stacked(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        puzzle_at(ws, ARROW, 21, 6)

    def too_close(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6, boxed=False)
        puzzle_at(ws, BOAT, 6, 18, boxed=False)  # one empty column between

    def two(name: str, fill: Callable, *placed: tuple[list[str], int, int]) -> None:
        """A case of two puzzles on the sheet "Two": each picture with its grid corner."""
        path = _book(folder, name, fill, title="Two")
        expects = [Expect("Two", grid_ref(p, t, c), p) for p, t, c in placed]
        out.append(Case(name, path, expects))

    two("two-side-by-side", side_by_side, (HOUSE, 6, 6), (BOAT, 6, 24))

    def side_by_side_ruler(ws, wb):
        side_by_side(ws, wb)
        for i in range(len(HOUSE)):
            ws.cell(6 + i, 1, i + 1)  # numbers the left puzzle's rows only

    path = _book(folder, "two-with-ruler", side_by_side_ruler, title="Two")
    out.append(
        Case(
            "two-with-ruler",
            path,
            [
                Expect("Two", grid_ref(HOUSE, 6, 6), HOUSE, ignored=("A6:A15 row numbers",)),
                Expect("Two", grid_ref(BOAT, 6, 24), BOAT),
            ],
        )
    )
    two("two-stacked", stacked, (HOUSE, 6, 6), (ARROW, 21, 6))

    def over_bands_below(ws, wb):  # an unboxed puzzle above a boxed one, within its columns
        puzzle_at(ws, ARROW, 6, 9, boxed=False)
        puzzle_at(ws, HOUSE, 16, 6, right_side=True, below=True)

    two("two-stacked-bands-below", over_bands_below, (ARROW, 6, 9), (HOUSE, 16, 6))
    path = _book(folder, "two-too-close", too_close, title="Two")
    out.append(
        Case(
            "two-too-close",
            path,
            error=r"^Two: cannot tell the puzzles at Two!\S+ and Two!\S+ apart",
        )
    )
    boat = grid_ref(BOAT, 6, 18)
    out.append(
        Case(
            "two-too-close-range",
            path,
            [Expect("Two", boat, BOAT)],
            area=f"Two!{ref(1, 16, 20, 30)}",
        )
    )

    def forty(ws, wb):
        puzzle_at(ws, BIG, 21, 21)

    path = _book(folder, "big-40x40", forty)
    out.append(Case("big-40x40", path, [Expect("Puzzle", grid_ref(BIG, 21, 21), BIG)]))
    path = _book(folder, "exporter-poi", _exporter, title="Nonogram")
    out.append(
        Case(
            "exporter-poi",
            path,
            [
                Expect(
                    "Nonogram",
                    grid_ref(ARROW, 6, 6),
                    ARROW,
                    ignored=("A6:A12 row numbers", "F1:L1 column numbers"),
                )
            ],
            givens=True,
        )
    )
    return out


def _note_cases(folder: Path) -> list[Case]:
    """Notes a teacher typed in line with the clue bands: set aside, listed as ignored;
    where a number beside the clues cannot be told from a clue, the error names it."""
    out = []
    house = grid_ref(HOUSE, 6, 6)

    def typed(notes: dict[str, object], boxed: bool = True) -> Callable:
        def fill(ws, wb):
            puzzle_at(ws, HOUSE, 6, 6, boxed=boxed)
            for cell, value in notes.items():
                ws[cell] = value

        return fill

    for name, notes, boxed, ignored in (
        # a sentence right of the column clues, in their rows
        ("notes-right-of-column-clues", {"Q4": "Check the corners first"}, True, ("Q4 note",)),
        # under the row clues: a line of text, and a year 30 rows below in column A
        (
            "notes-under-row-clues",
            {"B17": "Good luck!", "A45": 2026},
            False,
            ("B17 note", "A45 note"),
        ),
        # a number three columns right of the 10×10 grid, in a column-clue row
        ("notes-number-right", {"S4": 12}, True, ("S4 note",)),
        # a label beside a row's clues, not a height
        ("notes-label-beside-clues", {"A12": "Rows:"}, True, ("A12 note",)),
    ):
        path = _book(folder, name, typed(notes, boxed))
        out.append(Case(name, path, [Expect("Puzzle", house, HOUSE, ignored=ignored)]))
    # lone clues: the centre dot's row and column clue ("1") each stand apart from the
    # others, as a stray number would; with a note under the unboxed grid they are still
    # clues (setting them aside would read another puzzle)
    dot = grid_ref(DOT, 6, 6)

    def dotted(ws, wb):
        puzzle_at(ws, DOT, 6, 6, boxed=False)
        ws["D17"] = "Good luck!"

    path = _book(folder, "notes-lone-clues", dotted)
    out.append(Case("notes-lone-clues", path, [Expect("Puzzle", dot, DOT, ignored=("D17 note",))]))
    out += _tick_cases(folder)
    path = _book(folder, "notes-number-beside", typed({"P4": 7}))
    out.append(
        Case(
            "notes-number-beside",
            path,
            error=(
                r"^Puzzle: rows hold 55 black cells, columns 62; the puzzle reads without "
                r"Puzzle!P4: if it is a note, move it away from the clues or pick the puzzle "
                r"with --range Puzzle!B3:O15$"
            ),
        )
    )
    out.append(
        Case(
            "notes-number-beside-range",
            path,
            [Expect("Puzzle", house, HOUSE)],
            area="Puzzle!B3:O15",
        )
    )
    return out


def _tick_cases(folder: Path) -> list[Case]:
    """Ticks where a player records the lines done: a column of checkboxes left of the row
    clues, a row of x above the column clues (set aside, listed as ticks); an x typed
    among a line's clues is still a clue that is not a number."""
    out = []
    house = grid_ref(HOUSE, 6, 6)
    solution = pic(HOUSE)

    def checkbox_column(ws, wb):  # the row clues of HOUSE reach column B
        puzzle_at(ws, HOUSE, 6, 6)
        ws["A5"] = "done"
        for i in range(10):
            ws.cell(6 + i, 1).value = i % 3 == 0

    def x_row(ws, wb):  # the column clues of HOUSE reach row 2
        puzzle_at(ws, HOUSE, 6, 6)
        for j in (0, 1, 2, 5, 9):
            ws.cell(1, 6 + j, "x")

    def check_marks(ws, wb):  # ✓ typed beside the rows done
        puzzle_at(ws, HOUSE, 6, 6)
        for i in (0, 2, 3, 7):
            ws.cell(6 + i, 1, "✓")

    def checkbox_grid(ws, wb):  # Google Sheets: every grid cell and the done column ticks
        checkbox_column(ws, wb)
        for (r, c), v in np.ndenumerate(solution):
            ws.cell(6 + r, 6 + c).value = bool(v) and r < 4

    for name, fill, ignored, givens in (
        ("ticks-checkbox-column", checkbox_column, ("A5 note", "A6:A15 ticks"), False),
        ("ticks-x-row", x_row, ("F1:O1 ticks",), False),
        ("ticks-check-marks", check_marks, ("A6:A13 ticks",), False),
        ("ticks-checkbox-grid", checkbox_grid, ("A5 note", "A6:A15 ticks"), True),
    ):
        path = _book(folder, name, fill)
        out.append(
            Case(name, path, [Expect("Puzzle", house, HOUSE, ignored=ignored)], givens=givens)
        )

    def x_among_clues(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        ws["D6"] = "x"  # between row 6's clues and the grid: a clue, mistyped

    path = _book(folder, "ticks-x-among-clues", x_among_clues)
    out.append(Case("ticks-x-among-clues", path, error=r'^Puzzle!D6: clue "x" is not a number'))
    return out


BIG = [  # 40×40: a triangle with a notch pattern, unique by line logic
    "".join("#" if c <= r and not (r % 5 == 4 and c % 5 == 2) else "." for c in range(40))
    for r in range(40)
]


def _verdict_cases(folder: Path) -> list[Case]:
    """Several solutions, no solution, sizes typed beside the clues, defined names."""
    out = []
    path = _book(folder, "several-solutions", lambda ws, wb: puzzle_at(ws, TWO_WAYS, 3, 3))
    rows, cols = clues_of(TWO_WAYS)
    out.append(
        Case("several-solutions", path, [Expect("Puzzle", "C3:D4", None, "multiple", rows, cols)])
    )

    def no_way(ws, wb):
        put_bands(ws, NO_WAY_ROWS, NO_WAY_COLS, 3, 3)
        box(ws, 3, 3, 2, 3)

    path = _book(folder, "contradiction", no_way)
    out.append(
        Case(
            "contradiction",
            path,
            [Expect("Puzzle", "C3:E4", None, "contradiction", NO_WAY_ROWS, NO_WAY_COLS)],
        )
    )

    def sums_differ(ws, wb):
        put_bands(ws, [(2,), (1,)], [(2,), (2,)], 3, 3)
        box(ws, 3, 3, 2, 2)

    path = _book(folder, "sums-differ", sums_differ)
    out.append(Case("sums-differ", path, error=r"^Puzzle: rows hold 3 black cells, columns 4$"))

    def labelled(width: int) -> Callable:
        def fill(ws, wb):
            ws["A1"], ws["B1"], ws["C1"], ws["D1"] = "width", width, "height", len(HOUSE)
            puzzle_at(ws, HOUSE, 7, 7)

        return fill

    path = _book(folder, "size-labels", labelled(10))
    out.append(Case("size-labels", path, [Expect("Puzzle", grid_ref(HOUSE, 7, 7), HOUSE)]))
    path = _book(folder, "size-label-disagrees", labelled(20))
    out.append(
        Case(
            "size-label-disagrees",
            path,
            error=(
                r"^Puzzle!B1: width 20 disagrees with the grid, whose borders box 10 columns "
                r"at Puzzle!G7:P7 \(clues for 10\)$"
            ),
        )
    )

    def japanese(ws, wb):
        ws["A1"], ws["B1"], ws["C1"], ws["D1"] = "幅", 10, "高さ", "10"
        puzzle_at(ws, HOUSE, 7, 7, boxed=False)

    path = _book(folder, "size-labels-ja", japanese)
    out.append(Case("size-labels-ja", path, [Expect("Puzzle", grid_ref(HOUSE, 7, 7), HOUSE)]))

    def named(ws, wb):
        puzzle_at(ws, BOAT, 5, 5)
        ws["A20"] = 3  # a stray number elsewhere: the name decides
        wb.defined_names["PuzzleGrid"] = DefinedName("PuzzleGrid", attr_text="Puzzle!$E$5:$L$10")

    path = _book(folder, "defined-name", named)
    out.append(Case("defined-name", path, [Expect("Puzzle", "E5:L10", BOAT)]))

    def empty_borders(ws, wb):
        puzzle_at(ws, BOAT, 5, 5, boxed=False)
        for row in ws.iter_rows(min_row=1, max_row=12, max_col=14):
            for c in row:
                c.border = Border()  # an empty <border/>

    path = _book(folder, "empty-borders", empty_borders)
    out.append(
        Case(
            "empty-borders",
            path,
            [Expect("Puzzle", grid_ref(BOAT, 5, 5), BOAT)],
            needs=("read_border_sides",),
        )
    )
    return out


# ---- xlsxwriter and LibreOffice --------------------------------------------------------


def _xlsxwriter_cases(folder: Path) -> list[Case]:
    """Workbooks written by xlsxwriter: boxed grid, text clues, formulas with saved values,
    dates with a number format."""
    import xlsxwriter

    out = []

    def write(name: str, body: Callable) -> Path:
        path = folder / f"{name}.xlsx"
        wb = xlsxwriter.Workbook(str(path))
        ws = wb.add_worksheet("Puzzle")
        body(wb, ws)
        wb.close()
        return path

    def layout(wb, ws, value=lambda clues, k: clues[k], top=6, left=6, rows_pic=HOUSE):
        rows, cols = clues_of(rows_pic)
        boxed = wb.add_format({"border": 1})
        for i, clues in enumerate(rows):
            for k in range(len(clues)):
                v = value(clues, k)
                ws.write(top - 1 + i, left - 1 - len(clues) + k, v)
        for j, clues in enumerate(cols):
            for k in range(len(clues)):
                ws.write(top - 1 - len(clues) + k, left - 1 + j, value(clues, k))
        for r in range(len(rows)):
            for c in range(len(cols)):
                ws.write_blank(top - 1 + r, left - 1 + c, None, boxed)

    path = write("xw-template", lambda wb, ws: layout(wb, ws))
    out.append(
        Case(
            "xw-template",
            path,
            [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)],
            writer="xlsxwriter",
        )
    )
    path = write("xw-text", lambda wb, ws: layout(wb, ws, value=lambda c, k: str(c[k])))
    out.append(
        Case("xw-text", path, [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)], writer="xlsxwriter")
    )

    def formulas(wb, ws):
        layout(wb, ws)
        ws.write_formula("E7", "=2+2", None, 4)  # row 2's clue 4 as =2+2, saved as 4

    path = write("xw-formula-saved", formulas)
    out.append(
        Case(
            "xw-formula-saved",
            path,
            [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)],
            writer="xlsxwriter",
            needs=("read_formulas",),
        )
    )

    def dates(wb, ws):
        rows, cols = clues_of(PAIRS)
        fmt = wb.add_format({"num_format": "m/d"})
        for i, clues in enumerate(rows):
            v = _as_date(clues)
            if isinstance(v, dt.datetime):
                ws.write_datetime(4 + i, 3, v, fmt)
            else:
                ws.write(4 + i, 3, v)
        for j, clues in enumerate(cols):
            ws.write(3, 4 + j, " ".join(map(str, clues)))

    path = write("xw-dates", dates)
    out.append(
        Case(
            "xw-dates", path, [Expect("Puzzle", grid_ref(PAIRS, 5, 5), PAIRS)], writer="xlsxwriter"
        )
    )
    return out


def _libreoffice_cases(folder: Path, sources: list[Case]) -> list[Case]:
    """A few corpus workbooks saved again by LibreOffice (skipped when it is absent)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        return []
    out_dir = folder / "libreoffice"
    out_dir.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation=file://{profile}",
                "--headless",
                "--convert-to",
                "xlsx",
                "--outdir",
                str(out_dir),
                *[str(c.path) for c in sources],
            ],
            check=False,
            capture_output=True,
            timeout=180,
        )
    out = []
    for c in sources:
        saved = out_dir / c.path.name
        if saved.exists():
            out.append(
                Case(
                    f"lo-{c.name}",
                    saved,
                    c.puzzles,
                    c.error,
                    c.givens,
                    c.area,
                    "libreoffice",
                    c.needs,
                )
            )
    return out


def frame(ws, top: int, left: int, h: int, w: int) -> None:
    """An outer border round a grid and nothing inside ("Outside Borders")."""
    edge = Side(style="medium")
    for r in range(top, top + h):
        for c in range(left, left + w):
            ws.cell(r, c).border = Border(
                left=edge if c == left else None,
                right=edge if c == left + w - 1 else None,
                top=edge if r == top else None,
                bottom=edge if r == top + h - 1 else None,
            )


def excel_saved(path: Path, values: dict[str, object]) -> None:
    """Give formulas the values Excel and LibreOffice save with them: ``t="str"`` and an
    empty ``<v>`` for empty text, the number otherwise (openpyxl saves none)."""
    import re
    import zipfile

    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    name = "xl/worksheets/sheet1.xml"
    xml = parts[name].decode()
    for ref, value in values.items():
        kind, saved = (' t="str"', "<v></v>") if value == "" else ("", f"<v>{value}</v>")
        xml, n = re.subn(
            rf'<c r="{ref}"([^>]*)><f>(.*?)</f><v ?/>(</v>)?</c>',
            rf'<c r="{ref}"\1{kind}><f>\2</f>{saved}</c>',
            xml,
        )
        assert n == 1, ref
    parts[name] = xml.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, data in parts.items():
            zf.writestr(n, data)


def _styled(how: str) -> Callable:
    """The house with its clue cells styled: tinted bands, zebra stripes, a font colour."""

    def fill(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        for row in ws.iter_rows(min_row=1, max_row=15, max_col=15):
            for c in row:
                if c.value is None:
                    continue
                in_rows = c.column < 6
                if how == "band-tints":
                    tint = "FFF2CC" if in_rows else "DDEBF7"
                    c.fill = PatternFill("solid", start_color=tint, end_color=tint)
                elif how == "zebra" and in_rows and c.row % 2:
                    c.fill = PatternFill("solid", start_color="F2F2F2", end_color="F2F2F2")
                elif how == "blue-column-font" and not in_rows:
                    c.font = Font(color="0000FF")
                elif how == "red-every-fifth" and (c.row + c.column) % 5 == 0:
                    c.font = Font(color="FF0000", bold=True)

    return fill


def _guide_stripes(colour: str) -> Callable:
    """The house with every fifth row and column shaded across its clue band, blank clue
    cells too (Excel's "White, Background 1, Darker 15%", or its saturated "Light
    Blue"): it was read as a two-colour puzzle whose colour totals disagree."""

    def fill(ws, wb) -> None:
        puzzle_at(ws, HOUSE, 6, 6)
        guide = PatternFill("solid", start_color=colour, end_color=colour)
        for i in (4, 9):
            for c in range(1, 6):
                ws.cell(6 + i, c).fill = guide
                ws.cell(c, 6 + i).fill = guide

    return fill


def _template_formulas(saved: dict[str, object]) -> Callable:
    """The boat with every clue place a formula, the unused ones ``=IF(1>2,0,"")``; the
    values a spreadsheet would save go into ``saved``."""

    def fill(ws, wb):
        rows, cols = clues_of(BOAT)
        depth = max(len(c) for c in rows + cols)
        for axis, lines in (("row", rows), ("col", cols)):
            for i, clues in enumerate(lines):
                for k in range(depth):
                    v = clues[k - depth + len(clues)] if k >= depth - len(clues) else ""
                    r, c = (6 + i, 6 - depth + k) if axis == "row" else (6 - depth + k, 6 + i)
                    ref = f"{get_column_letter(c)}{r}"
                    ws[ref] = f"={v}+0" if v != "" else '=IF(1>2,0,"")'
                    saved[ref] = v
        box(ws, 6, 6, len(BOAT), len(BOAT[0]))

    return fill


TILED = [r + r for r in HOUSE] * 2  # 20×20, unique; at most 6 clues a column


def _depth(rows_pic: list[str]) -> int:
    """How many clue cells the longest row clue of a picture takes."""
    return max(len(r) or 1 for r in clues_of(rows_pic)[0])


def _deep_template_case(folder: Path) -> Case:
    """A 20×20 template of ``xlsolver new`` (ten clue rows, their band framed by column
    lines only, boxed size labels above) with its column clues typed from the top: four
    empty rows between them and the grid made two pieces of the sheet, and the run ended
    in "cannot tell the puzzles apart" or, read part by part, "Invalid column index -14"."""
    from openpyxl import load_workbook

    from xlsolver.cli import main
    from xlsolver.workbook.template import plan

    path = folder / "new-template-deep-bands.xlsx"
    assert main(["new", "--size", "20x20", "-o", str(path)]) == 0
    layout = plan(20, 20)
    top, left = layout.grid[:2]
    wb = load_workbook(path)
    ws = wb.active
    rows, cols = clues_of(TILED)
    for i, clues in enumerate(rows):  # next to the grid
        for k, v in enumerate(clues):
            ws.cell(top + i, left - len(clues) + k, v)
    for j, clues in enumerate(cols):  # from the band's first row down
        for k, v in enumerate(clues):
            ws.cell(layout.col_band[0] + k, left + j, v)
    wb.save(path)
    return Case("new-template-deep-bands", path, [Expect(ws.title, ref(*layout.grid), TILED)])


def _foreign_cases(folder: Path) -> list[Case]:
    """Sheets laid out by hand or saved by other programs, as testers made them: a grid
    marked by an outer border only with an empty edge line, clue cells styled (tinted
    bands, zebra stripes, a coloured font), template formulas giving empty text, a
    chart's data on a sheet of its own."""
    out = []
    edges = {
        "last-col": [r + "." for r in BOAT],
        "first-col": ["." + r for r in BOAT],
        "last-row": [*BOAT, "." * 8],
        "first-row": ["." * 8, *BOAT],
    }
    for edge, rows_pic in edges.items():

        def framed(ws, wb, rows_pic=rows_pic):
            put_bands(ws, *clues_of(rows_pic), 6, 6)
            frame(ws, 6, 6, len(rows_pic), len(rows_pic[0]))

        name = f"outer-border-empty-{edge}"
        path = _book(folder, name, framed)
        out.append(Case(name, path, [Expect("Puzzle", grid_ref(rows_pic, 6, 6), rows_pic)]))
    for how in ("band-tints", "zebra", "blue-column-font"):
        path = _book(folder, f"styled-clues-{how}", _styled(how))
        expect = [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)]
        out.append(Case(f"styled-clues-{how}", path, expect, needs=("read_font_colours",)))
    for name, colour in (("guide-stripes", "D9D9D9"), ("guide-stripes-blue", "00B0F0")):
        path = _book(folder, name, _guide_stripes(colour))
        out.append(Case(name, path, [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)]))
    path = _book(folder, "styled-clues-red-every-fifth", _styled("red-every-fifth"))
    out.append(
        Case(
            "styled-clues-red-every-fifth",
            path,
            error=r"rows hold \d+ cells of colour .*, columns \d+; a clue's colour is its cell's "
            r"fill .*take the colours off its clue cells",
            needs=("read_font_colours",),
        )
    )
    saved: dict[str, object] = {}
    path = _book(folder, "formulas-empty-text", _template_formulas(saved))
    excel_saved(path, saved)
    expect = [Expect("Puzzle", grid_ref(BOAT, 6, 6), BOAT)]
    out.append(Case("formulas-empty-text", path, expect, needs=("read_formulas",)))

    def chart_data(ws, wb):
        puzzle_at(ws, HOUSE, 6, 6)
        data = wb.create_sheet("Data")  # no header: the numbers read as a grid's table
        for x in range(5):
            data.append([x, x * x])

    path = _book(folder, "chart-data-sheet", chart_data)
    out.append(Case("chart-data-sheet", path, [Expect("Puzzle", grid_ref(HOUSE, 6, 6), HOUSE)]))
    out.append(_deep_template_case(folder))
    return out


def _totals(
    *, right: bool, below: bool, boxed: bool, gap: int = 0, wrong: bool = False, head: str = ""
):
    """A puzzle with a check column of row totals on its right and/or a row of column
    totals under it, as teachers add them (each the count of black cells), ``head``
    typed above the column."""

    def fill(ws, wb):
        puzzle_at(ws, DANCER, 6, 4, boxed=boxed)
        counts = pic(DANCER)
        if head:
            ws.cell(5, 9 + gap, head)
        for i, n in enumerate(counts.sum(1)):
            if right:
                ws.cell(6 + i, 9 + gap, int(n) + (i == 2 and wrong))
        for j, n in enumerate(counts.sum(0)):
            if below:
                ws.cell(16 + gap, 4 + j, int(n))

    return fill


def _totals_cases(folder: Path) -> list[Case]:
    """Lines of totals beside the grid, facing the clue bands: set aside and reported."""
    out = []
    variants = {
        "totals-right": ({"right": True, "below": False, "boxed": True}, ("I6:I15 totals",)),
        "totals-right-apart-unboxed": (
            {"right": True, "below": False, "boxed": False, "gap": 1},
            ("J6:J15 totals",),
        ),
        "totals-below": (
            {"right": False, "below": True, "boxed": True},
            ("D16:H16 totals",),
        ),
        "totals-both": (
            {"right": True, "below": True, "boxed": True},
            ("I6:I15 totals", "D16:H16 totals"),
        ),
        "totals-headed-sigma": (
            {"right": True, "below": False, "boxed": True, "head": "Σ"},
            ("I6:I15 totals",),
        ),
    }
    for name, (kw, ignored) in variants.items():
        path = _book(folder, name, _totals(**kw))
        expect = Expect("Puzzle", grid_ref(DANCER, 6, 4), DANCER, ignored=ignored)
        out.append(Case(name, path, [expect]))
    path = _book(
        folder, "totals-one-wrong", _totals(right=True, below=False, boxed=True, wrong=True)
    )

    def next_puzzle(ws, wb):  # a second puzzle whose row clues are the first's counts
        puzzle_at(ws, DANCER, 6, 4)
        counts = [int(n) for n in pic(DANCER).sum(1)]
        second = ["." * (7 - n) + "#" * n for n in counts]  # 7 wide, right-aligned blocks
        rows, cols = clues_of(second)
        for i, clues in enumerate(rows):
            ws.cell(6 + i, 9, clues[0] if clues else 0)
        for j, clues in enumerate(cols):
            for k, v in enumerate(clues):
                ws.cell(6 - len(clues) + k, 10 + j, v)
        box(ws, 6, 10, len(second), 7)

    second = _book(folder, "totals-or-a-second-puzzle", next_puzzle)
    out.append(Case("totals-or-a-second-puzzle", second, error=r"cannot tell the puzzles at "))
    out.append(
        Case(
            "totals-one-wrong",
            path,
            error=r"Puzzle!D6:H15: clues on both sides of the grid \(B6:C15 and I6:I15\), and "
            r"neither is the other's totals .*; pick the puzzle with --range Puzzle!B\d+:H15$",
        )
    )
    return out


# Workbooks whose reading differs between back ends by nature, with the reason.
PARITY_EXCLUDED = {
    "formula-unsaved.xlsx": "Calc computes on loading a formula the file saved no value for",
}
LIBREOFFICE_SOURCES = (
    "typed-cells",
    "marks-squares-crosses",
    "two-side-by-side",
    "rulers-rows-left",
)


def build_corpus(folder: str | Path, *, libreoffice: bool = True) -> list[Case]:
    """Write every workbook of the corpus into ``folder``; one Case per workbook."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cases = (
        _typed_cases(folder)
        + _block_cases(folder)
        + _not_puzzle_cases(folder)
        + _separator_cases(folder)
        + _mark_cases(folder)
        + _ruler_cases(folder)
        + _place_cases(folder)
        + _too_close_cases(folder)
        + _note_cases(folder)
        + _verdict_cases(folder)
        + _xlsxwriter_cases(folder)
        + _foreign_cases(folder)
        + _totals_cases(folder)
    )
    if libreoffice:
        cases += _libreoffice_cases(folder, [c for c in cases if c.name in LIBREOFFICE_SOURCES])
    return cases

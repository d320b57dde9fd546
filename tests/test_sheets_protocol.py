"""The one sheet protocol, implemented by all three back ends.

openpyxl is checked on real files (and against Calc in test_parity.py); Excel is not
available here, so the xlwings back end is checked through the recording double of
xlwings (tests/fakes), which validates arguments with xlwings' own code: the same
sheet written through the protocol reads back the same facts as openpyxl gives, and
without ``Range.borders`` (xlwings before 0.37.1) the grid keeps to its clues' extent.
"""

from __future__ import annotations

import inspect

import pytest

pytest.importorskip("xlwings")

from conftest import OPEN_HEART  # noqa: E402

from tests.fakes.xlwings_double import FakeBook, FakeRange  # noqa: E402
from xlsolver.nonogram.cells import solution_from_rows  # noqa: E402
from xlsolver.nonogram.puzzle import Puzzle  # noqa: E402
from xlsolver.sheets.errors import WorkbookError  # noqa: E402
from xlsolver.sheets.openpyxl_sheet import XlsxSheet, new_book  # noqa: E402
from xlsolver.sheets.protocol import (  # noqa: E402
    BLACK_STYLE,
    BOTTOM,
    LEFT,
    TOP,
    WHITE_STYLE,
    CellFormat,
    Sheet,
    SheetBase,
    Style,
)
from xlsolver.sheets.uno_sheet import UnoSheet  # noqa: E402
from xlsolver.sheets.xlwings_sheet import XwBook, XwSheet  # noqa: E402
from xlsolver.workbook.layout import read_puzzle  # noqa: E402

BACK_ENDS = (XlsxSheet, UnoSheet, XwSheet)
OVERRIDDEN = (
    "read_border_sides",
    "read_formulas",
    "read_font_colours",
    "read_number_formats",
    "shows_zeros",
)
HEART = OPEN_HEART  # 11×10, its last boxed row empty


def protocol_members() -> list[str]:
    """The names the Sheet protocol declares."""
    return [n for n in vars(Sheet) if not n.startswith("_")]


@pytest.mark.parametrize("back_end", BACK_ENDS, ids=lambda c: c.__name__)
def test_every_back_end_implements_the_whole_protocol(back_end):
    """Every protocol method is there, with the protocol's parameters; the reads with a
    default in SheetBase are each back end's own."""
    members = protocol_members()
    assert {"read_borders", "read_notes", "set_note", "clear_range"} <= set(members)
    for name in members:
        mine = getattr(back_end, name, None)
        assert mine is not None, f"{back_end.__name__} lacks {name}"
        if callable(mine):
            want = list(inspect.signature(getattr(Sheet, name)).parameters)
            assert list(inspect.signature(mine).parameters)[: len(want)] == want, name
    for name in OVERRIDDEN:
        assert getattr(back_end, name) is not getattr(SheetBase, name), (back_end, name)


def write_sample(sheet) -> None:
    """The same facts written through the protocol: values, a formula, fills, a font
    colour, a number format, a boxed block, a cell boxed only by its neighbours, a note."""
    sheet.write_values((1, 1), [["title", None, 3], [1.5, "x", None]])
    sheet.write_formula((2, 3), "=SUM(A2,1)")
    sheet.paint([(4, 2), (4, 3)], BLACK_STYLE)
    sheet.paint([(5, 2)], WHITE_STYLE)
    sheet.paint([(1, 1)], Style("red text", font_color="#C00000"))
    sheet.format_cells([(2, 1)], CellFormat(number_format="0.0"))
    sheet.format_cells(
        [(r, c) for r in range(4, 7) for c in range(2, 5)],
        CellFormat(left="thin", right="thin", top="thin", bottom="thin"),
    )
    # (9, 3) draws nothing itself; its four neighbours draw the lines around it
    sheet.format_cells([(8, 3)], CellFormat(bottom="thin"))
    sheet.format_cells([(10, 3)], CellFormat(top="thin"))
    sheet.format_cells([(9, 2)], CellFormat(right="thin"))
    sheet.format_cells([(9, 4)], CellFormat(left="thin"))
    sheet.format_cells([(12, 2)], CellFormat(top="medium", left="thick", bottom="double"))
    sheet.set_note((4, 2), "xlsolver hint: a reason")


def fake_sheet() -> tuple[FakeBook, XwSheet]:
    """An empty worksheet of the xlwings double behind the protocol."""
    book = FakeBook()
    book.add_sheet("Sheet1")
    xw_book = XwBook(book)
    return book, xw_book.sheets()[0]


def test_xlwings_reads_what_openpyxl_reads():
    """The same sheet through openpyxl and through the xlwings back end: the same facts."""
    xlsx = new_book().sheets()[0]
    _, xw = fake_sheet()
    for sheet in (xlsx, xw):
        write_sample(sheet)
        assert isinstance(sheet, Sheet)
    rect = (1, 1, 12, 5)
    for read in (
        "read_heavy_sides",
        "read_fills",
        "read_font_colours",
        "read_number_formats",
        "read_formulas",
        "read_border_sides",
        "read_borders",
        "read_diagonals",
    ):
        assert getattr(xw, read)(rect) == getattr(xlsx, read)(rect), read
    boxed = xw.read_borders(rect)
    assert boxed[8][2] and boxed[4][2] and not boxed[7][2] and not boxed[0][0]
    assert xw.read_formulas(rect)[1][2] == "=SUM(A2,1)"
    assert xw.read_heavy_sides(rect)[11][1] == TOP | LEFT | BOTTOM  # thin lines are not
    assert not any(any(row) for row in xw.read_heavy_sides(rect)[:11])
    assert xw.read_number_formats(rect)[1][0] == "0.0"
    assert xw.read_font_colours(rect)[0][0] == "#C00000"
    assert xw.read_notes(rect) == xlsx.read_notes(rect) == {(4, 2): "xlsolver hint: a reason"}
    for sheet in (xlsx, xw):
        sheet.clear_range((4, 2, 6, 4))
        assert sheet.read_notes(rect) == {}
        assert not any(any(row) for row in sheet.read_borders((4, 2, 6, 4)))


def test_xlwings_reads_a_boxed_grid_in_a_few_calls():
    """A uniformly boxed 50×50 grid is read with one ``borders`` call, not 2,500."""
    book, xw = fake_sheet()
    cells = [(r, c) for r in range(1, 51) for c in range(1, 51)]
    xw.format_cells(cells, CellFormat(left="thin", right="thin", top="thin", bottom="thin"))
    book.app.calls.clear()
    assert all(all(row) for row in xw.read_border_sides((1, 1, 50, 50)))
    assert len([c for c in book.app.calls if c[0] == "borders"]) == 1


def write_heart(sheet) -> tuple[int, int]:
    """The heart boxed, its empty last row without a clue cell: the grid's corner."""
    puzzle = Puzzle.from_solution(solution_from_rows(HEART))
    top = left = 4
    for j, clues in enumerate(puzzle.cols):
        sheet.write_values((top - len(clues), left + j), [[v] for v in clues])
    for i, clues in enumerate(puzzle.rows):
        if clues:
            sheet.write_values((top + i, left - len(clues)), [list(clues)])
    box = CellFormat(left="thin", right="thin", top="thin", bottom="thin")
    sheet.format_cells([(top + i, left + j) for i in range(10) for j in range(11)], box)
    return top, left


def test_xlwings_finds_the_grid_openpyxl_finds():
    """Borders read through xlwings give the grid its last, clueless row, as openpyxl."""
    book = new_book()
    write_heart(book.sheets()[0])
    fake, xw = fake_sheet()
    write_heart(xw)
    want = read_puzzle(book.sheets()[0], book)
    got = read_puzzle(xw, XwBook(fake))
    assert got.grid == want.grid and (got.width, got.height) == (11, 10)
    assert (got.puzzle.rows, got.puzzle.cols) == (want.puzzle.rows, want.puzzle.cols)


def test_xlwings_without_borders_keeps_to_the_clues(monkeypatch):
    """The documented fallback: an xlwings without ``Range.borders`` reads no borders,
    and the grid ends where its clues end, so nothing is painted outside the box."""
    fake, xw = fake_sheet()
    top, left = write_heart(xw)

    def no_borders(self):
        raise AttributeError("'Range' object has no attribute 'borders'")

    monkeypatch.setattr(FakeRange, "borders", property(no_borders))
    assert not any(any(row) for row in xw.read_borders((1, 1, 20, 20)))
    found = read_puzzle(xw, XwBook(fake))
    assert found.grid == (top, left, top + 8, left + 10)  # the 9 rows with clues


def test_xlwings_gives_dates_and_times_as_openpyxl_does():
    """Excel hands a time of day over as a date on day 0; the back end gives a ``time``,
    as openpyxl reads it from a file; dates stay dates, whole numbers ints."""
    import datetime as dt

    fake, xw = fake_sheet()
    sheet = fake.sheets[0]
    sheet.cell(1, 1).value = dt.datetime(1899, 12, 30, 7, 45)
    sheet.cell(1, 2).value = dt.datetime(2026, 3, 1)
    sheet.cell(1, 3).value = 3.0
    xlsx = new_book().sheets()[0]
    xlsx.write_values((1, 1), [[dt.time(7, 45), dt.datetime(2026, 3, 1), 3]])
    assert xw.read_values((1, 1, 1, 3)) == xlsx.read_values((1, 1, 1, 3))
    assert xw.read_values((1, 1, 1, 3)) == [[dt.time(7, 45), dt.datetime(2026, 3, 1), 3]]


def test_xlwings_reads_whether_excel_shows_zeros(monkeypatch):
    """A sheet whose "Show a zero in cells that have zero value" is off: its zeros are
    blank, so unused clue places holding 0 are empty places (they stood among the
    clues: "clue 0 stands among other clues"). Read through COM, on Windows only."""
    from xlsolver.sheets import xlwings_sheet

    book, xw = fake_sheet()
    rows = [(1, 1), (0, 1), (0, 0)]  # #.# / .#. / ... with unused places typed as 0
    cols = [(0, 1), (0, 1), (0, 1)]
    for i, clues in enumerate(rows):
        for k, v in enumerate(clues):
            book.sheets.active.cell(3 + i, 1 + k).value = v
    for j, clues in enumerate(cols):
        for k, v in enumerate(clues):
            book.sheets.active.cell(1 + k, 3 + j).value = v
    xw.format_cells(
        [(r, c) for r in range(3, 6) for c in range(3, 6)],
        CellFormat(left="thin", right="thin", top="thin", bottom="thin"),
    )
    assert xw.shows_zeros()
    with pytest.raises(WorkbookError, match=r"row 2 \(Sheet1!A4:B4\): clue 0 stands among"):
        read_puzzle(xw)
    book.sheets.active.display_zeros = False
    assert xw.shows_zeros()  # not read without COM (macOS): as Excel's default
    monkeypatch.setattr(xlwings_sheet, "com", lambda: True)
    assert not xw.shows_zeros()
    found = read_puzzle(xw)
    assert found.puzzle.rows == ((1, 1), (1,), ()) and found.puzzle.cols == ((1,), (1,), (1,))

"""The Excel buttons (xlsolver.excel) against a recording double of xlwings' objects.

xlwings has no engine on Linux, so ``xw.Book.caller`` is pointed at the double; the
double checks border arguments with xlwings' own validators. Paint is checked against
the clues (``Puzzle.is_solution``), not against the solver.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("xlwings")

import xlwings as xw  # noqa: E402
from conftest import workbooks_module  # noqa: E402

from tests.fakes.xlwings_double import FakeBook  # noqa: E402
from xlsolver import excel  # noqa: E402
from xlsolver.nonogram.cells import solution_from_rows  # noqa: E402
from xlsolver.nonogram.puzzle import Puzzle  # noqa: E402
from xlsolver.sheets.protocol import column_letter
from xlsolver.sheets.xlwings_sheet import areas  # noqa: E402

GREY, WHITE = (128, 128, 128), (255, 255, 255)
ROWS = workbooks_module("build_xlsm").SAMPLE  # the boat of workbooks/xlsolver.xlsm


def template_book(rows: list[str]) -> tuple[FakeBook, Puzzle, tuple[int, int]]:
    """A fake Excel book whose active sheet holds a template-layout puzzle."""
    puzzle = Puzzle.from_solution(solution_from_rows(rows))
    book = FakeBook()
    sheet = book.add_sheet("Puzzle")
    sheet.cell(1, 1).value = "Boat"
    depth_c = max(len(c) or 1 for c in puzzle.cols)
    depth_r = max(len(r) or 1 for r in puzzle.rows)
    top, left = 3 + depth_c, 2 + depth_r
    for j, clues in enumerate(puzzle.cols):
        for k, v in enumerate(clues or (0,)):
            sheet.cell(top - len(clues or (0,)) + k, left + j).value = v
    for i, clues in enumerate(puzzle.rows):
        for k, v in enumerate(clues or (0,)):
            sheet.cell(top + i, left - len(clues or (0,)) + k).value = v
    for r in range(top, top + puzzle.height):
        for c in range(left, left + puzzle.width):
            sheet.cell(r, c).borders["edge_top"] = ("continuous", "thin", (0, 0, 0))
    return book, puzzle, (top, left)


@pytest.fixture
def caller(monkeypatch):
    """Make ``xw.Book.caller()`` return a fake book set by the test."""
    holder = {}
    monkeypatch.setattr(xw.Book, "caller", classmethod(lambda cls: holder["book"]))
    return holder


def grid_of(book: FakeBook, puzzle: Puzzle, corner: tuple[int, int]):
    """Per cell: (colour, both diagonals?, diagonal weight, top edge kept?)."""
    sheet = book.sheets.active
    top, left = corner
    out = []
    for r in range(top, top + puzzle.height):
        row = []
        for c in range(left, left + puzzle.width):
            cell = sheet.cell(r, c)
            up, down = cell.borders.get("diagonal_up"), cell.borders.get("diagonal_down")
            row.append((cell.color, bool(up and down), up and up[1], "edge_top" in cell.borders))
        out.append(row)
    return out


def test_solve_paints_grey_and_crossed_white(caller):
    """solve(): every grid cell painted per CONVENTIONS §4, forming a solution."""
    book, puzzle, corner = template_book(ROWS)
    caller["book"] = book
    excel.solve()
    grid = grid_of(book, puzzle, corner)
    black = np.array([[cell[0] == GREY for cell in row] for row in grid])
    assert puzzle.is_solution(black)
    for row in grid:
        for colour, crossed, weight, kept in row:
            assert colour in (GREY, WHITE)
            assert crossed == (colour == WHITE)
            assert weight in (None, "hairline")
            assert kept, "painting must keep the cell's other borders"
    diag = [c for c in book.app.calls if c[0] == "borders.set" and "diagonal_up" in c[2]]
    assert all(call[2] == ("diagonal_down", "diagonal_up") for call in diag)


def test_a_value_hidden_under_a_merge_is_no_clue(caller):
    """A file saved by LibreOffice keeps what a cell held when it was merged into its
    neighbour; Excel shows only the merge's top-left cell, and so does the reading: a
    number hidden left of a row's one clue is not a clue, and the Solve button solves."""
    from xlsolver.sheets.xlwings_sheet import XwBook

    book, puzzle, (top, left) = template_book(ROWS)
    i = next(i for i, clues in enumerate(puzzle.rows) if len(clues) == 1)
    sheet = book.sheets.active
    assert left >= 4 and sheet.cell(top + i, left - 3).value is None
    sheet.cell(top + i, left - 2).value = 5  # hidden under the merge below
    sheet.range((top + i, left - 3), (top + i, left - 2)).merge()
    read = XwBook(book).sheet("Puzzle").read_values((top + i, left - 3, top + i, left - 1))
    assert read == [[None, None, puzzle.rows[i][0]]]
    caller["book"] = book
    excel.solve()
    grid = grid_of(book, puzzle, (top, left))
    assert puzzle.is_solution(np.array([[cell[0] == GREY for cell in row] for row in grid]))


def test_solve_batches_turns_screen_off_and_reports(caller):
    """Screen updating is off while painting and restored; status bar ends with the outcome."""
    book, _, _ = template_book(ROWS)
    caller["book"] = book
    excel.solve()
    app = book.app
    screen = [v for name, v, *_ in app.calls if name == "screen_updating"]
    assert screen[0] is False and screen[-1] is True
    assert app.screen_updating is True
    progress = [v for v in app.status_history if isinstance(v, str) and "%" in v]
    assert len(progress) >= 3, "progress is shown while painting"
    assert app.status_bar.startswith("xlsolver: 10×10: unique solution painted")
    colour_calls = [c for c in app.calls if c[0] == "color"]
    assert len(colour_calls) < 100, "cells are painted in batches, not one call per cell"
    assert not app.alerts


def test_hint_paints_exactly_one_step_with_a_note(caller):
    """hint(): one step's cells, all right, reason in the status bar and a note."""
    book, puzzle, corner = template_book(ROWS)
    caller["book"] = book
    solution = solution_from_rows(ROWS)
    excel.hint()
    grid = grid_of(book, puzzle, corner)
    painted = [
        (r, c) for r, row in enumerate(grid) for c, cell in enumerate(row) if cell[0] is not None
    ]
    assert painted
    for r, c in painted:
        assert grid[r][c][0] == (GREY if solution[r, c] else WHITE)
    notes = list(book.sheets.active.notes)
    assert len(notes) == 1 and notes[0].text.startswith("xlsolver hint: ")
    assert book.app.status_bar == "xlsolver: " + notes[0].text.removeprefix("xlsolver hint: ")
    excel.hint()
    assert len(list(book.sheets.active.notes)) == 1, "an earlier hint's note is replaced"


def test_clear_restores_the_blank_grid(caller):
    """clear() after solve(): no fill, no diagonals; clues and other borders stay."""
    book, puzzle, corner = template_book(ROWS)
    caller["book"] = book
    values = {k: v.value for k, v in book.sheets.active.cells.items()}
    excel.solve()
    excel.hint()
    excel.clear()
    for colour, crossed, _, kept in (c for row in grid_of(book, puzzle, corner) for c in row):
        assert colour is None and not crossed and kept
    for key, value in values.items():
        assert book.sheets.active.cells[key].value == value
    assert not list(book.sheets.active.notes)


def test_new_grid_lays_out_the_typed_size(caller):
    """new_grid() writes an empty bordered grid of the typed width and height."""
    from xlsolver.workbook.template import plan

    book = FakeBook()
    sheet = book.add_sheet("New")
    for ref, value in {
        (1, 1): "Title",
        (2, 1): "width",
        (2, 3): 6,
        (2, 5): "height",
        (2, 7): 3,
    }.items():
        sheet.cell(*ref).value = value
    caller["book"] = book
    excel.new_grid()
    assert book.app.status_bar.startswith("xlsolver: new 6×3 grid"), book.app.status_bar
    top, left, bottom, right = plan(6, 3).grid
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            cell = sheet.cell(r, c)
            assert cell.value is None and cell.color is None and cell.borders
    assert sheet.cell(1, 1).value == "Title"


def test_new_grid_on_an_empty_sheet_writes_the_size_prompt(caller):
    """An empty sheet: labels and boxed number cells, and the person is told what to type."""
    from xlsolver.workbook.template import TOTALS_CELL, plan

    book = FakeBook()
    sheet = book.add_sheet("Empty")
    caller["book"] = book
    excel.new_grid("0.37.8")
    assert book.app.status_bar.startswith("xlsolver: type the board's width in C2")
    assert not book.app.alerts  # an instruction, not an error
    assert sheet.cell(2, 1).value == "width" and sheet.cell(2, 5).value == "height"
    assert (2, 3, 2, 4) in sheet.merged and (2, 7, 2, 8) in sheet.merged
    sheet.cell(2, 3).value, sheet.cell(2, 7).value = 4, 3
    excel.new_grid("0.37.8")
    assert book.app.status_bar.startswith("xlsolver: new 4×3 grid"), book.app.status_bar
    assert sheet.cell(*TOTALS_CELL).formula.startswith('="clue totals: rows "&SUM(')
    top, left, _, _ = plan(4, 3).grid
    assert sheet.cell(top, left).borders


@pytest.mark.parametrize(
    "vba, installed, trouble",
    [
        ("0.37.8", "0.37.8", None),
        ("0.37.8", "0.37.1", None),  # patch releases of one line work together
        (None, "0.37.8", None),  # a workbook whose buttons do not pass a version
        ("0.37.8", "0.38.0", "xlwings 0.37.8 but xlwings 0.38.0 is installed"),
        ("0.36.2", "0.37.8", "xlwings 0.36.2 but xlwings 0.37.8 is installed"),
        (None, "0.36.9", "xlwings 0.36.9 is installed; xlsolver's buttons need 0.37.1"),
    ],
)
def test_xlwings_versions_are_compared(caller, monkeypatch, vba, installed, trouble):
    """A version difference that matters stops the button with one line naming both."""
    book, puzzle, corner = template_book(ROWS)
    caller["book"] = book
    monkeypatch.setattr(xw, "__version__", installed)
    outcome = excel.run("solve", vba_version=vba)
    if trouble is None:
        assert outcome.ok, outcome.message
        return
    assert not outcome.ok and trouble in outcome.message, outcome.message
    assert "\n" not in outcome.message and book.app.alerts[0][0] == outcome.message
    assert not any(cell.color for cell in book.sheets.active.cells.values())  # nothing painted


@pytest.mark.parametrize("locked", [True, False])
def test_a_protected_sheet_with_locked_grid_cells_is_named_not_half_painted(
    caller, monkeypatch, locked
):
    """Excel for Windows refuses to format a protected sheet's locked cells part way
    through a paint (a COM error after some cells): Solve and Clear name the first locked
    grid cell and paint nothing, as in Calc; with the grid unlocked they work as ever."""
    from xlsolver.sheets import xlwings_sheet

    monkeypatch.setattr(xlwings_sheet, "com", lambda: True)
    book, puzzle, (top, left) = template_book(ROWS)
    sheet = book.sheets.active
    sheet.protected = True
    for r in range(top, top + puzzle.height):
        for c in range(left, left + puzzle.width):
            sheet.cell(r, c).locked = locked
    caller["book"] = book
    excel.solve()
    if not locked:
        assert book.app.status_bar.startswith("xlsolver: 10×10: unique solution painted")
        return
    (prompt, _, _) = book.app.alerts[0]
    assert prompt.startswith(f"Puzzle!{column_letter(left)}{top}: the sheet is protected")
    assert "Review ▸ Unprotect Sheet" in prompt and "\n" not in prompt
    assert not any(cell.color for cell in sheet.cells.values())
    excel.clear()
    assert len(book.app.alerts) == 2 and "is protected" in book.app.alerts[1][0]


def test_errors_go_to_status_bar_and_message_box(caller):
    """A sheet without clues: one line in the status bar and an alert, no exception."""
    book = FakeBook()
    book.add_sheet("Empty")
    caller["book"] = book
    excel.solve()
    (prompt, title, mode) = book.app.alerts[0]
    assert "\n" not in prompt and title == "xlsolver" and mode == "critical"
    assert book.app.status_bar == f"xlsolver: {prompt}"
    assert book.app.screen_updating is True


def test_multi_area_addresses_stay_short():
    """Excel refuses addresses over 255 characters: the cells are split into areas."""
    cells = [(r, c) for r in range(1, 60) for c in range(1, 60, 2)]
    chunks = areas(cells)
    assert all(len(a) <= 255 for a in chunks)
    covered = set()
    from tests.fakes.xlwings_double import parse_area

    for chunk in chunks:
        for part in chunk.split(","):
            top, left, bottom, right = parse_area(part)
            covered |= {(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)}
    assert covered == set(cells)


def test_formulas_giving_empty_text_are_empty_clue_places(caller):
    """Unused clue places holding ``=IF(…,"")`` (xlwings gives None for their empty text,
    as for empty cells): read as empty places, not as formulas without a value, and the
    Solve button solves."""
    from xlsolver.sheets.xlwings_sheet import XwBook

    book, puzzle, (top, left) = template_book(ROWS)
    sheet = book.sheets.active
    blanks = [(top - 1 - k, left + j) for j in range(puzzle.width) for k in range(3)]
    blanks = [cell for cell in blanks if sheet.cell(*cell).value is None and cell[0] > 1]
    for cell in blanks:
        sheet.cell(*cell).formula = '=IF(1>2,0,"")'
    assert blanks
    read = XwBook(book).sheet("Puzzle").read_values((*blanks[0], *blanks[0]))
    assert read == [[""]]
    caller["book"] = book
    excel.solve()
    grid = grid_of(book, puzzle, (top, left))
    assert puzzle.is_solution(np.array([[cell[0] == GREY for cell in row] for row in grid]))


def test_a_failed_formula_clue_is_named_in_excel_too(caller):
    """A clue cell whose formula failed (=1/0): xlwings gives None for an error value
    unless asked, so the sheet read a clue place as empty ("rows hold … columns …", no
    cell named); it is named as the command line names it in the file."""
    book, puzzle, (top, left) = template_book(ROWS)
    sheet = book.sheets.active
    clue = next((top, c) for c in range(left - 1, 0, -1) if sheet.cell(top, c).value)
    sheet.cell(*clue).value, sheet.cell(*clue).formula = "#DIV/0!", "=1/0"
    caller["book"] = book
    excel.solve()
    (prompt, _, _) = book.app.alerts[0]
    ref = f"{column_letter(clue[1])}{clue[0]}"
    assert f"Puzzle!{ref}: clue #DIV/0! is an error value (a formula that failed)" in prompt

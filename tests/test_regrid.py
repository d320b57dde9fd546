"""New grid on sheets that hold more than its template: what it clears and what it keeps
(the openpyxl back end; tests/test_libreoffice_macros.py presses the Calc button)."""

from __future__ import annotations

import shutil
from pathlib import Path

from openpyxl import Workbook, load_workbook
from openpyxl.styles import PatternFill

from xlsolver.actions import new_grid
from xlsolver.cli import main
from xlsolver.sheets.openpyxl_sheet import open_book
from xlsolver.workbook.template import plan


def press(path: Path, width: int, height: int):
    """Type a size in C2/G2 and press New grid; the outcome (the file rewritten)."""
    wb = load_workbook(path)
    ws = wb.active
    ws["A2"], ws["C2"], ws["E2"], ws["G2"] = "width", width, "height", height
    wb.save(path)
    book = open_book(path)
    outcome = new_grid(book, book.sheets()[0])
    book.save(path.with_name("pressed.xlsx"))
    shutil.move(path.with_name("pressed.xlsx"), path)
    return outcome


def test_a_colour_templates_own_swatches_are_no_persons_cells(tmp_path):
    """A 2×2 colour template with five empty swatches reaching past its grid: New grid
    named the unfilled swatches as the person's own and refused."""
    path = tmp_path / "c.xlsx"
    assert main(["new", "--size", "2x2", "--colours", "5", "-o", str(path)]) == 0
    outcome = press(path, 10, 10)
    assert outcome.ok, outcome.message


def test_a_palette_word_far_away_and_a_corner_note(tmp_path):
    """A note reading "palette" far right of a template stretched the old template to it,
    and a list between went without a word; a note in the template's empty corner went
    too. The far ones stay; the corner note stops New grid, named."""
    path = tmp_path / "t.xlsx"
    assert main(["new", "--size", "10x10", "-o", str(path)]) == 0
    grid = plan(10, 10).grid
    wb = load_workbook(path)
    ws = wb.active
    ws["T5"], ws["T6"], ws.cell(grid[2] + 2, 20).value = "shopping", "eggs", "palette"
    wb.save(path)
    outcome = press(path, 4, 4)
    assert outcome.ok, outcome.message
    ws = load_workbook(path).active
    assert [ws["T5"].value, ws["T6"].value, ws.cell(grid[2] + 2, 20).value] == [
        "shopping",
        "eggs",
        "palette",
    ]
    assert main(["new", "--size", "10x10", "-o", str(path)]) == 0
    wb = load_workbook(path)
    wb.active["B5"] = "remember: 3 colours"  # the empty corner above the row clues
    wb.save(path)
    outcome = press(path, 4, 4)
    assert not outcome.ok and "where cells of your own stand (B5)" in outcome.message
    assert load_workbook(path).active["B5"].value == "remember: 3 colours"


def test_a_drawing_of_fills_alone_is_the_persons(tmp_path):
    """A picture drawn in fills (no values) where the template goes was partly erased:
    filled cells are the person's own as typed ones are."""
    path = tmp_path / "d.xlsx"
    wb = Workbook()
    ws = wb.active
    black = PatternFill("solid", start_color="FF000000", end_color="FF000000")
    for r, c in ((6, 3), (6, 4), (7, 3), (8, 5)):
        ws.cell(r, c).fill = black
    wb.save(path)
    outcome = press(path, 5, 5)
    assert not outcome.ok and "where cells of your own stand (C6, D6, C7, E8)" in outcome.message
    ws = load_workbook(path).active
    assert all(ws.cell(r, c).fill.fgColor.rgb == "FF000000" for r, c in ((6, 3), (8, 5)))


def test_a_colour_template_with_empty_swatches_stays_colour(tmp_path):
    """A colour template whose swatches were not filled yet (their letters typed, as
    new --colours lays them out) was laid out again black and white."""
    from xlsolver.workbook.colour_template import palette_row

    path = tmp_path / "c.xlsx"
    assert main(["new", "--size", "4x3", "--colours", "3", "-o", str(path)]) == 0
    outcome = press(path, 6, 5)
    assert outcome.ok, outcome.message
    layout = plan(6, 5, colour=True)  # clue areas as deep as new --colours makes them
    top, left = layout.grid[:2]
    assert outcome.message.endswith(f"grid starts at row {top}, column {left})")  # no checks
    row, col = palette_row(layout)
    ws = load_workbook(path).active
    assert ws.cell(row, col).value == "colours"
    assert [ws.cell(row, col + 3 + k).value for k in range(4)] == ["a", "b", "c", None]
    fresh = tmp_path / "fresh.xlsx"
    assert main(["new", "--size", "6x5", "--colours", "3", "-o", str(fresh)]) == 0
    made = load_workbook(fresh).active

    def sides(sheet, r, c):
        b = sheet.cell(r, c).border
        return b.left.style, b.right.style, b.top.style, b.bottom.style

    for r in range(4, top + 5):  # clue areas and grid drawn alike, cell by cell
        for c in range(1, left + 6):
            assert sides(ws, r, c) == sides(made, r, c), (r, c)

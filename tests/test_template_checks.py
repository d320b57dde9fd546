"""Live clue checks in the template: formulas and conditional formats, no macro.

Written with openpyxl (``xlsolver new``), checked as openpyxl sees them, then opened in
headless LibreOffice where clues are typed through UNO, the sheet recalculated, and the
results read back: the totals cell's value, each conditional format's condition
evaluated at the cells it colours, and the colour itself on a rendered page.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT
from openpyxl import load_workbook
from openpyxl.formula import Tokenizer
from openpyxl.utils import get_column_letter

from xlsolver.cli import main
from xlsolver.libreoffice import documents
from xlsolver.libreoffice import server as lo_server
from xlsolver.workbook.template import BAD_CLUE_STYLE, TOTALS_CELL, line_check, plan

WIDTH, HEIGHT = 8, 6
LAYOUT = plan(WIDTH, HEIGHT)
PINK = tuple(int(BAD_CLUE_STYLE.fill[i : i + 2], 16) for i in (1, 3, 5))


@pytest.fixture
def template(tmp_path) -> Path:
    """An empty 8×6 template written by ``xlsolver new``."""
    path = tmp_path / "blank.xlsx"
    assert main(["new", "--size", f"{WIDTH}x{HEIGHT}", "-o", str(path)]) == 0
    return path


def formula_is_valid(formula: str) -> bool:
    """openpyxl's tokenizer reads the whole formula into operands, functions, operators."""
    tokens = Tokenizer(formula if formula.startswith("=") else "=" + formula).items
    return bool(tokens) and all(t.type != "UNKNOWN" for t in tokens)


def test_the_template_carries_valid_formulas_and_rules(template):
    """A totals formula in I2 and three conditional formats, all valid for openpyxl."""
    ws = load_workbook(template).worksheets[0]
    totals = ws.cell(*TOTALS_CELL)
    assert totals.data_type == "f" and formula_is_valid(totals.value)
    assert "SUM(" in totals.value
    rules = {str(cf.sqref): [r.formula[0] for r in cf.rules] for cf in ws.conditional_formatting}
    top, left, bottom, right = LAYOUT.grid
    row_band, col_band = LAYOUT.row_band, LAYOUT.col_band
    assert rules[f"A{top}:{get_column_letter(left - 1)}{bottom}"] == [
        line_check(row_band, True, WIDTH)
    ]
    assert len(rules) == 3
    for formulas in rules.values():
        assert all(formula_is_valid(f) for f in formulas)
    assert line_check(col_band, False, HEIGHT) in sum(rules.values(), [])


def test_an_empty_template_says_it_has_no_clues(tmp_path, capsys):
    """Solving a template new wrote before any clue was typed blamed the template's own
    totals formula in A3 ("has no saved value; open and save the file …")."""
    for suffix in ("xlsx", "xlsm"):
        path = tmp_path / f"blank.{suffix}"
        assert main(["new", "--size", "5x5", "-o", str(path)]) == 0
        capsys.readouterr()
        assert main(["solve", str(path)]) == 2
        err = capsys.readouterr().err
        assert "no clues found" in err and "formula" not in err, err


def test_a_wrong_total_beside_a_template_names_both_bands(tmp_path, capsys):
    """A totals column typed right of a template's grid (convert wrote it) with one total
    wrong said "clues found for 7 columns but the width given is 5", blaming the size
    label, or blamed A3's formula; the docs' line names both bands."""
    from openpyxl import load_workbook as load

    from xlsolver.sheets.openpyxl_sheet import open_book
    from xlsolver.workbook.layout import find_puzzles

    path = tmp_path / "d.xlsx"
    assert main(["convert", str(ROOT / "examples" / "dancer.non"), "-o", str(path)]) == 0
    (found,) = find_puzzles(open_book(path))
    top, _, _, right = found.grid
    wb = load(path)
    for i, clues in enumerate(found.puzzle.rows):
        wb.active.cell(top + i, right + 2, sum(clues) + (i == 3))
    wb.save(path)
    capsys.readouterr()
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert ": clues on both sides of the grid (" in err and "neither is the other's totals" in err


def test_size_cells_are_wide_enough_and_the_sheet_still_solves(tmp_path):
    """The size numbers span two columns; a template with checks is read as before."""
    from xlsolver.formats import write_puzzle
    from xlsolver.nonogram.puzzle import Puzzle

    puzzle = Puzzle.from_clues(rows=[[3], [1], [1, 1]], cols=[[1, 1], [2], [1, 1]])
    write_puzzle(puzzle, tmp_path / "p.non")
    book = tmp_path / "p.xlsx"
    assert main(["convert", str(tmp_path / "p.non"), "-o", str(book)]) == 0
    ws = load_workbook(book).worksheets[0]
    merged = {str(m) for m in ws.merged_cells.ranges}
    assert {"C2:D2", "G2:H2"} <= merged
    assert ws.cell(*TOTALS_CELL).data_type == "f"
    assert main(["solve", str(book), "-o", str(tmp_path / "s.xlsx")]) == 0


# ---- in LibreOffice ----------------------------------------------------------------

needs_office = pytest.mark.skipif(bool(lo_server.available()), reason=lo_server.available())


@pytest.fixture(scope="module")
def office():
    """The run's LibreOffice (started on first use, stopped after the module)."""
    if lo_server.available():
        pytest.skip(lo_server.available())
    yield documents.server("template")
    documents.shutdown()


def type_clues(sheet, rows: dict[int, list[int]], cols: dict[int, list[int]]) -> None:
    """Type clues as a person would: right-aligned in the row band, bottom-aligned above."""
    top, left, bottom, right = LAYOUT.grid
    band_top = LAYOUT.col_band[0]
    for i, clues in rows.items():
        for c in range(left - 1):  # the line's old clues go first
            sheet.getCellByPosition(c, top - 1 + i).setString("")
        for k, v in enumerate(reversed(clues)):
            sheet.getCellByPosition(left - 2 - k, top - 1 + i).setValue(v)
    for j, clues in cols.items():
        for r in range(band_top - 1, top - 1):
            sheet.getCellByPosition(left - 1 + j, r).setString("")
        for k, v in enumerate(reversed(clues)):
            sheet.getCellByPosition(left - 1 + j, top - 2 - k).setValue(v)


def condition_at(sheet, cf_range: str, cell: tuple[int, int]) -> bool:
    """The conditional format's condition of ``cf_range`` evaluated at a cell (0-based).

    LibreOffice reports the condition for the range's first cell; it is written into a
    spare cell on that cell's row (row condition) or column (column condition) and
    copied to the cell's row or column, so LibreOffice moves its relative references
    just as it does for the formatting.
    """
    rng = sheet.getCellRangeByName(cf_range)
    first = rng.getRangeAddress()
    entries = rng.getPropertyValue("ConditionalFormat")
    (formula,) = [entries.getByIndex(i).getFormula1() for i in range(entries.getCount())]
    spare_row, spare_col = 200, 200
    across = first.StartColumn == 0  # the row band starts at column A
    src = sheet.getCellByPosition(
        spare_col if across else first.StartColumn, first.StartRow if across else spare_row
    )
    src.setFormula("=" + formula)
    dest_col, dest_row = (spare_col, cell[0]) if across else (cell[1], spare_row)
    target = sheet.getCellByPosition(dest_col, dest_row)
    sheet.copyRange(target.getCellAddress(), src.getRangeAddress())
    value = target.getValue()
    src.setString("")
    target.setString("")
    assert target.getError() == 0
    return bool(value)


def pink_bands(office, doc, tmp_path: Path) -> list[tuple[int, int, int, int]]:
    """Render the sheet's first page; the boxes of its pink pixels, one per run of rows."""
    pytest.importorskip("PIL")
    from PIL import Image

    pdf = tmp_path / "page.pdf"
    office.save_as(doc, pdf, "calc_pdf_Export")
    stem = tmp_path / "page"
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf), str(stem)],
        check=True,
        timeout=120,
    )
    with Image.open(stem.with_suffix(".png")) as img:
        rgb = img.convert("RGB")
    width, height = rgb.size
    pixels = rgb.load()
    rows: dict[int, list[int]] = {}
    for y in range(height):
        for x in range(width):
            if all(abs(a - b) <= 6 for a, b in zip(pixels[x, y], PINK, strict=True)):
                rows.setdefault(y, []).append(x)
    bands: list[tuple[int, int, int, int]] = []
    for y in sorted(rows):
        xs = rows[y]
        if bands and bands[-1][3] == y - 1:
            x0, y0, x1, _ = bands[-1]
            bands[-1] = (min(x0, *xs), y0, max(x1, *xs), y)
        else:
            bands.append((min(xs), y, max(xs), y))
    return bands


@needs_office
def test_typing_clues_in_calc_shows_the_checks(office, template, tmp_path):
    """Typed clues: the totals cell compares the sums; a line too long is flagged."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is needed to render the page")
    work = tmp_path / "work.xlsx"
    shutil.copy(template, work)
    doc = office.load(work)
    try:
        sheet = doc.Sheets.getByIndex(0)
        totals = sheet.getCellByPosition(TOTALS_CELL[1] - 1, TOTALS_CELL[0] - 1)
        doc.calculateAll()
        assert totals.getError() == 0
        assert totals.getString() == "clue totals: rows 0 = columns 0"
        assert pink_bands(office, doc, tmp_path) == []  # nothing typed, nothing red
        # Row 2 (from 0) asks for 5 + 3 + 1 cells in an 8-wide row: too long.
        type_clues(sheet, rows={0: [2, 1], 2: [5, 3]}, cols={0: [1], 3: [2, 2]})
        doc.calculateAll()
        assert totals.getString() == "clue totals: rows 11 ≠ columns 5"
        top, left, bottom, right = LAYOUT.grid
        row_range = f"A{top}:{get_column_letter(left - 1)}{bottom}"
        assert condition_at(sheet, row_range, (top - 1 + 2, 0))  # the long row
        assert not condition_at(sheet, row_range, (top - 1 + 0, 0))  # 2 1 fits
        totals_band, row_band = pink_bands(office, doc, tmp_path)  # top to bottom
        for x0, y0, x1, y1 in (totals_band, row_band):
            assert x1 - x0 > y1 - y0  # one cell, and a row's clue band: wider than high
        assert row_band[2] - row_band[0] > 3 * (totals_band[2] - totals_band[0])
        # A column whose clues need 7 cells in a 6-high grid.
        col_range = (
            f"{get_column_letter(left)}{LAYOUT.col_band[0]}:{get_column_letter(right)}{top - 1}"
        )
        type_clues(sheet, rows={2: [5]}, cols={1: [3, 3]})
        doc.calculateAll()
        assert condition_at(sheet, col_range, (top - 2, left - 1 + 1))
        assert not condition_at(sheet, col_range, (top - 2, left - 1 + 3))  # 2 2 fits in 6
        assert not condition_at(sheet, row_range, (top - 1 + 2, 0))  # now 5 alone
        # Rows 2 1 and 5 (8 cells); columns 1, 1 1 and 2 2 (7), then one more: equal.
        type_clues(sheet, rows={}, cols={1: [1, 1]})
        doc.calculateAll()
        assert totals.getString() == "clue totals: rows 8 ≠ columns 7"
        type_clues(sheet, rows={}, cols={5: [1]})
        doc.calculateAll()
        assert totals.getString() == "clue totals: rows 8 = columns 8"
        assert pink_bands(office, doc, tmp_path) == []
    finally:
        office.close(doc)

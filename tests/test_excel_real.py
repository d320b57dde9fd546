"""The Excel buttons in a real Microsoft Excel (Windows or macOS with xlwings)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pytestmark = pytest.mark.excel


def _excel_or_skip():
    """An xlwings App, or a skip saying why there is none."""
    if sys.platform not in ("win32", "darwin"):
        pytest.skip(f"needs Microsoft Excel (Windows/macOS); this is {sys.platform}")
    xw = pytest.importorskip("xlwings", reason="pip install 'xlsolver[excel]'")
    try:
        return xw.App(visible=False, add_book=False)
    except Exception as exc:  # xlwings installed, Excel not
        pytest.skip(f"Excel could not be started through xlwings: {exc}")


def test_solve_in_real_excel(tmp_path):
    """Open a template workbook in Excel, run solve on it, read the colours back."""
    from xlsolver import excel
    from xlsolver.nonogram.cells import solution_from_rows
    from xlsolver.nonogram.puzzle import Puzzle
    from xlsolver.sheets.openpyxl_sheet import new_book
    from xlsolver.workbook.template import write_template

    app = _excel_or_skip()
    try:
        rows = ["..#..", ".###.", "#####", ".###.", "..#.."]
        puzzle = Puzzle.from_solution(solution_from_rows(rows))
        book = new_book()
        layout = write_template(book.sheets()[0], puzzle)
        path = tmp_path / "diamond.xlsx"
        book.save(path)
        wb = app.books.open(str(path))
        outcome = excel.run("solve", wb)
        assert outcome.ok, outcome.message
        top, left, bottom, right = layout.grid
        sheet = wb.sheets.active
        black = np.array(
            [
                [sheet.range((r, c)).color == (128, 128, 128) for c in range(left, right + 1)]
                for r in range(top, bottom + 1)
            ]
        )
        assert puzzle.is_solution(black)
        assert sheet.range((top, left)).borders["diagonal_up"].line_style != "none"
        wb.close()
    finally:
        app.quit()

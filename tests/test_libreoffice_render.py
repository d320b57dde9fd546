"""Our painted output opened in a real spreadsheet program: LibreOffice headless via UNO."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xlsolver.commands.solve_workbooks import run_workbooks
from xlsolver.libreoffice.server import LibreOffice, available
from xlsolver.sheets.openpyxl_sheet import open_book
from xlsolver.workbook import read_puzzle

pytestmark = pytest.mark.libreoffice
ROOT = Path(__file__).resolve().parents[1]
REASON = available()
GREY, WHITE = 0x808080, 0xFFFFFF


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    """The small sample solved and painted by us."""
    out = tmp_path_factory.mktemp("lo") / "solved.xlsx"
    ns = argparse.Namespace(output=str(out), jobs=1)
    assert run_workbooks(ns, [ROOT / "workbooks" / "small.xlsx"]) == 0
    return out


@pytest.mark.skipif(bool(REASON), reason=REASON or "LibreOffice present")
def test_libreoffice_reads_our_fills_and_diagonals(solved):
    book = open_book(solved)
    found = read_puzzle(book.sheets()[0], book)
    top, left, bottom, right = found.grid
    with LibreOffice() as lo:
        doc = lo.load(solved)
        sheet = doc.Sheets.getByIndex(0)
        black = np.zeros((bottom - top + 1, right - left + 1), dtype=bool)
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                cell = sheet.getCellByPosition(c - 1, r - 1)  # UNO counts from 0
                colour = cell.CellBackColor
                assert colour in (GREY, WHITE)
                crossed = cell.DiagonalTLBR.LineWidth > 0 and cell.DiagonalBLTR.LineWidth > 0
                assert crossed == (colour == WHITE)
                if crossed:
                    assert cell.DiagonalTLBR.Color == GREY
                black[r - top, c - left] = colour == GREY
        # Other borders survive: the grid's outline is still drawn.
        assert sheet.getCellByPosition(left - 1, top - 1).LeftBorder.LineWidth > 0
    assert found.puzzle.is_solution(black)


@pytest.mark.skipif(bool(REASON), reason=REASON or "LibreOffice present")
def test_render_script_writes_a_png(solved, tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image

    png = tmp_path / "solved.png"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "render_png.py"), str(solved), "-o", str(png)],
        check=True,
        timeout=180,
    )
    with Image.open(png) as img:
        colours = {c for _, c in img.convert("RGB").getcolors(1 << 20)}
    assert (128, 128, 128) in colours  # grey black cells

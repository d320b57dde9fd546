"""Grid cells are square: in Excel (by the spec's width rule, read from the file we
wrote), and on paper as LibreOffice prints our .xlsx, our .ods and a grid Calc's New
grid button lays out (rendered to PDF, the grid lines measured)."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest

from xlsolver.cli import main
from xlsolver.sheets import paper
from xlsolver.sheets.openpyxl_sheet import new_book
from xlsolver.workbook.buttons import NARROW_WIDTH_PT
from xlsolver.workbook.template import CELL_HEIGHT, CELL_WIDTH, plan, write_template

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PATH = "/usr/bin:/bin"
SQUARE = 0.02  # measured w/h 1.000 where LibreOffice holds lengths (.ods, Calc's grid)
SQUARE_CARLITO = 0.05  # measured 1.038: LibreOffice reads Calibri widths with Carlito
DPI = 600


def spec_pixels(width: float, mdw: int = 7) -> int:
    """ECMA-376 Part 1 §18.3.1.13: the pixels of a stored column width (written out here
    again, not taken from xlsolver, so the test checks the rule and not itself)."""
    return math.trunc(((256 * width + math.trunc(128 / mdw)) / 256) * mdw)


def test_the_rule_matches_the_spec():
    """Excel's default column (8.43 characters) is 64 px; 2.86 characters are 25 px."""
    assert paper.pixels(8.43) == 64 and paper.characters(64) == 8.43
    assert paper.pixels(CELL_WIDTH) == 25 and CELL_WIDTH == 2.86 and CELL_HEIGHT == 18.75
    for px in range(6, 400):
        chars = paper.characters(px)
        assert paper.pixels(chars) == px
        stored = paper.stored_width(chars)
        assert spec_pixels(stored) == px
        assert spec_pixels(stored - 1 / 256) < px  # the narrowest that shows px
    assert paper.stored_width(0) == 0 and paper.column_hundredth_mm(0) == 0


def test_the_page_turns_landscape_by_the_area_shape():
    assert paper.landscape((1, 1, 10, 30))
    assert not paper.landscape((1, 1, 20, 20))
    assert not paper.landscape((1, 1, 20, 23))  # nearly square stays portrait
    book = new_book()
    sheet = book.sheets()[0]
    write_template(sheet, size=(60, 10))
    assert sheet.ws.page_setup.orientation == "landscape"


def test_the_buttons_sit_on_columns_as_wide_as_the_cells():
    assert NARROW_WIDTH_PT == CELL_HEIGHT == paper.points(paper.pixels(CELL_WIDTH))


def _xlsx_cells(path: Path) -> list[tuple[str, set[int], set[float]]]:
    """Per worksheet: Excel's pixels of every column given a width, row heights in px."""
    out = []
    with zipfile.ZipFile(path) as zf:
        styles = zf.read("xl/styles.xml").decode()
        first_font = re.search(r"<font>(.*?)</font>", styles, re.S).group(1)
        assert 'val="Calibri"' in first_font and '<sz val="11"' in first_font  # MDW 7
        for name in sorted(n for n in zf.namelist() if n.startswith("xl/worksheets/sheet")):
            xml = zf.read(name).decode()
            cols = re.findall(r"<col [^>]*>", xml)
            widths = {spec_pixels(float(re.search(r'\swidth="([^"]+)"', c).group(1))) for c in cols}
            heights = {float(h) / 0.75 for h in re.findall(r'<row [^>]*\sht="([^"]+)"', xml)}
            out.append((name, widths, heights))
    return out


@pytest.mark.parametrize(
    ("args", "suffix"),
    [
        (["new", "--size", "15x20"], ".xlsx"),
        (["new", "--size", "15x20"], ".xlsm"),
        (["make", str(ROOT / "workbooks" / "house-drawing.xlsx"), "--mono"], ".xlsx"),
        (["convert", str(ROOT / "examples" / "dancer.non")], ".xlsx"),
    ],
    ids=["new", "new-buttons", "make", "convert"],
)
def test_excel_shows_the_grid_cells_square(args, suffix, tmp_path):
    """Every column we size is 25 px in Excel, every row we size 25 px (18.75 pt)."""
    out = tmp_path / f"out{suffix}"
    assert main([*args, "-o", str(out)]) == 0
    sheets = _xlsx_cells(out)
    assert any(widths and heights for _, widths, heights in sheets)
    for name, widths, heights in sheets:  # a sheet of the button workbook sizes nothing
        assert widths <= {25}, name
        assert heights <= {25.0}, name


# -- on paper, as LibreOffice prints ------------------------------------------------------


def _lines(dark: np.ndarray, axis: int) -> np.ndarray:
    """Centres of the long straight lines across ``axis`` (the grid's lines)."""
    counts = dark.sum(axis=axis)
    idx = np.flatnonzero(counts >= 0.6 * counts.max())
    groups = np.split(idx, np.flatnonzero(np.diff(idx) > 1) + 1)
    return np.array([g.mean() for g in groups if len(g)])


def cell_ratio(pdf: Path) -> float:
    """Width over height of the grid cells on the first page of a PDF."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        stem = Path(tmp, "page")
        subprocess.run(
            ["pdftoppm", "-gray", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile"]
            + [str(pdf), str(stem)],
            check=True,
            timeout=120,
        )
        dark = np.asarray(Image.open(stem.with_suffix(".pgm"))) < 128
    xs, ys = _lines(dark, 0), _lines(dark, 1)
    assert len(xs) > 5 and len(ys) > 5, (len(xs), len(ys))
    return float(np.median(np.diff(xs)) / np.median(np.diff(ys)))


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    """A headless LibreOffice started with the system's folders first on PATH."""
    from xlsolver.libreoffice import server as lo_server

    pytest.importorskip("PIL")
    reason = lo_server.available() or ("" if shutil.which("pdftoppm") else "pdftoppm missing")
    if reason:
        pytest.skip(reason)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", SYSTEM_PATH + os.pathsep + os.environ.get("PATH", ""))
        with lo_server.LibreOffice() as lo:
            yield lo


def _pdf(office, path: Path) -> Path:
    pdf = path.with_suffix(".pdf")
    doc = office.load(path, read_only=True)
    try:
        office.save_as(doc, pdf, "calc_pdf_Export")
    finally:
        office.close(doc)
    return pdf


def carlito() -> str:
    """Empty when LibreOffice has Carlito for Calibri here, else why not."""
    if shutil.which("fc-match") is None:
        return "fc-match (fontconfig) missing"
    found = subprocess.run(
        ["fc-match", "-f", "%{family}", "Calibri"], capture_output=True, text=True, check=False
    ).stdout
    if "Carlito" not in found:
        return f"Calibri is shown as {found or '?'}: apt-get install fonts-crosextra-carlito"
    return ""


@pytest.mark.libreoffice
def test_calc_new_grid_is_square_on_paper(office, tmp_path):
    """The New grid button lays the grid out in lengths: square whatever the fonts."""
    from office import size_sheet

    from xlsolver.actions import new_grid
    from xlsolver.sheets.uno_sheet import UnoBook

    doc = office.load(size_sheet(tmp_path / "size.xlsx", 15, 20))
    try:
        book = UnoBook(doc)
        sheet = book.sheets()[0]
        new_grid(book, sheet)
        top, left = plan(15, 20).grid[:2]
        cell = sheet.sheet.getCellByPosition(left - 1, top - 1)
        assert abs(cell.Size.Width - cell.Size.Height) <= 2  # 1/100 mm
        office.save_as(doc, tmp_path / "grid.pdf", "calc_pdf_Export")
    finally:
        office.close(doc)
    assert cell_ratio(tmp_path / "grid.pdf") == pytest.approx(1, abs=SQUARE)


@pytest.mark.libreoffice
def test_our_ods_is_square_on_paper(office, tmp_path):
    """An .ods we write holds the columns as wide as Excel shows them: square anywhere."""
    out = tmp_path / "blank.ods"
    assert main(["new", "--size", "15x20", "-o", str(out)]) == 0
    assert cell_ratio(_pdf(office, out)) == pytest.approx(1, abs=SQUARE)


@pytest.mark.libreoffice
def test_libreoffice_prints_our_xlsx_nearly_square(office, tmp_path):
    """LibreOffice reads an .xlsx column in digits of its font for Calibri: with Carlito
    the cells come out within a few per cent of square."""
    reason = carlito()
    if reason:
        pytest.skip(reason)
    out = tmp_path / "blank.xlsx"
    assert main(["new", "--size", "15x20", "-o", str(out)]) == 0
    assert cell_ratio(_pdf(office, out)) == pytest.approx(1, abs=SQUARE_CARLITO)

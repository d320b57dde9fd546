"""workbooks/xlsolver.xlsm: VBA module and buttons intact in openpyxl and LibreOffice, and
workbooks/build_xlsm.py reproduces it byte for byte."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from conftest import workbooks_module

ROOT = Path(__file__).resolve().parents[1]
WORKBOOKS = ROOT / "workbooks"
XLSM = WORKBOOKS / "xlsolver.xlsm"
MACROS = {"New grid": "NewGrid", "Solve": "SolvePuzzle", "Hint": "HintStep", "Clear": "ClearGrid"}
CALLS = {
    "NewGrid": "new_grid",
    "SolvePuzzle": "solve",
    "HintStep": "hint",
    "ClearGrid": "clear",
}


build_xlsm = workbooks_module("build_xlsm")
vba_project = workbooks_module("vba_project")


def test_compression_round_trips():
    """MS-OVBA compress/decompress are inverse on text, repeats and random bytes."""
    import random

    rng = random.Random(4)
    samples = [
        b"",
        b"a",
        b"abcabcabcabcabc" * 700,
        bytes(rng.randrange(256) for _ in range(9000)),
        (build_xlsm.MODULE_SOURCE.read_bytes() * 5),
    ]
    for data in samples:
        assert vba_project.decompress(vba_project.compress(data)) == data


def test_compound_file_round_trips():
    """write_cfb(read_cfb(x)) keeps every storage and stream."""
    blob = (WORKBOOKS / "vba" / "vbaProject.bin").read_bytes()
    items = vba_project.read_cfb(blob)
    assert vba_project.read_cfb(vba_project.write_cfb(items)) == items


def test_openpyxl_keeps_vba_module_and_buttons(tmp_path):
    """openpyxl (keep_vba) sees the project, our module's four RunPython calls, the buttons."""
    from openpyxl import load_workbook

    wb = load_workbook(XLSM, keep_vba=True)
    assert wb.sheetnames[0] == "Puzzle"
    assert wb["Puzzle"].sheet_properties.codeName == "Sheet1"
    vba = wb.vba_archive.read("xl/vbaProject.bin")
    items = vba_project.read_cfb(vba)
    source = build_xlsm.module_source(items)
    for sub, call in CALLS.items():
        assert re.search(
            rf'Sub {sub}\(\)\r\n    RunPython "import xlsolver.excel; '
            rf'xlsolver.excel.{call}\(\'" & XLWINGS_VERSION & "\'\)"',
            source,
        ), sub
    assert "Function RunPython" in build_xlsm.module_source(items, "xlwings")
    vml = wb.vba_archive.read("xl/drawings/vmlDrawing1.vml").decode()
    for caption, macro in MACROS.items():
        assert f"[0]!{macro}" in vml and caption in vml
    out = tmp_path / "again.xlsm"
    wb.save(out)  # and it survives an openpyxl round trip
    with zipfile.ZipFile(out) as zf:
        assert zf.read("xl/vbaProject.bin") == vba
        assert "xl/drawings/vmlDrawing1.vml" in zf.namelist()


def test_sample_puzzle_is_in_template_layout():
    """The sheet holds a puzzle the workbook layer finds, ready to solve."""
    from xlsolver.sheets.openpyxl_sheet import open_book
    from xlsolver.workbook.layout import read_puzzle

    book = open_book(XLSM)
    found = read_puzzle(book.sheet("Puzzle"), book)
    assert (found.width, found.height) == (10, 10)
    from xlsolver.nonogram.cells import solution_from_rows

    assert found.puzzle.is_solution(solution_from_rows(build_xlsm.SAMPLE))


def test_build_script_reproduces_the_workbook(tmp_path):
    """Running the build script again gives the committed bytes."""
    copy = tmp_path / "buttons.xlsm"
    out = build_xlsm.build(tmp_path / "xlsolver.xlsm", package_copy=copy)
    assert out.read_bytes() == XLSM.read_bytes(), (
        "workbooks/xlsolver.xlsm is out of date (the template writer or the VBA source "
        "changed): run python workbooks/build_xlsm.py and commit the result"
    )
    assert copy.read_bytes() == build_xlsm.PACKAGE_COPY.read_bytes(), (
        "xlsolver/data/buttons.xlsm is out of date: run python workbooks/build_xlsm.py"
    )


@pytest.mark.libreoffice
def test_libreoffice_opens_it_with_module_and_buttons():
    """LibreOffice imports the VBA module and binds the four buttons to its subs."""
    from xlsolver.libreoffice import server as lo_server

    reason = lo_server.available()
    if reason:
        pytest.skip(reason)
    with lo_server.LibreOffice() as lo:
        doc = lo.load(XLSM)
        lib = doc.BasicLibraries.getByName("VBAProject")
        assert {"Module1", "xlwings"} <= set(lib.getElementNames())
        module = lib.getByName("Module1")
        assert (
            'RunPython "import xlsolver.excel; xlsolver.excel.solve(\'" & XLWINGS_VERSION & "\')"'
            in module
        )
        page = doc.Sheets.getByName("Puzzle").DrawPage
        bound = {}
        for i in range(page.Count):
            control = page.getByIndex(i).Control
            form = control.Parent
            index = next(j for j in range(form.Count) if form.getByIndex(j) == control)
            (event,) = form.getScriptEvents(index)
            bound[control.Label] = event.ScriptCode
        assert bound == {
            caption: f"vnd.sun.star.script:VBAProject.Module1.{macro}"
            "?language=Basic&location=document"
            for caption, macro in MACROS.items()
        }


def test_zip_is_deterministic():
    """Fixed member dates: nothing in the file depends on when it was built."""
    with zipfile.ZipFile(io.BytesIO(XLSM.read_bytes())) as zf:
        assert {info.date_time for info in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}

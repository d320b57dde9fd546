"""A painted copy keeps what openpyxl can keep (images, charts, comments, links, data
validation, conditional formats, names, print settings, macros) and names on stderr, in
one line per file, and in --json, what it leaves out; --in-place never removes a part."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from conftest import DATA

from xlsolver.cli import main
from xlsolver.exits import EXIT_BAD_INPUT, EXIT_OK
from xlsolver.sheets.xlsx_parts import count_parts

xlsxwriter = pytest.importorskip("xlsxwriter")
Image = pytest.importorskip("PIL.Image")

ROWS = [[2], [2, 1], [1, 1], [3], [1, 1], [1, 1], [2], [1, 1], [1, 2], [2]]  # dancer
COLS = [[2, 1], [2, 1, 3], [7], [1, 3], [2, 1]]
VBA = Path(__file__).resolve().parent.parent / "xlsolver" / "data" / "buttons.xlsm"


def rich_book(path: Path, *, text_box: bool = True) -> Path:
    """The dancer puzzle with a logo, a chart, a note, a link, a list, a conditional
    format, a defined name, print settings, a frozen pane, a tab colour, a hidden sheet
    and (unless told not to) a text box; macros too when the name ends in .xlsm."""
    logo = path.with_name("logo.png")
    Image.new("RGB", (40, 20), (200, 30, 30)).save(logo)
    wb = xlsxwriter.Workbook(str(path))
    macros = path.suffix == ".xlsm"
    if macros:
        with zipfile.ZipFile(VBA) as zf:
            (path.parent / "vbaProject.bin").write_bytes(zf.read("xl/vbaProject.bin"))
        wb.add_vba_project(str(path.parent / "vbaProject.bin"))
        wb.set_vba_name("ThisWorkbook")
    ws = wb.add_worksheet("Puzzle")
    if macros:
        ws.set_vba_name("Sheet1")
    for j, clues in enumerate(COLS):
        for k, v in enumerate(clues):
            ws.write_number(3 - len(clues) + k, 2 + j, v)
    for i, clues in enumerate(ROWS):
        for k, v in enumerate(clues):
            ws.write_number(3 + i, 2 - len(clues) + k, v)
    ws.set_tab_color("#FF9900")
    ws.freeze_panes(3, 2)
    ws.set_landscape()
    ws.print_area("A1:H14")
    ws.insert_image("K2", str(logo))
    if text_box:
        ws.insert_textbox("K8", "Solve me!")
    ws.write("A15", "Name:")
    ws.write_comment("A15", "A note for the class")
    ws.write_url("A17", "https://example.org/puzzles", string="more puzzles")
    ws.data_validation("B15", {"validate": "list", "source": ["Ann", "Bob"]})
    red = wb.add_format({"bg_color": "#FFC7CE"})
    rule = {"type": "cell", "criteria": "==", "value": '"Ann"', "format": red}
    ws.conditional_format("B15", rule)
    wb.define_name("Teacher", "=Puzzle!$B$15")
    data = wb.add_worksheet("Data")
    data.write("A1", "Scores")
    data.write_column("D1", [1, 5, 3])
    data.hide()
    chart = wb.add_chart({"type": "column"})
    chart.add_series({"values": "=Data!$D$1:$D$3"})
    ws.insert_chart("K16", chart)
    wb.close()
    return path


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    """A scratch folder as the working directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def solve_json(args: list[str], capsys) -> tuple[int, list[dict], list[str]]:
    """Run ``xlsolver solve ARGS --json``: exit status, JSON records, stderr lines."""
    code = main(["solve", *args, "--json"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err.splitlines()


def test_a_copy_names_the_text_box_it_leaves_out_and_keeps_the_rest(folder: Path, capsys) -> None:
    book = rich_book(folder / "book.xlsx")
    before = book.read_bytes()
    code, records, err = solve_json(["book.xlsx", "--out-dir", "solved"], capsys)
    assert code == EXIT_OK
    assert err == [
        "xlsolver: book.xlsx: the copy leaves out 1 text box (openpyxl cannot keep them); "
        "the input is unchanged"
    ]
    assert [r["left_out"] for r in records] == [{"text box": 1}]
    assert book.read_bytes() == before
    kept, had = count_parts(folder / "solved" / "book.xlsx"), count_parts(book)
    assert had["text box"] == 1 and "text box" not in kept
    del had["text box"]
    assert kept == had  # image, chart, comment, link, list, format, names: all there
    from openpyxl import load_workbook

    wb = load_workbook(folder / "solved" / "book.xlsx")
    ws = wb["Puzzle"]
    assert (len(ws._images), len(ws._charts)) == (1, 1)
    assert ws["A15"].comment.text == "A note for the class"
    assert ws["A17"].hyperlink.target == "https://example.org/puzzles"
    assert ws.freeze_panes == "C4" and ws.sheet_properties.tabColor.rgb == "FFFF9900"
    assert ws.page_setup.orientation == "landscape"
    assert wb["Data"].sheet_state == "hidden" and "Teacher" in wb.defined_names


def test_a_copy_that_keeps_everything_says_nothing(folder: Path, capsys) -> None:
    rich_book(folder / "book.xlsx", text_box=False)
    code, records, err = solve_json(["book.xlsx", "-o", "solved.xlsx"], capsys)
    assert code == EXIT_OK and err == []
    assert "left_out" not in records[0]


def test_macros_survive_and_only_the_text_box_is_named(folder: Path, capsys) -> None:
    book = rich_book(folder / "book.xlsm")
    code, records, err = solve_json(["book.xlsm", "-o", "solved.xlsm"], capsys)
    assert code == EXIT_OK and records[0]["left_out"] == {"text box": 1}
    with zipfile.ZipFile(folder / "solved.xlsm") as zf, zipfile.ZipFile(book) as original:
        assert zf.read("xl/vbaProject.bin") == original.read("xl/vbaProject.bin")
    assert len(err) == 1 and err[0].startswith("xlsolver: book.xlsm: the copy leaves out")


def test_without_pillow_the_lost_logo_is_named_with_the_cure(
    folder: Path, capsys, monkeypatch
) -> None:
    import openpyxl.reader.drawings

    from xlsolver.sheets import xlsx_parts

    monkeypatch.setattr(openpyxl.reader.drawings, "PILImage", False)  # as without Pillow
    monkeypatch.setattr(xlsx_parts, "_pillow", lambda: False)
    rich_book(folder / "book.xlsx")
    code, records, err = solve_json(["book.xlsx", "-o", "solved.xlsx"], capsys)
    assert code == EXIT_OK and records[0]["left_out"] == {"image": 1, "text box": 1}
    assert err == [
        "xlsolver: book.xlsx: the copy leaves out 1 image and 1 text box (openpyxl cannot "
        "keep them; images are kept once Pillow is installed: pip install pillow); "
        "the input is unchanged"
    ]


def test_in_place_refuses_to_remove_a_part(folder: Path, capsys) -> None:
    """Refused, the puzzle is still solved and its verdict given, as a run without -o
    gives it: "unique solution", not "unique solution painted" (nothing was); the
    reason on stderr."""
    book = rich_book(folder / "book.xlsx")
    before = book.read_bytes()
    assert main(["solve", "book.xlsx", "--in-place"]) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert out.startswith("book.xlsx [Puzzle!C4:G13] 5×10: unique solution (0."), out
    assert "painted" not in out
    assert "book.xlsx: painting the file itself would remove 1 text box" in err
    assert "nothing written" in err and book.read_bytes() == before
    code, records, err = solve_json(["book.xlsx", "--in-place"], capsys)
    assert code == EXIT_BAD_INPUT and records[0]["message"] == "unique solution", records
    assert "would remove 1 text box" in records[1]["error"] and book.read_bytes() == before


def test_in_place_paints_a_file_it_keeps_whole(folder: Path, capsys) -> None:
    book = rich_book(folder / "book.xlsx", text_box=False)
    before = book.read_bytes()
    assert main(["solve", "book.xlsx", "--in-place"]) == EXIT_OK
    assert book.read_bytes() != before and "leaves out" not in capsys.readouterr().err


def test_a_cluster_worker_copy_is_not_written_over_its_input_when_parts_are_lost(
    folder: Path,
) -> None:
    from xlsolver.commands.solve_workbooks import _run_one
    from xlsolver.workbook.batch import SolveOptions
    from xlsolver.workbook.distributed import _write

    book = rich_book(folder / "book.xlsx")
    before = book.read_bytes()
    report = _run_one(str(book), str(folder / "copy.xlsx"), SolveOptions(), False)
    painted = (folder / "copy.xlsx").read_bytes()  # what a --dask worker sends back
    report = _write(report, painted, book, True)  # --dask --in-place
    assert report.error.startswith(f"{book}: painting the file itself would remove 1 text box")
    assert book.read_bytes() == before


MAIN_TYPES = {
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
    ".xlsm": "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
}


def main_type(path: Path) -> str:
    """The content type a workbook file declares for its main part (Excel opens a file
    only when it matches the file's suffix)."""
    with zipfile.ZipFile(path) as zf:
        types = zf.read("[Content_Types].xml").decode()
    (found,) = [t for t in MAIN_TYPES.values() if f'ContentType="{t}"' in types]
    return found


def test_a_copy_declares_the_kind_its_name_says(folder: Path, capsys) -> None:
    """An .xlsx copy of an .xlsm was marked macro-enabled with the macros in it, and an
    .xlsm copy of an .xlsx (or a sheet convert lays out) marked macro-free: Excel opens
    neither. The .xlsx copy now leaves the macros out and says so; the .xlsm is marked
    macro-enabled."""
    rich_book(folder / "book.xlsm", text_box=False)
    code, records, err = solve_json(["book.xlsm", "-o", "plain.xlsx"], capsys)
    assert code == EXIT_OK and records[0]["left_out"] == {"VBA project": 1}
    assert main_type(folder / "plain.xlsx") == MAIN_TYPES[".xlsx"]
    with zipfile.ZipFile(folder / "plain.xlsx") as zf:
        assert "xl/vbaProject.bin" not in zf.namelist()
    assert err == [
        "xlsolver: book.xlsm: the copy leaves out 1 VBA project (an .xlsx file holds no macros "
        "nor their buttons: name the copy .xlsm to keep them); the input is unchanged"
    ]
    assert solve_json(["plain.xlsx", "-o", "again.xlsm"], capsys)[0] == EXIT_OK
    assert main_type(folder / "again.xlsm") == MAIN_TYPES[".xlsm"]
    assert main(["convert", str(DATA / "webpbn-00001-dancer.non"), "-o", "made.xlsm"]) == 0
    capsys.readouterr()
    assert main_type(folder / "made.xlsm") == MAIN_TYPES[".xlsm"]
    assert solve_json(["made.xlsm", "-o", "made-solved.xlsm"], capsys)[1][0]["status"] == "unique"
    assert main_type(folder / "book.xlsm") == MAIN_TYPES[".xlsm"]  # the input, as it was

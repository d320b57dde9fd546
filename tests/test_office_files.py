""".ods and .xls workbooks through LibreOffice: read, solved, painted and written back in
their own format, checked by re-reading the written file through UNO cell by cell."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from conftest import HEART, picture

from xlsolver.cli import main
from xlsolver.formats import write_puzzle
from xlsolver.libreoffice import documents
from xlsolver.libreoffice import server as lo_server
from xlsolver.nonogram.puzzle import Puzzle

pytestmark = pytest.mark.libreoffice
REASON = lo_server.available()
GREY, WHITE = 0x808080, 0xFFFFFF
# The heart's last boxed row is empty: the template's borders give the grid its height.
PUZZLE = Puzzle.from_solution(picture(HEART), title="Heart")


@pytest.fixture(scope="module", autouse=True)
def one_office():
    """Every test of the module shares the run's LibreOffice; it stops at the end."""
    if REASON:
        pytest.skip(REASON)
    yield
    documents.shutdown()


def digest(path: Path) -> str:
    """A file's SHA-256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_book(tmp_path: Path, suffix: str, name: str = "heart") -> Path:
    """The heart as a puzzle file converted by xlsolver into a workbook of ``suffix``."""
    source = tmp_path / f"{name}.non"
    write_puzzle(PUZZLE, source)
    target = tmp_path / f"{name}{suffix}"
    assert main(["convert", str(source), "-o", str(target)]) == 0
    return target


def painted_grid(path: Path, puzzle: Puzzle = PUZZLE):
    """Re-read a written workbook through UNO: per grid cell (fill, both diagonals).

    The grid is found from the template's clues: the first cell of the sheet whose
    column holds clues above it and whose row holds clues left of it.
    """
    office = documents.server(path)
    doc = office.load(path, read_only=True)
    try:
        sheet = doc.Sheets.getByIndex(0)
        top, left = template_corner(puzzle)
        cells = []
        for r in range(top, top + puzzle.height):
            row = []
            for c in range(left, left + puzzle.width):
                cell = sheet.getCellByPosition(c - 1, r - 1)
                crossed = cell.DiagonalTLBR.LineWidth > 0 and cell.DiagonalBLTR.LineWidth > 0
                row.append((cell.CellBackColor, crossed, cell.getString()))
            cells.append(row)
        return cells
    finally:
        office.close(doc)


def template_corner(puzzle: Puzzle) -> tuple[int, int]:
    """Where xlsolver's template puts the grid of a puzzle (1-based)."""
    from xlsolver.workbook.template import plan

    return plan(puzzle.width, puzzle.height, puzzle).grid[:2]


def assert_solution_painted(path: Path, puzzle: Puzzle = PUZZLE) -> None:
    """Every grid cell grey (black) or white with both diagonals, forming a solution."""
    cells = painted_grid(path, puzzle)
    black = np.array([[fill == GREY for fill, _, _ in row] for row in cells])
    for row in cells:
        for fill, crossed, _ in row:
            assert fill in (GREY, WHITE), hex(fill)
            assert crossed == (fill == WHITE)
    assert puzzle.is_solution(black)


@pytest.mark.parametrize("suffix", [".ods", ".xls"])
def test_solve_keeps_the_format_and_paints_the_solution(tmp_path, suffix, capsys):
    """.ods in → .ods out (.xls → .xls), painted; the input is left as it was."""
    book = make_book(tmp_path, suffix)
    before = digest(book)
    out = tmp_path / f"solved{suffix}"
    assert main(["solve", str(book), "-o", str(out)]) == 0
    assert "unique solution painted" in capsys.readouterr().out
    assert digest(book) == before
    kind = {".ods": b"application/vnd.oasis.opendocument.spreadsheet", ".xls": b"\xd0\xcf\x11"}
    assert kind[suffix] in out.read_bytes()[:100]
    assert_solution_painted(out)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "a temp file stayed"


def test_in_place_paints_the_file_itself_and_never_without_asking(tmp_path, capsys):
    """-o onto the input is refused (nothing written); --in-place paints it."""
    book = make_book(tmp_path, ".ods")
    before = digest(book)
    assert main(["solve", str(book), "-o", str(book)]) == 2
    assert "refusing to write over the input file" in capsys.readouterr().err
    assert digest(book) == before
    assert main(["solve", str(book), "--in-place"]) == 0
    assert_solution_painted(book)


def test_a_batch_uses_one_libreoffice(tmp_path, monkeypatch, capsys):
    """Several .ods and .xls files (with an .xlsx among them, --jobs 2): one server."""
    documents.shutdown()
    starts = []
    real_start = lo_server.LibreOffice.start
    monkeypatch.setattr(
        lo_server.LibreOffice, "start", lambda self: starts.append(1) or real_start(self)
    )
    books = [make_book(tmp_path, s, f"b{i}") for i, s in enumerate([".ods", ".xls", ".ods"])]
    books.append(tmp_path / "x.xlsx")
    assert main(["convert", str(tmp_path / "b0.non"), "-o", str(books[-1])]) == 0
    out = tmp_path / "out"
    assert main(["solve", *map(str, books), "--out-dir", str(out), "--jobs", "2"]) == 0
    assert len(starts) == 1
    assert sorted(p.name for p in out.iterdir()) == ["b0.ods", "b1.xls", "b2.ods", "x.xlsx"]
    for name in ("b0.ods", "b1.xls", "b2.ods"):
        assert_solution_painted(out / name)


def test_without_libreoffice_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    """No LibreOffice: one line naming the file, how to install it or save as .xlsx."""
    book = make_book(tmp_path, ".ods")
    documents.shutdown()
    monkeypatch.setattr(documents, "available", lambda: "soffice not found; install it")
    out = tmp_path / "solved.ods"
    for argv in (
        ["solve", str(book), "-o", str(out)],
        ["check", str(book)],
        ["convert", str(book), "-o", str(tmp_path / "x.non")],
        ["new", "--size", "5x5", "-o", str(tmp_path / "new.ods")],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1, err
        assert "apt-get install libreoffice-calc-nogui" in err and ".xlsx" in err, err
    assert not out.exists() and not (tmp_path / "new.ods").exists()


def test_an_unreadable_ods_is_one_line(tmp_path, capsys):
    """A file that is no spreadsheet: one line naming it, exit 2."""
    bad = tmp_path / "bad.ods"
    bad.write_bytes(b"PK\x03\x04 this is not a zip archive at all")
    assert main(["solve", str(bad), "-o", str(tmp_path / "x.ods")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(bad) in err, err
    assert "Traceback" not in err


def test_xlsb_is_written_as_xlsx(tmp_path):
    """LibreOffice reads .xlsb but cannot write it: a copy's name becomes .xlsx."""
    from xlsolver.sheets.errors import WorkbookError
    from xlsolver.workbook.files import check_target, copy_name

    assert copy_name(tmp_path / "week.xlsb") == "week.xlsx"
    with pytest.raises(WorkbookError, match="cannot write .xlsb"):
        check_target(tmp_path / "week.xlsb")


def test_teaching_commands_read_and_write_ods(tmp_path, capsys):
    """make (drawing .ods → worksheet .ods), check, hints and grade on .ods files."""
    from openpyxl import Workbook
    from openpyxl.styles import PatternFill

    drawing = tmp_path / "drawing.xlsx"
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "A heart"
    fill = PatternFill(fill_type="solid", start_color="FF000000", end_color="FF000000")
    for r, row in enumerate(HEART[:8]):
        for c, ch in enumerate(row):
            if ch == "#":
                ws.cell(3 + r, 2 + c).fill = fill
    wb.save(drawing)
    ods_drawing = tmp_path / "drawing.ods"
    documents.convert_copy(drawing, ods_drawing)
    sheet = tmp_path / "heart.ods"
    assert main(["make", str(ods_drawing), "-o", str(sheet)]) == 0
    assert main(["check", str(sheet)]) == 0
    assert "unique" in capsys.readouterr().out
    hints = tmp_path / "hints.ods"
    assert main(["hints", str(sheet), "-o", str(hints)]) == 0
    assert hints.read_bytes()[:2] == b"PK"
    answer = tmp_path / "ann.ods"
    solved = Puzzle.from_solution(picture(HEART[:8]))
    assert main(["solve", str(sheet), "--sheet", "Puzzle", "-o", str(answer)]) == 0
    graded = tmp_path / "graded"
    assert main(["grade", str(answer), "--key", str(sheet), "--out-dir", str(graded)]) == 0
    out = capsys.readouterr().out
    assert "0 wrong of 80, score 100.0" in out, out
    assert (graded / "ann-graded.ods").exists()
    assert solved.width == 10


@pytest.mark.parametrize("suffix", [".ods", ".xls"])
def test_a_drawing_of_fills_alone_reads_whole_from_ods_and_xls(tmp_path, suffix, capsys):
    """Calc's used area leaves out cells holding only a fill (a single row of them, or a
    block repeated down the rows); a drawing saved by LibreOffice is read whole anyway."""
    import json

    from openpyxl import Workbook
    from openpyxl.styles import PatternFill

    fill = PatternFill(fill_type="solid", start_color="FF000000", end_color="FF000000")
    for name, drawing in (("row", ["#.#.#.##"]), ("tall", ["##", "##", "..", "#.", ".#", "##"])):
        xlsx = tmp_path / f"{name}.xlsx"
        wb = Workbook()
        for r, line in enumerate(drawing):
            for c, ch in enumerate(line):
                if ch == "#":
                    wb.active.cell(1 + r, 1 + c).fill = fill
        wb.save(xlsx)
        saved = tmp_path / f"{name}{suffix}"
        documents.convert_copy(xlsx, saved)
        before = digest(saved)
        sheet = tmp_path / f"{name}-sheet.xlsx"
        assert main(["make", str(saved), "-o", str(sheet)]) == 0
        assert f"({len(drawing[0])}×{len(drawing)})" in capsys.readouterr().out
        assert main(["solve", str(sheet), "--sheet", "Puzzle", "--json"]) == 0
        found = json.loads(capsys.readouterr().out.splitlines()[0])
        assert found["status"] == "unique" and found["solutions"] == [drawing]
        assert digest(saved) == before


def test_commands_on_ods_leave_no_private_copy_behind(tmp_path):
    """A document is opened from a private copy in the temp folder; check, make and hints
    never closed theirs, so a copy of the user's file stayed there after every run. One
    that a process killed with -9 left behind is removed by the next run's LibreOffice."""
    import os
    import subprocess
    import sys

    sheet = make_book(tmp_path, ".ods")
    temp = tmp_path / "temp"
    temp.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    stale = temp / f"xlsolver-doc-{dead}-abcd"  # left by a process killed with -9
    stale.mkdir()
    (stale / "input.ods").write_bytes(sheet.read_bytes())
    env = {**os.environ, "TMPDIR": str(temp)}
    for argv in (
        ["check", str(sheet)],
        ["hints", str(sheet), "-o", str(tmp_path / "hints.xlsx")],
        ["make", str(sheet), "-o", str(tmp_path / "made.xlsx")],
    ):
        run = subprocess.run(
            [sys.executable, "-m", "xlsolver", *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
        assert not [p.name for p in temp.iterdir() if p.name.startswith("xlsolver-doc-")], argv


def test_the_tiler_reads_and_writes_ods(tmp_path, capsys):
    """pentomino read only .xlsx ("save it as .xlsx"); it opens .ods and .xls as solve does."""
    source = tmp_path / "board.xlsx"
    root = Path(__file__).resolve().parent.parent
    source.write_bytes((root / "workbooks" / "pentomino-8x8.xlsx").read_bytes())
    board = tmp_path / "board.ods"
    documents.convert_copy(source, board)
    out = tmp_path / "tiled.ods"
    assert main(["pentomino", str(board), "-o", str(out), "--count"]) == 0
    printed = capsys.readouterr().out
    assert "65 distinct tilings (520 counting symmetric copies)" in printed, printed
    assert f"{out}: 1 tiling(s) painted on Board" in printed
    again = tmp_path / "tiled.xlsx"
    documents.convert_copy(out, again)
    assert main(["pentomino", str(again), "--count"]) == 0
    # the painted pieces read back as placed: the one tiling the .ods holds
    assert "Board!B3:I10: 1 distinct tilings" in capsys.readouterr().out


def test_a_puzzle_file_solved_into_an_ods_is_laid_out_and_painted(tmp_path, capsys):
    """``solve heart.non -o heart.ods``: the template sheet, solved and painted, stored
    by LibreOffice as .ods; the puzzle file is left as it was."""
    source = tmp_path / "heart.non"
    write_puzzle(PUZZLE, source)
    before = digest(source)
    out = tmp_path / "heart.ods"
    assert main(["solve", str(source), "-o", str(out)]) == 0
    assert "unique solution painted (" in capsys.readouterr().out
    assert b"application/vnd.oasis.opendocument.spreadsheet" in out.read_bytes()[:100]
    assert_solution_painted(out)
    assert digest(source) == before


def test_an_xlsx_painted_into_an_ods_name_is_an_ods(tmp_path, capsys):
    """``solve small.xlsx -o small.ods`` and ``pentomino … -o tiled.ods`` wrote openpyxl's
    .xlsx bytes under the .ods name; the copy is now stored by LibreOffice as .ods, and
    what it holds reads back painted."""
    from conftest import WORKBOOKS

    from xlsolver.pentomino.sheet import read_board

    out = tmp_path / "small.ods"
    assert main(["solve", str(WORKBOOKS / "small.xlsx"), "-o", str(out)]) == 0
    assert b"application/vnd.oasis.opendocument.spreadsheet" in out.read_bytes()[:100]
    tiled = tmp_path / "tiled.ods"
    assert main(["pentomino", str(WORKBOOKS / "pentomino-8x8.xlsx"), "-o", str(tiled)]) == 0
    assert b"application/vnd.oasis.opendocument.spreadsheet" in tiled.read_bytes()[:100]
    capsys.readouterr()
    book = documents.open_document(out, read_only=True)
    try:
        fills = book.sheet("Puzzle").read_fills((7, 5, 16, 14))
    finally:
        book.close()
    assert sum(f is not None and f.upper().endswith("808080") for row in fills for f in row) > 0
    board_book = documents.open_document(tiled, read_only=True)
    try:
        assert len(read_board(board_book.sheet("Board")).cells) == 60
    finally:
        board_book.close()

"""Inputs xlsolver did not write, as testers made them: a ``--range`` naming the grid
alone, a protected Calc sheet solved without writing, template formulas giving empty
text, drawings with gradient fills, the workbook's own theme colours, a name typed into
the label's cell, a drawing framed by an outer border, an output folder that is the
input folder. (Sheet layouts of the same kind are in the corpus, tests/corpus.py.)"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, HEART, ROOT, WORKBOOKS, picture
from corpus import BOAT, clues_of, frame, put_bands
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Border, Color, GradientFill, PatternFill, Side
from openpyxl.writer.theme import theme_xml

from xlsolver.cli import main
from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.sheets.openpyxl_sheet import open_book
from xlsolver.teaching import KEY_SHEET, PUZZLE_SHEET, read_drawing_file
from xlsolver.workbook.batch import SolveOptions, solve_workbook
from xlsolver.workbook.layout import find_puzzles, read_puzzle, read_puzzles

HAND_MADE = WORKBOOKS / "hand-made.xlsx"  # sheet Two holds two puzzles side by side
BLACK = PatternFill("solid", fgColor="FF000000")
THIN = Side(style="thin")


def soffice_convert(source: Path, fmt: str, out_dir: Path) -> Path:
    """``source`` saved by LibreOffice as ``fmt`` (skips when LibreOffice is absent)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [soffice, f"-env:UserInstallation=file://{profile}", "--headless"]
            + ["--convert-to", fmt, "--outdir", str(out_dir), str(source)],
            check=True,
            capture_output=True,
            timeout=180,
        )
    out = out_dir / f"{source.stem}.{fmt}"
    assert out.exists(), f"LibreOffice did not write {out.name}"
    return out


def grid_of(record: dict) -> np.ndarray:
    """The first solution of a ``--json`` record as booleans."""
    return np.array([[ch == "#" for ch in row] for row in record["solutions"][0]])


# ---- --range: the grid every report names picks its puzzle ---------------------------


def test_a_range_naming_the_grid_alone_picks_that_puzzle(capsys):
    """The several-puzzles message offers a range that works, and the grid range every
    report prints (``range`` in --json) works too, in solve, check and hints."""
    assert main(["check", str(HAND_MADE), "--sheet", "Two"]) == 2
    err = capsys.readouterr().err
    offered = re.search(r"pick one with --range (\S+)", err).group(1)
    grids = re.findall(r"Two![A-Z]+\d+:[A-Z]+\d+", err.split("pick one")[0])
    assert len(grids) == 2 and offered not in grids  # the offer holds the clues too
    book = open_book(HAND_MADE)
    for area in (offered, grids[0], grids[1]):
        assert main(["solve", str(HAND_MADE), "--range", area, "--json"]) == 0
        record = json.loads(capsys.readouterr().out.splitlines()[0])
        assert record["range"] in grids and record["status"] == "unique"
        puzzle = {p.where: p.puzzle for p in read_puzzles(book.sheet("Two"), book)}[record["range"]]
        assert puzzle.is_solution(grid_of(record))  # checked against the clues
        assert main(["check", str(HAND_MADE), "--range", area]) == 0
        assert "verdict: unique" in capsys.readouterr().out


def test_a_range_without_its_sheet_works_in_check_and_hints_as_in_solve(tmp_path, capsys):
    """``--range F6:M11`` (no sheet, as teaching.md writes it) was taken by check and
    hints for a sheet's name: "no sheet named 'F6:M11'"; a range holding two puzzles
    offers each."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Two"
    put_bands(ws, *clues_of(BOAT), 6, 6)  # grid F6:M11
    put_bands(ws, *clues_of(BOAT), 6, 22)  # grid V6:AC11
    path = tmp_path / "two.xlsx"
    wb.save(path)
    assert main(["check", str(path), "--range", "F6:M11"]) == 0
    assert "verdict: unique" in capsys.readouterr().out
    out = tmp_path / "h.xlsx"
    assert main(["hints", str(path), "--range", "V6:AC11", "-o", str(out)]) == 0
    assert "steps" in capsys.readouterr().out
    assert main(["check", str(path), "--range", "A1:AZ60"]) == 2
    err = capsys.readouterr().err
    assert "--range A1:AZ60 holds several puzzles: pick one with --range Two!F6:M11 (or " in err
    assert main(["check", str(path), "--sheet", "Nope1"]) == 2
    assert "no sheet named 'Nope1'" in capsys.readouterr().err
    sheet = tmp_path / "dancer.xlsx"  # a worksheet make wrote: its Puzzle sheet, not the key
    assert main(["make", str(DATA / "webpbn-00001-dancer.non"), "-o", str(sheet)]) == 0
    book = open_book(sheet)
    grid = read_puzzle(book.sheet(PUZZLE_SHEET), book).where.split("!")[1]
    capsys.readouterr()
    assert main(["check", str(sheet), "--range", grid]) == 0, capsys.readouterr().err
    assert "verdict: unique" in capsys.readouterr().out


def test_hints_take_a_range_and_a_range_holding_nothing_says_what_it_should_hold(tmp_path, capsys):
    assert (
        main(["hints", str(HAND_MADE), "--range", "Two!G6:P15", "-o", str(tmp_path / "h.xlsx")])
        == 0
    )
    assert "steps" in capsys.readouterr().out
    assert main(["solve", str(HAND_MADE), "--range", "Two!AF30:AH31"]) == 2
    assert "a --range holds the puzzle's clues as well as its grid" in capsys.readouterr().err


def test_range_is_for_workbooks_and_not_beside_sheet(tmp_path, capsys):
    non = tmp_path / "p.non"
    non.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    assert main(["check", str(non), "--range", "A!A1:B2"]) == 2
    assert "only a workbook has ranges" in capsys.readouterr().err
    assert main(["check", str(HAND_MADE), "--sheet", "Two", "--range", "Two!G6:P15"]) == 2
    assert "give --sheet or --range, not both" in capsys.readouterr().err


# ---- Calc: a protected sheet, formulas giving empty text ------------------------------


def _locked_heart() -> tuple[Puzzle, Workbook]:
    """The heart's puzzle on a protected sheet, its grid (F6 on) locked as cells are by
    default."""
    puzzle = Puzzle.from_solution(picture(HEART))
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    put_bands(ws, list(puzzle.rows), list(puzzle.cols), 6, 6)
    ws.protection.sheet = True
    return puzzle, wb


@pytest.mark.libreoffice
def test_a_protected_ods_is_solved_when_nothing_is_written(tmp_path, capsys):
    """Calc refuses paint on a protected sheet; a run that writes nothing paints nothing,
    so it reports the solution (it stopped with "the sheet is protected" before), in
    words of the verdict: it said "unique solution painted" though nothing was painted.
    Why -o would be refused is said at once, on stderr."""
    puzzle, wb = _locked_heart()
    wb.save(tmp_path / "locked.xlsx")
    ods = soffice_convert(tmp_path / "locked.xlsx", "ods", tmp_path)
    before = ods.read_bytes()
    report = solve_workbook(ods, None, SolveOptions())
    assert not report.error, report.error
    (sheet,) = report.sheets
    assert sheet.status == "unique" and sheet.message == "unique solution"
    assert sheet.record["message"] == "unique solution"
    assert puzzle.is_solution(grid_of(sheet.record))
    corner = sheet.record["range"].split(":")[0]  # Puzzle!F6, the first locked grid cell
    locked = f"{ods}: {corner}: the sheet is protected and its grid cells are locked"
    assert len(report.notes) == 1 and report.notes[0].startswith(locked), report.notes
    written = solve_workbook(ods, tmp_path / "out.ods", SolveOptions())
    assert "protected" in written.error and not (tmp_path / "out.ods").exists()
    assert main(["solve", str(ods)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{ods} [{sheet.record['range']}] ") and "painted" not in out, out
    assert ": unique solution (" in out, out
    assert f"xlsolver: {locked}" in err and "(nothing written: use -o FILE" in err, err
    assert ods.read_bytes() == before


def test_a_protected_xlsx_is_refused_paint_as_the_buttons_and_an_ods_are(tmp_path, capsys):
    """A protected sheet with locked grid cells saved as .xlsx: solve -o painted the copy
    (exit 0) while the Solve button refused it and the same sheet as .ods was refused.
    Now the file's copy is refused the same way, naming the first locked cell in Excel's
    menus; a run that writes nothing reports the solution and says why; a sheet whose
    grid cells are unlocked is painted."""
    from openpyxl.styles import Protection

    puzzle, wb = _locked_heart()
    ws = wb.active
    src = tmp_path / "locked.xlsx"
    wb.save(src)
    before = src.read_bytes()
    out = tmp_path / "out.xlsx"
    assert main(["solve", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"xlsolver: {src}: Puzzle!F6: the sheet is protected and its grid cells are locked" in (
        err
    ), err
    assert "Review ▸ Unprotect Sheet" in err and not out.exists()
    assert main(["solve", str(src)]) == 0
    captured = capsys.readouterr()
    assert ": unique solution (" in captured.out and "the sheet is protected" in captured.err
    assert src.read_bytes() == before
    for r in range(6, 6 + puzzle.height):  # the grid unlocked, as a teacher leaves it
        for c in range(6, 6 + puzzle.width):
            ws.cell(r, c).protection = Protection(locked=False)
    wb.save(src)
    assert main(["solve", str(src), "-o", str(out)]) == 0 and out.exists()


@pytest.mark.libreoffice
@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_template_formulas_giving_empty_text_read_after_a_libreoffice_save(tmp_path, fmt):
    """Clue places filled by formulas, the unused ones ``=IF(…,"")``, saved by LibreOffice
    (which computes them): read as empty places through openpyxl and through Calc (it said
    "the formula has no saved value" though the file holds one)."""
    rows, cols = clues_of(BOAT)
    depth = max(len(c) for c in rows + cols)
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    for i, clues in enumerate(rows):
        for k in range(depth):
            v = clues[k - depth + len(clues)] if k >= depth - len(clues) else None
            ws.cell(6 + i, 6 - depth + k, f"={v}*1" if v else '=IF(1>2,0,"")')
    for j, clues in enumerate(cols):
        for k in range(depth):
            v = clues[k - depth + len(clues)] if k >= depth - len(clues) else None
            ws.cell(6 - depth + k, 6 + j, f"={v}*1" if v else '=IF(1>2,0,"")')
    wb.save(tmp_path / "formulas.xlsx")
    unsaved = solve_workbook(tmp_path / "formulas.xlsx", None, SolveOptions())
    assert "has no saved value" in unsaved.error  # openpyxl saved no values: still refused
    out = tmp_path / "saved"
    out.mkdir()
    saved = soffice_convert(tmp_path / "formulas.xlsx", fmt, out)
    report = solve_workbook(saved, None, SolveOptions())
    assert not report.error, report.error
    (sheet,) = report.sheets
    assert sheet.status == "unique" and sheet.record["range"] == "Puzzle!F6:M11"
    assert np.array_equal(grid_of(sheet.record), picture(BOAT))


# ---- teaching: fills, themes, names, frames -------------------------------------------


def test_a_gradient_fill_is_read_not_a_crash(tmp_path, capsys):
    """A cell of the drawing filled with a gradient, and a pupil's name cell decorated
    with one: make and grade read them (both stopped with an AttributeError)."""
    wb = Workbook()
    ws = wb.active
    for (r, c), black in np.ndenumerate(picture(HEART)):
        if black:
            ws.cell(3 + r, 2 + c).fill = BLACK
    ws.cell(3, 4).fill = GradientFill(stop=("000000", "333333"))  # a black cell, shaded
    wb.save(tmp_path / "drawing.xlsx")
    drawing = read_drawing_file(tmp_path / "drawing.xlsx")
    assert np.array_equal(drawing.picture, picture(HEART))
    key = tmp_path / "key.xlsx"
    assert main(["make", str(tmp_path / "drawing.xlsx"), "-o", str(key), "--mono"]) == 0
    pupil = tmp_path / "pupil.xlsx"
    shutil.copy(key, pupil)
    book = load_workbook(pupil)
    del book[KEY_SHEET]
    sheet = book[PUZZLE_SHEET]
    sheet["A1"].fill = GradientFill(stop=("FFFF00", "FF0000"))
    book.save(pupil)
    capsys.readouterr()
    assert main(["grade", str(pupil), "--key", str(key), "--out-dir", str(tmp_path / "g")]) == 0
    assert "pupil: " in capsys.readouterr().out


def test_a_light_pattern_fill_is_a_light_shade_not_ink(tmp_path):
    """One stray cell in Excel's "6.25% Gray" or "12.5% Gray" pattern beside a drawing
    was read as its black foreground, and the picture grew by three rows; a pattern
    shows as its colours mixed by how much of the cell it covers."""
    from xlsolver.sheets.openpyxl_sheet import fill_hex

    dots = {"gray0625": "#F0F0F0", "gray125": "#E0E0E0", "lightGray": "#C0C0C0"}  # as Calc
    for kind, shade in dots.items():
        assert fill_hex(PatternFill(kind, fgColor="FF000000", bgColor="FFFFFFFF")) == shade
    assert fill_hex(PatternFill("solid", fgColor="FF123456")) == "#123456"
    excel = PatternFill("gray0625", fgColor="FF000000", bgColor=Color(indexed=64))  # as Excel
    assert fill_hex(excel) == "#F0F0F0"  # writes a background left unchosen
    on_yellow = PatternFill("mediumGray", fgColor="FFFF0000", bgColor="FFFFFF00")
    assert fill_hex(on_yellow) == "#FF8000"  # its background was taken for white: #FF8080
    for kind in ("gray0625", "gray125"):
        wb = Workbook()
        ws = wb.active
        for (r, c), black in np.ndenumerate(picture(HEART)):
            if black:
                ws.cell(3 + r, 2 + c).fill = BLACK
        ws.cell(3 + len(HEART) + 2, 3).fill = PatternFill(kind, fgColor="FF000000")
        wb.save(tmp_path / f"{kind}.xlsx")
        drawing = read_drawing_file(tmp_path / f"{kind}.xlsx")
        assert np.array_equal(drawing.picture, picture(HEART)), kind


def themed(path: Path, accents: dict[int, str]) -> None:
    """A workbook whose own theme has other accent colours (as a school's template)."""
    xml = theme_xml
    for n, rgb in accents.items():
        xml, count = re.subn(rf'(<a:accent{n}>\s*<a:srgbClr val=")\w+"', rf'\g<1>{rgb}"', xml)
        assert count == 1
    wb = load_workbook(path)
    wb.loaded_theme = xml.encode()
    wb.save(path)


def test_theme_colours_are_the_workbooks_own(tmp_path, capsys):
    """A cell filled with "Accent 1" shows the file's accent 1: read as that colour (it
    was read as Office's default blue, so the made puzzle had another ink), and a pupil
    whose copy has the school's theme and paints with its "Accent 1" is graded right."""
    rows = ["##..#", "#..##", "..###", ".#...", "##.#."]
    wb = Workbook()
    ws = wb.active
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                red = (r + c) % 2
                ws.cell(2 + r, 2 + c).fill = (
                    PatternFill("solid", fgColor=Color(theme=4)) if red else BLACK
                )
    wb.save(tmp_path / "drawing.xlsx")
    themed(tmp_path / "drawing.xlsx", {1: "C00000"})
    key = tmp_path / "key.xlsx"
    code = main(["make", str(tmp_path / "drawing.xlsx"), "-o", str(key)])
    out = capsys.readouterr().out
    assert code in (0, 1) and "#c00000" in out, out
    found = read_puzzle(open_book(key).sheet(PUZZLE_SHEET), open_book(key))
    inks = {found.puzzle.palette.colour(i).rgb: i for i in range(1, found.puzzle.palette.k + 1)}
    assert "#c00000" in inks
    pupil = tmp_path / "pupil.xlsx"
    shutil.copy(key, pupil)
    book = load_workbook(pupil)
    del book[KEY_SHEET]
    sheet = book[PUZZLE_SHEET]
    top, left = found.grid[:2]
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                red = (r + c) % 2
                sheet.cell(top + r, left + c).fill = (
                    PatternFill("solid", fgColor=Color(theme=4)) if red else BLACK
                )
    book.save(pupil)
    themed(pupil, {1: "C00000"})  # the pupil's copy keeps the school's theme
    assert main(["grade", str(pupil), "--key", str(key), "--out-dir", str(tmp_path / "g")]) == 0
    assert "pupil: 0 wrong" in capsys.readouterr().out


def test_a_name_typed_into_the_label_cell_is_the_pupils(tmp_path, capsys):
    key = tmp_path / "key.xlsx"
    drawing = drawn(tmp_path / "drawing.xlsx", HEART)
    assert main(["make", str(drawing), "-o", str(key), "--mono"]) == 0
    pupil = tmp_path / "pupil07.xlsx"
    shutil.copy(key, pupil)
    book = load_workbook(pupil)
    del book[KEY_SHEET]
    label = next(c for row in book[PUZZLE_SHEET].iter_rows() for c in row if c.value == "Name:")
    label.value = "Name:  Ann   Lee "  # spaces as typed: one between the words in the summary
    book.save(pupil)
    capsys.readouterr()
    main(["grade", str(pupil), "--key", str(key), "--out-dir", str(tmp_path / "g")])
    assert "Ann Lee:" in capsys.readouterr().out


def test_an_output_folder_that_is_the_input_folder_is_named(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(WORKBOOKS / "small.xlsx", folder / "ann.xlsx")
    assert main(["solve", str(folder), "--out-dir", str(folder)]) == 2
    assert "this folder is where the output goes" in capsys.readouterr().err
    assert sorted(p.name for p in folder.iterdir()) == ["ann.xlsx"]


@pytest.mark.parametrize("command", ["solve", "convert"])
def test_an_output_folder_inside_the_input_folder_holding_workbooks_is_refused(
    tmp_path, capsys, command
):
    """``solve in6 --out-dir in6/week2``, week2 holding the person's own puzzles: they
    were left out unread and the copy of in6/puzzle.xlsx replaced week2/puzzle.xlsx.
    Refused, nothing written; an empty output folder there is used as before, and a
    second run into it (earlier copies only) too."""
    folder = tmp_path / "in6"
    (folder / "week2").mkdir(parents=True)
    shutil.copy(WORKBOOKS / "small.xlsx", folder / "puzzle.xlsx")
    shutil.copy(HAND_MADE, folder / "week2" / "puzzle.xlsx")
    shutil.copy(HAND_MADE, folder / "week2" / "only-here.xlsx")
    own = (folder / "week2" / "puzzle.xlsx").read_bytes()
    extra = ["--to", "non"] if command == "convert" else []
    assert main([command, str(folder), "--out-dir", str(folder / "week2"), *extra]) == 2
    err = capsys.readouterr().err
    assert f"{folder}: the output folder " in err
    assert "(only-here.xlsx, puzzle.xlsx): they would not" in err  # puzzle.xlsx: other sheets
    assert (folder / "week2" / "puzzle.xlsx").read_bytes() == own
    assert sorted(p.name for p in (folder / "week2").iterdir()) == ["only-here.xlsx", "puzzle.xlsx"]
    (folder / "week2" / "only-here.xlsx").unlink()  # the same name as an input alone
    assert main([command, str(folder), "--out-dir", str(folder / "week2"), *extra]) == 2
    assert "(puzzle.xlsx): it would not be read" in capsys.readouterr().err
    assert (folder / "week2" / "puzzle.xlsx").read_bytes() == own
    for mine in (folder / "week2").iterdir():
        mine.unlink()
    for _ in range(2):  # the second run finds the first run's copy there
        assert main([command, str(folder), "--out-dir", str(folder / "week2"), *extra]) == 0
        assert len(list((folder / "week2").iterdir())) == 1


def drawn(path: Path, rows: list[str], *, outline: bool = False, table: bool = False) -> Path:
    """A drawing of fills at B3, framed by an outer border, with a bordered table."""
    wb = Workbook()
    ws = wb.active
    for (r, c), black in np.ndenumerate(picture(rows)):
        if black:
            ws.cell(3 + r, 2 + c).fill = BLACK
    if outline:
        frame(ws, 3, 2, len(rows), len(rows[0]))
    if table:
        right = 2 + len(rows[0]) + 3
        for r, (k, v) in enumerate((("Class", "7B"), ("Date", "Monday"))):
            for j, text in enumerate((k, v)):
                ws.cell(3 + r, right + j, text).border = Border(
                    left=THIN, right=THIN, top=THIN, bottom=THIN
                )
    wb.save(path)
    return path


def test_a_drawing_area_is_its_frame_and_not_a_table_beside_it(tmp_path):
    """Outside Borders round the drawing keep its empty last row; a bordered table three
    columns right is not part of it (it widened the puzzle by five empty columns)."""
    rows = [*HEART[:8], "." * 10]  # the heart's last row, empty, inside the frame
    framed = read_drawing_file(drawn(tmp_path / "framed.xlsx", rows, outline=True))
    assert framed.picture.shape == (9, 10) and np.array_equal(framed.picture, picture(rows))
    beside = read_drawing_file(drawn(tmp_path / "beside.xlsx", HEART, table=True))
    assert np.array_equal(beside.picture, picture(HEART))


def test_a_drawing_typed_in_0_and_1_keeps_a_last_row_of_0s(tmp_path):
    rows = [*HEART[:8], "." * 10]
    wb = Workbook()
    for (r, c), black in np.ndenumerate(picture(rows)):
        wb.active.cell(2 + r, 2 + c, 1 if black else 0)
    wb.save(tmp_path / "typed.xlsx")
    drawing = read_drawing_file(tmp_path / "typed.xlsx")
    assert np.array_equal(drawing.picture, picture(rows))


def test_another_solution_must_keep_the_printed_givens(tmp_path, capsys):
    """A worksheet made unique by printed givens: a pupil who clears them and hands back
    another grid that meets the clues alone has not solved the printed puzzle (it was
    graded 100 as "another solution")."""
    diagonal = ["#....", ".#...", "..#..", "...#.", "....#"]  # 120 solutions by the clues
    drawing = drawn(tmp_path / "diagonal.xlsx", diagonal)
    key = tmp_path / "key.xlsx"
    assert main(["make", str(drawing), "-o", str(key), "--mono", "--add-givens"]) in (0, 1)
    book = open_book(key)
    found = read_puzzle(book.sheet(PUZZLE_SHEET), book, givens=True)
    assert found.givens.any()
    anti = picture(diagonal)[:, ::-1]
    assert found.puzzle.is_solution(anti)  # meets the clues, breaks a given
    top, left = found.grid[:2]
    for name, grid in (("anti", anti), ("right", picture(diagonal))):
        pupil = tmp_path / f"{name}.xlsx"
        shutil.copy(key, pupil)
        copy = load_workbook(pupil)
        del copy[KEY_SHEET]
        sheet = copy[PUZZLE_SHEET]
        for (r, c), black in np.ndenumerate(grid):
            sheet.cell(top + r, left + c).fill = BLACK if black else PatternFill(fill_type=None)
        copy.save(pupil)
    capsys.readouterr()
    main(
        ["grade", str(tmp_path / "anti.xlsx"), str(tmp_path / "right.xlsx"), "--key", str(key)]
        + ["--out-dir", str(tmp_path / "g")]
    )
    out = capsys.readouterr().out
    assert "right: 0 wrong" in out and "anti: 0 wrong" not in out, out


@pytest.mark.parametrize("length", [103, 40_000])
def test_a_long_title_wraps_and_keeps_the_page(tmp_path, length, capsys):
    """A title much wider than its puzzle wraps over the print width in a taller row:
    the page keeps the puzzle's orientation (a 103-letter title widened the print area to
    55 columns and turned the page; 40,000 letters crashed with a column index error)."""
    dancer = (ROOT / "examples" / "dancer.non").read_text()
    title = ("The Dancer, from the front page of webpbn.com " * 1000)[:length]
    source = tmp_path / "long.non"
    source.write_text(dancer.replace('title "Dancer"', f'title "{title}"'))
    out = tmp_path / "long.xlsx"
    assert main(["solve", str(source), "-o", str(out)]) == 0
    ws = load_workbook(out).worksheets[0]
    assert ws.page_setup.orientation == "portrait"
    right = ws.print_area.split("!")[-1].replace("$", "").split(":")[1]
    assert len(right.rstrip("0123456789")) == 1  # still within the first 26 columns
    assert ws["A1"].alignment.wrap_text and 0 < ws.row_dimensions[1].height <= 409
    assert str(ws["A1"].value).startswith("The Dancer")


def test_credits_survive_a_round_trip_through_a_workbook(tmp_path):
    """Author, copyright, licence and catalogue number of a puzzle file ride in a note on
    the sheet's title cell and come back when the workbook is converted again (they were
    dropped: a CC-BY credit lost on the way)."""
    from xlsolver.formats import read_puzzles

    source = tmp_path / "dancer.non"
    lines = (ROOT / "examples" / "dancer.non").read_text().splitlines()
    keep = [line for line in lines if not line.startswith(("catalogue", "by ", "copyright"))]
    credits = [
        'catalogue "webpbn.com #1"',
        'by "Jan Wolter&#10;Ann"',
        'copyright "© 2004 Jan Wolter"',
    ]
    source.write_text("\n".join([*credits, "license CC-BY-3.0", *keep]) + "\n")
    book = tmp_path / "dancer.xlsx"
    assert main(["convert", str(source), "-o", str(book)]) == 0
    note = load_workbook(book).worksheets[0]["A1"].comment.text
    assert "by: Jan Wolter Ann\n" in note and "license: CC-BY-3.0" in note  # one line each
    back = tmp_path / "back.non"
    assert main(["convert", str(book), "-o", str(back)]) == 0
    (original,) = read_puzzles(source)
    (again,) = read_puzzles(back)
    assert again.meta["by"] == "Jan Wolter Ann"  # the line break a space, not the end
    for key in ("copyright", "license", "catalogue"):
        assert again.meta[key] == original.meta[key], key
    assert (again.rows, again.cols) == (original.rows, original.cols)
    # through webpbn XML too: the licence as a note, the catalogue number as the id
    xml = tmp_path / "dancer.xml"
    assert main(["convert", str(source), "-o", str(xml)]) == 0
    assert "<note>license: CC-BY-3.0</note>" in xml.read_text()
    xml.write_text(xml.read_text().replace("<note>license:", "<note>License:"))  # by hand
    (from_xml,) = read_puzzles(xml)
    assert from_xml.meta["by"] == "Jan Wolter Ann"
    for key in ("copyright", "license", "catalogue"):
        assert from_xml.meta[key] == original.meta[key], key


@pytest.mark.parametrize("mono", [True, False])
def test_a_worksheet_made_of_a_credited_puzzle_prints_its_credit(tmp_path, mono):
    """make dropped the author, copyright and licence: a teacher handing out the sheet
    hands out the puzzle. Both printed sheets carry them at the foot of the page, and the
    title cell's note; a worksheet made again from the made one keeps them."""
    source = tmp_path / "rainbow.non"
    lines = (ROOT / "examples" / "nonny-rainbow.non").read_text().splitlines()
    source.write_text("\n".join(["license CC-BY-SA-4.0", *lines]) + "\n")
    out = tmp_path / "sheet.xlsx"
    assert main(["make", str(source), "-o", str(out), *(["--mono"] if mono else [])]) == 0
    wb = load_workbook(out)
    for name in (PUZZLE_SHEET, KEY_SHEET):
        ws = wb[name]
        assert ws.oddFooter.center.text == "by Gregory Kikola · CC-BY-SA-4.0", name
        assert "license: CC-BY-SA-4.0" in ws["A1"].comment.text
    again = tmp_path / "again.xlsx"
    assert main(["make", str(out), "-o", str(again), *(["--mono"] if mono else [])]) == 0
    assert load_workbook(again)[PUZZLE_SHEET].oddFooter.center.text == (
        "by Gregory Kikola · CC-BY-SA-4.0"
    )


def test_reasons_say_one_cell_and_stages_are_counted(tmp_path, capsys):
    """ "runs 1 cells" read oddly to pupils; ``--stages -3`` gave no stage sheet silently."""
    from xlsolver.hints.words import say

    assert say("en", "edge", where="column 5", cell=1, side="the edge", m=1).endswith(
        "so it runs 1 cell"
    )
    assert say("en", "overlap_exact", clue=1, free=1) == "clue 1 fits exactly in its 1 free cell"
    assert say("en", "overlap_exact", clue=2, free=21).endswith("its 21 free cells")
    assert say("en", "attach", where="row 2", i=3, clue=2, count=1).endswith("1 more cell is black")
    with pytest.raises(SystemExit) as stop:
        main(
            ["hints", str(ROOT / "examples" / "dancer.non"), "-o", str(tmp_path / "h.xlsx")]
            + ["--stages", "-3"]
        )
    assert stop.value.code == 2 and "give 0 or more" in capsys.readouterr().err


def test_an_output_folder_that_cannot_be_made_stops_its_file_alone(tmp_path, capsys):
    """One sub-folder of --out-dir that cannot be made (a file has its name, or it is
    read-only) stopped the whole batch before any file was solved."""
    folder = tmp_path / "class"
    for sub, name in (("a", "x.xlsx"), ("b", "y.xlsx"), ("", "z.xlsx")):
        (folder / sub).mkdir(parents=True, exist_ok=True)
        shutil.copy(WORKBOOKS / "small.xlsx", folder / sub / name)
    out = tmp_path / "out"
    out.mkdir()
    (out / "a").write_text("a file where the folder a would go")
    code = main(["solve", str(folder), "--out-dir", str(out), "--jobs", "2"])
    captured = capsys.readouterr()
    assert code == 2
    bad = [line for line in captured.err.splitlines() if "x.xlsx" in line]
    assert len(bad) == 1 and "must be a folder" in bad[0], captured.err
    assert (out / "b" / "y.xlsx").exists() and (out / "z.xlsx").exists()
    assert "y.xlsx" in captured.out and "z.xlsx" in captured.out


# ---- xlsx as other writers leave it --------------------------------------------------


def formula_book(path: Path) -> Path:
    """The boat with every clue a formula whose value the file saved (as Excel does)."""
    from corpus import box, excel_saved

    rows, cols = clues_of(BOAT)
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    saved = {}
    for i, clues in enumerate(rows):
        for k, v in enumerate(clues):
            ref = f"{chr(ord('F') - len(clues) + k)}{6 + i}"
            ws[ref], saved[ref] = f"={v}+0", v
    for j, clues in enumerate(cols):
        for k, v in enumerate(clues):
            ref = f"{chr(ord('F') + j)}{6 - len(clues) + k}"
            ws[ref], saved[ref] = f"={v}+0", v
    box(ws, 6, 6, len(BOAT), len(BOAT[0]))
    wb.save(path)
    excel_saved(path, saved)
    FORMULA_CLUES[path] = saved
    return path


FORMULA_CLUES: dict[Path, dict[str, int]] = {}  # per book of formula_book: cell → value


def test_a_painted_copy_keeps_the_values_its_formulas_had(tmp_path, capsys):
    """openpyxl writes formulas without values: the painted copy of a sheet whose clues
    are formulas could not be read again ("no saved value"), and --in-place made the
    user's own file unreadable for the next run."""
    source = formula_book(tmp_path / "formulas.xlsx")
    copy = tmp_path / "copy.xlsx"
    assert main(["solve", str(source), "-o", str(copy)]) == 0
    assert main(["check", str(copy)]) == 0
    saved = load_workbook(copy, data_only=True).active
    formulas = load_workbook(copy).active
    for ref, value in FORMULA_CLUES[source].items():  # formula and value both kept
        assert formulas[ref].value == f"={value}+0" and saved[ref].value == value, ref
    mine = tmp_path / "mine.xlsx"
    shutil.copy(source, mine)
    for _ in range(2):
        assert main(["solve", str(mine), "--in-place"]) == 0
    capsys.readouterr()


def test_error_values_fills_and_float_noise_as_other_writers_leave_them(tmp_path, capsys):
    """#N/A in a clue band is named (it was taken for a note and another cell blamed);
    a fill of indexed colour 64 or "automatic" is black (as Calc shows it: a wrong
    given was passed over); a clue saved as 4.0000000000000009 reads 4."""
    from corpus import puzzle_at

    def book(name: str, edit) -> Path:
        wb = Workbook()
        ws = wb.active
        ws.title = "Puzzle"
        puzzle_at(ws, BOAT, 6, 6)
        edit(ws)
        wb.save(tmp_path / name)
        return tmp_path / name

    first_row_clue = next(
        c for c in load_workbook(book("plain.xlsx", lambda ws: None)).active[6] if c.value
    )
    ref = first_row_clue.coordinate
    failed = book("failed.xlsx", lambda ws: ws.__setitem__(ref, "#N/A"))
    assert main(["check", str(failed)]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith(f"Puzzle!{ref}: clue #N/A is an error value (a formula that failed)")
    )
    noisy = book("noisy.xlsx", lambda ws: ws.__setitem__(ref, ws[ref].value + 9e-16))
    assert main(["check", str(noisy)]) == 0
    white = next((r, c) for r, row in enumerate(BOAT) for c, ch in enumerate(row) if ch == ".")
    for colour in (Color(indexed=64), Color(auto=True)):

        def mark(ws, colour=colour):
            ws.cell(6 + white[0], 6 + white[1]).fill = PatternFill("solid", fgColor=colour)

        given = book("given.xlsx", mark)
        assert main(["solve", str(given), "--givens"]) == 1  # the black mark breaks it
        assert "disagrees with the marked cell" in capsys.readouterr().out  # nothing painted


@pytest.mark.libreoffice
def test_a_failed_formula_clue_is_named_through_calc_as_in_the_file(tmp_path):
    """A clue cell whose formula fails (=1/0): Calc's data array gave it as empty, so a
    sheet read through LibreOffice said "rows hold 36 black cells, columns 46" naming no
    cell (two such clues could even balance and solve another puzzle); it is named as
    the command line names it in the .xlsx Calc saved."""
    from corpus import puzzle_at

    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    puzzle_at(ws, BOAT, 6, 6)
    ref = next(c for c in ws[6] if c.value).coordinate
    ws[ref] = "=1/0"
    wb.save(tmp_path / "failed.xlsx")
    ods = soffice_convert(tmp_path / "failed.xlsx", "ods", tmp_path)
    (tmp_path / "back").mkdir()
    again = soffice_convert(ods, "xlsx", tmp_path / "back")
    want = f"Puzzle!{ref}: clue #DIV/0! is an error value (a formula that failed)"
    for path in (ods, again):
        report = solve_workbook(path, None, SolveOptions())
        assert report.error.endswith(want), report.error


def test_a_strict_open_xml_workbook_is_named_as_such(tmp_path, capsys):
    """Excel's "Strict Open XML" save: openpyxl read its sheets as empty ("no clues")."""
    import zipfile

    source = formula_book(tmp_path / "plain.xlsx")
    strict = tmp_path / "strict.xlsx"
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(strict, "w") as zout:
        for item in zin.infolist():
            body = zin.read(item)
            if item.filename == "xl/workbook.xml":
                body = body.replace(
                    b"http://schemas.openxmlformats.org/spreadsheetml/2006/main",
                    b"http://purl.oclc.org/ooxml/spreadsheetml/main",
                )
            zout.writestr(item, body)
    assert main(["solve", str(strict)]) == 2
    assert "a Strict Open XML workbook" in capsys.readouterr().err


@pytest.mark.libreoffice
def test_libreoffice_opens_a_copy_with_saved_values_put_back(tmp_path):
    source = formula_book(tmp_path / "formulas.xlsx")
    copy = tmp_path / "copy.xlsx"
    assert main(["solve", str(source), "-o", str(copy)]) == 0
    out = tmp_path / "lo"
    out.mkdir()
    csv = soffice_convert(copy, "csv", out)
    assert "1" in csv.read_text()
    again = soffice_convert(copy, "xlsx", out)
    assert main(["check", str(again)]) == 0


# ---- a helper sheet hidden from the user, lines of totals beside a grid ----------------


def with_helper_sheet(path: Path, *, hidden: bool) -> Path:
    """The boat on sheet Puzzle and a sheet of numbers and a word (a helper's sums)."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    put_bands(ws, *clues_of(BOAT), 6, 6)
    helper = wb.create_sheet("Sums")
    helper["A1"] = "x"
    for r in range(3, 9):
        for c in range(3, 8):
            helper.cell(r, c, 2 + (r * c) % 7)
    helper["B3"], helper["C2"] = 3, 4
    if hidden:
        helper.sheet_state = "hidden"
    wb.save(path)
    return path


def test_a_hidden_helper_sheet_that_holds_no_puzzle_is_passed_over(tmp_path, capsys):
    """A sheet the user cannot see stopped `solve` (its "x" is not a clue) while `check`
    read the Puzzle sheet; shown, the same sheet is still named (no header row: it could
    be a puzzle with a typo, not a table of data)."""
    shown = solve_workbook(
        with_helper_sheet(tmp_path / "shown.xlsx", hidden=False), None, SolveOptions()
    )
    assert "Sums!A1" in shown.error and "--sheet 'Puzzle'" in shown.error
    path = with_helper_sheet(tmp_path / "hidden.xlsx", hidden=True)
    before = path.read_bytes()
    report = solve_workbook(path, tmp_path / "out.xlsx", SolveOptions())
    assert not report.error, report.error
    (sheet,) = report.sheets
    assert sheet.record["range"] == "Puzzle!F6:M11"
    assert Puzzle.from_solution(picture(BOAT)).is_solution(grid_of(sheet.record))
    assert sheet.record["ignored"][0].startswith("Sums hidden sheet passed over (Sums!A1: ")
    assert path.read_bytes() == before
    assert load_workbook(tmp_path / "out.xlsx")["Sums"].sheet_state == "hidden"
    assert main(["solve", str(path)]) == 0
    assert "\n  not read as clues: Sums hidden sheet passed over (Sums!A1: " in (
        capsys.readouterr().out
    )


@pytest.mark.libreoffice
def test_calc_passes_over_a_hidden_helper_sheet_too(tmp_path):
    """The same workbook as an .ods, read through LibreOffice (Calc's IsVisible)."""
    ods = soffice_convert(with_helper_sheet(tmp_path / "hidden.xlsx", hidden=True), "ods", tmp_path)
    report = solve_workbook(ods, None, SolveOptions())
    assert not report.error, report.error
    assert [s.record["range"] for s in report.sheets] == ["Puzzle!F6:M11"]


def test_the_range_offered_for_clues_on_both_sides_reads_the_puzzle(tmp_path, capsys):
    """A check column whose one total is wrong is not set aside: the message names both
    bands and offers the range that reads the clues left of the grid, which works."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    put_bands(ws, *clues_of(BOAT), 6, 6)
    for i, row in enumerate(BOAT):
        ws.cell(6 + i, 15, row.count("#") + (i == 4))  # row 10's total is one too many
    wb.save(tmp_path / "totals.xlsx")
    assert main(["solve", str(tmp_path / "totals.xlsx")]) == 2
    error = capsys.readouterr().err
    assert "Puzzle!F6:M11: clues on both sides of the grid (E6:E11 and O6:O11)" in error, error
    offered = re.search(r"--range (\S+)$", error.strip()).group(1)
    assert main(["solve", str(tmp_path / "totals.xlsx"), "--range", offered, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert Puzzle.from_solution(picture(BOAT)).is_solution(grid_of(record))


# ---- control characters in titles -----------------------------------------------------


def test_control_characters_in_a_title_are_dropped_not_a_crash(tmp_path, capsys):
    """A raw BEL byte in a .non title crashed every workbook writer (openpyxl refuses
    it) and was written raw into webpbn XML, which no XML reader then loads."""
    src = tmp_path / "bell.non"
    src.write_bytes(
        b'title "Bel\x07l\x0bs"\nauthor "Ann\x01"\nwidth 2\nheight 1\nrows\n1\ncolumns\n1\n0\n'
    )
    good = tmp_path / "good.non"
    good.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    for suffix in ("xlsx", "xml", "json", "non"):
        out = tmp_path / f"bell-out.{suffix}"
        assert main(["convert", str(src), "-o", str(out)]) == 0, capsys.readouterr().err
        data = out.read_bytes()
        assert not re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]", data if suffix != "xlsx" else b"")
        assert main(["solve", str(out), "--json"]) == 0
        record = json.loads(capsys.readouterr().out.splitlines()[-1])
        assert record["solutions"] == [["#."]]
    import xml.dom.minidom

    assert "<title>Bells</title>" in (tmp_path / "bell-out.xml").read_text()
    xml.dom.minidom.parse(str(tmp_path / "bell-out.xml"))  # well-formed
    assert load_workbook(tmp_path / "bell-out.xlsx").active["A1"].value == "Bells"
    # in a folder converted to workbooks, every file is written
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(src, folder / "bell.non")
    shutil.copy(good, folder / "good.non")
    assert main(["convert", str(folder), "--out-dir", str(tmp_path / "out"), "--to", "xlsx"]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["bell.xlsx", "good.xlsx"]


def test_outputs_of_one_name_are_told_apart_not_refused(tmp_path, capsys):
    """Three folders holding same.non each, and a.non beside a.xlsx: solve refused the
    three-folder batch whole, convert --out-dir refused the other; both now write every
    file under a name of its own and say which was renamed."""
    dancer = ROOT / "examples" / "dancer.non"
    folders = []
    for name in ("s1", "s2", "s3"):
        (tmp_path / name).mkdir()
        shutil.copy(dancer, tmp_path / name / "same.non")
        folders.append(str(tmp_path / name))
    out = tmp_path / "out"
    assert main(["solve", *folders, "--out-dir", str(out)]) == 0
    err = capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["same (2).xlsx", "same.non.xlsx", "same.xlsx"]
    assert f"s3/same.non is written as {out}/same (2).xlsx" in err
    both = tmp_path / "both"
    both.mkdir()
    shutil.copy(dancer, both / "a.non")
    shutil.copy(WORKBOOKS / "small.xlsx", both / "a.xlsx")
    conv = tmp_path / "conv"
    assert main(["convert", str(both), "--out-dir", str(conv), "--to", "xlsx"]) == 0
    assert sorted(p.name for p in conv.iterdir()) == ["a.non.xlsx", "a.xlsx"]
    assert load_workbook(conv / "a.non.xlsx").active.title == "Dancer"
    for name in ("w1", "w2"):  # two workbooks of one name: the second numbered
        (tmp_path / name).mkdir()
        shutil.copy(WORKBOOKS / "small.xlsx", tmp_path / name / "small.xlsx")
    books = tmp_path / "books"
    capsys.readouterr()
    assert main(["solve", str(tmp_path / "w1"), str(tmp_path / "w2"), "--out-dir", str(books)]) == 0
    assert sorted(p.name for p in books.iterdir()) == ["small (2).xlsx", "small.xlsx"]


def test_make_json_names_the_input_as_its_source(tmp_path, capsys):
    """make --json gave the output's name and size as "source" ("mj.xlsx (5×10)")."""
    out = tmp_path / "made.xlsx"
    source = str(ROOT / "examples" / "dancer.non")
    assert main(["make", source, "-o", str(out), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["source"] == source and record["output"] == str(out)
    assert (record["width"], record["height"], record["status"]) == (5, 10, "unique")


def test_a_puzzle_titled_history_gets_a_sheet_name_excel_allows(tmp_path):
    """Excel refuses a sheet named History (it keeps the name for itself)."""
    source = tmp_path / "h.non"
    lines = (ROOT / "examples" / "dancer.non").read_text().replace('"Dancer"', '"History"')
    source.write_text(lines)
    book = tmp_path / "h.xlsx"
    assert main(["convert", str(source), "-o", str(book)]) == 0
    assert load_workbook(book).sheetnames == ["History puzzle"]
    back = tmp_path / "back.non"
    assert main(["convert", str(book), "-o", str(back)]) == 0
    assert 'title "History"' in back.read_text()


def test_a_row_of_totals_under_a_colour_template_is_set_aside(tmp_path, capsys):
    """The colour legend under the grid ("colours", then the letters) ran into the row
    of totals typed above it: the sheet was refused with a width error."""
    sheet = tmp_path / "tree.xlsx"
    assert main(["convert", str(DATA / "nonny-tree.non"), "-o", str(sheet)]) == 0
    wb = load_workbook(sheet)
    ws = wb.active
    puzzle = read_puzzle(open_book(sheet).sheets()[0]).puzzle
    top, left = 7, 4  # the template's grid corner for this puzzle
    assert ws.cell(top, left - 1).value is not None and ws.cell(top - 1, left).value is not None
    for j, clues in enumerate(puzzle.cols):
        ws.cell(top + puzzle.height, left + j, sum(n for n, _ in clues))
    wb.save(sheet)
    capsys.readouterr()
    assert main(["solve", str(sheet), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["ignored"] == ["D17:M17 totals"]


def test_a_long_credit_is_cut_to_what_excel_takes_in_a_footer(tmp_path):
    """Excel takes 255 characters in a header or footer; the note keeps the whole."""
    source = tmp_path / "long.non"
    long = "Copyright 2026 " + "The Puzzle Cooperative & Friends of Greater Northumberland, " * 6
    text = (ROOT / "examples" / "dancer.non").read_text()
    source.write_text(
        text.replace('copyright "&copy; Copyright 2004 by Jan Wolter"', f'copyright "{long}"')
    )
    book = tmp_path / "long.xlsx"
    assert main(["convert", str(source), "-o", str(book)]) == 0
    ws = load_workbook(book).active
    footer = ws.oddFooter.center.text
    assert len(footer) <= 240 and footer.endswith("…") and "&&" in footer
    assert long.strip() in ws["A1"].comment.text


@pytest.mark.libreoffice
def test_graph_paper_reads_alike_through_calc(tmp_path, capsys):
    """A sheet of borders alone (graph paper) had a used range in Calc that began where
    the first heavier line did, not at A1 as openpyxl's: the two back ends read another
    board. Both now take fills and border lines into the used range."""
    medium, thin = Side(style="medium"), Side(style="thin")
    wb = Workbook()
    ws = wb.active
    ws.title = "Board"
    for r in range(1, 13):
        for c in range(1, 15):
            inside = 3 <= r <= 8 and 3 <= c <= 12
            heavy = {"top": r == 3, "bottom": r == 8, "left": c == 3, "right": c == 12}
            ws.cell(r, c).border = Border(
                **{k: medium if inside and edge else thin for k, edge in heavy.items()}
            )
    wb.save(tmp_path / "paper.xlsx")
    ods = soffice_convert(tmp_path / "paper.xlsx", "ods", tmp_path)
    from xlsolver.workbook.files import close_book
    from xlsolver.workbook.files import open_book as open_any

    used = []
    for path in (tmp_path / "paper.xlsx", ods):
        book = open_any(path)
        try:
            used.append(book.sheets()[0].used_range())
        finally:
            close_book(book)
    assert used == [(1, 1, 12, 14), (1, 1, 12, 14)]
    for path in (tmp_path / "paper.xlsx", ods):
        assert main(["pentomino", str(path), "--count", "-q"]) == 0
        assert "Board!C3:L8: 2339 distinct tilings" in capsys.readouterr().out


def test_an_own_workbook_named_as_a_puzzle_files_copy_is_not_replaced(tmp_path, capsys):
    """The person's week2/dancer.xlsx beside an input dancer.non: the copy of the puzzle
    file would have replaced it (a copy's sheets are the puzzles' titles, not its sheets);
    the earlier copy itself is taken for one, and the second run goes on."""
    folder = tmp_path / "t3"
    (folder / "week2").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "dancer.non", folder / "dancer.non")
    shutil.copy(HAND_MADE, folder / "week2" / "dancer.xlsx")
    own = (folder / "week2" / "dancer.xlsx").read_bytes()
    argv = ["solve", str(folder), "--out-dir", str(folder / "week2")]
    assert main(argv) == 2
    assert "(dancer.xlsx): it would not be read" in capsys.readouterr().err
    assert (folder / "week2" / "dancer.xlsx").read_bytes() == own
    (folder / "week2" / "dancer.xlsx").unlink()
    assert main(argv) == 0 and main(argv) == 0  # the copy, then a second run over it
    assert load_workbook(folder / "week2" / "dancer.xlsx").sheetnames == ["Dancer"]


def test_a_clue_error_under_a_header_of_words_names_the_clue_not_the_header(tmp_path):
    """An unboxed puzzle right under a header row ``Puzzle | by | Ann`` with a clue too
    long for its row: the error named a word of the header (``clue "by" is not a
    number``), which the reading without notes sets aside; it names the clue, as without
    the header."""
    rows, cols = clues_of(BOAT)
    rows = [(9,), *rows[1:]]  # 9 in an 8-wide row
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    for j, word in enumerate(["Puzzle", "by", "Ann"], start=1):
        ws.cell(3, j, word)  # right above the column clues (rows 4 and 5)
    put_bands(ws, rows, cols, 6, 2)
    path = tmp_path / "headed.xlsx"
    wb.save(path)
    report = solve_workbook(path, None, SolveOptions())
    assert "row 1" in report.error and "9 need 9 cells but the grid is 8 wide" in report.error
    assert '"by"' not in report.error and '"Ann"' not in report.error, report.error


@pytest.mark.parametrize(
    "typed",
    [
        lambda c: " – ".join(map(str, c)),  # en dash: what AutoCorrect makes of " - "
        lambda c: "—".join(map(str, c)),  # em dash
        lambda c: " − ".join(map(str, c)),  # U+2212 minus sign
        lambda c: "·".join(map(str, c)),  # U+00B7 middle dot
        lambda c: "•".join(map(str, c)),  # bullet
        lambda c: ",".join(map(str, c)) + ",",  # a trailing comma
    ],
    ids=["en-dash", "em-dash", "minus-sign", "middle-dot", "bullet", "trailing-comma"],
)
def test_dashes_dots_and_a_trailing_comma_separate_clues_typed_in_one_cell(tmp_path, capsys, typed):
    """Clues typed one line to a cell with an en dash (AutoCorrect's " - "), an em dash,
    a minus sign, a middle dot, a bullet or a trailing comma: refused as 'clue "1 – 1" is
    not a number' though "1 - 1" was read; read as "-" is."""
    from corpus import puzzle_at

    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    grid = puzzle_at(ws, BOAT, 6, 6, cell=typed)
    wb.save(tmp_path / "typed.xlsx")
    assert main(["solve", str(tmp_path / "typed.xlsx"), "--json"]) == 0, capsys.readouterr().err
    record = json.loads(capsys.readouterr().out)
    assert record["range"] == f"Puzzle!{grid}" and record["status"] == "unique"
    assert np.array_equal(grid_of(record), picture(BOAT))


def test_template_formulas_xlsxwriter_saved_as_empty_text_are_empty_places(tmp_path, capsys):
    """xlsxwriter saves ``=IF(…,"")`` given the result ``""`` as an empty ``<v></v>``
    without ``t="str"``: the command line said 'the formula =IF(1>2,0,"") has no saved
    value' where Calc solved the file; such a place is empty. A formula the file keeps no
    ``<v>`` for, and one given ``""`` that cannot give empty text (xlsxwriter's way to ask
    for recalculation), are still refused; so is a file openpyxl wrote (tested above)."""
    import zipfile

    import xlsxwriter

    rows, cols = clues_of(BOAT)
    depth = max(len(c) for c in rows + cols)

    def book(name: str, filler: str = '=IF(1>2,0,"")') -> Path:
        path = tmp_path / name
        wb = xlsxwriter.Workbook(str(path))
        ws = wb.add_worksheet("Puzzle")
        boxed = wb.add_format({"border": 1})
        for i, clues in enumerate(rows):
            for k in range(depth):
                at = k - depth + len(clues)
                if at >= 0:
                    ws.write_number(5 + i, 5 - depth + k, clues[at])
                else:
                    ws.write_formula(5 + i, 5 - depth + k, filler, None, "")
            for j in range(len(cols)):
                ws.write_blank(5 + i, 5 + j, None, boxed)
        for j, clues in enumerate(cols):
            for k, clue in enumerate(clues):
                ws.write_number(5 - len(clues) + k, 5 + j, clue)
        wb.close()
        return path

    path = book("xw.xlsx")
    assert main(["solve", str(path), "--json"]) == 0, capsys.readouterr().err
    record = json.loads(capsys.readouterr().out)
    assert record["range"] == "Puzzle!F6:M11" and record["status"] == "unique"
    assert np.array_equal(grid_of(record), picture(BOAT))
    (found,) = find_puzzles(open_book(path))
    assert list(found.puzzle.rows) == rows and list(found.puzzle.cols) == cols

    no_value = tmp_path / "no-value.xlsx"  # D6's formula kept without any <v>
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(no_value, "w") as zout:
        for item in zin.infolist():
            body = zin.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                body = re.sub(rb'(<c r="D6"><f>[^<]*</f>)<v></v>', rb"\1", body)
            zout.writestr(item, body)
    assert main(["check", str(no_value)]) == 2
    err = capsys.readouterr().err
    assert 'Puzzle!D6: the formula =IF(1>2,0,"") has no saved value' in err, err
    assert main(["check", str(book("recalc.xlsx", filler="=2-2"))]) == 2
    assert "the formula =2-2 has no saved value" in capsys.readouterr().err
    painted = tmp_path / "painted.xlsx"  # openpyxl writes the copy: "" kept as t="str"
    assert main(["solve", str(path), "-o", str(painted)]) == 0
    assert main(["check", str(painted)]) == 0
    capsys.readouterr()

    resaved = tmp_path / "resaved.xlsx"  # saved again by openpyxl, which keeps no values
    load_workbook(path).save(resaved)
    lxml_like = tmp_path / "lxml-like.xlsx"  # <v></v> as openpyxl writes it with lxml
    with zipfile.ZipFile(resaved) as zin, zipfile.ZipFile(lxml_like, "w") as zout:
        for item in zin.infolist():
            zout.writestr(item, re.sub(rb"<v\s*/>", b"<v></v>", zin.read(item)))
    for unsaved in (resaved, lxml_like):
        assert main(["check", str(unsaved)]) == 2
        assert "Puzzle!D6: the formula" in capsys.readouterr().err


def zero_padded(path: Path, how: str) -> Path:
    """BOAT as a template whose unused clue places hold 0, shown blank by their number
    format ``0;-0;;@`` (``how="format"``), by the sheet's "show zeros" off (``"sheet"``),
    or shown (``"shown"``)."""
    rows, cols = clues_of(BOAT)
    depth = max(len(c) for c in rows + cols)
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    put_bands(ws, rows, cols, 6, 6)
    places = [(6 + i, 6 - depth + k) for i in range(len(rows)) for k in range(depth)]
    places += [(6 - depth + k, 6 + j) for j in range(len(cols)) for k in range(depth)]
    for r, c in places:
        if ws.cell(r, c).value is None:
            ws.cell(r, c).value = 0
        if how == "format":
            ws.cell(r, c).number_format = "0;-0;;@"
    for r in range(6, 6 + len(rows)):
        for c in range(6, 6 + len(cols)):
            ws.cell(r, c).border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
    ws.sheet_view.showZeros = how != "sheet"
    wb.save(path)
    return path


@pytest.mark.parametrize("how", ["format", "sheet"])
def test_zeros_the_sheet_shows_as_blank_are_empty_clue_places(tmp_path, capsys, how):
    """Unused clue places holding 0 hidden by the format ``0;-0;;@`` or by the sheet's
    "show zeros" off: the user sees only the clues, and the command line (and Calc's
    button) said 'row 1 (Puzzle!C6:E6): clue 0 stands among other clues (0 0 1)'.
    They are empty places; zeros the sheet shows are still refused."""
    path = zero_padded(tmp_path / f"{how}.xlsx", how)
    assert main(["solve", str(path), "--json"]) == 0, capsys.readouterr().err
    record = json.loads(capsys.readouterr().out)
    assert record["range"] == "Puzzle!F6:M11" and record["status"] == "unique"
    assert np.array_equal(grid_of(record), picture(BOAT))
    (found,) = find_puzzles(open_book(path))
    rows, cols = clues_of(BOAT)
    assert list(found.puzzle.rows) == rows and list(found.puzzle.cols) == cols
    shown = zero_padded(tmp_path / "shown.xlsx", "shown")
    assert main(["check", str(shown)]) == 2
    assert "clue 0 stands among other clues (0 1)" in capsys.readouterr().err


@pytest.mark.libreoffice
@pytest.mark.parametrize("how", ["format", "sheet"])
def test_zeros_shown_as_blank_read_as_empty_places_through_calc(tmp_path, how):
    """The same templates saved as .ods by LibreOffice and read through Calc (as the
    Calc buttons read them): Calc's "Zero values" view option off, or the format."""
    ods = soffice_convert(zero_padded(tmp_path / f"{how}.xlsx", how), "ods", tmp_path)
    report = solve_workbook(ods, None, SolveOptions())
    assert not report.error, report.error
    (sheet,) = report.sheets
    assert sheet.status == "unique" and sheet.record["range"] == "Puzzle!F6:M11"
    assert np.array_equal(grid_of(sheet.record), picture(BOAT))

"""Solving workbooks end to end: painted cells checked against the clues, input untouched."""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from xlsolver.cli import main as cli_main
from xlsolver.commands.solve_workbooks import run_workbooks
from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.sheets.openpyxl_sheet import new_book, open_book
from xlsolver.workbook import read_puzzle, write_template
from xlsolver.workbook.layout import find_puzzles

SAMPLES = Path(__file__).resolve().parents[1] / "workbooks"
GREY, WHITE, RED, BLACK = "#808080", "#FFFFFF", "#FF0000", "#000000"


def args(**kw) -> argparse.Namespace:
    """Arguments as the solve command passes them."""
    base = dict(json=False, first=False, time_limit=None, output=None, out_dir=None)
    base.update(in_place=False, sheet=None, jobs=1, givens=False, answer_key=False)
    base.update(kw)
    return argparse.Namespace(**base)


def painted_solution(path: Path, sheet: str | None = None) -> tuple[Puzzle, np.ndarray, list]:
    """The puzzle of a painted sheet, its grey cells as a solution, and the raw fills."""
    book = open_book(path)
    s = book.sheet(sheet) if sheet else book.sheets()[0]
    found = read_puzzle(s, book)
    fills = s.read_fills(found.grid)
    diagonals = s.read_diagonals(found.grid)
    for row_f, row_d in zip(fills, diagonals, strict=True):
        for f, d in zip(row_f, row_d, strict=True):
            assert f in (GREY, WHITE) and d == (f == WHITE)
    return found.puzzle, np.array([[f == GREY for f in row] for row in fills]), fills


@pytest.mark.parametrize("name", ["small.xlsx", "picture-25x25.xlsx", "spiral-50x50.xlsx"])
def test_samples_are_painted_cell_by_cell(tmp_path, name, capsys):
    source = SAMPLES / name
    before = source.read_bytes()
    assert run_workbooks(args(output=str(tmp_path / name)), [source]) == 0
    assert source.read_bytes() == before
    puzzle, solution, _ = painted_solution(tmp_path / name)
    assert puzzle.is_solution(solution)
    assert "unique solution painted" in capsys.readouterr().out


def test_several_sheets_json_and_parallel_jobs(tmp_path, capsys):
    sources = [SAMPLES / "layouts.xlsx", SAMPLES / "small.xlsx"]
    assert run_workbooks(args(out_dir=str(tmp_path), jobs=2, json=True), sources) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["sheet"], r["index"], r["status"]) for r in records] == [
        ("Heart", 2, "unique"),
        ("Arrow", 3, "unique"),
        ("Puzzle", 1, "unique"),
    ]
    for sheet in ("Heart", "Arrow"):
        puzzle, solution, _ = painted_solution(tmp_path / "layouts.xlsx", sheet)
        assert puzzle.is_solution(solution)


def test_several_solutions_paints_common_cells_only(tmp_path, capsys):
    out = tmp_path / "s.xlsx"
    assert run_workbooks(args(output=str(out)), [SAMPLES / "several-solutions.xlsx"]) == 0
    book = open_book(out)
    found = read_puzzle(book.sheets()[0], book)
    fills = np.array(book.sheets()[0].read_fills(found.grid), dtype=object)
    every = [
        sol
        for bits in itertools.product([False, True], repeat=9)
        if found.puzzle.is_solution(sol := np.array(bits).reshape(3, 3))
    ]
    assert len(every) >= 2
    common = np.all([s == every[0] for s in every], axis=0)
    assert ((fills != None) == common).all()  # noqa: E711
    assert all((fills[common] == GREY) == every[0][common])
    assert "4 undecided" in capsys.readouterr().out


def test_contradiction_paints_red_and_exits_1(tmp_path, capsys):
    out = tmp_path / "c.xlsx"
    assert run_workbooks(args(output=str(out)), [SAMPLES / "contradiction.xlsx"]) == 1
    book = open_book(out)
    found = read_puzzle(book.sheets()[0], book)
    fills = [f for row in book.sheets()[0].read_fills(found.grid) for f in row]
    assert RED in fills
    assert "contradiction" in capsys.readouterr().out


def test_without_an_output_the_verdict_is_given_and_nothing_said_painted(tmp_path, capsys):
    """A run that writes nothing paints nothing: each puzzle's line gives its verdict
    (it said "unique solution painted", "painted the cells common to all", "painted what
    was proved; red where it shows" though no cell was), and the same file written with
    -o says painted."""
    samples = [SAMPLES / n for n in ("small.xlsx", "several-solutions.xlsx", "contradiction.xlsx")]
    assert run_workbooks(args(), samples) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert "painted" not in out, out
    assert ": unique solution (" in lines[0], lines
    assert ": several solutions; 4 undecided: B5, D5, B7, D7 (" in lines[1], lines
    assert ": contradiction: no solution; it shows at C5 (" in lines[2], lines
    assert "(nothing written: use -o FILE, --out-dir DIR or --in-place" in err
    assert run_workbooks(args(json=True), samples[:1]) == 0
    assert json.loads(capsys.readouterr().out)["message"] == "unique solution"
    assert run_workbooks(args(out_dir=str(tmp_path)), samples) == 1
    lines = capsys.readouterr().out.splitlines()
    assert ": unique solution painted (" in lines[0], lines
    assert ": several solutions: painted the cells common to all; 4 undecided" in lines[1]
    assert ": contradiction: no solution; painted what was proved; red where it shows" in lines[2]


def test_answer_key_is_black(tmp_path):
    out = tmp_path / "k.xlsx"
    assert run_workbooks(args(output=str(out), answer_key=True), [SAMPLES / "small.xlsx"]) == 0
    book = open_book(out)
    found = read_puzzle(book.sheets()[0], book)
    fills = book.sheets()[0].read_fills(found.grid)
    solution = np.array([[f == BLACK for f in row] for row in fills])
    assert found.puzzle.is_solution(solution)


def test_bad_input_writes_nothing_and_exits_2(tmp_path, capsys):
    book = new_book()
    write_template(book.sheets()[0], Puzzle.from_clues([[1], [1]], [[1], [1]]))
    book.sheets()[0].ws["B4"] = "x"
    bad = book.save(tmp_path / "bad.xlsx")
    before = bad.read_bytes()
    out = tmp_path / "out.xlsx"
    assert run_workbooks(args(output=str(out)), [bad]) == 2
    assert not out.exists() and bad.read_bytes() == before
    assert capsys.readouterr().err == f'xlsolver: {bad}: Sheet1!B4: clue "x" is not a number\n'
    text = tmp_path / "notes.xlsx"
    text.write_text("hello")
    assert run_workbooks(args(out_dir=str(tmp_path / "o")), [text]) == 2
    assert not (tmp_path / "o" / "notes.xlsx").exists()


def test_formula_clues_a_writer_never_calculated_are_an_error_not_an_empty_grid(tmp_path, capsys):
    """xlsxwriter saves 0 for every formula and asks for recalculation on opening: those
    zeros are not clues (they read as a blank, 'unique' grid before); saved values are."""
    import xlsxwriter

    def book(name: str, saved: bool) -> Path:
        path = tmp_path / f"{name}.xlsx"
        wb = xlsxwriter.Workbook(str(path))
        ws = wb.add_worksheet("Puzzle")
        for j, clue in enumerate((2, 1)):  # a 2×2 with clues 2 | 1 across, 1 1 | 2 down
            ws.write_formula(0, 2 + j, f"={clue}+0", None, clue if saved else 0)
        for i, clue in enumerate((2, 1)):
            ws.write_formula(1 + i, 1, f"={clue}+0", None, clue if saved else 0)
        boxed = wb.add_format({"border": 1})
        for r in (1, 2):
            for c in (2, 3):
                ws.write_blank(r, c, None, boxed)
        wb.close()
        return path

    good = book("saved", saved=True)
    assert cli_main(["solve", str(good), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["solutions"] == [["##", "#."]]
    bad = book("never-calculated", saved=False)
    before = bad.read_bytes()
    assert cli_main(["solve", str(bad), "-o", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "Puzzle!C1: the formula =2+0 has no saved value" in err, err
    assert bad.read_bytes() == before and not (tmp_path / "out.xlsx").exists()


def test_several_zeros_in_a_line_are_an_error_one_zero_an_empty_line():
    """0 alone is an empty line; 0 0 is a mistake (or a writer's placeholder), as 0 2 is."""
    assert Puzzle.from_clues([[0], [1]], [[1]]).rows[0] == ()
    with pytest.raises(ValueError, match=r"row 1: clue 0 stands among other clues \(0 0\)"):
        Puzzle.from_clues([[0, 0], [1]], [[1]])


def test_a_table_on_another_sheet_is_passed_over_and_named(tmp_path, capsys):
    """A table of scores on another sheet (a header row, names, numbers) stopped the run,
    and ``--sheet`` took one sheet only, so a workbook of two puzzles and a scores sheet
    could not be painted whole: the table is passed over and named, as tables beside a
    puzzle are. A sheet that looks like a puzzle with an error still stops the run."""
    book = new_book()
    write_template(book.sheets()[0], Puzzle.from_clues([[2], [1]], [[2], [1]]))
    book.sheets()[0].ws.title = "Puzzle"
    scores = book.wb.create_sheet("Scores")
    for row in (["Name", "Score", "Time"], ["Ann", 10, 35], ["Bob", 8, 41]):
        scores.append(row)
    path = book.save(tmp_path / "with-scores.xlsx")
    out = tmp_path / "out.xlsx"
    assert cli_main(["solve", str(path), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert (
        "  not read as clues: Scores sheet passed over, a table, not a puzzle (Scores!A2: clue "
        '"Ann" is not a number)'
    ) in said
    assert out.exists()
    second = book.add_sheet("Second")
    write_template(second, Puzzle.from_solution(np.array([[1, 1, 1, 0, 1]] * 5, dtype=bool)))
    typo = next(c for row in second.ws.iter_rows() for c in row if c.value == 3)
    typo.value = "3a"  # a mistyped clue: the sheet still looks like a puzzle
    path = book.save(tmp_path / "with-typo.xlsx")
    assert cli_main(["solve", str(path), "-o", str(tmp_path / "out2.xlsx")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"xlsolver: {path}: Second!") and "--sheet 'Puzzle'" in err, err
    assert not (tmp_path / "out2.xlsx").exists()
    for typo in ("seven", "1 2 x"):  # longer text, which spoils the look of the bands too
        typo_cell = next(c for row in second.ws.iter_rows() for c in row if c.value == "3a")
        typo_cell.value = typo
        path = book.save(tmp_path / "with-typo.xlsx")
        assert cli_main(["solve", str(path), "-o", str(tmp_path / "out3.xlsx")]) == 2
        assert "Second!" in capsys.readouterr().err
        typo_cell.value = "3a"
    book.remove_sheet("Second")
    headed = book.add_sheet("Headed")  # a header row of words above an unboxed puzzle
    headed.ws.append(["Puzzle", "by", "Ann"])
    headed.ws.append([])
    headed.ws.append([None, None, 3, 1])
    headed.ws.append([2, None, None, None])
    headed.ws.append(["w", None, None, None])  # a typo for 1
    path = book.save(tmp_path / "with-header.xlsx")
    assert cli_main(["solve", str(path), "--sheet", "Headed"]) == 2  # alone: its error
    alone = capsys.readouterr().err
    assert cli_main(["solve", str(path), "-o", str(tmp_path / "out4.xlsx")]) == 2
    assert "Headed!" in capsys.readouterr().err and "Headed!" in alone


def test_in_place_only_when_asked(tmp_path):
    source = tmp_path / "small.xlsx"
    source.write_bytes((SAMPLES / "small.xlsx").read_bytes())
    assert run_workbooks(args(output=str(source)), [source]) == 2
    assert source.read_bytes() == (SAMPLES / "small.xlsx").read_bytes()
    assert run_workbooks(args(in_place=True), [source]) == 0
    puzzle, solution, _ = painted_solution(source)
    assert puzzle.is_solution(solution)


def test_givens_option_keeps_painted_cells(tmp_path):
    solved = tmp_path / "solved.xlsx"
    assert run_workbooks(args(output=str(solved)), [SAMPLES / "small.xlsx"]) == 0
    again = tmp_path / "again.xlsx"
    assert run_workbooks(args(output=str(again), givens=True), [solved]) == 0
    puzzle, solution, _ = painted_solution(again)
    assert puzzle.is_solution(solution)


def test_new_and_convert_commands(tmp_path, data_dir):
    blank = tmp_path / "blank.xlsx"
    assert cli_main(["new", "--size", "15x20", "-o", str(blank)]) == 0
    sheet = open_book(blank).sheets()[0]
    assert sheet.read_values((2, 1, 2, 7)) == [["width", None, 15, None, "height", None, 20]]
    assert cli_main(["new", "--size", "15by20", "-o", str(tmp_path / "x.xlsx")]) == 2
    source = data_dir / "nonogram-db-webpbn-6.non"
    if not source.exists():
        pytest.skip("tests/data/nonogram-db-webpbn-6.non is absent")
    book_path = tmp_path / "p.xlsx"
    assert cli_main(["convert", str(source), "-o", str(book_path)]) == 0
    from xlsolver.formats import read_puzzles

    original = read_puzzles(source)[0]
    found = read_puzzle(open_book(book_path).sheets()[0])
    assert (found.puzzle.rows, found.puzzle.cols) == (original.rows, original.cols)
    back = tmp_path / "p.non"
    assert cli_main(["convert", str(book_path), "-o", str(back)]) == 0
    assert read_puzzles(back)[0].rows == original.rows


def test_convert_a_workbook_of_several_puzzles(tmp_path, capsys):
    """Every puzzle of a workbook goes into a file that holds many, read back with the
    same clues; a .non target is refused naming those formats and --sheet."""
    source = SAMPLES / "layouts.xlsx"
    book = open_book(source, read_only=True)
    found = find_puzzles(book)
    assert len(found) > 1
    pack = tmp_path / "all.nonpack"
    assert cli_main(["convert", str(source), "-o", str(pack)]) == 0
    from xlsolver.formats import read_puzzles

    back = read_puzzles(pack)
    assert [(p.rows, p.cols) for p in back] == [(f.puzzle.rows, f.puzzle.cols) for f in found]
    capsys.readouterr()
    one = tmp_path / "one.non"
    assert cli_main(["convert", str(source), "-o", str(one)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"xlsolver: {one}: {len(found)} puzzles, but a .non file holds one")
    assert err.endswith("or pick one sheet with --sheet") and not one.exists()
    sheet = found[0].sheet
    assert cli_main(["convert", str(source), "--sheet", sheet, "-o", str(one)]) == 0
    assert read_puzzles(one)[0].rows == found[0].puzzle.rows


def test_xlsm_keeps_its_macros(tmp_path):
    import zipfile

    xlsxwriter = pytest.importorskip("xlsxwriter")
    vba = SAMPLES / "vba" / "vbaProject.bin"
    if not vba.exists():
        pytest.skip("workbooks/vba/vbaProject.bin is absent")
    source = tmp_path / "macro.xlsm"
    wb = xlsxwriter.Workbook(source)
    ws = wb.add_worksheet("Sheet1")
    ws.write_row(4, 0, [None, 1, 1])  # column clues in B5:C5 (1-based rows from 1)
    ws.write_column(5, 0, [1, 1])
    wb.add_vba_project(str(vba))
    wb.close()
    out = tmp_path / "solved.xlsm"
    assert run_workbooks(args(output=str(out)), [source]) == 0
    with zipfile.ZipFile(out) as z:
        assert "xl/vbaProject.bin" in z.namelist()
        assert z.read("xl/vbaProject.bin") == vba.read_bytes()


@pytest.mark.parametrize(
    "text, message",
    [
        ("A0:Z0", "rows are numbered from 1"),
        ("B0:D4", "rows are numbered from 1"),
        ("A1:XFE3", r"beyond the last cell a sheet has \(XFD1048576\)"),
        ("A1:B1048577", "beyond the last cell"),
        ("foo", "expected a range like Sheet1!B3:P17"),
    ],
)
def test_a_range_no_sheet_has_is_named_as_such(text, message):
    """Row 0 was taken (an 'empty sheet' later) and a cell past XFD1048576 too."""
    from xlsolver.workbook.address import parse_range

    with pytest.raises(ValueError, match=message):
        parse_range(text)
    assert parse_range("'My sheet'!B3:P17") == ("My sheet", (3, 2, 17, 16))


def test_a_wrong_given_is_named_by_the_json_error_as_by_the_message(tmp_path, capsys):
    """``solve --givens --json`` of a sheet whose painted E7 is wrong: ``message`` and
    ``discrepancies`` named E7 while ``error`` said "no solution: row 1 cannot be
    placed" (the line where the clash surfaced, which the red moved away from)."""
    from openpyxl import load_workbook
    from openpyxl.styles import PatternFill

    from xlsolver.nonogram.analyzer import solve

    sheet = tmp_path / "wrong.xlsx"
    wb = load_workbook(SAMPLES / "small.xlsx")
    wb["Puzzle"]["E7"].fill = PatternFill("solid", start_color="FF000000", end_color="FF000000")
    wb.save(sheet)
    (found,) = find_puzzles(open_book(sheet), givens=True)
    assert found.where == "Puzzle!E7:N16" and found.givens[0, 0] & 3 == 1  # black
    free = solve(found.puzzle)
    assert free.status == "unique" and not free.solutions[0][0, 0]  # E7 is white
    out = tmp_path / "out.xlsx"
    capsys.readouterr()
    assert cli_main(["solve", str(sheet), "--givens", "--json", "-o", str(out)]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["discrepancies"] == ["E7"]
    assert record["message"].endswith("disagrees with the painted cell in red: E7")
    assert record["error"] == (
        "no solution: every solution of the clues disagrees with the painted cell E7"
    )
    assert load_workbook(out)["Puzzle"]["E7"].fill.fgColor.rgb.upper().endswith("FF0000")

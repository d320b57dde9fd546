"""Puzzle files where a workbook was expected: ``solve FILE -o BOOK.xlsx`` lays the
puzzles out and paints them; ``check`` and ``hints`` read a puzzle file as they read a
sheet. Each is compared with the route through a converted workbook, and every painted
solution is checked against the clues."""

from __future__ import annotations

import json
import shutil
from copy import copy
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from conftest import DATA
from openpyxl.styles import PatternFill

from xlsolver.cli import main
from xlsolver.formats import read_puzzles
from xlsolver.sheets.openpyxl_sheet import new_book, open_book
from xlsolver.teaching import check_workbook, read_hint_steps
from xlsolver.workbook.layout import find_puzzles

DANCER = DATA / "webpbn-00001-dancer.non"
TAAI3 = DATA / "taai2011-first3-questions.txt"
MAP = DATA / "webpbn-color-00047-map.xml"
GREY = "808080"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of one command."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def painted_pictures(path: Path) -> list[tuple[object, np.ndarray, np.ndarray]]:
    """Per puzzle found in a written workbook: (puzzle, grey cells, crossed cells)."""
    book = open_book(path)
    out = []
    for found in find_puzzles(book):
        sheet = book.sheet(found.sheet)
        fills = sheet.read_fills(found.grid)
        grey = np.array([[(f or "").upper().endswith(GREY) for f in row] for row in fills])
        crossed = np.array(sheet.read_diagonals(found.grid))
        out.append((found.puzzle, grey, crossed))
    return out


def test_solve_a_puzzle_file_into_a_workbook_paints_each_puzzle(tmp_path, capsys) -> None:
    """One sheet per puzzle of the files, in order; every decided cell painted, the
    black ones forming a solution of the clues read back from the sheet."""
    out = tmp_path / "solved.xlsx"
    code, text, err = run(capsys, "solve", DANCER, TAAI3, "-o", out)
    assert code == 0, err
    lines = text.splitlines()
    assert len(lines) == 4 and all(line.endswith(f"→ {out}") for line in lines)
    assert "unique solution painted" in lines[0] and "several solutions" in lines[1]
    found = painted_pictures(out)
    expected = read_puzzles(DANCER) + read_puzzles(TAAI3)
    assert [(p.rows, p.cols) for p, _, _ in found] == [(p.rows, p.cols) for p in expected]
    puzzle, grey, crossed = found[0]  # Dancer: unique, every cell decided
    assert puzzle.is_solution(grey) and (grey ^ crossed).all()
    puzzle, grey, crossed = found[3]  # TAAI 3: unique
    assert puzzle.is_solution(grey) and (grey ^ crossed).all()
    puzzle, grey, crossed = found[1]  # TAAI 1: several; its undecided cells stay blank
    record = json.loads(run(capsys, "solve", TAAI3, "--json")[1].splitlines()[0])
    assert record["status"] == "multiple"
    first, second = (np.array([[c == "#" for c in r] for r in s]) for s in record["solutions"])
    common = first == second
    assert not (grey & ~common).any() and not (crossed & ~common).any()
    assert first[grey].all() and not first[crossed].any()
    undecided = int(lines[1].split(" undecided")[0].split()[-1])
    assert (grey | crossed).sum() == 25 * 25 - undecided > 0


def test_solve_a_colour_puzzle_file_into_a_workbook(tmp_path, capsys) -> None:
    """A colour puzzle laid out with its clue colours and painted in its inks: what the
    workbook route (convert, then solve) writes, cell for cell."""
    direct, via, sheet = tmp_path / "direct.xlsx", tmp_path / "via.xlsx", tmp_path / "sheet.xlsx"
    assert run(capsys, "solve", MAP, "-o", direct)[0] == 0
    assert run(capsys, "convert", MAP, "-o", sheet)[0] == 0
    assert run(capsys, "solve", sheet, "-o", via)[0] == 0
    a, b = open_book(direct), open_book(via)
    (fa,), (fb,) = find_puzzles(a), find_puzzles(b)
    assert fa.grid == fb.grid and fa.puzzle.rows == fb.puzzle.rows
    fills = a.sheet(fa.sheet).read_fills(fa.grid)
    assert fills == b.sheet(fb.sheet).read_fills(fb.grid)
    assert len({f for row in fills for f in row}) >= 4  # the inks and the background


def test_solve_into_a_workbook_writes_nothing_for_a_bad_file(tmp_path, capsys) -> None:
    """A file that cannot be read, or an output that cannot be a workbook: one line,
    exit 2, nothing written; another name still gets the report."""
    bad = tmp_path / "bad.non"
    bad.write_text("width 3\nheight 2\nrows\n1\n1\ncolumns\n1\nx\n1\n")
    code, out, err = run(capsys, "solve", DANCER, bad, "-o", tmp_path / "both.xlsx")
    assert code == 2 and out == ""
    assert err.startswith(f"xlsolver: {bad}:") and not (tmp_path / "both.xlsx").exists()
    code, _, err = run(capsys, "solve", DANCER, "-o", tmp_path / "d.xlsb")
    assert code == 2 and "xlsb" in err and not (tmp_path / "d.xlsb").exists()
    assert run(capsys, "solve", DANCER, "-o", tmp_path / "report.txt")[0] == 0
    assert (tmp_path / "report.txt").read_text().startswith(f"{DANCER}: unique")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.non", "report.txt"]


def test_check_reads_a_puzzle_file_as_it_reads_its_sheet(tmp_path, capsys) -> None:
    """The verdict of a .non is that of the sheet convert makes of it."""
    sheet = tmp_path / "dancer.xlsx"
    assert run(capsys, "convert", DANCER, "-o", sheet)[0] == 0
    via = check_workbook(sheet, time_limit=None)
    direct = check_workbook(DANCER, time_limit=None)
    assert (direct.status, direct.difficulty, direct.steps, direct.rules) == (
        via.status,
        via.difficulty,
        via.steps,
        via.rules,
    )
    assert direct.status == "unique" and direct.steps > 0
    code, out, _ = run(capsys, "check", DANCER)
    assert code == 0 and out.splitlines()[0] == f"{DANCER}:" and "givens" not in out


def test_check_a_file_of_several_puzzles_judges_each(capsys) -> None:
    """Every puzzle of a batch, numbered; --sheet picks one by number or title."""
    code, out, err = run(capsys, "check", TAAI3, "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert [r["source"] for r in records] == [f"{TAAI3} [{i}: ${i}]" for i in (1, 2, 3)]
    assert [r["status"] for r in records] == ["multiple", "multiple", "unique"]
    assert all(r["differing"] and r["suggested_givens"] for r in records[:2])
    code, out, _ = run(capsys, "check", TAAI3, "--sheet", "$3", "--json")
    assert code == 0 and json.loads(out) == {**records[2], "seconds": json.loads(out)["seconds"]}
    code, out, err = run(capsys, "check", TAAI3, "--sheet", "Nope")
    assert code == 2 and out == ""
    assert err == f"xlsolver: {TAAI3}: no puzzle titled or numbered 'Nope' (1 $1, 2 $2, 3 $3)\n"


def test_hints_of_a_puzzle_file_are_those_of_its_sheet(tmp_path, capsys) -> None:
    """The steps written for a .non are the steps written for the sheet convert makes."""
    sheet = tmp_path / "dancer.xlsx"
    assert run(capsys, "convert", DANCER, "-o", sheet)[0] == 0
    direct, via = tmp_path / "direct.xlsx", tmp_path / "via.xlsx"
    code, out, err = run(capsys, "hints", DANCER, "-o", direct)
    assert code == 0, err
    assert run(capsys, "hints", sheet, "-o", via)[0] == 0
    steps = read_hint_steps(direct)
    assert steps == read_hint_steps(via) and out.startswith(f"{direct}: {len(steps)} steps")
    solution = np.zeros((10, 5), dtype=bool)
    for step in steps:
        for r, c, black in step:
            solution[r, c] = black
    assert read_puzzles(DANCER)[0].is_solution(solution)


def test_hints_of_a_batch_want_one_puzzle(tmp_path, capsys) -> None:
    """Several puzzles and no --sheet: one line naming them, exit 2, nothing written."""
    out = tmp_path / "h.xlsx"
    code, _, err = run(capsys, "hints", TAAI3, "-o", out)
    assert code == 2 and not out.exists()
    assert "holds 3 puzzles; pick one with --sheet" in err and "(1 $1, 2 $2, 3 $3)" in err
    code, text, err = run(capsys, "hints", TAAI3, "--sheet", "3", "-o", out)
    assert code == 0, err
    assert len(read_hint_steps(out)) == int(text.split(": ")[1].split()[0])


def test_check_of_a_filled_in_grid_says_the_cells_count_as_given(tmp_path, capsys) -> None:
    """A painted copy checked: its filled cells are givens, and the line says so."""
    painted = tmp_path / "painted.xlsx"
    assert run(capsys, "solve", DANCER, "-o", painted)[0] == 0
    code, out, _ = run(capsys, "check", painted)
    assert code == 0
    assert "givens: 50 cells already filled in on the grid count as given; nothing is left" in out
    assert json.loads(run(capsys, "check", painted, "--json")[1])["filled"] == 50


def test_a_renamed_sheet_of_a_new_book_is_found_by_its_new_name() -> None:
    """Sheets renamed through openpyxl are still the book's sheets, under the new name."""
    book = new_book()
    book.sheets()[0].ws.title = "Dancer"
    book.add_sheet("Other").ws.title = "Renamed"
    assert [s.name for s in book.sheets()] == ["Dancer", "Renamed"]
    assert book.sheet("Renamed") is book.sheets()[1]
    book.remove_sheet("Dancer")
    assert [s.name for s in book.sheets()] == ["Renamed"]
    with pytest.raises(KeyError, match="Dancer"):
        book.sheet("Dancer")


def test_folder_copies_are_unchanged_by_these_routes(tmp_path, capsys) -> None:
    """None of the routes writes to the puzzle files they read."""
    folder = tmp_path / "in"
    folder.mkdir()
    for path in (DANCER, TAAI3, MAP):
        shutil.copy(path, folder / path.name)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    run(capsys, "solve", *folder.iterdir(), "-o", tmp_path / "all.xlsx")
    run(capsys, "check", folder / DANCER.name)
    run(capsys, "hints", folder / DANCER.name, "-o", tmp_path / "h.xlsx")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert (tmp_path / "all.xlsx").exists() and (tmp_path / "h.xlsx").exists()


def test_make_of_a_puzzle_file_is_the_worksheet_of_its_picture(tmp_path, capsys) -> None:
    """The worksheet make writes for a .non holds the same clues, and its key solves them."""
    from xlsolver.teaching import KEY_SHEET, PUZZLE_SHEET

    for source, name in ((DANCER, "dancer"), (DATA / "nonny-rainbow.non", "rainbow")):
        out = tmp_path / f"{name}.xlsx"
        code, text, err = run(capsys, "make", source, "-o", out)
        assert code == 0, err
        assert "verdict: unique" in text
        puzzle = read_puzzles(source)[0]
        book = open_book(out)
        (found,) = find_puzzles(book, sheet=PUZZLE_SHEET)
        assert (found.puzzle.rows, found.puzzle.cols) == (puzzle.rows, puzzle.cols)
        assert KEY_SHEET in [s.name for s in book.sheets()]
        assert check_workbook(out, time_limit=None).status == "unique"


def test_convert_of_a_worksheet_gives_one_puzzle_with_its_key_as_goal(tmp_path, capsys) -> None:
    """A worksheet make wrote converts to one puzzle, titled as its title cell shows, the
    Answer key its goal (checked against the clues); a key that does not solve the clues
    stays a second puzzle, and --sheet still picks the key sheet alone."""
    from xlsolver.teaching import KEY_SHEET

    several = tmp_path / "several.non"  # three solutions: make adds a Verdict sheet, which
    several.write_text(  # made convert read three puzzles, the title and goal lost
        'title "Twosol"\nwidth 4\nheight 3\nrows\n1,1\n2\n1\ncolumns\n1\n2\n1\n1\n'
    )
    for source in (DANCER, DATA / "nonny-rainbow.non", several):
        sheet = tmp_path / f"{source.stem}.xlsx"
        assert run(capsys, "make", source, "--title", "Drawn", "-o", sheet)[0] == 0
        out = tmp_path / f"{source.stem}.non"
        code, text, err = run(capsys, "convert", sheet, "-o", out)
        assert code == 0, err
        assert "1 puzzle" in text
        (back,) = read_puzzles(out)
        (original,) = read_puzzles(source)
        assert (back.rows, back.cols, back.title) == (original.rows, original.cols, "Drawn")
        goal = np.asarray(back.meta["goal"])
        assert back.is_solution(goal if goal.dtype == bool else goal.astype(int))
        assert 'goal "' in out.read_text()
        alone = tmp_path / f"{source.stem}-puzzle.non"  # the Puzzle sheet picked: the same
        assert run(capsys, "convert", sheet, "--sheet", "Puzzle", "-o", alone)[0] == 0
        assert alone.read_text() == out.read_text()
    sheet = tmp_path / f"{DANCER.stem}.xlsx"
    assert run(capsys, "convert", sheet, "--sheet", KEY_SHEET, "-o", tmp_path / "k.non")[0] == 0
    (found,) = find_puzzles(open_book(sheet), sheet=KEY_SHEET)
    top, left = found.grid[:2]
    wb = openpyxl.load_workbook(sheet)
    wb[KEY_SHEET].cell(top, left).fill = PatternFill("solid", fgColor=GREY)  # white in the key
    broken = tmp_path / "broken.xlsx"
    wb.save(broken)
    code, _, err = run(capsys, "convert", broken, "-o", tmp_path / "b.non")
    assert code == 2 and "2 puzzles" in err
    assert run(capsys, "convert", broken, "-o", tmp_path / "b.nonpack")[0] == 0
    assert len(read_puzzles(tmp_path / "b.nonpack")) == 2


def test_make_of_a_batch_wants_one_and_of_a_puzzle_without_solution_says_so(
    tmp_path, capsys
) -> None:
    """Several puzzles need --sheet; a puzzle with no solution gives no picture, exit 1
    as check and hints give (it was 2, the status of unreadable input)."""
    code, _, err = run(capsys, "make", TAAI3, "-o", tmp_path / "m.xlsx")
    assert code == 2 and "holds 3 puzzles; pick one with --sheet" in err
    code, text, _ = run(capsys, "make", TAAI3, "--sheet", "1", "-o", tmp_path / "m.xlsx")
    assert code == 0 and "NOT unique" in text and "suggested givens" in text
    clash = tmp_path / "clash.non"
    clash.write_text("width 3\nheight 2\nrows\n1,1\n1,1\ncolumns\n1\n2\n1\n")
    code, _, err = run(capsys, "make", clash, "-o", tmp_path / "c.xlsx")
    assert code == 1 and "no picture to make a worksheet of" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clash.non", "m.xlsx"]


def test_grade_with_a_puzzle_file_as_key_matches_grading_with_its_worksheet(
    tmp_path, capsys
) -> None:
    """A student's sheet graded against dancer.non and against make's worksheet of it:
    the same wrong cells."""
    from openpyxl import load_workbook

    from xlsolver.teaching import grade_files

    sheet, answer, key = tmp_path / "d.xlsx", tmp_path / "ann.xlsx", tmp_path / "key.xlsx"
    assert run(capsys, "solve", DANCER, "-o", sheet)[0] == 0
    assert run(capsys, "make", DANCER, "-o", key)[0] == 0
    wb = load_workbook(sheet)
    (found,) = find_puzzles(open_book(sheet))
    top, left = found.grid[:2]
    ws = wb[found.sheet]
    ws.cell(top, left).fill = copy(ws.cell(top, left + 1).fill)  # white r1c1 painted black
    wb.save(answer)
    by_file = grade_files([answer], DANCER, out_dir=tmp_path / "g1")
    by_sheet = grade_files([answer], key, out_dir=tmp_path / "g2")
    assert [(g.wrong, g.cells, g.wrong_cells) for g in by_file] == [
        (g.wrong, g.cells, g.wrong_cells) for g in by_sheet
    ]
    assert by_file[0].cells == 50 and by_file[0].wrong_cells == [(0, 0)]
    code, _, err = run(capsys, "grade", answer, "--key", TAAI3, "--out-dir", tmp_path / "g3")
    assert code == 2 and "pick one with --key-sheet" in err


def test_a_puzzle_file_where_only_a_sheet_will_do_is_named_as_one(capsys) -> None:
    """The pentomino tiler reads a board on a sheet: a .non is called a puzzle file, not
    'comma-separated values named .non'."""
    code, out, err = run(capsys, "pentomino", DANCER)
    assert code == 2 and out == ""
    assert err == (
        f"xlsolver: {DANCER}: a nonogram puzzle file (non format), not a workbook; this "
        "command reads a sheet (solve, convert, check, hints and make read puzzle files)\n"
    )


def test_out_dir_lays_out_and_paints_each_puzzle_file(tmp_path, capsys) -> None:
    """--out-dir: NAME.xlsx per puzzle file (a game ID's name made safe), each sheet read
    back to the file's clues with a solution painted; --in-place is refused for them."""
    out = tmp_path / "out"
    code, text, err = run(capsys, "solve", DANCER, "4x4:2/1/2/1/1.1/2/1/1", "--out-dir", out)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == [
        "4x4_2_1_2_1_1.1_2_1_1.xlsx",
        "webpbn-00001-dancer.xlsx",
    ]
    ((puzzle, grey, crossed),) = painted_pictures(out / "webpbn-00001-dancer.xlsx")
    assert puzzle.rows == read_puzzles(DANCER)[0].rows and puzzle.is_solution(grey)
    assert (grey ^ crossed).all()
    code, text, err = run(capsys, "solve", DANCER, "--in-place")
    assert code == 2 and text == ""
    assert err == (
        f"xlsolver: {DANCER}: a puzzle file is not painted in place; write a painted sheet "
        "with -o NAME.xlsx or --out-dir DIR\n"
    )


def test_a_title_a_sheet_name_cannot_hold_comes_back_from_the_sheet(tmp_path, capsys) -> None:
    """convert → .xlsx → .non keeps a title with ':' and '/' and longer than 31
    characters (the sheet is named from it; the title cell holds it whole); a hand-made
    sheet's puzzle is still titled by its sheet."""
    long = "Cat: a long title with / slash, longer than 31"
    source = tmp_path / "cat.non"
    source.write_text(f'title "{long}"\nwidth 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n')
    shutil.copy(source, tmp_path / "cat2.non")
    twice = tmp_path / "twice.nonpack"
    assert run(capsys, "convert", source, tmp_path / "cat2.non", "-o", twice)[0] == 0
    for suffix in (".xlsx", ".nonpack"):
        assert run(capsys, "convert", twice, "-o", tmp_path / f"b{suffix}")[0] == 0
    assert run(capsys, "convert", tmp_path / "b.xlsx", "-o", tmp_path / "c.nonpack")[0] == 0
    assert [p.title for p in read_puzzles(tmp_path / "c.nonpack")] == [long, long]
    assert (
        run(
            capsys,
            "convert",
            DATA.parent.parent / "workbooks" / "hand-made.xlsx",
            "-o",
            tmp_path / "h.nonpack",
        )[0]
        == 0
    )
    assert [p.title for p in read_puzzles(tmp_path / "h.nonpack")] == ["Two", "Two", "Typed"]


def test_a_puzzle_too_wide_for_a_sheet_is_one_line_and_nothing_written(tmp_path, capsys) -> None:
    """A 301×1 puzzle (a file may hold up to 1000 a side) asked for as a sheet: one line
    naming the file and the puzzle, exit 2, no traceback, nothing written."""
    wide = tmp_path / "wide.non"
    wide.write_text("width 301\nheight 1\nrows\n301\ncolumns\n" + "1\n" * 301)
    said = f"{wide}: puzzle 1 is 301×1: a sheet holds puzzles of at most 300×300"
    for argv in (
        ["solve", wide, "-o", tmp_path / "a.xlsx"],
        ["solve", wide, "--out-dir", tmp_path / "out"],
        ["convert", wide, "-o", tmp_path / "b.xlsx"],
    ):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.startswith(f"xlsolver: {said}"), (argv, err)
        assert "Traceback" not in err and "ValueError" not in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["out", "wide.non"]


def test_check_goes_on_past_a_bad_puzzle_of_a_batch(tmp_path, capsys) -> None:
    """A batch with an invalid second puzzle: that one named (file and line), the others
    judged, exit 2; in JSON it is an 'invalid' record in its place."""
    lines = TAAI3.read_text().split("\n")
    lines[lines.index("$2") + 1] = "99"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines))
    code, out, err = run(capsys, "check", bad, "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [r["status"] for r in records] == ["multiple", "invalid", "unique"]
    assert records[1]["source"] == f"{bad} [2]" and "clues 99 need 99 cells" in records[1]["error"]
    assert err.startswith(f"xlsolver: {bad}:") and "column 1: clues 99" in err


def test_a_workbook_solved_into_a_report_name_writes_the_report(tmp_path, capsys) -> None:
    """``solve book.xlsx -o out.txt`` wrote the painted workbook's bytes into out.txt; a
    name that is not a workbook's now gets the report (text or JSON lines), as puzzle
    files do, and nothing is painted."""
    book = tmp_path / "small.xlsx"
    shutil.copy(DATA.parent.parent / "workbooks" / "small.xlsx", book)
    before = book.read_bytes()
    code, out, err = run(capsys, "solve", book, "-o", tmp_path / "out.txt")
    assert code == 0 and out == "" and "nothing written" not in err
    text = (tmp_path / "out.txt").read_text()
    assert text.startswith(f"{book} [Puzzle!E7:N16] 10×10: unique solution")
    code, out, _ = run(capsys, "solve", book, DANCER, "--json", "-o", tmp_path / "out.jsonl")
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert code == 0 and out == ""
    assert [(r["source"], r["status"]) for r in records] == [
        (str(DANCER), "unique"),
        (str(book), "unique"),
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "out.txt", "small.xlsx"]
    assert book.read_bytes() == before


def test_a_name_no_workbook_can_have_is_refused_before_any_work(tmp_path, capsys) -> None:
    """pentomino -o tiles.txt wrote a workbook's bytes into tiles.txt; grade -o
    summary.txt wrote every marked copy and then failed. Both now stop first: one line,
    exit 2, nothing written, no folder made."""
    workbooks = DATA.parent.parent / "workbooks"
    code, out, err = run(
        capsys, "pentomino", workbooks / "pentomino-8x8.xlsx", "-o", tmp_path / "tiles.txt"
    )
    assert code == 2 and "tiles.txt: a workbook is written as .xlsx" in err
    answer = tmp_path / "ann.xlsx"
    assert run(capsys, "solve", DANCER, "-o", answer)[0] == 0
    code, out, err = run(
        capsys,
        "grade",
        answer,
        "--key",
        DANCER,
        "--out-dir",
        tmp_path / "graded",
        "-o",
        tmp_path / "summary.txt",
    )
    assert code == 2 and "summary.txt: a workbook is written as .xlsx" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.xlsx"]


def test_out_dir_keeps_a_puzzle_file_apart_from_a_workbook_of_its_name(tmp_path, capsys) -> None:
    """house.non beside house.xlsx (and house.json): the workbook keeps its name, the
    puzzle files' copies take theirs whole (house.non.xlsx), nothing is refused."""
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(DANCER, folder / "house.non")
    shutil.copy(DATA.parent.parent / "workbooks" / "small.xlsx", folder / "house.xlsx")
    assert run(capsys, "convert", folder / "house.non", "-o", folder / "house.json")[0] == 0
    code, out, err = run(capsys, "solve", folder, "--out-dir", tmp_path / "out")
    assert code == 0, err
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["house.json.xlsx", "house.non.xlsx", "house.xlsx"]
    ((puzzle, grey, _),) = painted_pictures(tmp_path / "out" / "house.non.xlsx")
    assert puzzle.rows == read_puzzles(DANCER)[0].rows and puzzle.is_solution(grey)
    ((puzzle, grey, _),) = painted_pictures(tmp_path / "out" / "house.xlsx")
    assert puzzle.width == 10 and puzzle.is_solution(grey)


def test_a_files_goal_is_its_answer_key(tmp_path, capsys) -> None:
    """A .non whose clues have several solutions and whose goal picks one: check
    suggests givens that keep the goal, make's answer key is the goal, and the file is
    a key for grade (without a goal it is refused: a key needs one solution)."""
    from xlsolver.teaching import KEY_SHEET, grade_files

    rows = ["#....", ".#...", "..#..", "...#.", "....#"]  # 5 diagonal dots: 120 solutions
    goal = "".join("1" if c == "#" else "0" for r in rows for c in r)
    text = "width 5\nheight 5\nrows\n" + "1\n" * 5 + "columns\n" + "1\n" * 5
    source, bare = tmp_path / "diag.non", tmp_path / "bare.non"
    source.write_text(text + f'goal "{goal}"\n')
    bare.write_text(text)
    verdict = check_workbook(source, time_limit=None)
    assert verdict.status == "multiple" and verdict.suggestion
    for r, c, state in verdict.suggestion:
        assert ((state & 3) == 1) == (rows[r][c] == "#")  # each given agrees with the goal
    out = tmp_path / "diag.xlsx"
    assert run(capsys, "make", source, "-o", out)[0] == 0
    book = open_book(out)
    (key,) = find_puzzles(book, sheet=KEY_SHEET, givens=True)
    painted = (np.asarray(key.givens) & 3) == 1
    assert (painted == np.array([[c == "#" for c in r] for r in rows])).all()
    answer = tmp_path / "ann.xlsx"
    assert run(capsys, "solve", source, "-o", answer)[0] == 0  # several: common cells only
    (grade,) = grade_files([answer], source, out_dir=tmp_path / "g")
    assert grade.error == "" and grade.cells == 25
    code, _, err = run(capsys, "grade", answer, "--key", bare, "--out-dir", tmp_path / "g2")
    assert code == 2 and "a key needs one solution" in err


def test_laying_out_a_batch_shows_progress_per_puzzle(tmp_path) -> None:
    """solve BATCH -o BOOK.xlsx makes one progress display for its puzzles, moved once
    per puzzle solved and closed at the end."""
    from xlsolver.workbook.batch import solve_puzzle_files

    calls: list = []

    class Bar:
        def __init__(self, total: int) -> None:
            calls.append(("made", total))

        def update(self) -> None:
            calls.append("update")

        def close(self) -> None:
            calls.append("close")

    report = solve_puzzle_files([str(TAAI3), str(DANCER)], tmp_path / "b.xlsx", bar=Bar)
    assert report.exit_code == 0 and len(report.sheets) == 4
    assert calls == [("made", 4), "update", "update", "update", "update", "close"]


@pytest.mark.parametrize(
    "where",
    [
        ["-o", "r.txt", "--out-dir", "D"],
        ["-o", "r.xlsx", "--in-place"],
        ["--out-dir", "D", "--in-place"],
    ],
)
def test_two_places_to_write_are_refused_for_any_input(tmp_path, capsys, where) -> None:
    """-o, --out-dir and --in-place exclude each other for puzzle files too, and with a
    report name (which used to write the report and pass over --out-dir)."""
    for source in (DANCER, DATA.parent.parent / "workbooks" / "small.xlsx"):
        args = [a if a in ("-o", "--out-dir", "--in-place") else tmp_path / a for a in where]
        code, out, err = run(capsys, "solve", source, *args)
        assert code == 2 and out == ""
        assert err == "xlsolver: give only one of -o/--output, --out-dir and --in-place\n"
    assert list(tmp_path.iterdir()) == []


def test_make_of_a_puzzle_sheet_is_the_worksheet_of_its_puzzle(tmp_path, capsys) -> None:
    """A puzzle sheet (clues around a grid, solved or not, or make's own worksheet) given
    to make: its clue numbers were read as marks of a drawing (an 8×15 'colour puzzle' of
    the painted Dancer sheet); now the worksheet holds the sheet's own clues."""
    from xlsolver.teaching import PUZZLE_SHEET

    dancer = read_puzzles(DANCER)[0]
    blank, solved = tmp_path / "blank.xlsx", tmp_path / "solved.xlsx"
    assert run(capsys, "convert", DANCER, "-o", blank)[0] == 0
    assert run(capsys, "solve", DANCER, "-o", solved)[0] == 0
    for source in (blank, solved):
        out = tmp_path / f"ws-{source.name}"
        code, text, err = run(capsys, "make", source, "-o", out)
        assert code == 0, err
        assert text.startswith(f"{out} (5×10):") and "verdict: unique" in text
        (found,) = find_puzzles(open_book(out), sheet=PUZZLE_SHEET)
        assert (found.puzzle.rows, found.puzzle.cols) == (dancer.rows, dancer.cols)
    again = tmp_path / "again.xlsx"
    assert run(capsys, "make", tmp_path / "ws-solved.xlsx", "-o", again)[0] == 0
    (found,) = find_puzzles(open_book(again), sheet=PUZZLE_SHEET)
    assert found.puzzle.rows == dancer.rows


def test_make_of_typed_clues_with_a_typo_names_it_as_check_does(tmp_path, capsys) -> None:
    """Clues typed one number a cell, one of them mistyped (``6a``, or a 5 for a 4): make
    read the clue 1s as a drawing and wrote a 6×1 worksheet, exit 0; it names the typo as
    check does, exit 2, nothing written. A drawing in 1s with a note of numbers beside
    it is still a drawing."""
    cols = [[1], [2, 1], [6], [6], [2, 1], [1]]
    rows = [2, 4, 6, 2, 2, 4]

    def clue_sheet(path: Path, typo: tuple[str, object] | None = None) -> Path:
        wb = openpyxl.Workbook()
        ws = wb.active
        for j, clues in enumerate(cols):
            for k, v in enumerate(clues):
                ws.cell(4 - len(clues) + k, 3 + j, v)
        for i, v in enumerate(rows):
            ws.cell(4 + i, 2, v)
        if typo:
            ws[typo[0]] = typo[1]
        wb.save(path)
        return path

    assert run(capsys, "make", clue_sheet(tmp_path / "ok.xlsx"), "-o", tmp_path / "w.xlsx")[0] == 0
    for typo, said in (
        (("B6", "6a"), 'Sheet!B6: clue "6a" is not a number'),
        (("B5", 5), "rows hold 21"),
    ):
        source = clue_sheet(tmp_path / "typo.xlsx", typo)
        check = run(capsys, "check", source)
        code, out, err = run(capsys, "make", source, "-o", tmp_path / "bad.xlsx")
        assert check[0] == code == 2 and said in err and said in check[2], (err, check)
        assert out == "" and not (tmp_path / "bad.xlsx").exists()
    drawing = tmp_path / "ones.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    for r, row in enumerate(["11011", "01110", "00100"], 2):
        for c, ch in enumerate(row, 2):
            ws.cell(r, c, int(ch))
    ws["J2"], ws["J3"] = "week", 12  # a note beside it, a number of its own
    wb.save(drawing)
    code, out, err = run(capsys, "make", drawing, "-o", tmp_path / "d.xlsx")
    assert code == 0 and "(5×3)" in out, err
    # a drawing of fills or typed 1s with its rows numbered beside it is a drawing (the
    # numbers 2 3 4 … were taken for clues and make refused it)
    for typed in (False, True):
        wb = openpyxl.Workbook()
        ws = wb.active
        for r, row in enumerate(["01110", "11011", "10001", "11011", "01110"]):
            ws.cell(3 + r, 1, r + 1)
            for c, ch in enumerate(row):
                if ch == "1" and typed:
                    ws.cell(3 + r, 3 + c, 1)
                elif ch == "1":
                    ws.cell(3 + r, 3 + c).fill = PatternFill("solid", fgColor="FF000000")
        wb.save(tmp_path / "numbered.xlsx")
        code, out, err = run(capsys, "make", tmp_path / "numbered.xlsx", "-o", tmp_path / "n.xlsx")
        assert code == 0 and "verdict" in out, err


def test_one_workbook_name_for_puzzle_files_and_a_workbook_is_refused(tmp_path, capsys) -> None:
    """solve a.non b.xlsx -o out.xlsx painted the workbook and only reported the puzzle
    file; one line now says to use --out-dir, and nothing is solved or written."""
    small = DATA.parent.parent / "workbooks" / "small.xlsx"
    code, out, err = run(capsys, "solve", DANCER, small, "-o", tmp_path / "mix.xlsx")
    assert code == 2 and out == ""
    assert err == (
        "xlsolver: -o NAME.xlsx takes one workbook, or puzzle files; for both, use --out-dir DIR\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_one_cell_filled_in_is_said_in_the_singular() -> None:
    """ "givens: 1 cells already filled in … count as given"."""
    from xlsolver.teaching.verdict import Verdict

    one = Verdict(status="unique", difficulty="line", steps=3, filled=1).lines()
    assert "givens: 1 cell already filled in on the grid counts as given" in one
    two = Verdict(status="unique", difficulty="line", steps=3, filled=2).lines()
    assert "givens: 2 cells already filled in on the grid count as given" in two


@pytest.mark.parametrize(
    ("sheet", "title"),
    [("Sheet1", "tree-clues"), ("Sheet", "tree-clues"), ("Tabelle1", "tree-clues")]
    + [("Лист1", "tree-clues"), ("シート1", "tree-clues"), ("Tree", "Tree")],
)
def test_make_of_an_untitled_clue_sheet_is_titled_by_the_file_not_sheet1(
    tmp_path, capsys, sheet, title
) -> None:
    """Typed clues without a title: the worksheet was titled ``Sheet1``, the name the
    spreadsheet gave the sheet; it takes the file's name, as a drawing does. A sheet the
    teacher named (``Tree``) still titles it."""
    from xlsolver.teaching import KEY_SHEET, PUZZLE_SHEET

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet
    for j, clues in enumerate([[1], [2, 1], [6], [6], [2, 1], [1]]):
        for k, v in enumerate(clues):
            ws.cell(4 - len(clues) + k, 3 + j, v)
    for i, v in enumerate([2, 4, 6, 2, 2, 4]):
        ws.cell(4 + i, 2, v)
    wb.save(tmp_path / "tree-clues.xlsx")
    out = tmp_path / "tree-ws.xlsx"
    assert run(capsys, "make", tmp_path / "tree-clues.xlsx", "-o", out)[0] == 0
    made = openpyxl.load_workbook(out)
    assert made[PUZZLE_SHEET]["A1"].value == title
    assert made[KEY_SHEET]["A1"].value.startswith(f"{title} — ")

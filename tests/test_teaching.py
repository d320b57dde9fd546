"""Teaching worksheets end to end: drawings in real .xlsx files → make, check, hints, grade."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import HEART, WORKBOOKS, picture
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Color, PatternFill
from oracles import line_solutions

from xlsolver.cli import main
from xlsolver.nonogram.analyzer import rate, solve
from xlsolver.nonogram.cells import COLOUR, WHITE
from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.sheets.openpyxl_sheet import open_book
from xlsolver.sheets.protocol import HIGHLIGHT_STYLE, WRONG_STYLE
from xlsolver.teaching import (
    KEY_SHEET,
    PUZZLE_SHEET,
    VERDICT_SHEET,
    check_workbook,
    grade_files,
    make_worksheet,
    read_drawing_file,
    read_hint_steps,
    read_image,
)
from xlsolver.teaching.verdict import assess, givens_grid
from xlsolver.teaching.worksheet import DIFFERS_BLACK_STYLE, name_cell
from xlsolver.workbook.layout import find_puzzles, read_puzzle

DOM3 = ["....###", "......#", "..###.#", "....#..", "###.#..", "..#....", "..#...."]
DOM5 = [
    "........###",
    "..........#",
    "......###.#",
    "........#..",
    "....###.#..",
    "......#....",
    "..###.#....",
    "....#......",
    "###.#......",
    "..#........",
    "..#........",
]
# Every row and column holds one block of 1 somewhere: 720 solutions.
DIAGONAL = ["#.....", ".#....", "..#...", "...#..", "....#.", ".....#"]
FILLS = ("FFFF0000", "FF00B050", "FF000000", "FF4472C4")


def draw(path: Path, rows: list[str], title: str = "", at=(3, 2), marks: bool = True) -> Path:
    """A teacher's drawing: cells filled in several colours, some marked x or 1 instead."""
    wb = Workbook()
    ws = wb.active
    if title:
        ws.cell(1, 1, value=title)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != "#":
                continue
            cell = ws.cell(at[0] + r, at[1] + c)
            kind = (r * 7 + c) % 5
            if marks and kind == 0:
                cell.value = "x"
            elif marks and kind == 1:
                cell.value = 1
            else:
                colour = FILLS[kind % len(FILLS)]
                cell.fill = PatternFill("solid", start_color=colour, end_color=colour)
    wb.save(path)
    return path


def count_solutions(puzzle: Puzzle, givens: np.ndarray | None = None, limit: int = 3) -> int:
    """Brute force, independent of the analyzer: row placements checked against columns."""
    h, w = puzzle.height, puzzle.width
    options = []
    for r, clues in enumerate(puzzle.rows):
        rows = []
        for mask in line_solutions(clues, w):
            cells = [bool(mask >> c & 1) for c in range(w)]
            if givens is not None:
                fixed = [(c, int(givens[r, c]) & COLOUR) for c in range(w) if givens[r, c]]
                if any(cells[c] != (s != WHITE) for c, s in fixed):
                    continue
            rows.append(cells)
        options.append(rows)
    found = 0
    for combo in itertools.product(*options):
        if Puzzle.from_solution(np.array(combo, dtype=bool).reshape(h, w)) == puzzle:
            found += 1
            if found >= limit:
                break
    return found


def make(tmp_path: Path, rows, name: str, *extra: str) -> tuple[Path, int]:
    """Draw a picture and run ``xlsolver make`` on it."""
    drawing = draw(tmp_path / f"{name}-drawing.xlsx", rows, title=name.title())
    out = tmp_path / f"{name}.xlsx"
    code = main(["make", str(drawing), "-o", str(out), "--mono", *extra])  # fills in 4 colours
    return out, code


@pytest.mark.parametrize(
    "rows, name, difficulty",
    [(HEART, "heart", "line"), (DOM3, "dom3", "probing"), (DOM5, "dom5", "search")],
)
def test_make_unique_shapes(tmp_path, capsys, rows, name, difficulty):
    """Clues match the drawing; verdict and difficulty printed and written on the sheet."""
    sol = picture(rows)
    assert rate(Puzzle.from_solution(sol)).difficulty == difficulty  # the analyzer agrees
    out, code = make(tmp_path, rows, name)
    assert code == 0
    text = capsys.readouterr().out
    assert "verdict: unique" in text and f"difficulty: {difficulty}" in text
    book = open_book(out)
    assert [s.name for s in book.sheets()] == [PUZZLE_SHEET, KEY_SHEET]
    found = read_puzzle(book.sheet(PUZZLE_SHEET), book)
    assert found.puzzle.is_solution(sol)
    ws = load_workbook(out)[PUZZLE_SHEET]
    assert ws["A1"].value == name.title()
    assert ws.print_area and ws.sheet_properties.pageSetUpPr.fitToPage
    notes = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert any(v.startswith("verdict: unique") for v in notes)
    assert any(v.startswith(f"difficulty: {difficulty}") for v in notes)
    key = read_puzzle(book.sheet(KEY_SHEET), book, givens=True)
    assert np.array_equal((key.givens & COLOUR) == 1, sol)  # the answer key is the drawing
    verdict = check_workbook(out)
    assert verdict.unique and verdict.difficulty == difficulty and verdict.steps > 0


def test_check_command_prints_json(tmp_path, capsys):
    """``check`` judges the sheet without writing anything."""
    out, _ = make(tmp_path, HEART, "heart")
    capsys.readouterr()
    before = out.read_bytes()
    assert main(["check", str(out), "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["status"] == "unique" and line["difficulty"] == "line" and line["steps"] > 5
    assert out.read_bytes() == before


def test_several_solutions_are_shown_and_fixed(tmp_path, capsys):
    """Not unique: differing cells highlighted; the suggested givens make it unique."""
    sol = picture(DIAGONAL)
    puzzle = Puzzle.from_solution(sol)
    assert count_solutions(puzzle) > 1
    out, code = make(tmp_path, DIAGONAL, "diagonal")
    assert code == 0
    text = capsys.readouterr().out
    assert "NOT unique" in text and "suggested givens" in text
    book = open_book(out)
    assert VERDICT_SHEET in [s.name for s in book.sheets()]
    found = read_puzzle(book.sheet(PUZZLE_SHEET), book)
    assert found.puzzle.is_solution(sol)
    verdict_sheet = book.sheet(VERDICT_SHEET)
    grid = read_puzzle(verdict_sheet, book).grid
    fills = np.array(verdict_sheet.read_fills(grid))
    highlighted = (fills == HIGHLIGHT_STYLE.fill) | (fills == DIFFERS_BLACK_STYLE.fill)
    assert np.array_equal(fills == DIFFERS_BLACK_STYLE.fill, highlighted & sol)
    other = sol ^ highlighted  # the drawing with the highlighted cells flipped
    assert highlighted.sum() >= 4 and puzzle.is_solution(other)  # is another solution
    # the suggested givens: unique by the analyzer and by brute force
    verdict = check_workbook(out)
    assert verdict.status == "multiple" and verdict.suggestion
    givens = givens_grid(puzzle, verdict.suggestion)
    assert all(bool(s & 1) == sol[r, c] for r, c, s in verdict.suggestion)
    assert solve(puzzle, givens=givens).status == "unique"
    assert count_solutions(puzzle, givens) == 1
    assert len(verdict.suggestion) <= 5  # a permutation of 6 needs at most 5 cells fixed
    # dropping any one given loses uniqueness (no redundant given)
    for drop in verdict.suggestion:
        rest = [g for g in verdict.suggestion if g != drop]
        assert count_solutions(puzzle, givens_grid(puzzle, rest)) > 1


def test_check_of_several_solutions_rates_the_puzzle_with_the_suggested_givens(tmp_path, capsys):
    """``check`` of a black-and-white puzzle with several solutions says how hard it is
    once the suggested givens are printed, as make --add-givens and colour check do (it
    said nothing of difficulty)."""
    out, _ = make(tmp_path, DIAGONAL, "diagonal")
    capsys.readouterr()
    assert main(["check", str(out)]) == 0
    text = capsys.readouterr().out
    assert "NOT unique" in text and "difficulty with these givens: " in text
    verdict = check_workbook(out)
    puzzle, sol = Puzzle.from_solution(picture(DIAGONAL)), picture(DIAGONAL)
    fixed = assess(puzzle, sol, givens=givens_grid(puzzle, verdict.suggestion))
    assert fixed.status == "unique" and fixed.steps > 0
    assert (verdict.difficulty, verdict.steps) == (fixed.difficulty, fixed.steps)
    assert f"difficulty with these givens: {fixed.difficulty}" in text
    assert f"; {fixed.steps} steps" in text


def test_add_givens_prints_them_on_the_puzzle(tmp_path, capsys):
    """``--add-givens``: the puzzle sheet, read back with its givens, is unique."""
    out, code = make(tmp_path, DIAGONAL, "diagonal", "--add-givens")
    assert code == 0
    capsys.readouterr()
    assert main(["check", str(out)]) == 0
    assert "verdict: unique" in capsys.readouterr().out
    hints = tmp_path / "hints.xlsx"
    assert main(["hints", str(out), "-o", str(hints)]) == 0
    sol = picture(DIAGONAL)
    for cells in read_hint_steps(hints):
        assert all(sol[r, c] == black for r, c, black in cells)


def test_image_to_puzzle(tmp_path, capsys):
    """A PNG scaled to --size with a threshold gives the picture's clues."""
    from PIL import Image

    sol = picture(HEART)
    big = np.kron(sol, np.ones((4, 4), dtype=bool))  # 40×40 pixels
    grey = np.where(big, 30, 230).astype(np.uint8)
    png = tmp_path / "heart.png"
    Image.fromarray(grey, mode="L").save(png)
    out = tmp_path / "from-image.xlsx"
    code = main(
        ["make", "--image", str(png), "--size", "10x10", "--threshold", "128", "-o", str(out)]
    )
    assert code == 0
    book = open_book(out)
    assert read_puzzle(book.sheet(PUZZLE_SHEET), book).puzzle.is_solution(sol)
    assert np.array_equal(read_image(png, size=(10, 10)).picture, sol)
    # a low threshold sees nothing black
    assert main(["make", "--image", str(png), "--threshold", "10", "-o", str(out)]) == 2
    assert "darker than the threshold" in capsys.readouterr().err


def test_pixel_art_scaled_up_is_read_a_block_a_cell(tmp_path, capsys):
    """Without --size, pixel art exported at 4×3 pixels a cell (transparent paper, as
    pixel-art editors save it) is read as its 10×10 cells, and the command says so; an
    image whose edges fall between blocks is read a cell a pixel."""
    from PIL import Image

    sol = picture(HEART)
    rgba = np.zeros((30, 40, 4), dtype=np.uint8)  # 3 pixels high, 4 wide a cell
    rgba[np.kron(sol, np.ones((3, 4), dtype=bool))] = (20, 20, 20, 255)
    png = tmp_path / "sprite.png"
    Image.fromarray(rgba, mode="RGBA").save(png)
    assert np.array_equal(read_image(png).picture, sol)
    out = tmp_path / "sprite.xlsx"
    assert main(["make", "--image", str(png), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "40×30 pixels drawn in blocks of 4×3, read as 10×10 cells" in captured.err
    assert "(10×10)" in captured.out
    book = open_book(out)
    assert read_puzzle(book.sheet(PUZZLE_SHEET), book).puzzle.is_solution(sol)
    given = tmp_path / "given.xlsx"  # the picture where the drawing goes: read as --image
    assert main(["make", str(png), "-o", str(given)]) == 0
    assert "read as 10×10 cells" in capsys.readouterr().err
    book = open_book(given)
    assert read_puzzle(book.sheet(PUZZLE_SHEET), book).puzzle.is_solution(sol)
    unnamed = tmp_path / "sprite"  # no suffix: known by its first bytes
    unnamed.write_bytes(png.read_bytes())
    assert main(["make", str(unnamed), "-o", str(tmp_path / "unnamed.xlsx")]) == 0
    rgba[0, 1] = (20, 20, 20, 255)  # one pixel off the grid of blocks
    Image.fromarray(rgba, mode="RGBA").save(png)
    assert read_image(png).picture.shape == (30, 40)


def test_hints_sheet_replays_to_the_solution(tmp_path, capsys):
    """Every step of the sheet is right, in order, and together they fill the grid."""
    for rows, name in ((HEART, "heart"), (DOM3, "dom3"), (DOM5, "dom5")):
        sol = picture(rows)
        out, _ = make(tmp_path, rows, name)
        hints = tmp_path / f"{name}-hints.xlsx"
        assert main(["hints", str(out), "-o", str(hints), "--stages", "3"]) == 0
        steps = read_hint_steps(hints)
        known = np.zeros(sol.shape, dtype=bool)
        for cells in steps:
            assert cells
            for r, c, black in cells:
                assert not known[r, c] and sol[r, c] == black
                known[r, c] = True
        assert known.all()
        wb = load_workbook(hints)
        assert wb.sheetnames == ["Steps", "Order", "Stage 1", "Stage 2", "Stage 3"]
        reasons = [row[4] for row in wb["Steps"].iter_rows(min_row=4, values_only=True)]
        assert all(isinstance(r, str) and r for r in reasons)
    assert "dom5" in capsys.readouterr().out


def test_hints_of_a_worksheet_with_several_solutions_guess_towards_its_answer_key(tmp_path, capsys):
    """A drawing with several solutions: the hints' guess follows the worksheet's Answer
    key, the drawing (it followed the solver's first solution: on one of the two diagonals
    the steps ended on the other picture, "the answer has it white" where the key had
    black)."""
    other = [".##.#.", "##...#", "#.#.#.", "#..#..", ".##.#.", ".#.##."]  # solved otherwise
    for rows, name in ((["#.", ".#"], "diagonal"), ([".#", "#."], "anti"), (other, "six")):
        sol = picture(rows)
        out, code = make(tmp_path, rows, name)
        assert code == 0 and "NOT unique" in capsys.readouterr().out
        hints = tmp_path / f"{name}-hints.xlsx"
        assert main(["hints", str(out), "-o", str(hints)]) == 0
        assert "guess" in capsys.readouterr().out
        known = np.zeros(sol.shape, dtype=bool)
        for cells in read_hint_steps(hints):
            for r, c, black in cells:
                assert sol[r, c] == black, (name, r, c)
                known[r, c] = True
        assert known.all()


def test_hints_in_japanese(tmp_path, capsys):
    """``--lang ja``: the reasons are in Japanese."""
    out, _ = make(tmp_path, HEART, "heart")
    hints = tmp_path / "hints-ja.xlsx"
    assert main(["hints", str(out), "-o", str(hints), "--lang", "ja"]) == 0
    wb = load_workbook(hints)
    assert wb.sheetnames == ["手順", "順番"]
    ws = wb.worksheets[0]
    reasons = [row[4] for row in ws.iter_rows(min_row=4, values_only=True)]
    assert any("真ん中" in r for r in reasons) and all("行目" in r or "列目" in r for r in reasons)
    assert [c.value for c in ws[3]] == ["番号", "線", "規則", "マス", "理由"]
    assert ws["A1"].value == "Heart — ヒント"
    assert wb["順番"]["A1"].value == "Heart — 推理の順番"


def answer(path: Path, key: Path, black: np.ndarray, name: str | None = None) -> Path:
    """A student's returned copy: black cells filled (any colour), white ones crossed."""
    shutil.copy(key, path)
    wb = load_workbook(path)
    ws = wb[PUZZLE_SHEET]
    book = open_book(key)
    top, left, _, _ = read_puzzle(book.sheet(PUZZLE_SHEET), book).grid
    for (r, c), v in np.ndenumerate(black):
        cell = ws.cell(top + r, left + c)
        if v:
            colour = FILLS[(r + c) % len(FILLS)]
            cell.fill = PatternFill("solid", start_color=colour, end_color=colour)
        elif (r + c) % 2:
            cell.value = "×"
    if name:  # on the line right of "Name:", above the grid
        ws.cell(*name_cell((top, left, top, left)), value=name)
    wb.save(path)
    return path


def test_grade_reads_x_beside_filled_cells_as_a_cross(tmp_path, capsys):
    """A student who fills the black cells and types x in the white ones (ruling them
    out) had every white cell marked wrong without a word; beside fills, x may be a
    cross or a black mark, and the reading nearer the key is hers. Typed alone, without
    fills, x stays a black mark."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    filled = answer(tmp_path / "ann.xlsx", key, sol)
    wb = load_workbook(filled)
    book = open_book(key)
    top, left = read_puzzle(book.sheet(PUZZLE_SHEET), book).grid[:2]
    typed = load_workbook(key)
    for (r, c), black in np.ndenumerate(sol):
        if not black:
            wb[PUZZLE_SHEET].cell(top + r, left + c).value = "x"  # every white cell ruled out
        else:
            typed[PUZZLE_SHEET].cell(top + r, left + c).value = "x"  # x for black, no fills
    wb.save(filled)
    typed.save(tmp_path / "bob.xlsx")
    mixed = load_workbook(key)  # black cells: some filled, the rest x; white ones empty
    for n, ((r, c), black) in enumerate(np.ndenumerate(sol)):
        cell = mixed[PUZZLE_SHEET].cell(top + r, left + c)
        if black and n % 3:
            cell.fill = PatternFill("solid", start_color="FF000000", end_color="FF000000")
        elif black:
            cell.value = "x"
    mixed.save(tmp_path / "cho.xlsx")
    capsys.readouterr()
    names = [str(tmp_path / f"{n}.xlsx") for n in ("ann", "bob", "cho")]
    assert main(["grade", *names, "--key", str(key), "--out", str(tmp_path / "g")]) == 0
    out = capsys.readouterr().out
    for name in ("ann", "bob", "cho"):  # cho's x meant black (read as a cross she lost 7)
        assert f"{name}: 0 wrong of 100" in out, out
    key, _ = make(tmp_path, ["#.", ".#"], "two")  # two solutions; the key is the drawing
    other = load_workbook(key)  # the other diagonal: one cell filled, one x for black
    top, left = read_puzzle(open_book(key).sheet(PUZZLE_SHEET), open_book(key)).grid[:2]
    other[PUZZLE_SHEET].cell(top, left + 1).fill = PatternFill("solid", start_color="FF000000")
    other[PUZZLE_SHEET].cell(top + 1, left).value = "x"
    other.save(tmp_path / "dan.xlsx")
    capsys.readouterr()
    args = ["grade", str(tmp_path / "dan.xlsx"), "--key", str(key), "--out", str(tmp_path / "h")]
    assert main(args) == 0
    assert "dan: 0 wrong of 4" in capsys.readouterr().out  # x read as a cross: 2 wrong


def test_check_and_hints_name_the_wrong_mark_of_a_half_filled_sheet(tmp_path, capsys):
    """A pupil's half-filled sheet with one wrong black: check and hints said "row 7
    cannot be placed", a row left empty; they name the cell every solution disagrees
    with, found here by counting solutions apart from the engine."""
    key, code = make(tmp_path, HEART, "heart")
    assert code == 0
    solution = picture(HEART)
    wrong = next((r, c) for (r, c), v in np.ndenumerate(solution) if not v and r >= 3)
    sheet = tmp_path / "half.xlsx"
    shutil.copy(key, sheet)
    wb = load_workbook(sheet)
    book = open_book(key)
    top, left, _, _ = read_puzzle(book.sheet(PUZZLE_SHEET), book).grid
    for r, c in [*zip(*np.nonzero(solution[:3]), strict=True), wrong]:  # top rows, and one
        grey = PatternFill("solid", start_color="FF808080", end_color="FF808080")
        wb[PUZZLE_SHEET].cell(top + int(r), left + int(c)).fill = grey
    wb.save(sheet)
    puzzle = Puzzle.from_solution(solution)
    assert count_solutions(puzzle) == 1  # so every solution has the wrong cell white
    capsys.readouterr()
    assert main(["check", str(sheet)]) == 1  # a contradiction, as the exit status says
    at = f"r{wrong[0] + 1}c{wrong[1] + 1}"
    said = f"every solution of the clues disagrees with the cell filled in at {at}"
    assert said in capsys.readouterr().out
    assert main(["hints", str(sheet), "-o", str(tmp_path / "h.xlsx")]) == 1
    assert said in capsys.readouterr().err


def test_a_note_beside_the_drawing_is_not_its_title(tmp_path, capsys):
    """Notes right of the drawing ("# = black") were printed as the worksheet's title; a
    title is text above the drawing, and without one the file's name titles it."""
    for above in ("", "Valentine"):
        drawing = draw(tmp_path / "heart-notes.xlsx", HEART, title=above)
        wb = load_workbook(drawing)
        ws = wb.active
        ws.cell(3, 2 + len(HEART[0]) + 2, "# = black")
        ws.cell(4, 2 + len(HEART[0]) + 2, "leave the rest white")
        wb.save(drawing)
        out = tmp_path / "sheet.xlsx"
        assert main(["make", str(drawing), "-o", str(out), "--mono", "--json"]) == 0
        capsys.readouterr()
        book = open_book(out)
        found = read_puzzle(book.sheet(PUZZLE_SHEET), book)
        from xlsolver.teaching.worksheet import sheet_title

        assert sheet_title(book, found) == (above or "heart-notes")


def test_a_name_field_above_the_drawing_is_not_its_title(tmp_path, capsys):
    """ "Name:" (or "Name: ______", "名前：") typed above a drawing titled the worksheet,
    its answer key and the class summary "Name:"; a field to fill in is passed over."""
    from xlsolver.teaching.worksheet import sheet_title

    cases = (({"A1": "Name:"}, "named"), ({"A1": "Name: ________", "C2": "The Cat"}, "The Cat"))
    cases += (({"A1": "名前：", "B1": "Date: ..."}, "named"),)
    cases += (({"A1": "Name: ____  Date: ____", "A2": "The Cat"}, "The Cat"),)
    cases += (({"A1": "Name", "B1": "Ann", "A2": "The Cat"}, "The Cat"),)  # her name: no title
    cases += (({"A1": "Puzzle 3:"}, "Puzzle 3:"),)  # a title may end in a colon
    cases += (({"A1": "School"}, "School"), ({"A1": "日付"}, "日付"))  # a field's word alone
    cases += (({"A1": "Nom : ____", "A2": "Le chat"}, "Le chat"),)
    cases += (({"A1": "Period: ____", "A2": "Datum:", "A3": "Class trip"}, "Class trip"),)
    for texts, want in cases:
        drawing = draw(tmp_path / "named.xlsx", HEART, at=(4, 2))
        wb = load_workbook(drawing)
        for ref, text in texts.items():
            wb.active[ref] = text
        wb.save(drawing)
        out = tmp_path / "sheet.xlsx"
        assert main(["make", str(drawing), "-o", str(out), "--mono", "--json"]) == 0
        capsys.readouterr()
        book = open_book(out)
        assert sheet_title(book, read_puzzle(book.sheet(PUZZLE_SHEET), book)) == want


def test_grade_of_an_untouched_sheet_does_not_point_at_the_verdict_sheet(tmp_path, capsys):
    """A worksheet of a puzzle with several solutions carries make's Verdict sheet (its
    own fills): an untouched copy handed back was said to hold marks there."""
    key, code = make(tmp_path, DIAGONAL, "diagonal")
    assert code == 0 and "Verdict" in load_workbook(key).sheetnames
    blank = tmp_path / "blank.xlsx"
    shutil.copy(key, blank)
    capsys.readouterr()
    main(["grade", str(blank), "--key", str(key), "--out", str(tmp_path / "g")])
    said = capsys.readouterr().out
    assert "nothing filled in on the grid" in said and "Verdict" not in said, said


def test_grade_of_an_untouched_sheet_with_printed_givens_says_nothing_was_filled_in(
    tmp_path, capsys
):
    """With givens printed (make --add-givens) an untouched copy got no note: the printed
    cells were taken for the student's marks; a copy of the sheet holding them alone is
    no answer written elsewhere either."""
    key, code = make(tmp_path, DIAGONAL, "diagonal", "--add-givens")
    assert code == 0
    wb = load_workbook(key)
    blank, elsewhere = tmp_path / "blank.xlsx", tmp_path / "elsewhere.xlsx"
    wb.save(blank)
    wb.copy_worksheet(wb[PUZZLE_SHEET]).title = "My answer"
    wb.save(elsewhere)
    capsys.readouterr()
    main(["grade", str(blank), str(elsewhere), "--key", str(key), "--out", str(tmp_path / "g")])
    lines = [line for line in capsys.readouterr().out.splitlines() if ".xlsx:" in line]
    assert len(lines) == 2 and all(
        line.endswith("(nothing filled in on the grid)") for line in lines
    )


def test_grade_counts_wrong_cells(tmp_path, capsys):
    """Per file the wrong cells are counted and marked; the summary lists every student."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    folder = tmp_path / "answers"
    folder.mkdir()
    perfect = answer(folder / "ann.xlsx", key, sol, name="Ann Lee")
    three = sol.copy()
    for r, c in ((0, 0), (2, 5), (9, 4)):
        three[r, c] = not three[r, c]
    wrong3 = answer(folder / "bob.xlsx", key, three)
    blank = answer(folder / "cat.xlsx", key, np.zeros_like(sol))
    other, _ = make(tmp_path, DOM3, "dom3")
    stranger = folder / "dan.xlsx"
    shutil.copy(other, stranger)
    out_dir = tmp_path / "graded"
    code = main(
        [
            "grade",
            str(perfect),
            str(wrong3),
            str(blank),
            str(stranger),
            "--key",
            str(key),
            "--out-dir",
            str(out_dir),
        ]
    )
    assert code == 2  # dan's sheet is another puzzle
    text = capsys.readouterr().out
    assert "Ann Lee: 0 wrong" in text and "bob: 3 wrong" in text
    assert f"cat: {int(sol.sum())} wrong" in text and "not graded" in text
    marked = open_book(out_dir / "bob-graded.xlsx")
    grid = read_puzzle(marked.sheet(PUZZLE_SHEET), marked).grid
    fills = np.array(marked.sheet(PUZZLE_SHEET).read_fills(grid))
    assert sorted(zip(*np.nonzero(fills == WRONG_STYLE.fill), strict=True)) == [
        (0, 0),
        (2, 5),
        (9, 4),
    ]
    rows = list(load_workbook(out_dir / "summary.xlsx")["Summary"].iter_rows(values_only=True))
    assert rows[2] == ("name", "score", "wrong cells", "file", "note")
    table = {row[0]: row for row in rows[3:7]}
    assert table["Ann Lee"][1:3] == (100, 0)  # name, score, wrong cells side by side
    assert table["bob"][1:3] == (97, 3)
    assert table["dan"][2] is None and "differ" in table["dan"][4]
    grades = grade_files([wrong3], key)
    assert grades[0].wrong == 3 and grades[0].wrong_cells == [(0, 0), (2, 5), (9, 4)]


def test_grade_names_a_number_a_pupil_typed_among_the_clues(tmp_path, capsys):
    """A right grid and a 3 typed in an empty clue cell: "rows hold 40 black cells,
    columns 37" named no cell; the line that differs from the key is named."""
    key, _ = make(tmp_path, HEART, "heart")
    work = answer(tmp_path / "ann.xlsx", key, picture(HEART))
    found = read_puzzle(open_book(work).sheet(PUZZLE_SHEET), open_book(work))
    i, rect = next(
        (i, rect)
        for i, rect in enumerate(found.row_clue_cells)
        if len(found.puzzle.rows[i]) < rect[3] - rect[1] + 1
    )
    wb = load_workbook(work)
    wb[PUZZLE_SHEET].cell(rect[0], rect[1], 3)
    wb.save(work)
    capsys.readouterr()
    assert main(["grade", str(work), "--key", str(key), "--out", str(tmp_path / "g")]) == 2
    captured = capsys.readouterr()
    said = captured.out + captured.err
    want = " ".join(map(str, found.puzzle.rows[i]))
    assert f"row {i + 1} reads 3 {want} where the key has {want}" in said, said


def test_grade_says_a_worksheet_of_another_puzzle_is_another_puzzle(tmp_path, capsys):
    """Last week's worksheet, another puzzle of the same size, was blamed on a number
    typed among the clues of its first line; when more than two lines differ, grade
    says how many, and asks whether it is another puzzle."""
    key, _ = make(tmp_path, HEART, "heart")
    other, _ = make(tmp_path, HEART[::-1], "upside")
    work = answer(tmp_path / "ann.xlsx", other, picture(HEART[::-1]))
    capsys.readouterr()
    assert main(["grade", str(work), "--key", str(key), "--out", str(tmp_path / "g")]) == 2
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "the clues differ from the key's (" in said, said
    assert "lines: another puzzle?" in said and "typed among" not in said, said
    ours, theirs = (Puzzle.from_solution(picture(rows)) for rows in (HEART, HEART[::-1]))
    lines = zip(ours.rows + ours.cols, theirs.rows + theirs.cols, strict=True)
    assert f"in {sum(a != b for a, b in lines)} of 20 lines" in said, said


def test_grade_passes_over_a_red_stroke_on_a_clue_cell(tmp_path):
    """A right grid painted red, one stroke slipping onto the clue cell of a full row:
    "not graded — this sheet holds a colour puzzle, the key a black-and-white one".
    Against a black-and-white key the clue cells' fills are passed over, and named."""
    key, _ = make(tmp_path, HEART, "heart")
    work = answer(tmp_path / "ann.xlsx", key, picture(HEART))
    found = read_puzzle(open_book(work).sheet(PUZZLE_SHEET), open_book(work))
    rect = found.row_clue_cells[2]  # row 3 is full: its one clue, 10, in the last cell
    wb = load_workbook(work)
    ws = wb[PUZZLE_SHEET]
    cell = ws.cell(rect[0], rect[3])
    assert cell.value == 10
    cell.fill = PatternFill("solid", start_color="FFFF0000", end_color="FFFF0000")
    wb.save(work)
    grade = grade_files([work], key)[0]
    assert not grade.error and (grade.wrong, grade.cells) == (0, 100), grade.error
    assert grade.note == f"fills on the clues passed over: {PUZZLE_SHEET}!{cell.coordinate}"


def test_grade_reads_a_number_typed_in_a_grid_cell_as_unmarked(tmp_path):
    """A right grid with 2 typed in a white cell (a pupil counting) was not graded
    ("inside the grid … is not a mark") while ``oops`` there was: the cell counts as
    the student left it, unmarked, and the note names it."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    work = answer(tmp_path / "ann.xlsx", key, sol)
    top, left = read_puzzle(open_book(key).sheet(PUZZLE_SHEET), open_book(key)).grid[:2]
    wb = load_workbook(work)
    cell = wb[PUZZLE_SHEET].cell(top, left, 2)  # r1c1: white in the heart
    wb.save(work)
    grade = grade_files([work], key)[0]
    assert not grade.error and (grade.wrong, grade.cells) == (0, 100), grade.error
    assert grade.note == f"numbers in the grid read as unmarked: {PUZZLE_SHEET}!{cell.coordinate}"


@pytest.mark.parametrize("mark", ["★", "⬛", "▪", "◾", "•", "⚫", "黒"])
def test_grade_reads_stars_squares_and_kanji_as_black(tmp_path, mark):
    """A hand-in whose black cells hold ★, ⬛, ▪, • or 黒 was graded as empty (30 wrong
    of 64-odd, 'nothing filled in on the grid'); they are black marks now, and 白, ⬜, ▫
    and ◽ white (every white cell so marked: none is named as no mark)."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    work = answer(tmp_path / "ann.xlsx", key, np.zeros_like(sol))
    top, left = read_puzzle(open_book(key).sheet(PUZZLE_SHEET), open_book(key)).grid[:2]
    wb = load_workbook(work)
    for r, c in zip(*np.nonzero(sol), strict=True):
        wb[PUZZLE_SHEET].cell(top + int(r), left + int(c), mark)
    white = {"⬛": "⬜", "▪": "▫", "◾": "◽"}.get(mark, "白")  # each square's white partner
    for r, c in np.argwhere(~sol):
        wb[PUZZLE_SHEET].cell(top + int(r), left + int(c), white)
    wb.save(work)
    grade = grade_files([work], key)[0]
    assert not grade.error and (grade.wrong, grade.note) == (0, ""), (grade.wrong, grade.note)


def test_grade_names_text_in_the_grid_that_is_no_mark(tmp_path):
    """A hand-in marked with ? in every black cell: graded 'nothing filled in on the
    grid', which was not so; the note names the text and where it stands."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    work = answer(tmp_path / "ann.xlsx", key, np.zeros_like(sol))
    top, left = read_puzzle(open_book(key).sheet(PUZZLE_SHEET), open_book(key)).grid[:2]
    wb = load_workbook(work)
    cells = []
    for r, c in zip(*np.nonzero(sol), strict=True):
        cells.append(wb[PUZZLE_SHEET].cell(top + int(r), left + int(c), "?").coordinate)
    wb.save(work)
    grade = grade_files([work], key)[0]
    named = ", ".join(f"{PUZZLE_SHEET}!{c}" for c in cells[:5])
    assert grade.note == (
        f"“?” in the grid is no mark, read as unmarked: {named} … (+{len(cells) - 5})"
    ), grade.note
    assert grade.wrong == int(sol.sum())


def test_grade_keeps_apart_students_files_of_one_name(tmp_path, capsys):
    """One folder per student with the same file name (as a course site hands them out):
    every marked copy is kept, named with its folder, and the summary tells them apart."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    wrong = sol.copy()
    wrong[0, 0] = not wrong[0, 0]
    (tmp_path / "ann").mkdir()
    (tmp_path / "bob").mkdir()
    first = answer(tmp_path / "ann" / "answer.xlsx", key, sol)
    second = answer(tmp_path / "bob" / "answer.xlsx", key, wrong)
    out_dir = tmp_path / "graded"
    args = ["grade", str(first), str(second), "--key", str(key), "--out-dir", str(out_dir)]
    assert main(args) == 0
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "ann-answer-graded.xlsx",
        "bob-answer-graded.xlsx",
        "summary.xlsx",
    ]
    assert "replaced" not in capsys.readouterr().err
    for name, wrong_cells in (("ann-answer-graded.xlsx", 0), ("bob-answer-graded.xlsx", 1)):
        marked = open_book(out_dir / name)
        grid = read_puzzle(marked.sheet(PUZZLE_SHEET), marked).grid
        fills = np.array(marked.sheet(PUZZLE_SHEET).read_fills(grid))
        assert int((fills == WRONG_STYLE.fill).sum()) == wrong_cells
    rows = list(load_workbook(out_dir / "summary.xlsx")["Summary"].iter_rows(values_only=True))
    assert [row[3] for row in rows[3:5]] == ["ann/answer.xlsx", "bob/answer.xlsx"]


def test_a_refused_grade_makes_no_folder_and_grading_only_the_key_is_refused(
    tmp_path, capsys, monkeypatch
):
    """A summary over a hand-in, or a key that is not there, is refused (nothing
    written) but the output folder was made; the key alone as the only hand-in wrote an
    empty summary, exit 0."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    first = answer(tmp_path / "ann.xlsx", key, sol)
    capsys.readouterr()
    out_dir = tmp_path / "graded"
    for args, said in (
        ([str(first), "--key", str(key), "-o", str(first)], "refusing to write over the input"),
        ([str(first), "--key", str(tmp_path / "missing.xlsx")], "missing.xlsx"),
        ([str(key), "--key", str(key)], "is the key itself: no student's workbook to grade"),
    ):
        assert main(["grade", *args, "--out-dir", str(out_dir)]) == 2
        assert said in capsys.readouterr().err
        assert not out_dir.exists()
    assert main(["grade", str(first), "--key", str(key), "--out-dir", str(out_dir)]) == 0
    assert sorted(p.name for p in out_dir.iterdir()) == ["ann-graded.xlsx", "summary.xlsx"]
    # the summary in a folder yet to be made, named relative where --out-dir is absolute
    monkeypatch.chdir(tmp_path)
    args = ["--out-dir", str(tmp_path / "new"), "--summary", "new/sum.xlsx"]
    assert main(["grade", str(first), "--key", str(key), *args]) == 0
    assert (tmp_path / "new" / "sum.xlsx").exists()


def test_grade_with_the_drawing_as_key_names_it(tmp_path, capsys):
    """The drawing given as ``--key`` (not the worksheet make wrote): one line naming it."""
    key, _ = make(tmp_path, HEART, "heart")
    drawing = tmp_path / "heart-drawing.xlsx"
    student = answer(tmp_path / "eve.xlsx", key, picture(HEART))
    capsys.readouterr()
    args = ["grade", str(student), "--key", str(drawing), "--out-dir", str(tmp_path / "g")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"xlsolver: {drawing}: ") and err.count("\n") == 1, err
    assert not (tmp_path / "g" / "eve-graded.xlsx").exists()


def test_out_dir_that_is_a_file_is_one_clear_line(tmp_path, capsys):
    """``--out-dir`` naming an existing file: one line, exit 2, nothing written."""
    key, _ = make(tmp_path, HEART, "heart")
    student = answer(tmp_path / "eve.xlsx", key, picture(HEART))
    before = key.read_bytes()
    assert main(["grade", str(student), "--key", str(key), "--out-dir", str(key)]) == 2
    assert main(["solve", str(student), "--out-dir", str(key)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"xlsolver: {key}: --out-dir must be a folder; this is a file"] * 2
    assert key.read_bytes() == before


def test_grade_accepts_another_solution(tmp_path):
    """On a puzzle with several solutions, any grid meeting every clue scores full marks."""
    sol = picture(DIAGONAL)
    key, _ = make(tmp_path, DIAGONAL, "diagonal")
    swapped = sol.copy()
    swapped[[0, 1]] = swapped[[1, 0]]  # rows 1 and 2 exchanged: still one 1 per line
    assert Puzzle.from_solution(sol).is_solution(swapped)
    broken = sol.copy()
    broken[0, 0] = False
    grades = grade_files(
        [answer(tmp_path / "eve.xlsx", key, swapped), answer(tmp_path / "fay.xlsx", key, broken)],
        key,
    )
    assert (grades[0].wrong, grades[1].wrong) == (0, 1) and grades[0].note


def test_python_api_make_from_drawing(tmp_path):
    """The same actions from Python: read a drawing, make the worksheet."""
    path = draw(tmp_path / "d.xlsx", HEART, title="My heart", at=(5, 4))
    drawing = read_drawing_file(path)
    assert drawing.title == "My heart" and np.array_equal(drawing.picture, picture(HEART))
    verdict, out = make_worksheet(drawing, tmp_path / "p.xlsx")
    assert verdict.unique and out.exists()


@pytest.mark.parametrize(
    "canvas",
    [
        {"fgColor": "FFF2F2F2"},  # a pale grey laid under the picture
        {"fgColor": "FFFFF2CC"},  # Excel's pale yellow
        {"fgColor": Color(theme=4, tint=0.7999816888943144)},  # "Accent 1, Lighter 80%"
    ],
)
def test_a_light_canvas_under_a_drawing_is_paper(tmp_path, canvas):
    """A drawing on cells pre-filled with a light tint reads as the black cells alone (the
    tint was read as a second colour, or as black with --mono: a puzzle of all black)."""
    wb = Workbook()
    ws = wb.active
    for (r, c), black in np.ndenumerate(picture(HEART)):
        tint = PatternFill("solid", **canvas)
        ws.cell(3 + r, 2 + c).fill = PatternFill("solid", fgColor="FF000000") if black else tint
    ws.cell(3, 2, "x")  # a mark typed on the canvas stays black
    wb.save(tmp_path / "canvas.xlsx")
    drawing = read_drawing_file(tmp_path / "canvas.xlsx")
    expected = picture(HEART)
    expected[0, 0] = True
    assert drawing.colours is None and np.array_equal(drawing.picture, expected)


def test_a_drawing_typed_with_marks_reads_them_as_grade_and_givens_do(tmp_path):
    """Black marks (x 1 ■ # ● █) are black; white marks (× 0 ・) are paper, as everywhere."""
    wb = Workbook()
    ws = wb.active
    rows = [["x", "1", "■", "#"], ["●", "×", "0", "・"], ["█", None, "x", "×"]]
    for r, row in enumerate(rows, 2):
        for c, value in enumerate(row, 2):
            ws.cell(r, c, value)
    wb.save(tmp_path / "typed.xlsx")
    drawing = read_drawing_file(tmp_path / "typed.xlsx")
    expected = [[True, True, True, True], [True, False, False, False], [True, False, True, False]]
    assert drawing.picture.tolist() == expected


@pytest.mark.parametrize(
    "labels",
    [[1, 2, 3, 4, 5], ["１", "２", "３", "４", "５"], [5, 4, 3, 2, 1], [0, 1, 2, 3, 4]],
    ids=["numbers", "full-width text", "counting down", "from 0"],
)
def test_row_and_column_numbers_beside_a_drawing_are_no_marks(tmp_path, labels):
    """Rows numbered 1, 2, 3 … down the left and columns across the top: each 1 was read
    as a black mark, so the picture grew a stray black cell and a column and a row of
    labels. A 1 of the picture stays a mark, even beside the row numbered 2."""
    picture_rows = ["#.#.#", "####.", "#####", ".#.#.", "#...#"]
    wb = Workbook()
    ws = wb.active
    for i, label in enumerate(labels):
        ws.cell(3 + i, 2, label)  # row numbers in column B
        ws.cell(2, 3 + i, label)  # column numbers in row 2
    for r, row in enumerate(picture_rows):
        for c, ch in enumerate(row):
            if ch == "#":
                ws.cell(3 + r, 3 + c, 1)  # the picture typed in 1s
    wb.save(tmp_path / "numbered.xlsx")
    drawing = read_drawing_file(tmp_path / "numbered.xlsx")
    assert drawing.rect == (3, 3, 7, 7)
    assert drawing.picture.tolist() == [[ch == "#" for ch in row] for row in picture_rows]


def test_filled_cells_showing_numbers_stay_marks(tmp_path):
    """A colour-by-number drawing: every filled cell holds its colour's number, so a
    filled 1 may stand before a 2 and a 3. A fill is a mark, whatever it holds (the rule
    for numbering took such cells out of the picture)."""
    rows = ["###..", ".###.", "..###", "#..#.", "##..#"]
    wb = Workbook()
    ws = wb.active
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                cell = ws.cell(2 + r, 2 + c, (r + c) % 3 + 1)  # 1 2 3 along each run
                cell.fill = PatternFill("solid", start_color="000000", end_color="000000")
    wb.save(tmp_path / "numbers.xlsx")
    drawing = read_drawing_file(tmp_path / "numbers.xlsx")
    assert drawing.picture.tolist() == [[ch == "#" for ch in row] for row in rows]


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    """Errors name the problem; nothing is written."""
    empty = tmp_path / "empty.xlsx"
    Workbook().save(empty)
    out = tmp_path / "never.xlsx"
    assert main(["make", str(empty), "-o", str(out)]) == 2
    assert "empty" in capsys.readouterr().err and not out.exists()
    drawing = draw(tmp_path / "d.xlsx", HEART)
    assert main(["make", str(drawing), "-o", str(drawing)]) == 2
    assert "refusing" in capsys.readouterr().err
    assert main(["check", str(tmp_path / "missing.xlsx")]) == 2
    assert main(["make", "--image", str(tmp_path / "nope.png"), "-o", str(out)]) == 2
    assert not out.exists()


@pytest.mark.parametrize("rows", [["...#.", "#####"], ["#.#", ".##"], ["##.##.##.", "#########"]])
def test_a_short_wide_drawing_makes_a_sheet_that_reads_back(tmp_path, capsys, rows):
    """Every column one block or none: the column clues stand in one row right under the
    name line. Its underline closed those clue cells into boxes, and check, hints and
    grade took them for the grid (``width 5 disagrees with the grid``)."""
    out, code = make(tmp_path, rows, "wide")
    assert code == 0
    capsys.readouterr()
    assert main(["check", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unique"
    book = open_book(out)
    found = read_puzzle(book.sheet(PUZZLE_SHEET), book)
    assert found.puzzle.is_solution(picture(rows))
    student = answer(tmp_path / "ann.xlsx", out, picture(rows), name="Ann")
    assert [(g.name, g.wrong, g.error) for g in grade_files([student], out)] == [("Ann", 0, "")]


def test_hints_of_a_puzzle_without_solution_say_where_it_clashes(tmp_path, capsys):
    """No solution: exit 1, the line that breaks, nothing written. Steps came out (4 for
    the sample, exit 0), ending in a grid that breaks the clues."""
    out = tmp_path / "hints.xlsx"
    assert main(["hints", str(WORKBOOKS / "contradiction.xlsx"), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "contradiction.xlsx: no solution: column 1 cannot be placed" in err
    assert not out.exists()


def test_hints_from_filled_cells_that_break_the_clues_name_the_line(tmp_path, capsys):
    """A grid filled in wrong (the last row flipped) or with two clashing cells: exit 1
    naming the filled cells every solution disagrees with; a complete right grid has 0
    steps."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    book = open_book(key)
    top, left, _, _ = read_puzzle(book.sheet(PUZZLE_SHEET), book).grid
    flipped = sol.copy()
    flipped[-1] = ~flipped[-1]
    clash = np.zeros_like(sol)
    clash[2, 0] = True  # row 3 is full: a white beside this black breaks it
    for name, grid in (("flipped", flipped), ("clash", clash)):
        work = answer(tmp_path / f"{name}.xlsx", key, grid)
        wb = load_workbook(work)
        wb[PUZZLE_SHEET].cell(top + 2, left + 1, "×" if name == "clash" else None)
        wb.save(work)
        out = tmp_path / f"{name}-hints.xlsx"
        capsys.readouterr()
        assert main(["hints", str(work), "-o", str(out)]) == 1
        err = capsys.readouterr().err
        wrong = np.argwhere(grid != sol) if name == "flipped" else [(2, 1)]  # the × too
        r, c = wrong[0]
        assert "every solution of the clues disagrees with the cells filled in at " in err
        assert f" r{r + 1}c{c + 1} " in err, err
        assert not out.exists()
    done = answer(tmp_path / "done.xlsx", key, sol)
    wb = load_workbook(done)
    for (r, c), black in np.ndenumerate(sol):
        wb[PUZZLE_SHEET].cell(top + r, left + c, None if black else "×")
    wb.save(done)
    out = tmp_path / "done-hints.xlsx"
    assert main(["hints", str(done), "-o", str(out)]) == 0
    assert "0 steps (the grid is already complete)" in capsys.readouterr().out


def test_make_range_is_checked_and_may_name_its_sheet(tmp_path, capsys):
    """``--range foo`` was a Python traceback and ``Z1:A0`` numpy's "negative dimensions";
    ``Art!C4:L13`` (the form solve --range takes) was refused. Now: one line naming
    --range, nothing written; a sheet-qualified range picks its sheet."""
    wb = Workbook()
    wb.active["A1"] = "Read me first"
    art = wb.create_sheet("Art")
    for (r, c), black in np.ndenumerate(picture(HEART)):
        if black:
            art.cell(4 + r, 3 + c).fill = PatternFill("solid", fgColor="FF000000")
    wb.save(tmp_path / "two.xlsx")
    out = tmp_path / "p.xlsx"
    for bad, words in (("foo", "expected a range like"), ("Z1:A0", "rows are numbered from 1")):
        assert main(["make", str(tmp_path / "two.xlsx"), "-o", str(out), "--range", bad]) == 2
        err = capsys.readouterr().err
        assert f"--range {bad}: {words}" in err and "Traceback" not in err
        assert len(err.splitlines()) == 1 and not out.exists()
    args = ["make", str(tmp_path / "two.xlsx"), "-o", str(out), "--range", "Art!C4:L13"]
    assert main([*args, "--sheet", "Sheet"]) == 2
    assert "is on sheet 'Art', --sheet is 'Sheet'" in capsys.readouterr().err
    assert main(args) == 0 and "unique" in capsys.readouterr().out
    book = open_book(out)
    assert read_puzzle(book.sheet(PUZZLE_SHEET), book).puzzle.is_solution(picture(HEART))


def test_merged_cells_in_a_drawing_count_as_they_show(tmp_path):
    """A merged block shows its first cell's fill all over, but only that cell was read:
    the rest was paper in a black-and-white drawing and black in a colour one."""
    inks = {"r": "FFC00000", "b": "FF2F5597"}
    rows = ["rr.bb", "rrrbb", "..b.."]
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "Flag"
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                ws.cell(3 + r, 2 + c).fill = PatternFill("solid", fgColor=inks[ch])
    ws.merge_cells("B3:C4")  # the red 2×2
    ws.merge_cells("E3:F3")  # a blue pair
    wb.save(tmp_path / "flag.xlsx")
    saved = load_workbook(tmp_path / "flag.xlsx").active
    assert saved["C4"].fill.fgColor.rgb != inks["r"]  # the file keeps the first cell's fill
    drawing = read_drawing_file(tmp_path / "flag.xlsx")
    assert (
        drawing.picture.tolist()
        == picture([row.replace("r", "#").replace("b", "#") for row in rows]).tolist()
    )
    assert drawing.colours is not None and drawing.palette.k == 2
    expected = [["#" + inks[ch][2:].lower() if ch in inks else None for ch in row] for row in rows]
    got = [
        [drawing.palette.colour(int(v)).rgb if v else None for v in row] for row in drawing.colours
    ]
    assert got == expected


def test_grade_notes_an_empty_grid_and_marks_on_another_sheet(tmp_path):
    """A student who drew the answer on a sheet of their own got the blank grid's score
    without a word; now the note says the grid is empty and which sheet holds marks."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    book = open_book(key)
    grid = read_puzzle(book.sheet(PUZZLE_SHEET), book).grid
    copies = []
    for name in ("Ann", "Bob"):
        copies.append(tmp_path / f"{name}.xlsx")
        shutil.copy(key, copies[-1])
        wb = load_workbook(copies[-1])
        wb[PUZZLE_SHEET].cell(*name_cell(grid), value=name)
        if name == "Ann":  # the answer drawn on a sheet of her own, at the grid's cells
            mine = wb.create_sheet("My answer")
            for (r, c), black in np.ndenumerate(sol):
                if black:
                    mine.cell(grid[0] + r, grid[1] + c).fill = PatternFill(
                        "solid", fgColor="FF000000"
                    )
        wb.save(copies[-1])
    summary = tmp_path / "summary.xlsx"
    grades = grade_files(copies, key, summary=summary)
    assert [(g.name, g.wrong) for g in grades] == [("Ann", sol.sum()), ("Bob", sol.sum())]
    assert grades[0].note == "nothing filled in on the grid; sheet 'My answer' holds marks there"
    assert grades[1].note == "nothing filled in on the grid"
    notes = [row[4] for row in load_workbook(summary).active.iter_rows(min_row=4, values_only=True)]
    assert notes[:2] == [grades[0].note, grades[1].note]


def test_cells_in_fills_too_light_to_be_ink_are_named(tmp_path, capsys):
    """A ring of pale yellow (#FFFFCC) inside a black outline was read as paper without a
    word; make now names the fill and how many cells it covers. A drawing on plain white
    says nothing."""
    pale = PatternFill("solid", start_color="FFFFFFCC", end_color="FFFFFFCC")
    black = PatternFill("solid", start_color="FF000000", end_color="FF000000")
    rows = ["..##..", ".#YY#.", "#Y..Y#", "#Y..Y#", ".#YY#.", "..##.."]
    wb = Workbook()
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                wb.active.cell(3 + r, 2 + c).fill = black if ch == "#" else pale
    drawing = tmp_path / "ring.xlsx"
    wb.save(drawing)
    capsys.readouterr()
    assert main(["make", str(drawing), "-o", str(tmp_path / "p.xlsx")]) in (0, 1)
    err = capsys.readouterr().err
    assert "8 cells in fills too light to print as ink (#ffffcc) read as paper" in err
    assert (
        main(["make", str(WORKBOOKS / "house-drawing.xlsx"), "-o", str(tmp_path / "h.xlsx")]) == 0
    )
    assert "too light" not in capsys.readouterr().err


def test_grade_names_what_a_marked_copy_leaves_out(tmp_path, capsys):
    """A student's file with a text box (written by xlsxwriter, as Excel keeps one): the
    marked copy cannot keep it (openpyxl), and grade said nothing; now one line names it."""
    xlsxwriter = pytest.importorskip("xlsxwriter")
    from openpyxl.utils import get_column_letter

    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    filled = load_workbook(answer(tmp_path / "filled.xlsx", key, sol, name="Ann"))
    out = tmp_path / "ann.xlsx"
    book = xlsxwriter.Workbook(str(out))
    for ws in filled.worksheets:  # the same cells, values, fills and borders
        sheet = book.add_worksheet(ws.title)
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is None and not cell.fill.fgColor.rgb and not cell.border.top.style:
                    continue
                fmt = {"border": 1} if cell.border.top.style else {}
                rgb = cell.fill.fgColor.rgb if cell.fill.fill_type == "solid" else None
                if isinstance(rgb, str) and rgb not in ("00000000", "FFFFFFFF"):
                    fmt |= {"bg_color": f"#{rgb[-6:]}", "pattern": 1}
                ref = f"{get_column_letter(cell.column)}{cell.row}"
                sheet.write(ref, cell.value, book.add_format(fmt) if fmt else None)
        if ws.title == PUZZLE_SHEET:
            sheet.insert_textbox("A1", "Ann's notes")
    book.close()
    capsys.readouterr()
    main(["grade", str(out), "--key", str(key), "--out", str(tmp_path / "g")])
    captured = capsys.readouterr()
    assert "ann.xlsx: Ann: 0 wrong" in captured.out, captured
    assert "the marked copy leaves out 1 text box" in captured.err, captured.err


def test_one_time_limit_for_a_whole_check_and_a_stopped_suggestion_is_exit_1(
    tmp_path, monkeypatch, capsys
):
    """check and make handed the whole --time-limit to each stage (the solve, then the
    search for givens, then the rating): a run took the solve's time plus the whole limit.
    And a search for givens the limit stopped exited 0, so a script could not tell."""
    import time

    from xlsolver.teaching import verdict as verdicts

    seen = {}

    def suggest(puzzle, picture, base=None, time_limit=None):
        seen["limit"] = time_limit
        raise verdicts.SuggestionTimeout("stopped: the time limit ran out")

    real_solve = verdicts.solve

    def slow_solve(*args, **kwargs):  # a slow machine's solve
        time.sleep(0.5)
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(verdicts, "suggest_givens", suggest)
    monkeypatch.setattr(verdicts, "solve", slow_solve)
    path = tmp_path / "two-ways.non"
    path.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    assert main(["check", str(path), "--time-limit", "5"]) == 1
    assert "stopped: the time limit ran out" in capsys.readouterr().out
    assert seen["limit"] <= 4.5  # what was left of the 5 s after the slow solve


def test_make_of_a_hard_puzzle_file_stops_at_its_time_limit(tmp_path, capsys):
    """make of a puzzle file looked for its picture (a solution) without the time limit:
    Faase took a minute (more on a loaded machine), deaf to --time-limit 1."""
    out = tmp_path / "faase.xlsx"
    faase = Path(__file__).parent / "data" / "webpbn-faase.nin"
    assert main(["make", str(faase), "-o", str(out), "--time-limit", "1"]) == 1
    err = capsys.readouterr().err
    assert "stopped: the time limit ran out before the puzzle's picture" in err, err
    assert not out.exists()


def test_grade_with_a_hard_puzzle_file_as_its_key_stops_at_its_time_limit(tmp_path, capsys):
    """grade solved a puzzle-file key without a limit (Faase: 77 s of silence before
    "the puzzle is multiple"); it has --time-limit as make and check, and says it stopped."""
    answers = tmp_path / "ann.xlsx"
    shutil.copy(WORKBOOKS / "small.xlsx", answers)
    faase = Path(__file__).parent / "data" / "webpbn-faase.nin"
    argv = ["grade", str(answers), "--key", str(faase), "--out-dir", str(tmp_path / "g")]
    assert main([*argv, "--time-limit", "1"]) == 2
    err = capsys.readouterr().err
    assert "stopped: the time limit ran out before the key's one solution was proved" in err
    assert not (tmp_path / "g" / "summary.xlsx").exists()


def test_a_one_step_puzzle_says_1_step(tmp_path, capsys):
    """A 1×1 drawing is solved in one step: ``1 step``, not ``1 steps``."""
    out, code = make(tmp_path, ["#"], "dot")
    assert code == 0
    made = capsys.readouterr().out
    assert "; 1 step\n" in made and "1 steps" not in made, made
    assert main(["hints", str(out), "-o", str(tmp_path / "dot-hints.xlsx")]) == 0
    hinted = capsys.readouterr().out
    assert hinted.startswith(f"{tmp_path / 'dot-hints.xlsx'}: 1 step ("), hinted


def test_a_sheet_of_several_puzzles_is_refused_with_or_without_sheet(tmp_path, capsys):
    """workbooks/hand-made.xlsx holds two puzzles on its first sheet, Two: check, hints
    and make took the first of them unsaid (a unique verdict, exit 0; hints titled
    "Two puzzles…"), and grade took it as the key, while ``--sheet Two`` refused the
    sheet. Now every command refuses it the same way, naming both puzzles, for the
    sample and for a workbook of that one sheet; the range it names picks one."""
    one_sheet = tmp_path / "two-only.xlsx"
    wb = load_workbook(WORKBOOKS / "hand-made.xlsx")
    del wb["Typed"]
    wb.save(one_sheet)
    assert load_workbook(one_sheet).sheetnames == ["Two"]
    refusal = (
        "Two: several puzzles (Two!G6:P15 and Two!V6:AB12); pick one with --range "
        "Two!C3:P15 or a defined name PuzzleGrid"
    )
    for book in (WORKBOOKS / "hand-made.xlsx", one_sheet):
        for sheet in ([], ["--sheet", "Two"]):
            out = tmp_path / "out.xlsx"
            for command in (
                ["check", str(book)],
                ["hints", str(book), "-o", str(out)],
                ["make", str(book), "-o", str(out)],
            ):
                capsys.readouterr()
                assert main(command + sheet) == 2, command + sheet
                captured = capsys.readouterr()
                assert captured.err.strip() == f"xlsolver: {book}: {refusal}", command
                assert captured.out == "" and not out.exists()
        graded = tmp_path / "graded"
        capsys.readouterr()
        args = ["grade", str(WORKBOOKS / "class" / "ann.xlsx"), "--key", str(book)]
        assert main([*args, "--out-dir", str(graded)]) == 2
        assert refusal.replace("--range", "--key-sheet") in capsys.readouterr().err
        assert not graded.exists()
    capsys.readouterr()
    assert main(["check", str(one_sheet), "--range", "Two!C3:P15", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unique"
    made = tmp_path / "made.xlsx"
    assert main(["make", str(one_sheet), "--range", "Two!C3:P15", "-o", str(made)]) == 0
    found = read_puzzle(open_book(made).sheet("Puzzle"))  # that puzzle, not its clue digits
    book = open_book(one_sheet)
    (first,) = [p for p in find_puzzles(book) if p.where == "Two!G6:P15"]
    assert (found.puzzle.rows, found.puzzle.cols) == (first.puzzle.rows, first.puzzle.cols)
    capsys.readouterr()  # a range round both puzzles: refused, as check refuses it
    assert main(["make", str(one_sheet), "--range", "Two!C3:AB15", "-o", str(made)]) == 2
    assert "Two: several puzzles (Two!G6:P15 and Two!V6:AB12)" in capsys.readouterr().err
    capsys.readouterr()  # a hand-in of two puzzles: grade has no --range to offer
    assert main(["grade", str(one_sheet), "--key", str(made), "--out-dir", str(graded)]) == 2
    assert (
        "Two: several puzzles (Two!G6:P15 and Two!V6:AB12); a hand-in is a copy of the "
        "worksheet of the key, with its one puzzle"
    ) in capsys.readouterr().out  # the hand-in's line in the run's report


def test_make_range_of_a_grid_alone_reads_the_picture_drawn_there(tmp_path, capsys):
    """A picture drawn over the grid of a puzzle sheet, picked with --range of the grid
    alone: make read the old clues' puzzle and dropped the picture (a range with its
    clues picks the puzzle; the grid alone is a drawing)."""
    wb = load_workbook(WORKBOOKS / "small.xlsx")
    ws = wb["Puzzle"]
    black = PatternFill("solid", start_color="000000", end_color="000000")
    for i in range(10):
        for c in (i, 9 - i):
            ws.cell(7 + i, 5 + c).fill = black  # an X over E7:N16
    wb.save(tmp_path / "redrawn.xlsx")
    out = tmp_path / "x.xlsx"
    capsys.readouterr()
    assert (
        main(["make", str(tmp_path / "redrawn.xlsx"), "--range", "Puzzle!E7:N16", "-o", str(out)])
        == 0
    )
    made = read_puzzle(open_book(out).sheet("Puzzle")).puzzle
    x = np.array([[c in (r, 9 - r) for c in range(10)] for r in range(10)])
    assert made.is_solution(x)


def test_clues_without_solution_are_not_blamed_on_the_painted_cells(tmp_path, capsys):
    """A painted copy of contradiction.xlsx (solve paints what was proved and a red cell
    where the clash shows): hints said "column 1 cannot be placed (with the cells already
    filled in on the grid: check them)" and check blamed nothing else, though the clues
    alone have no solution. Both now say so, in the Hint button's words. The red cell is
    read as ``solve --givens`` and the Hint button read it, a black mark: counted."""
    from xlsolver.nonogram.cells import BLACK

    red = tmp_path / "red.xlsx"
    assert main(["solve", str(WORKBOOKS / "contradiction.xlsx"), "-o", str(red)]) == 1
    assert load_workbook(red)["Puzzle"]["C5"].fill.fgColor.rgb.upper().endswith("FF0000")
    said = "no solution: the clues cannot all be met, whatever is painted (column 1)"
    capsys.readouterr()
    out = tmp_path / "h.xlsx"
    assert main(["hints", str(red), "-o", str(out)]) == 1
    assert capsys.readouterr().err.strip() == f"xlsolver: {red}: {said}"
    assert not out.exists()
    assert main(["check", str(red), "--json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["error"], record["filled"]) == ("contradiction", said, 3)
    book = open_book(red)
    found = read_puzzle(book.sheet("Puzzle"), book, givens=True)
    assert found.givens[0, 0] & COLOUR == BLACK  # C5, the red cell, as --givens reads it
    capsys.readouterr()  # the clues alone, nothing painted: the line, as before
    assert main(["hints", str(WORKBOOKS / "contradiction.xlsx"), "-o", str(out)]) == 1
    assert capsys.readouterr().err.strip().endswith(": no solution: column 1 cannot be placed")
    # solve --givens of the painted copy: the clues alone, not "it shows at C5" (read as
    # the painted cell at fault); of the unpainted sheet: the line, as before
    assert main(["solve", str(red), "--givens", "--json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["error"] == said and record["message"] == f"{said}; it shows at C5"
    assert main(["solve", str(WORKBOOKS / "contradiction.xlsx"), "--givens", "--json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["error"] == "no solution: column 1 cannot be placed"


def test_make_of_two_drawings_apart_says_so_and_range_picks_one(tmp_path, capsys):
    """Two pictures drawn side by side, five empty columns between them, made one 15×5
    puzzle without a word; now make says the parts stand apart and names the --range
    that takes one. A picture's own gap of two columns (two eyes) says nothing."""
    black = PatternFill("solid", fgColor="FF000000")
    wb = Workbook()
    ws = wb.active
    for r, row in enumerate([".##.", "####", "#..#", "####"]):
        for c, ch in enumerate(row):
            if ch == "#":
                ws.cell(3 + r, 2 + c).fill = black
    for r, row in enumerate(["#...#", ".#.#.", "..#..", ".#.#.", "#...#"]):
        for c, ch in enumerate(row):
            if ch == "#":
                ws.cell(3 + r, 12 + c).fill = black
    path = tmp_path / "two.xlsx"
    wb.save(path)
    assert main(["make", str(path), "-o", str(tmp_path / "one.xlsx")]) == 0
    err = capsys.readouterr().err
    assert (
        f"xlsolver: {path}: Sheet!B3:P7 is read as one drawing, though its parts B3:E6, "
        "L3:P7 stand apart; for one of them alone give --range Sheet!B3:E6"
    ) in err, err
    out = tmp_path / "left.xlsx"
    assert main(["make", str(path), "-o", str(out), "--range", "Sheet!B3:E6"]) == 0
    captured = capsys.readouterr()
    assert "stand apart" not in captured.err and "(4×4)" in captured.out, captured
    wb = Workbook()
    ws = wb.active
    for r, row in enumerate(["##..##", "##..##", "##..##"]):  # two columns apart: one picture
        for c, ch in enumerate(row):
            if ch == "#":
                ws.cell(2 + r, 2 + c).fill = black
    wb.save(path)
    assert main(["make", str(path), "-o", str(tmp_path / "face.xlsx")]) in (0, 1)
    assert "stand apart" not in capsys.readouterr().err


@pytest.mark.parametrize("merged", [False, True, "strip"])
def test_a_title_typed_on_a_dark_banner_is_no_row_of_the_drawing(tmp_path, capsys, merged):
    """'My House' typed in white on a dark blue cell (merged across the picture or not)
    right above the drawing: the filled cell joined the picture as its top row (5×6).
    Now it titles the worksheet and the picture is 5×5."""
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    black = PatternFill("solid", fgColor="FF000000")
    rows = ["..#..", ".###.", "#####", ".#.#.", ".###."]
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                ws.cell(3 + r, 2 + c).fill = black
    ws["B2"] = "My House"
    ws["B2"].fill = PatternFill("solid", fgColor="FF1F4E79")
    ws["B2"].font = Font(color="FFFFFFFF", bold=True)
    if merged == "strip":  # B2:F2 filled, the title in B2 alone: Excel's usual banner
        for col in "CDEF":
            ws[f"{col}2"].fill = PatternFill("solid", fgColor="FF1F4E79")
    elif merged:
        ws.merge_cells("B2:F2")
    path = tmp_path / "banner.xlsx"
    wb.save(path)
    out = tmp_path / "house.xlsx"
    assert main(["make", str(path), "-o", str(out)]) == 0
    assert "(5×5)" in capsys.readouterr().out
    found = find_puzzles(open_book(out))[0]
    assert found.puzzle.is_solution(np.array([[ch == "#" for ch in row] for row in rows]))
    assert load_workbook(out).active["A1"].value == "My House"


def test_a_workbook_of_puzzle_sheets_is_checked_sheet_by_sheet(tmp_path, capsys):
    """Puzzles on two sheets (Week1 unique, Week2 of two solutions), as convert writes a
    batch: check judged Week1 alone without naming it (Week2's two solutions never
    said), and hints, make and grade took it unsaid. Now check judges each sheet, named
    by its range, as the puzzles of a puzzle file; the others refuse, naming the sheets,
    and --sheet picks one."""
    from xlsolver.sheets.openpyxl_sheet import new_book
    from xlsolver.workbook import write_template

    book = new_book()
    default = book.sheets()[0].name
    write_template(
        book.add_sheet("Week1"), Puzzle.from_solution(np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]]))
    )
    write_template(book.add_sheet("Week2"), Puzzle.from_clues([[1], [1]], [[1], [1]]))
    book.remove_sheet(default)
    path = tmp_path / "weeks.xlsx"
    book.save(path)
    capsys.readouterr()
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    week1_at, week2_at = out.index("[Week1!"), out.index("[Week2!")
    assert week1_at < week2_at and "NOT unique" in out[week2_at:], out
    assert "verdict: unique" in out[week1_at:week2_at], out
    assert main(["check", str(path), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["unique", "multiple"]
    assert [r["range"].split("!")[0] for r in records] == ["Week1", "Week2"]
    assert main(["check", str(path), "--sheet", "Week2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "multiple"
    out_file = tmp_path / "out.xlsx"
    for command in (
        ["hints", str(path), "-o", str(out_file)],
        ["make", str(path), "-o", str(out_file)],
    ):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "puzzles on several sheets (Week1!" in err and "pick one with --sheet 'Week1'" in err
        assert not out_file.exists()
    args = ["grade", str(WORKBOOKS / "class" / "ann.xlsx"), "--key", str(path)]
    assert main([*args, "--out-dir", str(tmp_path / "graded")]) == 2
    assert "pick one with --key-sheet 'Week1'" in capsys.readouterr().err


def test_a_protected_hand_in_is_graded_without_its_marked_copy(tmp_path, capsys):
    """A class where one student's copy came back protected (grid cells locked): grade
    stopped for everyone (exit 2, no summary, one line naming no file). That hand-in is
    graded, its note saying why no marked copy was written; the others are marked."""
    sol = picture(HEART)
    key, _ = make(tmp_path, HEART, "heart")
    ann = answer(tmp_path / "ann.xlsx", key, sol)
    wrong = sol.copy()
    wrong[0, 0] = not wrong[0, 0]
    bob = answer(tmp_path / "bob.xlsx", key, wrong)
    wb = load_workbook(bob)
    wb[PUZZLE_SHEET].protection.sheet = True
    wb.save(bob)
    out = tmp_path / "graded"
    assert main(["grade", str(ann), str(bob), "--key", str(key), "--out-dir", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "bob: 1 wrong of 100, score 99.0 (no marked copy written: Puzzle!" in printed
    assert "the sheet is protected" in printed, printed
    assert (out / "ann-graded.xlsx").exists() and not (out / "bob-graded.xlsx").exists()
    assert (out / "summary.xlsx").exists()


def test_make_output_with_its_puzzle_sheet_renamed_is_one_puzzle(tmp_path, capsys):
    """make's worksheet with its Puzzle sheet renamed Week3: its Answer key sheet was
    counted as a second puzzle, so grade and hints refused it ('puzzles on several
    sheets') and check judged the key too."""
    key, _ = make(tmp_path, HEART, "heart")
    wb = load_workbook(key)
    wb[PUZZLE_SHEET].title = "Week3"
    renamed = tmp_path / "week3.xlsx"
    wb.save(renamed)
    capsys.readouterr()
    assert main(["check", str(renamed), "--json"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["status"] == "unique"
    assert main(["hints", str(renamed), "-o", str(tmp_path / "hints.xlsx")]) == 0
    ann = answer(tmp_path / "ann.xlsx", key, picture(HEART))
    out = tmp_path / "graded"
    assert main(["grade", str(ann), "--key", str(renamed), "--out-dir", str(out)]) == 0
    assert "score 100.0" in capsys.readouterr().out

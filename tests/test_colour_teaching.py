"""Colour teaching end to end: a drawing in several fill colours → `make` → a colour
puzzle worksheet whose uniqueness the brute-force oracle confirms; `grade` scores a
right and a wrong colour answer painted in real .xlsx files; `check` and `hints`."""

from __future__ import annotations

import json
import re

import numpy as np
from conftest import WORKBOOKS
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Border, PatternFill, Side
from oracles import breaks, colour_solutions

from xlsolver.cli import main as cli_main
from xlsolver.nonogram.colour_puzzle import ColourPuzzle
from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.sheets.openpyxl_sheet import open_book
from xlsolver.teaching import KEY_SHEET, PUZZLE_SHEET, grade_files, puzzle_sheet

FLOWER = ["..r...", ".ryr..", "..r...", "..g.gg", "ggg.g.", ".ggg.."]
INKS = {"r": "FFE00000", "y": "FFFFD700", "g": "FF00A000"}
TWINS = ["r.", ".r", "gg"]  # the two reds may swap columns: two solutions


def fill(rgb: str) -> PatternFill:
    """A solid fill of ``FFRRGGBB``."""
    return PatternFill("solid", start_color=rgb, end_color=rgb)


def draw(path, rows: list[str], title: str = "Flower", inks: dict[str, str] = INKS) -> None:
    """A teacher's drawing: cells filled in the inks on a sheet, a title above."""
    wb = Workbook()
    ws = wb.active
    ws["A1"] = title
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch != ".":
                ws.cell(3 + i, 2 + j).fill = fill(inks[ch])
    wb.save(path)


def drawn(rows: list[str], puzzle: ColourPuzzle) -> np.ndarray:
    """The drawing as the colour numbers of a puzzle's palette (matched by #rrggbb)."""
    ink = {c.rgb: i for i, c in enumerate(puzzle.palette.inks, 1)}
    to = {
        ch: ink["#" + rgb[2:].lower()] for ch, rgb in INKS.items() if "#" + rgb[2:].lower() in ink
    }
    return np.array([[to.get(ch, 0) for ch in row] for row in rows])


def paint_answer(src, dst, picture: np.ndarray, puzzle: ColourPuzzle, shade: int = 0) -> None:
    """A student's copy of the worksheet with a picture painted on the puzzle grid; inks
    may be off by ``shade`` in each channel (a student's own red); background crossed."""
    book = open_book(src, read_only=True)
    found = puzzle_sheet(book)
    wb = load_workbook(src)
    ws = wb[PUZZLE_SHEET]
    top, left = found.grid[0], found.grid[1]
    hair = Side(style="hair", color="FF808080")
    for (r, c), ink in np.ndenumerate(picture):
        cell = ws.cell(top + r, left + c)
        if ink > 0:
            rgb = puzzle.palette.colour(int(ink)).rgb
            channels = [max(0, int(rgb[i : i + 2], 16) - shade) for i in (1, 3, 5)]
            cell.fill = fill("FF" + "".join(f"{v:02X}" for v in channels))
        else:
            b = cell.border
            cell.border = Border(
                left=b.left,
                right=b.right,
                top=b.top,
                bottom=b.bottom,
                diagonal=hair,
                diagonalUp=True,
                diagonalDown=True,
            )
    ws["AA3"] = "Name:"
    wb.save(dst)


def test_make_colour_drawing_is_a_verified_unique_colour_puzzle(tmp_path, capsys):
    """Three fill colours → a colour puzzle (by default); its clues are the drawing's, the
    oracle finds exactly one solution, the drawing; clue cells and legend in the inks."""
    drawing, out = tmp_path / "flower.xlsx", tmp_path / "puzzle.xlsx"
    draw(drawing, FLOWER)
    capsys.readouterr()
    assert cli_main(["make", str(drawing), "-o", str(out), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "unique" and len(verdict["colours"]) == 3
    found = puzzle_sheet(open_book(out, read_only=True))
    puzzle = found.puzzle
    assert isinstance(puzzle, ColourPuzzle)
    picture = drawn(FLOWER, puzzle)
    assert breaks(puzzle, picture.tolist()) == []
    solutions = colour_solutions(puzzle, limit=2)
    assert solutions == [picture.tolist()]
    ws = load_workbook(out)[PUZZLE_SHEET]
    fills = {
        c.fill.fgColor.rgb
        for row in ws.iter_rows(max_row=found.grid[0] - 1)
        for c in row
        if c.fill.fill_type == "solid"
    }
    assert fills == set(INKS.values())  # the column clues in their colours
    letters = puzzle.palette.letters
    top, left = found.grid[0], found.grid[1]
    for i, line in enumerate(puzzle.rows):  # each clue printed with its letter: 3a
        for j, (n, ink) in enumerate(line):
            cell = ws.cell(top + i, left - len(line) + j)
            assert cell.value == n and cell.number_format == f'0"{letters[ink]}"'
    legend = [c for row in ws.iter_rows() for c in row if c.value == "colours"]
    assert legend and legend[0].row > found.grid[2]
    swatches = [ws.cell(legend[0].row, legend[0].column + 3 + i) for i in range(3)]
    assert {s.fill.fgColor.rgb for s in swatches} == set(INKS.values())
    assert [s.value for s in swatches] == ["a", "b", "c"]


def test_make_mono_keeps_black_and_white(tmp_path, capsys):
    """--mono: the same drawing as a black-and-white puzzle of its filled cells."""
    drawing, out = tmp_path / "flower.xlsx", tmp_path / "mono.xlsx"
    draw(drawing, FLOWER)
    capsys.readouterr()
    assert cli_main(["make", str(drawing), "-o", str(tmp_path / "colour.xlsx")]) == 0
    said = capsys.readouterr().out  # the colour puzzle says how to get black and white
    assert "a colour puzzle, from the drawing's 3 fill colours (--mono" in said
    assert cli_main(["make", str(drawing), "-o", str(out), "--mono"]) == 0
    assert "colour" not in capsys.readouterr().out
    found = puzzle_sheet(open_book(out, read_only=True))
    assert isinstance(found.puzzle, Puzzle)
    mask = np.array([[ch != "." for ch in row] for row in FLOWER])
    assert found.puzzle.is_solution(mask)


def test_not_unique_colour_drawing_gets_givens_that_make_it_unique(tmp_path, capsys):
    """Two swapped colours: not unique; the suggested givens, printed with --add-givens,
    leave exactly one solution by the oracle, the drawing's."""
    drawing, out = tmp_path / "twins.xlsx", tmp_path / "twins-puzzle.xlsx"
    draw(drawing, TWINS, "Twins")
    capsys.readouterr()
    code = cli_main(["make", str(drawing), "-o", str(out), "--add-givens", "--json"])
    assert code == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "multiple" and verdict["suggested_givens"]
    found = puzzle_sheet(open_book(out, read_only=True))
    picture = drawn(TWINS, found.puzzle)
    letters = found.puzzle.palette.letters
    fits = [
        s
        for s in colour_solutions(found.puzzle)
        if all(letters[s[r - 1][c - 1]] == ch for r, c, ch in verdict["suggested_givens"])
    ]
    assert fits == [picture.tolist()]
    capsys.readouterr()
    assert cli_main(["check", str(out), "--json"]) == 0  # the printed givens are read back
    assert json.loads(capsys.readouterr().out)["status"] == "unique"


def test_grade_scores_right_and_wrong_colour_answers(tmp_path, capsys):
    """A right answer (inks a shade off, background crossed) scores 100; a wrong one (one
    ink swapped, one cell left white) loses exactly those cells, marked in the copy."""
    drawing, key = tmp_path / "flower.xlsx", tmp_path / "puzzle.xlsx"
    draw(drawing, FLOWER)
    assert cli_main(["make", str(drawing), "-o", str(key)]) == 0
    puzzle = puzzle_sheet(open_book(key, read_only=True)).puzzle
    picture = drawn(FLOWER, puzzle)
    right, wrong = tmp_path / "ann.xlsx", tmp_path / "bob.xlsx"
    paint_answer(key, right, picture, puzzle, shade=12)
    bad = picture.copy()
    bad[1, 2] = 3 - bad[1, 2] if bad[1, 2] in (1, 2) else 1  # another ink
    bad[4, 0] = 0  # left white
    assert (bad != picture).sum() == 2
    paint_answer(key, wrong, bad, puzzle)
    out_dir = tmp_path / "graded"
    summary = tmp_path / "summary.xlsx"
    capsys.readouterr()
    code = cli_main(
        ["grade", str(right), str(wrong), "--key", str(key), "--out", str(out_dir),
         "--summary", str(summary)]
    )  # fmt: skip
    assert code == 0
    ws = load_workbook(summary).worksheets[0]
    scores = {r[3]: (r[1], r[2]) for r in ws.iter_rows(min_row=4, values_only=True) if r[3]}
    assert scores["ann.xlsx"] == (100, 0)
    assert scores["bob.xlsx"][1] == 2
    marked = load_workbook(out_dir / "bob-graded.xlsx")[PUZZLE_SHEET]
    found = puzzle_sheet(open_book(key, read_only=True))
    for r, c in zip(*np.nonzero(bad != picture), strict=True):
        cell = marked.cell(found.grid[0] + r, found.grid[1] + c)
        assert cell.fill.fgColor.rgb == "FFFF9999"
    assert KEY_SHEET in load_workbook(key).sheetnames


def test_grade_of_a_colour_copy_against_the_mono_key_says_which_is_which(tmp_path, capsys):
    """A colour worksheet graded against the --mono key of the same drawing was refused
    with its clues as Python tuples, "(2, 1) (2, 2)", blamed on a number typed among
    them."""
    drawing, colour, mono = tmp_path / "f.xlsx", tmp_path / "colour.xlsx", tmp_path / "mono.xlsx"
    draw(drawing, FLOWER)
    assert cli_main(["make", str(drawing), "-o", str(colour)]) == 0
    assert cli_main(["make", str(drawing), "-o", str(mono), "--mono"]) == 0
    capsys.readouterr()
    args = ["grade", str(colour), "--key", str(mono), "--out", str(tmp_path / "g")]
    assert cli_main(args) == 2
    said = capsys.readouterr()
    text = said.out + said.err
    assert "this sheet holds a colour puzzle, the key (" in text, text
    assert "a black-and-white one: grade it against the key made with it" in text
    assert "(2, " not in text


def test_grade_reads_the_legends_letters_typed_in_the_grid_as_their_inks(tmp_path):
    """A pupil typed the worksheet's own colour letters (``a``, ``b`` as the clues and the
    legend show them) in the grid instead of filling it: every ink cell was wrong, with
    the note "nothing filled in on the grid". The letters read as their inks."""
    drawing, key = tmp_path / "f.xlsx", tmp_path / "flower.xlsx"
    draw(drawing, FLOWER)
    assert cli_main(["make", str(drawing), "-o", str(key)]) == 0
    found = puzzle_sheet(open_book(key, read_only=True))
    picture = drawn(FLOWER, found.puzzle)
    letters = found.puzzle.palette.letters
    # as the legend shows them, in capitals, or as a clue writes them (1a)
    for name, form in (("a", str), ("caps", str.upper), ("clue", lambda x: f"1{x}")):
        wb = load_workbook(key)
        del wb[KEY_SHEET]
        for (r, c), ink in np.ndenumerate(picture):
            if ink:
                wb[PUZZLE_SHEET].cell(found.grid[0] + r, found.grid[1] + c, form(letters[ink]))
        typed = tmp_path / f"{name}.xlsx"
        wb.save(typed)
        grade = grade_files([typed], key)[0]
        assert not grade.error and grade.cells == picture.size, grade.error
        assert (grade.wrong, grade.note) == (0, ""), (name, grade.note)


def test_grade_names_a_colour_clue_changed_in_its_own_words(tmp_path):
    """A clue cell of a colour hand-in filled in another ink: the refusal printed the
    clues as Python tuples, ``(2, 3) (2, 2)``; it writes them as the clues show them."""
    drawing, key = tmp_path / "f.xlsx", tmp_path / "flower.xlsx"
    draw(drawing, FLOWER)
    assert cli_main(["make", str(drawing), "-o", str(key)]) == 0
    found = puzzle_sheet(open_book(key, read_only=True))
    wb = load_workbook(key)
    del wb[KEY_SHEET]
    top, left, bottom, right = found.row_clue_cells[0]
    cell = wb[PUZZLE_SHEET].cell(bottom, right)  # the first row's last clue
    other = next(v for v in INKS.values() if v[-6:] != (cell.fill.fgColor.rgb or "")[-6:])
    cell.fill = PatternFill("solid", fgColor=other)
    wb.save(tmp_path / "ann.xlsx")
    grade = grade_files([tmp_path / "ann.xlsx"], key)[0]
    assert "row 1 reads" in grade.error and "(" not in grade.error.split("reads")[1].split(":")[0]
    assert "a clue cell filled in another colour?" in grade.error, grade.error


def test_grade_reads_a_students_own_shade_as_the_nearest_ink(tmp_path, capsys):
    """Drawn in Excel's theme red (Accent 2, #C0504D) and blue (#4F81BD), answered in the
    standard Red (#FF0000) or Dark Red (#C00000): every red cell was marked wrong (more
    than 90 apart in RGB). A shade clearly nearest one ink counts as that ink; a green
    far from both inks is still wrong."""
    rows = ["..rr..", ".rrrr.", "rrrrrr", ".b..b.", ".bbbb."]
    inks = {"r": "FFC0504D", "b": "FF4F81BD"}
    drawing, key = tmp_path / "house.xlsx", tmp_path / "house-key.xlsx"
    draw(drawing, rows, "House", inks)
    assert cli_main(["make", str(drawing), "-o", str(key)]) == 0
    found = puzzle_sheet(open_book(key, read_only=True))
    top, left = found.grid[:2]
    answers = {}
    for name, red in (("std", "FFFF0000"), ("dark", "FFC00000"), ("green", "FF00FF00")):
        wb = load_workbook(key)
        del wb[KEY_SHEET]
        for i, row in enumerate(rows):
            for j, ch in enumerate(row):
                if ch != ".":
                    wb[PUZZLE_SHEET].cell(top + i, left + j).fill = fill(
                        red if ch == "r" else inks["b"]
                    )
        answers[name] = tmp_path / f"{name}.xlsx"
        wb.save(answers[name])
    summary = tmp_path / "summary.xlsx"
    capsys.readouterr()
    args = ["grade", *map(str, answers.values()), "--key", str(key), "--summary", str(summary)]
    assert cli_main([*args, "--out", str(tmp_path / "graded")]) == 0
    ws = load_workbook(summary).worksheets[0]
    scores = {r[3]: r[2] for r in ws.iter_rows(min_row=4, values_only=True) if r[3]}
    reds = sum(row.count("r") for row in rows)
    assert scores == {"std.xlsx": 0, "dark.xlsx": 0, "green.xlsx": reds}, scores


def test_grade_counts_another_colour_solution_right_unless_a_printed_given_says_no(
    tmp_path, capsys
):
    """On a colour puzzle with two solutions (by the oracle), the one the key does not
    show meets every clue: right, as in black and white (an open colour cell holds every
    colour, so every cell was taken for a given and it scored 4 wrong of 6); with the
    suggested givens printed, it breaks one and its cells are wrong."""
    drawing = tmp_path / "twins.xlsx"
    draw(drawing, TWINS, "Twins")
    for printed, argv in ((False, []), (True, ["--add-givens"])):
        key = tmp_path / f"key-{printed}.xlsx"
        assert cli_main(["make", str(drawing), "-o", str(key), *argv]) == 0
        puzzle = puzzle_sheet(open_book(key, read_only=True)).puzzle
        picture = drawn(TWINS, puzzle)
        (other,) = [np.array(s) for s in colour_solutions(puzzle) if s != picture.tolist()]
        answer = tmp_path / f"cy-{printed}.xlsx"
        paint_answer(key, answer, other, puzzle)
        capsys.readouterr()
        assert cli_main(["grade", str(answer), "--key", str(key), "--out", str(tmp_path)]) == 0
        line = capsys.readouterr().out.splitlines()[0]
        if printed:
            assert f"{(other != picture).sum()} wrong of 6" in line, line
        else:
            assert "0 wrong of 6, score 100.0 (a different solution" in line, line


def test_hints_of_a_colour_worksheet_end_solved(tmp_path, capsys):
    """`hints` replays the colour puzzle to its solution, step by step."""
    drawing, key, out = tmp_path / "flower.xlsx", tmp_path / "p.xlsx", tmp_path / "hints.xlsx"
    draw(drawing, FLOWER)
    assert cli_main(["make", str(drawing), "-o", str(key)]) == 0
    capsys.readouterr()
    assert cli_main(["hints", str(key), "-o", str(out), "--stages", "2"]) == 0
    assert "steps" in capsys.readouterr().out
    puzzle = puzzle_sheet(open_book(key, read_only=True)).puzzle
    picture, letters = drawn(FLOWER, puzzle), puzzle.palette.letters
    wb = load_workbook(out)
    assert len(wb.sheetnames) == 4  # steps, order, two stages
    decided = np.full(picture.shape, "?", dtype=object)
    codes = [row[3] for row in wb.worksheets[0].iter_rows(min_row=4, values_only=True) if row[0]]
    for code in codes:
        for mark, r, c in re.findall(r"(\{[^}]*\}|[^\s{}])R(\d+)C(\d+)", code):
            r, c = int(r) - 1, int(c) - 1
            assert letters[picture[r, c]] in mark, "every step keeps the answer's colour"
            if len(mark) == 1:
                decided[r, c] = mark
    assert ["".join(row) for row in decided] == puzzle.palette.rows_text(picture)


def test_colour_hints_name_empty_and_full_lines(tmp_path, capsys):
    """An empty row and a row its clues fill exactly are named as in black and white
    (every colour step was "Line logic"); the other steps stay line logic, and each named
    claim is checked here from the clues."""
    source = tmp_path / "lines.non"
    source.write_text(
        "width 4\nheight 3\ncolor r #ff0000\ncolor b #0000ff\n"
        "rows\n0\n2r,2b\n1r\ncolumns\n2r\n1r\n1b\n1b\n"
    )
    out = tmp_path / "hints.xlsx"
    assert cli_main(["hints", str(source), "-o", str(out)]) == 0
    assert "empty 1, full 1" in capsys.readouterr().out
    rows = list(load_workbook(out)["Steps"].iter_rows(min_row=4, values_only=True))
    named = {(line, rule): why for _, line, rule, _, why in rows if rule != "Line logic"}
    assert named == {
        ("row 1", "Empty line"): "row 1 has no blocks — all background",
        ("row 2", "Full line"): "row 2: 2r 2b fills all 4 cells",
    }
    from xlsolver.formats import read_puzzles

    (puzzle,) = read_puzzles(source)  # the claims, from the clues: no blocks; 2 + 2 = 4
    assert puzzle.rows[0] == () and sum(n for n, _ in puzzle.rows[1]) == puzzle.width
    assert puzzle.rows[1][0][1] != puzzle.rows[1][1][1]  # two colours: no gap between


def test_hints_of_a_colour_sheet_painted_wrong_say_there_is_no_solution(tmp_path, capsys):
    """A first row painted all green leaves no solution: exit 1 naming the row and the
    painted cells, nothing written (it was exit 2, "no solution to replay")."""
    drawing, key, out = tmp_path / "flower.xlsx", tmp_path / "p.xlsx", tmp_path / "hints.xlsx"
    draw(drawing, FLOWER)
    assert cli_main(["make", str(drawing), "-o", str(key)]) == 0
    puzzle = puzzle_sheet(open_book(key, read_only=True)).puzzle
    wrong = np.zeros((len(FLOWER), len(FLOWER[0])), dtype=int)
    wrong[0] = drawn(FLOWER, puzzle)[3, 2]  # the green of row 4
    paint_answer(key, tmp_path / "wrong.xlsx", wrong, puzzle)
    capsys.readouterr()
    assert cli_main(["hints", str(tmp_path / "wrong.xlsx"), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "no solution: row 1" in err and "filled in on the grid" in err
    assert not out.exists()


def test_make_from_a_flat_colour_image_gives_the_colour_puzzle(tmp_path, capsys):
    """A solution picture in flat colours (number-loom's Take two, 15×15 PNG) → `make
    --image` → the colour puzzle of that file: the same clues, colour by colour."""
    from conftest import DATA

    from xlsolver.formats import read_puzzles

    (goal,) = read_puzzles(DATA / "numberloom-take_two.xml")
    out = tmp_path / "take-two.xlsx"
    png = DATA / "numberloom-take_two.solution.png"
    capsys.readouterr()
    assert cli_main(["make", "--image", str(png), "-o", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unique"
    made = puzzle_sheet(open_book(out, read_only=True)).puzzle
    assert isinstance(made, ColourPuzzle)

    def by_rgb(puzzle):
        rgb = [puzzle.palette.colour(i).rgb for i in range(puzzle.palette.k + 1)]
        return [[(n, rgb[ink]) for n, ink in line] for line in puzzle.rows + puzzle.cols]

    assert by_rgb(made) == by_rgb(goal)


def test_a_colour_jpeg_read_in_black_and_white_says_so(tmp_path, capsys):
    """The same flat-colour picture saved as a JPEG has thousands of shades: it is read in
    black and white by the threshold, as before, but make now says so (it said nothing,
    and a teacher expecting a colour puzzle got a black-and-white one)."""
    from conftest import DATA
    from PIL import Image

    png = DATA / "numberloom-take_two.solution.png"
    jpeg = tmp_path / "take-two.jpg"
    with Image.open(png) as img:
        img.convert("RGB").resize((150, 150), Image.Resampling.NEAREST).save(jpeg, quality=85)
    out = tmp_path / "take-two.xlsx"
    capsys.readouterr()
    assert cli_main(["make", "--image", str(jpeg), "--size", "15x15", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    made = puzzle_sheet(open_book(out, read_only=True)).puzzle
    assert not isinstance(made, ColourPuzzle)
    assert f"xlsolver: {jpeg}: " in err
    assert (
        "colours, more than a colour puzzle takes (12): read in black and white by the "
        "threshold; for a colour puzzle save the picture in at most 12 flat colours as PNG "
        "(a JPEG's compression adds shades of its own)"
    ) in err, err
    capsys.readouterr()
    assert cli_main(["make", "--image", str(png), "-o", str(tmp_path / "flat.xlsx")]) == 0
    assert "JPEG" not in capsys.readouterr().err  # a flat picture: its colours, no note


def test_two_reds_told_apart_by_no_one_say_the_drawing_is_black_and_white(tmp_path, capsys):
    """A drawing in two reds no one can tell apart became a black-and-white puzzle without
    a word (the note came only when a third colour was there)."""
    wb = Workbook()
    ws = wb.active
    for r, row in enumerate([".##.", "####", ".##.", "#..#"]):
        for c, ch in enumerate(row):
            if ch == "#":
                red = "FF0000" if (r + c) % 2 else "FE0101"
                ws.cell(2 + r, 2 + c).fill = PatternFill("solid", start_color=red, end_color=red)
    wb.save(tmp_path / "reds.xlsx")
    capsys.readouterr()
    assert cli_main(["make", str(tmp_path / "reds.xlsx"), "-o", str(tmp_path / "p.xlsx")]) == 0
    err = capsys.readouterr().err
    assert err == (
        f"xlsolver: {tmp_path / 'reds.xlsx'}: colours too close to tell apart, read as one: "
        "#fe0101 as #ff0000 (one colour left: black and white)\n"
    ), err
    made = puzzle_sheet(open_book(tmp_path / "p.xlsx", read_only=True)).puzzle
    assert not isinstance(made, ColourPuzzle)


def test_nearly_identical_fills_are_one_ink(tmp_path, monkeypatch, capsys):
    """Two reds no one can tell apart on paper (#e00000 and #e10101, as a colour picked
    once from the palette and once from 'recent colours') are one ink: the puzzle has three
    colours, make says which fill it read as which, and a student painting every red cell
    the same red scores 100."""
    monkeypatch.setitem(INKS, "s", "FFE10101")
    drawing, key = tmp_path / "flower.xlsx", tmp_path / "puzzle.xlsx"
    rows = [row.replace("r", "s", 1) if i % 2 else row for i, row in enumerate(FLOWER)]
    assert any("s" in row for row in rows)
    draw(drawing, rows)
    capsys.readouterr()
    assert cli_main(["make", str(drawing), "-o", str(key)]) == 0
    err = capsys.readouterr().err
    assert "too close to tell apart" in err and "#e10101 as #e00000" in err
    puzzle = puzzle_sheet(open_book(key, read_only=True)).puzzle
    assert [c.rgb for c in puzzle.palette.inks] == ["#e00000", "#ffd700", "#00a000"]
    answer = tmp_path / "ann.xlsx"
    paint_answer(key, answer, drawn(FLOWER, puzzle), puzzle)
    summary = tmp_path / "summary.xlsx"
    argv = ["grade", str(answer), "--key", str(key), "--out", str(tmp_path / "g")]
    assert cli_main([*argv, "--summary", str(summary)]) == 0
    ws = load_workbook(summary).worksheets[0]
    scores = {r[3]: (r[1], r[2]) for r in ws.iter_rows(min_row=4, values_only=True) if r[3]}
    assert scores["ann.xlsx"] == (100, 0)


def test_a_red_warning_fill_is_no_orange_ink_but_a_students_red_is():
    """Hint and Solve mark trouble in solid red; with orange among the inks the looser
    reading of a student's own shade took those marks for orange paint, and Hint kept
    repeating its warning. Only grading reads a shade that far as the nearest ink."""
    from xlsolver.nonogram.colour_puzzle import Palette
    from xlsolver.workbook.colour_read import nearest_ink

    palette = Palette.build([("a", "#ff8000", None), ("b", "#0000ff", None)])
    assert nearest_ink("#FF0000", palette) is None
    assert nearest_ink("#FF0000", palette, own_shades=True) == 1
    assert nearest_ink("#FF8811", palette) == 1  # within 90: that ink either way
    assert nearest_ink("#00FF00", palette, own_shades=True) is None  # far from both


def test_a_colour_sheet_without_solution_and_nothing_painted_names_the_line(tmp_path, capsys):
    """Clues changed so that no grid meets them, nothing painted: check said 'whatever is
    painted' (the words for a grid with cells filled in); it names the line, as the
    black-and-white check and hints do."""
    key = tmp_path / "house.xlsx"
    assert cli_main(["make", str(WORKBOOKS / "house-drawing.xlsx"), "-o", str(key)]) == 0
    wb = load_workbook(key)
    ws = wb["Puzzle"]
    ws["E9"], ws["F7"] = 4, 2  # two clue numbers no grid can meet together
    wb.save(tmp_path / "bad.xlsx")
    capsys.readouterr()
    assert cli_main(["check", str(tmp_path / "bad.xlsx"), "--json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "contradiction"
    assert record["error"] == "no solution: row 1 cannot be placed", record

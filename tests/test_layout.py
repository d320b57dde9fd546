"""Layout detection on real .xlsx files written here: every layout of CONVENTIONS §3."""

from __future__ import annotations

import numpy as np
import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Border, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName

from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.sheets.errors import WorkbookError
from xlsolver.sheets.openpyxl_sheet import new_book, open_book
from xlsolver.workbook import find_puzzles, read_puzzle, write_template
from xlsolver.workbook.layout import NoPuzzleError

PICTURE = [  # 8 wide, 6 high, last column empty
    "##..#...",
    ".###.##.",
    "#.#.#...",
    "####..#.",
    "..#.###.",
    "#..#.#..",
]


def picture_puzzle(rows=PICTURE) -> Puzzle:
    """The puzzle of a row-string picture."""
    return Puzzle.from_solution(np.array([[ch == "#" for ch in r] for r in rows]))


def write_clue_cells(ws, puzzle: Puzzle, top: int, left: int, *, as_text=False, depth=None):
    """The template layout by hand: grid corner at (top, left), one number per cell."""
    cdepth = depth or max(len(c) for c in puzzle.cols)
    rdepth = depth or max(len(c) for c in puzzle.rows)
    for j, clues in enumerate(puzzle.cols):
        for k, v in enumerate(clues):
            ws.cell(top - len(clues) + k, left + j, str(v) if as_text else v)
    for i, clues in enumerate(puzzle.rows):
        for k, v in enumerate(clues):
            ws.cell(top + i, left - len(clues) + k, str(v) if as_text else v)
    return cdepth, rdepth


def save(wb: Workbook, path) -> object:
    """Save an openpyxl workbook and open it with our back end."""
    wb.save(path)
    return open_book(path)


def test_template_layout_anywhere_with_title_notes_and_text_numbers(tmp_path):
    puzzle = picture_puzzle()
    wb = Workbook()
    ws = wb.active
    ws["B2"] = "Puzzle of the week"
    ws.merge_cells("B2:M2")
    ws["B3"] = "Teacher: Ms. Sato"
    write_clue_cells(ws, puzzle, top=9, left=8, as_text=True)
    ws["B20"] = "Colour the cells; good luck!"
    found = read_puzzle(save(wb, tmp_path / "t.xlsx").sheet("Sheet"))
    assert found.puzzle.rows == puzzle.rows
    assert found.puzzle.cols[:7] == puzzle.cols[:7]
    # The last column has no clues and nothing marks it: the grid is as wide as the clues.
    assert found.grid == (9, 8, 14, 14)


def test_clue_text_per_line(tmp_path):
    puzzle = picture_puzzle()
    wb = Workbook()
    ws = wb.active
    for i, clues in enumerate(puzzle.rows):
        ws.cell(5 + i, 2, ", ".join(map(str, clues)) if len(clues) != 1 else clues[0])
    for j, clues in enumerate(puzzle.cols):
        ws.cell(4, 3 + j, "\n".join(map(str, clues)) or "0")
    found = read_puzzle(save(wb, tmp_path / "t.xlsx").sheets()[0])
    assert (found.puzzle.rows, found.puzzle.cols) == (puzzle.rows, puzzle.cols)
    assert found.grid == (5, 3, 10, 10)


def test_japanese_separators_and_full_width_digits(tmp_path):
    puzzle = picture_puzzle()
    wb = Workbook()
    ws = wb.active
    for i, clues in enumerate(puzzle.rows):
        ws.cell(3 + i, 1, "・".join(chr(0xFF10 + v) for v in clues))
    for j, clues in enumerate(puzzle.cols):
        ws.cell(2, 2 + j, "、".join(map(str, clues)) or "0")
    found = read_puzzle(save(wb, tmp_path / "t.xlsx").sheets()[0])
    assert (found.puzzle.rows, found.puzzle.cols) == (puzzle.rows, puzzle.cols)


def test_defined_names_override_detection(tmp_path):
    puzzle = picture_puzzle()
    wb = Workbook()
    ws = wb.active
    ws.title = "Board"
    # Row clues right of the grid and column clues below it: only names can say so.
    for i, clues in enumerate(puzzle.rows):
        ws.cell(2 + i, 12, " ".join(map(str, clues)))
    for j, clues in enumerate(puzzle.cols):
        ws.cell(10, 3 + j, " ".join(map(str, clues)) or "0")
    wb.defined_names["PuzzleGrid"] = DefinedName("PuzzleGrid", attr_text="Board!$C$2:$J$7")
    wb.defined_names["RowClues"] = DefinedName("RowClues", attr_text="Board!$L$2:$L$7")
    wb.defined_names["ColClues"] = DefinedName("ColClues", attr_text="Board!$C$10:$J$10")
    book = save(wb, tmp_path / "t.xlsx")
    found = read_puzzle(book.sheet("Board"), book)
    assert found.layout == "named" and found.grid == (2, 3, 7, 10)
    assert (found.puzzle.rows, found.puzzle.cols) == (puzzle.rows, puzzle.cols)


def test_a_stale_grid_name_is_named_in_the_error(tmp_path):
    """workbooks/small.xlsx (grid E7:N16) with a PuzzleGrid name left one column short or
    shifted one column right, as when the grid was moved: the errors ('clues … need 10
    cells but the grid is 9 wide', 'rows hold … black cells, columns …') never said the
    grid came from the name."""
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "workbooks" / "small.xlsx"
    for ref in ("$E$7:$M$16", "$F$7:$O$16"):
        wb = load_workbook(sample)
        for label in ("A2", "C2", "E2", "G2"):  # no size typed (else that error names it)
            wb["Puzzle"][label] = None
        wb.defined_names["PuzzleGrid"] = DefinedName("PuzzleGrid", attr_text=f"Puzzle!{ref}")
        book = save(wb, tmp_path / "stale.xlsx")
        with pytest.raises(WorkbookError) as err:
            read_puzzle(book.sheet("Puzzle"), book)
        assert str(err.value).endswith(
            f"(the grid is the defined name PuzzleGrid, Puzzle!{ref.replace('$', '')}, where "
            "the sheet shows one at E7:N16; if the grid has moved, correct or delete the name)"
        ), err.value
    wb = load_workbook(sample)  # a right name and a mistyped clue: the name is not blamed
    wb["Puzzle"]["D7"] = "2x"
    wb.defined_names["PuzzleGrid"] = DefinedName("PuzzleGrid", attr_text="Puzzle!$E$7:$N$16")
    book = save(wb, tmp_path / "right-name.xlsx")
    with pytest.raises(WorkbookError) as err:
        read_puzzle(book.sheet("Puzzle"), book)
    assert str(err.value) == 'Puzzle!D7: clue "2x" is not a number', err.value


@pytest.mark.parametrize("labels", [("width", "height"), ("幅", "高さ"), ("横", "縦")])
def test_labelled_dimensions_extend_the_grid(tmp_path, labels):
    puzzle = picture_puzzle()
    wb = Workbook()
    ws = wb.active
    ws["A1"], ws["B1"], ws["C1"], ws["D1"] = labels[0], 8, labels[1], "6"
    write_clue_cells(ws, puzzle, top=8, left=6)
    found = read_puzzle(save(wb, tmp_path / "t.xlsx").sheets()[0])
    assert found.grid == (8, 6, 13, 13)
    assert (found.puzzle.rows, found.puzzle.cols) == (puzzle.rows, puzzle.cols)


def test_dimensions_smaller_than_the_clues_are_an_error(tmp_path):
    wb = Workbook()
    ws = wb.active
    ws["A1"], ws["B1"] = "width", 5
    write_clue_cells(ws, picture_puzzle(), top=8, left=6)
    with pytest.raises(WorkbookError, match=r"Sheet!B1: clues found for 7 columns but the width"):
        read_puzzle(save(wb, tmp_path / "t.xlsx").sheets()[0])


def test_puzzle_size_name(tmp_path):
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "8x6"
    wb.defined_names["PuzzleSize"] = DefinedName("PuzzleSize", attr_text="Sheet!$A$1")
    write_clue_cells(ws, picture_puzzle(), top=8, left=6)
    book = save(wb, tmp_path / "t.xlsx")
    assert read_puzzle(book.sheets()[0], book).grid == (8, 6, 13, 13)


def test_bordered_empty_grid_gives_trailing_empty_lines(tmp_path):
    wb = Workbook()
    ws = wb.active
    write_clue_cells(ws, picture_puzzle(), top=5, left=5)
    thin = Side(style="thin")
    for r in range(5, 11):
        for c in range(5, 13):
            ws.cell(r, c).border = Border(left=thin, right=thin, top=thin, bottom=thin)
    found = read_puzzle(save(wb, tmp_path / "t.xlsx").sheets()[0])
    assert found.grid == (5, 5, 10, 12)


def test_several_sheets_and_a_notes_sheet(tmp_path):
    book = new_book()
    book.sheets()[0].write_values((1, 1), [["How to solve: fill the cells"]])
    small = picture_puzzle(["#.", ".#"])
    write_template(book.add_sheet("One"), picture_puzzle())
    write_template(book.add_sheet("Two"), small)
    book.save(tmp_path / "t.xlsx")
    found = find_puzzles(open_book(tmp_path / "t.xlsx"))
    assert [f.sheet for f in found] == ["One", "Two"]
    assert found[1].puzzle.rows == small.rows
    only = find_puzzles(open_book(tmp_path / "t.xlsx"), sheet="Two")
    assert [f.sheet for f in only] == ["Two"]


def test_template_for_new_is_empty_and_reads_once_clues_are_typed(tmp_path):
    book = new_book()
    layout = write_template(book.sheets()[0], size=(8, 6))
    with pytest.raises(NoPuzzleError):
        read_puzzle(book.sheets()[0])
    puzzle = picture_puzzle()
    top, left, _, right = layout.row_band
    for i, clues in enumerate(puzzle.rows):  # typed left-aligned: still fine
        book.sheets()[0].write_values((top + i, left), [list(clues)])
    top, left, bottom, _ = layout.col_band
    for j, clues in enumerate(puzzle.cols):
        book.sheets()[0].write_values((top, left + j), [[v] for v in clues])
    book.save(tmp_path / "t.xlsx")
    found = read_puzzle(open_book(tmp_path / "t.xlsx").sheets()[0])
    assert found.grid == layout.grid
    assert (found.puzzle.rows, found.puzzle.cols) == (puzzle.rows, puzzle.cols)


def test_givens_from_painted_cells(tmp_path):
    wb = Workbook()
    ws = wb.active
    write_clue_cells(ws, picture_puzzle(), top=5, left=5)
    grey = PatternFill("solid", start_color="FF333333", end_color="FF333333")
    ws.cell(5, 5).fill = grey
    ws.cell(5, 6).fill = PatternFill("solid", start_color="FFFFFF00", end_color="FFFFFF00")
    ws.cell(5, 7, "×")
    ws.cell(5, 8, "x")  # a player's x is black (CONVENTIONS §3), × and ・ white
    ws.cell(5, 9, "・")
    book = save(wb, tmp_path / "t.xlsx")
    found = read_puzzle(book.sheets()[0], givens=True)
    assert found.givens[0, :5].tolist() == [5, 0, 6, 5, 6]  # black, yellow, white, …
    assert read_puzzle(book.sheets()[0]).givens is None


@pytest.mark.parametrize(
    "cell, value, message",
    [
        ("E4", "x", r'^Sheet1!E4: clue "x" is not a number$'),
        ("E4", -2, r"^Sheet1!E4: clue -2 is negative$"),
        ("E4", 2.123456, r"^Sheet1!E4: clue 2.123456 is not a whole number$"),
        ("A7", 9, r"^row 1 \(Sheet1!A7:C7\): clues 9 2 1 need 14 cells but the grid is 8 wide$"),
        ("C7", 2, r"^Sheet1: rows hold 24 black cells, columns 23$"),
    ],
)
def test_bad_clues_name_the_cell(tmp_path, cell, value, message):
    book = new_book()
    write_template(book.sheets()[0], picture_puzzle())
    book.sheets()[0].ws[cell] = value
    book.save(tmp_path / "t.xlsx")
    with pytest.raises(WorkbookError, match=message):
        read_puzzle(open_book(tmp_path / "t.xlsx").sheets()[0])


def test_no_clues_and_too_large(tmp_path):
    wb = Workbook()
    wb.active["A1"] = "nothing to see"
    with pytest.raises(NoPuzzleError, match="no clues found"):
        find_puzzles(save(wb, tmp_path / "a.xlsx"))
    wb = Workbook()
    ws = wb.active
    for j in range(301):
        ws.cell(1, 2 + j, 1)
        ws.cell(2 + j, 1, 1)
    with pytest.raises(WorkbookError, match=r"the grid is 301×301; at most 300×300"):
        read_puzzle(save(wb, tmp_path / "b.xlsx").sheets()[0])


@pytest.mark.parametrize(
    "rows, cols",
    [
        ([(1, 2), (1,), (2, 1)], [(1,), (1, 1), (1,), (1, 1), (1,)]),  # columns all 1s
        ([(1,), (1, 1), (1,), (1,)], [(2,), (), (2, 1)]),  # rows all 1s
    ],
)
def test_a_template_whose_clues_on_one_side_are_all_1s_reads_back(tmp_path, rows, cols):
    """Clues of 1 alone do not place a corner, so the strong clues of the other band put
    it in the wrong place ('clues found for 6 columns but the width given is 5'); the
    template's boxed grid and its size labels are met only by weighing every clue."""
    puzzle = Puzzle.from_clues(rows, cols)
    book = new_book()
    write_template(book.sheets()[0], puzzle)
    book.save(tmp_path / "t.xlsx")
    found = read_puzzle(open_book(tmp_path / "t.xlsx").sheets()[0])
    assert (found.puzzle.rows, found.puzzle.cols) == (puzzle.rows, puzzle.cols)
    assert (found.width, found.height) == (len(cols), len(rows))


def test_the_ambiguity_error_names_two_different_ranges_or_none():
    """'cannot tell the puzzles at G20:J22 and G20:J22 apart' named one range twice."""
    from xlsolver.workbook.finder import ambiguous

    same = str(ambiguous("P", [(20, 7, 22, 10), (20, 7, 22, 10)]))
    assert same.startswith("P!G20:J22: clues run into the grid") and "puzzles at" not in same
    two = str(ambiguous("P", [(20, 7, 22, 10), (2, 2, 9, 9)]))
    assert "puzzles at P!G20:J22 and P!B2:I9 apart" in two


def test_a_template_with_size_labels_and_a_table_beside_it_reads(tmp_path):
    """The template's width/height labels kept the sheet from being read block by block,
    so a table of scores three columns right of it stopped the run ('cannot tell the
    puzzles apart'); the labels now apply to every block, and a label block that stands
    apart from the clues still holds the puzzle to its size."""
    puzzle = picture_puzzle()
    book = new_book()
    write_template(book.sheets()[0], puzzle)
    book.save(tmp_path / "t.xlsx")
    wb = load_workbook(tmp_path / "t.xlsx")
    ws = wb.active
    right = ws.max_column
    for i in range(5):
        ws.cell(2 + i, right + 4, f"pupil {i}")
        ws.cell(2 + i, right + 5, 7 * i + 3)
    book = save(wb, tmp_path / "table.xlsx")
    (found,) = find_puzzles(book)
    assert (found.puzzle.rows, found.puzzle.cols) == (puzzle.rows, puzzle.cols)
    first = get_column_letter(right + 4)
    assert found.ignored == [f"{first}2:{get_column_letter(right + 5)}6 not a puzzle"]


# workbooks/small.xlsx with a line of counts in O7:O16 that are not all its rows' totals
SAMPLE_TWO_SIDED = (
    "Puzzle!E7:N16: clues on both sides of the grid (A7:D16 and O7:O16), and neither is "
    "the other's totals (each line's count of black cells); pick the puzzle with "
    "--range Puzzle!A4:N16"
)


def test_a_wrong_total_beside_the_boxed_sample_names_both_bands(tmp_path):
    """workbooks/small.xlsx with row totals typed in O7:O16, one of them wrong: the
    column of counts outweighed the row clues of 1s where the grid's corner was looked
    for, and the error blamed the width label (``Puzzle!C2: clues found for 12 columns
    but the width given is 10``), or, without the labels, said the clues ran into the
    grid. Now the grid is found where its clues place it and both bands are named."""
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "workbooks" / "small.xlsx"
    counts = [2, 4, 6, 8, 10, 2, 5, 4, 6, 8]
    expected = SAMPLE_TWO_SIDED
    for labels in (True, False):
        wb = load_workbook(sample)
        ws = wb["Puzzle"]
        for i, n in enumerate(counts):
            ws.cell(7 + i, 15, n)
        path = tmp_path / f"right-{labels}.xlsx"
        wb.save(path)
        (found,) = find_puzzles(open_book(path))  # every total right: set aside
        assert found.where == "Puzzle!E7:N16" and "O7:O16 totals" in found.ignored
        ws["O7"] = 3
        if not labels:
            for ref in ("A2", "C2", "E2", "G2"):
                ws[ref] = None
        path = tmp_path / f"wrong-{labels}.xlsx"
        wb.save(path)
        with pytest.raises(WorkbookError) as err:
            find_puzzles(open_book(path))
        assert str(err.value) == expected
        (picked,) = find_puzzles(open_book(path), sheet="Puzzle", area=(4, 1, 16, 14))
        assert picked.where == "Puzzle!E7:N16"


def test_counts_mostly_wrong_beside_the_boxed_sample_name_both_bands(tmp_path):
    """workbooks/small.xlsx with a column of counts in O7:O16 of which most (or all) are
    not the rows' totals: the finder took the column for row clues and blamed the width
    label ('Puzzle!C2: clues found for 12 columns but the width given is 10'); only a
    line with most counts right was named beside the clues."""
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "workbooks" / "small.xlsx"
    for counts in ([3, 5, 7, 8, 10, 3, 6, 4, 7, 9], [9] * 10):
        wb = load_workbook(sample)
        for i, n in enumerate(counts):
            wb["Puzzle"].cell(7 + i, 15, n)
        path = tmp_path / "counts.xlsx"
        wb.save(path)
        with pytest.raises(WorkbookError) as err:
            find_puzzles(open_book(path))
        assert str(err.value) == SAMPLE_TWO_SIDED


@pytest.mark.parametrize("heading", ["Σ", "#", "Total"])
def test_a_heading_above_wrong_totals_is_set_aside_with_them(tmp_path, heading):
    """A heading typed above the column of counts (O6, beside the column clues' last
    row), one count wrong: short text (Σ, #) was read as a mistyped clue of an eleventh
    column ('Puzzle!C2: clues found for 11 columns but the width given is 10'), and
    with 'Total' the range offered (A7:N16) left the column clues out."""
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "workbooks" / "small.xlsx"
    wb = load_workbook(sample)
    ws = wb["Puzzle"]
    for i, n in enumerate([2, 4, 6, 8, 10, 2, 5, 4, 6, 8]):
        ws.cell(7 + i, 15, n)
    ws["O6"] = heading
    path = tmp_path / "right.xlsx"
    wb.save(path)
    (found,) = find_puzzles(open_book(path))  # every total right: set aside
    assert found.where == "Puzzle!E7:N16" and "O7:O16 totals" in found.ignored
    ws["O7"] = 3
    path = tmp_path / "wrong.xlsx"
    wb.save(path)
    with pytest.raises(WorkbookError) as err:
        find_puzzles(open_book(path))
    assert str(err.value) == SAMPLE_TWO_SIDED
    (picked,) = find_puzzles(open_book(path), sheet="Puzzle", area=(4, 1, 16, 14))
    assert picked.where == "Puzzle!E7:N16"
    assert (picked.puzzle.rows, picked.puzzle.cols) == (found.puzzle.rows, found.puzzle.cols)


def test_wrong_totals_left_of_a_grid_with_its_row_clues_right_offer_the_clues(tmp_path):
    """Row clues right of a boxed grid and a column of counts left of it, one count
    wrong: the range offered read the counts as the row clues ('rows hold 56 black
    cells, columns 55'); it offers the clues' side."""
    picture = [
        "....##....", "...####...", "..######..", ".########.", "##########",
        ".#......#.", ".#.##.#.#.", ".#.##...#.", ".#.##.###.", ".########.",
    ]  # fmt: skip
    rows = [[len(run) for run in row.split(".") if run] for row in picture]
    cols = [
        [len(run) for run in "".join(r[j] for r in picture).split(".") if run] for j in range(10)
    ]
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    thin = Side(style="thin")
    for j, clue in enumerate(cols):  # column clues above the grid F6:O15
        for k, n in enumerate(clue):
            ws.cell(6 - len(clue) + k, 6 + j, n)
    for i, clue in enumerate(rows):
        for k, n in enumerate(clue):
            ws.cell(6 + i, 16 + k, n)  # row clues right of the grid, from P
        ws.cell(6 + i, 5, sum(clue) + (i == 0))  # counts left of it in E, the first wrong
        for j in range(10):
            ws.cell(6 + i, 6 + j).border = Border(left=thin, right=thin, top=thin, bottom=thin)
    path = tmp_path / "right.xlsx"
    wb.save(path)
    with pytest.raises(WorkbookError) as err:
        find_puzzles(open_book(path))
    assert str(err.value).endswith("pick the puzzle with --range Puzzle!F3:S15"), err.value
    (picked,) = find_puzzles(open_book(path), sheet="Puzzle", area=(3, 6, 15, 19))
    assert picked.puzzle.is_solution(np.array([[ch == "#" for ch in row] for row in picture]))

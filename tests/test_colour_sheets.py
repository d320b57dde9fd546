"""Colour workbooks for real: a colour puzzle file converted to .xlsx, solved headless and
through the Calc macro in LibreOffice, the painted fills read back cell by cell with
openpyxl and checked against every clue of the original file by the oracle."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA
from office import macro_office, run_macros
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Border, Font, PatternFill, Side
from oracles import breaks

from xlsolver.cli import main as cli_main
from xlsolver.formats import read_puzzles, write_puzzle
from xlsolver.nonogram.colour_puzzle import ColourPuzzle, Palette
from xlsolver.sheets.openpyxl_sheet import open_book
from xlsolver.workbook.batch import SolveOptions, solve_workbook
from xlsolver.workbook.colour_paint import MARKED_STYLE, contradiction_style
from xlsolver.workbook.layout import find_puzzles

COLOUR_FILES = sorted(
    p.name
    for p in DATA.iterdir()
    if p.suffix in (".non", ".xml", ".toml") and isinstance(read_puzzles(p)[0], ColourPuzzle)
)
WHITE = "#FFFFFF"


def painted_colours(path: Path, original: ColourPuzzle) -> np.ndarray:
    """The grid's fills read with openpyxl as the original file's colour numbers: 0 for a
    white crossed cell, -1 for anything else (unpainted, or a colour of no ink)."""
    book = open_book(path, read_only=True)
    (found,) = find_puzzles(book)
    ws = load_workbook(path).worksheets[0]
    by_rgb = {c.rgb.upper(): i for i, c in enumerate(original.palette.inks, 1)}
    top, left, bottom, right = found.grid
    out = np.full((bottom - top + 1, right - left + 1), -1, dtype=int)
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            cell = ws.cell(r, c)
            fill = "#" + cell.fill.fgColor.rgb[-6:] if cell.fill.fill_type == "solid" else None
            crossed = bool(cell.border.diagonalUp and cell.border.diagonalDown)
            if fill == WHITE and crossed:
                out[r - top, c - left] = 0
            elif fill in by_rgb and not crossed:
                out[r - top, c - left] = by_rgb[fill]
    return out


def clue_fills(path: Path) -> set[str]:
    """Every fill colour of a workbook's first sheet outside white."""
    ws = load_workbook(path).worksheets[0]
    return {
        "#" + c.fill.fgColor.rgb[-6:].lower()
        for row in ws.iter_rows()
        for c in row
        if c.fill.fill_type == "solid" and c.fill.fgColor.rgb[-6:] != "FFFFFF"
    }


@pytest.mark.parametrize("name", COLOUR_FILES)
def test_convert_solve_and_read_back_every_colour_fixture(tmp_path, name, capsys):
    """File → workbook (clue cells in their colours, a palette row) → solved headless →
    every grid cell's fill read back is the original puzzle's solution."""
    (original,) = read_puzzles(DATA / name)
    book = tmp_path / "puzzle.xlsx"
    assert cli_main(["convert", str(DATA / name), "-o", str(book)]) == 0
    assert clue_fills(book) == {c.rgb for c in original.palette.inks}
    (found,) = find_puzzles(open_book(book, read_only=True))
    assert isinstance(found.puzzle, ColourPuzzle)
    assert found.puzzle.palette.letters == original.palette.letters  # the palette row's letters
    capsys.readouterr()
    solved = tmp_path / "solved.xlsx"
    assert cli_main(["solve", str(book), "-o", str(solved), "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["status"] == "unique"
    assert record["colours"] == original.palette.colours_json()
    grid = painted_colours(solved, original)
    assert (grid >= 0).all(), "every cell painted in an ink or crossed white"
    assert breaks(original, grid.tolist()) == []
    assert record["solutions"][0] == original.palette.rows_text(grid)


def test_unboxed_staircase_bands_placed_by_the_size_labels(tmp_path, capsys):
    """The rainbow's bands are staircases: with the borders gone, its first row's lone row
    clue sits where a column clue could, and clues alone tie two corners; the width and
    height labels that ``convert`` writes choose the one that fits (it read 11 columns)."""
    (original,) = read_puzzles(DATA / "nonny-rainbow.non")
    book = tmp_path / "puzzle.xlsx"
    assert cli_main(["convert", str(DATA / "nonny-rainbow.non"), "-o", str(book)]) == 0
    wb = load_workbook(book)
    for row in wb.active.iter_rows():
        for cell in row:
            cell.border = Border()
    bare = tmp_path / "bare.xlsx"
    wb.save(bare)
    capsys.readouterr()
    assert cli_main(["solve", str(bare), "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["status"] == "unique", record
    assert (record["width"], record["height"]) == (original.width, original.height)
    (found,) = find_puzzles(open_book(bare, read_only=True))
    assert (found.puzzle.rows, found.puzzle.cols) == (original.rows, original.cols)


def font_typed_sheet(tmp_path):
    """A sheet whose column clues are typed in coloured fonts on no fill and whose row
    clues are red fills or blue fonts on white fills: (path, puzzle, goal)."""
    palette = Palette.build([("red", "#ff0000", "r"), ("blue", "#0000ff", "b")])
    goal = np.array([[1, 1, 2], [0, 2, 2], [1, 0, 2]])
    puzzle = ColourPuzzle.from_solution(goal, palette)
    wb = Workbook()
    ws = wb.active
    top, left = 4, 4
    for j, line in enumerate(puzzle.cols):
        for k, (n, ink) in enumerate(line):
            cell = ws.cell(top - len(line) + k, left + j, n)
            cell.font = Font(color="FF" + palette.colour(ink).rgb[1:].upper())
    for i, line in enumerate(puzzle.rows):
        for k, (n, ink) in enumerate(line):
            cell = ws.cell(top + i, left - len(line) + k, n)
            if ink == 1:
                cell.fill = PatternFill("solid", start_color="FFFF0000", end_color="FFFF0000")
            else:
                cell.fill = PatternFill("solid", start_color="FFFFFFFF", end_color="FFFFFFFF")
                cell.font = Font(color="FF0000FF")
    src = tmp_path / "typed.xlsx"
    wb.save(src)
    return src, puzzle, goal


def test_clue_colour_from_font_where_the_fill_is_white(tmp_path):
    """Clues typed in coloured fonts on white cells (and one on a fill) make a colour puzzle."""
    src, puzzle, goal = font_typed_sheet(tmp_path)
    (found,) = find_puzzles(open_book(src, read_only=True))
    assert isinstance(found.puzzle, ColourPuzzle)
    assert found.puzzle.palette.colours_json() in (
        {"a": "#ff0000", "b": "#0000ff"},
        {"a": "#0000ff", "b": "#ff0000"},
    )
    out = tmp_path / "out.xlsx"
    report = solve_workbook(src, out, SolveOptions())
    assert report.sheets[0].status == "unique"
    grid = painted_colours(out, puzzle)
    assert (grid == goal).all()


def test_a_colour_reading_with_no_solution_says_where_the_colours_came_from(tmp_path, capsys):
    """A black-and-white puzzle whose finished first row and column were typed in a grey
    font (done marks) reads in two colours; with no solution the message said only
    "contradiction", now it names the colours read and what to do."""
    frame = ["#####", "#...#", "#.#.#", "#...#", "#####"]
    rows = [list(map(len, "".join(r).replace(".", " ").split())) for r in frame]
    cols = [
        list(map(len, "".join(r[j] for r in frame).replace(".", " ").split())) for j in range(5)
    ]
    wb = Workbook()
    ws = wb.active
    grey = Font(color="FF999999")
    thin = Side(style="thin")
    for j, clues in enumerate(cols):
        for k, v in enumerate(clues):
            ws.cell(5 - len(clues) + k, 5 + j, v).font = grey if j == 0 else Font()
    for i, clues in enumerate(rows):
        for k, v in enumerate(clues):
            ws.cell(5 + i, 5 - len(clues) + k, v).font = grey if i == 0 else Font()
    for r in range(5, 10):
        for c in range(5, 10):
            ws.cell(r, c).border = Border(left=thin, right=thin, top=thin, bottom=thin)
    src = tmp_path / "done.xlsx"
    wb.save(src)
    report = solve_workbook(src, tmp_path / "out.xlsx", SolveOptions())
    (sheet,) = report.sheets
    assert sheet.status == "contradiction"
    assert "(read as a colour puzzle: clue cells in 2 colours, #999999, #000000; " in sheet.message
    assert "take the colours off its clue cells" in sheet.message
    clash = tmp_path / "clash.non"  # a puzzle file's colours are its own: no such advice
    clash.write_text(
        "width 2\nheight 2\ncolor a #ff0000\ncolor b #0000ff\n"
        "rows\n1a,1b\n1b,1a\ncolumns\n1b,1a\n1a,1b\n"
    )
    assert cli_main(["solve", str(clash), "-o", str(tmp_path / "clash.xlsx")]) == 1
    said = capsys.readouterr().out
    assert "contradiction: no solution" in said and "read as a colour puzzle" not in said


@pytest.mark.parametrize("listed", [True, False])
def test_whole_clue_rows_filled_in_an_ink_stay_that_ink(tmp_path, listed):
    """A designer filled the whole clue row red beside each red clue (its blank clue
    cells too): taken for guide stripes, the puzzle was solved in black and white. A
    saturated colour, or one the palette row lists, is an ink."""
    red = PatternFill("solid", start_color="FF0000", end_color="FF0000")
    thin = Side(style="thin")
    wb = Workbook()
    ws = wb.active
    for j, n in enumerate([3, 2, 3, 0, 3, 3, 3]):  # grid C5:I10
        ws.cell(4, 3 + j, n).fill = red if j >= 4 else PatternFill()
    for i, clue in enumerate([(1, 1), (3,), (3,), (3,), (3,), (3,)]):
        for k, n in enumerate(clue):
            ws.cell(5 + i, 3 - len(clue) + k, n)
        if i >= 3:
            ws.cell(5 + i, 1).fill = red
            ws.cell(5 + i, 2).fill = red
    for r in range(5, 11):
        for c in range(3, 10):
            ws.cell(r, c).border = Border(left=thin, right=thin, top=thin, bottom=thin)
    if listed:
        ws.cell(12, 3, "colours")
        ws.cell(12, 7, "r").fill = red
    wb.save(tmp_path / "two.xlsx")
    (found,) = find_puzzles(open_book(tmp_path / "two.xlsx", read_only=True))
    assert isinstance(found.puzzle, ColourPuzzle)
    assert sorted(found.puzzle.palette.colours_json().values()) == ["#000000", "#ff0000"]


def test_one_colour_clues_stay_black_and_white(tmp_path, capsys):
    """Clues all in one colour (red) are an ordinary puzzle painted grey, as before."""
    wb = Workbook()
    ws = wb.active
    red = PatternFill("solid", start_color="FFFF0000", end_color="FFFF0000")
    for col, n in ((3, 1), (4, 2), (5, 1)):
        ws.cell(2, col, n).fill = red
    for row, n in ((3, 3), (4, 1)):
        ws.cell(row, 2, n).fill = red
    src = tmp_path / "red.xlsx"
    wb.save(src)
    (found,) = find_puzzles(open_book(src, read_only=True))
    assert not isinstance(found.puzzle, ColourPuzzle)
    capsys.readouterr()
    assert cli_main(["solve", str(src), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solutions"] == [["###", ".#."]] and "colours" not in record


def test_column_clues_in_a_shade_near_the_rows_are_named(tmp_path):
    """Column clues filled with a shade one step from the rows' (picked again from
    "recent colours"): the colour totals disagree, and the message names the two shades
    instead of only saying where colours are read from."""
    book = tmp_path / "tree.xlsx"
    assert cli_main(["convert", str(DATA / "nonny-tree.non"), "-o", str(book)]) == 0
    (found,) = find_puzzles(open_book(book))
    wb = load_workbook(book)
    ws = wb.worksheets[0]
    shifted = {}
    for top, left, bottom, right in found.col_clue_cells:
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                cell = ws.cell(r, c)
                rgb = cell.fill.fgColor.rgb if cell.fill.fill_type == "solid" else None
                if cell.value is None or not isinstance(rgb, str) or rgb[-6:] == "000000":
                    continue
                near = "".join(f"{max(0, int(rgb[i : i + 2], 16) - 1):02X}" for i in (2, 4, 6))
                shifted["#" + rgb[-6:].lower()] = "#" + near.lower()
                cell.fill = PatternFill("solid", start_color="FF" + near, end_color="FF" + near)
    wb.save(book)
    assert shifted
    report = solve_workbook(book, None, SolveOptions())
    ours, near = next(iter(sorted(shifted.items())))
    assert f'"{ours}" (rows) and "{near}" (columns)' in report.error, report.error
    assert "are nearly the same shade" in report.error


def test_contradiction_red_unless_red_is_an_ink(tmp_path, capsys):
    """Clues no grid meets (each colour's totals agree): the cells proved to have no colour
    are red, or marked (black, crossed in red) when red is an ink of the puzzle."""
    rows = [[(1, 2), (1, 1)], [(1, 1), (1, 1)], [(2, 2)]]
    cols = [[(1, 1), (1, 1)], [(1, 1), (1, 2)], [(2, 2)]]
    for first, fill, diagonal in (("#00aa00", "FFFF0000", None), ("#ff0000", "FF000000", "FF0000")):
        palette = Palette.build([("one", first, "r"), ("blue", "#0000ff", "b")])
        puzzle = ColourPuzzle.from_clues(rows, cols, palette)
        path = tmp_path / "p.json"
        write_puzzle(puzzle, path)
        book, out = tmp_path / "p.xlsx", tmp_path / "out.xlsx"
        assert cli_main(["convert", str(path), "-o", str(book)]) == 0
        capsys.readouterr()
        assert cli_main(["solve", str(book), "-o", str(out), "--json"]) == 1
        record = json.loads(capsys.readouterr().out)
        assert record["status"] == "contradiction" and record["discrepancies"]
        look = "black crossed in red" if diagonal else "red"  # the message says what shows
        assert f"; {look} where it shows: " in record["message"], record["message"]
        ws = load_workbook(out).worksheets[0]
        for ref in record["discrepancies"]:
            cell = ws[ref]
            assert cell.fill.fgColor.rgb == fill
            crossed = cell.border.diagonalUp and cell.border.diagonalDown
            assert (cell.border.diagonal.color.rgb[-6:] if crossed else None) == diagonal
        assert (contradiction_style(palette) is MARKED_STYLE) == (diagonal is not None)


def test_a_crossed_cell_at_fault_keeps_its_cross_under_the_red(tmp_path, capsys):
    """solve --givens or Hint on a colour sheet with a cell crossed (the background)
    where the only picture has an ink: the cell turns red and keeps its cross, so it still
    reads as the person's cross and Hint names it again (the red alone lost it, and the
    next Hint went on without it), as on black-and-white sheets."""
    from xlsolver.nonogram.cells import CERTAIN, colour_bit
    from xlsolver.workbook.layout import read_puzzle

    (tree,) = read_puzzles(DATA / "nonny-tree.non")
    book = tmp_path / "tree.xlsx"
    assert cli_main(["convert", str(DATA / "nonny-tree.non"), "-o", str(book)]) == 0
    found = read_puzzle(open_book(book).sheets()[0], open_book(book))
    from xlsolver.nonogram.analyzer import solve

    (picture,) = solve(tree).solutions  # the only picture
    r, c = (int(v[0]) for v in np.nonzero(np.asarray(picture) > 0))  # a cell it inks
    wb = load_workbook(book)
    cell = wb.worksheets[0].cell(found.grid[0] + r, found.grid[1] + c)
    hair = Side(style="hair", color="FF808080")
    cell.border = Border(diagonal=hair, diagonalUp=True, diagonalDown=True)
    wb.save(book)
    out = tmp_path / "out.xlsx"
    assert cli_main(["solve", str(book), "--givens", "-o", str(out)]) == 1
    marked = load_workbook(out).worksheets[0].cell(cell.row, cell.column)
    assert marked.fill.fgColor.rgb[-6:] == "FF0000", capsys.readouterr().out
    assert marked.border.diagonalUp and marked.border.diagonalDown
    again = open_book(out)
    givens = read_puzzle(again.sheets()[0], again, givens=True).givens
    assert int(givens[r, c]) == CERTAIN | colour_bit(0)  # still the person's cross
    # Hint marks it the same way, and the next press names it again
    from xlsolver.actions import hint

    pressed = open_book(book)
    sheet = pressed.sheets()[0]
    first, second = hint(pressed, sheet), hint(pressed, sheet)
    assert not first.ok and first.cells == [(cell.row, cell.column)], first
    assert (second.message, second.cells) == (first.message, first.cells)
    assert sheet.read_diagonals((cell.row, cell.column) * 2) == [[True]]


def test_new_with_colours_lays_out_a_palette_row_to_fill(tmp_path, capsys):
    """`new --colours 2`: a template with two empty swatches; a person fills them and the
    clue cells, and the sheet solves as a colour puzzle in the swatches' letters."""
    out = tmp_path / "blank.xlsx"
    assert cli_main(["new", "--size", "3x2", "--colours", "2", "-o", str(out)]) == 0
    wb = load_workbook(out)
    ws = wb.active
    label = [c for row in ws.iter_rows() for c in row if c.value == "colours"]
    assert len(label) == 1
    row, col = label[0].row, label[0].column
    swatches = [ws.cell(row, col + 3 + i) for i in range(2)]
    assert [s.value for s in swatches] == ["a", "b"]
    assert all(s.fill.fill_type is None for s in swatches)
    red = PatternFill("solid", start_color="FFFF0000", end_color="FFFF0000")
    blue = PatternFill("solid", start_color="FF0000FF", end_color="FF0000FF")
    swatches[0].fill, swatches[1].fill = red, blue
    # The goal rrb / .b. : rows "2 1" and "1", columns "1", "1 1", "1".
    grid_top = row - 2 - 1  # the palette row is two rows below a 2-row grid
    grid_left = col
    for k, (n, fill) in enumerate(((2, red), (1, blue))):
        ws.cell(grid_top, grid_left - 2 + k, n).fill = fill
    ws.cell(grid_top + 1, grid_left - 1, 1).fill = blue
    ws.cell(grid_top - 1, grid_left, 1).fill = red
    ws.cell(grid_top - 2, grid_left + 1, 1).fill = red
    ws.cell(grid_top - 1, grid_left + 1, 1).fill = blue
    ws.cell(grid_top - 1, grid_left + 2, 1).fill = blue
    wb.save(out)
    capsys.readouterr()
    assert cli_main(["solve", str(out), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solutions"] == [["aab", ".b."]]
    assert record["colours"] == {"a": "#ff0000", "b": "#0000ff"}


# --- the same through the Calc macro in headless LibreOffice -------------------------


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    """One headless LibreOffice with the xlsolver macros (tests/office.py)."""
    with macro_office(tmp_path_factory) as lo:
        yield lo


@pytest.mark.libreoffice
@pytest.mark.parametrize("name", ["nonny-rainbow.non", "webpbn-color-00047-map.xml"])
def test_calc_macro_solves_a_colour_workbook(office, tmp_path, name):
    """The Solve button's macro in Calc paints the converted colour workbook; the fills
    read back are a solution of the original file."""
    (original,) = read_puzzles(DATA / name)
    book = tmp_path / "puzzle.xlsx"
    assert cli_main(["convert", str(DATA / name), "-o", str(book)]) == 0
    out = tmp_path / "solved.xlsx"
    (message,) = run_macros(office, book, ["solve"], out)
    assert "unique solution painted" in message, message
    grid = painted_colours(out, original)
    assert (grid >= 0).all()
    assert breaks(original, grid.tolist()) == []


def test_hint_button_paints_colour_steps_to_the_solution(tmp_path):
    """The Hint action on a colour sheet: every press paints at least one more cell and
    never repaints one, until the grid is complete; the final grid meets every clue
    (the oracle's checker), so every press painted a cell of the one solution."""
    from xlsolver.actions import hint

    (original,) = read_puzzles(DATA / "nonny-tree.non")
    src = tmp_path / "tree.xlsx"
    assert cli_main(["convert", str(DATA / "nonny-tree.non"), "-o", str(src)]) == 0
    book = open_book(src)
    sheet = book.sheets()[0]
    history = []
    for _ in range(original.width * original.height + 1):
        outcome = hint(book, sheet)
        if not outcome.cells:
            break
        assert outcome.ok and outcome.painted >= 1, outcome.message
        book.save(tmp_path / "step.xlsx")
        history.append(painted_colours(tmp_path / "step.xlsx", original))
    assert "complete" in outcome.message
    final = history[-1]
    assert (final >= 0).all() and breaks(original, final.tolist()) == []
    for earlier, later in zip(history, history[1:], strict=False):
        shown = earlier >= 0
        assert (later >= 0).sum() > shown.sum()
        assert (later[shown] == earlier[shown]).all()


def test_new_grid_button_lays_out_the_palette_row(tmp_path):
    """New grid with ``colours: 2`` typed on the sheet lays out two swatches under the
    grid; filled, they survive the next New grid (a new size) with their colours."""
    from xlsolver.actions import new_grid

    path = tmp_path / "blank.xlsx"
    assert cli_main(["new", "--size", "3x2", "-o", str(path)]) == 0
    wb = load_workbook(path)
    wb.active["J2"] = "colours: 2"
    wb.save(path)
    book = open_book(path)
    sheet = book.sheets()[0]
    new_grid(book, sheet)
    book.save(tmp_path / "one.xlsx")
    ws = load_workbook(tmp_path / "one.xlsx").active
    (label,) = [c for row in ws.iter_rows() for c in row if c.value == "colours"]
    swatches = [ws.cell(label.row, label.column + 3 + i) for i in range(3)]
    assert [s.value for s in swatches] == ["a", "b", None]
    swatches[0].fill = PatternFill("solid", start_color="FFFF0000", end_color="FFFF0000")
    swatches[1].fill = PatternFill("solid", start_color="FF0000FF", end_color="FF0000FF")
    ws["C2"], ws["G2"] = 6, 5  # a new size
    ws["J2"] = None
    ws.parent.save(tmp_path / "two.xlsx")
    book = open_book(tmp_path / "two.xlsx")
    sheet = book.sheets()[0]
    new_grid(book, sheet)
    book.save(tmp_path / "three.xlsx")
    ws = load_workbook(tmp_path / "three.xlsx").active
    labels = [c for row in ws.iter_rows() for c in row if c.value == "colours"]
    assert len(labels) == 1 and labels[0].row > label.row  # under the taller grid
    row, col = labels[0].row, labels[0].column
    fills = [ws.cell(row, col + 3 + i).fill.fgColor.rgb for i in range(2)]
    assert fills == ["FFFF0000", "FF0000FF"]


@pytest.mark.libreoffice
def test_calc_macro_reads_font_coloured_clues(office, tmp_path):
    """In Calc the clue colours typed as font colours are read too (UNO back end)."""
    src, puzzle, goal = font_typed_sheet(tmp_path)
    out = tmp_path / "solved.xlsx"
    (message,) = run_macros(office, src, ["solve"], out)
    assert "unique solution painted" in message, message
    assert (painted_colours(out, puzzle) == goal).all()


def test_hint_on_a_full_colour_grid_painted_wrong_marks_the_broken_line(tmp_path):
    """A solved colour sheet with one cell repainted in another ink: Hint said "the grid is
    complete"; it marks the first line the painting breaks, in the contradiction colour."""
    from xlsolver.actions import hint
    from xlsolver.workbook.colour_paint import ink_style

    (original,) = read_puzzles(DATA / "nonny-tree.non")
    src = tmp_path / "tree.xlsx"
    assert cli_main(["convert", str(DATA / "nonny-tree.non"), "-o", str(src)]) == 0
    out = tmp_path / "solved.xlsx"
    assert cli_main(["solve", str(src), "-o", str(out)]) == 0
    book = open_book(out)
    sheet = book.sheets()[0]
    assert hint(book, sheet).message == "the grid is complete: nothing left to deduce"
    (found,) = find_puzzles(book)
    solved = painted_colours(out, original)
    r, c = map(int, np.argwhere(solved > 0)[0])
    other = 1 + solved[r, c] % original.palette.k  # another ink
    sheet.paint([found.cell(r, c)], ink_style(original.palette, int(other)))
    outcome = hint(book, sheet)
    assert not outcome.ok and outcome.message.startswith("the painted cells break "), outcome
    assert found.cell(r, c) in outcome.cells
    fills = sheet.read_fills(found.grid)
    red = contradiction_style(original.palette).fill
    assert all(fills[a - found.grid[0]][b - found.grid[1]] == red for a, b in outcome.cells)


def test_a_colour_template_has_room_for_a_line_of_single_clues(tmp_path, capsys):
    """`new --colours` gave the black-and-white clue areas (⌈n/2⌉ cells), but blocks of two
    colours need no gap: a 6-wide row red, blue, red, blue, red, blue has six clues. The
    areas are as deep as the lines are long, and that row typed there solves."""
    from xlsolver.workbook.template import plan

    out = tmp_path / "blank.xlsx"
    assert cli_main(["new", "--size", "6x2", "--colours", "2", "-o", str(out)]) == 0
    layout = plan(6, 2, colour=True)
    top, left = layout.grid[:2]
    assert layout.row_band[3] - layout.row_band[1] + 1 == 6
    assert layout.col_band[2] - layout.col_band[0] + 1 == 2
    wb = load_workbook(out)
    ws = wb.active
    label = next(c for row in ws.iter_rows() for c in row if c.value == "colours")
    red = PatternFill("solid", start_color="FFFF0000", end_color="FFFF0000")
    blue = PatternFill("solid", start_color="FF0000FF", end_color="FF0000FF")
    ws.cell(label.row, label.column + 3).fill = red
    ws.cell(label.row, label.column + 4).fill = blue
    for k in range(6):  # row 1: r b r b r b, one clue each, in the six cells left of it
        ws.cell(top, left - 6 + k, 1).fill = red if k % 2 == 0 else blue
        ws.cell(top - 1, left + k, 1).fill = red if k % 2 == 0 else blue  # each column: 1
    wb.save(out)
    capsys.readouterr()
    assert cli_main(["solve", str(out), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["solutions"] == [["ababab", "......"]]

"""The buttons written once in xlsolver.actions, through the openpyxl back end: New grid
on an empty sheet, pentomino boards drawn with borders only, the button workbook that
``xlsolver new -o NAME.xlsm`` writes, and the wheel that carries it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from conftest import WORKBOOKS, write_clues
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Border, PatternFill, Side

from xlsolver.actions import clear, new_grid, solve
from xlsolver.cli import main
from xlsolver.nonogram.cells import BLACK, BLANK, COLOUR, WHITE
from xlsolver.pentomino.board import make_board
from xlsolver.pentomino.sheet import PIECE_FILLS
from xlsolver.sheets.errors import WorkbookError
from xlsolver.sheets.openpyxl_sheet import new_book, open_book
from xlsolver.sheets.protocol import WHITE_STYLE, Style
from xlsolver.workbook.template import HEIGHT_CELL, TOTALS_CELL, WIDTH_CELL, plan

ROOT = Path(__file__).resolve().parents[1]
THIN = Side(style="thin", color="FF000000")
SKIP_IN_COPY = (".git", ".venv*", "venv", "build", "dist", "*.egg-info", "__pycache__", ".*cache")


def test_new_grid_asks_for_the_size_then_lays_it_out():
    """Empty sheet → prompt cells and what to type; typed → the template with checks."""
    book = new_book()
    sheet = book.sheets()[0]
    outcome = new_grid(book, sheet)
    assert outcome.ok and "width in C2 and its height in G2" in outcome.message
    assert sheet.read_values((2, 1, 2, 7))[0] == [
        "width",
        None,
        None,
        None,
        "height",
        None,
        None,
    ]
    assert (2, 3, 2, 4) in sheet.merged_ranges() and (2, 7, 2, 8) in sheet.merged_ranges()
    sheet.write_values(WIDTH_CELL, [[6]])
    sheet.write_values(HEIGHT_CELL, [[4]])
    outcome = new_grid(book, sheet)
    assert outcome.ok and outcome.message.startswith("new 6×4 grid"), outcome.message
    assert str(sheet.ws.cell(*TOTALS_CELL).value).startswith("=")
    top, left, bottom, right = plan(6, 4).grid
    assert all(sheet.read_borders((top, left, bottom, right))[0])


def test_new_grid_tells_what_to_type_when_the_size_row_holds_other_things():
    """A size row with something else in it is left alone: an error naming the cells."""
    book = new_book()
    sheet = book.sheets()[0]
    sheet.write_values((2, 1), [["my notes"]])
    outcome = new_grid(book, sheet)
    assert not outcome.ok and "C2" in outcome.message and "G2" in outcome.message
    assert sheet.read_values((2, 1, 2, 1)) == [["my notes"]]


@pytest.mark.parametrize(("width", "shown"), [("ten", "'ten'"), (-1, "'-1'"), (7.5, "'7.5'")])
def test_new_grid_names_a_size_that_is_not_a_whole_number(width, shown):
    """A width typed as ``ten``, -1 or 7.5 got "type the board's width in C2 …", though
    something was typed there: the message says what C2 holds and what it needs."""
    book = new_book()
    sheet = book.sheets()[0]
    assert new_grid(book, sheet).ok  # the prompt cells
    sheet.write_values(WIDTH_CELL, [[width]])
    sheet.write_values(HEIGHT_CELL, [[4]])
    outcome = new_grid(book, sheet)
    assert not outcome.ok
    assert outcome.message.startswith(f"C2 holds {shown}, not a width: type a whole number")


def bordered_board(path: Path, rows: int = 6, cols: int = 10) -> tuple[int, int]:
    """A pentomino board drawn with borders only (no fill, no values); its corner."""
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "A 6×10 board"
    top, left = 3, 2
    for r in range(top, top + rows):
        for c in range(left, left + cols):
            ws.cell(r, c).border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
    wb.save(path)
    return top, left


def test_solve_and_clear_understand_a_board_drawn_with_borders(tmp_path):
    """Solve tiles a borders-only board (each piece in its colour and letter, a real
    tiling); Clear removes the tiling and keeps the borders, and Solve works again."""
    path = tmp_path / "board.xlsx"
    top, left = bordered_board(path)
    book = open_book(path)
    sheet = book.sheets()[0]
    for _ in range(2):
        outcome = solve(book, sheet)
        assert outcome.ok and "tiled with the 12 pentominoes" in outcome.message, outcome.message
        values = sheet.read_values((top, left, top + 5, left + 9))
        fills = sheet.read_fills((top, left, top + 5, left + 9))
        letters = {(r, c): v for r, row in enumerate(values) for c, v in enumerate(row)}
        assert all(fills[r][c] == PIECE_FILLS[v] for (r, c), v in letters.items())
        make_board(set(letters), letters)  # every letter's cells form that pentomino
        outcome = clear(book, sheet)
        assert outcome.ok and outcome.message.endswith("cleared the tiling (60 cells)")
        assert all(
            v is None for row in sheet.read_values((top, left, top + 5, left + 9)) for v in row
        )
        assert all(
            f is None for row in sheet.read_fills((top, left, top + 5, left + 9)) for f in row
        )
        assert all(all(row) for row in sheet.read_borders((top, left, top + 5, left + 9)))
    outcome = clear(book, sheet)
    assert outcome.ok and "no tiling is painted" in outcome.message


def test_clear_clears_a_grid_whose_clues_no_longer_add_up():
    """Solve, then a clue mistyped: Solve refuses the clues, Clear still clears the grid
    (it needs only where the grid is)."""
    from xlsolver.nonogram.puzzle import Puzzle
    from xlsolver.workbook import read_puzzle, write_template

    book = new_book()
    sheet = book.sheets()[0]
    write_template(sheet, Puzzle.from_clues([[2], [1]], [[2], [1]]))
    assert solve(book, sheet).ok
    found = read_puzzle(sheet, book)
    assert any(f is not None for row in sheet.read_fills(found.grid) for f in row)
    first_row_clue = found.row_clue_cells[0]
    sheet.write_values(first_row_clue[2:], [[1]])  # the row clue 2 typed as 1
    from xlsolver.sheets.errors import WorkbookError

    with pytest.raises(WorkbookError, match="rows hold 2 black cells, columns 3"):
        solve(book, sheet)
    outcome = clear(book, sheet)
    assert outcome.ok and outcome.message == "cleared the 2×2 grid", outcome.message
    assert all(f is None for row in sheet.read_fills(found.grid) for f in row)


@pytest.mark.parametrize("typo", ["1 a", "-1", "2 in the grid"])
def test_clear_clears_a_grid_after_a_clue_that_is_not_a_number(tmp_path, typo):
    """Solve, then a clue typed as text (or a number typed in the grid): Solve names the
    cell, Clear clears the grid all the same (it needs only where the grid is)."""
    from xlsolver.nonogram.puzzle import Puzzle
    from xlsolver.sheets.errors import WorkbookError
    from xlsolver.workbook import read_puzzle, write_template

    book = new_book()
    sheet = book.sheets()[0]
    write_template(sheet, Puzzle.from_clues([[2], [1], [3]], [[1, 1], [3], [1]]))
    assert solve(book, sheet).ok
    found = read_puzzle(sheet, book)
    if typo == "2 in the grid":
        sheet.write_values((found.grid[0] + 1, found.grid[1] + 1), [[2]])
    else:
        sheet.write_values(found.row_clue_cells[1][2:], [[typo]])
    with pytest.raises(WorkbookError, match=r"![A-Z]+\d+: "):
        solve(book, sheet)
    outcome = clear(book, sheet)
    assert outcome.ok and outcome.message == "cleared the 3×3 grid", outcome.message
    assert all(f is None for row in sheet.read_fills(found.grid) for f in row)


def test_hint_on_clues_with_no_solution_says_so_rather_than_blame_the_painting():
    """Hint's discrepancy names the painting only when the clues alone could be met."""
    from xlsolver.actions import hint
    from xlsolver.nonogram.puzzle import Puzzle
    from xlsolver.workbook import read_puzzle, write_template

    book = new_book()
    sheet = book.sheets()[0]
    write_template(sheet, Puzzle.from_clues([[3], [0], [1]], [[1], [1], [2]]))  # no solution
    found = read_puzzle(sheet, book)
    outcome = hint(book, sheet)  # nothing painted: said at the first press (it gave a step)
    said = "no solution: the clues cannot all be met, whatever is painted (column 3)"
    assert not outcome.ok and outcome.message == said, outcome
    assert all(f is None for row in sheet.read_fills(found.grid) for f in row)
    sheet.paint([found.cell(1, 0)], WHITE_STYLE)  # a white cell painted: the same words
    assert hint(book, sheet).message == said
    book = new_book()  # larger than 50×50 too (it gave a step first there)
    sheet = book.sheets()[0]
    # rows 1-59 black, row 60 white, so column 1's 60 cannot be met (column 2 has 58)
    write_template(sheet, Puzzle.from_clues([[60]] * 59 + [[0]], [[60], [58]] + [[59]] * 58))
    outcome = hint(book, sheet)
    assert not outcome.ok and outcome.message.startswith(said.split(" (")[0] + " ("), outcome
    from xlsolver.nonogram.colour_puzzle import ColourPuzzle, Palette
    from xlsolver.workbook.colour_template import write_colour_template

    palette = Palette.build([("#c00000", "#c00000", None), ("#2f5597", "#2f5597", None)])
    # one row "a.a" of three cells, but its third column has no clue: no grid
    broken = ColourPuzzle.from_clues([[(1, 1), (1, 1)]], [[(1, 1)], [(1, 1)], []], palette)
    book = new_book()
    sheet = book.sheets()[0]
    write_colour_template(sheet, broken)
    outcome = hint(book, sheet)  # a colour sheet: at the first press too (it gave a step)
    assert not outcome.ok and outcome.message.startswith(
        "no solution: the clues cannot all be met, whatever is painted"
    ), outcome
    book = new_book()
    sheet = book.sheets()[0]
    write_template(sheet, Puzzle.from_clues([[2], [1]], [[2], [1]]))
    found = read_puzzle(sheet, book)
    sheet.write_values(found.cell(0, 1), [["0"]])  # a wrong white mark typed by the player
    outcome = hint(book, sheet)
    assert not outcome.ok and outcome.cells == [found.cell(0, 1)], outcome
    assert outcome.message.startswith("Discrepancy: every solution of the clues disagrees")


def test_new_xlsm_has_the_buttons_right_of_the_grid(tmp_path):
    """``xlsolver new -o NAME.xlsm``: the VBA and four buttons, the template laid out,
    and the buttons moved right of the (wider) grid."""
    out = tmp_path / "puzzle.xlsm"
    assert main(["new", "--size", "30x20", "-o", str(out)]) == 0
    wb = load_workbook(out, keep_vba=True)
    assert "xl/vbaProject.bin" in wb.vba_archive.namelist()
    vml = wb.vba_archive.read("xl/drawings/vmlDrawing1.vml").decode()
    grid = plan(30, 20).grid
    anchors = [int(a.split(",")[0]) for a in vml.split("<x:Anchor>")[1:]]
    assert len(anchors) == 4 and all(a == grid[3] + 1 for a in anchors)  # 0-based column
    ws = wb["Puzzle"]
    assert ws["A2"].value == "width" and ws["C2"].value == 30 and ws["G2"].value == 20


def test_new_xlsm_takes_a_sheet_name_and_a_colour_palette(tmp_path, capsys):
    """--sheet and --colours reach the button workbook too (the buttons act on the active
    sheet); a sheet name Excel would refuse is refused, one line, nothing written."""
    out = tmp_path / "colours.xlsm"
    args = ["new", "--size", "8x6", "--sheet", "Week 1", "--colours", "3", "-o"]
    assert main([*args, str(out)]) == 0
    assert main([*args, str(tmp_path / "colours.xlsx")]) == 0
    wb = load_workbook(out, keep_vba=True)
    assert wb.sheetnames[0] == "Week 1" and "xl/vbaProject.bin" in wb.vba_archive.namelist()
    sheets = [
        open_book(tmp_path / name).sheet("Week 1") for name in ("colours.xlsm", "colours.xlsx")
    ]
    used = sheets[1].used_range()
    assert "colours" in str(sheets[1].read_values(used)).lower()  # the palette row's label
    assert [s.read_values(used) for s in sheets] == [sheets[1].read_values(used)] * 2
    capsys.readouterr()
    for name, why in (("a" * 32, "has 32 characters"), ("Q1/Q2", "holds /"), ("", "is empty")):
        bad = tmp_path / "bad.xlsm"
        assert main(["new", "--size", "5x5", "-o", str(bad), "--sheet", name]) == 2
        err = capsys.readouterr().err
        assert why in err and err.count("\n") == 1 and not bad.exists()


@pytest.mark.slow
def test_the_wheel_carries_what_the_buttons_need(tmp_path):
    """``pip wheel .`` builds; installed into a fresh environment (outside the checkout),
    it writes the button workbook, and its metadata pins the xlwings line of the VBA."""
    wheels = tmp_path / "wheels"
    source = tmp_path / "source"  # a copy: setuptools leaves a build/ folder where it builds
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIP_IN_COPY))
    built = subprocess.run(  # pip fetches the build backend (setuptools) from the index
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(wheels), "-q"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if built.returncode and "setuptools" in built.stderr and "find" in built.stderr:
        pytest.skip(f"pip could not fetch the build backend: {built.stderr.strip()[-200:]}")
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("xlsolver-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        meta = zf.read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert {"xlsolver/data/buttons.xlsm", "xlsolver/excel.py", "xlsolver/actions.py"} <= names
    assert "xlsolver/sheets/xlwings_sheet.py" in names
    assert 'Requires-Dist: xlwings<0.38,>=0.37.1; extra == "excel"' in meta, meta
    env_dir = tmp_path / "env"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(env_dir)],
        check=True,
        timeout=300,
    )
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        check=True,
        timeout=300,
    )
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(python), "-m", "xlsolver", "new", "--size", "10x10", "-o", "mine.xlsm"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    where = subprocess.run(
        [str(python), "-c", "import xlsolver.excel as x; print(x.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env_dir) in where, where  # the installed wheel ran, not the checkout
    assert "xl/vbaProject.bin" in zipfile.ZipFile(work / "mine.xlsm").namelist()


@pytest.mark.libreoffice
def test_libreoffice_sees_the_new_buttons_right_of_the_grid(tmp_path):
    """LibreOffice binds the four buttons of a new .xlsm to their subs, right of the grid."""
    from xlsolver.libreoffice import server as lo_server

    reason = lo_server.available()
    if reason:
        pytest.skip(reason)
    out = tmp_path / "puzzle.xlsm"
    assert main(["new", "--size", "30x20", "-o", str(out)]) == 0
    grid = plan(30, 20).grid
    with lo_server.LibreOffice() as lo:
        doc = lo.load(out)
        sheet = doc.Sheets.getByName("Puzzle")
        last = sheet.getCellByPosition(grid[3] - 1, grid[0] - 1)
        edge = last.Position.X + last.Size.Width
        page = sheet.DrawPage
        bound = {}
        for i in range(page.Count):
            shape = page.getByIndex(i)
            assert shape.Position.X > edge, (shape.Position.X, edge)
            control = shape.Control
            form = control.Parent
            index = next(j for j in range(form.Count) if form.getByIndex(j) == control)
            (event,) = form.getScriptEvents(index)
            bound[control.Label] = event.ScriptCode.split("Module1.")[1].split("?")[0]
    assert bound == {
        "New grid": "NewGrid",
        "Solve": "SolvePuzzle",
        "Hint": "HintStep",
        "Clear": "ClearGrid",
    }


def _grid_fills(path: Path, grid: tuple[int, int, int, int]) -> list[list[str | None]]:
    """The fill colour of each grid cell of a saved workbook's first sheet."""
    ws = load_workbook(path).worksheets[0]
    top, left, bottom, right = grid
    return [
        [
            ws.cell(r, c).fill.fgColor.rgb[-6:] if ws.cell(r, c).fill.fill_type == "solid" else None
            for c in range(left, right + 1)
        ]
        for r in range(top, bottom + 1)
    ]


# Logic alone leaves 124 cells of this 12×12 open; its solutions share all but 4.
SEVERAL = [
    ".###...##.#.",
    ".....##.#.##",
    "###..#...##.",
    "..####.#.#..",
    "#..#.#.###..",
    "#...##...#.#",
    ".#.#.##...#.",
    ".##.#....##.",
    "..##.####.#.",
    "..#.###.....",
    ".####.###..#",
    ".#.#..#.##..",
]


def _template_sheet(path: Path, rows: list[str], dark: list[tuple[int, int]] = ()):
    """A boxed template of the picture's clues (corner E5); ``dark`` grid cells filled
    black as a person's givens. The puzzle and the grid rectangle."""
    from openpyxl.styles import PatternFill

    from xlsolver.nonogram.cells import solution_from_rows
    from xlsolver.nonogram.puzzle import Puzzle

    puzzle = Puzzle.from_solution(solution_from_rows(rows))
    depth = max(len(c) or 1 for c in (*puzzle.rows, *puzzle.cols))
    top = left = depth + 2
    wb = Workbook()
    ws = wb.active
    write_clues(ws, puzzle, top, left)
    fill = PatternFill(fill_type="solid", start_color="FF000000", end_color="FF000000")
    for i in range(puzzle.height):
        for j in range(puzzle.width):
            ws.cell(top + i, left + j).border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
            if (i, j) in dark:
                ws.cell(top + i, left + j).fill = fill
    wb.save(path)
    return puzzle, (top, left, top + puzzle.height - 1, left + puzzle.width - 1)


def test_the_solve_button_paints_what_the_command_line_paints(tmp_path):
    """Several solutions: the button paints the cells common to all of them (not only
    what logic proved), the very cells ``xlsolver solve`` paints, each checked against
    two different solutions of the clues."""
    from xlsolver.nonogram.analyzer import solve as analyze

    source = tmp_path / "several.xlsx"
    puzzle, grid = _template_sheet(source, SEVERAL)
    by_command = tmp_path / "command.xlsx"
    assert main(["solve", str(source), "-o", str(by_command)]) == 0
    book = open_book(source)
    outcome = solve(book, book.sheets()[0])
    assert outcome.ok and "several solutions" in outcome.message, outcome.message
    by_button = tmp_path / "button.xlsx"
    book.save(by_button)
    button, command = _grid_fills(by_button, grid), _grid_fills(by_command, grid)
    assert button == command
    first, second = analyze(puzzle, max_solutions=2).solutions[:2]
    assert puzzle.is_solution(first) and puzzle.is_solution(second)
    common = first == second
    painted = np.array([[f is not None for f in row] for row in button])
    assert painted.sum() > puzzle.width * puzzle.height - 10  # logic alone: 20 painted
    assert not painted[~common].any()  # never a cell the solutions disagree on
    black = np.array([[f == "808080" for f in row] for row in button])
    assert (black[painted] == first[painted]).all()


def test_the_solve_button_leaves_a_highlight_on_undecided_cells(tmp_path):
    """A person's pale highlight on cells two solutions disagree on stays, as ``xlsolver
    solve`` leaves it (the button wiped every fill of the grid before painting)."""
    from openpyxl.styles import PatternFill

    from xlsolver.nonogram.analyzer import solve as analyze

    source = tmp_path / "several.xlsx"
    puzzle, grid = _template_sheet(source, SEVERAL)
    first, second = analyze(puzzle, max_solutions=2).solutions[:2]
    open_cells = [(r, c) for r, c in zip(*np.nonzero(first != second), strict=True)]
    wb = load_workbook(source)
    for r, c in open_cells[:2]:
        wb.active.cell(grid[0] + r, grid[1] + c).fill = PatternFill("solid", fgColor="FFFFFF99")
    wb.save(source)
    by_command = tmp_path / "command.xlsx"
    assert main(["solve", str(source), "-o", str(by_command)]) == 0
    book = open_book(source)
    assert solve(book, book.sheets()[0]).ok
    by_button = tmp_path / "button.xlsx"
    book.save(by_button)
    button, command = _grid_fills(by_button, grid), _grid_fills(by_command, grid)
    assert [button[r][c] for r, c in open_cells[:2]] == ["FFFF99", "FFFF99"]
    assert button == command


def test_solve_again_after_the_clues_changed_takes_its_own_paint_off_undecided_cells(tmp_path):
    """Solve, then clues retyped so two solutions remain: the first answer's paint on the
    cells now undecided went (it looked like the one answer), while a person's own
    highlight stays; the command line paints the same."""
    from openpyxl.styles import PatternFill

    from xlsolver.workbook import read_puzzle

    source = tmp_path / "p.xlsx"
    puzzle, grid = _template_sheet(source, ["#####", "#....", "###..", "#....", "#...."])
    book = open_book(source)
    sheet = book.sheets()[0]
    assert "unique solution painted" in solve(book, sheet).message
    found = read_puzzle(sheet, book)
    book.save(tmp_path / "solved.xlsx")
    wb = load_workbook(tmp_path / "solved.xlsx")
    ws = wb.active
    top, left = grid[0], grid[1]
    for k in range(5):  # rows and columns: 1 1 0 0 0 — a 2×2 corner of two solutions
        for j in range(1, left):
            ws.cell(top + k, j).value = None
        for j in range(1, top):
            ws.cell(j, left + k).value = None
        ws.cell(top + k, left - 1, 1 if k < 2 else 0)
        ws.cell(top - 1, left + k, 1 if k < 2 else 0)
    ws.cell(top, left + 1).fill = PatternFill("solid", fgColor="FFFFFF99")  # a highlight
    wb.save(tmp_path / "retyped.xlsx")
    by_command = tmp_path / "command.xlsx"
    assert main(["solve", str(tmp_path / "retyped.xlsx"), "-o", str(by_command)]) == 0
    book = open_book(tmp_path / "retyped.xlsx")
    outcome = solve(book, book.sheets()[0])
    assert "4 undecided" in outcome.message, outcome.message
    book.save(tmp_path / "button.xlsx")
    for path in (tmp_path / "button.xlsx", by_command):
        fills = _grid_fills(path, grid)
        assert [fills[r][c] for r in (0, 1) for c in (0, 1)] == [None, "FFFF99", None, None]
        marked = load_workbook(path).active
        assert not any(
            marked.cell(top + r, left + c).border.diagonalUp for r in (0, 1) for c in (0, 1)
        )
    assert _grid_fills(tmp_path / "button.xlsx", grid) == _grid_fills(by_command, grid)
    assert found.width == puzzle.width == 5


def test_solve_of_a_colour_sheet_takes_its_own_paint_off_undecided_cells(tmp_path):
    """A colour sheet of two solutions, its grid still painted by an earlier answer (red,
    a white cell crossed), an ink and a person's highlight: Solve left red and the cross
    on the cells it could not decide (black and white sheets had that mended); an ink's
    fill stays, as it may be the person's own (copied from a swatch), as does the
    highlight, and the command line paints the same."""

    from xlsolver.nonogram.colour_puzzle import ColourPuzzle, Palette
    from xlsolver.sheets.protocol import DISCREPANCY_STYLE
    from xlsolver.workbook import read_puzzle
    from xlsolver.workbook.colour_paint import ink_style
    from xlsolver.workbook.colour_template import write_colour_template

    palette = Palette.build([("#c00000", "#c00000", None), ("#2f5597", "#2f5597", None)])
    red, blue = (1, 1), (1, 2)  # rows "r." / ".r" or ".r" / "r.", a blue row under them
    puzzle = ColourPuzzle.from_clues([[red], [red], [(2, 2)]], [[red, blue], [red, blue]], palette)
    book = new_book()
    sheet = book.sheets()[0]
    write_colour_template(sheet, puzzle)
    found = read_puzzle(sheet, book)
    sheet.paint([found.cell(0, 0)], ink_style(palette, 1))  # an earlier answer's paint
    sheet.paint([found.cell(0, 1)], WHITE_STYLE)
    sheet.paint([found.cell(1, 0)], DISCREPANCY_STYLE)
    sheet.paint([found.cell(1, 1)], Style("highlight", fill="#FFFF99"))  # the person's
    source = tmp_path / "colour.xlsx"
    book.save(source)
    by_command = tmp_path / "command.xlsx"
    assert main(["solve", str(source), "-o", str(by_command)]) == 0
    book = open_book(source)
    outcome = solve(book, book.sheets()[0])
    assert "4 undecided" in outcome.message, outcome.message
    book.save(tmp_path / "button.xlsx")
    grid = found.grid
    for path in (tmp_path / "button.xlsx", by_command):
        fills = _grid_fills(path, grid)
        assert fills[0][:2] == ["C00000", None] and fills[1][:2] == [None, "FFFF99"], fills
        assert fills[2] == ["2F5597", "2F5597"], fills
        ws = load_workbook(path).active
        assert not ws.cell(grid[0], grid[1] + 1).border.diagonalUp
    assert _grid_fills(tmp_path / "button.xlsx", grid) == _grid_fills(by_command, grid)


def test_the_solve_button_stops_at_its_limit_with_what_was_proved(tmp_path, monkeypatch):
    """The spreadsheet cannot be used while Solve runs, so the button stops at its limit
    (``BUTTON_SECONDS``; here none left at all) and paints what logic proved, saying so."""
    import xlsolver.actions as actions
    from xlsolver.nonogram.analyzer import solve as analyze

    source = tmp_path / "several.xlsx"
    puzzle, grid = _template_sheet(source, SEVERAL)
    monkeypatch.setattr(actions, "BUTTON_SECONDS", 0.0)
    book = open_book(source)
    outcome = solve(book, book.sheets()[0])
    assert not outcome.ok
    assert "timed out: painted what was proved" in outcome.message, outcome.message
    assert "; the Solve button stops after 0 s (xlsolver solve has no limit)" in outcome.message
    book.save(tmp_path / "button.xlsx")
    fills = _grid_fills(tmp_path / "button.xlsx", grid)
    painted = np.array([[f is not None for f in row] for row in fills])
    first, second = analyze(puzzle, max_solutions=2).solutions[:2]
    assert not painted[first != second].any()  # only cells every solution agrees on
    black = np.array([[f == "808080" for f in row] for row in fills])
    assert (black[painted] == first[painted]).all()


def test_a_wrong_given_is_the_red_cell(tmp_path):
    """``--givens`` with one black cell the person got wrong: that cell is red, not the
    place further along its row where the contradiction surfaced."""
    rows = ["##...", "##...", ".....", "...##", "..###"]
    source, out = tmp_path / "given.xlsx", tmp_path / "out.xlsx"
    _, grid = _template_sheet(source, rows, dark=[(0, 0), (3, 2)])  # (3, 2) is wrong
    assert main(["solve", str(source), "--givens", "-o", str(out)]) == 1
    fills = _grid_fills(out, grid)
    red = [(i, j) for i in range(5) for j in range(5) if fills[i][j] == "FF0000"]
    assert red == [(3, 2)]


def test_hint_passes_over_a_puzzle_with_nothing_left_to_deduce():
    """Two puzzles on a sheet, the first with two solutions logic cannot tell apart: Hint
    said "no further deduction" and stopped there; it now gives the second one's step."""
    from corpus import puzzle_at

    from xlsolver.actions import hint
    from xlsolver.sheets.openpyxl_sheet import XlsxBook

    wb = Workbook()
    ws = wb.active
    ws.title = "Two"
    puzzle_at(ws, ["#.", ".#"], 3, 3)  # 1 1 / 1 1: two solutions, nothing to deduce
    puzzle_at(ws, ["###", "#..", "###"], 3, 9)
    book = XlsxBook(wb)
    sheet = book.sheets()[0]
    outcome = hint(book, sheet)
    assert outcome.ok and outcome.painted, outcome.message
    assert outcome.message.startswith("Two!I3:K5: "), outcome.message
    assert all(8 < c < 12 for _, c in outcome.cells)
    for _ in range(10):
        outcome = hint(book, sheet)
    assert not outcome.ok and outcome.message.startswith("Two!C3:D4: no further deduction")


def test_the_hint_button_stops_at_its_limit_and_paints_nothing(tmp_path, monkeypatch):
    """On a board where no line decides a cell, a hint has to try cells both ways; the
    button stops that at its limit (``BUTTON_SECONDS``; here none left), paints nothing
    and says so. With time, the same press paints the cell the probe proves."""
    import xlsolver.actions as actions
    from xlsolver.actions import hint

    rows = ["#...", ".#.#", "#.#.", ".##."]  # rows 1 1.1 1.1 2, columns 1.1 1.1 2 1
    solution = np.array([[ch == "#" for ch in row] for row in rows])
    source = tmp_path / "stall.xlsx"
    _, grid = _template_sheet(source, rows)
    monkeypatch.setattr(actions, "BUTTON_SECONDS", 0.0)
    book = open_book(source)
    outcome = hint(book, book.sheets()[0])
    assert not outcome.ok and not outcome.painted
    assert outcome.message.startswith("no step found in 0 s: no line decides a cell"), outcome
    assert outcome.message.endswith("; the Hint button stops after 0 s (Solve paints the answer)")
    book.save(tmp_path / "stopped.xlsx")
    assert not any(f for row in _grid_fills(tmp_path / "stopped.xlsx", grid) for f in row)

    monkeypatch.setattr(actions, "BUTTON_SECONDS", 120.0)
    book = open_book(source)
    outcome = hint(book, book.sheets()[0])
    assert outcome.ok and outcome.painted == 1 and "Contradiction" in outcome.message, outcome
    book.save(tmp_path / "hinted.xlsx")
    fills = _grid_fills(tmp_path / "hinted.xlsx", grid)
    ((r, c),) = [(i, j) for i, row in enumerate(fills) for j, f in enumerate(row) if f]
    assert (fills[r][c] == "808080") == bool(solution[r, c])  # grey only where it is black


HOUSE9 = [
    "....#....",
    "...###...",
    "..#####..",
    ".#######.",
    "#########",
    ".#.....#.",
    ".#.##..#.",
    ".#.##..#.",
    ".#######.",
]


def _red_cells(sheet, found) -> list[tuple[int, int]]:
    """Grid cells (row, column from 0) painted red."""
    from xlsolver.sheets.protocol import DISCREPANCY_STYLE

    fills = sheet.read_fills(found.grid)
    return [
        (i, j)
        for i, row in enumerate(fills)
        for j, f in enumerate(row)
        if f == DISCREPANCY_STYLE.fill
    ]


def test_hint_marks_the_wrong_mark_not_a_right_cell_further_along(tmp_path):
    """One wrong black mark among right ones: Hint's red goes on it, as ``solve --givens``
    names it (the line walk blamed a right cell Hint itself had painted, every press)."""
    from xlsolver.actions import hint
    from xlsolver.workbook import read_puzzle

    source = tmp_path / "marked.xlsx"
    _template_sheet(source, HOUSE9, dark=[(0, 0)])  # (0, 0) is white in the picture
    book = open_book(source)
    sheet = book.sheets()[0]
    found = read_puzzle(sheet, book)
    solution = np.array([[ch == "#" for ch in row] for row in HOUSE9])
    for _ in range(30):
        outcome = hint(book, sheet)
        if not outcome.ok:
            break
        states = read_puzzle(sheet, book, givens=True).givens & COLOUR
        known = states != BLANK
        known[0, 0] = False  # the wrong mark
        assert ((states == BLACK) == solution)[known].all()  # every hint step right
    assert outcome.cells == [found.cell(0, 0)] and "red: " in outcome.message, outcome
    assert _red_cells(sheet, found) == [(0, 0)]


def _hinted_twice(tmp_path, mark, still=lambda sheet, cell: True):
    """HOUSE9 with a white ``mark`` on a cell black in its only picture, and Hint pressed
    twice: each press names that cell and paints it red (``still`` holds after each)."""
    from xlsolver.actions import hint
    from xlsolver.workbook import read_puzzle
    from xlsolver.workbook.address import cell_ref

    source = tmp_path / "crossed.xlsx"
    _template_sheet(source, HOUSE9)
    book = open_book(source)
    sheet = book.sheets()[0]
    found = read_puzzle(sheet, book)
    wrong = found.cell(4, 4)
    mark(sheet, wrong)
    for _ in range(2):
        outcome = hint(book, sheet)
        assert not outcome.ok and outcome.cells == [wrong], outcome
        assert outcome.message.endswith(f"in red: {cell_ref(wrong)}"), outcome.message
        assert _red_cells(sheet, found) == [(4, 4)]
        assert still(sheet, wrong)
    return book, sheet, found, wrong


def test_hint_blames_a_wrong_white_mark_first_and_again_until_it_is_mended(tmp_path):
    """A "×" on a cell every solution paints black: the first press marks it red (Hint
    gave a line hint first and then painted a wrong cell from it), the next press names
    it again rather than reading the red fill as black, and once the person takes the ×
    away hints go on, each one right."""
    from xlsolver.actions import hint
    from xlsolver.workbook import read_puzzle

    book, sheet, found, wrong = _hinted_twice(
        tmp_path, lambda sheet, cell: sheet.write_values(cell, [["×"]])
    )
    sheet.write_values(wrong, [[None]])
    sheet.unpaint([wrong])
    solution = np.array([[ch == "#" for ch in row] for row in HOUSE9])
    outcome = hint(book, sheet)
    assert outcome.ok and outcome.cells, outcome
    states = read_puzzle(sheet, book, givens=True).givens & COLOUR
    known = states != BLANK
    assert ((states == BLACK) == solution)[known].all()


def test_hint_keeps_the_cross_of_a_wrong_crossed_cell_it_marks_red(tmp_path):
    """A cell crossed white (the look of xlsolver's own white) that every solution paints
    black: Hint paints it red with its cross kept, so the next press still reads the
    person's white mark and names it again (the cross went, the red read as black)."""
    from xlsolver.workbook import read_puzzle

    book, _, _, wrong = _hinted_twice(
        tmp_path,
        lambda sheet, cell: sheet.paint([cell], WHITE_STYLE),
        lambda sheet, cell: sheet.read_diagonals((*cell, *cell)) == [[True]],
    )
    path = tmp_path / "after.xlsx"
    book.save(path)
    border = load_workbook(path).active.cell(*wrong).border
    assert border.diagonalUp and border.diagonalDown
    again = open_book(path)
    states = read_puzzle(again.sheets()[0], again, givens=True).givens
    assert states[4, 4] & COLOUR == WHITE  # read back as the person's white mark


def test_clear_clears_the_grid_solve_reads_and_nothing_beside_it(tmp_path):
    """A column of numbers far right of the puzzle (a chart's data) and a person's own
    grey cell in the grid's rows: Clear took them for a 22-wide grid and wiped the
    cell; it clears the grid Solve reads, and keeps reading a grid whose clues a typo
    broke (the test above)."""
    from openpyxl.styles import PatternFill

    source = tmp_path / "table.xlsx"
    _, grid = _template_sheet(source, HOUSE9)
    wb = load_workbook(source)
    ws = wb.active
    for r in range(1, 4):
        ws.cell(r, grid[3] + 12, r)  # the table, far from the clues
    own = ws.cell(grid[0] + 3, grid[3] + 5)
    own.fill = PatternFill("solid", fgColor="FF808080")
    wb.save(source)
    book = open_book(source)
    sheet = book.sheets()[0]
    assert solve(book, sheet).ok
    outcome = clear(book, sheet)
    assert outcome.message == "cleared the 9×9 grid", outcome.message
    at = (own.row, own.column)
    assert sheet.read_fills((*at, *at)) == [["#808080"]]


def test_clear_clears_a_grid_a_typed_number_and_a_coloured_table_confuse(tmp_path):
    """The tester's 5×5: a table of numbers filled blue two columns right, and a 7 typed
    just right of the grid after Solve. Read unchecked (Clear's fallback), the table's
    colour made a colour puzzle that was still validated, so Clear refused."""
    source = tmp_path / "typo.xlsx"
    _, grid = _template_sheet(source, ["#.#.#", "#####", "..#..", ".###.", "#...#"])
    book = open_book(source)
    sheet = book.sheets()[0]
    for r in range(grid[0], grid[2] + 1):
        sheet.write_values((r, grid[3] + 3), [[r * 3]])
        sheet.paint([(r, grid[3] + 3)], Style("table", fill="#4040A0"))
    assert solve(book, sheet).ok
    sheet.write_values((grid[0] + 2, grid[3] + 1), [[7]])
    outcome = clear(book, sheet)
    assert outcome.message == "cleared the 5×5 grid", outcome.message
    assert all(f is None for row in sheet.read_fills(grid) for f in row)


def test_hint_on_a_full_grid_that_breaks_the_clues_marks_the_wrong_cell(tmp_path):
    """Every cell painted, one of them wrong: Hint said "the grid is complete"."""
    from xlsolver.actions import hint
    from xlsolver.workbook import read_puzzle

    solution = np.array([[ch == "#" for ch in row] for row in HOUSE9])
    dark = [(r, c) for r in range(9) for c in range(9) if solution[r, c]] + [(5, 0)]
    source = tmp_path / "full.xlsx"
    _template_sheet(source, HOUSE9, dark=dark)
    book = open_book(source)
    sheet = book.sheets()[0]
    found = read_puzzle(sheet, book)
    crossed = [found.cell(r, c) for r in range(9) for c in range(9) if (r, c) not in dark]
    sheet.paint(crossed, WHITE_STYLE)
    outcome = hint(book, sheet)
    assert not outcome.ok and outcome.cells == [found.cell(5, 0)], outcome
    assert _red_cells(sheet, found) == [(5, 0)]
    right = tmp_path / "right.xlsx"
    _template_sheet(right, HOUSE9, dark=dark[:-1])
    book = open_book(right)
    sheet = book.sheets()[0]
    found = read_puzzle(sheet, book)
    sheet.paint(
        [found.cell(r, c) for r in range(9) for c in range(9) if not solution[r, c]],
        WHITE_STYLE,
    )
    assert hint(book, sheet).message == "the grid is complete: nothing left to deduce"


def test_merged_cells_over_the_grid_stop_every_button_as_the_command_line(tmp_path):
    """Solve, Hint and Clear give the command line's one line (Solve painted one cross
    over two merged cells, Hint called the grid complete)."""
    from xlsolver.actions import hint
    from xlsolver.sheets.errors import WorkbookError

    source = tmp_path / "merged.xlsx"
    _, grid = _template_sheet(source, HOUSE9)
    wb = load_workbook(source)
    wb.active.merge_cells(
        start_row=grid[0], start_column=grid[1], end_row=grid[0], end_column=grid[1] + 1
    )
    wb.save(source)
    assert main(["solve", str(source)]) == 2
    book = open_book(source)
    sheet = book.sheets()[0]
    for action in (solve, hint, clear):
        with pytest.raises(WorkbookError, match=r"merged cells over the grid"):
            action(book, sheet)


def test_cells_common_to_all_solutions_stop_at_the_work_budget(tmp_path, monkeypatch):
    """Proving the cells every solution shares can be a long search (Knotty: more than a
    quarter of an hour). It stops at a count of conflicts: the copy shows what logic
    proved and says so, the verdict stays "several solutions"; with a time limit that
    runs out there, the run says it timed out (it said the common cells were painted)."""
    from xlsolver.nonogram import sat
    from xlsolver.nonogram.analyzer import solve as analyze

    puzzle, _ = _template_sheet(tmp_path / "several.xlsx", SEVERAL)
    full = analyze(puzzle, max_solutions=2, common=True)
    monkeypatch.setattr(sat, "BACKBONE_CONFLICTS", 0)
    stopped = analyze(puzzle, max_solutions=2, common=True)
    assert full.status == stopped.status == "multiple"
    assert stopped.stats.get("common_not_proved") and not full.stats.get("common_not_proved")
    proved = (stopped.grid & 4) != 0
    assert proved.sum() < ((full.grid & 4) != 0).sum()
    assert main(["solve", str(tmp_path / "several.xlsx"), "-o", str(tmp_path / "o.xlsx")]) == 0
    monkeypatch.setattr(sat, "BACKBONE_CONFLICTS", 10**9)
    backbone = sat.SatSearch.backbone  # the user's clock runs out just as it starts
    monkeypatch.setattr(
        sat.SatSearch, "backbone", lambda self, found, left: backbone(self, found, lambda: 0.0)
    )
    timed = analyze(puzzle, max_solutions=2, common=True, time_limit=60)
    assert timed.status == "timeout" and len(timed.solutions) == 2
    assert "common to all solutions" in timed.error


def test_hint_on_a_hard_board_goes_on_from_its_own_cells(tmp_path, monkeypatch):
    """Faase (80×95): the first Hint painted a line step; the second and third waited the
    button's whole limit checking the painted cells against every solution (a search of
    a minute and more) and painted nothing. Cells line logic proves from the clues alone
    are in every solution: no search. A mark logic proves wrong is named at once."""
    import xlsolver.actions as actions
    from xlsolver.actions import hint
    from xlsolver.nonogram.board import Board
    from xlsolver.nonogram.cells import CONC
    from xlsolver.workbook import read_puzzle

    source = tmp_path / "faase.xlsx"
    assert (
        main(["convert", str(ROOT / "tests" / "data" / "webpbn-faase.nin"), "-o", str(source)]) == 0
    )
    monkeypatch.setattr(actions, "BUTTON_SECONDS", 8.0)  # the search needs far longer
    book = open_book(source)
    sheet = book.sheets()[0]
    for _ in range(3):
        outcome = hint(book, sheet)
        assert outcome.ok and outcome.painted, outcome
    found = read_puzzle(sheet, book, givens=True)
    board = Board(found.puzzle)
    board.propagate()
    proved = np.asarray(board.grid(), dtype=np.uint8)
    painted = (found.givens & COLOUR) != BLANK
    assert ((found.givens & COLOUR) == (proved & COLOUR))[painted].all()  # all right
    black = ((proved & COLOUR) == BLACK) & ((proved & CONC) != 0)
    r, c = np.argwhere(~painted & black)[0]  # a cell proved black: marked white, wrong
    sheet.paint([found.cell(int(r), int(c))], WHITE_STYLE)
    outcome = hint(book, sheet)
    assert not outcome.ok and outcome.cells == [found.cell(int(r), int(c))], outcome
    assert "red: " in outcome.message


def test_hint_on_a_small_board_still_finds_clues_no_grid_meets():
    """The shortcut for a large board's own cells (line logic proves them, no search)
    skipped, on a 5×5 whose clues no grid meets (line logic sees no clash), the search
    that says so: Hint handed out steps that led nowhere. Small boards are searched."""
    from xlsolver.actions import hint
    from xlsolver.nonogram.puzzle import Puzzle
    from xlsolver.workbook import read_puzzle, write_template

    rows, cols = [[2], [1, 1], [1], [4], [1, 1]], [[1, 1], [1, 1], [1, 2], [2], [2]]
    book = new_book()
    sheet = book.sheets()[0]
    write_template(sheet, Puzzle.from_clues(rows, cols))
    found = read_puzzle(sheet, book)
    for r, c in [(0, 1), (3, 1), (3, 2), (3, 3)]:  # cells line logic proves black
        sheet.write_values(found.cell(r, c), [["■"]])
    outcome = hint(book, sheet)
    assert not outcome.ok and not outcome.painted
    assert outcome.message.startswith("no solution: the clues cannot all be met"), outcome


# Sheets that are no pentomino board: Solve says what Hint and the command line say.
BOAT = [
    "..##....",
    ".####...",
    "########",
    ".#....#.",
    ".#.##.#.",
    ".#.##.#.",
    ".######.",
    "........",
]


def _doors(path: Path, capsys) -> dict[str, str]:
    """What ``xlsolver solve`` says about a file's first sheet, and what the Solve, Hint
    and Clear buttons say (through the openpyxl back end, as Excel and Calc run them;
    a button that succeeds is marked ``ok: ``); none of them writes a letter."""
    from xlsolver.actions import guarded, hint

    assert main(["solve", str(path)]) == 2
    said = capsys.readouterr().err.strip()
    prefix = f"xlsolver: {path}: "
    assert said.startswith(prefix) and "\n" not in said, said
    before = _values(path)
    out = {"command": said[len(prefix) :]}
    for action in (solve, hint, clear):
        book = open_book(path)
        outcome = guarded(action, book, book.sheets()[0])
        out[action.__name__] = f"ok: {outcome.message}" if outcome.ok else outcome.message
        book.save(path.with_name("after.xlsx"))
        assert _values(path.with_name("after.xlsx")) == before  # nothing written
    return out


def _values(path: Path) -> list[tuple]:
    """Every value of a saved workbook's first sheet, row by row."""
    return list(load_workbook(path).worksheets[0].iter_rows(values_only=True))


@pytest.mark.parametrize("size", ["10x6", "10x10", "15x15", "prompt", "no size row"])
def test_solve_on_an_empty_template_says_type_the_clues_never_tiles_it(tmp_path, capsys, size):
    """An empty template (``xlsolver new``, New grid; its 10×6 grid is 60 boxed cells):
    the Solve button tiled it with pentominoes (``Puzzle!F7:O12: tiled with the 12
    pentominoes``, letters written in the grid) or, at 10×10, named 3 groups of marked
    cells none of which has the 60 cells the pieces cover. It says what Hint and
    ``xlsolver solve`` say: no clues found, where to type them. So too on New grid's size
    prompt (the labels, no numbers yet) and on a template whose size row was cleared (its
    clue totals cell stays)."""
    path = tmp_path / "template.xlsx"
    if size == "prompt":
        book = new_book()
        assert new_grid(book, book.sheets()[0]).ok  # the labels, two boxed cells to type in
        book.save(path)
    elif size == "no size row":
        made = tmp_path / "made.xlsx"
        assert main(["new", "--size", "10x6", "-o", str(made)]) == 0
        book = open_book(made)
        book.sheets()[0].write_values((2, 1), [[None] * 7])  # width 10, height 6 deleted
        book.save(path)
    else:
        assert main(["new", "--size", size, "-o", str(path)]) == 0
    capsys.readouterr()
    said = _doors(path, capsys)
    assert said["solve"] == said["hint"] == said["clear"] == said["command"], said
    assert "no clues found" in said["solve"] and "pentomino" not in said["solve"], said


def test_clear_takes_off_a_tiling_an_earlier_solve_left_on_a_template(tmp_path):
    """A template an earlier Solve tiled (letters in its grid) is cleared by Clear, as a
    board is; pressed again, Clear says what Solve says: no clues found."""
    from xlsolver.pentomino.sheet import paint_tiling, read_board
    from xlsolver.pentomino.solver import tile

    path = tmp_path / "template.xlsx"
    assert main(["new", "--size", "10x6", "-o", str(path)]) == 0
    book = open_book(path)
    sheet = book.sheets()[0]
    board = read_board(sheet, book)
    paint_tiling(sheet, board, tile(board).solutions[0])  # what Solve painted before
    outcome = clear(book, sheet)
    assert outcome.ok and outcome.message == "Puzzle!F7:O12: cleared the tiling (60 cells)"
    top, left, bottom, right = plan(10, 6).grid
    assert all(v is None for row in sheet.read_values((top, left, bottom, right)) for v in row)
    with pytest.raises(WorkbookError, match="no clues found"):
        clear(book, sheet)


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        (lambda c: "[" + ", ".join(map(str, c)) + "]", 'Puzzle!F5: clue "[1]" is not a number'),
        (lambda c: "(" + " ".join(map(str, c)) + ")", 'Puzzle!F5: clue "(1)" is not a number'),
        (lambda c: " ".join(map(str, c)) + " ?", 'Puzzle!F5: clue "1 ?" is not a number'),
        ("one cell", 'Puzzle!E9: clue "[1, 1]" is not a number'),
    ],
    ids=["brackets", "parentheses", "question-mark", "one-cell"],
)
def test_clues_that_do_not_read_are_named_by_every_door(tmp_path, capsys, typed, first):
    """Every clue cell typed ``[1, 1]`` (or ``(1 1)``, or ending in `` ?``)
    beside a boxed 8×8 grid: the Solve button said ``Puzzle!F6:M13: the board has 64
    cells; the 12 pentominoes cover exactly 60`` and Hint and ``xlsolver solve``
    ``Puzzle!E5: no clues found``, with the clues right there. All three name the first
    clue cell that does not read, as they did when it was the only one."""
    from xlsolver.nonogram.cells import solution_from_rows
    from xlsolver.nonogram.puzzle import Puzzle

    puzzle = Puzzle.from_solution(solution_from_rows(BOAT))
    top = left = 6
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    for j, clues in enumerate(puzzle.cols):
        ws.cell(
            top - 1, left + j, " ".join(map(str, clues)) if typed == "one cell" else typed(clues)
        )
    for i, clues in enumerate(puzzle.rows):
        ws.cell(
            top + i, left - 1, " ".join(map(str, clues)) if typed == "one cell" else typed(clues)
        )
        for j in range(puzzle.width):
            ws.cell(top + i, left + j).border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
    if typed == "one cell":
        ws["E9"] = "[1, 1]"
    path = tmp_path / "unread.xlsx"
    wb.save(path)
    said = _doors(path, capsys)
    assert said["solve"] == said["hint"] == said["command"], said
    assert said["solve"].startswith(first), said
    if typed == "one cell":  # the grid is found: Clear clears it
        assert said["clear"] == "ok: cleared the 8×8 grid", said
    else:
        assert said["clear"] == said["command"], said


def test_a_sheet_of_numbers_gets_the_nonogram_message_not_a_pentomino_one(tmp_path, capsys):
    """A plain data sheet, 1…5 and their squares: the Solve button said ``Data!B1:B3: the
    board has 3 cells; the 12 pentominoes cover exactly 60``; it says what Hint and
    ``xlsolver solve`` say."""
    wb = Workbook()
    wb.active.title = "Data"
    for x in range(1, 6):
        wb.active.append([x, x * x])
    path = tmp_path / "data.xlsx"
    wb.save(path)
    said = _doors(path, capsys)
    assert said["solve"] == said["hint"] == said["clear"] == said["command"], said
    assert said["solve"].startswith("Data!A1: no clues found"), said


@pytest.mark.parametrize("drawn", ["rulers", "chessboard", "typed in 1s"])
def test_the_solve_button_still_tiles_boards_with_labels_or_typed_cells(tmp_path, drawn):
    """Numbers along a board's edges (1…10 above, 1…6 left; a chessboard's ranks 8…1 and
    files A…H) and a board typed in 1s are drawn boards: Solve tiles them."""
    from openpyxl.styles import PatternFill

    light = PatternFill(fill_type="solid", start_color="FFFFF2CC", end_color="FFFFF2CC")
    wb = Workbook()
    ws = wb.active
    if drawn == "rulers":
        for c in range(10):
            ws.cell(1, 2 + c, c + 1)
        for r in range(6):
            ws.cell(2 + r, 1, r + 1)
            for c in range(10):
                ws.cell(2 + r, 2 + c).fill = light
    elif drawn == "chessboard":
        for r in range(8):
            ws.cell(2 + r, 1, 8 - r)
            ws.cell(10, 2 + r, "ABCDEFGH"[r])
            for c in range(8):
                if not (3 <= r <= 4 and 3 <= c <= 4):
                    ws.cell(2 + r, 2 + c).fill = light
    else:
        for r in range(6):
            for c in range(10):
                ws.cell(2 + r, 2 + c, 1)
    path = tmp_path / "board.xlsx"
    wb.save(path)
    book = open_book(path)
    outcome = solve(book, book.sheets()[0])
    assert outcome.ok and "tiled with the 12 pentominoes" in outcome.message, outcome.message


def test_solve_on_a_drawing_says_what_the_command_line_says_not_a_board_size(tmp_path, capsys):
    """A teacher's drawing (workbooks/house-drawing.xlsx, 139 filled cells in 3 groups)
    and a 14-cell picture: the Solve button spoke of pentominoes ('the marked cells form
    3 separate groups and none has the 60 cells the pieces cover', 'the board has 14
    cells; …'); it now says what xlsolver solve says, which names make. A board drawn
    a few cells off 60 (59) keeps its board message."""
    from xlsolver.pentomino.board import BoardError
    from xlsolver.workbook.layout import NoPuzzleError

    small = tmp_path / "small-drawing.xlsx"
    wb = Workbook()
    black = PatternFill("solid", fgColor="FF000000")
    for r, row in enumerate(["..#..", ".###.", "#####", ".#.#."]):
        for c, ch in enumerate(row):
            if ch == "#":
                wb.active.cell(2 + r, 2 + c).fill = black
    wb.save(small)
    for path in (WORKBOOKS / "house-drawing.xlsx", small):
        capsys.readouterr()
        assert main(["solve", str(path)]) == 2
        command = capsys.readouterr().err.strip().split(": ", 2)[2]
        book = open_book(path)
        with pytest.raises(NoPuzzleError) as err:
            solve(book, book.sheets()[0])
        assert str(err.value) == command and "xlsolver make turns it into a puzzle" in command
    board = tmp_path / "board.xlsx"
    wb = Workbook()
    for r in range(6):
        for c in range(10):
            if (r, c) != (3, 4):
                wb.active.cell(2 + r, 2 + c).fill = black
    wb.save(board)
    book = open_book(board)
    with pytest.raises(BoardError, match="the board has 59 cells"):
        solve(book, book.sheets()[0])


def test_solve_tiles_a_board_with_a_note_or_its_size_typed_beside_it(tmp_path):
    """workbooks/pentomino-8x8.xlsx with a note typed beside the board (its size 8×8, a
    date, a count of tilings, a time) and a 6×10 board drawn in fills with width 10 and
    height 6 typed beside it: the Solve button took each for a nonogram's sheet ('clue
    "8×8" is not a number', 'no clues found') where it had tiled them."""
    import datetime

    from openpyxl.styles import PatternFill

    notes = [{"K3": "8×8"}, {"K3": "Date:", "L3": datetime.date(2026, 12, 8)},
             {"K3": "Tilings:", "L3": 520}, {"K3": "Time", "L3": "3:25"}]  # fmt: skip
    for k, note in enumerate(notes):
        wb = load_workbook(WORKBOOKS / "pentomino-8x8.xlsx")
        for ref, value in note.items():
            wb.active[ref] = value
        path = tmp_path / f"note{k}.xlsx"
        wb.save(path)
        book = open_book(path)
        outcome = solve(book, book.sheets()[0])
        assert outcome.ok and "tiled with the 12 pentominoes" in outcome.message, (note, outcome)
    wb = Workbook()
    ws = wb.active
    fill = PatternFill("solid", fgColor="FFBDD7EE")
    for r in range(6):
        for c in range(10):
            ws.cell(2 + r, 2 + c).fill = fill
    ws["N2"], ws["O2"], ws["N3"], ws["O3"] = "width", 10, "height", 6
    path = tmp_path / "labelled.xlsx"
    wb.save(path)
    book = open_book(path)
    outcome = solve(book, book.sheets()[0])
    assert outcome.ok and "tiled with the 12 pentominoes" in outcome.message, outcome

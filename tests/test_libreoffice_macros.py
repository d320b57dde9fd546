"""The Calc macros run for real in headless LibreOffice: open, run through the script
provider, save, check the cells with openpyxl against the clues (not the solver)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import workbooks_module, write_clues
from office import SCRIPT, macro_office, run_macros, size_sheet
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Border, Side

from xlsolver.nonogram.cells import solution_from_rows
from xlsolver.nonogram.puzzle import Puzzle

pytestmark = pytest.mark.libreoffice

GREY, WHITE = "808080", "FFFFFF"
ROOT_DIR = Path(__file__).resolve().parents[1]
SAMPLES = {
    "diamond": ["..#..", ".###.", "#####", ".###.", "..#.."],
    "letter": [
        "##########",
        "#........#",
        "#.######.#",
        "#.#....#.#",
        "#.#.##.#.#",
        "#.#.##.#.#",
        "#.#....#.#",
        "#.######.#",
        "#........#",
        "##########",
    ],
    "boat": workbooks_module("build_xlsm").SAMPLE,
}


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    """One headless LibreOffice for the module, with the xlsolver macros installed."""
    with macro_office(tmp_path_factory) as lo:
        yield lo


def write_template(path: Path, puzzle: Puzzle, *, title: str = "A puzzle") -> tuple[int, int]:
    """A template-layout workbook (clues above and left, thin borders); the grid's corner."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    ws["A1"] = title
    depth_c = max(len(c) or 1 for c in puzzle.cols)
    depth_r = max(len(r) or 1 for r in puzzle.rows)
    top, left = 3 + depth_c, 2 + depth_r
    write_clues(ws, puzzle, top, left)
    thin = Side(style="thin", color="FF000000")
    for r in range(top, top + puzzle.height):
        for c in range(left, left + puzzle.width):
            ws.cell(r, c).border = Border(left=thin, right=thin, top=thin, bottom=thin)
    wb.save(path)
    return top, left


def grid_state(path: Path, corner: tuple[int, int], shape: tuple[int, int]):
    """Per grid cell: ("black" | "white" | "red" | None, crossed?, thin borders kept?)."""
    ws = load_workbook(path).worksheets[0]
    top, left = corner
    out = []
    for r in range(top, top + shape[0]):
        row = []
        for c in range(left, left + shape[1]):
            cell = ws.cell(r, c)
            fill = cell.fill.fgColor.rgb[-6:] if cell.fill.fill_type == "solid" else None
            colour = {GREY: "black", WHITE: "white", "FF0000": "red"}.get(fill, fill)
            b = cell.border
            crossed = bool(b.diagonalUp and b.diagonalDown and b.diagonal.style)
            kept = all(getattr(b, s).style == "thin" for s in ("left", "right", "top", "bottom"))
            row.append((colour, crossed, kept, b.diagonal.color.rgb[-6:] if crossed else None))
        out.append(row)
    return out


def painted(state) -> np.ndarray:
    """Boolean mask of grid cells that carry any paint."""
    return np.array([[cell[0] is not None or cell[1] for cell in row] for row in state])


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_solve_paints_the_solution(office, tmp_path, name):
    """Solve paints every cell: grey blacks, white crossed whites, forming a solution."""
    puzzle = Puzzle.from_solution(solution_from_rows(SAMPLES[name]))
    src = tmp_path / f"{name}.xlsx"
    corner = write_template(src, puzzle)
    out = tmp_path / "solved.xlsx"
    (message,) = run_macros(office, src, ["solve"], out)
    assert "unique solution painted" in message, message
    state = grid_state(out, corner, (puzzle.height, puzzle.width))
    black = np.array([[cell[0] == "black" for cell in row] for row in state])
    assert puzzle.is_solution(black)
    for row in state:
        for colour, crossed, kept, diag in row:
            assert colour in ("black", "white")
            assert crossed == (colour == "white")
            assert diag in (None, GREY)
            assert kept, "the grid's own borders must survive painting"
    ws = load_workbook(out).worksheets[0]
    assert ws["A1"].value == "A puzzle"


def test_hint_paints_exactly_one_more_deduction(office, tmp_path):
    """Each Hint adds one step's cells (all right), with a reason and a note on the sheet."""
    rows = SAMPLES["boat"]
    puzzle = Puzzle.from_solution(solution_from_rows(rows))
    src = tmp_path / "boat.xlsx"
    corner = write_template(src, puzzle)
    shape = (puzzle.height, puzzle.width)
    solution = solution_from_rows(rows)
    before = np.zeros(shape, dtype=bool)
    for n in range(1, 4):
        out = tmp_path / f"hint{n}.xlsx"
        messages = run_macros(office, src, ["hint"] * n, out)
        state = grid_state(out, corner, shape)
        now = painted(state)
        assert (now & before).sum() == before.sum(), "earlier hints stay painted"
        new = now & ~before
        assert new.sum() > 0
        for r, c in zip(*np.nonzero(new), strict=True):
            colour, crossed, _, _ = state[r][c]
            assert colour == ("black" if solution[r, c] else "white")
            assert crossed == (not solution[r, c])
        assert "row" in messages[-1] or "column" in messages[-1], messages[-1]
        ws = load_workbook(out).worksheets[0]
        notes = [c.comment.text for row in ws.iter_rows() for c in row if c.comment]
        assert len(notes) == 1 and messages[-1] in notes[0]
        if n > 1:  # exactly one more step than n-1 hints
            assert new.sum() == len(_last_step_cells(messages[-1]))
        before = now


def _last_step_cells(message: str) -> list[int]:
    """The number of cells a hint message says it set, as a list of that length."""
    words = message.rpartition(" — sets ")[2].replace(",", " ").split()
    count = sum(
        int(words[i - 1])
        for i, w in enumerate(words)
        if w in ("black", "white") and words[i - 1].isdigit()
    )
    return [0] * count


def test_clear_restores_the_blank_grid(office, tmp_path):
    """Solve, Hint, then Clear: no fill or cross left; clues and borders untouched."""
    puzzle = Puzzle.from_solution(solution_from_rows(SAMPLES["letter"]))
    src = tmp_path / "letter.xlsx"
    corner = write_template(src, puzzle)
    out = tmp_path / "cleared.xlsx"
    messages = run_macros(office, src, ["solve", "hint", "clear"], out)
    assert messages[-1].startswith("cleared the 10×10 grid"), messages
    state = grid_state(out, corner, (puzzle.height, puzzle.width))
    assert not painted(state).any()
    assert all(cell[2] for row in state for cell in row)
    before = load_workbook(src).worksheets[0]
    after = load_workbook(out).worksheets[0]
    for row in before.iter_rows():
        for cell in row:
            assert after[cell.coordinate].value == cell.value
    assert not [c for row in after.iter_rows() for c in row if c.comment]


def test_new_grid_lays_out_the_typed_size(office, tmp_path):
    """New grid on a sheet holding only the size lays out an empty template of that size."""
    src = size_sheet(tmp_path / "blank.xlsx", 7, 4, title="My puzzle")
    out = tmp_path / "new.xlsx"
    (message,) = run_macros(office, src, ["new_grid"], out)
    assert message.startswith("new 7×4 grid"), message
    from xlsolver.sheets.openpyxl_sheet import open_book
    from xlsolver.workbook.template import plan

    layout = plan(7, 4)
    top, left, bottom, right = layout.grid
    ws = load_workbook(out).worksheets[0]
    assert ws["A1"].value == "My puzzle"
    assert (bottom - top + 1, right - left + 1) == (4, 7)
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            cell = ws.cell(r, c)
            assert cell.value is None and cell.fill.fill_type in (None, "none")
            assert cell.border.left.style and cell.border.top.style
    assert open_book(out).sheets()[0].name == ws.title
    # the lines as the openpyxl back end draws them: the heavy 5-cell lines stay medium
    # once Calc saves the .xlsx (they were written 0.53 mm wide, which Calc saves as thin)
    from xlsolver.actions import new_grid

    book = open_book(src)
    new_grid(book, book.sheets()[0])
    book.save(tmp_path / "by_file.xlsx")
    made = load_workbook(tmp_path / "by_file.xlsx").worksheets[0]

    def sides(sheet, r, c):
        b = sheet.cell(r, c).border
        return b.left.style, b.right.style, b.top.style, b.bottom.style

    assert "medium" in sides(made, top, left + 5)
    for r in range(1, bottom + 2):
        for c in range(1, right + 2):
            assert sides(ws, r, c) == sides(made, r, c), (r, c)


def test_new_grid_on_an_empty_sheet_asks_for_the_size(office, tmp_path):
    """An empty sheet: the size prompt is written and the person told what to type; once
    typed (a three-digit height too), New grid lays the grid out, the size readable."""
    src = tmp_path / "empty.xlsx"
    Workbook().save(src)
    work = tmp_path / "work-empty.xlsx"
    shutil.copy(src, work)
    doc = office.load(work)
    try:
        script = doc.getScriptProvider().getScript(SCRIPT.format("new_grid"))
        (message,) = script.invoke((doc,), (), ())[:1]
        assert message.startswith("type the board's width in C2 and its height in G2"), message
        sheet = doc.Sheets.getByIndex(0)
        assert sheet.getCellRangeByName("A2").getString() == "width"
        assert sheet.getCellRangeByName("E2").getString() == "height"
        sheet.getCellRangeByName("C2").setValue(12)
        sheet.getCellRangeByName("G2").setValue(100)
        (message,) = script.invoke((doc,), (), ())[:1]
        assert message.startswith("new 12×100 grid"), message
        pdf = tmp_path / "new.pdf"
        office.save_as(doc, pdf, "calc_pdf_Export")
    finally:
        office.close(doc)
    text = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "###" not in text and "100" in text.split() and "12" in text.split(), text[:200]


def test_new_grid_writes_live_clue_checks(office, tmp_path):
    """The template New grid writes in Calc checks the clues as they are typed."""
    from xlsolver.workbook.template import TOTALS_CELL, plan

    src = size_sheet(tmp_path / "size.xlsx", 5, 4)
    work = tmp_path / "work-size.xlsx"
    shutil.copy(src, work)
    doc = office.load(work)
    try:
        script = doc.getScriptProvider().getScript(SCRIPT.format("new_grid"))
        script.invoke((doc,), (), ())
        sheet = doc.Sheets.getByIndex(0)
        top, left, bottom, right = plan(5, 4).grid
        sheet.getCellByPosition(left - 2, top - 1).setValue(3)  # row 1: 3
        sheet.getCellByPosition(left - 1, top - 2).setValue(4)  # column 1: 4
        sheet.getCellByPosition(left, top - 2).setValue(5)  # column 2: 5 in a 4-high grid
        doc.calculateAll()
        totals = sheet.getCellByPosition(TOTALS_CELL[1] - 1, TOTALS_CELL[0] - 1)
        assert totals.getString() == "clue totals: rows 3 ≠ columns 9"
        band = sheet.getCellByPosition(left - 1, top - 2).getPropertyValue("ConditionalFormat")
        (condition,) = [band.getByIndex(i).getFormula1() for i in range(band.getCount())]
        assert condition.endswith("-1>4"), condition  # a column's clues against its height
    finally:
        office.close(doc)


def test_new_grid_keeps_a_persons_own_cells_and_is_one_undo(office, tmp_path):
    """New grid lays out the template and replaces an older one, but a list, a number and
    a note of the person's own beside it stay (it used to clear every row under the size
    row, in over 100 undo steps); one Undo takes the whole press back. Cells of one's own
    where the template goes stop it, nothing changed."""
    from openpyxl.comments import Comment

    from xlsolver.workbook.template import plan

    src = size_sheet(tmp_path / "mine.xlsx", 10, 12, title="My puzzle")
    wb = load_workbook(src)
    ws = wb.active
    ws["T30"], ws["T31"], ws["Z5"] = "shopping list", "eggs", 42
    ws["Z5"].comment = Comment("my own note", "me")
    thin = Side(style="thin")
    for ref in ("AC4", "AD4", "AC5", "AD5"):  # a boxed table whose top row is the band's
        ws[ref] = ref.lower()
        ws[ref].border = Border(left=thin, right=thin, top=thin, bottom=thin)
    wb.save(src)
    work = tmp_path / "work-mine.xlsx"
    shutil.copy(src, work)
    doc = office.load(work)
    try:
        script = doc.getScriptProvider().getScript(SCRIPT.format("new_grid"))
        sheet = doc.Sheets.getByIndex(0)
        text = lambda ref: sheet.getCellRangeByName(ref).getString()  # noqa: E731
        undo = doc.UndoManager
        undo.clear()
        (message,) = script.invoke((doc,), (), ())[:1]
        assert message.startswith("new 10×12 grid"), message
        assert [text(r) for r in ("T30", "T31", "Z5")] == ["shopping list", "eggs", "42"]
        assert sheet.getAnnotations().getCount() == 1
        assert list(undo.getAllUndoActionTitles()) == ["xlsolver: New grid"]
        old = plan(10, 12)
        note = sheet.getCellByPosition(old.grid[3] + 1, old.grid[0] + 1)  # one column away
        note.setString("solved 3 May")
        sheet.getCellByPosition(old.grid[1] - 1, old.grid[0] - 2).setValue(3)  # a clue typed
        sheet.getCellRangeByName("C2").setValue(5)
        sheet.getCellRangeByName("G2").setValue(4)
        (message,) = script.invoke((doc,), (), ())[:1]
        assert message.startswith("new 5×4 grid"), message
        corner = sheet.getCellByPosition(old.grid[3] - 1, old.grid[2] - 1)  # the old grid's
        assert corner.getPropertyValue("RightBorder").OuterLineWidth == 0
        assert sheet.getCellByPosition(old.grid[1] - 1, old.grid[0] - 2).getString() == ""
        assert [text(r) for r in ("T30", "T31", "Z5")] == ["shopping list", "eggs", "42"]
        assert [text(r) for r in ("AC4", "AD5")] == ["ac4", "ad5"] and note.getString()
        undo.undo()  # back to the 10×12 template, the clue typed in it
        assert sheet.getCellByPosition(old.grid[1] - 1, old.grid[0] - 2).getValue() == 3
        assert corner.getPropertyValue("RightBorder").OuterLineWidth > 0
        sheet.getCellRangeByName("C2").setValue(30)  # a grid reaching T30 and Z5
        sheet.getCellRangeByName("G2").setValue(30)
        before = undo.getAllUndoActionTitles()
        (message,) = script.invoke((doc,), (), ())[:1]
        assert message.startswith("error: a 30×30 grid and the old one take A3:AS48, "), message
        assert "where cells of your own stand (AC4, AD4, Z5, AC5 and 4 more)" in message
        assert "nothing was changed" in message
        assert sheet.getCellByPosition(old.grid[1] - 1, old.grid[0] - 2).getValue() == 3
        assert undo.getAllUndoActionTitles() == before
    finally:
        office.close(doc)


def test_clear_undoes_a_pentomino_tiling_on_a_bordered_board(office, tmp_path):
    """Solve tiles a 6×10 board drawn with fills; Clear takes the tiling away and the
    board stays drawn, so Solve tiles it again."""
    from openpyxl.styles import PatternFill

    src = tmp_path / "board.xlsx"
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "Pentomino board"
    fill = PatternFill(fill_type="solid", start_color="FFCCCCCC", end_color="FFCCCCCC")
    for r in range(3, 9):
        for c in range(2, 12):
            ws.cell(r, c).fill = fill
    wb.save(src)
    out = tmp_path / "cleared.xlsx"
    messages = run_macros(office, src, ["solve", "clear", "solve", "clear"], out)
    assert "tiled with the 12 pentominoes" in messages[0], messages
    assert messages[1].endswith("cleared the tiling (60 cells)"), messages
    assert "tiled" in messages[2] and "cleared the tiling (60 cells)" in messages[3], messages
    ws = load_workbook(out).worksheets[0]
    for r in range(3, 9):
        for c in range(2, 12):
            cell = ws.cell(r, c)
            assert cell.value is None and cell.fill.fill_type == "solid"


def test_solve_on_an_empty_template_says_type_the_clues(office, tmp_path, capsys):
    """New grid lays out a 10×6 template (60 boxed cells): Solve tiled it with the 12
    pentominoes (``Sheet!F7:O12: tiled with the 12 pentominoes``). Solve, Hint and Clear
    say what ``xlsolver solve`` says of the saved sheet, and the grid stays empty."""
    from xlsolver.cli import main
    from xlsolver.workbook.template import plan

    src = size_sheet(tmp_path / "size.xlsx", 10, 6)
    out = tmp_path / "template.xlsx"
    messages = run_macros(office, src, ["new_grid", "solve", "hint", "clear"], out)
    assert messages[0].startswith("new 10×6 grid"), messages
    assert main(["solve", str(out)]) == 2
    said = capsys.readouterr().err.strip().removeprefix(f"xlsolver: {out}: ")
    assert "no clues found" in said, said
    assert messages[1:] == [f"error: {said}"] * 3, messages
    top, left, bottom, right = plan(10, 6).grid
    ws = load_workbook(out).worksheets[0]
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            assert ws.cell(r, c).value is None and ws.cell(r, c).fill.fill_type in (None, "none")


def test_a_pentomino_board_drawn_with_borders_only(office, tmp_path):
    """A 6×10 board drawn with borders alone (no fill, no letter): Calc reads the
    borders, so Solve tiles it and Clear takes the tiling away, leaving the boxes."""
    src = tmp_path / "boxed.xlsx"
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "Pentomino board"
    thin = Side(style="thin", color="FF000000")
    for r in range(3, 9):
        for c in range(2, 12):
            ws.cell(r, c).border = Border(left=thin, right=thin, top=thin, bottom=thin)
    wb.save(src)
    out = tmp_path / "boxed-out.xlsx"
    messages = run_macros(office, src, ["solve", "clear", "solve"], out)
    assert "tiled with the 12 pentominoes" in messages[0], messages
    assert messages[1].endswith("cleared the tiling (60 cells)"), messages
    assert "tiled with the 12 pentominoes" in messages[2], messages
    ws = load_workbook(out).worksheets[0]
    letters = [ws.cell(r, c).value for r in range(3, 9) for c in range(2, 12)]
    assert sorted(set(letters)) == sorted("FILNPTUVWXYZ")  # the second tiling, painted
    assert all(ws.cell(r, c).border.left.style == "thin" for r in range(3, 9) for c in (2, 11))


def test_a_pentomino_board_drawn_as_an_outline_with_black_holes(office, tmp_path):
    """The 8×8 board drawn the way a teacher might: a thick box round it, its centre
    filled black, a sample cell in a legend beside it. Calc finds the same 60 cells."""
    from openpyxl.styles import PatternFill

    src = tmp_path / "outline.xlsx"
    wb = Workbook()
    ws = wb.active
    thick = Side(style="medium", color="FF000000")
    black = PatternFill(fill_type="solid", start_color="FF000000", end_color="FF000000")
    for r in range(8):
        for c in range(8):
            cell = ws.cell(3 + r, 2 + c)
            cell.border = Border(
                left=thick if c == 0 else None,
                right=thick if c == 7 else None,
                top=thick if r == 0 else None,
                bottom=thick if r == 7 else None,
            )
            if r in (3, 4) and c in (3, 4):
                cell.fill = black
    ws["L3"].fill = PatternFill(fill_type="solid", start_color="FFD9D9D9", end_color="FFD9D9D9")
    ws["M3"] = "a board cell"
    wb.save(src)
    out = tmp_path / "outline-out.xlsx"
    messages = run_macros(office, src, ["solve"], out)
    assert "B3:I10: tiled with the 12 pentominoes" in messages[0], messages
    ws = load_workbook(out).worksheets[0]
    letters = {}
    for r in range(8):
        for c in range(8):
            value = ws.cell(3 + r, 2 + c).value
            if r in (3, 4) and c in (3, 4):
                assert value is None
            else:
                letters.setdefault(value, []).append((r, c))
    assert sorted(letters) == sorted("FILNPTUVWXYZ")
    assert all(len(cells) == 5 for cells in letters.values())
    assert ws["L3"].value is None and ws["M3"].value == "a board cell"


def test_a_sheet_without_clues_reports_an_error(office, tmp_path):
    """A macro on an empty sheet answers one line, no traceback, and paints nothing."""
    src = tmp_path / "empty.xlsx"
    Workbook().save(src)
    messages = run_macros(office, src, ["solve", "hint", "clear"], tmp_path / "out.xlsx")
    for message in messages:
        assert message.startswith("error: ") and "\n" not in message
        assert "Traceback" not in message


@pytest.mark.libreoffice
def test_install_command_writes_the_macro_file(tmp_path, capsys):
    """``xlsolver install-libreoffice --profile DIR`` writes a valid macro file there."""
    from xlsolver.cli import main

    assert main(["install-libreoffice", "--profile", str(tmp_path)]) == 0
    target = tmp_path / "user" / "Scripts" / "python" / "xlsolver.py"
    assert str(target) in capsys.readouterr().out
    code = compile(target.read_text(), str(target), "exec")
    names: dict = {}
    exec(code, names)
    exported = [f.__name__ for f in names["g_exportedScripts"]]
    assert exported == ["new_grid", "solve", "hint", "clear"]
    assert str(ROOT_DIR) in names["PATHS"]


def two_puzzles(path: Path) -> tuple[tuple[int, int], tuple[int, int]]:
    """A sheet holding two boxed puzzles side by side, 8 columns apart; their corners."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Two"
    ws["A1"] = "Two puzzles"
    thin = Side(style="thin", color="FF000000")
    corners = []
    for name, left in (("diamond", 6), ("letter", 25)):
        puzzle = Puzzle.from_solution(solution_from_rows(SAMPLES[name]))
        top = 8
        write_clues(ws, puzzle, top, left)
        for r in range(top, top + puzzle.height):
            for c in range(left, left + puzzle.width):
                ws.cell(r, c).border = Border(left=thin, right=thin, top=thin, bottom=thin)
        corners.append((top, left))
    wb.save(path)
    return corners[0], corners[1]


def test_two_puzzles_on_one_sheet_are_solved_hinted_and_cleared(office, tmp_path):
    """Solve paints both puzzles of a sheet, as the command line does; Hint goes to the
    first one with open cells and names it; Clear clears both grids."""
    src = tmp_path / "two.xlsx"
    (diamond, letter) = two_puzzles(src)
    out = tmp_path / "solved.xlsx"
    (message,) = run_macros(office, src, ["solve"], out)
    assert "Two!F8:J12 5×5: unique solution painted" in message, message
    assert "Two!Y8:AH17 10×10: unique solution painted" in message, message
    for name, corner in (("diamond", diamond), ("letter", letter)):
        rows = SAMPLES[name]
        state = grid_state(out, corner, (len(rows), len(rows[0])))
        black = np.array([[cell[0] == "black" for cell in row] for row in state])
        assert (black == solution_from_rows(rows)).all(), name
    messages = run_macros(office, out, ["hint", "clear", "hint"], tmp_path / "hinted.xlsx")
    assert messages[0] == "the grids are complete: nothing left to deduce", messages
    assert messages[1].startswith("cleared 2 grids: Two!F8:J12 (5×5), Two!Y8:AH17"), messages
    assert messages[2].startswith("Two!F8:J12: "), messages
    state = grid_state(tmp_path / "hinted.xlsx", letter, (10, 10))
    assert not painted(state).any()


def test_hint_keeps_the_persons_own_note(office, tmp_path):
    """A note the person left on a grid cell survives Hint and Clear: the hint's reason
    goes on the next cell of its step."""
    from openpyxl.comments import Comment

    puzzle = Puzzle.from_solution(solution_from_rows(SAMPLES["letter"]))
    src = tmp_path / "noted.xlsx"
    top, left = write_template(src, puzzle)
    wb = load_workbook(src)
    wb.active.cell(top, left).comment = Comment("Ann: start in this corner", "Ann")
    wb.save(src)
    for actions in (["hint"], ["hint", "clear"]):
        out = tmp_path / f"{'-'.join(actions)}.xlsx"
        messages = run_macros(office, src, actions, out)
        assert messages[0].startswith("Full line: row 1"), messages  # the row of the note
        ws = load_workbook(out).worksheets[0]
        notes = {c.coordinate: c.comment.text for row in ws.iter_rows() for c in row if c.comment}
        corner = ws.cell(top, left).coordinate
        assert notes.pop(corner) == "Ann: start in this corner", notes
        if actions[-1] == "hint":
            assert notes == {ws.cell(top, left + 1).coordinate: f"xlsolver hint: {messages[0]}"}
        else:
            assert not notes


@pytest.mark.parametrize("locked", [True, False])
def test_a_protected_sheet(office, tmp_path, locked):
    """A protected sheet whose grid cells are locked: Calc would drop the paint without a
    word, so Solve, Hint and Clear name a locked cell and paint nothing. With the grid's
    cells unlocked (a teacher protecting the clues only) the buttons work as ever."""
    from openpyxl.styles import Protection

    puzzle = Puzzle.from_solution(solution_from_rows(SAMPLES["letter"]))
    src = tmp_path / "protected.xlsx"
    top, left = write_template(src, puzzle)
    wb = load_workbook(src)
    ws = wb.active
    ws.protection.sheet = True
    for r in range(top, top + puzzle.height):
        for c in range(left, left + puzzle.width):
            ws.cell(r, c).protection = Protection(locked=locked)
    wb.save(src)
    out = tmp_path / "out.xlsx"
    messages = run_macros(office, src, ["solve", "hint", "clear", "solve"], out)
    state = grid_state(out, (top, left), (puzzle.height, puzzle.width))
    if locked:
        corner = f"{ws.cell(top, left).coordinate}"
        for message in messages:
            assert message.startswith("error: Puzzle!"), messages
            assert "the sheet is protected and its grid cells are locked" in message
        for message in messages:  # the same cell from each (Hint named another one)
            assert message.startswith(f"error: Puzzle!{corner}: "), messages
        assert not painted(state).any()
    else:
        assert "unique solution painted" in messages[-1], messages
        assert painted(state).all()


def test_new_grid_on_a_protected_sheet_says_it_cannot_lay_out(office, tmp_path):
    """New grid on a protected sheet told the person to unlock "the grid's cells", naming
    the title cell, before any grid existed (with the cells unlocked it failed with a
    RuntimeException); it says what stops it, and changes nothing."""
    from openpyxl.styles import Protection

    src = size_sheet(tmp_path / "locked.xlsx", 5, 4, title="Title")
    wb = load_workbook(src)
    wb.active.protection.sheet = True
    wb.save(src)
    out = tmp_path / "out.xlsx"
    (message,) = run_macros(office, src, ["new_grid"], out)
    assert message == (
        "error: Sheet: the sheet is protected, so New grid cannot lay out a template; "
        "unprotect the sheet (Tools ▸ Protect Sheet), then try again"
    ), message
    ws = load_workbook(out).active
    assert ws.max_row == 2 and not any(c.border.left.style for row in ws.iter_rows() for c in row)
    for row in wb.active.iter_rows(min_row=1, max_row=20, max_col=12):  # unlocked cells do
        for cell in row:  # not help: widths and styles are refused on a protected sheet
            cell.protection = Protection(locked=False)
    wb.save(src)
    (again,) = run_macros(office, src, ["new_grid"], out)
    assert again == message, again


def test_the_command_line_names_a_locked_cell_of_a_protected_ods(office, tmp_path):
    """``xlsolver solve`` on an .ods whose protected sheet has locked grid cells: one line
    naming the cell, exit status 2, nothing written (not a success with nothing painted)."""
    import os
    import sys

    puzzle = Puzzle.from_solution(solution_from_rows(SAMPLES["diamond"]))
    src = tmp_path / "protected.xlsx"
    top, left = write_template(src, puzzle)
    wb = load_workbook(src)
    wb.active.protection.sheet = True
    wb.save(src)
    ods = tmp_path / "protected.ods"
    doc = office.load(src)
    try:
        office.save_as(doc, ods, "calc8")
    finally:
        office.close(doc)
    target = tmp_path / "solved.ods"
    env = {**os.environ, "PYTHONPATH": str(ROOT_DIR)}
    done = subprocess.run(
        [sys.executable, "-m", "xlsolver", "solve", str(ods), "-o", str(target)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Puzzle!" in done.stderr and "the sheet is protected" in done.stderr, done.stderr
    corner = load_workbook(src).active.cell(top, left).coordinate  # as the buttons name it
    assert f"Puzzle!{corner}: the sheet is protected" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not target.exists()


def test_a_pentomino_board_on_a_protected_sheet(office, tmp_path):
    """A board drawn with fills on a protected sheet: Solve names a locked cell and
    writes no letter (the UNO API would write them where a person cannot type)."""
    from openpyxl.styles import PatternFill

    src = tmp_path / "board.xlsx"
    wb = Workbook()
    ws = wb.active
    fill = PatternFill(fill_type="solid", start_color="FFCCCCCC", end_color="FFCCCCCC")
    for r in range(3, 9):
        for c in range(2, 12):
            ws.cell(r, c).fill = fill
    ws.protection.sheet = True
    wb.save(src)
    out = tmp_path / "out.xlsx"
    (message,) = run_macros(office, src, ["solve"], out)
    assert message.startswith("error: Sheet!") and "the sheet is protected" in message, message
    ws = load_workbook(out).worksheets[0]
    assert all(ws.cell(r, c).value is None for r in range(3, 9) for c in range(2, 12))

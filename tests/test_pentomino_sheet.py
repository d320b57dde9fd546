"""Pentomino boards on sheets: reading (fake sheet and real .xlsx), painting, the CLI."""

from __future__ import annotations

import openpyxl
import pytest
from openpyxl.styles import PatternFill

from tests.test_pentomino import assert_tiling
from xlsolver.cli import main
from xlsolver.pentomino.board import BoardError, named_board
from xlsolver.pentomino.sheet import PALETTE, paint_tiling, read_board
from xlsolver.pentomino.solver import Tiler

GREY = "FFC0C0C0"


class FakeSheet:
    """A tiny in-memory sheet: values and fills by 1-based (row, col)."""

    name = "Board"

    def __init__(self, values=None, fills=None):
        self.values = dict(values or {})
        self.fills = dict(fills or {})
        self.painted = {}

    def used_range(self):
        cells = set(self.values) | set(self.fills)
        if not cells:
            return None
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        return (min(rows), min(cols), max(rows), max(cols))

    def read_values(self, rect):
        t, lf, b, r = rect
        return [[self.values.get((i, j)) for j in range(lf, r + 1)] for i in range(t, b + 1)]

    def read_fills(self, rect):
        t, lf, b, r = rect
        return [[self.fills.get((i, j)) for j in range(lf, r + 1)] for i in range(t, b + 1)]

    def read_borders(self, rect):
        t, lf, b, r = rect
        return [[False] * (r - lf + 1) for _ in range(t, b + 1)]  # no cell is boxed

    def merged_ranges(self):
        return []

    def paint(self, cells, style):
        for cell in cells:
            self.painted[cell] = style

    def unpaint(self, cells):
        for cell in cells:
            self.painted.pop(cell, None)

    def write_values(self, top_left, values):
        r0, c0 = top_left
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                self.values[(r0 + i, c0 + j)] = v


def _draw_8x8_hole(ws, top=3, left=2):
    """The 8x8 board less its centre 2x2: half the cells filled, half marked with 'o'."""
    for r in range(8):
        for c in range(8):
            if r in (3, 4) and c in (3, 4):
                continue
            cell = ws.cell(row=top + r, column=left + c)
            if (r + c) % 2:
                cell.fill = PatternFill(fill_type="solid", start_color=GREY, end_color=GREY)
            else:
                cell.value = "o"


def _hole_workbook(tmp_path):
    """A real .xlsx whose sheet "Hole" holds the 8x8 board less its centre, under a title."""
    path = tmp_path / "board.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Hole"
    ws["A1"] = "8x8 less the centre: tile me"
    _draw_8x8_hole(ws)
    wb.save(path)
    return path


def test_fake_sheet_board_with_fixed_piece_and_note():
    values = {(1, 1): "Pentomino practice, 3x20"}  # a note, not a board cell
    for r in range(3):
        for c in range(20):
            values[(3 + r, 2 + c)] = "#"
    for r, c in [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1)]:  # a U at the left end
        values[(3 + r, 2 + c)] = "u"
    sheet = FakeSheet(values)
    board = read_board(sheet)
    assert (board.height, board.width, board.origin) == (3, 20, (3, 2))
    assert sorted(board.fixed.values()) == ["U"] * 5
    result = Tiler(board).solve(limit=None)
    assert len(result.solutions) == 2  # the two 3x20 tilings, U turned to the left end
    for solution in result.solutions:
        assert_tiling(board, solution)
    paint_tiling(sheet, board, result.solutions[0])
    assert sheet.values[(3, 2)] == "U"
    assert sheet.painted[(3, 2)] == PALETTE["U"]


def test_fake_sheet_errors_name_the_sheet():
    with pytest.raises(BoardError, match="Board: the sheet is empty"):
        read_board(FakeSheet())
    values = {(1 + r, 1 + c): "x" for r in range(6) for c in range(10)}
    with pytest.raises(BoardError, match=r"piece X has 60 cells \(Board!A1 Board!B1 Board!C1 … "):
        Tiler(read_board(FakeSheet(values)))
    values = {(1 + r, 1 + c): "#" for r in range(6) for c in range(10)}
    values.update({(1, 1): "P", (2, 1): "P", (3, 1): "P", (4, 1): "P", (4, 2): "P"})
    with pytest.raises(BoardError, match=r"A1 Board!A2 Board!A3 Board!A4 Board!B4 .* the L pent"):
        Tiler(read_board(FakeSheet(values)))
    values = {(1 + r, 1 + c): "#" for r in range(6) for c in range(10)}
    del values[(6, 10)]
    with pytest.raises(BoardError, match=r"Board!A1:J6: the board has 59 cells"):
        Tiler(read_board(FakeSheet(values)))


def test_drawn_board_with_holes_from_a_real_xlsx(tmp_path):
    from xlsolver.sheets.openpyxl_sheet import open_book

    path = _hole_workbook(tmp_path)

    book = open_book(path)
    board = read_board(book.sheet("Hole"), book)
    assert board.cells == named_board("8x8-hole").cells
    assert board.where() == "Hole!B3:I10"
    tiler = Tiler(board)
    counted = tiler.count()
    assert (counted.distinct, counted.raw) == (65, 520)
    result = tiler.solve(limit=2)
    paint_tiling(book.sheet("Hole"), board, result.solutions[0])
    out = tmp_path / "tiled.xlsx"
    book.save(out)
    assert_painted(out, "Hole", board, (3, 2))


def assert_painted(path, sheet_name, board, origin):
    """Read a painted sheet back with openpyxl: a valid tiling, one colour per letter."""
    ws = openpyxl.load_workbook(path)[sheet_name]
    top, left = origin
    solution = {}
    colours = {}
    for r, c in board.cells:
        cell = ws.cell(row=top + r, column=left + c)
        solution[(r, c)] = cell.value
        colours.setdefault(cell.value, set()).add(cell.fill.start_color.rgb[-6:])
    for r in range(board.height):
        for c in range(board.width):
            if (r, c) not in board.cells:
                assert ws.cell(row=top + r, column=left + c).value is None
    assert_tiling(board, solution)
    for letter, seen in colours.items():
        assert seen == {PALETTE[letter].fill.lstrip("#")}
    assert len({PALETTE[k].fill for k in colours}) == 12


def test_cli_workbook_all_writes_valid_tilings(tmp_path, capsys):
    path = tmp_path / "board.xlsx"
    wb = openpyxl.Workbook()
    _draw_8x8_hole(wb.active)
    wb.save(path)
    before = path.read_bytes()
    out = tmp_path / "tiled.xlsx"
    code = main(["pentomino", str(path), "-o", str(out), "--all", "--limit", "3", "-q"])
    assert code == 0
    assert path.read_bytes() == before  # the input is left alone
    names = openpyxl.load_workbook(out).sheetnames
    assert names == ["Sheet", "Tiling 2", "Tiling 3"]
    board = named_board("8x8-hole")
    for name in names:
        assert_painted(out, name, board, (3, 2))
    capsys.readouterr()


def test_cli_named_board_counts_and_prints(capsys):
    code = main(["pentomino", "--board", "3x20", "--count", "-q"])
    text = capsys.readouterr().out
    assert code == 0
    assert "2 distinct tilings (8 counting symmetric copies)" in text
    rows = [line for line in text.splitlines() if len(line) == 20]
    assert len(rows) == 3
    board = named_board("3x20")
    assert_tiling(board, {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)})


def test_cli_named_board_to_new_workbook(tmp_path, capsys):
    out = tmp_path / "tiled.xlsx"
    assert main(["pentomino", "--board", "6x10", "-o", str(out), "-q"]) == 0
    assert_painted(out, "Pentomino", named_board("6x10"), (1, 1))
    capsys.readouterr()


def test_cli_bad_input_exits_2_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "bad.xlsx"
    wb = openpyxl.Workbook()
    for r in range(1, 8):
        for c in range(1, 10):
            wb.active.cell(row=r, column=c, value="#")
    wb.save(path)
    out = tmp_path / "out.xlsx"
    assert main(["pentomino", str(path), "-o", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert "63 cells" in err and err.count("\n") == 1
    assert not out.exists()
    assert main(["pentomino", "--board", "5x5", "--pieces", "LLPQ", "-q"]) == 2
    assert main(["pentomino", "-q"]) == 2
    capsys.readouterr()


def test_cli_no_tiling_and_time_limit_exit_1(capsys):
    assert main(["pentomino", "--board", "1x10", "--pieces", "IL", "-q"]) == 1
    assert "no tiling exists" in capsys.readouterr().err
    code = main(["pentomino", "--board", "6x10", "--count", "--time-limit", "0.05", "-q"])
    assert code == 1
    out = capsys.readouterr().out
    assert "count not finished" in out and "(stopped: timeout)" in out


def test_solve_button_tiles_a_pentomino_sheet(tmp_path):
    """The spreadsheet Solve action finds a board (no clues) and paints a valid tiling."""
    from xlsolver.actions import solve as solve_action
    from xlsolver.sheets.openpyxl_sheet import open_book

    path = _hole_workbook(tmp_path)
    book = open_book(path)
    outcome = solve_action(book, book.sheet("Hole"))
    assert outcome.ok and "tiled" in outcome.message
    out = tmp_path / "tiled.xlsx"
    book.save(out)
    assert_painted(out, "Hole", read_board(open_book(path).sheet("Hole")), (3, 2))

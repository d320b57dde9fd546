"""Pentomino boards on sheets: reading (fake sheet and real .xlsx), painting, the CLI."""

from __future__ import annotations

import openpyxl
import pytest
from openpyxl.styles import Border, PatternFill, Side

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

    def read_border_sides(self, rect):
        t, lf, b, r = rect
        return [[0] * (r - lf + 1) for _ in range(t, b + 1)]  # no borders drawn

    def read_heavy_sides(self, rect):
        return self.read_border_sides(rect)

    def merged_ranges(self):
        return []

    def read_diagonals(self, rect):
        t, lf, b, r = rect
        return [[False] * (r - lf + 1) for _ in range(t, b + 1)]  # no cell crossed out

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


@pytest.mark.libreoffice
def test_cli_all_on_a_board_drawn_in_an_ods(tmp_path, capsys):
    """``--all`` on an .ods board searched, printed a tiling, then failed ("this spreadsheet
    back end cannot add sheets for --all", nothing written): Calc adds the sheets too."""
    from tests.test_foreign_inputs import soffice_convert

    path = tmp_path / "board.xlsx"
    wb = openpyxl.Workbook()
    _draw_8x8_hole(wb.active)
    wb.save(path)
    ods = soffice_convert(path, "ods", tmp_path)
    out = tmp_path / "tiled.xlsx"
    assert main(["pentomino", str(ods), "-o", str(out), "--all", "--limit", "3", "-q"]) == 0
    names = openpyxl.load_workbook(out).sheetnames
    assert names == ["Sheet", "Tiling 2", "Tiling 3"]
    for name in names:
        assert_painted(out, name, named_board("8x8-hole"), (3, 2))
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
    """A new workbook's cells are square, as the nonogram templates' (the default columns
    printed each cell 2.7 times wider than tall), on every tiling sheet."""
    out = tmp_path / "tiled.xlsx"
    assert (
        main(["pentomino", "--board", "6x10", "-o", str(out), "-q", "--all", "--limit", "2"]) == 0
    )
    assert_painted(out, "Pentomino", named_board("6x10"), (1, 1))
    template = tmp_path / "template.xlsx"
    assert main(["new", "--size", "5x5", "-o", str(template)]) == 0
    square = openpyxl.load_workbook(template).active.column_dimensions["D"].width
    for ws in openpyxl.load_workbook(out):
        assert [ws.column_dimensions[c].width for c in "AJ"] == [square, square], ws.title
        assert (
            ws.row_dimensions[6].height
            == openpyxl.load_workbook(template).active.row_dimensions[9].height
        )
    capsys.readouterr()


def _typed_board(path, rows: int, cols: int, mark: str = "#"):
    """A rows×cols board typed in ``mark`` from A1, saved at ``path``."""
    wb = openpyxl.Workbook()
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            wb.active.cell(row=r, column=c, value=mark)
    wb.save(path)
    return path


def test_cli_bad_input_exits_2_and_writes_nothing(tmp_path, capsys):
    path = _typed_board(tmp_path / "bad.xlsx", 7, 9)
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


def test_a_listing_cut_short_by_the_time_limit_says_so(monkeypatch, capsys):
    """``--all --time-limit`` that stopped part way printed its tilings and exit 1 with no
    word of the stop: stderr says how many were found, at least, and why it stopped."""
    from xlsolver.pentomino import solver

    real = solver.Tiler.solve

    def stopped(self, *args, **kwargs):
        result = real(self, limit=3)
        result.status = solver.TIMEOUT  # as a time limit ends the listing
        return result

    monkeypatch.setattr(solver.Tiler, "solve", stopped)
    code = main(["pentomino", "--board", "6x10", "--all", "--time-limit", "5", "-q"])
    out, err = capsys.readouterr()
    assert code == 1 and out.count("\n\n") == 3  # the three tilings found
    assert err.startswith("6x10: at least 3 tilings, ") and "(stopped: timeout)" in err


def test_limit_without_an_output_prints_every_tiling_it_found(capsys):
    """``--limit 3`` searched three tilings and printed one, with no word of the others."""
    capsys.readouterr()
    assert main(["pentomino", "--board", "6x10", "--limit", "3", "-q"]) == 0
    blocks = capsys.readouterr().out.strip().split("\n\n")
    assert len(blocks) == 3 and len(set(blocks)) == 3
    board = named_board("6x10")
    for block in blocks:
        rows = block.split("\n")
        assert_tiling(board, {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)})


def test_limit_with_an_output_writes_every_tiling_it_found(tmp_path, capsys):
    """``--limit 3 -o`` searched three tilings and wrote one, without a word."""
    capsys.readouterr()
    out = tmp_path / "three.xlsx"
    assert main(["pentomino", "--board", "6x10", "--limit", "3", "-o", str(out), "-q"]) == 0
    assert capsys.readouterr().out.endswith(
        f"{out}: 3 tiling(s) painted on Pentomino, Tiling 2, Tiling 3\n"
    )
    assert openpyxl.load_workbook(out).sheetnames == ["Pentomino", "Tiling 2", "Tiling 3"]


def test_a_count_cut_short_by_the_time_limit_says_so(capsys):
    """``--count --limit N --time-limit S`` stopped by the clock said 'at least 353
    tilings' without saying why it stopped."""
    capsys.readouterr()
    code = main(
        [
            "pentomino",
            "--board",
            "6x10",
            "--count",
            "--limit",
            "100000",
            "--time-limit",
            "0.2",
            "-q",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1 and out.startswith("6x10: at least ") and "(stopped: timeout)" in out, out


@pytest.mark.parametrize("where", ["missing-folder", "the-input"])
def test_an_output_that_cannot_be_written_is_refused_before_the_search(tmp_path, capsys, where):
    """``-o`` over the board's own file or into a missing folder was refused after the
    search, the tiling already printed; now before it, nothing printed."""
    board = _typed_board(tmp_path / "board.xlsx", 6, 10)
    out = tmp_path / "nowhere" / "t.xlsx" if where == "missing-folder" else board
    before = board.read_bytes()
    assert main(["pentomino", str(board), "-o", str(out), "-q"]) == 2
    printed = capsys.readouterr()
    assert printed.out == "" and printed.err.count("\n") == 1, printed
    assert board.read_bytes() == before


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


# Boards drawn the ways people draw them, not the way our own templates do.
HOLE = {(3, 3), (3, 4), (4, 3), (4, 4)}
THICK = Side(style="medium")
THIN = Side(style="thin")
BLACK = PatternFill(fill_type="solid", start_color="FF000000", end_color="FF000000")
LIGHT = PatternFill(fill_type="solid", start_color="FFFFF2CC", end_color="FFFFF2CC")


def _outline(ws, top, left, height, width):
    """A thick box round a rectangle (Excel's Thick Box Border): its inner cells unmarked."""
    for r in range(height):
        for c in range(width):
            ws.cell(top + r, left + c).border = Border(
                left=THICK if c == 0 else None,
                right=THICK if c == width - 1 else None,
                top=THICK if r == 0 else None,
                bottom=THICK if r == height - 1 else None,
            )


def _read(tmp_path, draw, pieces=12):
    """Save a drawing as a real .xlsx, open it again and read its board."""
    from xlsolver.sheets.openpyxl_sheet import open_book

    path = tmp_path / "drawn.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Board"
    draw(wb.active)
    wb.save(path)
    book = open_book(path)
    return read_board(book.sheet("Board"), book, need=5 * pieces)


def _tiles(board):
    result = Tiler(board).solve(limit=1)
    assert result.solutions
    assert_tiling(board, result.solutions[0])


def test_board_drawn_as_an_outline_is_the_inside(tmp_path):
    board = _read(tmp_path, lambda ws: _outline(ws, 3, 2, 6, 10))
    assert board.cells == named_board("6x10").cells and board.where() == "Board!B3:K8"
    _tiles(board)

    # the outline with the holes filled black: the 8x8 less its centre
    def holes_black(ws):
        _outline(ws, 2, 2, 8, 8)
        for r, c in HOLE:
            ws.cell(2 + r, 2 + c).fill = BLACK

    assert _read(tmp_path, holes_black).cells == named_board("8x8-hole").cells


def test_black_cells_among_boxed_cells_are_holes_when_that_gives_60(tmp_path):
    def boxed(ws, chess=False):
        for r in range(8):
            for c in range(8):
                cell = ws.cell(2 + r, 2 + c)
                cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
                if (r, c) in HOLE or (chess and (r, c) not in HOLE and (r + c) % 2):
                    cell.fill = BLACK if (r, c) in HOLE or chess else cell.fill
                if chess and (r, c) in HOLE:
                    cell.fill = PatternFill(fill_type=None)
                    cell.border = Border()

    board = _read(tmp_path, boxed)
    assert board.cells == named_board("8x8-hole").cells
    _tiles(board)
    # a chessboard: half its squares black, the centre left out, is 60 cells as drawn
    board = _read(tmp_path, lambda ws: boxed(ws, chess=True))
    assert board.cells == named_board("8x8-hole").cells


def test_typed_zeros_are_holes_and_row_and_column_numbers_are_not_the_board(tmp_path):
    def typed(ws):
        for r in range(8):
            for c in range(8):
                ws.cell(2 + r, 2 + c, 0 if (r, c) in HOLE else 1)

    assert _read(tmp_path, typed).cells == named_board("8x8-hole").cells

    def numbered(ws):
        for c in range(10):
            ws.cell(1, 2 + c, c + 1)  # 1 … 10 above the board
        for r in range(6):
            ws.cell(2 + r, 1, r + 1)  # 1 … 6 left of it
            for c in range(10):
                ws.cell(2 + r, 2 + c).fill = LIGHT

    board = _read(tmp_path, numbered)
    assert board.cells == named_board("6x10").cells and board.where() == "Board!B2:K7"
    # a board typed with 1s in its first row is not taken for a ruler
    ones = _read(
        tmp_path, lambda ws: [ws.cell(1 + r, 1 + c, 1) for r in range(6) for c in range(10)]
    )
    assert ones.cells == named_board("6x10").cells


def test_a_legend_beside_the_board_is_not_part_of_it(tmp_path):
    def legend(ws):
        for r in range(6):
            for c in range(10):
                ws.cell(2 + r, 2 + c).fill = LIGHT
        ws.cell(2, 14, "Pieces: F I L N P T U V W X Y Z")
        ws.cell(4, 14).fill = LIGHT  # a sample cell, "= board cell"
        ws.cell(4, 15, "= board cell")

    board = _read(tmp_path, legend)
    assert board.cells == named_board("6x10").cells and board.where() == "Board!B2:K7"
    _tiles(board)

    # a smaller piece set: the group with 5 cells a piece is the board
    def small(ws):
        for r in range(5):
            for c in range(5):
                ws.cell(2 + r, 2 + c).fill = LIGHT
        ws.cell(2, 9).fill = LIGHT

    assert _read(tmp_path, small, pieces=5).where() == "Board!B2:F6"


def test_two_boards_or_no_fitting_group_are_refused_with_their_ranges(tmp_path, capsys):
    def two(ws):
        for r in range(6):
            for c in range(10):
                ws.cell(2 + r, 2 + c).fill = LIGHT
                ws.cell(10 + r, 2 + c).fill = LIGHT

    with pytest.raises(
        BoardError,
        match=r"2 groups .* could each be the board \(Board!B2:K7"
        r" \(60 cells\), Board!B10:K15 \(60 cells\)\).*PentominoBoard",
    ):
        _read(tmp_path, two)

    def short(ws):
        for r in range(6):
            for c in range(9):
                ws.cell(2 + r, 2 + c).fill = LIGHT
        ws.cell(2, 14).fill = LIGHT

    with pytest.raises(BoardError, match=r"2 separate groups and none has the 60 cells"):
        _read(tmp_path, short)
    # through the CLI: exit 2, one line, nothing written
    path = tmp_path / "drawn.xlsx"
    out = tmp_path / "out.xlsx"
    assert main(["pentomino", str(path), "-o", str(out), "-q"]) == 2
    assert "Board!B2:J7 (54 cells)" in capsys.readouterr().err and not out.exists()


# Boards as testers drew them: a notes sheet first, titles on the board, full-width
# letters, dark grey and crossed-out holes, errors that point at the cell.


def _book_of(tmp_path, *sheets, name="drawn.xlsx"):
    """A real .xlsx of named sheets, each drawn by its function."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, draw in sheets:
        draw(wb.create_sheet(title))
    path = tmp_path / name
    wb.save(path)
    return path


def _six_by_ten(ws, top=2, left=2, fill=LIGHT):
    for r in range(6):
        for c in range(10):
            ws.cell(top + r, left + c).fill = fill


def test_a_notes_sheet_before_the_board_does_not_hide_it(tmp_path, capsys):
    """A highlighted heading on the first sheet read as a 1-cell board, and the board
    on the second sheet was never looked at."""

    def notes(ws):
        ws["A1"] = "Instructions"
        ws["A1"].fill = PatternFill("solid", fgColor="FFFFFF00")
        ws["A2"], ws["A3"] = 1, 2

    path = _book_of(tmp_path, ("Notes", notes), ("Board", _six_by_ten))
    assert main(["pentomino", str(path), "--count", "-q"]) == 0
    assert "Board!B2:K7: 2339 distinct tilings" in capsys.readouterr().out
    assert main(["pentomino", str(path), "--sheet", "board", "-q"]) == 0  # any case
    capsys.readouterr()

    def short(ws):
        _six_by_ten(ws)
        ws["G5"].fill = PatternFill(fill_type=None)

    path = _book_of(tmp_path, ("Notes", notes), ("Board", short), name="short.xlsx")
    assert main(["pentomino", str(path), "-q"]) == 2  # the drawing nearest 60 is named
    err = capsys.readouterr().err
    assert "Board!B2:K7: the board has 59 cells" in err and "Board!G5 is the one cell" in err


def test_titles_on_or_over_the_board_are_not_board_cells(tmp_path):
    def filled_title(ws):
        ws["B1"] = "Pentomino 6x10"
        ws["B1"].fill = PatternFill("solid", fgColor="FFFFFF00")
        _six_by_ten(ws)

    def boxed_merged_title(ws):
        ws.merge_cells("B2:K2")
        ws["B2"] = "Pentomino 6x10"
        for r in range(2, 9):
            for c in range(2, 12):
                ws.cell(r, c).border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)

    def letter_title(ws):  # a one-letter title in a merged band: no fixed X piece
        ws.merge_cells("B1:K1")
        ws["B1"] = "X"
        _six_by_ten(ws)

    assert _read(tmp_path, filled_title).cells == named_board("6x10").cells
    board = _read(tmp_path, letter_title)
    assert board.cells == named_board("6x10").cells and not board.fixed
    board = _read(tmp_path, boxed_merged_title)
    assert board.cells == named_board("6x10").cells and board.where() == "Board!B3:K8"


def test_full_width_letters_fix_their_piece(tmp_path):
    """A Japanese input method types Ｘ: the X piece is fixed there, not painted over."""
    x_cells = [(3, 4), (4, 3), (4, 4), (4, 5), (5, 4)]

    def drawn(ws):
        _six_by_ten(ws)
        for r, c in x_cells:
            ws.cell(r, c, "Ｘ")

    board = _read(tmp_path, drawn)
    assert board.fixed == {(r - 2, c - 2): "X" for r, c in x_cells}
    result = Tiler(board).solve(limit=1)
    assert all(result.solutions[0][cell] == "X" for cell in board.fixed)
    assert_tiling(board, result.solutions[0])


def test_dark_grey_and_crossed_out_cells_are_holes(tmp_path):
    def grey_hole(ws):
        _outline(ws, 2, 2, 8, 8)
        for r, c in HOLE:
            ws.cell(2 + r, 2 + c).fill = PatternFill("solid", fgColor="FF404040")

    def crossed_hole(ws):
        for r in range(8):
            for c in range(8):
                cross = (r, c) in HOLE
                ws.cell(2 + r, 2 + c).border = Border(
                    left=THIN,
                    right=THIN,
                    top=THIN,
                    bottom=THIN,
                    diagonal=THIN if cross else None,
                    diagonalUp=cross,
                    diagonalDown=cross,
                )

    assert _read(tmp_path, grey_hole).cells == named_board("8x8-hole").cells
    assert _read(tmp_path, crossed_hole).cells == named_board("8x8-hole").cells


def test_count_errors_point_at_the_cell_and_the_button_names_two_boards(tmp_path, capsys):
    from xlsolver.actions import guarded
    from xlsolver.actions import solve as solve_action
    from xlsolver.sheets.openpyxl_sheet import open_book

    def extra(ws):
        _six_by_ten(ws)
        ws["E8"].fill = LIGHT

    def typed_x(ws):
        _six_by_ten(ws, fill=LIGHT)
        for r in range(8, 10):
            for c in range(2, 12):
                ws.cell(r, c).fill = LIGHT
        for r, c in ((5, 6), (5, 7), (6, 6), (6, 7)):
            ws.cell(r, c, "X")

    path = _book_of(tmp_path, ("Board", extra))
    assert main(["pentomino", str(path), "-q"]) == 2
    err = capsys.readouterr().err
    assert "the board has 61 cells" in err and "Board!E8 is the one cell outside" in err
    assert "--pieces" in err
    path = _book_of(tmp_path, ("Board", typed_x), name="x.xlsx")
    assert main(["pentomino", str(path), "-q"]) == 2
    err = capsys.readouterr().err
    assert "the 4 cells typed X (Board!F5 …) are board cells fixing the X piece" in err

    def two(ws):
        _six_by_ten(ws)
        _six_by_ten(ws, top=10)

    book = open_book(_book_of(tmp_path, ("Board", two), name="two.xlsx"))
    outcome = guarded(solve_action, book, book.sheet("Board"))
    assert not outcome.ok and "2 groups of marked cells could each be the board" in outcome.message

    book = open_book(_book_of(tmp_path, ("Board", extra), name="extra.xlsx"))
    outcome = guarded(solve_action, book, book.sheet("Board"))  # the button has no --pieces
    assert not outcome.ok and "61 cells" in outcome.message and "--pieces" not in outcome.message


def test_pentomino_names_what_the_copy_leaves_out(tmp_path, capsys):
    """A text box beside the board is dropped by openpyxl: said, as solve says it."""
    xlsxwriter = pytest.importorskip("xlsxwriter")
    path = tmp_path / "boxed.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Board")
    light = wb.add_format({"bg_color": "#FFF2CC"})
    for r in range(1, 7):
        for c in range(1, 11):
            ws.write_blank(r, c, None, light)
    ws.insert_textbox("M3", "Use each of the 12 pieces once.")
    wb.close()
    assert main(["pentomino", str(path), "-o", str(tmp_path / "out.xlsx"), "-q"]) == 0
    assert "the copy leaves out 1 text box" in capsys.readouterr().err


def test_clear_keeps_a_board_drawn_as_an_outline_unfilled(tmp_path):
    from xlsolver.actions import clear as clear_action
    from xlsolver.actions import solve as solve_action
    from xlsolver.sheets.openpyxl_sheet import open_book

    book = open_book(_book_of(tmp_path, ("Board", lambda ws: _outline(ws, 2, 2, 6, 10))))
    sheet = book.sheet("Board")
    assert solve_action(book, sheet).ok
    assert clear_action(book, sheet).ok
    assert sheet.read_fills((2, 2, 7, 11)) == [[None] * 10 for _ in range(6)]
    colours = sheet.read_font_colours((2, 2, 7, 11))  # no white text left from N, T, Y
    assert all(c in (None, "#000000") for row in colours for c in row), colours
    assert solve_action(book, sheet).ok  # the outline still draws the board


def test_a_board_outlined_heavy_on_graph_paper_is_the_outline(tmp_path):
    """Graph paper (every cell boxed thin) with a medium outline round the board, as
    puzzle books draw one: the outline's cells are the board, not all 225 boxed ones."""

    def graph_paper(ws):
        for r in range(1, 16):
            for c in range(1, 16):
                heavy = {
                    "top": r == 3 and 3 <= c <= 12,
                    "bottom": r == 8 and 3 <= c <= 12,
                    "left": c == 3 and 3 <= r <= 8,
                    "right": c == 12 and 3 <= r <= 8,
                }
                ws.cell(r, c).border = Border(
                    **{side: Side(style="medium" if heavy[side] else "thin") for side in heavy}
                )

    board = _read(tmp_path, graph_paper)
    assert board.cells == named_board("6x10").cells and board.where() == "Board!C3:L8"
    _tiles(board)


def test_rulers_as_chessboards_and_headers_label_them(tmp_path):
    """Ranks 8…1 running down, files A…H along the bottom, numbers on a grey header:
    labels, not board cells (they read as 68, 70 and 76 cells)."""
    grey = PatternFill("solid", fgColor="FFD9D9D9")

    def chess(ws):  # the 8x8 less its centre, ranks left, files below
        for r in range(8):
            ws.cell(2 + r, 1, 8 - r)
            ws.cell(10, 2 + r, "ABCDEFGH"[r])
            for c in range(8):
                if (r, c) not in HOLE:
                    ws.cell(2 + r, 2 + c).fill = LIGHT

    def header(ws):  # numbered columns on a grey, bold header row
        for c in range(10):
            ws.cell(1, 2 + c, c + 1).fill = grey
        _six_by_ten(ws)

    assert _read(tmp_path, chess).cells == named_board("8x8-hole").cells
    assert _read(tmp_path, header).cells == named_board("6x10").cells


@pytest.mark.parametrize(
    ("first", "second"), [("BDD7EE", "1F3864"), ("FF0000", "FFFF00"), ("BDD7EE", "000000")]
)
def test_a_board_in_a_dark_colour_is_a_board_not_holes(tmp_path, capsys, first, second):
    """Two 6x10 boards, one filled navy (or red): the dark one was read as 60 holes and the
    other tiled without a word. Only black and dark grey mark holes: two boards, named."""
    path = tmp_path / "two.xlsx"
    wb = openpyxl.Workbook()
    for r in range(6):
        for c in range(10):
            wb.active.cell(2 + r, 2 + c).fill = PatternFill("solid", fgColor="FF" + first)
            wb.active.cell(12 + r, 2 + c).fill = PatternFill("solid", fgColor="FF" + second)
    wb.save(path)
    assert main(["pentomino", str(path), "-q"]) == 2
    err = capsys.readouterr().err
    assert "2 groups of marked cells could each be the board" in err, err


def test_a_board_typed_in_hole_marks_says_they_are_holes(tmp_path, capsys):
    """A board typed all in ``.`` said "no board found; mark its cells with a fill or a
    character" though every cell held one: the message says those mark holes."""
    path = _typed_board(tmp_path / "dots.xlsx", 6, 10, ".")
    assert main(["pentomino", str(path), "-q"]) == 2
    err = capsys.readouterr().err
    assert "no board found" in err and "typed in a cell mark a hole" in err, err

"""The openpyxl back end: reading, painting, saving safely, and clear errors on bad files."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from xlsolver.sheets.errors import WorkbookError
from xlsolver.sheets.openpyxl_sheet import OLE_MAGIC, new_book, open_book
from xlsolver.sheets.protocol import BLACK_STYLE, WHITE_STYLE, Book, LayoutSheet

ROOT = Path(__file__).resolve().parent.parent


def test_round_trip_values_fills_diagonals_names(tmp_path):
    book = new_book()
    sheet = book.sheets()[0]
    assert isinstance(book, Book) and isinstance(sheet, LayoutSheet)
    sheet.write_values((2, 3), [[1, 2], [3, "x"]])
    sheet.paint([(2, 3)], BLACK_STYLE)
    sheet.paint([(2, 4)], WHITE_STYLE)
    book.define_name("PuzzleGrid", "Sheet1", (2, 3, 5, 6))
    out = book.save(tmp_path / "t.xlsx")
    again = open_book(out).sheet("Sheet1")
    assert again.read_values((2, 3, 3, 4)) == [[1, 2], [3, "x"]]
    assert again.read_fills((2, 3, 2, 4)) == [["#808080", "#FFFFFF"]]
    assert again.read_diagonals((2, 3, 2, 4)) == [[False, True]]
    assert open_book(out).defined_names() == {"PuzzleGrid": ("Sheet1", (2, 3, 5, 6))}


def test_paint_keeps_other_borders(tmp_path):
    from openpyxl.styles import Border, Side

    book = new_book()
    ws = book.sheets()[0].ws
    ws["B2"].border = Border(left=Side(style="thick"), top=Side(style="thin"))
    book.sheets()[0].paint([(2, 2)], WHITE_STYLE)
    b = ws["B2"].border
    assert (b.left.style, b.top.style, b.diagonal.style) == ("thick", "thin", "hair")
    assert b.diagonalUp and b.diagonalDown
    book.sheets()[0].paint([(2, 2)], BLACK_STYLE)
    b = ws["B2"].border
    assert (b.left.style, b.top.style) == ("thick", "thin") and not b.diagonalUp


def _mixed_styles(book) -> list[tuple[int, int]]:
    """A 6×6 block whose cells had different styles before: thick and thin sides, a bold
    red font, a fill, a number format, and plain cells (some never created)."""
    from openpyxl.styles import Border, Font, PatternFill, Side

    ws = book.sheets()[0].ws
    for r in range(1, 7):
        for c in range(1, 7):
            kind = (r * 7 + c * 3) % 6
            cell = ws.cell(row=r, column=c)
            if kind == 0:
                cell.border = Border(left=Side(style="thick"), top=Side(style="thin"))
            elif kind == 1:
                cell.font = Font(bold=True, color="FFFF0000")
            elif kind == 2:
                cell.fill = PatternFill(fill_type="solid", start_color="FF00FF00")
            elif kind == 3:
                cell.number_format = "0.00"
                cell.border = Border(bottom=Side(style="medium"))
            elif kind == 4:
                cell.value = 5
    return [(r, c) for r in range(1, 8) for c in range(1, 8)]  # row and column 7: new cells


def _looks(book, cells) -> list[tuple]:
    """What each cell shows: fill, the four sides, diagonals, font, number format."""
    ws = book.sheets()[0].ws
    out = []
    for r, c in cells:
        cell = ws.cell(row=r, column=c)
        b = cell.border
        out.append(
            (
                cell.fill.fill_type,
                cell.fill.start_color.rgb,
                *(
                    getattr(getattr(b, side), "style", None)
                    for side in ("left", "right", "top", "bottom", "diagonal")
                ),
                b.diagonalUp,
                b.diagonalDown,
                cell.font.bold,
                cell.font.color.rgb if cell.font.color else None,
                cell.number_format,
                cell.value,
            )
        )
    return out


@pytest.mark.parametrize("style", [BLACK_STYLE, WHITE_STYLE])
def test_painting_many_cells_at_once_is_painting_each_alone(style):
    """Cells of one style are worked out once and the rest copied: each cell must still
    keep its own borders, font, number format and value."""
    together, alone = new_book(), new_book()
    cells = _mixed_styles(together)
    _mixed_styles(alone)
    together.sheets()[0].paint(cells, style)
    for cell in cells:
        alone.sheets()[0].paint([cell], style)
    assert _looks(together, cells) == _looks(alone, cells)
    looks = _looks(together, cells)
    kinds = [(r * 7 + c * 3) % 6 if r < 7 and c < 7 else None for r, c in cells]
    assert [look[2] == "thick" for look in looks] == [k == 0 for k in kinds]  # left sides kept
    assert [bool(look[9]) for look in looks] == [k == 1 for k in kinds]  # bold fonts kept
    together.sheets()[0].unpaint(cells)
    for cell in cells:
        alone.sheets()[0].unpaint([cell])
    assert _looks(together, cells) == _looks(alone, cells)


def test_reading_styles_of_a_block_is_reading_each_cell(tmp_path):
    """Fills, borders, diagonals, fonts and number formats are read once per style."""
    book = new_book()
    cells = _mixed_styles(book)
    book.sheets()[0].paint(cells[::3], WHITE_STYLE)
    sheet = open_book(book.save(tmp_path / "mixed.xlsx")).sheets()[0]
    block = (1, 1, 7, 7)
    for read in (
        sheet.read_fills,
        sheet.read_border_sides,
        sheet.read_diagonals,
        sheet.read_font_colours,
        sheet.read_number_formats,
    ):
        each = [[read((r, c, r, c))[0][0] for c in range(1, 8)] for r in range(1, 8)]
        assert read(block) == each
        assert len({v for row in each for v in row}) > 1  # the block is not uniform
    assert sheet.used_range() == (1, 1, 7, 7)


def test_save_refuses_to_overwrite_input(tmp_path):
    path = tmp_path / "in.xlsx"
    new_book().save(path)
    before = path.read_bytes()
    book = open_book(path)
    with pytest.raises(WorkbookError, match="refusing to write over the input"):
        book.save(path)
    assert path.read_bytes() == before
    book.save(path, overwrite_input=True)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(
    "content, message",
    [
        (b"just some text\n", "not a workbook"),
        (OLE_MAGIC + "EncryptedPackage".encode("utf-16-le"), "password-protected"),
        (OLE_MAGIC + b"\0" * 100, "old binary .xls"),
        (b"PK\x03\x04 broken zip", "not a workbook: the file is damaged or is not a spreadsheet"),
        (b"", r"bad.xlsx: the file is empty \(0 bytes\), not a workbook"),
        (
            b"Name;Zeit\nAnn;5 min\n",
            r"bad.xlsx: comma-separated values \(CSV\) named .xlsx, not a workbook; open it in "
            "a spreadsheet program and save it as .xlsx",
        ),
    ],
)
def test_bad_files_raise_one_clear_line(tmp_path, content, message):
    path = tmp_path / "bad.xlsx"
    path.write_bytes(content)
    with pytest.raises(WorkbookError, match=message) as err:
        open_book(path)
    assert "\n" not in str(err.value)


def test_corrupt_workbook_xml(tmp_path):
    path = tmp_path / "c.xlsx"
    new_book().save(path)
    bad = tmp_path / "bad.xlsx"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "xl/workbook.xml":
                data = data[: len(data) // 2]
            dst.writestr(item, data)
    with pytest.raises(WorkbookError, match="corrupt"):
        open_book(bad)


def test_excel_lock_files_among_the_inputs_are_skipped(tmp_path, monkeypatch, capsys):
    """``xlsolver solve *.xlsx`` while Excel has book.xlsx open also names ``~$book.xlsx``."""
    from xlsolver.cli import main

    monkeypatch.chdir(tmp_path)
    Path("book.xlsx").write_bytes((ROOT / "workbooks" / "small.xlsx").read_bytes())
    Path("~$book.xlsx").write_bytes(b"\x05Ann B" + b" " * 49 + "Ann B".encode("utf-16-le"))
    assert main(["solve", "book.xlsx", "~$book.xlsx", "--out-dir", "solved"]) == 0
    err = capsys.readouterr().err
    assert "xlsolver: ~$book.xlsx: skipped: Excel's lock file, there while book.xlsx is open" in err
    assert sorted(p.name for p in Path("solved").iterdir()) == ["book.xlsx"]
    assert main(["solve", "~$book.xlsx", "-o", "x.xlsx"]) == 0 and not Path("x.xlsx").exists()


def test_clearing_a_range_takes_the_conditional_formats_wholly_inside_it(tmp_path):
    """New grid, shrinking a template, left the old template's line checks behind in the
    copy openpyxl writes (Calc's clearing removes them): the rules wholly inside go, the
    others stay."""
    from xlsolver.sheets.protocol import BAD_CLUE_STYLE

    book = new_book()
    sheet = book.sheets()[0]
    assert sheet.set_conditional_format((9, 1, 18, 5), "A9>1", BAD_CLUE_STYLE)
    assert sheet.set_conditional_format((3, 20, 3, 22), "T3>1", BAD_CLUE_STYLE)
    sheet.clear_range((3, 1, 18, 15))
    book.save(tmp_path / "t.xlsx")
    import openpyxl

    kept = [
        str(cf.sqref)
        for cf in openpyxl.load_workbook(tmp_path / "t.xlsx").active.conditional_formatting
    ]
    assert kept == ["T3:V3"]

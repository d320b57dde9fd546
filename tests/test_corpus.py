"""Every workbook of the hand-made corpus (tests/corpus.py) is found, solved and painted
right cell by cell through the command line's batch path, or gives its one-line error."""

from __future__ import annotations

import itertools
import json
import re
import tempfile
from pathlib import Path

import numpy as np
import pytest
from corpus import LIBREOFFICE_SOURCES, Case, Expect, build_corpus

from xlsolver.cli import main
from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.sheets.openpyxl_sheet import XlsxSheet, open_book
from xlsolver.workbook.address import parse_range, where
from xlsolver.workbook.batch import SolveOptions, solve_workbook
from xlsolver.workbook.layout import find_puzzles
from xlsolver.workbook.marks import PAPER, luminance

FOLDER = Path(tempfile.mkdtemp(prefix="xlsolver-corpus-"))
CASES = {c.name: c for c in build_corpus(FOLDER, libreoffice=False)}


def test_the_corpus_is_large_and_covers_every_writer():
    assert len(CASES) >= 40
    assert {c.writer for c in CASES.values()} >= {"openpyxl", "xlsxwriter"}


def _skip_unless_supported(case: Case) -> None:
    """Cases that need a back-end read main's openpyxl back end may not have yet."""
    missing = [m for m in case.needs if not hasattr(XlsxSheet, m)]
    if missing:
        pytest.skip(f"the openpyxl back end has no {', '.join(missing)} yet")


def painted(sheet, grid) -> tuple[np.ndarray, np.ndarray]:
    """(black, white) as painted: a visible fill, crossed diagonals."""
    fills = sheet.read_fills(grid)
    crossed = np.array(sheet.read_diagonals(grid), dtype=bool)
    black = np.array([[f is not None and luminance(f) < PAPER for f in r] for r in fills])
    return black & ~crossed, crossed


def common_cells(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """(always black, always white) over every solution, by brute force (tiny boards)."""
    h, w = puzzle.height, puzzle.width
    sols = [
        np.array(bits, dtype=bool).reshape(h, w)
        for bits in itertools.product((False, True), repeat=h * w)
        if puzzle.is_solution(np.array(bits, dtype=bool).reshape(h, w))
    ]
    return np.logical_and.reduce(sols), np.logical_and.reduce([~s for s in sols])


def check_painted(sheet, expect: Expect, grid) -> None:
    """The painted cells are the solution (unique) or exactly the common cells (several)."""
    black, white = painted(sheet, grid)
    puzzle = expect.puzzle()
    if expect.status == "unique":
        solution = np.array([[ch == "#" for ch in r] for r in expect.picture])
        assert puzzle.is_solution(black)
        assert (black == solution).all() and (white == ~solution).all()
    elif expect.status == "multiple":
        always_black, always_white = common_cells(puzzle)
        assert (black == always_black).all() and (white == always_white).all()


def run_case(case: Case, tmp_path: Path) -> None:
    """Solve one case through the batch path and check every puzzle it holds."""
    _skip_unless_supported(case)
    target = tmp_path / "painted.xlsx"
    options = SolveOptions(givens=case.givens, area=case.area)
    report = solve_workbook(case.path, target, options)
    if case.error:
        assert report.error or any(s.status == "invalid" for s in report.sheets)
        message = report.error or report.sheets[0].record.get("error", "")
        assert "\n" not in message and str(case.path) in message
        assert re.search(case.error, message.removeprefix(f"{case.path}: ")), message
        assert not target.exists()
        return
    assert not report.error, report.error
    got = {s.record["range"]: s for s in report.sheets}
    wanted = {where(e.sheet, parse_range(e.grid)[1]): e for e in case.puzzles}
    assert set(got) == set(wanted)
    area = parse_range(case.area) if case.area else (None, None)
    source = open_book(case.path)  # (a painted copy keeps no saved values for formulas)
    found = {f.where: f for f in find_puzzles(source, sheet=area[0], area=area[1])}
    book = open_book(target)
    for ref, expect in wanted.items():
        sheet_report = got[ref]
        assert sheet_report.status == expect.status, sheet_report.message
        assert list(sheet_report.record.get("ignored", [])) == list(expect.ignored)
        puzzle = expect.puzzle()
        assert (found[ref].puzzle.rows, found[ref].puzzle.cols) == (puzzle.rows, puzzle.cols)
        check_painted(book.sheet(expect.sheet), expect, found[ref].grid)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name, tmp_path):
    run_case(CASES[name], tmp_path)


@pytest.fixture(scope="module")
def libreoffice_cases(tmp_path_factory):
    """The corpus with a few workbooks saved again by LibreOffice."""
    from corpus import _libreoffice_cases

    folder = tmp_path_factory.mktemp("lo")
    cases = _libreoffice_cases(FOLDER, [CASES[n] for n in LIBREOFFICE_SOURCES])
    if not cases:
        pytest.skip("LibreOffice (soffice) is not installed")
    del folder
    return {c.name: c for c in cases}


@pytest.mark.slow
@pytest.mark.parametrize("name", LIBREOFFICE_SOURCES)
def test_saved_by_libreoffice(name, libreoffice_cases, tmp_path):
    case = libreoffice_cases.get(f"lo-{name}")
    assert case is not None, f"LibreOffice did not save {name}"
    run_case(case, tmp_path)


def test_json_reports_rulers_and_ranges(capsys):
    case = CASES["exporter-poi"]
    code = main(["solve", str(case.path), "--json", "--givens"])
    assert code == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["range"] == "Nonogram!F6:L12"
    assert record["ignored"] == ["A6:A12 row numbers", "F1:L1 column numbers"]
    assert main(["solve", str(case.path), "--givens"]) == 0  # and in words, under its line
    lines = capsys.readouterr().out.splitlines()
    assert "[Nonogram!F6:L12]" in lines[0]
    assert lines[1:3] == [
        "  not read as clues: A6:A12 row numbers",
        "  not read as clues: F1:L1 column numbers",
    ]


def test_range_option_picks_one_of_two_close_puzzles(tmp_path, capsys):
    case = CASES["two-too-close"]
    assert main(["solve", str(case.path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--range" in err and str(case.path) in err
    out = tmp_path / "one.xlsx"
    code = main(["solve", str(case.path), "--range", "Two!P1:AD20", "-o", str(out)])
    assert code == 0 and out.exists()
    assert "[Two!R6:Y11]" in capsys.readouterr().out


def test_json_lists_notes_and_an_ambiguous_number_names_its_cell(tmp_path, capsys):
    """Notes typed in line with the clues are set aside and listed; a number right beside
    the column clues is named with the --range that leaves it out, which then reads."""
    case = CASES["notes-under-row-clues"]
    assert main(["solve", str(case.path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (record["range"], record["status"]) == ("Puzzle!F6:O15", "unique")
    assert record["ignored"] == ["B17 note", "A45 note"]
    beside = CASES["notes-number-beside"]
    assert main(["solve", str(beside.path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Puzzle!P4" in err and "--range Puzzle!B3:O15" in err
    assert main(["solve", str(beside.path), "--range", "Puzzle!B3:O15", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unique"


@pytest.mark.parametrize("marks", ["fills", "ones", "squares", "hashes"])
def test_grading_reads_typed_marks_as_fills(tmp_path, marks):
    """A class typing 1s, ■s or #s is graded as one filling cells: same wrong cells."""
    from openpyxl import load_workbook
    from openpyxl.styles import PatternFill
    from test_teaching import HEART, make, picture

    from xlsolver.teaching import PUZZLE_SHEET
    from xlsolver.teaching.grading import grade_file, read_key

    key_path, _ = make(tmp_path, HEART, "heart")
    key = read_key(key_path)
    answer = picture(HEART).copy()
    answer[0, 0] = not answer[0, 0]  # two cells wrong
    answer[3, 4] = not answer[3, 4]
    top, left = find_puzzles(open_book(key_path), sheet=PUZZLE_SHEET)[0].grid[:2]
    wb = load_workbook(key_path)
    ws = wb[PUZZLE_SHEET]
    mark = {"ones": 1, "squares": "■", "hashes": "#"}.get(marks)
    for (r, c), black in np.ndenumerate(answer):
        cell = ws.cell(top + r, left + c)
        if black and mark is None:
            cell.fill = PatternFill("solid", start_color="FF4472C4", end_color="FF4472C4")
        elif black:
            cell.value = mark
        elif (r + c) % 3 == 0:
            cell.value = "×" if marks != "ones" else 0
    path = tmp_path / f"{marks}.xlsx"
    wb.save(path)
    grade = grade_file(path, key)
    assert not grade.error, grade.error
    assert sorted(grade.wrong_cells) == [(0, 0), (3, 4)]


ROUND_TRIP_LAYOUTS = {  # (row clues right, column clues below, one cell per line)
    "template": (False, False, False),
    "right-below": (True, True, False),
    "text-per-line": (False, False, True),
    "right": (True, False, False),
}


@pytest.mark.parametrize("layout", sorted(ROUND_TRIP_LAYOUTS))
def test_real_puzzles_are_found_in_every_band_layout(layout):
    """Real puzzles typed by hand (no borders, no 0 for an empty line) are read back with
    their clues, whatever side the bands stand on: rulers and corners are not fooled by
    clue runs such as 1 2 3 4 or bands whose last clues are all 1s."""
    from conftest import shared_path
    from corpus import put_bands, spaced
    from openpyxl import Workbook

    from xlsolver.formats import FormatError, read_puzzles
    from xlsolver.sheets.openpyxl_sheet import XlsxBook
    from xlsolver.workbook.layout import read_puzzles as find

    right, below, text = ROUND_TRIP_LAYOUTS[layout]
    files = sorted(shared_path("webpbn").glob("*.non"))[:40] + sorted(
        shared_path("jwilk").glob("*.nin")
    )
    checked = 0
    for path in files:
        try:
            puzzle = read_puzzles(path)[0]
        except FormatError:
            continue  # a file of several puzzles or a damaged one: not this test's matter
        if not isinstance(puzzle, Puzzle) or max(puzzle.width, puzzle.height) > 40:
            continue
        wb = Workbook()
        top = 2 if below else max(map(len, puzzle.cols)) + 2
        left = 2 if right else max(map(len, puzzle.rows)) + 2
        rows, cols = [tuple(r) for r in puzzle.rows], [tuple(c) for c in puzzle.cols]
        put_bands(
            wb.active, rows, cols, top, left, right_side=right, below=below,
            cell=spaced(" ") if text else None,
        )  # fmt: skip
        (found,) = find(XlsxBook(wb).sheets()[0])
        # without borders a grid ends with its last clue: compare what the clues reach
        assert found.puzzle.rows == puzzle.rows[: found.height], path.name
        assert found.puzzle.cols == puzzle.cols[: found.width], path.name
        checked += 1
    assert checked >= 20


def test_ticked_checkboxes_are_black_givens_and_unticked_ones_empty(tmp_path):
    """A grid of checkbox cells (Excel's and Google Sheets': TRUE and FALSE): a tick is
    a black mark, an unticked box a cell not marked yet; a wrong tick is blamed."""
    from corpus import HOUSE, pic
    from openpyxl import load_workbook

    from xlsolver.nonogram.cells import BLACK_CONC, BLANK

    case = CASES["marks-checkboxes"]
    (found,) = find_puzzles(open_book(case.path), givens=True)
    ticked = pic(HOUSE) & (np.arange(len(HOUSE))[:, None] < 6)
    assert (found.givens == np.where(ticked, BLACK_CONC, BLANK)).all()
    wb = load_workbook(case.path)
    white = np.argwhere(~pic(HOUSE))[-1]  # a white cell of a row not ticked yet
    cell = wb["Puzzle"].cell(6 + int(white[0]), 6 + int(white[1]))
    cell.value = True
    wrong = tmp_path / "wrong.xlsx"
    wb.save(wrong)
    (sheet,) = solve_workbook(wrong, None, SolveOptions(givens=True)).sheets
    assert sheet.status == "contradiction"
    assert sheet.record["discrepancies"] == [cell.coordinate]

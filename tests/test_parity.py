"""Every door gives the same answer: the openpyxl back end and LibreOffice Calc read the
same layout facts from a workbook, find the same grid and clues, and the Calc Solve
macro paints exactly the cells ``xlsolver solve`` paints.

Two checks per workbook sheet, over the sample workbooks (unique, several solutions,
contradiction, named ranges, students' sheets with givens, drawings without clues) and,
when ``tests/corpus.py`` is present, over every workbook of the layout corpus:

* reading: the facts the layout code reads (values, fills, font colours, number
  formats, formulas, borders, diagonals, merges, defined names) through
  ``openpyxl_sheet`` and through ``uno_sheet`` on the same file, and every puzzle found
  (grid rectangle, clues, givens) or the one-line error. One difference is by design:
  a formula the file saved no value for is computed by Calc, while the command line
  names its cell; such a sheet is compared on everything else;
* painting: the Solve macro run for real in headless LibreOffice (the script provider,
  as a button does), the document saved, and the painted cells read back one by one
  against the file ``xlsolver solve --sheet`` wrote.

One soffice server serves the whole module (the fixture of test_libreoffice_macros).
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from conftest import OPEN_HEART
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Border, Font, GradientFill, PatternFill, Side
from openpyxl.styles.colors import Color
from openpyxl.styles.fills import Stop
from test_buttons import SEVERAL, _template_sheet
from test_libreoffice_macros import SCRIPT, office  # noqa: F401 (the module's server)

from xlsolver.libreoffice import server as lo_server
from xlsolver.sheets.errors import WorkbookError
from xlsolver.sheets.openpyxl_sheet import open_book
from xlsolver.sheets.protocol import BLACK_STYLE, bounds
from xlsolver.sheets.uno_sheet import UnoBook
from xlsolver.workbook.batch import SolveOptions, solve_workbook
from xlsolver.workbook.layout import read_puzzles

pytestmark = pytest.mark.libreoffice

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "workbooks").glob("*.xlsx")) + sorted(
    (ROOT / "workbooks" / "class").glob("*.xlsx")
)
MARGIN = 2  # painted cells are compared this far beyond the used range
try:  # the layout corpus, once it is in the tests
    from corpus import PARITY_EXCLUDED, build_corpus
except ImportError:
    build_corpus, PARITY_EXCLUDED = None, {}


def sheet_names(path: Path) -> list[str]:
    """The worksheet names of a workbook."""
    return load_workbook(path, read_only=True).sheetnames


def cases(paths: list[Path]) -> list[tuple[Path, str]]:
    """(workbook, sheet) for every worksheet of every workbook."""
    return [(path, name) for path in paths for name in sheet_names(path)]


def facts(book, sheet) -> dict:
    """What the layout code can read from one sheet through one back end."""
    used = sheet.used_range()
    out: dict = {"used": used}
    if used is not None:
        out |= {
            "values": sheet.read_values(used),
            "fills": sheet.read_fills(used),
            "font colours": sheet.read_font_colours(used),
            "number formats": sheet.read_number_formats(used),
            "formulas": [[f is not None for f in row] for row in sheet.read_formulas(used)],
            "borders": sheet.read_borders(used),
            "heavy sides": sheet.read_heavy_sides(used),
            "diagonals": sheet.read_diagonals(used),
            "merged": sorted(sheet.merged_ranges()),
        }
    out["names"] = {k: v for k, v in book.defined_names().items() if v[0] == sheet.name}
    out["hidden"] = sheet.hidden()
    try:
        puzzles = read_puzzles(sheet, book, givens=True)
    except WorkbookError as exc:
        out["error"] = str(exc)
        return out
    out["puzzles"] = [
        {
            "grid": found.grid,
            "rows": found.puzzle.rows,
            "cols": found.puzzle.cols,
            "givens": found.givens.tolist(),
            "row clue cells": found.row_clue_cells,
            "col clue cells": found.col_clue_cells,
        }
        for found in puzzles
    ]
    return out


def assert_same_facts(path: Path, name: str, office) -> dict:  # noqa: F811
    """The facts of one sheet through openpyxl and through UNO are equal; openpyxl's."""
    xlsx = open_book(path, read_only=True)
    want = facts(xlsx, xlsx.sheet(name))
    doc = office.load(path, read_only=True)
    try:
        uno = UnoBook(doc)
        got = facts(uno, uno.sheet(name))
    finally:
        office.close(doc)
    unsaved = unsaved_formulas(want)
    if unsaved:  # Calc computes what the file did not save; the command line names the cell
        for i, j in unsaved:
            got["values"][i][j] = None
        for key in ("puzzles", "error"):
            want.pop(key, None), got.pop(key, None)
    for key in want.keys() | got.keys():
        assert got.get(key) == want.get(key), f"{path.name}!{name}: {key} differs"
    return want


def unsaved_formulas(facts_: dict) -> list[tuple[int, int]]:
    """(row, col) indices into the used range of formulas the file saved no value for."""
    if "formulas" not in facts_:
        return []
    return [
        (i, j)
        for i, row in enumerate(facts_["formulas"])
        for j, formula in enumerate(row)
        if formula and facts_["values"][i][j] is None
    ]


def painted(path: Path, name: str, rect: tuple[int, int, int, int]) -> list[list[tuple]]:
    """Per cell of a rectangle of a saved workbook: (fill colour, crossed?)."""
    sheet = open_book(path, read_only=True).sheet(name)
    return [
        list(zip(fills, crosses, strict=True))
        for fills, crosses in zip(sheet.read_fills(rect), sheet.read_diagonals(rect), strict=True)
    ]


def solve_in_calc(office, path: Path, name: str, out: Path) -> str:  # noqa: F811
    """Run the Solve macro on one sheet made active, as its button does; the message."""
    work = out.with_name("work-" + path.name)
    shutil.copy(path, work)
    doc = office.load(work)
    try:
        controller = doc.getCurrentController()
        controller.setActiveSheet(doc.getSheets().getByName(name))
        script = doc.getScriptProvider().getScript(SCRIPT.format("solve"))
        message = script.invoke((doc,), (), ())[0]
        office.save_as(doc, out)
    finally:
        office.close(doc)
    return message


def assert_same_paint(office, path: Path, name: str, tmp_path: Path, facts_: dict) -> None:  # noqa: F811
    """The Calc Solve macro paints, cell by cell, what ``xlsolver solve`` paints."""
    by_command = tmp_path / f"command-{path.stem}.xlsx"
    report = solve_workbook(path, by_command, SolveOptions(sheet=name))
    assert not report.error, report.error
    assert len(report.sheets) == len(facts_["puzzles"])
    by_calc = tmp_path / f"calc-{path.stem}.xlsx"
    message = solve_in_calc(office, path, name, by_calc)
    top, left, bottom, right = bounds([p["grid"] for p in facts_["puzzles"]] + [facts_["used"]])
    rect = (max(1, top - MARGIN), max(1, left - MARGIN), bottom + MARGIN, right + MARGIN)
    for sheet_report, found in zip(report.sheets, facts_["puzzles"], strict=True):
        top, left, bottom, right = found["grid"]
        size = f"{right - left + 1}×{bottom - top + 1}: {sheet_report.message} ("
        assert size in message, (message, sheet_report.message)
    assert painted(by_calc, name, rect) == painted(by_command, name, rect), message


@pytest.mark.parametrize(
    ("path", "name"), cases(SAMPLES), ids=lambda v: v.name if isinstance(v, Path) else v
)
def test_the_samples_read_and_paint_alike(office, tmp_path, path, name):  # noqa: F811
    """Each sample sheet: the same facts and puzzle through both back ends; where it
    holds a puzzle, the Calc button paints what the command line paints."""
    found = assert_same_facts(path, name, office)
    if "puzzles" in found:
        assert_same_paint(office, path, name, tmp_path, found)


def test_the_samples_cover_every_verdict():
    """The samples hold a unique puzzle, one with several solutions and a contradiction."""
    statuses = set()
    for path, name in cases(SAMPLES):
        report = solve_workbook(path, None, SolveOptions(sheet=name))
        statuses |= {s.status for s in report.sheets}
    assert {"unique", "multiple", "contradiction"} <= statuses, statuses


HEART = OPEN_HEART  # 11×10, its last boxed row empty


def boxed_without_zeros(path: Path, rows: list[str], spacer: int = 0) -> None:
    """A boxed grid whose empty lines have no clue cell at all (no ``0``): only the
    borders tell how far the grid reaches; ``spacer`` blank lines between clues and grid."""
    from xlsolver.nonogram.cells import solution_from_rows
    from xlsolver.nonogram.puzzle import Puzzle

    puzzle = Puzzle.from_solution(solution_from_rows(rows))
    depth = max(len(c) for c in (*puzzle.rows, *puzzle.cols))
    top = left = depth + 2 + spacer
    wb = Workbook()
    ws = wb.active
    ws.title = "Boxed"
    for j, clues in enumerate(puzzle.cols):
        for k, v in enumerate(clues):
            ws.cell(top - spacer - len(clues) + k, left + j, v)
    for i, clues in enumerate(puzzle.rows):
        for k, v in enumerate(clues):
            ws.cell(top + i, left - spacer - len(clues) + k, v)
    thin = Side(style="thin", color="FF000000")
    for i in range(puzzle.height):
        for j in range(puzzle.width):
            ws.cell(top + i, left + j).border = Border(left=thin, right=thin, top=thin, bottom=thin)
    wb.save(path)


def dated(path: Path) -> None:
    """A puzzle sheet and a sheet of what a spreadsheet turns typing into: dates (``3/1``),
    times, a decimal, a percentage, text colours and a formula with its result."""
    import datetime as dt

    _template_sheet(path, SEVERAL)
    wb = load_workbook(path)
    ws = wb.create_sheet("Typed")
    ws["A1"], ws["B1"] = dt.datetime(2026, 3, 1), dt.datetime(2026, 12, 31, 18, 30)
    ws["A1"].number_format, ws["B1"].number_format = "m/d", "yyyy-mm-dd hh:mm"
    ws["C1"], ws["D1"] = dt.time(7, 45), 3.1
    ws["C1"].number_format, ws["D1"].number_format = "h:mm", "0.0"
    ws["E1"], ws["E1"].number_format = 0.25, "0%"
    ws["A2"], ws["B2"] = "=1+2", "red"
    ws["B2"].font = Font(color="FFC00000")
    wb.save(path)
    # openpyxl saves no formula results: LibreOffice computes and saves them
    with lo_server.LibreOffice() as lo:
        doc = lo.load(path)
        try:
            lo.save_as(doc, path)
        finally:
            lo.close(doc)


def highlighted(path: Path) -> None:
    """Several solutions, a person's pale highlight on two cells they disagree on (the
    buttons wiped it, the command line kept it)."""
    from openpyxl.styles import PatternFill

    from xlsolver.nonogram.analyzer import solve as analyze

    puzzle, grid = _template_sheet(path, SEVERAL)
    first, second = analyze(puzzle, max_solutions=2).solutions[:2]
    wb = load_workbook(path)
    for r, c in list(zip(*(first != second).nonzero(), strict=True))[:2]:
        wb.active.cell(grid[0] + r, grid[1] + c).fill = PatternFill("solid", fgColor="FFFFFF99")
    wb.save(path)


BUILT = {
    "several-highlighted.xlsx": highlighted,
    "typed-values.xlsx": dated,
    "several-12x12.xlsx": lambda path: _template_sheet(path, SEVERAL),
    "heart-empty-last-row.xlsx": lambda path: boxed_without_zeros(path, HEART),
    "heart-spacer.xlsx": lambda path: boxed_without_zeros(path, HEART, spacer=1),
}


@pytest.mark.parametrize("built", sorted(BUILT))
def test_built_layouts_read_and_paint_alike(office, tmp_path, built):  # noqa: F811
    """Layouts the samples lack: several solutions that logic alone leaves open, a grid
    whose last row has no clue (its borders say where it ends), a spacer line."""
    path = tmp_path / built
    BUILT[built](path)
    for other in sheet_names(path)[1:]:
        assert_same_facts(path, other, office)
    name = sheet_names(path)[0]
    found = assert_same_facts(path, name, office)
    assert "puzzles" in found, found.get("error")
    assert_same_paint(office, path, name, tmp_path, found)


@pytest.mark.skipif(build_corpus is None, reason="tests/corpus.py is not in this checkout")
def test_the_corpus_reads_and_paints_alike(office, tmp_path_factory):  # noqa: F811
    """Every workbook of the layout corpus, through both back ends and both doors."""
    folder = tmp_path_factory.mktemp("corpus")
    build_corpus(folder)
    paths = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm"))
    paths = [p for p in paths if p.name not in PARITY_EXCLUDED]  # differ by nature
    assert paths, "the corpus wrote no workbooks"
    failures = []
    for path, name in cases(paths):
        try:
            found = assert_same_facts(path, name, office)
            if "puzzles" in found:
                assert_same_paint(office, path, name, tmp_path_factory.mktemp("paint"), found)
        except AssertionError as exc:
            failures.append(f"{path.name}!{name}: {str(exc).splitlines()[0]}")
    assert not failures, "\n".join(failures)


def test_two_puzzles_on_one_sheet_paint_alike(office, tmp_path):  # noqa: F811
    """A sheet of two puzzles: the Calc Solve button paints both, cell by cell as
    ``xlsolver solve`` does (it used to refuse, naming a command-line option)."""
    from test_libreoffice_macros import two_puzzles

    path = tmp_path / "two.xlsx"
    two_puzzles(path)
    report = solve_workbook(path, tmp_path / "command.xlsx", SolveOptions())
    assert [s.status for s in report.sheets] == ["unique", "unique"], report.error
    message = solve_in_calc(office, path, "Two", tmp_path / "calc.xlsx")
    for sheet_report in report.sheets:
        assert f": {sheet_report.message} (" in message, message
        assert sheet_report.record["range"] in message, message
    rect = (1, 1, 20, 37)
    assert painted(tmp_path / "calc.xlsx", "Two", rect) == painted(
        tmp_path / "command.xlsx", "Two", rect
    )


def test_a_value_hidden_under_a_merge_reads_alike(office, tmp_path):  # noqa: F811
    """Calc keeps what a cell held when it is merged into its neighbour and saves it in
    the .xlsx, hidden; openpyxl drops it. A number hidden so beside a row's clues is not
    a clue through either door (only a merge's top-left cell shows), and Calc's Solve
    button paints what the command line paints. (Calc read it as a clue before.)"""
    from xlsolver.nonogram.cells import solution_from_rows
    from xlsolver.nonogram.puzzle import Puzzle

    puzzle = Puzzle.from_solution(solution_from_rows(OPEN_HEART))
    top, left = 4, 2  # the grid's corner; column clues above, row clues right of it
    wb = Workbook()
    ws = wb.active
    ws.title = "Puzzle"
    ws["A1"] = "Row clues on the right"
    thin = Side(style="thin")
    for r in range(top, top + puzzle.height):
        for c in range(left, left + puzzle.width):
            ws.cell(r, c).border = Border(left=thin, right=thin, top=thin, bottom=thin)
    for j, clues in enumerate(puzzle.cols):
        for k, v in enumerate(clues or (0,)):
            ws.cell(top - len(clues or (0,)) + k, left + j, v)
    for i, clues in enumerate(puzzle.rows):
        for k, v in enumerate(clues or (0,)):
            ws.cell(top + i, left + puzzle.width + k, v)
    plain = tmp_path / "plain.xlsx"
    wb.save(plain)
    last = left + puzzle.width + len(puzzle.rows[0]) - 1  # row 1's last clue, 1-based
    doc = office.load(plain)
    try:
        sheet = doc.getSheets().getByName("Puzzle")
        sheet.getCellByPosition(last, top - 1).setValue(5)  # the cell right of it
        sheet.getCellRangeByPosition(last - 1, top - 1, last, top - 1).merge(True)
        assert sheet.getCellByPosition(last, top - 1).getValue() == 5  # kept, hidden
        path = tmp_path / "hidden.xlsx"
        office.save_as(doc, path)
    finally:
        office.close(doc)
    found = assert_same_facts(path, "Puzzle", office)
    assert found["puzzles"][0]["rows"] == puzzle.rows
    assert_same_paint(office, path, "Puzzle", tmp_path, found)


SWEEP_TINTS = (-1.0, -0.9, -0.75, -0.5, -0.499984740745262, -0.349986266670736, -0.25)
SWEEP_TINTS += (-0.249977111117893, -0.1, -0.05, 0.0, 0.05, 0.1, 0.25, 0.34998626667073579)
SWEEP_TINTS += (0.399975585192419, 0.4, 0.5, 0.59999389629810485, 0.6, 0.75, 0.7999816888943144)
SWEEP_TINTS += (0.8, 0.9, 1.0)
SWEEP_RGBS = ("FF0000", "0000FF", "808080", "123456", "C0504D", "FFC000", "010203", "FEFEFE")
SWEEP_PATTERNS = ("solid", "gray0625", "gray125", "lightGray", "mediumGray", "darkGray")
SWEEP_PATTERNS += tuple(
    w + k
    for w in ("light", "dark")
    for k in ("Horizontal", "Vertical", "Down", "Up", "Grid", "Trellis")
)
SWEEP_PAIRS = (  # a pattern's (fgColor, bgColor), None for one left out
    ("FFFF0000", "FFFFFFFF"),
    ("FF0000FF", "FFFFFF00"),
    ("FF00A000", None),
    (Color(theme=4, tint=0.4), Color(theme=9, tint=-0.25)),
    (None, "FFFF00FF"),
    (Color(auto=True), Color(auto=True)),
    ("FFFFFFFF", "FF000000"),
    (Color(indexed=10), Color(indexed=65)),
    ("80FF8000", "0000FFFF"),
    ("FFFF0000", Color(indexed=64, tint=0.5)),
    ("FFFF0000", Color(indexed=64)),  # Excel's unchosen background: see below
)
SWEEP_STOPS = (
    ("FF0000", "0000FF"),
    ("0000FF", "FF0000"),
    ("123456", "FEDCBA"),
    ("FF0000", "FFFF00", "0000FF"),
    ("4472C4", "ED7D31", "A5A5A5"),
    ("FF0000", "00FF00", "0000FF", "FFFF00"),
)
SWEEP_POSITIONS = {2: ((0.2, 0.8), (0.7, 0.3)), 3: ((0.5, 0, 1), (0.9, 0.1, 0.5))}
SWEEP_POSITIONS[4] = ((1, 0.75, 0.25, 0), (0.6, 0.4, 0.2, 0.8))


def _sweep_gradients() -> list[GradientFill]:
    """Linear and path gradients of 2, 3 and 4 stops, even and at odd positions, in
    several directions; theme and indexed stops; one stop alone."""
    out = []
    for colours in SWEEP_STOPS:
        out += [GradientFill(degree=d, stop=colours) for d in (0, 45, 90, 270)]
        out.append(
            GradientFill(type="path", stop=colours, left=0.5, right=0.5, top=0.5, bottom=0.5)
        )
        for at in SWEEP_POSITIONS[len(colours)]:
            stops = [Stop(c, p) for c, p in zip(colours, at, strict=True)]
            out += [GradientFill(stop=stops), GradientFill(type="path", degree=30, stop=stops)]
    themed = [Stop(Color(theme=5, tint=-0.5), 0), Stop(Color(theme=8, tint=0.6), 1)]
    indexed = [Stop(Color(indexed=12), 0), Stop(Color(theme=1), 1)]
    lone = [Stop("FF0000", 0.5)]
    return out + [GradientFill(stop=s) for s in (themed, indexed, lone)]


def colour_sweep(path: Path) -> tuple[tuple[int, int, int, int], set[tuple[int, int]]]:
    """A sheet of fills and font colours: every theme colour (0-11) and a few RGBs at
    every tint, the indexed palette and the system indexes, ARGBs with an alpha, every
    pattern over several colour pairs, gradients. Its rectangle, and the cells (row,
    col) of a pattern over Excel's unchosen background (indexed 64)."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Sweep"
    row = 1
    colours = [Color(theme=t, tint=x) for t in range(12) for x in SWEEP_TINTS]
    colours += [Color(rgb="FF" + rgb, tint=x) for rgb in SWEEP_RGBS for x in SWEEP_TINTS]
    colours += [Color(indexed=i) for i in (*range(66), 77, 78, 79, 80, 81, 100)]
    colours += [Color(theme=12), Color(indexed=10, tint=-0.5), Color(auto=True)]
    colours += [Color(rgb=argb) for argb in ("80FF0000", "00FF0000", "0012AB34", "7F00FF00")]
    for k, colour in enumerate(colours):
        row, col = 1 + k // 25, 1 + k % 25
        ws.cell(row, col).fill = PatternFill("solid", fgColor=colour)
        ws.cell(row, col + 26, "x").font = Font(color=colour)
    unchosen = set()
    for pattern in SWEEP_PATTERNS:
        row += 1
        for col, (fg, bg) in enumerate(SWEEP_PAIRS, start=1):
            given = {"fgColor": fg, "bgColor": bg}
            ws.cell(row, col).fill = PatternFill(pattern, **{k: v for k, v in given.items() if v})
            if pattern != "solid" and isinstance(bg, Color) and bg.indexed == 64 and not bg.tint:
                unchosen.add((row, col))
    for k, gradient in enumerate(_sweep_gradients()):
        ws.cell(row + 1 + k // 25, 1 + k % 25).fill = gradient
    ws.cell(1, 60, "x").font = Font(bold=True)  # no colour: automatic
    wb.save(path)
    return (1, 1, ws.max_row, ws.max_column), unchosen


def test_fill_and_font_colours_read_alike(office, tmp_path):  # noqa: F811
    """The openpyxl back end reads every fill and font colour of a sweep as Calc shows
    it (CellBackColor, CharColor): tints in Calc's whole-number HSL (theme 3 at -0.5 is
    #10243E, not #0F243E), patterns mixed in 128ths cut toward zero ("25% Gray" red on
    white #FFC0C0), a gradient as its first two stops by position half and half (red,
    yellow, blue is #FF8000; purple #7F0080). One difference is by design: a pattern
    over Excel's unchosen background (indexed 64) is read on white, as Excel shows it,
    where Calc takes the system's text colour and shows it darker."""
    path = tmp_path / "sweep.xlsx"
    rect, unchosen = colour_sweep(path)
    xlsx = open_book(path).sheet("Sweep")
    want = (xlsx.read_fills(rect), xlsx.read_font_colours(rect))
    doc = office.load(path, read_only=True)
    try:
        sheet = UnoBook(doc).sheet("Sweep")
        got = (sheet.read_fills(rect), sheet.read_font_colours(rect))
    finally:
        office.close(doc)
    differ = {
        (kind, rect[0] + i, rect[1] + j)
        for kind in (0, 1)
        for i, line in enumerate(want[kind])
        for j, value in enumerate(line)
        if got[kind][i][j] != value
    }
    assert differ == {(0, r, c) for r, c in unchosen}, sorted(differ)[:20]


class Counted:
    """A UNO object whose calls are counted (each one a round trip to LibreOffice); the
    UNO objects it hands out are counted too, and handed back to UNO as themselves."""

    def __init__(self, obj, counts: Counter):
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_counts", counts)

    def __getattr__(self, name: str):
        value = getattr(self._obj, name)
        counts = self._counts
        if not callable(value):  # a property read is a round trip too
            counts[name] += 1
            return _counted(value, counts)

        def call(*args):
            counts[name] += 1
            return _counted(value(*(a._obj if isinstance(a, Counted) else a for a in args)), counts)

        return call


def _counted(value, counts: Counter):
    """``value``, counted when it is a UNO object (a struct or a number is not)."""
    return Counted(value, counts) if hasattr(value, "queryInterface") else value


def test_reading_a_sheet_asks_calc_each_thing_once(office, tmp_path):  # noqa: F811
    """Finding the puzzle of small.xlsx through Calc took 1241 UNO calls, each a round
    trip to LibreOffice: Calc's used area, the distinct formats of a rectangle and the
    merged cells were asked for again by every read (110 merged-area lookups for 4
    merges, 17 format groupings for 4 rectangles), about 1.4 s a file in a batch of
    .ods files. They are asked once now and kept until the document changes; what is
    read is the same (the parity tests above), and a change is read back at once."""
    path = tmp_path / "small.xlsx"
    shutil.copy(ROOT / "workbooks" / "small.xlsx", path)
    doc = office.load(path)
    try:
        counts: Counter = Counter()
        book = UnoBook(Counted(doc, counts))
        sheet = book.sheet("Puzzle")
        (found,) = read_puzzles(sheet, book, givens=False)
        assert found.grid == (7, 5, 16, 14)
        assert counts["collapseToMergedArea"] <= 4, counts  # one per merged block
        assert counts["getUniqueCellFormatRanges"] <= 5, counts  # one per rectangle read
        assert sum(counts.values()) < 500, counts
        again = sum(counts.values())
        assert read_puzzles(sheet, book, givens=False)[0].grid == found.grid
        assert sum(counts.values()) - again < 100, counts  # the same reads: kept
        # every change is seen by the next read, through any UnoSheet of the book
        assert sheet.read_fills((7, 5, 7, 5)) == [[None]]
        book.sheet("Puzzle").paint([(7, 5)], BLACK_STYLE)
        assert sheet.read_fills((7, 5, 7, 5)) == [["#808080"]]
        assert (3, 10, 4, 11) not in sheet.merged_ranges()
        book.sheet("Puzzle").merge((3, 10, 4, 11))
        assert (3, 10, 4, 11) in sheet.merged_ranges()
        book.sheet("Puzzle").merge((18, 2, 19, 3))  # empty, beyond Calc's used area
        assert sheet.used_range() == (1, 1, 16, 14)
        sheet.write_values((21, 1), [[7]])  # the used area grows over it
        assert sheet.used_range() == (1, 1, 21, 14)
        assert (18, 2, 19, 3) in sheet.merged_ranges()
        assert sheet.read_values((21, 1, 21, 1)) == [[7]]
    finally:
        office.close(doc)

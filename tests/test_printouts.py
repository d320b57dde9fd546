"""Teaching print-outs as LibreOffice prints them: rendered to PDF in headless LibreOffice,
pages counted with pdfinfo and read back with pdftotext."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import HEART, picture

from xlsolver.cli import main
from xlsolver.hints.words import say
from xlsolver.libreoffice import documents
from xlsolver.libreoffice import server as lo_server
from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.teaching import Grade, write_hints, write_summary
from xlsolver.teaching.grading import STUDENTS_PER_PAGE

pytestmark = pytest.mark.libreoffice
# A 20×20 picture whose hints run to about a hundred steps with long cell lists.
SPIRAL = [
    "####################",
    "...................#",
    "##################.#",
    "#................#.#",
    "#.##############.#.#",
    "#.#............#.#.#",
    "#.#.##########.#.#.#",
    "#.#.#........#.#.#.#",
    "#.#.#.######.#.#.#.#",
    "#.#.#.#....#.#.#.#.#",
    "#.#.#.#.##.#.#.#.#.#",
    "#.#.#.#.#..#.#.#.#.#",
    "#.#.#.#.####.#.#.#.#",
    "#.#.#.#......#.#.#.#",
    "#.#.#.########.#.#.#",
    "#.#.#..........#.#.#",
    "#.#.############.#.#",
    "#.#..............#.#",
    "#.################.#",
    "#..................#",
]


@pytest.fixture(scope="module")
def office():
    """The run's LibreOffice; PDF tools must be there too."""
    reason = lo_server.available()
    if reason:
        pytest.skip(reason)
    if not (shutil.which("pdfinfo") and shutil.which("pdftotext")):
        pytest.skip("pdfinfo and pdftotext (poppler-utils) are needed")
    yield documents.server("print-outs")
    documents.shutdown()


def to_pdf(office, workbook: Path) -> Path:
    """Every sheet of a workbook printed to one PDF, as LibreOffice prints it."""
    doc = office.load(workbook, read_only=True)
    try:
        pdf = workbook.with_suffix(".pdf")
        office.save_as(doc, pdf, "calc_pdf_Export")
    finally:
        office.close(doc)
    return pdf


def pages(pdf: Path) -> int:
    """pdfinfo's page count."""
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    return int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1))


def page_size(pdf: Path, page: int) -> tuple[float, float]:
    """Width and height of a page in points."""
    info = subprocess.run(
        ["pdfinfo", "-f", str(page), "-l", str(page), str(pdf)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    w, h = re.search(rf"Page\s+{page} size:\s+([\d.]+) x ([\d.]+)", info).groups()
    return float(w), float(h)


def page_text(pdf: Path, page: int) -> str:
    """The text of one page."""
    return subprocess.run(
        ["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_steps_sheet_prints_one_page_wide(office, tmp_path, lang):
    """The step table: landscape, one page wide, every reason whole, the header on
    every page; then the Order sheet on one page; titles in the language asked."""
    from xlsolver.hints import hint_steps, reason

    puzzle = Puzzle.from_solution(picture(SPIRAL), title="Spiral")
    steps = hint_steps(puzzle)
    book = write_hints(puzzle, steps, lang=lang, title="Spiral")
    path = tmp_path / f"hints-{lang}.xlsx"
    book.save(path)
    pdf = to_pdf(office, path)
    total = pages(pdf)
    step_pages = total - 1  # the Order sheet prints on the last page
    assert 1 <= step_pages <= len(steps) // 12 + 1, (total, len(steps))
    text = "".join(page_text(pdf, p) for p in range(1, step_pages + 1))
    flat = re.sub(r"\s+", "", text)
    for step in steps:  # nothing cut off at the right edge: each reason's end is printed
        assert re.sub(r"\s+", "", reason(step, puzzle, lang))[-12:] in flat, reason(step, puzzle)
    for p in range(1, step_pages + 1):
        width, height = page_size(pdf, p)
        assert width > height, "the step table prints landscape"
        assert say(lang, "head_reason") in page_text(pdf, p), f"page {p} lacks the header"
    assert say(lang, "title_steps", title="Spiral") in page_text(pdf, 1)
    assert say(lang, "title_order", title="Spiral") in page_text(pdf, total)


def grades_of(count: int) -> list[Grade]:
    """A class of ``count`` graded students (names and scores as grade_files makes them)."""
    return [
        Grade(file=f"s{n:03d}.xlsx", name=f"Student{n:03d}", wrong=n % 7, cells=400)
        for n in range(1, count + 1)
    ]


@pytest.mark.parametrize("count", [12, 40, 41, 80, 95])
def test_class_summary_prints_forty_students_a_page(office, tmp_path, count):
    """One page per 40 students; each name on the same page as its score; the title and
    header on every page; the average on the last."""
    grades = grades_of(count)
    path = tmp_path / "summary.xlsx"
    write_summary(grades, path, title="The heart")
    pdf = to_pdf(office, path)
    assert pages(pdf) == -(-count // STUDENTS_PER_PAGE)
    for p in range(1, pages(pdf) + 1):
        text = page_text(pdf, p)
        assert "Class summary — The heart" in text and "score" in text
        lines = [line.split() for line in text.splitlines()]
        on_page = [g for g in grades if any(g.name in line for line in lines)]
        assert len(on_page) == min(STUDENTS_PER_PAGE, count - (p - 1) * STUDENTS_PER_PAGE)
        for g in on_page:  # the score stands on the name's own line
            (line,) = [line for line in lines if g.name in line]
            assert f"{g.score:g}" in line or str(g.score) in line, (g.name, line)
    assert "average" in page_text(pdf, pages(pdf))


def test_grade_titles_the_summary_with_the_puzzle_in_japanese(office, tmp_path, capsys):
    """``grade --lang ja``: the summary's title names the puzzle (not its sheet), its
    headers and the marked copy's note are Japanese, and it prints on one page."""
    drawing = tmp_path / "drawing.xlsx"
    from openpyxl import Workbook
    from openpyxl.styles import PatternFill

    wb = Workbook()
    ws = wb.active
    ws["A1"] = "ハート"
    fill = PatternFill(fill_type="solid", start_color="FF000000", end_color="FF000000")
    for r, row in enumerate(HEART[:8]):
        for c, ch in enumerate(row):
            if ch == "#":
                ws.cell(3 + r, 2 + c).fill = fill
    wb.save(drawing)
    key = tmp_path / "heart.xlsx"
    assert main(["make", str(drawing), "-o", str(key)]) == 0
    answer = tmp_path / "ann.xlsx"
    assert main(["solve", str(key), "--sheet", "Puzzle", "-o", str(answer)]) == 0
    summary = tmp_path / "summary.xlsx"
    graded = tmp_path / "graded"
    argv = ["grade", str(answer), "--key", str(key), "--out-dir", str(graded), "-o", str(summary)]
    assert main([*argv, "--lang", "ja"]) == 0
    pdf = to_pdf(office, summary)
    assert pages(pdf) == 1
    text = page_text(pdf, 1)
    assert "クラスのまとめ — ハート" in text and "名前" in text and "得点" in text
    assert "平均" in text
    from openpyxl import load_workbook

    marked = load_workbook(graded / "ann-graded.xlsx")["Puzzle"]
    notes = [c.value for row in marked.iter_rows() for c in row if isinstance(c.value, str)]
    assert "間違い0マス(ピンクで表示)" in notes


def draw(path: Path, rows: list[str], title: str = "", inks: dict[str, str] | None = None) -> Path:
    """A teacher's drawing: each character of ``rows`` but ``.`` a cell filled with its ink
    (``inks``, ``#`` black by default), the title in A1."""
    from openpyxl import Workbook
    from openpyxl.styles import PatternFill

    wb = Workbook()
    ws = wb.active
    if title:
        ws["A1"] = title
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                rgb = "FF" + (inks or {}).get(ch, "000000")
                ws.cell(3 + r, 2 + c).fill = PatternFill("solid", start_color=rgb, end_color=rgb)
    wb.save(path)
    return path


@pytest.mark.parametrize(
    "rows, inks",
    [
        (["#.#.#", ".....", "#....", ".#...", "....."], None),
        (["r.b.r", ".....", "r....", ".r...", "....b"], {"r": "C00000", "b": "2F5597"}),
    ],
)
def test_narrow_worksheet_keeps_the_verdict_off_paper(office, tmp_path, rows, inks):
    """A puzzle narrower than its name line: the line widens the print area, and the
    verdict notes (which cells differ, the givens to add) stay right of it, on screen only."""
    from openpyxl import load_workbook

    drawing = draw(tmp_path / "narrow-drawing.xlsx", rows, inks=inks)
    out = tmp_path / "narrow.xlsx"
    assert main(["make", str(drawing), "-o", str(out)]) == 0
    ws = load_workbook(out)["Puzzle"]
    notes = [c for row in ws.iter_rows() for c in row if str(c.value).startswith("verdict")]
    area = ws.print_area.split("!")[-1].replace("$", "")
    from openpyxl.utils.cell import range_boundaries

    assert notes and notes[0].column > range_boundaries(area)[2], (notes, area)
    pdf = to_pdf(office, out)
    text = page_text(pdf, 1)
    assert "Name:" in text
    assert "verdict" not in text and "differ" not in text and "suggested" not in text, text


def words(pdf: Path, page: int) -> list[tuple[str, float, float, float, float]]:
    """Each word of a page with its box in points (x0, y0, x1, y1), from pdftotext -bbox."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = re.findall(
        r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<', out
    )
    return [(w, float(a), float(b), float(c), float(d)) for a, b, c, d, w in found]


def inked(pdf: Path, page: int, box: tuple[float, float, float, float]) -> bool:
    """True when something is printed inside a box (points) of a page: text that a print
    area clips off is still in the PDF's text, but not on paper."""
    import numpy as np

    pgm = subprocess.run(
        ["pdftoppm", "-gray", "-r", "72", "-f", str(page), "-l", str(page), str(pdf)],
        capture_output=True,
        check=True,
    ).stdout
    magic, width, height, _, data = pgm.split(maxsplit=4)
    image = np.frombuffer(data, dtype=np.uint8)[: int(width) * int(height)]
    image = image.reshape(int(height), int(width))
    x0, y0, x1, y1 = (int(v) for v in box)
    return bool((image[y0 : y1 + 1, x0 : x1 + 1] < 128).any())


@pytest.mark.parametrize(
    "title",
    [
        "Spring term puzzle for class 3B: the little house",
        "三年二組のための春学期のパズル：小さな家",
    ],
)
def test_long_title_of_a_small_puzzle_prints_whole(office, tmp_path, title):
    """A title longer than a small puzzle is wide: the print area grows to hold it, on the
    puzzle sheet and the answer key, so its last letters are on paper."""
    drawing = draw(tmp_path / "drawing.xlsx", ["#.#.#", "#####", ".#.#.", "#...#", "##.##"], title)
    out = tmp_path / "small.xlsx"
    assert main(["make", str(drawing), "-o", str(out), "--mono"]) == 0
    pdf = to_pdf(office, out)
    assert pages(pdf) == 2
    for page in (1, 2):
        on_page = words(pdf, page)
        top = min(w[2] for w in on_page)
        _, x0, y0, x1, y1 = max((w for w in on_page if w[2] == top), key=lambda w: w[3])
        assert on_page[0][0] == title.split()[0]
        tail = (max(x0, x1 - 8), y0 + 2, x1, y1 - 2)  # the last letter or two
        assert inked(pdf, page, tail), f"page {page}: the title is cut off at the print area"


@pytest.mark.parametrize(
    ("source", "lang"),
    [
        ("webpbn-color-00047-map.xml", "en"),  # colour codes: {.*@}R2C4, narrow characters
        ("webpbn-00001-dancer.non", "ja"),
        ("taai2011-first3-questions.txt", "en"),  # the third: probing steps, long lists
    ],
)
def test_steps_rows_are_as_tall_as_calc_makes_them_and_not_much_taller(
    office, tmp_path, source, lang
):
    """Each step's row is written tall enough for its wrapped text (never fewer lines
    than Calc's own optimal height shows: the text would be cut off on paper), and at
    most 2 lines (one line for short rows) more, so pages are not wasted."""
    from conftest import DATA
    from openpyxl import load_workbook

    from xlsolver.teaching.hints_sheet import HEADER_ROW, LINE_HEIGHT

    out = tmp_path / "hints.xlsx"
    pick = ["--sheet", "3"] if source.startswith("taai") else []
    assert main(["hints", str(DATA / source), *pick, "--lang", lang, "-o", str(out)]) == 0
    ws = load_workbook(out).active
    doc = office.load(out)
    try:
        rows = doc.Sheets.getByIndex(0).getRows()
        checked = 0
        for r in range(HEADER_ROW + 1, ws.max_row + 1):
            ours = round(ws.row_dimensions[r].height / LINE_HEIGHT)
            row = rows.getByIndex(r - 1)
            row.OptimalHeight = True
            one = 13.8 if lang == "en" else 14.9  # Calc: one line of Carlito (or a CJK font)
            pitch = 11.2 if lang == "en" else 13.0  # and each further line
            calc = 1 + max(0, round((row.Height / 2540 * 72 - one) / pitch))
            assert calc <= ours <= calc + (1 if calc <= 2 else 2), (r, ours, calc)
            checked += 1
    finally:
        office.close(doc)
    assert checked >= 20

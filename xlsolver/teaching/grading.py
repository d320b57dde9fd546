"""Grading returned worksheets against the key: wrong cells per student, marked copies,
and a class summary.

Glossary
    answer  a student's grid: filled cells (any colour but white) or ``1``/``■`` black;
            crossed, ``x`` and empty cells white
    key     the intended solution: the answer-key sheet, else the puzzle's unique solution
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..nonogram.analyzer import solve
from ..nonogram.cells import BLACK, COLOUR
from ..nonogram.puzzle import Puzzle, PuzzleError
from ..nonogram.result import UNIQUE
from ..sheets.errors import WorkbookError
from ..sheets.openpyxl_sheet import new_book
from ..sheets.protocol import WRONG_STYLE, Sheet
from ..workbook.files import close_book, copy_name, open_book, save_new
from ..workbook.layout import SheetPuzzle, read_puzzle
from .drawing import read_marks
from .worksheet import KEY_SHEET, puzzle_sheet

ANSWER_BLACK_MARKS = frozenset({"1", "#", "■", "●"})
NAME_LABELS = frozenset({"name", "student", "名前", "氏名", "なまえ"})
NAME_SEARCH_COLUMNS = 8  # a name stands at most this many cells right of its label
SUMMARY_SHEET = "Summary"
SUMMARY_HEADERS = ("name", "file", "wrong cells", "score", "note")


@dataclass
class Key:
    """The puzzle and its intended solution."""

    puzzle: Puzzle
    solution: np.ndarray
    source: str


@dataclass
class Grade:
    """The grade of one returned workbook."""

    file: str
    name: str = ""
    wrong: int = 0
    cells: int = 0
    wrong_cells: list[tuple[int, int]] = field(default_factory=list)  # (r, c) from 0
    marked: str = ""  # the marked copy written
    error: str = ""
    note: str = ""

    @property
    def score(self) -> float | None:
        """Percent of cells right (None when the file could not be graded)."""
        if self.error or not self.cells:
            return None
        return round(100.0 * (self.cells - self.wrong) / self.cells, 1)


def read_key(path: str | os.PathLike, sheet: str | None = None) -> Key:
    """The key of a worksheet: its answer-key sheet, else the unique solution of its puzzle."""
    book = open_book(path, read_only=True)
    found = puzzle_sheet(book, sheet)
    picture = answer_key_picture(book, found)
    if picture is not None:
        return Key(found.puzzle, picture, f"{path} ({KEY_SHEET})")
    result = solve(found.puzzle, givens=found.givens)
    if result.status != UNIQUE:
        raise WorkbookError(
            f"{path}: the puzzle is {result.status}; a key needs one solution "
            f"(or an '{KEY_SHEET}' sheet)"
        )
    return Key(found.puzzle, result.solutions[0], str(path))


def answer_key_picture(book, found: SheetPuzzle) -> np.ndarray | None:
    """The picture on the workbook's answer-key sheet, when it solves this puzzle."""
    if KEY_SHEET not in [s.name for s in book.sheets()]:
        return None
    key_found = read_puzzle(book.sheet(KEY_SHEET), book, givens=True)
    picture = (key_found.givens & COLOUR) == BLACK
    if same_clues(key_found.puzzle, found.puzzle) and found.puzzle.is_solution(picture):
        return picture
    return None


def same_clues(a: Puzzle, b: Puzzle) -> bool:
    """True when two puzzles have the same row and column clues (titles aside)."""
    return a.rows == b.rows and a.cols == b.cols


def read_answer(sheet: Sheet, found: SheetPuzzle) -> np.ndarray:
    """A student's grid as booleans (True = black)."""
    return read_marks(sheet, found.grid, ANSWER_BLACK_MARKS)


def _label(value: object) -> str:
    """A cell's text as a label: normalised, lower case, without a trailing colon."""
    if not isinstance(value, str):
        return ""
    return unicodedata.normalize("NFKC", value).strip().rstrip(":").strip().lower()


def student_name(sheet: Sheet, fallback: str) -> str:
    """The text right of a ``Name:`` (名前) label, else the fallback (the file name)."""
    used = sheet.used_range()
    if used is None:
        return fallback
    values = sheet.read_values(used)
    for row in values:
        for j, v in enumerate(row):
            if _label(v) in NAME_LABELS:
                for name in row[j + 1 : j + 1 + NAME_SEARCH_COLUMNS]:
                    if name is not None and str(name).strip():
                        return str(name).strip()
    return fallback


def grade_file(
    path: str | os.PathLike, key: Key, out_dir: str | os.PathLike | None = None
) -> Grade:
    """Grade one workbook; with ``out_dir`` write a copy with the wrong cells marked."""
    path = Path(path)
    grade = Grade(file=str(path), name=path.stem)
    try:
        book = open_book(path)
    except (WorkbookError, OSError) as exc:
        grade.error = str(exc)
        return grade
    try:
        _grade_book(book, path, key, grade, out_dir)
    finally:
        close_book(book)
    return grade


def _grade_book(book, path: Path, key: Key, grade: Grade, out_dir) -> None:
    """Fill in a grade from an open workbook, writing the marked copy when asked."""
    try:
        found = puzzle_sheet(book)
        if not same_clues(found.puzzle, key.puzzle):
            raise WorkbookError(f"{path}: the clues differ from the key's ({key.source})")
        sheet = book.sheet(found.sheet)
        grade.name = student_name(sheet, path.stem)
        answer = read_answer(sheet, found)
    except (WorkbookError, PuzzleError, OSError) as exc:
        grade.error = str(exc)
        return
    wrong = answer != key.solution
    if wrong.any() and key.puzzle.is_solution(answer):
        wrong[:] = False  # another solution of a puzzle with several: it meets every clue
        grade.note = "a different solution that meets every clue"
    grade.cells = int(wrong.size)
    grade.wrong = int(wrong.sum())
    grade.wrong_cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(wrong), strict=True)]
    if out_dir is not None:
        sheet.paint(found.cells(wrong), WRONG_STYLE)
        note = (found.grid[0], found.grid[3] + 2)
        sheet.write_values(note, [[f"{grade.wrong} wrong cells (marked pink)"]])
        target = Path(out_dir) / copy_name(path.with_stem(f"{path.stem}-graded"))
        grade.marked = str(book.save(target))


def write_summary(grades: list[Grade], output: str | os.PathLike, title: str = "") -> Path:
    """The class summary workbook: one row per file with name, wrong cells and score."""
    book = new_book()
    sheet = book.sheets()[0]
    sheet.ws.title = SUMMARY_SHEET
    sheet.write_values((1, 1), [[title or "Class summary"]])
    sheet.write_values((3, 1), [list(SUMMARY_HEADERS)])
    rows = [
        [
            g.name,
            Path(g.file).name,
            None if g.error else g.wrong,
            g.score,
            g.error or g.note or None,
        ]
        for g in grades
    ]
    sheet.write_values((4, 1), rows)
    scores = [g.score for g in grades if g.score is not None]
    if scores:
        sheet.write_values((5 + len(rows), 1), [["average", None, None, round(np.mean(scores), 1)]])
    sheet.set_column_widths({1: 24, 2: 28, 3: 12, 4: 10, 5: 60})
    return save_new(book, output)


def grade_files(
    paths: list[str | os.PathLike],
    key_path: str | os.PathLike,
    *,
    out_dir: str | os.PathLike | None = None,
    summary: str | os.PathLike | None = None,
) -> list[Grade]:
    """Grade many workbooks against a key; marked copies to ``out_dir``, summary file."""
    key = read_key(key_path)
    grades = []
    for path in paths:
        if Path(path).resolve() == Path(key_path).resolve():
            continue
        grades.append(grade_file(path, key, out_dir))
    if summary is not None:
        write_summary(grades, summary, title=f"Class summary — {key.puzzle.title or key.source}")
    return grades

"""Teaching worksheets: a drawing becomes a verified puzzle, a printable sheet with its
answer key, a hints workbook, and grading of what the class hands back.

Every command is a function here (the CLI only parses arguments):

    make_worksheet(drawing, "puzzle.xlsx")         -> (Verdict, path)
    check_workbook("puzzle.xlsx")                  -> Verdict
    hints_workbook("puzzle.xlsx", "hints.xlsx")    -> steps
    grade_files(["a.xlsx"], "puzzle.xlsx", out_dir="graded", summary="summary.xlsx")
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..hints import HintsStopped, NoSolution, hint_steps
from ..limits import DEFAULT_TIME_LIMIT
from ..nonogram.cells import BLACK, COLOUR, WHITE
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle, PuzzleError
from ..nonogram.result import Step
from ..sheets.errors import WorkbookError
from ..workbook.files import is_workbook, open_book
from .drawing import Drawing, read_drawing, read_drawing_file
from .grading import Grade, Key, grade_file, grade_files, read_key, write_summary
from .hints_sheet import read_hint_steps, write_hints
from .image import read_image
from .puzzle_files import file_puzzles, file_title, filled_cells, goal_of, one_puzzle
from .verdict import Verdict, assess, suggest_givens
from .worksheet import (
    KEY_SHEET,
    PUZZLE_SHEET,
    VERDICT_SHEET,
    build_worksheet,
    puzzle_sheet,
    save_book,
    save_stopped_hints,
    sheet_title,
)

if TYPE_CHECKING:
    from ..sheets.openpyxl_sheet import XlsxBook
    from ..workbook.layout import SheetPuzzle

__all__ = [
    "KEY_SHEET",
    "PUZZLE_SHEET",
    "VERDICT_SHEET",
    "Drawing",
    "Grade",
    "Key",
    "Verdict",
    "assess",
    "check_found",
    "check_puzzle",
    "check_workbook",
    "file_puzzles",
    "goal_of",
    "grade_file",
    "grade_files",
    "hints_workbook",
    "make_worksheet",
    "read_drawing",
    "read_drawing_file",
    "read_hint_steps",
    "read_image",
    "read_key",
    "suggest_givens",
    "write_hints",
    "write_summary",
]


def make_worksheet(
    drawing: Drawing,
    output: str | os.PathLike,
    *,
    title: str = "",
    add_givens: bool = False,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    inputs=(),
    mono: bool = False,
) -> tuple[Verdict, Path]:
    """Clues from a drawing, its verdict, and the worksheet (puzzle, answer key) saved.

    A drawing in two colours or more makes a colour puzzle unless ``mono`` asks for the
    black-and-white one (:func:`_colour_worksheet`).
    """
    title = title or drawing.title
    if drawing.colours is not None and not mono:
        verdict, book = _colour_worksheet(drawing, title, add_givens, time_limit)
    else:
        verdict, book = _mono_worksheet(drawing, title, add_givens, time_limit)
    return verdict, save_book(book, output, inputs)


def _mono_worksheet(
    drawing: Drawing, title: str, add_givens: bool, time_limit: float | None
) -> tuple[Verdict, XlsxBook]:
    """The black-and-white puzzle of a drawing, its verdict and its worksheet book."""
    puzzle = Puzzle.from_solution(drawing.picture, title=title, meta=drawing.credits)
    verdict = assess(puzzle, drawing.picture, time_limit=time_limit)
    book = build_worksheet(puzzle, drawing.picture, verdict, title=title, add_givens=add_givens)
    return verdict, book


def check_workbook(
    path: str | os.PathLike,
    *,
    sheet: str | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Verdict:
    """Verdict and difficulty of the puzzle in a workbook (printed givens count), or of
    the one puzzle of a puzzle file (``sheet`` picks one of several by title or number).

    Suggested givens follow the workbook's answer key when it has one.
    """
    if not is_workbook(path):
        puzzle = one_puzzle(path, sheet).puzzle
        return check_puzzle(puzzle, goal_of(puzzle), time_limit=time_limit)
    book = open_book(path, read_only=True)
    return check_found(book, puzzle_sheet(book, sheet), time_limit=time_limit)


def check_found(
    book, found: SheetPuzzle, *, time_limit: float | None = DEFAULT_TIME_LIMIT
) -> Verdict:
    """Verdict and difficulty of one puzzle read from a workbook (printed givens count;
    suggested givens follow the workbook's answer key when it has one)."""
    from .grading import answer_key_picture

    givens = found.givens if found.givens is not None and found.givens.any() else None
    intended = answer_key_picture(book, found)
    verdict = check_puzzle(found.puzzle, intended, givens, time_limit=time_limit)
    verdict.filled = filled_cells(found)
    return verdict


def check_puzzle(
    puzzle: Puzzle | ColourPuzzle,
    intended=None,
    givens=None,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Verdict:
    """Verdict and difficulty of a puzzle (``intended``: the picture suggested givens
    follow; ``givens``: cells filled in on its grid)."""
    if isinstance(puzzle, ColourPuzzle):
        from .colour_verdict import assess_colour

        return assess_colour(puzzle, intended, givens=givens, time_limit=time_limit)
    return assess(puzzle, intended, givens=givens, time_limit=time_limit)


def hints_workbook(
    path: str | os.PathLike,
    output: str | os.PathLike,
    *,
    sheet: str | None = None,
    lang: str = "en",
    stages: int = 0,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> list[Step]:
    """The hints workbook of a puzzle sheet (or of the one puzzle of a puzzle file):
    steps from its givens to the solution.

    NoSolution (nothing written) when the clues, or the cells filled in on the grid,
    leave no solution; HintsStopped when the time limit stops the replay, after writing
    the steps found so far (when there are any) with a note saying so."""
    key = None
    if is_workbook(path):
        book = open_book(path, read_only=True)
        found = puzzle_sheet(book, sheet)
        title = sheet_title(book, found)
        key = _answer_key(book, found)
    else:
        found = one_puzzle(path, sheet)
        title = file_title(found, path)
    givens = found.givens if found.givens is not None and found.givens.any() else None
    if isinstance(found.puzzle, ColourPuzzle):
        from .colour_hints import colour_hints_workbook

        return colour_hints_workbook(found, output, path, title, lang, stages, time_limit, key)
    write = partial(write_hints, found.puzzle, lang=lang, title=title or found.sheet, stages=stages)
    try:
        steps = hint_steps(found.puzzle, key, givens=givens, time_limit=time_limit)
    except HintsStopped as exc:  # the time limit stopped it: not bad input
        save_stopped_hints(exc, write, output, path, lang, time_limit)
        raise
    except NoSolution as exc:
        raise NoSolution(with_givens(str(exc), givens, found.puzzle, time_limit)) from None
    except ValueError as exc:
        raise WorkbookError(f"{path}: {exc}") from None
    save_book(write(steps), output, [path])
    return steps


def _answer_key(book, found) -> np.ndarray | None:
    """The picture of a worksheet's Answer key when it solves the puzzle and agrees with
    the cells filled in on the grid: the answer a hint's guess follows (a puzzle with
    several solutions would otherwise be guessed towards the solver's first)."""
    from .grading import answer_key_picture

    if found.sheet == KEY_SHEET:
        return None
    try:
        key = answer_key_picture(book, found)
    except (WorkbookError, PuzzleError, KeyError):  # a key that does not read: no guide
        return None
    if key is None or found.givens is None:
        return key
    givens = np.asarray(found.givens)
    if isinstance(found.puzzle, ColourPuzzle):
        agrees = (givens & (1 << np.asarray(key, dtype=np.int64))) != 0
    else:
        colour = givens & COLOUR
        agrees = ~(((colour == BLACK) & ~key) | ((colour == WHITE) & key))
    return key if agrees.all() else None


def with_givens(message: str, givens, puzzle=None, time_limit: float | None = None) -> str:
    """A no-solution message, saying whether the cells filled in on the grid count:
    which of them every solution of the clues disagrees with (a black-and-white puzzle),
    or that the clues alone cannot be met, whatever is painted; else that the cells
    filled in are in play (they clash together)."""
    if givens is None:
        return message
    if puzzle is not None:
        from .verdict import no_solution_words

        words = no_solution_words(puzzle, givens, time_limit)
        if words:
            return words
    return f"{message} (with the cells already filled in on the grid: check them)"


def _colour_worksheet(
    drawing: Drawing, title: str, add_givens: bool, time_limit: float | None
) -> tuple[Verdict, XlsxBook]:
    """The colour puzzle of a colour drawing, its verdict and its worksheet book."""
    from ..nonogram.colour_puzzle import ColourPuzzle
    from .colour_verdict import assess_colour
    from .colour_worksheet import COLOUR_WRITERS

    picture = drawing.colours
    puzzle = ColourPuzzle.from_solution(picture, drawing.palette, title=title, meta=drawing.credits)
    verdict = assess_colour(puzzle, picture, time_limit=time_limit)
    book = build_worksheet(
        puzzle, picture, verdict, title=title, add_givens=add_givens, writers=COLOUR_WRITERS
    )
    return verdict, book

"""Puzzle files for the teaching commands: ``check`` and ``hints`` take a ``.non``,
``.nin``, TAAI batch, … as they take a sheet (a file of several puzzles: each is checked;
hints want one, picked with ``--sheet`` by its title or number)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np

from ..formats import FormatError, read_entries, read_puzzles, validated
from ..nonogram.cells import BLACK, COLOUR, given_count
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle, PuzzleError
from ..sheets.errors import WorkbookError
from ..workbook.layout import SeveralPuzzles, SheetPuzzle
from ..workbook.template import ATTRIBUTION_KEYS, read_attribution

MAX_NAMED = 5  # titles a "pick one" message lists
# A sheet name a spreadsheet gave, not the teacher: Sheet1, Tabelle1, Feuil1, Лист1, シート1…
DEFAULT_SHEET = re.compile(
    r"^(?:sheet|tabelle|feuil|hoja|foglio|planilha|folha|blad|arkusz|list|ark|munkalap"
    r"|taulukko|лист|シート|工作表|表)\s*\d*$",
    re.IGNORECASE,
)


def named_sheet(name: str) -> str:
    """A sheet's name when the teacher gave it (``Tree``), "" for a default one (``Sheet1``)."""
    return "" if DEFAULT_SHEET.match(name.strip()) else name


def file_puzzles(
    path: str | os.PathLike, name: str | None = None, *, lenient: bool = False
) -> list[tuple[int, Puzzle | ColourPuzzle | FormatError]]:
    """(number from 1, puzzle) for every puzzle of a file, or for the one ``name`` picks
    (its title, case aside, or its number); WorkbookError naming the file when none does.

    A puzzle that cannot be read or is invalid raises FormatError, or with ``lenient``
    takes its place as one (a batch goes on past it)."""
    if not lenient:
        puzzles = list(enumerate(read_puzzles(path), start=1))
    else:
        puzzles = [(i, validated(e, path)) for i, e in enumerate(read_entries(path), start=1)]
    if name is None:
        return puzzles
    wanted = name.strip().casefold()
    for i, puzzle in puzzles:
        title = getattr(puzzle, "title", "") or ""
        if title.strip().casefold() == wanted or wanted == str(i):
            return [(i, puzzle)]
    raise WorkbookError(f"{path}: no puzzle titled or numbered {name!r} ({_titles(puzzles)})")


def one_puzzle(
    path: str | os.PathLike, name: str | None = None, option: str = "--sheet"
) -> SheetPuzzle:
    """The one puzzle of a file (or the one ``name`` picks), as if found on a sheet with
    nothing filled in; WorkbookError asking for ``option`` when the file holds several."""
    puzzles = file_puzzles(path, name)
    if len(puzzles) > 1:
        raise WorkbookError(
            f"{path}: holds {len(puzzles)} puzzles; pick one with {option}, by its title or "
            f"number ({_titles(puzzles)})"
        )
    return as_found(*puzzles[0])


def as_found(number: int, puzzle: Puzzle | ColourPuzzle) -> SheetPuzzle:
    """A puzzle of a file as a :class:`SheetPuzzle` whose grid holds nothing yet."""
    grid = (1, 1, puzzle.height, puzzle.width)
    return SheetPuzzle(puzzle.title or f"Puzzle {number}", puzzle, grid)


def file_title(found: SheetPuzzle, path: str | os.PathLike) -> str:
    """The title of a puzzle file's puzzle: its own, else the file's name."""
    return found.puzzle.title or Path(path).stem


def _titles(puzzles: list[tuple[int, Puzzle | ColourPuzzle]]) -> str:
    """``1 Dancer, 2 Cat, … and 3 more``."""
    titles = [(i, getattr(p, "title", "")) for i, p in puzzles[:MAX_NAMED]]
    shown = [f"{i} {title}" if title else str(i) for i, title in titles]
    more = len(puzzles) - MAX_NAMED
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def filled_cells(found: SheetPuzzle) -> int:
    """How many grid cells were filled in on the sheet (read as givens)."""
    if found.givens is None:
        return 0
    colour = isinstance(found.puzzle, ColourPuzzle)
    return given_count(found.givens, found.puzzle.palette.k if colour else None)


def goal_of(puzzle: Puzzle | ColourPuzzle) -> np.ndarray | None:
    """The picture the file gives as the puzzle's solution (a ``goal``, checked against
    the clues when read): booleans, or colour numbers; None without one."""
    goal = puzzle.meta.get("goal")
    if goal is None:
        return None
    return np.asarray(goal, dtype=int if isinstance(puzzle, ColourPuzzle) else bool)


def puzzle_drawing(
    path: str | os.PathLike, name: str | None = None, time_limit: float | None = None
):
    """The picture of a puzzle file's puzzle as a drawing, so that ``make`` lays out its
    worksheet: the file's goal, else the first solution (PictureStopped when the time
    limit ran out first); WorkbookError when there is neither."""
    found = one_puzzle(path, name)
    return _drawing(path, found, goal_of(found.puzzle), file_title(found, path), None, time_limit)


def sheet_drawing(
    path: str | os.PathLike,
    name: str | None = None,
    time_limit: float | None = None,
    area: str | None = None,
):
    """The picture of a puzzle sheet given to ``make`` (clues around a grid, maybe
    solved): its answer key, else its grid when the cells painted there solve the clues,
    else the first solution; None when no puzzle reads from it (a drawing, whose marks
    may even look like clues gone wrong). ``area`` (``--range``): the puzzle whose grid
    lies in it, on a sheet that reads as puzzles (None: a drawing's cells)."""
    from ..workbook.files import close_book, open_book
    from .grading import answer_key_picture
    from .worksheet import puzzle_sheet, sheet_title

    book = open_book(path, read_only=True)
    try:
        try:
            found = puzzle_sheet(book, name) if area is None else _puzzle_in(book, name, area)
        except SeveralPuzzles:  # puzzles that read, on one sheet: no drawing
            raise
        except (WorkbookError, PuzzleError):  # no clues that read as a puzzle: a drawing,
            if _clues_gone_wrong(book, name):  # unless it is none: a typo in typed clues
                raise
            return None
        if found is None:
            return None
        picture = answer_key_picture(book, found)
        if (
            picture is None
            and found.givens is not None
            and not isinstance(found.puzzle, ColourPuzzle)
        ):
            painted = (np.asarray(found.givens, dtype=np.uint8) & COLOUR) == BLACK
            picture = painted if found.puzzle.is_solution(painted) else None
        title = sheet_title(book, found) or named_sheet(found.sheet) or Path(path).stem
        credits = read_attribution(book.sheet(found.sheet))
        return _drawing(path, found, picture, title, credits, time_limit)
    finally:
        close_book(book)


def _puzzle_in(book, name: str | None, area: str) -> SheetPuzzle | None:
    """The one puzzle whose grid and clues lie in a range (``Two!C3:P15``, as the refusal
    of a sheet of several puzzles names it) on a sheet that reads as puzzles as a whole;
    None for a drawing's cells (such a range was read as a drawing of the clue numbers),
    a grid alone included (a picture drawn there). Several puzzles in it are refused
    (:class:`SeveralPuzzles`), as check and hints refuse them."""
    from ..workbook.address import parse_range
    from ..workbook.layout import read_puzzles

    try:
        sheet, rect = parse_range(area)
        sheets = [book.sheet(sheet or name)] if sheet or name else book.sheets()
    except (KeyError, ValueError):
        return None
    inside = []
    for each in sheets:
        try:
            found = read_puzzles(each, book, givens=True)
        except WorkbookError:
            continue
        inside += [p for p in found if _holds_with_clues(rect, p)]
    if len(inside) > 1:
        from ..workbook.layout import several_puzzles

        raise several_puzzles(inside)
    return inside[0] if inside else None


def _holds_with_clues(rect, found: SheetPuzzle) -> bool:
    """True when ``rect`` holds the puzzle's grid and some of its clue cells."""
    from ..sheets.protocol import holds

    if not (holds(rect, found.grid[:2]) and holds(rect, found.grid[2:])):
        return False
    clues = [*found.row_clue_cells, *found.col_clue_cells]
    return any(holds(rect, cell[:2]) for cell in clues)


def _clues_gone_wrong(book, name: str | None) -> bool:
    """True for a sheet whose clues did not read that is no drawing either: it holds no
    drawing but numbers, or its "drawing" is only typed 1s with other numbers among
    them (the 1s of typed clues 2 1 and 6). Its error is the clues'. A drawing of fills
    or marks, or one with row or column numbers beside it (1 2 3 … in a line), stays a
    drawing."""
    from .drawing import read_drawing

    sheets = [book.sheet(name)] if name in {s.name for s in book.sheets()} else book.sheets()
    for sheet in sheets:
        try:
            drawing = read_drawing(sheet, book)
        except WorkbookError:
            continue
        return _typed_ones_only(sheet, drawing) and bool(_numbers(sheet, drawing.rect))
    return any(_numbers(sheet, sheet.used_range()) for sheet in sheets if sheet.used_range())


def _typed_ones_only(sheet, drawing) -> bool:
    """True when every black cell of a drawing is a typed 1 without a fill."""
    from ..workbook.marks import no_fill

    values, fills = sheet.read_values(drawing.rect), sheet.read_fills(drawing.rect)
    return all(
        _whole(values[r][c]) == 1 and no_fill(fills[r][c])
        for r, c in zip(*np.nonzero(drawing.picture), strict=True)
    )


def _numbers(sheet, rect) -> list[tuple[int, int]]:
    """The cells of ``rect`` holding a whole number other than 0 and 1 (typed as a
    number or as text) that is not part of a count (its neighbour left or above one
    less: row or column numbers)."""
    values = sheet.read_values(rect)
    found = []
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            number = _whole(value)
            if number is None or number in (0, 1):
                continue
            left = _whole(row[c - 1]) if c else None
            above = _whole(values[r - 1][c]) if r else None
            if number - 1 not in (left, above):
                found.append((r, c))
    return found


def _whole(value) -> int | None:
    """A cell's value as a whole number, else None (text of digits counts)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, (int, float)) and value == int(value):
        return int(value)
    return None


class PictureStopped(WorkbookError):
    """The user's time limit ran out before a puzzle's picture (its first solution) was found."""


class NoPicture(WorkbookError):
    """A puzzle without a solution: no picture to make a worksheet of (exit 1, as check)."""


def _drawing(
    path,
    found: SheetPuzzle,
    picture: np.ndarray | None,
    title: str,
    credits: dict | None = None,
    time_limit: float | None = None,
):
    """A Drawing of a puzzle's picture (its first solution when ``picture`` is None, found
    within ``time_limit``), with the puzzle's credits (author, copyright, licence);
    NoPicture when it has none, PictureStopped when the time ran out."""
    from ..nonogram.analyzer import solve
    from ..nonogram.result import TIMEOUT
    from .drawing import Drawing

    puzzle = found.puzzle
    if picture is None:
        result = solve(puzzle, max_solutions=1, time_limit=time_limit)
        if result.status == TIMEOUT and not result.solutions:
            raise PictureStopped(
                f"{path}: {found.sheet}: stopped: the time limit ran out before the puzzle's "
                f"picture (a solution) was found; nothing written"
            )
        if not result.solutions:
            reason = result.error or result.status
            raise NoPicture(f"{path}: {found.sheet}: no picture to make a worksheet of ({reason})")
        picture = np.asarray(result.solutions[0])
    colour = isinstance(puzzle, ColourPuzzle)
    return Drawing(
        picture=picture > 0 if colour else picture.astype(bool),
        title=title,
        sheet=found.sheet,
        rect=found.grid,
        colours=picture.astype(int) if colour else None,
        palette=puzzle.palette if colour else None,
        credits={k: str(puzzle.meta[k]) for k in ATTRIBUTION_KEYS if puzzle.meta.get(k)}
        | (credits or {}),
    )

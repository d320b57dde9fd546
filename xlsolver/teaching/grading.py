"""Grading returned worksheets against the key: wrong cells per student, marked copies,
and a class summary.

Glossary
    answer  a student's grid, read by the finder's marks (workbook.marks): filled cells
            (any colour but white), ``1``/``■``/``#``/``x``/``●`` black; crossed cells,
            ``0``/``×``/``・``/``.`` and empty cells white (so is a cell holding another
            number, ``2``: no mark). A colour puzzle's answer is
            read per cell as the ink its fill shows (the nearest ink, see ``colour_read``),
            or in an unfilled cell the legend's letter typed there
    key     the intended solution: the answer-key sheet, else the puzzle's unique solution
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..hints.words import check_lang, say
from ..nonogram.analyzer import solve
from ..nonogram.cells import BLACK, BLANK, COLOUR, every_colour
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle, PuzzleError, clue_text
from ..nonogram.result import TIMEOUT, UNIQUE
from ..sheets.errors import WorkbookError
from ..sheets.openpyxl_sheet import new_book
from ..sheets.protocol import WRONG_STYLE, Cell, CellFormat, Rect, Sheet, holds
from ..workbook.batch import with_file
from ..workbook.clues import BadClue, parse_clues
from ..workbook.colour_read import read_colour_cells, read_palette_row
from ..workbook.files import (
    check_out_folder,
    check_target,
    close_book,
    copy_name,
    is_workbook,
    open_book,
    out_folder,
    save_new,
)
from ..workbook.layout import (
    NoPuzzleError,
    SeveralPuzzles,
    SheetPuzzle,
    puzzles_named,
    read_puzzle,
    several_puzzles,
)
from ..workbook.marks import PAPER, luminance, mark_text, read_black, read_states
from .worksheet import KEY_SHEET, PUZZLE_SHEET, VERDICT_SHEET, puzzle_sheet, sheet_title

NAME_LABELS = frozenset({"name", "student", "名前", "氏名", "なまえ"})
NAME_SEARCH_COLUMNS = 8  # a name stands at most this many cells right of its label
SUMMARY_HEADERS = ("head_name", "head_score", "head_wrong", "head_file", "head_note")
SUMMARY_WIDTHS = {1: 26, 2: 8, 3: 12, 4: 24, 5: 40}  # name and score side by side
SUMMARY_HEADER_ROW = 3
STUDENTS_PER_PAGE = 40
TYPED_LINES = 2  # clues differing in more lines than this are another puzzle's, no typo
SUMMARY_MARGINS = {"top": 0.6, "bottom": 0.6, "header": 0.3, "footer": 0.3}  # inches


def given_cells(puzzle: Puzzle | ColourPuzzle, givens: np.ndarray) -> np.ndarray:
    """Where a worksheet prints a given: a black or white state, or a colour-set state
    narrowed from every colour (an open colour cell holds them all, not BLANK)."""
    if isinstance(puzzle, ColourPuzzle):
        return np.asarray(givens) != every_colour(puzzle.palette.k)
    return np.asarray(givens) != BLANK


@dataclass
class Key:
    """The puzzle and its intended solution."""

    puzzle: Puzzle
    solution: np.ndarray
    source: str
    title: str = ""  # the puzzle's title as the worksheet shows it
    givens: np.ndarray | None = None  # cells printed on the worksheet (uint8 states)

    def solves(self, answer: np.ndarray) -> bool:
        """True when an answer meets every clue and every printed given: a solution of
        the puzzle the students were given (of one with several, another than the key's)."""
        if not self.puzzle.is_solution(answer):
            return False
        if self.givens is None:
            return True
        given = given_cells(self.puzzle, self.givens)  # the key agrees with every given
        return bool((answer[given] == self.solution[given]).all())


@dataclass
class Grade:
    """The grade of one returned workbook."""

    file: str
    name: str = ""
    wrong: int = 0
    cells: int = 0
    wrong_cells: list[tuple[int, int]] = field(default_factory=list)  # (r, c) from 0
    marked: str = ""  # the marked copy written
    left_out: dict[str, int] = field(default_factory=dict)  # parts the marked copy lacks
    error: str = ""
    note: str = ""

    @property
    def score(self) -> float | None:
        """Percent of cells right (None when the file could not be graded)."""
        if self.error or not self.cells:
            return None
        return round(100.0 * (self.cells - self.wrong) / self.cells, 1)


def read_key(
    path: str | os.PathLike, sheet: str | None = None, time_limit: float | None = None
) -> Key:
    """The key of a worksheet: its answer-key sheet, else the unique solution of its puzzle,
    found within ``time_limit`` (a puzzle file's puzzle too: ``sheet`` picks one of several
    by title or number)."""
    if not is_workbook(path):
        from .puzzle_files import file_title, goal_of, one_puzzle

        found = one_puzzle(path, sheet, option="--key-sheet")
        title = file_title(found, path)
        goal = goal_of(found.puzzle)  # the file's own answer, as an answer-key sheet
        if goal is not None:
            return Key(found.puzzle, goal, f"{path} (goal)", title)
        return _solved_key(found.puzzle, None, path, title, time_limit)
    book = open_book(path, read_only=True)
    try:
        found = puzzle_sheet(book, sheet)
    except SeveralPuzzles as exc:  # grade picks the key's puzzle with --key-sheet
        message = str(several_puzzles(exc.puzzles, "--key-sheet"))
        raise WorkbookError(with_file(str(path), message)) from None
    except NoPuzzleError as exc:  # a drawing given as the key, most likely
        raise WorkbookError(
            f"{with_file(str(path), str(exc))}; the key is the worksheet make wrote, "
            f"not the drawing"
        ) from None
    except (WorkbookError, PuzzleError) as exc:
        raise WorkbookError(with_file(str(path), str(exc))) from None
    title = sheet_title(book, found) or Path(path).stem
    picture = answer_key_picture(book, found)
    givens = found.givens
    givens = givens if givens is not None and given_cells(found.puzzle, givens).any() else None
    if picture is not None:
        return Key(found.puzzle, picture, f"{path} ({KEY_SHEET})", title, givens)
    return _solved_key(found.puzzle, givens, path, title, time_limit)


def _solved_key(puzzle, givens, path, title: str, time_limit: float | None = None) -> Key:
    """The key of a puzzle with exactly one solution; WorkbookError naming the file if not
    (or when the time limit ran out first)."""
    result = solve(puzzle, givens=givens, time_limit=time_limit)
    if result.status == TIMEOUT:
        raise WorkbookError(
            f"{path}: stopped: the time limit ran out before the key's one solution was "
            f"proved; give the worksheet make wrote (its '{KEY_SHEET}' sheet) or a longer "
            f"--time-limit"
        )
    if result.status != UNIQUE:
        raise WorkbookError(
            f"{path}: the puzzle is {result.status}; a key needs one solution "
            f"(or an '{KEY_SHEET}' sheet)"
        )
    return Key(puzzle, result.solutions[0], str(path), title, givens)


def answer_key_picture(book, found: SheetPuzzle) -> np.ndarray | None:
    """The picture on the workbook's answer-key sheet, when it solves this puzzle."""
    if KEY_SHEET not in [s.name for s in book.sheets()]:
        return None
    key_found = read_puzzle(book.sheet(KEY_SHEET), book, givens=True)
    if isinstance(key_found.puzzle, ColourPuzzle):  # the inks painted on the key
        sheet = book.sheet(KEY_SHEET)
        picture = read_colour_cells(sheet, key_found.grid, key_found.puzzle.palette)
        good = (picture >= 0).all() and same_clues(key_found.puzzle, found.puzzle)
        return picture if good and found.puzzle.is_solution(picture) else None
    picture = (key_found.givens & COLOUR) == BLACK
    if same_clues(key_found.puzzle, found.puzzle) and found.puzzle.is_solution(picture):
        return picture
    return None


def same_clues(a: Puzzle, b: Puzzle) -> bool:
    """True when two puzzles have the same row and column clues (titles aside)."""
    return a.rows == b.rows and a.cols == b.cols


def read_answer(sheet: Sheet, found: SheetPuzzle, key: Key | None = None) -> np.ndarray:
    """A student's grid as booleans (True = black); for a colour puzzle the ink of each
    cell's fill (0 unfilled or crossed, -1 a fill of no ink: always wrong). An ``x``
    typed beside filled cells may be a cross or a black mark: the reading that solves
    the puzzle, else the one nearer the ``key``, is the student's."""
    if isinstance(found.puzzle, ColourPuzzle):
        inks = read_colour_cells(sheet, found.grid, found.puzzle.palette, own_shades=True)
        return with_typed_letters(sheet, found, inks)
    black = read_black(sheet, found.grid)
    crosses = crosses_beside_fills(sheet, found.grid)
    if not crosses:
        return black
    crossed = read_black(sheet, found.grid, white=crosses)
    if key is None:
        return crossed
    solving = [answer for answer in (crossed, black) if key.solves(answer)]  # another
    if solving:  # solution of a puzzle with several counts right, whichever reading
        return solving[0]
    return min((crossed, black), key=lambda answer: int((answer != key.solution).sum()))


def with_typed_letters(sheet: Sheet, found: SheetPuzzle, inks: np.ndarray) -> np.ndarray:
    """A colour answer with the letters of the sheet's legend (``a``, ``b`` as the clues
    show them, ``3a``) typed in unfilled cells read as their inks."""
    palette = found.puzzle.palette
    legend = {letter for _, letter in read_palette_row(sheet, found.grid) if letter}
    legend &= set(palette.letters[1:])
    if not legend:
        return inks
    out = inks.copy()
    for (r, c), value in np.ndenumerate(np.array(sheet.read_values(found.grid), dtype=object)):
        letter = _typed_letter(value, legend)
        if out[r, c] == 0 and letter is not None:
            out[r, c] = palette.ink(letter)
    return out


def _typed_letter(value: object, legend: set[str]) -> str | None:
    """The legend letter a cell holds: ``a``, ``A`` (when the legend has no ``A`` of its
    own) or a clue's form ``3a``; None for anything else."""
    match = re.fullmatch(r"\d*\s*([^\W\d_])", value.strip()) if isinstance(value, str) else None
    if match is None:
        return None
    letter = match.group(1)
    if letter in legend:
        return letter
    return letter.lower() if letter.lower() in legend and letter.upper() == letter else None


def crosses_beside_fills(sheet: Sheet, grid: Rect) -> frozenset[str]:
    """``{"x"}`` when a student filled cells and typed ``x`` in others: there it may
    rule a cell out, as a cross does (alone, ``x`` is a black mark, as solve reads it)."""
    fills = [f for row in sheet.read_fills(grid) for f in row]
    values = [v for row in sheet.read_values(grid) for v in row]
    filled = [_painted(f) for f in fills]
    typed = [mark_text(v) == "x" and not f for v, f in zip(values, filled, strict=True)]
    return frozenset({"x"}) if any(filled) and any(typed) else frozenset()


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
                        return " ".join(str(name).split())  # "  Cho  Sato " → "Cho Sato"
            typed = _typed_after_label(v)
            if typed:
                return typed
    return fallback


def _typed_after_label(value: object) -> str:
    """The name typed into the label's own cell (``Name: Ann Lee``, ``名前：山田``), else ""."""
    if not isinstance(value, str):
        return ""
    text = unicodedata.normalize("NFKC", value).strip()
    label, colon, rest = text.partition(":")
    if colon and label.strip().lower() in NAME_LABELS and rest.strip():
        return " ".join(rest.split())
    return ""


def grade_file(
    path: str | os.PathLike,
    key: Key,
    out_dir: str | os.PathLike | None = None,
    lang: str = "en",
    copy: str | None = None,
) -> Grade:
    """Grade one workbook; with ``out_dir`` write a copy with the wrong cells marked
    (named ``copy``, by default the file's name with ``-graded``)."""
    path = Path(path)
    grade = Grade(file=str(path), name=path.stem)
    try:
        book = open_book(path)
    except (WorkbookError, OSError) as exc:
        grade.error = str(exc)
        return grade
    try:
        _grade_book(book, path, key, grade, out_dir, lang, copy or graded_name(path))
    finally:
        close_book(book)
    return grade


def _grade_book(book, path: Path, key: Key, grade: Grade, out_dir, lang: str, copy: str) -> None:
    """Fill in a grade from an open workbook, writing the marked copy when asked."""
    try:
        found, sheet = read_hand_in(book, key)
        if not same_clues(found.puzzle, key.puzzle):
            raise WorkbookError(f"{path}: the clues differ from the key's ({key.source})")
        grade.name = student_name(sheet, path.stem)
        answer = read_answer(sheet, found, key)
    except (WorkbookError, PuzzleError, OSError) as exc:
        grade.error = _clues_against_key(book, key) or str(exc)
        return
    wrong = answer != key.solution
    marked = read_marked(sheet, found.grid, answer)  # the student's marks, read or inks
    aside = printed(key)  # the printed givens: no marks of the student's
    if wrong.any() and key.solves(answer):
        wrong[:] = False  # another solution of a puzzle with several: clues and givens met
        grade.note = say(lang, "other_solution")
    elif not (marked & ~aside).any():  # blank, or elsewhere
        elsewhere = marks_elsewhere(book, found, aside)
        grade.note = say(lang, "marks_elsewhere", sheet=elsewhere) if elsewhere else ""
        grade.note = grade.note or say(lang, "empty_grid")
    unread = _unread_note(sheet, found, lang, marked)
    if unread and grade.note == say(lang, "empty_grid"):
        grade.note = ""  # not empty: marked in a way that is not read
    grade.note = "; ".join(filter(None, [grade.note, unread, _view_note(sheet, found, lang)]))
    grade.cells = int(wrong.size)
    grade.wrong = int(wrong.sum())
    grade.wrong_cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(wrong), strict=True)]
    if out_dir is not None:
        try:
            sheet.paint(found.cells(wrong), WRONG_STYLE)
        except WorkbookError as exc:  # a protected sheet: graded, its copy not marked
            refused = say(lang, "not_marked", reason=str(exc))
            grade.note = "; ".join(filter(None, [grade.note, refused]))
            return
        note = (found.grid[0], found.grid[3] + 2)
        sheet.write_values(note, [[say(lang, "marked_wrong", count=grade.wrong)]])
        grade.marked = str(book.save(Path(out_dir) / copy))
        grade.left_out = dict(getattr(book, "left_out", {}))  # text boxes openpyxl drops


class HandInView:
    """A hand-in's sheet read as the key's puzzle: numbers other than 0/1 typed in grid
    cells (``stray``) read as empty, and with ``unpaint`` no fills nor font colours
    outside the grid (the clue cells as typed, whatever a brush slipping off the grid
    left on them)."""

    def __init__(self, sheet: Sheet, grid: Rect, unpaint: bool, stray: frozenset[Cell]):
        self.sheet = sheet
        self.grid = grid
        self.unpaint = unpaint
        self.stray = stray

    def __getattr__(self, name: str):
        return getattr(self.sheet, name)

    def _blank(self, rect: Rect, read, where) -> list[list]:
        """``read(rect)`` with None in the cells ``where`` holds True for."""
        out = read(rect)
        for i, row in enumerate(out):
            for j in range(len(row)):
                if where((rect[0] + i, rect[1] + j)):
                    row[j] = None
        return out

    def _off_grid(self, cell: Cell) -> bool:
        """True outside the grid when the view takes the colours off the clue cells."""
        return self.unpaint and not holds(self.grid, cell)

    def read_values(self, rect: Rect) -> list[list[object]]:
        """Values, the stray numbers in the grid as empty cells."""
        return self._blank(rect, self.sheet.read_values, self.stray.__contains__)

    def read_fills(self, rect: Rect) -> list[list[str | None]]:
        """Fills (of the grid's cells only, with ``unpaint``)."""
        return self._blank(rect, self.sheet.read_fills, self._off_grid)

    def read_font_colours(self, rect: Rect) -> list[list[str | None]]:
        """Font colours (of the grid's cells only, with ``unpaint``)."""
        return self._blank(rect, self.sheet.read_font_colours, self._off_grid)


def read_hand_in(book, key: Key) -> tuple[SheetPuzzle, Sheet]:
    """A hand-in's puzzle and the sheet to read its answer from. A number typed in a grid
    cell (a pupil counting) is no mark: the cell reads as empty. Against a black-and-white
    key, clue cells painted over (a stroke that slipped off the grid) make no colour
    puzzle: the sheet is read without the fills off its grid. Either when the clues are
    then the key's."""
    mono_key = not isinstance(key.puzzle, ColourPuzzle)
    try:
        found = puzzle_sheet(book)
    except SeveralPuzzles as exc:  # no option picks a hand-in's puzzle: say what it is
        raise WorkbookError(
            f"{puzzles_named(exc.puzzles)}; a hand-in is a copy of the worksheet of the key, "
            "with its one puzzle"
        ) from None
    except (WorkbookError, PuzzleError):
        plain = _as_the_key_reads(book, key)
        if plain is None:
            raise
        return plain
    if mono_key and isinstance(found.puzzle, ColourPuzzle):
        return _as_the_key_reads(book, key) or (found, book.sheet(found.sheet))
    return found, book.sheet(found.sheet)


def _as_the_key_reads(book, key: Key) -> tuple[SheetPuzzle, Sheet] | None:
    """The Puzzle sheet read through a HandInView, when its clues are then the key's
    (None otherwise)."""
    try:
        sheet = book.sheet(PUZZLE_SHEET)
        grid = read_puzzle(sheet, book, check=False).grid
        mono_key = not isinstance(key.puzzle, ColourPuzzle)
        view = HandInView(sheet, grid, mono_key, stray_numbers(sheet, grid))
        found = read_puzzle(view, book, givens=True)
    except (KeyError, WorkbookError, PuzzleError):
        return None
    return (found, view) if same_clues(found.puzzle, key.puzzle) else None


def stray_numbers(sheet: Sheet, grid: Rect) -> frozenset[Cell]:
    """The grid's cells holding a number that is no mark (``2``, not ``0`` or ``1``)."""
    out = set()
    for i, row in enumerate(sheet.read_values(grid)):
        for j, value in enumerate(row):
            if value is not None and mark_text(value) is None and _number(value):
                out.add((grid[0] + i, grid[1] + j))
    return frozenset(out)


NAMED_UNREAD = 5  # cells named in the note on marks not read, then how many more


def _unread_note(sheet: Sheet, found: SheetPuzzle, lang: str, marked: np.ndarray) -> str:
    """Text typed in the grid that is neither a number nor read as a mark (``marked``: a
    colour's letter is), ``?`` or a word, said with its cells: read as unmarked ("" for
    none)."""
    from ..workbook.address import where

    cells: list[Cell] = []
    texts: list[str] = []
    grid = found.grid
    for i, row in enumerate(sheet.read_values(grid)):
        for j, value in enumerate(row):
            if isinstance(value, str) and value.strip() and not marked[i, j]:
                if not _number(value):
                    cells.append((grid[0] + i, grid[1] + j))
                    texts += [] if value.strip() in texts else [value.strip()]
    if not cells:
        return ""
    named = ", ".join(where(found.sheet, c) for c in cells[:NAMED_UNREAD])
    more = len(cells) - NAMED_UNREAD
    named += f" … (+{more})" if more > 0 else ""
    text = ", ".join(f"“{t}”" for t in texts[:3]) + (" …" if len(texts) > 3 else "")
    return say(lang, "unread_marks", text=text, cells=named)


def _number(value: object) -> bool:
    """True for a value that reads as clue numbers."""
    try:
        return bool(parse_clues(value))
    except BadClue:
        return False


def _view_note(sheet: Sheet, found: SheetPuzzle, lang: str) -> str:
    """What a HandInView passed over, said: stray numbers, fills on the clues ("" for
    none)."""
    if not isinstance(sheet, HandInView):
        return ""
    from ..workbook.address import where

    notes = []
    if sheet.stray:
        cells = ", ".join(where(found.sheet, c) for c in sorted(sheet.stray))
        notes.append(say(lang, "stray_numbers", cells=cells))
    painted = _painted_clues(sheet.sheet, found) if sheet.unpaint else []
    if painted:
        cells = ", ".join(where(found.sheet, c) for c in painted)
        notes.append(say(lang, "clue_fills", cells=cells))
    return "; ".join(notes)


def _painted_clues(sheet: Sheet, found: SheetPuzzle) -> list[Cell]:
    """The clue cells of a puzzle that a fill shows on."""
    cells = []
    for rect in [*found.row_clue_cells, *found.col_clue_cells]:
        if rect[2] < rect[0] or rect[3] < rect[1]:
            continue
        for i, row in enumerate(sheet.read_fills(rect)):
            cells += [(rect[0] + i, rect[1] + j) for j, f in enumerate(row) if _painted(f)]
    return cells


def _painted(fill: str | None) -> bool:
    """True for a fill that shows on paper (not white, not a faint tint)."""
    return fill is not None and luminance(fill) < PAPER


def _clues_against_key(book, key: Key) -> str | None:
    """For a returned sheet whose clues do not add up (a number typed among them): the
    first line whose clues differ from the key's, naming its clue cells, or, when more
    than TYPED_LINES lines differ, how many (another puzzle); None when the sheet does
    not read even so, or its lines match the key's."""
    from ..hints.words import line_words
    from ..workbook.address import where

    try:
        sheet = book.sheet(PUZZLE_SHEET)
        found = read_puzzle(sheet, book, check=False)
    except (KeyError, WorkbookError, PuzzleError):
        return None
    ours, theirs = found.puzzle, key.puzzle
    if (ours.width, ours.height) != (theirs.width, theirs.height):
        return None
    if isinstance(ours, ColourPuzzle) != isinstance(theirs, ColourPuzzle):
        colour = isinstance(ours, ColourPuzzle)
        mine = "a colour puzzle" if colour else "a black-and-white puzzle"
        keys = "a black-and-white one" if colour else "a colour one"
        return (
            f"{found.where}: this sheet holds {mine}, the key ({key.source}) {keys}: grade "
            f"it against the key made with it (make --mono makes the black-and-white one)"
        )
    lines = [
        ("row", i, ours.rows[i], theirs.rows[i], found.row_clue_cells) for i in range(ours.height)
    ]
    lines += [
        ("column", i, ours.cols[i], theirs.cols[i], found.col_clue_cells) for i in range(ours.width)
    ]
    differ = [line for line in lines if line[2] != line[3]]
    if len(differ) > TYPED_LINES:  # not a slip: another puzzle of the same size
        return (
            f"{found.where}: the clues differ from the key's ({key.source}) in "
            f"{len(differ)} of {len(lines)} lines: another puzzle?"
        )
    if not differ:
        return None
    kind, i, got, want, rects = differ[0]
    place = where(found.sheet, rects[i]) if i < len(rects) else found.where
    if isinstance(ours, ColourPuzzle):  # 2b 3a, as the clues show them (not tuples)
        from ..nonogram.colour_puzzle import colour_clue_text

        read, keyed = colour_clue_text(got, ours.palette), colour_clue_text(want, theirs.palette)
        why = "a number typed among them, or a clue cell filled in another colour?"
    else:
        read, keyed, why = clue_text(got), clue_text(want), "a number typed among them?"
    return (
        f"{place}: {line_words((kind, i))} reads {read} where the key has {keyed}: the clues "
        f"differ from the key's ({why})"
    )


def read_marked(sheet: Sheet, grid: Rect, answer: np.ndarray | None = None) -> np.ndarray:
    """True where a cell of the grid holds a player's mark or fill, black or white (or,
    given the ``answer`` read, an ink: a colour's letter typed there)."""
    marked = read_states(sheet, grid, any_fill=True) != BLANK
    return marked if answer is None else marked | (np.asarray(answer) != 0)


def printed(key: Key) -> np.ndarray | bool:
    """The cells the worksheet printed as givens (False where it printed none): marks
    there are not the student's."""
    return False if key.givens is None else given_cells(key.puzzle, key.givens)


def marks_elsewhere(book, found: SheetPuzzle, aside: np.ndarray | bool = False) -> str | None:
    """The first other sheet (not the answer key, nor make's Verdict sheet) with marks in
    the grid's cells (those of ``aside``, the printed givens, aside): where a student may
    have written the answer instead."""
    ours = (found.sheet, KEY_SHEET, VERDICT_SHEET)  # the sheets make wrote beside it
    for other in book.sheets():
        if other.name not in ours and (read_marked(other, found.grid) & ~aside).any():
            return other.name
    return None


def graded_name(path: str | os.PathLike) -> str:
    """The marked copy's file name: ``ann.xlsx`` → ``ann-graded.xlsx``."""
    path = Path(path)
    return copy_name(path.with_stem(f"{path.stem}-graded"))


def graded_names(paths) -> dict:
    """Each path's marked copy name. Files of the same name (one folder per student, as
    a course site hands them out) get their folder's name in front: ``a-ann-graded.xlsx``.
    WorkbookError when two copies would still have one name."""
    plain = [graded_name(p) for p in paths]
    names = {}
    seen: dict[str, object] = {}
    for path, name in zip(paths, plain, strict=True):
        if plain.count(name) > 1:
            folder = Path(path).resolve().parent.name
            name = f"{folder}-{name}" if folder else name
        if name in seen and Path(seen[name]).resolve() != Path(path).resolve():
            raise WorkbookError(f"{path} and {seen[name]} would both be marked as {name}")
        seen[name] = path
        names[path] = name
    return names


def _shown_name(file: str, grades: list[Grade]) -> str:
    """A file's name in the summary, with its folder when another file has that name."""
    name = Path(file).name
    if sum(Path(g.file).name == name for g in grades) > 1:
        return f"{Path(file).resolve().parent.name}/{name}"
    return name


def write_summary(
    grades: list[Grade],
    output: str | os.PathLike,
    title: str = "",
    lang: str = "en",
    inputs=(),
) -> Path:
    """The class summary workbook: one row per file, name beside score, then the average.

    Printed one page wide and one page per 40 students, the title and header on each.
    """
    book = new_book()
    sheet = book.sheets()[0]
    sheet.ws.title = say(lang, "sheet_summary")
    sheet.write_values((1, 1), [[say(lang, "title_summary", title=title or "")]])
    sheet.format_cells([(1, 1)], CellFormat(bold=True, font_size=14))
    head = SUMMARY_HEADER_ROW
    sheet.write_values((head, 1), [[say(lang, key) for key in SUMMARY_HEADERS]])
    sheet.format_cells([(head, c) for c in range(1, 6)], CellFormat(bold=True, bottom="thin"))
    rows = [
        [
            g.name,
            g.score,
            None if g.error else g.wrong,
            _shown_name(g.file, grades),
            g.error or g.note or None,
        ]
        for g in grades
    ]
    sheet.write_values((head + 1, 1), rows)
    last = head + len(rows)
    scores = [g.score for g in grades if g.score is not None]
    if scores:
        last += 1
        sheet.write_values((last, 1), [[say(lang, "average"), round(np.mean(scores), 1)]])
        sheet.format_cells([(last, 1), (last, 2)], CellFormat(bold=True, top="thin"))
    sheet.set_column_widths(SUMMARY_WIDTHS)
    for side, inches in SUMMARY_MARGINS.items():
        setattr(sheet.ws.page_margins, side, inches)
    sheet.set_print_setup(
        (1, 1, max(last, head), 5),
        fit_to_page=False,
        fit_width=True,
        landscape=False,
        repeat_rows=(1, head),
        row_breaks=summary_breaks(len(rows)),
    )
    return save_new(book, output, inputs)  # never over a graded file or the key


def summary_breaks(students: int) -> list[int]:
    """Rows after which a new page starts: every STUDENTS_PER_PAGE students, while more
    students follow (the average stays with the last of them)."""
    first = SUMMARY_HEADER_ROW + 1
    return [first + n - 1 for n in range(STUDENTS_PER_PAGE, students, STUDENTS_PER_PAGE)]


def _check_summary(summary, inputs: list, out_dir) -> None:
    """WorkbookError when the summary must not be written (over an input, read-only, no
    folder); its folder may be ``out_dir``, made later."""
    from ..writes import WriteError, check_output

    folder = Path(summary).parent.resolve()
    if out_dir is not None and not Path(out_dir).exists() and folder == Path(out_dir).resolve():
        return  # a folder yet to be made holds nothing to write over
    try:
        check_output(summary, inputs)
    except WriteError as exc:
        raise WorkbookError(str(exc)) from None


def grade_files(
    paths: list[str | os.PathLike],
    key_path: str | os.PathLike,
    *,
    out_dir: str | os.PathLike | None = None,
    summary: str | os.PathLike | None = None,
    lang: str = "en",
    key_sheet: str | None = None,
    time_limit: float | None = None,
) -> list[Grade]:
    """Grade many workbooks against a key; marked copies to ``out_dir``, summary file.
    ``key_sheet`` picks the key's sheet (of a puzzle file: one puzzle by title or number).

    The summary is titled with the puzzle's title; ``lang`` words its titles, headers
    and notes (``en``, ``ja``).
    """
    check_lang(lang)
    names = graded_names(paths)  # refused before anything is written when two clash
    if out_dir is not None:
        check_out_folder(out_dir)
    if summary is not None:
        check_target(summary)  # a name no workbook can have: refused before any folder
        _check_summary(summary, [*paths, key_path], out_dir)
    key = read_key(key_path, key_sheet, time_limit)
    answers = [p for p in paths if Path(p).resolve() != Path(key_path).resolve()]
    if not answers:
        raise WorkbookError(f"{key_path} is the key itself: no student's workbook to grade")
    if out_dir is not None:  # made once nothing refused the run
        out_folder(out_dir)
    grades = [grade_file(path, key, out_dir, lang, names[path]) for path in answers]
    if summary is not None:
        write_summary(grades, summary, title=key.title, lang=lang, inputs=[*paths, key_path])
    return grades

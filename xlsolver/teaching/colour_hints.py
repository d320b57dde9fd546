"""The hints workbook of a colour puzzle: the step table (cells as ``aR4C3``: the colour's
letter, ``.`` the background, ``{ab}`` a cell narrowed to those colours), the order grid
in the inks with each cell's step number, and stage sheets.

Reasons are worded per language like :mod:`xlsolver.hints.words`; a colour step is one
of: a line (every placement of its clues agrees on the cells), a probe (one colour
would leave a line without any placement) or a guess (the answer's colour).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..hints.words import line_words, rule_name
from ..nonogram.board import Timeout, deadline_after
from ..nonogram.cells import POSSIBLE, known_colour
from ..nonogram.colour_analyzer import next_colour_step
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.result import RULE_CONTRADICTION, RULE_GUESS, Step
from ..sheets.openpyxl_sheet import XlsxBook, new_book
from ..sheets.protocol import HIGHLIGHT_STYLE, WHITE_STYLE, CellFormat, LayoutSheet
from ..workbook.colour_paint import ink_style
from ..workbook.colour_template import write_colour_template
from ..workbook.template import TemplateLayout
from .hints_sheet import add_grid_sheets, where_words, write_steps_table
from .worksheet import grid_cell

REASONS = {
    "en": {
        "line": "{line} ({clues}): every way to place its clues agrees on these cells",
        "empty": "{line} has no blocks — all background",
        "full": "{line}: {clues} fills all {n} cells",
        "probe": "r{r}c{c} cannot be {colour}: with it a line would have no placement",
        "guess": "r{r}c{c}: neither one line nor trying one colour decides it — the answer "
        "has it {colour} (found by search)",
        "background": "background",
    },
    "ja": {
        "line": "{line}({clues}): 数字の置き方がすべてこれらのマスで一致する",
        "empty": "{line}: 塗るブロックがない — 全部背景",
        "full": "{line}: {clues} で{n}マスちょうど埋まる",
        "probe": "{r}行{c}列は{colour}ではない: そうするとある列・行に置き方がなくなる",
        "guess": "{r}行{c}列: 一本の線でも一色の仮定でも決まらない — 答えから{colour}とする(探索)",
        "background": "背景",
    },
}


def _colours(state: int, letters: str) -> str:
    """The letters of the colours a state still allows (``.`` the background)."""
    bits = int(state) & POSSIBLE
    return "".join(ch for i, ch in enumerate(letters) if bits >> i & 1)


def cell_code(r: int, c: int, state: int, letters: str) -> str:
    """``aR4C3`` for a cell of colour a, ``{ab}R4C3`` for a cell narrowed to a or b."""
    left = _colours(state, letters)
    mark = left if len(left) == 1 else "{" + left + "}"
    return f"{mark}R{r + 1}C{c + 1}"


def colour_reason(step: Step, puzzle: ColourPuzzle, lang: str = "en") -> str:
    """Why a colour step holds, in plain words."""
    words = REASONS.get(lang, REASONS["en"])
    letters = puzzle.palette.letters

    def name(bits: int) -> str:
        ink = known_colour(bits)
        return words["background"] if ink == 0 else letters[ink or 0]

    if step.rule == RULE_GUESS and step.cell is not None:
        r, c = step.cell
        return words["guess"].format(r=r + 1, c=c + 1, colour=name(int(step.assumed)))
    if step.rule == RULE_CONTRADICTION and step.cell is not None:
        r, c = step.cell
        return words["probe"].format(r=r + 1, c=c + 1, colour=name(int(step.assumed)))
    line = step.line
    clues = puzzle.clue_text(line) if line is not None else ""
    n = puzzle.width if line and line[0] == "row" else puzzle.height
    key = step.rule if step.rule in ("empty", "full") else "line"
    return words[key].format(line=line_words(line, lang) if line else "", clues=clues, n=n)


def _steps_sheet(
    book: XlsxBook,
    puzzle: ColourPuzzle,
    steps: list[Step],
    lang: str,
    title: str,
    note: str | None = None,
):
    """The step table of a colour puzzle (:func:`~.hints_sheet.write_steps_table`)."""
    letters = puzzle.palette.letters
    rows = [
        [
            n,
            where_words(step, lang),
            rule_name(step.rule, lang),
            " ".join(cell_code(r, c, s, letters) for r, c, s in step.cells),
            colour_reason(step, puzzle, lang),
        ]
        for n, step in enumerate(steps, 1)
    ]
    write_steps_table(book, rows, lang, title, freeze=False, note=note)


def _final(puzzle: ColourPuzzle, steps: list[Step]) -> tuple[np.ndarray, np.ndarray]:
    """Per cell: the colour it ends with (-1 open) and the step (from 1) that decided it."""
    colour = np.full((puzzle.height, puzzle.width), -1, dtype=np.int16)
    order = np.zeros((puzzle.height, puzzle.width), dtype=np.int32)
    for n, step in enumerate(steps, 1):
        for r, c, s in step.cells:
            ink = known_colour(int(s))
            if ink is not None and colour[r, c] < 0:
                colour[r, c], order[r, c] = ink, n
    return colour, order


def _at(layout, mask: np.ndarray) -> list[tuple[int, int]]:
    """Sheet cells where a grid mask is True."""
    return [grid_cell(layout, int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]


def _paint(sheet, layout, puzzle, colour, order, upto: int, new: range, highlight: bool) -> None:
    """Paint the cells decided by step ``upto``; those of ``new`` steps show their numbers."""
    done = (order > 0) & (order <= upto)
    for ink in range(1, puzzle.palette.k + 1):
        sheet.paint(_at(layout, done & (colour == ink)), ink_style(puzzle.palette, ink))
    fresh = np.isin(order, list(new)) & done
    white = done & (colour == 0)
    sheet.paint(_at(layout, white & ~fresh), WHITE_STYLE)
    if highlight:
        sheet.paint(_at(layout, white & fresh), HIGHLIGHT_STYLE)
    cells = []
    for r, c in zip(*np.nonzero(fresh), strict=True):
        cell = grid_cell(layout, int(r), int(c))
        sheet.write_values(cell, [[int(order[r, c])]])
        cells.append(cell)
    sheet.format_cells(
        cells, CellFormat(horizontal="center", vertical="center", font_size=7, shrink=True)
    )


def write_colour_hints(
    puzzle: ColourPuzzle,
    steps: list[Step],
    *,
    lang: str = "en",
    title: str = "",
    stages: int = 0,
    note: str | None = None,
) -> XlsxBook:
    """The step table, the order grid (step numbers on the inks) and ``stages`` stage sheets
    (``note`` below the steps: why they stop short of the solution)."""
    title = title or puzzle.title or "Puzzle"
    book = new_book()
    _steps_sheet(book, puzzle, steps, lang, title, note)
    colour, order = _final(puzzle, steps)

    def grid(sheet: LayoutSheet, grid_title: str) -> TemplateLayout:
        return write_colour_template(sheet, puzzle, title=grid_title)

    def paint(sheet: LayoutSheet, layout: TemplateLayout, upto: int, new, highlight: bool):
        _paint(sheet, layout, puzzle, colour, order, upto, new, highlight)

    add_grid_sheets(book, steps, lang, title, stages, grid, paint)
    return book


def colour_hints_workbook(
    found, output, path, title: str, lang: str, stages: int, time_limit, key=None
):
    """Replay a colour puzzle sheet from its printed givens and save its hints workbook
    (``key``: the Answer key's picture, which a guess follows)."""
    from ..hints import HintsStopped, NoSolution
    from ..nonogram.analyzer import solve
    from ..nonogram.result import TIMEOUT
    from . import with_givens
    from .colour_verdict import colour_hint_steps
    from .puzzle_files import filled_cells
    from .worksheet import save_book, save_stopped_hints

    result = solve(found.puzzle, max_solutions=1, givens=found.givens, time_limit=time_limit)
    if result.status == TIMEOUT:
        raise HintsStopped(f"stopped: the time limit ({time_limit} s) ran out")
    if not result.solutions:
        message = result.error or "no solution"
        givens = found.givens if filled_cells(found) else None
        raise NoSolution(with_givens(message, givens, found.puzzle, time_limit))
    write = partial(
        write_colour_hints, found.puzzle, lang=lang, title=title or found.sheet, stages=stages
    )
    try:
        answer = result.solutions[0] if key is None else key
        steps = colour_hint_steps(found.puzzle, answer, givens=found.givens, time_limit=time_limit)
    except HintsStopped as exc:
        save_stopped_hints(exc, write, output, path, lang, time_limit)
        raise
    save_book(write(steps), output, [path])
    return steps


MAX_HINT_STEPS = 200  # steps replayed at most for one press of the Hint button


def paint_colour_hint(
    sheet, found, time_limit: float | None = None
) -> tuple[str, bool, list[tuple[int, int]]]:
    """The Hint button on a colour sheet: from the painted cells, replay the easiest
    steps until one decides a cell's colour, paint those cells; (message, ok, cells).

    A sheet records only decided colours, so steps that merely narrow cells are taken
    together with the step that then decides one; the message gives the last reason.
    :class:`HintsStopped`, with nothing painted, when probing outlasts ``time_limit``.
    """
    from ..hints import HintsStopped
    from ..workbook.colour_paint import paint_flagged
    from .colour_verdict import _apply, _open

    puzzle = found.puzzle
    grid = np.array(found.givens, dtype=np.uint32)
    if not _open(grid):  # every cell painted: right, or the first line it breaks in red
        broken = _broken_line(puzzle, grid)
        if broken is None:
            return "the grid is complete: nothing left to deduce", True, []
        kind, i = broken
        rows = range(puzzle.height) if kind == "col" else [i]
        cols = range(puzzle.width) if kind == "row" else [i]
        cells = [found.cell(r, c) for r in rows for c in cols]
        paint_flagged(sheet, found, [(r, c) for r in rows for c in cols])
        return f"the painted cells break {line_words(broken)}", False, cells
    before = grid.copy()
    message = ""
    deadline = deadline_after(time_limit)
    for _ in range(MAX_HINT_STEPS):
        if not _open(grid):
            break
        try:
            step = next_colour_step(puzzle, grid, deadline=deadline)
        except Timeout:
            raise HintsStopped.no_step(time_limit, "each open cell's colours") from None
        if step is None:
            break
        message = colour_reason(step, puzzle)
        if step.rule == "discrepancy":
            cells = [found.cell(r, c) for r, c, _ in step.cells]
            paint_flagged(sheet, found, [(r, c) for r, c, _ in step.cells])
            return f"the painted cells break {message}", False, cells
        _apply(grid, step)
        if _decided(grid, before).any():
            break
    decided = _decided(grid, before)
    if not decided.any():
        if not _open(before):
            return "the grid is complete: nothing left to deduce", True, []
        return "no further deduction from the painted cells", False, []
    cells = []
    for r, c in zip(*np.nonzero(decided), strict=True):
        ink = known_colour(int(grid[r, c]))
        style = ink_style(puzzle.palette, ink) if ink else WHITE_STYLE
        sheet.paint([found.cell(int(r), int(c))], style)
        cells.append(found.cell(int(r), int(c)))
    return message, True, cells


def _broken_line(puzzle, grid: np.ndarray):
    """The first line a fully painted colour grid breaks, None when it meets the clues."""
    bits = grid & np.uint32(POSSIBLE)
    colours = np.zeros(grid.shape, dtype=np.int64)
    for r, c in zip(*np.nonzero(bits), strict=True):
        colours[r, c] = int(bits[r, c]).bit_length() - 1
    bad = puzzle.check(colours)
    return bad[0] if bad else None


def _decided(grid: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Cells of one colour now that held more than one before."""

    def single(g: np.ndarray) -> np.ndarray:
        bits = g & np.uint32(POSSIBLE)
        return (bits != 0) & ((bits & (bits - np.uint32(1))) == 0)

    return single(grid) & ~single(before)

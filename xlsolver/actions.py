"""The four spreadsheet buttons — New grid, Solve, Hint, Clear — written once over the
sheet protocol; Excel (:mod:`xlsolver.excel`) and Calc (:mod:`xlsolver.libreoffice.macros`)
only open the book and show the :class:`Outcome`.

Glossary
    Outcome  what an action tells the person: one line, and whether it went wrong
    batch    cells painted with one call between two progress reports
    hint     exactly one more deduction painted, its reason in a note on its first cell
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .limits import MAX_SIDE
from .nonogram.cells import BLACK, BLANK, COLOUR, DISCREPANCY, WHITE, is_black, is_white
from .nonogram.colour_puzzle import ColourPuzzle
from .nonogram.puzzle import PuzzleError
from .nonogram.result import CONTRADICTION, INVALID, RULE_DISCREPANCY, TIMEOUT, Step
from .sheets.errors import WorkbookError
from .sheets.protocol import BLACK_STYLE, DISCREPANCY_STYLE, WHITE_STYLE, Book, Cell, Sheet

HINT_PREFIX = "xlsolver hint"  # notes this module writes start with it; Clear removes them
BATCHES = 20  # a solve is painted in about this many batches
MIN_BATCH = 40  # cells; fewer per batch and the painting itself gets slow
STYLE_OF = {BLACK: BLACK_STYLE, WHITE: WHITE_STYLE, DISCREPANCY: DISCREPANCY_STYLE}


@dataclass
class Outcome:
    """What an action tells the person."""

    message: str
    ok: bool = True
    painted: int = 0
    cells: list[Cell] = field(default_factory=list)


Action = Callable[[Book, Sheet], Outcome]


def guarded(action: Action, book: Book, sheet: Sheet) -> Outcome:
    """Run an action; a bad sheet or an unexpected failure becomes a one-line Outcome."""
    try:
        return action(book, sheet)
    except (WorkbookError, PuzzleError, KeyError, ValueError) as exc:
        return Outcome(_one_line(exc), ok=False)
    except Exception as exc:  # never a traceback in the user's face
        return Outcome(f"xlsolver failed: {type(exc).__name__}: {_one_line(exc)}", ok=False)
    finally:
        book.progress(None, "")


def _one_line(exc: BaseException) -> str:
    """The first line of an exception's message (KeyError's quotes removed)."""
    text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    return (str(text).splitlines() or [type(exc).__name__])[0]


def _layout():
    """The layout module of the workbook layer (imported when a button is pressed)."""
    from .workbook import layout

    return layout


def _check_unlocked(sheet: Sheet, puzzles) -> None:
    """WorkbookError naming the first locked grid cell of a protected sheet, before a
    button changes anything: the same cell from Solve, Hint and Clear."""
    from .workbook.answer import check_grid_unlocked

    for found in puzzles:
        check_grid_unlocked(sheet, found)


def _grid_cells(found) -> list[Cell]:
    """Every sheet cell of the puzzle's grid."""
    return found.cells(np.ones((found.height, found.width), dtype=bool))


def _remove_hint_notes(sheet: Sheet, found) -> None:
    """Delete the notes earlier hints left on the grid."""
    for cell, text in sheet.read_notes(found.grid).items():
        if text.startswith(HINT_PREFIX):
            sheet.set_note(cell, None)


@dataclass
class Share:
    """The part of the progress bar one puzzle of a sheet fills, and its name there."""

    start: float
    size: float
    name: str = ""

    def report(self, book: Book, fraction: float, message: str) -> None:
        """Progress within this puzzle's share, its range named when the sheet holds several."""
        where = f"{self.name}: " if self.name else ""
        book.progress(self.start + self.size * fraction, f"xlsolver: {where}{message}")


def solve(book: Book, sheet: Sheet) -> Outcome:
    """Solve every puzzle on the sheet as ``xlsolver solve`` does (the same cells painted:
    the solution, or the cells common to all solutions), showing the proved cells in
    trace order batch by batch first."""
    book.progress(0.0, "xlsolver: reading the puzzle")
    layout = _layout()
    try:
        puzzles = layout.read_puzzles(sheet, book)
    except layout.NoPuzzleError as no_clues:
        return _tile_pentomino(book, sheet, no_clues)
    layout.check_unmerged(book, puzzles)
    _check_unlocked(sheet, puzzles)
    if len(puzzles) == 1:
        return _solve_one(book, sheet, puzzles[0], Share(0.0, 1.0))
    outcomes = [
        _solve_one(book, sheet, found, Share(i / len(puzzles), 1 / len(puzzles), found.where))
        for i, found in enumerate(puzzles)
    ]
    return Outcome(
        "; ".join(f"{found.where} {o.message}" for found, o in zip(puzzles, outcomes, strict=True)),
        ok=all(o.ok for o in outcomes),
        painted=sum(o.painted for o in outcomes),
    )


def _solve_one(book: Book, sheet: Sheet, found, share: Share) -> Outcome:
    """Solve and paint one puzzle of the sheet; its outcome."""
    from .workbook.answer import answer

    share.report(book, 0.05, f"solving {found.width}×{found.height}")
    shown = [0]

    def show_trace(result) -> None:  # the cells to paint shown blank first, then in order
        from .workbook.paint import painted_mask

        sheet.unpaint(found.cells(painted_mask(result)))
        _remove_hint_notes(sheet, found)
        shown[0] = _paint_trace(book, sheet, found, result.steps, share)
        share.report(book, 0.98, "painting the answer")

    result, report = answer(
        sheet,
        found,
        time_limit=BUTTON_SECONDS,
        trace=True,
        progress=lambda f, m: share.report(book, 0.05 + 0.45 * (f or 0.0), m),
        before_paint=show_trace,
    )
    ok = result.status not in (INVALID, CONTRADICTION, TIMEOUT)
    message = f"{found.width}×{found.height}: {report.message} ({result.seconds:.2f} s)"
    if result.status == TIMEOUT:  # the spreadsheet waits on the button: it stops
        limit = f"{BUTTON_SECONDS:.0f} s"
        message += f"; the Solve button stops after {limit} (xlsolver solve has no limit)"
    return Outcome(message, ok=ok, painted=max(shown[0], report.black + report.white))


def _tile_pentomino(book: Book, sheet: Sheet, no_clues: Exception) -> Outcome:
    """A sheet without clues may hold a pentomino board: tile it and paint the pieces. A
    nonogram's sheet (:func:`_a_nonogram_sheet`) is no board: ``no_clues`` is the message."""
    from .pentomino.board import BoardError, SeveralBoards
    from .pentomino.sheet import named_board, paint_tiling, read_board
    from .pentomino.solver import tile

    if _a_nonogram_sheet(book, sheet):
        raise no_clues from None  # the clues are to be typed, or mended
    try:
        board = read_board(sheet, book)
    except SeveralBoards as exc:
        if _near_a_board(exc.largest):
            raise  # boards drawn, more than one: which to tile is the message
        raise no_clues from None  # a drawing in parts, most likely: say what make does
    except BoardError:
        raise no_clues from None  # neither a nonogram nor a pentomino board
    if not _near_a_board(len(board.cells)) and named_board(book, sheet) is None:
        raise no_clues from None  # a drawing (137 cells, a 14-cell banner): not a board
    book.progress(0.05, f"xlsolver: tiling {len(board.cells)} cells with pentominoes")
    result = tile(
        board,
        time_limit=PENTOMINO_SECONDS,
        progress=lambda f, m: book.progress(0.05 + 0.9 * (f or 0.0), f"xlsolver: {m}"),
    )
    if not result.solutions:
        why = "no tiling exists" if result.complete else "no tiling found in time"
        return Outcome(f"{board.where()}: {why}", ok=False)
    paint_tiling(sheet, board, result.solutions[0])
    return Outcome(
        f"{board.where()}: tiled with the 12 pentominoes ({result.seconds:.2f} s)",
        painted=len(board.cells),
    )


BOARD_SLACK = 10  # a board drawn a few cells off 60 is a board (its size the message)


def _near_a_board(cells: int) -> bool:
    """True for a count of marked cells a pentomino board drawn a little wrong could have
    (60 give or take BOARD_SLACK); a drawing far from it is told what make does."""
    from .pentomino.board import BOARD_CELLS

    return abs(cells - BOARD_CELLS) <= BOARD_SLACK


# Clue-like cells that make a sheet a nonogram's: a note beside a drawn board ("8×8",
# a date, "Tilings: 520", its 60 cells) is one or two, a band of clues many.
MIN_TYPED_CLUES = 3


def _a_nonogram_sheet(book: Book, sheet: Sheet) -> bool:
    """True for a sheet where no puzzle was found that is a nonogram's all the same, not
    a pentomino board: an empty template (New grid's, ``xlsolver new``'s), its grid
    boxed as a board is, or a sheet typed with clues that do not read, or with other
    numbers than 0 and 1 (row and column labels aside). A rectangle named
    ``PentominoBoard`` is a board whatever else the sheet holds."""
    from .pentomino.sheet import named_board, typed_clues
    from .workbook.template import looks_like_template

    if named_board(book, sheet) is not None:
        return False
    return looks_like_template(sheet, book) or len(typed_clues(sheet)) >= MIN_TYPED_CLUES


def _paint_trace(book: Book, sheet: Sheet, found, steps: list[Step], share: Share) -> int:
    """Paint the proved cells of the trace in order, in batches; the number painted."""
    order: list[tuple[int, int, int]] = []
    seen: set[tuple[int, int]] = set()
    for step in steps:
        if step.depth:
            continue  # assumed during a search, not proved
        for r, c, state in step.cells:
            if (r, c) not in seen and (is_black(state) or is_white(state)):
                seen.add((r, c))
                order.append((r, c, state & COLOUR))
    size = max(MIN_BATCH, -(-len(order) // BATCHES))
    for start in range(0, len(order), size):
        batch = order[start : start + size]
        for colour in (BLACK, WHITE):
            cells = [found.cell(r, c) for r, c, s in batch if s == colour]
            if cells:
                sheet.paint(cells, STYLE_OF[colour])
        done = start + len(batch)
        share.report(book, 0.5 + 0.48 * done / len(order), f"painted {done} cells")
    return len(order)


def hint(book: Book, sheet: Sheet) -> Outcome:
    """Paint exactly one more deduction from the cells painted so far, with its reason.

    On a sheet of several puzzles the hint goes to the first one (in reading order) with
    open cells and a deduction left, and its message names that puzzle's range.
    """
    book.progress(0.0, "xlsolver: looking for the next step")
    layout = _layout()
    puzzles = layout.read_puzzles(sheet, book, givens=True)
    layout.check_unmerged(book, puzzles)
    _check_unlocked(sheet, puzzles)
    for found in puzzles:
        _remove_hint_notes(sheet, found)
    stuck: Outcome | None = None
    for found in puzzles:
        if isinstance(found.puzzle, ColourPuzzle) or not _complete_and_right(found):
            outcome = _hint_one(book, sheet, found)
            if len(puzzles) > 1:
                outcome.message = f"{found.where}: {outcome.message}"
            if outcome.painted or outcome.ok or len(puzzles) == 1:
                return outcome
            stuck = stuck or outcome  # nothing to deduce here: the next puzzle may have
    if stuck is not None:
        return stuck
    return Outcome(
        f"the grid{'s are' if len(puzzles) > 1 else ' is'} complete: nothing left to deduce"
    )


def _complete_and_right(found) -> bool:
    """True when every cell of a black-and-white grid is painted and the picture meets
    the clues (a full grid that breaks them gets its discrepancy shown)."""
    states = found.givens & COLOUR
    return not np.any(states == BLANK) and found.puzzle.is_solution(states == BLACK)


def _unmet_on_a_blank_grid(found) -> str | None:
    """On a grid with nothing painted, clues that line logic alone finds no grid for, in
    the words of :func:`~xlsolver.hints.clues_unmet`; None otherwise (painted cells are
    checked against every solution instead). Line logic is quick at any size: 0.4 s on
    a 512×512 board in pure Python."""
    from .hints import clues_unmet, unmet_line
    from .teaching.puzzle_files import filled_cells

    if filled_cells(found):
        return None
    line = unmet_line(found.puzzle)
    return None if line is None else clues_unmet(found.puzzle, line)


def _hint_one(book: Book, sheet: Sheet, found) -> Outcome:
    """One more deduction on one puzzle of the sheet, painted with its note; nothing
    painted when no step is found within BUTTON_SECONDS (the spreadsheet waits on it)."""
    from .hints import HintsStopped, clues_unmet, explain, hint_message, unmet_line

    stopped = f"; the Hint button stops after {BUTTON_SECONDS:.0f} s (Solve paints the answer)"
    unmet = _unmet_on_a_blank_grid(found)
    if unmet is not None:  # said at the first press, not after a step that leads nowhere
        return Outcome(unmet, ok=False)
    if isinstance(found.puzzle, ColourPuzzle):  # colour path: teaching/colour_hints.py
        from .teaching.colour_hints import paint_colour_hint

        try:
            message, ok, cells = paint_colour_hint(sheet, found, BUTTON_SECONDS)
        except HintsStopped as exc:
            return Outcome(f"{exc}{stopped}", ok=False)
        _leave_note(sheet, found, cells, message)
        return Outcome(message, ok=ok, painted=len(cells), cells=cells)
    grid = found.givens

    def progress(fraction: float, message: str) -> None:
        book.progress(fraction, f"xlsolver: no line decides a cell; {message}")

    start = time.perf_counter()  # the button's own stop, shared by both stages
    blamed = None
    if np.any(grid & COLOUR != BLANK):  # a wrong mark first: never build on it
        book.progress(0.0, "xlsolver: checking the painted cells")
        blamed = _blamed(found, BUTTON_SECONDS)
        if blamed == "time":
            return Outcome(
                f"no step found in {BUTTON_SECONDS:.0f} s: checking the painted cells "
                f"against every solution had not finished{stopped}",
                ok=False,
            )
    if blamed == "none":  # said at once, not after hints that lead nowhere
        return Outcome(clues_unmet(found.puzzle), ok=False)
    if isinstance(blamed, tuple):
        step, reason = blamed
    else:
        left = max(0.0, BUTTON_SECONDS - (time.perf_counter() - start))
        try:  # the easiest rule first, named as in RULES.md
            step = explain(found.puzzle, grid, left, progress)
        except HintsStopped as exc:
            return Outcome(f"{exc}{stopped}", ok=False)
        if step is None:
            return Outcome("no further deduction from the painted cells", ok=False)
        reason = hint_message(step, found.puzzle)
        unmet = unmet_line(found.puzzle) if step.rule == RULE_DISCREPANCY else None
        if unmet is not None:  # the clues alone clash: no painting is to blame
            reason = clues_unmet(found.puzzle, unmet)
    from .workbook.paint import paint_at_fault

    by_colour: dict[int, list[Cell]] = {}
    for r, c, state in step.cells:
        by_colour.setdefault(state & COLOUR, []).append((r, c))
    for colour, at in by_colour.items():
        if colour == DISCREPANCY:  # a crossed cell keeps its cross
            paint_at_fault(sheet, found, at)
        else:
            sheet.paint([found.cell(r, c) for r, c in at], STYLE_OF[colour])
    cells = [found.cell(r, c) for r, c, _ in step.cells]
    _leave_note(sheet, found, cells, reason)
    return Outcome(reason, ok=step.rule != RULE_DISCREPANCY, painted=len(cells), cells=cells)


def _blamed(found, seconds: float) -> tuple[Step, str] | str | None:
    """The painted cells at fault, as ``solve --givens`` names them: those every
    solution of the clues disagrees with (a red mark on the line where the clash
    surfaced could land on a right cell). None when no single painted cell is wrong (or
    the clues alone have no solution); ``"time"`` when the button's time ran out first."""
    from .workbook.address import cell_ref
    from .workbook.answer import wrong_marks

    wrong = wrong_marks(found.puzzle, found.givens, time_limit=seconds)
    if wrong is None or isinstance(wrong, str):
        return wrong
    cells = [(int(r), int(c), DISCREPANCY) for r, c in zip(*np.nonzero(wrong), strict=True)]
    named = ", ".join(cell_ref(found.cell(r, c)) for r, c, _ in cells[:5])
    more = f" and {len(cells) - 5} more" if len(cells) > 5 else ""
    plural = "s" if len(cells) > 1 else ""
    reason = (
        f"Discrepancy: every solution of the clues disagrees with the painted cell{plural} "
        f"in red: {named}{more}"
    )
    return Step(kind="blame", rule=RULE_DISCREPANCY, cells=cells), reason


def _leave_note(sheet: Sheet, found, cells: list[Cell], reason: str) -> None:
    """The hint's reason as a note on the first of its cells that holds no note of the
    person's own (never written over); no note when every one of them holds one."""
    theirs = sheet.read_notes(found.grid)
    free = [cell for cell in cells if cell not in theirs]
    if free:
        sheet.set_note(free[0], f"{HINT_PREFIX}: {reason}")


def clear(book: Book, sheet: Sheet) -> Outcome:
    """Remove every fill, cross and hint note from the sheet's grids, keeping clues and
    borders.

    A sheet without clues may hold a tiled pentomino board: its tiling is cleared.
    """
    book.progress(0.0, "xlsolver: clearing the grid")
    layout = _layout()
    try:  # the grids Solve and Hint read; notes and tables beside them are left alone
        puzzles = layout.read_puzzles(sheet, book)
    except layout.NoPuzzleError as no_clues:
        return _clear_pentomino(book, sheet, no_clues)
    except (WorkbookError, PuzzleError):  # clues that do not add up (a typo being mended)
        puzzles = layout.read_puzzles(sheet, book, check=False)
    layout.check_unmerged(book, puzzles)
    _check_unlocked(sheet, puzzles)
    painted = 0
    for found in puzzles:
        cells = _grid_cells(found)
        sheet.unpaint(cells)
        _remove_hint_notes(sheet, found)
        painted += len(cells)
    if len(puzzles) == 1:
        return Outcome(f"cleared the {puzzles[0].width}×{puzzles[0].height} grid", painted=painted)
    grids = ", ".join(f"{p.where} ({p.width}×{p.height})" for p in puzzles)
    return Outcome(f"cleared {len(puzzles)} grids: {grids}", painted=painted)


def _clear_pentomino(book: Book, sheet: Sheet, no_clues: Exception) -> Outcome:
    """Clear a pentomino tiling painted by Solve, leaving the board drawn."""
    from .pentomino.board import BoardError
    from .pentomino.sheet import clear_tiling, read_board

    try:
        board = read_board(sheet, book)
    except BoardError:
        raise no_clues from None  # neither a nonogram nor a pentomino board
    cleared = clear_tiling(sheet, board)
    if not cleared and _a_nonogram_sheet(book, sheet):
        raise no_clues from None  # an empty template: as Solve says (a tiling left is cleared)
    if not cleared:
        return Outcome(f"{board.where()}: no tiling is painted on the board")
    return Outcome(f"{board.where()}: cleared the tiling ({cleared} cells)", painted=cleared)


def typed_size(book: Book, sheet: Sheet) -> tuple[int, int] | None:
    """(width, height) typed in the sheet: labelled cells or a ``PuzzleSize`` name."""
    layout = _layout()
    names = layout.named_ranges(book, sheet.name)
    if layout.SIZE_NAME in names:
        return layout.size_from_name(sheet, names[layout.SIZE_NAME])
    dims = layout.typed_dimensions(sheet)
    if "width" in dims and "height" in dims:
        return dims["width"][0], dims["height"][0]
    return None


def new_grid(book: Book, sheet: Sheet) -> Outcome:
    """Lay out an empty template for the width and height typed in the sheet.

    Without a size, an empty size row gets its prompt cells (labels, boxed number
    cells) and the person is told what to type.
    """
    from .workbook.regrid import new_extent, plan_clearing
    from .workbook.template import TITLE_ROW, write_template

    book.progress(0.0, "xlsolver: laying out a new grid")
    size = typed_size(book, sheet)
    if size is None:
        return _ask_for_size(sheet)
    title = sheet.read_values((TITLE_ROW, 1, TITLE_ROW, 1))[0][0]
    from .workbook.colour_template import lay_requested_palette, palette_request

    palette = palette_request(sheet)  # colour path: "colours: N" or an old palette row
    swatches = None if palette is None else palette.count
    extent = new_extent(size, swatches)
    check = getattr(sheet, "check_unlocked", None)  # a protected sheet: say so, change nothing
    if check is not None:
        cells = [(r, c) for r in range(1, extent[2] + 1) for c in range(1, extent[3] + 1)]
        check(cells, template=True)
    clear, in_the_way = plan_clearing(sheet, size, extent)  # a person's own cells stay
    if in_the_way is not None:
        return Outcome(in_the_way, ok=False)
    if clear is not None:
        sheet.clear_range(clear)  # the old template and the new one's place
    layout = write_template(
        sheet, size=size, title=str(title or ""), checks=palette is None, colour=palette is not None
    )
    if palette is not None:
        lay_requested_palette(sheet, layout, palette)
    width, height = size
    top, left = layout.grid[0], layout.grid[1]
    checks = "; a line whose clues cannot fit turns red" if palette is None else ""
    return Outcome(
        f"new {width}×{height} grid laid out; type the clues above and left of it "
        f"(grid starts at row {top}, column {left}){checks}"
    )


def _ask_for_size(sheet: Sheet) -> Outcome:
    """Write the size prompt on an empty size row and say what to type."""
    from .workbook.address import cell_ref
    from .workbook.scan import blank
    from .workbook.template import HEIGHT_CELL, SIZE_ROW, WIDTH_CELL, write_size_cells

    row = sheet.read_values((SIZE_ROW, 1, SIZE_ROW, HEIGHT_CELL[1] + 1))[0]
    width_at, height_at = cell_ref(WIDTH_CELL), cell_ref(HEIGHT_CELL)
    tell = (
        f"type the board's width in {width_at} and its height in {height_at}, then press "
        f"New grid again (or name a cell PuzzleSize holding e.g. 15x20)"
    )
    if all(map(blank, row)):
        write_size_cells(sheet, None, None)
        return Outcome(tell)
    for label, (r, c), at in (("width", WIDTH_CELL, width_at), ("height", HEIGHT_CELL, height_at)):
        value = row[c - 1] if r == SIZE_ROW and c <= len(row) else None
        if value is not None and not _side(value):  # "ten", -1, 7.5: say what is wrong
            shown = value if isinstance(value, str) else f"{value:g}"
            return Outcome(
                f"{at} holds {shown!r}, not a {label}: type a whole number 1…{MAX_SIDE} "
                f"there; {tell}",
                ok=False,
            )
    return Outcome(tell, ok=False)


def _side(value: object) -> bool:
    """True for a width or height New grid can lay out: a whole number 1…MAX_SIDE."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        value = value.strip()
        if not value.isdigit():
            return False
        value = int(value)
    return isinstance(value, (int, float)) and value == int(value) and 1 <= value <= MAX_SIDE


BUTTON_SECONDS = 120.0  # Solve and Hint stop after this: the spreadsheet waits on them
PENTOMINO_SECONDS = 60.0  # the Solve button's limit for tiling a pentomino board

ACTIONS: dict[str, Action] = {"new_grid": new_grid, "solve": solve, "hint": hint, "clear": clear}

"""Excel buttons through xlwings: ``solve()``, ``hint()``, ``clear()``, ``new_grid()``.

Each is called from a button of workbooks/xlsolver.xlsm by VBA, e.g.
``RunPython "import xlsolver.excel; xlsolver.excel.solve()"``. The workbook is
``xw.Book.caller()``; the action runs on the active sheet with screen updating off
(switched on between paint batches so the grid is seen filling in), progress and the
outcome go to the status bar, and a failure also to a message box — never a traceback.
The VBA button hands the status bar back to Excel a few seconds later.
"""

from __future__ import annotations

from .actions import ACTIONS, Outcome, guarded

TITLE = "xlsolver"
INSTALL_HINT = "the Excel buttons need xlwings: pip install 'xlsolver[excel]'"


def _xlwings():
    """The xlwings module, or ImportError saying which extra brings it."""
    try:
        import xlwings
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return xlwings


def run(action: str, book=None) -> Outcome:
    """Run one action on the active sheet of the calling (or a given) xlwings Book."""
    from .sheets.xlwings_sheet import XwBook

    if book is None:
        book = _xlwings().Book.caller()
    app = book.app
    screen = app.screen_updating
    xbook = XwBook(book, live=True)
    app.screen_updating = False
    try:
        outcome = guarded(ACTIONS[action], xbook, xbook.active_sheet())
    finally:
        app.screen_updating = screen
    app.status_bar = f"{TITLE}: {outcome.message}"
    if not outcome.ok:
        app.alert(outcome.message, title=TITLE, mode="critical")
    return outcome


def solve() -> None:
    """Solve the puzzle on the active sheet and paint it, cell batches in trace order."""
    run("solve")


def hint() -> None:
    """Paint one more deduction; its reason goes to the status bar and a cell note."""
    run("hint")


def clear() -> None:
    """Clear the grid's paint and hint notes, keeping clues and borders."""
    run("clear")


def new_grid() -> None:
    """Lay out an empty template for the width and height typed in the sheet."""
    run("new_grid")

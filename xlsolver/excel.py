"""Excel buttons through xlwings: ``solve()``, ``hint()``, ``clear()``, ``new_grid()``.

Each is called from a button of workbooks/xlsolver.xlsm by VBA, e.g.
``RunPython "import xlsolver.excel; xlsolver.excel.solve('" & XLWINGS_VERSION & "')"``.
The workbook is ``xw.Book.caller()``; the action runs on the active sheet with screen
updating off (switched on between paint batches so the grid is seen filling in),
progress and the outcome go to the status bar, and a failure also to a message box —
never a traceback. The VBA button hands the status bar back to Excel a few seconds later.

The argument is the version of xlwings whose VBA module the workbook carries
(``XLWINGS_VERSION`` of that module). It is compared with the xlwings installed here:
see :func:`version_problem` for when a difference matters.
"""

from __future__ import annotations

import re

from .actions import ACTIONS, Outcome, guarded

TITLE = "xlsolver"
INSTALL_HINT = "the Excel buttons need xlwings: pip install 'xlsolver[excel]' (or '.[excel]')"
MIN_XLWINGS = (0, 37, 1)  # Range.borders across platforms
REBUILD = "python workbooks/build_xlsm.py --from-xlwings"


def _xlwings():
    """The xlwings module, or ImportError saying which extra brings it."""
    try:
        import xlwings
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return xlwings


def version_tuple(text: str) -> tuple[int, ...]:
    """``"0.37.8"`` → ``(0, 37, 8)``; a pre-release tail (``0.38.0rc1``) is dropped."""
    return tuple(int(n) for n in re.findall(r"\d+", text.split("+")[0])[:3])


def version_problem(vba: str | None, installed: str) -> str | None:
    """One line when the workbook's xlwings VBA and the installed xlwings do not fit.

    What matters:
    - the installed xlwings is older than 0.37.1, whose cross-platform ``Range.borders``
      painting needs;
    - the two differ in their release line (major.minor, e.g. 0.37 against 0.38): the
      VBA module and the Python package talk through command-line arguments and, on
      macOS, an AppleScript file named after the version, which xlwings changes between
      release lines.
    Patch releases of one line (0.37.1 … 0.37.8) work together. Without ``vba`` (a
    workbook whose buttons do not pass it) only the first check is made.
    """
    have = version_tuple(installed)
    if have < MIN_XLWINGS:
        need = ".".join(map(str, MIN_XLWINGS))
        return (
            f"xlwings {installed} is installed; xlsolver's buttons need {need} or later: "
            f"pip install 'xlsolver[excel]' (or '.[excel]' from a checkout)"
        )
    if vba and version_tuple(vba)[:2] != have[:2]:
        return (
            f"this workbook's buttons carry the VBA of xlwings {vba} but xlwings {installed} "
            f"is installed: pip install 'xlwings=={vba}', or rebuild the buttons with "
            f"{REBUILD} (on macOS then run 'xlwings runpython install' again)"
        )
    return None


def run(action: str, book=None, vba_version: str | None = None) -> Outcome:
    """Run one action on the active sheet of the calling (or a given) xlwings Book."""
    from .sheets.xlwings_sheet import XwBook

    xlwings = _xlwings()
    if book is None:
        book = xlwings.Book.caller()
    app = book.app
    problem = version_problem(vba_version, xlwings.__version__)
    if problem is not None:
        outcome = Outcome(problem, ok=False)
    else:
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


def solve(vba_version: str | None = None) -> None:
    """Solve the puzzle on the active sheet and paint it, cell batches in trace order."""
    run("solve", vba_version=vba_version)


def hint(vba_version: str | None = None) -> None:
    """Paint one more deduction; its reason goes to the status bar and a cell note."""
    run("hint", vba_version=vba_version)


def clear(vba_version: str | None = None) -> None:
    """Clear the grid's paint and hint notes, keeping clues and borders."""
    run("clear", vba_version=vba_version)


def new_grid(vba_version: str | None = None) -> None:
    """Lay out an empty template for the width and height typed in the sheet."""
    run("new_grid", vba_version=vba_version)

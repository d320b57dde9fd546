"""The Calc side of the buttons: find the document, run an action, show the outcome.

Runs inside LibreOffice's own Python, called from the small macro file that
``xlsolver install-libreoffice`` writes (``<profile>/user/Scripts/python/xlsolver.py``).
A macro gets the document from, in order: an argument (a test or another macro may
pass it), ``XSCRIPTCONTEXT.getDocument()`` (Tools ▸ Macros ▸ Run, a button), or the
desktop's current component. With a hidden document the last two are ``None``
(CONVENTIONS §7), so headless callers pass the document.
"""

from __future__ import annotations

from ..actions import ACTIONS, Outcome, guarded
from ..nonogram import sat
from ..sheets.uno_sheet import UnoBook

sat.CHILD_PROCESSES = False  # these macros run inside soffice: never fork it

CALC = "com.sun.star.sheet.SpreadsheetDocument"
TITLE = "xlsolver"
UNDO_NAMES = {"new_grid": "New grid", "solve": "Solve", "hint": "Hint", "clear": "Clear"}


def _is_calc(obj) -> bool:
    """True for a Calc document."""
    try:
        return bool(obj.supportsService(CALC))
    except Exception:  # an event object, a plain value
        return False


def find_document(context, args: tuple):
    """The Calc document a macro should work on, ``None`` when there is none."""
    for arg in args:
        if _is_calc(arg):
            return arg
    if context is not None:
        doc = context.getDocument()
        if _is_calc(doc):
            return doc
        current = context.getDesktop().getCurrentComponent()
        if _is_calc(current):
            return current
    return None


def _visible_window(doc):
    """The document's window when a person can see it, else ``None``."""
    try:
        window = doc.getCurrentController().getFrame().getContainerWindow()
        return window if window.isVisible() else None
    except Exception:
        return None


def show(doc, outcome: Outcome) -> None:
    """Tell a person the outcome: a message box in a visible window, nothing when headless."""
    window = _visible_window(doc) if doc is not None else None
    if window is None:
        return
    from com.sun.star.awt.MessageBoxType import ERRORBOX, INFOBOX

    toolkit = window.getToolkit()
    kind = INFOBOX if outcome.ok else ERRORBOX
    box = toolkit.createMessageBox(window, kind, 1, TITLE, outcome.message)
    box.execute()


def run(action: str, context, args: tuple = ()) -> str:
    """Run one action on the active sheet of the document; the outcome's message.

    The message starts with ``error: `` when the action failed, so a caller without a
    window (a test, a script) can tell.
    """
    doc = find_document(context, args)
    if doc is None:
        return "error: no Calc document is open"
    book = UnoBook(doc)
    undo = getattr(doc, "UndoManager", None)  # one Undo takes back the whole press
    if undo is not None:
        undo.enterUndoContext(f"{TITLE}: {UNDO_NAMES.get(action, action)}")
    try:
        outcome = guarded(ACTIONS[action], book, book.active_sheet())
    finally:
        if undo is not None:
            undo.leaveUndoContext()
    show(doc, outcome)
    return outcome.message if outcome.ok else f"error: {outcome.message}"

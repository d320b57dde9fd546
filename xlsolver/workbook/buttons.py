"""A workbook with the New grid / Solve / Hint / Clear buttons, for Excel.

The package carries ``data/buttons.xlsm`` (written by workbooks/build_xlsm.py: xlwings'
VBA module, our ``Module1`` and four form buttons on an empty ``Puzzle`` sheet), so a
wheel installed without the source checkout can still make one:
``xlsolver new --size 15x15 -o puzzle.xlsm``.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path

from ..sheets import paper
from ..sheets.errors import WorkbookError
from .template import TemplateLayout, write_template

BUTTONS_FILE = Path(__file__).resolve().parent.parent / "data" / "buttons.xlsm"
PUZZLE_SHEET = "Puzzle"
VML = "xl/drawings/vmlDrawing1.vml"
ANCHOR = re.compile(r"<x:Anchor>([^<]*)</x:Anchor>")
MARGIN_LEFT = re.compile(r"margin-left:[\d.]+pt")
DEFAULT_WIDTH_PT = 48.0  # a column of Excel's default width (8.43 characters, 64 px)
NARROW_WIDTH_PT = paper.points(paper.CELL_PIXELS)  # a template column


def write_button_workbook(
    target: str | os.PathLike,
    size: tuple[int, int],
    title: str = "",
    sheet_name: str = PUZZLE_SHEET,
    colours: int = 0,
) -> TemplateLayout:
    """An empty template of ``size`` on the Puzzle sheet of the button workbook, saved.

    The buttons work on the active sheet, so the sheet may take another name;
    ``colours`` > 0 lays out a colour template with that many swatches.
    """
    from ..sheets.openpyxl_sheet import open_book
    from ..writes import WriteError, render, write_bytes

    if not BUTTONS_FILE.exists():
        raise WorkbookError(f"{BUTTONS_FILE}: missing from this installation of xlsolver")
    book = open_book(BUTTONS_FILE)
    sheet = book.sheet(PUZZLE_SHEET)
    sheet.ws.title = sheet_name
    if colours:
        from .colour_template import write_empty_colour_template

        layout = write_empty_colour_template(sheet, size, colours, title=title)
    else:
        layout = write_template(sheet, size=size, title=title, checks=True)
    try:
        data = move_buttons(
            render(target, book.wb.save), column=max(layout.grid[3], layout.print_area[3])
        )
        write_bytes(target, data)
    except WriteError as exc:
        raise WorkbookError(str(exc)) from None
    return layout


def move_buttons(xlsm: bytes, column: int) -> bytes:
    """The workbook with its buttons moved right of sheet column ``column`` (1-based).

    Form buttons live in the legacy VML drawing: ``x:Anchor`` names their cells
    (0-based column, offset, row, offset for two corners) and the shape's style its
    position in points; both are rewritten, the rows kept.
    """
    with zipfile.ZipFile(io.BytesIO(xlsm)) as zf:
        members = [(info, zf.read(info.filename)) for info in zf.infolist()]
    out = io.BytesIO()
    left_pt = column * NARROW_WIDTH_PT + DEFAULT_WIDTH_PT  # one empty column between
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in members:
            if info.filename == VML:
                text = data.decode("utf-8")
                text = ANCHOR.sub(lambda m: _anchor(m.group(1), column + 1), text)
                text = MARGIN_LEFT.sub(f"margin-left:{left_pt:.2f}pt", text)
                data = text.encode("utf-8")
            zf.writestr(info, data)
    return out.getvalue()


def _anchor(text: str, col0: int) -> str:
    """An ``x:Anchor`` value with its two columns set to ``col0`` and the next one."""
    parts = [p.strip() for p in text.split(",")]
    width = int(parts[4]) - int(parts[0])
    parts[0], parts[4] = str(col0), str(col0 + width)
    return f"<x:Anchor>{', '.join(parts)}</x:Anchor>"

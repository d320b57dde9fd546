"""``xlsolver new``: an empty puzzle template sized for the board, ready for clues."""

from __future__ import annotations

import sys
from pathlib import Path

from ..exits import EXIT_BAD_INPUT, EXIT_OK
from ..nonogram.cells import MAX_INKS
from ..sheets.errors import WorkbookError, check_sheet_name
from ..sheets.openpyxl_sheet import new_book
from ..workbook.clues import parse_size
from ..workbook.files import save_new
from ..workbook.template import write_template
from .options import Once

HELP = "lay out an empty puzzle template (clue areas, grid) for a board size"


def add_arguments(parser) -> None:
    """--size WxH, -o OUTPUT, --title."""
    parser.add_argument("--size", required=True, help="board size as WIDTHxHEIGHT, e.g. 15x20")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        help="the workbook to write: .xlsx, .ods, .xls, or .xlsm with the Excel buttons",
    )
    parser.add_argument("--title", default="", help="a title above the puzzle")
    parser.add_argument(
        "--sheet", default="Puzzle", action=Once, help="sheet name (default Puzzle)"
    )
    parser.add_argument(
        "--colours",
        "--colors",
        type=int,
        default=0,
        metavar="N",
        help="a colour puzzle: a palette row of N swatches below the grid to fill with the "
        "colours (then fill each clue cell with its clue's colour)",
    )


def run(args) -> int:
    """Write the template; exit status 2 for a bad size or an unwritable file."""
    size = parse_size(args.size)
    if size is None:
        print(f"xlsolver: --size {args.size!r}: expected WIDTHxHEIGHT, e.g. 15x20", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not 0 <= args.colours <= MAX_INKS:
        print(f"xlsolver: --colours {args.colours}: expected 1…{MAX_INKS}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        check_sheet_name(args.sheet)
        if Path(args.output).suffix.lower() == ".xlsm":  # with the Excel buttons
            from ..workbook.buttons import write_button_workbook

            write_button_workbook(args.output, size, args.title, args.sheet, args.colours)
        else:
            book = new_book()
            sheet = book.sheets()[0]
            sheet.ws.title = args.sheet
            if args.colours:
                from ..workbook.colour_template import write_empty_colour_template

                write_empty_colour_template(sheet, size, args.colours, title=args.title)
            else:
                write_template(sheet, size=size, title=args.title, checks=True)
            save_new(book, args.output)
    except (ValueError, OSError) as exc:
        reason = exc if isinstance(exc, WorkbookError) else f"{args.output}: {exc}"
        print(f"xlsolver: {reason}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{args.output}: empty {size[0]}×{size[1]} template; type the clues around the grid")
    return EXIT_OK

"""``xlsolver convert``: puzzle file → ready-to-solve workbook, and workbook → puzzle file."""

from __future__ import annotations

import sys
from pathlib import Path

from ..exits import EXIT_BAD_INPUT, EXIT_OK
from ..formats import FormatError, read_puzzles, write_puzzles
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle
from ..sheets.errors import BAD_SHEET_CHARS, MAX_SHEET_NAME, WorkbookError
from ..sheets.openpyxl_sheet import new_book
from ..workbook.batch import check_unmerged, with_file
from ..workbook.files import check_target, close_book, is_workbook, open_book, save_new
from ..workbook.layout import find_puzzles
from ..workbook.template import write_template
from ..writes import check_output

HELP = (
    "convert between puzzle files (.non, .nin, TAAI, webpbn XML, JSON, …) and workbooks "
    "(.xlsx, .ods, …)"
)


def add_arguments(parser) -> None:
    """INPUT, -o OUTPUT, --sheet, --format."""
    parser.add_argument("input", help="a puzzle file or a workbook")
    parser.add_argument("-o", "--output", required=True, help="the file to write")
    parser.add_argument("--sheet", help="read only this sheet of a workbook")
    parser.add_argument("--format", help="puzzle format to write (default: from the extension)")
    parser.add_argument(
        "--in-place", action="store_true", help="allow -o to name the input file itself"
    )


def sheet_names(puzzles: list[Puzzle]) -> list[str]:
    """Unique valid sheet names from the puzzles' titles (``Puzzle N`` without one)."""
    names: list[str] = []
    for i, p in enumerate(puzzles, start=1):
        base = BAD_SHEET_CHARS.sub(" ", p.title or "").strip().strip("'").lstrip("=+-@ ")
        base = base[:MAX_SHEET_NAME].strip()
        base = base or f"Puzzle {i}"
        name, n = base, 2
        while name.lower() in (x.lower() for x in names):
            suffix = f" ({n})"
            name = base[: MAX_SHEET_NAME - len(suffix)] + suffix
            n += 1
        names.append(name)
    return names


def to_workbook(puzzles: list[Puzzle], output: Path, inputs=(), in_place: bool = False) -> None:
    """One template sheet per puzzle (colour clue cells in their colours), saved safely."""
    book = new_book()
    first = book.sheets()[0]
    for i, (puzzle, name) in enumerate(zip(puzzles, sheet_names(puzzles), strict=True)):
        sheet = first if i == 0 else book.add_sheet(name)
        sheet.ws.title = name
        if isinstance(puzzle, ColourPuzzle):
            from ..workbook.colour_template import write_colour_template

            write_colour_template(sheet, puzzle, title=puzzle.title)
        else:
            write_template(sheet, puzzle, title=puzzle.title, checks=True)
    save_new(book, output, inputs, in_place=in_place)


def read_source(source: Path, sheet: str | None) -> list[Puzzle]:
    """The puzzles of the input; WorkbookError/FormatError naming the file when not."""
    if not is_workbook(source):
        return read_puzzles(source)  # several: the writer says whether the target holds them
    book = open_book(source, read_only=True)
    try:
        found = find_puzzles(book, sheet=sheet)
        check_unmerged(book, found)
    except KeyError as exc:
        raise WorkbookError(with_file(str(source), str(exc.args[0]))) from None
    except WorkbookError as exc:
        raise WorkbookError(with_file(str(source), str(exc))) from None
    finally:
        close_book(book)
    return [f.puzzle for f in found]  # several: the writer says whether the target holds them


def run(args) -> int:
    """Convert one file; exit status 2 with one line when it cannot be read or written."""
    source, output = Path(args.input), Path(args.output)
    inputs, in_place = [source], bool(getattr(args, "in_place", False))
    try:
        check_output(output, inputs, in_place=in_place)
        if is_workbook(output):
            check_target(output)
        puzzles = read_source(source, args.sheet)
        if is_workbook(output):
            to_workbook(puzzles, output, inputs, in_place)
        else:
            try:
                write_puzzles(puzzles, output, args.format, inputs, in_place=in_place)
            except FormatError as exc:
                if len(puzzles) > 1 and is_workbook(source):  # a workbook's puzzles
                    reason = f"{exc.reason}; or pick one sheet with --sheet"
                    raise FormatError(reason, exc.path, exc.line) from None
                raise
        count = len(puzzles)
    except (WorkbookError, FormatError, ValueError, OSError) as exc:
        print(f"xlsolver: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{source} → {output}: {count} puzzle{'s' if count != 1 else ''}")
    return EXIT_OK

"""``xlsolver pentomino``: tile a board drawn on a sheet (or a named board) with pentominoes."""

from __future__ import annotations

import sys

from ..exits import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED
from ..pentomino.board import (
    NAMED_BOARDS,
    BoardError,
    BoardSizeError,
    PentominoBoard,
    named_board,
    tiling_text,
)
from ..pentomino.pieces import LETTERS, PIECE_SIZE
from ..pentomino.solver import COMPLETE, LIMIT, TIMEOUT, Tiler, TilingResult
from ..progress import TerminalBar, both
from ..sheets.errors import WorkbookError
from .options import Once, add_time_limit

HELP = "tile a board drawn on a sheet with the 12 pentominoes; count its tilings"
DEFAULT_ALL_LIMIT = 100  # sheets written by --all unless --limit says otherwise
NEW_SHEET = "Pentomino"
MIN_SEARCH_TIME = 0.1  # seconds left to find a tiling to show after a timed-out count


def add_arguments(parser) -> None:
    """INPUT or --board, -o, --count, --all-copies, --one-sided, --pieces, limits."""
    parser.add_argument("input", nargs="?", help="a workbook with the board drawn on a sheet")
    parser.add_argument(
        "--board", help=f"a named board instead of a file: {', '.join(NAMED_BOARDS)} or HxW"
    )
    parser.add_argument("-o", "--output", help="write the painted tiling(s) to this workbook")
    parser.add_argument(
        "--sheet",
        action=Once,
        help="the sheet holding the board (default: the first drawing of the board's cell count)",
    )
    parser.add_argument("--count", action="store_true", help="count every tiling")
    parser.add_argument(
        "--all-copies",
        action="store_true",
        help="count and list mirrored/turned copies of a tiling as different",
    )
    parser.add_argument(
        "--one-sided", action="store_true", help="pieces may be turned but not flipped over"
    )
    parser.add_argument(
        "--pieces", default=LETTERS, help=f"the pieces to use, each once (default {LETTERS})"
    )
    parser.add_argument("--limit", type=int, help="stop after this many tilings")
    add_time_limit(parser)
    parser.add_argument(
        "--all",
        action="store_true",
        help=f"write every tiling to its own sheet (up to --limit, default {DEFAULT_ALL_LIMIT})",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _fail(message: str) -> int:
    """Print a one-line error; exit status 2."""
    print(f"xlsolver: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run(args) -> int:
    """Read the board, search, print or write the result."""
    opened: list = []
    try:
        return _run(args, opened)
    finally:
        from ..workbook.files import close_book

        for book in opened:
            close_book(book)  # a LibreOffice document is closed; openpyxl needs nothing


def _run(args, opened: list) -> int:
    """:func:`run`; the workbook it opens goes into ``opened``."""
    if (args.input is None) == (args.board is None):
        return _fail("give a workbook or --board NAME (one of them)")
    if args.limit is not None and args.limit < 1:
        return _fail(f"--limit {args.limit}: must be at least 1")
    book = sheet = None
    try:
        if args.output:
            _check_output(args.output, args.input)
        if args.board is not None:
            board = named_board(args.board)
        else:
            from ..pentomino.sheet import find_board
            from ..workbook.files import open_book

            book = open_book(args.input)  # .ods, .xls and .xlsb through LibreOffice
            opened.append(book)
            need = PIECE_SIZE * len(set(args.pieces.upper()))
            board = find_board(book, args.sheet, need)
            sheet = book.sheet(board.sheet)
        tiler = Tiler(board, args.pieces, args.one_sided)
    except (BoardError, WorkbookError) as exc:
        from ..workbook.batch import with_file

        message = str(exc)
        if isinstance(exc, BoardSizeError) and len(set(args.pieces.upper())) == len(LETTERS):
            message += " (or choose fewer pieces with --pieces)"
        return _fail(with_file(args.input, message) if args.input else message)
    enabled = not args.quiet and sys.stderr.isatty()
    with TerminalBar(board.name, enabled) as bar:
        report = both(bar, book.progress if book is not None else None)
        if args.count and args.limit is None:
            counted = tiler.count(
                all_copies=args.all_copies, time_limit=args.time_limit, progress=report
            )
            limit = DEFAULT_ALL_LIMIT if args.all else 1
            rest = args.time_limit and max(args.time_limit - counted.seconds, MIN_SEARCH_TIME)
        else:
            counted = None
            limit = args.limit or (DEFAULT_ALL_LIMIT if args.all else 1)
            rest = args.time_limit
        result = tiler.solve(
            limit=limit, all_copies=args.all_copies, time_limit=rest, progress=report
        )
        if book is not None:
            book.progress(None, "")
    if counted is not None:
        print(_count_line(board, counted, args.all_copies))
    elif args.count:  # --count --limit N: the tilings found, and why it stopped
        stop = f" (stopped: {TIMEOUT})" if result.status == TIMEOUT else ""
        print(_found_line(board, result) + stop)
    listed = (args.all or args.limit is not None) and not args.output  # every one found
    shown = result.solutions if listed else result.solutions[:1]
    for solution in shown:
        print(tiling_text(board, solution) + "\n")
    _say_stopped(board, result, counted is None and not args.count)
    if args.output and result.solutions:
        code = _write(args, book, sheet, board, result)
        if code:
            return code
    ok = bool(result.solutions) and (counted is None or counted.complete)
    return EXIT_OK if ok and result.status in (COMPLETE, LIMIT) else EXIT_UNSOLVED


def _square_cells(sheet, board: PentominoBoard) -> None:
    """Square cells on a sheet of a new workbook, as the nonogram templates have (the
    default columns printed each cell 2.7 times wider than tall)."""
    from ..sheets.paper import CELL_HEIGHT, CELL_WIDTH

    top, left = board.origin
    sheet.set_column_widths({c: CELL_WIDTH for c in range(left, left + board.width)})
    sheet.set_row_heights({r: CELL_HEIGHT for r in range(top, top + board.height)})


def _check_output(output: str, source: str | None) -> None:
    """WorkbookError before the search for a name no workbook can have, a missing folder,
    or the board's own file (the search is not run for nothing)."""
    from ..workbook.files import check_target
    from ..writes import WriteError, check_output

    check_target(output)
    try:
        check_output(output, [source] if source else [])
    except WriteError as exc:
        raise WorkbookError(str(exc)) from None


def _say_stopped(board: PentominoBoard, result: TilingResult, listing: bool) -> None:
    """On stderr: why no tiling is shown, or that a listing was cut short by the time limit."""
    if not result.solutions:
        print(f"{board.where()}: {_no_tiling(result)}", file=sys.stderr)
    elif listing and result.status == TIMEOUT:
        print(f"{_found_line(board, result)} (stopped: {TIMEOUT})", file=sys.stderr)


def _count_line(board: PentominoBoard, counted: TilingResult, all_copies: bool) -> str:
    """``6x10: 2339 tilings (9356 counting mirror images and turns), 0.81 s``."""
    prefix = "" if counted.complete else "at least "
    stop = "" if counted.complete else f" (stopped: {counted.status})"
    if not counted.complete and not counted.raw:  # counts come whole, at the last level
        return f"{board.where()}: count not finished, {counted.seconds:.2f} s{stop}"
    distinct = counted.distinct if counted.distinct is not None else "?"
    if all_copies:
        main = f"{prefix}{counted.raw} tilings counting symmetric copies ({distinct} distinct)"
    else:
        main = f"{prefix}{distinct} distinct tilings ({counted.raw} counting symmetric copies)"
    return f"{board.where()}: {main}, {counted.seconds:.2f} s{stop}"


def _found_line(board: PentominoBoard, result: TilingResult) -> str:
    """The count found by a search stopped at --limit or the time limit."""
    prefix = "" if result.complete else "at least "
    return f"{board.where()}: {prefix}{len(result.solutions)} tilings, {result.seconds:.2f} s"


def _no_tiling(result: TilingResult) -> str:
    """Why no tiling is shown."""
    if result.status == COMPLETE:
        return "no tiling exists"
    return f"no tiling found before the {result.status}"


def _write(args, book, sheet, board: PentominoBoard, result: TilingResult) -> int:
    """Paint the tilings into the output workbook; 2 when it cannot be written."""
    from ..pentomino.sheet import write_tilings
    from ..sheets.openpyxl_sheet import new_book
    from ..workbook.files import save_copy

    try:
        if book is None:
            book = new_book()
            blank = book.sheets()[0].name
            sheet = book.add_sheet(NEW_SHEET)
            book.remove_sheet(blank)
            board = PentominoBoard(board.cells, board.fixed, board.name, NEW_SHEET, board.origin)
        listed = args.all or args.limit is not None  # --limit N: each tiling found
        solutions = result.solutions if listed else result.solutions[:1]
        names = write_tilings(book, sheet, board, solutions)
        if args.input is None:  # a new workbook: its cells square
            for name in names:
                _square_cells(book.sheet(name), board)
        save_copy(book, args.output)
    except (BoardError, WorkbookError, OSError) as exc:
        reason = exc if isinstance(exc, (BoardError, WorkbookError)) else f"{args.output}: {exc}"
        return _fail(str(reason))
    shown = names if len(names) <= 4 else [*names[:3], "…", names[-1]]
    print(f"{args.output}: {len(names)} tiling(s) painted on {', '.join(shown)}")
    left_out = getattr(book, "left_out", {})  # text boxes, macros openpyxl cannot keep
    if left_out and args.input:
        from ..sheets.xlsx_parts import left_out_note

        print(left_out_note(args.input, left_out), file=sys.stderr)
    return EXIT_OK

"""``xlsolver check``: verdict and difficulty of a puzzle sheet, nothing painted."""

from __future__ import annotations

import argparse
import json

from ..limits import DEFAULT_TIME_LIMIT
from ._teaching import BAD_INPUT, fail, report
from .options import Once, add_range, add_time_limit, sheet_or_range

HELP = "tell whether a puzzle sheet has one solution and how hard it is (writes nothing)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The check command's options."""
    p.add_argument("workbook", help="a workbook with a puzzle sheet, or a puzzle file")
    p.add_argument(
        "--sheet",
        metavar="NAME",
        action=Once,
        help="the puzzle's sheet (default: Puzzle, first); of a puzzle file, the title or "
        "number of one puzzle (default: every puzzle)",
    )
    add_range(p)
    add_time_limit(p, DEFAULT_TIME_LIMIT)
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON line")


def run(args: argparse.Namespace) -> int:
    """Read, judge, print (every puzzle of a puzzle file that holds several)."""
    from ..workbook.files import is_workbook

    try:
        sheet = sheet_or_range(args, is_workbook(args.workbook))
    except ValueError as exc:
        return fail(exc, args.workbook)
    if not is_workbook(args.workbook):
        return _check_file(args)
    from ..teaching.worksheet import puzzle_sheet
    from ..workbook.files import open_book
    from ..workbook.layout import SeveralPuzzles

    try:
        book = open_book(args.workbook, read_only=True)
        try:
            puzzles = [puzzle_sheet(book, sheet)]
        except SeveralPuzzles as exc:
            if sheet is not None or len({p.sheet for p in exc.puzzles}) < len(exc.puzzles):
                raise  # a sheet of several: one is picked by range
            puzzles = exc.puzzles  # a puzzle on each of several sheets: each judged
    except BAD_INPUT as exc:
        return fail(exc, args.workbook)
    return _check_puzzles(args, book, puzzles)


def _check_puzzles(args: argparse.Namespace, book, puzzles) -> int:
    """The puzzles read from a workbook, each judged and reported: one under the file's
    name, those of a workbook of puzzle sheets (``convert``'s book of a batch, a week's
    sheets) as ``FILE [Week2!F6:M13]``, as the puzzles of a puzzle file are."""
    from ..teaching import check_found

    code = 0
    for found in puzzles:
        try:
            verdict = check_found(book, found, time_limit=args.time_limit)
        except BAD_INPUT as exc:
            code = max(code, fail(exc, args.workbook))
            continue
        if len(puzzles) == 1:
            code = max(code, report(args.workbook, verdict, args.json))
            continue
        source = f"{args.workbook} [{found.where}]"
        code = max(code, report(source, verdict, args.json, extra={"range": found.where}))
    return code


def _check_file(args: argparse.Namespace) -> int:
    """The puzzles of a puzzle file, each judged and reported (``FILE [2: Cat]``)."""
    from ..formats import shown_name
    from ..teaching import check_puzzle, file_puzzles, goal_of

    try:
        puzzles = file_puzzles(args.workbook, args.sheet, lenient=True)
    except BAD_INPUT as exc:
        return fail(exc, args.workbook)
    code, name = 0, shown_name(args.workbook)
    for number, puzzle in puzzles:
        source = name
        if len(puzzles) > 1 or args.sheet is not None:
            title = getattr(puzzle, "title", "")
            source = f"{source} [{number}" + (f": {title}]" if title else "]")
        if isinstance(puzzle, ValueError):  # unreadable or invalid: named, the rest go on
            if args.json:
                record = {"source": source, "status": "invalid", "error": str(puzzle)}
                print(json.dumps(record, ensure_ascii=False))
            code = max(code, fail(puzzle, args.workbook))
            continue
        verdict = check_puzzle(puzzle, goal_of(puzzle), time_limit=args.time_limit)
        code = max(code, report(source, verdict, args.json))
    return code
